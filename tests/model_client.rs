//! The OpenAI-compatible client (`surqlc::runtime::openai`) against a local stand-in that speaks the OpenAI wire format (`StandIn`, test-support's tiny HTTP server on 127.0.0.1, not a model): the requests it sends, the repair turn, and every error path as a one-line cause. One test talks to a real endpoint, only when `SURQLC_MODEL_URL` is set.

use std::time::Duration;
use surqlc::runtime::ask::{Asker, Embedder, Message, Model, ModelErrorKind, Role, Status};
use surqlc::runtime::openai::{Config, OpenAi};
use surqlc_tests::*;

fn client(url: &str, configure: impl FnOnce(&mut Config)) -> OpenAi {
    let mut config = Config::new(url, "standin-chat");
    config.timeout = Duration::from_secs(10);
    configure(&mut config);
    OpenAi::new(config).expect("client")
}

#[test]
fn a_chat_request_has_the_model_the_messages_temperature_zero_and_the_bearer_token() {
    let server = StandIn::start(|_, _| Reply::chat("SELECT name FROM customer LIMIT 5"));
    let model = client(&server.url, |c| c.api_key = Some("sk-test".into()));
    let reply = block_on(model.complete(&[Message::user("the prompt")])).expect("a reply");
    assert_eq!(reply, "SELECT name FROM customer LIMIT 5");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(request.header("authorization"), Some("Bearer sk-test"));
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(
        request.body,
        serde_json::json!({
            "model": "standin-chat",
            "messages": [{"role": "user", "content": "the prompt"}],
            "temperature": 0
        })
    );
    // Without a key no Authorization header is sent (a local Ollama needs none).
    let server = StandIn::start(|_, _| Reply::chat("x"));
    block_on(client(&server.url, |_| {}).complete(&[Message::user("p")])).unwrap();
    assert_eq!(server.requests()[0].header("authorization"), None);
}

#[test]
fn an_embedding_request_and_its_length_check() {
    let server = StandIn::start(|_, _| Reply::embedding(&[0.1, 0.2, 0.3, 0.4]));
    let embedder = client(&server.url, |c| {
        c.embed_model = Some("standin-embed".into());
        c.dimension = Some(4);
    });
    let vector = block_on(embedder.embed("Which category sells best?")).expect("a vector");
    assert_eq!(vector, [0.1, 0.2, 0.3, 0.4]);
    let request = &server.requests()[0];
    assert_eq!(request.path, "/v1/embeddings");
    assert_eq!(
        request.body,
        serde_json::json!({"model": "standin-embed", "input": "Which category sells best?"})
    );
    // The wrong length for the schema's examples(dimension): a clear error, not a failed KNN.
    let wrong = client(&server.url, |c| {
        c.embed_model = Some("standin-embed".into());
        c.dimension = Some(256);
    });
    let e = block_on(wrong.embed("q")).unwrap_err();
    assert_eq!(e.kind, ModelErrorKind::Dimension);
    assert!(
        e.message.contains("`standin-embed` returned 4 values")
            && e.message.contains("examples(dimension = 256)")
            && e.message.contains("SURQLC_EMBED_MODEL"),
        "{e}"
    );
    // No embedding model configured: said so, nothing sent.
    let none = client(&server.url, |_| {});
    assert_eq!(
        block_on(none.embed("q")).unwrap_err().kind,
        ModelErrorKind::Configuration
    );
}

#[test]
fn the_repair_turn_carries_the_validators_text_over_http() {
    // The stand-in answers a wrong field first and the fix second, as a model would.
    let server = StandIn::start(|n, _| {
        Reply::chat(if n == 0 {
            "SELECT name FROM customer WHERE level = 'pro' LIMIT 50"
        } else {
            "SELECT name FROM customer WHERE tier = 'pro' LIMIT 50"
        })
    });
    let model = client(&server.url, |c| c.api_key = Some("sk-test".into()));
    block_on(async {
        let (output, db, agent) = crate::ask::example("store").await;
        let answer = Asker::new(&db, &agent, &output.schema, &model)
            .ask("Which customers are on the pro tier?")
            .await
            .expect("the loop runs");
        assert_eq!(answer.status, Status::Answered);
        assert_eq!(answer.attempts.len(), 2);
        let requests = server.requests();
        assert_eq!(requests.len(), 2);
        let messages = requests[1].body["messages"].as_array().unwrap().clone();
        assert_eq!(messages.len(), 3);
        let roles: Vec<Role> = messages
            .iter()
            .map(|m| serde_json::from_value(m["role"].clone()).unwrap())
            .collect();
        assert_eq!(roles, [Role::User, Role::Assistant, Role::User]);
        assert_eq!(messages[0]["content"], answer.prompt.as_str());
        let repair = messages[2]["content"].as_str().unwrap();
        assert!(!answer.attempts[0].problems.is_empty());
        for problem in &answer.attempts[0].problems {
            assert!(repair.contains(problem), "{problem} in {repair}");
        }
        assert!(requests.iter().all(|r| r.body["temperature"] == 0));
    });
}

