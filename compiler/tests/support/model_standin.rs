//! A local stand-in for an OpenAI-compatible endpoint (no model endpoint is reachable from the test machines): it answers each request with the next canned reply, in the wire format.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};

/// A local stand-in for an OpenAI-compatible endpoint: answers the n-th request with
/// `replies[n]` (the last one again after that) as `(status, body)`; returns its API base.
pub fn stand_in(replies: Vec<(u16, String)>) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a local port");
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let Ok(mut stream) = stream else { return };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() || line.trim().is_empty() {
                    break;
                }
                if let Some((name, value)) = line.split_once(':') {
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.trim().parse().unwrap_or(0);
                    }
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let (status, reply) = &replies[n.min(replies.len() - 1)];
            let _ = write!(
                stream,
                "HTTP/1.1 {status} Stand-in\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    url
}

/// A chat completion saying `content`, as the OpenAI API writes it.
pub fn chat(content: &str) -> (u16, String) {
    (
        200,
        serde_json::json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]})
            .to_string(),
    )
}
