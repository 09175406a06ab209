//! `surqlc mcp --otlp-endpoint URL` (issue 40, item 3): the spans and the metrics reach an OTLP/HTTP collector — a receiver this test starts on loopback (axum) that decodes what arrives with `opentelemetry-proto`'s prost messages — with their attributes, their parents, `service.name=surqlc` and no secret, flushed when the server stops (SIGTERM on HTTP, stdin closed on stdio). No collector is installed: the receiver is the test's own.

// Without the feature only the error tests run; the receiver's helpers are then unused.
#![cfg_attr(not(feature = "otel"), allow(unused_imports, dead_code))]

mod support;

use support::mcp_client::{call, http_client, http_server_with, is_error, runtime, sigterm, stdio_with};
use support::mcp_client::{exit_within, STORE};

#[cfg(feature = "otel")]
use collector::Collector;
use serde_json::json;

const AGENT_PASSWORD: &str = "otel-secret-agent-password";
const TOKEN: &str = "otel-secret-bearer-token-0123456789";
const GOOD: &str = "SELECT VALUE name FROM product WHERE category = 'audio' ORDER BY name LIMIT 5";
const BAD: &str = "SELECT nmae FROM product LIMIT 5";

#[cfg(feature = "otel")]
mod collector {
    //! The OTLP/HTTP receiver: `POST /v1/traces` and `POST /v1/metrics`, protobuf bodies, kept as
    //! they arrive and decoded into flat spans and metric points.

    use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
    use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
    use opentelemetry_proto::tonic::common::v1::{any_value::Value, KeyValue};
    use opentelemetry_proto::tonic::metrics::v1::{metric::Data, number_data_point};
    use prost::Message as _;
    use std::collections::BTreeMap;
    use std::sync::{Arc, Mutex};

    #[derive(Default)]
    struct Bodies {
        traces: Vec<Vec<u8>>,
        metrics: Vec<Vec<u8>>,
    }

    /// One span as exported: its name, ids, attributes and its resource's attributes.
    #[derive(Debug, Clone)]
    pub struct Span {
        pub name: String,
        pub trace_id: Vec<u8>,
        pub span_id: Vec<u8>,
        pub parent_span_id: Vec<u8>,
        pub attributes: BTreeMap<String, String>,
        pub resource: BTreeMap<String, String>,
    }

    /// The receiver, listening on loopback in a thread of its own.
    pub struct Collector {
        pub url: String,
        bodies: Arc<Mutex<Bodies>>,
    }

    fn flat(attributes: &[KeyValue]) -> BTreeMap<String, String> {
        let text = |value: &Option<Value>| match value {
            Some(Value::StringValue(s)) => s.clone(),
            Some(Value::IntValue(i)) => i.to_string(),
            Some(Value::BoolValue(b)) => b.to_string(),
            Some(Value::DoubleValue(d)) => d.to_string(),
            other => format!("{other:?}"),
        };
        attributes
            .iter()
            .map(|kv| (kv.key.clone(), text(&kv.value.as_ref().and_then(|v| v.value.clone()))))
            .collect()
    }

