//! The schema as surqlc understands it: plain data, no `syn`, no output format.
//!
//! The front end (`front`) builds it from Rust source, the derives build the same
//! values at run time, and every back end (`surql`, `emit`, `rustgen`, `tokens`)
//! reads only this. With `ir-serde` it (de)serializes, which is how a generated module
//! carries the schema to the validator at run time.
//!
//! ```rust
//! use surqlc::ir::{Kind, Type};
//!
//! // A field declared `Option<Vec<Link<Product>>>` in the schema file:
//! let ty = Type::Option(Box::new(Type::Array(Box::new(Type::Record("product".into())), None)));
//! assert_eq!(ty.linked_table(), Some("product"));
//!
//! // A hand-written `int | int | string` is the engine's flat union without repeats.
//! let kind = Kind::either(vec![Kind::Named("int".into()), Kind::Named("int".into()), Kind::Named("string".into())]);
//! assert_eq!(kind, Kind::Either(vec![Kind::Named("int".into()), Kind::Named("string".into())]));
//! ```

/// A whole schema: its tables in source order and the prompt settings.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Schema {
    /// The schema's name (the `#[derive(Schema)]` type, or the file stem).
    pub name: String,
    /// The Rust type that carried the settings, if any.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub rust_name: Option<String>,
    /// Every table (relations and views included), in source order.
    pub tables: Vec<Table>,
    /// Unit-only enums, in source order; referenced by fields as `Type::Literal`.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub enums: Vec<LiteralEnum>,
    /// `DEFINE ANALYZER`s, declared once on the `Schema` item and named by full-text indexes.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub analyzers: Vec<Analyzer>,
    /// The user's `DEFINE FUNCTION`s (`#[surqlc(functions = "FILE.surql")]` on the `Schema` item),
    /// in file order: written into `schema.surql`, listed in the prompt, known to the validator.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub functions: Vec<Function>,
    /// What the prompt shows and how the agents are set up (the `Schema` item's attributes).
    pub settings: Settings,
}

impl Schema {
    /// The table named `name` (a linear search: for many lookups, use [`Schema::table_index`]).
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }

    /// Every table by name, for lookups that must stay linear in the schema's size.
    pub fn table_index(&self) -> std::collections::HashMap<&str, &Table> {
        self.tables.iter().map(|t| (t.name.as_str(), t)).collect()
    }

    /// The exposed tables, in prompt order.
    pub fn exposed_tables(&self) -> impl Iterator<Item = &Table> {
        // The validator asks on every query: a hash index pays for itself only past a few dozen
        // tables. Both find the last table of a name.
        let index = (self.tables.len() > 32).then(|| self.table_index());
        self.settings.exposed.iter().filter_map(move |n| match &index {
            Some(index) => index.get(n.as_str()).copied(),
            None => self.tables.iter().rfind(|t| t.name == *n),
        })
    }
}

/// One `DEFINE TABLE` and its `DEFINE FIELD`s.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Table {
    /// The SurrealDB table name.
    pub name: String,
    /// The Rust type it was declared as.
    pub rust_name: String,
    /// The table's doc comment: its `COMMENT`, and what the prompt says about it.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub comment: Option<String>,
    /// A normal table or a relation (an edge between two tables).
    pub kind: TableKind,
    /// `SCHEMALESS` (rows may hold undeclared fields) instead of `SCHEMAFULL`.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub schemaless: bool,
    /// A relation's `ENFORCED`: both ends must exist when the edge is created (relations only).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub enforced: bool,
    /// The record id's key type, when the struct declares an `id` of a key type (`int`, `string`,
    /// `uuid`, `array`); `None`: any key. Defined as `DEFINE FIELD id ... TYPE ...`.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub id: Option<Type>,
    /// Table `PERMISSIONS`, per operation; `None` leaves the engine's default.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub permissions: Option<Permissions>,
    /// Declared fields in source order; the record id and a relation's `in`/`out` are not here.
    pub fields: Vec<Field>,
    /// `DEFINE INDEX`es on this table, in source order.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub indexes: Vec<Index>,
    /// Other words for what the table holds (`#[surqlc(aka("vendor", ...))]`): searched by
    /// question-specific pruning, never shown in the prompt.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub aka: Vec<String>,
    /// How a row reaches the end user it belongs to (`#[surqlc(owner = "in<-placed<-customer")]`),
    /// under the schema's `scope(end_user = ...)`: the scoped agent reads only the rows whose
    /// route reaches the signed-in user. `None`: shared (every user reads every row).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub owner: Option<String>,
    /// A view (`#[surqlc(view = "SELECT ...")]`): `DEFINE TABLE name TYPE NORMAL AS SELECT ...`,
    /// its rows computed by the engine from the tables the SELECT reads. The SELECT as written.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub view: Option<Expr>,
    /// `#[surqlc(renamed_from = "old")]`: the table's previous name, whose rows a plan moves here.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub renamed_from: Option<String>,
}

