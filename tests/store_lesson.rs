//! `schemas/store.rs` reproduces the lesson's prompt, byte for byte, on the embedded engine.

use surqlc::db::{self, Db};
use surqlc_tests::*;

const QUESTION: &str = "Which category earns us the most money?";
const QVEC: [f64; 4] = [0.92, 0.0, 0.4, 0.0];
const REVENUE: &str = "SELECT out.category AS category, math::sum(qty * unit_price) AS revenue FROM contains \
                       WHERE in.status = 'shipped' GROUP BY category ORDER BY revenue DESC LIMIT 50;";

fn expected(name: &str) -> String {
    read(store_fixtures().join("expected").join(name))
}

/// `schemas/store.rs` as the lesson configured it: its value hints without the datetime fields'
/// spans (issue 41), which the lesson's prompt predates.
fn lesson_store() -> surqlc::Builder {
    let text = read(root().join("schemas/store.rs"));
    let hints = "value_hints(Customer::country, Customer::tier, Product::category, Purchase::status)";
    assert_eq!(text.matches(hints).count(), 1, "the store's value hints");
    let path = schema_file(
        "lesson-store",
        &text.replace(hints, &format!("{}, time_spans = false)", hints.trim_end_matches(')'))),
    );
    let mut b = surqlc::Builder::new();
    b.schema(path).cargo_metadata(false);
    b
}

/// The compiled store schema with the lesson's preamble, an agent password, and the lesson's data.
async fn lesson_db() -> (Db, String) {
    let output = lesson_store()
        .prompt_template(store_fixtures().join("lesson-preamble.txt"))
        .agent_password("agent-secret")
        .generate()
        .expect("store.rs compiles");
    let seed = read(store_fixtures().join("seed.surql"));
    (loaded(&[&output.schema_surql, &seed]).await, output.schema_surql)
}

#[test]
fn schema_context_matches_the_lesson() {
    block_on(async {
        let (db, _) = lesson_db().await;
        let got = db::query_string(&db, "RETURN fn::schema_context()").await.unwrap();
        assert_eq!(got, expected("schema_context.txt"));
    })
}

#[test]
fn value_hints_and_examples_match_the_lesson() {
    block_on(async {
        let (db, _) = lesson_db().await;
        assert_eq!(
            db::query_string(&db, "RETURN fn::value_hints()").await.unwrap(),
            expected("value_hints.txt")
        );
        let examples = db::query_string(&db, "RETURN fn::example_context([0.92, 0.0, 0.4, 0.0])")
            .await
            .unwrap();
        assert_eq!(examples, expected("example_context.txt"));
    })
}

#[test]
fn prompt_with_the_lesson_preamble_matches_byte_for_byte() {
    block_on(async {
        let (db, _) = lesson_db().await;
        let prompt = surqlc::runtime::module::nl2surql_prompt(&db, QUESTION, &QVEC)
            .await
            .unwrap();
        assert_eq!(prompt, expected("nl2surql_prompt.txt"));
    })
}

#[test]
fn default_rules_keep_the_prompt_structure() {
    block_on(async {
        let output = lesson_store().generate().unwrap();
        let db = loaded(&[&output.schema_surql, &read(store_fixtures().join("seed.surql"))]).await;
        let prompt = surqlc::runtime::module::nl2surql_prompt(&db, QUESTION, &QVEC)
            .await
            .unwrap();
        let (preamble, rest) = prompt.split_once("SCHEMA\n").expect("prompt has a SCHEMA section");
        for rule in ["no DISTINCT", "alias", "[WHERE", "in.field"] {
            assert!(preamble.contains(rule), "default rules mention {rule:?}:\n{preamble}");
        }
        let lesson = expected("nl2surql_prompt.txt");
        assert_eq!(
            rest,
            lesson.split_once("SCHEMA\n").unwrap().1,
            "everything after the preamble is the lesson's"
        );
    })
}

/// Decimals may arrive as JSON numbers or strings; compare them as numbers.
fn rows(value: serde_json::Value) -> Vec<(String, f64)> {
    value
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            let revenue = &row["revenue"];
            let n = revenue
                .as_f64()
                .or_else(|| revenue.as_str().and_then(|s| s.parse().ok()))
                .expect("numeric revenue");
            (row["category"].as_str().expect("category").to_owned(), n)
        })
        .collect()
}

#[test]
fn revenue_query_returns_the_lessons_rows() {
    block_on(async {
        let (db, _) = lesson_db().await;
        let got = db::query_json(&db, REVENUE).await.unwrap();
        let want: serde_json::Value = serde_json::from_str(&expected("revenue.json")).unwrap();
        assert_eq!(rows(got), rows(want));
    })
}

#[test]
fn the_agent_can_read_but_not_write() {
    block_on(async {
        let (db, schema) = lesson_db().await;
        assert!(
            schema.contains("PASSHASH \"$argon2id$"),
            "the password is stored hashed"
        );
        assert!(!schema.contains("agent-secret"), "the password is not in the file");
        db.signin(db::database_user("ai", "store", "agent", "agent-secret"))
            .await
            .expect("agent signs in at database level");

        let names = db::query_json(&db, "SELECT VALUE name FROM customer ORDER BY name")
            .await
            .unwrap();
        assert_eq!(names.as_array().unwrap().len(), 6, "SELECT works as the agent");

        let define = db
            .query("DEFINE FIELD hax ON customer TYPE string")
            .await
            .unwrap()
            .check();
        let err = define.expect_err("DEFINE FIELD is refused").to_string();
        assert!(
            err.contains("IAM") || err.contains("permission"),
            "an IAM error, got: {err}"
        );

        let _ = db.query("DELETE customer").await.unwrap();
        let _ = db
            .query("CREATE customer:zed SET name = 'Zed', country = 'US', tier = 'pro', joined = time::now()")
            .await
            .unwrap();
        let after = db::query_json(&db, "SELECT VALUE name FROM customer ORDER BY name")
            .await
            .unwrap();
        assert_eq!(after, names, "DELETE and CREATE leave the six customers as they were");

        let remember = db
            .query("RETURN fn::remember_example('q', 'SELECT 1', [0.1, 0.2, 0.3, 0.4])")
            .await
            .and_then(|r| r.check());
        let err = remember
            .expect_err("fn::remember_example fails for the agent")
            .to_string();
        assert!(err.contains("EDITOR or OWNER"), "a clear refusal, got: {err}");
        let pool = db::query_json(&db, "RETURN count(SELECT id FROM query_example)")
            .await
            .unwrap();
        assert_eq!(pool, serde_json::json!(6), "the pool is unchanged");
    })
}

#[test]
fn importing_twice_keeps_definitions_and_rows() {
    block_on(async {
        let (db, schema) = lesson_db().await;
        let before = db::query_json(&db, "INFO FOR DB").await.unwrap();
        let count = "RETURN [count(SELECT id FROM customer), count(SELECT id FROM contains), count(SELECT id FROM query_example)]";
        let rows_before = db::query_json(&db, count).await.unwrap();
        db::execute(&db, &schema).await.expect("second import loads");
        assert_eq!(db::query_json(&db, "INFO FOR DB").await.unwrap(), before);
        assert_eq!(db::query_json(&db, count).await.unwrap(), rows_before);
        assert_eq!(rows_before, serde_json::json!([6, 13, 6]));
    })
}
