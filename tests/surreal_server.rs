//! Optional: with `SURREAL_BIN` pointing at a `surreal` binary (3.3), `surreal import` loads the
//! compiled schema and the lesson's data into a real server (`SurrealServer`, test-support's), and
//! the generated helpers work over `ws://`. The tests are `#[ignore]`d: `.ci/run` runs them when
//! `SURREAL_BIN` is set.

#[allow(dead_code)]
mod store_db {
    include!(concat!(env!("OUT_DIR"), "/store/schema.rs"));
}

#[allow(dead_code)]
mod library_db {
    include!(concat!(env!("OUT_DIR"), "/library/schema.rs"));
}

use std::path::Path;
use std::process::{Command, Stdio};
use surqlc::runtime::Outcome;
use surqlc_tests::*;

#[test]
#[ignore = "needs a surreal 3.3 server binary in SURREAL_BIN (bash .ci/build-surreal); .ci/run runs it when set"]
fn surreal_import_loads_the_schema_and_the_helpers_work_over_ws() {
    let server = SurrealServer::start();

    // The schema tests/build.rs compiled (agent password "test-agent-password"), then the lesson's data.
    server.import("store", &Path::new(env!("OUT_DIR")).join("store/schema.surql"));
    server.import("store", &store_fixtures().join("seed.surql"));

    block_on(async {
        let target = surqlc::db::Target {
            endpoint: server.ws(),
            root: Some(("root".into(), "root".into())),
            ..Default::default()
        };
        let db = surqlc::db::connect(&target).await.expect("ws:// connects");
        assert_eq!(
            store_db::schema_context(&db).await.unwrap(),
            read(store_fixtures().join("expected/schema_context.txt"))
        );
        let agent = store_db::agent_signin(&db, "ai", "store", "test-agent-password")
            .await
            .expect("the agent signs in over ws://");
        let reply = "SELECT out.category AS category, math::sum(qty * unit_price) AS revenue FROM contains WHERE in.status = 'shipped' GROUP BY category ORDER BY revenue DESC LIMIT 50;";
        let outcome = store_db::run_readonly(&agent, reply).await.unwrap();
        let want: Vec<serde_json::Value> =
            serde_json::from_str(&read(store_fixtures().join("expected/revenue.json"))).unwrap();
        match outcome {
            rows @ Outcome::Rows { .. } => assert_eq!(rows.rows_json().unwrap(), want),
            other => panic!("{other:?}"),
        }
        // Drift over ws://: nothing on the freshly imported schema, a dropped field once removed.
        assert!(store_db::check_drift(&db).await.unwrap().is_empty());
        db.query("REMOVE FIELD joined ON customer")
            .await
            .unwrap()
            .check()
            .unwrap();
        let drift = store_db::check_drift(&db).await.unwrap().to_string();
        assert!(drift.contains("joined"), "{drift}");
    });
}

#[test]
#[ignore = "needs a surreal 3.3 server binary in SURREAL_BIN (bash .ci/build-surreal); .ci/run runs it when set"]
fn on_a_server_the_record_access_agent_reads_only_what_the_prompt_shows() {
    let server = SurrealServer::start();
    server.import("library", &Path::new(env!("OUT_DIR")).join("library/schema.surql"));
    let token = block_on(async {
        let target = surqlc::db::Target {
            endpoint: server.ws(),
            database: "library".into(),
            root: Some(("root".into(), "root".into())),
            ..Default::default()
        };
        let db = surqlc::db::connect(&target).await.expect("ws:// connects");
        db.query(crate::visibility::LIBRARY_ROWS)
            .await
            .unwrap()
            .check()
            .unwrap();
        let agent = library_db::agent_signin(&db, "ai", "library", "test-agent-password")
            .await
            .expect("the record-access agent signs in over ws://");
        let mut seen = String::new();
        for query in [
            "SELECT * FROM member",
            "SELECT phone FROM member",
            "SELECT * FROM loan_audit",
            "SELECT *, (SELECT * FROM loan_audit) AS a FROM member",
            "RETURN loan_audit:a1.*",
            "RETURN fn::schema_context()",
        ] {
            let mut response = agent.session().query(query).await.unwrap();
            let value: surqlc::runtime::surrealdb::types::Value = response.take(0).unwrap();
            seen.push_str(&value.into_json_value().to_string());
        }
        assert!(seen.contains("Ann"), "{seen}");
        assert!(!seen.contains("987654") && !seen.contains("SECRET"), "{seen}");
        let block = surqlc::db::query_string(agent.session(), "RETURN fn::schema_context()")
            .await
            .unwrap();
        assert!(block.contains("displayName") && !block.contains("phone"), "{block}");
        let info = agent
            .session()
            .query("INFO FOR TABLE loan_audit")
            .await
            .unwrap()
            .check();
        assert!(info.is_err(), "INFO is refused to the agent");
        // The token the README tells a person to use with `surreal sql --token`.
        let agent_session = db.clone();
        let jwt = agent_session
            .signin(surqlc::runtime::surrealdb::opt::auth::Record {
                namespace: "ai".into(),
                database: "library".into(),
                access: "librarian_bot".into(),
                params: serde_json::json!({ "user": "librarian_bot", "pass": "test-agent-password" }),
            })
            .await
            .expect("record signin");
        jwt.access.as_insecure_token().to_owned()
    });
    // The same agent through the official CLI, as the README describes.
    let mut sql = Command::new(&server.bin)
        .args(["sql", "--endpoint"])
        .arg(server.ws())
        .args(["--ns", "ai", "--db", "library", "--token", &token, "--hide-welcome"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("surreal sql runs");
    use std::io::Write;
    sql.stdin
        .take()
        .unwrap()
        .write_all(b"SELECT * FROM member; SELECT * FROM loan_audit;\n")
        .unwrap();
    let out = sql.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("Ann"), "{text}");
    assert!(!text.contains("SECRET") && !text.contains("987654"), "{text}");
}
