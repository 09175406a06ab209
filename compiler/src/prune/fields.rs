//! Field-level pruning and value linking, computed at build time: each exposed table's compact block (its `DEFINE TABLE` line, its links, the other fields named in one line) with the costs that bound any block showing more fields, the per-field rows the question's words are matched against, and the string fields whose values value linking indexes.
//!
//! A compact block keeps the lines a query cannot do without (`id`, a relation's `in` and
//! `out`, every `record<t>` field) and ends with `-- ... and N more fields: a, b, c` naming the
//! rest. `fn::pruned_select` adds back the fields the question's words match (BM25 over each
//! field's name, comment and `aka`) and the fields value linking found a named thing in. Costs:
//! `tokens` is the exact cost of the compact block with its separator; a field's `tokens` is the
//! exact cost of its lines each followed by `"\n"`. BPE pre-tokenisation splits after each
//! line's `;\n` (the next starts with `DEFINE` or `--`), so showing a field adds at most its
//! cost while the summary only gets shorter: the sum is an upper bound and the budget holds.

use super::cost::{cost, SEPARATOR};
use crate::ir::{Schema, Table, TableKind, Type};
use crate::surql::info as render;

/// How many fields, over all tables, the question's words may bring back (the best BM25 matches).
pub const FIELD_MATCHES: usize = 10;

/// One table as field-level pruning sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableFields {
    pub name: String,
    /// The `DEFINE TABLE` line (with its `;`).
    pub head: String,
    /// The lines every compact block keeps, as `(order, line)`: `id`, `in`, `out` and links.
    pub kept: Vec<(usize, String)>,
    /// The other fields, in block order: what the summary line names.
    pub rest: Vec<FieldRow>,
    /// `head`, `kept` and the summary of every field in `rest`.
    pub compact: String,
    /// The cost of `compact` followed by [`SEPARATOR`].
    pub tokens: usize,
}

/// A field a compact block may add back (with its `name.*` lines, if any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldRow {
    /// The field's name, as the summary line shows it.
    pub name: String,
    /// The position of its first line in the table's block: the compact block keeps block order.
    pub order: usize,
    /// Its lines, joined with `"\n"`.
    pub text: String,
    /// The cost of its lines, each followed by `"\n"`.
    pub tokens: usize,
    /// The words BM25 matches the question against: its name (split at `_`), comment and `aka`.
    pub doc: String,
}

