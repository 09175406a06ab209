//! What keeping value linking fresh costs a write: the store with `prune(...)`, one `CREATE customer` per query (as an application writes), timed with the value-linking events and without them.
//!
//! Run with `cargo bench -p surqlc --features mcp,model,check-expr --bench value_links` (a release build; the
//! figures in docs/reliability.md come from it).

use std::time::Instant;

const WRITES: usize = 2000;

/// Write `i`: a customer whose name no row holds yet (the event links it).
const NEW_VALUE: fn(usize) -> String =
    |i| format!("CREATE customer SET name = 'Customer {i}', country = 'GB', tier = 'free', joined = time::now()");
/// Write `i`: a tier change on a seeded customer (its values are linked already).
const KNOWN_VALUE: fn(usize) -> String = |i| {
    let tier = ["free", "plus", "pro"][i % 3];
    format!("UPDATE customer:mei SET tier = '{tier}'")
};

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let store = std::fs::read_to_string(root.join("schemas/store.rs")).expect("the store");
    let pruned = store.replace(
        "    examples(dimension = 4, k = 3, ef = 40),\n",
        "    examples(dimension = 4, k = 3, ef = 40),\n    prune(budget = 150),\n",
    );
    let dir = std::env::temp_dir().join(format!("surqlc-value-links-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join("store.rs");
    std::fs::write(&path, pruned).expect("schema written");
    let output = surqlc::Builder::new()
        .schema(&path)
        .cargo_metadata(false)
        .generate()
        .expect("the pruned store compiles");
    let seed = std::fs::read_to_string(root.join("schemas/store.seed.surql")).expect("seed");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    for (what, write) in [
        ("CREATE customer with a new name: a new value each", NEW_VALUE),
        ("UPDATE a customer's tier: values already linked", KNOWN_VALUE),
    ] {
        println!("{WRITES} single-row writes ({what}), embedded engine:");
        let mut rates = Vec::new();
        for events in [false, true, false, true] {
            let rate = runtime.block_on(writes_per_second(&output.schema_surql, &seed, events, write));
            println!(
                "  {:<28} {rate:>8.0} writes/s",
                if events {
                    "with the value-link event"
                } else {
                    "without it"
                }
            );
            rates.push((events, rate));
        }
        let mean = |with: bool| {
            let r: Vec<f64> = rates.iter().filter(|(e, _)| *e == with).map(|(_, r)| *r).collect();
            r.iter().sum::<f64>() / r.len() as f64
        };
        println!(
            "  the event costs {:.1}% of write throughput",
            (1.0 - mean(true) / mean(false)) * 100.0
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

async fn writes_per_second(schema: &str, seed: &str, events: bool, write: fn(usize) -> String) -> f64 {
    let db = surqlc::db::connect(&surqlc::db::Target::default())
        .await
        .expect("engine");
    surqlc::db::execute(&db, schema).await.expect("schema");
    surqlc::db::execute(&db, seed).await.expect("seed");
    if !events {
        surqlc::db::execute(&db, "REMOVE EVENT schema_doc_value_link ON customer;")
            .await
            .expect("event removed");
    }
    let start = Instant::now();
    for i in 0..WRITES {
        db.query(write(i)).await.expect("write").check().expect("written");
    }
    let rate = WRITES as f64 / start.elapsed().as_secs_f64();
    let linked = surqlc::db::query_json(
        &db,
        "RETURN count(SELECT * FROM schema_doc_value WHERE tb = 'customer' AND field = 'name')",
    )
    .await
    .expect("count");
    if events && write(0).starts_with("CREATE") {
        assert!(
            linked.as_u64().unwrap_or(0) >= WRITES as u64,
            "every name linked: {linked}"
        );
    }
    rate
}
