//! What the HTML token map draws: each exposed table's tokens split into its parts (the table's own line, each field, comments, enum docs) with the line it was declared on, the budgets, and the tables each question's pruned prompt shows.

use super::prune_run::PrunedTables;
use super::Findings;
use crate::codegen::builder::Output;
use crate::ir::{Budget, Table};
use crate::surql::{info, lex, meaning};
use crate::tokens::Encoding;

/// What a part of a table's block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartKind {
    /// The `DEFINE TABLE` line without its comment.
    Head,
    /// A `DEFINE FIELD` line without its comment.
    Field,
    /// A `COMMENT` (the table's or a field's), less what Literal enums' docs add to it.
    Comment,
    /// What a Literal enum's doc comments add to a field's comment.
    EnumDoc,
}

impl PartKind {
    pub const ALL: [PartKind; 4] = [PartKind::Head, PartKind::Field, PartKind::Comment, PartKind::EnumDoc];

    pub fn name(self) -> &'static str {
        match self {
            PartKind::Head => "table head",
            PartKind::Field => "field",
            PartKind::Comment => "comment",
            PartKind::EnumDoc => "enum doc",
        }
    }

    /// The CSS class the map colours it by.
    pub fn class(self) -> &'static str {
        match self {
            PartKind::Head => "head",
            PartKind::Field => "field",
            PartKind::Comment => "comment",
            PartKind::EnumDoc => "enumdoc",
        }
    }
}

/// One part of a table's block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub kind: PartKind,
    /// `DEFINE TABLE`, or the field's key (`total`, `tags.*`, `in`).
    pub label: String,
    pub tokens: usize,
    /// `schemas/store.rs:42`, when the front end knows it.
    pub source: Option<String>,
    /// The line of the table's block it is a part of (0: the `DEFINE TABLE` line): the map keeps a line's parts together.
    pub line: usize,
}

/// One exposed table on the map.
#[derive(Debug, Clone, PartialEq)]
pub struct TableArea {
    pub name: String,
    /// The table's tokens as the audit counts them (its area on the map).
    pub tokens: usize,
    /// Percent of the schema block.
    pub share: f64,
    pub source: Option<String>,
    /// Over `budget(table = ...)`.
    pub over_budget: bool,
    pub parts: Vec<Part>,
}

/// A question's pruned prompt: the tables it shows and what their block costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionArea {
    pub question: String,
    pub tables: Vec<String>,
    pub tokens: usize,
    pub fallback: bool,
}

/// Everything the token map shows.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenMap {
    /// What the map is of: the schema's name.
    pub schema: String,
    pub encoding: Encoding,
    pub rendering: &'static str,
    pub block_tokens: usize,
    /// The budgets in force (the command line's over the schema's).
    pub budget: Budget,
    pub over_budget: Vec<String>,
    /// Exposed tables in prompt order.
    pub tables: Vec<TableArea>,
    /// The pruning budget the questions were chosen under, with the questions.
    pub prune_budget: Option<u32>,
    pub questions: Vec<QuestionArea>,
}

impl TokenMap {
    /// The map of `report` (the audit of `output`) under `budget`, with pruning's `choices` at `prune_budget`.
    pub fn new(
        output: &Output,
        report: &Findings,
        budget: &Budget,
        choices: &[PrunedTables],
        prune_budget: Option<u32>,
    ) -> TokenMap {
        let schema = &output.schema;
        let encoding = report.encoding;
        let access = crate::access::Access::of(schema);
        let meanings = crate::tokens::enum_meanings(schema);
        let index = schema.table_index();
        let limit = budget.table.map(|t| t as usize);
        let tables = report
            .cost
            .tables
            .iter()
            .filter_map(|cost| {
                let table = index.get(cost.table.as_str())?;
                let parts = parts(output, &access, table, report.cost.rendering, encoding, &meanings);
                Some(TableArea {
                    name: cost.table.clone(),
                    tokens: cost.tokens,
                    share: super::share(cost.tokens, report.cost.block_tokens),
                    source: output.positions.table(&table.name).map(|p| p.to_string()),
                    over_budget: limit.is_some_and(|l| cost.tokens > l),
                    parts,
                })
            })
            .collect();
        TokenMap {
            schema: schema.name.clone(),
            encoding,
            rendering: report.cost.rendering.name(),
            block_tokens: report.cost.block_tokens,
            budget: budget.clone(),
            over_budget: report.over_budget.clone(),
            tables,
            prune_budget,
            questions: choices
                .iter()
                .map(|c| QuestionArea {
                    question: c.question.clone(),
                    tables: c.tables.clone(),
                    tokens: c.tokens,
                    fallback: c.fallback,
                })
                .collect(),
        }
    }
}

