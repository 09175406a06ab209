//! The traits the derives implement (`Table`, `Relation`, `Literal`, `SurqlType`) and the record-key types.

use super::{RecordIdKey, SurrealValue, Uuid, Value};
use crate::ir;

/// A table type: what `#[derive(Table)]` and `#[derive(Relation)]` implement.
pub trait Table: SurrealValue + Sized {
    /// The table's name in the database.
    const TABLE: &'static str;
    /// The database names of the declared fields, in declaration order.
    const FIELDS: &'static [&'static str];
    /// The record id's key type: the type of the struct's `id` field when it is a key type
    /// (`i64`, `String`, `Uuid`, an array), else any key ([`RecordIdKey`]).
    type Key: RecordKey;
    /// The table as surqlc's IR (the same value the compiler builds from the source file).
    fn table_ir() -> ir::Table;
    /// The `DEFINE TABLE` and `DEFINE FIELD` statements, exactly as `schema.surql` spells them.
    fn define() -> String {
        crate::surql::table_definition(&Self::table_ir())
    }
}

/// A Rust type a record id's key can be: integers (up to `i64`), strings, UUIDs, arrays of values.
pub trait RecordKey {
    /// The key as SurrealDB holds it.
    fn into_key(self) -> RecordIdKey;
    /// The key as this type, if it is one.
    fn from_key(key: &RecordIdKey) -> Option<Self>
    where
        Self: Sized;
}

impl RecordKey for RecordIdKey {
    fn into_key(self) -> RecordIdKey {
        self
    }
    fn from_key(key: &RecordIdKey) -> Option<Self> {
        Some(key.clone())
    }
}

macro_rules! int_keys {
    ($($t:ty),*) => {$(
        impl RecordKey for $t {
            fn into_key(self) -> RecordIdKey {
                RecordIdKey::Number(i64::from(self))
            }
            fn from_key(key: &RecordIdKey) -> Option<Self> {
                match key {
                    RecordIdKey::Number(n) => <$t>::try_from(*n).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
int_keys!(i8, i16, i32, i64, u8, u16, u32);

impl RecordKey for String {
    fn into_key(self) -> RecordIdKey {
        RecordIdKey::String(self)
    }
    fn from_key(key: &RecordIdKey) -> Option<Self> {
        match key {
            RecordIdKey::String(s) => Some(s.clone()),
            _ => None,
        }
    }
}

impl RecordKey for Uuid {
    fn into_key(self) -> RecordIdKey {
        RecordIdKey::Uuid(self)
    }
    fn from_key(key: &RecordIdKey) -> Option<Self> {
        match key {
            RecordIdKey::Uuid(u) => Some(*u),
            _ => None,
        }
    }
}

impl<T: SurrealValue> RecordKey for Vec<T> {
    fn into_key(self) -> RecordIdKey {
        match self.into_value() {
            Value::Array(a) => RecordIdKey::Array(a),
            _ => RecordIdKey::Array(Default::default()),
        }
    }
    fn from_key(key: &RecordIdKey) -> Option<Self> {
        match key {
            RecordIdKey::Array(a) => Vec::<T>::from_value(Value::Array(a.clone())).ok(),
            _ => None,
        }
    }
}

impl<T: SurrealValue, const N: usize> RecordKey for [T; N] {
    fn into_key(self) -> RecordIdKey {
        Vec::from(self).into_key()
    }
    fn from_key(key: &RecordIdKey) -> Option<Self> {
        Vec::<T>::from_key(key).and_then(|v| v.try_into().ok())
    }
}

/// The tables a relation's end or a record field may link to: what `#[derive(Ends)]` implements
/// on an enum whose variants each hold one `Link<T>` (`TYPE RELATION IN customer | supplier`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an enum deriving Ends",
    label = "a relation's end is `Link<T>` where T is a table, or an enum deriving Ends",
    note = "for one table write `Link<{Self}>`; for several, #[derive(Ends)] on an enum with one `Link<T>` per variant"
)]
pub trait Ends: SurrealValue + Sized {
    /// The tables, in variant order.
    fn tables() -> Vec<String>;
}

/// A relation table whose ends are each one table (`Link<T>`): its two ends. A relation with an
/// `Ends` enum at an end does not implement it; its `Table::table_ir()` names every table.
pub trait Relation: Table {
    /// The table an edge starts at (its `in`).
    type In: Table;
    /// The table an edge ends at (its `out`).
    type Out: Table;
}

/// A type with a fixed SurrealQL type: what `#[derive(Literal)]` implements for unit-only enums,
/// `#[derive(Object)]` for structs stored inside a row, `#[derive(Ends)]` for record unions.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no SurrealQL type that surqlc knows",
    label = "surqlc cannot map this field's type",
    note = "a unit-only enum: #[derive(Literal)] on it; a struct stored inside the row: #[derive(Object)] on \
        it (each field a typed sub-field); another crate's type (`serde_json::Value`): #[surqlc(type = \
        \"any\")] or #[surqlc(type = \"object FLEXIBLE\")] on the field; a struct or an enum with data: make \
        it a table and link it (#[derive(Table)] on it, and `Link<{Self}>` as the field's type), or store it \
        inside the row: `use surqlc::runtime::SurrealValue;` and #[derive(SurrealValue)] on it, and \
        #[surqlc(type = \"object FLEXIBLE\")] on the field"
)]
pub trait SurqlType {
    /// The SurrealQL type of a field of this type.
    fn surql_type() -> ir::Type;
    /// What the values mean, from a Literal enum's doc comments (`surql::meaning`): appended to
    /// the `COMMENT` of every field of this type. `None` (the default) adds nothing.
    fn meaning() -> Option<String> {
        None
    }
    /// The sub-fields a field of this type has (names relative to the field): what
    /// `#[derive(Object)]` implements; empty (the default) for every other type.
    fn fields() -> Vec<ir::Field> {
        Vec::new()
    }
}

/// A unit-only enum stored as one of a fixed set of strings: what `#[derive(Literal)]` implements.
pub trait Literal: SurqlType + Sized {
    /// The stored strings, in declaration order.
    const VALUES: &'static [&'static str];
    /// The string this variant is stored as.
    fn as_str(&self) -> &'static str;
    /// The variant stored as `value`.
    fn from_str(value: &str) -> Option<Self>;
}

/// The `N`th declared field of a table (in `Table::FIELDS` order): what `#[derive(Table)]` and
/// `#[derive(Relation)]` implement once per field, so the generated input structs (`customer::Input`)
/// hold each field in the row struct's own Rust type without the module having to name it.
pub trait TableField<const N: usize> {
    /// The field's Rust type, as the row struct declares it.
    type Rust;
    /// The field as an input struct holds it when it may be left out: `Option<Rust>`, or `Rust`
    /// itself when that is already an `Option`.
    type Optional;
    /// The row's value as [`Self::Optional`] (`Some(value)`, or the `Option` itself).
    fn optional(value: Self::Rust) -> Self::Optional;
}

/// A relation's two ends as its struct declares them (`Link<T>`, or an `Ends` enum for an end of
/// several tables): what the generated `relate` takes. `#[derive(Relation)]` implements it.
pub trait RelationEnds: Table {
    /// The `r#in` field's type.
    type From: SurrealValue;
    /// The `out` field's type.
    type To: SurrealValue;
}
