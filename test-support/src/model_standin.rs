//! A local stand-in for an OpenAI-compatible model endpoint, not a model: a tiny HTTP/1.1 server on 127.0.0.1 that speaks the OpenAI chat-completions (and embeddings) wire format, answers each request with a canned [`Reply`] and records what it received (no model endpoint is reachable from the test machines).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One HTTP request the [`StandIn`] received.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// Header names lowercased.
    pub headers: Vec<(String, String)>,
    /// The JSON body (`null` when there is none or it is not JSON).
    pub body: serde_json::Value,
    /// The body as sent (a form's `a=1&b=2`, where `body` is `null`).
    pub text: String,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// What the stand-in answers: a status, a JSON body, and how long to wait first.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub delay: Duration,
    /// A `Location` header (a redirect's target).
    pub location: Option<String>,
}

impl Reply {
    pub fn ok(body: serde_json::Value) -> Reply {
        Reply {
            status: 200,
            body: body.to_string(),
            delay: Duration::ZERO,
            location: None,
        }
    }

    pub fn status(status: u16, body: &str) -> Reply {
        Reply {
            status,
            body: body.to_owned(),
            delay: Duration::ZERO,
            location: None,
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

    /// This reply, sent after `delay` (a slow model; a long delay is one that never answers).
    pub fn after(self, delay: Duration) -> Reply {
        Reply { delay, ..self }
    }
}

/// The stand-in: `url` is its API base (`http://127.0.0.1:PORT/v1`), `requests` what it received.
/// Each connection is answered on a thread of its own, so a slow reply holds up no other request.
pub struct StandIn {
    pub url: String,
    pub requests: Arc<Mutex<Vec<Request>>>,
}

type Answer = dyn Fn(usize, &Request) -> Reply + Send + Sync;

impl StandIn {
    /// Answers the n-th request (from 0) with `answer(n, request)`.
    pub fn start(answer: impl Fn(usize, &Request) -> Reply + Send + Sync + 'static) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
        let url = format!("http://{}/v1", listener.local_addr().expect("address"));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        let answer: Arc<Answer> = Arc::new(answer);
        std::thread::spawn(move || {
            for (n, stream) in listener.incoming().enumerate() {
                let Ok(stream) = stream else { return };
                let (answer, seen) = (answer.clone(), seen.clone());
                std::thread::spawn(move || serve(stream, n, &*answer, &seen));
            }
        });
        StandIn { url, requests }
    }

    /// Answers the n-th request with `replies[n]`, and every one after the last with the last.
    pub fn replies(replies: Vec<Reply>) -> StandIn {
        assert!(!replies.is_empty(), "a stand-in needs a reply");
        StandIn::start(move |n, _| replies[n.min(replies.len() - 1)].clone())
    }

    /// The requests received so far.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().expect("lock").clone()
    }
}

/// Reads one request from `stream`, records it, and writes `answer`'s reply after its delay.
fn serve(mut stream: TcpStream, n: usize, answer: &Answer, seen: &Mutex<Vec<Request>>) {
    let Some(request) = read_request(&stream) else {
        return;
    };
    let reply = answer(n, &request);
    seen.lock().expect("lock").push(request);
    std::thread::sleep(reply.delay);
    let location = reply
        .location
        .as_deref()
        .map(|l| format!("location: {l}\r\n"))
        .unwrap_or_default();
    let _ = write!(
        stream,
        "HTTP/1.1 {} Stand-in\r\ncontent-type: application/json\r\n{location}content-length: {}\r\nconnection: close\r\n\r\n{}",
        reply.status,
        reply.body.len(),
        reply.body
    );
}

/// The request line, the headers and a `content-length` body; `None` if the line cannot be read.
fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
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
    Some(Request {
        method,
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null),
        text: String::from_utf8_lossy(&body).into_owned(),
    })
}
