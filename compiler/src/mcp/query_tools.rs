//! Named queries as tools (`surqlc mcp --queries DIR`): one read-only tool per `-- name:` query, its input schema the JSON Schema of its typed parameters, its answer `run_query`'s; a parameter bound to the end user's session (`-- param: customer = $auth.id`) is the session's, never the caller's.
//!
//! The queries are the ones `surqlc build --queries` reads and types ([`crate::codegen::queries`]):
//! one parser, one typing. A call's arguments are checked against the parameters' types and bound
//! as `$parameters` (never spliced into the text), and the query runs through `run_query`'s path
//! ([`crate::runtime::run_named_capped`]: reply gate, validator, data checks, TIMEOUT, row cap;
//! then the caps, the untrusted-data markers, the verdict and the audit line named after the tool).

use super::query_args::{convert, expected, json_schema, unsupported};
use super::state::{text, ExtraTool, State, ToolFuture};
use crate::codegen::queries::shape::RType;
use crate::codegen::queries::Query;
use crate::exit::Failure;
use crate::ir::Schema;
use crate::runtime;
use rmcp::model::{CallToolResult, JsonObject, Tool, ToolAnnotations};
use serde_json::json;
use std::sync::Arc;

/// The names of the built-in tools (and `ask`): a named query may not take one.
pub const BUILT_IN: [&str; 5] = [
    super::tools::SCHEMA,
    super::tools::CHECK_QUERY,
    super::tools::RUN_QUERY,
    super::tools::REMEMBER_EXAMPLE,
    "ask",
];

/// One parameter of a named query's tool.
#[derive(Debug, Clone)]
struct Param {
    name: String,
    ty: RType,
    /// `-- param: NAME = $auth.id`: filled by the end user's session.
    session: bool,
}

/// One named query served as a tool.
#[derive(Debug, Clone)]
pub struct QueryTool {
    tool: Tool,
    text: String,
    params: Vec<Param>,
}

impl QueryTool {
    /// The tool's name (the query's).
    pub fn name(&self) -> &str {
        &self.tool.name
    }

    /// Its entry in `tools/list`.
    pub fn definition(&self) -> &Tool {
        &self.tool
    }

    /// Whether a parameter of it is bound to the end user's session: it is offered only when the
    /// server serves end users (`--as`, `--per-user`).
    pub fn needs_end_user(&self) -> bool {
        self.params.iter().any(|p| p.session)
    }
}

/// An error at the query's `-- name:` line, as the build's diagnostics are written.
fn at_name(query: &Query, message: String) -> Failure {
    let line_text = std::fs::read_to_string(&query.path)
        .ok()
        .and_then(|t| t.lines().nth(query.name_line.saturating_sub(1)).map(str::to_owned))
        .unwrap_or_default();
    let column = line_text
        .find(&format!(" {}", query.name))
        .map_or(1, |at| line_text[..at].chars().count() + 2);
    Failure::BadInput(format!(
        "error: {}:{}:{column}: {message}",
        query.path.display(),
        query.name_line
    ))
}

/// The tools of `queries` (read and typed by the build; its writes left out), or the first query that cannot be one:
/// a name a built-in tool has, a parameter type no JSON argument stands for, a query that is not
/// one SELECT, or a session-bound parameter that is not the end user's record id.
pub fn query_tools(schema: &Schema, queries: &[Query]) -> Result<Vec<QueryTool>, Failure> {
    // The application's writes (`:exec`, a CREATE/UPDATE/... of its own) are no reader's tools.
    queries
        .iter()
        .filter(|q| !is_write(q))
        .map(|q| query_tool(schema, q))
        .collect()
}

/// Whether a named query writes: `:exec`, or a statement that starts with a write's keyword.
fn is_write(query: &Query) -> bool {
    let first = crate::surql::scan::code(&query.text).into_iter().next();
    query.returns == crate::surql::named::Returns::Exec
        || first.is_some_and(|t| {
            ["create", "insert", "update", "upsert", "delete", "relate"]
                .iter()
                .any(|w| t.is_word(w))
        })
}

