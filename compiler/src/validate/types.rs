//! The type the resolver gives every expression: the IR's field types plus what queries build (rows, objects, arrays).

use crate::ir;
use std::fmt;

/// The type of a value a query computes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// Not known statically (a parameter, a custom function, a raw field type): never checked.
    Any,
    /// `none`: no value (what a custom function declared `-> none` returns).
    None,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `float`.
    Float,
    /// `decimal`.
    Decimal,
    /// A number whose kind depends on the data (`math::mean`, mixed arithmetic).
    Number,
    /// `string`.
    String,
    /// `datetime`.
    Datetime,
    /// `duration`.
    Duration,
    /// `uuid`.
    Uuid,
    /// `bytes`.
    Bytes,
    /// One of these strings.
    Literal(Vec<String>),
    /// A row of the table, or a link to one (a record id): field access follows it.
    Record(String),
    /// An array of values of this type.
    Array(Box<Ty>),
    /// The value or NONE.
    Option(Box<Ty>),
    /// An object with these keys, in projection order (a subquery's row).
    Object(Vec<(String, Ty)>),
    /// An object whose keys are not known.
    AnyObject,
    /// The key of a record id whose table does not declare its key type (`record::id(x)`).
    RecordKey,
}

impl Ty {
    /// The type of a value of schema type `ty` (`Any` for what the validator cannot follow: a raw type,
    /// a link to one of several tables).
    pub fn of(ty: &ir::Type) -> Ty {
        match ty {
            ir::Type::Any => Ty::Any,
            // A hand-written type (`object FLEXIBLE`, `option<array<string>>`): what its kind says.
            ir::Type::Raw(raw) => Ty::of_kind(&raw.kind),
            ir::Type::Bool => Ty::Bool,
            ir::Type::Int => Ty::Int,
            ir::Type::Float => Ty::Float,
            ir::Type::Decimal => Ty::Decimal,
            ir::Type::String => Ty::String,
            ir::Type::Datetime => Ty::Datetime,
            ir::Type::Duration => Ty::Duration,
            ir::Type::Uuid => Ty::Uuid,
            ir::Type::Bytes => Ty::Bytes,
            ir::Type::Number => Ty::Number,
            ir::Type::Object => Ty::AnyObject,
            ir::Type::Option(t) => Ty::Option(Box::new(Ty::of(t))),
            ir::Type::Array(t, _) => Ty::Array(Box::new(Ty::of(t))),
            ir::Type::Record(t) => Ty::Record(t.clone()),
            // A link to one of several tables: which one is known per row only, so not checked.
            ir::Type::Records(_) => Ty::Any,
            ir::Type::Literal(values) => Ty::Literal(values.clone()),
        }
    }

    /// The type of a value of the schema's kind `kind` (`Any` where the validator cannot follow it:
    /// a geometry, a link to one of several tables, a union).
    pub fn of_kind(kind: &ir::Kind) -> Ty {
        match kind {
            ir::Kind::Named(n) => match n.as_str() {
                "bool" => Ty::Bool,
                "int" => Ty::Int,
                "float" => Ty::Float,
                "decimal" => Ty::Decimal,
                "number" => Ty::Number,
                "string" => Ty::String,
                "datetime" => Ty::Datetime,
                "duration" => Ty::Duration,
                "uuid" => Ty::Uuid,
                "bytes" => Ty::Bytes,
                "object" => Ty::AnyObject,
                _ => Ty::Any,
            },
            ir::Kind::Array(inner, _) | ir::Kind::Set(inner, _) => match Ty::of_kind(inner) {
                Ty::Any => Ty::Any,
                t => Ty::array(t),
            },
            ir::Kind::Record(tables) if tables.len() == 1 => Ty::Record(tables[0].clone()),
            ir::Kind::Either(members)
                if members
                    .iter()
                    .all(|m| matches!(m, ir::Kind::Literal(ir::KindLiteral::String(_)))) =>
            {
                Ty::Literal(
                    members
                        .iter()
                        .filter_map(|m| match m {
                            ir::Kind::Literal(ir::KindLiteral::String(s)) => Some(s.clone()),
                            _ => None,
                        })
                        .collect(),
                )
            }
            ir::Kind::Either(_) => match kind.optional_inner().map(Ty::of_kind) {
                None | Some(Ty::Any) => Ty::Any,
                Some(t) => Ty::Option(Box::new(t)),
            },
            _ => Ty::Any,
        }
    }