    impl Collector {
        pub fn start() -> Collector {
            let bodies = Arc::new(Mutex::new(Bodies::default()));
            let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
            listener.set_nonblocking(true).unwrap();
            let url = format!("http://{}", listener.local_addr().unwrap());
            let kept = bodies.clone();
            std::thread::spawn(move || {
                use axum::routing::post;
                let (traces, metrics) = (kept.clone(), kept);
                let app = axum::Router::new()
                    .route(
                        "/v1/traces",
                        post(move |body: axum::body::Bytes| async move {
                            traces.lock().unwrap().traces.push(body.to_vec());
                        }),
                    )
                    .route(
                        "/v1/metrics",
                        post(move |body: axum::body::Bytes| async move {
                            metrics.lock().unwrap().metrics.push(body.to_vec());
                        }),
                    );
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                rt.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                    axum::serve(listener, app).await.unwrap();
                });
            });
            Collector { url, bodies }
        }

        /// Every body that arrived, as bytes (to look for secrets in all of it).
        pub fn raw(&self) -> Vec<u8> {
            let bodies = self.bodies.lock().unwrap();
            bodies.traces.iter().chain(&bodies.metrics).flatten().copied().collect()
        }

        pub fn spans(&self) -> Vec<Span> {
            let bodies = self.bodies.lock().unwrap();
            let mut spans = Vec::new();
            for body in &bodies.traces {
                let request = ExportTraceServiceRequest::decode(&body[..]).expect("an OTLP trace request");
                for resource_spans in request.resource_spans {
                    let resource = flat(&resource_spans.resource.map(|r| r.attributes).unwrap_or_default());
                    for span in resource_spans.scope_spans.into_iter().flat_map(|s| s.spans) {
                        spans.push(Span {
                            name: span.name,
                            trace_id: span.trace_id,
                            span_id: span.span_id,
                            parent_span_id: span.parent_span_id,
                            attributes: flat(&span.attributes),
                            resource: resource.clone(),
                        });
                    }
                }
            }
            spans
        }

        /// Each metric point's latest value (cumulative sums' and gauges' values, histograms'
        /// counts), keyed `name{k=v,...}` with the labels sorted; and the resources' attributes.
        pub fn metrics(&self) -> (BTreeMap<String, f64>, Vec<BTreeMap<String, String>>) {
            let bodies = self.bodies.lock().unwrap();
            let (mut points, mut resources) = (BTreeMap::new(), Vec::new());
            for body in &bodies.metrics {
                let request = ExportMetricsServiceRequest::decode(&body[..]).expect("an OTLP metrics request");
                for resource_metrics in request.resource_metrics {
                    resources.push(flat(
                        &resource_metrics.resource.map(|r| r.attributes).unwrap_or_default(),
                    ));
                    for metric in resource_metrics.scope_metrics.into_iter().flat_map(|s| s.metrics) {
                        let key = |attributes: &[KeyValue]| {
                            let labels: Vec<String> =
                                flat(attributes).iter().map(|(k, v)| format!("{k}={v}")).collect();
                            format!("{}{{{}}}", metric.name, labels.join(","))
                        };
                        let number = |value: &Option<number_data_point::Value>| match value {
                            Some(number_data_point::Value::AsInt(i)) => *i as f64,
                            Some(number_data_point::Value::AsDouble(d)) => *d,
                            None => f64::NAN,
                        };
                        match &metric.data {
                            Some(Data::Sum(sum)) => {
                                for p in &sum.data_points {
                                    points.insert(key(&p.attributes), number(&p.value));
                                }
                            }
                            Some(Data::Gauge(gauge)) => {
                                for p in &gauge.data_points {
                                    points.insert(key(&p.attributes), number(&p.value));
                                }
                            }
                            Some(Data::Histogram(histogram)) => {
                                for p in &histogram.data_points {
                                    points.insert(key(&p.attributes), p.count as f64);
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            (points, resources)
        }
    }
}

#[cfg(feature = "otel")]
#[test]
fn spans_and_metrics_reach_an_otlp_collector_and_are_flushed_on_sigterm() {
    let collector = Collector::start();
    let env = [("SURQLC_AGENT_PASSWORD", AGENT_PASSWORD), ("SURQLC_MCP_TOKEN", TOKEN)];
    let args = ["--http", "127.0.0.1:0", "--otlp-endpoint", collector.url.as_str()];
    let (mut child, url, stderr) = http_server_with(&args, &env);
    runtime().block_on(async {
        let client = http_client(&url, TOKEN).await;
        for _ in 0..2 {
            assert!(!is_error(&call(&client, "run_query", json!({ "query": GOOD })).await));
        }
        assert!(is_error(&call(&client, "run_query", json!({ "query": BAD })).await));
        client.cancel().await.ok();
    });
    // The default batch and metric intervals (5 s, 60 s) are longer than this run: what arrives
    // was flushed by the shutdown.
    sigterm(child.id());
    let status = exit_within(&mut child, std::time::Duration::from_secs(30));
    assert_eq!(status, Some(0), "{}", stderr.lock().unwrap());

    let spans = collector.spans();
    let named = |name: &str| spans.iter().filter(|s| s.name == name).cloned().collect::<Vec<_>>();
    let calls = named("surqlc.mcp.call");
    assert_eq!(calls.len(), 3, "{spans:#?}");
    for span in &spans {
        assert_eq!(
            span.resource.get("service.name").map(String::as_str),
            Some("surqlc"),
            "{span:?}"
        );
        assert!(span.name.starts_with("surqlc."), "only the library's spans: {span:?}");
    }
    let outcomes: Vec<&str> = calls.iter().map(|c| c.attributes["outcome"].as_str()).collect();
    assert_eq!(outcomes, ["ok", "ok", "refused"], "{calls:#?}");
    for call in &calls {
        assert_eq!(call.attributes["tool"], "run_query");
        assert_eq!(
            call.attributes["subject"], "SURQLC_MCP_TOKEN",
            "the token's name, never the token"
        );
        assert!(call.attributes["duration_ms"].parse::<f64>().unwrap() > 0.0);
    }
    assert_eq!(calls[0].attributes["query"], GOOD);
    assert_eq!(calls[0].attributes["rows"], "2", "{:?}", calls[0]);
    assert_eq!(calls[2].attributes["codes"], "SQ0102");

    // Each call's validate and run are its children, in its trace.
    let validates = named("surqlc.validate");
    let runs = named("surqlc.run");
    assert_eq!((validates.len(), runs.len()), (3, 2), "{spans:#?}");
    let parent_of = |span: &collector::Span| {
        calls
            .iter()
            .position(|c| c.span_id == span.parent_span_id && c.trace_id == span.trace_id)
            .unwrap_or_else(|| panic!("{} has no surqlc.mcp.call parent: {span:#?}", span.name))
    };
    let mut validated: Vec<usize> = validates.iter().map(parent_of).collect();
    validated.sort();
    assert_eq!(validated, [0, 1, 2]);
    let mut ran: Vec<usize> = runs.iter().map(parent_of).collect();
    ran.sort();
    assert_eq!(ran, [0, 1], "the refused call ran nothing");
    let refused = validates.iter().find(|v| parent_of(v) == 2).unwrap();
    assert_eq!(
        (
            refused.attributes["outcome"].as_str(),
            refused.attributes["codes"].as_str()
        ),
        ("refused", "SQ0102")
    );
    for run in &runs {
        assert_eq!(
            (run.attributes["outcome"].as_str(), run.attributes["rows"].as_str()),
            ("rows", "2")
        );
    }
    assert!(
        calls[0].trace_id != calls[1].trace_id,
        "each call is a trace of its own"
    );

    // The metrics, counted as the calls were made.
    let (points, resources) = collector.metrics();
    assert!(
        !resources.is_empty()
            && resources
                .iter()
                .all(|r| r.get("service.name").map(String::as_str) == Some("surqlc"))
    );
    let at = |key: &str| *points.get(key).unwrap_or_else(|| panic!("{key} in {points:#?}"));
    assert_eq!(at("surqlc_tool_calls_total{outcome=ok,tool=run_query}"), 2.0);
    assert_eq!(at("surqlc_tool_calls_total{outcome=refused,tool=run_query}"), 1.0);
    assert_eq!(at("surqlc_refusals_total{code=SQ0102}"), 1.0);
    assert_eq!(at("surqlc_tool_call_duration_seconds{tool=run_query}"), 3.0);
    assert!(points.contains_key("surqlc_sessions{}"), "{points:#?}");

    // No secret anywhere in what was sent.
    let raw = String::from_utf8_lossy(&collector.raw()).into_owned();
    assert!(raw.contains("surqlc.mcp.call"));
    for secret in [AGENT_PASSWORD, TOKEN] {
        assert!(!raw.contains(secret), "{secret} was exported");
    }
}

#[cfg(feature = "otel")]
#[test]
fn a_short_stdio_run_exports_its_spans_when_stdin_closes() {
    let collector = Collector::start();
    let args = [STORE, &["--otlp-endpoint", collector.url.as_str()]].concat();
    runtime().block_on(async {
        let client = stdio_with(&args, &[]).await;
        assert!(!is_error(&call(&client, "run_query", json!({ "query": GOOD })).await));
        // Closes stdin and waits for the process to end.
        client.cancel().await.ok();
    });
    let spans = collector.spans();
    let call = spans
        .iter()
        .find(|s| s.name == "surqlc.mcp.call")
        .unwrap_or_else(|| panic!("{spans:#?}"));
    assert_eq!(
        (call.attributes["subject"].as_str(), call.attributes["outcome"].as_str()),
        ("stdio", "ok")
    );
    let (points, _) = collector.metrics();
    assert_eq!(
        points.get("surqlc_tool_calls_total{outcome=ok,tool=run_query}"),
        Some(&1.0),
        "{points:#?}"
    );
}

#[test]
fn a_url_that_is_not_an_otlp_http_base_is_refused() {
    let out = support::surqlc()
        .args(STORE)
        .args(["--otlp-endpoint", "127.0.0.1:4318"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    support::assert_status(&out, 2);
    let said = support::stderr(&out);
    let expected = if cfg!(feature = "otel") {
        "expected the collector's OTLP/HTTP base URL"
    } else {
        "built without the otel feature"
    };
    assert!(said.contains(expected), "{said}");
}

#[cfg(not(feature = "otel"))]
#[test]
fn without_the_feature_the_environment_variable_is_an_error_too() {
    let out = support::surqlc()
        .args(STORE)
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    support::assert_status(&out, 2);
    assert!(
        support::stderr(&out).contains("built without the otel feature"),
        "{}",
        support::stderr(&out)
    );
}
