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

/// A query of its own for call `n` (its `START` differs), valid on the store.
fn nth_query(n: usize) -> String {
    format!("SELECT VALUE name FROM product ORDER BY name LIMIT 3 START {n}")
}

/// `ask`'s audit line carries the query the model wrote (the caller never sends one), the rows it
/// answered, and `declined` when the model replied `-- cannot answer` (neither an error nor a
/// refusal); `refused` with the last attempt's codes when no attempt passed. The model is a local
/// stand-in speaking the OpenAI wire format (a test double: no model endpoint is reachable here).
#[test]
fn the_ask_tools_audit_line_has_the_models_query_and_a_decline_is_not_an_error() {
    let dir = scratch("ask");
    let log = dir.join("audit.jsonl");
    let args = [STORE, &["--max-rows", "2", "--audit-log", log.to_str().unwrap()]].concat();
    let url = support::model(vec![
        support::Reply::chat("SELECT nme FROM customer LIMIT 5"),
        support::Reply::chat("SELECT name FROM customer ORDER BY name LIMIT 5"),
        support::Reply::chat("-- cannot answer: the schema holds no stock levels"),
        support::Reply::chat("SELECT nme FROM customer LIMIT 5"),
    ]);
    runtime().block_on(async {
        let env = [("SURQLC_MODEL_URL", url.as_str()), ("SURQLC_MODEL", "standin")];
        let client = stdio_with(&args, &env).await;
        let answered = call(&client, "ask", json!({"question": "Who are our customers?"})).await;
        assert!(!is_error(&answered), "{}", text(&answered));
        let declined = call(&client, "ask", json!({"question": "How many drills are in stock?"})).await;
        assert!(text(&declined).contains("no stock levels"), "{}", text(&declined));
        let refused = call(&client, "ask", json!({"question": "Who are our customers, again?"})).await;
        assert!(is_error(&refused), "{}", text(&refused));
        client.cancel().await.ok();
    });
    let lines = audit_lines(&log);
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert_eq!(
        (&lines[0]["tool"], &lines[0]["verdict"], &lines[0]["question"]),
        (&json!("ask"), &json!("ok"), &json!("Who are our customers?"))
    );
    assert_eq!(
        lines[0]["query"], "SELECT name FROM customer ORDER BY name LIMIT 5",
        "{}",
        lines[0]
    );
    assert_eq!(
        (&lines[0]["rows"], &lines[0]["truncated"]),
        (&json!(2), &json!(true)),
        "{}",
        lines[0]
    );
    assert_eq!(
        (&lines[1]["verdict"], &lines[1]["query"]),
        (&json!("declined"), &Value::Null),
        "{}",
        lines[1]
    );
    assert!(
        lines[1]["error"].as_str().unwrap().contains("no stock levels"),
        "{}",
        lines[1]
    );
    assert_eq!(
        (&lines[2]["verdict"], &lines[2]["codes"]),
        (&json!("refused"), &json!(["SQ0102"])),
        "{}",
        lines[2]
    );
    let _ = std::fs::remove_dir_all(dir);
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
        sigterm(pid);
        let mut answered = Vec::new();
        while let Some(done) = clients.join_next().await {
            answered.extend(done.expect("a client"));
        }
        answered
    });
    assert_eq!(exit_within(&mut child, std::time::Duration::from_secs(20)), Some(0));
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

/// The address `serving metrics at URL` names on stderr.
fn metrics_url(stderr: &std::sync::Mutex<String>) -> String {
    let said = stderr.lock().unwrap().clone();
    said.lines()
        .find_map(|l| l.strip_prefix("serving metrics at "))
        .unwrap_or_else(|| panic!("the metrics address is said: {said}"))
        .to_owned()
}

