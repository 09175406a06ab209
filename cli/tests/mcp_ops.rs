//! `surqlc mcp` run as a service (issue 40): the audit log (one JSON line per call with its
//! subject, verdict, codes and rows; whole lines under concurrent calls; every call refused while
//! the log cannot be written; no answered call's line lost to a SIGTERM under load).

use rmcp::model::CallToolRequestParams;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

mod support;
use support::mcp_client::*;

/// A fresh path under the temporary directory for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surqlc-ops-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every line of the audit log, each parsed (a line that does not parse fails the test).
fn audit_lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "the log ends with a whole line"
    );
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: a line that is not JSON: {line}")))
        .collect()
}

/// `SIGTERM` to `pid`.
fn terminate(pid: u32) {
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
}

fn wait_exit(child: &mut std::process::Child, within: std::time::Duration) -> Option<i32> {
    let until = std::time::Instant::now() + within;
    while std::time::Instant::now() < until {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status.code();
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    panic!("still running after {within:?}");
}

/// A query of its own for call `n` (its `START` differs), valid on the store.
fn nth_query(n: usize) -> String {
    format!("SELECT VALUE name FROM product ORDER BY name LIMIT 3 START {n}")
}

#[test]
fn the_audit_log_has_a_line_per_call_with_its_subject_verdict_codes_and_rows() {
    let dir = scratch("lines");
    let log = dir.join("audit.jsonl");
    let args = [STORE, &["--max-rows", "2", "--audit-log", log.to_str().unwrap()]].concat();
    runtime().block_on(async {
        let client = stdio(&args).await;
        call(&client, "schema", json!({"question": "Which products?"})).await;
        let good = "SELECT VALUE name FROM product WHERE category = 'audio' ORDER BY name LIMIT 5";
        assert!(!is_error(&call(&client, "run_query", json!({ "query": good })).await));
        let bad = "SELECT nmae FROM product LIMIT 5";
        assert!(is_error(&call(&client, "run_query", json!({ "query": bad })).await));
        let checked = call(&client, "check_query", json!({ "query": bad })).await;
        assert!(!is_error(&checked));
        call(
            &client,
            "run_query",
            json!({"query": "SELECT VALUE name FROM product ORDER BY name LIMIT 5"}),
        )
        .await;
        client.cancel().await.ok();
    });
    let lines = audit_lines(&log);
    assert_eq!(lines.len(), 5, "{lines:#?}");
    let keys: Vec<&String> = lines[0].as_object().unwrap().keys().collect();
    for key in [
        "ts",
        "subject",
        "session",
        "tool",
        "question",
        "query",
        "verdict",
        "codes",
        "rows",
        "truncated",
        "duration_ms",
        "error",
    ] {
        assert!(keys.iter().any(|k| *k == key), "{key} in {keys:?}");
    }
    let ts = lines[0]["ts"].as_str().unwrap();
    assert!(
        ts.len() == 24 && ts.ends_with('Z') && ts.as_bytes()[10] == b'T',
        "RFC 3339: {ts}"
    );
    assert_eq!(lines[0]["subject"], "stdio");
    assert_eq!(
        (&lines[0]["tool"], &lines[0]["question"], &lines[0]["verdict"]),
        (&json!("schema"), &json!("Which products?"), &json!("ok"))
    );
    assert_eq!(
        (
            &lines[1]["tool"],
            &lines[1]["verdict"],
            &lines[1]["rows"],
            &lines[1]["truncated"]
        ),
        (&json!("run_query"), &json!("ok"), &json!(2), &json!(false))
    );
    assert_eq!(lines[1]["error"], Value::Null);
    assert!(lines[1]["duration_ms"].as_f64().unwrap() > 0.0);
    assert_eq!(
        (&lines[2]["verdict"], &lines[2]["codes"]),
        (&json!("refused"), &json!(["SQ0102"])),
        "{}",
        lines[2]
    );
    assert!(lines[2]["error"].as_str().unwrap().contains("nmae"), "{}", lines[2]);
    assert_eq!(
        (&lines[3]["tool"], &lines[3]["verdict"], &lines[3]["codes"]),
        (&json!("check_query"), &json!("refused"), &json!(["SQ0102"]))
    );
    // Cut to --max-rows: the probe row said more were there.
    assert_eq!(
        (&lines[4]["rows"], &lines[4]["truncated"]),
        (&json!(2), &json!(true)),
        "{}",
        lines[4]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn concurrent_calls_write_whole_lines_named_by_the_tokens_name() {
    let dir = scratch("concurrent");
    let (log, token_file) = (dir.join("audit.jsonl"), dir.join("ops.token"));
    let token = "a-token-of-the-ops-test-0123456789";
    std::fs::write(&token_file, token).unwrap();
    let (mut child, url, _) = http_server_with(
        &[
            "--http",
            "127.0.0.1:0",
            "--token-file",
            token_file.to_str().unwrap(),
            "--audit-log",
            log.to_str().unwrap(),
        ],
        &[],
    );
    const CLIENTS: usize = 6;
    const CALLS: usize = 20;
    runtime().block_on(async {
        let mut clients = tokio::task::JoinSet::new();
        for c in 0..CLIENTS {
            let url = url.clone();
            clients.spawn(async move {
                let client = std::sync::Arc::new(http_client(&url, token).await);
                let mut calls = tokio::task::JoinSet::new();
                for i in 0..CALLS {
                    let client = client.clone();
                    calls.spawn(async move {
                        let answer = call(&client, "run_query", json!({"query": nth_query(c * 1000 + i)})).await;
                        assert!(!is_error(&answer), "{}", text(&answer));
                    });
                }
                while let Some(done) = calls.join_next().await {
                    done.expect("a call");
                }
            });
        }
        while let Some(done) = clients.join_next().await {
            done.expect("a client");
        }
    });
    let _ = child.kill();
    let _ = child.wait();
    let lines = audit_lines(&log);
    assert_eq!(lines.len(), CLIENTS * CALLS);
    let sessions: std::collections::BTreeSet<&str> = lines.iter().map(|l| l["session"].as_str().unwrap()).collect();
    assert_eq!(sessions.len(), CLIENTS, "one session per client: {sessions:?}");
    for c in 0..CLIENTS {
        for i in 0..CALLS {
            let query = nth_query(c * 1000 + i);
            assert_eq!(
                lines.iter().filter(|l| l["query"] == query.as_str()).count(),
                1,
                "{query}"
            );
        }
    }
    assert!(lines
        .iter()
        .all(|l| l["subject"] == "ops.token" && l["verdict"] == "ok"));
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains(token), "the token never appears in the log");
    let _ = std::fs::remove_dir_all(dir);
}

/// A file this process cannot write: a read-only file, or for root (whom file modes do not
/// stop) a read-only file of the kernel's.
fn read_only_file(dir: &Path) -> PathBuf {
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if root {
        return PathBuf::from("/proc/version");
    }
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("read-only.jsonl");
    std::fs::write(&path, "").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    path
}

#[test]
fn an_audit_log_that_cannot_be_written_refuses_every_call_and_says_so() {
    let dir = scratch("unwritable");
    for target in [read_only_file(&dir), PathBuf::from("/dev/full")] {
        let (mut child, url, stderr) =
            http_server_with(&["--http", "127.0.0.1:0", "--audit-log", target.to_str().unwrap()], &[]);
        runtime().block_on(async {
            let client = http_client(&url, "unused").await;
            for _ in 0..2 {
                let answer = call(&client, "run_query", json!({"query": nth_query(0)})).await;
                assert!(is_error(&answer), "{}", text(&answer));
                let said = text(&answer);
                assert!(
                    said.starts_with("refused: the server's audit log") && !said.contains("Audio"),
                    "{said}"
                );
            }
        });
        let _ = child.kill();
        let _ = child.wait();
        let stderr = stderr.lock().unwrap().clone();
        assert!(
            stderr.contains(&format!("error: the audit log {} cannot be written", target.display())),
            "{stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sigterm_under_load_loses_no_line_of_an_answered_call() {
    let dir = scratch("sigterm");
    let log = dir.join("audit.jsonl");
    let (mut child, url, _) = http_server_with(&["--http", "127.0.0.1:0", "--audit-log", log.to_str().unwrap()], &[]);
    let pid = child.id();
    let answered = runtime().block_on(async {
        let mut clients = tokio::task::JoinSet::new();
        for c in 0..4usize {
            let url = url.clone();
            clients.spawn(async move {
                let client = http_client(&url, "unused").await;
                let mut answered = Vec::new();
                for i in 0..400 {
                    let query = nth_query(c * 1000 + i);
                    let arguments = json!({ "query": query }).as_object().cloned().unwrap();
                    let request = CallToolRequestParams::new("run_query").with_arguments(arguments);
                    match tokio::time::timeout(std::time::Duration::from_secs(20), client.call_tool(request)).await {
                        Ok(Ok(_)) => answered.push(query),
                        _ => break,
                    }
                }
                answered
            });
        }
        tokio::time::sleep(std::time::Duration::from_millis(800)).await;
        terminate(pid);
        let mut answered = Vec::new();
        while let Some(done) = clients.join_next().await {
            answered.extend(done.expect("a client"));
        }
        answered
    });
    assert_eq!(wait_exit(&mut child, std::time::Duration::from_secs(20)), Some(0));
    let lines = audit_lines(&log);
    assert!(
        answered.len() >= 4,
        "calls were answered before the signal: {}",
        answered.len()
    );
    assert!(answered.len() < 1600, "the signal came during the load");
    for query in &answered {
        assert!(
            lines.iter().any(|l| l["query"] == query.as_str()),
            "no line for the answered {query}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
