//! Execution accuracy as BIRD and Spider measure it: a candidate is right when, run as the agent, its rows equal one gold query's as multisets of rows (field names ignored), in order when the gold query has `ORDER BY`.
//!
//! SurrealDB returns a row as an object whose fields come back sorted by name, so the position of
//! a column says nothing; a row is compared as the multiset of its values. `SELECT VALUE x` and
//! `SELECT x` therefore agree, and so do two queries that name their columns differently.
//! An array inside a row (`->owns->pet.name`) is compared as a multiset too, unless the gold
//! query orders arrays itself (`array::sort...`, `.sort()`, an `ORDER BY` in a subquery).
//! Integers compare exactly, other numbers with a relative tolerance of 1e-9 (as the Spider and
//! BIRD evaluators do with floats). One row holding an array and the same values as several rows
//! are different answers: `SELECT VALUE ->owns->pet.name FROM ONLY owner:1` is not
//! `SELECT VALUE name FROM pet WHERE ...`.

use super::ask::{Answer, Status};
use super::{run_validated, to_json, Agent, Outcome};
use crate::ir;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use surrealdb::Connection;

/// One line of a golden or candidates file: `{"question": ..., "query": ...}`. In a golden file
/// `"query"` may be a list of queries, each a right answer (the first is `query`, the rest
/// `alternatives`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ItemLine")]
pub struct Item {
    /// The question in plain language, as a user would ask it.
    pub question: String,
    /// The query that answers it (in a golden file: the first right answer).
    pub query: String,
    /// Further right answers: the candidate is right when it matches any of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<String>,
    /// The 1-based line it was read from (0 when not read from a file).
    #[serde(skip)]
    pub line: usize,
}

impl Item {
    /// The gold queries: `query`, then the alternatives.
    pub fn queries(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.query.as_str()).chain(self.alternatives.iter().map(String::as_str))
    }
}

/// `"query"` as written: one query or a list.
#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
struct ItemLine {
    question: String,
    query: OneOrMany,
    #[serde(default)]
    alternatives: Vec<String>,
}

impl TryFrom<ItemLine> for Item {
    type Error = String;

    fn try_from(line: ItemLine) -> Result<Self, String> {
        let mut queries = match line.query {
            OneOrMany::One(q) => vec![q],
            OneOrMany::Many(qs) => qs,
        };
        queries.extend(line.alternatives);
        if queries.is_empty() {
            return Err("`query` is an empty list: give at least one query".to_owned());
        }
        let query = queries.remove(0);
        Ok(Item {
            question: line.question,
            query,
            alternatives: queries,
            line: 0,
        })
    }
}

/// Reads JSON lines of `{"question", "query"}` (`"query"` a string or a list of strings); blank
/// lines and lines starting with `//` are skipped. An error names the line and column: `LINE:COL: message`.
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
                "{}:{column}: expected {{\"question\": \"...\", \"query\": \"...\" or [\"...\", ...]}}: {e}",
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

/// What a gold query puts in order: its rows (a top-level `ORDER BY`) and the arrays in its rows
/// (a sorting function or method, or an `ORDER BY` in a subquery).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Order {
    /// The rows come in order: a candidate's must come in the same order.
    pub rows: bool,
    /// Arrays inside the rows are sorted: a candidate's must hold their elements in the same order.
    pub arrays: bool,
}

/// What `query` orders (read with SurrealDB's parser; a reply that does not parse orders nothing).
pub fn order_of(query: &str) -> Order {
    use surrealdb_sql::{Expr, TopLevelExpr};
    let text = crate::validate::reply::strip_fence(query);
    let Ok(ast) = surrealdb_syn::parse(text) else {
        return Order::default();
    };
    let rows = ast
        .expressions
        .iter()
        .any(|e| matches!(e, TopLevelExpr::Expr(Expr::Select(s)) if s.order.is_some()));
    // Every ORDER BY beyond the top level's, and any sorting function or method.
    let (mut orders, mut sorts) = (0, false);
    for e in ast.expressions.iter().filter_map(|e| match e {
        TopLevelExpr::Expr(e) => Some(e),
        _ => None,
    }) {
        let (o, s) = crate::validate::walk::sorting(e);
        orders += o;
        sorts |= s;
    }
    Order {
        rows,
        arrays: sorts || orders > usize::from(rows),
    }
}

