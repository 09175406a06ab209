//! The agent's side: signing in as the read-only agent, and running one checked reply on its session.

use crate::ir;
use crate::validate::reply::{self, Runnable};
use surrealdb::types::Value;
use surrealdb::{Connection, Surreal};

/// What the agent's query came to: rows, or text the model can repair its query from.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The statement ran; its rows (a statement that returns one value gives one row), and the
    /// validator's warnings (one line each: a value not present in the data, a LIMIT the runner
    /// added), to hand back with the rows.
    Rows {
        /// The rows, as the engine returned them.
        rows: Vec<Value>,
        /// The validator's warnings, one line each.
        warnings: Vec<String>,
    },
    /// The model replied `-- cannot answer: <reason>`; the reason.
    CannotAnswer(String),
    /// The statement was refused before it ran, or the engine rejected it: the text to send back to the model.
    Rejected(String),
}

impl Outcome {
    /// The rows as JSON, for printing or for handing to another model.
    pub fn rows_json(&self) -> Option<Vec<serde_json::Value>> {
        match self {
            Outcome::Rows { rows, .. } => Some(rows.iter().cloned().map(to_json).collect()),
            _ => None,
        }
    }
}

/// A value as JSON, with decimals as JSON numbers (SurrealDB's own conversion writes them as strings).
///
/// A whole decimal within `i64` becomes an integer; any other decimal the nearest `f64`.
pub fn to_json(value: Value) -> serde_json::Value {
    use surrealdb::types::Number;
    match value {
        Value::Number(Number::Decimal(d)) => {
            let exact = d.normalize();
            if exact.scale() == 0 {
                if let Ok(i) = exact.to_string().parse::<i64>() {
                    return serde_json::Value::from(i);
                }
            }
            exact
                .to_string()
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map_or_else(
                    || serde_json::Value::String(exact.to_string()),
                    serde_json::Value::Number,
                )
        }
        Value::Array(items) => serde_json::Value::Array(items.into_iter().map(to_json).collect()),
        Value::Object(object) => serde_json::Value::Object(object.into_iter().map(|(k, v)| (k, to_json(v))).collect()),
        other => other.into_json_value(),
    }
}

/// Signs a new session on `db`'s connection in as a database-level user (such as the `VIEWER` agent).
///
/// A database user must send its namespace and database with its credentials, and its
/// `DEFINE USER` must set `DURATION FOR SESSION` (surqlc's does) or sign-in fails. The
/// returned handle is a separate session: `db` keeps its own credentials.
pub async fn signin_database_user<C: Connection>(
    db: &Surreal<C>,
    namespace: &str,
    database: &str,
    user: &str,
    password: &str,
) -> Result<Surreal<C>, surrealdb::Error> {
    let agent = db.clone();
    let signed = agent
        .signin(surrealdb::opt::auth::Database {
            namespace: namespace.into(),
            database: database.into(),
            username: user.into(),
            password: password.into(),
        })
        .await;
    use_after_signin(agent, signed, namespace, database, &format!("user `{user}`")).await
}

/// `agent` on `namespace`/`database` once its sign-in gave `signed`. The engine says only that
/// authentication failed, so an error says who (`who`) tried where, and what to check.
pub(super) async fn use_after_signin<C: Connection, T>(
    agent: Surreal<C>,
    signed: Result<T, surrealdb::Error>,
    namespace: &str,
    database: &str,
    who: &str,
) -> Result<Surreal<C>, surrealdb::Error> {
    signed_in_as(agent, signed, namespace, database, who, AGENT_HINT).await
}

/// What to check when an agent (a database or record user with a password) cannot sign in.
const AGENT_HINT: &str = "is it defined there, by the schema applied to this database, with this password? \
     surqlc's agent has the password SURQLC_AGENT_PASSWORD held when build.rs ran";

/// [`use_after_signin`] with `hint`: what to check when the sign-in fails.
pub(super) async fn signed_in_as<C: Connection, T>(
    agent: Surreal<C>,
    signed: Result<T, surrealdb::Error>,
    namespace: &str,
    database: &str,
    who: &str,
    hint: &str,
) -> Result<Surreal<C>, surrealdb::Error> {
    let tried = |e: surrealdb::Error| {
        let message = format!(
            "{who} could not sign in to namespace `{namespace}`, database `{database}`: {} ({hint})",
            e.message()
        );
        surrealdb::Error::from_details(message, e.details().clone()).with_cause(e)
    };
    signed.map_err(tried)?;
    agent.use_ns(namespace).use_db(database).await.map_err(tried)?;
    Ok(agent)
}

