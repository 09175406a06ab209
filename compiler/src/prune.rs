//! What question-specific pruning needs from the IR: one `schema_doc` row per exposed table (its block, token cost, relations, searchable text), computed at build time.
//!
//! `schema.surql` (see the pruning section of `templates/schema.surql.tera`) stores these
//! rows and defines `fn::pruned_tables`, `fn::pruned_schema_context`, `fn::pruned_value_hints`
//! and `fn::nl2surql_prompt_pruned`, which pick tables in the database with BM25 (and vector
//! similarity when the application stored table embeddings), close the set over relations,
//! and fill the budget from the costs precomputed here.
//!
//! Costs: with the `tokens` feature each cost is the exact `o200k_base` count of the table's
//! block followed by the `"\n\n"` that separates it from the next one. BPE pre-tokenisation
//! never joins the `;` that ends a block with the `DEFINE` that starts the next, so the sum
//! of the chosen tables' costs is the count of the pruned block plus at most the one token
//! of the last separator, which the block does not carry: filling to the budget by this sum
//! never exceeds it. Without the `tokens` feature the front end refuses `prune(...)` (an error at
//! the attribute naming the feature), so a build script and the CLI write the same bytes.

use crate::ir::{Schema, Table, TableKind};
use crate::surql::info as render;
use std::collections::{HashMap, HashSet};

/// The table that holds one row per exposed table.
pub const DOC_TABLE: &str = "schema_doc";

/// How many of the best-ranked tables pruning connects through the tables that join them.
pub const SEEDS: usize = 6;

/// How many of the best-ranked tables are candidates: a budget fills long before, and each costs the database time.
pub const CANDIDATES: usize = 60;

/// The line the pruned prompt puts above its block when no table shares a word with the question.
pub const NO_MATCH_NOTE: &str = "-- No table's name or description shares a word with the question: these are the most connected tables, and others exist.\n";

/// The separator between two tables in the schema block.
pub const SEPARATOR: &str = crate::prune_fields::SEPARATOR;

/// How the stored token costs were counted, as `schema.surql`'s pruning section says.
pub const COSTS: &str = "exact o200k_base token counts";

