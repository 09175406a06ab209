//! The gate every agent reply passes, in one place: a Markdown fence unwrapped, `-- cannot answer` recognised, the text parsed once by SurrealDB's parser, one SELECT without a TIMEOUT of its own accepted, and the runner's LIMIT and TIMEOUT set on that parsed statement.
//!
//! The validator reads a reply through [`read`] and refuses what [`one_select`] refuses; the
//! runner takes the same parsed statement from [`Reply::into_statement`], so the engine runs the
//! statement that was checked and a reply is never parsed twice.

use std::cell::Cell;
use surrealdb_sql::{Ast, Expr, Limit, Literal, SelectStatement, TopLevelExpr};
use surrealdb_types::ToSql;

thread_local! {
    /// How many replies [`read`] has parsed on this thread (a test shows one parse per run).
    static PARSED: Cell<usize> = const { Cell::new(0) };
}

/// The number of replies parsed so far on this thread; for tests that a reply is parsed once.
#[doc(hidden)]
pub fn replies_parsed() -> usize {
    PARSED.with(Cell::get)
}

/// A model's reply, read once.
#[derive(Debug, Clone)]
pub struct Reply<'r> {
    /// The reply without its Markdown fence: a subslice of the reply.
    pub body: &'r str,
    /// Byte offset of `body` in the reply, so spans point into what the model wrote.
    pub base: usize,
    /// What the body is: a refusal to answer, a parsed statement, or text that does not parse.
    pub read: Read,
}

/// What the reply holds.
#[derive(Debug, Clone)]
pub enum Read {
    /// `-- cannot answer: <reason>`: the reason.
    CannotAnswer(String),
    /// SurrealDB's parse of the body.
    Parsed(Ast),
    /// The body does not parse: the engine's error text.
    Unparsed(String),
}

/// Unwraps a fence, recognises a refusal to answer, and otherwise parses the body once.
pub fn read(reply: &str) -> Reply<'_> {
    let body = strip_fence(reply);
    // `strip_fence` returns a subslice of `reply`: its offset there.
    let base = (body.as_ptr() as usize).saturating_sub(reply.as_ptr() as usize);
    let read = if let Some(reason) = cannot_answer(body) {
        Read::CannotAnswer(reason)
    } else {
        PARSED.with(|n| n.set(n.get() + 1));
        match surrealdb_syn::parse(body) {
            Ok(ast) => Read::Parsed(ast),
            Err(e) => Read::Unparsed(e.to_string()),
        }
    };
    Reply { body, base, read }
}

/// Why a parsed reply may not run, written for the model: what is wrong, and the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What is wrong.
    pub message: String,
    /// How to repair it.
    pub fix: String,
    /// A word of the reply the problem is at (`timeout`), when there is one; else the whole reply.
    pub at: Option<&'static str>,
}

impl Refusal {
    fn new(message: impl Into<String>, fix: impl Into<String>) -> Self {
        Refusal {
            message: message.into(),
            fix: fix.into(),
            at: None,
        }
    }

    /// The refusal as one line: `message; fix`.
    pub fn line(&self) -> String {
        format!("{}; {}", self.message, self.fix)
    }
}

/// The one SELECT statement of `ast`, or why the reply may not run.
pub fn one_select(ast: &Ast) -> Result<&SelectStatement, Refusal> {
    match ast.expressions.as_slice() {
        [] => Err(Refusal::new(
            "the reply holds no statement",
            "reply with one SELECT statement",
        )),
        [TopLevelExpr::Expr(Expr::Select(select))] => {
            if matches!(select.timeout, Expr::Literal(Literal::None)) {
                Ok(select)
            } else {
                Err(Refusal {
                    at: Some("timeout"),
                    ..Refusal::new(
                        "the query sets its own TIMEOUT",
                        "remove the TIMEOUT clause: the runner sets its own",
                    )
                })
            }
        }
        [one] => {
            let text = one.to_sql();
            let word = text.split_whitespace().next().unwrap_or("").to_uppercase();
            Err(Refusal::new(
                format!("only a SELECT statement may run here, not `{word}`"),
                "the agent reads only: reply with one SELECT statement",
            ))
        }
        many => Err(Refusal::new(
            format!("the reply holds {} statements", many.len()),
            "reply with exactly one SELECT statement",
        )),
    }
}