/// A session signed in as a database-level user, such as the `VIEWER` agent: what [`run_readonly`] runs on.
///
/// A distinct type so that the owner's handle cannot be passed where the agent's belongs.
///
/// An end user's session ([`crate::runtime::Scope::signin`], [`crate::runtime::scope::authenticate`])
/// is one too, and knows it is: its queries are validated as that user's (`$auth` is their record,
/// side channels over other users' rows are refused).
#[derive(Debug, Clone)]
pub struct Agent<C: Connection> {
    pub(super) session: Surreal<C>,
    pub(super) end_user: bool,
}

impl<C: Connection> Agent<C> {
    /// The team's agent on `session`.
    pub(super) fn team(session: Surreal<C>) -> Self {
        Agent {
            session,
            end_user: false,
        }
    }

    /// One end user's session.
    pub(super) fn end_user(session: Surreal<C>) -> Self {
        Agent {
            session,
            end_user: true,
        }
    }

    /// The agent's session, for anything else it may do (it has the rights of its role only).
    pub fn session(&self) -> &Surreal<C> {
        &self.session
    }

    /// Whether this is one end user's session of the per-user agent.
    pub fn is_end_user(&self) -> bool {
        self.end_user
    }
}

/// Signs a new session on `db`'s connection in as a database-level agent user; see [`signin_database_user`].
pub async fn signin_agent<C: Connection>(
    db: &Surreal<C>,
    namespace: &str,
    database: &str,
    user: &str,
    password: &str,
) -> Result<Agent<C>, surrealdb::Error> {
    signin_database_user(db, namespace, database, user, password)
        .await
        .map(Agent::team)
}

/// Signs a new session on `db`'s connection in as a record-access agent: the record access `user`
/// on `namespace`/`database`, with the parameters `user` and `pass`, as `schema.surql` defines it
/// when the schema hides a table or field from the prompt. The engine then holds the session to
/// table and field `PERMISSIONS`. `db` keeps its own credentials.
pub async fn signin_record_agent<C: Connection>(
    db: &Surreal<C>,
    namespace: &str,
    database: &str,
    user: &str,
    password: &str,
) -> Result<Agent<C>, surrealdb::Error> {
    let agent = db.clone();
    let signed = agent
        .signin(surrealdb::opt::auth::Record {
            namespace: namespace.into(),
            database: database.into(),
            access: user.into(),
            params: serde_json::json!({ "user": user, "pass": password }),
        })
        .await;
    let who = format!("the agent `{user}` (record access `{user}`)");
    use_after_signin(agent, signed, namespace, database, &who)
        .await
        .map(Agent::team)
}

/// Runs one generated `SELECT` on the agent's session, bounded by `timeout`.
///
/// The reply passes the reply gate ([`crate::validate::reply`]): anything but exactly one
/// `SELECT`, or a `SELECT` that sets its own `TIMEOUT`, is refused before it reaches the engine,
/// and the statement that runs is the parsed one rendered back with the runner's `TIMEOUT`, so
/// the engine cannot read the text differently. The engine's error text comes back as
/// [`Outcome::Rejected`], a repair signal for the model; only a failure of the connection
/// itself is an `Err`.
///
/// What the statement may *do* is bounded by the agent's role, not by this check: a `SELECT`
/// can hold subqueries, and only the agent's credential keeps them from writing.
pub async fn run_readonly<C: Connection>(
    agent: &Agent<C>,
    surql: &str,
    timeout: std::time::Duration,
) -> Result<Outcome, surrealdb::Error> {
    match reply::read(surql).into_statement(timeout, None) {
        Ok(Runnable::Select(statement)) => run_prepared(agent, statement, Vec::new(), Default::default()).await,
        Ok(Runnable::CannotAnswer(reason)) => Ok(Outcome::CannotAnswer(reason)),
        Err(message) => Ok(Outcome::Rejected(message)),
    }
}

/// [`run_readonly`], with the query first checked against `schema` by [`crate::validate`]
/// (every table, field path, traversal and compared value) and against the data on the agent's
/// connection (record ids exist, compared values are present): what the generated module's
/// `run_readonly` calls. The reply is parsed once: the statement that runs is the one validated.
///
/// An error is [`Outcome::Rejected`] with the diagnostics rendered one per line, each naming
/// its fix: the repair signal for the model. The schema's `max_rows` bounds the rows: a query
/// without a `LIMIT` gets `LIMIT max_rows` (and a warning saying so), a larger `LIMIT` is
/// refused. Warnings come back with the rows.
pub async fn run_validated<C: Connection>(
    agent: &Agent<C>,
    surql: &str,
    timeout: std::time::Duration,
    schema: &ir::Schema,
) -> Result<Outcome, surrealdb::Error> {
    validated(agent, surql, timeout, schema, None, Verdict::of(schema, agent.end_user)).await
}