    /// A field's type; an object field with sub-fields (`#[derive(Object)]`) is an object of
    /// them, inside the options and arrays its type has (`array<object>`: an array of them).
    pub fn of_field(field: &ir::Field) -> Ty {
        if field.fields.is_empty() {
            return Ty::of(&field.ty);
        }
        let object = Ty::Object(field.fields.iter().map(|f| (f.name.clone(), Ty::of_field(f))).collect());
        fn wrap(ty: &ir::Type, object: Ty) -> Ty {
            match ty {
                ir::Type::Option(t) => Ty::Option(Box::new(wrap(t, object))),
                ir::Type::Array(t, _) => Ty::Array(Box::new(wrap(t, object))),
                _ => object,
            }
        }
        wrap(&field.ty, object)
    }

    /// A SELECT's row as the engine builds it from its projections (names and types in order):
    /// a projection named by a plain path (`seller.name`, `time.created_at`) is set at that path,
    /// so it nests (`{ seller: { name } }`) and projections under one name share its object; any
    /// other name (an alias, `count()`, `->placed->order`) is one key.
    pub fn nested_row(row: &[(String, Ty)]) -> Ty {
        let mut out: Vec<(String, Ty)> = Vec::new();
        for (name, ty) in row {
            match plain_path(name) {
                Some(parts) => set_at(&mut out, &parts, ty),
                None => set_at(&mut out, &[name.as_str()], ty),
            }
        }
        Ty::Object(out)
    }

    /// Whether a projection's key `name` is a path of two or more plain names (`seller.name`):
    /// the engine nests the value there.
    pub fn is_nested_key(name: &str) -> bool {
        plain_path(name).is_some()
    }

    /// `array<inner>`.
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

    /// The kind's name when a value of this type is certainly one scalar (an option of one
    /// included): no elements to index, no fields, no graph edges. `None` for anything that
    /// may hold more (arrays, objects, records, bytes) or is not known.
    pub fn scalar_kind(&self) -> Option<&'static str> {
        match self {
            Ty::Option(t) => t.scalar_kind(),
            Ty::Bool => Some("bool"),
            Ty::Int => Some("int"),
            Ty::Float => Some("float"),
            Ty::Decimal => Some("decimal"),
            Ty::Number => Some("number"),
            Ty::String | Ty::Literal(_) => Some("string"),
            Ty::Datetime => Some("datetime"),
            Ty::Duration => Some("duration"),
            Ty::Uuid => Some("uuid"),
            _ => None,
        }
    }

    /// Whether its values (or its elements') are numbers of some kind.
    pub fn is_numeric(&self) -> bool {
        matches!(self.element(), Ty::Int | Ty::Float | Ty::Decimal | Ty::Number)
    }
}

/// `name`'s parts when it is a path of two or more plain names (`seller.name`).
fn plain_path(name: &str) -> Option<Vec<&str>> {
    let parts: Vec<&str> = name.split('.').collect();
    (parts.len() > 1 && parts.iter().all(|p| crate::surql::is_plain_ident(p))).then_some(parts)
}

/// Sets `ty` at `path` in an object's keys, as the engine sets a projection: a later value at a
/// key replaces the earlier one, and a path through a key that holds no object makes it one.
fn set_at(keys: &mut Vec<(String, Ty)>, path: &[&str], ty: &Ty) {
    let Some((head, rest)) = path.split_first() else {
        return;
    };
    let at = match keys.iter().position(|(k, _)| k == head) {
        Some(at) => at,
        None => {
            keys.push(((*head).to_owned(), Ty::Object(Vec::new())));
            keys.len() - 1
        }
    };
    if rest.is_empty() {
        keys[at].1 = ty.clone();
        return;
    }
    if !matches!(keys[at].1, Ty::Object(_)) {
        keys[at].1 = Ty::Object(Vec::new());
    }
    if let Ty::Object(inner) = &mut keys[at].1 {
        set_at(inner, rest, ty);
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
                let quoted: Vec<String> = values.iter().map(|v| crate::surql::quote_string(v)).collect();
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