/// The one line naming the fields a compact block leaves out (`None` when it leaves none out).
pub fn summary<S: AsRef<str>>(rest: &[S]) -> Option<String> {
    match rest.len() {
        0 => None,
        n => Some(format!(
            "-- ... and {n} more field{}: {}",
            if n == 1 { "" } else { "s" },
            rest.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The block showing `head`, the `kept` lines and the fields of `rest` named in `shown`, in block
/// order, and the summary of the others: what `fn::pruned_block_fields` assembles in the database.
pub fn render_block(t: &TableFields, shown: &[&str]) -> String {
    let mut lines: Vec<(usize, &str)> = t.kept.iter().map(|(o, l)| (*o, l.as_str())).collect();
    lines.extend(
        t.rest
            .iter()
            .filter(|f| shown.contains(&f.name.as_str()))
            .map(|f| (f.order, f.text.as_str())),
    );
    lines.sort();
    let rest: Vec<&str> = t
        .rest
        .iter()
        .filter(|f| !shown.contains(&f.name.as_str()))
        .map(|f| f.name.as_str())
        .collect();
    assemble(&t.head, lines.into_iter().map(|(_, l)| l), &rest)
}

/// A compact block's text: its `DEFINE TABLE` line, the `lines` it shows (in block order), and the
/// [`summary`] naming the fields in `rest`, one per line.
pub fn assemble<'a>(head: &str, lines: impl IntoIterator<Item = &'a str>, rest: &[&str]) -> String {
    let mut out = head.to_owned();
    for l in lines {
        out.push('\n');
        out.push_str(l);
    }
    if let Some(s) = summary(rest) {
        out.push('\n');
        out.push_str(&s);
    }
    out
}

/// Every exposed table's compact form, in prompt order.
pub fn table_fields(schema: &Schema) -> Vec<TableFields> {
    let access = crate::access::Access::of(schema);
    let rendering = render::Rendering::of(schema);
    schema
        .exposed_tables()
        .map(|t| of_table(t, &access, rendering))
        .collect()
}

fn of_table(table: &Table, access: &crate::access::Access, rendering: render::Rendering) -> TableFields {
    let (head, lines) = render::table_parts_as(access, table, rendering);
    let is_link = |root: &str| {
        matches!(root, "id" | "in" | "out")
            || table
                .fields
                .iter()
                .any(|f| f.name == root && f.ty.linked_table().is_some())
    };
    let mut kept = Vec::new();
    let mut rest: Vec<FieldRow> = Vec::new();
    for (order, (key, line)) in lines.into_iter().enumerate() {
        let root = key.split('.').next().unwrap_or(&key).to_owned();
        if is_link(&root) {
            kept.push((order, line));
            continue;
        }
        let line_cost = cost(&format!("{line}\n"));
        match rest.iter_mut().find(|f| f.name == root) {
            Some(f) => {
                f.text.push('\n');
                f.text.push_str(&line);
                f.tokens += line_cost;
            }
            None => {
                let field = table.fields.iter().find(|f| f.name == root);
                let mut doc = root.replace('_', " ");
                if let Some(c) = field.and_then(|f| f.comment.as_deref()) {
                    doc.push_str(": ");
                    doc.push_str(c);
                }
                if let Some(f) = field.filter(|f| !f.aka.is_empty()) {
                    doc.push_str(&format!(" ({})", f.aka.join(", ")));
                }
                rest.push(FieldRow {
                    name: root,
                    order,
                    text: line,
                    tokens: line_cost,
                    doc,
                });
            }
        }
    }
    let mut t = TableFields {
        name: table.name.clone(),
        head,
        kept,
        rest,
        compact: String::new(),
        tokens: 0,
    };
    t.compact = render_block(&t, &[]);
    t.tokens = cost(&format!("{}{SEPARATOR}", t.compact));
    t
}

/// The fields value linking indexes: each exposed table's top-level fields of type `string` or
/// `option<string>` the agent may read (names, codes, titles, cities: where a question's named
/// things are). Literal enums are left out: value hints list them already.
pub fn value_fields(schema: &Schema) -> Vec<(String, String)> {
    schema
        .exposed_tables()
        .flat_map(|t| {
            t.fields
                .iter()
                .filter(|f| !crate::access::is_hidden(f))
                .filter(|f| match &f.ty {
                    Type::String => true,
                    Type::Option(inner) => matches!(**inner, Type::String),
                    _ => false,
                })
                .filter(|f| !matches!(t.kind, TableKind::Relation { .. }) || (f.name != "in" && f.name != "out"))
                .map(|f| (t.name.clone(), f.name.clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A table's kept lines as a SurrealQL literal: `[[order, line], ...]`.
pub fn kept_literal(t: &TableFields) -> String {
    let items: Vec<String> = t
        .kept
        .iter()
        .map(|(o, l)| format!("[{o}, {}]", crate::surql::quote_string(l)))
        .collect();
    format!("[{}]", items.join(", "))
}

/// One `schema_field` row.
#[cfg(feature = "codegen")]
#[derive(serde::Serialize)]
pub(crate) struct TemplateField {
    table: String,
    name: String,
    order: usize,
    text: String,
    tokens: usize,
    doc: String,
}

#[cfg(feature = "codegen")]
pub(crate) fn template_fields(tables: &[TableFields]) -> Vec<TemplateField> {
    tables
        .iter()
        .flat_map(|t| {
            t.rest.iter().map(|f| TemplateField {
                table: t.name.clone(),
                name: f.name.clone(),
                order: f.order,
                text: f.text.clone(),
                tokens: f.tokens,
                doc: f.doc.clone(),
            })
        })
        .collect()
}

/// A field value linking indexes, with the identifiers `schema.surql` selects it by.
#[cfg(feature = "codegen")]
#[derive(serde::Serialize)]
pub(crate) struct TemplateValue {
    table: String,
    field: String,
    /// The table and field as identifiers in a `SELECT`.
    table_ident: String,
    field_ident: String,
}

/// One exposed table's string fields that value linking indexes: what its `DEFINE EVENT` keeps current.
#[cfg(feature = "codegen")]
#[derive(serde::Serialize)]
pub(crate) struct TemplateValueTable {
    table: String,
    table_ident: String,
    fields: Vec<TemplateValue>,
}

/// [`template_values`] grouped by table, in the same order.
#[cfg(feature = "codegen")]
pub(crate) fn template_value_tables(schema: &Schema) -> Vec<TemplateValueTable> {
    let mut tables: Vec<TemplateValueTable> = Vec::new();
    for value in template_values(schema) {
        match tables.last_mut() {
            Some(last) if last.table == value.table => last.fields.push(value),
            _ => tables.push(TemplateValueTable {
                table: value.table.clone(),
                table_ident: value.table_ident.clone(),
                fields: vec![value],
            }),
        }
    }
    tables
}

#[cfg(feature = "codegen")]
pub(crate) fn template_values(schema: &Schema) -> Vec<TemplateValue> {
    value_fields(schema)
        .into_iter()
        .map(|(table, field)| TemplateValue {
            table_ident: crate::surql::lex::escape_ident(&table),
            field_ident: crate::surql::lex::escape_ident(&field),
            table,
            field,
        })
        .collect()
}
