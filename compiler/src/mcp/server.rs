//! The MCP side: the tool list (names, short descriptions, input schemas, read-only hints), dispatch to `tools` and to the extra tools, and the stdio and HTTP transports.

use super::auth::Token;
use super::state::{text, State};
use super::tools;
use crate::exit::Failure;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, JsonObject, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// The MCP server: cheap to clone (HTTP makes one per session), all clones share one [`State`]
/// and one count of the calls in flight.
#[derive(Clone)]
pub struct Server {
    state: Arc<State>,
    inflight: Arc<Inflight>,
    /// An HTTP session's place in `surqlc_sessions`, until rmcp drops its server.
    _session: Option<Arc<super::metrics::SessionGuard>>,
}

impl Server {
    pub fn new(state: State) -> Server {
        Server {
            state: Arc::new(state),
            inflight: Arc::default(),
            _session: None,
        }
    }

    /// What the tools share.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The server of one new HTTP session, counted in the metrics while it lives.
    fn for_session(&self) -> Server {
        Server {
            _session: Some(Arc::new(self.state.observer.metrics.session())),
            ..self.clone()
        }
    }

    /// How long one tool call may take, all of it (the engine's statements and the model's
    /// replies): `--timeout`.
    fn deadline(&self) -> Duration {
        self.state.timeout
    }

    /// `tools/list`: the built-in tools, then the extra ones.
    pub fn tools(&self) -> Vec<Tool> {
        let mut tools = builtin_tools(self.state.editor.is_some());
        let state = &self.state;
        tools.extend(state.extra.iter().filter(|t| t.listed(state)).map(|t| t.tool()));
        tools
    }

    /// `tools/call` by name, with the arguments the client sent.
    pub async fn call(&self, name: &str, arguments: JsonObject) -> Option<CallToolResult> {
        let state = &self.state;
        let text = |key: &str| arguments.get(key).and_then(|v| v.as_str());
        Some(match name {
            tools::SCHEMA => match arguments.get("question") {
                None | Some(serde_json::Value::Null) => tools::schema(state, None).await,
                Some(serde_json::Value::String(q)) => tools::schema(state, Some(q)).await,
                Some(_) => tools::bad_argument("question", "a string"),
            },
            tools::CHECK_QUERY => match text("query") {
                Some(query) => tools::check_query(state, query).await,
                None => tools::bad_argument("query", "a string"),
            },
            tools::RUN_QUERY => match text("query") {
                Some(query) => tools::run_query(state, query).await,
                None => tools::bad_argument("query", "a string"),
            },
            tools::REMEMBER_EXAMPLE if state.editor.is_some() => match (text("question"), text("query")) {
                (Some(question), Some(query)) => tools::remember_example(state, question, query).await,
                (None, _) => tools::bad_argument("question", "a string"),
                (_, None) => tools::bad_argument("query", "a string"),
            },
            // ---- Extension point: `ask` and named-query tools register through State::with_tool. ----
            other => {
                let extra = state.extra.iter().find(|t| t.tool().name == other)?;
                extra.call(state, arguments).await
            }
        })
    }
}

/// The built-in tools as `tools/list` gives them: `schema`, `check_query`, `run_query`, and
/// `remember_example` when `remember` (`--allow-remember`).
pub fn builtin_tools(remember: bool) -> Vec<Tool> {
    let mut tools = vec![
        tool(
            tools::SCHEMA,
            "The database schema to write SurrealQL from: tables, fields with comments, known values, and example queries near the question.",
            json!({"question": {"type": "string", "description": "The user's question; selects the tables and examples."}}),
            &[],
            read_only(),
        ),
        tool(
            tools::CHECK_QUERY,
            "Check a SurrealQL SELECT against the schema and the data without running it: each problem with its fix, or ok.",
            json!({"query": {"type": "string"}}),
            &["query"],
            read_only(),
        ),
        tool(
            tools::RUN_QUERY,
            RUN_QUERY_DESCRIPTION,
            json!({"query": {"type": "string"}}),
            &["query"],
            read_only(),
        ),
    ];
    if remember {
        tools.push(tool(
            tools::REMEMBER_EXAMPLE,
            "Store a question with the SurrealQL query that answered it correctly, as an example for later questions.",
            json!({"question": {"type": "string"}, "query": {"type": "string"}}),
            &["question", "query"],
            ToolAnnotations::new().read_only(false).destructive(false),
        ));
    }
    tools
}

