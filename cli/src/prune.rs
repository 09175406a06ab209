//! `surqlc prune` (the binary's own code): its arguments, and the pruned prompt's tables per question printed as text or JSON lines (the work is `surqlc::audit::prune_run`'s).

use crate::{non_empty, number, print_warnings, stdio, Format, Input};
use clap::Args;
use std::path::PathBuf;
use surqlc::exit::Failure;

#[derive(Args)]
pub struct PruneArgs {
    #[command(flatten)]
    input: Input,
    /// SurrealQL data file loaded after the schema (rows for value linking, table embeddings).
    #[arg(long, value_name = "FILE")]
    seed: Option<PathBuf>,
    /// One question.
    #[arg(long, short, value_parser = non_empty, required_unless_present = "questions", conflicts_with = "questions")]
    question: Option<String>,
    /// A file of questions, one per line (or a JSON array of {"question": ...} objects); the schema is loaded once.
    #[arg(long, value_name = "FILE")]
    questions: Option<PathBuf>,
    /// Most tokens the schema block may cost [default: the schema's prune(budget), else 2000].
    #[arg(long, value_name = "N")]
    budget: Option<u32>,
    /// The questions' embedding, comma-separated (used when the schema fuses vectors).
    #[arg(long, short = 'v', value_name = "F,F,...", value_delimiter = ',', allow_hyphen_values = true, value_parser = number)]
    vector: Vec<f64>,
    /// Output format: text, or one JSON object per question and line.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// `surqlc prune`: the pruned prompt's tables per question (see `surqlc::audit::prune_run`).
pub async fn prune(args: PruneArgs) -> Result<(), Failure> {
    use surqlc::audit::prune_run::{self, PruneRun};
    let questions = match (&args.question, &args.questions) {
        (Some(q), _) => vec![q.clone()],
        (None, Some(file)) => prune_run::read_questions(file)?,
        (None, None) => return Err(Failure::BadInput("error: give --question Q or --questions FILE".into())),
    };
    let vector = (!args.vector.is_empty()).then_some(args.vector);
    let run = PruneRun::open(
        &args.input.schemas,
        args.input.prompt_template.as_deref(),
        args.seed.as_deref(),
        args.budget,
        vector,
    )
    .await?;
    print_warnings(&run.warnings);
    let progress = crate::progress::Progress::new(questions.len(), "questions");
    for q in &questions {
        progress.step(q);
        let choice = run.choose(q).await?;
        progress.done();
        if choice.fallback && args.format == Format::Json {
            stdio::note(&format!(
                "note: no table shares a word with {:?}: fallback tables",
                choice.question
            ));
        }
        let line = match args.format {
            Format::Json => format!("{}\n", prune_run::json_line(&choice)),
            Format::Text => prune_run::text(&choice),
        };
        // A closed pipe (`| head`) ends the output and the work; any other write error fails the run.
        progress.suspend(|| stdio::out(&line))?;
        if stdio::stdout_closed() {
            break;
        }
    }
    Ok(())
}
