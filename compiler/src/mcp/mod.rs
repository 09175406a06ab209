//! `surqlc mcp`: the grounded agent's tools (`schema`, `check_query`, `run_query`, `remember_example`) served over MCP (rmcp) on stdio or streamable HTTP.
//!
//! Start-up ([`start`](crate::mcp::start)) opens the database and signs the agent in; [`State`](crate::mcp::State) is what the tools
//! share; [`Server`](crate::mcp::Server) answers the protocol; `tools` does each tool's work; `caps` cuts the rows to size; `untrusted` wraps them; `costs` counts what the tools and the wrapper cost; `query_tools` serves the application's named queries as tools. The server holds the
//! agent's session for everything a caller's query touches, and a stronger one only to read
//! the prompt functions (and, with `--allow-remember`, to store examples).

mod audit_log;
mod auth;
mod caps;
pub mod costs;
mod metrics;
mod observe;
mod oidc;
mod ops;
mod query_args;
pub mod query_tools;
mod rate;
mod reach;
mod resource;
mod server;
mod state;
mod sync_watch;
mod tools;
mod untrusted;
mod users;

pub use audit_log::{AuditTarget, Record as AuditRecord};
pub use auth::{Token, TOKEN_ENV};
pub use caps::Caps;
pub use metrics::{
    MetricName, Metrics, MetricsSink, BUCKETS as DURATION_BUCKETS, CALL_DURATION, REFUSALS, SESSIONS, TOOL_CALLS,
};
pub use observe::{ObserveOptions, Observer};
pub use query_tools::{query_tools, QueryTool};
pub use rate::RateLimit;
pub use server::Server;
#[cfg(feature = "model")]
mod ask_tool;
pub use state::{text, EmbedFuture, Embedder, ExtraTool, State, ToolFuture};
pub use untrusted::{
    structured_data as untrusted_structured, unwrap as untrusted_data, NOTE as UNTRUSTED_NOTE,
    NOTE_KEY as UNTRUSTED_NOTE_KEY, STANDING as STANDING_INSTRUCTION,
};

use crate::codegen::builder::Output;
use crate::db::{self, Target};
use crate::exit::Failure;
use crate::schema_db;
use std::path::PathBuf;
use std::time::Duration;

/// What `surqlc mcp` was asked to serve, and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// Where the data lives: `mem://` (the embedded engine, loaded at start) or a `ws://` server.
    pub target: Target,
    /// A SurrealQL data file the embedded engine loads after the schema.
    pub seed: Option<PathBuf>,
    /// Serve streamable HTTP at `http://ADDR/mcp` instead of stdio.
    pub http: Option<String>,
    /// Offer `remember_example` (an EDITOR or OWNER connection stores accepted examples).
    pub allow_remember: bool,
    /// The row and byte caps of `run_query`'s answer.
    pub caps: Caps,
    /// The TIMEOUT every `run_query` statement runs with.
    pub timeout: Duration,
    /// The bearer token every HTTP request must carry (required off loopback).
    pub token: Option<Token>,
    /// `Host` names accepted besides the defaults ([`Transport::bind`]).
    pub allowed_hosts: Vec<String>,
    /// `--as USER`: serve one end user (the schema's per-user agent): the end user's record id
    /// and the scope key the schema was built with.
    pub as_user: Option<(String, String)>,
    /// `--per-user` (HTTP): each request's bearer token is an end user's token, and its calls
    /// run in that user's session.
    pub per_user: bool,
    /// The audit log, the metrics and the rate limits (issue 40).
    pub observe: ObserveOptions,
    /// With `per_user`: the team's identity provider, whose JWTs open end users' sessions too.
    pub identity_provider: Option<IdentityProvider>,
}

/// `--per-user`'s identity provider (`scope(jwks = ...)` or `--jwks`): its JWTs are verified against
/// its JWKS, and each verified user's session is opened with a token signed with the scope key.
#[derive(Clone)]
pub struct IdentityProvider {
    /// The JWKS, issuer, audience and user claim.
    pub provider: crate::ir::Oidc,
    /// The scope key the schema was built with (`SURQLC_SCOPE_KEY`).
    pub scope_key: String,
    /// `--public-url`: the MCP endpoint's URL as clients reach it, the protected resource's
    /// identifier (RFC 8707/9728) [default: `http://ADDR/mcp`].
    pub public_url: Option<String>,
    /// `--scope`: scopes every provider token must grant (its `scope` or `scp` claim).
    pub scopes: Vec<String>,
}

impl std::fmt::Debug for IdentityProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdentityProvider")
            .field("provider", &self.provider)
            .field("scope_key", &"<redacted>")
            .field("public_url", &self.public_url)
            .field("scopes", &self.scopes)
            .finish()
    }
}

impl Options {
    /// Whether the target is the embedded engine (everything is loaded at start, as owner).
    pub fn embedded(&self) -> bool {
        crate::db::is_embedded(&self.target.endpoint)
    }
}

