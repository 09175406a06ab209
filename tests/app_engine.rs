//! The engine behaviours the application profile's write checks rest on (SurrealDB 3.3.5, embedded): what a wrong write does (fails, or answers without an error), which parameters a query may bind, and what a record id compared with a string answers.

use surqlc::db::Db;
use surqlc_tests::*;

/// A schema written as SurrealQL, so each engine rule is proven on the statement itself.
pub(crate) const PROBE_SCHEMA: &str = r#"
DEFINE TABLE person SCHEMAFULL;
DEFINE FIELD name ON person TYPE string;
DEFINE FIELD tier ON person TYPE "free" | "pro";
DEFINE FIELD born ON person TYPE datetime;
DEFINE FIELD code ON person TYPE string READONLY;
DEFINE FIELD nick ON person TYPE option<string>;
DEFINE FIELD made ON person TYPE datetime DEFAULT time::now();
DEFINE FIELD touched ON person TYPE datetime VALUE time::now();
DEFINE FIELD letters ON person COMPUTED string::len(name);
DEFINE FIELD tags ON person TYPE array<string> DEFAULT [];
DEFINE TABLE pet SCHEMAFULL;
DEFINE FIELD name ON pet TYPE string;
DEFINE TABLE owns TYPE RELATION IN person OUT pet SCHEMAFULL;
DEFINE FIELD since ON owns TYPE option<datetime>;
DEFINE TABLE note SCHEMAFULL;
DEFINE FIELD body ON note TYPE object FLEXIBLE;
DEFINE FIELD about ON note TYPE option<record<person>>;
DEFINE FIELD meta ON note TYPE option<object>;
DEFINE FIELD meta.id ON note TYPE option<string>;
CREATE person:ann SET name = 'Ann', tier = 'pro', born = d'1990-01-01T00:00:00Z', code = 'A1';
CREATE pet:rex SET name = 'Rex';
RELATE person:ann->owns->pet:rex;
CREATE note:n1 SET body = { text: 'hi', deep: { x: 1 } }, about = person:ann, meta = { id: 'm-1' };
"#;

pub(crate) async fn probe_db() -> Db {
    loaded(&[PROBE_SCHEMA]).await
}

/// Runs `q` with `vars` bound: `Ok(last statement's result)` or the engine's error.
pub(crate) async fn run(db: &Db, q: &str, vars: serde_json::Value) -> Result<serde_json::Value, String> {
    let mut query = db.query(q);
    if let serde_json::Value::Object(map) = vars {
        for (k, v) in map {
            query = query.bind((k, v));
        }
    }
    let response = query.await.map_err(|e| e.to_string())?;
    let mut response = response.check().map_err(|e| e.to_string())?;
    let last = response.num_statements().saturating_sub(1);
    let value: surrealdb::types::Value = response.take(last).map_err(|e| e.to_string())?;
    Ok(value.into_json_value())
}

async fn fails(db: &Db, q: &str) -> String {
    match run(db, q, serde_json::json!({})).await {
        Err(e) => e,
        Ok(v) => panic!("the engine answered `{q}` without an error: {v}"),
    }
}

async fn answers(db: &Db, q: &str) -> serde_json::Value {
    run(db, q, serde_json::json!({}))
        .await
        .unwrap_or_else(|e| panic!("`{q}` failed: {e}"))
}

