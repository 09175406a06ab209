//! Optional: with `SURREAL_BIN` pointing at a `surreal` binary (3.3), `surreal import` loads the
//! compiled schema and the lesson's data into a real server, and the generated helpers work over `ws://`.
//! Without the variable the test says so and passes: the server is not part of the default run.

#[allow(dead_code)]
mod store_db {
    include!(concat!(env!("OUT_DIR"), "/store/schema.rs"));
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
    let status = Command::new(bin)
        .args(["import", "--endpoint"])
        .arg(format!("http://127.0.0.1:{port}"))
        .args([
            "--user", "root", "--pass", "root", "--ns", "ai", "--db", "store",
        ])
        .arg(file)
        .status()
        .expect("surreal import runs");
    assert!(status.success(), "surreal import {} failed", file.display());
}

#[test]
fn surreal_import_loads_the_schema_and_the_helpers_work_over_ws() {
    let Some(bin) = std::env::var_os("SURREAL_BIN").map(PathBuf::from) else {
        eprintln!("skipped: set SURREAL_BIN to a surreal 3.3 binary to run the server test");
        return;
    };
    let port = free_port();
    let _server = Server(
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
    });
}
