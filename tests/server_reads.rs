//! What the server-facing commands read and write: `diff --dump` of a real export (keys redacted), an agent the schema does not define, and `prompt` against an existing database (read by default, applied with `--apply`).

use surqlc::db;
use surqlc::drift::diff::{self, DiffAgent, DiffSource};
use surqlc_tests::*;

const PASSWORD: &str = "server-reads-test";

/// The HR fixture (it hides fields and a table, so its agent is a record access).
fn hr(password: Option<&str>) -> surqlc::builder::Output {
    let mut b = surqlc::Builder::new();
    b.schema(root().join("tests/fixtures/visibility.rs"))
        .cargo_metadata(false);
    match password {
        Some(p) => b.agent_password(p),
        None => b.no_agent(),
    };
    b.generate().unwrap_or_else(|e| panic!("{e}"))
}

/// The database exported as `surreal export` writes it (the embedded engine's export is the server's).
async fn export(conn: &db::Db, name: &str) -> std::path::PathBuf {
    let path = scratch_dir(name).join("export.surql");
    conn.export(&path).await.expect("the engine exports");
    path
}

fn diff_source(dump: std::path::PathBuf) -> DiffSource {
    DiffSource {
        dump: Some(dump),
        target: surqlc::db::Target::default(),
    }
}

#[test]
fn diff_reads_a_real_export_with_its_keys_redacted() {
    let output = hr(Some(PASSWORD));
    block_on(async {
        let conn = loaded(&[&output.schema_surql]).await;
        let dump = export(&conn, "export-redacted").await;
        let text = read(&dump);
        assert!(
            text.contains("DEFINE ACCESS") && text.contains("KEY '[REDACTED]'"),
            "the export redacts the access key:\n{}",
            text.lines()
                .filter(|l| l.contains("ACCESS"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        // The export as written does not load: the engine refuses a redacted key.
        let refused = surqlc::drift::embedded_definitions(&text).await;
        assert!(refused.is_err(), "the engine loads a redacted key now?");
        let drift = diff::diff(&output, &diff_source(dump), false)
            .await
            .expect("the export loads for the diff");
        assert!(drift.is_empty(), "in sync with its own export:\n{drift}");
    });
}

#[test]
fn an_agent_the_schema_does_not_define_is_extra() {
    let with_agent = hr(Some(PASSWORD));
    let without = hr(None);
    assert!(!without.agent_defined);
    block_on(async {
        let conn = loaded(&[&with_agent.schema_surql]).await;
        let dump = export(&conn, "export-agent").await;
        let drift = diff::diff(&without, &diff_source(dump.clone()), false).await.unwrap();
        let lines = drift.to_string();
        assert!(lines.contains("+ extra access agent"), "{lines}");
        let agent = DiffAgent {
            expected: false,
            ignore_passhash: false,
        };
        let note = diff::unexpected_agent_note(&without, &drift, agent).expect("a note");
        assert!(
            note.contains("SURQLC_AGENT_PASSWORD") && note.contains("--expect-agent"),
            "{note}"
        );
        // Expected, the same agent is in sync.
        let drift = diff::diff(&with_agent, &diff_source(dump), false).await.unwrap();
        assert!(drift.is_empty(), "{drift}");
    });
}

#[test]
fn prompt_reads_a_server_and_applies_only_when_asked() {
    let output = builder("store").agent_password(PASSWORD).generate().unwrap();
    block_on(async {
        let conn = loaded(&[&output.schema_surql]).await;
        let place = "namespace `ai`, database `store` at test";
        assert_eq!(
            diff::read_or_apply(&conn, &output, false, place).await.unwrap(),
            "",
            "in sync: nothing to say"
        );
        db::execute(
            &conn,
            "REMOVE FIELD joined ON customer;
             DEFINE TABLE OVERWRITE product TYPE NORMAL SCHEMAFULL COMMENT 'Something we sell.' PERMISSIONS FOR select FULL, FOR create, update, delete NONE;
             DEFINE TABLE audit_log SCHEMALESS;",
        )
        .await
        .unwrap();
        let fields = || async { db::query_json(&conn, "INFO FOR TABLE customer").await.unwrap()["fields"].to_string() };
        // Read: the drift is reported, and nothing is written.
        let said = diff::read_or_apply(&conn, &output, false, place).await.unwrap();
        assert!(said.contains(place) && said.contains("nothing was written"), "{said}");
        assert!(said.contains("- missing field joined ON customer"), "{said}");
        assert!(said.contains("~ changed comment on table product"), "{said}");
        assert!(said.contains("+ extra table audit_log"), "{said}");
        assert!(!fields().await.contains("joined"), "read mode wrote");
        // Apply: written, and said.
        let said = diff::read_or_apply(&conn, &output, true, place).await.unwrap();
        assert!(said.starts_with(&format!("applied the schema to {place}")), "{said}");
        assert!(said.contains("defined field joined ON customer"), "{said}");
        assert!(said.contains("redefined table product"), "{said}");
        assert!(
            said.contains("1 definition the schema does not make left as it was"),
            "{said}"
        );
        assert!(fields().await.contains("joined"), "apply mode did not write");
        let said = diff::read_or_apply(&conn, &output, true, place).await.unwrap();
        assert!(said.contains("no definition changed"), "{said}");
    });
}
