//! Expressions: literals, operators, comparisons with declared fields (compared values, type mismatches), functions and their result types.

use super::{arithmetic, datetime_hint, function_type, grouped_type};
use super::{Resolver, Scope, Val, COMPARISONS};
use crate::suggest::nearest;
use crate::validate::params::{across, cast_ty, user_param, ParamUse};
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::{quoted_values, Class, Compared, RecordRef};
use surrealdb_sql::{BinaryOperator, Expr, Function, Literal, PrefixOperator};
use surrealdb_types::ToSql;

impl<'a, 'l> Resolver<'a, 'l> {
    /// Records a typed use of `$name` (see [`crate::validate::params`]).
    pub(super) fn param_use(&mut self, name: &str, ty: Ty, cast: bool) {
        self.report.params.push(ParamUse {
            name: name.to_owned(),
            ty,
            cast,
            input: None,
        });
    }

    pub(super) fn expr(&mut self, e: &Expr, scope: &Scope) -> Val {
        match e {
            Expr::Literal(l) => Val::of(self.literal(l, scope)),
            Expr::Param(p) => Val::of(self.param(p.as_str(), scope, true)),
            Expr::Idiom(idiom) => self.idiom_in(&idiom.0, scope),
            Expr::Table(t) => {
                self.check_table(t.as_str(), &[]);
                Val::of(Ty::String)
            }
            Expr::Mock(_) => Val::of(Ty::Any),
            Expr::Constant(_) => Val::of(Ty::Float),
            Expr::Prefix {
                op: PrefixOperator::Cast(kind),
                expr,
            } => {
                self.expr(expr, scope);
                self.constant_cast(kind, expr);
                if let Some(name) = user_param(expr) {
                    self.param_use(name, cast_ty(kind), true);
                }
                // A cast is what types an expression nothing else types (named queries' rows).
                Val::of(cast_ty(kind))
            }
            Expr::Prefix { op, expr } => {
                let v = self.expr(expr, scope);
                if matches!(op, PrefixOperator::Negate) {
                    self.negated(expr, &v);
                }
                Val::of(match op {
                    PrefixOperator::Not => Ty::Bool,
                    PrefixOperator::Negate | PrefixOperator::Positive => v.ty,
                    _ => Ty::Any,
                })
            }
            Expr::Postfix { expr, .. } => {
                self.expr(expr, scope);
                Val::of(Ty::Any)
            }
            Expr::Binary { left, op, right } => self.binary(left, op, right, scope),
            Expr::FunctionCall(call) => self.function_call(call, scope),
            Expr::Select(s) => Val::of(self.select(s, Some(scope))),
            Expr::Block(block) => {
                let mut last = Val::of(Ty::Any);
                for e in &block.0 {
                    self.dropped_comparison(e);
                    last = self.expr(e, scope);
                }
                last
            }
            Expr::IfElse(ifelse) => {
                let mut ty = None;
                // A field an IF's condition reads is tested there: its branches may use it as a value.
                let outer = self.guards.len();
                for (cond, then) in &ifelse.exprs {
                    self.condition(cond, scope, super::conditions::Place::Guard);
                    self.guards.extend(super::operands::names_in(cond));
                    let v = self.expr(then, scope);
                    ty.get_or_insert(v.ty);
                }
                if let Some(close) = &ifelse.close {
                    self.expr(close, scope);
                }
                self.guards.truncate(outer);
                Val::of(ty.unwrap_or(Ty::Any))
            }
            Expr::Closure(c) => Val::of(self.closure(c)),
            Expr::Break | Expr::Continue => Val::of(Ty::Any),
            Expr::Return(_) | Expr::Throw(_) | Expr::Let(_) | Expr::Sleep(_) | Expr::Foreach(_) | Expr::Info(_)
                if self.app =>
            {
                Val::of(self.app_statement(e, scope))
            }
            Expr::Return(_) | Expr::Throw(_) | Expr::Let(_) | Expr::Sleep(_) | Expr::Foreach(_) | Expr::Info(_) => {
                self.statement_inside(e, false)
            }
            Expr::Explain { statement, .. } => self.expr(statement, scope),
            Expr::Create(_)
            | Expr::Update(_)
            | Expr::Delete(_)
            | Expr::Relate(_)
            | Expr::Insert(_)
            | Expr::Define(_)
            | Expr::Remove(_)
            | Expr::Rebuild(_)
            | Expr::Upsert(_)
            | Expr::Alter(_)
                if self.app =>
            {
                Val::of(self.app_statement(e, scope))
            }
            Expr::Create(_)
            | Expr::Update(_)
            | Expr::Delete(_)
            | Expr::Relate(_)
            | Expr::Insert(_)
            | Expr::Define(_)
            | Expr::Remove(_)
            | Expr::Rebuild(_)
            | Expr::Upsert(_)
            | Expr::Alter(_) => self.statement_inside(e, true),
        }
    }