/// `run_query`'s description: what it does, and the standing instruction about its answers.
const RUN_QUERY_DESCRIPTION: &str = concat!(
    "Run one read-only SurrealQL SELECT; rows as JSON, capped (a cut is said); a refused query comes back as ",
    "an error saying what to fix. ",
    super::untrusted::standing!()
);

pub(super) fn read_only() -> ToolAnnotations {
    ToolAnnotations::new().read_only(true)
}

pub(super) fn tool(
    name: &'static str,
    description: &'static str,
    properties: serde_json::Value,
    required: &[&str],
    annotations: ToolAnnotations,
) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), properties);
    if !required.is_empty() {
        schema.insert("required".into(), json!(required));
    }
    Tool::new(name, description, Arc::new(schema)).with_annotations(annotations)
}

/// The server's instructions: the loop, and whom the answers are for when it serves end users.
fn instructions(state: &State) -> String {
    instructions_for(state.end_user_rules())
}

/// The server's instructions with the end user's rules (`--as`, `--per-user`), if any: the loop,
/// the standing instruction about rows, whom the answers are for.
pub(super) fn instructions_for(end_user_rules: Option<&str>) -> String {
    let mut text = String::from(
        "Answer questions from a SurrealDB database: read `schema` for the question, \
        write one SELECT, fix what `check_query` or `run_query` reports. ",
    );
    text.push_str(super::untrusted::STANDING);
    if let Some(rules) = end_user_rules {
        text.push(' ');
        text.push_str(rules.trim_end());
    }
    text
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("surqlc", env!("CARGO_PKG_VERSION")))
            .with_instructions(instructions(&self.state))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools().into_iter().find(|t| t.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Watched (`observe`): its audit line is written before its answer goes out.
        let observer = &self.state.observer;
        let call = super::observe::Call::begin(observer, &request, &context);
        if let Some(refusal) = call.refused_before(observer) {
            return Ok(refusal.into());
        }
        let answer = call.run(self.answer_call(request, context)).await;
        call.finish(observer, answer).await
    }
}

impl Server {
    /// A tool call's answer: the calls in flight counted, the end user's session, the deadline.
    async fn answer_call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(_call) = self.inflight.enter() else {
            return Ok(text(
                false,
                "surqlc mcp is stopping (SIGTERM): this call was not started; call again once the server is back",
            )
            .into());
        };
        // `--per-user`: the session `require_user` opened with this request's token.
        let user = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<super::users::UserSession>())
            .map(|user| user.0.clone());
        if self.state.per_user_target().is_some() && user.is_none() {
            return Ok(text(
                false,
                "this server answers each end user in their own session: send the user's token as `Authorization: Bearer <token>`",
            )
            .into());
        }
        if let Some((endpoint, address)) = &self.state.probe {
            if let Err(down) = super::reach::check(endpoint, address).await {
                return Ok(text(false, down).into());
            }
        }
        let arguments = request.arguments.unwrap_or_default();
        let (server, name) = (self.clone(), request.name.to_string());
        // A task of its own, so that a panic anywhere below answers this call and not the server.
        let mut called = tokio::spawn(super::observe::carry(super::state::as_user(user, async move {
            server.call(&name, arguments).await
        })));
        let deadline = self.deadline();
        let called = match tokio::time::timeout(deadline, &mut called).await {
            Ok(called) => called,
            Err(_) => {
                // Dropping the work stops its statement or its model request.
                called.abort();
                return Ok(text(
                    false,
                    format!(
                        "`{}` was stopped at its deadline of {deadline:?} (surqlc mcp --timeout): ask for less \
                            (a narrower query or question) or try again",
                        request.name
                    ),
                )
                .into());
            }
        };
        match called {
            Ok(Some(result)) => Ok(result.into()),
            Ok(None) => Err(ErrorData::invalid_params(
                format!("no tool named `{}`", request.name),
                None,
            )),
            Err(_) => Ok(text(
                false,
                "surqlc failed inside this tool (a bug; nothing was written); try another query",
            )
            .into()),
        }
    }
}

