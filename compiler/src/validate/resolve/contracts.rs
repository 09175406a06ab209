//! Constant arguments out of a built-in function's value contract, by the engine's own function code (`surrealdb-runtime` 3.3.5): `math::fixed(x, -1)`, `time::group(d, 'week')`, `string::matches(s, '(')`, `time::format(d, '%Q')`, `math::percentile(v, 150)`, and `type::field('teir')` naming a field the rows do not have.

use super::{Path, Resolver, Scope};
use crate::suggest::nearest;
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::Class;
use surrealdb_sql::{Expr, FunctionCall, Literal, PrefixOperator};

/// The units `time::group` takes (`surrealdb-runtime`'s `time::group`).
const GROUPS: &[&str] = &["year", "month", "day", "hour", "minute", "second"];

/// An integer written as the `i`th argument (`-1` too).
fn integer(call: &FunctionCall, i: usize) -> Option<i64> {
    match call.arguments.get(i)? {
        Expr::Literal(Literal::Integer(n)) => Some(*n),
        Expr::Prefix {
            op: PrefixOperator::Negate,
            expr,
        } => match expr.as_ref() {
            Expr::Literal(Literal::Integer(n)) => Some(-*n),
            _ => None,
        },
        _ => None,
    }
}

/// A number written as the `i`th argument.
fn number(call: &FunctionCall, i: usize) -> Option<f64> {
    match call.arguments.get(i)? {
        Expr::Literal(Literal::Float(f)) => Some(*f),
        Expr::Literal(Literal::Decimal(d)) => d.to_string().parse().ok(),
        Expr::Prefix {
            op: PrefixOperator::Negate,
            expr,
        } => match expr.as_ref() {
            Expr::Literal(Literal::Float(f)) => Some(-*f),
            Expr::Literal(Literal::Integer(n)) => Some(-(*n as f64)),
            _ => None,
        },
        _ => integer(call, i).map(|n| n as f64),
    }
}

/// A string written as the `i`th argument.
fn string(call: &FunctionCall, i: usize) -> Option<&str> {
    match call.arguments.get(i)? {
        Expr::Literal(Literal::String(s)) => Some(s.as_str()),
        _ => None,
    }
}

/// A broken contract: the message, the fix, and the repair of a written string (if any).
type Broken = Option<(String, String, Option<(String, String)>)>;

/// The contracts of a percentile's range and a strftime format.
fn ranges_and_formats(name: &str, call: &FunctionCall) -> Broken {
    match name {
        // A percentile outside 0..=100 answers NONE, without an error.
        "math::percentile" | "math::nearestrank" => number(call, 1).filter(|p| !(0.0..=100.0).contains(p)).map(|p| {
            (
                format!("{name} takes a percentile from 0 to 100, and {p} is outside it: the engine answers NONE"),
                format!("give a percentile from 0 to 100: {name}(values, 90)"),
                None,
            )
        }),
        // The engine writes the datetime with chrono's strftime, failing at a specifier it has not.
        "time::format" => string(call, 1).filter(|f| !strftime_ok(f)).map(|f| {
            (
                format!("time::format takes a strftime format, and '{f}' is not one: the engine fails the query"),
                "use strftime's specifiers (`%Y-%m-%d`, `%H:%M`, `%b %e`, `%A`; `%%` for a percent sign)".into(),
                None,
            )
        }),
        _ => None,
    }
}

/// Whether chrono, which the engine formats datetimes with, reads `format` without an error item.
fn strftime_ok(format: &str) -> bool {
    !chrono::format::StrftimeItems::new(format).any(|item| matches!(item, chrono::format::Item::Error))
}

