//! Execution accuracy as BIRD and Spider measure it: a candidate is right when, run as the agent, its rows equal the gold query's as multisets of rows (field names ignored), in order when the gold query has `ORDER BY`.
//!
//! SurrealDB returns a row as an object whose fields come back sorted by name, so the position of
//! a column says nothing; a row is compared as the multiset of its values. `SELECT VALUE x` and
//! `SELECT x` therefore agree, and so do two queries that name their columns differently.

use super::ask::{Answer, Status};
use super::{run_validated, to_json, Agent, Outcome};
use crate::ir;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use surrealdb::Connection;

/// One line of a golden or candidates file: `{"question": ..., "query": ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub question: String,
    pub query: String,
    /// The 1-based line it was read from (0 when not read from a file).
    #[serde(skip)]
    pub line: usize,
}

/// Reads JSON lines of `{"question", "query"}`; blank lines and lines starting with `//` are skipped.
/// An error names the line and column: `LINE:COL: message`.
pub fn read_jsonl(text: &str) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("//") {
            continue;
        }
        let mut item: Item = serde_json::from_str(trimmed).map_err(|e| {
            let column = line.len() - line.trim_start().len() + e.column();
            format!(
                "{}:{column}: expected {{\"question\": \"...\", \"query\": \"...\"}}: {e}",
                n + 1
            )
        })?;
        if item.question.trim().is_empty() {
            return Err(format!("{}:1: the question is empty", n + 1));
        }
        item.line = n + 1;
        items.push(item);
    }
    Ok(items)
}

/// Whether `query`'s top-level `SELECT` has an `ORDER BY` (read with SurrealDB's parser; a reply
/// that does not parse is not ordered).
pub fn is_ordered(query: &str) -> bool {
    use surrealdb_sql::{Expr, TopLevelExpr};
    let text = crate::validate::reply::strip_fence(query);
    match surrealdb_syn::parse(text) {
        Ok(ast) => ast
            .expressions
            .iter()
            .any(|e| matches!(e, TopLevelExpr::Expr(Expr::Select(s)) if s.order.is_some())),
        Err(_) => false,
    }
}

/// Whether two results hold the same rows: each row as the multiset of its values, the rows as a
/// multiset, or as a sequence when `ordered`.
pub fn same_rows(
    gold: &[serde_json::Value],
    candidate: &[serde_json::Value],
    ordered: bool,
) -> bool {
    if gold.len() != candidate.len() {
        return false;
    }
    let mut gold: Vec<Vec<String>> = gold.iter().map(row_key).collect();
    let mut candidate: Vec<Vec<String>> = candidate.iter().map(row_key).collect();
    if !ordered {
        gold.sort();
        candidate.sort();
    }
    gold == candidate
}

/// A row's values, each in a canonical spelling, sorted: the field names are dropped.
fn row_key(row: &serde_json::Value) -> Vec<String> {
    let mut values: Vec<String> = match row {
        serde_json::Value::Object(fields) => fields.values().map(canonical).collect(),
        other => vec![canonical(other)],
    };
    values.sort();
    values
}

/// A value's spelling for comparison: numbers equal as numbers (`3`, `3.0` and `3.0dec` agree, to
/// 12 significant digits), nested objects by sorted key.
fn canonical(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15 => {
                format!("{}", f as i64)
            }
            (None, Some(f)) => format!("{f:.11e}"),
            _ => n.to_string(),
        },
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", inner.join(","))
        }
        Value::Object(fields) => {
            let mut inner: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{k:?}:{}", canonical(v)))
                .collect();
            inner.sort();
            format!("{{{}}}", inner.join(","))
        }
        other => other.to_string(),
    }
}

/// The candidate for one question.
#[derive(Debug, Clone)]
pub enum Candidate {
    /// A query from a candidates file; `None` when the file has none for the question.
    Given(Option<String>),
    /// The model's answer through [`super::ask::Asker::ask`].
    Asked(Answer),
}