    /// A function call: its arguments, checked against its signature, and its result type (a
    /// record's key by its table's id type; `type::table`/`type::record` are unknowable names).
    fn function_call(&mut self, call: &surrealdb_sql::FunctionCall, scope: &Scope) -> Val {
        let args: Vec<Val> = call.arguments.iter().map(|a| self.expr(a, scope)).collect();
        self.check_call(call, &args);
        self.optional_argument(call, &args, scope);
        if let Function::Normal(name) = &call.receiver {
            self.contract(name.as_str(), call);
            if let Some(ty) = self.named_field(name.as_str(), call, scope) {
                return Val::of(ty);
            }
            self.aggregate_call(name.as_str(), &args, scope);
            self.search_call(name.as_str(), scope);
            self.measured_call(name.as_str(), scope);
        }
        match &call.receiver {
            Function::Normal(name)
                if self.app && matches!(name.as_str(), "type::table" | "type::thing" | "type::record") =>
            {
                Val::of(self.named_at_run_time(call))
            }
            Function::Normal(name) if matches!(name.as_str(), "type::table" | "type::thing" | "type::record") => {
                let span = self.loc.ident("type", &[]).or_all(self.loc);
                self.error(
                    span,
                    Class::UnknownTable,
                    format!("{name}() builds a table or record name at run time, which cannot be checked"),
                    "write the table name or the record id (table:key) itself".into(),
                );
                Val::of(Ty::Any)
            }
            // The key of the record's table, when the table declares its type.
            Function::Normal(name) if name.as_str() == "record::id" => {
                Val::of(match args.first().map(|a| a.ty.element()) {
                    Some(Ty::Record(t)) => match self.table(t) {
                        Some(table) => table.id.as_ref().map_or(Ty::RecordKey, Ty::of),
                        None => Ty::Any,
                    },
                    _ => Ty::Any,
                })
            }
            Function::Normal(name) => Val::of(grouped_type(name, function_type(name, &args), &args, scope)),
            Function::Custom(path) => Val::of(self.custom_call(call, path, &args)),
            _ => Val::of(Ty::Any),
        }
    }

    /// `type::table('t')`, `type::record('t', $key)` in the application's profile: the table is
    /// checked when the query spells it (a literal), and the key parameter typed as the table's
    /// key; a table named by a parameter is left alone.
    fn named_at_run_time(&mut self, call: &surrealdb_sql::FunctionCall) -> Ty {
        let Some(Expr::Literal(Literal::String(name))) = call.arguments.first() else {
            return Ty::Any;
        };
        let name = name.as_str().to_owned();
        if self.table(&name).is_none() {
            let span = self.loc.string(&name).or_all(self.loc);
            self.unknown_table(span, &name, |near| Some(format!("'{near}'")));
            return Ty::Any;
        }
        if let Some(key) = call.arguments.get(1).and_then(user_param) {
            let ty = self
                .table(&name)
                .and_then(|t| t.id.as_ref())
                .map_or(Ty::RecordKey, Ty::of);
            self.param_use(key, ty, false);
        }
        Ty::Record(name)
    }

    /// A statement other than a SELECT inside the query: an error, a write (`writes`) said to be one.
    fn statement_inside(&mut self, e: &Expr, writes: bool) -> Val {
        let word = e.to_sql();
        let word = word.split_whitespace().next().unwrap_or("").to_uppercase();
        let span = self.loc.word(&word).or_all(self.loc);
        let (message, fix) = if writes {
            (
                format!("a {word} inside the SELECT: the agent may only read"),
                "remove the write; answer with a SELECT alone",
            )
        } else {
            (
                format!("a {word} statement inside the SELECT"),
                "answer with a SELECT alone: fields, FROM, WHERE, GROUP BY, ORDER BY, LIMIT",
            )
        };
        self.error(span, Class::NotOneSelect, message, fix.into());
        Val::of(Ty::Any)
    }

