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
    /// Of `comment_tokens`, what the Literal enums' doc comments add to their fields' comments.
    pub enum_doc_tokens: usize,
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
///
/// Linear in the schema and counted once: the block's total comes from the per-table counts (see
/// `with_gap`) rather than a second pass over the whole text, and large schemas are counted on
/// every core.
pub fn block_cost(schema: &Schema, rendering: Rendering, encoding: Encoding) -> BlockCost {
    let exposed: Vec<&Table> = schema.exposed_tables().collect();
    let access = crate::access::Access::of(schema);
    let meanings = enum_meanings(schema);
    let counted = parallel_map(&exposed, |t| {
        let comments = comment_tokens(t, &meanings, encoding);
        table_cost(&access, t, rendering, encoding, comments, &mut LineMemo::new())
    });
    assemble(schema, rendering, encoding, counted)
}

/// The block's cost in the schema's rendering and in the other one, as `surqlc audit` shows them;
/// the comments, the same in both, are counted once, and so is every line the renderings share.
pub fn both_costs(schema: &Schema, encoding: Encoding) -> (BlockCost, BlockCost) {
    let exposed: Vec<&Table> = schema.exposed_tables().collect();
    let access = crate::access::Access::of(schema);
    let active = Rendering::of(schema);
    let meanings = enum_meanings(schema);
    let counted: Vec<[Counted; 2]> = parallel_map(&exposed, |t| {
        let comments = comment_tokens(t, &meanings, encoding);
        let mut memo = LineMemo::new();
        [active, active.other()].map(|r| table_cost(&access, t, r, encoding, comments, &mut memo))
    });
    let (ours, other): (Vec<Counted>, Vec<Counted>) = counted.into_iter().map(|[a, b]| (a, b)).unzip();
    (
        assemble(schema, active, encoding, ours),
        assemble(schema, active.other(), encoding, other),
    )
}

/// One table's cost and what it adds to the block with the blank line after it ([`with_gap`]).
type Counted = (TableCost, Option<usize>);

/// Token counts of lines already counted for this table (`line\n` to its tokens).
type LineMemo = std::collections::HashMap<String, usize>;

fn table_cost(
    access: &crate::access::Access,
    table: &Table,
    rendering: Rendering,
    encoding: Encoding,
    (comment_tokens, enum_doc_tokens): (usize, usize),
    memo: &mut LineMemo,
) -> Counted {
    let text = info::table_block_as(access, table, rendering);
    let tokens = count_lines(&text, encoding, memo);
    let cost = TableCost {
        table: table.name.clone(),
        tokens,
        chars: text.chars().count(),
        comment_tokens,
        enum_doc_tokens,
    };
    let gap = with_gap(&text, tokens, encoding, memo);
    (cost, gap)
}

/// The block's cost from its tables' counts, in prompt order.
fn assemble(schema: &Schema, rendering: Rendering, encoding: Encoding, counted: Vec<Counted>) -> BlockCost {
    let block_chars = counted.iter().map(|(c, _)| c.chars).sum::<usize>() + 2 * counted.len().saturating_sub(1);
    let last = counted.len().saturating_sub(1);
    let summed: Option<usize> = counted
        .iter()
        .enumerate()
        .map(|(i, (c, gap))| if i == last { Some(c.tokens) } else { *gap })
        .sum();
    let block_tokens = summed.unwrap_or_else(|| encoding.count(&info::schema_block_as(schema, rendering)));
    BlockCost {
        rendering,
        encoding,
        tables: counted.into_iter().map(|(c, _)| c).collect(),
        block_tokens,
        block_chars,
    }
}

