//! The `surqlc` command line: clap definitions and dispatch only; every command's work is a library call.

// Every write goes through `out!`/`note!` (`stdio`): `print!` panics when stdout's reader goes away.
#![warn(clippy::print_stdout, clippy::print_stderr)]

mod agent;
mod allocator;
mod audit_cmd;
mod check_query;
mod exit;
mod idp;
mod lints;
mod ops;
mod otel;
mod progress;
mod prune;
mod stdio;

use crate::exit::{Exit, FailureExit};
use clap::{Args, Parser, Subcommand};
use lints::LintArgs;
use std::path::PathBuf;
use std::process::ExitCode;
use surqlc::db::Target;
use surqlc::exit::Failure;
use surqlc::schema_db;
use surqlc::tokens::Encoding;
use surqlc::Builder;

/// `print!` to stdout through [`stdio::out`]: a closed pipe ends the output quietly (`?`: other write errors fail the command).
macro_rules! out {
    ($($arg:tt)*) => {
        stdio::out(&format!($($arg)*))?
    };
}

/// `eprintln!` through [`stdio::note`], which never panics.
macro_rules! note {
    ($($arg:tt)*) => {
        stdio::note(&format!($($arg)*))
    };
}

// After the macros, which they use.
mod commands;
mod evolve_cmd;
mod init_cmd;

