//! `surqlc ask` and `surqlc eval` (the binary's own code): open the database as `prompt` does, sign the agent in, run the library's loop or judge, print text or JSON.

use crate::stdio::out;
use std::path::{Path, PathBuf};
use surqlc::builder::Output;
use surqlc::db::{Db, Target};
use surqlc::exit::Failure;
use surqlc::runtime::ask::{Answer, Asker, Status};
use surqlc::runtime::eval::{self, AccuracyReport, Candidate, Item, QuestionResult};
use surqlc::runtime::openai::{Config, OpenAi};
use surqlc::runtime::{Agent, Pruner};
use surqlc::schema_db;
use surqlc::tokens::Encoding;

/// The model the environment configures, its embeddings checked against the schema's dimension.
fn model(output: &Output) -> Result<Option<OpenAi>, Failure> {
    let bad = |e: surqlc::runtime::ModelError| Failure::BadInput(format!("error: {e}"));
    let Some(mut config) = Config::from_env().map_err(bad)? else {
        return Ok(None);
    };
    config.dimension = Some(output.schema.settings.examples.dimension as usize);
    OpenAi::new(config).map(Some).map_err(bad)
}

/// The database with the schema and the seed, and the agent's session on it: the connection the
/// prompt is built on, and the agent. With `--as USER` both are that end user's session, so the
/// prompt's value hints and examples come from what the user may read, as the queries do.
async fn open(run: &Run<'_>) -> Result<(Db, Agent<surrealdb::engine::any::Any>), Failure> {
    let conn = schema_db::open(run.output, run.target).await?;
    if let Some(seed) = run.seed {
        schema_db::load_file(&conn, seed).await?;
    }
    if let Some(user) = &run.as_user {
        let agent = schema_db::signin_as(&conn, &run.output.schema, run.target, &user.key, &user.user).await?;
        return Ok((agent.session().clone(), agent));
    }
    let agent = schema_db::signin_agent(&conn, &run.output.schema, run.target, run.password).await?;
    Ok((conn, agent))
}

/// `--as USER`: the end user the run answers for, and the scope key the schema was built with.
pub struct AsUser {
    pub user: String,
    pub key: String,
}

/// What `ask` and `eval` share beyond the schema.
pub struct Run<'a> {
    pub output: &'a Output,
    pub target: &'a Target,
    pub seed: Option<&'a Path>,
    pub password: &'a str,
    /// `--as USER`: run as this end user (the schema's per-user agent) instead of the agent.
    pub as_user: Option<AsUser>,
    pub attempts: u32,
    pub vector: Option<Vec<f64>>,
    pub json: bool,
}

/// Asks through the configured model's loop; the embedder when one is configured, else the vector.
async fn ask_with(
    asker: Asker<'_, surrealdb::engine::any::Any, OpenAi>,
    client: &OpenAi,
    question: &str,
) -> Result<Answer, Failure> {
    let answered = if client.embeds() {
        asker.embedder(client).ask(question).await
    } else {
        asker.ask(question).await
    };
    answered.map_err(|e| Failure::BadInput(format!("error: {e}")))
}

/// The pruning facts of the opened database (`None` without `prune(...)`), read once per run. A
/// database whose facts cannot be read is asked through its own functions, which choose the same
/// (as `surqlc mcp` does).
async fn load_pruner(conn: &Db) -> Option<Pruner> {
    Pruner::load(conn).await.unwrap_or(None)
}

/// `surqlc ask`.
pub async fn ask(run: Run<'_>, question: &str) -> Result<(), Failure> {
    let client =
        model(run.output)?.ok_or_else(|| Failure::BadInput(format!("error: {}", Config::how_to_configure())))?;
    if let Some(vector) = &run.vector {
        schema_db::check_dimension(&run.output.schema, vector)?;
    }
    let (conn, agent) = open(&run).await?;
    let pruner = load_pruner(&conn).await;
    let asker = Asker::new(&conn, &agent, &run.output.schema, &client)
        .pruner(pruner.as_ref())
        .attempts(run.attempts)
        .vector(run.vector.clone());
    let answer = ask_with(asker, &client, question).await?;
    if run.json {
        let mut value = serde_json::to_value(&answer).unwrap_or_default();
        if let Some(object) = value.as_object_mut() {
            object.insert("prompt_tokens".into(), Encoding::default().count(&answer.prompt).into());
        }
        out(&format!(
            "{}\n",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        ))?;
    } else {
        out(&answer_text(&answer, run.attempts))?;
        // The text already ends with the verdict: exit 1 without saying it again on stderr.
        if answer.status != Status::Answered {
            return Err(Failure::Failed(String::new()));
        }
    }
    match answer.status {
        Status::Answered => Ok(()),
        Status::CannotAnswer => Err(Failure::Failed(format!(
            "the model cannot answer: {}",
            answer.reason.as_deref().unwrap_or_default()
        ))),
        Status::NoValidQuery => Err(Failure::Failed(format!(
            "error: no valid query in {} attempt{}",
            answer.attempts.len(),
            if answer.attempts.len() == 1 { "" } else { "s" }
        ))),
    }
}

