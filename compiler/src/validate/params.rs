//! Where a query's `$param` is used and the type that use gives it: across an operator from a field (by the operator's contract: one element for `CONTAINS`, a list for `IN`, a string for `@@`, ...), `LIMIT`/`START` (an integer), an explicit cast (the cast's type, which wins).

use super::types::Ty;
use surrealdb_sql::{BinaryOperator, Expr, Kind};

/// One typed use of a parameter, in the order the resolver met it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamUse {
    /// Without the `$`.
    pub name: String,
    /// The type this use asks of the parameter (a compared field's, `int` for LIMIT, the cast's).
    pub ty: Ty,
    /// An explicit `<type> $param`: wins over every other use.
    pub cast: bool,
    /// `CONTENT $x`, `MERGE $x`, `INSERT INTO t $x`: the parameter is a whole record's fields,
    /// the table's input (its `ty` is then the table's row type).
    pub input: Option<InputOf>,
}

/// The table whose input a parameter is, and whether any subset of its fields will do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputOf {
    /// The table written to.
    pub table: String,
    /// `MERGE $x` / `PATCH`-like: any subset of the fields (else `CONTENT`/`INSERT`: the record).
    pub partial: bool,
}

/// A parameter the application may bind: any but the session's protected names. Whether the
/// name is the engine's where it stands (`$this` in a row) is the resolver's to say
/// (`Report::engine_params`); a typed use of such a name is then never an argument.
pub(crate) fn user_param(e: &Expr) -> Option<&str> {
    match e {
        Expr::Param(p) => (!PROTECTED.contains(&p.as_str())).then_some(p.as_str()),
        _ => None,
    }
}

/// The names SurrealDB 3.3.5 refuses to bind (its `PROTECTED_PARAM_NAMES`): the session's own
/// values. `$auth` is the signed-in record; the others, written bare, are [`crate::validate::Class::ProtectedParam`].
pub const PROTECTED: &[&str] = &["access", "auth", "token", "session"];

/// Whether `$name`, read by the application's profile into `report`, is an argument the caller
/// binds: every name but the protected ones and those the query reads only where the engine
/// sets them (`$this` in a row, `$parent` in a subquery, `$before` in a write's RETURN). A name
/// the validator did not meet is an argument too: a parameter is never dropped in silence.
pub fn is_argument(name: &str, report: &super::Report) -> bool {
    if PROTECTED.contains(&name) {
        return false;
    }
    report.query_params.iter().any(|n| n == name) || !report.engine_params.iter().any(|n| n == name)
}

/// `$this`, `$parent`, `$auth`, ...: names the engine sets in some places (a row, a subquery, an
/// event, the session). The agent's profile never binds them; the application's binds every
/// name the engine lets it bind ([`is_argument`]).
pub fn is_engine_param(name: &str) -> bool {
    matches!(
        name,
        "this"
            | "self"
            | "parent"
            | "value"
            | "before"
            | "after"
            | "input"
            | "event"
            | "auth"
            | "session"
            | "token"
            | "access"
    )
}

/// The type a parameter takes standing on one side of `op` with `other` on the other side
/// (`param_on_left`: `$p op other`, else `other op $p`), by the operator's contract:
///
/// - `=`, `!=`, `<`, ...: the other side's type;
/// - `other CONTAINS $p`, `$p IN other`, `other ?= $p`: one element of `other` (a string's
///   substring is a string);
/// - `$p CONTAINS other`, `other IN $p`, `$p ?= other`: a list of `other`;
/// - `CONTAINSALL`/`ANY`/`NONE`, `ALLINSIDE`/`ANY`/`NONE` either way: a list of `other`'s elements;
/// - `other @@ $p` (full-text match, any reference): the search text, a string;
/// - `datetime + $p`: a duration; `number * $p` and the other arithmetic: a number of its kind.
///
/// Anything else (geometry's `OUTSIDE`, `INTERSECTS`) gives no type: a cast must say it.
pub(crate) fn across(op: &BinaryOperator, other: &Ty, param_on_left: bool) -> Ty {
    use BinaryOperator as B;
    if let B::Matches(_) = op {
        return if param_on_left { Ty::Any } else { Ty::String };
    }
    if *other == Ty::Any {
        return Ty::Any;
    }
    let list = |t: Ty| if t == Ty::Any { Ty::Any } else { Ty::array(t) };
    match op {
        B::Equal | B::ExactEqual | B::NotEqual | B::LessThan | B::LessThanEqual | B::MoreThan | B::MoreThanEqual => {
            other.clone()
        }
        // The element side is the one the array is not on.
        B::AllEqual | B::AnyEqual | B::Contain | B::NotContain => {
            if param_on_left {
                list(other.clone())
            } else {
                element_of(other)
            }
        }
        B::Inside | B::NotInside => {
            if param_on_left {
                element_of(other)
            } else {
                list(other.clone())
            }
        }
        B::ContainAll | B::ContainAny | B::ContainNone | B::AllInside | B::AnyInside | B::NoneInside => {
            list(element_of(other))
        }
        // `placed_at + $age`: a duration moves a datetime.
        B::Add | B::Subtract if *other == Ty::Datetime && !param_on_left => Ty::Duration,
        // `price * $factor`: a number of the other side's kind.
        B::Add | B::Subtract | B::Multiply | B::Divide | B::Remainder | B::Power
            if matches!(other, Ty::Int | Ty::Float | Ty::Decimal | Ty::Number) =>
        {
            other.clone()
        }
        _ => Ty::Any,
    }
}