/// Whether `query`'s top-level `SELECT` has an `ORDER BY`.
pub fn is_ordered(query: &str) -> bool {
    order_of(query).rows
}

/// Whether two results hold the same rows: each row as the multiset of its values, the rows as a
/// multiset, or as a sequence when `ordered`; arrays inside rows as multisets.
pub fn same_rows(gold: &[serde_json::Value], candidate: &[serde_json::Value], ordered: bool) -> bool {
    same_rows_in(
        gold,
        candidate,
        Order {
            rows: ordered,
            arrays: false,
        },
    )
}

/// [`same_rows`] with what the gold query orders ([`order_of`]).
pub fn same_rows_in(gold: &[serde_json::Value], candidate: &[serde_json::Value], order: Order) -> bool {
    if gold.len() != candidate.len() {
        return false;
    }
    let row_eq = |a: &serde_json::Value, b: &serde_json::Value| {
        same_multiset(&row_values(a), &row_values(b), |x, y| same_value(x, y, order.arrays))
    };
    if order.rows {
        return gold.iter().zip(candidate).all(|(a, b)| row_eq(a, b));
    }
    // Rows are at most the runner's row cap, so pairing them greedily is cheap.
    same_multiset(gold, candidate, row_eq)
}

/// A row's values: the field names are dropped.
fn row_values(row: &serde_json::Value) -> Vec<&serde_json::Value> {
    match row {
        serde_json::Value::Object(fields) => fields.values().collect(),
        other => vec![other],
    }
}

/// Whether `b` is a permutation of `a` under `eq` (matched greedily: `eq` is an equality up to a
/// tolerance, so it has no hashable key).
fn same_multiset<T>(a: &[T], b: &[T], eq: impl Fn(&T, &T) -> bool) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut used = vec![false; b.len()];
    a.iter()
        .all(|x| match (0..b.len()).find(|&i| !used[i] && eq(x, &b[i])) {
            Some(i) => {
                used[i] = true;
                true
            }
            None => false,
        })
}

/// Two values as an answer compares them: numbers by [`same_number`], arrays as multisets unless
/// `ordered_arrays`, objects key by key.
fn same_value(a: &serde_json::Value, b: &serde_json::Value, ordered_arrays: bool) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => same_number(x, y),
        (Value::Array(x), Value::Array(y)) if ordered_arrays => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y, true))
        }
        (Value::Array(x), Value::Array(y)) => same_multiset(x, y, |x, y| same_value(x, y, false)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w, ordered_arrays)))
        }
        _ => a == b,
    }
}

/// Integers exactly; otherwise as floats within a relative 1e-9 (`3` and `3.0` agree).
fn same_number(x: &serde_json::Number, y: &serde_json::Number) -> bool {
    if let (Some(a), Some(b)) = (x.as_i64(), y.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (x.as_u64(), y.as_u64()) {
        return a == b;
    }
    match (x.as_f64(), y.as_f64()) {
        (Some(a), Some(b)) => a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()),
        _ => false,
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
    /// The question.
    pub question: String,
    /// Whether the candidate's rows are the gold query's (see `reason` when not).
    pub correct: bool,
    /// The gold query.
    pub gold: String,
    /// The candidate query (the model's accepted one, or its last reply when none was accepted).
    pub candidate: Option<String>,
    /// Why it is wrong: `invalid: ...`, `refused: ...`, `wrong result: ...`, `no candidate`.
    pub reason: Option<String>,
    /// Replies the model took (1 for a candidates file).
    pub attempts: usize,
    /// How many rows the gold query returned.
    pub gold_rows: usize,
    /// How many rows the candidate returned; `None` when it did not run.
    pub candidate_rows: Option<usize>,
    /// The prompt's tokens, when the caller counted them.
    pub prompt_tokens: Option<usize>,
}

/// The run: execution accuracy, repairs and each question's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccuracyReport {
    /// How many questions were judged.
    pub total: usize,
    /// How many were answered right.
    pub correct: usize,
    /// `correct / total` (0 for an empty set).
    pub accuracy: f64,
    /// Replies after the first, over every question.
    pub repairs: usize,
    /// Each question's result, in the golden file's order.
    pub questions: Vec<QuestionResult>,
}

