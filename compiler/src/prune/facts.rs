//! The question-independent facts `schema.surql`'s pruning section bakes in: the table graph as one parameter per attribute, the fallback order, the catalog lines, and the template's view of them all.

#[cfg(feature = "codegen")]
use super::{
    cost::{cost, full_block_cost, COSTS},
    fields, given_or_computed, CANDIDATES, DOC_TABLE, NO_MATCH_NOTE, SEEDS,
};
use super::{dedup, TableDoc};
use crate::ir::{Schema, Table, TableKind};
use std::collections::{HashMap, HashSet};

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
            format!("{}: {{ {} }}", crate::surql::quote_string(&name), fields.join(", "))
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
                .map(|(name, attrs)| format!("{}: {}", crate::surql::quote_string(name), attrs[i].1))
                .collect();
            (*key, format!("{{ {} }}", items.join(", ")))
        })
        .collect()
}

/// The pruning program's per-table parameters, `$schema_doc_<key>` (one object keyed by table
/// name each), short because the database reads them on every question. The legend:
/// - `t`: the table's tokens in the schema block; `g`: with its relation ends (a group's tokens);
/// - `m`: the table's tokens in the compact rendering; `h`: the group's, compact;
/// - `p`: its position in prompt order;
/// - `e`: a relation's `in`/`out` tables; `l`: the exposed tables it points to (its record fields,
///   a relation's ends); `n`: every exposed table one step away either way;
/// - `a`: adjacent tables (one step, or across one relation); `b`: the relations to each other end.
///
/// `templates/schema/prune_data.surql.tera` writes the same legend above the parameters.
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
            let b: Vec<String> = by_end.iter().map(|(o, rs)| format!("{}: {}", q(o), list(rs))).collect();
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
    let mut out: Vec<String> = docs.iter().filter(|d| d.always).map(|d| d.name.clone()).collect();
    let exposed: HashSet<&str> = docs.iter().map(|d| d.name.as_str()).collect();
    for h in &schema.settings.value_hints {
        if let Some(t) = h.table().filter(|t| exposed.contains(t)) {
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

/// What `templates/schema/prune_data.surql.tera` and `prune_functions.surql.tera` render (`None` when the schema does not prune).
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
    /// Whether the schema has value hints (`fn::pruned_prompt_for` then has a VALUES section).
    hints: bool,
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
    /// [`schema_stop_words`], a SurrealQL array literal.
    stop_words: String,
    /// One `schema_field` row per field a compact block may add back.
    field_rows: Vec<fields::TemplateField>,
    /// The `(table, field)` pairs whose string values value linking indexes.
    value_fields: Vec<fields::TemplateValue>,
    /// The same, by table: each table's `DEFINE EVENT` keeps its values linked as rows are written.
    value_tables: Vec<fields::TemplateValueTable>,
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
/// `docs`: the schema's [`super::table_docs`] when the caller has them (a build computes them once for
/// this and for [`super::warnings_for`]); `None` computes them here.
pub(crate) fn template_context(schema: &Schema, docs: Option<&[TableDoc]>) -> Option<TemplateContext> {
    use crate::surql::quote_string as q;
    let prune = schema.settings.prune.as_ref()?;
    let list = |names: &[String]| {
        let items: Vec<String> = names.iter().map(|n| q(n)).collect();
        format!("[{}]", items.join(", "))
    };
    let docs = given_or_computed(schema, docs);
    let compact = fields::table_fields(schema);
    let rows = docs
        .iter()
        .zip(&compact)
        .map(|(d, c)| {
            let edges: Vec<String> = d.edges.iter().map(|(e, o)| list(&[e.clone(), o.clone()])).collect();
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
                kept: fields::kept_literal(c),
                rest: list(&c.rest.iter().map(|f| f.name.clone()).collect::<Vec<_>>()),
            }
        })
        .collect();
    let names: Vec<String> = docs.iter().map(|d| d.name.clone()).collect();
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
    let always: Vec<String> = docs.iter().filter(|d| d.always).map(|d| d.name.clone()).collect();
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
        field_matches: fields::FIELD_MATCHES,
        stop_words: list(
            &schema_stop_words(schema)
                .iter()
                .map(|w| (*w).to_owned())
                .collect::<Vec<_>>(),
        ),
        field_rows: fields::template_fields(&compact),
        value_fields: fields::template_values(schema),
        value_tables: fields::template_value_tables(schema),
        seeds: SEEDS,
        candidates: CANDIDATES,
        names: list(&names),
        rows,
        hints: !schema.settings.value_hints.is_empty(),
    })
}

#[cfg(feature = "codegen")]
/// The English function words left out of a question before its words search the tables and
/// fields: the examples' [`super::STOP_WORDS`] less every word the schema's own names use
/// (tables, fields, their `aka` words and the thesaurus' synonyms of them: a table `show` keeps
/// "show" searchable) and the person-hub words the documents hold on purpose ("who", "whom").
pub(crate) fn schema_stop_words(schema: &Schema) -> Vec<&'static str> {
    let mut named: HashSet<String> = HashSet::new();
    let mut add = |text: &str| {
        for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            let word = word.to_lowercase();
            for synonym in super::thesaurus::synonyms(&word) {
                named.extend(synonym.split(|c: char| !c.is_alphanumeric()).map(str::to_lowercase));
            }
            named.insert(word);
        }
    };
    for table in schema.exposed_tables() {
        add(&table.name);
        table.aka.iter().for_each(|a| add(a));
        for field in table.fields.iter().filter(|f| !crate::access::is_hidden(f)) {
            add(&field.name);
            field.aka.iter().for_each(|a| add(a));
        }
    }
    add(super::thesaurus::PERSON_HUB_WORDS);
    super::STOP_WORDS
        .iter()
        .copied()
        .filter(|w| !named.contains(*w))
        .collect()
}