/// Opens the database, loads or checks the schema, signs the agent in: the state the tools share.
///
/// `output` must have been generated with `password` as the agent's password.
pub async fn start(output: &Output, password: &str, options: &Options) -> Result<State, Failure> {
    let target = &options.target;
    let (conn, reader, editor) = if options.embedded() {
        // The embedded engine starts empty: apply the schema and the data as its owner.
        let conn = schema_db::open(output, target).await?;
        if let Some(seed) = &options.seed {
            schema_db::load_file(&conn, seed).await?;
        }
        let editor = options.allow_remember.then(|| conn.clone());
        (conn.clone(), Some(conn), editor)
    } else {
        if options.seed.is_some() {
            return Err(Failure::BadInput(
                "error: --seed loads the embedded engine; a server keeps its own data".into(),
            ));
        }
        if options.allow_remember && target.root.is_none() {
            return Err(Failure::BadInput(
                "error: --allow-remember on a server needs --user/--pass of an EDITOR or OWNER user".into(),
            ));
        }
        let conn = db::connect(target)
            .await
            .map_err(|e| Failure::BadInput(format!("error: cannot connect to {}: {e}", target.endpoint)))?;
        // Without credentials of its own, the server reads the prompt functions as the agent.
        let privileged = target.root.is_some().then(|| conn.clone());
        let editor = if options.allow_remember {
            privileged.clone()
        } else {
            None
        };
        (conn, privileged, editor)
    };
    let (agent, reader) = match &options.as_user {
        // One end user: the prompt, its hints and examples, and every query in their session.
        Some((user, key)) => {
            let agent = schema_db::signin_as(&conn, &output.schema, target, key, user).await?;
            let reader = agent.session().clone();
            (agent, reader)
        }
        None => {
            let agent = schema_db::signin_agent(&conn, &output.schema, target, password).await?;
            let reader = reader.unwrap_or_else(|| agent.session().clone());
            (agent, reader)
        }
    };
    let drift = if options.embedded() {
        None
    } else {
        // Read on the reader: root's session when --user/--pass were given, else the agent's (a
        // VIEWER may run INFO; a record user may not, and the warning says the check was not made).
        watch_sync(output, &target.endpoint, &reader).await
    };
    if options.per_user && output.schema.settings.scope.is_none() {
        return Err(Failure::BadInput("error: --per-user serves the schema's per-user agent, and this schema declares none; add scope(end_user = T) to its Schema item".into()));
    }
    // Read once: every pruned prompt then chooses its tables here, in a few milliseconds. A
    // database whose facts cannot be read is answered by its own functions, which choose the same.
    let pruner = crate::runtime::Pruner::load(&reader).await.unwrap_or(None);
    let state = State::new(
        output.schema.clone(),
        reader,
        agent,
        editor,
        options.caps,
        options.timeout,
    )
    .with_pruner(pruner)
    .with_observer(
        Observer::new(&options.observe, options.as_user.as_ref().map(|(user, _)| user.clone())).with_drift(drift),
    );
    let state = if options.per_user {
        state.per_user(&target.namespace, &target.database)
    } else {
        state
    };
    let state = match &options.identity_provider {
        Some(idp) => state.with_idp(identity_provider(output, idp, options.per_user).await?),
        None => state,
    };
    let state = match reach::address(&target.endpoint) {
        Some(address) => state.probing(&target.endpoint, address),
        None => state,
    };
    // A configured OpenAI-compatible model (SURQLC_MODEL_URL, SURQLC_MODEL, SURQLC_EMBED_MODEL,
    // SURQLC_API_KEY) adds `ask`; its embeddings turn on the examples in `schema` and `remember_example`.
    #[cfg(feature = "model")]
    let state = {
        use crate::runtime::openai::{Config, OpenAi};
        let bad = |e: crate::runtime::ModelError| Failure::BadInput(format!("error: {e}"));
        match Config::from_env().map_err(bad)? {
            None => state,
            Some(mut config) => {
                config.dimension = Some(output.schema.settings.examples.dimension as usize);
                let client = std::sync::Arc::new(OpenAi::new(config).map_err(bad)?);
                let state = if client.embeds() {
                    state.with_embedder(ask_tool::embedder(client.clone()))
                } else {
                    state
                };
                state.with_tool(ask_tool::AskTool::new(client))
            }
        }
    };
    Ok(state)
}