impl AccuracyReport {
    /// The report over `questions`: the totals, accuracy and repairs counted from them.
    pub fn new(questions: Vec<QuestionResult>) -> Self {
        let total = questions.len();
        let correct = questions.iter().filter(|q| q.correct).count();
        let repairs = questions.iter().map(|q| q.attempts.saturating_sub(1)).sum();
        AccuracyReport {
            total,
            correct,
            accuracy: if total == 0 { 0.0 } else { correct as f64 / total as f64 },
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
    /// The connection or the database failed; a candidate the engine refuses is a wrong answer, not this.
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

/// Judges one question: the gold queries and the candidate all run as the agent; the candidate is
/// right when its rows match any gold query's (the first gold query's rows explain a miss).
pub async fn judge<C: Connection>(
    agent: &Agent<C>,
    schema: &ir::Schema,
    timeout: Duration,
    gold: &Item,
    candidate: Candidate,
) -> Result<QuestionResult, EvalError> {
    let mut golds = Vec::new();
    for query in gold.queries() {
        golds.push((gold_rows(agent, schema, timeout, query).await?, order_of(query)));
    }
    let (gold_rows, order) = (&golds[0].0, golds[0].1);
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
                    result.reason = Some(format!("refused: cannot answer: {}", answer.reason.unwrap_or_default()));
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
    if golds
        .iter()
        .any(|(gold_rows, order)| same_rows_in(gold_rows, &rows, *order))
    {
        result.correct = true;
    } else {
        result.reason = Some(miss_reason(gold_rows, &rows, order));
    }
    Ok(result)
}

/// Why `rows` are not the first gold query's: another order, other values, or another count.
fn miss_reason(gold_rows: &[serde_json::Value], rows: &[serde_json::Value], order: Order) -> String {
    let unordered = Order { rows: false, ..order };
    let plural = if rows.len() == 1 { "" } else { "s" };
    if order.rows && same_rows_in(gold_rows, rows, unordered) {
        "wrong result: the gold rows, in another order".to_owned()
    } else if rows.len() == gold_rows.len() {
        format!(
            "wrong result: {} row{plural} as the gold query has, but other values",
            rows.len()
        )
    } else {
        format!(
            "wrong result: {} row{plural}, the gold query {}",
            rows.len(),
            gold_rows.len()
        )
    }
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
        let gold = [json!({"name": "Ann", "n": 3}), json!({"name": "Bo", "n": 1})];
        // Other names, other row order, a float for an integer.
        let renamed = [json!({"total": 1.0, "who": "Bo"}), json!({"total": 3, "who": "Ann"})];
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
            &[json!({"name": "Ann", "n": 3}), json!({"name": "Bo", "n": 2})],
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
    fn arrays_in_a_row_are_multisets_unless_the_gold_sorts_them() {
        let gold = [json!({"owner": "Ann", "pets": ["Rex", "Tom", "Zed"]})];
        let reversed = [json!({"pets": ["Zed", "Tom", "Rex"], "who": "Ann"})];
        let order = order_of("SELECT name, ->owns->pet.name AS pets FROM owner LIMIT 5");
        assert_eq!(order, Order::default());
        assert!(same_rows_in(&gold, &reversed, order));
        assert!(same_rows(&gold, &reversed, false));
        for sorting in [
            "SELECT name, array::sort(->owns->pet.name) AS pets FROM owner LIMIT 5",
            "SELECT name, array::sort::desc(->owns->pet.name) AS pets FROM owner LIMIT 5",
            "SELECT name, ->owns->pet.name.sort() AS pets FROM owner LIMIT 5",
            "SELECT name, (SELECT VALUE name FROM pet ORDER BY name LIMIT 9) AS pets FROM owner LIMIT 5",
        ] {
            let order = order_of(sorting);
            assert!(order.arrays && !order.rows, "{sorting}");
            assert!(!same_rows_in(&gold, &reversed, order), "{sorting}");
            assert!(same_rows_in(&gold, &gold, order), "{sorting}");
        }
        // A word in a string is not a sort.
        assert!(!order_of("SELECT name FROM owner WHERE note = 'array::sort ORDER BY' LIMIT 5").arrays);
        // Duplicates count inside arrays too.
        assert!(!same_rows(&[json!([1, 1, 2])], &[json!([1, 2, 2])], false));
        // One row holding an array is not the same values as several rows.
        assert!(!same_rows(
            &[json!({"pets": ["Rex", "Tom"]})],
            &[json!({"name": "Rex"}), json!({"name": "Tom"})],
            false
        ));
    }

    #[test]
    fn floats_agree_within_a_relative_tolerance_and_integers_exactly() {
        assert!(same_rows(&[json!({"avg": 0.1 + 0.2})], &[json!({"a": 0.3})], false));
        assert!(same_rows(&[json!(1.0e20)], &[json!(1.0000000000001e20)], false));
        assert!(!same_rows(&[json!(1.0)], &[json!(1.00001)], false));
        assert!(same_rows(&[json!(3)], &[json!(3.0)], false));
        assert!(!same_rows(
            &[json!(9007199254740993_i64)],
            &[json!(9007199254740992_i64)],
            false
        ));
        // The tolerance reaches into arrays and objects, and the rows still pair up as multisets.
        assert!(same_rows(
            &[json!({"x": [0.30000000000000004, 2]}), json!({"x": [5, 1]})],
            &[json!({"y": [1, 5]}), json!({"y": [2, 0.3]})],
            false
        ));
    }

    #[test]
    fn a_golden_query_may_be_a_list_of_right_answers() {
        let items = read_jsonl(
            "{\"question\": \"q\", \"query\": [\"SELECT 1\", \"SELECT 2\"]}\n{\"question\": \"r\", \"query\": \"SELECT 3\"}\n",
        )
        .unwrap();
        assert_eq!(items[0].query, "SELECT 1");
        assert_eq!(items[0].alternatives, ["SELECT 2"]);
        assert_eq!(items[0].queries().collect::<Vec<_>>(), ["SELECT 1", "SELECT 2"]);
        assert!(items[1].alternatives.is_empty());
        // Written back, a single query stays a string and the list keeps its alternatives.
        let json = serde_json::to_string(&items[1]).unwrap();
        assert_eq!(json, r#"{"question":"r","query":"SELECT 3"}"#);
        let back: Item = serde_json::from_str(&serde_json::to_string(&items[0]).unwrap()).unwrap();
        assert_eq!(back.queries().count(), 2);
        let err = read_jsonl("{\"question\": \"q\", \"query\": []}\n").unwrap_err();
        assert!(err.starts_with("1:") && err.contains("empty list"), "{err}");
    }

    #[test]
    fn order_by_is_read_from_the_parsed_gold() {
        assert!(is_ordered("SELECT name FROM customer ORDER BY name LIMIT 5"));
        assert!(!is_ordered("SELECT name FROM customer WHERE note = 'ORDER BY' LIMIT 5"));
        assert!(!is_ordered(
            "SELECT count() FROM (SELECT * FROM a ORDER BY b) GROUP ALL"
        ));
    }

    #[test]
    fn golden_lines_are_read_with_their_positions() {
        let items = read_jsonl("\n{\"question\": \"q\", \"query\": \"SELECT 1\"}\n// note\n").unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].line, 2);
        let err = read_jsonl("{\"question\": \"q\"}\n").unwrap_err();
        assert!(err.starts_with("1:"), "{err}");
        assert!(err.contains("query"), "{err}");
    }
}
