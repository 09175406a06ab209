//! `surqlc audit`: what the schema block and the prompt cost in tokens, the budgets, the live check, and the text and JSON reports.
//!
//! Beside it, what pruning chooses and costs on a loaded database: [`prune_run`] (`surqlc prune`)
//! and [`prune_eval`] (recall on labelled questions, for the benches and tests). The HTML reports:
//! [`html`] (the token map of [`token_map`], laid out by [`treemap`]) and [`eval_html`] (`surqlc
//! eval --html`), in the shell of [`page`].

#[cfg(feature = "runtime")]
pub mod eval_html;
mod hint_costs;
#[cfg(feature = "runtime")]
pub mod html;
pub mod page;
#[cfg(feature = "runtime")]
pub mod prune_eval;
#[cfg(feature = "runtime")]
pub mod prune_run;
#[cfg(feature = "runtime")]
pub mod token_map;
pub mod treemap;

use crate::codegen::builder::Output;
use crate::exit::Failure;
use crate::ir::Budget;
use crate::schema_db;
use crate::surql::info;
use crate::tokens::{self, BlockCost, Encoding, Saving};
use std::fmt::Write;
use std::path::PathBuf;

/// What to audit beyond the schema block.
#[derive(Debug, Clone, Default)]
pub struct AuditOptions {
    pub encoding: Encoding,
    /// Limits that override the schema's own `budget(...)`.
    pub budget: Budget,
    /// Load the schema into the embedded engine and compare its `fn::schema_context()` with the static rendering.
    pub live: bool,
    /// Cost the whole prompt for this question (loading `seed` first).
    pub question: Option<QuestionOptions>,
}

#[derive(Debug, Clone, Default)]
pub struct QuestionOptions {
    pub question: String,
    pub vector: Vec<f64>,
    pub seed: Option<PathBuf>,
}

/// One section of the prompt and its cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub name: &'static str,
    pub tokens: usize,
    pub chars: usize,
}

impl Section {
    fn of(name: &'static str, text: &str, encoding: Encoding) -> Section {
        Section {
            name,
            tokens: encoding.count(text),
            chars: text.chars().count(),
        }
    }
}

/// An audit's findings.
#[derive(Debug, Clone)]
pub struct Findings {
    pub encoding: Encoding,
    /// The block in the schema's own rendering.
    pub cost: BlockCost,
    /// The block in the other rendering, for comparison.
    pub alternative: BlockCost,
    pub savings: Vec<Saving>,
    /// The prompt's sections (just the preamble without a question), then `total` with a question.
    pub sections: Vec<Section>,
    /// `Some(None)`: the live block matched; `Some(Some(diff))`: where it first differs; `None`: not checked.
    pub live: Option<Option<String>>,
    /// One line for each way the block exceeds its budget.
    pub over_budget: Vec<String>,
    /// Each value-hint line on the seed data and its cost (with a question).
    pub hints: Vec<hint_costs::HintCost>,
    /// What `prune(...)` cannot do at its budget (table groups that do not fit; `crate::prune::warnings`).
    pub prune: Vec<String>,
    /// With `--live` and a seed: literal fields whose rows hold values outside their union (`evolve`).
    pub literal: Vec<String>,
}

impl Findings {
    /// Why the audit fails (exit status 1), if it does.
    pub fn failure(&self) -> Option<Failure> {
        if let Some(Some(diff)) = &self.live {
            return Some(Failure::Failed(format!(
                "error: the live fn::schema_context() differs from the static rendering: {diff}"
            )));
        }
        (!self.over_budget.is_empty())
            .then(|| Failure::Failed(format!("over budget:\n  {}", self.over_budget.join("\n  "))))
    }

