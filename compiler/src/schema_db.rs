//! A database with the compiled schema applied, for the commands that run one (check, prompt, audit, ask, mcp): open it, load data, sign the agent in, ask for the prompt and its sections.

use crate::codegen::builder::Output;
use crate::codegen::emit::PromptParts;
use crate::db::{self, Db, Target};
use crate::exit::{failed, read_input, Failure};
use std::path::Path;

/// Connects to `target` (namespace and database selected), changing nothing.
pub async fn connect(target: &Target) -> Result<Db, Failure> {
    db::connect(target)
        .await
        .map_err(failed(&format!("cannot connect to {}", target.endpoint)))
}

/// Connects to `target` and applies the compiled schema.
pub async fn open(output: &Output, target: &Target) -> Result<Db, Failure> {
    let conn = connect(target).await?;
    db::execute(&conn, &output.schema_surql)
        .await
        .map_err(failed("the database rejected the generated schema"))?;
    Ok(conn)
}

/// A fresh embedded database with the compiled schema applied.
pub async fn open_embedded(output: &Output) -> Result<Db, Failure> {
    let target = Target {
        database: output.schema.name.clone(),
        ..Target::default()
    };
    open(output, &target).await
}

/// Runs the SurrealQL file at `path` (rows, few-shot examples).
pub async fn load_file(conn: &Db, path: &Path) -> Result<(), Failure> {
    let text = read_input(path)?;
    db::execute(conn, &text)
        .await
        .map_err(|e| Failure::Failed(format!("error: loading {}: {e}", path.display())))
}

/// The question's embedding must have the few-shot pool's dimension; say so before the engine does.
pub fn check_dimension(schema: &crate::ir::Schema, vector: &[f64]) -> Result<(), Failure> {
    let dimension = schema.settings.examples.dimension as usize;
    if vector.len() == dimension {
        return Ok(());
    }
    Err(Failure::BadInput(format!(
        "error: the question's vector has {} value{}, but the few-shot pool's embeddings have {dimension} \
            (examples(dimension = {dimension}) in the schema)",
        vector.len(),
        if vector.len() == 1 { "" } else { "s" }
    )))
}

/// Only a schema with `prune(...)` defines `fn::nl2surql_prompt_pruned`: asking another for it is bad input.
pub fn check_pruned(output: &Output) -> Result<(), Failure> {
    if output.schema.settings.prune.is_some() {
        return Ok(());
    }
    Err(Failure::BadInput(
        "error: --pruned prints fn::nl2surql_prompt_pruned, which only a schema with #[surqlc(prune(budget = N))] on its Schema item defines; this schema has no prune(...)".into(),
    ))
}

/// The `prompt` command's prompt: `fn::nl2surql_prompt_pruned` when `pruned` (see
/// [`check_pruned`]), else `fn::nl2surql_prompt`; without a `vector` its EXAMPLES are chosen by
/// the question's words (see [`crate::runtime::ask::prompt_from`]).
pub async fn prompt_for(
    conn: &Db,
    output: &Output,
    question: &str,
    vector: Option<&[f64]>,
    pruned: bool,
) -> Result<String, Failure> {
    let function = if pruned {
        check_pruned(output)?;
        "fn::nl2surql_prompt_pruned"
    } else {
        "fn::nl2surql_prompt"
    };
    crate::runtime::ask::prompt_from(conn, &output.schema, function, question, vector)
        .await
        .map_err(|e| Failure::Failed(format!("error: {function} failed: {e}")))
}

