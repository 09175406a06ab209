//! SurrealDB 3.3.5's built-in functions as a SELECT calls them: arity, argument kinds, result and whether they aggregate, each entry called on the embedded engine by tests/functions.rs.
//!
//! The table follows the engine's own argument conversion (`surrealdb-runtime`'s `FromArgs`,
//! dispatched in `surrealdb-core`'s `fnc::synchronous`/`asynchronous`): an argument is coerced,
//! never cast, so a string where a number, datetime or record is wanted fails at run time. The
//! names are those of the parser's path table (`surrealdb_sql::builtin_paths::PATHS`) outside the
//! modules an agent's read-only SELECT has no use for (`api`, `file`, `http`, `eval`,
//! `sequence`, `sleep`): those are left unchecked.

use super::types::Ty;
use std::fmt;

/// What one argument must be, as the engine coerces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Anything (the function inspects the value itself).
    Any,
    /// `true` or `false`.
    Bool,
    /// An integer, or a float/decimal that is a whole number.
    Int,
    /// A float; any number is converted.
    Float,
    /// Any number: int, float or decimal.
    Number,
    /// A string.
    String,
    /// A datetime (`d'2024-01-01T00:00:00Z'`), not a string spelling one.
    Datetime,
    /// A duration (`1h`).
    Duration,
    /// A uuid (`u'...'`), not a string spelling one.
    Uuid,
    /// Bytes.
    Bytes,
    /// An array of anything.
    Array,
    /// `array<number>`.
    Numbers,
    /// `array<datetime>`.
    Datetimes,
    /// `array<string>`.
    Strings,
    /// `array<array<number>>` (vectors).
    Vectors,
    /// An object.
    Object,
    /// A record id (`table:key`), not a string spelling one.
    Record,
    /// A set (an array is accepted).
    Set,
    /// A geometry: a point `(x, y)` or a GeoJSON object.
    Geometry,
    /// A closure `|$x| ...`.
    Closure,
}

impl Kind {
    /// The kind as SurrealQL spells the type.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Any => "any",
            Kind::Bool => "bool",
            Kind::Int => "int",
            Kind::Float => "float",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Datetime => "datetime",
            Kind::Duration => "duration",
            Kind::Uuid => "uuid",
            Kind::Bytes => "bytes",
            Kind::Array => "array",
            Kind::Numbers => "array<number>",
            Kind::Datetimes => "array<datetime>",
            Kind::Strings => "array<string>",
            Kind::Vectors => "array<array<number>>",
            Kind::Object => "object",
            Kind::Record => "record",
            Kind::Set => "set",
            Kind::Geometry => "geometry",
            Kind::Closure => "function",
        }
    }

    /// A literal of this kind, for fixes and for calling every function on the engine.
    pub fn sample(self) -> &'static str {
        match self {
            Kind::Any | Kind::Int | Kind::Number => "1",
            Kind::Bool => "true",
            Kind::Float => "1.5",
            Kind::String => "'a'",
            Kind::Datetime => "d'2024-01-01T00:00:00Z'",
            Kind::Duration => "1h",
            Kind::Uuid => "u'0190d9a5-0f4e-7c3a-8a5b-6c7d8e9fa0b1'",
            Kind::Bytes => "<bytes>'a'",
            Kind::Array | Kind::Numbers => "[1, 2]",
            Kind::Datetimes => "[d'2024-01-01T00:00:00Z', d'2024-02-01T00:00:00Z']",
            Kind::Strings => "['a', 'b']",
            Kind::Vectors => "[[1, 2], [3, 4]]",
            Kind::Object => "{ a: 1 }",
            Kind::Record => "thing:one",
            Kind::Set => "{1, 2}",
            Kind::Geometry => "(1.5, 2.5)",
            Kind::Closure => "|$x| $x",
        }
    }
}

