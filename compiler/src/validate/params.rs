//! Where a query's `$param` is used and the type that use gives it: compared with a field (its type), `LIMIT`/`START` (an integer), an explicit cast (the cast's type, which wins).

use super::types::Ty;
use surrealdb_sql::{Expr, Kind};

/// One typed use of a parameter, in the order the resolver met it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamUse {
    /// Without the `$`.
    pub name: String,
    pub ty: Ty,
    /// An explicit `<type> $param`: wins over every other use.
    pub cast: bool,
}

/// A parameter the application binds (`$this`, `$parent` and the like are the engine's own).
pub(crate) fn user_param(e: &Expr) -> Option<&str> {
    match e {
        Expr::Param(p) => (!is_engine_param(p.as_str())).then_some(p.as_str()),
        _ => None,
    }
}

/// `$this`, `$parent`, `$auth`, ...: set by the engine, never bound by the application.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn used(name: &str, ty: Ty, cast: bool) -> ParamUse {
        ParamUse {
            name: name.into(),
            ty,
            cast,
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
        assert_eq!(
            resolved(&uses),
            vec![("b".into(), Ty::Datetime), ("a".into(), Ty::Int)]
        );
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
        assert_eq!(
            typed.iter().find(|(n, _)| n == "since").unwrap().1,
            Ty::Datetime
        );
        assert!(matches!(
            &typed.iter().find(|(n, _)| n == "tier").unwrap().1,
            Ty::Literal(values) if values.contains(&"pro".to_owned())
        ));
    }
}