fn query_tool(schema: &Schema, query: &Query) -> Result<QueryTool, Failure> {
    let name = &query.name;
    if BUILT_IN.contains(&name.as_str()) {
        return Err(at_name(
            query,
            format!("query `{name}` has the name of a built-in tool of surqlc mcp: rename the query"),
        ));
    }
    let Some(shape) = &query.shape else {
        return Err(at_name(
            query,
            format!("query `{name}` was not typed (surqlc's `validate` feature)"),
        ));
    };
    if let Err(why) = runtime::prepare_select(&query.text, std::time::Duration::from_secs(1)) {
        return Err(at_name(
            query,
            format!("query `{name}` cannot be a tool, which runs as `run_query` runs a query: {why}"),
        ));
    }
    let mut params = Vec::new();
    for p in &shape.params {
        if let Some(what) = unsupported(&p.ty) {
            return Err(at_name(
                query,
                format!(
                    "`${}` of query `{name}` is {what}, which no tool argument stands for",
                    p.name
                ),
            ));
        }
        let session = query.params.iter().any(|d| d.name == p.name && d.session.is_some());
        if session {
            check_session_param(schema, query, &p.name, &p.ty)?;
        }
        params.push(Param {
            name: p.name.clone(),
            ty: p.ty.clone(),
            session,
        });
    }
    Ok(QueryTool {
        tool: definition(schema, query, &params),
        text: query.text.clone(),
        params,
    })
}

/// A session-bound parameter must stand for the end user's record id: a link to the scope's end-user table.
fn check_session_param(schema: &Schema, query: &Query, param: &str, ty: &RType) -> Result<(), Failure> {
    let Some(scope) = &schema.settings.scope else {
        return Err(at_name(
            query,
            format!(
                "`${param}` of query `{}` is bound to the end user's session, and the schema declares no scope(end_user = T)",
                query.name
            ),
        ));
    };
    let end_user = schema.table(&scope.end_user).map(|t| t.rust_name.as_str());
    match ty {
        RType::Link(t) if Some(t.as_str()) == end_user => Ok(()),
        _ => Err(at_name(
            query,
            format!(
                "`${param}` of query `{}` is bound to `$auth.id`, the end user's `{}` record id, but the query uses it as {}",
                query.name,
                scope.end_user,
                ty.rust("crate")
            ),
        )),
    }
}

/// The tool's entry: the query's name, its `-- question:` lines as its description, its
/// parameters (those the session fills left out) as its input schema, read-only annotations.
fn definition(schema: &Schema, query: &Query, params: &[Param]) -> Tool {
    let mut properties = serde_json::Map::new();
    let mut required = Vec::new();
    for p in params.iter().filter(|p| !p.session) {
        properties.insert(p.name.clone(), json_schema(schema, &p.ty));
        if !matches!(p.ty, RType::Option(_)) {
            required.push(json!(p.name));
        }
    }
    let mut input = JsonObject::new();
    input.insert("type".into(), json!("object"));
    input.insert("properties".into(), serde_json::Value::Object(properties));
    if !required.is_empty() {
        input.insert("required".into(), serde_json::Value::Array(required));
    }
    input.insert("additionalProperties".into(), json!(false));
    let about = if query.questions.is_empty() {
        format!("The application's named query `{}`.", query.name)
    } else {
        query.questions.join(" ")
    };
    let description = format!("{about} Rows as JSON, capped, as run_query answers.");
    Tool::new(query.name.clone(), description, Arc::new(input)).with_annotations(
        ToolAnnotations::new()
            .read_only(true)
            .idempotent(true)
            .open_world(false),
    )
}

