//! The MCP side: the tool list (names, short descriptions, input schemas, read-only hints), dispatch to `tools`, and the stdio and HTTP transports.
//!
//! Extension points for tools that come later (`ask`, typed named queries): an [`Embedder`]
//! ([`State::with_embedder`]) turns on the examples in `schema`'s answer and pruning by vector,
//! and an [`ExtraTool`] ([`State::with_tool`]) adds a tool to `tools/list` and `tools/call`.

use super::caps::Caps;
use super::tools;
use crate::db::Db;
use crate::ir;
use crate::runtime::Agent;
use crate::session::Failure;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;
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
    /// Its answer to `tools/call` with these arguments.
    fn call<'a>(&'a self, state: &'a State, arguments: JsonObject) -> ToolFuture<'a>;
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
    extra: Vec<Box<dyn ExtraTool>>,
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
        State {
            schema,
            reader,
            agent,
            editor,
            caps,
            timeout,
            embedder: None,
            extra: Vec::new(),
        }
    }

    /// Questions get embedded: `schema` shows the nearest examples, and `remember_example` works.
    pub fn with_embedder(mut self, embedder: Embedder) -> State {
        self.embedder = Some(embedder);
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

    /// The agent's session: what every caller-supplied query runs on.
    pub fn agent(&self) -> &Agent<Any> {
        &self.agent
    }

    /// The session that reads the prompt functions.
    pub fn reader(&self) -> &Db {
        &self.reader
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

/// The MCP server: cheap to clone (HTTP makes one per session), all clones share one [`State`].
#[derive(Clone)]
pub struct Server(Arc<State>);

impl Server {
    pub fn new(state: State) -> Server {
        Server(Arc::new(state))
    }

    /// `tools/list`: the built-in tools, then the extra ones.
    pub fn tools(&self) -> Vec<Tool> {
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
                "Run one read-only SurrealQL SELECT; rows as JSON, capped (a cut is said). A refused query comes back as an error saying what to fix.",
                json!({"query": {"type": "string"}}),
                &["query"],
                read_only(),
            ),
        ];
        if self.0.editor.is_some() {
            tools.push(tool(
                tools::REMEMBER_EXAMPLE,
                "Store a question with the SurrealQL query that answered it correctly, as an example for later questions.",
                json!({"question": {"type": "string"}, "query": {"type": "string"}}),
                &["question", "query"],
                ToolAnnotations::new().read_only(false).destructive(false),
            ));
        }
        tools.extend(self.0.extra.iter().map(|t| t.tool()));
        tools
    }

    /// `tools/call` by name, with the arguments the client sent.
    pub async fn call(&self, name: &str, arguments: JsonObject) -> Option<CallToolResult> {
        let state = &self.0;
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
            tools::REMEMBER_EXAMPLE if state.editor.is_some() => {
                match (text("question"), text("query")) {
                    (Some(question), Some(query)) => {
                        tools::remember_example(state, question, query).await
                    }
                    (None, _) => tools::bad_argument("question", "a string"),
                    (_, None) => tools::bad_argument("query", "a string"),
                }
            }
            // ---- Extension point: `ask` and named-query tools register through State::with_tool. ----
            other => {
                let extra = state.extra.iter().find(|t| t.tool().name == other)?;
                extra.call(state, arguments).await
            }
        })
    }
}

fn read_only() -> ToolAnnotations {
    ToolAnnotations::new().read_only(true)
}

fn tool(
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

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("surqlc", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Answer questions from a SurrealDB database: read `schema` for the question, write one SELECT, fix what `check_query` or `run_query` reports.",
            )
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
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        let (server, name) = (self.clone(), request.name.to_string());
        // A task of its own, so that a panic anywhere below answers this call and not the server.
        let called = tokio::spawn(async move { server.call(&name, arguments).await }).await;
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

/// A tool's answer as one text block.
pub(super) fn text(ok: bool, text: impl Into<String>) -> CallToolResult {
    let content = vec![ContentBlock::text(text.into())];
    if ok {
        CallToolResult::success(content)
    } else {
        CallToolResult::error(content)
    }
}

/// Serves on stdin/stdout until the client closes them. stdout carries the protocol only.
pub(super) async fn serve_stdio(server: Server) -> Result<(), Failure> {
    let running = server
        .serve(rmcp::transport::io::stdio_pipes())
        .await
        .map_err(|e| Failure::Failed(format!("error: MCP start-up over stdio failed: {e}")))?;
    running
        .waiting()
        .await
        .map_err(|e| Failure::Failed(format!("error: the MCP stdio service stopped: {e}")))?;
    Ok(())
}

/// Serves streamable HTTP at `http://ADDR/mcp`, saying the address it bound on stderr.
pub(super) async fn serve_http(server: Server, addr: &str) -> Result<(), Failure> {
    use rmcp::transport::streamable_http_server::{
        session::local::LocalSessionManager, StreamableHttpServerConfig, StreamableHttpService,
    };
    let service: StreamableHttpService<Server, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(server.clone()),
        Default::default(),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| Failure::BadInput(format!("error: cannot listen on {addr}: {e}")))?;
    let bound = listener
        .local_addr()
        .map_err(|e| Failure::Failed(format!("error: cannot listen on {addr}: {e}")))?;
    eprintln!("serving MCP at http://{bound}/mcp");
    axum::serve(listener, router)
        .await
        .map_err(|e| Failure::Failed(format!("error: the MCP HTTP server stopped: {e}")))
}
