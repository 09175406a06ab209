//! A named query's typed parameters ([`RType`], the types its generated Rust function takes) as a tool's JSON Schema, and a tool call's JSON arguments checked and converted to the values bound to the query.

use crate::codegen::queries::shape::RType;
use crate::ir::{self, Schema};
use serde_json::{json, Value as Json};
use surrealdb::types::{Datetime, Decimal, Duration, Number, RecordId, RecordIdKey, Uuid, Value};

/// Why a parameter's type cannot be a tool argument (the query's file names it at start).
pub(super) fn unsupported(ty: &RType) -> Option<&'static str> {
    match ty {
        RType::Bytes => Some("bytes"),
        RType::Row(_) => Some("a whole row"),
        RType::Struct(_) => Some("an object of the query's own"),
        RType::Input { .. } | RType::Unit => Some("a table's input struct"),
        RType::Vec(t) | RType::Option(t) => unsupported(t),
        _ => None,
    }
}

/// The table whose Rust type is `rust`.
fn table<'s>(schema: &'s Schema, rust: &str) -> Option<&'s ir::Table> {
    schema.tables.iter().find(|t| t.rust_name == rust)
}

/// The stored values of the Literal enum whose Rust type is `rust`, in source order.
fn literal_values<'s>(schema: &'s Schema, rust: &str) -> Vec<&'s str> {
    schema
        .enums
        .iter()
        .find(|e| e.rust_name == rust)
        .map(|e| e.variants.iter().map(|(_, v)| v.as_str()).collect())
        .unwrap_or_default()
}

/// The JSON Schema of a parameter of type `ty` (an `Option`'s is its inner type's: the argument
/// is then not required).
pub(super) fn json_schema(schema: &Schema, ty: &RType) -> Json {
    match ty {
        RType::Bool => json!({"type": "boolean"}),
        RType::Int => json!({"type": "integer"}),
        RType::Float | RType::Decimal | RType::Number => json!({"type": "number"}),
        RType::String => json!({"type": "string"}),
        RType::Datetime => json!({"type": "string", "format": "date-time"}),
        RType::Duration => json!({"type": "string", "description": "a SurrealQL duration, like 90m, 7d or 1y2w"}),
        RType::Uuid => json!({"type": "string", "format": "uuid"}),
        RType::Value => json!({"type": "object"}),
        RType::Key => json!({"type": ["string", "integer"], "description": "a record id's key"}),
        RType::Enum(name) => json!({"type": "string", "enum": literal_values(schema, name)}),
        RType::Link(name) => {
            let table = table(schema, name).map_or(name.as_str(), |t| t.name.as_str());
            json!({
                "type": "string",
                "pattern": format!("^{}:", regex_escape(table)),
                "description": format!("a record id of table `{table}`, like {table}:key"),
            })
        }
        RType::Vec(inner) => json!({"type": "array", "items": json_schema(schema, inner)}),
        RType::Option(inner) => json_schema(schema, inner),
        // Refused at start (`unsupported`).
        RType::Bytes | RType::Row(_) | RType::Struct(_) | RType::Input { .. } | RType::Unit => json!({}),
    }
}

/// A table name in a JSON Schema `pattern` (table names are identifiers; `_` and letters pass).
fn regex_escape(name: &str) -> String {
    name.chars()
        .flat_map(|c| {
            let special = !(c.is_alphanumeric() || c == '_');
            special.then_some('\\').into_iter().chain(std::iter::once(c))
        })
        .collect()
}

