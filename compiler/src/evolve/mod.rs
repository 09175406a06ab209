//! Schema evolution: the plan that brings a database to the schema (drift's changes, renames, removals), each change judged against the rows it would break or lose, and its one-transaction apply.
//!
//! The plan starts from [`crate::drift`]'s comparison (both sides read from the engine). A change
//! that can break rows is tried on a scratch embedded engine holding a copy of the table's rows
//! (`probe`): the live database is only read. Renames (`#[surqlc(renamed_from = "...")]`) move the
//! values; definitions the schema no longer makes are removed only when they hold nothing, or
//! when the caller allows data loss. `script` writes the statements: one `BEGIN`/`COMMIT`.

mod probe;
mod script;

use crate::codegen::builder::Output;
use crate::db::Db;
use crate::drift::{self, Change, CompareOptions};
use crate::exit::{failed, Failure};
use std::fmt;

pub use script::migration_file_name;

/// What a step does to the database.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A definition the database lacks.
    Define,
    /// A definition the database spells differently.
    Redefine,
    /// `renamed_from`: the old definition's values moved to the new one, the old one removed.
    Rename { from: String },
    /// A definition the schema no longer makes.
    Remove,
}

/// What the rows say about a step.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// No row breaks and nothing is lost.
    Safe,
    /// `rows` rows could no longer be written after the step (`ids`: the first few, `reason`: the engine's words for the first).
    Breaks {
        rows: usize,
        ids: Vec<String>,
        reason: String,
    },
    /// A removal of something that holds data: `rows` rows hold a value (a parameter or a credential counts one).
    LosesData { rows: usize, what: String },
}

impl Verdict {
    pub fn is_safe(&self) -> bool {
        matches!(self, Verdict::Safe)
    }
}

/// One change of the plan.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Step {
    pub action: Action,
    /// `field`, `table`, `index`, ...
    pub kind: &'static str,
    /// As drift names it: `joined_at ON customer`.
    pub name: String,
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Whether the step's statements are in the plan's script (a removal that loses data is only with `allow_data_loss`).
    pub applied: bool,
    /// The table a field, index or event is on (the table itself for a table; empty for the rest).
    #[serde(skip)]
    pub(crate) table: String,
    /// The definition the schema makes (empty for a removal).
    #[serde(skip)]
    pub(crate) expected: String,
}

/// The ordered changes, the warnings about the rows, and the statements that make them.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Plan {
    pub steps: Vec<Step>,
    /// Rows that disagree with the schema without a change breaking them (a value outside its literal union).
    pub warnings: Vec<String>,
    /// The whole plan as one transaction (`BEGIN` ... `COMMIT`).
    pub script: String,
}

impl Plan {
    /// Every step is safe: nothing breaks and nothing is lost.
    pub fn is_safe(&self) -> bool {
        self.steps.iter().all(|s| s.verdict.is_safe())
    }

    /// The steps that break rows.
    pub fn breaking(&self) -> impl Iterator<Item = &Step> {
        self.steps
            .iter()
            .filter(|s| matches!(s.verdict, Verdict::Breaks { .. }))
    }

    /// The removals that would lose data.
    pub fn losing(&self) -> impl Iterator<Item = &Step> {
        self.steps
            .iter()
            .filter(|s| matches!(s.verdict, Verdict::LosesData { .. }))
    }
}

/// How a plan is made.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlanOptions {
    /// Compare users without their password hash (see [`CompareOptions`]).
    pub ignore_passhash: bool,
    /// Put removals that lose data into the script.
    pub allow_data_loss: bool,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match &self.action {
            Action::Define => format!("define {} {}", self.kind, self.name),
            Action::Redefine => format!("redefine {} {}", self.kind, self.name),
            Action::Rename { from } => format!("rename {} {from} to {}", self.kind, self.name),
            Action::Remove => format!("remove {} {}", self.kind, self.name),
        };
        match &self.verdict {
            Verdict::Safe => write!(f, "{what}: safe"),
            Verdict::Breaks { rows, ids, reason } => write!(
                f,
                "{what}: BREAKS {} ({}{}): {reason}",
                rows_word(*rows),
                ids.join(", "),
                if *rows > ids.len() { ", ..." } else { "" }
            ),
            Verdict::LosesData { rows, what: held } if self.applied => {
                write!(f, "{what}: LOSES DATA, {rows} {held} (--allow-data-loss given)")
            }
            Verdict::LosesData { rows, what: held } => {
                write!(f, "{what}: kept, {rows} {held} (removed only with --allow-data-loss)")
            }
        }
    }
}

fn rows_word(n: usize) -> String {
    format!("{n} row{}", if n == 1 { "" } else { "s" })
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.steps.iter().enumerate() {
            writeln!(f, "{:>3}. {step}", i + 1)?;
        }
        for w in &self.warnings {
            writeln!(f, "warning: {w}")?;
        }
        Ok(())
    }
}