impl Kind {
    /// The type a value of this kind has, for a call's result (`Any` where the kind says little).
    pub fn ty(self) -> Ty {
        match self {
            Kind::Bool => Ty::Bool,
            Kind::Int => Ty::Int,
            Kind::Float => Ty::Float,
            Kind::Number => Ty::Number,
            Kind::String => Ty::String,
            Kind::Datetime => Ty::Datetime,
            Kind::Duration => Ty::Duration,
            Kind::Uuid => Ty::Uuid,
            Kind::Bytes => Ty::Bytes,
            Kind::Array | Kind::Set => Ty::array(Ty::Any),
            Kind::Numbers => Ty::array(Ty::Number),
            Kind::Datetimes => Ty::array(Ty::Datetime),
            Kind::Strings => Ty::array(Ty::String),
            Kind::Vectors => Ty::array(Ty::array(Ty::Number)),
            Kind::Object => Ty::AnyObject,
            Kind::Any | Kind::Record | Kind::Geometry | Kind::Closure => Ty::Any,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One built-in function: `min` required arguments of `args`, the rest optional, then any number
/// of `variadic` ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// The full name as the parser spells it (`math::sum`, `count`).
    pub name: &'static str,
    /// The kind of each fixed argument, in order.
    pub args: &'static [Kind],
    /// How many of `args` a call must give.
    pub min: usize,
    /// The kind of any number of further arguments; `None`: no more than `args`.
    pub variadic: Option<Kind>,
    /// The kind of the result.
    pub returns: Kind,
    /// Whether the engine folds it over a group's rows under GROUP BY / GROUP ALL (its
    /// aggregate registry: count, math::sum/mean/min/max/median/stddev/variance, time::min/max,
    /// array::group/distinct/join, vector::sum). Any other function under GROUP BY is computed
    /// per row and its results collected into an array.
    pub aggregate: bool,
}

impl Signature {
    /// The most arguments it takes (`None`: any number).
    pub fn max(&self) -> Option<usize> {
        match self.variadic {
            Some(_) => None,
            None => Some(self.args.len()),
        }
    }

    /// Whether `n` arguments are accepted.
    pub fn accepts(&self, n: usize) -> bool {
        n >= self.min && self.max().is_none_or(|max| n <= max)
    }

    /// The kind of argument `i` (0-based), if it has one.
    pub fn arg(&self, i: usize) -> Option<Kind> {
        self.args.get(i).copied().or(self.variadic)
    }

    /// `takes 1 argument`, `takes 1 or 2 arguments`, `takes at least 1 argument`.
    pub fn arity(&self) -> String {
        let plural = |n: usize| if n == 1 { "argument" } else { "arguments" };
        match self.max() {
            Some(0) => "takes no arguments".to_owned(),
            Some(max) if max == self.min => format!("takes {max} {}", plural(max)),
            Some(max) if max == self.min + 1 => {
                format!("takes {} or {max} arguments", self.min)
            }
            Some(max) => format!("takes {} to {max} arguments", self.min),
            None if self.min == 0 => "takes any number of arguments".to_owned(),
            None => format!("takes at least {} {}", self.min, plural(self.min)),
        }
    }
}

impl fmt::Display for Signature {
    /// `math::sum(array<number>) -> number`, optional arguments with `?`, variadic ones with `...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.name)?;
        let mut first = true;
        for (i, kind) in self.args.iter().enumerate() {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(f, "{kind}{}", if i >= self.min { "?" } else { "" })?;
        }
        if let Some(kind) = self.variadic {
            if !first {
                f.write_str(", ")?;
            }
            write!(f, "{kind}...")?;
        }
        write!(f, ") -> {}", self.returns)
    }
}

/// The signature of built-in function `name` (as the parser spells it: lower case), if the table has it.
pub fn signature(name: &str) -> Option<&'static Signature> {
    TABLE.binary_search_by(|s| s.name.cmp(name)).ok().map(|i| &TABLE[i])
}

/// Every signature, sorted by name.
pub fn signatures() -> &'static [Signature] {
    TABLE
}

/// Every method name SurrealDB 3.3.5 registers (`x.len()`, `x.to_string()`), each once.
pub fn method_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = methods::METHODS.iter().map(|(n, _, _)| *n).collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Modules of the engine's functions the table leaves out: nothing a read-only SELECT calls.
pub const UNCHECKED_MODULES: &[&str] = &["api", "file", "http", "eval", "sequence", "sleep"];

/// Functions of the checked modules the table leaves out: behind an experimental flag the engine does not enable.
pub const UNCHECKED_FUNCTIONS: &[&str] = &["type::file"];