/// What an argument of type `ty` must be, said to the caller that sent something else.
pub(super) fn expected(schema: &Schema, ty: &RType) -> String {
    match ty {
        RType::Bool => "true or false".into(),
        RType::Int => "a whole number".into(),
        RType::Float | RType::Decimal | RType::Number => "a number".into(),
        RType::String => "a string".into(),
        RType::Datetime => "a date-time string (RFC 3339, like 2025-05-01T00:00:00Z)".into(),
        RType::Duration => "a duration string (like 90m, 7d or 1y2w)".into(),
        RType::Uuid => "a UUID string".into(),
        RType::Value => "a JSON object".into(),
        RType::Key => "a string or a whole number (a record id's key)".into(),
        RType::Enum(name) => format!("one of {}", literal_values(schema, name).join(", ")),
        RType::Link(name) => {
            let table = table(schema, name).map_or(name.as_str(), |t| t.name.as_str());
            format!("a record id of table `{table}` (like {table}:key)")
        }
        RType::Vec(inner) => format!("an array, each item {}", expected(schema, inner)),
        RType::Option(inner) => format!("{} or null", expected(schema, inner)),
        RType::Bytes | RType::Row(_) | RType::Struct(_) | RType::Input { .. } | RType::Unit => {
            "a value this tool cannot take".into()
        }
    }
}

/// The value bound to the query for argument `arg` of type `ty`, or `None` when `arg` is not one
/// (the caller is told [`expected`]).
pub(super) fn convert(schema: &Schema, ty: &RType, arg: &Json) -> Option<Value> {
    Some(match (ty, arg) {
        (RType::Option(_), Json::Null) => Value::None,
        (RType::Option(inner), arg) => return convert(schema, inner, arg),
        (RType::Bool, Json::Bool(b)) => Value::Bool(*b),
        (RType::Int, Json::Number(n)) => Value::Number(Number::Int(n.as_i64()?)),
        (RType::Float, Json::Number(n)) => Value::Number(Number::Float(n.as_f64()?)),
        (RType::Number, Json::Number(n)) => Value::Number(match n.as_i64() {
            Some(i) => Number::Int(i),
            None => Number::Float(n.as_f64()?),
        }),
        (RType::Decimal, Json::Number(n)) => Value::Number(Number::Decimal(decimal(&n.to_string())?)),
        (RType::String, Json::String(s)) => Value::String(s.clone()),
        (RType::Datetime, Json::String(s)) => Value::Datetime(s.parse::<Datetime>().ok()?),
        (RType::Duration, Json::String(s)) => Value::Duration(s.parse::<Duration>().ok()?),
        (RType::Uuid, Json::String(s)) => Value::Uuid(s.parse::<Uuid>().ok()?),
        (RType::Value, Json::Object(_)) => json_value(arg)?,
        (RType::Key, Json::String(s)) => Value::String(s.clone()),
        (RType::Key, Json::Number(n)) => Value::Number(Number::Int(n.as_i64()?)),
        (RType::Enum(name), Json::String(s)) => literal_values(schema, name)
            .contains(&s.as_str())
            .then(|| Value::String(s.clone()))?,
        (RType::Link(name), Json::String(s)) => Value::RecordId(record_id(schema, name, s)?),
        (RType::Vec(inner), Json::Array(items)) => Value::Array(
            items
                .iter()
                .map(|item| convert(schema, inner, item))
                .collect::<Option<Vec<Value>>>()?
                .into_iter()
                .collect(),
        ),
        _ => return None,
    })
}

/// A decimal written as JSON writes a number (`12.5`, `1e3`).
fn decimal(text: &str) -> Option<Decimal> {
    text.parse::<Decimal>()
        .ok()
        .or_else(|| Decimal::from_scientific(text).ok())
}

/// A JSON object as the engine's value.
fn json_value(arg: &Json) -> Option<Value> {
    Some(surrealdb::types::SurrealValue::into_value(arg.clone()))
}