/// [`run_validated`] for an answer of at most `cap` rows that says exactly whether rows were
/// left out: the statement reads one probe row more (its LIMIT, the one the runner adds
/// included, becomes at most `cap + 1`), the rows come back cut to `cap`, and the flag says
/// whether the probe row was there. A query whose own LIMIT is `cap` or less reads as written
/// and is never cut.
pub async fn run_validated_capped<C: Connection>(
    agent: &Agent<C>,
    surql: &str,
    timeout: std::time::Duration,
    schema: &ir::Schema,
    cap: usize,
) -> Result<(Outcome, bool), surrealdb::Error> {
    let verdict = Verdict::of(schema, agent.end_user);
    capped(agent, surql, timeout, schema, cap, verdict).await
}

/// [`run_validated_capped`] for one of the application's own named queries (`-- name:` files,
/// already checked and typed by its build), with `vars` bound as its `$parameters` (never spliced
/// into the text): the same reply gate, validator, data checks, TIMEOUT, probe row and cap, under
/// the named queries' verdict ([`crate::validate::Options::for_named_queries`]: `LIMIT $n` is
/// theirs to choose, the cap still cuts the answer) in the agent's session, an end user's
/// included (whose session checks still apply).
pub async fn run_named_capped<C: Connection>(
    agent: &Agent<C>,
    surql: &str,
    vars: surrealdb::types::Object,
    timeout: std::time::Duration,
    schema: &ir::Schema,
    cap: usize,
) -> Result<(Outcome, bool), surrealdb::Error> {
    let mut options = crate::validate::Options::for_named_queries();
    if agent.end_user {
        options = options.in_end_user_session(schema);
    }
    capped(agent, surql, timeout, schema, cap, Verdict { options, vars }).await
}

/// The validator's options a query is judged by, and the variables bound when it runs.
struct Verdict {
    options: crate::validate::Options,
    vars: surrealdb::types::Object,
}

impl Verdict {
    /// The agent's verdict in its session, nothing bound.
    fn of(schema: &ir::Schema, end_user: bool) -> Verdict {
        Verdict {
            options: crate::validate::Options::for_session(schema, end_user),
            vars: surrealdb::types::Object::default(),
        }
    }
}

async fn capped<C: Connection>(
    agent: &Agent<C>,
    surql: &str,
    timeout: std::time::Duration,
    schema: &ir::Schema,
    cap: usize,
    verdict: Verdict,
) -> Result<(Outcome, bool), surrealdb::Error> {
    let cap = u32::try_from(cap).unwrap_or(u32::MAX - 1).min(u32::MAX - 1);
    match validated(agent, surql, timeout, schema, Some(cap), verdict).await? {
        Outcome::Rows { mut rows, warnings } => {
            let more = rows.len() > cap as usize;
            rows.truncate(cap as usize);
            Ok((Outcome::Rows { rows, warnings }, more))
        }
        other => Ok((other, false)),
    }
}

async fn validated<C: Connection>(
    agent: &Agent<C>,
    surql: &str,
    timeout: std::time::Duration,
    schema: &ir::Schema,
    probe: Option<u32>,
    verdict: Verdict,
) -> Result<Outcome, surrealdb::Error> {
    use crate::validate;
    use tracing::Instrument;
    let span = tracing::info_span!(
        "surqlc.validate",
        query = surql,
        end_user = agent.end_user,
        codes = tracing::field::Empty,
        outcome = tracing::field::Empty,
        duration_ms = tracing::field::Empty
    );
    let started = std::time::Instant::now();
    let reply = reply::read(surql);
    let mut report = span.in_scope(|| validate::validate_reply(schema, &reply, &verdict.options));
    if let Some(reason) = report.cannot_answer.take() {
        super::spans::finish(&span, started, "cannot_answer");
        return Ok(Outcome::CannotAnswer(reason));
    }
    if !report.has_errors() {
        validate::data::check(&agent.session, schema, &mut report)
            .instrument(span.clone())
            .await?;
    }
    if report.has_errors() {
        let rejected = Outcome::Rejected(report.render(surql).trim_end().to_owned());
        super::spans::record_outcome(&span, started, &rejected);
        return Ok(rejected);
    }
    super::spans::finish(&span, started, "ok");
    let add_limit = report.missing_limit.then_some(schema.settings.max_rows);
    let statement = match reply.into_probing_statement(timeout, add_limit, probe) {
        Ok(Runnable::Select(statement)) => statement,
        Ok(Runnable::CannotAnswer(reason)) => return Ok(Outcome::CannotAnswer(reason)),
        Err(message) => return Ok(Outcome::Rejected(message)),
    };
    let warnings = report.warnings().map(|d| validate::render_one(d, surql)).collect();
    run_prepared(agent, statement, warnings, verdict.vars).await
}

