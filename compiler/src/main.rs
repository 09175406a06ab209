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
    /// Show what each exposed table costs in tokens, check budgets, and suggest cheaper spellings.
    Audit {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        audit: AuditArgs,
    },
}

#[derive(Args)]
struct AuditArgs {
    /// tiktoken encoding: o200k_base, cl100k_base, o200k_harmony, p50k_base, p50k_edit or r50k_base.
    #[arg(long, default_value = "o200k_base")]
    encoding: String,
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

/// The question vector must have the pool's dimension; say so before the engine does.
/// Lints, rustc-style, on stderr.
fn print_warnings(warnings: &[surqlc::Diagnostic]) {
    for w in warnings {
        eprintln!("{w}\n");
    }
}

fn check_dimension(schema: &surqlc::ir::Schema, vector: &[f64]) -> Result<(), Failure> {
    let dimension = schema.settings.examples.dimension as usize;
    if vector.len() == dimension {
        return Ok(());
    }
    Err(Failure(
        format!(
            "error: --vector has {} value{}, but the few-shot pool's embeddings have {dimension} (examples(dimension = {dimension}) in the schema)",
            vector.len(),
            if vector.len() == 1 { "" } else { "s" }
        ),
        2,
    ))
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

/// A fresh embedded database with `schema_surql` loaded.
async fn embedded_with(schema_surql: &str) -> Result<db::Db, Failure> {
    let conn = db::connect(&Target::default())
        .await
        .map_err(db_failure("cannot start the embedded database"))?;
    db::execute(&conn, schema_surql)
        .await
        .map_err(db_failure("the database rejected the generated schema"))?;
    Ok(conn)
}

fn read(path: &PathBuf) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure(format!("error: cannot read {}: {e}", path.display()), 2))
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
            print_warnings(&output.warnings);
            embedded_with(&output.schema_surql).await?;
            eprintln!(
                "ok: {} compile and load",
                tables(output.schema.tables.len())
            );
        }
        Command::Prompt { input, run } => {
            let output = builder(&input).generate()?;
            check_dimension(&output.schema, &run.vector)?;
            let target = Target {
                endpoint: run.endpoint.clone(),
                namespace: run.ns.clone(),
                database: run.db.clone().unwrap_or_else(|| output.schema.name.clone()),
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
            // The token report goes to stderr so stdout stays the prompt, ready to pipe to a model.
            let cost = surqlc::tokens::block_cost(
                &output.schema,
                surqlc::render::Rendering::of(&output.schema),
                surqlc::tokens::Encoding::default(),
            );
            let other = surqlc::render::Rendering::of(&output.schema).other();
            let alternative = surqlc::tokens::block_cost(
                &output.schema,
                other,
                surqlc::tokens::Encoding::default(),
            );
            eprintln!("{}", text_report(&cost, &alternative, &[], &[]).trim_end());
            eprintln!(
                "prompt: {} tokens ({})\n",
                surqlc::tokens::Encoding::default().count(&prompt),
                surqlc::tokens::Encoding::default().name()
            );
            print!("{prompt}");
        }
        Command::Audit { input, audit } => run_audit(&input, &audit).await?,
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

/// One section of the whole prompt and its cost.
struct Section {
    name: &'static str,
    tokens: usize,
    chars: usize,
}

async fn run_audit(input: &Input, args: &AuditArgs) -> Result<(), Failure> {
    use surqlc::render::{self, Rendering};
    use surqlc::tokens::{self, Encoding};

    let encoding = Encoding::from_name(&args.encoding).ok_or_else(|| {
        let known: Vec<&str> = Encoding::ALL.iter().map(|e| e.name()).collect();
        Failure(
            format!(
                "error: unknown encoding {:?}; expected one of {}",
                args.encoding,
                known.join(", ")
            ),
            2,
        )
    })?;
    let output = builder(input).generate()?;
    let schema = &output.schema;
    if args.question.is_some() {
        check_dimension(schema, &args.vector)?;
    }
    let active = Rendering::of(schema);
    let cost = tokens::block_cost(schema, active, encoding);
    let other = active.other();
    let alternative = tokens::block_cost(schema, other, encoding);
    let savings = tokens::savings(schema, encoding);

    let mut live_mismatch = None;
    let mut sections = Vec::new();
    let mut hints = Vec::new();
    if args.live || args.question.is_some() {
        let conn = embedded_with(&output.schema_surql).await?;
        if args.live {
            let live = db::query_string(&conn, "RETURN fn::schema_context()")
                .await
                .map_err(db_failure("fn::schema_context failed"))?;
            let ours = render::schema_block(schema);
            if live != ours {
                live_mismatch = Some(first_difference(&ours, &live));
            }
        }
        if let Some(question) = &args.question {
            if let Some(seed) = &args.seed {
                let text = read(seed)?;
                db::execute(&conn, &text)
                    .await
                    .map_err(|e| Failure(format!("error: loading {}: {e}", seed.display()), 1))?;
            }
            let prompt = db::prompt(&conn, question, &args.vector)
                .await
                .map_err(db_failure("fn::nl2surql_prompt failed"))?;
            sections = prompt_sections(&conn, &prompt, &args.vector, encoding).await?;
            hints = surqlc::hint_costs::hint_costs(&conn, schema, |t| encoding.count(t))
                .await
                .map_err(db_failure("fn::value_hints failed"))?;
        }
    }
    if args.question.is_none() {
        let preamble = surqlc::emit::render_preamble(
            schema,
            &surqlc::emit::EmitOptions {
                prompt_template: input.prompt_template.clone(),
                ..Default::default()
            },
        )
        .map_err(|e| Failure(format!("error: {e}"), 2))?;
        sections.push(Section {
            name: "preamble",
            tokens: encoding.count(&preamble),
            chars: preamble.chars().count(),
        });
    }

    // Flags override the budgets the schema file sets for itself.
    let budget = surqlc::ir::Budget {
        block: args.budget.or(schema.settings.budget.block),
        table: args.table_budget.or(schema.settings.budget.table),
    };
    let over = cost.over_budget(&budget);

    match args.format {
        Format::Json => {
            let tables: Vec<serde_json::Value> = cost
                .tables
                .iter()
                .zip(&alternative.tables)
                .map(|(t, alt)| {
                    serde_json::json!({
                        "table": t.table,
                        "tokens": t.tokens,
                        "chars": t.chars,
                        "share": share(t.tokens, cost.block_tokens),
                        "comment_tokens": t.comment_tokens,
                        format!("{}_tokens", other.name()): alt.tokens,
                    })
                })
                .collect();
            let doc = serde_json::json!({
                "encoding": encoding.name(),
                "rendering": active.name(),
                "tables": tables,
                "schema_block_tokens": cost.block_tokens,
                "schema_block_chars": cost.block_chars,
                format!("{}_schema_block_tokens", other.name()): alternative.block_tokens,
                "prompt": sections.iter().map(|s| serde_json::json!({"section": s.name, "tokens": s.tokens, "chars": s.chars})).collect::<Vec<_>>(),
                "savings": savings.iter().map(|s| serde_json::json!({
                    "table": s.table, "field": s.field, "advice": s.advice,
                    "tokens_now": s.tokens_now, "tokens_after": s.tokens_after, "saved": s.saved(),
                })).collect::<Vec<_>>(),
                "value_hints": hints.iter().map(|h| serde_json::json!({"hint": h.label, "line": h.line, "tokens": h.tokens})).collect::<Vec<_>>(),
                "live_matches": if args.live { Some(live_mismatch.is_none()) } else { None },
                "over_budget": over,
            });
            println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        }
        Format::Text => {
            print!("{}", text_report(&cost, &alternative, &savings, &sections));
            if !hints.is_empty() {
                println!("\nvalue hints on the seed data (tokens per line):");
                for h in &hints {
                    println!("{:>6}  {}", h.tokens, h.line);
                }
            }
            if args.live && live_mismatch.is_none() {
                println!("\nlive: the embedded engine's fn::schema_context() equals the static rendering");
            }
        }
    }

    if let Some(diff) = live_mismatch {
        return Err(Failure(
            format!(
                "error: the live fn::schema_context() differs from the static rendering: {diff}"
            ),
            1,
        ));
    }
    if !over.is_empty() {
        return Err(Failure(format!("over budget:\n  {}", over.join("\n  ")), 1));
    }
    Ok(())
}

/// `part` as a percentage of `whole`, to one decimal.
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 * 1000.0 / whole as f64).round() / 10.0
    }
}

