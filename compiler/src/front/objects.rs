//! `#[derive(Object)]` structs settled: each field of an Object type gets the struct's fields as its sub-fields, recursively, with a cycle an error.

use super::ast::FieldAst;
use super::ctxt::Ctxt;
use super::names::{last_ident, Names};
use crate::ir;
use std::collections::BTreeMap;

/// Each Object struct's sub-fields by Rust name; `None` where an error was recorded.
pub(super) type Resolved = BTreeMap<String, Option<Vec<ir::Field>>>;

/// Every Object's sub-fields, each resolved once (so an error inside one is reported once, however
/// many fields use it); an Object that contains itself, directly or through others, is an error at
/// the field that closes the loop.
pub(super) fn resolve_all(cxs: &[Ctxt], names: &Names) -> Resolved {
    let mut done = Resolved::new();
    for name in names.objects.keys() {
        let mut visiting = Vec::new();
        object(cxs, names, name, &mut done, &mut visiting);
    }
    done
}

fn object(
    cxs: &[Ctxt],
    names: &Names,
    name: &str,
    done: &mut Resolved,
    visiting: &mut Vec<String>,
) -> Option<Vec<ir::Field>> {
    if let Some(fields) = done.get(name) {
        return fields.clone();
    }
    let (file, ast) = *names.objects.get(name)?;
    let cx = &cxs[file];
    visiting.push(name.to_owned());
    let mut fields = Some(Vec::new());
    for f in &ast.fields {
        // Objects this field's type names are resolved first (their cycles found on the way).
        if let Some(inner) = f.ty.named().map(last_ident) {
            if names.objects.contains_key(&inner) {
                if inner == name {
                    // Inside itself directly: `read` reported it where the item was read.
                    fields = None;
                    continue;
                }
                if let Some(at) = visiting.iter().position(|v| *v == inner) {
                    let mut cycle = visiting[at..].to_vec();
                    cycle.push(inner.clone());
                    cx.error_spanned_by(
                        f.ty.named(),
                        format!("`{inner}` contains itself ({}): a schema defines every sub-field, so a recursive object has no schema; store this field with {}", cycle.join(" → "), super::unsupported::FLEXIBLE_OBJECT),
                    );
                    fields = None;
                    continue;
                }
                object(cxs, names, &inner, done, visiting);
            }
        }
        match (field(cx, names, done, f), &mut fields) {
            (Some(sub), Some(all)) => all.push(sub),
            _ => fields = None,
        }
    }
    visiting.pop();
    done.insert(name.to_owned(), fields.clone());
    fields
}

/// The IR of the field `f` (a table's or an Object's, declared in `cx`'s file): its type settled,
/// what its type's doc comments say in its comment (a Literal enum's values, an Object's doc),
/// an Object's sub-fields; `None` once its error is recorded.
pub(super) fn field(cx: &Ctxt, names: &Names, objects: &Resolved, f: &FieldAst) -> Option<ir::Field> {
    let ty = names.ty(cx, &f.ty)?;
    let named = f.ty.named().map(last_ident);
    let object = named.as_deref().and_then(|n| names.objects.get(n));
    if f.clauses.flexible && object.is_none() && f.ty.named().is_some() {
        cx.error_at(
            f.name_span,
            "`flexible` is for object fields: it lets an object hold keys the schema does not declare",
        );
    }
    let meaning = match (&named, object) {
        (_, Some((_, o))) => crate::surql::meaning::of_enum(o.comment.as_deref(), []),
        (Some(n), None) => names.enums.get(n).and_then(crate::surql::meaning::of_literal),
        (None, None) => None,
    };
    let fields = match &named {
        Some(n) if object.is_some() => objects.get(n).cloned().flatten()?,
        _ => Vec::new(),
    };
    Some(ir::Field {
        name: f.name.clone(),
        rust_name: f.ident.to_string(),
        ty,
        comment: crate::surql::meaning::with_meaning(f.comment.clone(), meaning),
        clauses: f.clauses.clone(),
        aka: f.aka.clone(),
        fields,
        renamed_from: f.renamed_from.clone(),
    })
}

/// Each index path into an object field (`address.country`) names a sub-field of the table's IR,
/// or reaches through a `FLEXIBLE` object (whose undeclared keys the engine keeps, so it indexes
/// them: `content.body` under `object FLEXIBLE`); else an error at the index with the nearest
/// sub-field (the derive cannot see the Object's fields).
pub(super) fn check_index_paths(cx: &Ctxt, ast: &super::ast::TableAst, table: &ir::Table) {
    for index in &ast.indexes {
        for path in index.index.fields.iter().filter(|p| p.contains('.')) {
            if table.field_at(path).is_some() || crate::surql::flexible::reached_through(table, path).is_some() {
                continue;
            }
            // The longest prefix that exists says where the path goes wrong.
            let mut parts: Vec<&str> = path.split('.').collect();
            let missing = parts.pop().unwrap_or_default();
            let parent = parts.join(".");
            let declared = table.field_at(&parent);
            let known: Vec<&str> = declared
                .map(|f| f.fields.iter().map(|s| s.name.as_str()).collect())
                .unwrap_or_default();
            let near = super::suggest::did_you_mean(missing, known.iter());
            // An object that keeps only what it declares refuses a write holding this key.
            let keep = if declared.is_some_and(|f| !f.fields.is_empty() || holds_keys(&f.ty)) {
                format!(
                    "{} To index keys `{parent}` does not declare, make it FLEXIBLE (`flexible`, or `object FLEXIBLE` \
                    in its type): a SCHEMAFULL table refuses a write that holds them otherwise",
                    if near.is_empty() { "." } else { "" }
                )
            } else {
                String::new()
            };
            cx.error_at(
                index.span,
                format!(
                    "`{}.{parent}` has no sub-field `{missing}` to index{near}{keep}",
                    table.name
                ),
            );
        }
    }
}

/// Whether a value of `ty` may be an object (the schema's `object`, or a hand-written type naming one).
fn holds_keys(ty: &ir::Type) -> bool {
    match ty {
        ir::Type::Object => true,
        ir::Type::Option(inner) | ir::Type::Array(inner, _) => holds_keys(inner),
        ir::Type::Raw(raw) => raw.text.to_ascii_lowercase().contains("object"),
        _ => false,
    }
}
