//! The schema block exactly as `fn::schema_context()` renders it on SurrealDB 3.3.5, computed from the IR alone.
//!
//! The engine does not echo what `schema.surql` wrote: it re-renders each definition
//! from its catalog. So this module mirrors the engine's formatter (surrealdb-sql and
//! surrealdb-common 3.3.5), not [`crate::surql`]:
//!
//! - `DEFINE TABLE name TYPE NORMAL SCHEMAFULL` (a relation: `TYPE RELATION IN a OUT b`);
//! - fields sorted by name in byte order (`INFO FOR TABLE` returns an ordered map),
//!   including a relation's derived `in`/`out` fields and the `name.*` element field the
//!   engine derives for every array of a concrete type;
//! - `option<T>` as `none | T`, `array<any>` as `array`, literal unions deduplicated in
//!   declaration order;
//! - (compact only) no `TYPE NORMAL`, `SCHEMAFULL` or relation `in`/`out` lines;
//! - strings in single quotes unless the text holds one, then in double quotes, with
//!   `\\`, `\n`, `\r`, `\t`, `\0`, `\f`, `\u{8}` and the chosen quote escaped;
//! - names that could be keywords in backticks.
//!
//! A `#[surqlc(type = "...")]` override is printed from its parsed kind; its clauses (`ASSERT ...`)
//! are copied verbatim: the engine may respell an expression, which `surqlc audit --live` reports.

use super::lex::{escape_ident, escape_kw_free_ident, quote_str};
use crate::access::{Access, READ_ONLY_TABLE};
use crate::ir::{Kind, KindLiteral, Schema, Table, TableKind, Type};

/// Which spelling of the schema block to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rendering {
    /// What the engine's `INFO` statements print.
    Engine,
    /// The engine's text without `TYPE NORMAL`, `SCHEMAFULL` (every surqlc table is) and a relation's derived `in`/`out` lines.
    Compact,
}

impl Rendering {
    /// The rendering an audit shows beside this one.
    pub fn other(self) -> Rendering {
        match self {
            Rendering::Engine => Rendering::Compact,
            Rendering::Compact => Rendering::Engine,
        }
    }

    /// The rendering `fn::schema_context()` of this schema produces.
    pub fn of(schema: &Schema) -> Rendering {
        if schema.settings.compact {
            Rendering::Compact
        } else {
            Rendering::Engine
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rendering::Engine => "engine",
            Rendering::Compact => "compact",
        }
    }
}

/// What `RETURN fn::schema_context()` returns for this schema.
pub fn schema_block(schema: &Schema) -> String {
    schema_block_as(schema, Rendering::of(schema))
}

/// One exposed table's lines as `fn::schema_context()` renders them, without the blank separator line.
/// (For many tables, build the [`Access`] once and call [`table_block_as`].)
pub fn table_block(schema: &Schema, table: &Table) -> String {
    table_block_as(&Access::of(schema), table, Rendering::of(schema))
}

