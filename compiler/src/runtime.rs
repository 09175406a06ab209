//! What an application links at run time: typed record links, the traits the derives implement, typed rows, and the agent's read-only runner.
//!
//! Enabled by the `runtime` feature, which pulls in the `surrealdb` client without any
//! engine (the application picks its engines on its own `surrealdb` dependency) and
//! nothing of the compiler: no syn, Tera, tiktoken or clap. The derives in
//! `surqlc-macros` and the module `build.rs` generates refer to items here by their
//! full path, so they work whatever the application calls its `surrealdb` dependency.

use crate::ir;
use std::fmt;

mod queries;
pub use queries::{find_one, get_by_key, nearest, search};
// The agent loop (ask.rs), execution accuracy (eval.rs) and the OpenAI-compatible client (openai.rs).
pub mod ask;
pub mod eval;
#[cfg(feature = "model")]
pub mod openai;
pub use ask::{Answer, Asker, Attempt, Embedder, Message, Model, ModelError};
use std::marker::PhantomData;
use surrealdb::types::{Kind, Object, SerializationError};
use surrealdb::{Connection, Surreal};

pub use surrealdb;
pub use surrealdb::types::{
    Datetime, Decimal, Duration, RecordId, RecordIdKey, SurrealValue, Uuid, Value,
};

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

/// A relation table: its two ends.
pub trait Relation: Table {
    type In: Table;
    type Out: Table;
}

/// A type with a fixed SurrealQL type: what `#[derive(Literal)]` implements for unit-only enums.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no SurrealQL type that surqlc knows",
    label = "surqlc cannot map this field's type",
    note = "a unit-only enum: #[derive(Literal)] on it; a struct or an enum with data: make it a table and link it (#[derive(Table)] on it, and `Link<{Self}>` as the field's type), or store it inside the row: `use surqlc::runtime::SurrealValue;` and #[derive(SurrealValue)] on it, and #[surqlc(type = \"object FLEXIBLE\")] on the field"
)]
pub trait SurqlType {
    fn surql_type() -> ir::Type;
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
    pub id: Link<T>,
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
    pub record: Record<T>,
    pub score: f64,
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
        let highlight =
            Option::<String>::from_value(object.remove("highlight").unwrap_or(Value::None))?;
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
    pub record: Record<T>,
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
    pub question: String,
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

/// What a table's field can hold: any `SurrealValue`. Its own trait so that a type which is not
/// one is reported with what to do about it. Used by the derives.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored in a table field: it does not implement surrealdb's `SurrealValue`",
    label = "this field's type",
    note = "make it a table and link it (#[derive(Table)] on it, and `Link<...>` as the field's type), or store it inside the row: `use surqlc::runtime::SurrealValue;` and #[derive(SurrealValue)] on it, and #[surqlc(type = \"object FLEXIBLE\")] on the field"
)]
pub trait FieldValue: Sized {
    fn into_field_value(self) -> Value;
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
        V::from_field_value(value).map_err(|e| {
            conversion_error(format!(
                "field `{name}` of `{}`: {}",
                self.table,
                e.message()
            ))
        })
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
    pub fn new() -> Self {
        Self::default()
    }

    pub fn field(&mut self, name: &str, value: impl FieldValue) -> &mut Self {
        self.0.insert(name, value.into_field_value());
        self
    }

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

/// The kind of a literal enum: the union of its values.
pub fn literal_kind<L: Literal>() -> Kind {
    Kind::either(
        L::VALUES
            .iter()
            .map(|v| Kind::Literal(surrealdb::types::KindLiteral::String((*v).to_owned())))
            .collect(),
    )
}

fn conversion_error(message: String) -> surrealdb::Error {
    surrealdb::Error::serialization(message, Some(SerializationError::Deserialization))
}

/// What the agent's query came to: rows, or text the model can repair its query from.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The statement ran; its rows (a statement that returns one value gives one row), and the
    /// validator's warnings (one line each: a value not present in the data, a LIMIT the runner
    /// added), to hand back with the rows.
    Rows {
        rows: Vec<Value>,
        warnings: Vec<String>,
    },
    /// The model replied `-- cannot answer: <reason>`; the reason.
    CannotAnswer(String),
    /// The statement was refused before it ran, or the engine rejected it: the text to send back to the model.
    Rejected(String),
}

