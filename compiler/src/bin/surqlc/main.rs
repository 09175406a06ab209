//! The `surqlc` command line: clap definitions and dispatch only; every command's work is a library call.

// Every write goes through `out!`/`note!` (`stdio`): `print!` panics when stdout's reader goes away.
#![warn(clippy::print_stdout, clippy::print_stderr)]

mod agent;
mod allocator;
mod audit_cmd;
mod check_query;
mod lints;
mod progress;
mod prune;
mod stdio;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use surqlc::audit;
use surqlc::db::Target;
use surqlc::drift::diff;
use surqlc::exit::Exit;
use surqlc::exit::Failure;
use lints::LintArgs;
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
    /// Print the prompt for a question: from the embedded database with the schema (and a data file) loaded, or read from a server's database (which is written only with --apply).
    Prompt {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        run: RunArgs,
        /// Against a server: apply the schema (every DEFINE ... OVERWRITE) before reading the prompt, and say what that changed. Without it a server is only read, and its drift from the schema is reported on stderr.
        #[arg(long)]
        apply: bool,
        /// Print the pruned prompt, fn::nl2surql_prompt_pruned (a schema with prune(...) only).
        #[arg(long)]
        pruned: bool,
    },
    /// Check generated queries against the schema (tables, fields, traversals, literal values, LIMIT) without a database; exit 1 when one has an error.
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
        /// Also run the runner's data checks (record ids exist, compared values are present) on this data file, loaded after the schema into the embedded engine.
        #[arg(long, value_name = "FILE", conflicts_with = "endpoint")]
        seed: Option<PathBuf>,
        /// Also run the data checks on this server's database (ws://HOST:PORT), read only.
        #[arg(long)]
        endpoint: Option<String>,
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
    /// Ask a question: the configured model (SURQLC_MODEL_URL, SURQLC_MODEL) writes the query, surqlc validates it, sends the problems back, and runs the accepted query as the agent (exit 1 when no valid query).
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
    /// Execution accuracy on a golden file: each candidate (from --candidates, else the configured model) runs as the agent and must return the gold query's rows.
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
    /// Seconds one tool call may take, all of it (the engine's statements, the model's replies); also each statement's TIMEOUT.
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=3600))]
    timeout: u32,
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
    /// Expect the agent even though SURQLC_AGENT_PASSWORD is not set (its password is never compared: INFO redacts it). Without the password and this flag the schema defines no agent, so one in the database is listed as extra.
    #[arg(long)]
    expect_agent: bool,
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
    let mut output = b.generate()?;
    agent.lints.apply(&mut output.schema.settings.lints)?;
    print_warnings(&output.warnings);
    let target = db.server.target(db.endpoint, &output.schema);
    let run = agent::Run {
        output: &output,
        target: &target,
        seed: db.seed.as_deref(),
        password: &password,
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
        Command::Build {
            input,
            out,
            types_path,
            ns,
            db,
            queries,
        } => {
            let mut b = builder(&input);
            for q in &queries {
                b.queries(q);
            }
            let output = b.out_dir(&out).types_path(types_path).compile()?;
            print_warnings(&output.warnings);
            let surql = out.join("schema.surql");
            note!(
                "wrote {} and {} ({}, {} exposed)",
                surql.display(),
                out.join("schema.rs").display(),
                tables(output.schema.tables.len()),
                output.schema.settings.exposed.len()
            );
            let db = db.unwrap_or_else(|| output.schema.name.clone());
            note!(
                "for namespace `{ns}`, database `{db}` (what `surqlc prompt`, `diff` and `check-query` use unless given --ns/--db), load it with:\n  surreal import --endpoint http://localhost:8000 --user root --pass <root password> --ns {ns} --db {db} {}",
                surql.display()
            );
            if !output.agent_defined {
                note!(
                    "note: {} is not set, so no agent user is defined; set it and rebuild to add `{}`",
                    surqlc::builder::AGENT_PASSWORD_ENV,
                    output.schema.settings.agent.user
                );
            }
        }
        Command::Check { input } => {
            let output = builder(&input).generate()?;
            print_warnings(&output.warnings);
            schema_db::open_embedded(&output).await?;
            note!(
                "ok: {} compile and load",
                tables(output.schema.tables.len())
            );
        }
        Command::Prompt {
            input,
            run,
            apply,
            pruned,
        } => {
            let output = builder(&input).generate()?;
            if !run.vector.is_empty() {
                schema_db::check_dimension(&output.schema, &run.vector)?;
            }
            if pruned {
                // Before connecting to anything.
                schema_db::check_pruned(&output)?;
            }
            // The embedded engine starts empty, so it is always loaded; a server is only read unless --apply.
            let server = !surqlc::db::is_embedded(&run.endpoint);
            let target = run.server.target(run.endpoint, &output.schema);
            let place = format!(
                "namespace `{}`, database `{}` at {}",
                target.namespace, target.database, target.endpoint
            );
            let conn = if server {
                let conn = schema_db::connect(&target).await?;
                let said = diff::read_or_apply(&conn, &output, apply, &place).await?;
                if !said.is_empty() {
                    note!("{said}");
                }
                conn
            } else {
                schema_db::open(&output, &target).await?
            };
            if let Some(seed) = &run.seed {
                schema_db::load_file(&conn, seed).await?;
                if server {
                    note!("loaded {} into {place}", seed.display());
                }
            }
            let vector = (!run.vector.is_empty()).then_some(run.vector.as_slice());
            if vector.is_none() {
                note!(
                    "note: no --vector, so the EXAMPLES section is empty (give the question's embedding, {} numbers, to fill it)",
                    output.schema.settings.examples.dimension
                );
            }
            let prompt = schema_db::prompt_for(&conn, &output, &run.question, vector, pruned).await;
            let prompt = prompt.map_err(|failure| match failure {
                Failure::Failed(m) if server && !apply => Failure::Failed(format!(
                    "{m}\n(was the schema applied to {place}? --apply applies it)"
                )),
                other => other,
            })?;
            // The token report goes to stderr so stdout stays the prompt, ready to pipe to a model.
            let encoding = Encoding::default();
            let (cost, alternative) = audit::block_costs(&output, encoding);
            note!(
                "{}",
                audit::cost_table(&cost, &alternative, &[], &[]).trim_end()
            );
            note!(
                "prompt: {} tokens ({})\n",
                encoding.count(&prompt),
                encoding.name()
            );
            out!("{prompt}");
        }
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
            seed,
            endpoint,
            server,
            lints,
        } => {
            use check_query::{check_query_linted, split_arguments, Queries};
            let (schemas, positional) = split_arguments(&args).map_err(Failure::BadInput)?;
            let queries = match (positional.or(query), file) {
                (Some(_), Some(_)) => {
                    return Err(Failure::BadInput(
                        "error: give a QUERY or --file FILE, not both".into(),
                    ))
                }
                (None, Some(file)) => Queries::File(file),
                (Some(query), None) => Queries::Inline(query),
                (None, None) => {
                    return Err(Failure::BadInput(
                        "error: give a QUERY or --file FILE".into(),
                    ))
                }
            };
            let json = format == Format::Json;
            let source = match (seed, endpoint) {
                (Some(seed), _) => Some(Ok(seed)),
                (None, Some(endpoint)) => Some(Err(endpoint)),
                (None, None) => None,
            };
            let outcome = match source {
                None => {
                    let mut levels = surqlc::ir::Lints::default();
                    lints.apply(&mut levels)?;
                    check_query_linted(&schemas, &queries, json, &levels)
                }
                Some(source) => {
                    let mut b = Builder::new();
                    b.cargo_metadata(false).no_agent();
                    for s in &schemas {
                        b.schema(s);
                    }
                    let mut output = b.generate()?;
                    lints.apply(&mut output.schema.settings.lints)?;
                    let source = match source {
                        Ok(seed) => check_query::DataSource::Seed(seed),
                        Err(endpoint) => {
                            check_query::DataSource::Server(server.target(endpoint, &output.schema))
                        }
                    };
                    check_query::with_data(&output, &queries, json, &source).await
                }
            };
            out!("{}", outcome.stdout);
            match outcome.status {
                Exit::Ok => {}
                Exit::Failed => return Err(Failure::Failed(outcome.stderr)),
                Exit::BadInput => return Err(Failure::BadInput(outcome.stderr)),
            }
            note!("{}", outcome.stderr);
        }
        Command::Mcp { input, mcp } => {
            let endpoint = mcp.endpoint.unwrap_or_else(|| surqlc::db::EMBEDDED.into());
            let password = schema_db::agent_password(
                &endpoint,
                &format!("run_query signs in as the agent on {endpoint}"),
            )?;
            let mut output = builder(&input)
                .agent_password(password.as_str())
                .generate()?;
            mcp.lints.apply(&mut output.schema.settings.lints)?;
            print_warnings(&output.warnings);
            let schema = &output.schema;
            // Only HTTP carries the token; on stdio the host that started the process is the client.
            let token = match &mcp.http {
                Some(_) => surqlc::mcp::Token::configured(mcp.token_file.as_deref())?,
                None => None,
            };
            let options = surqlc::mcp::Options {
                target: mcp.server.target(endpoint, schema),
                seed: mcp.seed,
                http: mcp.http,
                allow_remember: mcp.allow_remember,
                caps: surqlc::mcp::Caps {
                    rows: mcp.max_rows.unwrap_or(schema.settings.max_rows) as usize,
                    bytes: mcp.max_bytes as usize,
                },
                timeout: std::time::Duration::from_secs(u64::from(mcp.timeout)),
                token,
                allowed_hosts: mcp.allow_host,
            };
            // Listen before loading, so that a client connecting early waits rather than being refused.
            let transport = surqlc::mcp::Transport::bind(&options).await?;
            if let Some(url) = transport.url() {
                note!("listening at {url}; loading the database (\"serving MCP at\" follows when ready)");
            }
            let state = surqlc::mcp::start(&output, &password, &options).await?;
            note!(
                "surqlc mcp: {} on {}, {}",
                tables(output.schema.settings.exposed.len()),
                options.target.endpoint,
                match &options.http {
                    Some(_) => "streamable HTTP",
                    None => "stdio",
                }
            );
            surqlc::mcp::serve_on(state, transport).await?;
        }
        Command::Prune(args) => prune::prune(args).await?,
        Command::Diff { input, target } => {
            let mut b = builder(&input);
            let agent = diff::agent_for_diff(&mut b, target.expect_agent);
            let output = b.generate()?;
            let source = diff::DiffSource {
                dump: target.dump,
                target: target.server.target(
                    target
                        .endpoint
                        .unwrap_or_else(|| surqlc::db::EMBEDDED.into()),
                    &output.schema,
                ),
            };
            let found = diff::diff(&output, &source, agent.ignore_passhash).await?;
            if found.is_empty() {
                let place = match &source.dump {
                    Some(dump) => dump.display().to_string(),
                    None => format!(
                        "namespace `{}`, database `{}` at {}",
                        source.target.namespace, source.target.database, source.target.endpoint
                    ),
                };
                note!("in sync: {place} has every definition the schema makes, and no other");
            } else {
                out!("{found}");
                if let Some(why) = diff::unexpected_agent_note(&output, &found, agent) {
                    note!("{why}");
                }
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