/// `table:key` as a record id of the table whose Rust type is `rust`: the table must be that one;
/// the key is read as the engine prints one (`customer:mei`, `meeting:1`, `customer:⟨a b⟩`),
/// a whole number when the table's keys are integers or the key is all digits.
fn record_id(schema: &Schema, rust: &str, text: &str) -> Option<RecordId> {
    let table = table(schema, rust)?;
    let (name, key) = text.split_once(':')?;
    if name.trim_matches('`') != table.name || key.is_empty() {
        return None;
    }
    let quoted = key
        .strip_prefix('⟨')
        .and_then(|k| k.strip_suffix('⟩'))
        .or_else(|| key.strip_prefix('`').and_then(|k| k.strip_suffix('`')));
    let key = match (quoted, &table.id) {
        (Some(inner), _) => RecordIdKey::String(inner.to_owned()),
        (None, Some(ir::Type::Int)) => RecordIdKey::Number(key.parse().ok()?),
        (None, Some(ir::Type::Uuid)) => RecordIdKey::Uuid(key.parse().ok()?),
        (None, _) if key.bytes().all(|b| b.is_ascii_digit()) => RecordIdKey::Number(key.parse().ok()?),
        (None, _) => RecordIdKey::String(key.to_owned()),
    };
    Some(RecordId::new(table.name.clone(), key))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> Schema {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        crate::Builder::new()
            .schema(root.join("schemas/store.rs"))
            .cargo_metadata(false)
            .generate()
            .expect("the store compiles")
            .schema
    }

    #[test]
    fn each_parameter_type_has_its_json_schema() {
        let s = store();
        let link = RType::Link("Customer".into());
        assert_eq!(
            json_schema(&s, &link),
            json!({"type": "string", "pattern": "^customer:", "description": "a record id of table `customer`, like customer:key"})
        );
        assert_eq!(
            json_schema(&s, &RType::Vec(Box::new(RType::Enum("Tier".into())))),
            json!({"type": "array", "items": {"type": "string", "enum": ["free", "plus", "pro"]}})
        );
        assert_eq!(
            json_schema(&s, &RType::Datetime),
            json!({"type": "string", "format": "date-time"})
        );
        assert_eq!(
            json_schema(&s, &RType::Option(Box::new(RType::Int))),
            json!({"type": "integer"})
        );
        assert_eq!(unsupported(&RType::Vec(Box::new(RType::Bytes))), Some("bytes"));
        assert_eq!(unsupported(&link), None);
    }

    #[test]
    fn arguments_convert_only_when_they_are_of_the_type() {
        let s = store();
        let link = RType::Link("Customer".into());
        assert_eq!(
            convert(&s, &link, &json!("customer:mei")),
            Some(Value::RecordId(RecordId::new("customer", "mei")))
        );
        assert_eq!(
            convert(&s, &link, &json!("customer:42")),
            Some(Value::RecordId(RecordId::new("customer", 42i64)))
        );
        assert_eq!(
            convert(&s, &link, &json!("customer:⟨a b⟩")),
            Some(Value::RecordId(RecordId::new("customer", "a b")))
        );
        for wrong in [json!("purchase:p1"), json!("mei"), json!(3), json!("customer:")] {
            assert_eq!(convert(&s, &link, &wrong), None, "{wrong}");
        }
        let tier = RType::Enum("Tier".into());
        assert_eq!(convert(&s, &tier, &json!("pro")), Some(Value::String("pro".into())));
        assert_eq!(convert(&s, &tier, &json!("gold")), None);
        assert_eq!(convert(&s, &RType::Int, &json!(2.5)), None);
        assert_eq!(convert(&s, &RType::Int, &json!("2")), None);
        assert!(matches!(
            convert(&s, &RType::Datetime, &json!("2025-01-01T00:00:00Z")),
            Some(Value::Datetime(_))
        ));
        assert_eq!(convert(&s, &RType::Datetime, &json!("last week")), None);
        assert_eq!(
            convert(&s, &RType::Option(Box::new(RType::Int)), &Json::Null),
            Some(Value::None)
        );
        assert_eq!(convert(&s, &RType::Int, &Json::Null), None);
        assert_eq!(
            convert(&s, &RType::Decimal, &json!(12.5)),
            Some(Value::Number(Number::Decimal("12.5".parse().unwrap())))
        );
        assert_eq!(
            convert(&s, &RType::Vec(Box::new(RType::Int)), &json!([1, "2"])),
            None,
            "one wrong item refuses the array"
        );
        assert!(expected(&s, &tier).contains("free, plus, pro"));
    }
}