    pub(super) fn literal(&mut self, l: &Literal, scope: &Scope) -> Ty {
        match l {
            Literal::None => Ty::None,
            Literal::Null => Ty::None,
            Literal::Bool(_) => Ty::Bool,
            Literal::Float(_) => Ty::Float,
            Literal::Integer(_) => Ty::Int,
            Literal::Decimal(_) => Ty::Decimal,
            Literal::Duration(_) => Ty::Duration,
            Literal::String(_) => Ty::String,
            Literal::Datetime(_) => Ty::Datetime,
            Literal::Uuid(_) => Ty::Uuid,
            Literal::Bytes(_) => Ty::Bytes,
            Literal::RecordId(rid) => {
                let table = rid.table.as_str().to_owned();
                if self.table(&table).is_none() {
                    let span = self.loc.record(&table).or_all(self.loc);
                    let key = rid.key.to_sql();
                    self.unknown_table(span, &table, |near| Some(format!("{near}:{key}")));
                    return Ty::Any;
                }
                let span = self.loc.record(&table).or_all(self.loc);
                self.report.records.push(RecordRef {
                    table: table.clone(),
                    id: rid.to_sql(),
                    span,
                });
                Ty::Record(table)
            }
            Literal::Array(items) => {
                let mut ty = None;
                for item in items {
                    let v = self.expr(item, scope);
                    ty.get_or_insert(v.ty);
                }
                Ty::array(ty.unwrap_or(Ty::Any))
            }
            Literal::Set(items) => {
                for item in items {
                    self.expr(item, scope);
                }
                Ty::Any
            }
            Literal::Object(entries) => {
                self.geojson(entries);
                Ty::Object(
                    entries
                        .iter()
                        .map(|e| (e.key.as_str().to_owned(), self.expr(&e.value, scope).ty))
                        .collect(),
                )
            }
            _ => Ty::Any,
        }
    }

    pub(super) fn binary(&mut self, left: &Expr, op: &BinaryOperator, right: &Expr, scope: &Scope) -> Val {
        let l = self.expr(left, scope);
        let r = self.expr(right, scope);
        // `field = $param`, `field CONTAINS $param`, `field IN $param`, `price * $param`: the
        // parameter's type by the operator's contract (`params::across`; `Any` where it has none).
        if let Some(name) = user_param(right) {
            self.param_use(name, across(op, &l.ty, false), false);
        }
        if let Some(name) = user_param(left) {
            self.param_use(name, across(op, &r.ty, true), false);
        }
        match op {
            BinaryOperator::Matches(_) => self.fulltext_match(&l),
            BinaryOperator::NearestNeighbor(nn) => self.nearest(&l, nn, right),
            _ => {}
        }
        // Two constants compared: the condition's own finding (`conditions.rs`: SQ0208, SQ0209).
        if COMPARISONS.contains(op) && super::conditions::constant(left) && super::conditions::constant(right) {
            return Val::of(Ty::Bool);
        }
        if COMPARISONS.contains(op) {
            self.membership(left, op, right, &l, &r);
            self.literal_of_other_kind(&l, op, right);
            self.literal_of_other_kind(&r, op, left);
            self.null_comparison(&l, op, right, scope);
            self.null_comparison(&r, op, left, scope);
            self.compare(&l, op, right);
            self.compare(&r, op, left);
            self.link_of_other_table(&l, op, right, &r);
            self.link_of_other_table(&r, op, left, &l);
            return Val::of(Ty::Bool);
        }
        Val::of(match op {
            BinaryOperator::And | BinaryOperator::Or => super::logical(op, &l.ty, &r.ty),
            BinaryOperator::Add
            | BinaryOperator::Subtract
            | BinaryOperator::Multiply
            | BinaryOperator::Divide
            | BinaryOperator::Remainder
            | BinaryOperator::Power => {
                self.arithmetic_operands(left, op, right, &l, &r);
                self.optional_operand(op, &l, &r, scope);
                arithmetic(&l.ty, &r.ty)
            }
            // `x ?? 0`: the default stands for NONE, so the value is no longer optional.
            BinaryOperator::NullCoalescing if !matches!(r.ty, Ty::Option(_) | Ty::Any | Ty::None) => match l.ty {
                Ty::Option(inner) => *inner,
                ty => ty,
            },
            BinaryOperator::NullCoalescing | BinaryOperator::TenaryCondition => l.ty,
            _ => Ty::Any,
        })
    }

