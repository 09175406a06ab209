//! The MCP host's side of the CLI tests: rmcp's client on `surqlc mcp` over stdio or streamable HTTP, the answers' text, rows and data, and one raw HTTP exchange.

#![allow(dead_code)]

use super::surqlc;
use rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use serde_json::Value;
use std::process::Stdio;
use surqlc::mcp;

pub type Client = RunningService<RoleClient, ClientConfig>;

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// `surqlc ARGS` as an MCP server on stdio, with rmcp's client on the other end.
pub async fn stdio(args: &[&str]) -> Client {
    stdio_with(args, &[]).await
}

/// [`stdio`] with `env` set (and no model configured unless `env` configures one).
pub async fn stdio_with(args: &[&str], env: &[(&str, &str)]) -> Client {
    let mut command = surqlc();
    command.args(args).envs(env.iter().copied());
    let (transport, _) = TokioChildProcess::builder(tokio::process::Command::from(command))
        .stderr(Stdio::null())
        .spawn()
        .expect("the surqlc binary starts");
    ClientConfig::default()
        .serve(transport)
        .await
        .expect("surqlc mcp answers initialize")
}

pub const STORE: &[&str] = &["mcp", "schemas/store.rs", "--seed", "schemas/store.seed.surql"];

pub async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    let arguments = arguments.as_object().cloned().unwrap_or_default();
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

/// The answer's text blocks, joined.
pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn is_error(result: &CallToolResult) -> bool {
    result.is_error == Some(true)
}

/// A successful `run_query`'s answer, parsed.
pub fn rows(result: &CallToolResult) -> Value {
    assert!(!is_error(result), "refused: {}", text(result));
    data(result)
}

/// The JSON of an answer that carries data: the text between its untrusted-data markers, the
/// same JSON as its `structuredContent` (which also says, under its note key, that it is data).
pub fn data(result: &CallToolResult) -> Value {
    let said = text(result);
    let (_, inner) =
        mcp::untrusted_data(&said).unwrap_or_else(|| panic!("the data sits between untrusted-data markers: {said}"));
    let parsed: Value = serde_json::from_str(inner).expect("JSON between the markers");
    let structured = result.structured_content.as_ref().expect("structuredContent");
    assert_eq!(
        mcp::untrusted_structured(structured),
        (Some(mcp::UNTRUSTED_NOTE), parsed.clone()),
        "structuredContent is the JSON between the markers, and its note says it is data"
    );
    parsed
}

/// `surqlc mcp ... --http 127.0.0.1:0` started, and the address it says it serves.
pub fn http_server(extra: &[&str]) -> (std::process::Child, String) {
    let (child, url, _) = http_server_with(&[&["--http", "127.0.0.1:0"], extra].concat(), &[]);
    (child, url)
}

/// `surqlc mcp STORE ARGS` with `env` (and no `SURQLC_MCP_TOKEN` unless `env` sets it), the
/// address it says it serves, and its stderr as it goes on.
pub fn http_server_with(
    args: &[&str],
    env: &[(&str, &str)],
) -> (std::process::Child, String, std::sync::Arc<std::sync::Mutex<String>>) {
    serve(surqlc().args([STORE, args].concat()).envs(env.iter().copied()))
}

/// Starts `command` (a `surqlc mcp --http` command line) with its stderr piped and waits until it
/// says where it serves: the child, that URL, and its stderr as it goes on ([`served_url`]).
pub fn serve(
    command: &mut std::process::Command,
) -> (std::process::Child, String, std::sync::Arc<std::sync::Mutex<String>>) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the surqlc binary starts");
    let (url, log) = served_url(&mut child);
    (child, url, log)
}

/// The address a spawned `surqlc mcp --http` says it serves (`serving MCP at URL` on its piped
/// stderr), and its stderr as it goes on (drained by a thread, so the server never blocks on it).
pub fn served_url(child: &mut std::process::Child) -> (String, std::sync::Arc<std::sync::Mutex<String>>) {
    use std::io::{BufRead, BufReader};
    let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines
            .next()
            .unwrap_or_else(|| {
                panic!(
                    "surqlc says where it serves before stderr closes: {}",
                    log.lock().unwrap()
                )
            })
            .expect("stderr reads");
        log.lock().unwrap().push_str(&format!("{line}\n"));
        if let Some(url) = line.strip_prefix("serving MCP at ") {
            break url.to_owned();
        }
    };
    let kept = log.clone();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            kept.lock().unwrap().push_str(&format!("{line}\n"));
        }
    });
    (url, log)
}

/// A connection to `url`'s loopback host (reads time out after 30 s), the host and the path.
fn connect(url: &str) -> (std::net::TcpStream, &str, &str) {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest.split_at(rest.find('/').expect("a path"));
    let stream = std::net::TcpStream::connect(host).expect("connects");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    (stream, host, path)
}

/// `GET url` on loopback: the status, the head and the body.
pub fn http_get(url: &str) -> (u16, String, String) {
    use std::io::{Read, Write};
    let (mut stream, host, path) = connect(url);
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut all = String::new();
    stream.read_to_string(&mut all).expect("the answer reads");
    let (head, body) = all.split_once("\r\n\r\n").unwrap_or((&all, ""));
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, head.to_owned(), body.to_owned())
}

/// Sends SIGTERM to `pid`.
pub fn sigterm(pid: u32) {
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
}

/// The child's exit status once it exits, within `within` (killed and a panic after).
pub fn exit_within(child: &mut std::process::Child, within: std::time::Duration) -> Option<i32> {
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

/// One raw HTTP/1.1 exchange on loopback: the status line's code and the headers (the body, an
/// event stream that may stay open, is not read).
pub fn http_exchange(url: &str, method: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let (mut stream, host, path) = connect(url);
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        request += &format!("Host: {host}\r\n");
    }
    for (name, value) in headers {
        request += &format!("{name}: {value}\r\n");
    }
    request += "\r\n";
    request += body;
    stream.write_all(request.as_bytes()).unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("a status line in {head:?}"));
    (code, head)
}

/// rmcp's streamable-HTTP client at `url`, sending `token` as its bearer token.
pub async fn http_client(url: &str, token: &str) -> Client {
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    use rmcp::transport::StreamableHttpClientTransport;
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url).auth_header(token),
    );
    ClientConfig::default()
        .serve(transport)
        .await
        .expect("initialize over HTTP with the token")
}

/// The store built into `out` with the agent's `password` (`surqlc build`), applied and seeded on
/// `server` as database `store`.
pub fn store_on_server(server: &super::SurrealServer, out: &std::path::Path, password: &str) {
    let built = surqlc()
        .args(["build", "schemas/store.rs", "--out"])
        .arg(out)
        .env("SURQLC_AGENT_PASSWORD", password)
        .output()
        .expect("surqlc build runs");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    server.import("store", &out.join("schema.surql"));
    server.import("store", &super::root().join("schemas/store.seed.surql"));
}

/// The `id`s of a `run_query` answer's rows, sorted (what a user's view is compared by).
pub fn row_ids(answer: &Value) -> Vec<String> {
    let mut ids: Vec<String> = answer["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("rows in {answer}"))
        .iter()
        .map(|row| row["id"].as_str().unwrap_or_default().to_owned())
        .collect();
    ids.sort();
    ids
}
