//! Optional: with `SURREAL_BIN` pointing at a `surreal` binary (3.3), `surreal import` loads the
//! compiled schema and the lesson's data into a real server, and the generated helpers work over `ws://`.
//! Without the variable the test says so and passes: the server is not part of the default run.

#[allow(dead_code)]
mod store_db {
    include!(concat!(env!("OUT_DIR"), "/store/schema.rs"));
}

#[allow(dead_code)]
mod library_db {
    include!(concat!(env!("OUT_DIR"), "/library/schema.rs"));
}

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use surqlc::runtime::Outcome;
use surqlc_tests::*;

/// Stops the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn import(bin: &Path, port: u16, file: &Path) {
    import_into(bin, port, "store", file)
}

fn import_into(bin: &Path, port: u16, database: &str, file: &Path) {
    let status = Command::new(bin)
        .args(["import", "--endpoint"])
        .arg(format!("http://127.0.0.1:{port}"))
        .args([
            "--user", "root", "--pass", "root", "--ns", "ai", "--db", database,
        ])
        .arg(file)
        .status()
        .expect("surreal import runs");
    assert!(status.success(), "surreal import {} failed", file.display());
}

/// `surreal start` on a free port with root credentials, once it listens. The tests that call it
/// are `#[ignore]`d; run without `SURREAL_BIN` they fail saying so.
fn start() -> Option<(PathBuf, Server, u16)> {
    let bin = std::env::var_os("SURREAL_BIN").map(PathBuf::from).expect(
        "set SURREAL_BIN to a surreal 3.3 binary (SURREAL_BIN=$(bash .ci/build-surreal)) to run the server tests",
    );
    let port = free_port();
    let server = Server(
        Command::new(&bin)
            .args(["start", "--user", "root", "--pass", "root", "--bind"])
            .arg(format!("127.0.0.1:{port}"))
            .arg("memory")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("surreal start runs"),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "the server did not start listening"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Some((bin, server, port))
}

#[test]
#[ignore = "needs a surreal 3.3 server binary in SURREAL_BIN (bash .ci/build-surreal); .ci/run runs it when set"]
fn surreal_import_loads_the_schema_and_the_helpers_work_over_ws() {
    let Some((bin, _server, port)) = start() else {
        return;
    };

    // The schema tests/build.rs compiled (agent password "test-agent-password"), then the lesson's data.
    import(
        &bin,
        port,
        &Path::new(env!("OUT_DIR")).join("store/schema.surql"),
    );
    import(&bin, port, &store_fixtures().join("seed.surql"));

    block_on(async {
        let target = surqlc::db::Target {
            endpoint: format!("ws://127.0.0.1:{port}"),
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
    let Some((bin, _server, port)) = start() else {
        return;
    };
    import_into(
        &bin,
        port,
        "library",
        &Path::new(env!("OUT_DIR")).join("library/schema.surql"),
    );
    let token = block_on(async {
        let target = surqlc::db::Target {
            endpoint: format!("ws://127.0.0.1:{port}"),
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
        assert!(
            !seen.contains("987654") && !seen.contains("SECRET"),
            "{seen}"
        );
        let block = surqlc::db::query_string(agent.session(), "RETURN fn::schema_context()")
            .await
            .unwrap();
        assert!(
            block.contains("displayName") && !block.contains("phone"),
            "{block}"
        );
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
    let mut sql = Command::new(&bin)
        .args(["sql", "--endpoint"])
        .arg(format!("ws://127.0.0.1:{port}"))
        .args([
            "--ns",
            "ai",
            "--db",
            "library",
            "--token",
            &token,
            "--hide-welcome",
        ])
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
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("Ann"), "{text}");
    assert!(
        !text.contains("SECRET") && !text.contains("987654"),
        "{text}"
    );
}