/// The prompt for `question` cut into its named sections, each asked of the database on its own.
///
/// Fails if the sections do not join into the prompt `fn::nl2surql_prompt` returns (a template
/// whose layout changed), rather than cutting the text at a guess.
pub async fn prompt_sections(
    conn: &Db,
    output: &Output,
    question: &str,
    vector: &[f64],
) -> Result<(String, Vec<(&'static str, String)>), Failure> {
    let whole = prompt_for(conn, output, question, Some(vector), false).await?;
    let block = db::query_string(conn, "RETURN fn::schema_context()")
        .await
        .map_err(failed("fn::schema_context failed"))?;
    let hints = if output.schema.settings.value_hints.is_empty() {
        None
    } else {
        Some(
            db::query_string(conn, "RETURN fn::value_hints()")
                .await
                .map_err(failed("fn::value_hints failed"))?,
        )
    };
    let examples = crate::runtime::module::examples_for(conn, Some(question), Some(vector))
        .await
        .map_err(failed("fn::example_context failed"))?;
    let today = db::query_string(conn, "RETURN time::format(time::now(), '%Y-%m-%d')")
        .await
        .map_err(failed("time::now failed"))?;
    let preamble = crate::codegen::emit::preamble_on(&output.preamble, &today);
    let parts = PromptParts {
        preamble: &preamble,
        schema_block: &block,
        value_hints: hints.as_deref(),
        examples: &examples,
        question,
    };
    let sections = parts.sections();
    let joined: String = sections.iter().map(|(_, text)| text.as_str()).collect();
    if joined != whole {
        return Err(Failure::Failed(
            "error: fn::nl2surql_prompt is not its sections joined (preamble, SCHEMA, VALUES, EXAMPLES, QUESTION): the prompt template and emit::PromptParts disagree".into(),
        ));
    }
    Ok((whole, sections))
}

/// Signs the schema's agent in on a new session of `conn` (a database `VIEWER` or the record
/// access, as [`crate::access`] decides for this schema), on `target`'s namespace and database.
#[cfg(feature = "runtime")]
pub async fn signin_agent(
    conn: &Db,
    schema: &crate::ir::Schema,
    target: &Target,
    password: &str,
) -> Result<crate::runtime::Agent<surrealdb::engine::any::Any>, Failure> {
    use crate::access::Mechanism;
    let user = &schema.settings.agent.user;
    let (ns, db) = (target.namespace.as_str(), target.database.as_str());
    let signed = match crate::access::mechanism(schema) {
        Mechanism::Viewer => crate::runtime::signin_agent(conn, ns, db, user, password).await,
        Mechanism::RecordAccess => crate::runtime::signin_record_agent(conn, ns, db, user, password).await,
    };
    signed.map_err(|e| Failure::BadInput(format!("error: {}", e.message())))
}

/// Signs one end user in on a new session of `conn` through the schema's per-user access
/// (`scope(...)`), with the application's scope key: the session reads only that user's rows.
/// `user` is the end user's record id (`customer:mei`), checked against the end-user table.
#[cfg(feature = "runtime")]
pub async fn signin_as(
    conn: &Db,
    schema: &crate::ir::Schema,
    target: &Target,
    key: &str,
    user: &str,
) -> Result<crate::runtime::Agent<surrealdb::engine::any::Any>, Failure> {
    let scope = scope_for(schema, target, user)?;
    scope
        .signin(conn, key)
        .await
        .map_err(|e| Failure::BadInput(format!("error: {}", e.message())))
}

/// The [`crate::runtime::Scope`] for `--as USER`: the schema must declare `scope(...)`, and `user`
/// must be a record id of its end-user table.
#[cfg(feature = "runtime")]
pub fn scope_for(schema: &crate::ir::Schema, target: &Target, user: &str) -> Result<crate::runtime::Scope, Failure> {
    let Some(scope) = &schema.settings.scope else {
        return Err(Failure::BadInput(format!(
            "error: --as {user}: the schema declares no per-user agent; add scope(end_user = T) to its Schema \
                item and owner = \"...\" to the tables whose rows belong to one user"
        )));
    };
    let key = user.strip_prefix(&format!("{}:", scope.end_user));
    if key.is_none_or(str::is_empty) {
        return Err(Failure::BadInput(format!(
            "error: --as {user}: name a row of the end-user table `{0}`, e.g. --as {0}:mei",
            scope.end_user
        )));
    }
    Ok(crate::runtime::Scope::from_ir(
        scope,
        &target.namespace,
        &target.database,
        user,
    ))
}

/// The scope key for a run that serves end users (`--as`, `--per-user`): `SURQLC_SCOPE_KEY`, or
/// an error naming it. Never a random key, not even on the embedded engine: the per-user access
/// would verify tokens no application can sign (every `--per-user` request would get 401), and
/// a key that works for the run but for no one else hides the missing setting until production.
pub fn scope_key(_endpoint: &str, why: &str) -> Result<String, Failure> {
    configured_scope_key().ok_or_else(|| {
        Failure::BadInput(format!(
            "error: set {} to the application's scope key (the secret it signs end users' tokens with; any string for a local try): {why}",
            crate::codegen::password::SCOPE_KEY_ENV
        ))
    })
}

/// `SURQLC_SCOPE_KEY`, if set: what signs end users' tokens (`surqlc token` needs this one).
pub fn configured_scope_key() -> Option<String> {
    crate::codegen::password::scope_key(None)
}

/// The agent's password for a run on `endpoint`: `SURQLC_AGENT_PASSWORD` if set; on the embedded
/// engine, without it, a fresh random one made for this run (nobody else can reach an in-process
/// database; the schema is applied with it before sign-in). A server's agent was defined by
/// whoever applied the schema, so its password must be given: `why` says what signs in with it.
pub fn agent_password(endpoint: &str, why: &str) -> Result<String, Failure> {
    secret_for_run(
        crate::codegen::password::agent_password(None),
        endpoint,
        crate::codegen::password::AGENT_PASSWORD_ENV,
        "the agent's password",
        why,
    )
}

/// A secret for a run: the configured one; without it, on the embedded engine, a fresh random
/// one; against a server, an error naming `var` (the server's schema was built with its own).
fn secret_for_run(
    configured: Option<String>,
    endpoint: &str,
    var: &str,
    what: &str,
    why: &str,
) -> Result<String, Failure> {
    if let Some(secret) = configured {
        return Ok(secret);
    }
    if db::is_embedded(endpoint) {
        return Ok(random_password());
    }
    Err(Failure::BadInput(format!("error: set {var} to {what}: {why}")))
}

/// 128 bits from [`crate::random::random_hex`]: enough for a database that lives and dies inside
/// this process.
fn random_password() -> String {
    format!("surqlc-run-{}", crate::random::random_hex(2))
}
