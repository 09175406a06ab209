//! Helpers shared by the end-to-end tests: paths, compiling a schema, a loaded embedded database.

use std::path::PathBuf;
use surqlc::db::{self, Db, Target};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_owned()
}

/// `../shared/fixtures/store` beside the repository.
pub fn store_fixtures() -> PathBuf {
    root().join("../shared/fixtures/store")
}

pub fn read(path: impl Into<PathBuf>) -> String {
    let path = path.into();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every example schema, `schemas/*.rs`, in name order.
pub fn schema_files() -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(root().join("schemas"))
        .expect("schemas/ exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    files
}

/// A fresh directory for one test's files, unique to this process.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surqlc-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `text` as `NAME.rs` in its own scratch directory and returns the path.
pub fn schema_file(name: &str, text: &str) -> PathBuf {
    let path = scratch_dir(name).join(format!("{name}.rs"));
    std::fs::write(&path, text).expect("schema file written");
    path
}

/// A builder for `schemas/NAME.rs` with the given agent password.
pub fn builder(schema: &str) -> surqlc::Builder {
    let mut b = surqlc::Builder::new();
    b.schema(root().join("schemas").join(format!("{schema}.rs")))
        .cargo_metadata(false);
    // Its named queries, as tests/build.rs compiles them.
    let queries = root().join("schemas").join(format!("{schema}.queries"));
    if queries.is_dir() {
        b.queries(queries);
    }
    b
}

/// A fresh embedded database with `script`s loaded in order.
pub async fn loaded(scripts: &[&str]) -> Db {
    let conn = db::connect(&Target::default())
        .await
        .expect("embedded engine starts");
    for script in scripts {
        db::execute(&conn, script).await.expect("script loads");
    }
    conn
}

/// Current-thread runtime for tests that need the engine.
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(f)
}

/// One HTTP request the [`StandIn`] received.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// Header names lowercased.
    pub headers: Vec<(String, String)>,
    pub body: serde_json::Value,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What the stand-in answers: a status, a JSON body, and how long to wait first.
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub delay: std::time::Duration,
}

impl Reply {
    pub fn ok(body: serde_json::Value) -> Reply {
        Reply {
            status: 200,
            body: body.to_string(),
            delay: std::time::Duration::ZERO,
        }
    }

    pub fn status(status: u16, body: &str) -> Reply {
        Reply {
            status,
            body: body.to_owned(),
            delay: std::time::Duration::ZERO,
        }
    }

    /// A chat completion whose first choice says `content`, as the OpenAI API writes it.
    pub fn chat(content: &str) -> Reply {
        Reply::ok(serde_json::json!({
            "id": "chatcmpl-standin",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        }))
    }

    /// An embeddings answer holding `vector`.
    pub fn embedding(vector: &[f64]) -> Reply {
        Reply::ok(serde_json::json!({
            "object": "list",
            "data": [{"object": "embedding", "index": 0, "embedding": vector}],
            "model": "standin-embed"
        }))
    }
}

/// A local stand-in for an OpenAI-compatible server: a thread answering HTTP/1.1 on 127.0.0.1
/// with `answer(n, request)` for the n-th request (from 0), recording every request.
pub struct StandIn {
    pub url: String,
    pub requests: std::sync::Arc<std::sync::Mutex<Vec<Request>>>,
}

impl StandIn {
    pub fn start(answer: impl Fn(usize, &Request) -> Reply + Send + 'static) -> StandIn {
        use std::io::{BufRead, BufReader, Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a local port");
        let url = format!("http://{}/v1", listener.local_addr().expect("address"));
        let requests = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = requests.clone();
        std::thread::spawn(move || {
            for (n, stream) in listener.incoming().enumerate() {
                let Ok(mut stream) = stream else { return };
                let mut reader = BufReader::new(stream.try_clone().expect("clone"));
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    continue;
                }
                let mut parts = line.split_whitespace();
                let method = parts.next().unwrap_or_default().to_owned();
                let path = parts.next().unwrap_or_default().to_owned();
                let mut headers = Vec::new();
                loop {
                    let mut header = String::new();
                    if reader.read_line(&mut header).is_err() || header.trim().is_empty() {
                        break;
                    }
                    if let Some((name, value)) = header.split_once(':') {
                        headers.push((name.trim().to_lowercase(), value.trim().to_owned()));
                    }
                }
                let length: usize = headers
                    .iter()
                    .find(|(n, _)| n == "content-length")
                    .and_then(|(_, v)| v.parse().ok())
                    .unwrap_or(0);
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                let request = Request {
                    method,
                    path,
                    headers,
                    body: serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null),
                };
                let reply = answer(n, &request);
                seen.lock().expect("lock").push(request);
                std::thread::sleep(reply.delay);
                let _ = write!(
                    stream,
                    "HTTP/1.1 {} Stand-in\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{}",
                    reply.status,
                    reply.body.len(),
                    reply.body
                );
            }
        });
        StandIn { url, requests }
    }

    /// The requests received so far.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().expect("lock").clone()
    }
}