fn text_report(
    cost: &surqlc::tokens::BlockCost,
    alternative: &surqlc::tokens::BlockCost,
    savings: &[surqlc::tokens::Saving],
    sections: &[Section],
) -> String {
    use std::fmt::Write;
    const BAR: usize = 30;
    let mut out = String::new();
    let width = cost
        .tables
        .iter()
        .map(|t| t.table.chars().count())
        .max()
        .unwrap_or(5)
        .max(12);
    let _ = writeln!(
        out,
        "schema block, {} rendering, {} tokens",
        cost.rendering.name(),
        cost.encoding
    );
    let _ = writeln!(
        out,
        "{:<width$} {:>7} {:>7} {:>6}  {:<BAR$}  {:>7}",
        "table",
        "tokens",
        "chars",
        "share",
        "",
        alternative.rendering.name()
    );
    let most = cost.tables.iter().map(|t| t.tokens).max().unwrap_or(0);
    for (t, alt) in cost.tables.iter().zip(&alternative.tables) {
        let bar = if most == 0 {
            0
        } else {
            (t.tokens * BAR).div_ceil(most)
        };
        let _ = writeln!(
            out,
            "{:<width$} {:>7} {:>7} {:>5.1}%  {:<BAR$}  {:>7}",
            t.table,
            t.tokens,
            t.chars,
            share(t.tokens, cost.block_tokens),
            "█".repeat(bar),
            alt.tokens
        );
    }
    let _ = writeln!(
        out,
        "{:<width$} {:>7} {:>7} {:>6}  {:<BAR$}  {:>7}",
        "schema block", cost.block_tokens, cost.block_chars, "", "", alternative.block_tokens
    );
    if !sections.is_empty() {
        let _ = writeln!(out, "\nprompt");
        for s in sections {
            let _ = writeln!(out, "{:<width$} {:>7} {:>7}", s.name, s.tokens, s.chars);
        }
    }
    if !savings.is_empty() {
        let _ = writeln!(out, "\nsavings");
        for s in savings {
            let _ = writeln!(
                out,
                "  {}.{}: {} saves {} tokens ({} -> {})",
                s.table,
                s.field,
                s.advice,
                s.saved(),
                s.tokens_now,
                s.tokens_after
            );
        }
    }
    let mut by_comments: Vec<_> = cost
        .tables
        .iter()
        .filter(|t| t.comment_tokens > 0)
        .collect();
    by_comments.sort_by(|a, b| {
        b.comment_tokens
            .cmp(&a.comment_tokens)
            .then(a.table.cmp(&b.table))
    });
    if !by_comments.is_empty() {
        let _ = writeln!(out, "\ncomments cost most in");
        for t in by_comments.iter().take(3) {
            let _ = writeln!(
                out,
                "  {}: {} of its {} tokens",
                t.table, t.comment_tokens, t.tokens
            );
        }
    }
    if alternative.block_tokens < cost.block_tokens {
        let _ = writeln!(
            out,
            "\nthe {} rendering saves {} tokens: add `compact` to the #[surqlc(...)] of the Schema item",
            alternative.rendering.name(),
            cost.block_tokens - alternative.block_tokens
        );
    }
    out
}