/// The `/metrics` page parsed by a Prometheus text-format parser: each sample's value by its
/// name and labels (`name{label=value,...}`, labels sorted); a histogram's buckets as `name_bucket{...,le=...}`.
fn scrape(url: &str) -> BTreeMap<String, f64> {
    let (code, head, body) = http_get(url);
    assert_eq!(code, 200, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    let parsed = prometheus_parse::Scrape::parse(body.lines().map(|l| Ok(l.to_owned()))).expect("Prometheus text");
    let mut samples = BTreeMap::new();
    for sample in parsed.samples {
        let labels: BTreeMap<String, String> = sample.labels.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let key = |name: &str, extra: Option<(&str, String)>| {
            let mut labels = labels.clone();
            if let Some((k, v)) = extra {
                labels.insert(k.to_owned(), v);
            }
            let inner: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("{name}{{{}}}", inner.join(","))
        };
        use prometheus_parse::Value as V;
        match sample.value {
            V::Counter(v) | V::Gauge(v) | V::Untyped(v) => {
                samples.insert(key(&sample.metric, None), v);
            }
            V::Histogram(buckets) => {
                for b in buckets {
                    let le = if b.less_than.is_infinite() {
                        "+Inf".to_owned()
                    } else {
                        b.less_than.to_string()
                    };
                    samples.insert(key(&format!("{}_bucket", sample.metric), Some(("le", le))), b.count);
                }
            }
            V::Summary(_) => panic!("no summaries are served"),
        }
    }
    samples
}

use std::collections::BTreeMap;

#[test]
fn metrics_count_the_calls_refusals_durations_and_sessions_made() {
    let (mut child, url, stderr) = http_server_with(&["--http", "127.0.0.1:0", "--metrics", "127.0.0.1:0"], &[]);
    let metrics = metrics_url(&stderr);
    assert!(
        metrics.starts_with("http://127.0.0.1:") && metrics.ends_with("/metrics"),
        "{metrics}"
    );
    let samples = runtime().block_on(async {
        let (one, two) = (http_client(&url, "unused").await, http_client(&url, "unused").await);
        for i in 0..3 {
            assert!(!is_error(
                &call(&one, "run_query", json!({"query": nth_query(i)})).await
            ));
        }
        for client in [&one, &two] {
            let bad = call(
                client,
                "run_query",
                json!({"query": "SELECT nmae FROM product LIMIT 5"}),
            )
            .await;
            assert!(is_error(&bad));
        }
        call(&two, "check_query", json!({"query": nth_query(0)})).await;
        let samples = scrape(&metrics);
        one.cancel().await.ok();
        samples
    });
    let _ = child.kill();
    let _ = child.wait();
    let at = |key: &str| {
        samples
            .get(key)
            .copied()
            .unwrap_or_else(|| panic!("{key} in {samples:#?}"))
    };
    assert_eq!(at("surqlc_tool_calls_total{outcome=ok,tool=run_query}"), 3.0);
    assert_eq!(at("surqlc_tool_calls_total{outcome=refused,tool=run_query}"), 2.0);
    assert_eq!(at("surqlc_tool_calls_total{outcome=ok,tool=check_query}"), 1.0);
    assert_eq!(at("surqlc_refusals_total{code=SQ0102}"), 2.0);
    assert_eq!(at("surqlc_tool_call_duration_seconds_count{tool=run_query}"), 5.0);
    assert_eq!(
        at("surqlc_tool_call_duration_seconds_bucket{le=+Inf,tool=run_query}"),
        5.0
    );
    assert!(at("surqlc_tool_call_duration_seconds_sum{tool=run_query}") > 0.0);
    assert_eq!(at("surqlc_sessions{}"), 2.0);
}

#[test]
fn healthz_and_readyz_answer_without_the_token() {
    let dir = scratch("health");
    let token_file = dir.join("ops.token");
    std::fs::write(&token_file, "a-token-of-the-health-test-0123456789").unwrap();
    let (mut child, url, _) = http_server_with(
        &["--http", "127.0.0.1:0", "--token-file", token_file.to_str().unwrap()],
        &[],
    );
    let base = url.strip_suffix("/mcp").unwrap();
    let (code, _, body) = http_get(&format!("{base}/healthz"));
    assert_eq!((code, body.as_str()), (200, "ok\n"));
    let (code, _, body) = http_get(&format!("{base}/readyz"));
    assert_eq!((code, body.as_str()), (200, "ready\n"));
    // The tools still need the token.
    let (code, _) = http_exchange(&url, "POST", &[("Content-Type", "application/json")], "{}");
    assert_eq!(code, 401);
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn over_the_rate_limit_a_call_gets_429_with_retry_after_counted_and_audited() {
    let dir = scratch("rate");
    let (log, token_file) = (dir.join("audit.jsonl"), dir.join("ops.token"));
    let token = "a-token-of-the-rate-test-0123456789";
    std::fs::write(&token_file, token).unwrap();
    let (mut child, url, stderr) = http_server_with(
        &[
            "--http",
            "127.0.0.1:0",
            "--token-file",
            token_file.to_str().unwrap(),
            "--rate-limit",
            "0.2/s",
            "--rate-burst",
            "3",
            "--audit-log",
            log.to_str().unwrap(),
            "--metrics",
            "0",
        ],
        &[],
    );
    let metrics = metrics_url(&stderr);
    runtime().block_on(async {
        let client = http_client(&url, token).await;
        for i in 0..3 {
            assert!(!is_error(
                &call(&client, "run_query", json!({"query": nth_query(i)})).await
            ));
        }
        let arguments = json!({"query": nth_query(3)}).as_object().cloned().unwrap();
        let over = client
            .call_tool(CallToolRequestParams::new("run_query").with_arguments(arguments))
            .await;
        assert!(
            over.is_err(),
            "the fourth call within the burst's second is refused: {over:?}"
        );
    });
    let body = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"run_query","arguments":{"query":"SELECT 1"}}}"#;
    let bearer = format!("Bearer {token}");
    let (code, head) = http_exchange(
        &url,
        "POST",
        &[("Authorization", &bearer), ("Content-Type", "application/json")],
        body,
    );
    assert_eq!(code, 429, "{head}");
    let retry: u64 = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("retry-after: ").map(str::to_owned))
        .unwrap_or_else(|| panic!("Retry-After in {head}"))
        .trim()
        .parse()
        .unwrap();
    assert!((1..=5).contains(&retry), "{retry}");
    let samples = scrape(&metrics);
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        samples.get("surqlc_refusals_total{code=rate_limited}"),
        Some(&2.0),
        "{samples:#?}"
    );
    assert_eq!(
        samples.get("surqlc_tool_calls_total{outcome=refused,tool=run_query}"),
        Some(&2.0)
    );
    let lines = audit_lines(&log);
    let limited: Vec<&Value> = lines.iter().filter(|l| l["codes"] == json!(["rate_limited"])).collect();
    assert_eq!(limited.len(), 2, "{lines:#?}");
    assert_eq!(
        (&limited[0]["verdict"], &limited[0]["subject"], &limited[0]["query"]),
        (&json!("refused"), &json!("ops.token"), &json!(nth_query(3)))
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// An end user's token for `user`, signed with `key` (`surqlc token`), with `extra` arguments.
fn user_token(user: &str, key: &str, extra: &[&str]) -> String {
    let out = support::surqlc()
        .args(["token", "schemas/store.rs", "--as", user])
        .args(extra)
        .env("SURQLC_SCOPE_KEY", key)
        .output()
        .expect("surqlc token runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

#[test]
fn per_user_the_audit_subject_is_the_tokens_end_user_and_never_the_token() {
    let dir = scratch("per-user");
    let log = dir.join("audit.jsonl");
    let key = "mcp-ops-scope-key";
    let (mut child, url, _) = http_server_with(
        &[
            "--http",
            "127.0.0.1:0",
            "--per-user",
            "--audit-log",
            log.to_str().unwrap(),
        ],
        &[("SURQLC_SCOPE_KEY", key)],
    );
    let (mei, sam) = (
        user_token("customer:mei", key, &[]),
        user_token("customer:sam", key, &[]),
    );
    runtime().block_on(async {
        for token in [&mei, &sam] {
            let client = http_client(&url, token).await;
            let answer = call(
                &client,
                "run_query",
                json!({"query": "SELECT id FROM purchase LIMIT 10"}),
            )
            .await;
            assert!(!is_error(&answer), "{}", text(&answer));
            client.cancel().await.ok();
        }
    });
    let _ = child.kill();
    let _ = child.wait();
    let lines = audit_lines(&log);
    let subjects: Vec<&str> = lines.iter().map(|l| l["subject"].as_str().unwrap()).collect();
    assert_eq!(subjects, ["customer:mei", "customer:sam"]);
    assert_eq!((&lines[0]["rows"], &lines[1]["rows"]), (&json!(2), &json!(2)));
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains(&mei) && !text.contains(&sam), "no token in the log");
    let _ = std::fs::remove_dir_all(dir);
}