/// One element of a value the membership operators look into: an array's item (through an
/// option), a substring of a string (a literal union's substring is any string), else the value.
fn element_of(ty: &Ty) -> Ty {
    match ty {
        Ty::Array(item) => (**item).clone(),
        Ty::Option(inner) => element_of(inner),
        Ty::String | Ty::Literal(_) => Ty::String,
        other => other.clone(),
    }
}

/// The type a cast gives, where the validator has one.
pub(crate) fn cast_ty(kind: &Kind) -> Ty {
    match kind {
        Kind::Bool => Ty::Bool,
        Kind::Int => Ty::Int,
        Kind::Float => Ty::Float,
        Kind::Decimal => Ty::Decimal,
        Kind::Number => Ty::Number,
        Kind::String => Ty::String,
        Kind::Datetime => Ty::Datetime,
        Kind::Duration => Ty::Duration,
        Kind::Uuid => Ty::Uuid,
        Kind::Bytes => Ty::Bytes,
        Kind::Object => Ty::AnyObject,
        Kind::Record(tables) if tables.len() == 1 => Ty::Record(tables[0].as_str().to_owned()),
        Kind::Array(inner, _) => match cast_ty(inner) {
            Ty::Any => Ty::Any,
            t => Ty::array(t),
        },
        // `option<T>`: the engine's union of `none` and `T`.
        Kind::Either(kinds) if kinds.len() == 2 && kinds.contains(&Kind::None) => {
            match kinds.iter().find(|k| **k != Kind::None).map(cast_ty) {
                Some(Ty::Any) | None => Ty::Any,
                Some(t) => Ty::Option(Box::new(t)),
            }
        }
        _ => Ty::Any,
    }
}

/// Each parameter's type: its cast if it has one, else its first use whose type is known.
pub fn resolved(uses: &[ParamUse]) -> Vec<(String, Ty)> {
    let mut out: Vec<(String, Ty)> = Vec::new();
    for u in uses {
        if u.ty == Ty::Any {
            continue;
        }
        match out.iter_mut().find(|(n, _)| *n == u.name) {
            Some(slot) if u.cast => slot.1 = u.ty.clone(),
            Some(_) => {}
            None => out.push((u.name.clone(), u.ty.clone())),
        }
    }
    // A cast met after a plain use still wins.
    for u in uses.iter().filter(|u| u.cast && u.ty != Ty::Any) {
        if let Some(slot) = out.iter_mut().find(|(n, _)| *n == u.name) {
            slot.1 = u.ty.clone();
        }
    }
    out
}

/// The kind of value a use asks for: options and literal unions read as what they hold.
fn base(ty: &Ty) -> Ty {
    match ty {
        Ty::Option(inner) => base(inner),
        Ty::Literal(_) => Ty::String,
        Ty::Array(inner) => Ty::array(base(inner)),
        other => other.clone(),
    }
}

/// The parameters whose typed uses ask for two kinds of value (compared with a datetime and used
/// as LIMIT) with no cast to settle which (analyzer 6001): each name with its first use's type
/// and the first that differs. A whole input (`CONTENT $x`) is typed by its table, not here.
pub fn conflicts(uses: &[ParamUse]) -> Vec<(String, Ty, Ty)> {
    let mut names: Vec<&str> = Vec::new();
    for u in uses {
        if !names.contains(&u.name.as_str()) {
            names.push(&u.name);
        }
    }
    let mut out = Vec::new();
    for name in names {
        let of_name = || uses.iter().filter(move |u| u.name == name);
        if of_name().any(|u| u.cast || u.input.is_some()) {
            continue;
        }
        let typed: Vec<&Ty> = of_name().filter(|u| u.ty != Ty::Any).map(|u| &u.ty).collect();
        let Some(first) = typed.first() else { continue };
        if let Some(other) = typed.iter().find(|t| base(t) != base(first)) {
            out.push((name.to_owned(), (*first).clone(), (*other).clone()));
        }
    }
    out
}