/// Where two texts first differ, with a little context from each.
fn first_difference(ours: &str, live: &str) -> String {
    let at = ours
        .char_indices()
        .zip(live.chars())
        .find(|((_, a), b)| a != b)
        .map(|((i, _), _)| i)
        .unwrap_or(ours.len().min(live.len()));
    let line = ours[..at].matches('\n').count() + 1;
    let snippet = |s: &str| {
        let start = s[..at.min(s.len())].rfind('\n').map_or(0, |i| i + 1);
        s[start..].lines().next().unwrap_or("").to_owned()
    };
    format!(
        "line {line}\n  static: {}\n  live:   {}",
        snippet(ours),
        snippet(live)
    )
}

/// The prompt cut into its sections, each counted on its own text.
async fn prompt_sections(
    conn: &db::Db,
    prompt: &str,
    qvec: &[f64],
    encoding: surqlc::tokens::Encoding,
) -> Result<Vec<Section>, Failure> {
    let block = db::query_string(conn, "RETURN fn::schema_context()")
        .await
        .map_err(db_failure("fn::schema_context failed"))?;
    let mut statement = String::from("RETURN fn::example_context([");
    statement.push_str(
        &qvec
            .iter()
            .map(|v| format!("{v:?}"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    statement.push_str("])");
    let examples = db::query_string(conn, &statement)
        .await
        .map_err(db_failure("fn::example_context failed"))?;
    let schema_section = format!("SCHEMA\n{block}\n\n");
    let preamble_end = prompt.find(&schema_section).unwrap_or(0);
    let after_schema = preamble_end + schema_section.len();
    let examples_at = prompt[after_schema..]
        .find("EXAMPLES\n")
        .map_or(prompt.len(), |i| after_schema + i);
    let question_at = prompt[examples_at..]
        .find(&format!("{examples}\n\nQUESTION\n"))
        .map_or(prompt.len(), |i| examples_at + i + examples.len() + 2);
    let parts = [
        ("preamble", &prompt[..preamble_end]),
        (
            "schema",
            &prompt[preamble_end..after_schema.min(prompt.len())],
        ),
        (
            "value hints",
            &prompt[after_schema.min(prompt.len())..examples_at],
        ),
        ("examples", &prompt[examples_at..question_at]),
        ("question", &prompt[question_at..]),
        ("total", prompt),
    ];
    Ok(parts
        .into_iter()
        .map(|(name, text)| Section {
            name,
            tokens: encoding.count(text),
            chars: text.chars().count(),
        })
        .collect())
}