    /// `field = NULL`: a declared field that is missing holds NONE, and no declared type admits
    /// NULL, so the comparison is the same for every row (the engine answers without an error).
    fn null_comparison(&mut self, field: &Val, op: &BinaryOperator, other: &Expr, scope: &Scope) {
        if !matches!(other, Expr::Literal(Literal::Null)) || field.ty == Ty::Any {
            return;
        }
        let Some((table, name)) = &field.field else {
            return;
        };
        // `x != NONE AND x != NULL`, `x = NONE OR x = NULL`: the NONE test beside it already
        // decides; the NULL one is only redundant, and the condition answers what it means (its
        // `IS [NOT] NULL` spelling too: `quiet_nulls`).
        if scope.tested.is_some_and(|c| none_test_beside(c, name, op)) {
            if let Some(span) = self.loc.word("NULL") {
                self.quiet_nulls.push(span);
            }
            return;
        }
        let (outcome, fix) = match op {
            BinaryOperator::Equal
            | BinaryOperator::ExactEqual
            | BinaryOperator::AllEqual
            | BinaryOperator::AnyEqual => (
                "never matches",
                format!("for rows without a {name}, write `{name} = NONE` (or `{name} IS NONE`)"),
            ),
            BinaryOperator::NotEqual => (
                "matches every row",
                format!("for rows with a {name}, write `{name} != NONE` (or `{name} IS NOT NONE`)"),
            ),
            _ => return,
        };
        let span = self.loc.word("NULL").or_all(self.loc);
        self.error_replacing(
            span,
            Class::NullComparison,
            format!(
                "{table}.{name} is {} and is NONE when missing, never NULL, so this comparison {outcome}",
                field.ty
            ),
            fix,
            "NONE".into(),
        );
    }

    /// `field op literal`: the literal against the field's type (literal unions, datetimes, numbers).
    pub(super) fn compare(&mut self, field: &Val, op: &BinaryOperator, other: &Expr) {
        let strings: Vec<&str> = match other {
            Expr::Literal(Literal::String(s)) => vec![s.as_str()],
            Expr::Literal(Literal::Array(items)) => items
                .iter()
                .filter_map(|i| match i {
                    Expr::Literal(Literal::String(s)) => Some(s.as_str()),
                    _ => None,
                })
                .collect(),
            _ => return,
        };
        let name = match &field.field {
            Some((t, f)) => format!("{t}.{f}"),
            None => "the value".to_owned(),
        };
        if let Some(values) = field.ty.literal_values() {
            for s in strings {
                if values.iter().any(|v| v == s) {
                    if let Some((t, f)) = &field.field {
                        let span = self.loc.string(s).or_all(self.loc);
                        self.report.compared.push(Compared {
                            table: t.clone(),
                            field: f.clone(),
                            value: s.to_owned(),
                            span,
                        });
                    }
                    continue;
                }
                let span = self.loc.string(s).or_all(self.loc);
                let near = values.iter().find(|v| v.eq_ignore_ascii_case(s)).or_else(|| {
                    nearest(s, values.iter().map(String::as_str)).and_then(|n| values.iter().find(|v| *v == n))
                });
                let fix = match near {
                    Some(near) => {
                        format!("did you mean '{near}'? Compare with the value exactly as the type spells it")
                    }
                    None => format!("compare with one of {} exactly as written", quoted_values(values)),
                };
                self.error_fixed(
                    span,
                    Class::ValueNotInUnion,
                    format!("'{s}' is not a value of {name} ({})", quoted_values(values)),
                    fix,
                    near.map(|near| quoted_values(std::slice::from_ref(near))),
                );
            }
            return;
        }
        self.string_against(field, op, &strings, &name);
    }