    /// The report as a person reads it.
    pub fn text(&self) -> String {
        let mut out = cost_table(&self.cost, &self.alternative, &self.savings, &self.sections);
        if self.live == Some(None) {
            out.push_str("\nlive: the embedded engine's fn::schema_context() equals the static rendering\n");
        }
        for w in &self.literal {
            out.push_str(&format!("warning: {w}\n"));
        }
        for w in &self.prune {
            out.push_str(&format!("\nwarning: {w}\n"));
        }
        if !self.hints.is_empty() {
            out.push_str("\nvalue hints on the seed data (tokens per line):\n");
            for h in &self.hints {
                out.push_str(&format!("{:>6}  {}\n", h.tokens, h.line));
            }
        }
        out
    }

    /// The report for a program: see the README for its fields.
    pub fn json(&self) -> serde_json::Value {
        let other = self.alternative.rendering;
        let tables: Vec<serde_json::Value> = self
            .cost
            .tables
            .iter()
            .zip(&self.alternative.tables)
            .map(|(t, alt)| {
                serde_json::json!({
                    "table": t.table,
                    "tokens": t.tokens,
                    "chars": t.chars,
                    "share": share(t.tokens, self.cost.block_tokens),
                    "comment_tokens": t.comment_tokens,
                    "enum_doc_tokens": t.enum_doc_tokens,
                    format!("{}_tokens", other.name()): alt.tokens,
                })
            })
            .collect();
        serde_json::json!({
            "encoding": self.encoding.name(),
            "rendering": self.cost.rendering.name(),
            "tables": tables,
            "schema_block_tokens": self.cost.block_tokens,
            "schema_block_chars": self.cost.block_chars,
            format!("{}_schema_block_tokens", other.name()): self.alternative.block_tokens,
            "prompt": self.sections.iter().map(|s| serde_json::json!({"section": s.name, "tokens": s.tokens, "chars": s.chars})).collect::<Vec<_>>(),
            "savings": self.savings.iter().map(|s| serde_json::json!({
                "table": s.table, "field": s.field, "advice": s.advice,
                "tokens_now": s.tokens_now, "tokens_after": s.tokens_after, "saved": s.saved(),
            })).collect::<Vec<_>>(),
            "value_hints": self.hints.iter().map(|h| serde_json::json!({"hint": h.label, "line": h.line, "tokens": h.tokens})).collect::<Vec<_>>(),
            "live_matches": self.live.as_ref().map(Option::is_none),
            "over_budget": self.over_budget,
            "prune_warnings": self.prune,
            "literal_warnings": self.literal,
        })
    }
}

/// The block's cost in the schema's rendering and the other one.
pub fn block_costs(output: &Output, encoding: Encoding) -> (BlockCost, BlockCost) {
    tokens::both_costs(&output.schema, encoding)
}

/// Audits a compiled schema.
pub async fn audit(output: &Output, options: &AuditOptions) -> Result<Findings, Failure> {
    let schema = &output.schema;
    let encoding = options.encoding;
    if let Some(q) = &options.question {
        schema_db::check_dimension(schema, &q.vector)?;
    }
    let (cost, alternative) = block_costs(output, encoding);
    let savings = tokens::savings(schema, encoding);

    let mut live = None;
    let mut sections = Vec::new();
    let mut hints = Vec::new();
    let mut literal = Vec::new();
    if options.live || options.question.is_some() {
        let conn = schema_db::open_embedded(output).await?;
        if options.live {
            let got = crate::db::query_string(&conn, "RETURN fn::schema_context()")
                .await
                .map_err(|e| Failure::Failed(format!("error: fn::schema_context failed: {e}")))?;
            let ours = info::schema_block(schema);
            live = Some((got != ours).then(|| first_difference(&ours, &got)));
        }
        if let Some(q) = &options.question {
            if let Some(seed) = &q.seed {
                schema_db::load_file(&conn, seed).await?;
                if options.live {
                    literal = crate::evolve::literal_warnings(&conn, schema)
                        .await
                        .map_err(|e| Failure::Failed(format!("error: cannot read the literal fields' values: {e}")))?;
                }
            }
            let (whole, parts) = schema_db::prompt_sections(&conn, output, &q.question, &q.vector).await?;
            sections = parts
                .iter()
                .map(|(name, text)| Section::of(name, text, encoding))
                .collect();
            sections.push(Section::of("total", &whole, encoding));
            hints = hint_costs::hint_costs(&conn, schema, |t| encoding.count(t))
                .await
                .map_err(|e| Failure::Failed(format!("error: fn::value_hints failed: {e}")))?;
        }
    }
    if options.question.is_none() {
        // Counted as a prompt shows it: a date where the day of the call goes.
        let preamble = crate::codegen::emit::preamble_on(&output.preamble, "2026-01-01");
        sections.push(Section::of("preamble", &preamble, encoding));
    }
    let over_budget = cost.over_budget(&options.budget.or(&schema.settings.budget));
    Ok(Findings {
        encoding,
        cost,
        alternative,
        savings,
        sections,
        live,
        over_budget,
        hints,
        prune: crate::prune::warnings(schema),
        literal,
    })
}

