//! Operators whose operands' kinds decide the answer before any row is read: arithmetic the engine refuses, membership tests that are the same for every row, a literal of another kind compared with a field, a link compared with a record of another table, a constant cast that cannot succeed.

use super::{Resolver, Scope, Val};
use crate::ir::TableKind;
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::Class;
use surrealdb_sql::{BinaryOperator, Expr, Function, FunctionCall, Literal};
use surrealdb_types::ToSql;

/// A value's kind for the operator rules: one of a few scalar kinds, never through an option
/// (a NONE may make the expression answer) nor an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Number,
    String,
    Datetime,
    Duration,
    Bool,
}

impl Kind {
    pub(crate) fn of(ty: &Ty) -> Option<Kind> {
        Some(match ty {
            Ty::Int | Ty::Float | Ty::Decimal | Ty::Number => Kind::Number,
            Ty::String | Ty::Literal(_) => Kind::String,
            Ty::Datetime => Kind::Datetime,
            Ty::Duration => Kind::Duration,
            Ty::Bool => Kind::Bool,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Datetime => "datetime",
            Kind::Duration => "duration",
            Kind::Bool => "bool",
        }
    }
}

/// Whether SurrealDB 3.3.5 refuses `l op r` for every value of these kinds (`tests/operands.rs`
/// runs every pair on the engine; a `/` with a string answers NONE instead). Only the pairs the
/// engine was seen to refuse are listed: an unlisted pair is never reported.
pub(crate) fn refuses(op: &BinaryOperator, l: Kind, r: Kind) -> bool {
    use Kind::*;
    let numeric_with = |k: Kind| matches!(k, String | Datetime | Bool);
    match op {
        BinaryOperator::Add => {
            (l == Number && numeric_with(r))
                || (r == Number && numeric_with(l))
                || (l == Datetime && matches!(r, String | Number))
                || (l == Duration && matches!(r, String | Number))
        }
        BinaryOperator::Subtract => {
            (l == Number && numeric_with(r)) || (r == Number && numeric_with(l)) || (l == String && r == String)
        }
        BinaryOperator::Multiply | BinaryOperator::Remainder | BinaryOperator::Power => {
            (l == Number && numeric_with(r))
                || (r == Number && matches!(l, String | Datetime | Bool))
                || (l == String && r == String)
        }
        BinaryOperator::Divide => l == Number && r == String,
        _ => false,
    }
}

fn op_text(op: &BinaryOperator) -> &'static str {
    match op {
        BinaryOperator::Add => "+",
        BinaryOperator::Subtract => "-",
        BinaryOperator::Multiply => "*",
        BinaryOperator::Divide => "/",
        BinaryOperator::Remainder => "%",
        BinaryOperator::Power => "**",
        _ => "?",
    }
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// `price + 'x'`, `joined + 1`, `name * 2`: arithmetic the engine refuses for these kinds.
    pub(super) fn arithmetic_operands(&mut self, left: &Expr, op: &BinaryOperator, right: &Expr, l: &Val, r: &Val) {
        let (Some(lk), Some(rk)) = (Kind::of(&l.ty), Kind::of(&r.ty)) else {
            return;
        };
        if !refuses(op, lk, rk) {
            return;
        }
        let (lt, rt) = (left.to_sql(), right.to_sql());
        let written = format!("{lt} {} {rt}", op_text(op));
        let span = self.loc.text(&written).or_all(self.loc);
        let outcome = if matches!(op, BinaryOperator::Divide) {
            "the engine answers NONE for it"
        } else {
            "the engine refuses it"
        };
        let fix = match (lk, rk) {
            (Kind::Datetime, Kind::Number) | (Kind::Number, Kind::Datetime) => {
                "add or subtract a duration (`d + 1d`, `time::now() - 30d`), or compare numbers from time::unix(...)"
                    .to_owned()
            }
            (Kind::Number, Kind::String) | (Kind::String, Kind::Number) => {
                "cast the string (`<decimal> s`) or the number (`<string> n`) so both sides are one kind".to_owned()
            }
            _ => format!(
                "use operands of one kind: a {} `{}` is not defined for a {}",
                lk.name(),
                op_text(op),
                rk.name()
            ),
        };
        self.error(
            span,
            Class::BadOperands,
            format!(
                "`{written}` {} a {} with a {}: {outcome}",
                verb(op),
                lk.name(),
                rk.name()
            ),
            fix,
        );
    }

