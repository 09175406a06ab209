//! `surqlc mcp --endpoint` against the official `surreal` server on persistent storage
//! (`surrealkv://`) that is killed and started again mid-session: calls during the outage are
//! tool errors that come back fast (no hang, no crash), and calls after it succeed without
//! restarting `surqlc mcp`. Needs `SURREAL_BIN` (`bash .ci/build-surreal`), so it is ignored by
//! default and run by `.ci/run` when the binary is there.

use serde_json::json;
use std::process::Stdio;
use std::time::{Duration, Instant};

mod support;
use support::mcp_client::*;
use support::{surqlc, SurrealServer};

#[test]
#[ignore = "needs the official surreal server: SURREAL_BIN=$(bash .ci/build-surreal)"]
fn calls_fail_fast_while_the_server_is_down_and_succeed_after_it_restarts() {
    let data = std::env::temp_dir().join(format!("surqlc-restart-{}", std::process::id()));
    let mut server = SurrealServer::start_with(&format!("surrealkv://{}", data.display()));
    let out = data.with_extension("out");
    store_on_server(&server, &out, "restart-test");
    let count = json!({"query": "SELECT count() AS n FROM customer GROUP ALL"});
    runtime().block_on(async {
        let mut command = surqlc();
        command
            .args(["mcp", "schemas/store.rs", "--endpoint", &server.ws(), "--timeout", "10"])
            .args(["--user", "root", "--pass", "root"])
            .env("SURQLC_AGENT_PASSWORD", "restart-test");
        let (transport, _) = rmcp::transport::TokioChildProcess::builder(tokio::process::Command::from(command))
            .stderr(Stdio::null())
            .spawn()
            .expect("surqlc starts");
        use rmcp::ServiceExt;
        let client = rmcp::model::ClientConfig::default()
            .serve(transport)
            .await
            .expect("initialize");
        assert_eq!(
            rows(&call(&client, "run_query", count.clone()).await)["rows"],
            json!([{"n": 5}])
        );

        server.kill();
        let asked = Instant::now();
        let down = call(&client, "run_query", count.clone()).await;
        let took = asked.elapsed();
        assert!(
            is_error(&down),
            "a call while the server is down is a tool error: {}",
            text(&down)
        );
        eprintln!("while down: {:?}: {}", took, text(&down));
        assert!(
            took < Duration::from_secs(12),
            "answered within the call's deadline: {took:?}"
        );

        server.restart();
        let restarted = Instant::now();
        let mut answer = call(&client, "run_query", count.clone()).await;
        while is_error(&answer) && restarted.elapsed() < Duration::from_secs(30) {
            tokio::time::sleep(Duration::from_millis(250)).await;
            answer = call(&client, "run_query", count.clone()).await;
        }
        eprintln!("after the restart: ok after {:?}", restarted.elapsed());
        assert_eq!(rows(&answer)["rows"], json!([{"n": 5}]), "{}", text(&answer));
        client.cancel().await.ok();
    });
    drop(server);
    std::fs::remove_dir_all(&data).ok();
    std::fs::remove_dir_all(&out).ok();
}