/// The plan that brings `conn`'s database to `output`'s schema, read from the database and never written.
pub async fn plan(conn: &Db, output: &Output, options: PlanOptions) -> Result<Plan, Failure> {
    let expected = drift::embedded_definitions(&output.schema_surql).await.map_err(|e| {
        Failure::BadInput(format!(
            "error: the embedded database rejected the generated schema: {e}"
        ))
    })?;
    let live = drift::definitions(conn)
        .await
        .map_err(failed("cannot read the database's definitions"))?;
    let compare = CompareOptions {
        ignore_passhash: options.ignore_passhash,
    };
    let drift = drift::compare(&expected, &live, compare);
    let renames = script::renames(&output.schema, &expected, &live);
    let mut steps = Vec::new();
    for change in &drift.changes {
        if built_without(output, change) {
            continue;
        }
        if let Some(step) = step_for(change, &renames) {
            steps.push(step);
        }
    }
    for rename in &renames {
        steps.push(rename.step());
    }
    let reader = probe::Reader { conn, live: &live };
    for step in &mut steps {
        step.verdict = reader
            .verdict(step, &renames)
            .await
            .map_err(failed(&format!("cannot read the rows for {} {}", step.kind, step.name)))?;
        step.applied = match step.verdict {
            Verdict::LosesData { .. } => options.allow_data_loss,
            _ => true,
        };
    }
    let warnings = probe::literal_warnings(conn, &output.schema, &live)
        .await
        .map_err(failed("cannot read the literal fields' values"))?;
    let script = script::script(output, &steps, &renames);
    Ok(Plan {
        steps,
        warnings,
        script,
    })
}

/// The database's agent user or per-user access when this build defines none (its password or
/// scope key not set): made by another build of the schema, so left as it is rather than removed.
fn built_without(output: &Output, change: &Change) -> bool {
    let Change::Extra { key, .. } = change else {
        return false;
    };
    let settings = &output.schema.settings;
    let agent = !output.agent_defined && matches!(key.kind, "user" | "access") && key.name == settings.agent.user;
    let scope = !output.scope_access_defined
        && key.kind == "access"
        && settings.scope.as_ref().is_some_and(|s| s.access == key.name);
    agent || scope
}

/// A warning for each literal field whose rows (in `conn`'s database) hold a value outside its
/// union: what `plan` and `audit --live` say when the type and the value hints disagree.
pub async fn literal_warnings(conn: &Db, schema: &crate::ir::Schema) -> Result<Vec<String>, surrealdb::Error> {
    let live = drift::definitions(conn).await?;
    probe::literal_warnings(conn, schema, &live).await
}

/// A step for one drift change; `None` when a rename accounts for it (the old field or table).
fn step_for(change: &Change, renames: &[script::Rename]) -> Option<Step> {
    let key = change.key();
    if renames.iter().any(|r| r.consumes(key)) {
        return None;
    }
    let (action, expected) = match change {
        Change::Missing { expected, .. } => (Action::Define, expected.clone()),
        Change::Changed { expected, .. } => (Action::Redefine, expected.clone()),
        Change::Extra { .. } => (Action::Remove, String::new()),
    };
    Some(Step {
        action,
        kind: key.kind,
        name: key.name.clone(),
        verdict: Verdict::Safe,
        applied: true,
        table: if key.kind == "table" {
            key.name.clone()
        } else {
            key.table().to_owned()
        },
        expected,
    })
}

/// `surqlc apply`: the plan run as one transaction, refused when it breaks rows (unless
/// `allow_breaking`) or would lose data without `options.allow_data_loss`. Returns the plan applied.
pub async fn apply(conn: &Db, output: &Output, options: PlanOptions, allow_breaking: bool) -> Result<Plan, Failure> {
    let plan = plan(conn, output, options).await?;
    let breaking: Vec<String> = plan.breaking().map(ToString::to_string).collect();
    if !breaking.is_empty() && !allow_breaking {
        return Err(Failure::Failed(format!(
            "error: the plan breaks rows, nothing was applied (--allow-breaking applies it anyway; \
             a renamed_from or a DEFAULT keeps them):\n  {}",
            breaking.join("\n  ")
        )));
    }
    let losing: Vec<String> = plan.losing().map(ToString::to_string).collect();
    if !losing.is_empty() && !options.allow_data_loss {
        return Err(Failure::Failed(format!(
            "error: the plan would remove definitions that hold data, nothing was applied \
             (--allow-data-loss removes them):\n  {}",
            losing.join("\n  ")
        )));
    }
    conn.query(plan.script.as_str())
        .await
        .and_then(|r| r.check().map(|_| ()))
        .map_err(failed("the database refused the plan; nothing was applied"))?;
    Ok(plan)
}