    /// `-name`: negation of a string or a datetime, which the engine refuses.
    pub(super) fn negated(&mut self, inner: &Expr, v: &Val) {
        let Some(kind) = Kind::of(&v.ty).filter(|k| matches!(k, Kind::String | Kind::Datetime)) else {
            return;
        };
        let text = inner.to_sql();
        let span = self.loc.text(&format!("-{text}")).or_all(self.loc);
        self.error(
            span,
            Class::BadOperands,
            format!("`-{text}` negates a {}: the engine refuses it", kind.name()),
            "negate a number or a duration only".to_owned(),
        );
    }

    /// `x IN []`, `tags CONTAINS 5` on strings, `title CONTAINS true`: a membership test whose
    /// answer is the same for every row.
    pub(super) fn membership(&mut self, left: &Expr, op: &BinaryOperator, right: &Expr, l: &Val, r: &Val) {
        use BinaryOperator as B;
        if let Expr::Literal(Literal::Array(items)) = right {
            if items.is_empty() {
                let always = match op {
                    B::Inside | B::AnyInside | B::AllInside | B::ContainAny => "false",
                    B::NotInside | B::NoneInside | B::ContainNone | B::ContainAll => "true",
                    _ => return,
                };
                let written = format!("{} {} []", left.to_sql(), op.to_sql());
                let span = self.loc.text(&written).or_all(self.loc);
                self.error(
                    span,
                    Class::VacuousMembership,
                    format!("`{written}` tests against an empty list: it is {always} for every row"),
                    "list the values to test (`IN ['a', 'b']`), or drop the condition".to_owned(),
                );
                return;
            }
        }
        // The container and the value looked for: `tags CONTAINS 5`, `5 IN tags`.
        let (container, wanted_expr) = match op {
            B::Contain | B::NotContain | B::ContainAny => (l, right),
            B::Inside | B::NotInside => (r, left),
            _ => return,
        };
        let Some(have) = Kind::of(container.ty.element()) else {
            return;
        };
        if !matches!(container.ty, Ty::Array(_) | Ty::String | Ty::Literal(_)) {
            return;
        }
        let want = match (op, wanted_expr) {
            // `tags CONTAINSANY [1, 2]`: every value listed of one other kind.
            (B::ContainAny, Expr::Literal(Literal::Array(items))) => {
                let kinds: Vec<Option<Kind>> = items.iter().map(literal_kind).collect();
                match kinds.first() {
                    Some(Some(k)) if kinds.iter().all(|x| *x == Some(*k)) => *k,
                    _ => return,
                }
            }
            (B::ContainAny, _) => return,
            (_, e) => match literal_kind(e) {
                Some(k) => k,
                None => return,
            },
        };
        if want == have {
            return;
        }
        let written = wanted_expr.to_sql();
        let span = self.loc.text(&written).or_all(self.loc);
        let always = if matches!(op, B::NotContain | B::NotInside) {
            "true"
        } else {
            "false"
        };
        self.error(
            span,
            Class::VacuousMembership,
            format!(
                "`{written}` is a {} and the list holds {}s: the test is {always} for every row",
                want.name(),
                have.name()
            ),
            format!("look for a {} (`'...'` for a string)", have.name()),
        );
    }

