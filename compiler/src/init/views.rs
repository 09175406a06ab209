//! A view with no `DEFINE FIELD`s gets one field per column its SELECT computes, typed by the validator against the file's other tables (`*` copies its table's fields): the engine fills a view's rows from that SELECT, so its columns are exactly what the SELECT names.

use super::model::{MField, Model};
use super::{Note, Notes};
use crate::ir;
use crate::validate::{Options, Ty};

/// `model` with each view without fields given the columns of its SELECT (`*` over one table: that
/// table's fields); a view whose SELECT the validator refuses, or whose columns are not all named
/// (`VALUE`, an expression without an alias), keeps none (`types` notes it).
pub(super) fn with_columns(mut model: Model, notes: &mut Notes) -> Model {
    let schema = schema_of(&model);
    // What `*` copies: each table's fields as the file defines them.
    let sources: Vec<(String, Vec<MField>)> = model
        .tables
        .iter()
        .map(|t| (t.def.name.clone(), t.fields.iter().map(|f| copy_of(f, &t.at)).collect()))
        .collect();
    for table in model.tables.iter_mut() {
        let Some(select) = table.def.view.clone() else {
            continue;
        };
        if !table.fields.is_empty() {
            continue;
        }
        let report = crate::validate::validate_with(&schema, &select, &Options::for_named_queries());
        if report.has_errors() {
            notes.choices.push(Note::new(
                &table.at,
                format!("view {}", table.def.name),
                format!(
                    "its SELECT does not check against the file's tables ({}): its columns are not typed",
                    report.errors().next().map(|d| d.message.clone()).unwrap_or_default()
                ),
            ));
            continue;
        }
        let Some(fields) = columns_of(&report.projections, &sources, &table.at) else {
            continue;
        };
        table.fields = fields;
        let columns = &report.projections;
        let typed: Vec<String> = columns
            .iter()
            .map(|p| match &p.ty {
                Ty::Record(source) if p.name == "*" => format!("every field of {source}"),
                ty => format!("{}: {ty}", p.name),
            })
            .collect();
        notes.choices.push(Note::new(
            &table.at,
            format!("view {}", table.def.name),
            format!(
                "no DEFINE FIELDs: one field per column its SELECT computes, typed by surqlc's validator ({})",
                typed.join(", ")
            ),
        ));
    }
    model
}

/// One field per column: a named column typed by the validator, `*` over one table that table's
/// fields (the engine copies each into the view's row); `None` where a column is neither (an
/// expression's text, a nested path, `VALUE`, `*` over something else).
fn columns_of(
    columns: &[crate::validate::Projection],
    sources: &[(String, Vec<MField>)],
    at: &str,
) -> Option<Vec<MField>> {
    if columns.is_empty() {
        return None;
    }
    let mut fields: Vec<MField> = Vec::new();
    for p in columns {
        if p.name == "*" {
            let Ty::Record(source) = &p.ty else { return None };
            let (_, copied) = sources.iter().find(|(name, _)| name == source)?;
            fields.extend(copied.iter().filter(|f| f.name != "id").map(|f| copy_of(f, at)));
            continue;
        }
        if !is_column_name(&p.name) {
            return None;
        }
        // A column named after `*` replaces the copied field of its name, as in the engine's row.
        fields.retain(|f| f.name != p.name);
        fields.push(MField {
            name: p.name.clone(),
            at: at.to_string(),
            kind: kind_text(&p.ty),
            element: None,
            clauses: ir::FieldClauses::default(),
            comment: None,
            children: Vec::new(),
            implicit: false,
        });
    }
    Some(fields)
}

/// `field` as a view's column: its type, comment and sub-fields, without the clauses that act on
/// writes (the engine writes a view's rows itself; the build refuses them there).
fn copy_of(field: &MField, at: &str) -> MField {
    MField {
        name: field.name.clone(),
        at: at.to_string(),
        kind: field.kind.clone(),
        element: field.element.clone(),
        clauses: ir::FieldClauses {
            flexible: field.clauses.flexible,
            ..Default::default()
        },
        comment: field.comment.clone(),
        children: field.children.iter().map(|c| copy_of(c, at)).collect(),
        implicit: field.implicit,
    }
}

/// A column a struct field can hold: a plain key (`author`, `count`), not a nested path
/// (`address.city`), an expression's text, `*` or `VALUE`.
fn is_column_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "VALUE"
}

/// The SurrealQL type a field holding a `ty` is declared with; `None` (no `TYPE`, any value)
/// where the validator cannot say it.
fn kind_text(ty: &Ty) -> Option<String> {
    match ty {
        Ty::Any | Ty::None | Ty::RecordKey => None,
        Ty::Object(_) | Ty::AnyObject => Some("object".into()),
        Ty::Array(inner) => Some(match kind_text(inner) {
            Some(inner) => format!("array<{inner}>"),
            None => "array".into(),
        }),
        Ty::Option(inner) => kind_text(inner).map(|inner| format!("option<{inner}>")),
        other => Some(other.to_string()),
    }
}

/// The file's tables as the validator reads them: each field typed by its printed kind, every
/// table visible (the engine computes a view as the owner).
fn schema_of(model: &Model) -> ir::Schema {
    let tables: Vec<ir::Table> = model
        .tables
        .iter()
        .map(|t| ir::Table {
            name: t.def.name.clone(),
            rust_name: t.def.name.clone(),
            comment: None,
            kind: t.def.kind.clone().unwrap_or(ir::TableKind::Normal),
            schemaless: t.def.schemaless,
            enforced: t.def.enforced,
            id: None,
            permissions: None,
            fields: t.fields.iter().map(field_of).collect(),
            indexes: Vec::new(),
            aka: Vec::new(),
            owner: None,
            view: None,
            renamed_from: None,
        })
        .collect();
    let mut schema = ir::Schema {
        name: "init".into(),
        rust_name: None,
        tables,
        enums: Vec::new(),
        analyzers: Vec::new(),
        functions: Vec::new(),
        settings: ir::Settings::default(),
    };
    schema.settings.exposed = schema.tables.iter().map(|t| t.name.clone()).collect();
    schema
}

fn field_of(f: &MField) -> ir::Field {
    let ty = f
        .kind
        .as_deref()
        .and_then(|kind| crate::surql::kind::parse(kind).ok())
        .map_or(ir::Type::Any, ir::Type::Raw);
    ir::Field {
        name: f.name.clone(),
        rust_name: f.name.clone(),
        ty,
        comment: None,
        clauses: ir::FieldClauses::default(),
        aka: Vec::new(),
        fields: f.children.iter().map(field_of).collect(),
        renamed_from: None,
    }
}
