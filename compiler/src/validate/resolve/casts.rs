//! A cast of a constant that cannot succeed (`<datetime> 'yesterday'`, `<int> '1.5'`, `<regex> '(a'`), decided by the engine's own rules and parsers, so it is reported before the query runs.

use super::Resolver;
use crate::validate::params::cast_ty;
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::Class;
use surrealdb_sql::{Expr, Kind, Literal};
use surrealdb_types::ToSql;

/// Why SurrealDB 3.3.5 refuses `<target> literal`, if it certainly does. Mirrors the engine's
/// `Cast` impls (`surrealdb-expr`'s `val/value/convert/cast.rs`): a string casts to a number by
/// Rust's own parse, to a datetime or a duration by the engine's parser (`surrealdb_syn`), to a
/// bool only from `true`/`false`; a bool casts to nothing numeric or temporal; a number to no
/// datetime, duration nor bool, and to an int only when whole. Anything else is not judged.
/// `tests/operands.rs` runs every rule on the engine.
pub(crate) fn refusal(target: &Ty, literal: &Literal) -> Option<&'static str> {
    match (target, literal) {
        (Ty::Int, Literal::String(s)) => s.parse::<i64>().is_err().then_some("it is not a whole number"),
        (Ty::Float, Literal::String(s)) => s.parse::<f64>().is_err().then_some("it is not a number"),
        (Ty::Number, Literal::String(s)) => {
            (s.parse::<i64>().is_err() && s.parse::<f64>().is_err()).then_some("it is not a number")
        }
        (Ty::Datetime, Literal::String(s)) => surrealdb_syn::datetime(s)
            .is_err()
            .then_some("it is not a datetime (RFC 3339: '2024-01-31' or '2024-01-31T10:00:00Z')"),
        (Ty::Duration, Literal::String(s)) => surrealdb_syn::duration(s)
            .is_err()
            .then_some("it is not a duration ('1h', '30d', '1w2d')"),
        (Ty::Bool, Literal::String(s)) => {
            (!matches!(s.as_str(), "true" | "false")).then_some("only 'true' and 'false' are bools")
        }
        (Ty::Int | Ty::Float | Ty::Decimal | Ty::Number | Ty::Datetime | Ty::Duration, Literal::Bool(_)) => {
            Some("a bool converts to no number, datetime or duration")
        }
        (Ty::Datetime | Ty::Duration | Ty::Bool, Literal::Integer(_) | Literal::Float(_) | Literal::Decimal(_)) => {
            Some("a number converts to no datetime, duration or bool")
        }
        (Ty::Int, Literal::Float(f)) => (f.fract() != 0.0).then_some("it is not a whole number"),
        (Ty::Int, Literal::Decimal(d)) => (!d.fract().is_zero()).then_some("it is not a whole number"),
        _ => None,
    }
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// `<kind> literal` that the engine refuses whatever the rows hold.
    pub(super) fn constant_cast(&mut self, kind: &Kind, expr: &Expr) {
        let Expr::Literal(literal) = expr else {
            return;
        };
        if matches!(kind, Kind::Regex) {
            self.regex_cast(literal, expr);
            return;
        }
        let target = cast_ty(kind);
        let Some(why) = refusal(&target, literal) else {
            return;
        };
        let written = expr.to_sql();
        let span = self.loc.text(&written).or_all(self.loc);
        let fix = match (&target, literal) {
            (Ty::Datetime, Literal::String(_)) => {
                "write a full datetime (d'2024-01-31T00:00:00Z'), or compute it: time::now() - 1d, time::floor(time::now(), 1w)"
            }
            (Ty::Duration, Literal::String(_)) => "write the duration itself: 1h, 30d, 2w",
            _ => "write a value of the cast's kind, or drop the cast",
        };
        self.error(
            span,
            Class::CastFails,
            format!(
                "<{}> {written} cannot succeed: {why}; the engine refuses the query",
                kind.to_sql()
            ),
            fix.to_owned(),
        );
    }

    /// `<regex> '(a'`: a pattern the engine's regex compiler refuses, or a literal that is no
    /// string (analyzer 2031).
    fn regex_cast(&mut self, literal: &Literal, expr: &Expr) {
        let why = match literal {
            Literal::String(s) => match regex_refusal(s.as_str()) {
                Some(why) => why,
                None => return,
            },
            Literal::Regex(_) => return,
            Literal::Integer(_) | Literal::Float(_) | Literal::Decimal(_) | Literal::Bool(_) => {
                "only a string casts to a regex".to_owned()
            }
            _ => return,
        };
        let written = expr.to_sql();
        let span = self.loc.text(&written).or_all(self.loc);
        self.error(
            span,
            Class::CastFails,
            format!("<regex> {written} cannot succeed: {why}; the engine refuses the query"),
            "write a pattern that compiles (escape `(`, `[`, `{`, `\\` and the other metacharacters with `\\`), or compare with a string".to_owned(),
        );
    }
}

/// Why SurrealDB 3.3.5 refuses to cast the string `pattern` into a regex: its `Regex::from_str`
/// (`surrealdb-expr`'s `val/regex.rs`) unescapes `\/` and compiles with the `regex` crate under
/// a size limit of 10 MiB (`SURREAL_REGEX_SIZE_LIMIT`'s default).
pub(crate) fn regex_refusal(pattern: &str) -> Option<String> {
    let pattern = pattern.replace("\\/", "/");
    let error = regex::RegexBuilder::new(&pattern)
        .size_limit(10 * 1024 * 1024)
        .build()
        .err()?;
    let detail = match &error {
        regex::Error::Syntax(text) => text.lines().last().unwrap_or("").trim().to_owned(),
        other => other.to_string(),
    };
    Some(format!("the pattern does not compile ({detail})"))
}
