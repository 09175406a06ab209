//! The schema as surqlc understands it: plain data, no `syn`, no output format.
//!
//! The front end (`front`) builds it from Rust source, the derives build the same
//! values at run time, and every back end (`surql`, `emit`, `rustgen`, `tokens`)
//! reads only this.

/// A whole schema: its tables in source order and the prompt settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    /// The schema's name (the `#[derive(Schema)]` type, or the file stem).
    pub name: String,
    /// The Rust type that carried the settings, if any.
    pub rust_name: Option<String>,
    pub tables: Vec<Table>,
    /// Unit-only enums, in source order; referenced by fields as `Type::Literal`.
    pub enums: Vec<LiteralEnum>,
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
        let index = self.table_index();
        self.settings
            .exposed
            .iter()
            .filter_map(move |n| index.get(n.as_str()).copied())
    }
}

/// One `DEFINE TABLE` and its `DEFINE FIELD`s.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The SurrealDB table name.
    pub name: String,
    /// The Rust type it was declared as.
    pub rust_name: String,
    pub comment: Option<String>,
    pub kind: TableKind,
    /// Declared fields in source order; the record id and a relation's `in`/`out` are not here.
    pub fields: Vec<Field>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableKind {
    Normal,
    /// `TYPE RELATION IN from OUT to`: the table names of both ends.
    Relation {
        from: String,
        to: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The field name in the database (after `rename`/`rename_all`).
    pub name: String,
    /// The Rust field identifier, without `r#`.
    pub rust_name: String,
    pub ty: Type,
    pub comment: Option<String>,
}

/// A SurrealQL field type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    Any,
    Bool,
    Int,
    Float,
    Decimal,
    String,
    Datetime,
    Duration,
    Uuid,
    Bytes,
    Object,
    Option(Box<Type>),
    /// `array<T>` or `array<T, N>`.
    Array(Box<Type>, Option<u64>),
    /// `record<t>`: a link to a row of table `t`.
    Record(String),
    /// `'a' | 'b'`: the values of a unit-only enum.
    Literal(Vec<String>),
    /// An explicit `#[surqlc(type = "...")]`, emitted verbatim.
    Raw(String),
}

/// A unit-only enum: its Rust name and the string each variant is stored as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiteralEnum {
    pub rust_name: String,
    pub comment: Option<String>,
    /// `(rust variant, stored value)` in source order.
    pub variants: Vec<(String, String)>,
}

impl LiteralEnum {
    /// The literal union this enum stands for; values sorted as SurrealDB renders them.
    pub fn ty(&self) -> Type {
        Type::Literal(self.variants.iter().map(|(_, v)| v.clone()).collect())
    }
}

/// Schema-wide settings: what the prompt shows and how the agent is set up.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Table names the prompt exposes, in prompt order.
    pub exposed: Vec<String>,
    /// Fields whose present values `fn::value_hints` lists.
    pub value_hints: Vec<FieldRef>,
    pub examples: ExampleSettings,
    pub agent: AgentSettings,
    /// The row limit the default rules ask the model for.
    pub max_rows: u32,
    /// Whether the schema block drops `TYPE NORMAL` and a relation's derived `in`/`out` lines.
    pub compact: bool,
    /// Token budgets the schema sets for itself; checked by `surqlc audit` and `build.rs`.
    pub budget: Budget,
}

/// Token budgets for the schema block (counted in the audit's encoding, `o200k_base` unless told).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Budget {
    /// The most tokens the whole block may cost.
    pub block: Option<u32>,
    /// The most tokens any one table may cost.
    pub table: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldRef {
    pub table: String,
    pub field: String,
}

/// The few-shot pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExampleSettings {
    pub table: String,
    /// Embedding dimension of the HNSW index.
    pub dimension: u32,
    /// How many examples the prompt shows.
    pub k: u32,
    /// HNSW search breadth.
    pub ef: u32,
}

/// The read-only `VIEWER` user that runs generated queries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSettings {
    pub user: String,
    pub token_duration: String,
    pub session_duration: String,
}

impl Default for Settings {
    /// No tables exposed, no value hints, the default pool and agent, 50 rows, the engine rendering, no budget.
    fn default() -> Self {
        Settings {
            exposed: Vec::new(),
            value_hints: Vec::new(),
            examples: Default::default(),
            agent: Default::default(),
            max_rows: 50,
            compact: false,
            budget: Default::default(),
        }
    }
}

impl Default for ExampleSettings {
    fn default() -> Self {
        ExampleSettings {
            table: "query_example".into(),
            dimension: 384,
            k: 3,
            ef: 40,
        }
    }
}

impl Default for AgentSettings {
    fn default() -> Self {
        AgentSettings {
            user: "agent".into(),
            token_duration: "1h".into(),
            session_duration: "12h".into(),
        }
    }
}
