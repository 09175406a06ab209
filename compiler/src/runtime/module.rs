//! What every generated module shares, written once: applying the schema, drift, the prompt functions, the agent's sign-in, the validator and the guarded runner, generic over the constants a generated module states in its [`SchemaModule`] impl.
//!
//! A generated `schema.rs` holds only what differs per schema (its constants, its IR, the table
//! modules) and one-line wrappers with the names applications call (`db::run_readonly(...)`),
//! as prost's generated messages lean on `prost::Message`.

use super::{Agent, Example, Outcome, Record, RecordId, Table};
use crate::ir;
use surrealdb::method::Query;
use surrealdb::{Connection, Error, Surreal};

/// The names a generated table module imports, as one glob (it uses every one of the first line).
pub mod prelude {
    pub use super::super::module as m;
    pub use super::super::{Link, Nearest, Record, Scored, Table};
    // What the write helpers and input structs name (a view's module has none of them).
    pub use super::super::{writes as w, RelationEnds, TableField};
    pub use surrealdb::{Connection, Error, Surreal};
    /// `Result` with surrealdb's `Error`.
    pub type Result<T, E = Error> = std::result::Result<T, E>;
    /// A connection to the database.
    pub type Db<C> = Surreal<C>;
    /// Rows of `T` with their ids.
    pub type Rows<T> = Result<Vec<Record<T>>>;
    /// At most one row of `T` with its id.
    pub type One<T> = Result<Option<Record<T>>>;
    /// The key type of table `T`'s record ids.
    pub type Key<T> = <T as Table>::Key;
}

/// A generated module's constants: `schema.rs` implements it on its `Schema` type.
pub trait SchemaModule {
    /// The schema as `surreal import` takes it (`SCHEMA_SURQL`).
    const SCHEMA_SURQL: &'static str;
    /// The agent's name (`AGENT_USER`).
    const AGENT_USER: &'static str;
    /// Whether `SCHEMA_SURQL` defines the agent (the password was set at build time).
    const AGENT_DEFINED: bool;
    /// Whether the agent is a record user bound by `PERMISSIONS` (the schema hides something),
    /// rather than a database `VIEWER`.
    const RECORD_ACCESS: bool;
    /// The environment variable the agent's password came from at build time.
    const PASSWORD_ENV: &'static str;
    /// The `TIMEOUT` the runner adds to every generated query.
    const QUERY_TIMEOUT: std::time::Duration;
    /// The schema as surqlc's IR.
    fn schema_ir() -> &'static ir::Schema;
}

/// Runs the schema file on `db`. Every statement is `OVERWRITE`, so applying it twice is safe.
pub async fn apply_schema<M: SchemaModule, C: Connection>(db: &Surreal<C>) -> Result<(), Error> {
    db.query(M::SCHEMA_SURQL).await?.check()?;
    Ok(())
}

/// How `db`'s definitions differ from the schema file; see [`crate::drift::check_drift`].
pub async fn check_drift<M: SchemaModule, C: Connection>(db: &Surreal<C>) -> Result<crate::drift::Drift, Error> {
    crate::drift::check_drift(db, M::SCHEMA_SURQL).await
}

/// The string a `RETURN fn::...` query gives (empty when it gives none).
pub(crate) async fn text<C: Connection>(query: Query<'_, C>) -> Result<String, Error> {
    let value: Option<String> = query.await?.check()?.take(0)?;
    Ok(value.unwrap_or_default())
}

/// `fn::schema_context()`: the `DEFINE` statements of the exposed tables, as cached when the schema was last applied.
pub async fn schema_context<C: Connection>(db: &Surreal<C>) -> Result<String, Error> {
    text(db.query("RETURN fn::schema_context()")).await
}

/// `fn::value_hints()`: the values present in the low-cardinality fields, one line per field.
pub async fn value_hints<C: Connection>(db: &Surreal<C>) -> Result<String, Error> {
    text(db.query("RETURN fn::value_hints()")).await
}

/// `fn::similar_examples(qvec)`: the pooled examples nearest to the question's embedding, nearest first.
pub async fn similar_examples<C: Connection>(db: &Surreal<C>, qvec: &[f64]) -> Result<Vec<Example>, Error> {
    db.query("RETURN fn::similar_examples($qvec, NONE)")
        .bind(("qvec", qvec.to_vec()))
        .await?
        .check()?
        .take(0)
}

/// `fn::example_context(qvec)`: the nearest examples as prompt text.
pub async fn example_context<C: Connection>(db: &Surreal<C>, qvec: &[f64]) -> Result<String, Error> {
    examples_for(db, None, Some(qvec)).await
}

/// `fn::example_context(qvec, question)`: the examples for a question as prompt text: by its words
/// (BM25 over the pool's questions) without an embedding, fused with the nearest by reciprocal rank
/// with one; by the embedding alone without a question.
pub async fn examples_for<C: Connection>(
    db: &Surreal<C>,
    question: Option<&str>,
    qvec: Option<&[f64]>,
) -> Result<String, Error> {
    text(
        db.query("RETURN fn::example_context($qvec, $question)")
            .bind(("qvec", qvec.map(<[f64]>::to_vec)))
            .bind(("question", question.map(str::to_owned))),
    )
    .await
}

/// `fn::nl2surql_prompt(question, qvec)`: the whole prompt for one question.
pub async fn nl2surql_prompt<C: Connection>(db: &Surreal<C>, question: &str, qvec: &[f64]) -> Result<String, Error> {
    prompt_function(db, "fn::nl2surql_prompt", question, Some(qvec)).await
}