/// Compile annotated Rust schemas into a SurrealDB schema whose functions write a text-to-SurrealQL prompt.
#[derive(Parser)]
#[command(name = "surqlc", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write the annotated Rust schema file from an existing schema: .surql files, a `surreal export` dump, or a
    /// database (--endpoint); exit 1 when anything was left out (listed) unless --allow-partial.
    Init(init_cmd::InitArgs),
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
        /// Namespace for the printed `surreal import` command (the file itself loads into any).
        #[arg(long, default_value = "ai")]
        ns: String,
        /// Database for the printed `surreal import` command [default: the schema's name].
        #[arg(long)]
        db: Option<String>,
        /// Named queries (`-- name: NAME :many` files): a directory of `*.surql` files or one file,
        /// checked against the schema; repeatable.
        #[arg(long, value_name = "DIR")]
        queries: Vec<PathBuf>,
    },
    /// Compile the schema and load it into an empty embedded database, writing nothing.
    Check {
        #[command(flatten)]
        input: Input,
    },
    /// Print the prompt for a question: from the embedded database with the schema (and a data file) loaded,
    /// or read from a server's database (which is written only with --apply).
    Prompt {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        run: RunArgs,
        /// Against a server: apply the plan (`surqlc apply`'s: one transaction, refused when it breaks rows or
        /// loses data) before reading the prompt. Without it a server is only read, and its drift from the schema
        /// is reported on stderr.
        #[arg(long)]
        apply: bool,
        /// Print the pruned prompt, fn::nl2surql_prompt_pruned (a schema with prune(...) only).
        #[arg(long)]
        pruned: bool,
    },
    /// Check queries against the schema without a database: the agent's (tables, fields, traversals, literal
    /// values, LIMIT), or the application's reads and writes with --profile app; exit 1 when one has an error.
    CheckQuery {
        /// The Rust schema file(s), read together as one schema (the arguments ending in `.rs`), and the query to check (the one that does not).
        #[arg(value_name = "SCHEMA.rs... [QUERY]", required = true)]
        args: Vec<String>,
        /// The query to check, instead of the positional QUERY (say, one that ends in `.rs`).
        #[arg(long, value_name = "QUERY", conflicts_with = "file")]
        query: Option<String>,
        /// A file of queries, one per example, separated by blank lines or `;`; or a named-query file (`-- name: NAME :many` before each query).
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Whose statements: `agent` (one SELECT over the exposed tables, the row policy) or `app` (the
        /// application's own: every statement kind, reads and writes, over the whole schema, no LIMIT rule).
        /// A named-query file is always checked as `app`.
        #[arg(long, value_enum, default_value_t = ProfileArg::Agent)]
        profile: ProfileArg,
        /// Also run the runner's data checks (record ids exist, compared values are present) on this data
        /// file, loaded after the schema into the embedded engine.
        #[arg(long, value_name = "FILE", conflicts_with = "endpoint")]
        seed: Option<PathBuf>,
        /// Also run the data checks on this server's database (ws://HOST:PORT), read only.
        #[arg(long)]
        endpoint: Option<String>,
        /// Run the data checks as one end user of the schema's scope(...) (e.g. customer:mei): ids and values
        /// are checked against what that user may read [key: $SURQLC_SCOPE_KEY, or a fresh one with --seed].
        #[arg(long = "as", value_name = "TABLE:ID")]
        as_user: Option<String>,
        #[command(flatten)]
        server: ServerArgs,
        #[command(flatten)]
        lints: LintArgs,
    },
    /// List the definitions a database is missing, has in addition or has changed against the schema (exit 1 if any, 0 if in sync).
    Diff {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        target: DiffTarget,
    },
    /// The changes that bring a database (or a dump) to the schema, in order, each with the rows it would break
    /// or the values it would lose, read only (exit 0 when every change is safe, 1 when one is not).
    Plan {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        plan: evolve_cmd::PlanArgs,
    },
    /// Run the plan as one transaction (nothing changes when a statement fails); refused when it breaks rows or
    /// would lose data, unless allowed.
    Apply {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        apply: evolve_cmd::ApplyArgs,
    },
    /// Ask a question: the configured model (SURQLC_MODEL_URL, SURQLC_MODEL) writes the query, surqlc
    /// validates it, sends the problems back, and runs the accepted query as the agent (exit 1 when no valid
    /// query).
    Ask {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        db: DbArgs,
        /// The natural-language question.
        #[arg(long, short, value_parser = non_empty)]
        question: String,
        #[command(flatten)]
        agent: AgentArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Execution accuracy on a golden file: each candidate (from --candidates, else the configured model)
    /// runs as the agent and must return the gold query's rows.
    Eval {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        db: DbArgs,
        /// JSON lines of {"question": ..., "query": ...}: the gold queries.
        #[arg(long, value_name = "FILE")]
        golden: PathBuf,
        /// JSON lines of {"question": ..., "query": ...}: the queries to judge, instead of asking the model.
        #[arg(long, value_name = "FILE")]
        candidates: Option<PathBuf>,
        #[command(flatten)]
        agent: AgentArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Also write the report as one self-contained HTML page to FILE (wrong answers first).
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Show what each exposed table costs in tokens, check budgets, and suggest cheaper spellings.
    Audit {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        audit: audit_cmd::AuditArgs,
    },
    /// Serve the agent's tools (schema, check_query, run_query) over MCP: stdio, or streamable HTTP at /mcp with --http.
    Mcp {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        mcp: McpArgs,
    },
    /// Print a short-lived token for one end user of the schema's scope(...), signed with SURQLC_SCOPE_KEY:
    /// what an application hands a client that speaks for that user (e.g. to `surqlc mcp --http ADDR
    /// --per-user` as its bearer token).
    Token {
        #[command(flatten)]
        input: Input,
        /// The end user, as a record id of the scope's end-user table (e.g. customer:mei).
        #[arg(long = "as", value_name = "TABLE:ID")]
        as_user: String,
        /// Namespace the token is for.
        #[arg(long, default_value = "ai")]
        ns: String,
        /// Database the token is for [default: the schema's name].
        #[arg(long)]
        db: Option<String>,
        /// Check that the end user exists in this data file, loaded after the schema into the embedded engine.
        #[arg(long, value_name = "FILE", conflicts_with = "endpoint")]
        seed: Option<PathBuf>,
        /// Check that the end user exists on this SurrealDB server (ws://host:port) by signing in with the token; nothing is written.
        #[arg(long, value_name = "URL")]
        endpoint: Option<String>,
    },
    /// Show which tables the pruned prompt carries for each question and what their schema block costs (any schema, with or without prune(...)).
    Prune(prune::PruneArgs),
}

#[derive(Args)]
struct McpArgs {
    /// SurrealQL data file the embedded engine loads after the schema.
    #[arg(long, value_name = "FILE", conflicts_with = "endpoint")]
    seed: Option<PathBuf>,
    /// A SurrealDB server (ws://host:port) to serve instead of the embedded engine; checked for drift, never written.
    #[arg(long)]
    endpoint: Option<String>,
    #[command(flatten)]
    server: ServerArgs,
    /// Serve streamable HTTP at http://ADDR/mcp (e.g. 127.0.0.1:8765) instead of stdio; an address other than loopback needs a token.
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,
    /// File whose first line is the bearer token every HTTP request must carry [default: $SURQLC_MCP_TOKEN].
    #[arg(long, value_name = "FILE", requires = "http")]
    token_file: Option<PathBuf>,
    /// Also accept this Host name (or host:port) on HTTP, e.g. the DNS name clients use; repeatable.
    #[arg(long, value_name = "HOST", requires = "http")]
    allow_host: Vec<String>,
    /// Offer remember_example (stores accepted examples; needs an EDITOR or OWNER: the embedded owner, or --user/--pass on a server).
    #[arg(long)]
    allow_remember: bool,
    #[command(flatten)]
    lints: LintArgs,
    /// Most rows in one run_query answer [default: the schema's max_rows].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_rows: Option<u32>,
    /// Most bytes of rows in one run_query answer.
    #[arg(long, value_name = "N", default_value_t = 16384, value_parser = clap::value_parser!(u32).range(64..))]
    max_bytes: u32,
    /// Serve one end user (e.g. customer:mei) through the schema's scope(...): the prompt and every query run
    /// in that user's session, which reads only their rows [key: $SURQLC_SCOPE_KEY, or a fresh one on the
    /// embedded engine].
    #[arg(long = "as", value_name = "TABLE:ID", conflicts_with = "per_user")]
    as_user: Option<String>,
    /// With --http: each request's bearer token is an end user's token (signed by the application with
    /// SURQLC_SCOPE_KEY, e.g. `surqlc token --as customer:mei`, or by the identity provider of --jwks or the
    /// schema's scope(jwks = ...)), and its calls run in that user's session; a request without one gets 401.
    #[arg(long, requires = "http", conflicts_with = "token_file")]
    per_user: bool,
    #[command(flatten)]
    idp: idp::IdpArgs,
    /// Seconds one tool call may take, all of it (the engine's statements, the model's replies); also each statement's TIMEOUT.
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=3600))]
    timeout: u32,
    /// Named queries (`-- name: NAME :many` files, as `build --queries` reads them): each becomes a read-only
    /// tool named after it, its parameters the tool's arguments; a directory of `*.surql` files or one file; repeatable.
    #[arg(long, value_name = "DIR")]
    queries: Vec<PathBuf>,
    #[command(flatten)]
    ops: ops::OpsArgs,
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
    #[arg(long, requires = "user", env = "SURQLC_ROOT_PASSWORD", hide_env_values = true)]
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

