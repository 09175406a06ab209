//! `surqlc mcp --otlp-endpoint URL` (feature `otel`): the library's `surqlc.*` spans and the MCP server's metrics exported over OTLP/HTTP, flushed when the server stops; without the feature the flag is an error.

use surqlc::exit::Failure;

/// What `--otlp-endpoint` says when the binary was built without the exporter.
#[cfg(not(feature = "otel"))]
pub const WITHOUT_OTEL: &str =
    "error: --otlp-endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT) is set, but this surqlc was built \
     without the otel feature: rebuild with `cargo install --path cli --features otel`, or unset it";

/// The exporters of one run, shut down (and so flushed) by [`Telemetry::shutdown`].
#[cfg(feature = "otel")]
pub struct Telemetry {
    tracer_provider: opentelemetry_sdk::trace::SdkTracerProvider,
    meter_provider: opentelemetry_sdk::metrics::SdkMeterProvider,
    sink: std::sync::Arc<exporter::OtlpMetrics>,
}

/// Without the `otel` feature there is nothing to export: [`Telemetry::start`] refuses.
#[cfg(not(feature = "otel"))]
pub struct Telemetry(std::convert::Infallible);

#[cfg(not(feature = "otel"))]
impl Telemetry {
    /// Always the error that says the feature is missing.
    pub fn start(_endpoint: &str) -> Result<Telemetry, Failure> {
        Err(Failure::BadInput(WITHOUT_OTEL.into()))
    }

    /// Never called: no `Telemetry` exists without the feature.
    pub fn sink(&self) -> std::sync::Arc<dyn surqlc::mcp::MetricsSink> {
        match self.0 {}
    }

    /// Never called: no `Telemetry` exists without the feature.
    pub async fn shutdown(self) {
        match self.0 {}
    }
}

/// The signal's URL under an OTLP/HTTP base URL, as the OTLP specification builds it from
/// `OTEL_EXPORTER_OTLP_ENDPOINT` (`http://collector:4318` → `http://collector:4318/v1/traces`).
pub fn signal_url(base: &str, signal: &str) -> Result<String, Failure> {
    let scheme_ok = base.starts_with("http://") || base.starts_with("https://");
    let host = base.split_once("://").map_or("", |(_, rest)| rest);
    if !scheme_ok || host.is_empty() || host.starts_with('/') {
        return Err(Failure::BadInput(format!(
            "error: --otlp-endpoint {base:?}: expected the collector's OTLP/HTTP base URL, e.g. http://127.0.0.1:4318"
        )));
    }
    Ok(format!("{}/v1/{signal}", base.trim_end_matches('/')))
}

#[cfg(feature = "otel")]
impl Telemetry {
    /// Starts the span and metric exporters to the collector at `endpoint` (its OTLP/HTTP base URL)
    /// and installs the process's `tracing` subscriber: the `surqlc` spans, at INFO and above, go to
    /// OpenTelemetry with the resource `service.name=surqlc`.
    pub fn start(endpoint: &str) -> Result<Telemetry, Failure> {
        use opentelemetry::trace::TracerProvider as _;
        use opentelemetry_otlp::{Protocol, WithExportConfig, WithHttpConfig};
        use tracing_subscriber::layer::SubscriberExt as _;
        use tracing_subscriber::Layer as _;
        let (traces, metrics) = (signal_url(endpoint, "traces")?, signal_url(endpoint, "metrics")?);
        let failed = |e: &dyn std::fmt::Display| Failure::BadInput(format!("error: --otlp-endpoint {endpoint}: {e}"));
        let resource = opentelemetry_sdk::Resource::builder()
            .with_service_name("surqlc")
            .build();
        let client = exporter::OnRuntime::new().map_err(|e| failed(&e))?;
        let spans = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_http_client(client.clone())
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(traces)
            .build()
            .map_err(|e| failed(&e))?;
        let tracer_provider = opentelemetry_sdk::trace::SdkTracerProvider::builder()
            .with_batch_exporter(spans)
            .with_resource(resource.clone())
            .build();
        let points = opentelemetry_otlp::MetricExporter::builder()
            .with_http()
            .with_http_client(client)
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(metrics)
            .build()
            .map_err(|e| failed(&e))?;
        let meter_provider = opentelemetry_sdk::metrics::SdkMeterProvider::builder()
            .with_reader(opentelemetry_sdk::metrics::PeriodicReader::builder(points).build())
            .with_resource(resource)
            .build();
        let sink = std::sync::Arc::new(exporter::OtlpMetrics::new(&meter_provider));
        // Only the library's spans: the engine's own (surrealdb's, at every level) stay out.
        let only_surqlc = tracing_subscriber::filter::Targets::new().with_target("surqlc", tracing::Level::INFO);
        let layer = tracing_opentelemetry::layer()
            .with_tracer(tracer_provider.tracer("surqlc"))
            .with_filter(only_surqlc);
        tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer)).map_err(|e| failed(&e))?;
        Ok(Telemetry {
            tracer_provider,
            meter_provider,
            sink,
        })
    }

    /// The metrics' OTLP instruments, for the server's [`surqlc::mcp::ObserveOptions::metrics_sink`].
    pub fn sink(&self) -> std::sync::Arc<dyn surqlc::mcp::MetricsSink> {
        self.sink.clone()
    }

    /// Exports what is left (the last spans, the metrics' final figures) and stops the exporters;
    /// a collector that cannot be reached is said on stderr.
    pub async fn shutdown(self) {
        let stopped = tokio::task::spawn_blocking(move || {
            let spans = self.tracer_provider.shutdown();
            let metrics = self.meter_provider.shutdown();
            (spans, metrics)
        })
        .await;
        match stopped {
            Ok((Ok(()), Ok(()))) => {}
            Ok((spans, metrics)) => {
                for (what, result) in [("spans", spans), ("metrics", metrics)] {
                    if let Err(e) = result {
                        crate::stdio::note(&format!(
                            "surqlc mcp: the OTLP export of the {what} did not finish: {e}"
                        ));
                    }
                }
            }
            Err(e) => crate::stdio::note(&format!("surqlc mcp: the OTLP export did not finish: {e}")),
        }
    }
}

