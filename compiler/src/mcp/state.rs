//! What the tools share ([`State`]: the schema, the agent's session, the caps) and the extension points: an [`Embedder`] for questions, [`ExtraTool`] for tools that come later (`ask`, typed named queries).

use super::caps::Caps;
use crate::db::Db;
use crate::ir;
use crate::runtime::{Agent, Pruner};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use surrealdb::engine::any::Any;

/// A question's embedding, in the space of the few-shot pool (and of the table embeddings pruning may use).
pub type EmbedFuture = Pin<Box<dyn Future<Output = Result<Vec<f64>, String>> + Send>>;

/// Embeds a question. The agent-loop branch (issue 19) brings an OpenAI-compatible embedder
/// (`SURQLC_MODEL_URL`, `SURQLC_EMBED_MODEL`, `SURQLC_API_KEY`): wrap it as one of these and
/// pass it to [`State::with_embedder`].
pub type Embedder = Arc<dyn Fn(String) -> EmbedFuture + Send + Sync>;

/// A tool's answer, computed on the shared [`State`].
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = CallToolResult> + Send + 'a>>;

/// A tool beyond the built-in four, such as `ask` or a typed named query: listed after them and
/// called by name. Its answer should follow theirs: a refusal is `CallToolResult::error`
/// carrying the text a model can repair from; it runs queries on [`State::agent`] only.
pub trait ExtraTool: Send + Sync + 'static {
    /// Its entry in `tools/list`.
    fn tool(&self) -> Tool;
    /// Whether `tools/list` shows it on this server (a named query bound to the end user's session
    /// is not shown where no end user is served); a call by name still reaches it.
    fn listed(&self, _state: &State) -> bool {
        true
    }
    /// Its answer to `tools/call` with these arguments.
    fn call<'a>(&'a self, state: &'a State, arguments: JsonObject) -> ToolFuture<'a>;
}

tokio::task_local! {
    /// The end user's session for the call running in this task (`--per-user` over HTTP): the
    /// request's bearer token opened it, and it replaces the agent and the reader for this call.
    static USER_SESSION: Agent<Any>;
}

/// Runs `call` with `user` (if any) as the session every tool uses ([`State::agent`], [`State::reader`]).
pub(super) async fn as_user<F: Future>(user: Option<Agent<Any>>, call: F) -> F::Output {
    match user {
        Some(user) => USER_SESSION.scope(user, call).await,
        None => call.await,
    }
}

/// What the tools share: the schema, the sessions, the caps.
pub struct State {
    pub(super) schema: ir::Schema,
    /// Reads the prompt functions: the owner on the embedded engine, the given user on a server, else the agent.
    pub(super) reader: Db,
    /// Runs and checks every query a caller sends: the VIEWER or record-access agent, nothing stronger.
    pub(super) agent: Agent<Any>,
    /// Stores examples; `Some` only with `--allow-remember`.
    pub(super) editor: Option<Db>,
    pub(super) caps: Caps,
    pub(super) timeout: Duration,
    pub(super) embedder: Option<Embedder>,
    /// The pruning facts, read once at start (`None` without `prune(...)`): pruned prompts and
    /// `schema` choose their tables in the server instead of in the database's closures.
    pub(super) pruner: Option<Pruner>,
    pub(super) extra: Vec<Box<dyn ExtraTool>>,
    /// `--per-user`: each HTTP request's bearer token is an end user's (a scope token), and the
    /// calls run in that user's session, on this namespace and database.
    pub(super) per_user: Option<(String, String)>,
    /// A server endpoint and its `host:port`: probed before each call (`reach`), so a call while
    /// the server is down fails at once. `None` on the embedded engine.
    pub(super) probe: Option<(String, String)>,
    /// What the model is told when it answers for one end user (the schema's scope rules, the
    /// prompt's `fn::scope_rules()`), worked out once; `None` without a scope.
    scope_rules: Option<String>,
    /// The audit log, the metrics and the rate limits (`super::observe`).
    pub(super) observer: super::observe::Observer,
    /// `--per-user` with the team's identity provider (`--jwks`, `scope(jwks = ...)`): its JWTs
    /// open end users' sessions too.
    pub(super) idp: Option<Arc<super::oidc::Idp>>,
}

