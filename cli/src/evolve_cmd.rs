//! `surqlc plan` and `surqlc apply`: the arguments, the database or dump they read, and the plan printed (text, JSON, or a migration file); the work is `surqlc::evolve`'s.

use crate::{builder, stdio, DiffTarget, Input};
use clap::Args;
use std::path::PathBuf;
use surqlc::db::{self, Db};
use surqlc::drift::diff;
use surqlc::evolve::{self, Plan, PlanOptions};
use surqlc::exit::{read_input, Failure};

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum PlanFormat {
    /// One line per change with its verdict.
    Text,
    /// The changes, verdicts, warnings and statements as one JSON object.
    Json,
    /// The statements as a migration file (one transaction): to stdout, or a dated file under --out.
    Surql,
}

#[derive(Args)]
pub(crate) struct PlanArgs {
    #[command(flatten)]
    target: DiffTarget,
    /// Output format.
    #[arg(long, value_enum, default_value_t = PlanFormat::Text)]
    format: PlanFormat,
    /// With --format surql: write the migration as DIR/<UTC date>_<schema>.surql (DIR created if missing).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Remove definitions the schema no longer makes even when rows hold values (the values are lost).
    #[arg(long)]
    allow_data_loss: bool,
}

#[derive(Args)]
pub(crate) struct ApplyArgs {
    #[command(flatten)]
    target: DiffTarget,
    /// Apply a plan that breaks rows (they can no longer be written until fixed).
    #[arg(long)]
    allow_breaking: bool,
    /// Remove definitions the schema no longer makes even when rows hold values (the values are lost).
    #[arg(long)]
    allow_data_loss: bool,
}

/// The database a plan reads: a server's, or a dump loaded into a fresh embedded one; and its name for messages.
async fn open(input: &Input, target: DiffTarget) -> Result<(surqlc::builder::Output, Db, String), Failure> {
    let mut b = builder(input);
    // With SURQLC_AGENT_PASSWORD the agent is defined; without it the database's agent is left as it is.
    diff::agent_for_diff(&mut b, false);
    let output = b.generate()?;
    crate::print_warnings(&output.warnings);
    if let Some(dump) = &target.dump {
        let text = read_input(dump)?;
        let conn = db::connect(&db::Target::default())
            .await
            .map_err(|e| Failure::BadInput(format!("error: cannot start the embedded engine: {e}")))?;
        db::execute(&conn, &diff::unredact_access_keys(&text))
            .await
            .map_err(|e| Failure::BadInput(format!("error: loading {}: {e}", dump.display())))?;
        return Ok((output, conn, dump.display().to_string()));
    }
    let endpoint = target.endpoint.unwrap_or_else(|| db::EMBEDDED.into());
    let target = target.server.target(endpoint, &output.schema);
    let place = format!(
        "namespace `{}`, database `{}` at {}",
        target.namespace, target.database, target.endpoint
    );
    let conn = surqlc::schema_db::connect(&target).await?;
    Ok((output, conn, place))
}

/// What is left unsafe, as the run's failure (exit 1), or `Ok` when every change is safe.
fn verdict(plan: &Plan) -> Result<(), Failure> {
    if plan.is_safe() {
        return Ok(());
    }
    let breaks = plan.breaking().count();
    let loses = plan.losing().count();
    Err(Failure::Failed(format!(
        "{breaks} change{} break rows, {loses} removal{} would lose data",
        if breaks == 1 { "" } else { "s" },
        if loses == 1 { "" } else { "s" }
    )))
}

/// `surqlc plan`: the changes, in order, each with what the rows say; exit 1 when one breaks rows or loses data.
pub(crate) async fn plan(input: &Input, args: PlanArgs) -> Result<(), Failure> {
    if args.out.is_some() && args.format != PlanFormat::Surql {
        return Err(Failure::BadInput(
            "error: --out writes a migration file: give --format surql".into(),
        ));
    }
    let (output, conn, place) = open(input, args.target).await?;
    let options = PlanOptions {
        ignore_passhash: false,
        allow_data_loss: args.allow_data_loss,
    };
    let plan = evolve::plan(&conn, &output, options).await?;
    match args.format {
        PlanFormat::Text => {
            if plan.steps.is_empty() {
                note!("in sync: {place} has every definition the schema makes, and no other");
            } else {
                out!("{plan}");
            }
            for w in &plan.warnings {
                note!("warning: {w}");
            }
        }
        PlanFormat::Json => {
            let json = serde_json::to_string_pretty(&plan).map_err(|e| Failure::Failed(e.to_string()))?;
            out!("{json}\n");
        }
        PlanFormat::Surql => match &args.out {
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| Failure::BadInput(format!("error: cannot create {}: {e}", dir.display())))?;
                let path = dir.join(evolve::migration_file_name(
                    &output.schema.name,
                    std::time::SystemTime::now(),
                ));
                std::fs::write(&path, &plan.script)
                    .map_err(|e| Failure::Failed(format!("error: cannot write {}: {e}", path.display())))?;
                note!("wrote {} ({} changes)", path.display(), plan.steps.len());
            }
            None => out!("{}", plan.script),
        },
    }
    verdict(&plan)
}

/// `surqlc apply`: the plan as one transaction, refused when it breaks rows or loses data unless allowed.
pub(crate) async fn apply(input: &Input, args: ApplyArgs) -> Result<(), Failure> {
    let (output, conn, place) = open(input, args.target).await?;
    let options = PlanOptions {
        ignore_passhash: false,
        allow_data_loss: args.allow_data_loss,
    };
    let plan = evolve::apply(&conn, &output, options, args.allow_breaking).await?;
    out!("{plan}");
    note!("{}", after_apply(&conn, &output, &plan, &place).await);
    Ok(())
}

/// What an apply did and what is left: the diff after it (empty when nothing was kept).
pub(crate) async fn after_apply(conn: &Db, output: &surqlc::builder::Output, plan: &Plan, place: &str) -> String {
    let changes = plan.steps.iter().filter(|s| s.applied).count();
    let mut said = format!(
        "applied {changes} change{} to {place} in one transaction",
        if changes == 1 { "" } else { "s" }
    );
    match diff::drift_on(conn, output, false).await {
        Ok(drift) if drift.is_empty() => {
            said.push_str("; the database now has every definition the schema makes, and no other")
        }
        Ok(drift) => said.push_str(&format!(
            "; {} definition{} still differ (surqlc diff lists them)",
            drift.changes.len(),
            if drift.changes.len() == 1 { "" } else { "s" }
        )),
        Err(e) => said.push_str(&format!("; cannot compare it with the schema again: {e}")),
    }
    said
}
