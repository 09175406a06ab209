//! What each tool call leaves behind: its facts (verdict, codes, rows) gathered while it runs, then its audit line, its metrics and its `surqlc.mcp.call` span; [`Observer`] holds what the server shares for that.

use super::audit_log::{AuditLog, AuditTarget, Record};
use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

/// How `surqlc mcp` is watched: `--audit-log`, the bearer token's name for the audit's `subject`,
/// `--metrics`, `--rate-limit`.
#[derive(Debug, Clone, Default)]
pub struct ObserveOptions {
    /// `--audit-log FILE` (`-`: stderr).
    pub audit_log: Option<AuditTarget>,
    /// What the audit log calls the caller who sends the server's bearer token (its file's name,
    /// or `SURQLC_MCP_TOKEN`): never the token itself.
    pub token_name: Option<String>,
    /// `--metrics ADDR`: Prometheus text at `http://ADDR/metrics` (a bare port: on loopback).
    pub metrics: Option<String>,
    /// `--rate-limit N/s` (`--rate-burst B`): tool calls per subject over HTTP.
    pub rate_limit: Option<super::rate::RateLimit>,
    /// Where the metrics also go as they happen (`--otlp-endpoint`: the command line's exporter).
    pub metrics_sink: Option<Arc<dyn super::metrics::MetricsSink>>,
}

/// What the server shares to watch its calls.
#[derive(Default)]
pub struct Observer {
    pub(super) audit: Option<Arc<AuditLog>>,
    token_name: Option<String>,
    /// The subject of calls that come with no HTTP request (stdio, in-process): `--as`'s user or `stdio`.
    local_subject: Option<String>,
    pub(super) metrics: Arc<super::metrics::Metrics>,
    pub(super) limiter: Option<super::rate::Limiter>,
    /// The schema watched against the server's definitions (`/readyz` says what differs).
    pub(super) drift: Option<Arc<super::sync_watch::SyncWatch>>,
}

impl Observer {
    /// Opens the audit log (a file that cannot be opened is said on stderr, and refuses calls).
    pub fn new(options: &ObserveOptions, local_subject: Option<String>) -> Observer {
        Observer {
            audit: options.audit_log.clone().map(|t| Arc::new(AuditLog::open(t))),
            token_name: options.token_name.clone(),
            local_subject,
            metrics: Arc::new(super::metrics::Metrics::with_sink(options.metrics_sink.clone())),
            limiter: options.rate_limit.map(super::rate::Limiter::new),
            drift: None,
        }
    }

    /// The drift watch started with the server, for `/readyz`.
    pub(super) fn with_drift(mut self, drift: Option<super::sync_watch::SyncWatch>) -> Observer {
        self.drift = drift.map(Arc::new);
        self
    }

    /// The subject of an HTTP request: the end user its token named, else the bearer token's name,
    /// else `anonymous`.
    pub(super) fn subject_of(&self, extensions: &axum::http::Extensions) -> String {
        extensions
            .get::<Subject>()
            .map(|s| s.0.clone())
            .or_else(|| self.token_name.clone())
            .unwrap_or_else(|| "anonymous".into())
    }

    /// Counts, traces and audits a call refused before it reached the tools (a rate limit): the
    /// audit error, if its line cannot be written.
    pub(super) fn refused_unstarted(&self, record: Record) -> Result<(), String> {
        self.metrics.call(&record.tool, record.verdict, &record.codes, 0.0);
        tracing::info!(
            tool = record.tool.as_str(),
            subject = record.subject.as_str(),
            codes = record.codes.join(",").as_str(),
            "surqlc.mcp.call refused before it ran"
        );
        match &self.audit {
            Some(log) => log.write(&record),
            None => Ok(()),
        }
    }
}

/// Who sent an HTTP request, when the layers in front of the tools know it (`--per-user`: the
/// token's end user, after the engine accepted the token).
#[derive(Debug, Clone)]
pub(super) struct Subject(pub String);

/// The end user a scope token names (its `ID` claim), read after the engine verified it: what
/// the audit log's `subject` says. The token itself is never kept.
pub(super) fn token_subject(token: &str) -> Option<String> {
    use base64::Engine as _;
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    claims.get("ID").and_then(|id| id.as_str()).map(str::to_owned)
}