/// The statement on the agent's session, traced as `surqlc.run` (`query`: the statement as it
/// runs, `rows`, `codes`, `outcome`, `duration_ms`).
async fn run_prepared<C: Connection>(
    agent: &Agent<C>,
    statement: String,
    warnings: Vec<String>,
    vars: surrealdb::types::Object,
) -> Result<Outcome, surrealdb::Error> {
    use tracing::field::Empty;
    use tracing::Instrument;
    let span = tracing::info_span!(
        "surqlc.run",
        query = statement.as_str(),
        rows = Empty,
        codes = Empty,
        outcome = Empty,
        duration_ms = Empty
    );
    let started = std::time::Instant::now();
    let ran = run_statement(agent, statement, warnings, vars)
        .instrument(span.clone())
        .await;
    match &ran {
        Ok(outcome) => super::spans::record_outcome(&span, started, outcome),
        Err(_) => super::spans::finish(&span, started, "error"),
    }
    ran
}

async fn run_statement<C: Connection>(
    agent: &Agent<C>,
    statement: String,
    warnings: Vec<String>,
    vars: surrealdb::types::Object,
) -> Result<Outcome, surrealdb::Error> {
    // The engine's refusal goes back in the validator's shape, so a model (and a script) reads
    // one kind of problem line whoever found it.
    let rejected = |e: surrealdb::Error| {
        if e.is_connection() {
            Err(e)
        } else {
            Ok(Outcome::Rejected(engine_error(e.message())))
        }
    };
    let query = agent.session.query(statement);
    let query = if vars.is_empty() {
        query
    } else {
        query.bind(Value::Object(vars))
    };
    let mut response = match query.await {
        Ok(response) => response,
        Err(e) => return rejected(e),
    };
    match response.take::<Value>(0) {
        Ok(Value::Array(rows)) => Ok(Outcome::Rows {
            rows: rows.into_iter().collect(),
            warnings,
        }),
        Ok(value) => Ok(Outcome::Rows {
            rows: vec![value],
            warnings,
        }),
        Err(e) => rejected(e),
    }
}

/// An engine error as a problem line: `error[SQ9000 EngineError] 1:1: the engine refused the
/// query: MESSAGE; fix`.
pub fn engine_error(message: &str) -> String {
    let class = crate::validate::Class::EngineError;
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    format!(
        "error[{} {class}] 1:1: the engine refused the query: {message}; change the part the engine names and keep to the schema's tables and fields",
        class.code()
    )
}

/// What [`prepare_select`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked {
    /// The one `SELECT`, rendered back by SurrealDB's printer with the runner's `TIMEOUT`.
    Select(String),
    /// A `-- cannot answer: <reason>` reply.
    CannotAnswer(String),
}

