//! A database with a compiled schema applied, for the commands that run one (check, prompt, audit): open, load data, ask for the prompt and its sections.

use crate::builder::Output;
use crate::db::{self, Db, Target};
use crate::emit::PromptParts;
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
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::BadInput(_) => 2,
            Failure::Failed(_) => 1,
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

/// Connects to `target` and applies the compiled schema.
pub async fn open(output: &Output, target: &Target) -> Result<Db, Failure> {
    let conn = db::connect(target)
        .await
        .map_err(failed(&format!("cannot connect to {}", target.endpoint)))?;
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

/// Readies `builder` for a diff: without the agent's password (`SURQLC_AGENT_PASSWORD`), the
/// expected user is built with a stand-in and its hash is not compared. Returns whether it is not.
pub fn password_for_diff(builder: &mut crate::Builder) -> bool {
    let ignore_passhash = crate::password::agent_password(None).is_none();
    if ignore_passhash {
        builder.agent_password(DIFF_STAND_IN_PASSWORD);
    }
    ignore_passhash
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
            drift::embedded_definitions(&text)
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
