//! `surqlc mcp --metrics ADDR`: the calls counted by tool and outcome, refusals by code, call durations as a histogram by tool and the open sessions, rendered as Prometheus text at `/metrics` and told to a [`MetricsSink`] (the command line's OTLP export).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

/// The duration histogram's upper bounds, in seconds (a call is milliseconds to the `--timeout`):
/// the Prometheus page's buckets, and those an OTLP export uses, so both show the same figures.
pub const BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// A metric's name and help text, as the Prometheus page and the OTLP export both spell them.
#[derive(Debug, Clone, Copy)]
pub struct MetricName {
    /// The metric's name (`surqlc_tool_calls_total`).
    pub name: &'static str,
    /// What it counts, one line.
    pub help: &'static str,
}

/// `surqlc_tool_calls_total{tool,outcome}`: a counter.
pub const TOOL_CALLS: MetricName = MetricName {
    name: "surqlc_tool_calls_total",
    help: "Tool calls answered, by tool and outcome (ok, refused, error).",
};
/// `surqlc_refusals_total{code}`: a counter.
pub const REFUSALS: MetricName = MetricName {
    name: "surqlc_refusals_total",
    help: "Refused calls, by code (SQ codes, rate_limited, audit_log, unclassified).",
};
/// `surqlc_tool_call_duration_seconds{tool}`: a histogram over [`BUCKETS`].
pub const CALL_DURATION: MetricName = MetricName {
    name: "surqlc_tool_call_duration_seconds",
    help: "How long tool calls took, by tool.",
};
/// `surqlc_sessions`: a gauge.
pub const SESSIONS: MetricName = MetricName {
    name: "surqlc_sessions",
    help: "Open MCP sessions.",
};

#[derive(Default)]
struct Histogram {
    /// Cumulative counts are computed when rendered; these are per bucket.
    buckets: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

#[derive(Default)]
struct Counts {
    calls: BTreeMap<(String, String), u64>,
    refusals: BTreeMap<String, u64>,
    durations: BTreeMap<String, Histogram>,
}

/// Somewhere else the server's metrics go as they happen (the command line's OTLP exporter, behind
/// its `otel` feature): told every call [`Metrics`] counts and every session opened or closed, so
/// the library carries no exporter of its own.
pub trait MetricsSink: Send + Sync + std::fmt::Debug {
    /// One finished call: its tool, its outcome (`ok`, `refused`, `error`), the codes it is counted
    /// under in `surqlc_refusals_total` (empty unless refused) and how long it took.
    fn call(&self, tool: &str, outcome: &str, refusal_codes: &[String], seconds: f64);
    /// A session opened (`+1`) or closed (`-1`): `surqlc_sessions`.
    fn sessions(&self, delta: i64);
}

/// The server's counters, shared by every session.
#[derive(Default)]
pub struct Metrics {
    counts: Mutex<Counts>,
    sessions: AtomicI64,
    sink: Option<Arc<dyn MetricsSink>>,
}

/// One open MCP session, counted in `surqlc_sessions` until dropped.
pub struct SessionGuard(Arc<Metrics>);

impl Drop for SessionGuard {
    fn drop(&mut self) {
        self.0.sessions.fetch_sub(1, Ordering::SeqCst);
        if let Some(sink) = &self.0.sink {
            sink.sessions(-1);
        }
    }
}

impl Metrics {
    /// Counters that also tell `sink` of each call and session.
    pub fn with_sink(sink: Option<Arc<dyn MetricsSink>>) -> Metrics {
        Metrics {
            sink,
            ..Metrics::default()
        }
    }

    /// Counts one finished call: its tool, its outcome (`ok`, `refused`, `error`), the codes of
    /// a refusal (`unclassified` when it has none) and how long it took.
    pub fn call(&self, tool: &str, outcome: &str, codes: &[String], seconds: f64) {
        if let Some(sink) = &self.sink {
            let unclassified = ["unclassified".to_owned()];
            let refusal_codes = match outcome {
                "refused" if codes.is_empty() => &unclassified[..],
                "refused" => codes,
                _ => &[],
            };
            sink.call(tool, outcome, refusal_codes, seconds);
        }
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        *counts.calls.entry((tool.to_owned(), outcome.to_owned())).or_default() += 1;
        if outcome == "refused" {
            if codes.is_empty() {
                *counts.refusals.entry("unclassified".into()).or_default() += 1;
            }
            for code in codes {
                *counts.refusals.entry(code.clone()).or_default() += 1;
            }
        }
        let histogram = counts.durations.entry(tool.to_owned()).or_default();
        if let Some(at) = BUCKETS.iter().position(|bound| seconds <= *bound) {
            histogram.buckets[at] += 1;
        }
        histogram.sum += seconds;
        histogram.count += 1;
    }

