//! A database with a compiled schema applied, for the commands that run one (check, prompt, audit): open, load data, ask for the prompt and its sections.

use crate::codegen::builder::Output;
use crate::db::{self, Db, Target};
use crate::codegen::emit::PromptParts;
use crate::exit::Exit;
use std::fmt;
use std::path::Path;

/// Why a command failed, and so its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The input was wrong (a schema error, an unreadable file, a vector of the wrong length): exit status 2.
    BadInput(String),
    /// The input was read but a check failed (the database refused it, a budget was exceeded): exit status 1.
    Failed(String),
}

impl Failure {
    pub fn exit(&self) -> Exit {
        match self {
            Failure::BadInput(_) => Exit::BadInput,
            Failure::Failed(_) => Exit::Failed,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::BadInput(m) | Failure::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Failure {}

impl From<crate::Error> for Failure {
    fn from(e: crate::Error) -> Self {
        Failure::BadInput(e.to_string())
    }
}

fn failed(what: &str) -> impl Fn(db::Error) -> Failure + '_ {
    move |e| Failure::Failed(format!("error: {what}: {e}"))
}

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

/// The text of a file the user named; unreadable is bad input.
fn read(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure::BadInput(format!("error: cannot read {}: {e}", path.display())))
}

/// Runs the SurrealQL file at `path` (rows, few-shot examples).
pub async fn load_file(conn: &Db, path: &Path) -> Result<(), Failure> {
    let text = read(path)?;
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
        "error: the question's vector has {} value{}, but the few-shot pool's embeddings have {dimension} (examples(dimension = {dimension}) in the schema)",
        vector.len(),
        if vector.len() == 1 { "" } else { "s" }
    )))
}

/// `fn::nl2surql_prompt(question, vector)`.
pub async fn prompt(conn: &Db, question: &str, vector: &[f64]) -> Result<String, Failure> {
    db::prompt(conn, question, vector)
        .await
        .map_err(failed("fn::nl2surql_prompt failed"))
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
/// [`check_pruned`]), else `fn::nl2surql_prompt`; without a `vector` its EXAMPLES section is empty
/// (see [`crate::runtime::ask::prompt_from`]).
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
    let whole = prompt(conn, question, vector).await?;
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
    let mut response = conn
        .query("RETURN fn::example_context($qvec)")
        .bind(("qvec", vector.to_vec()))
        .await
        .and_then(|r| r.check())
        .map_err(failed("fn::example_context failed"))?;
    let examples: Option<String> = response
        .take(0)
        .map_err(failed("fn::example_context failed"))?;
    let parts = PromptParts {
        preamble: &output.preamble,
        schema_block: &block,
        value_hints: hints.as_deref(),
        examples: examples.as_deref().unwrap_or_default(),
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

/// Where `surqlc diff` reads the live definitions: a dump file loaded into a fresh embedded
/// database, or the database at `target`.
#[derive(Debug, Clone)]
pub struct DiffSource {
    pub dump: Option<std::path::PathBuf>,
    pub target: Target,
}

/// The password the expected agent user is built with when the real one is not at hand.
const DIFF_STAND_IN_PASSWORD: &str = "surqlc-diff: password not compared";

/// Whether a diff expects the agent, and whether its password hash is left out of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiffAgent {
    pub expected: bool,
    pub ignore_passhash: bool,
}

/// Readies `builder` for a diff as `surqlc build` builds in this environment: with the agent's
/// password (`SURQLC_AGENT_PASSWORD`) the agent is expected; without it the schema defines none,
/// so an agent in the database is reported as extra, unless `expect_agent`, which builds the
/// agent with a stand-in password and compares it without its hash.
pub fn agent_for_diff(builder: &mut crate::Builder, expect_agent: bool) -> DiffAgent {
    let have_password = crate::codegen::password::agent_password(None).is_some();
    if have_password {
        DiffAgent {
            expected: true,
            ignore_passhash: false,
        }
    } else if expect_agent {
        builder.agent_password(DIFF_STAND_IN_PASSWORD);
        DiffAgent {
            expected: true,
            ignore_passhash: true,
        }
    } else {
        builder.no_agent();
        DiffAgent {
            expected: false,
            ignore_passhash: false,
        }
    }
}

/// Why the database's agent is listed as extra, when it is: the schema was built without the
/// agent's password (`None` when the drift holds no agent definition, or the agent was expected).
pub fn unexpected_agent_note(
    output: &Output,
    drift: &crate::drift::Drift,
    agent: DiffAgent,
) -> Option<String> {
    let user = &output.schema.settings.agent.user;
    let extra = drift.changes.iter().any(|c| {
        matches!(c, crate::drift::Change::Extra { key, .. }
            if (key.kind == "access" || key.kind == "user") && &key.name == user)
    });
    (extra && !agent.expected).then(|| {
        format!(
            "note: without {} the schema defines no agent, so the database's agent `{user}` is listed as extra; set it (as when the schema was built), or pass --expect-agent, to compare the agent instead",
            crate::codegen::password::AGENT_PASSWORD_ENV
        )
    })
}

/// A dump with every access method's `'[REDACTED]'` key replaced by a stand-in.
///
/// `surreal export` writes symmetric keys as `'[REDACTED]'`, and SurrealDB 3.3 refuses to define
/// an access with that key (it would sign tokens with a published secret), so a real export of
/// any schema with record access would not load. `INFO` redacts the key on both sides of the
/// diff anyway: the access method is compared without it, as a user is without its `PASSHASH`.
pub fn unredact_access_keys(dump: &str) -> std::borrow::Cow<'_, str> {
    const STAND_IN: &str = "KEY 'surqlc-diff: key not compared'";
    if !dump.contains("[REDACTED]") {
        return std::borrow::Cow::Borrowed(dump);
    }
    std::borrow::Cow::Owned(
        dump.replace("KEY '[REDACTED]'", STAND_IN)
            .replace("KEY \"[REDACTED]\"", STAND_IN),
    )
}

