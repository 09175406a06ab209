//! surqlc's own store data: it loads, and every few-shot example returns the rows it claims.

use surqlc::db;
use surqlc_tests::*;

/// Decimals may come back as numbers or numeric strings; compare them as numbers.
fn normalize(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(normalize).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, normalize(v))).collect()),
        Value::Number(n) => serde_json::json!(n.as_f64()),
        Value::String(s) => match s.parse::<f64>() {
            Ok(n) => serde_json::json!(n),
            Err(_) => Value::String(s),
        },
        other => other,
    }
}

/// The compiled store schema with the project's own data loaded.
async fn store_with_own_data() -> surqlc::db::Db {
    let output = builder("store").generate().unwrap();
    loaded(&[&output.schema_surql, &read(root().join("schemas/store.seed.surql"))]).await
}

#[test]
fn every_example_returns_the_rows_it_claims() {
    block_on(async {
        let conn = store_with_own_data().await;
        let expected: serde_json::Value =
            serde_json::from_str(&read(root().join("schemas/store.seed.expected.json"))).unwrap();
        let examples = db::query_json(&conn, "SELECT meta::id(id) AS id, surql FROM query_example ORDER BY id")
            .await
            .unwrap();
        let examples = examples.as_array().unwrap();
        assert_eq!(examples.len(), 6);
        for example in examples {
            let id = example["id"].as_str().unwrap();
            let surql = example["surql"].as_str().unwrap();
            let want = expected.get(id).unwrap_or_else(|| panic!("no expected rows for {id}"));
            let got = db::query_json(&conn, surql)
                .await
                .unwrap_or_else(|e| panic!("{id} fails: {e}"));
            assert_eq!(normalize(got), normalize(want.clone()), "{id}: {surql}");
        }
    })
}

#[test]
fn the_readme_prompt_shows_the_nearest_examples() {
    block_on(async {
        let conn = store_with_own_data().await;
        let prompt = surqlc::runtime::module::nl2surql_prompt(
            &conn,
            "Which category earns us the most money?",
            &[0.92, 0.0, 0.4, 0.0],
        )
        .await
        .unwrap();
        let examples = prompt.split_once("EXAMPLES\n").unwrap().1;
        let first = examples.lines().next().unwrap();
        assert_eq!(
            first,
            "-- Which product category brings in the most revenue from shipped orders?"
        );
        assert!(prompt.contains("customer.country: DE, ES, GB, US\ncustomer.tier: free, plus, pro\n"));
    })
}