impl Table {
    /// The top-level field named `name` (database name); for a sub-field, see [`Table::field_at`].
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The field or sub-field at `path` (`address.country`; a `*` or `[*]` element step is
    /// skipped, so `images.*.url`, `images[*].url` and `images.url` are the same sub-field).
    pub fn field_at(&self, path: &str) -> Option<&Field> {
        let mut parts = path.split('.').map(|p| p.trim_end_matches("[*]")).filter(|p| *p != "*");
        let mut field = self.field(parts.next()?)?;
        for part in parts {
            field = field.fields.iter().find(|f| f.name == part)?;
        }
        Some(field)
    }

    /// Every field and sub-field with its path (`time`, `time.created_at`, `images.*.url`), a
    /// field's sub-fields right after it, in source order: one `DEFINE FIELD` each.
    pub fn field_paths(&self) -> Vec<(String, &Field)> {
        let mut out = Vec::with_capacity(self.fields.len());
        for f in &self.fields {
            f.with_paths(&f.name, &mut out);
        }
        out
    }
}

/// What kind of table it is: rows of their own, or edges between rows.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TableKind {
    /// `TYPE NORMAL`: a table of plain rows.
    Normal,
    /// `TYPE RELATION IN from OUT to`: the table names of both ends, each one table or several
    /// (`IN customer | supplier`, from an `Ends` enum), in source order.
    Relation {
        /// The tables an edge may start at (`IN`): its `in` field links to one of them.
        #[cfg_attr(feature = "ir-serde", serde(with = "one_or_many"))]
        from: Vec<String>,
        /// The tables an edge may end at (`OUT`): its `out` field links to one of them.
        #[cfg_attr(feature = "ir-serde", serde(with = "one_or_many"))]
        to: Vec<String>,
    },
}

/// A relation's end as JSON: a string when it is one table (as before ends could be several), else a list.
#[cfg(feature = "ir-serde")]
mod one_or_many {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &[String], s: S) -> Result<S::Ok, S::Error> {
        match v {
            [one] => one.serialize(s),
            many => many.serialize(s),
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
        Ok(match OneOrMany::deserialize(d)? {
            OneOrMany::One(one) => vec![one],
            OneOrMany::Many(many) => many,
        })
    }
}

/// One `DEFINE FIELD`: a field of a table (or a sub-field of an object field).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Field {
    /// The field name in the database (after `rename`/`rename_all`).
    pub name: String,
    /// The Rust field identifier, without `r#`.
    pub rust_name: String,
    /// The field's SurrealQL type, from its Rust type or `#[surqlc(type = "...")]`.
    pub ty: Type,
    /// The field's doc comment: its `COMMENT`, and what the prompt says about it.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub comment: Option<String>,
    /// `DEFAULT`, `VALUE`, `ASSERT`, ... : everything after the type.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub clauses: FieldClauses,
    /// Other words for the field (`#[surqlc(aka(...))]`): searched by pruning, never shown.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub aka: Vec<String>,
    /// The sub-fields of an object field (its type a `#[derive(Object)]` struct): each is its own
    /// `DEFINE FIELD parent.sub` (`parent.*.sub` under an array), names relative to this field,
    /// in source order. Empty for every other field.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub fields: Vec<Field>,
    /// `#[surqlc(renamed_from = "old")]`: the field's previous name, whose values a plan moves here.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub renamed_from: Option<String>,
}

impl Field {
    /// The path of the sub-field `sub` of this field, when this field's path is `path`: `path.sub`,
    /// with `.*` after `path` for each array level of this field's type (`images.*.url`): a field
    /// inside every element of an array, as SurrealDB 3.3 prints it (it reads `images[*].url` too,
    /// and `INFO FOR TABLE` gives that back as `images.*.url`).
    pub fn sub_path(&self, path: &str, sub: &str) -> String {
        let mut out = path.to_owned();
        let mut ty = &self.ty;
        loop {
            match ty {
                Type::Option(inner) => ty = inner,
                Type::Array(inner, _) => {
                    out.push_str(".*");
                    ty = inner;
                }
                _ => break,
            }
        }
        out.push('.');
        out.push_str(sub);
        out
    }

