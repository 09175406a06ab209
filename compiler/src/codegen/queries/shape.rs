//! A named query's Rust face as plain data: its arguments, its row (a generated struct, a table's own struct, or a value) and how each is spelled in Rust.

use crate::surql::named::NamedQuery;

/// A Rust type a query's argument or row field has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RType {
    Bool,
    /// `i64`: the engine's integers.
    Int,
    /// `f64`.
    Float,
    Decimal,
    /// A number whose kind depends on the data (`runtime::Number`).
    Number,
    String,
    Datetime,
    Duration,
    Uuid,
    Bytes,
    /// An object whose keys the schema does not know (`runtime::Value`).
    Value,
    /// A record id's key of any type (`runtime::RecordIdKey`): a table that declares no key type.
    Key,
    /// A Literal enum of the schema, by its Rust name.
    Enum(String),
    /// `Link<T>`: a record id of the table whose Rust type is named.
    Link(String),
    /// `Record<T>`: a whole row of the table whose Rust type is named, with its id.
    Row(String),
    Vec(Box<RType>),
    Option(Box<RType>),
    /// A struct generated for the query (its name).
    Struct(String),
    /// A table's generated input (`customer::Input`), or with `partial` its `Patch` (`MERGE $x`):
    /// the table module's name.
    Input {
        module: String,
        partial: bool,
    },
    /// `()`: what an `:exec` query answers.
    Unit,
}

impl RType {
    /// The type as Rust spells it, user types under `types` (as seen from the `queries` module).
    pub fn rust(&self, types: &str) -> String {
        let rt = "::surqlc::runtime";
        match self {
            RType::Bool => "bool".into(),
            RType::Int => "i64".into(),
            RType::Float => "f64".into(),
            RType::Decimal => format!("{rt}::Decimal"),
            RType::Number => format!("{rt}::Number"),
            RType::String => "::std::string::String".into(),
            RType::Datetime => format!("{rt}::Datetime"),
            RType::Duration => format!("{rt}::Duration"),
            RType::Uuid => format!("{rt}::Uuid"),
            RType::Bytes => format!("{rt}::Bytes"),
            RType::Value => format!("{rt}::Value"),
            RType::Key => format!("{rt}::RecordIdKey"),
            RType::Enum(name) => format!("{types}::{name}"),
            RType::Link(name) => format!("{rt}::Link<{types}::{name}>"),
            RType::Row(name) => format!("{rt}::Record<{types}::{name}>"),
            RType::Vec(t) => format!("::std::vec::Vec<{}>", t.rust(types)),
            RType::Option(t) => format!("::std::option::Option<{}>", t.rust(types)),
            RType::Struct(name) => name.clone(),
            // The `queries` module is a sibling of the table modules.
            RType::Input { module, partial } => {
                format!("super::{module}::{}", if *partial { "Patch" } else { "Input" })
            }
            RType::Unit => "()".into(),
        }
    }

    /// An argument's type: strings are borrowed, everything else is taken by value.
    pub fn argument(&self, types: &str) -> String {
        match self {
            RType::String => "&str".into(),
            other => other.rust(types),
        }
    }

    /// The expression that turns argument `name` into the value bound to the query.
    pub fn bind(&self, name: &str) -> String {
        match self {
            RType::String => format!("::surqlc::runtime::Value::String({name}.to_owned())"),
            _ => format!("::surqlc::runtime::SurrealValue::into_value({name})"),
        }
    }
}

/// One field of a generated row struct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldShape {
    /// The key in the engine's row (the alias, or the field's name).
    pub key: String,
    /// The Rust field name.
    pub ident: String,
    pub ty: RType,
}

/// A struct generated for a query's rows (or an object nested in them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructShape {
    pub name: String,
    pub fields: Vec<FieldShape>,
}

/// One argument: the `$param` without its `$`, in order of first appearance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamShape {
    pub name: String,
    pub ident: String,
    pub ty: RType,
}

/// What a query's function takes and what each row is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub params: Vec<ParamShape>,
    /// The type of one row (or one value, for `SELECT VALUE`).
    pub row: RType,
    /// The structs `row` names, the row's own first.
    pub structs: Vec<StructShape>,
}

/// A named query read from its file and, when the `validate` feature typed it, its Rust face.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    pub named: NamedQuery,
    /// The file it was read from (`surqlc mcp --queries` names it in its errors).
    pub path: std::path::PathBuf,
    /// `None` without the `validate` feature (the query was read, not typed).
    pub shape: Option<Shape>,
}

impl std::ops::Deref for Query {
    type Target = NamedQuery;
    fn deref(&self) -> &NamedQuery {
        &self.named
    }
}

/// `revenue_by_category` → `RevenueByCategory`.
pub fn struct_name(name: &str) -> String {
    let mut out = String::new();
    for part in name.split('_').filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(c) = chars.next() {
            out.extend(c.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'Q');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_spelled_with_full_paths() {
        let t = RType::Vec(Box::new(RType::Option(Box::new(RType::Link("Product".into())))));
        assert_eq!(
            t.rust("crate::store"),
            "::std::vec::Vec<::std::option::Option<::surqlc::runtime::Link<crate::store::Product>>>"
        );
        assert_eq!(RType::String.argument("x"), "&str");
        assert_eq!(struct_name("revenue_by_category"), "RevenueByCategory");
        assert_eq!(struct_name("q2_top"), "Q2Top");
        assert_eq!(struct_name("_x"), "X");
        let patch = RType::Input {
            module: "customer".into(),
            partial: true,
        };
        assert_eq!(patch.argument("x"), "super::customer::Patch");
        assert_eq!(RType::Unit.rust("x"), "()");
    }
}