/// Whether a value of type `ty` can be an argument of kind `kind`: `Some(false)` only where the
/// engine refuses it for certain; an unknown type (`Any`, an option's NONE) is never refused.
///
/// An aggregate's argument is also read as one row's value (under GROUP BY it is), so
/// `math::sum(price)` fits `array<number>`; whether it may run without GROUP BY is the grouping
/// check's question.
pub fn fits(kind: Kind, ty: &Ty, aggregate: bool) -> bool {
    let ty = match ty {
        Ty::Option(inner) => return fits(kind, inner, aggregate),
        ty => ty,
    };
    if matches!(ty, Ty::Any | Ty::None | Ty::RecordKey) {
        return true;
    }
    let numeric = matches!(ty, Ty::Int | Ty::Float | Ty::Decimal | Ty::Number);
    let element = |k: Kind| match ty {
        Ty::Array(inner) => fits(k, inner, false),
        _ => aggregate && fits(k, ty, false),
    };
    match kind {
        Kind::Any | Kind::Closure => true,
        Kind::Bool => matches!(ty, Ty::Bool),
        Kind::Int | Kind::Float | Kind::Number => numeric,
        Kind::String => matches!(ty, Ty::String | Ty::Literal(_)),
        Kind::Datetime => matches!(ty, Ty::Datetime),
        Kind::Duration => matches!(ty, Ty::Duration),
        Kind::Uuid => matches!(ty, Ty::Uuid),
        Kind::Bytes => matches!(ty, Ty::Bytes),
        Kind::Array | Kind::Set => matches!(ty, Ty::Array(_)) || aggregate,
        Kind::Numbers => element(Kind::Number),
        Kind::Datetimes => element(Kind::Datetime),
        Kind::Strings => element(Kind::String),
        Kind::Vectors => element(Kind::Numbers),
        // A row (`$this`, a subquery's) types as its table's record: it may be an object.
        Kind::Object => matches!(ty, Ty::Object(_) | Ty::AnyObject | Ty::Record(_)),
        Kind::Record => matches!(ty, Ty::Record(_)),
        // GeoJSON objects and coordinate arrays may be geometries.
        Kind::Geometry => matches!(ty, Ty::Object(_) | Ty::AnyObject | Ty::Array(_)),
    }
}

const fn f(name: &'static str, args: &'static [Kind], min: usize, variadic: Option<Kind>, returns: Kind) -> Signature {
    Signature {
        name,
        args,
        min,
        variadic,
        returns,
        aggregate: false,
    }
}

const fn agg(
    name: &'static str,
    args: &'static [Kind],
    min: usize,
    variadic: Option<Kind>,
    returns: Kind,
) -> Signature {
    Signature {
        aggregate: true,
        ..f(name, args, min, variadic, returns)
    }
}

pub(crate) mod methods;
mod table;

use table::TABLE;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_unique_and_complete_against_the_parser() {
        for pair in TABLE.windows(2) {
            assert!(pair[0].name < pair[1].name, "{} before {}", pair[0].name, pair[1].name);
        }
        let mut missing = Vec::new();
        for (path, (kind, _)) in surrealdb_sql::builtin_paths::PATHS.entries() {
            let path = path.into_inner().to_lowercase();
            let module = path.split("::").next().unwrap_or("");
            if matches!(kind, surrealdb_sql::builtin_paths::PathKind::Function)
                && !UNCHECKED_MODULES.contains(&module)
                && !UNCHECKED_FUNCTIONS.contains(&path.as_str())
                && signature(&path).is_none()
            {
                missing.push(path);
            }
        }
        missing.sort();
        assert!(
            missing.is_empty(),
            "functions the parser knows but the table lacks: {missing:?}"
        );
        for s in TABLE {
            assert!(
                surrealdb_sql::builtin_paths::PATHS
                    .keys()
                    .any(|k| k.into_inner().eq_ignore_ascii_case(s.name)),
                "{} is not a function the parser knows",
                s.name
            );
            assert!(s.min <= s.args.len(), "{}", s.name);
        }
    }

    #[test]
    fn renders_for_messages() {
        let sum = signature("math::sum").unwrap();
        assert_eq!(sum.to_string(), "math::sum(array<number>) -> number");
        assert_eq!(sum.arity(), "takes 1 argument");
        assert!(sum.aggregate);
        let slice = signature("string::slice").unwrap();
        assert_eq!(slice.to_string(), "string::slice(string, any?, int?) -> string");
        assert_eq!(slice.arity(), "takes 1 to 3 arguments");
        let join = signature("string::join").unwrap();
        assert_eq!(join.to_string(), "string::join(any, any...) -> string");
        assert_eq!(join.arity(), "takes at least 1 argument");
        assert_eq!(signature("time::now").unwrap().arity(), "takes no arguments");
        assert!(signature("http::get").is_none());
    }

    #[test]
    fn fits_refuses_only_known_mismatches() {
        let s = Ty::String;
        assert!(!fits(Kind::Number, &s, false));
        assert!(fits(Kind::Number, &Ty::Option(Box::new(Ty::Int)), false));
        assert!(fits(Kind::Number, &Ty::Any, false));
        assert!(!fits(Kind::Numbers, &Ty::array(Ty::String), true));
        assert!(fits(Kind::Numbers, &Ty::Float, true));
        assert!(!fits(Kind::Numbers, &Ty::Float, false));
        assert!(!fits(Kind::Datetime, &s, false));
        assert!(!fits(Kind::Record, &s, false));
        assert!(fits(Kind::Int, &Ty::Float, false));
    }
}
