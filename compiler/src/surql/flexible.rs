//! Which fields keep keys the schema does not declare (`FLEXIBLE` objects), and the paths that reach past the declared sub-fields into one (`content.body`): the engine stores, indexes and reads them.

use super::scan;
use crate::ir::{Field, Table, Type};

/// Whether `field` keeps keys it does not declare: an object field marked `flexible` (an Object's
/// sub-fields plus any others), or a hand-written type that says `FLEXIBLE` (`object FLEXIBLE`,
/// `option<object> FLEXIBLE`). Every other object holds only its declared sub-fields in a
/// SCHEMAFULL table: the engine refuses a write with any other key.
pub fn is_flexible(field: &Field) -> bool {
    if field.clauses.flexible {
        return true;
    }
    let Type::Raw(raw) = &field.ty else {
        return false;
    };
    // A clause word, not a field name read inside an expression (`ASSERT $value.flexible`).
    let tokens = scan::code(&raw.clauses);
    tokens
        .iter()
        .enumerate()
        .any(|(i, t)| t.is_word("FLEXIBLE") && (i == 0 || !tokens[i - 1].is_punct(".")))
}

/// The `FLEXIBLE` field whose undeclared keys `path` reads (`content` for `content.body`,
/// `address.geoPoint` for `address.geoPoint.alt`): the deepest declared field on the path, when
/// the path goes on past it and it is flexible. `None` for a declared path, an unknown top-level
/// field, and a path past an object that keeps only its declared sub-fields.
pub fn reached_through<'t>(table: &'t Table, path: &str) -> Option<&'t Field> {
    let mut parts = path.split('.').map(|p| p.trim_end_matches("[*]")).filter(|p| *p != "*");
    let mut field = table.field(parts.next()?)?;
    for part in parts {
        match field.fields.iter().find(|f| f.name == part) {
            Some(sub) => field = sub,
            None => return is_flexible(field).then_some(field),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{FieldClauses, TableKind};

    fn field(name: &str, ty: Type, flexible: bool, fields: Vec<Field>) -> Field {
        Field {
            name: name.into(),
            rust_name: name.into(),
            ty,
            comment: None,
            clauses: FieldClauses {
                flexible,
                ..FieldClauses::default()
            },
            aka: Vec::new(),
            fields,
            renamed_from: None,
        }
    }

    fn raw(text: &str) -> Type {
        Type::Raw(crate::surql::kind::parse(text).expect("a type"))
    }

    fn table(fields: Vec<Field>) -> Table {
        Table {
            name: "note".into(),
            rust_name: "Note".into(),
            comment: None,
            kind: TableKind::Normal,
            schemaless: false,
            enforced: false,
            id: None,
            permissions: None,
            fields,
            indexes: Vec::new(),
            aka: Vec::new(),
            owner: None,
            view: None,
            renamed_from: None,
        }
    }

    #[test]
    fn a_path_past_a_flexible_object_reaches_through_it_and_no_other() {
        let geo = field(
            "geo",
            Type::Object,
            true,
            vec![field("lat", Type::Float, false, vec![])],
        );
        let t = table(vec![
            field("content", raw("object FLEXIBLE"), false, vec![]),
            field(
                "extra",
                raw("option<object> FLEXIBLE ASSERT $value != NONE"),
                false,
                vec![],
            ),
            field("plain", raw("object"), false, vec![]),
            field("guard", raw("object ASSERT $value.flexible = true"), false, vec![]),
            field("address", Type::Object, false, vec![geo]),
        ]);
        let through = |p: &str| reached_through(&t, p).map(|f| f.name.clone());
        assert_eq!(through("content.body").as_deref(), Some("content"));
        assert_eq!(through("content.meta.lang").as_deref(), Some("content"));
        assert_eq!(through("extra.x").as_deref(), Some("extra"));
        assert_eq!(through("address.geo.alt").as_deref(), Some("geo"));
        // Declared, not flexible, or unknown: nothing reached through.
        assert_eq!(through("address.geo.lat"), None);
        assert_eq!(through("address.street"), None);
        assert_eq!(through("plain.body"), None);
        assert_eq!(through("guard.body"), None);
        assert_eq!(through("missing.body"), None);
    }
}