/// What the runner does with a reply: the statement to send, or the text for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runnable {
    /// The one SELECT rendered back by SurrealDB's printer, with the runner's TIMEOUT (and LIMIT).
    Select(String),
    /// A `-- cannot answer: <reason>` reply.
    CannotAnswer(String),
}

impl Reply<'_> {
    /// The statement the runner sends: the parsed SELECT with `TIMEOUT timeout` and, when it has
    /// none, `LIMIT add_limit`; else the refusal as text for the model.
    pub fn into_statement(self, timeout: std::time::Duration, add_limit: Option<u32>) -> Result<Runnable, String> {
        self.into_probing_statement(timeout, add_limit, None)
    }

    /// [`Reply::into_statement`], and with `probe = Some(n)` a LIMIT of at most `n + 1`: a LIMIT
    /// above `n` (the one added included) becomes `n + 1`, so that the rows show whether the
    /// query had more than `n` without reading them all. A LIMIT of `n` or less is kept.
    pub fn into_probing_statement(
        self,
        timeout: std::time::Duration,
        add_limit: Option<u32>,
        probe: Option<u32>,
    ) -> Result<Runnable, String> {
        let mut ast = match self.read {
            Read::CannotAnswer(reason) => return Ok(Runnable::CannotAnswer(reason)),
            Read::Unparsed(error) => return Err(format!("the query does not parse: {}", error.trim_end())),
            Read::Parsed(ast) => ast,
        };
        if let Err(refusal) = one_select(&ast) {
            return Err(refusal.line());
        }
        let Some(TopLevelExpr::Expr(Expr::Select(select))) = ast.expressions.first_mut() else {
            unreachable!("one_select accepted exactly one SELECT");
        };
        set_policy(select, timeout, add_limit);
        if let Some(n) = probe {
            set_probe(select, n);
        }
        Ok(Runnable::Select(ast.to_sql()))
    }
}

/// The runner's TIMEOUT (at least 1 ms, the engine's smallest) and, on a SELECT without one, its LIMIT.
fn set_policy(select: &mut SelectStatement, timeout: std::time::Duration, add_limit: Option<u32>) {
    select.timeout = Expr::Literal(Literal::Duration(timeout.max(std::time::Duration::from_millis(1))));
    if let (None, Some(n)) = (&select.limit, add_limit) {
        select.limit = Some(Limit(Expr::Literal(Literal::Integer(i64::from(n)))));
    }
}

/// At most `n + 1` rows: a missing LIMIT, or a literal one above `n`, becomes `LIMIT n + 1` (a
/// LIMIT that is not a literal whole number is left to the validator and the engine).
fn set_probe(select: &mut SelectStatement, n: u32) {
    let probe = i64::from(n) + 1;
    let keep = match &select.limit {
        None => false,
        Some(Limit(Expr::Literal(Literal::Integer(l)))) => *l <= i64::from(n),
        Some(_) => true,
    };
    if !keep {
        select.limit = Some(Limit(Expr::Literal(Literal::Integer(probe))));
    }
}

/// A `-- cannot answer: <reason>` reply (one line): the reason.
pub(crate) fn cannot_answer(reply: &str) -> Option<String> {
    let rest = reply.trim().strip_prefix("-- cannot answer")?;
    if rest.contains(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']) {
        return None;
    }
    Some(rest.trim_start_matches(':').trim().to_owned())
}

/// The inside of a reply wrapped in a Markdown code fence (```` ```surql ... ``` ````), else the reply.
pub(crate) fn strip_fence(reply: &str) -> &str {
    let trimmed = reply.trim();
    let Some(rest) = trimmed.strip_prefix("```") else {
        return reply;
    };
    let Some(body) = rest.strip_suffix("```") else {
        return reply;
    };
    // Drop the info string (`surql`, `sql`) on the opening line.
    match body.split_once('\n') {
        Some((info, inner)) if !info.contains(' ') || info.trim().is_empty() => inner,
        _ => body,
    }
}
