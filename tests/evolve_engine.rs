//! What a plan (`surqlc plan`/`apply`, `compiler/src/evolve/`) relies on, proved on the embedded engine: a failed statement inside BEGIN/COMMIT leaves the database as it was, `UPDATE id` re-checks a row against the current definitions, values survive `REMOVE FIELD` until moved, `OPTION IMPORT` skips the checks.

use surqlc::db::{self, Db};
use surqlc_tests::*;

const TABLE: &str = "
    DEFINE TABLE customer SCHEMAFULL;
    DEFINE FIELD name ON customer TYPE string;
    DEFINE FIELD joined ON customer TYPE datetime;
    CREATE customer:ines SET name = 'Ines', joined = d'2025-04-01T09:00:00Z';
    CREATE customer:mei SET name = 'Mei', joined = d'2024-01-15T09:00:00Z';
";

/// Each statement's error message (`None`: it succeeded).
async fn outcomes(conn: &Db, script: &str) -> Vec<Option<String>> {
    let mut response = conn.query(script).await.expect("the query is sent");
    let n = response.num_statements();
    let errors = response.take_errors();
    (0..n).map(|i| errors.get(&i).map(|e| e.to_string())).collect()
}

async fn json(conn: &Db, q: &str) -> serde_json::Value {
    db::query_json(conn, q).await.expect("the query runs")
}

#[test]
fn a_failed_statement_inside_a_transaction_leaves_the_database_as_it_was() {
    block_on(async {
        let conn = loaded(&[TABLE]).await;
        let before = json(&conn, "INFO FOR TABLE customer").await;
        let rows_before = json(&conn, "SELECT * FROM customer ORDER BY id").await;
        let result = conn
            .query(
                "BEGIN TRANSACTION;
                 DEFINE FIELD OVERWRITE joined_at ON customer TYPE datetime;
                 REMOVE FIELD joined ON customer;
                 UPDATE customer SET joined_at = joined, joined = NONE;
                 THROW 'stop';
                 COMMIT TRANSACTION;",
            )
            .await
            .expect("sent")
            .check();
        assert!(result.is_err(), "the transaction fails");
        assert_eq!(json(&conn, "INFO FOR TABLE customer").await, before);
        assert_eq!(json(&conn, "SELECT * FROM customer ORDER BY id").await, rows_before);
    });
}

#[test]
fn update_of_a_bare_id_rechecks_the_row_against_the_current_definitions() {
    block_on(async {
        let conn = loaded(&[TABLE]).await;
        db::execute(&conn, "DEFINE FIELD OVERWRITE joined_at ON customer TYPE datetime;")
            .await
            .unwrap();
        let got = outcomes(&conn, "UPDATE customer:ines; UPDATE customer:mei SET name = name;").await;
        for (i, outcome) in got.iter().enumerate() {
            let message = outcome
                .as_deref()
                .unwrap_or_else(|| panic!("statement {i} should fail"));
            assert!(message.contains("joined_at"), "{message}");
        }
        // Outside a transaction each statement stands alone: the one that fits still runs.
        let got = outcomes(
            &conn,
            "UPDATE customer:ines SET joined_at = joined; UPDATE customer:mei;",
        )
        .await;
        assert!(got[0].is_none(), "{got:?}");
        assert!(got[1].is_some(), "{got:?}");
    });
}

#[test]
fn a_removed_fields_values_stay_in_the_rows_until_moved_and_block_writes_until_then() {
    block_on(async {
        let conn = loaded(&[TABLE]).await;
        db::execute(
            &conn,
            "DEFINE FIELD OVERWRITE joined_at ON customer TYPE datetime; REMOVE FIELD joined ON customer;",
        )
        .await
        .unwrap();
        // SCHEMAFULL refuses a row that still holds a value of an undefined field.
        let got = outcomes(&conn, "UPDATE customer:mei SET name = name, joined_at = joined;").await;
        assert!(got[0].is_some(), "{got:?}");
        db::execute(
            &conn,
            "UPDATE customer SET joined_at = joined, joined = NONE WHERE joined != NONE;",
        )
        .await
        .unwrap();
        let moved = json(&conn, "SELECT VALUE joined_at FROM customer ORDER BY id").await;
        assert_eq!(moved.as_array().map(Vec::len), Some(2), "{moved}");
        assert!(moved.as_array().unwrap().iter().all(|v| v.is_string()), "{moved}");
        db::execute(&conn, "UPDATE customer SET name = name;")
            .await
            .expect("every row is writable");
    });
}

#[test]
fn option_import_skips_the_field_checks_so_a_plan_runs_without_it() {
    block_on(async {
        let conn = loaded(&[TABLE]).await;
        db::execute(&conn, "DEFINE FIELD OVERWRITE joined_at ON customer TYPE datetime;")
            .await
            .unwrap();
        let got = outcomes(&conn, "OPTION IMPORT; UPDATE customer:ines;").await;
        assert!(got.iter().all(Option::is_none), "{got:?}");
    });
}

#[test]
fn a_relation_tables_ends_are_checked_on_update() {
    block_on(async {
        let conn = loaded(&[
            "DEFINE TABLE customer SCHEMALESS; DEFINE TABLE purchase SCHEMALESS; DEFINE TABLE shop SCHEMALESS;
             DEFINE TABLE placed TYPE RELATION IN customer OUT purchase SCHEMAFULL;
             RELATE customer:a->placed:x->purchase:p;",
        ])
        .await;
        db::execute(
            &conn,
            "DEFINE TABLE OVERWRITE placed TYPE RELATION IN shop OUT purchase SCHEMAFULL;",
        )
        .await
        .unwrap();
        let got = outcomes(&conn, "UPDATE placed:x;").await;
        assert!(got[0].is_some(), "the old end no longer fits: {got:?}");
    });
}

#[test]
fn a_unique_index_over_duplicates_is_refused_as_a_whole() {
    block_on(async {
        let conn = loaded(&[TABLE, "CREATE customer:x SET name = 'Mei', joined = time::now();"]).await;
        let got = outcomes(&conn, "DEFINE INDEX by_name ON customer FIELDS name UNIQUE;").await;
        assert!(got[0].is_some(), "{got:?}");
    });
}