/// The replies, then the final query and its rows as a table, or why there is none (said once).
fn answer_text(answer: &Answer, most: u32) -> String {
    let mut text = String::new();
    for (n, attempt) in answer.attempts.iter().enumerate() {
        let declined = attempt.problems.is_empty() && answer.status == Status::CannotAnswer;
        let verdict = if !attempt.problems.is_empty() {
            "refused, sent back to the model"
        } else if declined {
            "the model declined"
        } else {
            "accepted"
        };
        text += &format!("-- reply {} of at most {most}: {verdict}\n", n + 1);
        // A declining reply is said once, below.
        if !declined {
            text += attempt.reply.trim();
            text.push('\n');
        }
        for problem in &attempt.problems {
            text += &format!("   {problem}\n");
        }
        text.push('\n');
    }
    if answer.examples == surqlc::runtime::ask::Examples::Words {
        text += "-- note: no embedding model (SURQLC_EMBED_MODEL) and no --vector, so the examples were chosen by the question's words\n\n";
    }
    match (&answer.status, &answer.query) {
        (Status::Answered, Some(query)) => {
            text += &format!("query:\n{query}\n\n");
            for warning in &answer.warnings {
                text += &format!("-- {warning}\n");
            }
            text += &table(&answer.rows);
        }
        (Status::CannotAnswer, _) => {
            text += &format!("cannot answer: {}\n", answer.reason.as_deref().unwrap_or_default());
        }
        _ => {
            text += &format!(
                "no valid query in {} repl{}\n",
                answer.attempts.len(),
                if answer.attempts.len() == 1 { "y" } else { "ies" }
            )
        }
    }
    text
}

/// Rows as an aligned text table: one column per field (first seen first), one line per row.
pub fn table(rows: &[serde_json::Value]) -> String {
    let mut columns: Vec<String> = Vec::new();
    for row in rows {
        match row {
            serde_json::Value::Object(fields) => {
                for key in fields.keys() {
                    if !columns.contains(key) {
                        columns.push(key.clone());
                    }
                }
            }
            _ if !columns.iter().any(|c| c.is_empty()) => columns.push(String::new()),
            _ => {}
        }
    }
    let cell = |v: Option<&serde_json::Value>| -> String {
        let text = match v {
            None | Some(serde_json::Value::Null) => String::new(),
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        };
        let text = text.replace(['\n', '\r', '\t'], " ");
        match text.char_indices().nth(60) {
            Some((i, _)) => format!("{}...", &text[..i]),
            None => text,
        }
    };
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            columns
                .iter()
                .map(|c| match row {
                    serde_json::Value::Object(fields) => cell(fields.get(c)),
                    other if c.is_empty() => cell(Some(other)),
                    _ => String::new(),
                })
                .collect()
        })
        .collect();
    let header: Vec<String> = columns
        .iter()
        .map(|c| if c.is_empty() { "value".into() } else { c.clone() })
        .collect();
    let widths: Vec<usize> = (0..columns.len())
        .map(|i| {
            body.iter()
                .map(|r| r[i].chars().count())
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
            .collect();
        format!("{}\n", padded.join(" | ").trim_end())
    };
    let mut text = String::new();
    if !columns.is_empty() {
        text += &line(&header);
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        text += &format!("{}\n", rule.join("-+-"));
        for row in &body {
            text += &line(row);
        }
    }
    text += &format!("({} row{})\n", rows.len(), if rows.len() == 1 { "" } else { "s" });
    text
}

/// Reads a JSON-lines file of `{"question", "query"}`; an error names FILE:LINE:COL.
fn read_items(path: &Path) -> Result<Vec<Item>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::BadInput(format!("error: cannot read {}: {e}", path.display())))?;
    eval::read_jsonl(&text).map_err(|e| Failure::BadInput(format!("error: {}:{e}", path.display())))
}

/// A candidates file: one query per question (a list is a golden file's, refused with its line).
fn read_candidates(path: &Path) -> Result<Vec<Item>, Failure> {
    let items = read_items(path)?;
    if let Some(item) = items.iter().find(|i| !i.alternatives.is_empty()) {
        return Err(Failure::BadInput(format!(
            "error: {}:{}: a candidate is one query, but `query` is a list of {}",
            path.display(),
            item.line,
            item.alternatives.len() + 1
        )));
    }
    Ok(items)
}

/// The prompt a question gets (pruned when the schema prunes), for its token count.
async fn question_prompt(
    conn: &surqlc::db::Db,
    schema: &surqlc::ir::Schema,
    pruner: Option<&surqlc::runtime::Pruner>,
    question: &str,
) -> Result<String, Failure> {
    let prompt = match pruner {
        Some(pruner) => surqlc::runtime::ask::prompt_pruned(conn, schema, pruner, question, None).await,
        None => surqlc::runtime::ask::prompt(conn, schema, question, None).await,
    };
    prompt.map_err(|e| Failure::Failed(format!("error: the prompt failed: {e}")))
}

