//! The typed values applications hold: `Link<T>` (a typed record id), `Record<T>`, search and nearest-neighbour hits, pooled examples.

use super::codec::{conversion_error, ObjectReader};
use super::{RecordId, RecordIdKey, RecordKey, SurrealValue, Table, Value};
use std::fmt;
use std::marker::PhantomData;
use surrealdb::types::{Kind, Object};

/// A typed record id: a key of table `T`. In a field it is a `record<t>` link.
pub struct Link<T> {
    key: RecordIdKey,
    table: PhantomData<fn() -> T>,
}

impl<T: Table> Link<T> {
    /// The record `T::TABLE:key`.
    pub fn new(key: impl Into<RecordIdKey>) -> Self {
        Link {
            key: key.into(),
            table: PhantomData,
        }
    }

    /// The record's key (the part after `table:`), untyped.
    pub fn key(&self) -> &RecordIdKey {
        &self.key
    }

    /// The key as the table's key type (`None` if the stored key has another type).
    pub fn typed_key(&self) -> Option<T::Key> {
        <T::Key as RecordKey>::from_key(&self.key)
    }

    /// The untyped record id.
    pub fn record_id(&self) -> RecordId {
        RecordId::new(T::TABLE, self.key.clone())
    }

    /// Checks that `id` is a record of `T`'s table.
    pub fn from_record_id(id: RecordId) -> Result<Self, surrealdb::Error> {
        if id.table.as_str() == T::TABLE {
            Ok(Link::new(id.key))
        } else {
            Err(conversion_error(format!(
                "expected a record of table `{}`, found one of `{}`",
                T::TABLE,
                id.table.as_str()
            )))
        }
    }
}

impl<T> Clone for Link<T> {
    fn clone(&self) -> Self {
        Link {
            key: self.key.clone(),
            table: PhantomData,
        }
    }
}

impl<T> PartialEq for Link<T> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<T> Eq for Link<T> {}

impl<T> std::hash::Hash for Link<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state)
    }
}

impl<T> PartialOrd for Link<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Link<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

impl<T: Table> fmt::Debug for Link<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Link<{}>({:?})", T::TABLE, self.key)
    }
}

impl<T: Table> fmt::Display for Link<T> {
    /// `table:key` as SurrealQL writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use surrealdb::types::ToSql;
        f.write_str(&self.record_id().to_sql())
    }
}

impl<T: Table> From<Link<T>> for RecordId {
    fn from(link: Link<T>) -> RecordId {
        link.record_id()
    }
}

impl<T: Table> SurrealValue for Link<T> {
    fn kind_of() -> Kind {
        Kind::Record(vec![T::TABLE.into()])
    }

    fn into_value(self) -> Value {
        Value::RecordId(self.record_id())
    }

    fn from_value(value: Value) -> Result<Self, surrealdb::Error> {
        match value {
            Value::RecordId(id) => Link::from_record_id(id),
            other => Err(conversion_error(format!(
                "expected a record of table `{}`, found {other:?}",
                T::TABLE
            ))),
        }
    }
}

impl<T: Table> serde::Serialize for Link<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.record_id().serialize(serializer)
    }
}

impl<'de, T: Table> serde::Deserialize<'de> for Link<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = RecordId::deserialize(deserializer)?;
        Link::from_record_id(id).map_err(serde::de::Error::custom)
    }
}

/// A row with its record id: what the typed reads return.
#[derive(Debug, Clone, PartialEq)]
pub struct Record<T: Table> {
    /// The row's record id.
    pub id: Link<T>,
    /// The row's fields (also reached through `Deref`).
    pub data: T,
}

impl<T: Table> std::ops::Deref for Record<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.data
    }
}

impl<T: Table> SurrealValue for Record<T> {
    fn kind_of() -> Kind {
        Kind::Object
    }

    fn into_value(self) -> Value {
        let mut value = self.data.into_value();
        if let Value::Object(object) = &mut value {
            object.insert("id".to_owned(), Value::RecordId(self.id.record_id()));
        }
        value
    }