/// The schema block in a chosen rendering: exposed tables in prompt order, separated by a blank line.
pub fn schema_block_as(schema: &Schema, rendering: Rendering) -> String {
    let access = Access::of(schema);
    schema
        .exposed_tables()
        .map(|t| table_block_as(&access, t, rendering))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// One table's `DEFINE TABLE` line and its sorted `DEFINE FIELD` lines, each ending in `;`; the
/// fields the agent may not read (and their sub-fields) are left out, as the prompt functions do.
pub fn table_block_as(access: &Access, table: &Table, rendering: Rendering) -> String {
    let (mut out, lines) = table_parts_as(access, table, rendering);
    for (_, line) in lines {
        out.push('\n');
        out.push_str(&line);
    }
    out
}

/// [`table_block_as`] in parts: the `DEFINE TABLE` line, then each shown field's key (`name`,
/// `name.*`, `id`, `in`) with its `DEFINE FIELD` line, every line ending in `;` (field pruning
/// shows some of them).
pub fn table_parts_as(access: &Access, table: &Table, rendering: Rendering) -> (String, Vec<(String, String)>) {
    let mut head = define_table(table, access, rendering);
    head.push(';');
    let hidden = crate::access::hidden_fields(table);
    let lines = field_lines(table, rendering)
        .into_iter()
        .filter(|(key, _)| !hidden.iter().any(|h| crate::access::path_is_under(key, h)))
        .map(|(key, mut line)| {
            line.push(';');
            (key, line)
        })
        .collect();
    (head, lines)
}

/// `DEFINE TABLE ...` without the `PERMISSIONS` clause the prompt strips.
fn define_table(table: &Table, access: &Access, rendering: Rendering) -> String {
    let mut out = format!("DEFINE TABLE {}", escape_ident(&table.name));
    match &table.kind {
        TableKind::Normal if rendering == Rendering::Compact => {}
        TableKind::Normal => out.push_str(" TYPE NORMAL"),
        TableKind::Relation { from, to } => {
            // As the engine's `TableType` prints it: each end's tables joined by ` | `.
            let end = |tables: &[String]| {
                tables
                    .iter()
                    .map(|t| escape_kw_free_ident(t))
                    .collect::<Vec<_>>()
                    .join(" | ")
            };
            out.push_str(" TYPE RELATION IN ");
            out.push_str(&end(from));
            out.push_str(" OUT ");
            out.push_str(&end(to));
        }
    }
    out.push_str(super::clauses::relation_suffix(table));
    // Compact drops SCHEMAFULL (the usual case); SCHEMALESS says something and stays.
    if rendering == Rendering::Engine || table.schemaless {
        out.push_str(super::clauses::mode(table));
    }
    push_comment(&mut out, table.comment.as_deref());
    if let Some(view) = &table.view {
        out.push(' ');
        out.push_str(&engine_view(view));
    }
    let permissions = access.table_permissions(table);
    let text = super::clauses::permissions(&permissions.unwrap_or_default(), true, &engine_expr);
    // Record access grants each exposed table `FOR select FULL`; the prompt leaves that out too.
    // A scoped table's select rule (who owns which row) is the engine's business, not the model's.
    let read_only = access.grants_record_users()
        && (text == READ_ONLY_TABLE || (access.is_owned(table) && text.starts_with("PERMISSIONS FOR select WHERE")));
    if text != "PERMISSIONS FULL" && text != "PERMISSIONS NONE" && !read_only {
        out.push(' ');
        out.push_str(&text);
    }
    out
}

/// A clause's expression as `INFO` prints it: the engine's formatter with `surql-parser`, else as written.
pub fn engine_expr(text: &str) -> String {
    #[cfg(feature = "surql-parser")]
    {
        super::expr::canonical(text)
    }
    #[cfg(not(feature = "surql-parser"))]
    {
        text.to_owned()
    }
}

/// A view's `AS SELECT ...` as `INFO` prints it: the engine's formatter with `surql-parser`, else as written.
pub fn engine_view(select: &str) -> String {
    #[cfg(feature = "surql-parser")]
    if let Some(text) = super::expr::canonical_view(select) {
        return text;
    }
    format!("AS {select}")
}

/// A user function as the prompt lists it: `fn::name($a: kind, ...) -> kind: comment` (the
/// engine's spelling of each type; without `-> ...` when it declares no return type).
pub fn function_line(f: &crate::ir::Function) -> String {
    let args: Vec<String> = f
        .args
        .iter()
        .map(|(name, kind)| format!("${name}: {}", print_kind(kind)))
        .collect();
    let mut out = format!("{}({})", f.name, args.join(", "));
    if let Some(kind) = &f.returns {
        out.push_str(" -> ");
        out.push_str(&print_kind(kind));
    }
    if let Some(comment) = &f.comment {
        out.push_str(": ");
        out.push_str(&comment.replace('\n', " "));
    }
    out
}

/// A field's ` PERMISSIONS ...` unless it is all `FULL` or all `NONE` (the prompt strips those).
fn push_permissions(out: &mut String, p: Option<&crate::ir::Permissions>) {
    let text = super::clauses::permissions(&p.cloned().unwrap_or_default(), false, &engine_expr);
    if text != "PERMISSIONS FULL" && text != "PERMISSIONS NONE" {
        out.push(' ');
        out.push_str(&text);
    }
}

/// The field's clauses after its type, as `INFO` prints them (a bare `REFERENCE` shows its default `ON DELETE IGNORE`).
fn field_clauses(field: &crate::ir::Field) -> String {
    let mut clauses = field.clauses.clone();
    if let Some(r) = &mut clauses.reference {
        r.on_delete.get_or_insert(crate::ir::OnDelete::Ignore);
    }
    super::clauses::field_clauses(&clauses, &engine_expr)
}

/// Every field line of `table` with the key `INFO FOR TABLE` sorts it by.
fn field_lines(table: &Table, rendering: Rendering) -> Vec<(String, String)> {
    let on = escape_ident(&table.name);
    let mut lines = Vec::new();
    let mut push = |key: String, shown: String, kind: &str, comment: Option<&str>, field: Option<&crate::ir::Field>| {
        let mut line = format!("DEFINE FIELD {shown} ON {on} TYPE {kind}");
        if let Some(f) = field {
            line.push_str(&field_clauses(f));
        }
        push_comment(&mut line, comment);
        if let Some(f) = field {
            push_permissions(&mut line, f.clauses.permissions.as_ref());
        }
        lines.push((key, line));
    };
    if let Some(id) = &table.id {
        push("id".into(), "id".into(), &render_kind(id), None, None);
    }
    if let (TableKind::Relation { from, to }, Rendering::Engine) = (&table.kind, rendering) {
        push(
            "in".into(),
            "in".into(),
            &render_kind(&Type::Records(from.clone())),
            None,
            None,
        );
        push(
            "out".into(),
            "out".into(),
            &render_kind(&Type::Records(to.clone())),
            None,
            None,
        );
    }
    for (path, field) in table.field_paths() {
        let kind = kind_of(&field.ty);
        let mut key = path.clone();
        // The engine escapes a keyword only as a path's first name (`images.*.by`).
        let mut shown = match path.split_once('.') {
            Some((first, rest)) => format!(
                "{}.{}",
                escape_ident(first),
                super::lex::path_ident(rest, escape_kw_free_ident)
            ),
            None => escape_ident(&path),
        };
        push(
            key.clone(),
            shown.clone(),
            &render_kind(&field.ty),
            field.comment.as_deref(),
            Some(field),
        );
        // The engine defines `name.*` for the elements of a typed array, and so on down.
        let mut kind = &kind;
        while let Some(element) = array_element(kind) {
            key.push_str(".*");
            shown.push_str(".*");
            push(key.clone(), shown.clone(), &print_kind(element), None, None);
            kind = element;
        }
    }
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    lines
}

fn push_comment(out: &mut String, comment: Option<&str>) {
    if let Some(c) = comment {
        out.push_str(" COMMENT ");
        out.push_str(&quote_str(c));
    }
}

/// One `DEFINE FIELD` line as the engine prints it, without comment or `;` (what an audit compares spellings by).
pub fn field_line(table: &str, field: &str, ty: &Type) -> String {
    format!(
        "DEFINE FIELD {} ON {} TYPE {}",
        escape_ident(field),
        escape_ident(table),
        render_kind(ty)
    )
}

/// A field type as the engine prints it, clauses of a hand-written type included.
pub fn render_kind(ty: &Type) -> String {
    let mut out = print_kind(&kind_of(ty));
    if let Type::Raw(raw) = ty {
        if !raw.clauses.is_empty() {
            out.push(' ');
            out.push_str(&raw.clauses);
        }
    }
    out
}

/// A field type in the engine's own terms: `option<T>` is a union with `none`, unions are flat.
pub fn kind_of(ty: &Type) -> Kind {
    let named = |n: &str| Kind::Named(n.into());
    match ty {
        Type::Any => named("any"),
        Type::Bool => named("bool"),
        Type::Int => named("int"),
        Type::Float => named("float"),
        Type::Decimal => named("decimal"),
        Type::String => named("string"),
        Type::Datetime => named("datetime"),
        Type::Duration => named("duration"),
        Type::Uuid => named("uuid"),
        Type::Bytes => named("bytes"),
        Type::Number => named("number"),
        Type::Object => named("object"),
        Type::Option(inner) => Kind::either(vec![named("none"), kind_of(inner)]),
        Type::Array(inner, n) => Kind::Array(Box::new(kind_of(inner)), *n),
        Type::Record(table) => Kind::Record(vec![table.clone()]),
        Type::Records(tables) => Kind::Record(tables.clone()),
        Type::Literal(values) => Kind::either(
            values
                .iter()
                .map(|v| Kind::Literal(KindLiteral::String(v.clone())))
                .collect(),
        ),
        Type::Raw(raw) => raw.kind.clone(),
    }
}

/// The element kind of an (optional) array whose elements the engine types with a `name.*` field.
fn array_element(kind: &Kind) -> Option<&Kind> {
    match kind {
        Kind::Array(inner, _) if !inner.is_any() => Some(inner),
        Kind::Either(members) => {
            // `none | array<T>`: the engine still types the elements.
            let mut arrays = members.iter().filter(|m| !matches!(m, Kind::Named(p) if p == "none"));
            match (arrays.next(), arrays.next()) {
                (Some(only), None) => array_element(only),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A kind as the engine's `ToSql for Kind` prints it.
pub fn print_kind(kind: &Kind) -> String {
    let names = |names: &[String]| {
        names
            .iter()
            .map(|t| escape_kw_free_ident(t))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    match kind {
        Kind::Named(n) => n.clone(),
        Kind::Parameterized(name, args) if name == "geometry" => {
            format!("geometry<{}>", args.join(" | "))
        }
        Kind::Parameterized(name, args) => format!("{name}<{}>", names(args)),
        Kind::Array(inner, None) if inner.is_any() => "array".into(),
        Kind::Array(inner, None) => format!("array<{}>", print_kind(inner)),
        Kind::Array(inner, Some(n)) => format!("array<{}, {n}>", print_kind(inner)),
        Kind::Set(inner, None) if inner.is_any() => "set".into(),
        Kind::Set(inner, None) => format!("set<{}>", print_kind(inner)),
        Kind::Set(inner, Some(n)) => format!("set<{}, {n}>", print_kind(inner)),
        Kind::Record(tables) => format!("record<{}>", names(tables)),
        Kind::Either(members) => members.iter().map(print_kind).collect::<Vec<_>>().join(" | "),
        Kind::Literal(KindLiteral::String(s)) => quote_str(s),
        Kind::Literal(KindLiteral::Integer(n)) => n.to_string(),
        Kind::Literal(KindLiteral::Bool(b)) => b.to_string(),
        Kind::Literal(KindLiteral::Array(items)) => {
            format!("[{}]", items.iter().map(print_kind).collect::<Vec<_>>().join(", "))
        }
        Kind::Literal(KindLiteral::Object(fields)) => {
            // The engine keeps object types in a BTreeMap: keys print sorted.
            let mut sorted: Vec<&(String, Kind)> = fields.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            let body = sorted
                .iter()
                .map(|(k, v)| format!("{}: {}", escape_kw_free_ident(k), print_kind(v)))
                .collect::<Vec<_>>()
                .join(", ");
            format!("{{ {body} }}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_kinds_like_the_engine() {
        let opt_arr = Type::Option(Box::new(Type::Array(
            Box::new(Type::Option(Box::new(Type::String))),
            Some(2),
        )));
        assert_eq!(render_kind(&opt_arr), "none | array<none | string, 2>");
        assert_eq!(render_kind(&Type::Array(Box::new(Type::Any), None)), "array");
        assert_eq!(
            render_kind(&Type::Option(Box::new(Type::Literal(vec![
                "b".into(),
                "a".into(),
                "b".into()
            ])))),
            "none | 'b' | 'a'"
        );
        let raw = crate::surql::kind::parse("option<{ b: int, a: 'x' | 1 }> ASSERT $value != NONE").expect("a type");
        assert_eq!(
            render_kind(&Type::Raw(raw)),
            "none | { a: 'x' | 1, b: int } ASSERT $value != NONE"
        );
    }
}
