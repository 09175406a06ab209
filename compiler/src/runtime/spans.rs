//! The library's `tracing` spans: `surqlc.ask`, `surqlc.attempt`, `surqlc.prompt`, `surqlc.validate`, `surqlc.run` (and the MCP server's `surqlc.mcp.call`); no subscriber is installed here, and no field carries a secret (passwords, tokens, the scope key).
//!
//! Fields: `question`, `end_user` (whether the session is one end user's), `prompt_tokens` (an
//! estimate, a quarter of the prompt's characters), `query`, `codes` (the refusal's codes, comma
//! separated), `repairs`, `rows`, `truncated`, `outcome`, `duration_ms`. The names are a contract
//! (issue 40): dashboards and tests read them.

use std::time::Instant;
use tracing::Span;

/// One question asked with `runtime::ask`, from the question to the rows.
pub const ASK: &str = "surqlc.ask";
/// One of an ask's attempts: a reply of the model, validated and maybe run.
pub const ATTEMPT: &str = "surqlc.attempt";
/// The prompt asked of the database for a question.
pub const PROMPT: &str = "surqlc.prompt";
/// One query checked by the validator.
pub const VALIDATE: &str = "surqlc.validate";
/// One accepted query run as the agent.
pub const RUN: &str = "surqlc.run";
/// One MCP tool call, with its tool, subject and outcome.
pub const MCP_CALL: &str = "surqlc.mcp.call";

/// Records `outcome` and the milliseconds since `started` on `span`.
pub(crate) fn finish(span: &Span, started: Instant, outcome: &str) {
    span.record("outcome", outcome);
    span.record("duration_ms", started.elapsed().as_secs_f64() * 1e3);
}

/// The codes of a rendered report's problem lines (`error[SQ0102 UnknownField] ...`), in order,
/// once each.
pub(crate) fn codes_in(message: &str) -> Vec<String> {
    let mut codes: Vec<String> = Vec::new();
    for line in message.lines() {
        let Some(rest) = line.trim_start().strip_prefix("error[") else {
            continue;
        };
        let code: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if !code.is_empty() && !codes.contains(&code) {
            codes.push(code);
        }
    }
    codes
}

/// An outcome of the runner as a span's `outcome`, with its `codes` recorded when refused.
pub(crate) fn record_outcome(span: &Span, started: Instant, outcome: &super::Outcome) {
    match outcome {
        super::Outcome::Rows { rows, .. } => {
            span.record("rows", rows.len());
            finish(span, started, "rows");
        }
        super::Outcome::CannotAnswer(_) => finish(span, started, "cannot_answer"),
        super::Outcome::Rejected(message) => {
            span.record("codes", codes_in(message).join(",").as_str());
            finish(span, started, "refused");
        }
    }
}
