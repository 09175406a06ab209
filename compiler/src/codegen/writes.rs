//! The write side of a table's generated module as the template reads it: the input struct's fields (which may be left out, which are never written) and whether the table takes `create`/`insert` or, as a relation, `relate`.
//!
//! A field is in the input unless the engine computes it on read (`COMPUTED`); it may be left out
//! (`None`, so the engine's `DEFAULT` or `VALUE` applies) when it has a `DEFAULT` or a `VALUE`
//! or its type is `option<...>`. Each field keeps the row struct's own Rust type, named through
//! `runtime::TableField<N>` (N its place among the table's declared fields), so the module never
//! spells a user type. A view (`AS SELECT`) has no write helpers: the engine writes its rows.

use crate::ir::{Field, Kind, Table, TableKind, Type};
use crate::surql::scan;
use serde::Serialize;

/// One table's input struct and helpers.
#[derive(Serialize)]
pub struct Writes {
    /// A relation: `relate(from, to, input)` instead of `create` and `insert`.
    relation: bool,
    fields: Vec<InputField>,
    /// Every field may be left out: the input derives `Default`.
    all_optional: bool,
}

/// A field of the input struct.
#[derive(Serialize)]
struct InputField {
    /// The field's name in the database.
    key: String,
    /// The row struct's Rust field, raw when a keyword.
    ident: String,
    /// Its place among the table's declared fields (`TableField<N>`).
    index: usize,
    /// `Option<...>` in the input: left out when `None`.
    optional: bool,
    doc: String,
}

/// The table's write side; `None` for a view.
pub fn writes(table: &Table) -> Option<Writes> {
    if table.view.is_some() {
        return None;
    }
    let fields: Vec<InputField> = table
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !computed(f))
        .map(|(index, f)| InputField {
            key: f.name.clone(),
            ident: member(&f.rust_name),
            index,
            optional: optional(f),
            doc: doc(f),
        })
        .collect();
    Some(Writes {
        relation: matches!(table.kind, TableKind::Relation { .. }),
        all_optional: fields.iter().all(|f| f.optional),
        fields,
    })
}

/// The struct's field as Rust writes it: `r#type` for a keyword.
fn member(name: &str) -> String {
    if syn::parse_str::<syn::Ident>(name).is_ok() {
        name.to_owned()
    } else {
        format!("r#{name}")
    }
}

/// Whether the engine computes the field on every read (`COMPUTED`): never written.
fn computed(f: &Field) -> bool {
    f.clauses.computed.is_some() || raw_clause(&f.ty, "computed")
}

/// Whether a write may leave the field out: a `DEFAULT`, a `VALUE`, or an `option<...>` type.
pub fn optional(f: &Field) -> bool {
    f.clauses.default.is_some()
        || f.clauses.value.is_some()
        || raw_clause(&f.ty, "default")
        || raw_clause(&f.ty, "value")
        || is_option(&f.ty)
}

fn is_option(ty: &Type) -> bool {
    match ty {
        Type::Option(_) | Type::Any => true,
        Type::Raw(raw) => kind_takes_none(&raw.kind),
        _ => false,
    }
}

/// Whether a hand-written kind accepts NONE (`option<T>`, `T | none`, `any`).
fn kind_takes_none(kind: &Kind) -> bool {
    match kind {
        Kind::Named(n) => n == "any" || n == "none",
        Kind::Either(kinds) => kinds.iter().any(kind_takes_none),
        _ => false,
    }
}

/// Whether a hand-written type's clauses (`#[surqlc(type = "datetime DEFAULT time::now()")]`) hold `word`.
fn raw_clause(ty: &Type, word: &str) -> bool {
    let Type::Raw(raw) = ty else { return false };
    scan::code(&raw.clauses).iter().any(|t| t.is_word(word))
}

fn doc(f: &Field) -> String {
    let mut doc = format!("`{}`", f.name);
    if let Some(c) = &f.comment {
        doc.push_str(": ");
        doc.push_str(c);
    }
    if optional(f) && !is_option(&f.ty) {
        doc.push_str("\n\n`None` leaves it to the engine: its `DEFAULT` or `VALUE` on a new row.");
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{FieldClauses, FieldDefault};

    fn field(name: &str, ty: Type, clauses: FieldClauses) -> Field {
        Field {
            name: name.into(),
            rust_name: name.into(),
            ty,
            comment: None,
            clauses,
            aka: Vec::new(),
            fields: Vec::new(),
            renamed_from: None,
        }
    }

    #[test]
    fn defaults_values_and_options_may_be_left_out_and_computed_fields_are_never_written() {
        let default = FieldClauses {
            default: Some(FieldDefault {
                expr: "time::now()".into(),
                always: false,
            }),
            ..Default::default()
        };
        let value = FieldClauses {
            value: Some("string::lowercase($value)".into()),
            ..Default::default()
        };
        let computed = FieldClauses {
            computed: Some("count(->x)".into()),
            ..Default::default()
        };
        let raw = |text: &str, kind: Kind, clauses: &str| {
            Type::Raw(crate::ir::RawType {
                text: text.into(),
                kind,
                clauses: clauses.into(),
            })
        };
        let table = Table {
            name: "t".into(),
            rust_name: "T".into(),
            comment: None,
            kind: TableKind::Normal,
            schemaless: false,
            enforced: false,
            id: None,
            permissions: None,
            fields: vec![
                field("name", Type::String, FieldClauses::default()),
                field("at", Type::Datetime, default),
                field("slug", Type::String, value),
                field("note", Type::Option(Box::new(Type::String)), FieldClauses::default()),
                field("n", Type::Int, computed),
                field(
                    "type",
                    raw("string DEFAULT 'x'", Kind::Named("string".into()), "DEFAULT 'x'"),
                    FieldClauses::default(),
                ),
                field(
                    "maybe",
                    raw(
                        "option<int>",
                        Kind::Either(vec![Kind::Named("none".into()), Kind::Named("int".into())]),
                        "",
                    ),
                    FieldClauses::default(),
                ),
            ],
            indexes: Vec::new(),
            aka: Vec::new(),
            owner: None,
            view: None,
            renamed_from: None,
        };
        let w = writes(&table).unwrap();
        let got: Vec<(&str, &str, usize, bool)> = w
            .fields
            .iter()
            .map(|f| (f.key.as_str(), f.ident.as_str(), f.index, f.optional))
            .collect();
        assert_eq!(
            got,
            vec![
                ("name", "name", 0, false),
                ("at", "at", 1, true),
                ("slug", "slug", 2, true),
                ("note", "note", 3, true),
                ("type", "r#type", 5, true),
                ("maybe", "maybe", 6, true),
            ]
        );
        assert!(!w.relation && !w.all_optional);
        let view = Table {
            view: Some("SELECT * FROM t".into()),
            ..table
        };
        assert!(writes(&view).is_none());
    }
}
