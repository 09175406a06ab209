//! `surqlc init` round-tripped on the engine (issue 52): every example schema's own `schema.surql`
//! read back into annotated Rust, that file built again, and both applied to fresh embedded
//! databases: their tables (views included), fields, indexes, analyzers and functions are equal, or
//! each difference is named in init's notes.

use surqlc::init::{self, Init, Options, Source};
use surqlc_tests::{block_on, builder, read, root, scratch_dir};

/// `init` on `sources`, the file written to a scratch directory, built and compared on the engine.
fn round_trip(name: &str, sources: &[Source]) -> (Init, Vec<String>, String) {
    let options = Options {
        schema_type: init::schema_type_for(name),
        functions_file: format!("{name}.functions.surql"),
        from: format!("{name}.surql"),
    };
    let out = init::init(sources, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
    let dir = scratch_dir(&format!("init-{name}"));
    let file = dir.join(format!("{name}.rs"));
    std::fs::write(&file, &out.rust).unwrap();
    if let Some(f) = &out.functions {
        std::fs::write(dir.join(&options.functions_file), f).unwrap();
    }
    let diffs = block_on(init::live::round_trip(sources, &file, &out))
        .unwrap_or_else(|e| panic!("{name}: the written file does not build: {e}\n{}", out.rust));
    let rust = out.rust.clone();
    (out, diffs, rust)
}

/// Whether `difference` (a line of `live::differences`) is about something a note of `init` names.
fn named(out: &Init, difference: &str) -> bool {
    let key = difference.split(':').next().unwrap_or("");
    let mut words = key.split_whitespace().skip(1);
    let name = words.next().unwrap_or("");
    let table = key.split(" ON ").nth(1).unwrap_or(name);
    out.left_out.iter().chain(&out.choices).any(|n| {
        n.what.contains(&format!("{table}.{name}"))
            || n.what.contains(&format!("table {table}"))
            || n.what.contains(name) && n.what.contains(table)
    })
}

#[test]
fn every_example_schema_round_trips_on_the_engine() {
    for name in [
        "store",
        "marketplace",
        "clinic",
        "memory",
        "meetings",
        "library",
        "enterprise",
    ] {
        let built = builder(name).generate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let source = Source {
            name: format!("{name}.schema.surql"),
            text: built.schema_surql.clone(),
        };
        let (out, diffs, rust) = round_trip(name, &[source]);
        let unnamed: Vec<&String> = diffs.iter().filter(|d| !named(&out, d)).collect();
        assert!(
            unnamed.is_empty(),
            "{name}: differences init did not name:\n{}\n\n{rust}",
            unnamed.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
        );
        assert!(out.own > 0, "{name}: surqlc's own definitions were not recognised");
        assert_eq!(
            out.table_names.len(),
            built.schema.tables.len(),
            "{name}: every table is written"
        );
        eprintln!(
            "{name}: {} tables, {} differences, {} left out, {} choices",
            out.table_names.len(),
            diffs.len(),
            out.left_out.len(),
            out.choices.len()
        );
        for d in &diffs {
            eprintln!("  {d}");
        }
    }
}
