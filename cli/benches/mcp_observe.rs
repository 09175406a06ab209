//! The cost of watching `surqlc mcp --http` per call (issue 40): `run_query` latency p50/p99 with nothing on, with `--audit-log FILE` (a synced line per call), with the audit log, `--metrics` and `--rate-limit` all on, and with all of them and `--otlp-endpoint` (spans and metrics exported to a loopback OTLP/HTTP sink the bench starts), on the store and the 168-table enterprise schema, at 1 and 8 concurrent sessions; the configurations take turns, round after round.
//!
//! `cargo bench -p surqlc-cli --bench mcp_observe` (`SURQLC_OBSERVE_CALLS` calls per stage, 400 by
//! default; `SURQLC_OBSERVE_ROUNDS` rounds, 3 by default). Without `--otlp-endpoint` `surqlc mcp`
//! installs no `tracing` subscriber, so its spans cost what a disabled span costs; with it, each
//! span is recorded and exported in batches (the last configuration). The figures are in
//! docs/operations.md.

#[path = "../tests/support/mod.rs"]
mod support;

use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use serde_json::json;
use std::process::Child;
use std::sync::Arc;
use std::time::{Duration, Instant};

const WORKLOADS: [(&str, &str); 2] = [
    (
        "store",
        "SELECT name, category, price FROM product WHERE price > 50 ORDER BY price LIMIT 20",
    ),
    (
        "enterprise",
        "SELECT name FROM customer WHERE segment = 'enterprise' LIMIT 50",
    ),
];

const CONFIGS: [&str; 4] = ["off", "audit log", "audit+metrics+rate", "all+otlp"];

/// An OTLP/HTTP sink on loopback that answers every export `200` and keeps nothing: the
/// collector's side costs the server nothing but the export itself. Its base URL.
fn otlp_sink(runtime: &tokio::runtime::Runtime) -> String {
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a loopback port");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    let app = axum::Router::new().fallback(|_body: axum::body::Bytes| async {});
    runtime.spawn(async move { axum::serve(listener, app).await });
    url
}

/// `surqlc mcp SCHEMA --seed ... --http 127.0.0.1:0` with configuration `config`, once it serves.
fn start(schema: &str, config: usize, audit: &std::path::Path, otlp: &str) -> (Child, String) {
    let mut args = vec![
        "mcp".to_owned(),
        format!("schemas/{schema}.rs"),
        "--seed".into(),
        format!("schemas/{schema}.seed.surql"),
        "--http".into(),
        "127.0.0.1:0".into(),
    ];
    if config >= 1 {
        args.extend(["--audit-log".into(), audit.display().to_string()]);
    }
    if config >= 2 {
        args.extend(["--metrics".into(), "0".into(), "--rate-limit".into(), "100000/s".into()]);
    }
    if config >= 3 {
        args.extend(["--otlp-endpoint".into(), otlp.to_owned()]);
    }
    let (child, url, _stderr) =
        support::mcp_client::serve(support::surqlc().args(&args).env_remove("OTEL_EXPORTER_OTLP_ENDPOINT"));
    (child, url)
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

type Client = rmcp::service::RunningService<rmcp::RoleClient, ClientConfig>;

/// One `run_query` call, which must answer rows.
async fn one_call(client: &Client, query: &str) {
    let arguments = json!({ "query": query }).as_object().cloned().unwrap();
    let answer = client
        .call_tool(CallToolRequestParams::new("run_query").with_arguments(arguments))
        .await
        .expect("an answer");
    assert_ne!(answer.is_error, Some(true), "{answer:?}");
}

/// `calls` run_query calls over `sessions` concurrent sessions (after 20 to warm up): the latencies.
async fn stage(url: &str, query: &'static str, sessions: usize, calls: usize) -> Vec<Duration> {
    let mut clients = Vec::new();
    for _ in 0..sessions {
        let transport = StreamableHttpClientTransport::from_config(StreamableHttpClientTransportConfig::with_uri(url));
        clients.push(Arc::new(
            ClientConfig::default().serve(transport).await.expect("initialize"),
        ));
    }
    for _ in 0..20 {
        one_call(&clients[0], query).await;
    }
    let mut tasks = tokio::task::JoinSet::new();
    for client in &clients {
        let client = client.clone();
        tasks.spawn(async move {
            let mut latencies = Vec::new();
            for _ in 0..calls / sessions {
                let started = Instant::now();
                one_call(&client, query).await;
                latencies.push(started.elapsed());
            }
            latencies
        });
    }
    let mut all = Vec::new();
    while let Some(done) = tasks.join_next().await {
        all.extend(done.expect("a session"));
    }
    all
}

fn main() {
    let env = |name: &str, default: usize| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (calls, rounds) = (env("SURQLC_OBSERVE_CALLS", 400), env("SURQLC_OBSERVE_ROUNDS", 3));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let otlp = otlp_sink(&runtime);
    let audit = std::env::temp_dir().join(format!("surqlc-observe-{}.jsonl", std::process::id()));
    println!("run_query latency, ms; {calls} calls per stage, {rounds} rounds, configurations in turn");
    println!("| schema | sessions | configuration | p50 | p99 |");
    println!("| --- | --- | --- | --- | --- |");
    for (schema, query) in WORKLOADS {
        for sessions in [1, 8] {
            let mut latencies: Vec<Vec<Duration>> = vec![Vec::new(); CONFIGS.len()];
            for _ in 0..rounds {
                for (config, into) in latencies.iter_mut().enumerate() {
                    let (mut child, url) = start(schema, config, &audit, &otlp);
                    into.extend(runtime.block_on(stage(&url, query, sessions, calls)));
                    let _ = child.kill();
                    let _ = child.wait();
                    let _ = std::fs::remove_file(&audit);
                }
            }
            for (config, mut all) in latencies.into_iter().enumerate() {
                all.sort();
                println!(
                    "| {schema} | {sessions} | {} | {:.2} | {:.2} |",
                    CONFIGS[config],
                    percentile(&all, 0.5),
                    percentile(&all, 0.99)
                );
            }
        }
    }
}