/// A plain field name (what `type::field` is checked for; a path or an index is left alone).
fn plain(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// A constant argument the function's own code refuses (SQ0801): the engine fails the query.
    pub(super) fn contract(&mut self, name: &str, call: &FunctionCall) {
        let broken: Option<(String, String, Option<(String, String)>)> = match name {
            "math::fixed" => integer(call, 1).filter(|p| *p <= 0).map(|p| {
                (
                    format!("math::fixed takes a number of decimal places greater than 0, not {p}"),
                    "to round to a whole number use math::round(x); math::fixed(x, 2) keeps two decimal places".into(),
                    None,
                )
            }),
            "math::top" | "math::bottom" => integer(call, 1).filter(|c| *c <= 0).map(|c| {
                (
                    format!("{name} takes how many values to keep, an integer greater than 0, not {c}"),
                    format!("keep at least one: {name}(values, 1)"),
                    None,
                )
            }),
            "string::repeat" => integer(call, 1).filter(|n| *n < 0).map(|n| {
                (
                    format!("string::repeat takes how many times to repeat, 0 or more, not {n}"),
                    "repeat 0 or more times: string::repeat(s, 2)".into(),
                    None,
                )
            }),
            "rand::int" | "rand::float" => match (number(call, 0), number(call, 1)) {
                (Some(lo), Some(hi)) if lo > hi => Some((
                    format!("{name}'s lower bound is greater than its upper bound"),
                    format!("write the lower bound first: {name}(low, high)"),
                    None,
                )),
                _ => None,
            },
            "math::clamp" => match (number(call, 1), number(call, 2)) {
                (Some(lo), Some(hi)) if lo > hi => Some((
                    "math::clamp's lower bound is greater than its upper bound".into(),
                    "write the lower bound first: math::clamp(x, low, high)".into(),
                    None,
                )),
                _ => None,
            },
            "time::group" => string(call, 1).filter(|g| !GROUPS.contains(g)).map(|g| {
                let near = GROUPS
                    .iter()
                    .find(|u| u.eq_ignore_ascii_case(g) || g.to_lowercase().trim_end_matches('s') == **u)
                    .copied()
                    .or_else(|| nearest(g, GROUPS.iter().copied()));
                let fix = match near {
                    Some(near) => format!("did you mean '{near}'? time::group takes one of {}", quoted(GROUPS)),
                    None => format!(
                        "time::group takes one of {}; for weeks use time::floor(d, 1w)",
                        quoted(GROUPS)
                    ),
                };
                (
                    format!("time::group takes a unit of {}, not '{g}'", quoted(GROUPS)),
                    fix,
                    near.map(|n| (g.to_owned(), format!("'{n}'"))),
                )
            }),
            // The pattern is cast into a regex when the call runs (`string::matches`' second argument).
            "string::matches" => string(call, 1)
                .and_then(|p| super::casts::regex_refusal(p).map(|why| (p, why)))
                .map(|(p, why)| {
                    (
                        format!("string::matches takes a regex, and '{p}' cannot be one: {why}"),
                        "escape the metacharacters (`\\(`, `\\[`) or write a pattern that compiles".into(),
                        None,
                    )
                }),
            _ => ranges_and_formats(name, call),
        };
        let Some((message, fix, replace)) = broken else {
            return;
        };
        let span = match &replace {
            Some((written, _)) => self.loc.string(written),
            None => super::calls::call_span(self.loc, name, &call.arguments),
        }
        .or_all(self.loc);
        self.error_fixed(
            span,
            Class::FunctionArguments,
            format!("{message}: the engine fails the query"),
            fix,
            replace.map(|(_, r)| r),
        );
    }

    /// `type::field('tier')`: the field the string names, typed as the field; a name the rows'
    /// table does not have is UnknownField (the engine reads it as NONE in every row), with the
    /// nearest name as its repair. `type::fields([...])` checks each name.
    pub(super) fn named_field(&mut self, name: &str, call: &FunctionCall, scope: &Scope) -> Option<Ty> {
        let names: Vec<&str> = match (name, call.arguments.first()?) {
            ("type::field", Expr::Literal(Literal::String(s))) => vec![s.as_str()],
            ("type::fields", Expr::Literal(Literal::Array(items))) => items
                .iter()
                .filter_map(|i| match i {
                    Expr::Literal(Literal::String(s)) => Some(s.as_str()),
                    _ => None,
                })
                .collect(),
            _ => return None,
        };
        let Ty::Record(table) = &scope.doc else {
            return None;
        };
        let t = self.table(table)?;
        if t.schemaless {
            return None;
        }
        let mut types = Vec::new();
        for field in names {
            if !plain(field) {
                return None;
            }
            let known = field == "id"
                || visible_fields_named(t, field, self.app)
                || (matches!(t.kind, crate::ir::TableKind::Relation { .. }) && matches!(field, "in" | "out"));
            if known {
                types.push(self.table_field(table, field, &Path::default(), &[]).ty);
                continue;
            }
            let (class, message, fix) = self.unknown_field(t, field, &Path::default());
            let near = super::paths::candidates_near(t, field, self.app);
            let span = self.loc.string(field).or_all(self.loc);
            let replacement = near.filter(|_| class == Class::UnknownField && fix.starts_with("did you mean"));
            self.error_fixed(
                span,
                class,
                format!("{message} (`{name}('{field}')` names it: the engine reads NONE in every row)"),
                fix,
                replacement.map(|n| format!("'{n}'")),
            );
            types.push(Ty::Any);
        }
        match name {
            "type::field" => types.pop(),
            _ => Some(Ty::Any),
        }
    }
}

fn visible_fields_named(t: &crate::ir::Table, name: &str, all: bool) -> bool {
    super::visible_fields(t, all).any(|f| f.name == name)
}

fn quoted(values: &[&str]) -> String {
    values.iter().map(|v| format!("'{v}'")).collect::<Vec<_>>().join(", ")
}