    /// `title = 1`, `created_at < 5`, `price > d'2020-01-01'`: a field compared with a literal of
    /// another kind (strings are `compare`'s), the same answer for every row.
    pub(super) fn literal_of_other_kind(&mut self, field: &Val, op: &BinaryOperator, other: &Expr) {
        use BinaryOperator as B;
        if !matches!(
            op,
            B::Equal | B::ExactEqual | B::NotEqual | B::LessThan | B::LessThanEqual | B::MoreThan | B::MoreThanEqual
        ) {
            return;
        }
        let Some((table, name)) = &field.field else {
            return;
        };
        let (Some(have), Some(lit)) = (Kind::of(&field.ty), literal_kind(other)) else {
            return;
        };
        if have == lit || lit == Kind::String || !matches!(lit, Kind::Number | Kind::Datetime) {
            return;
        }
        let written = other.to_sql();
        let span = self.loc.text(&written).or_all(self.loc);
        let outcome = match op {
            B::NotEqual => "so the comparison is true for every row",
            B::Equal | B::ExactEqual => "so the comparison never matches",
            _ => "and values of different kinds compare by kind, not by value, so the result is the same for every row",
        };
        self.error(
            span,
            Class::TypeMismatch,
            format!(
                "{table}.{name} is a {}, but `{written}` is a {}, {outcome}",
                have.name(),
                lit.name()
            ),
            format!("compare it with a {}", have.name()),
        );
    }
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// `out = source:s1` where `out` links a `notebook`: a link compared with a record of another
    /// table never matches (`!=`: every row), SurrealDB 3.3.5 answering without an error; a
    /// relation's ends written the wrong way round are the usual cause, and the repair names the
    /// end that holds that table.
    pub(super) fn link_of_other_table(&mut self, field: &Val, op: &BinaryOperator, other: &Expr, other_val: &Val) {
        use BinaryOperator as B;
        if !matches!(op, B::Equal | B::ExactEqual | B::NotEqual) {
            return;
        }
        let Some((table, name)) = &field.field else {
            return;
        };
        let linked = match &field.ty {
            Ty::Record(t) => t,
            Ty::Option(inner) => match inner.as_ref() {
                Ty::Record(t) => t,
                _ => return,
            },
            _ => return,
        };
        let other_table = match (other, &other_val.ty) {
            (Expr::Literal(Literal::RecordId(r)), _) => r.table.as_str().to_owned(),
            (Expr::Param(_), Ty::Record(t)) => t.clone(),
            _ => return,
        };
        if *linked == other_table || self.table(&other_table).is_none() {
            return;
        }
        let written = other.to_sql();
        let span = match other {
            Expr::Param(p) => self.loc.param(p.as_str()),
            _ => self.loc.record(&other_table),
        }
        .or_all(self.loc);
        let outcome = if matches!(op, B::NotEqual) {
            "true for every row"
        } else {
            "never true"
        };
        let end = self.table(table).and_then(|t| match &t.kind {
            TableKind::Relation { from, .. } if name == "out" && from.contains(&other_table) => Some("in"),
            TableKind::Relation { to, .. } if name == "in" && to.contains(&other_table) => Some("out"),
            _ => None,
        });
        let fix = match end {
            Some(end) => format!(
                "`{table}` goes from its `in` to its `out`: the `{other_table}` is its `{end}`, so compare `{end}` with it (swap the two ends)"
            ),
            None => format!("compare it with a `{linked}` record, or compare the field that links a `{other_table}`"),
        };
        self.error(
            span,
            Class::TypeMismatch,
            format!(
                "`{table}.{name}` links a `{linked}` record and `{written}` is a `{other_table}` record: the comparison is {outcome}"
            ),
            fix,
        );
    }
}