impl Outcome {
    /// The rows as JSON, for printing or for handing to another model.
    pub fn rows_json(&self) -> Option<Vec<serde_json::Value>> {
        match self {
            Outcome::Rows { rows, .. } => Some(rows.iter().cloned().map(to_json).collect()),
            _ => None,
        }
    }
}

/// A value as JSON, with decimals as JSON numbers (SurrealDB's own conversion writes them as strings).
///
/// A whole decimal within `i64` becomes an integer; any other decimal the nearest `f64`.
pub fn to_json(value: Value) -> serde_json::Value {
    use surrealdb::types::Number;
    match value {
        Value::Number(Number::Decimal(d)) => {
            let exact = d.normalize();
            if exact.scale() == 0 {
                if let Ok(i) = exact.to_string().parse::<i64>() {
                    return serde_json::Value::from(i);
                }
            }
            exact
                .to_string()
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map_or_else(
                    || serde_json::Value::String(exact.to_string()),
                    serde_json::Value::Number,
                )
        }
        Value::Array(items) => serde_json::Value::Array(items.into_iter().map(to_json).collect()),
        Value::Object(object) => {
            serde_json::Value::Object(object.into_iter().map(|(k, v)| (k, to_json(v))).collect())
        }
        other => other.into_json_value(),
    }
}

/// Signs a new session on `db`'s connection in as a database-level user (such as the `VIEWER` agent).
///
/// A database user must send its namespace and database with its credentials, and its
/// `DEFINE USER` must set `DURATION FOR SESSION` (surqlc's does) or sign-in fails. The
/// returned handle is a separate session: `db` keeps its own credentials.
pub async fn signin_database_user<C: Connection>(
    db: &Surreal<C>,
    namespace: &str,
    database: &str,
    user: &str,
    password: &str,
) -> Result<Surreal<C>, surrealdb::Error> {
    let agent = db.clone();
    let signed = agent
        .signin(surrealdb::opt::auth::Database {
            namespace: namespace.into(),
            database: database.into(),
            username: user.into(),
            password: password.into(),
        })
        .await;
    use_after_signin(
        agent,
        signed,
        namespace,
        database,
        &format!("user `{user}`"),
    )
    .await
}

/// `agent` on `namespace`/`database` once its sign-in gave `signed`. The engine says only that
/// authentication failed, so an error says who (`who`) tried where, and what to check.
async fn use_after_signin<C: Connection, T>(
    agent: Surreal<C>,
    signed: Result<T, surrealdb::Error>,
    namespace: &str,
    database: &str,
    who: &str,
) -> Result<Surreal<C>, surrealdb::Error> {
    let tried = |e: surrealdb::Error| {
        let message = format!(
            "{who} could not sign in to namespace `{namespace}`, database `{database}`: {} \
             (is it defined there, by the schema applied to this database, with this password? \
             surqlc's agent has the password SURQLC_AGENT_PASSWORD held when build.rs ran)",
            e.message()
        );
        surrealdb::Error::from_details(message, e.details().clone()).with_cause(e)
    };
    signed.map_err(tried)?;
    agent
        .use_ns(namespace)
        .use_db(database)
        .await
        .map_err(tried)?;
    Ok(agent)
}

/// A session signed in as a database-level user, such as the `VIEWER` agent: what [`run_readonly`] runs on.
///
/// A distinct type so that the owner's handle cannot be passed where the agent's belongs.
#[derive(Debug, Clone)]
pub struct Agent<C: Connection>(Surreal<C>);