/// The cast that settles a conflict: the first use's kind.
pub fn settling_cast(first: &Ty) -> Ty {
    base(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn used(name: &str, ty: Ty, cast: bool) -> ParamUse {
        ParamUse {
            name: name.into(),
            ty,
            cast,
            input: None,
        }
    }

    #[test]
    fn a_cast_wins_and_unknown_uses_are_skipped() {
        let uses = [
            used("a", Ty::Any, false),
            used("b", Ty::String, false),
            used("a", Ty::Int, false),
            used("b", Ty::Datetime, true),
        ];
        assert_eq!(resolved(&uses), vec![("b".into(), Ty::Datetime), ("a".into(), Ty::Int)]);
    }

    #[cfg(feature = "front")]
    #[test]
    fn uses_come_from_comparisons_limits_and_casts() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/store.rs");
        let file = crate::front::SourceFile::read(&path).unwrap();
        let schema = crate::front::compile(&[file]).unwrap();
        let report = crate::validate::validate_with(
            &schema,
            "SELECT name FROM customer WHERE tier = $tier AND joined > <datetime> $since LIMIT $n",
            &crate::validate::Options::for_named_queries(),
        );
        assert!(!report.has_errors(), "{:?}", report.diagnostics);
        let typed = resolved(&report.params);
        assert_eq!(typed.iter().find(|(n, _)| n == "n").unwrap().1, Ty::Int);
        assert_eq!(typed.iter().find(|(n, _)| n == "since").unwrap().1, Ty::Datetime);
        assert!(matches!(
            &typed.iter().find(|(n, _)| n == "tier").unwrap().1,
            Ty::Literal(values) if values.contains(&"pro".to_owned())
        ));
    }

    /// `t` with a literal's values (or an array's literal's) sorted, to compare as sets.
    #[cfg(feature = "front")]
    fn sorted_literals(t: Ty) -> Ty {
        match t {
            Ty::Literal(mut v) => {
                v.sort();
                Ty::Literal(v)
            }
            Ty::Array(inner) => match *inner {
                Ty::Literal(mut v) => {
                    v.sort();
                    Ty::array(Ty::Literal(v))
                }
                t => Ty::array(t),
            },
            t => t,
        }
    }

    #[cfg(feature = "front")]
    #[test]
    fn membership_operators_give_an_element_or_a_list() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/store.rs");
        let file = crate::front::SourceFile::read(&path).unwrap();
        let schema = crate::front::compile(&[file]).unwrap();
        let status = Ty::Literal(vec!["pending".into(), "shipped".into(), "cancelled".into()]);
        let tier = || match &crate::validate::types::Ty::of(
            &schema
                .table("customer")
                .unwrap()
                .fields
                .iter()
                .find(|f| f.name == "tier")
                .unwrap()
                .ty,
        ) {
            t @ Ty::Literal(_) => t.clone(),
            other => panic!("{other:?}"),
        };
        let cases = [
            (
                "SELECT name FROM customer WHERE ->placed->purchase.status CONTAINS $p",
                status.clone(),
            ),
            (
                "SELECT name FROM customer WHERE $p IN ->placed->purchase.status",
                status.clone(),
            ),
            (
                "SELECT name FROM customer WHERE ->placed->purchase.status ?= $p",
                status.clone(),
            ),
            ("SELECT name FROM customer WHERE tier IN $p", Ty::array(tier())),
            ("SELECT name FROM customer WHERE tier NOT IN $p", Ty::array(tier())),
            ("SELECT name FROM customer WHERE $p CONTAINS tier", Ty::array(tier())),
            (
                "SELECT name FROM customer WHERE ->placed->purchase.status CONTAINSANY $p",
                Ty::array(status.clone()),
            ),
            (
                "SELECT name FROM customer WHERE $p ALLINSIDE ->placed->purchase.status",
                Ty::array(status.clone()),
            ),
            ("SELECT name FROM customer WHERE name CONTAINS $p", Ty::String),
            ("SELECT name FROM customer WHERE tier = $p", tier()),
            (
                "SELECT name FROM customer WHERE joined > time::now() - $p",
                Ty::Duration,
            ),
            ("SELECT name FROM customer WHERE joined > $p", Ty::Datetime),
            (
                "SELECT name FROM purchase WHERE placed_at + $p > time::now()",
                Ty::Duration,
            ),
        ];
        for (query, want) in cases {
            let report = crate::validate::validate_with(
                &schema,
                &format!("{query} LIMIT 5"),
                &crate::validate::Options::for_named_queries(),
            );
            let typed = resolved(&report.params);
            let got = typed
                .iter()
                .find(|(n, _)| n == "p")
                .map(|(_, t)| t.clone())
                .unwrap_or(Ty::Any);
            let want = sorted_literals(want);
            let got = sorted_literals(got);
            assert_eq!(got, want, "{query}");
        }
    }
}
