//! The HTTP transport's operations side: `GET /healthz` and `GET /readyz` (no token needed), `--rate-limit`'s 429 in front of the tools, and `--metrics`' own listener serving `/metrics`.

use super::audit_log::{rfc3339, Record};
use super::state::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::Duration;

/// Binds `--metrics ADDR` (a bare port is on loopback: `127.0.0.1:PORT`).
pub(super) async fn bind_metrics(addr: &str) -> Result<tokio::net::TcpListener, crate::exit::Failure> {
    let addr = if addr.parse::<u16>().is_ok() {
        format!("127.0.0.1:{addr}")
    } else {
        addr.to_owned()
    };
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .map_err(|e| crate::exit::Failure::BadInput(format!("error: --metrics: cannot listen on {addr}: {e}")))?;
    if let Ok(bound) = listener.local_addr() {
        eprintln!("serving metrics at http://{bound}/metrics");
    }
    Ok(listener)
}

/// Serves `/metrics` on `listener` until the process ends.
pub(super) fn serve_metrics(listener: tokio::net::TcpListener, state: &State) {
    let metrics = state.observer.metrics.clone();
    let router = axum::Router::new().route(
        "/metrics",
        axum::routing::get(move || {
            let metrics = metrics.clone();
            async move {
                (
                    [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
                    metrics.render(),
                )
            }
        }),
    );
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, router).await {
            eprintln!("surqlc mcp: the metrics listener stopped: {e}");
        }
    });
}

/// `router` with `/healthz` and `/readyz` beside it, outside its layers (no token, no Host check).
pub(super) fn with_health(router: axum::Router, state: Arc<State>) -> axum::Router {
    axum::Router::new()
        .route("/healthz", axum::routing::get(|| async { "ok\n" }))
        .route(
            "/readyz",
            axum::routing::get(move || {
                let state = state.clone();
                async move { ready(&state).await }
            }),
        )
        .merge(router)
}

/// 200 when the database answers within 2 s and is in sync with the schema (read again at most every
/// 5 s while it is not, every 60 s while it is); 503 with the reason otherwise.
async fn ready(state: &State) -> Response {
    let unready = |reason: String| (StatusCode::SERVICE_UNAVAILABLE, format!("not ready: {reason}\n")).into_response();
    if let Some((endpoint, address)) = &state.probe {
        if let Err(down) = super::reach::check(endpoint, address).await {
            return unready(down);
        }
    }
    let answered = tokio::time::timeout(Duration::from_secs(2), state.reader.query("RETURN 1")).await;
    match answered {
        Err(_) => return unready("the database did not answer within 2 s".into()),
        Ok(Err(e)) => return unready(format!("the database: {}", e.message())),
        Ok(Ok(_)) => {}
    }
    let drift = match &state.observer.drift {
        Some(watch) => watch.finding().await,
        None => None,
    };
    match drift {
        Some(drift) => unready(drift),
        None => (StatusCode::OK, "ready\n").into_response(),
    }
}

/// The largest request body read to find a `tools/call`'s tool (bigger ones pass unread).
pub(super) const BODY_LIMIT: usize = 4 << 20;

/// `--rate-limit`: a `tools/call` over the subject's rate is answered `429 Too Many Requests`
/// with `Retry-After`, counted and audited, before the tools see it. Other requests pass.
pub(super) async fn rate_limit(
    axum::extract::State(state): axum::extract::State<Arc<State>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let Some(limiter) = &state.observer.limiter else {
        return next.run(request).await;
    };
    if request.method() != axum::http::Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, BODY_LIMIT).await {
        Ok(bytes) => bytes,
        Err(_) => return (StatusCode::PAYLOAD_TOO_LARGE, "413: the request body is too large\n").into_response(),
    };
    let call: Option<serde_json::Value> = serde_json::from_slice(&bytes).ok();
    let tool_call = call.as_ref().filter(|c| c["method"] == "tools/call");
    if let Some(call) = tool_call {
        let subject = state.observer.subject_of(&parts.extensions);
        if let Err(wait) = limiter.take(&subject) {
            return too_many(&state, call, subject, &parts, wait);
        }
    }
    next.run(axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes)))
        .await
}

/// The 429 answer, after the call's audit line and its count.
fn too_many(
    state: &State,
    call: &serde_json::Value,
    subject: String,
    parts: &axum::http::request::Parts,
    wait: Duration,
) -> Response {
    let params = &call["params"];
    let argument = |key: &str| params["arguments"][key].as_str().map(str::to_owned);
    let retry = wait.as_secs_f64().ceil().max(1.0) as u64;
    let message = format!("429 Too Many Requests: over this server's --rate-limit for {subject}; retry in {retry} s");
    let record = Record {
        ts: rfc3339(std::time::SystemTime::now()),
        subject,
        session: parts
            .headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        tool: params["name"].as_str().unwrap_or_default().to_owned(),
        question: argument("question"),
        query: argument("query"),
        verdict: "refused",
        codes: vec!["rate_limited".into()],
        rows: None,
        truncated: false,
        duration_ms: 0.0,
        error: Some(message.clone()),
    };
    // Refused either way; an audit log that is down is said on stderr by the log itself.
    let _ = state.observer.refused_unstarted(record);
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, retry.to_string())],
        format!("{message}\n"),
    )
        .into_response()
}