    fn from_value(value: Value) -> Result<Self, surrealdb::Error> {
        let Value::Object(object) = value else {
            return Err(conversion_error(format!(
                "expected a `{}` row (an object), found {value:?}",
                T::TABLE
            )));
        };
        // A copy of the id: a `T` with an `id` field of its own reads it too.
        let id = object.get("id").cloned().unwrap_or(Value::None);
        Ok(Record {
            id: Link::from_value(id)?,
            data: T::from_value(Value::Object(object))?,
        })
    }
}

/// A row found by a full-text search: its BM25 score and, when the index keeps highlights, the
/// matching text with the hits marked. What the generated `search_*` helpers return.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored<T: Table> {
    /// The row found.
    pub record: Record<T>,
    /// Its BM25 score: larger is a better match.
    pub score: f64,
    /// The matching text with the hits in `<b>...</b>`; `None` unless the index has `HIGHLIGHTS`.
    pub highlight: Option<String>,
}

impl<T: Table> SurrealValue for Scored<T> {
    fn kind_of() -> Kind {
        Kind::Object
    }

    fn into_value(self) -> Value {
        let mut value = self.record.into_value();
        if let Value::Object(object) = &mut value {
            object.insert("score".to_owned(), Value::from_t(self.score));
            if let Some(h) = self.highlight {
                object.insert("highlight".to_owned(), Value::from_t(h));
            }
        }
        value
    }

    fn from_value(value: Value) -> Result<Self, surrealdb::Error> {
        let Value::Object(mut object) = value else {
            return Err(conversion_error(format!(
                "expected a `{}` search hit (an object), found {value:?}",
                T::TABLE
            )));
        };
        let score = f64::from_value(object.remove("score").unwrap_or(Value::None))?;
        let highlight = Option::<String>::from_value(object.remove("highlight").unwrap_or(Value::None))?;
        Ok(Scored {
            record: Record::from_value(Value::Object(object))?,
            score,
            highlight,
        })
    }
}

/// A row found by a nearest-neighbour search, with its distance to the query vector (smaller is
/// nearer). What the generated `nearest_*` helpers return, nearest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Nearest<T: Table> {
    /// The row found.
    pub record: Record<T>,
    /// Its distance to the query vector, in the index's metric.
    pub distance: f64,
}

impl<T: Table> SurrealValue for Nearest<T> {
    fn kind_of() -> Kind {
        Kind::Object
    }

    fn into_value(self) -> Value {
        let mut value = self.record.into_value();
        if let Value::Object(object) = &mut value {
            object.insert("distance".to_owned(), Value::from_t(self.distance));
        }
        value
    }

    fn from_value(value: Value) -> Result<Self, surrealdb::Error> {
        let Value::Object(mut object) = value else {
            return Err(conversion_error(format!(
                "expected a `{}` neighbour (an object), found {value:?}",
                T::TABLE
            )));
        };
        let distance = f64::from_value(object.remove("distance").unwrap_or(Value::None))?;
        Ok(Nearest {
            record: Record::from_value(Value::Object(object))?,
            distance,
        })
    }
}

/// One pooled example as `fn::similar_examples` returns it.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// The example's question.
    pub question: String,
    /// The query that answers it.
    pub surql: String,
    /// Cosine distance from the question's embedding; smaller is nearer.
    pub distance: f64,
}

impl SurrealValue for Example {
    fn kind_of() -> Kind {
        Kind::Object
    }

    fn into_value(self) -> Value {
        let mut object = Object::new();
        object.insert("question", self.question);
        object.insert("surql", self.surql);
        object.insert("dist", self.distance);
        Value::Object(object)
    }

    fn from_value(value: Value) -> Result<Self, surrealdb::Error> {
        let mut object = ObjectReader::new("example", value)?;
        Ok(Example {
            question: object.field("question")?,
            surql: object.field("surql")?,
            distance: object.field("dist")?,
        })
    }
}