/// A prompt function of the schema (`fn::nl2surql_prompt`, `fn::nl2surql_prompt_pruned`) for one
/// question: the one place that sends `RETURN fn::nl2surql_prompt(...)` (the generated
/// `nl2surql_prompt`, `ask::prompt` and `schema_db`'s prompts all come here). Without `qvec` the
/// examples are chosen by the question's words.
pub(crate) async fn prompt_function<C: Connection>(
    db: &Surreal<C>,
    function: &str,
    question: &str,
    qvec: Option<&[f64]>,
) -> Result<String, Error> {
    text(prompt_query(
        db,
        &format!("RETURN {}", prompt_call(function)),
        question,
        qvec,
    ))
    .await
}

/// A prompt function's call on the bound `$question` and `$qvec`.
fn prompt_call(function: &str) -> String {
    format!("{function}($question, $qvec)")
}

/// `statement` with `$question` and `$qvec` bound.
fn prompt_query<'a, C: Connection>(
    db: &'a Surreal<C>,
    statement: &str,
    question: &str,
    qvec: Option<&[f64]>,
) -> Query<'a, C> {
    db.query(statement.to_owned())
        .bind(("question", question.to_owned()))
        .bind(("qvec", qvec.map(<[f64]>::to_vec)))
}

/// `fn::remember_example(question, surql, qvec)`: stores an accepted query as a few-shot example
/// and returns its id. The query is validated first; one with an error is refused, so a silent
/// failure never becomes an example. Call it on an EDITOR or OWNER connection.
pub async fn remember_example<M: SchemaModule, C: Connection>(
    db: &Surreal<C>,
    question: &str,
    surql: &str,
    qvec: &[f64],
) -> Result<RecordId, Error> {
    // A query that fails validation would teach the model its mistake: refuse it.
    let report = validate::<M>(surql);
    if report.has_errors() || report.cannot_answer.is_some() {
        return Err(Error::validation(
            format!("not a valid example query:\n{}", report.render(surql).trim_end()),
            None,
        ));
    }
    let id: Option<RecordId> = db
        .query("RETURN fn::remember_example($question, $surql, $qvec).id")
        .bind(("question", question.to_owned()))
        .bind(("surql", surql.to_owned()))
        .bind(("qvec", qvec.to_vec()))
        .await?
        .check()?
        .take(0)?;
    id.ok_or_else(|| Error::internal("fn::remember_example returned no record".to_owned()))
}

/// Signs a new session on `db`'s connection in as the module's agent (a record user or a
/// `VIEWER`, as the schema needs); an error saying so when this build defines no agent.
pub async fn agent_signin<M: SchemaModule, C: Connection>(
    db: &Surreal<C>,
    namespace: &str,
    database: &str,
    password: &str,
) -> Result<Agent<C>, Error> {
    if !M::AGENT_DEFINED {
        return Err(Error::configuration(
            format!(
                "schema.surql defines no agent user: {} was not set when it was built; set it and rebuild",
                M::PASSWORD_ENV
            ),
            None::<surrealdb::types::ConfigurationError>,
        ));
    }
    if M::RECORD_ACCESS {
        super::signin_record_agent(db, namespace, database, M::AGENT_USER, password).await
    } else {
        super::signin_agent(db, namespace, database, M::AGENT_USER, password).await
    }
}

/// Signs a new session on `db`'s connection in as one end user of the module's per-user agent
/// (`scope(end_user = T)`), with a token signed by the application's scope `key` (the one the
/// schema was built with, `SURQLC_SCOPE_KEY`): what [`run_readonly`] and
/// [`crate::runtime::Asker`] then run on, reading only that user's rows. `db` keeps its session.
pub async fn scope_signin<M: SchemaModule, T: Table, C: Connection>(
    db: &Surreal<C>,
    namespace: &str,
    database: &str,
    user: &super::Link<T>,
    key: &str,
) -> Result<Agent<C>, Error> {
    super::Scope::of::<M, T>(namespace, database, user)?
        .signin(db, key)
        .await
}

/// Checks a query against the module's schema without a database ([`crate::validate`]).
pub fn validate<M: SchemaModule>(surql: &str) -> crate::validate::Report {
    crate::validate::validate(M::schema_ir(), surql)
}

/// Runs one generated `SELECT` on the agent's session with the module's timeout, validated and
/// data-checked first ([`super::run_validated`]).
pub async fn run_readonly<M: SchemaModule, C: Connection>(agent: &Agent<C>, surql: &str) -> Result<Outcome, Error> {
    super::run_validated(agent, surql, M::QUERY_TIMEOUT, M::schema_ir()).await
}

/// Up to `limit` rows of a table with their ids (`surql` binds `$limit`).
pub async fn select<T: Table, C: Connection>(
    db: &Surreal<C>,
    surql: &'static str,
    limit: u32,
) -> Result<Vec<Record<T>>, Error> {
    db.query(surql).bind(("limit", limit)).await?.check()?.take(0)
}

/// The rows a generated traversal from record `id` reaches (`surql` binds `$id`).
pub async fn traverse<T: Table, F: Table, C: Connection>(
    db: &Surreal<C>,
    surql: &'static str,
    id: &super::Link<F>,
) -> Result<Vec<Record<T>>, Error> {
    db.query(surql).bind(("id", id.record_id())).await?.check()?.take(0)
}