/// The database `ask` and `eval` run on.
#[derive(Args)]
struct DbArgs {
    /// SurrealQL data file loaded after the schema (rows and few-shot examples).
    #[arg(long, value_name = "FILE")]
    seed: Option<PathBuf>,
    /// Database endpoint: mem:// (embedded, the default) or ws://host:port.
    #[arg(long, default_value = "mem://")]
    endpoint: String,
    #[command(flatten)]
    server: ServerArgs,
}

/// The agent loop's settings.
#[derive(Args)]
struct AgentArgs {
    /// Most replies the model may give for one question (the first and its repairs).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    attempts: u32,
    /// The question's embedding, comma-separated, when no embedding model (SURQLC_EMBED_MODEL) is configured.
    #[arg(
        long,
        short = 'v',
        value_name = "F,F,...",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = number
    )]
    vector: Vec<f64>,
    #[command(flatten)]
    lints: LintArgs,
    /// Answer for one end user (e.g. customer:mei) through the schema's scope(...): the prompt and every
    /// query run in that user's session, which reads only their rows [key: $SURQLC_SCOPE_KEY, or a fresh one
    /// on the embedded engine].
    #[arg(long = "as", value_name = "TABLE:ID")]
    as_user: Option<String>,
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
    /// Expect the agent even though SURQLC_AGENT_PASSWORD is not set (its password is never compared: INFO
    /// redacts it). Without the password and this flag the schema defines no agent, so one in the database is
    /// listed as extra.
    #[arg(long)]
    expect_agent: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

/// `check-query --profile`: whose statements are judged (`surqlc::validate::Profile`).
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ProfileArg {
    /// The agent's queries: one SELECT over the exposed tables and visible fields, with the row policy.
    Agent,
    /// The application's own statements: reads and writes over the whole schema.
    App,
}

impl From<ProfileArg> for surqlc::validate::Profile {
    fn from(p: ProfileArg) -> Self {
        match p {
            ProfileArg::Agent => surqlc::validate::Profile::Agent,
            ProfileArg::App => surqlc::validate::Profile::App,
        }
    }
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
    /// The question's embedding, comma-separated (its length is the pool's dimension); without it the EXAMPLES section is empty.
    #[arg(
        long,
        short = 'v',
        value_name = "F,F,...",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = number
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
        format!("unknown encoding {name:?}; expected one of {}", known.join(", "))
    })
}

/// `n table` or `n tables`.
fn tables(n: usize) -> String {
    format!("{n} table{}", if n == 1 { "" } else { "s" })
}

