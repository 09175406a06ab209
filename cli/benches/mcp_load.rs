//! Load on `surqlc mcp --http`: N concurrent MCP sessions (rmcp's client over streamable HTTP, on
//! loopback) calling `schema`, `check_query` and `run_query` against the store and the 168-table
//! enterprise schema; calls/s, p50/p99 latency per tool, errors and the server's peak RSS at
//! N = 1, 8, 32, then 10,000 calls at N = 8 with the server's RSS after each thousand.
//!
//! `cargo bench -p surqlc-cli --bench mcp_load` (bounded: `SURQLC_LOAD_CALLS` calls per
//! stage, 960 by default; `SURQLC_LOAD_LONG` calls in the memory stage, 10,000 by default). The
//! figures are in docs/reliability.md.

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

/// One schema under load: the calls each session makes in turn.
struct Workload {
    schema: &'static str,
    question: &'static str,
    check: &'static str,
    run: &'static str,
}

const WORKLOADS: &[Workload] = &[
    Workload {
        schema: "store",
        question: "Which category earns us the most money?",
        check: "SELECT name FROM customer WHERE tier = 'pro' LIMIT 5",
        run: "SELECT name, category, price FROM product WHERE price > 50 ORDER BY price LIMIT 20",
    },
    Workload {
        schema: "enterprise",
        question: "Which invoices are overdue?",
        check: "SELECT invoice_number, amount FROM invoice WHERE status = 'overdue' LIMIT 50",
        run: "SELECT name FROM customer WHERE segment = 'enterprise' LIMIT 50",
    },
];

const TOOLS: [&str; 3] = ["schema", "check_query", "run_query"];

/// `surqlc mcp SCHEMA --seed ... --http 127.0.0.1:0`, once it says where it serves.
fn start(schema: &str) -> (Child, String) {
    let (child, url, _stderr) = support::mcp_client::serve(support::surqlc().args([
        "mcp",
        &format!("schemas/{schema}.rs"),
        "--seed",
        &format!("schemas/{schema}.seed.surql"),
        "--http",
        "127.0.0.1:0",
    ]));
    (child, url)
}

/// The process's resident set now and at its peak, in MiB (Linux /proc).
fn rss(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Latencies per tool and the errors of one stage.
#[derive(Default)]
struct Stage {
    latencies: [Vec<Duration>; 3],
    errors: usize,
    wall: Duration,
}

impl Stage {
    fn calls(&self) -> usize {
        self.latencies.iter().map(Vec::len).sum::<usize>() + self.errors
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// `calls` tool calls spread over `sessions` concurrent MCP sessions.
async fn stage(url: &str, work: &'static Workload, sessions: usize, calls: usize) -> Stage {
    let mut clients = Vec::new();
    for _ in 0..sessions {
        let transport = StreamableHttpClientTransport::from_config(StreamableHttpClientTransportConfig::with_uri(url));
        let client = ClientConfig::default()
            .serve(transport)
            .await
            .expect("initialize over HTTP");
        clients.push(Arc::new(client));
    }
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for (s, client) in clients.iter().enumerate() {
        let client = client.clone();
        let share = calls / sessions + usize::from(s < calls % sessions);
        tasks.spawn(async move {
            let mut out = Stage::default();
            for i in 0..share {
                let k = (i + s) % 3;
                let arguments = match k {
                    0 => json!({"question": work.question}),
                    1 => json!({"query": work.check}),
                    _ => json!({"query": work.run}),
                };
                let arguments = arguments.as_object().cloned().unwrap_or_default();
                let at = Instant::now();
                let answer = client
                    .call_tool(CallToolRequestParams::new(TOOLS[k]).with_arguments(arguments))
                    .await;
                match answer {
                    Ok(result) if result.is_error != Some(true) => out.latencies[k].push(at.elapsed()),
                    _ => out.errors += 1,
                }
            }
            out
        });
    }
    let mut total = Stage::default();
    while let Some(done) = tasks.join_next().await {
        let part = done.expect("a session task");
        for k in 0..3 {
            total.latencies[k].extend(part.latencies[k].iter().copied());
        }
        total.errors += part.errors;
    }
    total.wall = started.elapsed();
    for client in clients {
        if let Ok(client) = Arc::try_unwrap(client) {
            let _ = client.cancel().await;
        }
    }
    total
}

fn main() {
    let calls: usize = std::env::var("SURQLC_LOAD_CALLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(960);
    let long: usize = std::env::var("SURQLC_LOAD_LONG")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    println!("| schema | N | calls | calls/s | errors | schema p50/p99 ms | check_query p50/p99 ms | run_query p50/p99 ms | RSS MiB (peak) |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut failed = 0;
    for work in WORKLOADS {
        let (mut child, url) = start(work.schema);
        for sessions in [1usize, 8, 32] {
            let mut result = runtime.block_on(stage(&url, work, sessions, calls));
            for l in &mut result.latencies {
                l.sort();
            }
            let (now, peak) = rss(child.id());
            let cell = |k: usize| {
                format!(
                    "{:.1} / {:.1}",
                    percentile(&result.latencies[k], 0.5),
                    percentile(&result.latencies[k], 0.99)
                )
            };
            failed += result.errors;
            println!(
                "| {} | {sessions} | {} | {:.0} | {} | {} | {} | {} | {now:.0} ({peak:.0}) |",
                work.schema,
                result.calls(),
                result.calls() as f64 / result.wall.as_secs_f64(),
                result.errors,
                cell(0),
                cell(1),
                cell(2),
            );
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    // Memory over many calls: the store at N = 8, RSS after each thousand.
    let (mut child, url) = start("store");
    let mut line = Vec::new();
    let mut errors = 0;
    let mut done = 0;
    while done < long {
        let step = 1000.min(long - done);
        let result = runtime.block_on(stage(&url, &WORKLOADS[0], 8, step));
        errors += result.errors;
        done += step;
        line.push(format!("{:.0}", rss(child.id()).0));
    }
    let (_, peak) = rss(child.id());
    println!(
        "\nstore, N = 8, {done} calls, {errors} errors: RSS MiB after each 1,000 calls: {} (peak {peak:.0})",
        line.join(", ")
    );
    let _ = child.kill();
    let _ = child.wait();
    // `.ci/run` runs a short form: any failed call fails it.
    if failed + errors > 0 {
        eprintln!("{} calls failed", failed + errors);
        std::process::exit(1);
    }
}