#[cfg(feature = "otel")]
mod exporter {
    //! The metrics of `docs/operations.md` as OpenTelemetry instruments.

    use opentelemetry::metrics::{Counter, Histogram, MeterProvider as _, ObservableGauge};
    use opentelemetry::KeyValue;
    use std::sync::atomic::{AtomicI64, Ordering};
    use std::sync::Arc;

    /// The OTLP requests' HTTP client: reqwest's async client, each request run on the server's
    /// tokio runtime (the SDK's batch processors call it from threads of their own, where no
    /// runtime is).
    #[derive(Debug, Clone)]
    pub struct OnRuntime {
        client: reqwest::Client,
        runtime: tokio::runtime::Handle,
    }

    impl OnRuntime {
        /// On the current runtime; each request gives up after 10 s (the OTLP exporters' default).
        pub fn new() -> Result<OnRuntime, String> {
            let runtime = tokio::runtime::Handle::try_current().map_err(|e| e.to_string())?;
            let client = reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(10))
                .build()
                .map_err(|e| format!("cannot make the HTTP client: {e}"))?;
            Ok(OnRuntime { client, runtime })
        }
    }

    #[async_trait::async_trait]
    impl opentelemetry_http::HttpClient for OnRuntime {
        async fn send_bytes(
            &self,
            request: opentelemetry_http::Request<opentelemetry_http::Bytes>,
        ) -> Result<opentelemetry_http::Response<opentelemetry_http::Bytes>, opentelemetry_http::HttpError> {
            let client = self.client.clone();
            let sent = self
                .runtime
                .spawn(async move { opentelemetry_http::HttpClient::send_bytes(&client, request).await });
            sent.await?
        }
    }

    /// `surqlc_tool_calls_total{tool,outcome}`, `surqlc_refusals_total{code}`,
    /// `surqlc_tool_call_duration_seconds{tool}` and `surqlc_sessions`, named as on the Prometheus page.
    pub struct OtlpMetrics {
        calls: Counter<u64>,
        refusals: Counter<u64>,
        durations: Histogram<f64>,
        sessions: Arc<AtomicI64>,
        _sessions_gauge: ObservableGauge<i64>,
    }

    impl std::fmt::Debug for OtlpMetrics {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("OtlpMetrics").finish_non_exhaustive()
        }
    }

    impl OtlpMetrics {
        pub fn new(provider: &opentelemetry_sdk::metrics::SdkMeterProvider) -> OtlpMetrics {
            use surqlc::mcp::{CALL_DURATION, REFUSALS, SESSIONS, TOOL_CALLS};
            let meter = provider.meter("surqlc");
            let sessions = Arc::new(AtomicI64::new(0));
            let observed = sessions.clone();
            OtlpMetrics {
                calls: meter
                    .u64_counter(TOOL_CALLS.name)
                    .with_description(TOOL_CALLS.help)
                    .build(),
                refusals: meter.u64_counter(REFUSALS.name).with_description(REFUSALS.help).build(),
                durations: meter
                    .f64_histogram(CALL_DURATION.name)
                    .with_description(CALL_DURATION.help)
                    .with_unit("s")
                    .with_boundaries(surqlc::mcp::DURATION_BUCKETS.to_vec())
                    .build(),
                _sessions_gauge: meter
                    .i64_observable_gauge(SESSIONS.name)
                    .with_description(SESSIONS.help)
                    .with_callback(move |gauge| gauge.observe(observed.load(Ordering::SeqCst), &[]))
                    .build(),
                sessions,
            }
        }
    }

    impl surqlc::mcp::MetricsSink for OtlpMetrics {
        fn call(&self, tool: &str, outcome: &str, refusal_codes: &[String], seconds: f64) {
            let tool = KeyValue::new("tool", tool.to_owned());
            self.calls
                .add(1, &[tool.clone(), KeyValue::new("outcome", outcome.to_owned())]);
            for code in refusal_codes {
                self.refusals.add(1, &[KeyValue::new("code", code.clone())]);
            }
            self.durations.record(seconds, &[tool]);
        }

        fn sessions(&self, delta: i64) {
            self.sessions.fetch_add(delta, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signal_url_is_under_the_base_url() {
        assert_eq!(
            signal_url("http://127.0.0.1:4318", "traces").ok().as_deref(),
            Some("http://127.0.0.1:4318/v1/traces")
        );
        assert_eq!(
            signal_url("https://otel.example/", "metrics").ok().as_deref(),
            Some("https://otel.example/v1/metrics")
        );
        for bad in ["127.0.0.1:4318", "grpc://x:4317", "http://", ""] {
            let error = signal_url(bad, "traces")
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(error.contains("OTLP/HTTP base URL"), "{bad}: {error}");
        }
    }
}