/// What the tools say about a call while it runs (task-local, carried into the call's task).
#[derive(Debug, Default)]
pub(super) struct Facts {
    refused: Option<Vec<String>>,
    rows: Option<usize>,
    truncated: bool,
    /// The query the call ran without the caller writing it (`ask`: the model's final query).
    query: Option<String>,
    /// The model declined the question (`ask`: `-- cannot answer`): neither an error nor a refusal.
    declined: bool,
}

tokio::task_local! {
    static FACTS: Arc<Mutex<Facts>>;
}

fn note(f: impl FnOnce(&mut Facts)) {
    let _ = FACTS.try_with(|facts| {
        if let Ok(mut facts) = facts.lock() {
            f(&mut facts)
        }
    });
}

/// The call's query was refused (by the validator, the reply gate or the engine): `message` is
/// what the caller is told; its problem lines give the codes.
pub(super) fn refused(message: &str) {
    let codes = codes_in(message);
    note(|f| f.refused = Some(codes));
}

/// The call answered rows: `answer` is `run_query`'s JSON (`rows`, and `truncated` when cut).
pub(super) fn answered(answer: &serde_json::Value) {
    let rows = answer.get("rows").and_then(|r| r.as_array()).map(Vec::len);
    let truncated = answer.get("truncated").is_some();
    note(|f| {
        f.rows = rows;
        f.truncated = truncated;
    });
}

/// `ask` ended: its final query (none when the model declined or every attempt was refused), the
/// rows its answer carried and whether the caps cut some; a decline, or the codes of the last
/// attempt when every attempt was refused.
pub(super) fn asked(answer: &crate::runtime::Answer, rendered: &serde_json::Value) {
    use crate::runtime::ask::Status;
    let last_codes = || {
        let problems = answer
            .attempts
            .last()
            .map(|a| a.problems.join("\n"))
            .unwrap_or_default();
        codes_in(&problems)
    };
    note(|f| f.query = answer.query.clone());
    match answer.status {
        Status::Answered => answered(rendered),
        Status::CannotAnswer => note(|f| f.declined = true),
        Status::NoValidQuery => note(|f| f.refused = Some(last_codes())),
    }
}

/// `future` with the current call's facts, for a task spawned to run the call.
pub(super) fn carry<F: Future>(future: F) -> impl Future<Output = F::Output> {
    use tracing::Instrument;
    let facts = FACTS.try_with(Arc::clone).ok();
    let future = future.instrument(tracing::Span::current());
    async move {
        match facts {
            Some(facts) => FACTS.scope(facts, future).await,
            None => future.await,
        }
    }
}

/// The codes of a rendered report's problem lines (`error[SQ0102 UnknownField] ...`), in order, once each.
pub(super) fn codes_in(message: &str) -> Vec<String> {
    crate::runtime::spans::codes_in(message)
}

/// One tool call being watched, from its arrival to its answer.
pub(super) struct Call {
    started: Instant,
    ts: SystemTime,
    subject: String,
    session: Option<String>,
    tool: String,
    question: Option<String>,
    query: Option<String>,
    facts: Arc<Mutex<Facts>>,
    span: tracing::Span,
}

impl Call {
    pub(super) fn begin(
        observer: &Observer,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Call {
        let parts = context.extensions.get::<axum::http::request::Parts>();
        let (subject, session) = match parts {
            Some(parts) => (
                observer.subject_of(&parts.extensions),
                parts
                    .headers
                    .get("mcp-session-id")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned),
            ),
            None => (
                observer.local_subject.clone().unwrap_or_else(|| "stdio".into()),
                Some("stdio".into()),
            ),
        };
        let argument = |key: &str| {
            request
                .arguments
                .as_ref()
                .and_then(|a| a.get(key))
                .and_then(|v| v.as_str())
                .map(str::to_owned)
        };
        let (question, query) = (argument("question"), argument("query"));
        use tracing::field::Empty;
        let span = tracing::info_span!(
            "surqlc.mcp.call",
            tool = request.name.as_ref(),
            subject = subject.as_str(),
            session = session.as_deref(),
            question = question.as_deref(),
            query = query.as_deref(),
            codes = Empty,
            rows = Empty,
            truncated = Empty,
            outcome = Empty,
            duration_ms = Empty
        );
        Call {
            started: Instant::now(),
            ts: SystemTime::now(),
            subject,
            session,
            tool: request.name.to_string(),
            question,
            query,
            facts: Arc::default(),
            span,
        }
    }