/// How one question fared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuestionResult {
    pub question: String,
    pub correct: bool,
    /// The gold query.
    pub gold: String,
    /// The candidate query (the model's accepted one, or its last reply when none was accepted).
    pub candidate: Option<String>,
    /// Why it is wrong: `invalid: ...`, `refused: ...`, `wrong result: ...`, `no candidate`.
    pub reason: Option<String>,
    /// Replies the model took (1 for a candidates file).
    pub attempts: usize,
    pub gold_rows: usize,
    pub candidate_rows: Option<usize>,
    /// The prompt's tokens, when the caller counted them.
    pub prompt_tokens: Option<usize>,
}

/// The run: totals and each question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub total: usize,
    pub correct: usize,
    /// `correct / total` (0 for an empty set).
    pub accuracy: f64,
    /// Replies after the first, over every question.
    pub repairs: usize,
    pub questions: Vec<QuestionResult>,
}

impl Report {
    pub fn new(questions: Vec<QuestionResult>) -> Self {
        let total = questions.len();
        let correct = questions.iter().filter(|q| q.correct).count();
        let repairs = questions.iter().map(|q| q.attempts.saturating_sub(1)).sum();
        Report {
            total,
            correct,
            accuracy: if total == 0 {
                0.0
            } else {
                correct as f64 / total as f64
            },
            repairs,
            questions,
        }
    }
}

/// Why a question could not be judged.
#[derive(Debug)]
pub enum EvalError {
    /// The gold query itself was refused or failed: the golden file is wrong.
    Gold(String),
    Database(surrealdb::Error),
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Gold(m) => f.write_str(m),
            EvalError::Database(e) => write!(f, "the database failed: {e}"),
        }
    }
}

impl std::error::Error for EvalError {}

impl From<surrealdb::Error> for EvalError {
    fn from(e: surrealdb::Error) -> Self {
        EvalError::Database(e)
    }
}

/// Runs `gold` as the agent (validated like any reply), returning its rows as JSON.
pub async fn gold_rows<C: Connection>(
    agent: &Agent<C>,
    schema: &ir::Schema,
    timeout: Duration,
    gold: &str,
) -> Result<Vec<serde_json::Value>, EvalError> {
    match run_validated(agent, gold, timeout, schema).await? {
        Outcome::Rows { rows, .. } => Ok(rows.into_iter().map(to_json).collect()),
        Outcome::Rejected(text) => Err(EvalError::Gold(format!(
            "the gold query was refused: {}",
            text.lines().next().unwrap_or_default()
        ))),
        Outcome::CannotAnswer(_) => Err(EvalError::Gold(
            "the gold query is a `-- cannot answer` reply".to_owned(),
        )),
    }
}