/// `part` as a percentage of `whole`, to one decimal.
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 * 1000.0 / whole as f64).round() / 10.0
    }
}

/// The per-table cost table, then the prompt's sections, the savings and where comments cost most.
pub fn cost_table(cost: &BlockCost, alternative: &BlockCost, savings: &[Saving], sections: &[Section]) -> String {
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
        let bar = if most == 0 { 0 } else { (t.tokens * BAR).div_ceil(most) };
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
    write_advice(&mut out, cost, alternative);
    out
}

/// The cost table's closing advice: where comments cost most, what Literal enums' docs cost, and
/// whether the other rendering is cheaper.
fn write_advice(out: &mut String, cost: &BlockCost, alternative: &BlockCost) {
    let mut by_comments: Vec<_> = cost.tables.iter().filter(|t| t.comment_tokens > 0).collect();
    by_comments.sort_by(|a, b| b.comment_tokens.cmp(&a.comment_tokens).then(a.table.cmp(&b.table)));
    if !by_comments.is_empty() {
        let _ = writeln!(out, "\ncomments cost most in");
        for t in by_comments.iter().take(3) {
            let _ = writeln!(out, "  {}: {} of its {} tokens", t.table, t.comment_tokens, t.tokens);
        }
    }
    let enum_docs: usize = cost.tables.iter().map(|t| t.enum_doc_tokens).sum();
    if enum_docs > 0 {
        let by_table: Vec<String> = cost
            .tables
            .iter()
            .filter(|t| t.enum_doc_tokens > 0)
            .map(|t| format!("{} {}", t.table, t.enum_doc_tokens))
            .collect();
        let _ = writeln!(
            out,
            "\nLiteral enums' doc comments (in their fields' comments) cost {enum_docs} tokens: {}",
            by_table.join(", ")
        );
    }
    if alternative.block_tokens < cost.block_tokens {
        let _ = writeln!(
            out,
            "\nthe {} rendering saves {} tokens: add `compact` to the #[surqlc(...)] of the Schema item",
            alternative.rendering.name(),
            cost.block_tokens - alternative.block_tokens
        );
    }
}

/// Where two texts first differ, with the line from each.
fn first_difference(ours: &str, live: &str) -> String {
    let at = crate::drift::first_difference_at(ours, live);
    let line = ours[..at].matches('\n').count() + 1;
    let snippet = |s: &str| {
        let start = s[..at.min(s.len())].rfind('\n').map_or(0, |i| i + 1);
        s[start..].lines().next().unwrap_or("").to_owned()
    };
    format!("line {line}\n  static: {}\n  live:   {}", snippet(ours), snippet(live))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_first_differing_line() {
        let d = first_difference("a\nb c\nd", "a\nb x\nd");
        assert_eq!(d, "line 2\n  static: b c\n  live:   b x");
        assert_eq!(share(1, 3), 33.3);
        assert_eq!(share(1, 0), 0.0);
    }
}