/// The tool calls in flight, so that a SIGTERM lets them finish: once draining, no call starts.
#[derive(Default)]
struct Inflight {
    count: AtomicUsize,
    draining: AtomicBool,
    idle: Notify,
}

/// One call in flight; counted until dropped.
struct Call(Arc<Inflight>);

impl Drop for Call {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl Inflight {
    /// Counts a call in, unless the server is draining.
    fn enter(self: &Arc<Self>) -> Option<Call> {
        self.count.fetch_add(1, Ordering::SeqCst);
        let call = Call(self.clone());
        (!self.draining.load(Ordering::SeqCst)).then_some(call)
    }

    /// Starts no more calls, and returns once those in flight have answered (or after `bound`).
    async fn drain(&self, bound: Duration) {
        self.draining.store(true, Ordering::SeqCst);
        let waiting = self.count.load(Ordering::SeqCst);
        eprintln!(
            "surqlc mcp: stopping; {waiting} call{} in flight finish first",
            if waiting == 1 { "" } else { "s" }
        );
        let idle = async {
            loop {
                let notified = self.idle.notified();
                if self.count.load(Ordering::SeqCst) == 0 {
                    return;
                }
                notified.await;
            }
        };
        let _ = tokio::time::timeout(bound, idle).await;
        // The transport writes the last answers after their handlers return.
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// SIGTERM (or SIGINT, Ctrl-C): the signal to drain and stop. Never, if it cannot be listened for.
async fn terminated() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
    }
    #[cfg(not(unix))]
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// How long a drain waits: every call has its deadline, plus a margin for the answer to be written.
fn drain_bound(server: &Server) -> Duration {
    server.deadline() + Duration::from_secs(5)
}

/// Serves on stdin/stdout until the client closes them, or until SIGTERM, after the calls in
/// flight have answered. stdout carries the protocol only.
pub(super) async fn serve_stdio(server: Server) -> Result<(), Failure> {
    let (inflight, drain_within) = (server.inflight.clone(), drain_bound(&server));
    let running = server
        .serve(rmcp::transport::io::stdio_pipes())
        .await
        .map_err(|e| Failure::Failed(format!("error: MCP start-up over stdio failed: {e}")))?;
    let stop = running.cancellation_token();
    let waiting = running.waiting();
    tokio::pin!(waiting);
    tokio::select! {
        done = &mut waiting => {
            done.map_err(|e| Failure::Failed(format!("error: the MCP stdio service stopped: {e}")))?;
            return Ok(());
        }
        _ = terminated() => {}
    }
    inflight.drain(drain_within).await;
    stop.cancel();
    let _ = tokio::time::timeout(Duration::from_secs(2), waiting).await;
    Ok(())
}

/// Serves streamable HTTP at `/mcp` on `listener`, saying `serving MCP at URL` on stderr once the
/// tools are ready. With `token`, a request without `Authorization: Bearer <token>` is answered
/// 401 before rmcp sees it (so it opens no session); `allowed_hosts` is rmcp's `Host` check
/// (empty: any host).
pub(super) async fn serve_http(
    server: Server,
    listener: tokio::net::TcpListener,
    token: Option<Token>,
    allowed_hosts: Vec<String>,
) -> Result<(), Failure> {
    let state = server.state.clone();
    let bound = listener
        .local_addr()
        .map_err(|e| Failure::Failed(format!("error: cannot read the listening address: {e}")))?;
    let resource = match (&state.idp, state.per_user_target()) {
        (Some(idp), Some(_)) => Some(Arc::new(
            super::resource::Resource::new(
                idp.public_url.as_deref(),
                bound,
                idp.provider.issuer(),
                &idp.scopes,
                &state.schema.name,
            )
            .map_err(|e| Failure::BadInput(format!("error: {e}")))?,
        )),
        _ => None,
    };
    let per_user = server
        .state
        .per_user_target()
        .map(|_| super::users::Users::new(server.state.clone(), server.state.idp.clone(), resource.clone()));
    use rmcp::transport::streamable_http_server::{
        session::local::LocalSessionManager, StreamableHttpServerConfig, StreamableHttpService,
    };
    let config = StreamableHttpServerConfig::default().with_allowed_hosts(allowed_hosts);
    let sessions = config.cancellation_token.clone();
    let (inflight, drain_within) = (server.inflight.clone(), drain_bound(&server));
    let service: StreamableHttpService<Server, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(server.for_session()), Default::default(), config);
    let mut router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn(session_closed_is_ok))
        // Inside the token's and the user's layers: the subject is known when it runs.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            super::ops::rate_limit,
        ));
    if let Some(token) = token {
        // The outermost layer: nothing below runs for a request without the token.
        router = router.layer(axum::middleware::from_fn_with_state(token, require_token));
    }
    if let Some(users) = per_user {
        router = router.layer(axum::middleware::from_fn_with_state(users, super::users::require_user));
    }
    let router = match &resource {
        Some(resource) => super::resource::with_metadata(router, resource.clone(), state.clone()),
        None => router,
    };
    let router = super::ops::with_health(router, state);
    if let Some(resource) = &resource {
        eprintln!(
            "protected resource {} (its metadata at {})",
            resource.url, resource.metadata_url
        );
    }
    eprintln!("serving MCP at http://{bound}/mcp");
    // SIGTERM: the calls in flight answer, then no new connection is taken and the sessions
    // (their event streams) close; whatever still hangs on is cut after a few seconds.
    let (stopped, on_stop) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        terminated().await;
        inflight.drain(drain_within).await;
        let _ = stopped.send(true);
    });
    let stopping = |mut on_stop: tokio::sync::watch::Receiver<bool>| async move {
        if on_stop.wait_for(|s| *s).await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    let graceful = {
        let stop = stopping(on_stop.clone());
        async move {
            stop.await;
            sessions.cancel();
        }
    };
    // The peer's address: the metadata's rate limit is per address (its caller has no token yet).
    let app = router.into_make_service_with_connect_info::<std::net::SocketAddr>();
    let serving = axum::serve(listener, app).with_graceful_shutdown(graceful);
    tokio::select! {
        served = serving => served
            .map_err(|e| Failure::Failed(format!("error: the MCP HTTP server stopped: {e}"))),
        _ = async {
            stopping(on_stop).await;
            tokio::time::sleep(Duration::from_secs(3)).await;
        } => Ok(()),
    }
}

/// `401 Unauthorized` with `WWW-Authenticate: Bearer` unless the request carries the token.
async fn require_token(
    axum::extract::State(token): axum::extract::State<Token>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{header, StatusCode};
    use axum::response::IntoResponse;
    let offered = request.headers().get(header::AUTHORIZATION).map(|v| v.as_bytes());
    if token.accepts(offered) {
        return next.run(request).await;
    }
    let challenge = if offered.is_some() {
        r#"Bearer error="invalid_token""#
    } else {
        "Bearer"
    };
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, challenge)],
        "401 Unauthorized: send the server's token as `Authorization: Bearer <token>`\n",
    )
        .into_response()
}

/// A closed session (`DELETE /mcp`) is answered `200 OK`: rmcp says `202 Accepted`, which the
/// Python SDK logs as a failed termination (the spec's clients expect 200 or 204).
async fn session_closed_is_ok(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let delete = request.method() == axum::http::Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == axum::http::StatusCode::ACCEPTED {
        *response.status_mut() = axum::http::StatusCode::OK;
    }
    response
}