/// The words an expression is written with (field names among them), for "does the WHERE test it".
pub(super) fn names_in(e: &Expr) -> Vec<String> {
    e.to_sql()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// An arithmetic operator.
fn arithmetic_op(op: &BinaryOperator) -> bool {
    matches!(
        op,
        BinaryOperator::Add
            | BinaryOperator::Subtract
            | BinaryOperator::Multiply
            | BinaryOperator::Divide
            | BinaryOperator::Remainder
            | BinaryOperator::Power
    )
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// `rating + 1` where `rating` is an `option<int>` field the WHERE does not test: the rows
    /// without it make the engine fail the query (analyzer 2015).
    pub(super) fn optional_operand(&mut self, op: &BinaryOperator, l: &Val, r: &Val, scope: &Scope) {
        // Under GROUP an aggregate's argument that fails is skipped as NONE (the engine's `or_none`).
        if !arithmetic_op(op) || scope.grouped == Some(true) {
            return;
        }
        for (side, other) in [(l, r), (r, l)] {
            let (Ty::Option(inner), Some((table, name))) = (&side.ty, &side.field) else {
                continue;
            };
            let (Some(have), Some(with)) = (Kind::of(inner), Kind::of(other.ty.element())) else {
                continue;
            };
            // A pair the engine refuses anyway is SQ0206's (a string only adds to a string).
            let string_op = matches!(op, BinaryOperator::Add) && with == Kind::String;
            if refuses(op, have, with)
                || refuses(op, with, have)
                || have == Kind::Bool
                || (have == Kind::String) != string_op
            {
                continue;
            }
            if self.tests(name, scope) {
                continue;
            }
            let zero = match have {
                Kind::Number => "0",
                Kind::Duration => "0s",
                _ => "time::now()",
            };
            self.optional_value(
                (table, name),
                &side.ty,
                format!(
                    "`{name} {} ...` on such a row makes the engine fail the query",
                    op_text(op)
                ),
                format!("({name} ?? {zero})"),
            );
            return;
        }
    }
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// Whether the statement's WHERE or an IF around the expression reads `name`: a field it
    /// tests is taken as kept from NONE there (as coarse as the name; a miss, never a false alarm).
    fn tests(&self, name: &str, scope: &Scope) -> bool {
        self.guards.iter().any(|g| g == name)
            || scope
                .tested
                .is_some_and(|cond| names_in(cond).iter().any(|w| w == name))
    }

    /// SQ0210 at `field` of `table` (of the option type `ty`), used where NONE fails the query
    /// (`fails` says how), repaired by a WHERE that keeps the rows with it or by `default`.
    fn optional_value(&mut self, (table, field): (&str, &str), ty: &Ty, fails: String, default: String) {
        let span = self.loc.find_text(field).or_all(self.loc);
        self.error(
            span,
            Class::OptionalArithmetic,
            format!("{table}.{field} is {ty} and NONE where it is missing: {fails}"),
            format!("keep the rows that have it (`WHERE {field} != NONE`), or give it a default (`{default}`)"),
        );
    }

    /// `string::lowercase(email)` where `email` is an `option<string>` field nothing tests: a
    /// built-in whose parameter takes a value of a kind (not `any`) fails the query on the first
    /// row without it ("Expected `string` but found `NONE`"), `tests/app_idioms.rs`. An aggregate
    /// and a grouped SELECT are left alone (the engine skips NONE there), as is `x ?? v`.
    pub(super) fn optional_argument(&mut self, call: &FunctionCall, args: &[Val], scope: &Scope) {
        let Function::Normal(name) = &call.receiver else {
            return;
        };
        let Some(sig) = crate::validate::functions::signature(name.as_str()) else {
            return;
        };
        if sig.aggregate || scope.grouped == Some(true) || !sig.accepts(args.len()) {
            return;
        }
        for (i, (arg, written)) in args.iter().zip(&call.arguments).enumerate() {
            let (Ty::Option(inner), Some((table, field)), Expr::Idiom(_)) = (&arg.ty, &arg.field, written) else {
                continue;
            };
            let Some(kind) = sig.arg(i) else { continue };
            if matches!(
                kind,
                crate::validate::functions::Kind::Any | crate::validate::functions::Kind::Closure
            ) || !crate::validate::functions::fits(kind, inner, false)
                || matches!(inner.as_ref(), Ty::Any)
                || self.tests(field, scope)
            {
                continue;
            }
            self.optional_value(
                (table, field),
                &arg.ty,
                format!(
                    "{name}() takes no NONE as its argument {}, so on such a row the engine fails the query \
                     (\"Expected ... but found `NONE`\")",
                    i + 1
                ),
                format!("{field} ?? ..."),
            );
            return;
        }
    }
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// `email.lowercase()` where `email` is an `option<string>` field nothing tests: a method of the
    /// value's kind fails the query on the first row without it ("no such method found for the none
    /// type"); a generic method (`.to_string()`, `.is_none()`) answers, `tests/app_idioms.rs`.
    pub(super) fn optional_receiver(&mut self, name: &str, receiver: &Val, scope: &Scope) {
        use crate::validate::functions::methods;
        let (Ty::Option(inner), Some((table, field))) = (&receiver.ty, &receiver.field) else {
            return;
        };
        let Some(on) = methods::receiver(inner) else {
            return;
        };
        if !methods::own(name, on) || scope.grouped == Some(true) || self.tests(field, scope) {
            return;
        }
        self.optional_value(
            (table, field),
            &receiver.ty,
            format!(
                "`.{name}()` is a method of its kind, which NONE has not, so on such a row the engine fails the \
                 query (\"no such method found for the none type\")"
            ),
            format!("({field} ?? ...).{name}()"),
        );
    }
}

fn verb(op: &BinaryOperator) -> &'static str {
    match op {
        BinaryOperator::Add => "adds",
        BinaryOperator::Subtract => "subtracts",
        BinaryOperator::Multiply => "multiplies",
        BinaryOperator::Divide => "divides",
        BinaryOperator::Remainder => "takes the remainder of",
        _ => "raises",
    }
}

/// The kind of a literal written in the query.
fn literal_kind(e: &Expr) -> Option<Kind> {
    match e {
        Expr::Literal(Literal::Integer(_) | Literal::Float(_) | Literal::Decimal(_)) => Some(Kind::Number),
        Expr::Literal(Literal::String(_)) => Some(Kind::String),
        Expr::Literal(Literal::Datetime(_)) => Some(Kind::Datetime),
        Expr::Literal(Literal::Duration(_)) => Some(Kind::Duration),
        Expr::Literal(Literal::Bool(_)) => Some(Kind::Bool),
        _ => None,
    }
}