    /// The refusal to answer with before anything runs: the audit log is known to be down.
    pub(super) fn refused_before(&self, observer: &Observer) -> Option<CallToolResult> {
        let log = observer.audit.as_ref()?;
        let refusal = log.ready().err()?;
        observer.metrics.call(&self.tool, "refused", &["audit_log".into()], 0.0);
        Some(refusal_answer(refusal))
    }

    /// Runs the call with its facts task-local, inside its `surqlc.mcp.call` span.
    pub(super) async fn run<F: Future>(&self, call: F) -> F::Output {
        use tracing::Instrument;
        FACTS
            .scope(self.facts.clone(), call.instrument(self.span.clone()))
            .await
    }

    /// The audit line, written and synced before the answer goes out (or the answer is replaced
    /// by the log's refusal: fail closed).
    pub(super) async fn finish(
        self,
        observer: &Observer,
        answer: Result<CallToolResponse, ErrorData>,
    ) -> Result<CallToolResponse, ErrorData> {
        let record = self.record(&answer);
        let seconds = self.started.elapsed().as_secs_f64();
        observer
            .metrics
            .call(&record.tool, record.verdict, &record.codes, seconds);
        let span = &self.span;
        span.record("codes", record.codes.join(",").as_str());
        if let Some(rows) = record.rows {
            span.record("rows", rows);
        }
        span.record("truncated", record.truncated);
        if self.query.is_none() {
            // `ask`: the query the model wrote, which the call's arguments did not carry.
            if let Some(query) = &record.query {
                span.record("query", query.as_str());
            }
        }
        crate::runtime::spans::finish(span, self.started, record.verdict);
        if let Some(log) = observer.audit.clone() {
            let written = tokio::task::spawn_blocking(move || log.write(&record)).await;
            let refusal = match written {
                Ok(Ok(())) => None,
                Ok(Err(refusal)) => Some(refusal),
                Err(_) => Some("refused: the audit line could not be written (a bug)".to_owned()),
            };
            if let Some(refusal) = refusal {
                return Ok(refusal_answer(refusal).into());
            }
        }
        answer
    }

    fn record(&self, answer: &Result<CallToolResponse, ErrorData>) -> Record {
        let facts = std::mem::take(&mut *self.facts.lock().unwrap_or_else(|e| e.into_inner()));
        let (verdict, error) = match answer {
            Ok(CallToolResponse::Complete(result)) => {
                let said = || Some(clip(&said_by(result)));
                match (result.is_error == Some(true), facts.refused.is_some(), facts.declined) {
                    (_, true, _) => ("refused", said()),
                    (_, false, true) => ("declined", said()),
                    (true, false, false) => ("error", said()),
                    (false, false, false) => ("ok", None),
                }
            }
            Ok(_) => ("ok", None),
            Err(e) => ("error", Some(clip(&e.message))),
        };
        Record {
            ts: super::audit_log::rfc3339(self.ts),
            subject: self.subject.clone(),
            session: self.session.clone(),
            tool: self.tool.clone(),
            question: self.question.clone(),
            query: self.query.clone().or(facts.query),
            verdict,
            codes: facts.refused.unwrap_or_default(),
            rows: facts.rows,
            truncated: facts.truncated,
            duration_ms: (self.started.elapsed().as_secs_f64() * 1e6).round() / 1e3,
            error,
        }
    }
}

/// A refusal as a tool error (`isError`), the text a caller reads.
fn refusal_answer(refusal: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(refusal)])
}

/// The answer's text blocks, joined.
fn said_by(result: &CallToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect();
    texts.join("\n")
}

/// At most 2000 characters of what the caller was told.
fn clip(said: &str) -> String {
    match said.char_indices().nth(2000) {
        Some((at, _)) => format!("{}…", &said[..at]),
        None => said.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_from_problem_lines_once_each() {
        let message = "error[SQ0102 UnknownField] 1:8 `x`: no field\nerror[SQ0102 UnknownField] 1:11 `y`: no\n\
                       warning[SQ0300 MissingLimit] 1:1: add one\nerror[SQ9000 EngineError] 1:1: the engine refused";
        assert_eq!(codes_in(message), ["SQ0102", "SQ9000"]);
        assert!(codes_in("only a SELECT statement may run here").is_empty());
    }

    #[test]
    fn a_tokens_subject_is_its_id_claim() {
        use base64::Engine as _;
        let claims = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(r#"{"ID":"customer:ann","exp":1}"#);
        assert_eq!(
            token_subject(&format!("e30.{claims}.sig")).as_deref(),
            Some("customer:ann")
        );
        assert_eq!(token_subject("not a token"), None);
    }
}