impl<C: Connection> Agent<C> {
    /// The agent's session, for anything else it may do (it has the rights of its role only).
    pub fn session(&self) -> &Surreal<C> {
        &self.0
    }
}

/// Signs a new session on `db`'s connection in as a database-level agent user; see [`signin_database_user`].
pub async fn signin_agent<C: Connection>(
    db: &Surreal<C>,
    namespace: &str,
    database: &str,
    user: &str,
    password: &str,
) -> Result<Agent<C>, surrealdb::Error> {
    signin_database_user(db, namespace, database, user, password)
        .await
        .map(Agent)
}

/// Signs a new session on `db`'s connection in as a record-access agent: the record access `user`
/// on `namespace`/`database`, with the parameters `user` and `pass`, as `schema.surql` defines it
/// when the schema hides a table or field from the prompt. The engine then holds the session to
/// table and field `PERMISSIONS`. `db` keeps its own credentials.
pub async fn signin_record_agent<C: Connection>(
    db: &Surreal<C>,
    namespace: &str,
    database: &str,
    user: &str,
    password: &str,
) -> Result<Agent<C>, surrealdb::Error> {
    let agent = db.clone();
    let signed = agent
        .signin(surrealdb::opt::auth::Record {
            namespace: namespace.into(),
            database: database.into(),
            access: user.into(),
            params: serde_json::json!({ "user": user, "pass": password }),
        })
        .await;
    let who = format!("the agent `{user}` (record access `{user}`)");
    use_after_signin(agent, signed, namespace, database, &who)
        .await
        .map(Agent)
}

/// Runs one generated `SELECT` on the agent's session, bounded by `timeout`.
///
/// The reply is parsed with SurrealDB's own parser: anything but exactly one `SELECT`, or a
/// `SELECT` that sets its own `TIMEOUT`, is refused before it reaches the engine, and the
/// statement that runs is the parsed one rendered back with the runner's `TIMEOUT`, so the
/// engine cannot read the text differently. The engine's error text comes back as
/// [`Outcome::Rejected`], a repair signal for the model; only a failure of the connection
/// itself is an `Err`.
///
/// What the statement may *do* is bounded by the agent's role, not by this check: a `SELECT`
/// can hold subqueries, and only a `VIEWER` session keeps them from writing.
pub async fn run_readonly<C: Connection>(
    agent: &Agent<C>,
    surql: &str,
    timeout: std::time::Duration,
) -> Result<Outcome, surrealdb::Error> {
    let statement = match prepare_select(surql, timeout) {
        Ok(Checked::Select(statement)) => statement,
        Ok(Checked::CannotAnswer(reason)) => return Ok(Outcome::CannotAnswer(reason)),
        Err(message) => return Ok(Outcome::Rejected(message)),
    };
    run_prepared(agent, statement, Vec::new()).await
}

