//! Question-specific pruning's build-time half: one `schema_doc` row per exposed table (its block, token cost, relations, searchable text).
//!
//! `schema.surql` (see `templates/schema/prune_data.surql.tera` and `prune_functions.surql.tera`)
//! stores these rows and the question-independent facts ([`facts`]), and defines `fn::pruned_tables`,
//! `fn::pruned_schema_context`, `fn::pruned_value_hints` and `fn::nl2surql_prompt_pruned`, which
//! pick tables in the database with BM25 (and vector similarity when the application stored
//! table embeddings), close the set over relations, and fill the budget from the costs
//! precomputed here (`cost`). [`fields`] is the same for field-level pruning and value
//! linking; `thesaurus` the built-in business words added to each table's document. The
//! run-time half is `runtime::Pruner`; `surqlc prune` and the measurements are in `audit`.

pub mod cost;
pub mod facts;
pub mod fields;
mod thesaurus;
#[cfg(feature = "codegen")]
pub(crate) use thesaurus::STOP_WORDS;

use crate::ir::{Schema, Table, TableKind};
use crate::surql::info as render;
use cost::{cost, full_block_cost, SEPARATOR};
use std::collections::{HashMap, HashSet};

/// The table that holds one row per exposed table.
pub const DOC_TABLE: &str = "schema_doc";

/// How many of the best-ranked tables pruning connects through the tables that join them.
pub const SEEDS: usize = 6;

/// How many of the best-ranked tables are candidates: a budget fills long before, and each costs the database time.
pub const CANDIDATES: usize = 60;

/// The line the pruned prompt puts above its block when no table shares a word with the question.
pub const NO_MATCH_NOTE: &str = "-- No table's name or description shares a word with the question: these are \
    the most connected tables, and others exist.\n";

/// One exposed table as pruning sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDoc {
    pub name: String,
    /// Its index in the prompt order (`expose(...)`).
    pub position: usize,
    /// Its lines as `fn::schema_context()` renders them ([`crate::surql::info::table_block`]).
    pub block: String,
    /// The cost of `block` followed by [`SEPARATOR`].
    pub tokens: usize,
    /// The cost of its compact block (field-level pruning, [`fields`]) followed by [`SEPARATOR`].
    pub compact: usize,
    /// For a relation, its `in` and `out` tables (once each); empty otherwise.
    pub ends: Vec<String>,
    /// Exposed tables it points to: its `record<t>` fields and, for a relation, its ends.
    pub links: Vec<String>,
    /// Exposed relations with this table at one end: `(relation, the other end)`.
    pub edges: Vec<(String, String)>,
    /// Every exposed table one step away, either way: `links`, the relations in `edges`, and the
    /// tables whose record links point here.
    pub neighbors: Vec<String>,
    /// The words full-text search sees: table and field names (split at `_`) and their comments.
    pub doc: String,
    /// Whether `prune(always(...))` names it.
    pub always: bool,
}

/// What goes into each table's full-text document beyond its names and comments (each one a
/// mechanism measured on its own in `docs/pruning.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocOptions {
    /// The schema's own synonyms: `#[surqlc(aka(...))]` on tables and fields.
    pub aka: bool,
    /// The built-in business thesaurus's words for the table's name (`thesaurus`).
    pub thesaurus: bool,
    /// "who", "whom", "person", "people" on tables that hold people.
    pub hubs: bool,
}

impl DocOptions {
    /// What `schema.surql` stores.
    pub const BUILT: DocOptions = DocOptions {
        aka: true,
        thesaurus: true,
        hubs: true,
    };
    /// Names and comments only.
    pub const PLAIN: DocOptions = DocOptions {
        aka: false,
        thesaurus: false,
        hubs: false,
    };
}

/// The `schema_doc` rows of `schema`'s exposed tables, in prompt order.
pub fn table_docs(schema: &Schema) -> Vec<TableDoc> {
    table_docs_with(schema, DocOptions::BUILT)
}