    /// A session opened: counted until the guard is dropped.
    pub fn session(self: &Arc<Self>) -> SessionGuard {
        self.sessions.fetch_add(1, Ordering::SeqCst);
        if let Some(sink) = &self.sink {
            sink.sessions(1);
        }
        SessionGuard(self.clone())
    }

    /// The Prometheus text exposition (version 0.0.4).
    pub fn render(&self) -> String {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = String::new();
        let header = |out: &mut String, m: MetricName, kind: &str| {
            let _ = writeln!(out, "# HELP {} {}\n# TYPE {} {kind}", m.name, m.help, m.name);
        };
        header(&mut out, TOOL_CALLS, "counter");
        for ((tool, outcome), n) in &counts.calls {
            let _ = writeln!(
                out,
                "{}{{tool=\"{}\",outcome=\"{}\"}} {n}",
                TOOL_CALLS.name,
                escape(tool),
                escape(outcome)
            );
        }
        header(&mut out, REFUSALS, "counter");
        for (code, n) in &counts.refusals {
            let _ = writeln!(out, "{}{{code=\"{}\"}} {n}", REFUSALS.name, escape(code));
        }
        header(&mut out, CALL_DURATION, "histogram");
        let d = CALL_DURATION.name;
        for (tool, histogram) in &counts.durations {
            let tool = escape(tool);
            let mut cumulative = 0;
            for (bound, n) in BUCKETS.iter().zip(histogram.buckets) {
                cumulative += n;
                let _ = writeln!(out, "{d}_bucket{{tool=\"{tool}\",le=\"{bound}\"}} {cumulative}");
            }
            let _ = writeln!(out, "{d}_bucket{{tool=\"{tool}\",le=\"+Inf\"}} {}", histogram.count);
            let _ = writeln!(out, "{d}_sum{{tool=\"{tool}\"}} {}", histogram.sum);
            let _ = writeln!(out, "{d}_count{{tool=\"{tool}\"}} {}", histogram.count);
        }
        header(&mut out, SESSIONS, "gauge");
        let _ = writeln!(out, "{} {}", SESSIONS.name, self.sessions.load(Ordering::SeqCst));
        out
    }
}

/// A label value as the text format quotes it.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_refusals_and_durations_are_counted() {
        let metrics = Arc::new(Metrics::default());
        metrics.call("run_query", "ok", &[], 0.003);
        metrics.call("run_query", "refused", &["SQ0102".into()], 0.002);
        let _session = metrics.session();
        let text = metrics.render();
        assert!(
            text.contains("surqlc_tool_calls_total{tool=\"run_query\",outcome=\"ok\"} 1\n"),
            "{text}"
        );
        assert!(text.contains("surqlc_refusals_total{code=\"SQ0102\"} 1\n"), "{text}");
        assert!(text.contains("surqlc_tool_call_duration_seconds_bucket{tool=\"run_query\",le=\"0.0025\"} 1\n"));
        assert!(text.contains("surqlc_tool_call_duration_seconds_bucket{tool=\"run_query\",le=\"0.005\"} 2\n"));
        assert!(text.contains("surqlc_sessions 1\n"), "{text}");
    }

    /// What a sink is told, as one line per event.
    #[derive(Debug, Default)]
    struct Told(Mutex<Vec<String>>);

    impl MetricsSink for Told {
        fn call(&self, tool: &str, outcome: &str, refusal_codes: &[String], _seconds: f64) {
            let line = format!("{tool} {outcome} [{}]", refusal_codes.join(","));
            self.0.lock().unwrap().push(line);
        }
        fn sessions(&self, delta: i64) {
            self.0.lock().unwrap().push(format!("sessions {delta:+}"));
        }
    }

    #[test]
    fn a_sink_is_told_what_the_page_counts() {
        let told = Arc::new(Told::default());
        let metrics = Arc::new(Metrics::with_sink(Some(told.clone())));
        metrics.call("run_query", "ok", &[], 0.003);
        metrics.call("run_query", "refused", &["SQ0102".into()], 0.002);
        metrics.call("rate_limited", "refused", &[], 0.0);
        drop(metrics.session());
        assert_eq!(
            *told.0.lock().unwrap(),
            [
                "run_query ok []",
                "run_query refused [SQ0102]",
                "rate_limited refused [unclassified]",
                "sessions +1",
                "sessions -1"
            ]
        );
    }
}
