//! One verdict for one query, whatever the surface: `surqlc check-query` (with the data), MCP's
//! `check_query` and `run_query`, `ask` (a scripted model that replies the query, one attempt),
//! the library's `validate` (what the generated module's `validate` calls) and `Builder::queries`
//! (named queries: the same problems but the LIMIT rule, which is theirs) agree on every query of
//! the validator's corpora and on the LIMIT cases that once split them.
//!
//! The model here is a test double in-process (no model endpoint is reachable from CI).

use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use serde_json::{json, Value};
use std::process::Stdio;
use surqlc::runtime::ask::{Asker, Message, Model, ModelError, Status};
use surqlc::validate::{self, Class, Severity};

mod support;
use support::mcp_client::text;
use support::{root, surqlc};

const PASSWORD: &str = "verdicts-test-password";

/// The queries: both corpora of the validator, and the LIMIT cases.
fn corpus() -> Vec<String> {
    let mut queries = Vec::new();
    for file in ["tests/corpus/store_right.surql", "tests/corpus/store_wrong.surql"] {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        for piece in validate::split_queries(&text, false) {
            let code: Vec<&str> = piece
                .text
                .lines()
                .filter(|l| !l.trim_start().starts_with("--"))
                .collect();
            let code = code.join("\n").trim().to_owned();
            if !code.is_empty() {
                queries.push(code);
            }
        }
    }
    queries.extend(
        [
            "SELECT name FROM product",
            "SELECT name FROM product WHERE category = 'audio'",
            "SELECT name FROM product LIMIT 500",
            "SELECT name FROM product LIMIT 50",
            "SELECT count() AS n FROM purchase GROUP ALL",
        ]
        .map(str::to_owned),
    );
    queries
}

/// A model that always replies the one query it was given.
struct Replies(String);

impl Model for Replies {
    async fn complete(&self, _: &[Message]) -> Result<String, ModelError> {
        Ok(self.0.clone())
    }
}

/// Error classes of a report, LIMIT's and the statement rule's left out: named queries are the
/// application's profile, which has no row policy and takes every statement kind.
fn classes_but_limit(report: &validate::Report) -> Vec<String> {
    let mut classes: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && d.class != Class::Limit && d.class != Class::NotOneSelect)
        .map(|d| d.class.name().to_owned())
        .collect();
    classes.sort();
    classes
}

/// Whether `surqlc check-query` passes each query.
fn check_query_verdicts(queries: &[String]) -> Vec<bool> {
    // check-query, as CI runs it: the queries of one file, with the data; a reply of several
    // statements (a file would split it into queries) is given on the command line.
    let dir = std::env::temp_dir().join(format!("surqlc-verdicts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let check_query = |extra: &[&std::ffi::OsStr]| {
        surqlc()
            .args([
                "check-query",
                "schemas/store.rs",
                "--seed",
                "schemas/store.seed.surql",
                "--format",
                "json",
            ])
            .args(extra)
            .output()
            .expect("surqlc runs")
    };
    let several = |q: &str| q.trim_end().trim_end_matches(';').contains(';');
    let in_file: Vec<&String> = queries.iter().filter(|q| !several(q)).collect();
    let file = dir.join("queries.surql");
    std::fs::write(
        &file,
        in_file.iter().map(|q| q.as_str()).collect::<Vec<_>>().join("\n\n") + "\n",
    )
    .unwrap();
    let out = check_query(&["--file".as_ref(), file.as_os_str()]);
    let json: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let from_file: Vec<bool> = json["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            !q["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["severity"] == "error")
        })
        .collect();
    assert_eq!(from_file.len(), in_file.len(), "check-query split the file as written");
    let mut from_file = from_file.into_iter();
    let verdicts = queries
        .iter()
        .map(|q| {
            if several(q) {
                check_query(&[q.as_ref()]).status.success()
            } else {
                from_file.next().unwrap()
            }
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    verdicts
}

#[test]
fn every_surface_gives_one_query_one_verdict() {
    let queries = corpus();
    assert!(queries.len() > 60, "{}", queries.len());
    let schema_file = root().join("schemas/store.rs");
    let seed = std::fs::read_to_string(root().join("schemas/store.seed.surql")).unwrap();

    let cli = check_query_verdicts(&queries);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        // MCP over stdio, the binary a host starts.
        let mut command = surqlc();
        command.args(["mcp", "schemas/store.rs", "--seed", "schemas/store.seed.surql"]);
        let command = tokio::process::Command::from(command);
        let (transport, _) = TokioChildProcess::builder(command)
            .stderr(Stdio::null())
            .spawn()
            .expect("surqlc mcp starts");
        let client = ClientConfig::default().serve(transport).await.expect("initialize");
        let call = |tool: &'static str, query: String| {
            let client = &client;
            async move {
                let arguments = json!({ "query": query }).as_object().cloned().unwrap();
                client
                    .call_tool(CallToolRequestParams::new(tool).with_arguments(arguments))
                    .await
                    .unwrap()
            }
        };

        // ask, in-process on the embedded engine with the agent signed in.
        let mut b = surqlc::Builder::new();
        b.schema(&schema_file).cargo_metadata(false).agent_password(PASSWORD);
        let output = b.generate().unwrap();
        let target = surqlc::db::Target {
            database: output.schema.name.clone(),
            ..Default::default()
        };
        let conn = surqlc::schema_db::open(&output, &target).await.unwrap();
        surqlc::db::execute(&conn, &seed).await.unwrap();
        let agent = surqlc::schema_db::signin_agent(&conn, &output.schema, &target, PASSWORD)
            .await
            .unwrap();

        let mut disagreements = Vec::new();
        let (mut passed, mut refused) = (0, 0);
        for (query, cli) in queries.iter().zip(&cli) {
            let checked = call("check_query", query.clone()).await;
            let check_query = checked.is_error != Some(true) && text(&checked).starts_with("ok");
            let ran = call("run_query", query.clone()).await;
            let run_query = ran.is_error != Some(true);
            let model = Replies(query.clone());
            let answer = Asker::new(&conn, &agent, &output.schema, &model)
                .attempts(1)
                .ask("a question the corpus answers")
                .await
                .unwrap();
            let ask = answer.status == Status::Answered;
            let verdicts = [*cli, check_query, run_query, ask];
            if verdicts.iter().any(|v| *v != verdicts[0]) {
                disagreements.push(format!(
                    "{query}\n  check-query {cli}, check_query {check_query}, run_query {run_query}, ask {ask}\n  check_query said: {}\n  run_query said: {}",
                    text(&checked),
                    text(&ran)
                ));
            }
            // Without data the library can only be more lenient: what it refuses, all refuse.
            let library = validate::validate(&output.schema, query);
            if library.has_errors() && verdicts[0] {
                disagreements.push(format!("{query}\n  validate refuses what the surfaces pass"));
            }
            // Named queries (the application's profile): the same problems, the row and statement rules aside.
            let named = validate::validate_with(&output.schema, query, &validate::Options::for_named_queries());
            if classes_but_limit(&named) != classes_but_limit(&library) {
                disagreements.push(format!("{query}\n  named-query classes {:?} vs {:?}", classes_but_limit(&named), classes_but_limit(&library)));
            }
            if verdicts[0] {
                passed += 1;
            } else {
                refused += 1;
            }
        }
        client.cancel().await.ok();
        assert!(disagreements.is_empty(), "{}", disagreements.join("\n\n"));
        eprintln!("{passed} passed and {refused} refused on every surface");
        assert!(passed > 20 && refused > 20, "{passed} passed, {refused} refused");
    });
}
