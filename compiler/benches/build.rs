//! Times `surqlc build` (front end, schema.surql, schema.rs) on a synthetic Rust schema of 1,000 tables using the definition clauses, indexes and analyzers.
//!
//! Run with `cargo bench -p surqlc --bench build [-- TABLES]`; the budget is 1 ms per table in release.

#[path = "../../cli/src/allocator.rs"]
mod allocator;

use std::fmt::Write;
use std::time::Instant;

/// Rust source for `tables` tables: typed ids, clauses, a composite unique index, a full-text and
/// an HNSW index on each, every fifth a schemaless enforced relation; one analyzer.
fn source(tables: usize) -> String {
    let mut s = String::from(
        "#[derive(Schema)]\n#[surqlc(analyzer(name = \"en\", tokenizers(blank, class), filters(\"lowercase\", \"snowball(english)\")), value_hints(ids(Table0), range(Table0::created_at), note(\"synthetic\")))]\npub struct Synthetic;\n\n",
    );
    for i in 0..tables {
        if i % 5 == 4 {
            let _ = write!(
                s,
                "/// Relation {i}.\n#[derive(Relation)]\n#[surqlc(schemaless, enforced)]\npub struct Table{i} {{\n    pub r#in: Link<Table{}>,\n    pub out: Link<Table{}>,\n    /// Weight.\n    #[surqlc(default = \"1\", assert = \"$value >= 0\")]\n    pub weight: i64,\n}}\n\n",
                i - 2,
                i - 1
            );
            continue;
        }
        let _ = write!(
            s,
            "/// Synthetic table {i}.\n#[derive(Table)]\n#[surqlc(\n    index(fields(parent_key, name), unique),\n    index(fields(body), fulltext(analyzer = \"en\", bm25(1.2, 0.75), highlights)),\n    index(fields(embedding), hnsw(dist = \"cosine\", type = \"f32\")),\n    permissions(select = full, create = \"$auth != NONE\", update = \"$auth != NONE\", delete = none)\n)]\npub struct Table{i} {{\n    pub id: i64,\n    /// Name.\n    #[surqlc(assert = \"string::len($value) > 0\")]\n    pub name: String,\n    /// Parent.\n    #[surqlc(default = \"NONE\", reference(on_delete = \"cascade\"))]\n    pub parent: Option<Link<Table{i}>>,\n    /// Parent key.\n    #[surqlc(value = \"IF parent IS NONE {{ 'root' }} ELSE {{ <string> record::id(parent) }}\")]\n    pub parent_key: String,\n    /// Body.\n    pub body: String,\n    /// Length.\n    #[surqlc(computed = \"string::len(body)\")]\n    pub length: i64,\n    /// Created.\n    #[surqlc(default = \"time::now()\", readonly)]\n    pub created_at: Datetime,\n    /// Embedding.\n    pub embedding: [f32; 4],\n}}\n\n"
        );
    }
    s
}

/// This process's CPU time (user + system, all threads) from /proc, in seconds; `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    allocator::keep_freed_memory();
    let tables: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1000);
    let dir = std::env::temp_dir().join(format!("surqlc-bench-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("synthetic.rs");
    std::fs::write(&path, source(tables)).unwrap();
    let mut builder = surqlc::Builder::new();
    builder.schema(&path).cargo_metadata(false);
    // One warm-up run (template parsing, allocator), then the measured runs.
    let output = builder.generate().expect("the synthetic schema compiles");
    assert_eq!(output.schema.tables.len(), tables);
    let runs = 5;
    let cpu_before = cpu_seconds();
    let start = Instant::now();
    for _ in 0..runs {
        builder.generate().unwrap();
    }
    let per_run = start.elapsed() / runs;
    if let (Some(a), Some(b)) = (cpu_before, cpu_seconds()) {
        // On a loaded machine wall time overstates the work; CPU time (all threads) does not.
        println!(
            "cpu per build: {:.0} ms ({:.3} ms per table)",
            (b - a) * 1000.0 / f64::from(runs),
            (b - a) * 1000.0 / f64::from(runs) / tables as f64
        );
    }
    let start = Instant::now();
    let schema = builder.load().unwrap();
    let front = start.elapsed();
    let start = Instant::now();
    surqlc::codegen::emit::render_schema_surql(&schema, &Default::default()).unwrap();
    let surql = start.elapsed();
    let start = Instant::now();
    surqlc::codegen::rustgen::render_module(&schema, &Default::default()).unwrap();
    let rust = start.elapsed();
    println!(
        "front end {:.1} ms, schema.surql {:.1} ms, schema.rs {:.1} ms",
        front.as_secs_f64() * 1000.0,
        surql.as_secs_f64() * 1000.0,
        rust.as_secs_f64() * 1000.0
    );
    let per_table = per_run.as_secs_f64() * 1000.0 / tables as f64;
    println!(
        "build of {tables} tables: {:.1} ms ({per_table:.3} ms per table; schema.surql {} KiB, schema.rs {} KiB)",
        per_run.as_secs_f64() * 1000.0,
        output.schema_surql.len() / 1024,
        output.rust_module.len() / 1024
    );
    std::fs::remove_dir_all(&dir).ok();
}
