//! The compiled schema against a database's definitions: `surqlc diff` (a dump or a server, the agent expected or not) and `prompt`'s check of a server's database, read or applied on request.

use super::{Change, Drift};
use crate::codegen::builder::Output;
use crate::db::{self, Db, Target};
use crate::exit::{failed, read_input, Failure};

/// Where `surqlc diff` reads the live definitions: a dump file loaded into a fresh embedded
/// database, or the database at `target`.
#[derive(Debug, Clone)]
pub struct DiffSource {
    /// A `surreal export` file (`--dump`); `None`: read the database at `target`.
    pub dump: Option<std::path::PathBuf>,
    /// The database to read when there is no dump (`--endpoint`, namespace, database, credentials).
    pub target: Target,
}

/// The password the expected agent user is built with when the real one is not at hand.
const DIFF_STAND_IN_PASSWORD: &str = "surqlc-diff: password not compared";

/// Whether a diff expects the agent, and whether its password hash is left out of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiffAgent {
    /// Whether the schema side defines the agent user (and its access), so the database should too.
    pub expected: bool,
    /// Whether the agent is compared without its `PASSHASH` (built with a stand-in password).
    pub ignore_passhash: bool,
}

/// Readies `builder` for a diff as `surqlc build` builds in this environment: with the agent's
/// password (`SURQLC_AGENT_PASSWORD`) the agent is expected; without it the schema defines none,
/// so an agent in the database is reported as extra, unless `expect_agent`, which builds the
/// agent with a stand-in password and compares it without its hash.
pub fn agent_for_diff(builder: &mut crate::codegen::builder::Builder, expect_agent: bool) -> DiffAgent {
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
pub fn unexpected_agent_note(output: &Output, drift: &Drift, agent: DiffAgent) -> Option<String> {
    let user = &output.schema.settings.agent.user;
    let extra = drift.changes.iter().any(|c| {
        matches!(c, Change::Extra { key, .. }
            if (key.kind == "access" || key.kind == "user") && &key.name == user)
    });
    (extra && !agent.expected).then(|| {
        format!(
            "note: without {} the schema defines no agent, so the database's agent `{user}` is listed as \
                extra; set it (as when the schema was built), or pass --expect-agent, to compare the agent \
                instead",
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
pub async fn diff(output: &Output, source: &DiffSource, ignore_passhash: bool) -> Result<Drift, Failure> {
    let bad = |what: String| move |e: db::Error| Failure::BadInput(format!("error: {what}: {e}"));
    let expected = super::embedded_definitions(&output.schema_surql)
        .await
        .map_err(bad("the embedded database rejected the generated schema".into()))?;
    let live = match &source.dump {
        Some(dump) => {
            let text = read_input(dump)?;
            super::embedded_definitions(&unredact_access_keys(&text))
                .await
                .map_err(bad(format!("loading {}", dump.display())))?
        }
        None => {
            let endpoint = &source.target.endpoint;
            let conn = db::connect(&source.target)
                .await
                .map_err(bad(format!("cannot connect to {endpoint}")))?;
            super::definitions(&conn)
                .await
                .map_err(bad(format!("cannot read the definitions at {endpoint}")))?
        }
    };
    Ok(super::compare(
        &expected,
        &live,
        super::CompareOptions { ignore_passhash },
    ))
}

/// What applying the schema would change on `conn`'s database: its definitions against the ones
/// the schema leaves in an empty database.
pub async fn drift_on(conn: &Db, output: &Output, ignore_passhash: bool) -> Result<Drift, Failure> {
    let expected = super::embedded_definitions(&output.schema_surql)
        .await
        .map_err(failed("the embedded database rejected the generated schema"))?;
    let live = super::definitions(conn)
        .await
        .map_err(failed("cannot read the database's definitions"))?;
    Ok(super::compare(
        &expected,
        &live,
        super::CompareOptions { ignore_passhash },
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
pub async fn read_or_apply(conn: &Db, output: &Output, apply: bool, place: &str) -> Result<String, Failure> {
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
                    "note: {place} differs from the schema in {} (the prompt is the database's own; nothing \
                        was written: --apply applies the schema, surqlc diff shows each change in full):\n{}",
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
