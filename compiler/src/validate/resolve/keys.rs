//! Object keys written into a SCHEMAFULL table's object fields: a key its field does not declare is refused by the engine.

use super::Resolver;
use crate::ir::{Field, Table, Type};
use crate::validate::scan::OrAll;
use crate::validate::Class;
use surrealdb_sql::{Expr, Idiom, Literal, Part};

impl<'a, 'l> Resolver<'a, 'l> {
    /// An object literal written into `field` (at `path` of a SCHEMAFULL table) with a key the
    /// schema does not declare there: the engine fails the write ("Found field 'data.a', but no
    /// such field exists"), `tests/app_idioms.rs`. A closed object (no FLEXIBLE, not `any`) takes
    /// its declared sub-fields only (`{}` when it declares none); an array of objects whose field
    /// declares no sub-field and is not FLEXIBLE takes none. `element`: the value is added to the
    /// array (`+=`), an element or a list of them.
    pub(super) fn undeclared_keys(&mut self, table: &str, path: &str, field: &Field, value: &Expr, element: bool) {
        if field.clauses.flexible {
            return;
        }
        match (shape(&field.ty), value) {
            (Shape::Object, Expr::Literal(Literal::Object(entries))) if !element => {
                for entry in entries {
                    let key = entry.key.as_str();
                    match field.fields.iter().find(|f| f.name == key) {
                        Some(sub) => self.undeclared_keys(table, &format!("{path}.{key}"), sub, &entry.value, false),
                        None => self.undeclared_key(table, path, key, false),
                    }
                }
            }
            (Shape::Objects, _) if field.fields.is_empty() => {
                let items: Vec<&Expr> = match value {
                    Expr::Literal(Literal::Array(items)) => items.iter().collect(),
                    object @ Expr::Literal(Literal::Object(_)) if element => vec![object],
                    _ => Vec::new(),
                };
                // The first element with a key: the engine fails there.
                let key = items.iter().find_map(|item| match item {
                    Expr::Literal(Literal::Object(entries)) => entries.first().map(|e| e.key.as_str()),
                    _ => None,
                });
                if let Some(key) = key {
                    self.undeclared_key(table, path, key, true);
                }
            }
            _ => {}
        }
    }

    /// `SET data.a = v` into a closed object field that declares no `a`: the engine fails as for
    /// `SET data = { a: v }`.
    pub(super) fn undeclared_path(&mut self, t: &Table, place: &Idiom) {
        let mut names = place.0.iter().map(|p| match p {
            Part::Field(name) => Some(name.as_str()),
            _ => None,
        });
        let (Some(Some(first)), Some(Some(key))) = (names.next(), names.next()) else {
            return;
        };
        let Some(field) = t.field(first) else {
            return;
        };
        if !field.clauses.flexible
            && matches!(shape(&field.ty), Shape::Object)
            && !field.fields.iter().any(|f| f.name == key)
        {
            self.undeclared_key(&t.name, first, key, false);
        }
    }

    fn undeclared_key(&mut self, table: &str, path: &str, key: &str, in_array: bool) {
        let span = self
            .loc
            .ident(key, &["{", ","])
            .or_else(|| self.loc.string(key))
            .or_all(self.loc);
        let (at, declare) = if in_array {
            (
                format!("{path}[0].{key}"),
                format!("declare the elements' fields (`{path}.*.{key}`, an Object element type)"),
            )
        } else {
            (
                format!("{path}.{key}"),
                format!("declare `{path}.{key}` (a field of its Object type)"),
            )
        };
        self.error(
            span,
            Class::UnknownField,
            format!(
                "`{table}` has no field `{at}`: `{table}` is SCHEMAFULL and `{path}` declares no such key{}, so the \
                 engine fails the write (\"Found field '{at}', but no such field exists\")",
                if in_array { " in its elements" } else { "" }
            ),
            format!("{declare}, make `{path}` FLEXIBLE, or leave the key out"),
        );
    }
}

/// What a field's type says of the object keys written into it (through an option).
enum Shape {
    /// `object`, not FLEXIBLE: its declared sub-fields only.
    Object,
    /// `array`, `array<any>`, `array<object>`: elements of no declared sub-fields.
    Objects,
    /// Anything else, `any` and every FLEXIBLE type: not checked.
    Other,
}

fn shape(ty: &Type) -> Shape {
    match ty {
        Type::Option(inner) => shape(inner),
        Type::Object => Shape::Object,
        Type::Array(item, _) if matches!(item.as_ref(), Type::Object | Type::Any) => Shape::Objects,
        Type::Raw(raw) if raw.text.contains("FLEXIBLE") || raw.clauses.contains("FLEXIBLE") => Shape::Other,
        Type::Raw(raw) => kind_shape(&raw.kind),
        _ => Shape::Other,
    }
}

fn kind_shape(kind: &crate::ir::Kind) -> Shape {
    use crate::ir::Kind;
    match kind {
        Kind::Named(n) if n == "object" => Shape::Object,
        Kind::Named(n) if n == "array" => Shape::Objects,
        Kind::Array(item, _) if matches!(item.as_ref(), Kind::Named(n) if n == "object" || n == "any") => {
            Shape::Objects
        }
        Kind::Either(_) => kind.optional_inner().map_or(Shape::Other, kind_shape),
        _ => Shape::Other,
    }
}