#[test]
fn wrong_writes_fail_on_the_engine() {
    block_on(async {
        let db = probe_db().await;
        // A misspelt field on a SCHEMAFULL table.
        let e = fails(&db, "UPDATE person:ann SET nmae = 'x'").await;
        assert!(e.contains("nmae"), "{e}");
        // A required field left out.
        fails(&db, "CREATE person SET name = 'Bo', tier = 'free', code = 'B'").await;
        // A value outside the literal union, a string into a datetime.
        fails(
            &db,
            "CREATE person SET name = 'Bo', tier = 'Pro', born = time::now(), code = 'B'",
        )
        .await;
        fails(
            &db,
            "CREATE person SET name = 'Bo', tier = 'pro', born = '2024-01-01T00:00:00Z', code = 'B'",
        )
        .await;
        // A READONLY field changed, the id changed.
        fails(&db, "UPDATE person:ann SET code = 'Z'").await;
        fails(&db, "UPDATE person:ann SET id = person:zed").await;
        // A COMPUTED field written: no error, and the write is lost (the field reads as computed).
        let row = answers(&db, "UPDATE ONLY person:ann SET letters = 99").await;
        assert_eq!(row["letters"], serde_json::json!(3), "{row}");
        // A relation end that is not its IN/OUT table; a relation through a normal table.
        fails(&db, "RELATE pet:rex->owns->person:ann").await;
        fails(&db, "RELATE person:ann->pet->pet:rex").await;
        // The right writes run: option, DEFAULT and VALUE fields need no value; a readonly field is set once.
        answers(
            &db,
            "CREATE person SET name = 'Bo', tier = 'pro', born = time::now(), code = 'B'",
        )
        .await;
        answers(&db, "UPDATE person:ann SET nick = 'A', tags += 'x', name = 'Anne'").await;
        answers(&db, "RELATE person:ann->owns->pet:rex SET since = time::now()").await;
        // Keys inside a FLEXIBLE object are the application's; a sub-field named `id` is a field.
        answers(&db, "UPDATE note:n1 SET body.whatever = 5, meta.id = 'm-2'").await;
    });
}

#[test]
fn wrong_writes_the_engine_answers_silently() {
    block_on(async {
        let db = probe_db().await;
        // A misspelt table: the engine makes a new (schemaless) table.
        let made = answers(&db, "CREATE persn SET name = 'x'").await;
        assert_eq!(made.as_array().map(Vec::len), Some(1), "{made}");
        // A misspelt field in an UPDATE's WHERE: nothing matches, nothing is updated, no error.
        let none = answers(&db, "UPDATE person SET nick = 'n' WHERE nmae = 'Ann'").await;
        assert_eq!(none, serde_json::json!([]));
        // A record id compared with a string: always empty.
        let none = answers(&db, "SELECT * FROM person WHERE id = 'person:ann'").await;
        assert_eq!(none, serde_json::json!([]));
        let none = run(
            &db,
            "SELECT * FROM person WHERE id = $id",
            serde_json::json!({"id": "person:ann"}),
        )
        .await
        .unwrap();
        assert_eq!(none, serde_json::json!([]));
        let none = answers(&db, "SELECT * FROM note WHERE about = 'person:ann'").await;
        assert_eq!(none, serde_json::json!([]));
        let one = answers(&db, "SELECT * FROM note WHERE about = type::record('person', 'ann')").await;
        assert_eq!(one.as_array().map(Vec::len), Some(1), "{one}");
    });
}

#[test]
fn which_parameters_a_query_may_bind() {
    block_on(async {
        let db = probe_db().await;
        // The protected names are refused whatever the query.
        for name in ["token", "session", "access", "auth"] {
            let q = format!("RETURN ${name}");
            let e = run(&db, &q, serde_json::json!({ name: "x" })).await.unwrap_err();
            assert!(!e.is_empty(), "{name}");
        }
        // `$parent`, `$before`, `$after`, `$value`, `$input`, `$event` bind at the top level.
        for name in ["parent", "before", "after", "value", "input", "event"] {
            let q = format!("SELECT VALUE name FROM person WHERE name = ${name}");
            let got = run(&db, &q, serde_json::json!({ name: "Ann" })).await.unwrap();
            assert_eq!(got, serde_json::json!(["Ann"]), "${name}");
        }
        // `$this` inside a row's clause is the row, whatever is bound.
        let got = run(
            &db,
            "SELECT VALUE name FROM person WHERE $this.name = 'Ann'",
            serde_json::json!({"this": "x"}),
        )
        .await
        .unwrap();
        assert_eq!(got, serde_json::json!(["Ann"]));
        // `$parent` inside a subquery is the outer row, whatever is bound.
        let got = run(
            &db,
            "SELECT VALUE (SELECT VALUE name FROM pet WHERE $parent.name = 'Ann') FROM person:ann",
            serde_json::json!({"parent": {"name": "nobody"}}),
        )
        .await
        .unwrap();
        assert_eq!(got, serde_json::json!([["Rex"]]));
        // `$before`/`$after` in a write's RETURN are the record's states.
        let got = run(
            &db,
            "UPDATE person:ann SET nick = 'Z' RETURN $before.nick AS was",
            serde_json::json!({"before": 1}),
        )
        .await
        .unwrap();
        assert_ne!(got, serde_json::json!([{"was": 1}]));
    });
}