impl QueryTool {
    /// The call's bound variables, or the tool error that says which argument is wrong.
    fn bind(&self, schema: &Schema, arguments: &JsonObject) -> Result<surrealdb::types::Object, String> {
        let name = self.name();
        let takes: Vec<&str> = self
            .params
            .iter()
            .filter(|p| !p.session)
            .map(|p| p.name.as_str())
            .collect();
        let takes = if takes.is_empty() {
            "no arguments".to_owned()
        } else {
            takes.join(", ")
        };
        let mut vars = surrealdb::types::Object::new();
        for key in arguments.keys() {
            match self.params.iter().find(|p| &p.name == key) {
                Some(p) if p.session => {
                    return Err(format!(
                        "the argument `{key}` is the signed-in end user's, filled by their session: call `{name}` without it"
                    ))
                }
                Some(_) => {}
                None => return Err(format!("`{name}` has no argument `{key}`; it takes {takes}")),
            }
        }
        for p in self.params.iter().filter(|p| !p.session) {
            let value = match (arguments.get(&p.name), &p.ty) {
                (None, RType::Option(_)) => surrealdb::types::Value::None,
                (None, ty) => {
                    return Err(format!(
                        "the argument `{}` is missing: it must be {}",
                        p.name,
                        expected(schema, ty)
                    ))
                }
                (Some(arg), ty) => convert(schema, ty, arg)
                    .ok_or_else(|| format!("the argument `{}` must be {}, not {arg}", p.name, expected(schema, ty)))?,
            };
            vars.insert(p.name.clone(), value);
        }
        Ok(vars)
    }

    async fn answer(&self, state: &State, arguments: JsonObject) -> CallToolResult {
        let mut vars = match self.bind(&state.schema, &arguments) {
            Ok(vars) => vars,
            Err(message) => return text(false, message),
        };
        let agent = state.agent();
        if self.needs_end_user() {
            if !state.serves_end_users() {
                return text(
                    false,
                    format!(
                        "`{}` answers for the signed-in end user and this server serves none: start surqlc mcp with --as USER or --per-user",
                        self.name()
                    ),
                );
            }
            let user = match end_user_id(agent.session()).await {
                Ok(user) => user,
                Err(message) => return text(false, message),
            };
            for p in self.params.iter().filter(|p| p.session) {
                vars.insert(p.name.clone(), user.clone());
            }
        }
        let outcome =
            runtime::run_named_capped(&agent, &self.text, vars, state.timeout, &state.schema, state.caps.rows).await;
        super::tools::rows_answer(state, outcome, |reason| format!("nothing ran: {reason}"))
    }
}

/// The signed-in end user's record id, as the session's `$auth` holds it.
async fn end_user_id(session: &crate::db::Db) -> Result<surrealdb::types::Value, String> {
    use surrealdb::types::Value;
    let asked: Result<Value, _> = session
        .query("RETURN $auth")
        .await
        .and_then(|r| r.check())
        .and_then(|mut r| r.take(0));
    match asked {
        Ok(Value::RecordId(id)) => Ok(Value::RecordId(id)),
        Ok(Value::Object(o)) => match o.get("id") {
            Some(Value::RecordId(id)) => Ok(Value::RecordId(id.clone())),
            _ => Err("this session has no end user (`$auth` holds no record id)".into()),
        },
        Ok(_) => Err("this session has no end user (`$auth` is empty)".into()),
        Err(e) => Err(format!("reading the end user of this session failed: {}", e.message())),
    }
}

impl ExtraTool for QueryTool {
    fn tool(&self) -> Tool {
        self.tool.clone()
    }

    fn listed(&self, state: &State) -> bool {
        !self.needs_end_user() || state.serves_end_users()
    }

    fn call<'a>(&'a self, state: &'a State, arguments: JsonObject) -> ToolFuture<'a> {
        Box::pin(self.answer(state, arguments))
    }
}

impl State {
    /// Serves each of `tools` (see [`query_tools`]).
    pub fn with_query_tools(self, tools: Vec<QueryTool>) -> State {
        tools.into_iter().fold(self, State::with_tool)
    }
}