/// [`table_docs`] with the full-text documents built with `options`.
pub fn table_docs_with(schema: &Schema, options: DocOptions) -> Vec<TableDoc> {
    let exposed: Vec<&Table> = schema.exposed_tables().collect();
    let exposed_names: HashSet<&str> = exposed.iter().map(|t| t.name.as_str()).collect();
    let is_exposed = |name: &str| exposed_names.contains(name);
    // Each table's relations and the tables linking to it, in prompt order, found in one pass
    // each rather than by a search of every table per table (pruned schemas run to thousands).
    let mut edges_of: HashMap<&str, Vec<(String, String)>> = HashMap::new();
    let mut linked_from: HashMap<&str, Vec<String>> = HashMap::new();
    for t in &exposed {
        // An end of several tables (`IN customer | supplier`) links each of them.
        if let TableKind::Relation { from, to } = &t.kind {
            for f in from {
                for o in to {
                    if is_exposed(o) {
                        edges_of.entry(f).or_default().push((t.name.clone(), o.clone()));
                    }
                    if o != f && is_exposed(f) {
                        edges_of.entry(o).or_default().push((t.name.clone(), f.clone()));
                    }
                }
            }
        }
        let targets: HashSet<&str> = t
            .fields
            .iter()
            .flat_map(|f| f.ty.linked_tables())
            .map(String::as_str)
            .collect();
        for target in targets {
            linked_from.entry(target).or_default().push(t.name.clone());
        }
    }
    let always = schema
        .settings
        .prune
        .as_ref()
        .map(|p| p.always.clone())
        .unwrap_or_default();
    let access = crate::access::Access::of(schema);
    let rendering = render::Rendering::of(schema);
    let compact = fields::table_fields(schema);
    exposed
        .iter()
        .enumerate()
        .map(|(position, table)| {
            let block = render::table_block_as(&access, table, rendering);
            let ends = match &table.kind {
                // A shown relation brings every table at its ends.
                TableKind::Relation { from, to } => {
                    dedup(from.iter().chain(to).filter(|t| is_exposed(t)).cloned().collect())
                }
                TableKind::Normal => Vec::new(),
            };
            let mut links = ends.clone();
            links.extend(table.fields.iter().flat_map(|f| f.ty.linked_tables().iter().cloned()));
            let links = dedup(
                links
                    .into_iter()
                    .filter(|t| is_exposed(t) && *t != table.name)
                    .collect(),
            );
            let edges = edges_of.remove(table.name.as_str()).unwrap_or_default();
            let mut neighbors = links.clone();
            neighbors.extend(edges.iter().map(|(e, _)| e.clone()));
            neighbors.extend(linked_from.remove(table.name.as_str()).unwrap_or_default());
            let neighbors = dedup(neighbors.into_iter().filter(|t| *t != table.name).collect());
            TableDoc {
                name: table.name.clone(),
                position,
                tokens: cost(&format!("{block}{SEPARATOR}")),
                compact: compact[position].tokens,
                block,
                ends,
                links,
                edges,
                neighbors,
                doc: doc_text(table, options),
                always: always.contains(&table.name),
            }
        })
        .collect()
}

fn dedup(mut names: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    names.retain(|n| seen.insert(n.clone()));
    names
}

/// Table and field names as words, with their comments, one line each; then what `options`
/// adds. Hidden fields are left out: what the prompt does not show must not steer it.
fn doc_text(table: &Table, options: DocOptions) -> String {
    let words = |name: &str| name.replace('_', " ");
    // The name twice: it says more about what the table holds than any one comment word.
    let mut lines = vec![words(&table.name), words(&table.name)];
    if options.aka && !table.aka.is_empty() {
        // Twice, as the name: the schema says these words mean this table.
        let aka = table.aka.join(" ");
        lines.push(aka.clone());
        lines.push(aka);
    }
    if let TableKind::Relation { from, to } = &table.kind {
        let ends: Vec<String> = from.iter().chain(to).map(|t| words(t)).collect();
        lines.push(ends.join(" "));
    }
    lines.extend(table.comment.clone());
    for field in table.fields.iter().filter(|f| !crate::access::is_hidden(f)) {
        let mut line = match &field.comment {
            Some(c) => format!("{}: {c}", words(&field.name)),
            None => words(&field.name),
        };
        if options.aka && !field.aka.is_empty() {
            line.push_str(&format!(" ({})", field.aka.join(", ")));
        }
        lines.push(line);
    }
    let name_words: Vec<String> = std::iter::once(table.name.as_str())
        .chain(table.name.split('_'))
        .chain(if options.aka {
            table.aka.iter().map(String::as_str).collect()
        } else {
            Vec::new()
        })
        .map(str::to_lowercase)
        .collect();
    if options.thesaurus {
        let mut extra: Vec<&str> = Vec::new();
        for w in &name_words {
            for s in thesaurus::synonyms(w) {
                if !extra.contains(&s) && !name_words.iter().any(|n| n == s) && !s.contains('_') {
                    extra.push(s);
                }
            }
        }
        if !extra.is_empty() {
            lines.push(extra.join(" "));
        }
    }
    if options.hubs && holds_people(table) {
        lines.push(thesaurus::PERSON_HUB_WORDS.to_owned());
    }
    lines.join("\n")
}

