//! The `DEFINE TABLE`/`DEFINE FIELD` statements `schema.surql` writes for a table (the engine's respelling is [`super::info`]).
//!
//! This is the one place that spells a table's definition; `schema.surql`, the CLI,
//! `build.rs` and the derives all call it, so they cannot disagree.

use super::lex::{field_ident, path_ident, quote_string};
use crate::ir::{Field, Table, TableKind, Type};
use std::fmt::Write;

/// The type as written after `TYPE`.
pub fn render_type(ty: &Type) -> String {
    match ty {
        Type::Any => "any".into(),
        Type::Bool => "bool".into(),
        Type::Int => "int".into(),
        Type::Float => "float".into(),
        Type::Decimal => "decimal".into(),
        Type::String => "string".into(),
        Type::Datetime => "datetime".into(),
        Type::Duration => "duration".into(),
        Type::Uuid => "uuid".into(),
        Type::Bytes => "bytes".into(),
        Type::Number => "number".into(),
        Type::Object => "object".into(),
        Type::Option(inner) => format!("option<{}>", render_type(inner)),
        Type::Array(inner, None) => format!("array<{}>", render_type(inner)),
        Type::Array(inner, Some(n)) => format!("array<{}, {n}>", render_type(inner)),
        Type::Record(table) => format!("record<{table}>"),
        Type::Records(tables) => format!("record<{}>", crate::ir::union_text(tables)),
        Type::Literal(values) => values.iter().map(|v| quote_string(v)).collect::<Vec<_>>().join(" | "),
        Type::Raw(raw) => raw.text.clone(),
    }
}

fn push_comment(out: &mut String, comment: &Option<String>) {
    if let Some(c) = comment {
        out.push_str(" COMMENT ");
        out.push_str(&quote_string(c));
    }
}

/// `DEFINE TABLE OVERWRITE ...;` with the table's declared `PERMISSIONS`.
pub fn define_table(table: &Table) -> String {
    define_table_with(table, table.permissions.as_ref())
}

/// `DEFINE TABLE OVERWRITE ...;` with `permissions` (the schema's, from [`crate::access::Access`]).
pub fn define_table_with(table: &Table, permissions: Option<&crate::ir::Permissions>) -> String {
    let mut out = format!("DEFINE TABLE OVERWRITE {}", table.name);
    if let TableKind::Relation { from, to } = &table.kind {
        let (from, to) = (crate::ir::union_text(from), crate::ir::union_text(to));
        let _ = write!(out, " TYPE RELATION IN {from} OUT {to}");
    } else if table.view.is_some() {
        out.push_str(" TYPE NORMAL");
    }
    out.push_str(crate::surql::clauses::relation_suffix(table));
    out.push_str(crate::surql::clauses::mode(table));
    push_comment(&mut out, &table.comment);
    // After the COMMENT, where the engine prints it: `TYPE NORMAL SCHEMAFULL COMMENT '...' AS SELECT ...`.
    if let Some(view) = &table.view {
        let _ = write!(out, " AS {view}");
    }
    if let Some(p) = permissions {
        out.push(' ');
        out.push_str(&crate::surql::clauses::permissions(p, true, &|e| e.to_owned()));
    }
    out.push(';');
    out
}

/// `DEFINE FIELD OVERWRITE ... ON table ...;` A field named like a keyword (`select`) is backticked.
pub fn define_field(table: &str, field: &Field) -> String {
    define_field_at(table, &field.name, field)
}

/// [`define_field`] of a field at `path` (`time.created_at`, `images.*.url` for a sub-field).
pub fn define_field_at(table: &str, path: &str, field: &Field) -> String {
    let mut out = format!(
        "DEFINE FIELD OVERWRITE {} ON {} TYPE {}",
        path_ident(path, field_ident),
        table,
        render_type(&field.ty)
    );
    out.push_str(&crate::surql::clauses::field_clauses(&field.clauses, &|e| e.to_owned()));
    push_comment(&mut out, &field.comment);
    if let Some(p) = &field.clauses.permissions {
        out.push(' ');
        out.push_str(&crate::surql::clauses::permissions(p, false, &|e| e.to_owned()));
    }
    out.push(';');
    out
}

/// `DEFINE ANALYZER OVERWRITE ...;`
pub fn define_analyzer(analyzer: &crate::ir::Analyzer) -> String {
    crate::surql::clauses::define_analyzer(analyzer)
}

/// Every statement that defines `table`, one per line, in declaration order: the table, a typed
/// record id, the fields, then the indexes; the table's `PERMISSIONS` as declared.
pub fn table_definition(table: &Table) -> String {
    table_definition_with(table, table.permissions.as_ref())
}

/// [`table_definition`] with the table's `PERMISSIONS` as the schema sets them ([`crate::access::Access`]).
pub fn table_definition_with(table: &Table, permissions: Option<&crate::ir::Permissions>) -> String {
    let mut out = define_table_with(table, permissions);
    if let Some(id) = &table.id {
        let _ = write!(
            out,
            "\nDEFINE FIELD OVERWRITE id ON {} TYPE {};",
            table.name,
            render_type(id)
        );
    }
    for (path, field) in table.field_paths() {
        out.push('\n');
        out.push_str(&define_field_at(&table.name, &path, field));
    }
    for index in &table.indexes {
        out.push('\n');
        out.push_str(&crate::surql::clauses::define_index(&table.name, index));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_nested_types() {
        let ty = Type::Option(Box::new(Type::Array(Box::new(Type::Float), Some(4))));
        assert_eq!(render_type(&ty), "option<array<float, 4>>");
        assert_eq!(
            render_type(&Type::Literal(vec!["a".into(), "b".into()])),
            r#""a" | "b""#
        );
    }
}