/// `surqlc diff`: both sides read from the engine (see [`crate::drift`]), so both are in its spelling.
pub async fn diff(
    output: &Output,
    source: &DiffSource,
    ignore_passhash: bool,
) -> Result<crate::drift::Drift, Failure> {
    use crate::drift;
    let bad = |what: String| move |e: db::Error| Failure::BadInput(format!("error: {what}: {e}"));
    let expected = drift::embedded_definitions(&output.schema_surql)
        .await
        .map_err(bad(
            "the embedded database rejected the generated schema".into()
        ))?;
    let live = match &source.dump {
        Some(dump) => {
            let text = read(dump)?;
            drift::embedded_definitions(&unredact_access_keys(&text))
                .await
                .map_err(bad(format!("loading {}", dump.display())))?
        }
        None => {
            let endpoint = &source.target.endpoint;
            let conn = db::connect(&source.target)
                .await
                .map_err(bad(format!("cannot connect to {endpoint}")))?;
            drift::definitions(&conn)
                .await
                .map_err(bad(format!("cannot read the definitions at {endpoint}")))?
        }
    };
    Ok(drift::compare(
        &expected,
        &live,
        drift::CompareOptions { ignore_passhash },
    ))
}

/// What applying the schema would change on `conn`'s database: its definitions against the ones
/// the schema leaves in an empty database.
pub async fn drift_on(
    conn: &Db,
    output: &Output,
    ignore_passhash: bool,
) -> Result<crate::drift::Drift, Failure> {
    use crate::drift;
    let expected = drift::embedded_definitions(&output.schema_surql)
        .await
        .map_err(failed(
            "the embedded database rejected the generated schema",
        ))?;
    let live = drift::definitions(conn)
        .await
        .map_err(failed("cannot read the database's definitions"))?;
    Ok(drift::compare(
        &expected,
        &live,
        drift::CompareOptions { ignore_passhash },
    ))
}

