//! `surqlc diff` and the generated `check_drift`: nothing on a freshly applied schema; a dropped field, an extra table, a changed comment and a changed index, each reported.

#[deny(warnings)]
#[allow(dead_code)]
mod store_db {
    include!(concat!(env!("OUT_DIR"), "/store/schema.rs"));
}

use surqlc::db;
use surqlc::drift::{self, CompareOptions};
use surqlc_tests::*;

/// The manual changes the tests make to a freshly applied store, and the lines they must produce.
const CHANGES: &str = "
    REMOVE FIELD joined ON customer;
    DEFINE TABLE audit_log SCHEMALESS COMMENT 'Who changed what.';
    DEFINE TABLE OVERWRITE product TYPE NORMAL SCHEMAFULL COMMENT 'Something we sell.' PERMISSIONS FOR select FULL, FOR create, update, delete NONE;
    DEFINE INDEX OVERWRITE query_example_vec ON query_example FIELDS embedding HNSW DIMENSION 4 DIST EUCLIDEAN;
";

fn expected_lines() -> Vec<String> {
    vec![
        "+ extra table audit_log".into(),
        "~ changed comment on table product: schema 'An item in the catalogue. Orders containing it: product<-contains<-purchase.' database 'Something we sell.'".into(),
        "- missing field joined ON customer".into(),
        "~ changed index query_example_vec ON query_example:".into(),
    ]
}

fn store_surql() -> String {
    builder("store")
        .agent_password("drift-test")
        .generate()
        .expect("the store compiles")
        .schema_surql
}

fn assert_reports(report: &str) {
    let lines: Vec<&str> = report.lines().collect();
    let mut at = 0;
    for want in expected_lines() {
        let found = lines[at..]
            .iter()
            .position(|l| *l == want)
            .unwrap_or_else(|| panic!("`{want}` not in order in:\n{report}"));
        at += found + 1;
    }
    assert!(
        report.contains("DIST COSINE") && report.contains("DIST EUCLIDEAN"),
        "the changed index shows both spellings:\n{report}"
    );
    let headline = lines.iter().filter(|l| !l.starts_with("    ")).count();
    assert_eq!(headline, 4, "exactly the four changes:\n{report}");
}

#[test]
fn a_freshly_applied_schema_has_no_drift() {
    let surql = store_surql();
    block_on(async {
        let expected = drift::embedded_definitions(&surql).await.unwrap();
        let live = loaded(&[&surql, &surql]).await;
        let found = drift::compare(
            &expected,
            &drift::definitions(&live).await.unwrap(),
            CompareOptions::default(),
        );
        assert!(found.is_empty(), "{found}");
        // What is compared: tables, fields, indexes, functions, the cache param and the agent.
        for (kind, name) in [
            ("table", "customer"),
            ("field", "country ON customer"),
            ("index", "query_example_vec ON query_example"),
            ("function", "fn::nl2surql_prompt"),
            ("param", "$schema_context_cache"),
            ("user", "agent"),
        ] {
            assert!(expected.get(kind, name).is_some(), "{kind} {name}");
        }
    });
}

#[test]
fn manual_changes_are_each_reported() {
    let surql = store_surql();
    block_on(async {
        let expected = drift::embedded_definitions(&surql).await.unwrap();
        let live = loaded(&[&surql, CHANGES]).await;
        let found = drift::compare(
            &expected,
            &drift::definitions(&live).await.unwrap(),
            CompareOptions::default(),
        );
        // The cache still holds the block rendered when the schema was applied: four changes.
        assert_reports(&found.to_string());
        // Re-rendered, the cached block shows the changes too: a fifth line.
        db::execute(&live, "RETURN fn::refresh_schema_context();")
            .await
            .unwrap();
        let found = drift::compare(
            &expected,
            &drift::definitions(&live).await.unwrap(),
            CompareOptions::default(),
        );
        assert_eq!(found.changes.len(), 5, "{found}");
        assert!(
            found
                .to_string()
                .contains("~ changed param $schema_context_cache: the cached schema block differs"),
            "{found}"
        );
        let report: String = found
            .changes
            .iter()
            .filter(|c| c.key().kind != "param")
            .map(|c| format!("{c}\n"))
            .collect();
        assert_reports(&report);
    });
}

#[test]
fn the_generated_check_drift_runs_beside_the_applications_database() {
    block_on(async {
        let conn = db::connect(&db::Target::default()).await.unwrap();
        store_db::apply_schema(&conn).await.unwrap();
        let found = store_db::check_drift(&conn).await.expect("check_drift runs");
        assert!(found.is_empty(), "{found}");
        db::execute(&conn, CHANGES).await.unwrap();
        db::execute(&conn, "RETURN fn::refresh_schema_context();")
            .await
            .unwrap();
        let found = store_db::check_drift(&conn).await.unwrap();
        let report: String = found
            .changes
            .iter()
            .filter(|c| c.key().kind != "param")
            .map(|c| format!("{c}\n"))
            .collect();
        assert_reports(&report);
        // The scratch database is gone, and the application's session still uses its own.
        let dbs = db::query_json(&conn, "INFO FOR NS").await.unwrap();
        let names: Vec<&String> = dbs["databases"].as_object().unwrap().keys().collect();
        assert_eq!(names, ["store"], "{dbs}");
        assert!(db::query_json(&conn, "INFO FOR TABLE audit_log").await.is_ok());
    });
}