/// The error a chat request to a stand-in answering `reply` gives.
fn chat_error(reply: Reply, timeout: Duration) -> surqlc::runtime::ModelError {
    let reply = std::sync::Mutex::new(Some(reply));
    let server = StandIn::start(move |_, _| reply.lock().unwrap().take().unwrap_or(Reply::status(500, "")));
    let model = client(&server.url, |c| c.timeout = timeout);
    let e = block_on(model.complete(&[Message::user("p")])).unwrap_err();
    assert!(!e.message.contains('\n'), "one line: {e}");
    e
}

#[test]
fn every_failure_is_a_one_line_cause() {
    let long = Duration::from_secs(10);
    let e = chat_error(
        Reply::status(
            401,
            r#"{"error": {"message": "Incorrect API key provided:\nsk-wrong", "type": "invalid_request_error"}}"#,
        ),
        long,
    );
    assert_eq!(e.kind, ModelErrorKind::Status(401));
    assert!(
        e.message.contains("HTTP 401")
            && e.message.contains("Incorrect API key provided: sk-wrong")
            && e.message.contains("SURQLC_API_KEY"),
        "{e}"
    );
    let e = chat_error(Reply::status(404, r#"{"error": "model 'nope' not found"}"#), long);
    assert_eq!(e.kind, ModelErrorKind::Status(404));
    assert!(
        e.message.contains("model 'nope' not found")
            && e.message.contains("SURQLC_MODEL_URL")
            && e.message.contains("`standin-chat`"),
        "{e}"
    );
    let e = chat_error(
        Reply::status(500, "<html>\n<h1>Internal Server Error</h1>\n</html>"),
        long,
    );
    assert_eq!(e.kind, ModelErrorKind::Status(500));
    assert!(
        e.message.contains("HTTP 500") && e.message.contains("Internal Server Error"),
        "{e}"
    );
    let e = chat_error(Reply::status(503, ""), long);
    assert_eq!(e.kind, ModelErrorKind::Status(503));
    let e = chat_error(Reply::status(200, "not json"), long);
    assert_eq!(e.kind, ModelErrorKind::Reply);
    let e = chat_error(Reply::ok(serde_json::json!({"choices": []})), long);
    assert_eq!(e.kind, ModelErrorKind::Reply);
    assert!(e.message.contains("no choices"), "{e}");
    let slow = Reply {
        delay: Duration::from_secs(2),
        ..Reply::chat("late")
    };
    let e = chat_error(slow, Duration::from_millis(300));
    assert_eq!(e.kind, ModelErrorKind::Timeout);
    assert!(
        e.message.contains("did not answer within") && e.message.contains("SURQLC_MODEL_TIMEOUT"),
        "{e}"
    );
    // Unreachable: a port that was just free.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let model = client(&format!("http://127.0.0.1:{port}/v1"), |_| {});
    let e = block_on(model.complete(&[Message::user("p")])).unwrap_err();
    assert_eq!(e.kind, ModelErrorKind::Unreachable);
    assert!(
        e.message.contains("cannot reach") && e.message.contains(&port.to_string()),
        "{e}"
    );
    assert!(!e.message.contains('\n'));
}

/// Only with a real endpoint configured (`SURQLC_MODEL_URL`, `SURQLC_MODEL`, maybe `SURQLC_API_KEY`):
/// the client's request is one the endpoint accepts.
#[test]
fn a_real_endpoint_answers_when_one_is_configured() {
    let Some(config) = Config::from_env().expect("the environment's configuration reads") else {
        eprintln!("SURQLC_MODEL_URL is not set: skipping the real-endpoint test");
        return;
    };
    let model = OpenAi::new(config).unwrap();
    let reply = block_on(model.complete(&[Message::user(
        "Reply with exactly this SurrealQL and nothing else: SELECT 1 FROM ONLY 1",
    )]))
    .expect("the endpoint answers");
    assert!(!reply.trim().is_empty());
    if model.embeds() {
        let vector = block_on(model.embed("a question")).expect("an embedding");
        assert!(!vector.is_empty());
    }
}