/// Judges one question: the gold query and the candidate both run as the agent.
pub async fn judge<C: Connection>(
    agent: &Agent<C>,
    schema: &ir::Schema,
    timeout: Duration,
    gold: &Item,
    candidate: Candidate,
) -> Result<QuestionResult, EvalError> {
    let gold_rows = gold_rows(agent, schema, timeout, &gold.query).await?;
    let mut result = QuestionResult {
        question: gold.question.clone(),
        correct: false,
        gold: gold.query.clone(),
        candidate: None,
        reason: None,
        attempts: 1,
        gold_rows: gold_rows.len(),
        candidate_rows: None,
        prompt_tokens: None,
    };
    let rows = match candidate {
        Candidate::Given(None) => {
            result.attempts = 0;
            result.reason = Some("no candidate for this question".to_owned());
            return Ok(result);
        }
        Candidate::Given(Some(query)) => {
            result.candidate = Some(query.clone());
            match run_validated(agent, &query, timeout, schema).await? {
                Outcome::Rows { rows, .. } => rows.into_iter().map(to_json).collect(),
                Outcome::CannotAnswer(reason) => {
                    result.reason = Some(format!("refused: cannot answer: {reason}"));
                    return Ok(result);
                }
                Outcome::Rejected(text) => {
                    result.reason = Some(format!("invalid: {}", one_line(&text)));
                    return Ok(result);
                }
            }
        }
        Candidate::Asked(answer) => {
            result.attempts = answer.attempts.len();
            match answer.status {
                Status::Answered => {
                    result.candidate = answer.query;
                    answer.rows
                }
                Status::CannotAnswer => {
                    result.candidate = answer.attempts.last().map(|a| a.reply.trim().to_owned());
                    result.reason = Some(format!(
                        "refused: cannot answer: {}",
                        answer.reason.unwrap_or_default()
                    ));
                    return Ok(result);
                }
                Status::NoValidQuery => {
                    let last = answer.attempts.last();
                    result.candidate = last.map(|a| a.reply.trim().to_owned());
                    let problems = last.map(|a| a.problems.join("; ")).unwrap_or_default();
                    result.reason = Some(format!(
                        "invalid: no valid query in {} attempts: {}",
                        answer.attempts.len(),
                        one_line(&problems)
                    ));
                    return Ok(result);
                }
            }
        }
    };
    result.candidate_rows = Some(rows.len());
    let ordered = is_ordered(&gold.query);
    if same_rows(&gold_rows, &rows, ordered) {
        result.correct = true;
    } else if ordered && same_rows(&gold_rows, &rows, false) {
        result.reason = Some("wrong result: the gold rows, in another order".to_owned());
    } else if rows.len() == gold_rows.len() {
        result.reason = Some(format!(
            "wrong result: {} row{} as the gold query has, but other values",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        ));
    } else {
        result.reason = Some(format!(
            "wrong result: {} row{}, the gold query {}",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" },
            gold_rows.len()
        ));
    }
    Ok(result)
}

/// The first 300 characters of `text`'s lines joined, for a one-line reason.
fn one_line(text: &str) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    match line.char_indices().nth(300) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rows_compare_as_multisets_of_values() {
        let gold = [
            json!({"name": "Ann", "n": 3}),
            json!({"name": "Bo", "n": 1}),
        ];
        // Other names, other row order, a float for an integer.
        let renamed = [
            json!({"total": 1.0, "who": "Bo"}),
            json!({"total": 3, "who": "Ann"}),
        ];
        assert!(same_rows(&gold, &renamed, false));
        assert!(!same_rows(&gold, &renamed, true));
        let value = [json!("Ann"), json!("Bo")];
        assert!(same_rows(
            &[json!({"name": "Ann"}), json!({"name": "Bo"})],
            &value,
            true
        ));
        assert!(!same_rows(&gold, &gold[..1], false));
        assert!(!same_rows(
            &gold,
            &[
                json!({"name": "Ann", "n": 3}),
                json!({"name": "Bo", "n": 2})
            ],
            false
        ));
        // A multiset: duplicates count.
        assert!(!same_rows(
            &[json!(1), json!(1), json!(2)],
            &[json!(1), json!(2), json!(2)],
            false
        ));
    }

    #[test]
    fn order_by_is_read_from_the_parsed_gold() {
        assert!(is_ordered(
            "SELECT name FROM customer ORDER BY name LIMIT 5"
        ));
        assert!(!is_ordered(
            "SELECT name FROM customer WHERE note = 'ORDER BY' LIMIT 5"
        ));
        assert!(!is_ordered(
            "SELECT count() FROM (SELECT * FROM a ORDER BY b) GROUP ALL"
        ));
    }

    #[test]
    fn golden_lines_are_read_with_their_positions() {
        let items =
            read_jsonl("\n{\"question\": \"q\", \"query\": \"SELECT 1\"}\n// note\n").unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].line, 2);
        let err = read_jsonl("{\"question\": \"q\"}\n").unwrap_err();
        assert!(err.starts_with("1:"), "{err}");
        assert!(err.contains("query"), "{err}");
    }
}
