//! Token costs of the schema block (per exposed table and in total) and where it could be cheaper, counted with tiktoken-rs.
//!
//! A table's count covers its `DEFINE TABLE` line and its `DEFINE FIELD` lines joined by
//! `\n`, as [`crate::surql::info::table_block_as`] writes them; the block's count is taken on the
//! whole block, blank lines included, so it is not the sum of the tables. Each encoding's
//! BPE tables are loaded on first use and kept for the life of the process.

use crate::ir::{Budget, Kind, Schema, Table, Type};
use crate::surql::info::{self, Rendering};
use crate::surql::lex;

/// The encodings tiktoken-rs ships; `o200k_base` is the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    #[default]
    O200kBase,
    O200kHarmony,
    Cl100kBase,
    P50kBase,
    P50kEdit,
    R50kBase,
}

impl Encoding {
    pub const ALL: [Encoding; 6] = [
        Encoding::O200kBase,
        Encoding::O200kHarmony,
        Encoding::Cl100kBase,
        Encoding::P50kBase,
        Encoding::P50kEdit,
        Encoding::R50kBase,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Encoding::O200kBase => "o200k_base",
            Encoding::O200kHarmony => "o200k_harmony",
            Encoding::Cl100kBase => "cl100k_base",
            Encoding::P50kBase => "p50k_base",
            Encoding::P50kEdit => "p50k_edit",
            Encoding::R50kBase => "r50k_base",
        }
    }

    /// The encoding called `name`, e.g. `o200k_base`.
    pub fn from_name(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.name() == name)
    }

    fn bpe(self) -> &'static tiktoken_rs::CoreBPE {
        // The singletons parse the BPE ranks once per process, on first use.
        match self {
            Encoding::O200kBase => tiktoken_rs::o200k_base_singleton(),
            Encoding::O200kHarmony => tiktoken_rs::o200k_harmony_singleton(),
            Encoding::Cl100kBase => tiktoken_rs::cl100k_base_singleton(),
            Encoding::P50kBase => tiktoken_rs::p50k_base_singleton(),
            Encoding::P50kEdit => tiktoken_rs::p50k_edit_singleton(),
            Encoding::R50kBase => tiktoken_rs::r50k_base_singleton(),
        }
    }

    /// Tokens in `text`; special-token spellings in it count as ordinary text, as a model reading a comment would see them.
    pub fn count(self, text: &str) -> usize {
        self.bpe().encode_ordinary(text).len()
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What one exposed table costs in the block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCost {
    pub table: String,
    pub tokens: usize,
    /// Unicode scalar values, not bytes.
    pub chars: usize,
    /// Tokens spent on the table's and its fields' `COMMENT` strings (quotes included).
    pub comment_tokens: usize,
}

/// The cost of one rendering of the schema block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockCost {
    pub rendering: Rendering,
    pub encoding: Encoding,
    /// Exposed tables in prompt order.
    pub tables: Vec<TableCost>,
    pub block_tokens: usize,
    pub block_chars: usize,
}

/// Counts `schema`'s block in `rendering` with `encoding`.
pub fn block_cost(schema: &Schema, rendering: Rendering, encoding: Encoding) -> BlockCost {
    let tables = schema
        .exposed_tables()
        .map(|t| {
            let text = info::table_block_as(t, rendering);
            TableCost {
                table: t.name.clone(),
                tokens: encoding.count(&text),
                chars: text.chars().count(),
                comment_tokens: comment_tokens(t, encoding),
            }
        })
        .collect();
    let block = info::schema_block_as(schema, rendering);
    BlockCost {
        rendering,
        encoding,
        tables,
        block_tokens: encoding.count(&block),
        block_chars: block.chars().count(),
    }
}

impl BlockCost {
    /// One line for each way `self` exceeds `budget` (the block, then each table over its limit); empty when within it.
    pub fn over_budget(&self, budget: &Budget) -> Vec<String> {
        let mut over = Vec::new();
        if let Some(limit) = budget.block.map(|b| b as usize) {
            if self.block_tokens > limit {
                over.push(format!(
                    "the schema block costs {} {} tokens, {} over the budget of {limit}",
                    self.block_tokens,
                    self.encoding,
                    self.block_tokens - limit
                ));
            }
        }
        if let Some(limit) = budget.table.map(|b| b as usize) {
            for t in self.tables.iter().filter(|t| t.tokens > limit) {
                over.push(format!(
                    "table {} costs {} {} tokens, {} over the table budget of {limit}",
                    t.table,
                    t.tokens,
                    self.encoding,
                    t.tokens - limit
                ));
            }
        }
        over
    }
}

fn comment_tokens(table: &Table, encoding: Encoding) -> usize {
    table
        .comment
        .iter()
        .chain(table.fields.iter().filter_map(|f| f.comment.as_ref()))
        .map(|c| encoding.count(&format!(" COMMENT {}", lex::quote_str(c))))
        .sum()
}

/// A spelling that costs more tokens than an equivalent one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saving {
    pub table: String,
    pub field: String,
    /// What to write instead, for a person.
    pub advice: String,
    pub tokens_now: usize,
    pub tokens_after: usize,
}

impl Saving {
    pub fn saved(&self) -> usize {
        self.tokens_now.saturating_sub(self.tokens_after)
    }
}

/// Type overrides such as `string ASSERT $value INSIDE ['a', 'b']` that a literal union (a `Literal` enum) says in fewer tokens.
pub fn savings(schema: &Schema, encoding: Encoding) -> Vec<Saving> {
    let mut out = Vec::new();
    for table in schema.exposed_tables() {
        for field in &table.fields {
            let Type::Raw(raw) = &field.ty else { continue };
            let Some(values) = lex::inside_list(&raw.clauses) else {
                continue;
            };
            let optional =
                matches!(&raw.kind, Kind::Either(m) if m.contains(&Kind::Named("none".into())));
            let literal = Type::Literal(values.clone());
            let union = if optional {
                Type::Option(Box::new(literal))
            } else {
                literal
            };
            let now = encoding.count(&info::field_line(&table.name, &field.name, &field.ty));
            let after = encoding.count(&info::field_line(&table.name, &field.name, &union));
            if after < now {
                out.push(Saving {
                    table: table.name.clone(),
                    field: field.name.clone(),
                    advice: format!(
                        "type `{}` as a Literal enum (`{}`) instead of `{}`",
                        field.rust_name,
                        info::render_kind(&union),
                        raw.text.trim()
                    ),
                    tokens_now: now,
                    tokens_after: after,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_round_trip_their_names() {
        for e in Encoding::ALL {
            assert_eq!(Encoding::from_name(e.name()), Some(e));
        }
    }
}