impl State {
    pub fn new(
        schema: ir::Schema,
        reader: Db,
        agent: Agent<Any>,
        editor: Option<Db>,
        caps: Caps,
        timeout: Duration,
    ) -> State {
        let scope_rules = crate::access::Access::of(&schema).end_user_rules(&schema);
        State {
            scope_rules,
            schema,
            reader,
            agent,
            editor,
            caps,
            timeout,
            embedder: None,
            pruner: None,
            extra: Vec::new(),
            per_user: None,
            probe: None,
            observer: Default::default(),
            idp: None,
        }
    }

    /// Watches the calls with `observer` (audit log, metrics, rate limits).
    pub fn with_observer(mut self, observer: super::observe::Observer) -> State {
        self.observer = observer;
        self
    }

    /// Probes `endpoint` at `address` before each call (see [`super::reach`]).
    pub(super) fn probing(mut self, endpoint: &str, address: String) -> State {
        self.probe = Some((endpoint.to_owned(), address));
        self
    }

    /// Every call runs in the session the request's bearer token opens (a token the application
    /// signed for one end user), on `namespace`/`database`; a request without one gets no tools.
    /// The pruner is dropped: its value index was read by the owner, and the database's own
    /// pruned prompt, run in the user's session, chooses from what the user may read.
    pub fn per_user(mut self, namespace: &str, database: &str) -> State {
        self.per_user = Some((namespace.to_owned(), database.to_owned()));
        self.pruner = None;
        self
    }

    /// `--per-user` sessions are opened from the identity provider's JWTs too.
    pub(super) fn with_idp(mut self, idp: Arc<super::oidc::Idp>) -> State {
        self.idp = Some(idp);
        self
    }

    /// The namespace and database of `--per-user` sessions, if the server serves one user per request.
    pub fn per_user_target(&self) -> Option<(&str, &str)> {
        self.per_user.as_ref().map(|(ns, db)| (ns.as_str(), db.as_str()))
    }

    /// Questions get embedded: `schema` shows the nearest examples, and `remember_example` works.
    pub fn with_embedder(mut self, embedder: Embedder) -> State {
        self.embedder = Some(embedder);
        self
    }

    /// Chooses pruned prompts' tables with `pruner` (read with [`Pruner::load`] on the reader's database).
    pub fn with_pruner(mut self, pruner: Option<Pruner>) -> State {
        self.pruner = pruner;
        self
    }

    /// Adds a tool (see [`ExtraTool`]). Its name must not be one of the built-in ones.
    pub fn with_tool(mut self, tool: impl ExtraTool) -> State {
        self.extra.push(Box::new(tool));
        self
    }

    pub fn schema(&self) -> &ir::Schema {
        &self.schema
    }

    /// Whether the calls run in end users' sessions (`--as USER` or `--per-user`).
    pub fn serves_end_users(&self) -> bool {
        self.per_user.is_some() || self.agent.is_end_user()
    }

    /// What the model is told about the one user it answers for, when it serves end users.
    pub fn end_user_rules(&self) -> Option<&str> {
        if !self.serves_end_users() {
            return None;
        }
        self.scope_rules.as_deref()
    }

    /// The agent's session: what every caller-supplied query runs on (the end user's, in a
    /// `--per-user` call).
    pub fn agent(&self) -> Agent<Any> {
        USER_SESSION
            .try_with(Agent::clone)
            .unwrap_or_else(|_| self.agent.clone())
    }

    /// The session that reads the prompt functions (the end user's, in a `--per-user` call).
    pub fn reader(&self) -> Db {
        USER_SESSION
            .try_with(|user| user.session().clone())
            .unwrap_or_else(|_| self.reader.clone())
    }

    pub fn caps(&self) -> Caps {
        self.caps
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The question's embedding, `None` without an embedder; an error names the cause.
    pub async fn embed(&self, question: &str) -> Option<Result<Vec<f64>, String>> {
        let embed = self.embedder.as_ref()?;
        Some(embed(question.to_owned()).await.and_then(|v| {
            let dimension = self.schema.settings.examples.dimension as usize;
            if v.len() == dimension {
                Ok(v)
            } else {
                Err(format!(
                    "the embedding model returned {} values, but the schema's examples(dimension = {dimension}) needs {dimension}",
                    v.len()
                ))
            }
        }))
    }
}

/// A tool's answer as one text block: a success, or a tool error (`isError`).
pub fn text(ok: bool, text: impl Into<String>) -> CallToolResult {
    let content = vec![ContentBlock::text(text.into())];
    if ok {
        CallToolResult::success(content)
    } else {
        CallToolResult::error(content)
    }
}
