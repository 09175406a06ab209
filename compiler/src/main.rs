//! The `surqlc` command line: clap definitions and dispatch only; every command's work is a library call.

mod allocator;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use surqlc::audit::{self, AuditOptions, QuestionOptions};
use surqlc::db::Target;
use surqlc::session::{self, Failure};
use surqlc::tokens::Encoding;
use surqlc::Builder;

/// Compile annotated Rust schemas into a SurrealDB schema whose functions write a text-to-SurrealQL prompt.
#[derive(Parser)]
#[command(name = "surqlc", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write OUT/schema.surql (tables, prompt functions, agent user) for `surreal import`, and OUT/schema.rs (typed Rust helpers).
    Build {
        #[command(flatten)]
        input: Input,
        /// Directory to write schema.surql and schema.rs into (created if missing).
        #[arg(long, short, value_name = "DIR")]
        out: PathBuf,
        /// Rust path of the domain types as seen from schema.rs.
        #[arg(long, value_name = "PATH", default_value = "super")]
        types_path: String,
    },
    /// Compile the schema and load it into an empty embedded database, writing nothing.
    Check {
        #[command(flatten)]
        input: Input,
    },
    /// Load the schema and a data file into a database and print the prompt for a question.
    Prompt {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Check generated queries against the schema (tables, fields, traversals, literal values, LIMIT) without a database; exit 1 when one has an error.
    CheckQuery {
        /// The Rust schema file.
        #[arg(value_name = "SCHEMA.rs")]
        schema: PathBuf,
        /// The query to check.
        #[arg(
            value_name = "QUERY",
            required_unless_present = "file",
            conflicts_with = "file"
        )]
        query: Option<String>,
        /// A file of queries, one per example, separated by blank lines or `;`.
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// List the definitions a database is missing, has in addition or has changed against the schema (exit 1 if any, 0 if in sync).
    Diff {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        target: DiffTarget,
    },
    /// Show what each exposed table costs in tokens, check budgets, and suggest cheaper spellings.
    Audit {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        audit: AuditArgs,
    },
    /// Show which tables the pruned prompt carries for each question and what their schema block costs (any schema, with or without prune(...)).
    Prune(PruneArgs),
}

#[derive(Args)]
struct AuditArgs {
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
    /// SurrealQL data file loaded after the schema, for the whole-prompt view.
    #[arg(long, value_name = "FILE", requires = "question")]
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
}

/// Where on a database and as whom: shared by the commands that connect to one.
#[derive(Args)]
struct ServerArgs {
    /// Namespace to use.
    #[arg(long, default_value = "ai")]
    ns: String,
    /// Database to use [default: the schema's name].
    #[arg(long)]
    db: Option<String>,
    /// Root user for a server endpoint.
    #[arg(long, requires = "pass")]
    user: Option<String>,
    /// Root password for a server endpoint.
    #[arg(
        long,
        requires = "user",
        env = "SURQLC_ROOT_PASSWORD",
        hide_env_values = true
    )]
    pass: Option<String>,
}

impl ServerArgs {
    /// The target at `endpoint`; the database defaults to the schema's name.
    fn target(self, endpoint: String, schema: &surqlc::ir::Schema) -> Target {
        Target {
            endpoint,
            namespace: self.ns,
            database: self.db.unwrap_or_else(|| schema.name.clone()),
            root: self.user.zip(self.pass),
        }
    }
}

#[derive(Args)]
struct DiffTarget {
    /// The server to compare: ws://host:port (or mem:// for an empty embedded database).
    #[arg(long, required_unless_present = "dump", conflicts_with = "dump")]
    endpoint: Option<String>,
    /// Compare a dump (`surreal export`) or schema file, loaded into a fresh embedded database, instead of a server.
    #[arg(long, value_name = "FILE")]
    dump: Option<PathBuf>,
    #[command(flatten)]
    server: ServerArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Args)]
