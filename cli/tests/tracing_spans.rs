//! The library's `tracing` spans as an application that installs a subscriber sees them (issue 40): an ask from question to rows (`surqlc.ask` > `surqlc.prompt`, `surqlc.attempt` > `surqlc.validate`, `surqlc.run`), an MCP call (`surqlc.mcp.call`), and no secret in any field. The subscriber is the test's own, over `tracing`'s `Subscriber` trait.

use serde_json::json;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use surqlc::runtime::ask::{Asker, Message, Model, ModelError, Status};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

mod support;
use support::mcp_client::{call, is_error};
use support::root;

const PASSWORD: &str = "tracing-secret-agent-password";

/// One span as the subscriber saw it: its name, its parent's index and its fields' values.
#[derive(Debug, Clone)]
struct Seen {
    name: &'static str,
    metadata: &'static Metadata<'static>,
    parent: Option<usize>,
    fields: BTreeMap<String, String>,
}

/// Every span, in the order they opened; one thread (the test's current-thread runtime).
#[derive(Default, Clone)]
struct Capture {
    spans: Arc<Mutex<Vec<Seen>>>,
    stack: Arc<Mutex<Vec<usize>>>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        let parent = match attributes.parent() {
            Some(id) => Some(id.into_u64() as usize - 1),
            None if attributes.is_contextual() => self.stack.lock().unwrap().last().copied(),
            None => None,
        };
        let mut seen = Seen {
            name: attributes.metadata().name(),
            metadata: attributes.metadata(),
            parent,
            fields: BTreeMap::new(),
        };
        attributes.record(&mut Fields(&mut seen.fields));
        let mut spans = self.spans.lock().unwrap();
        spans.push(seen);
        Id::from_u64(spans.len() as u64)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut spans = self.spans.lock().unwrap();
        values.record(&mut Fields(&mut spans[span.into_u64() as usize - 1].fields));
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, span: &Id) {
        self.stack.lock().unwrap().push(span.into_u64() as usize - 1);
    }
    fn exit(&self, _: &Id) {
        self.stack.lock().unwrap().pop();
    }
    /// What `Span::current()` reads (the library carries it into the tasks it spawns).
    fn current_span(&self) -> tracing_core::span::Current {
        match self.stack.lock().unwrap().last() {
            Some(&at) => {
                let metadata = self.spans.lock().unwrap()[at].metadata;
                tracing_core::span::Current::new(Id::from_u64(at as u64 + 1), metadata)
            }
            None => tracing_core::span::Current::none(),
        }
    }
    // Spans are never closed here: the records stay for the test to read.
    fn clone_span(&self, id: &Id) -> Id {
        id.clone()
    }
    fn try_close(&self, _: Id) -> bool {
        false
    }
}

impl Capture {
    fn ours(&self) -> Vec<(usize, Seen)> {
        let spans = self.spans.lock().unwrap();
        spans
            .iter()
            .cloned()
            .enumerate()
            .filter(|(_, s)| s.name.starts_with("surqlc."))
            .collect()
    }

    /// The nearest `surqlc.*` ancestor's name of span `at`.
    fn parent_of(&self, at: usize) -> Option<&'static str> {
        let spans = self.spans.lock().unwrap();
        let mut at = spans[at].parent;
        while let Some(i) = at {
            if spans[i].name.starts_with("surqlc.") {
                return Some(spans[i].name);
            }
            at = spans[i].parent;
        }
        None
    }
}

/// A model that first misspells a field, then answers right once the refusal names the field.
struct Scripted;

impl Model for Scripted {
    async fn complete(&self, messages: &[Message]) -> Result<String, ModelError> {
        Ok(if messages.len() > 1 {
            "SELECT VALUE name FROM product WHERE category = 'audio' ORDER BY name LIMIT 5".into()
        } else {
            "SELECT VALUE nmae FROM product LIMIT 5".into()
        })
    }
}

/// Runs `work` on a current-thread runtime with `capture` as the thread's subscriber.
fn captured<F: std::future::Future>(capture: &Capture, work: F) -> F::Output {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    tracing::subscriber::with_default(capture.clone(), || runtime.block_on(work))
}