/// Tokens in `text`: the exact `o200k_base` count (see [`crate::prune_fields::cost`]).
pub fn cost(text: &str) -> usize {
    crate::prune_fields::cost(text)
}

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
    /// The cost of its compact block (field-level pruning, [`crate::prune_fields`]) followed by [`SEPARATOR`].
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
    /// The built-in business thesaurus's words for the table's name (`thesaurus.rs`).
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
                        edges_of
                            .entry(f)
                            .or_default()
                            .push((t.name.clone(), o.clone()));
                    }
                    if o != f && is_exposed(f) {
                        edges_of
                            .entry(o)
                            .or_default()
                            .push((t.name.clone(), f.clone()));
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
    let compact = crate::prune_fields::table_fields(schema);
    exposed
        .iter()
        .enumerate()
        .map(|(position, table)| {
            let block = render::table_block_as(&access, table, rendering);
            let ends = match &table.kind {
                // A shown relation brings every table at its ends.
                TableKind::Relation { from, to } => dedup(
                    from.iter()
                        .chain(to)
                        .filter(|t| is_exposed(t))
                        .cloned()
                        .collect(),
                ),
                TableKind::Normal => Vec::new(),
            };
            let mut links = ends.clone();
            links.extend(
                table
                    .fields
                    .iter()
                    .flat_map(|f| f.ty.linked_tables().iter().cloned()),
            );
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

/// The cost of the whole schema block, as this build counts it.
pub fn full_block_cost(schema: &Schema) -> usize {
    cost(&render::schema_block(schema))
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
            for s in crate::thesaurus::synonyms(w) {
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
        lines.push(crate::thesaurus::PERSON_HUB_WORDS.to_owned());
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
        .any(|w| crate::thesaurus::is_person_word(&w.to_lowercase()));
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
        "a", "an", "and", "are", "as", "at", "by", "did", "do", "does", "each", "for", "from",
        "has", "have", "how", "in", "is", "it", "its", "many", "much", "of", "on", "or", "our",
        "the", "their", "this", "to", "was", "we", "were", "what", "when", "where", "which", "who",
        "with",
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

/// The question-independent facts `fn::pruned_tables` reads for every table, as one SurrealQL
/// object literal baked into the function (no read of `schema_doc` per call): `t` its cost,
/// `g` the cost of its group (itself and a relation's ends), `m` and `h` the same for its
/// compact block (field-level pruning), `p` its position, `e` its ends,
/// `l` its links, `n` its neighbours, `a` the tables adjacent to it (neighbours and the far ends
/// of its relations), and `b` its relations by the table at their other end.
pub fn graph_literal(docs: &[TableDoc]) -> String {
    let entries: Vec<String> = graph_attributes(docs)
        .into_iter()
        .map(|(name, attrs)| {
            let fields: Vec<String> = attrs.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            format!(
                "{}: {{ {} }}",
                crate::surql::quote_string(&name),
                fields.join(", ")
            )
        })
        .collect();
    format!("{{ {} }}", entries.join(", "))
}

/// The same facts as [`graph_literal`], one object literal per attribute (`t`, `g`, `m`, `h`, `p`,
/// `e`, `l`, `n`, `a`, `b`), each mapping every table to its value: `schema.surql` defines one
/// parameter per attribute, because reading a parameter copies it, and a call reads small ones
/// many times.
pub fn graph_parts(docs: &[TableDoc]) -> Vec<(&'static str, String)> {
    let tables = graph_attributes(docs);
    GRAPH_KEYS
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let items: Vec<String> = tables
                .iter()
                .map(|(name, attrs)| {
                    format!("{}: {}", crate::surql::quote_string(name), attrs[i].1)
                })
                .collect();
            (*key, format!("{{ {} }}", items.join(", ")))
        })
        .collect()
}

const GRAPH_KEYS: [&str; 10] = ["t", "g", "m", "h", "p", "e", "l", "n", "a", "b"];

/// Each table's name and its attributes as SurrealQL literals, in [`GRAPH_KEYS`] order.
fn graph_attributes(docs: &[TableDoc]) -> Vec<(String, Vec<(&'static str, String)>)> {
    use crate::surql::quote_string as q;
    let index: HashMap<&str, &TableDoc> = docs.iter().map(|d| (d.name.as_str(), d)).collect();
    let list = |names: &[String]| {
        let items: Vec<String> = names.iter().map(|n| q(n)).collect();
        format!("[{}]", items.join(", "))
    };
    docs.iter()
        .map(|d| {
            let ends = || {
                d.ends
                    .iter()
                    .filter(|e| **e != d.name)
                    .filter_map(|e| index.get(e.as_str()))
            };
            let group: usize = d.tokens + ends().map(|e| e.tokens).sum::<usize>();
            let compact_group: usize = d.compact + ends().map(|e| e.compact).sum::<usize>();
            // Relations by their other end, in the order the rows list them. A relation from the
            // table to itself joins nothing new: it comes when ranked, never as a bridge.
            let mut by_end: Vec<(String, Vec<String>)> = Vec::new();
            for (relation, other) in d.edges.iter().filter(|(_, o)| *o != d.name) {
                match by_end.iter_mut().find(|(o, _)| o == other) {
                    Some((_, rs)) => rs.push(relation.clone()),
                    None => by_end.push((other.clone(), vec![relation.clone()])),
                }
            }
            let b: Vec<String> = by_end
                .iter()
                .map(|(o, rs)| format!("{}: {}", q(o), list(rs)))
                .collect();
            // Adjacent: one step away, or across one relation (a customer's orders via `placed`).
            let mut adjacent = d.neighbors.clone();
            adjacent.extend(d.edges.iter().map(|(_, o)| o.clone()));
            let adjacent = dedup(adjacent.into_iter().filter(|t| *t != d.name).collect());
            let attrs = vec![
                ("t", d.tokens.to_string()),
                ("g", group.to_string()),
                ("m", d.compact.to_string()),
                ("h", compact_group.to_string()),
                ("p", d.position.to_string()),
                ("e", list(&d.ends)),
                ("l", list(&d.links)),
                ("n", list(&d.neighbors)),
                ("a", list(&adjacent)),
                ("b", format!("{{ {} }}", b.join(", "))),
            ];
            debug_assert!(attrs.iter().map(|(k, _)| *k).eq(GRAPH_KEYS));
            (d.name.clone(), attrs)
        })
        .collect()
}

/// The candidates when BM25 finds no table sharing a word with the question: the `always`
/// tables, the tables value hints describe (what the schema's author thought worth showing),
/// then every table by how many tables it connects (the hubs a question most likely needs).
pub fn fallback_order(schema: &Schema, docs: &[TableDoc]) -> Vec<String> {
    let mut out: Vec<String> = docs
        .iter()
        .filter(|d| d.always)
        .map(|d| d.name.clone())
        .collect();
    let exposed: HashSet<&str> = docs.iter().map(|d| d.name.as_str()).collect();
    for h in &schema.settings.value_hints {
        let table = match h {
            crate::ir::ValueHint::Distinct { field, .. }
            | crate::ir::ValueHint::Range { field } => Some(field.table.as_str()),
            crate::ir::ValueHint::Ids { table, .. } => Some(table.as_str()),
            crate::ir::ValueHint::Note(_) => None,
        };
        if let Some(t) = table.filter(|t| exposed.contains(t)) {
            out.push(t.to_owned());
        }
    }
    let mut by_degree: Vec<&TableDoc> = docs.iter().collect();
    by_degree.sort_by_key(|d| (std::cmp::Reverse(d.neighbors.len()), d.position));
    out.extend(by_degree.into_iter().map(|d| d.name.clone()));
    dedup(out)
}

/// One short line for `fn::table_catalog()`: the table's name (a relation's with its ends) and
/// the first sentence of its comment.
pub fn catalog_line(table: &Table) -> String {
    let name = match &table.kind {
        TableKind::Relation { from, to } => {
            let (from, to) = (crate::ir::union_text(from), crate::ir::union_text(to));
            format!("{} ({from}->{}->{to})", table.name, table.name)
        }
        TableKind::Normal => table.name.clone(),
    };
    match table.comment.as_deref() {
        Some(c) => {
            let first = c.split(". ").next().unwrap_or(c).trim_end_matches('.');
            format!("{name}: {}", first.replace(['\n', '\r'], " "))
        }
        None => name,
    }
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

/// The warnings `prune(...)` earns at build time: table groups that cannot fit the budget.
pub fn warnings(schema: &Schema) -> Vec<String> {
    let Some(prune) = &schema.settings.prune else {
        return Vec::new();
    };
    if full_block_cost(schema) <= prune.budget as usize {
        return Vec::new();
    }
    let docs = table_docs(schema);
    let budget = prune.budget;
    let mut out: Vec<String> = docs
        .iter()
        .filter(|d| d.tokens > budget as usize)
        .map(|d| format!(
            "prune(budget = {budget}): the table `{}` alone costs {} tokens, more than the budget, so no pruned prompt can show it; raise the budget or shorten its comments",
            d.name, d.tokens
        ))
        .collect();
    out.extend(
        oversized_groups(&docs, budget)
            .into_iter()
            .filter(|(name, _)| docs.iter().any(|d| d.name == *name && d.tokens <= budget as usize))
            .map(|(name, cost)| format!(
                "prune(budget = {budget}): the relation `{name}` with its end tables costs {cost} tokens, more than the budget, so a question about it shows `{name}` without them; raise the budget or shorten the tables' comments"
            )),
    );
    out
}

/// What the pruning section of `templates/schema.surql.tera` renders (`None` when the schema does not prune).
#[cfg(feature = "codegen")]
#[derive(serde::Serialize)]
pub(crate) struct TemplateContext {
    table: &'static str,
    budget: u32,
    full_tokens: usize,
    costs: &'static str,
    vector: bool,
    dimension: u32,
    knn_k: usize,
    knn_ef: usize,
    /// The cheapest table: once less than this is left, nothing more fits.
    min_tokens: usize,
    /// How many of the best-ranked tables the join step connects.
    seeds: usize,
    /// How many of the ranked tables are candidates at all.
    candidates: usize,
    /// A SurrealQL array literal of the exposed tables' names.
    names: String,
    rows: Vec<TemplateRow>,
    hints: Vec<TemplateHint>,
    /// The question-independent part of the choice, one SurrealQL object literal per attribute (see [`graph_parts`]).
    graph_parts: Vec<(&'static str, String)>,
    /// The `always` tables, in prompt order (a SurrealQL array literal).
    always: String,
    /// The candidates when no table shares a word with the question ([`fallback_order`]).
    fallback: String,
    /// `fn::table_catalog()`'s lines and the cost of each prefix of them.
    catalog: String,
    catalog_costs: String,
    /// Field-level pruning in the prompt functions (`prune(fields = ...)`).
    fields: bool,
    /// The cheapest compact block.
    min_compact: usize,
    /// [`NO_MATCH_NOTE`], as a SurrealQL string.
    no_match_note: String,
    /// How many of the fields BM25 matches best a pruned block shows besides its links.
    field_matches: usize,
    /// One `schema_field` row per field a compact block may add back.
    field_rows: Vec<crate::prune_fields::TemplateField>,
    /// The `(table, field)` pairs whose string values value linking indexes.
    value_fields: Vec<crate::prune_fields::TemplateValue>,
}

#[cfg(feature = "codegen")]
#[derive(serde::Serialize)]
struct TemplateRow {
    key: String,
    name: String,
    position: usize,
    block: String,
    tokens: usize,
    ends: String,
    links: String,
    edges: String,
    neighbors: String,
    doc: String,
    always: bool,
    /// Field-level pruning: the compact block, its `DEFINE TABLE` line, the lines it keeps
    /// (`[[order, line], ...]`) and the names of the others (SurrealQL literals).
    compact: String,
    head: String,
    kept: String,
    rest: String,
}

#[cfg(feature = "codegen")]
#[derive(serde::Serialize)]
struct TemplateHint {
    /// The table the hint is about; `None` for a note, which every pruned prompt keeps.
    table: Option<String>,
    /// The SurrealQL that prints the hint's line (`surql::hints::expression`).
    expression: String,
}

#[cfg(feature = "codegen")]
pub(crate) fn template_context(schema: &Schema) -> Option<TemplateContext> {
    use crate::surql::quote_string as q;
    let prune = schema.settings.prune.as_ref()?;
    let list = |names: &[String]| {
        let items: Vec<String> = names.iter().map(|n| q(n)).collect();
        format!("[{}]", items.join(", "))
    };
    let docs = table_docs(schema);
    let compact = crate::prune_fields::table_fields(schema);
    let rows = docs
        .iter()
        .zip(&compact)
        .map(|(d, c)| {
            let edges: Vec<String> = d
                .edges
                .iter()
                .map(|(e, o)| list(&[e.clone(), o.clone()]))
                .collect();
            TemplateRow {
                key: crate::surql::lex::escape_kw_free_ident(&d.name),
                name: d.name.clone(),
                position: d.position,
                block: d.block.clone(),
                tokens: d.tokens,
                ends: list(&d.ends),
                links: list(&d.links),
                edges: format!("[{}]", edges.join(", ")),
                neighbors: list(&d.neighbors),
                doc: d.doc.clone(),
                always: d.always,
                compact: c.compact.clone(),
                head: c.head.clone(),
                kept: crate::prune_fields::kept_literal(c),
                rest: list(&c.rest.iter().map(|f| f.name.clone()).collect::<Vec<_>>()),
            }
        })
        .collect();
    let names: Vec<String> = docs.iter().map(|d| d.name.clone()).collect();
    let hints = schema
        .settings
        .value_hints
        .iter()
        .map(|h| TemplateHint {
            // A note belongs to no table: every pruned prompt keeps it.
            table: match h {
                crate::ir::ValueHint::Distinct { field, .. }
                | crate::ir::ValueHint::Range { field } => Some(field.table.clone()),
                crate::ir::ValueHint::Ids { table, .. } => Some(table.clone()),
                crate::ir::ValueHint::Note(_) => None,
            },
            expression: crate::surql::hints::expression(h),
        })
        .collect();
    let k = docs.len().max(1);
    let catalog: Vec<String> = schema.exposed_tables().map(catalog_line).collect();
    let mut total = 0;
    let catalog_costs: Vec<String> = catalog
        .iter()
        .map(|l| {
            total += cost(&format!("{l}\n"));
            total.to_string()
        })
        .collect();
    let always: Vec<String> = docs
        .iter()
        .filter(|d| d.always)
        .map(|d| d.name.clone())
        .collect();
    Some(TemplateContext {
        graph_parts: graph_parts(&docs),
        always: list(&always),
        fallback: list(&fallback_order(schema, &docs)),
        catalog: list(&catalog),
        catalog_costs: format!("[{}]", catalog_costs.join(", ")),
        table: DOC_TABLE,
        budget: prune.budget,
        full_tokens: full_block_cost(schema),
        costs: COSTS,
        vector: prune.mix == crate::ir::RetrievalMix::FullTextVector,
        dimension: schema.settings.examples.dimension,
        knn_k: k,
        knn_ef: k.max(40),
        min_tokens: docs.iter().map(|d| d.tokens).min().unwrap_or(0),
        fields: prune.fields,
        min_compact: docs.iter().map(|d| d.compact).min().unwrap_or(0),
        no_match_note: q(NO_MATCH_NOTE),
        field_matches: crate::prune_fields::FIELD_MATCHES,
        field_rows: crate::prune_fields::template_fields(&compact),
        value_fields: crate::prune_fields::template_values(schema),
        seeds: SEEDS,
        candidates: CANDIDATES,
        names: list(&names),
        rows,
        hints,
    })
}

#[cfg(test)]
mod tests;