/// The first line of each change, at most `max`, indented, and how many were left out.
fn change_lines(changes: &[String], max: usize) -> String {
    let mut out: Vec<String> = changes.iter().take(max).map(|c| format!("  {c}")).collect();
    if changes.len() > max {
        out.push(format!("  ... and {} more", changes.len() - max));
    }
    out.join("\n")
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Readies an existing database (a server's) for `prompt`. By default it only reads: the prompt is
/// the one the database renders, and the returned text (for stderr) lists how its definitions
/// differ from the schema, empty when they do not. With `apply` it applies the schema and says
/// what that changed. `place` names the database in those messages.
pub async fn read_or_apply(
    conn: &Db,
    output: &Output,
    apply: bool,
    place: &str,
) -> Result<String, Failure> {
    use crate::drift::Change;
    let agent = DiffAgent {
        expected: output.agent_defined,
        ignore_passhash: false,
    };
    let before = drift_on(conn, output, false).await;
    if !apply {
        return Ok(match before {
            Ok(drift) if drift.is_empty() => String::new(),
            Ok(drift) => {
                let lines: Vec<String> = drift
                    .changes
                    .iter()
                    .map(|c| c.to_string().lines().next().unwrap_or_default().to_owned())
                    .collect();
                let mut note = format!(
                    "note: {place} differs from the schema in {} (the prompt is the database's own; nothing was written: --apply applies the schema, surqlc diff shows each change in full):\n{}",
                    plural(lines.len(), "definition", "definitions"),
                    change_lines(&lines, 20)
                );
                if let Some(agent_note) = unexpected_agent_note(output, &drift, agent) {
                    note.push('\n');
                    note.push_str(&agent_note);
                }
                note
            }
            Err(e) => format!("note: cannot compare {place} with the schema: {e}"),
        });
    }
    db::execute(conn, &output.schema_surql)
        .await
        .map_err(failed(&format!("{place} rejected the generated schema")))?;
    Ok(match before {
        Ok(drift) => {
            let mut applied = Vec::new();
            let mut extra = 0;
            for change in &drift.changes {
                match change {
                    Change::Missing { key, .. } => applied.push(format!("defined {key}")),
                    Change::Changed { key, .. } => applied.push(format!("redefined {key}")),
                    Change::Extra { .. } => extra += 1,
                }
            }
            let mut said = if applied.is_empty() {
                format!("applied the schema to {place}: no definition changed")
            } else {
                format!(
                    "applied the schema to {place}: {}\n{}",
                    plural(applied.len(), "definition changed", "definitions changed"),
                    change_lines(&applied, 50)
                )
            };
            if extra > 0 {
                said.push_str(&format!(
                    "\n{} the schema does not make left as {} (surqlc diff lists {})",
                    plural(extra, "definition", "definitions"),
                    if extra == 1 { "it was" } else { "they were" },
                    if extra == 1 { "it" } else { "them" }
                ));
            }
            said
        }
        Err(_) => format!("applied the schema to {place}"),
    })
}

/// Where `check-query` finds the data for its data checks.
#[cfg(feature = "validate")]
#[derive(Debug, Clone)]
pub enum DataSource {
    /// A data file loaded after the schema into a fresh embedded database.
    Seed(std::path::PathBuf),
    /// A database that holds the data (and the schema); only read.
    Server(Target),
}

/// `surqlc check-query` with the data checks the agent's runner makes
/// ([`crate::validate::data::check`]: record ids exist, compared values are present), run on the
/// data of `source` for each query with no error but a missing `LIMIT` (which the runner adds).
#[cfg(feature = "validate")]
pub async fn check_query_with_data(
    output: &Output,
    queries: &crate::validate::check::Queries,
    json: bool,
    source: &DataSource,
) -> crate::validate::check::Outcome {
    use crate::validate::{check, Class, Severity};
    let mut checked = match check::checked(&output.schema, queries) {
        Ok(checked) => checked,
        Err(outcome) => return outcome,
    };
    let conn = match source {
        DataSource::Seed(seed) => match open_embedded(output).await {
            Ok(conn) => load_file(&conn, seed).await.map(|()| conn),
            Err(e) => Err(e),
        },
        DataSource::Server(target) => connect(target).await,
    };
    let conn = match conn {
        Ok(conn) => conn,
        Err(failure) => {
            return check::Outcome {
                stdout: String::new(),
                stderr: failure.to_string(),
                status: failure.exit(),
            }
        }
    };
    for (_, _, report) in &mut checked.items {
        let only_limit = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .all(|d| d.class == Class::Limit);
        if !only_limit {
            continue;
        }
        if let Err(e) = crate::validate::data::check(&conn, &output.schema, report).await {
            return check::Outcome {
                stdout: String::new(),
                stderr: format!("error: the data checks failed: {e}"),
                status: Exit::Failed,
            };
        }
    }
    checked.outcome(json)
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
        Mechanism::RecordAccess => {
            crate::runtime::signin_record_agent(conn, ns, db, user, password).await
        }
    };
    signed.map_err(|e| Failure::BadInput(format!("error: {}", e.message())))
}