/// Passes a model's reply through the reply gate and, if it is one `SELECT` without a `TIMEOUT`
/// of its own, renders it back with `TIMEOUT timeout`. The error is written for the model.
pub fn prepare_select(reply: &str, timeout: std::time::Duration) -> Result<Checked, String> {
    match reply::read(reply).into_statement(timeout, None)? {
        Runnable::Select(statement) => Ok(Checked::Select(statement)),
        Runnable::CannotAnswer(reason) => Ok(Checked::CannotAnswer(reason)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn select(s: &str) -> String {
        match prepare_select(s, Duration::from_secs(5)) {
            Ok(Checked::Select(s)) => s,
            other => panic!("{s:?}: {other:?}"),
        }
    }

    #[test]
    fn one_select_is_rendered_back_with_the_timeout() {
        assert_eq!(
            select("SELECT name FROM customer WHERE name = 'a;b' LIMIT 5;\n-- done\n"),
            "SELECT name FROM customer WHERE name = 'a;b' LIMIT 5 TIMEOUT 5s;"
        );
        // A column called `timeout` is a column; EXPLAIN stays last.
        assert!(select("SELECT timeout FROM s").starts_with("SELECT timeout FROM s TIMEOUT 5s"));
        assert!(select("SELECT * FROM customer EXPLAIN").contains("TIMEOUT 5s EXPLAIN"));
    }

    #[test]
    fn anything_else_is_refused_with_a_reason() {
        for (text, reason) in [
            ("SELECT * FROM a; DELETE customer", "2 statements"),
            ("DELETE customer", "not `DELETE`"),
            ("  ", "no statement"),
            ("SELECT * FROM x TIMEOUT 1h", "TIMEOUT"),
            ("SELECT 'open", "does not parse"),
            // Texts a light lexer would split differently from the engine.
            (
                "SELECT * FROM customer WHERE name = /'/; DELETE customer; SELECT * FROM customer WHERE name = /'/",
                "3 statements",
            ),
            (
                "SELECT * FROM customer --\r; DELETE customer; SELECT * FROM customer\n WHERE true",
                "3 statements",
            ),
            ("SELECT * FROM customer --\u{2028}; DELETE customer", "2 statements"),
        ] {
            let err = prepare_select(text, Duration::from_secs(1)).expect_err(text);
            assert!(err.contains(reason), "{text:?}: {err}");
        }
    }

    proptest::proptest! {
        #[test]
        fn the_checker_never_panics(reply in "(SELECT|select|;|'|\"|`|⟨|⟩|/|\\\\|--|/\\*|\\*/|#|\\(|\\)|\\[|\\]|\\{|\\}|```|\n|\r| |x|é|TIMEOUT|FROM){0,24}") {
            let _ = prepare_select(&reply, Duration::from_secs(1));
        }

        #[test]
        fn any_text_is_checked_without_panicking(reply in "\\PC*") {
            let _ = prepare_select(&reply, Duration::from_secs(1));
        }
    }

    #[test]
    fn a_probing_statement_reads_one_row_past_the_cap_and_keeps_a_smaller_limit() {
        let probing = |reply: &str, add: Option<u32>| match reply::read(reply).into_probing_statement(
            Duration::from_secs(5),
            add,
            Some(10),
        ) {
            Ok(Runnable::Select(s)) => s,
            other => panic!("{reply:?}: {other:?}"),
        };
        // No LIMIT: the one the runner adds (50) is above the cap, so the probe's 11 replaces it.
        assert_eq!(
            probing("SELECT name FROM customer", Some(50)),
            "SELECT name FROM customer LIMIT 11 TIMEOUT 5s;"
        );
        assert_eq!(
            probing("SELECT name FROM customer", None),
            "SELECT name FROM customer LIMIT 11 TIMEOUT 5s;"
        );
        // A LIMIT above the cap reads one past it; START stays.
        assert_eq!(
            probing("SELECT name FROM customer LIMIT 40 START 5", None),
            "SELECT name FROM customer LIMIT 11 START 5 TIMEOUT 5s;"
        );
        // A LIMIT of the cap or less reads as written: nothing can be cut.
        assert_eq!(
            probing("SELECT name FROM customer LIMIT 10", None),
            "SELECT name FROM customer LIMIT 10 TIMEOUT 5s;"
        );
        assert_eq!(
            probing("SELECT name FROM customer LIMIT 3", Some(50)),
            "SELECT name FROM customer LIMIT 3 TIMEOUT 5s;"
        );
        // Without a probe, the statement is the runner's usual one.
        assert_eq!(
            reply::read("SELECT name FROM customer").into_statement(Duration::from_secs(5), Some(50)),
            Ok(Runnable::Select(
                "SELECT name FROM customer LIMIT 50 TIMEOUT 5s;".into()
            ))
        );
    }

    #[test]
    fn a_fenced_reply_is_unwrapped() {
        assert!(select("```surql\nSELECT name FROM customer LIMIT 5;\n```\n")
            .starts_with("SELECT name FROM customer LIMIT 5 TIMEOUT"));
        assert!(select("```\nSELECT * FROM a\n```").starts_with("SELECT * FROM a TIMEOUT"));
    }

    #[test]
    fn a_cannot_answer_reply_is_recognised() {
        assert_eq!(
            prepare_select(
                "-- cannot answer: no stock levels in the schema\n",
                Duration::from_secs(1)
            ),
            Ok(Checked::CannotAnswer("no stock levels in the schema".to_owned()))
        );
        // A comment line followed by a statement is not a refusal to answer.
        assert!(prepare_select("-- cannot answer: x\rDELETE customer", Duration::from_secs(1)).is_err());
    }
}
