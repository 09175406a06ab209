//! `surqlc mcp`'s operations flags: `--audit-log`, `--metrics`, `--rate-limit`/`--rate-burst`, `--otlp-endpoint`, read into the library's `ObserveOptions` (and `otel`'s exporters).

use crate::otel::Telemetry;
use clap::Args;
use std::path::Path;
use surqlc::exit::Failure;

/// How a running `surqlc mcp` is watched.
#[derive(Args, Clone, Default)]
pub struct OpsArgs {
    /// Append one JSON line per tool call to FILE (`-`: stderr), synced before the answer goes out; a call
    /// whose line cannot be written is refused.
    #[arg(long, value_name = "FILE")]
    audit_log: Option<String>,
    /// With --http: serve Prometheus metrics at http://ADDR/metrics (a bare port: 127.0.0.1:PORT).
    #[arg(long, value_name = "ADDR", requires = "http")]
    metrics: Option<String>,
    /// With --http: at most N tool calls per second per subject (end user, or the bearer token), e.g. 5/s;
    /// over it, HTTP 429 with Retry-After.
    #[arg(long, value_name = "N/s", requires = "http")]
    rate_limit: Option<String>,
    /// Calls a subject may make at once under --rate-limit [default: N].
    #[arg(long, value_name = "B", requires = "rate_limit", value_parser = clap::value_parser!(u32).range(1..))]
    rate_burst: Option<u32>,
    /// Export the spans (surqlc.mcp.call, surqlc.validate, surqlc.run ...) and the metrics over OTLP/HTTP to the
    /// collector at URL (its base, e.g. http://127.0.0.1:4318; /v1/traces and /v1/metrics are added); needs the
    /// otel feature (on by default).
    #[arg(long, value_name = "URL", env = "OTEL_EXPORTER_OTLP_ENDPOINT")]
    otlp_endpoint: Option<String>,
}

impl OpsArgs {
    /// The library's options; the bearer token is named by its file's name (or `SURQLC_MCP_TOKEN`)
    /// in the audit log, never shown.
    pub fn options(
        &self,
        token_file: Option<&Path>,
        has_token: bool,
        telemetry: Option<&Telemetry>,
    ) -> Result<surqlc::mcp::ObserveOptions, Failure> {
        let token_name = has_token.then(|| match token_file {
            Some(file) => file
                .file_name()
                .map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned()),
            None => surqlc::mcp::TOKEN_ENV.to_owned(),
        });
        let rate_limit = match &self.rate_limit {
            Some(limit) => Some(
                surqlc::mcp::RateLimit::parse(limit, self.rate_burst)
                    .map_err(|e| Failure::BadInput(format!("error: {e}")))?,
            ),
            None => None,
        };
        Ok(surqlc::mcp::ObserveOptions {
            audit_log: self.audit_log.as_deref().map(surqlc::mcp::AuditTarget::parse),
            token_name,
            metrics: self.metrics.clone(),
            rate_limit,
            metrics_sink: telemetry.map(Telemetry::sink),
        })
    }

    /// With `--otlp-endpoint` (or `OTEL_EXPORTER_OTLP_ENDPOINT`): the exporters, started and the
    /// process's subscriber installed; an error when the binary lacks the `otel` feature.
    pub fn telemetry(&self) -> Result<Option<Telemetry>, Failure> {
        match self.otlp_endpoint.as_deref().filter(|e| !e.is_empty()) {
            Some(endpoint) => Telemetry::start(endpoint).map(Some),
            None => Ok(None),
        }
    }
}
