//! The validator's cost over the parse it starts from: for the store's queries (the right corpus and the catalogue's fixed queries), the median time to validate one against the schema beside the time SurrealDB's parser alone takes for it (the floor), and the ratio.
//!
//! Run with `cargo bench -p surqlc --features codegen,validate --bench validate_cost` (release).
//! Each side is timed as the least of five batches of 40 calls (the machine is shared: timed
//! once, the worst query's ratio swung between 19x and 82x from run to run), and the costliest queries are printed.
//! The figures and the machine are in docs/grounding.md.

use std::time::Instant;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The store's queries: the right corpus, and the fixed twin of every catalogue case on `store`.
fn queries(root: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    let right = std::fs::read_to_string(root.join("tests/corpus/store_right.surql")).expect("corpus");
    for piece in surqlc::validate::split_queries(&right, false) {
        out.push(piece.text);
    }
    let catalogue = std::fs::read_to_string(root.join("tests/corpus/catalogue.surql")).expect("catalogue");
    let lines: Vec<&str> = catalogue.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("-- SQ") && line.split_whitespace().nth(2) == Some("store") {
            out.push(lines[i + 2].to_owned());
        }
    }
    out.retain(|q| !q.trim_start().starts_with("--"));
    out
}

/// Microseconds per call of `f`, the least of `batches` batches of `rounds` calls: the machine is
/// shared, and the least disturbed batch is the cost itself (both sides are measured alike).
fn least(batches: usize, rounds: u32, mut f: impl FnMut()) -> f64 {
    (0..batches)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..rounds {
                f();
            }
            start.elapsed().as_secs_f64() * 1e6 / f64::from(rounds)
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let file = surqlc::front::SourceFile::read(root.join("schemas/store.rs")).expect("store.rs");
    let schema = surqlc::front::compile(&[file]).expect("the store compiles");
    let queries = queries(&root);
    let (batches, rounds) = (5, 40);
    let (mut parse, mut validate) = (Vec::new(), Vec::new());
    for q in &queries {
        // Warm up both.
        for _ in 0..20 {
            std::hint::black_box(surrealdb_syn::parse(q).ok());
            std::hint::black_box(surqlc::validate::validate(&schema, q));
        }
        parse.push(least(batches, rounds, || {
            std::hint::black_box(surrealdb_syn::parse(q).ok());
        }));
        validate.push(least(batches, rounds, || {
            std::hint::black_box(surqlc::validate::validate(&schema, q));
        }));
    }
    let ratios: Vec<f64> = validate.iter().zip(&parse).map(|(v, p)| v / p).collect();
    let (total_v, total_p): (f64, f64) = (validate.iter().sum(), parse.iter().sum());
    println!(
        "{} store queries, the least of {batches} batches of {rounds} rounds each",
        queries.len()
    );
    println!("parse alone      median {:>8.1} µs per query", median(parse.clone()));
    println!("validate         median {:>8.1} µs per query", median(validate.clone()));
    println!(
        "validate / parse median {:>8.2}x, over all queries {:.2}x, worst {:.2}x",
        median(ratios.clone()),
        total_v / total_p,
        ratios.iter().copied().fold(0.0, f64::max)
    );
    // The costliest queries by ratio, so a regression names its query.
    let mut order: Vec<usize> = (0..queries.len()).collect();
    order.sort_by(|&a, &b| ratios[b].total_cmp(&ratios[a]));
    println!("the costliest queries (validate / parse):");
    for &i in order.iter().take(3) {
        println!(
            "  {:>5.2}x  {:>5.1} / {:>4.1} µs  {}",
            ratios[i],
            validate[i],
            parse[i],
            queries[i].trim()
        );
    }
}
