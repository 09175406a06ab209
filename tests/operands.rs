//! The validator's operand and cast rules (SQ0206 BadOperands, SQ0207 CastFails), run on the embedded engine pair by pair: every expression the validator reports, SurrealDB 3.3.5 refuses (or, for a `/` by a string, answers NONE); every cast of a constant it passes, the engine performs.

use surqlc::validate::{self, Class};
use surqlc_tests::*;

/// One literal of each kind the rules know.
const OPERANDS: &[&str] = &["3", "2.5f", "1.5dec", "'x'", "d'2024-01-01T00:00:00Z'", "1h", "true"];
const OPERATORS: &[&str] = &["+", "-", "*", "/", "%", "**"];

/// Whether the engine refuses `SELECT VALUE <expr> FROM ONLY customer:mei`, or answers NONE.
async fn engine_refuses(db: &surqlc::db::Db, expr: &str) -> bool {
    match surqlc::db::query_json(db, &format!("SELECT VALUE {expr} FROM ONLY customer:mei")).await {
        Err(_) => true,
        Ok(value) => value.is_null() || value == serde_json::json!([null]),
    }
}

fn compile_schema(name: &str) -> surqlc::ir::Schema {
    let file = surqlc::front::SourceFile::read(root().join("schemas").join(format!("{name}.rs"))).unwrap();
    surqlc::front::compile(&[file]).unwrap()
}

fn reported(schema: &surqlc::ir::Schema, expr: &str, class: Class) -> bool {
    let query = format!("SELECT VALUE {expr} FROM customer LIMIT 1");
    validate::validate(schema, &query).has(class)
}

#[test]
fn every_reported_operand_pair_is_refused_by_the_engine() {
    let store = compile_schema("store");
    block_on(async {
        let output = builder("store").no_agent().generate().unwrap();
        let db = loaded(&[&output.schema_surql, &read(root().join("schemas/store.seed.surql"))]).await;
        let (mut wrong, mut reported_pairs) = (Vec::new(), 0);
        for l in OPERANDS {
            for op in OPERATORS {
                for r in OPERANDS {
                    let expr = format!("{l} {op} {r}");
                    if reported(&store, &expr, Class::BadOperands) {
                        reported_pairs += 1;
                        if !engine_refuses(&db, &expr).await {
                            wrong.push(expr);
                        }
                    }
                }
            }
            for neg in ["-'x'", "-d'2024-01-01T00:00:00Z'"] {
                assert!(reported(&store, neg, Class::BadOperands), "{neg}");
                assert!(engine_refuses(&db, neg).await, "{neg}");
            }
        }
        assert!(wrong.is_empty(), "reported, but the engine answers: {wrong:?}");
        assert!(reported_pairs >= 60, "{reported_pairs} pairs reported");
        // And what it must never report: the arithmetic the engine does.
        for ok in [
            "3 + 2.5f",
            "'x' + 'x'",
            "d'2024-01-01T00:00:00Z' + 1h",
            "1h * 2",
            "d'2024-01-01T00:00:00Z' - d'2023-01-01T00:00:00Z'",
        ] {
            assert!(!reported(&store, ok, Class::BadOperands), "{ok}");
            assert!(!engine_refuses(&db, ok).await, "{ok}");
        }
    });
}

const CAST_INPUTS: &[&str] = &[
    "'yesterday'",
    "'2024-01'",
    "'2024-01-31'",
    "'2024-01-31T10:00:00Z'",
    "'2024-01-31T10:00'",
    "'1.5'",
    "'12'",
    "' 12'",
    "'-7'",
    "'1e3'",
    "'1h'",
    "'1 hour'",
    "'1w2d'",
    "'true'",
    "'yes'",
    "true",
    "5",
    "1.5f",
    "2.0f",
    "1.5dec",
];
/// The casts the rule judges; `decimal` from a string and `uuid`/`record` are not judged.
const JUDGED: &[&str] = &["int", "float", "number", "datetime", "duration", "bool"];

#[test]
fn a_constant_cast_is_reported_exactly_when_the_engine_refuses_it() {
    let store = compile_schema("store");
    block_on(async {
        let output = builder("store").no_agent().generate().unwrap();
        let db = loaded(&[&output.schema_surql, &read(root().join("schemas/store.seed.surql"))]).await;
        let mut disagreements = Vec::new();
        for target in JUDGED.iter().chain(&["decimal", "string"]) {
            for input in CAST_INPUTS {
                let expr = format!("<{target}> {input}");
                let says = reported(&store, &expr, Class::CastFails);
                let refuses = surqlc::db::query_json(&db, &format!("SELECT VALUE {expr} FROM ONLY customer:mei"))
                    .await
                    .is_err();
                // Reported: the engine refuses. Judged and refused: reported.
                let judged = JUDGED.contains(target) || !input.starts_with('\'');
                if (says && !refuses) || (judged && refuses && !says) {
                    disagreements.push(format!("{expr}: validator {says}, engine refuses {refuses}"));
                }
            }
        }
        assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    });
}