/// [`run_readonly`], with the query first checked against `schema` by [`crate::validate`]
/// (every table, field path, traversal and compared value) and against the data on the agent's
/// connection (record ids exist, compared values are present): what the generated module's
/// `run_readonly` calls.
///
/// An error is [`Outcome::Rejected`] with the diagnostics rendered one per line, each naming
/// its fix: the repair signal for the model. The schema's `max_rows` bounds the rows: a query
/// without a `LIMIT` gets `LIMIT max_rows` (and a warning saying so), a larger `LIMIT` is
/// refused. Warnings come back with the rows.
pub async fn run_validated<C: Connection>(
    agent: &Agent<C>,
    surql: &str,
    timeout: std::time::Duration,
    schema: &ir::Schema,
) -> Result<Outcome, surrealdb::Error> {
    use crate::validate::{self, Class, Severity};
    let mut report = validate::validate(schema, surql);
    if let Some(reason) = report.cannot_answer.take() {
        return Ok(Outcome::CannotAnswer(reason));
    }
    let max_rows = schema.settings.max_rows;
    // A missing LIMIT is repaired here rather than refused: the runner adds the schema's.
    let mut add_limit = None;
    if report.missing_limit {
        for d in &mut report.diagnostics {
            if d.class == Class::Limit && d.severity == Severity::Error {
                d.severity = Severity::Warning;
                d.message = format!("the query had no LIMIT, so the runner added LIMIT {max_rows}");
                d.fix = format!("end queries with LIMIT {max_rows} or less");
                add_limit = Some(max_rows);
            }
        }
    }
    if !report.has_errors() {
        validate::data::check(&agent.0, schema, &mut report).await?;
    }
    if report.has_errors() {
        return Ok(Outcome::Rejected(
            report.render(surql).trim_end().to_owned(),
        ));
    }
    let statement = match prepare(surql, timeout, add_limit) {
        Ok(Checked::Select(statement)) => statement,
        Ok(Checked::CannotAnswer(reason)) => return Ok(Outcome::CannotAnswer(reason)),
        Err(message) => return Ok(Outcome::Rejected(message)),
    };
    let warnings = report
        .warnings()
        .map(|d| validate::render_one(d, surql))
        .collect();
    run_prepared(agent, statement, warnings).await
}

async fn run_prepared<C: Connection>(
    agent: &Agent<C>,
    statement: String,
    warnings: Vec<String>,
) -> Result<Outcome, surrealdb::Error> {
    let rejected = |e: surrealdb::Error| {
        if e.is_connection() {
            Err(e)
        } else {
            Ok(Outcome::Rejected(e.message().to_owned()))
        }
    };
    let mut response = match agent.0.query(statement).await {
        Ok(response) => response,
        Err(e) => return rejected(e),
    };
    match response.take::<Value>(0) {
        Ok(Value::Array(rows)) => Ok(Outcome::Rows {
            rows: rows.into_iter().collect(),
            warnings,
        }),
        Ok(value) => Ok(Outcome::Rows {
            rows: vec![value],
            warnings,
        }),
        Err(e) => rejected(e),
    }
}

/// What [`prepare_select`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked {
    /// The one `SELECT`, rendered back by SurrealDB's printer with the runner's `TIMEOUT`.
    Select(String),
    /// A `-- cannot answer: <reason>` reply.
    CannotAnswer(String),
}

/// Parses a model's reply with SurrealDB's parser and, if it is one `SELECT` without a `TIMEOUT`
/// of its own, renders it back with `TIMEOUT timeout`. The error is written for the model.
pub fn prepare_select(reply: &str, timeout: std::time::Duration) -> Result<Checked, String> {
    prepare(reply, timeout, None)
}

/// [`prepare_select`], adding `LIMIT add_limit` to a SELECT that has none.
fn prepare(
    reply: &str,
    timeout: std::time::Duration,
    add_limit: Option<u32>,
) -> Result<Checked, String> {
    use surrealdb::types::ToSql;
    use surrealdb_sql::{Expr, Limit, Literal, TopLevelExpr};

    // Models fence code despite the rules; a fenced reply means its contents.
    let reply = crate::validate::strip_fence(reply);
    let trimmed = reply.trim();
    if let Some(reason) = crate::validate::cannot_answer(trimmed) {
        return Ok(Checked::CannotAnswer(reason));
    }
    let mut ast = surrealdb_syn::parse(reply)
        .map_err(|e| format!("the query does not parse: {}", e.to_string().trim_end()))?;
    let count = ast.expressions.len();
    let select = match ast.expressions.as_mut_slice() {
        [] => return Err("the reply holds no statement: reply with one SELECT statement".into()),
        [TopLevelExpr::Expr(Expr::Select(select))] => select,
        [_] => {
            return Err(format!(
                "only a SELECT statement may run here, not `{}`",
                first_word(trimmed)
            ))
        }
        _ => {
            return Err(format!(
                "the reply holds {count} statements: reply with exactly one SELECT statement"
            ))
        }
    };
    if !matches!(select.timeout, Expr::Literal(Literal::None)) {
        return Err("remove the TIMEOUT clause: the runner sets its own".into());
    }
    select.timeout = Expr::Literal(Literal::Duration(
        timeout.max(std::time::Duration::from_millis(1)),
    ));
    if let (None, Some(n)) = (&select.limit, add_limit) {
        select.limit = Some(Limit(Expr::Literal(Literal::Integer(i64::from(n)))));
    }
    Ok(Checked::Select(ast.to_sql()))
}