    /// This field and its sub-fields, depth first in source order, each with its path (this
    /// field's is `path`).
    pub fn with_paths<'a>(&'a self, path: &str, out: &mut Vec<(String, &'a Field)>) {
        out.push((path.to_owned(), self));
        for sub in &self.fields {
            sub.with_paths(&self.sub_path(path, &sub.name), out);
        }
    }
}

/// SurrealQL text of an expression as the schema wrote it (a `VALUE`, `ASSERT`, permission guard, ...).
pub type Expr = String;

/// The clauses of a `DEFINE FIELD` after its type. All empty is a plain typed field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FieldClauses {
    /// `DEFAULT expr` or `DEFAULT ALWAYS expr`.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub default: Option<FieldDefault>,
    /// `VALUE expr`: computed on every write and stored.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub value: Option<Expr>,
    /// `COMPUTED expr`: computed on every read, never stored (cannot be indexed).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub computed: Option<Expr>,
    /// `ASSERT expr`: checked on every write (`$value` is the new value).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub assert: Option<Expr>,
    /// `READONLY`: set once, refused on update.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub readonly: bool,
    /// `FLEXIBLE`: an object field that accepts keys it does not declare.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub flexible: bool,
    /// `REFERENCE`: a `record<...>` link the engine tracks, with what deleting the target does.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub reference: Option<Reference>,
    /// Field `PERMISSIONS` (select, create, update; the engine has no per-field delete).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub permissions: Option<Permissions>,
}

impl FieldClauses {
    /// Whether the field has no clause at all (a plain typed field).
    pub fn is_empty(&self) -> bool {
        *self == FieldClauses::default()
    }
}

/// A field's `DEFAULT`: the value a write that leaves the field out gets.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FieldDefault {
    /// The default value's expression, as written.
    pub expr: Expr,
    /// `DEFAULT ALWAYS`: also when an update sets the field to NONE.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub always: bool,
}

/// `REFERENCE [ON DELETE ...]`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Reference {
    /// `None`: the engine's default (`IGNORE`).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub on_delete: Option<OnDelete>,
}

/// What deleting the row a `REFERENCE` field links to does to the row holding the link.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub enum OnDelete {
    /// `ON DELETE REJECT`: the delete fails while a row links to it.
    Reject,
    /// `ON DELETE CASCADE`: the linking row is deleted too.
    Cascade,
    /// `ON DELETE IGNORE`: nothing happens; the link is left dangling.
    Ignore,
    /// `ON DELETE UNSET`: the link is removed from the linking row.
    Unset,
    /// `ON DELETE THEN expr`.
    Then(Expr),
}

/// One operation's permission.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Permission {
    /// `NONE`: no record user may do it.
    None,
    /// `FULL`: every record user may do it.
    Full,
    /// `WHERE expr`.
    Where(Expr),
}

/// `PERMISSIONS` per operation; `None` is the engine's default (`NONE` on a table, `FULL` on a field).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Permissions {
    /// `FOR select`: who may read the rows (or the field).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub select: Option<Permission>,
    /// `FOR create`: who may create rows (or set the field on a new row).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub create: Option<Permission>,
    /// `FOR update`: who may change rows (or the field).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub update: Option<Permission>,
    /// `FOR delete`: who may delete rows (tables only).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub delete: Option<Permission>,
}

/// One `DEFINE INDEX`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Index {
    /// The index name, unique on its table.
    pub name: String,
    /// Field names (database names) in index order.
    pub fields: Vec<String>,
    /// What the index does: plain, unique, full-text or vector.
    pub kind: IndexKind,
}

/// The kind of a `DEFINE INDEX`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub enum IndexKind {
    /// A plain index: faster lookups, duplicates allowed.
    Plain,
    /// `UNIQUE`: no two rows may hold the same values.
    Unique,
    /// `FULLTEXT ANALYZER a [BM25(k1, b)] [HIGHLIGHTS]`.
    FullText {
        /// The [`Analyzer`] that splits the text, by name.
        analyzer: String,
        /// `(k1, b)`; `None`: the engine's default scoring.
        #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
        bm25: Option<(f64, f64)>,
        /// `HIGHLIGHTS`: `search::highlight` can mark the matched words.
        #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
        highlights: bool,
    },
    /// A vector index for nearest-neighbour search (`<|k, ef|>`).
    Hnsw(Hnsw),
}

