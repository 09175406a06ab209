//! A cast of a constant that cannot succeed (`<datetime> 'yesterday'`, `<int> '1.5'`), decided by the engine's own rules and parsers, so it is reported before the query runs.

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
}