/// Tokens in a table's block, counted line by line (each line but the last with its `\n`) and
/// looked up in `memo` first: the two renderings share most lines. Exact for the reason given at
/// [`with_gap`] (a line that starts with a letter starts a piece), provided no line ends in
/// whitespace (a line break after whitespace may join it in one piece, which then depends on what
/// follows); rendered lines end in `;`. Otherwise the text is counted whole.
fn count_lines(text: &str, encoding: Encoding, memo: &mut LineMemo) -> usize {
    let lines: Vec<&str> = text.split('\n').collect();
    let splittable = lines.iter().enumerate().all(|(i, line)| {
        (i == 0 || line.starts_with(|c: char| c.is_ascii_alphabetic()))
            && (i + 1 == lines.len() || !line.ends_with(char::is_whitespace) && !line.is_empty())
    });
    if !splittable {
        return encoding.count(text);
    }
    let last = lines.len() - 1;
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let key = if i == last {
                (*line).to_owned()
            } else {
                format!("{line}\n")
            };
            if let Some(&n) = memo.get(&key) {
                return n;
            }
            let n = encoding.count(&key);
            memo.insert(key, n);
            n
        })
        .sum()
}

/// What a table block (`text`, `tokens` long) adds to the schema block together with the blank line
/// that follows it, re-counting only its last line; `None` if a line does not start with a letter.
///
/// Every tiktoken encoding splits text into pieces by a regex before BPE, and encodes each piece on
/// its own. None of their patterns lets a piece run from a line break into a letter, so a line that
/// starts with a letter (every rendered line starts with `DEFINE`) starts a piece wherever it
/// stands. The pieces of the last line followed by `\n\n` depend on what comes next only through
/// a one-character lookahead (`\s+(?!\S)`), so it is counted followed by the next table's `DEFINE`,
/// less that word. `tests/scale.rs` checks the sum against counting the whole block in every encoding.
fn with_gap(text: &str, tokens: usize, encoding: Encoding, memo: &mut LineMemo) -> Option<usize> {
    if !text
        .split('\n')
        .all(|line| line.starts_with(|c: char| c.is_ascii_alphabetic()))
    {
        return None;
    }
    let last_line = &text[text.rfind('\n').map_or(0, |i| i + 1)..];
    // `count_lines` has usually counted the last line alone already.
    let alone = match memo.get(last_line) {
        Some(&n) => n,
        None => encoding.count(last_line),
    };
    let followed = encoding.count(&format!("{last_line}\n\nDEFINE"));
    Some(tokens - alone + followed - encoding.count("DEFINE"))
}

/// `f` over `items` in order, on every core when there are enough items to be worth a thread.
fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    const PER_THREAD: usize = 256;
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len().div_ceil(PER_THREAD));
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(|| part.iter().map(&f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
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

/// The table's comment tokens, and of those what its fields' Literal enum types' docs add.
fn comment_tokens(table: &Table, meanings: &[(Type, String)], encoding: Encoding) -> (usize, usize) {
    let cost = |c: &str| encoding.count(&format!(" COMMENT {}", lex::quote_str(c)));
    // Every field and sub-field (an Object's) has its own line and COMMENT.
    let fields: Vec<&crate::ir::Field> = table.field_paths().into_iter().map(|(_, f)| f).collect();
    let all = table
        .comment
        .iter()
        .chain(fields.iter().filter_map(|f| f.comment.as_ref()))
        .map(|c| cost(c))
        .sum();
    let mut enum_docs = 0;
    for field in fields {
        let Some(comment) = &field.comment else {
            continue;
        };
        let stored = stored_type(&field.ty);
        // The field's comment without the meaning its enum type appended, if it has one.
        let own = meanings
            .iter()
            .filter(|(ty, _)| ty == stored)
            .find_map(|(_, m)| crate::surql::meaning::own_part(comment, m));
        if let Some(own) = own {
            enum_docs += cost(comment).saturating_sub(own.map_or(0, cost));
        }
    }
    (all, enum_docs)
}

/// Each documented Literal enum's type and the meaning its fields' comments carry.
pub(crate) fn enum_meanings(schema: &Schema) -> Vec<(Type, String)> {
    schema
        .enums
        .iter()
        .filter_map(|e| Some((e.ty(), crate::surql::meaning::of_literal(e)?)))
        .collect()
}

/// The type a field stores inside `option<...>` and arrays (as the front end finds a field's enum).
pub(crate) fn stored_type(ty: &Type) -> &Type {
    match ty {
        Type::Option(inner) | Type::Array(inner, _) => stored_type(inner),
        other => other,
    }
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
            let optional = matches!(&raw.kind, Kind::Either(m) if m.contains(&Kind::Named("none".into())));
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