/// `HNSW DIMENSION d DIST ... TYPE ... [EFC n] [M n]`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Hnsw {
    /// The length of every vector the field holds.
    pub dimension: u32,
    /// Upper case, as the engine prints it: `COSINE`, `EUCLIDEAN`, `MANHATTAN`, ...
    pub dist: String,
    /// Upper case: `F64`, `F32`, `I64`, `I32`, `I16`.
    pub vector_type: String,
    /// `EFC n`: the search breadth while building the graph; `None`: the engine's default.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub efc: Option<u32>,
    /// `M n`: the links per node in the graph; `None`: the engine's default.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub m: Option<u32>,
}

/// `DEFINE ANALYZER name TOKENIZERS ... FILTERS ...`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Analyzer {
    /// The name full-text indexes use it by.
    pub name: String,
    /// Lower case: `blank`, `camel`, `class`, `punct`.
    pub tokenizers: Vec<String>,
    /// As written: `lowercase`, `ascii`, `snowball(english)`, `edgengram(2, 10)`, ...
    pub filters: Vec<String>,
    /// Its `COMMENT`, if any.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub comment: Option<String>,
}

/// One user function: `DEFINE FUNCTION fn::name($a: kind, ...) -> kind { ... } COMMENT '...'`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Function {
    /// The name as queries call it, `fn::` included: `fn::pound_to_usd`.
    pub name: String,
    /// Each parameter's name (without `$`) and type, in order.
    pub args: Vec<(String, Kind)>,
    /// The declared return type; `None`: not declared (any).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub returns: Option<Kind>,
    /// Its `COMMENT`: what the prompt says the function does.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub comment: Option<String>,
    /// Whether the agent may call it: its `PERMISSIONS` are not `NONE` (a `NONE` function is the
    /// application's: the prompt does not list it and the validator reads it as unknown).
    pub agent: bool,
    /// The whole statement as the engine prints it, with `OVERWRITE` (what `schema.surql` writes).
    pub definition: String,
}

/// A SurrealQL field type.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Type {
    /// `any`: every value.
    Any,
    /// `bool` (Rust `bool`).
    Bool,
    /// `int`: a 64-bit integer (Rust's integer types).
    Int,
    /// `float`: a 64-bit float (`f32`, `f64`).
    Float,
    /// `decimal`: an exact decimal number.
    Decimal,
    /// `number`: an int, a float or a decimal, whichever the value is (`runtime::Number`).
    Number,
    /// `string` (`String`, `&str`).
    String,
    /// `datetime`: a point in time, UTC.
    Datetime,
    /// `duration`: a length of time (`1h30m`).
    Duration,
    /// `uuid`.
    Uuid,
    /// `bytes`: raw binary data (a `Bytes` field).
    Bytes,
    /// `object`: a nested document with any keys (a `#[derive(Object)]` field has typed sub-fields).
    Object,
    /// `option<T>`: the value or NONE (Rust `Option<T>`).
    Option(Box<Type>),
    /// `array<T>` or `array<T, N>`.
    Array(Box<Type>, Option<u64>),
    /// `record<t>`: a link to a row of table `t`.
    Record(String),
    /// `record<a | b>`: a link to a row of any of these tables (two or more, from an `Ends` enum).
    Records(Vec<String>),
    /// `'a' | 'b'`: the values of a unit-only enum.
    Literal(Vec<String>),
    /// An explicit `#[surqlc(type = "...")]`: emitted as written, read once by the front end.
    Raw(RawType),
}

/// A relation end or a record union as SurrealQL writes it: `customer | supplier`.
pub fn union_text(tables: &[String]) -> String {
    tables.join(" | ")
}

impl Type {
    /// The tables a `record<t>` or `record<a | b>` (or an option or array of one) links to.
    pub fn linked_tables(&self) -> &[String] {
        match self {
            Type::Record(t) => std::slice::from_ref(t),
            Type::Records(ts) => ts,
            Type::Option(inner) | Type::Array(inner, _) => inner.linked_tables(),
            _ => &[],
        }
    }

