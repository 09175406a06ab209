//! The `surqlc` command line: build, check and show the prompt of a Rust schema.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use surqlc::db::{self, Target};
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
    /// Write OUT/schema.surql (tables, prompt functions, agent user) for `surreal import`.
    Build {
        #[command(flatten)]
        input: Input,
        /// Directory to write schema.surql into (created if missing).
        #[arg(long, short, value_name = "DIR")]
        out: PathBuf,
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
    #[arg(long, short)]
    question: String,
    /// The question's embedding, comma-separated (its length is the pool's dimension).
    #[arg(
        long,
        short = 'v',
        value_name = "F,F,...",
        value_delimiter = ',',
        allow_hyphen_values = true,
        required = true
    )]
    vector: Vec<f64>,
    /// Database endpoint: mem:// (embedded, the default) or ws://host:port.
    #[arg(long, default_value = "mem://")]
    endpoint: String,
    /// Namespace to use.
    #[arg(long, default_value = "ai")]
    ns: String,
    /// Database to use.
    #[arg(long, default_value = "store")]
    db: String,
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

/// A failure: its message and exit status (2 for bad input, 1 for a failed check).
struct Failure(String, u8);

impl From<surqlc::Error> for Failure {
    fn from(e: surqlc::Error) -> Self {
        Failure(e.to_string(), 2)
    }
}

fn db_failure(what: &str) -> impl Fn(db::Error) -> Failure + '_ {
    move |e| Failure(format!("error: {what}: {e}"), 1)
}

fn read(path: &PathBuf) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure(format!("error: cannot read {}: {e}", path.display()), 2))
}

async fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Build { input, out } => {
            let output = builder(&input).out_dir(&out).compile()?;
            let path = out.join("schema.surql");
            eprintln!(
                "wrote {} ({} tables, {} exposed)",
                path.display(),
                output.schema.tables.len(),
                output.schema.settings.exposed.len()
            );
            if !output.schema_surql.contains("DEFINE USER") {
                eprintln!(
                    "note: {} is not set, so no agent user is defined; set it and rebuild to add `{}`",
                    surqlc::builder::AGENT_PASSWORD_ENV,
                    output.schema.settings.agent.user
                );
            }
        }
        Command::Check { input } => {
            let output = builder(&input).generate()?;
            let conn = db::connect(&Target::default())
                .await
                .map_err(db_failure("cannot start the embedded database"))?;
            db::execute(&conn, &output.schema_surql)
                .await
                .map_err(db_failure("the database rejected the generated schema"))?;
            eprintln!("ok: {} tables compile and load", output.schema.tables.len());
        }
        Command::Prompt { input, run } => {
            let output = builder(&input).generate()?;
            let target = Target {
                endpoint: run.endpoint.clone(),
                namespace: run.ns.clone(),
                database: run.db.clone(),
                root: run.user.clone().zip(run.pass.clone()),
            };
            let conn = db::connect(&target)
                .await
                .map_err(db_failure(&format!("cannot connect to {}", run.endpoint)))?;
            db::execute(&conn, &output.schema_surql)
                .await
                .map_err(db_failure("the database rejected the generated schema"))?;
            if let Some(seed) = &run.seed {
                let text = read(seed)?;
                db::execute(&conn, &text)
                    .await
                    .map_err(|e| Failure(format!("error: loading {}: {e}", seed.display()), 1))?;
            }
            let prompt = db::prompt(&conn, &run.question, &run.vector)
                .await
                .map_err(db_failure("fn::nl2surql_prompt failed"))?;
            print!("{prompt}");
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message, code)) => {
            eprintln!("{message}");
            ExitCode::from(code)
        }
    }
}