/// Whether a table holds people: a word of its name (or `aka`) names people, or the first
/// sentence of its comment says "person" or "people" (a relation never does: it links them).
pub fn holds_people(table: &Table) -> bool {
    if matches!(table.kind, TableKind::Relation { .. }) {
        return false;
    }
    let named = table
        .name
        .rsplit('_')
        .next()
        .into_iter()
        .chain(table.aka.iter().map(String::as_str))
        .any(|w| thesaurus::is_person_word(&w.to_lowercase()));
    let described = table.comment.as_deref().is_some_and(|c| {
        let first = c.split(". ").next().unwrap_or(c).to_lowercase();
        first
            .split(|ch: char| !ch.is_alphanumeric())
            .any(|w| w == "person" || w == "people")
    });
    named || described
}

/// A deterministic bag-of-words embedding: each word (lower-cased, a trailing plural `s`
/// dropped, common English words skipped) adds ±1 at a hashed position, then the vector is
/// scaled to unit length. It needs no model, so the benchmark and tests can exercise the
/// vector path; an application stores real embeddings instead.
pub fn hashed_embedding(text: &str, dimension: usize) -> Vec<f32> {
    const STOP: &[&str] = &[
        "a", "an", "and", "are", "as", "at", "by", "did", "do", "does", "each", "for", "from", "has", "have", "how",
        "in", "is", "it", "its", "many", "much", "of", "on", "or", "our", "the", "their", "this", "to", "was", "we",
        "were", "what", "when", "where", "which", "who", "with",
    ];
    let mut v = vec![0f32; dimension.max(1)];
    for word in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
    {
        if STOP.contains(&word.as_str()) {
            continue;
        }
        let word = match word.strip_suffix('s') {
            Some(stem) if stem.len() > 2 && !stem.ends_with('s') => stem.to_owned(),
            _ => word,
        };
        // FNV-1a: stable across platforms and releases.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in word.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        let slot = (h % v.len() as u64) as usize;
        v[slot] += if (h >> 63) == 0 { 1.0 } else { -1.0 };
    }
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

/// Table groups (a relation with its ends) that cost more than `budget` alone: pruning shows
/// such a relation without its ends, so a question about it gets a partial picture.
pub fn oversized_groups(docs: &[TableDoc], budget: u32) -> Vec<(String, usize)> {
    let index: HashMap<&str, &TableDoc> = docs.iter().map(|d| (d.name.as_str(), d)).collect();
    docs.iter()
        .filter(|d| !d.ends.is_empty())
        .filter_map(|d| {
            let cost = d.tokens
                + d.ends
                    .iter()
                    .filter(|e| **e != d.name)
                    .filter_map(|e| index.get(e.as_str()))
                    .map(|e| e.tokens)
                    .sum::<usize>();
            (cost > budget as usize).then(|| (d.name.clone(), cost))
        })
        .collect()
}

/// `docs` when the caller has the schema's [`table_docs`], else them computed here.
pub(crate) fn given_or_computed<'a>(schema: &Schema, docs: Option<&'a [TableDoc]>) -> std::borrow::Cow<'a, [TableDoc]> {
    docs.map_or_else(|| table_docs(schema).into(), Into::into)
}

/// The warnings `prune(...)` earns at build time: table groups that cannot fit the budget.
pub fn warnings(schema: &Schema) -> Vec<String> {
    warnings_for(schema, None)
}

/// [`warnings`] over the schema's [`table_docs`] when the caller has them (`None` computes them
/// here, and only when the whole block is over the budget).
pub(crate) fn warnings_for(schema: &Schema, docs: Option<&[TableDoc]>) -> Vec<String> {
    let Some(prune) = &schema.settings.prune else {
        return Vec::new();
    };
    if full_block_cost(schema) <= prune.budget as usize {
        return Vec::new();
    }
    let docs = given_or_computed(schema, docs);
    let budget = prune.budget;
    let mut out: Vec<String> = docs
        .iter()
        .filter(|d| d.tokens > budget as usize)
        .map(|d| {
            format!(
                "prune(budget = {budget}): the table `{}` alone costs {} tokens, more than the budget, so no \
                pruned prompt can show it; raise the budget or shorten its comments",
                d.name, d.tokens
            )
        })
        .collect();
    out.extend(
        oversized_groups(&docs, budget)
            .into_iter()
            .filter(|(name, _)| docs.iter().any(|d| d.name == *name && d.tokens <= budget as usize))
            .map(|(name, cost)| {
                format!(
                    "prune(budget = {budget}): the relation `{name}` with its end tables costs {cost} tokens, more \
                    than the budget, so a question about it shows `{name}` without them; raise the budget or \
                    shorten the tables' comments"
                )
            }),
    );
    out
}

#[cfg(test)]
mod tests;
