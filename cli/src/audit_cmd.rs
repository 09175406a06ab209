//! `surqlc audit` (the binary's own code): its arguments, the report as text or JSON (with what `surqlc mcp`'s tools and answer wrapper cost), and with `--html` the token map written to a file (with `--questions`, each question's pruned tables on it).

use crate::progress::Progress;
use crate::{encoding, non_empty, number, stdio, Format, Input};
use clap::Args;
use std::path::{Path, PathBuf};
use surqlc::audit::{self, AuditOptions, QuestionOptions};
use surqlc::exit::Failure;
use surqlc::tokens::Encoding;

#[derive(Args)]
pub struct AuditArgs {
    /// tiktoken encoding: o200k_base, cl100k_base, o200k_harmony, p50k_base, p50k_edit or r50k_base.
    #[arg(long, default_value = "o200k_base", value_parser = encoding)]
    encoding: Encoding,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Most tokens the schema block may cost (exit status 1 above it); overrides the schema's budget(block = N).
    #[arg(long, value_name = "N")]
    budget: Option<u32>,
    /// Most tokens any one table may cost (exit status 1 above it); overrides the schema's budget(table = N).
    #[arg(long, value_name = "N")]
    table_budget: Option<u32>,
    /// Also load the schema into the embedded engine and fail if its fn::schema_context() differs from the static rendering.
    #[arg(long)]
    live: bool,
    /// SurrealQL data file loaded after the schema, for the whole-prompt view (--question) or pruning's choices (--questions).
    #[arg(long, value_name = "FILE")]
    seed: Option<PathBuf>,
    /// A question: adds the whole prompt (preamble, schema, value hints, examples) to the report.
    #[arg(long, short, requires = "vector", value_parser = non_empty)]
    question: Option<String>,
    /// The question's embedding, comma-separated.
    #[arg(
        long,
        short = 'v',
        value_name = "F,F,...",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = number,
        requires = "question"
    )]
    vector: Vec<f64>,
    /// Also write the token map, one self-contained HTML page (a treemap of the schema block, the budgets), to FILE.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// With --html: a file of questions (one per line, or a JSON array of {"question": ...}); the map
    /// highlights the tables each one's pruned prompt shows.
    #[arg(long, value_name = "FILE", requires = "html")]
    questions: Option<PathBuf>,
    /// Named queries (as `mcp --queries` serves them): the MCP section adds each one's tool and their total.
    #[arg(long, value_name = "DIR")]
    queries: Vec<PathBuf>,
}

/// `surqlc audit`.
pub async fn audit(input: Input, args: AuditArgs) -> Result<(), Failure> {
    if args.seed.is_some() && args.question.is_none() && args.questions.is_none() {
        return Err(Failure::BadInput(
            "error: --seed is loaded for --question or --questions; give one of them".into(),
        ));
    }
    let mut builder = crate::builder(&input);
    for q in &args.queries {
        builder.queries(q);
    }
    let output = builder.generate()?;
    let query_tools = surqlc::mcp::query_tools(&output.schema, &output.queries)?;
    let budget = surqlc::ir::Budget {
        block: args.budget,
        table: args.table_budget,
    };
    let options = AuditOptions {
        encoding: args.encoding,
        budget: budget.clone(),
        live: args.live,
        question: args.question.map(|question| QuestionOptions {
            question,
            vector: args.vector,
            seed: args.seed.clone(),
        }),
    };
    let report = audit::audit(&output, &options).await?;
    if let Some(path) = &args.html {
        let (choices, prune_budget) = match &args.questions {
            Some(file) => {
                let (choices, budget) = choose(&input, args.seed.as_deref(), file).await?;
                (choices, Some(budget))
            }
            None => (Vec::new(), None),
        };
        let budget = budget.or(&output.schema.settings.budget);
        let map = audit::token_map::TokenMap::new(&output, &report, &budget, &choices, prune_budget);
        write_html(path, &audit::html::render(&map))?;
    }
    // What `surqlc mcp` serving this schema costs before any row: its tools and each answer's wrapper.
    let mcp = surqlc::mcp::costs::Costs::of(args.encoding).with_query_tools(&query_tools);
    let text = match args.format {
        Format::Json => {
            let mut json = report.json();
            json["mcp"] = mcp.json();
            format!("{}\n", serde_json::to_string_pretty(&json).unwrap_or_default())
        }
        Format::Text => report.text() + &mcp.text(),
    };
    stdio::out(&text)?;
    match report.failure() {
        Some(failure) => Err(failure),
        None => Ok(()),
    }
}

/// What the pruned prompt shows for each question of `file`, and the budget it chose under.
async fn choose(
    input: &Input,
    seed: Option<&Path>,
    file: &Path,
) -> Result<(Vec<audit::prune_run::PrunedTables>, u32), Failure> {
    use audit::prune_run::{self, PruneRun};
    let questions = prune_run::read_questions(file)?;
    let run = PruneRun::open(&input.schemas, input.prompt_template.as_deref(), seed, None, None).await?;
    let progress = Progress::new(questions.len(), "questions");
    let mut choices = Vec::with_capacity(questions.len());
    for q in &questions {
        progress.step(q);
        choices.push(run.choose(q).await?);
        progress.done();
    }
    Ok((choices, run.budget))
}

/// Writes a report to `path`, saying so on stderr.
pub fn write_html(path: &Path, html: &str) -> Result<(), Failure> {
    std::fs::write(path, html).map_err(|e| Failure::Failed(format!("error: cannot write {}: {e}", path.display())))?;
    stdio::note(&format!("wrote {} ({} KB)", path.display(), html.len().div_ceil(1024)));
    Ok(())
}