    /// The table a `record<t>` (or an option or array of one) links to.
    pub fn linked_table(&self) -> Option<&str> {
        match self {
            Type::Record(t) => Some(t),
            Type::Option(inner) | Type::Array(inner, _) => inner.linked_table(),
            _ => None,
        }
    }
}

/// A type written by hand in `#[surqlc(type = "...")]`, read by [`crate::surql::kind::parse`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RawType {
    /// The text as written; `schema.surql` emits it verbatim after `TYPE`.
    pub text: String,
    /// The type at its start.
    pub kind: Kind,
    /// What follows the type (`ASSERT ...`, `DEFAULT ...`), trimmed and verbatim; empty when nothing does.
    pub clauses: String,
}

/// A SurrealQL type in the engine's own terms (`surrealdb-sql`'s `Kind`): `option<T>` is a union
/// with `none`, unions are flat and without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Kind {
    /// A kind without arguments, lower case: `any`, `none`, `int`, `object`, `record`, `geometry`, ...
    Named(String),
    /// `geometry<point | polygon>`, `table<a | b>`, `file<bucket>`: the kind's name and its arguments.
    Parameterized(String, Vec<String>),
    /// `array<T>` or `array<T, N>` (at most `N` elements).
    Array(Box<Kind>, Option<u64>),
    /// `set<T>` or `set<T, N>`: an array without repeats.
    Set(Box<Kind>, Option<u64>),
    /// `record<a | b>` (at least one table; a bare `record` is `Named`).
    Record(Vec<String>),
    /// `a | b`: a value of any of these kinds (two or more; build it with [`Kind::either`]).
    Either(Vec<Kind>),
    /// A literal: `'a'`, `1`, `true`, `[int, string]`, `{ a: int }`.
    Literal(KindLiteral),
}

/// A literal type: the one value a field of this kind may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub enum KindLiteral {
    /// `'text'`: this string.
    String(String),
    /// `42`: this integer.
    Integer(i64),
    /// `true` or `false`.
    Bool(bool),
    /// `[int, string]`: an array of exactly these kinds, in order.
    Array(Vec<Kind>),
    /// Keys in the order written (the engine sorts them when it prints).
    Object(Vec<(String, Kind)>),
}

impl Kind {
    /// The union of `kinds`, flattened and without repeats, as the engine builds it; one member stands alone.
    pub fn either(kinds: Vec<Kind>) -> Kind {
        let mut flat: Vec<Kind> = Vec::new();
        for kind in kinds {
            let members = match kind {
                Kind::Either(inner) => inner,
                other => vec![other],
            };
            for m in members {
                if !flat.contains(&m) {
                    flat.push(m);
                }
            }
        }
        if flat.len() == 1 {
            flat.remove(0)
        } else {
            Kind::Either(flat)
        }
    }

    /// `T` of `option<T>`, which the engine keeps as the union `none | T`: the one other member of a
    /// union with `none`.
    pub fn optional_inner(&self) -> Option<&Kind> {
        let Kind::Either(members) = self else {
            return None;
        };
        let mut some = members.iter().filter(|k| !matches!(k, Kind::Named(n) if n == "none"));
        match (some.next(), some.next()) {
            (Some(one), None) if members.len() > 1 => Some(one),
            _ => None,
        }
    }

    /// Whether this is `any` (which every value fits).
    pub fn is_any(&self) -> bool {
        matches!(self, Kind::Named(n) if n == "any")
    }
}

/// A unit-only enum: its Rust name and the string each variant is stored as.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LiteralEnum {
    /// The Rust enum's name.
    pub rust_name: String,
    /// The enum's doc comment: what its values mean, given to fields of this type.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub comment: Option<String>,
    /// `(rust variant, stored value)` in source order.
    pub variants: Vec<(String, String)>,
    /// The doc comment of each documented variant, by stored value (what the value means).
    #[cfg_attr(
        feature = "ir-serde",
        serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")
    )]
    pub variant_docs: std::collections::BTreeMap<String, String>,
}

impl LiteralEnum {
    /// The literal union this enum stands for; values sorted as SurrealDB renders them.
    pub fn ty(&self) -> Type {
        Type::Literal(self.variants.iter().map(|(_, v)| v.clone()).collect())
    }
}

#[cfg(feature = "ir-serde")]
fn yes() -> bool {
    true
}

#[cfg(feature = "ir-serde")]
fn unset<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

mod settings;
pub use settings::*;