struct Input {
    /// The Rust schema file(s), read together as one schema.
    #[arg(required = true, value_name = "SCHEMA.rs")]
    schemas: Vec<PathBuf>,
    /// A Tera template replacing the built-in prompt rules.
    #[arg(long, value_name = "FILE")]
    prompt_template: Option<PathBuf>,
}

#[derive(Args)]
struct RunArgs {
    /// SurrealQL data file loaded after the schema (rows and few-shot examples).
    #[arg(long, value_name = "FILE")]
    seed: Option<PathBuf>,
    /// The natural-language question.
    #[arg(long, short, value_parser = non_empty)]
    question: String,
    /// The question's embedding, comma-separated (its length is the pool's dimension).
    #[arg(
        long,
        short = 'v',
        value_name = "F,F,...",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = number,
        required = true
    )]
    vector: Vec<f64>,
    /// Database endpoint: mem:// (embedded, the default) or ws://host:port.
    #[arg(long, default_value = "mem://")]
    endpoint: String,
    #[command(flatten)]
    server: ServerArgs,
}

/// A `--vector` component: a number, spaces around it allowed.
fn number(text: &str) -> Result<f64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("`{}` is not a number", text.trim()))
}

fn non_empty(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("the question is empty".into())
    } else {
        Ok(text.to_owned())
    }
}

fn encoding(name: &str) -> Result<Encoding, String> {
    Encoding::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Encoding::ALL.iter().map(|e| e.name()).collect();
        format!(
            "unknown encoding {name:?}; expected one of {}",
            known.join(", ")
        )
    })
}

/// `n table` or `n tables`.
fn tables(n: usize) -> String {
    format!("{n} table{}", if n == 1 { "" } else { "s" })
}

fn builder(input: &Input) -> Builder {
    let mut b = Builder::new();
    b.cargo_metadata(false);
    for s in &input.schemas {
        b.schema(s);
    }
    if let Some(t) = &input.prompt_template {
        b.prompt_template(t);
    }
    b
}

async fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Build {
            input,
            out,
            types_path,
        } => {
            let output = builder(&input)
                .out_dir(&out)
                .types_path(types_path)
                .compile()?;
            print_warnings(&output.warnings);
            eprintln!(
                "wrote {} and {} ({}, {} exposed)",
                out.join("schema.surql").display(),
                out.join("schema.rs").display(),
                tables(output.schema.tables.len()),
                output.schema.settings.exposed.len()
            );
            if !output.agent_defined {
                eprintln!(
                    "note: {} is not set, so no agent user is defined; set it and rebuild to add `{}`",
                    surqlc::builder::AGENT_PASSWORD_ENV,
                    output.schema.settings.agent.user
                );
            }
        }
        Command::Check { input } => {
            let output = builder(&input).generate()?;
            print_warnings(&output.warnings);
            session::open_embedded(&output).await?;
            eprintln!(
                "ok: {} compile and load",
                tables(output.schema.tables.len())
            );
        }
        Command::Prompt { input, run } => {
            let output = builder(&input).generate()?;
            session::check_dimension(&output.schema, &run.vector)?;
            let target = run.server.target(run.endpoint, &output.schema);
            let conn = session::open(&output, &target).await?;
            if let Some(seed) = &run.seed {
                session::load_file(&conn, seed).await?;
            }
            let prompt = session::prompt(&conn, &run.question, &run.vector).await?;
            // The token report goes to stderr so stdout stays the prompt, ready to pipe to a model.
            let encoding = Encoding::default();
            let (cost, alternative) = audit::block_costs(&output, encoding);
            eprintln!(
                "{}",
                audit::cost_table(&cost, &alternative, &[], &[]).trim_end()
            );
            eprintln!(
                "prompt: {} tokens ({})\n",
                encoding.count(&prompt),
                encoding.name()
            );
            print!("{prompt}");
        }
        Command::Audit { input, audit: args } => {
            let output = builder(&input).generate()?;
            let options = AuditOptions {
                encoding: args.encoding,
                budget: surqlc::ir::Budget {
                    block: args.budget,
                    table: args.table_budget,
                },
                live: args.live,
                question: args.question.map(|question| QuestionOptions {
                    question,
                    vector: args.vector,
                    seed: args.seed,
                }),
            };
            let report = audit::audit(&output, &options).await?;
            match args.format {
                Format::Json => println!(
                    "{}",
                    serde_json::to_string_pretty(&report.json()).unwrap_or_default()
                ),
                Format::Text => print!("{}", report.text()),
            }
            if let Some(failure) = report.failure() {
                return Err(failure);
            }
        }
        Command::CheckQuery {
            schema,
            query,
            file,
            format,
        } => {
            use surqlc::validate::check::{check_query, Queries};
            let queries = match (query, file) {
                (_, Some(file)) => Queries::File(file),
                (Some(query), None) => Queries::Inline(query),
                (None, None) => {
                    return Err(Failure::BadInput(
                        "error: give a QUERY or --file FILE".into(),
                    ))
                }
            };
            let outcome = check_query(&[schema], &queries, format == Format::Json);
            print!("{}", outcome.stdout);
            match outcome.status {
                0 => {}
                1 => return Err(Failure::Failed(outcome.stderr)),
                _ => return Err(Failure::BadInput(outcome.stderr)),
            }
            eprintln!("{}", outcome.stderr);
        }
        Command::Prune(args) => prune(args).await?,
        Command::Diff { input, target } => {
            let mut b = builder(&input);
            let ignore_passhash = session::password_for_diff(&mut b);
            let output = b.generate()?;
            let source = session::DiffSource {
                dump: target.dump,
                target: target.server.target(
                    target.endpoint.unwrap_or_else(|| "mem://".into()),
                    &output.schema,
                ),
            };
            let found = session::diff(&output, &source, ignore_passhash).await?;
            if !found.is_empty() {
                print!("{found}");
                return Err(Failure::Failed(format!(
                    "{} difference{} between the database and the schema (\"was\": the schema, \"now\": the database)",
                    found.changes.len(),
                    if found.changes.len() == 1 { "" } else { "s" }
                )));
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    allocator::keep_freed_memory();
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("{failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}

/// Lints, rustc-style, on stderr.
fn print_warnings(warnings: &[surqlc::Diagnostic]) {
    for w in warnings {
        eprintln!("{w}\n");
    }
}

#[derive(Args)]
struct PruneArgs {
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

/// `surqlc prune`: the pruned prompt's tables per question (see `surqlc::prune_run`).
async fn prune(args: PruneArgs) -> Result<(), Failure> {
    use std::io::Write;
    use surqlc::prune_run::{self, Pruner};
    let questions = match (&args.question, &args.questions) {
        (Some(q), _) => vec![q.clone()],
        (None, Some(file)) => prune_run::read_questions(file)?,
        (None, None) => {
            return Err(Failure::BadInput(
                "error: give --question Q or --questions FILE".into(),
            ))
        }
    };
    let vector = (!args.vector.is_empty()).then_some(args.vector);
    let pruner = Pruner::open(
        &args.input.schemas,
        args.input.prompt_template.as_deref(),
        args.seed.as_deref(),
        args.budget,
        vector,
    )
    .await?;
    print_warnings(&pruner.warnings);
    let mut out = std::io::stdout().lock();
    for q in &questions {
        let choice = pruner.choose(q).await?;
        if choice.fallback && args.format == Format::Json {
            eprintln!(
                "note: no table shares a word with {:?}: fallback tables",
                choice.question
            );
        }
        let line = match args.format {
            Format::Json => format!("{}\n", prune_run::json_line(&choice)),
            Format::Text => prune_run::text(&choice),
        };
        // A closed pipe (`| head`) ends the output, not the process with a panic.
        if out
            .write_all(line.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            return Ok(());
        }
    }
    Ok(())
}