/// The identity provider `--per-user` verifies JWTs with; its key set fetched once now, so that a
/// wrong address is said at start (a provider that does not answer yet is a warning: its tokens
/// are answered 503 until it does).
async fn identity_provider(
    output: &Output,
    idp: &IdentityProvider,
    per_user: bool,
) -> Result<std::sync::Arc<oidc::Idp>, Failure> {
    let scope = match &output.schema.settings.scope {
        Some(scope) if per_user => scope.clone(),
        _ => {
            return Err(Failure::BadInput(
                "error: an identity provider (--jwks) serves end users over HTTP: add --per-user (and scope(end_user = T) to the schema)".into(),
            ))
        }
    };
    // A public URL no client could use is said now, not at the first request.
    let unbound = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    resource::Resource::new(idp.public_url.as_deref(), unbound, "", &idp.scopes, "")
        .map_err(|e| Failure::BadInput(format!("error: {e}")))?;
    let provider = oidc::Provider::new(idp.provider.clone(), &scope.end_user)
        .map_err(|e| Failure::BadInput(format!("error: the identity provider: {e}")))?;
    match provider.prefetch().await {
        Ok(n) => eprintln!(
            "identity provider {}: {n} key{} from its JWKS; its tokens' `{}` names a {}",
            idp.provider.issuer,
            if n == 1 { "" } else { "s" },
            idp.provider.user_claim,
            scope.end_user
        ),
        Err(e) => eprintln!("warning: the identity provider's JWKS: {e}; its tokens are answered 503 until it answers"),
    }
    Ok(std::sync::Arc::new(oidc::Idp {
        provider,
        scope,
        key: idp.scope_key.clone(),
        public_url: idp.public_url.clone(),
        scopes: idp.scopes.clone(),
    }))
}

/// The schema's definitions (applied to an empty embedded database) watched against the server's,
/// read on `conn`: what differs is said on stderr now and by `/readyz` until it is fixed.
async fn watch_sync(output: &Output, endpoint: &str, conn: &crate::db::Db) -> Option<sync_watch::SyncWatch> {
    match crate::drift::embedded_definitions(&output.schema_surql).await {
        Ok(expected) => sync_watch::SyncWatch::start(expected, conn.clone(), endpoint).await,
        Err(e) => {
            eprintln!("warning: drift not checked: the embedded database rejected the generated schema: {e}");
            None
        }
    }
}

/// Where `surqlc mcp` answers: stdin/stdout, or a TCP listener bound before the database loads,
/// so that a client connecting early waits in the listener's queue instead of being refused.
pub enum Transport {
    Stdio,
    Http(HttpListener),
}

/// A bound HTTP listener and who may use it.
pub struct HttpListener {
    listener: tokio::net::TcpListener,
    token: Option<Token>,
    allowed_hosts: Vec<String>,
    /// `--metrics ADDR`'s listener.
    metrics: Option<tokio::net::TcpListener>,
}

impl Transport {
    /// Binds `options.http`'s address (stdio when `None`). An address that cannot be bound, or
    /// one reachable from other machines without `options.token`, is bad input. The `Host`
    /// names accepted: the loopback ones, the bound address when it is another one, and
    /// `options.allowed_hosts`; any, on an unspecified address (`0.0.0.0`) without `allowed_hosts`.
    pub async fn bind(options: &Options) -> Result<Transport, Failure> {
        let Some(addr) = options.http.as_deref() else {
            return Ok(Transport::Stdio);
        };
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Failure::BadInput(format!("error: cannot listen on {addr}: {e}")))?;
        let bound = listener
            .local_addr()
            .map_err(|e| Failure::Failed(format!("error: cannot read the listening address: {e}")))?;
        // With --per-user every request carries its user's token, checked by the engine.
        if !options.per_user {
            auth::check(bound, options.token.as_ref())?;
        }
        let metrics = match &options.observe.metrics {
            Some(addr) => Some(ops::bind_metrics(addr).await?),
            None => None,
        };
        Ok(Transport::Http(HttpListener {
            listener,
            token: options.token.clone(),
            allowed_hosts: auth::allowed_hosts(bound, &options.allowed_hosts),
            metrics,
        }))
    }

    /// `http://ADDR/mcp` for a listener (the port the system chose for `:0`), `None` on stdio.
    pub fn url(&self) -> Option<String> {
        match self {
            Transport::Stdio => None,
            Transport::Http(http) => http.listener.local_addr().ok().map(|a| format!("http://{a}/mcp")),
        }
    }
}

/// Serves `state` as `options` say: on stdio until the client closes it, or on streamable HTTP at `ADDR/mcp`.
pub async fn serve(state: State, options: &Options) -> Result<(), Failure> {
    serve_on(state, Transport::bind(options).await?).await
}

/// Serves `state` on a transport bound earlier ([`Transport::bind`]).
pub async fn serve_on(state: State, transport: Transport) -> Result<(), Failure> {
    let server = Server::new(state);
    match transport {
        Transport::Stdio => server::serve_stdio(server).await,
        Transport::Http(http) => {
            if let Some(metrics) = http.metrics {
                ops::serve_metrics(metrics, server.state());
            }
            server::serve_http(server, http.listener, http.token, http.allowed_hosts).await
        }
    }
}