/// What `ask` or `eval` does once the schema is compiled with the agent's password.
enum AgentCommand {
    Ask(String),
    Eval {
        golden: PathBuf,
        candidates: Option<PathBuf>,
        html: Option<PathBuf>,
    },
}

/// `ask` and `eval`: the schema compiled with the agent's password, run where `db` says.
async fn agent_command(
    input: &Input,
    db: DbArgs,
    agent: AgentArgs,
    format: Format,
    command: AgentCommand,
) -> Result<(), Failure> {
    let password = schema_db::agent_password(
        &db.endpoint,
        &format!(
            "the schema is applied to {} with it and the query runs as the agent",
            db.endpoint
        ),
    )?;
    let mut b = builder(input);
    b.agent_password(password.clone());
    let scope_key = commands::scope_key_for(
        &mut b,
        agent.as_user.is_some(),
        &db.endpoint,
        "the schema is applied with it and --as signs the end user in with it",
    )?;
    let mut output = b.generate()?;
    agent.lints.apply(&mut output.schema.settings.lints)?;
    let target = db.server.target(db.endpoint.clone(), &output.schema);
    if let Some(user) = &agent.as_user {
        schema_db::scope_for(&output.schema, &target, user)?;
    }
    print_warnings(&output.warnings);
    let run = agent::Run {
        output: &output,
        target: &target,
        seed: db.seed.as_deref(),
        password: &password,
        as_user: agent
            .as_user
            .zip(scope_key)
            .map(|(user, key)| agent::AsUser { user, key }),
        attempts: agent.attempts,
        vector: Some(agent.vector).filter(|v| !v.is_empty()),
        json: format == Format::Json,
    };
    match command {
        AgentCommand::Ask(question) => agent::ask(run, &question).await,
        AgentCommand::Eval {
            golden,
            candidates,
            html,
        } => agent::eval(run, &golden, candidates.as_ref(), html.as_deref()).await,
    }
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
        Command::Init(args) => init_cmd::init(args).await?,
        Command::Build {
            input,
            out,
            types_path,
            ns,
            db,
            queries,
        } => commands::build(&input, out, types_path, ns, db, queries)?,
        Command::Check { input } => commands::check(&input).await?,
        Command::Prompt {
            input,
            run,
            apply,
            pruned,
        } => commands::prompt(&input, run, apply, pruned).await?,
        Command::Ask {
            input,
            db,
            question,
            agent,
            format,
        } => agent_command(&input, db, agent, format, AgentCommand::Ask(question)).await?,
        Command::Eval {
            input,
            db,
            golden,
            candidates,
            agent,
            format,
            html,
        } => {
            let command = AgentCommand::Eval {
                golden,
                candidates,
                html,
            };
            agent_command(&input, db, agent, format, command).await?
        }
        Command::Audit { input, audit: args } => audit_cmd::audit(input, args).await?,
        Command::CheckQuery {
            args,
            query,
            file,
            format,
            profile,
            seed,
            endpoint,
            as_user,
            server,
            lints,
        } => {
            let data = (seed, endpoint, as_user);
            commands::check_query(&args, (query, file), format, profile.into(), data, server, lints).await?
        }
        Command::Mcp { input, mcp } => commands::mcp(&input, mcp).await?,
        Command::Prune(args) => prune::prune(args).await?,
        Command::Token {
            input,
            as_user,
            ns,
            db,
            seed,
            endpoint,
        } => commands::token(&input, &as_user, ns, db, seed, endpoint).await?,
        Command::Diff { input, target } => commands::diff(&input, target).await?,
        Command::Plan { input, plan } => evolve_cmd::plan(&input, plan).await?,
        Command::Apply { input, apply } => evolve_cmd::apply(&input, apply).await?,
    }
    Ok(())
}

fn main() -> ExitCode {
    allocator::keep_freed_memory();
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            note!("error: cannot start the async runtime: {e}");
            return Exit::Failed.into();
        }
    };
    let result = runtime.block_on(run(cli));
    // A blocking read of stdin cannot be cancelled (`surqlc mcp` on stdio stopped by SIGTERM):
    // do not wait for it to end.
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    match result {
        Ok(()) => Exit::Ok.into(),
        Err(failure) => {
            // An empty message: the output already said why (`ask`'s verdict).
            if !failure.to_string().is_empty() {
                note!("{failure}");
            }
            failure.exit().into()
        }
    }
}

/// Lints, rustc-style, on stderr.
fn print_warnings(warnings: &[surqlc::Diagnostic]) {
    for w in warnings {
        note!("{w}\n");
    }
}