    /// A string (or strings) compared with a field that is no literal union: recorded for the
    /// data checks on a string field, else a TypeMismatch with the literal it should have been.
    fn string_against(&mut self, field: &Val, op: &BinaryOperator, strings: &[&str], name: &str) {
        let Some(s) = strings.first().copied() else {
            return;
        };
        let (what, fix, replacement) = match field.ty.element() {
            Ty::String => {
                if let Some((t, f)) = &field.field {
                    for s in strings.iter().copied() {
                        let span = self.loc.string(s).or_all(self.loc);
                        self.report.compared.push(Compared {
                            table: t.clone(),
                            field: f.clone(),
                            value: s.to_owned(),
                            span,
                        });
                    }
                }
                return;
            }
            Ty::Datetime => {
                let d = datetime_hint(s);
                let parses = surrealdb_syn::datetime(&d).is_ok();
                (
                    "a datetime",
                    format!("write the datetime as d'{d}'"),
                    parses.then(|| format!("d'{d}'")),
                )
            }
            Ty::Int | Ty::Float | Ty::Decimal | Ty::Number if s.trim().parse::<f64>().is_ok() => (
                "a number",
                format!("write the number without quotes: {}", s.trim()),
                Some(s.trim().to_owned()),
            ),
            Ty::Int | Ty::Float | Ty::Decimal | Ty::Number => {
                ("a number", "compare it with a number, not a string".to_owned(), None)
            }
            Ty::Record(t) => {
                let key = s.rsplit(':').next().unwrap_or(s);
                let plain = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                (
                    "a record link",
                    format!("write the record id without quotes: {t}:{key}"),
                    plain.then(|| format!("{t}:{key}")),
                )
            }
            Ty::Bool => (
                "a bool",
                "write true or false without quotes".to_owned(),
                ["true", "false"]
                    .iter()
                    .find(|b| s.trim().eq_ignore_ascii_case(b))
                    .map(|b| (*b).to_owned()),
            ),
            _ => return,
        };
        let span = self.loc.string(s).or_all(self.loc);
        let message = format!("{name} is {what}, but '{s}' is a string, {}", mismatch_outcome(op));
        match replacement {
            Some(r) => self.error_replacing(span, Class::TypeMismatch, message, fix, r),
            None => drop(self.error(span, Class::TypeMismatch, message, fix)),
        }
    }
}

/// What the engine does when a comparison's sides have different types, for the message.
fn mismatch_outcome(op: &BinaryOperator) -> &'static str {
    match op {
        BinaryOperator::LessThan
        | BinaryOperator::LessThanEqual
        | BinaryOperator::MoreThan
        | BinaryOperator::MoreThanEqual => {
            "and values of different types compare by type order, not by value, so the result is the same for every row"
        }
        BinaryOperator::NotEqual => "so the comparison is true for every row",
        _ => "so the comparison never matches",
    }
}

/// Whether `cond` holds a NONE test of `name` beside its NULL test `name op NULL` in one chain
/// where the NULL test changes nothing: `name != NONE AND ... name != NULL` (an AND chain), or
/// `name = NONE OR ... name = NULL` (an OR chain); at any depth of the condition.
fn none_test_beside(cond: &Expr, name: &str, op: &BinaryOperator) -> bool {
    let (chain, test) = match op {
        BinaryOperator::NotEqual => (BinaryOperator::And, BinaryOperator::NotEqual),
        BinaryOperator::Equal => (BinaryOperator::Or, BinaryOperator::Equal),
        _ => return false,
    };
    let named = |x: &Expr| matches!(x, Expr::Idiom(i) if i.to_sql() == name);
    let tests = |e: &Expr, value: fn(&Expr) -> bool| {
        matches!(e, Expr::Binary { left, op, right } if *op == test
            && ((named(left) && value(right)) || (value(left) && named(right))))
    };
    let mut links = Vec::new();
    flatten(cond, &chain, &mut links);
    if links
        .iter()
        .any(|e| tests(e, |x| matches!(x, Expr::Literal(Literal::None))))
        && links
            .iter()
            .any(|e| tests(e, |x| matches!(x, Expr::Literal(Literal::Null))))
    {
        return true;
    }
    // Deeper: inside a link of this chain, or any operand of another operator.
    match cond {
        Expr::Binary { left, right, .. } => none_test_beside(left, name, op) || none_test_beside(right, name, op),
        Expr::Prefix { expr, .. } => none_test_beside(expr, name, op),
        _ => false,
    }
}

/// The links of `e`'s chain of `chain` (`a AND b AND c`): `e` itself when it is no such chain.
fn flatten<'e>(e: &'e Expr, chain: &BinaryOperator, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Binary { left, op, right } if op == chain => {
            flatten(left, chain, out);
            flatten(right, chain, out);
        }
        other => out.push(other),
    }
}
