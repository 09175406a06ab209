//! Times validating typical store queries against running `EXPLAIN` for them on the embedded engine.
//!
//! Run with `cargo bench -p surqlc --features db,validate --bench validate`.

use std::time::{Duration, Instant};

const QUERIES: &[&str] = &[
    "SELECT out.category AS category, math::sum(qty * unit_price) AS revenue FROM contains WHERE in.status = 'shipped' GROUP BY category ORDER BY revenue DESC LIMIT 50;",
    "SELECT name, array::distinct(->placed->purchase->contains->product.name) AS products FROM customer WHERE tier = 'pro' LIMIT 50;",
    "SELECT count() AS orders FROM purchase WHERE placed_at >= d'2025-05-01T00:00:00Z' AND placed_at < d'2025-06-01T00:00:00Z' GROUP ALL LIMIT 50;",
    "SELECT name, tier FROM customer WHERE country = 'ES' LIMIT 50;",
];

fn per_call(total: Duration, n: usize) -> f64 {
    total.as_secs_f64() * 1e6 / n as f64
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut builder = surqlc::Builder::new();
    builder.schema(root.join("schemas/store.rs")).cargo_metadata(false);
    let output = builder.generate().expect("the store compiles");
    let schema = output.schema;
    let seed = std::fs::read_to_string(root.join("schemas/store.seed.surql")).expect("seed");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let db = runtime.block_on(async {
        let db = surqlc::db::connect(&surqlc::db::Target::default())
            .await
            .expect("engine");
        surqlc::db::execute(&db, &output.schema_surql).await.expect("schema");
        surqlc::db::execute(&db, &seed).await.expect("seed");
        db
    });
    println!(
        "{:<12} {:>14} {:>14} {:>8}",
        "query", "validate µs", "EXPLAIN µs", "ratio"
    );
    for (i, query) in QUERIES.iter().enumerate() {
        assert!(surqlc::validate::validate(&schema, query).diagnostics.is_empty());
        let explain = format!("{} EXPLAIN", query.trim_end_matches(';'));
        // Warm up both.
        for _ in 0..50 {
            std::hint::black_box(surqlc::validate::validate(&schema, query));
            runtime.block_on(async { db.query(explain.as_str()).await.unwrap() });
        }
        let n = 2000;
        let start = Instant::now();
        for _ in 0..n {
            std::hint::black_box(surqlc::validate::validate(&schema, query));
        }
        let validate = per_call(start.elapsed(), n);
        let m = 500;
        let start = Instant::now();
        for _ in 0..m {
            runtime.block_on(async {
                let mut response = db.query(explain.as_str()).await.unwrap();
                let _: surqlc::runtime::Value = response.take(0).unwrap();
            });
        }
        let explained = per_call(start.elapsed(), m);
        println!(
            "{:<12} {:>14.1} {:>14.1} {:>8.3}",
            format!("#{}", i + 1),
            validate,
            explained,
            validate / explained
        );
    }
}
