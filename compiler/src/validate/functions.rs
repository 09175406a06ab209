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
    Bool,
    /// An integer, or a float/decimal that is a whole number.
    Int,
    Float,
    /// Any number: int, float or decimal.
    Number,
    String,
    Datetime,
    Duration,
    Uuid,
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
    Object,
    /// A record id (`table:key`), not a string spelling one.
    Record,
    /// A set (an array is accepted).
    Set,
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
    pub name: &'static str,
    pub args: &'static [Kind],
    pub min: usize,
    pub variadic: Option<Kind>,
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
    TABLE
        .binary_search_by(|s| s.name.cmp(name))
        .ok()
        .map(|i| &TABLE[i])
}

/// Every signature, sorted by name.
pub fn signatures() -> &'static [Signature] {
    TABLE
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

const fn f(
    name: &'static str,
    args: &'static [Kind],
    min: usize,
    variadic: Option<Kind>,
    returns: Kind,
) -> Signature {
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

use table::TABLE;

mod table {
    use super::Kind::*;
    use super::{agg, f, Signature};

    /// Sorted by name (the lookup is a binary search; a unit test keeps it sorted).
    pub(super) static TABLE: &[Signature] = &[
        f("array::add", &[Array, Any], 2, None, Array),
        f("array::all", &[Array, Any], 1, None, Bool),
        f("array::any", &[Array, Any], 1, None, Bool),
        f("array::append", &[Array, Any], 2, None, Array),
        f("array::at", &[Array, Int], 2, None, Any),
        f("array::boolean_and", &[Array, Array], 2, None, Array),
        f("array::boolean_not", &[Array], 1, None, Array),
        f("array::boolean_or", &[Array, Array], 2, None, Array),
        f("array::boolean_xor", &[Array, Array], 2, None, Array),
        f("array::clump", &[Array, Int], 2, None, Array),
        f("array::combine", &[Array, Array], 2, None, Array),
        f("array::complement", &[Array, Array], 2, None, Array),
        f("array::concat", &[], 0, Some(Array), Array),
        f("array::difference", &[Array, Array], 2, None, Array),
        agg("array::distinct", &[Array], 1, None, Array),
        f("array::every", &[Array, Any], 1, None, Bool),
        f("array::fill", &[Array, Any, Any, Int], 2, None, Array),
        f("array::filter", &[Array, Any], 2, None, Array),
        f("array::filter_index", &[Array, Any], 2, None, Array),
        f("array::find", &[Array, Any], 2, None, Any),
        f("array::find_index", &[Array, Any], 2, None, Any),
        f("array::first", &[Array], 1, None, Any),
        f("array::flatten", &[Array], 1, None, Array),
        f("array::fold", &[Array, Any, Closure], 3, None, Any),
        agg("array::group", &[Array], 1, None, Array),
        f("array::includes", &[Array, Any], 1, None, Bool),
        f("array::index_of", &[Array, Any], 2, None, Any),
        f("array::insert", &[Array, Any, Int], 2, None, Array),
        f("array::intersect", &[Array, Array], 2, None, Array),
        f("array::is_empty", &[Array], 1, None, Bool),
        agg("array::join", &[Array, String], 2, None, String),
        f("array::last", &[Array], 1, None, Any),
        f("array::len", &[Array], 1, None, Int),
        f("array::logical_and", &[Array, Array], 2, None, Array),
        f("array::logical_or", &[Array, Array], 2, None, Array),
        f("array::logical_xor", &[Array, Array], 2, None, Array),
        f("array::map", &[Array, Closure], 2, None, Array),
        f("array::matches", &[Array, Any], 2, None, Array),
        f("array::max", &[Array], 1, None, Any),
        f("array::min", &[Array], 1, None, Any),
        f("array::pop", &[Array], 1, None, Any),
        f("array::prepend", &[Array, Any], 2, None, Array),
        f("array::push", &[Array, Any], 2, None, Array),
        f("array::range", &[Any, Int], 1, None, Array),
        f("array::reduce", &[Array, Closure], 2, None, Any),
        f("array::remove", &[Array, Int], 2, None, Array),
        f("array::repeat", &[Any, Int], 2, None, Array),
        f("array::reverse", &[Array], 1, None, Array),
        f("array::sequence", &[Int, Int], 1, None, Array),
        f("array::shuffle", &[Array], 1, None, Array),
        f("array::slice", &[Array, Any, Int], 1, None, Array),
        f("array::some", &[Array, Any], 1, None, Bool),
        f("array::sort", &[Array, Any], 1, None, Array),
        f("array::sort::asc", &[Array], 1, None, Array),
        f("array::sort::desc", &[Array], 1, None, Array),
        f("array::sort_lexical", &[Array, Any], 1, None, Array),
        f("array::sort_natural", &[Array, Any], 1, None, Array),
        f("array::sort_natural_lexical", &[Array, Any], 1, None, Array),
        f("array::swap", &[Array, Int, Int], 3, None, Array),
        f("array::transpose", &[Array], 1, None, Array),
        f("array::union", &[Array, Array], 2, None, Array),
        f("array::windows", &[Array, Int], 2, None, Array),
        f("bytes::len", &[Bytes], 1, None, Int),
        agg("count", &[Any], 0, None, Int),
        f("crypto::argon2::compare", &[String, String], 2, None, Bool),
        f("crypto::argon2::generate", &[String], 1, None, String),
        f("crypto::bcrypt::compare", &[String, String], 2, None, Bool),
        f("crypto::bcrypt::generate", &[String], 1, None, String),
        f("crypto::blake3", &[String], 1, None, String),
        f("crypto::joaat", &[String], 1, None, Int),
        f("crypto::md5", &[String], 1, None, String),
        f("crypto::pbkdf2::compare", &[String, String], 2, None, Bool),
        f("crypto::pbkdf2::generate", &[String], 1, None, String),
        f("crypto::scrypt::compare", &[String, String], 2, None, Bool),
        f("crypto::scrypt::generate", &[String], 1, None, String),
        f("crypto::sha1", &[String], 1, None, String),
        f("crypto::sha256", &[String], 1, None, String),
        f("crypto::sha512", &[String], 1, None, String),
        f("duration::days", &[Duration], 1, None, Int),
        f("duration::from_days", &[Int], 1, None, Duration),
        f("duration::from_hours", &[Int], 1, None, Duration),
        f("duration::from_micros", &[Int], 1, None, Duration),
        f("duration::from_millis", &[Int], 1, None, Duration),
        f("duration::from_mins", &[Int], 1, None, Duration),
        f("duration::from_nanos", &[Int], 1, None, Duration),
        f("duration::from_secs", &[Int], 1, None, Duration),
        f("duration::from_weeks", &[Int], 1, None, Duration),
        f("duration::hours", &[Duration], 1, None, Int),
        f("duration::micros", &[Duration], 1, None, Int),
        f("duration::millis", &[Duration], 1, None, Int),
        f("duration::mins", &[Duration], 1, None, Int),
        f("duration::nanos", &[Duration], 1, None, Int),
        f("duration::secs", &[Duration], 1, None, Int),
        f("duration::weeks", &[Duration], 1, None, Int),
        f("duration::years", &[Duration], 1, None, Int),
        f("encoding::base64::decode", &[String], 1, None, Any),
        f("encoding::base64::encode", &[Bytes, Bool], 1, None, String),
        f("encoding::cbor::decode", &[Bytes], 1, None, Any),
        f("encoding::cbor::encode", &[Any], 1, None, Any),
        f("encoding::json::decode", &[String], 1, None, Any),
        f("encoding::json::encode", &[Any], 1, None, String),
        f("geo::area", &[Geometry], 1, None, Float),
        f("geo::bearing", &[Geometry, Geometry], 2, None, Float),
        f("geo::centroid", &[Geometry], 1, None, Any),
        f("geo::distance", &[Geometry, Geometry], 2, None, Float),
        f("geo::hash::decode", &[Any], 1, None, Any),
        f("geo::hash::encode", &[Geometry, Int], 1, None, String),
        f("geo::is_valid", &[Geometry], 1, None, Bool),
        f("math::abs", &[Number], 1, None, Number),
        f("math::acos", &[Number], 1, None, Number),
        f("math::acot", &[Number], 1, None, Number),
        f("math::asin", &[Number], 1, None, Number),
        f("math::atan", &[Number], 1, None, Number),
        f("math::bottom", &[Numbers, Int], 2, None, Numbers),
        f("math::ceil", &[Number], 1, None, Number),
        f("math::clamp", &[Number, Number, Number], 3, None, Number),
        f("math::cos", &[Number], 1, None, Number),
        f("math::cot", &[Number], 1, None, Number),
        f("math::deg2rad", &[Number], 1, None, Number),
        f("math::fixed", &[Number, Int], 2, None, Number),
        f("math::floor", &[Number], 1, None, Number),
        f("math::interquartile", &[Numbers], 1, None, Number),
        f("math::lerp", &[Number, Number, Number], 3, None, Number),
        f(
            "math::lerpangle",
            &[Number, Number, Number],
            3,
            None,
            Number,
        ),
        f("math::ln", &[Number], 1, None, Number),
        f("math::log", &[Number, Number], 2, None, Number),
        f("math::log10", &[Number], 1, None, Number),
        f("math::log2", &[Number], 1, None, Number),
        agg("math::max", &[Numbers], 1, None, Number),
        agg("math::mean", &[Numbers], 1, None, Number),
        agg("math::median", &[Numbers], 1, None, Number),
        f("math::midhinge", &[Numbers], 1, None, Number),
        agg("math::min", &[Numbers], 1, None, Number),
        f("math::mode", &[Numbers], 1, None, Number),
        f("math::nearestrank", &[Numbers, Number], 2, None, Number),
        f("math::percentile", &[Numbers, Number], 2, None, Number),
        f("math::pow", &[Number, Number], 2, None, Number),
        f("math::product", &[Numbers], 1, None, Number),
        f("math::rad2deg", &[Number], 1, None, Number),
        f("math::round", &[Number], 1, None, Number),
        f("math::sign", &[Number], 1, None, Number),
        f("math::sin", &[Number], 1, None, Number),
        f("math::spread", &[Numbers], 1, None, Number),
        f("math::sqrt", &[Number], 1, None, Number),
        agg("math::stddev", &[Numbers], 1, None, Number),
        agg("math::sum", &[Numbers], 1, None, Number),
        f("math::tan", &[Number], 1, None, Number),
        f("math::top", &[Numbers, Int], 2, None, Numbers),
        f("math::trimean", &[Numbers], 1, None, Number),
        agg("math::variance", &[Numbers], 1, None, Number),
        f("meta::id", &[Record], 1, None, Any),
        f("meta::tb", &[Record], 1, None, String),
        f("not", &[Any], 1, None, Bool),
        f("object::entries", &[Object], 1, None, Array),
        f("object::extend", &[Object, Object], 2, None, Object),
        f("object::from_entries", &[Array], 1, None, Object),
        f("object::is_empty", &[Object], 1, None, Bool),
        f("object::keys", &[Object], 1, None, Strings),
        f("object::len", &[Object], 1, None, Int),
        f("object::remove", &[Object, Any], 2, None, Object),
        f("object::values", &[Object], 1, None, Array),
        f("parse::email::host", &[String], 1, None, String),
        f("parse::email::user", &[String], 1, None, String),
        f("parse::url::domain", &[String], 1, None, String),
        f("parse::url::fragment", &[String], 1, None, String),
        f("parse::url::host", &[String], 1, None, String),
        f("parse::url::path", &[String], 1, None, String),
        f("parse::url::port", &[String], 1, None, Int),
        f("parse::url::query", &[String], 1, None, String),
        f("parse::url::scheme", &[String], 1, None, String),
        f("rand", &[], 0, None, Float),
        f("rand::bool", &[], 0, None, Bool),
        f("rand::duration", &[Duration, Duration], 2, None, Duration),
        f("rand::enum", &[], 0, Some(Any), Any),
        f("rand::float", &[Float, Float], 0, None, Float),
        f("rand::id", &[Int, Int], 0, None, String),
        f("rand::int", &[Int, Int], 0, None, Int),
        f("rand::string", &[Int, Int], 0, None, String),
        f("rand::time", &[Any, Any], 0, None, Datetime),
        f("rand::ulid", &[Datetime], 0, None, String),
        f("rand::uuid", &[Datetime], 0, None, Uuid),
        f("rand::uuid::v4", &[], 0, None, Uuid),
        f("rand::uuid::v7", &[Datetime], 0, None, Uuid),
        f("record::exists", &[Record], 1, None, Bool),
        f("record::id", &[Record], 1, None, Any),
        f("record::is_edge", &[Any], 1, None, Bool),
        f("record::table", &[Record], 1, None, String),
        f("record::tb", &[Record], 1, None, String),
        f("schema::table::exists", &[String], 1, None, Bool),
        f("search::analyze", &[Any, Any], 2, None, Any),
        // The index functions take their arguments loosely (extra ones ignored, `partial` truthy).
        f(
            "search::highlight",
            &[Any, Any, Number, Any],
            3,
            Some(Any),
            Any,
        ),
        f("search::linear", &[Array, Array, Int, String], 4, None, Any),
        f("search::offsets", &[Number, Any], 1, Some(Any), Object),
        f("search::rrf", &[Array, Int, Int], 2, None, Any),
        f("search::score", &[Number], 1, Some(Any), Number),
        f("session::ac", &[], 0, None, Any),
        f("session::db", &[], 0, None, Any),
        f("session::id", &[], 0, None, Any),
        f("session::ip", &[], 0, None, Any),
        f("session::ns", &[], 0, None, Any),
        f("session::origin", &[], 0, None, Any),
        f("session::rd", &[], 0, None, Any),
        f("session::token", &[], 0, None, Any),
        f("set::add", &[Set, Any], 2, None, Set),
        f("set::all", &[Set, Any], 1, None, Any),
        f("set::any", &[Set, Any], 1, None, Any),
        f("set::at", &[Set, Int], 2, None, Any),
        f("set::complement", &[Set, Set], 2, None, Set),
        f("set::contains", &[Set, Any], 2, None, Bool),
        f("set::difference", &[Set, Set], 2, None, Set),
        f("set::filter", &[Set, Any], 2, None, Any),
        f("set::find", &[Set, Any], 2, None, Any),
        f("set::first", &[Set], 1, None, Any),
        f("set::flatten", &[Set], 1, None, Set),
        f("set::fold", &[Set, Any, Closure], 3, None, Any),
        f("set::intersect", &[Set, Set], 2, None, Set),
        f("set::is_empty", &[Set], 1, None, Bool),
        f("set::join", &[Set, String], 2, None, String),
        f("set::last", &[Set], 1, None, Any),
        f("set::len", &[Set], 1, None, Int),
        f("set::map", &[Set, Closure], 2, None, Any),
        f("set::max", &[Set], 1, None, Any),
        f("set::min", &[Set], 1, None, Any),
        f("set::reduce", &[Set, Closure], 2, None, Any),
        f("set::remove", &[Set, Any], 2, None, Set),
        f("set::slice", &[Set, Any, Int], 1, None, Set),
        f("set::union", &[Set, Set], 2, None, Set),
        f("string::capitalize", &[String], 1, None, String),
        f("string::concat", &[], 0, Some(Any), String),
        f("string::contains", &[String, String], 2, None, Bool),
        f(
            "string::distance::damerau_levenshtein",
            &[String, String],
            2,
            None,
            Int,
        ),
        f("string::distance::hamming", &[String, String], 2, None, Int),
        f(
            "string::distance::levenshtein",
            &[String, String],
            2,
            None,
            Int,
        ),
        f(
            "string::distance::normalized_damerau_levenshtein",
            &[String, String],
            2,
            None,
            Float,
        ),
        f(
            "string::distance::normalized_levenshtein",
            &[String, String],
            2,
            None,
            Float,
        ),
        f("string::distance::osa", &[String, String], 2, None, Int),
        f("string::ends_with", &[String, String], 2, None, Bool),
        f("string::html::encode", &[String], 1, None, String),
        f("string::html::sanitize", &[String], 1, None, String),
        f("string::is_alpha", &[String], 1, None, Bool),
        f("string::is_alphanum", &[String], 1, None, Bool),
        f("string::is_ascii", &[String], 1, None, Bool),
        f("string::is_datetime", &[String, String], 1, None, Bool),
        f("string::is_domain", &[String], 1, None, Bool),
        f("string::is_email", &[String], 1, None, Bool),
        f("string::is_hexadecimal", &[String], 1, None, Bool),
        f("string::is_ip", &[String], 1, None, Bool),
        f("string::is_ipv4", &[String], 1, None, Bool),
        f("string::is_ipv6", &[String], 1, None, Bool),
        f("string::is_latitude", &[String], 1, None, Bool),
        f("string::is_longitude", &[String], 1, None, Bool),
        f("string::is_numeric", &[String], 1, None, Bool),
        f("string::is_record", &[String, Any], 1, None, Bool),
        f("string::is_semver", &[String], 1, None, Bool),
        f("string::is_ulid", &[String], 1, None, Bool),
        f("string::is_url", &[String], 1, None, Bool),
        f("string::is_uuid", &[String], 1, None, Bool),
        // The separator is any value, as text.
        f("string::join", &[Any], 1, Some(Any), String),
        f("string::len", &[String], 1, None, Int),
        f("string::lowercase", &[String], 1, None, String),
        f("string::matches", &[String, String], 2, None, Bool),
        f("string::repeat", &[String, Int], 2, None, String),
        f("string::replace", &[String, Any, String], 3, None, String),
        f("string::reverse", &[String], 1, None, String),
        f("string::semver::compare", &[String, String], 2, None, Int),
        f("string::semver::inc::major", &[String], 1, None, String),
        f("string::semver::inc::minor", &[String], 1, None, String),
        f("string::semver::inc::patch", &[String], 1, None, String),
        f("string::semver::major", &[String], 1, None, Int),
        f("string::semver::minor", &[String], 1, None, Int),
        f("string::semver::patch", &[String], 1, None, Int),
        f(
            "string::semver::set::major",
            &[String, Int],
            2,
            None,
            String,
        ),
        f(
            "string::semver::set::minor",
            &[String, Int],
            2,
            None,
            String,
        ),
        f(
            "string::semver::set::patch",
            &[String, Int],
            2,
            None,
            String,
        ),
        f("string::similarity::fuzzy", &[String, String], 2, None, Int),
        f(
            "string::similarity::jaro",
            &[String, String],
            2,
            None,
            Float,
        ),
        f(
            "string::similarity::jaro_winkler",
            &[String, String],
            2,
            None,
            Float,
        ),
        f(
            "string::similarity::smithwaterman",
            &[String, String],
            2,
            None,
            Int,
        ),
        f(
            "string::similarity::sorensen_dice",
            &[String, String],
            2,
            None,
            Float,
        ),
        f("string::slice", &[String, Any, Int], 1, None, String),
        f("string::slug", &[String], 1, None, String),
        f("string::split", &[String, String], 2, None, Strings),
        f("string::starts_with", &[String, String], 2, None, Bool),
        f("string::trim", &[String], 1, None, String),
        f("string::uppercase", &[String], 1, None, String),
        f("string::words", &[String], 1, None, Strings),
        f("time::ceil", &[Datetime, Duration], 2, None, Datetime),
        f("time::day", &[Datetime], 0, None, Int),
        f("time::floor", &[Datetime, Duration], 2, None, Datetime),
        f("time::format", &[Datetime, String], 2, None, String),
        f("time::from_micros", &[Int], 1, None, Datetime),
        f("time::from_millis", &[Int], 1, None, Datetime),
        f("time::from_nanos", &[Int], 1, None, Datetime),
        f("time::from_secs", &[Int], 1, None, Datetime),
        f("time::from_ulid", &[String], 1, None, Datetime),
        f("time::from_unix", &[Int], 1, None, Datetime),
        f("time::from_uuid", &[Uuid], 1, None, Datetime),
        f("time::group", &[Datetime, String], 2, None, Datetime),
        f("time::hour", &[Datetime], 0, None, Int),
        f("time::is_leap_year", &[Datetime], 0, None, Bool),
        agg("time::max", &[Datetimes], 1, None, Datetime),
        f("time::micros", &[Datetime], 0, None, Int),
        f("time::millis", &[Datetime], 0, None, Int),
        agg("time::min", &[Datetimes], 1, None, Datetime),
        f("time::minute", &[Datetime], 0, None, Int),
        f("time::month", &[Datetime], 0, None, Int),
        f("time::nano", &[Datetime], 0, None, Int),
        f("time::now", &[], 0, None, Datetime),
        f("time::round", &[Datetime, Duration], 2, None, Datetime),
        f("time::second", &[Datetime], 0, None, Int),
        f("time::set_day", &[Datetime, Number], 2, None, Datetime),
        f("time::set_hour", &[Datetime, Number], 2, None, Datetime),
        f("time::set_minute", &[Datetime, Number], 2, None, Datetime),
        f("time::set_month", &[Datetime, Number], 2, None, Datetime),
        f(
            "time::set_nanosecond",
            &[Datetime, Number],
            2,
            None,
            Datetime,
        ),
        f("time::set_second", &[Datetime, Number], 2, None, Datetime),
        f("time::set_year", &[Datetime, Number], 2, None, Datetime),
        f("time::timezone", &[], 0, None, String),
        f("time::unix", &[Datetime], 0, None, Int),
        f("time::wday", &[Datetime], 0, None, Int),
        f("time::week", &[Datetime], 0, None, Int),
        f("time::yday", &[Datetime], 0, None, Int),
        f("time::year", &[Datetime], 0, None, Int),
        f("type::array", &[Any], 1, None, Array),
        f("type::bool", &[Any], 1, None, Bool),
        f("type::bytes", &[Any], 1, None, Bytes),
        f("type::datetime", &[Any], 1, None, Datetime),
        f("type::decimal", &[Any], 1, None, Number),
        f("type::duration", &[Any], 1, None, Duration),
        f("type::field", &[String], 1, None, Any),
        f("type::fields", &[Strings], 1, None, Any),
        f("type::float", &[Any], 1, None, Float),
        f("type::geometry", &[Any], 1, None, Geometry),
        f("type::int", &[Any], 1, None, Int),
        f("type::is_array", &[Any], 1, None, Bool),
        f("type::is_bool", &[Any], 1, None, Bool),
        f("type::is_bytes", &[Any], 1, None, Bool),
        f("type::is_collection", &[Any], 1, None, Bool),
        f("type::is_datetime", &[Any], 1, None, Bool),
        f("type::is_decimal", &[Any], 1, None, Bool),
        f("type::is_duration", &[Any], 1, None, Bool),
        f("type::is_float", &[Any], 1, None, Bool),
        f("type::is_geometry", &[Any], 1, None, Bool),
        f("type::is_int", &[Any], 1, None, Bool),
        f("type::is_line", &[Any], 1, None, Bool),
        f("type::is_multiline", &[Any], 1, None, Bool),
        f("type::is_multipoint", &[Any], 1, None, Bool),
        f("type::is_multipolygon", &[Any], 1, None, Bool),
        f("type::is_none", &[Any], 1, None, Bool),
        f("type::is_null", &[Any], 1, None, Bool),
        f("type::is_number", &[Any], 1, None, Bool),
        f("type::is_object", &[Any], 1, None, Bool),
        f("type::is_point", &[Any], 1, None, Bool),
        f("type::is_polygon", &[Any], 1, None, Bool),
        f("type::is_range", &[Any], 1, None, Bool),
        f("type::is_record", &[Any, String], 1, None, Bool),
        f("type::is_set", &[Any], 1, None, Bool),
        f("type::is_string", &[Any], 1, None, Bool),
        f("type::is_uuid", &[Any], 1, None, Bool),
        f("type::number", &[Any], 1, None, Number),
        f("type::of", &[Any], 1, None, String),
        f("type::point", &[Any], 1, None, Geometry),
        f("type::range", &[Any], 1, None, Any),
        f("type::record", &[Any, Any], 1, None, Record),
        f("type::set", &[Any], 1, None, Set),
        f("type::string", &[Any], 1, None, String),
        f("type::string_lossy", &[Any], 1, None, String),
        f("type::table", &[Any], 1, None, Any),
        f("type::uuid", &[Any], 1, None, Uuid),
        f("value::chain", &[Any, Closure], 2, None, Any),
        f("value::diff", &[Any, Any], 2, None, Array),
        f("value::expect", &[Any, Closure, Any], 2, None, Any),
        f("value::patch", &[Any, Any], 2, None, Any),
        f("vector::add", &[Numbers, Numbers], 2, None, Numbers),
        f("vector::angle", &[Numbers, Numbers], 2, None, Float),
        f("vector::cross", &[Numbers, Numbers], 2, None, Numbers),
        f(
            "vector::distance::chebyshev",
            &[Numbers, Numbers],
            2,
            None,
            Float,
        ),
        f(
            "vector::distance::euclidean",
            &[Numbers, Numbers],
            2,
            None,
            Float,
        ),
        f(
            "vector::distance::hamming",
            &[Numbers, Numbers],
            2,
            None,
            Number,
        ),
        f("vector::distance::knn", &[Any], 0, Some(Any), Number),
        f(
            "vector::distance::mahalanobis",
            &[Numbers, Numbers, Vectors],
            3,
            None,
            Float,
        ),
        f(
            "vector::distance::manhattan",
            &[Numbers, Numbers],
            2,
            None,
            Number,
        ),
        f(
            "vector::distance::minkowski",
            &[Numbers, Numbers, Number],
            3,
            None,
            Float,
        ),
        f("vector::divide", &[Numbers, Numbers], 2, None, Numbers),
        f("vector::dot", &[Numbers, Numbers], 2, None, Number),
        f("vector::magnitude", &[Numbers], 1, None, Float),
        f("vector::multiply", &[Numbers, Numbers], 2, None, Numbers),
        f("vector::normalize", &[Numbers], 1, None, Numbers),
        f("vector::project", &[Numbers, Numbers], 2, None, Numbers),
        f("vector::scale", &[Numbers, Number], 2, None, Numbers),
        f(
            "vector::similarity::cosine",
            &[Numbers, Numbers],
            2,
            None,
            Float,
        ),
        f(
            "vector::similarity::jaccard",
            &[Numbers, Numbers],
            2,
            None,
            Float,
        ),
        f(
            "vector::similarity::pearson",
            &[Numbers, Numbers],
            2,
            None,
            Float,
        ),
        f(
            "vector::similarity::spearman",
            &[Numbers, Numbers],
            2,
            None,
            Float,
        ),
        f("vector::subtract", &[Numbers, Numbers], 2, None, Numbers),
        agg("vector::sum", &[Vectors], 1, None, Numbers),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_unique_and_complete_against_the_parser() {
        for pair in TABLE.windows(2) {
            assert!(
                pair[0].name < pair[1].name,
                "{} before {}",
                pair[0].name,
                pair[1].name
            );
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
        assert_eq!(
            slice.to_string(),
            "string::slice(string, any?, int?) -> string"
        );
        assert_eq!(slice.arity(), "takes 1 to 3 arguments");
        let join = signature("string::join").unwrap();
        assert_eq!(join.to_string(), "string::join(any, any...) -> string");
        assert_eq!(join.arity(), "takes at least 1 argument");
        assert_eq!(
            signature("time::now").unwrap().arity(),
            "takes no arguments"
        );
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
