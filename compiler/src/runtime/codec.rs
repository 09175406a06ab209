//! Rows to and from SurrealDB values: the object reader and writer the derived `SurrealValue` impls use, literal enums' values.

use super::{Literal, RecordId, RecordKey, SurrealValue, Value};
use surrealdb::types::{Kind, Object, SerializationError};

/// What a table's field can hold: any `SurrealValue`. Its own trait so that a type which is not
/// one is reported with what to do about it. Used by the derives.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored in a table field: it does not implement surrealdb's `SurrealValue`",
    label = "this field's type",
    note = "make it a table and link it (#[derive(Table)] on it, and `Link<...>` as the field's type), or \
        store it inside the row: `use surqlc::runtime::SurrealValue;` and #[derive(SurrealValue)] on it, and \
        #[surqlc(type = \"object FLEXIBLE\")] on the field"
)]
pub trait FieldValue: Sized {
    /// The value as the row stores it.
    fn into_field_value(self) -> Value;
    /// The value read back from a row; an error when it is not of this type.
    fn from_field_value(value: Value) -> Result<Self, surrealdb::Error>;
}

impl<T: SurrealValue> FieldValue for T {
    fn into_field_value(self) -> Value {
        self.into_value()
    }

    fn from_field_value(value: Value) -> Result<Self, surrealdb::Error> {
        T::from_value(value)
    }
}

/// Takes a row's fields one by one, naming the table and field in errors. Used by the derives.
pub struct ObjectReader {
    table: &'static str,
    object: Object,
}

impl ObjectReader {
    /// A reader over `value`, a row of `table`; an error when it is not an object.
    pub fn new(table: &'static str, value: Value) -> Result<Self, surrealdb::Error> {
        match value {
            Value::Object(object) => Ok(ObjectReader { table, object }),
            other => Err(conversion_error(format!(
                "expected a `{table}` row (an object), found {other:?}"
            ))),
        }
    }

    /// The field `name`, converted; a missing field reads as `NONE` (so an `Option` is `None`).
    pub fn field<V: FieldValue>(&mut self, name: &str) -> Result<V, surrealdb::Error> {
        let value = self.object.remove(name).unwrap_or(Value::None);
        V::from_field_value(value)
            .map_err(|e| conversion_error(format!("field `{name}` of `{}`: {}", self.table, e.message())))
    }
}

impl ObjectReader {
    /// The key of the record id in field `name` (a typed `id` field: `i64`, `String`, ...).
    pub fn key<K: RecordKey>(&mut self, name: &str) -> Result<K, surrealdb::Error> {
        let value = self.object.remove(name).unwrap_or(Value::None);
        let key = match value {
            Value::RecordId(id) => id.key,
            other => {
                return Err(conversion_error(format!(
                    "field `{name}` of `{}`: expected a record id, found {other:?}",
                    self.table
                )))
            }
        };
        K::from_key(&key).ok_or_else(|| {
            conversion_error(format!(
                "field `{name}` of `{}`: the key {key:?} is not of the struct's id type",
                self.table
            ))
        })
    }
}

impl ObjectWriter {
    /// The record id `table:key` in field `name`.
    pub fn key(&mut self, name: &str, table: &str, key: impl RecordKey) -> &mut Self {
        self.0
            .insert(name, Value::RecordId(RecordId::new(table, key.into_key())));
        self
    }
}

/// Builds the object a derived type converts into. Used by the derives.
#[derive(Default)]
pub struct ObjectWriter(Object);

impl ObjectWriter {
    /// An empty object.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets field `name` to `value`.
    pub fn field(&mut self, name: &str, value: impl FieldValue) -> &mut Self {
        self.0.insert(name, value.into_field_value());
        self
    }

    /// Sets field `name` to the value `value` holds; `None` leaves the field out of the object, so
    /// a write leaves it to the engine (its `DEFAULT` or `VALUE` on a new row, the row's own value
    /// under `MERGE`). Used by the generated input structs.
    pub fn present<V: FieldValue>(&mut self, name: &str, value: Option<V>) -> &mut Self {
        if let Some(value) = value {
            self.0.insert(name, value.into_field_value());
        }
        self
    }

    /// The object built.
    pub fn finish(self) -> Value {
        Value::Object(self.0)
    }
}

/// A literal enum's stored string, or an error naming the values it accepts. Used by the derives.
pub fn literal_from_value<L: Literal>(name: &str, value: Value) -> Result<L, surrealdb::Error> {
    match &value {
        Value::String(s) => L::from_str(s),
        _ => None,
    }
    .ok_or_else(|| {
        conversion_error(format!(
            "expected one of {} for `{name}`, found {value:?}",
            L::VALUES
                .iter()
                .map(|v| format!("{v:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

/// The table of a record id value (what an `Ends` enum's variant is chosen by).
pub fn record_table(value: &Value) -> Option<&str> {
    match value {
        Value::RecordId(id) => Some(id.table.as_str()),
        _ => None,
    }
}

/// The error for a value that is a record of none of an `Ends` enum's tables.
pub fn ends_mismatch(name: &str, tables: &[String], value: &Value) -> surrealdb::Error {
    conversion_error(format!(
        "expected a record of {} for `{name}`, found {value:?}",
        tables.join(" | ")
    ))
}

/// The kind of a literal enum: the union of its values.
pub fn literal_kind<L: Literal>() -> Kind {
    Kind::either(
        L::VALUES
            .iter()
            .map(|v| Kind::Literal(surrealdb::types::KindLiteral::String((*v).to_owned())))
            .collect(),
    )
}

pub(super) fn conversion_error(message: String) -> surrealdb::Error {
    surrealdb::Error::serialization(message, Some(SerializationError::Deserialization))
}