/// `surqlc eval`.
pub async fn eval(
    run: Run<'_>,
    golden: &Path,
    candidates: Option<&PathBuf>,
    html: Option<&Path>,
) -> Result<(), Failure> {
    let gold = read_items(golden)?;
    if gold.is_empty() {
        return Err(Failure::BadInput(format!("error: {}: no questions", golden.display())));
    }
    let given = match candidates {
        Some(path) => Some(read_candidates(path)?),
        None => None,
    };
    let client = match &given {
        Some(_) => None,
        None => Some(model(run.output)?.ok_or_else(|| {
            Failure::BadInput(format!(
                "error: without --candidates the model answers each question, and {}",
                Config::how_to_configure()
            ))
        })?),
    };
    let (conn, agent) = open(&run).await?;
    let pruner = load_pruner(&conn).await;
    let schema = &run.output.schema;
    let timeout = surqlc::runtime::QUERY_TIMEOUT;
    let encoding = Encoding::default();
    let mut results: Vec<QuestionResult> = Vec::new();
    // The model's replies per question, for --html (none from a candidates file).
    let mut replies: Vec<Vec<surqlc::runtime::ask::Attempt>> = Vec::new();
    let progress = match client {
        Some(_) => crate::progress::Progress::new(gold.len(), "questions"),
        None => crate::progress::Progress::new(0, "questions"),
    };
    for item in &gold {
        progress.step(&item.question);
        let mut attempts = Vec::new();
        let (candidate, prompt) = match (&given, &client) {
            (Some(given), _) => {
                let query = given
                    .iter()
                    .rev()
                    .find(|c| c.question.trim() == item.question.trim())
                    .map(|c| c.query.clone());
                let prompt = question_prompt(&conn, schema, pruner.as_ref(), &item.question).await?;
                (Candidate::Given(query), prompt)
            }
            (None, Some(client)) => {
                let asker = Asker::new(&conn, &agent, schema, client)
                    .attempts(run.attempts)
                    .pruner(pruner.as_ref());
                let answer = ask_with(asker, client, &item.question).await?;
                let prompt = answer.prompt.clone();
                attempts = answer.attempts.clone();
                (Candidate::Asked(answer), prompt)
            }
            (None, None) => unreachable!("a model is configured when no candidates are given"),
        };
        let mut result = eval::judge(&agent, schema, timeout, item, candidate)
            .await
            .map_err(|e| match e {
                eval::EvalError::Gold(m) => {
                    Failure::BadInput(format!("error: {}:{}: {m}", golden.display(), item.line))
                }
                other => Failure::Failed(format!("error: {other}")),
            })?;
        result.prompt_tokens = Some(encoding.count(&prompt));
        results.push(result);
        replies.push(attempts);
        progress.done();
    }
    drop(progress);
    let report = AccuracyReport::new(results);
    if let Some(path) = html {
        let page = surqlc::audit::eval_html::render(&report, &replies, &golden.display().to_string(), encoding.name());
        crate::audit_cmd::write_html(path, &page)?;
    }
    if run.json {
        out(&format!(
            "{}\n",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        ))?;
    } else {
        out(&report_text(&report, golden))?;
    }
    Ok(())
}

fn report_text(report: &AccuracyReport, golden: &Path) -> String {
    let mut text = format!(
        "execution accuracy: {}/{} ({:.1}%) on {}\nrepairs used: {}\n",
        report.correct,
        report.total,
        report.accuracy * 100.0,
        golden.display(),
        report.repairs
    );
    let tokens: Vec<usize> = report.questions.iter().filter_map(|q| q.prompt_tokens).collect();
    if let (Some(min), Some(max)) = (tokens.iter().min(), tokens.iter().max()) {
        text += &format!(
            "prompt tokens per question ({}): mean {}, min {min}, max {max}\n",
            Encoding::default().name(),
            tokens.iter().sum::<usize>() / tokens.len()
        );
    }
    text.push('\n');
    for q in &report.questions {
        text += &format!(
            "{:<4} {:>6} tokens  {} attempt{}  {}\n",
            if q.correct { "ok" } else { "MISS" },
            q.prompt_tokens.unwrap_or_default(),
            q.attempts,
            if q.attempts == 1 { " " } else { "s" },
            q.question
        );
    }
    let misses: Vec<&QuestionResult> = report.questions.iter().filter(|q| !q.correct).collect();
    if !misses.is_empty() {
        text += "\nmisses:\n";
        for q in misses {
            text += &format!("miss: {:?}: {}\n", q.question, q.reason.as_deref().unwrap_or("wrong"));
        }
    }
    text
}