/// A table's lines split into parts: each line's tokens (counted as the audit counts them, each
/// line but the last with its `\n`) less its comment's, then the comment's, of which the enum
/// docs' are a part of their own. Parts of no tokens are left out.
fn parts(
    output: &Output,
    access: &crate::access::Access,
    table: &Table,
    rendering: info::Rendering,
    encoding: Encoding,
    meanings: &[(crate::ir::Type, String)],
) -> Vec<Part> {
    let (head, lines) = info::table_parts_as(access, table, rendering);
    let last = lines.len();
    let positions = &output.positions;
    let table_at = positions.table(&table.name).map(|p| p.to_string());
    let mut out = Vec::new();
    let mut push = |line, kind, label: &str, tokens: usize, source: &Option<String>| {
        if tokens > 0 {
            out.push(Part {
                kind,
                label: label.to_owned(),
                tokens,
                source: source.clone(),
                line,
            });
        }
    };
    let count = |line: &str, n: usize| {
        if n == last {
            encoding.count(line)
        } else {
            encoding.count(&format!("{line}\n"))
        }
    };
    let split = |line: &str, n: usize, comment: Option<&str>| -> (usize, usize) {
        let whole = count(line, n);
        let Some(c) = comment else { return (whole, 0) };
        let stripped = line.replacen(&format!(" COMMENT {}", lex::quote_str(c)), "", 1);
        let own = count(&stripped, n).min(whole);
        (own, whole - own)
    };
    let (own, comment) = split(&head, 0, table.comment.as_deref());
    push(0, PartKind::Head, "DEFINE TABLE", own, &table_at);
    push(0, PartKind::Comment, "table comment", comment, &table_at);
    for (n, (key, line)) in lines.iter().enumerate() {
        // A sub-field's line (`images.*.url`) is its own field's; an element line (`tags.*`) has none.
        let field = (!key.ends_with(".*")).then(|| table.field_at(key)).flatten();
        let comment = field.and_then(|f| f.comment.as_deref());
        let at = positions
            .field(&table.name, key)
            .map(|p| p.to_string())
            .or_else(|| table_at.clone());
        let (own, comment_tokens) = split(line, n + 1, comment);
        let enum_doc = match (field, comment) {
            (Some(f), Some(c)) => enum_doc_tokens(&f.ty, c, meanings, encoding).min(comment_tokens),
            _ => 0,
        };
        push(n + 1, PartKind::Field, key, own, &at);
        push(
            n + 1,
            PartKind::Comment,
            &format!("{key} comment"),
            comment_tokens - enum_doc,
            &at,
        );
        push(n + 1, PartKind::EnumDoc, &format!("{key} enum doc"), enum_doc, &at);
    }
    out
}

/// What the meaning of the field's Literal enum adds to its comment `c` (as `tokens` counts it).
fn enum_doc_tokens(ty: &crate::ir::Type, c: &str, meanings: &[(crate::ir::Type, String)], encoding: Encoding) -> usize {
    let cost = |c: &str| encoding.count(&format!(" COMMENT {}", lex::quote_str(c)));
    let stored = crate::tokens::stored_type(ty);
    meanings
        .iter()
        .filter(|(t, _)| t == stored)
        .find_map(|(_, m)| meaning::own_part(c, m))
        .map_or(0, |own| cost(c).saturating_sub(own.map_or(0, cost)))
}
