//! The type the resolver gives every expression: the IR's field types plus what queries build (rows, objects, arrays).

use crate::ir;
use std::fmt;

/// The type of a value a query computes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// Not known statically (a parameter, a custom function, a raw field type): never checked.
    Any,
    None,
    Bool,
    Int,
    Float,
    Decimal,
    /// A number whose kind depends on the data (`math::mean`, mixed arithmetic).
    Number,
    String,
    Datetime,
    Duration,
    Uuid,
    Bytes,
    /// One of these strings.
    Literal(Vec<String>),
    /// A row of the table, or a link to one (a record id): field access follows it.
    Record(String),
    Array(Box<Ty>),
    Option(Box<Ty>),
    /// An object with these keys, in projection order (a subquery's row).
    Object(Vec<(String, Ty)>),
    /// An object whose keys are not known.
    AnyObject,
    /// The key of a record id whose table does not declare its key type (`record::id(x)`).
    RecordKey,
}

impl Ty {
    pub fn of(ty: &ir::Type) -> Ty {
        match ty {
            ir::Type::Any | ir::Type::Raw(_) => Ty::Any,
            ir::Type::Bool => Ty::Bool,
            ir::Type::Int => Ty::Int,
            ir::Type::Float => Ty::Float,
            ir::Type::Decimal => Ty::Decimal,
            ir::Type::String => Ty::String,
            ir::Type::Datetime => Ty::Datetime,
            ir::Type::Duration => Ty::Duration,
            ir::Type::Uuid => Ty::Uuid,
            ir::Type::Bytes => Ty::Bytes,
            ir::Type::Object => Ty::AnyObject,
            ir::Type::Option(t) => Ty::Option(Box::new(Ty::of(t))),
            ir::Type::Array(t, _) => Ty::Array(Box::new(Ty::of(t))),
            ir::Type::Record(t) => Ty::Record(t.clone()),
            // A link to one of several tables: which one is known per row only, so not checked.
            ir::Type::Records(_) => Ty::Any,
            ir::Type::Literal(values) => Ty::Literal(values.clone()),
        }
    }

    pub fn array(inner: Ty) -> Ty {
        Ty::Array(Box::new(inner))
    }

    /// The type of one element: an array's item, an option's content, else itself.
    pub fn element(&self) -> &Ty {
        match self {
            Ty::Array(t) | Ty::Option(t) => t.element(),
            t => t,
        }
    }

    /// The literal values this type allows, seen through arrays and options.
    pub fn literal_values(&self) -> Option<&[String]> {
        match self.element() {
            Ty::Literal(values) => Some(values),
            _ => None,
        }
    }

    pub fn is_numeric(&self) -> bool {
        matches!(
            self.element(),
            Ty::Int | Ty::Float | Ty::Decimal | Ty::Number
        )
    }
}

impl fmt::Display for Ty {
    /// The type as SurrealQL spells it (`record<product>`, `array<string>`, `"a" | "b"`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Any => f.write_str("any"),
            Ty::None => f.write_str("none"),
            Ty::Bool => f.write_str("bool"),
            Ty::Int => f.write_str("int"),
            Ty::Float => f.write_str("float"),
            Ty::Decimal => f.write_str("decimal"),
            Ty::Number => f.write_str("number"),
            Ty::String => f.write_str("string"),
            Ty::Datetime => f.write_str("datetime"),
            Ty::Duration => f.write_str("duration"),
            Ty::Uuid => f.write_str("uuid"),
            Ty::Bytes => f.write_str("bytes"),
            Ty::Literal(values) => {
                let quoted: Vec<String> = values
                    .iter()
                    .map(|v| crate::surql::quote_string(v))
                    .collect();
                f.write_str(&quoted.join(" | "))
            }
            Ty::Record(t) => write!(f, "record<{t}>"),
            Ty::Array(t) => write!(f, "array<{t}>"),
            Ty::Option(t) => write!(f, "option<{t}>"),
            Ty::Object(fields) => {
                f.write_str("{ ")?;
                for (i, (k, t)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {t}")?;
                }
                f.write_str(" }")
            }
            Ty::AnyObject => f.write_str("object"),
            Ty::RecordKey => f.write_str("int | string | uuid | array | object"),
        }
    }
}