fn first_word(text: &str) -> &str {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .find(|w| !w.is_empty())
        .unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn select(s: &str) -> String {
        match prepare_select(s, Duration::from_secs(5)) {
            Ok(Checked::Select(s)) => s,
            other => panic!("{s:?}: {other:?}"),
        }
    }

    #[test]
    fn one_select_is_rendered_back_with_the_timeout() {
        assert_eq!(
            select("SELECT name FROM customer WHERE name = 'a;b' LIMIT 5;\n-- done\n"),
            "SELECT name FROM customer WHERE name = 'a;b' LIMIT 5 TIMEOUT 5s;"
        );
        // A column called `timeout` is a column; EXPLAIN stays last.
        assert!(select("SELECT timeout FROM s").starts_with("SELECT timeout FROM s TIMEOUT 5s"));
        assert!(select("SELECT * FROM customer EXPLAIN").contains("TIMEOUT 5s EXPLAIN"));
    }

    #[test]
    fn anything_else_is_refused_with_a_reason() {
        for (text, reason) in [
            ("SELECT * FROM a; DELETE customer", "2 statements"),
            ("DELETE customer", "not `DELETE`"),
            ("  ", "no statement"),
            ("SELECT * FROM x TIMEOUT 1h", "TIMEOUT"),
            ("SELECT 'open", "does not parse"),
            // Texts a light lexer would split differently from the engine.
            ("SELECT * FROM customer WHERE name = /'/; DELETE customer; SELECT * FROM customer WHERE name = /'/", "3 statements"),
            ("SELECT * FROM customer --\r; DELETE customer; SELECT * FROM customer\n WHERE true", "3 statements"),
            ("SELECT * FROM customer --\u{2028}; DELETE customer", "2 statements"),
        ] {
            let err = prepare_select(text, Duration::from_secs(1)).expect_err(text);
            assert!(err.contains(reason), "{text:?}: {err}");
        }
    }

    proptest::proptest! {
        #[test]
        fn the_checker_never_panics(reply in "(SELECT|select|;|'|\"|`|⟨|⟩|/|\\\\|--|/\\*|\\*/|#|\\(|\\)|\\[|\\]|\\{|\\}|```|\n|\r| |x|é|TIMEOUT|FROM){0,24}") {
            let _ = prepare_select(&reply, Duration::from_secs(1));
        }

        #[test]
        fn any_text_is_checked_without_panicking(reply in "\\PC*") {
            let _ = prepare_select(&reply, Duration::from_secs(1));
        }
    }

    #[test]
    fn a_fenced_reply_is_unwrapped() {
        assert!(
            select("```surql\nSELECT name FROM customer LIMIT 5;\n```\n")
                .starts_with("SELECT name FROM customer LIMIT 5 TIMEOUT")
        );
        assert!(select("```\nSELECT * FROM a\n```").starts_with("SELECT * FROM a TIMEOUT"));
    }

    #[test]
    fn a_cannot_answer_reply_is_recognised() {
        assert_eq!(
            prepare_select(
                "-- cannot answer: no stock levels in the schema\n",
                Duration::from_secs(1)
            ),
            Ok(Checked::CannotAnswer(
                "no stock levels in the schema".to_owned()
            ))
        );
        // A comment line followed by a statement is not a refusal to answer.
        assert!(prepare_select(
            "-- cannot answer: x\rDELETE customer",
            Duration::from_secs(1)
        )
        .is_err());
    }
}