#[test]
fn an_ask_is_traced_from_question_to_rows_and_no_secret_is_in_a_field() {
    let capture = Capture::default();
    let output = surqlc::Builder::new()
        .schema(root().join("schemas/store.rs"))
        .cargo_metadata(false)
        .agent_password(PASSWORD)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let answer = captured(&capture, async {
        let target = surqlc::db::Target {
            database: output.schema.name.clone(),
            ..Default::default()
        };
        let conn = surqlc::schema_db::open(&output, &target)
            .await
            .expect("the schema applies");
        let seed = std::fs::read_to_string(root().join("schemas/store.seed.surql")).unwrap();
        surqlc::db::execute(&conn, &seed).await.expect("the seed loads");
        let agent = surqlc::schema_db::signin_agent(&conn, &output.schema, &target, PASSWORD)
            .await
            .expect("the agent signs in");
        Asker::new(&conn, &agent, &output.schema, &Scripted)
            .ask("Which audio products are there?")
            .await
            .expect("the loop runs")
    });
    assert_eq!(answer.status, Status::Answered);
    let ours = capture.ours();
    let named = |name: &str| ours.iter().filter(|(_, s)| s.name == name).collect::<Vec<_>>();
    let ask = &named("surqlc.ask")[0].1.fields;
    assert_eq!(ask["question"], "Which audio products are there?");
    assert_eq!(
        (
            &ask["end_user"][..],
            &ask["repairs"][..],
            &ask["rows"][..],
            &ask["outcome"][..]
        ),
        ("false", "1", "2", "answered")
    );
    assert!(ask.contains_key("duration_ms"));
    let (prompt_at, prompt) = named("surqlc.prompt")[0];
    assert!(
        prompt.fields["prompt_tokens"].parse::<usize>().unwrap() > 100,
        "{prompt:?}"
    );
    assert_eq!(capture.parent_of(*prompt_at), Some("surqlc.ask"));
    let attempts = named("surqlc.attempt");
    assert_eq!(attempts.len(), 2);
    assert_eq!(
        (&attempts[0].1.fields["outcome"][..], &attempts[0].1.fields["codes"][..]),
        ("refused", "SQ0102")
    );
    assert_eq!(
        (&attempts[1].1.fields["outcome"][..], &attempts[1].1.fields["rows"][..]),
        ("rows", "2")
    );
    assert!(attempts
        .iter()
        .all(|(at, _)| capture.parent_of(*at) == Some("surqlc.ask")));
    let validations = named("surqlc.validate");
    assert_eq!(validations.len(), 2);
    assert_eq!(validations[0].1.fields["codes"], "SQ0102");
    assert!(validations
        .iter()
        .all(|(at, _)| capture.parent_of(*at) == Some("surqlc.attempt")));
    let runs = named("surqlc.run");
    assert_eq!(runs.len(), 1, "the refused reply never ran");
    assert_eq!(
        (&runs[0].1.fields["rows"][..], &runs[0].1.fields["outcome"][..]),
        ("2", "rows")
    );
    assert!(runs[0].1.fields["query"].contains("TIMEOUT"), "the statement as it ran");
    assert_eq!(capture.parent_of(runs[0].0), Some("surqlc.attempt"));
    // No field of any span, the engine's included, carries the agent's password.
    let spans = capture.spans.lock().unwrap();
    for span in spans.iter() {
        for (field, value) in &span.fields {
            assert!(!value.contains(PASSWORD), "{}.{field} carries the password", span.name);
        }
    }
}

#[test]
fn an_mcp_call_is_traced_with_its_tool_subject_outcome_and_rows() {
    use rmcp::model::ClientConfig;
    use rmcp::ServiceExt;
    let capture = Capture::default();
    let output = surqlc::Builder::new()
        .schema(root().join("schemas/store.rs"))
        .cargo_metadata(false)
        .agent_password(PASSWORD)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    captured(&capture, async {
        let options = surqlc::mcp::Options {
            target: surqlc::db::Target {
                database: output.schema.name.clone(),
                ..Default::default()
            },
            seed: Some(root().join("schemas/store.seed.surql")),
            http: None,
            allow_remember: false,
            caps: surqlc::mcp::Caps::default(),
            timeout: std::time::Duration::from_secs(5),
            token: None,
            allowed_hosts: Vec::new(),
            as_user: None,
            per_user: false,
            observe: Default::default(),
            identity_provider: None,
        };
        let state = surqlc::mcp::start(&output, PASSWORD, &options).await.expect("starts");
        let (server_end, client_end) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            if let Ok(running) = surqlc::mcp::Server::new(state).serve(server_end).await {
                let _ = running.waiting().await;
            }
        });
        let client = ClientConfig::default().serve(client_end).await.expect("initialize");
        let good = "SELECT VALUE name FROM product WHERE category = 'audio' ORDER BY name LIMIT 5";
        assert!(!is_error(&call(&client, "run_query", json!({ "query": good })).await));
        let bad = "SELECT nmae FROM product LIMIT 5";
        assert!(is_error(&call(&client, "run_query", json!({ "query": bad })).await));
        client.cancel().await.ok();
    });
    let ours = capture.ours();
    let calls: Vec<&(usize, Seen)> = ours.iter().filter(|(_, s)| s.name == "surqlc.mcp.call").collect();
    assert_eq!(calls.len(), 2, "{ours:#?}");
    let ok = &calls[0].1.fields;
    assert_eq!(
        (
            &ok["tool"][..],
            &ok["subject"][..],
            &ok["outcome"][..],
            &ok["rows"][..],
            &ok["truncated"][..]
        ),
        ("run_query", "stdio", "ok", "2", "false")
    );
    let refused = &calls[1].1.fields;
    assert_eq!((&refused["outcome"][..], &refused["codes"][..]), ("refused", "SQ0102"));
    // The validator and the runner run inside the call, though in a task of its own.
    let inside = |name: &str| {
        ours.iter()
            .filter(|(at, s)| s.name == name && capture.parent_of(*at) == Some("surqlc.mcp.call"))
            .count()
    };
    assert_eq!((inside("surqlc.validate"), inside("surqlc.run")), (2, 1));
}
