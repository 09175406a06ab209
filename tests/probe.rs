//! Scratch: what the engine answers (not committed).
use surqlc_tests::*;

#[test]
fn probe() {
    let queries = std::fs::read_to_string("/tmp/probe.surql").unwrap();
    block_on(async {
        let name = std::env::var("PROBE").unwrap_or("store".into());
        let output = builder(&name).no_agent().generate().unwrap();
        let seed = read(root().join(format!("schemas/{name}.seed.surql")));
        let db = loaded(&[&output.schema_surql, &seed]).await;
        for q in queries.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("--")) {
            let r = surqlc::db::query_json(&db, q).await;
            let s = match r {
                Ok(v) => format!("OK {}", v),
                Err(e) => format!("ERR {e}"),
            };
            let s: String = s.chars().take(400).collect();
            eprintln!("Q: {q}\n   {s}");
        }
    });
}
