//! The walk over SurrealDB's AST: resolves tables, field paths, graph steps and compared literals against the IR, giving every expression a [`Ty`].

use super::scan::Locator;
use super::types::Ty;
use super::{
    quoted_values, Class, Compared, Diagnostic, Options, Projection, RecordRef, Report, Severity,
    Span,
};
use crate::ir::{Schema, Table, TableKind};
use crate::suggest::nearest;
use surrealdb_sql::lookup::{LookupKind, LookupSubject};
use surrealdb_sql::order::Ordering;
use surrealdb_sql::{
    Ast, BinaryOperator, Dir, Expr, Field, Fields, Function, Idiom, Literal, Lookup, Part,
    PrefixOperator, SelectStatement, TopLevelExpr,
};
use surrealdb_types::ToSql;

/// Checks the one top-level statement of `ast`.
pub(crate) fn statement(
    schema: &Schema,
    options: &Options,
    ast: &Ast,
    loc: &mut Locator,
    report: &mut Report,
) {
    let mut r = Resolver::new(schema, loc, report);
    match ast.expressions.as_slice() {
        [] => r.error(
            r.loc.all(),
            Class::NotOneSelect,
            "the reply holds no statement".into(),
            "reply with one SELECT statement".into(),
        ),
        [TopLevelExpr::Expr(Expr::Select(select))] => {
            if !matches!(select.timeout, Expr::Literal(Literal::None)) {
                let span = r
                    .loc
                    .word_and_next("timeout")
                    .unwrap_or_else(|| r.loc.all());
                r.error(
                    span,
                    Class::NotOneSelect,
                    "the query sets its own TIMEOUT".into(),
                    "remove the TIMEOUT clause: the runner sets its own".into(),
                );
            }
            let ty = r.select(select, None);
            r.limit(select, options);
            r.report.result = Some(ty);
        }
        [one] => {
            let word = one.to_sql();
            let word = word.split_whitespace().next().unwrap_or("").to_uppercase();
            r.error(
                r.loc.all(),
                Class::NotOneSelect,
                format!("only a SELECT statement may run here, not `{word}`"),
                "the agent reads only: reply with one SELECT statement".into(),
            )
        }
        many => r.error(
            r.loc.all(),
            Class::NotOneSelect,
            format!("the reply holds {} statements", many.len()),
            "reply with exactly one SELECT statement".into(),
        ),
    }
}

/// A value and, when it is a declared field, which one.
#[derive(Debug, Clone)]
struct Val {
    ty: Ty,
    field: Option<(String, String)>,
}

impl Val {
    fn of(ty: Ty) -> Val {
        Val { ty, field: None }
    }
}

/// How an idiom reached the table it is on: for messages about the wrong landing table.
#[derive(Debug, Clone, Default)]
struct Path {
    /// The path as written so far (`purchase->contains->product`).
    text: String,
    /// The tables the path went through, in order (edges included).
    tables: Vec<String>,
    /// Whether a graph step was taken.
    traversed: bool,
}

/// What unqualified names in a clause refer to.
struct Scope<'p> {
    doc: Ty,
    /// How the FROM reached the document's table, when it was a traversal.
    origin: Path,
    /// Projected aliases (and expressions without one) with their types.
    projected: Vec<(String, Ty)>,
    /// Whether the projection includes `*`.
    all: bool,
    parent: Option<&'p Scope<'p>>,
}

impl<'p> Scope<'p> {
    fn new(doc: Ty, parent: Option<&'p Scope<'p>>) -> Self {
        let origin = match &doc {
            Ty::Record(t) => Path {
                text: t.clone(),
                tables: vec![t.clone()],
                traversed: false,
            },
            _ => Path::default(),
        };
        Scope {
            doc,
            origin,
            projected: Vec::new(),
            all: false,
            parent,
        }
    }
}

struct Resolver<'a, 'l> {
    visible: Vec<&'a Table>,
    loc: &'l mut Locator,
    report: &'l mut Report,
}

const COMPARISONS: &[BinaryOperator] = &[
    BinaryOperator::Equal,
    BinaryOperator::ExactEqual,
    BinaryOperator::NotEqual,
    BinaryOperator::AllEqual,
    BinaryOperator::AnyEqual,
    BinaryOperator::LessThan,
    BinaryOperator::LessThanEqual,
    BinaryOperator::MoreThan,
    BinaryOperator::MoreThanEqual,
    BinaryOperator::Contain,
    BinaryOperator::NotContain,
    BinaryOperator::ContainAll,
    BinaryOperator::ContainAny,
    BinaryOperator::ContainNone,
    BinaryOperator::Inside,
    BinaryOperator::NotInside,
    BinaryOperator::AllInside,
    BinaryOperator::AnyInside,
    BinaryOperator::NoneInside,
];

/// The fields of `t` the agent may read: a hidden field reads exactly like a missing one.
fn visible_fields(t: &Table) -> impl Iterator<Item = &crate::ir::Field> {
    t.fields.iter().filter(|f| !crate::access::is_hidden(f))
}

impl<'a, 'l> Resolver<'a, 'l> {
    fn new(schema: &'a Schema, loc: &'l mut Locator, report: &'l mut Report) -> Self {
        // With no `expose(...)` list every table is visible (the IR's default lists them all).
        let visible = if schema.settings.exposed.is_empty() {
            schema.tables.iter().collect()
        } else {
            schema.exposed_tables().collect()
        };
        Resolver {
            visible,
            loc,
            report,
        }
    }

    fn error(&mut self, span: Span, class: Class, message: String, fix: String) {
        self.report.diagnostics.push(Diagnostic {
            span,
            severity: Severity::Error,
            class,
            message,
            fix,
        });
    }

    fn table(&self, name: &str) -> Option<&'a Table> {
        self.visible.iter().copied().find(|t| t.name == name)
    }

    fn table_names(&self) -> Vec<&'a str> {
        self.visible.iter().map(|t| t.name.as_str()).collect()
    }

    /// A table the agent may query, or the one "no such table" error (the same for hidden ones).
    fn check_table(&mut self, name: &str, after: &[&str]) -> bool {
        if self.table(name).is_some() {
            return true;
        }
        let span = self
            .loc
            .ident(name, after)
            .unwrap_or_else(|| self.loc.all());
        let names = self.table_names();
        let fix = match nearest(name, names.iter().copied()) {
            Some(near) => format!(
                "did you mean `{near}`? The tables are: {}",
                names.join(", ")
            ),
            None => format!("the tables are: {}", names.join(", ")),
        };
        self.error(
            span,
            Class::UnknownTable,
            format!("there is no table `{name}`"),
            fix,
        );
        false
    }

    // ----- statements -----

    /// Resolves a SELECT; returns the type of its result.
    fn select(&mut self, s: &SelectStatement, parent: Option<&Scope>) -> Ty {
        let mut docs: Vec<(Ty, Path)> = Vec::new();
        for what in &s.what {
            docs.push(self.from(what, parent));
        }
        let (doc, origin) = match docs.as_slice() {
            [(doc, origin)] => (doc.clone(), origin.clone()),
            many if !many.is_empty() && many.iter().all(|(d, _)| *d == many[0].0) => {
                (many[0].0.clone(), Path::default())
            }
            _ => (Ty::Any, Path::default()),
        };
        let mut scope = Scope::new(doc.clone(), parent);
        if origin.traversed {
            scope.origin = origin;
        }
        let mut row: Vec<(String, Ty)> = Vec::new();
        let mut value = None::<Ty>;
        match &s.fields {
            Fields::Value(selector) => {
                let v = self.expr(&selector.expr, &scope);
                value = Some(v.ty.clone());
                row.push(("VALUE".into(), v.ty));
            }
            Fields::Select(fields) => {
                for field in fields {
                    match field {
                        Field::All => {
                            scope.all = true;
                            row.push(("*".into(), doc.clone()));
                        }
                        Field::Single(selector) => {
                            let v = self.expr(&selector.expr, &scope);
                            let name = match &selector.alias {
                                Some(alias) => alias.to_sql(),
                                None => selector.expr.to_sql(),
                            };
                            row.push((name, v.ty));
                        }
                    }
                }
            }
        }
        scope.projected = row.clone();
        for omit in &s.omit {
            self.expr(omit, &scope);
        }
        if let Some(cond) = &s.cond {
            self.expr(&cond.0, &scope);
        }
        if let Some(split) = &s.split {
            for idiom in &split.0 {
                self.idiom_in(&idiom.0 .0, &scope);
            }
        }
        if let Some(group) = &s.group {
            for g in &group.0 {
                if !self.is_projected(&g.0, &scope) {
                    self.idiom_in(&g.0 .0, &scope);
                }
            }
        }
        // ORDER BY may name a projected alias or any field of the rows: since 3.2.5 the engine
        // sorts before it projects.
        if let Some(Ordering::Order(list)) = &s.order {
            for order in list.iter() {
                if !self.is_projected(&order.value, &scope) {
                    self.idiom_in(&order.value.0, &scope);
                }
            }
        }
        if let Some(start) = &s.start {
            self.expr(&start.0, &scope);
        }
        if let Some(fetch) = &s.fetch {
            for f in &fetch.0 {
                let v = self.expr(&f.0, &scope);
                if let Ty::Record(t) = v.ty.element() {
                    if self.table(t).is_none() {
                        let t = t.clone();
                        let span = self
                            .loc
                            .word_and_next("fetch")
                            .unwrap_or_else(|| self.loc.all());
                        self.error(
                            span,
                            Class::UnknownTable,
                            format!("there is no table `{t}`"),
                            format!("the tables are: {}", self.table_names().join(", ")),
                        );
                    }
                }
            }
        }
        if parent.is_none() {
            self.report.projections = row
                .iter()
                .map(|(name, ty)| Projection {
                    name: name.clone(),
                    ty: ty.clone(),
                })
                .collect();
        }
        let item = value.unwrap_or(Ty::Object(row));
        if s.only {
            item
        } else {
            Ty::array(item)
        }
    }

    /// Whether `idiom` names a projected alias or expression (GROUP BY and ORDER BY may use them).
    fn is_projected(&self, idiom: &Idiom, scope: &Scope) -> bool {
        let text = idiom.to_sql();
        scope.projected.iter().any(|(name, _)| *name == text)
    }

    /// One FROM target: the document type its rows have, and the traversal that reached it.
    fn from(&mut self, what: &Expr, parent: Option<&Scope>) -> (Ty, Path) {
        match what {
            Expr::Table(t) => {
                let name = t.as_str();
                if self.check_table(name, &["FROM", ","]) {
                    (Ty::Record(name.to_owned()), Path::default())
                } else {
                    (Ty::Any, Path::default())
                }
            }
            Expr::Idiom(idiom) => {
                // `purchase->contains->product`: the idiom starts at a table.
                if let (Some(Part::Field(first)), true) = (idiom.0.first(), idiom.0.len() > 1) {
                    if matches!(idiom.0.get(1), Some(Part::Graph(_))) {
                        let name = first.as_str().to_owned();
                        if !self.check_table(&name, &["FROM", ","]) {
                            return (Ty::Any, Path::default());
                        }
                        let mut path = Path {
                            text: name.clone(),
                            tables: vec![name.clone()],
                            traversed: false,
                        };
                        let scope = Scope::new(Ty::Any, parent);
                        let v = self.parts(&idiom.0[1..], Ty::Record(name), &scope, &mut path);
                        return (v.ty.element().clone(), path);
                    }
                }
                let scope = Scope::new(Ty::Any, parent);
                let v = self.expr(what, &scope);
                (v.ty.element().clone(), Path::default())
            }
            Expr::Select(inner) => {
                let ty = self.select(inner, parent);
                (ty.element().clone(), Path::default())
            }
            Expr::FunctionCall(_)
            | Expr::Param(_)
            | Expr::Block(_)
            | Expr::IfElse(_)
            | Expr::Binary { .. }
            | Expr::Postfix { .. }
            | Expr::Prefix { .. } => {
                let span = self.loc.word("from").unwrap_or_else(|| self.loc.all());
                let names = self.table_names();
                self.error(
                    span,
                    Class::UnknownTable,
                    format!("FROM {} does not name a table", what.to_sql()),
                    format!(
                        "write the table name itself; the tables are: {}",
                        names.join(", ")
                    ),
                );
                (Ty::Any, Path::default())
            }
            other => {
                let scope = Scope::new(Ty::Any, parent);
                let v = self.expr(other, &scope);
                (v.ty.element().clone(), Path::default())
            }
        }
    }

    fn limit(&mut self, s: &SelectStatement, options: &Options) {
        let Some(max) = options.max_rows else {
            return;
        };
        match &s.limit {
            None => {
                self.report.missing_limit = true;
                let span = self.loc.end();
                self.error(
                    span,
                    Class::Limit,
                    "the query has no LIMIT".into(),
                    format!("end it with LIMIT {max} (the most rows the agent may return)"),
                )
            }
            Some(limit) => match &limit.0 {
                Expr::Literal(Literal::Integer(n)) if *n >= 0 && (*n as u64) <= u64::from(max) => {}
                Expr::Literal(Literal::Integer(n)) => {
                    let span = self
                        .loc
                        .word_and_next("limit")
                        .unwrap_or_else(|| self.loc.all());
                    self.error(
                        span,
                        Class::Limit,
                        format!("LIMIT {n} is more than the {max} rows the agent may return"),
                        format!("use LIMIT {max} or less; to cover more rows, aggregate them (GROUP BY with count() or math::sum())"),
                    )
                }
                other => {
                    let span = self
                        .loc
                        .word_and_next("limit")
                        .unwrap_or_else(|| self.loc.all());
                    self.error(
                        span,
                        Class::Limit,
                        format!("LIMIT {} is not a number", other.to_sql()),
                        format!("write LIMIT {max} or a smaller whole number"),
                    )
                }
            },
        }
    }

    // ----- expressions -----

    fn expr(&mut self, e: &Expr, scope: &Scope) -> Val {
        match e {
            Expr::Literal(l) => Val::of(self.literal(l, scope)),
            Expr::Param(p) => Val::of(match p.as_str() {
                "this" | "self" => scope.doc.clone(),
                "parent" => scope.parent.map_or(Ty::Any, |p| p.doc.clone()),
                _ => Ty::Any,
            }),
            Expr::Idiom(idiom) => self.idiom_in(&idiom.0, scope),
            Expr::Table(t) => {
                self.check_table(t.as_str(), &[]);
                Val::of(Ty::String)
            }
            Expr::Mock(_) => Val::of(Ty::Any),
            Expr::Constant(_) => Val::of(Ty::Float),
            Expr::Prefix { op, expr } => {
                let v = self.expr(expr, scope);
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
            Expr::FunctionCall(call) => {
                let args: Vec<Val> = call.arguments.iter().map(|a| self.expr(a, scope)).collect();
                match &call.receiver {
                    Function::Normal(name)
                        if matches!(
                            name.as_str(),
                            "type::table" | "type::thing" | "type::record"
                        ) =>
                    {
                        let span = self
                            .loc
                            .ident("type", &[])
                            .unwrap_or_else(|| self.loc.all());
                        self.error(
                            span,
                            Class::UnknownTable,
                            format!("{name}() builds a table or record name at run time, which cannot be checked"),
                            "write the table name or the record id (table:key) itself".into(),
                        );
                        Val::of(Ty::Any)
                    }
                    Function::Normal(name) => Val::of(function_type(name, &args)),
                    _ => Val::of(Ty::Any),
                }
            }
            Expr::Select(s) => Val::of(self.select(s, Some(scope))),
            Expr::Block(block) => {
                let mut last = Val::of(Ty::Any);
                for e in &block.0 {
                    last = self.expr(e, scope);
                }
                last
            }
            Expr::IfElse(ifelse) => {
                let mut ty = None;
                for (cond, then) in &ifelse.exprs {
                    self.expr(cond, scope);
                    let v = self.expr(then, scope);
                    ty.get_or_insert(v.ty);
                }
                if let Some(close) = &ifelse.close {
                    self.expr(close, scope);
                }
                Val::of(ty.unwrap_or(Ty::Any))
            }
            Expr::Closure(_) | Expr::Break | Expr::Continue => Val::of(Ty::Any),
            Expr::Return(_)
            | Expr::Throw(_)
            | Expr::Let(_)
            | Expr::Sleep(_)
            | Expr::Foreach(_)
            | Expr::Info(_) => {
                let word = e.to_sql();
                let word = word.split_whitespace().next().unwrap_or("").to_uppercase();
                let span = self.loc.word(&word).unwrap_or_else(|| self.loc.all());
                self.error(
                    span,
                    Class::NotOneSelect,
                    format!("a {word} statement inside the SELECT"),
                    "answer with a SELECT alone: fields, FROM, WHERE, GROUP BY, ORDER BY, LIMIT"
                        .into(),
                );
                Val::of(Ty::Any)
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
            | Expr::Alter(_) => {
                let word = e.to_sql();
                let word = word.split_whitespace().next().unwrap_or("").to_uppercase();
                let span = self.loc.word(&word).unwrap_or_else(|| self.loc.all());
                self.error(
                    span,
                    Class::NotOneSelect,
                    format!("a {word} inside the SELECT: the agent may only read"),
                    "remove the write; answer with a SELECT alone".into(),
                );
                Val::of(Ty::Any)
            }
        }
    }

    fn literal(&mut self, l: &Literal, scope: &Scope) -> Ty {
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
                    let span = self.loc.record(&table).unwrap_or_else(|| self.loc.all());
                    let names = self.table_names();
                    let fix = match nearest(&table, names.iter().copied()) {
                        Some(near) => format!(
                            "did you mean `{near}`? The tables are: {}",
                            names.join(", ")
                        ),
                        None => format!("the tables are: {}", names.join(", ")),
                    };
                    self.error(
                        span,
                        Class::UnknownTable,
                        format!("there is no table `{table}`"),
                        fix,
                    );
                    return Ty::Any;
                }
                let span = self.loc.record(&table).unwrap_or_else(|| self.loc.all());
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
            Literal::Object(entries) => Ty::Object(
                entries
                    .iter()
                    .map(|e| (e.key.as_str().to_owned(), self.expr(&e.value, scope).ty))
                    .collect(),
            ),
            _ => Ty::Any,
        }
    }

    fn binary(&mut self, left: &Expr, op: &BinaryOperator, right: &Expr, scope: &Scope) -> Val {
        let l = self.expr(left, scope);
        let r = self.expr(right, scope);
        if COMPARISONS.contains(op) {
            self.compare(&l, right, &r);
            self.compare(&r, left, &l);
            return Val::of(Ty::Bool);
        }
        Val::of(match op {
            BinaryOperator::And | BinaryOperator::Or => Ty::Bool,
            BinaryOperator::Add
            | BinaryOperator::Subtract
            | BinaryOperator::Multiply
            | BinaryOperator::Divide
            | BinaryOperator::Remainder
            | BinaryOperator::Power => arithmetic(&l.ty, &r.ty),
            BinaryOperator::NullCoalescing | BinaryOperator::TenaryCondition => l.ty,
            _ => Ty::Any,
        })
    }

    /// `field op literal`: the literal against the field's type (literal unions, datetimes, numbers).
    fn compare(&mut self, field: &Val, other: &Expr, _other_val: &Val) {
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
                        let span = self.loc.string(s).unwrap_or_else(|| self.loc.all());
                        self.report.compared.push(Compared {
                            table: t.clone(),
                            field: f.clone(),
                            value: s.to_owned(),
                            span,
                        });
                    }
                    continue;
                }
                let span = self.loc.string(s).unwrap_or_else(|| self.loc.all());
                let fix = match values.iter().find(|v| v.eq_ignore_ascii_case(s)).or_else(|| {
                    nearest(s, values.iter().map(String::as_str)).and_then(|n| values.iter().find(|v| *v == n))
                }) {
                    Some(near) => format!("did you mean '{near}'? Compare with the value exactly as the type spells it"),
                    None => format!("compare with one of {} exactly as written", quoted_values(values)),
                };
                self.error(
                    span,
                    Class::ValueNotInUnion,
                    format!("'{s}' is not a value of {name} ({})", quoted_values(values)),
                    fix,
                );
            }
            return;
        }
        let Some(s) = strings.first().copied() else {
            return;
        };
        let (what, fix) = match field.ty.element() {
            Ty::String => {
                if let Some((t, f)) = &field.field {
                    for s in strings {
                        let span = self.loc.string(s).unwrap_or_else(|| self.loc.all());
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
            Ty::Datetime => (
                "a datetime",
                format!("write the datetime as d'{}'", datetime_hint(s)),
            ),
            Ty::Int | Ty::Float | Ty::Decimal | Ty::Number if s.trim().parse::<f64>().is_ok() => (
                "a number",
                format!("write the number without quotes: {}", s.trim()),
            ),
            Ty::Int | Ty::Float | Ty::Decimal | Ty::Number => (
                "a number",
                "compare it with a number, not a string".to_owned(),
            ),
            Ty::Record(t) => (
                "a record link",
                format!(
                    "write the record id without quotes: {t}:{}",
                    s.rsplit(':').next().unwrap_or(s)
                ),
            ),
            Ty::Bool => ("a bool", "write true or false without quotes".to_owned()),
            _ => return,
        };
        let span = self.loc.string(s).unwrap_or_else(|| self.loc.all());
        self.error(
            span,
            Class::TypeMismatch,
            format!("{name} is {what}, but '{s}' is a string, so the comparison never matches"),
            fix,
        );
    }

    // ----- idioms -----

    /// An idiom relative to the scope's document.
    fn idiom_in(&mut self, parts: &[Part], scope: &Scope) -> Val {
        let mut path = scope.origin.clone();
        self.parts(parts, scope.doc.clone(), scope, &mut path)
    }

    fn parts(&mut self, parts: &[Part], start: Ty, scope: &Scope, path: &mut Path) -> Val {
        let mut cur = Val::of(start);
        let mut prev: Option<&Part> = None;
        for part in parts {
            cur = match part {
                Part::Field(name) => {
                    let after: &[&str] = if prev.is_some() { &["."] } else { &[] };
                    let v = self.field(&cur.ty, name.as_str(), path, after, scope);
                    if !path.text.is_empty() {
                        path.text.push('.');
                    }
                    path.text.push_str(name.as_str());
                    v
                }
                Part::Graph(lookup) => {
                    let v = Val::of(self.graph(&cur.ty, lookup, scope, path));
                    path.traversed = true;
                    v
                }
                Part::Where(cond) => {
                    let inner = Scope::new(cur.ty.element().clone(), Some(scope));
                    self.expr(cond, &inner);
                    cur
                }
                Part::Value(index) => self.index(cur, index, scope, path),
                Part::First | Part::Last => Val {
                    ty: match cur.ty {
                        Ty::Array(t) => *t,
                        other => other,
                    },
                    field: cur.field,
                },
                Part::All => {
                    if let Ty::Record(t) = cur.ty.element() {
                        if self.table(t).is_none() {
                            let t = t.clone();
                            let span = self.loc.all();
                            self.error(
                                span,
                                Class::UnknownTable,
                                format!("there is no table `{t}`"),
                                format!("the tables are: {}", self.table_names().join(", ")),
                            );
                        }
                    }
                    cur
                }
                Part::Optional => cur,
                Part::Flatten => Val::of(match cur.ty {
                    Ty::Array(t) => match *t {
                        Ty::Array(inner) => Ty::Array(inner),
                        other => Ty::array(other),
                    },
                    other => other,
                }),
                Part::Start(e) => {
                    let v = self.expr(e, scope);
                    if let Ty::Record(t) = v.ty.element() {
                        *path = Path {
                            text: t.clone(),
                            tables: vec![t.clone()],
                            traversed: false,
                        };
                    }
                    v
                }
                Part::Method(name, args) => {
                    let mut all = vec![cur.clone()];
                    for a in args {
                        all.push(self.expr(a, scope));
                    }
                    Val::of(method_type(name.as_str(), &all))
                }
                Part::Doc => Val::of(scope.doc.clone()),
                Part::Destructure(_) | Part::Recurse(..) | Part::RepeatRecurse => Val::of(Ty::Any),
            };
            prev = Some(part);
        }
        cur
    }

    /// `[...]` after a value: an index (`[0]`, `[$]`), a key (`['name']`), or a filter written without WHERE.
    fn index(&mut self, cur: Val, index: &Expr, scope: &Scope, path: &mut Path) -> Val {
        match index {
            Expr::Literal(Literal::Integer(_))
            | Expr::Param(_)
            | Expr::Prefix {
                op: PrefixOperator::Negate,
                ..
            } => Val {
                ty: match cur.ty {
                    Ty::Array(t) => *t,
                    other => other,
                },
                field: cur.field,
            },
            Expr::Literal(Literal::String(key)) => {
                self.field(&cur.ty, key.as_str(), path, &[], scope)
            }
            Expr::Binary { op, .. }
                if COMPARISONS.contains(op)
                    || matches!(op, BinaryOperator::And | BinaryOperator::Or) =>
            {
                let text = index.to_sql();
                let span = self.loc.bracket_filter().unwrap_or_else(|| self.loc.all());
                self.error(
                    span,
                    Class::FilterWithoutWhere,
                    format!("`[{text}]` is an index, not a filter: it compares the whole list and matches nothing"),
                    format!("write the filter with WHERE: `[WHERE {text}]`"),
                );
                let inner = Scope::new(cur.ty.element().clone(), Some(scope));
                self.expr(index, &inner);
                cur
            }
            Expr::Prefix {
                op: PrefixOperator::Not,
                ..
            } => {
                let text = index.to_sql();
                let span = self.loc.bracket_filter().unwrap_or_else(|| self.loc.all());
                self.error(
                    span,
                    Class::FilterWithoutWhere,
                    format!("`[{text}]` is an index, not a filter"),
                    format!("write the filter with WHERE: `[WHERE {text}]`"),
                );
                cur
            }
            other => {
                self.expr(other, scope);
                Val::of(match cur.ty {
                    Ty::Array(t) => *t,
                    _ => Ty::Any,
                })
            }
        }
    }

    /// `.name` on a value of type `on`.
    fn field(&mut self, on: &Ty, name: &str, path: &Path, after: &[&str], scope: &Scope) -> Val {
        match on {
            Ty::Array(inner) => {
                let v = self.field(inner, name, path, after, scope);
                Val {
                    ty: Ty::array(v.ty),
                    field: v.field,
                }
            }
            Ty::Option(inner) => self.field(inner, name, path, after, scope),
            Ty::Record(table) => self.table_field(table, name, path, after),
            Ty::Object(keys) => match keys.iter().find(|(k, _)| k == name) {
                Some((_, ty)) => Val::of(ty.clone()),
                None => {
                    let span = self
                        .loc
                        .ident(name, after)
                        .unwrap_or_else(|| self.loc.all());
                    let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
                    let fix = match nearest(name, names.iter().copied()) {
                        Some(near) => {
                            format!("did you mean `{near}`? The rows have: {}", names.join(", "))
                        }
                        None => format!("the rows have: {}", names.join(", ")),
                    };
                    self.error(
                        span,
                        Class::UnknownField,
                        format!("the subquery's rows have no field `{name}`"),
                        fix,
                    );
                    Val::of(Ty::Any)
                }
            },
            Ty::Any | Ty::AnyObject | Ty::None => Val::of(Ty::Any),
            scalar => {
                let span = self
                    .loc
                    .ident(name, after)
                    .unwrap_or_else(|| self.loc.all());
                let _ = scope;
                self.error(
                    span,
                    Class::UnknownField,
                    format!("`{}` is a {scalar}, which has no field `{name}`", path.text),
                    format!("read `{name}` from a record, or use a {scalar} function instead"),
                );
                Val::of(Ty::Any)
            }
        }
    }

    fn table_field(&mut self, table: &str, name: &str, path: &Path, after: &[&str]) -> Val {
        let Some(t) = self.table(table) else {
            // A link into a table the agent cannot see reads like an unknown table.
            let span = self
                .loc
                .ident(name, after)
                .unwrap_or_else(|| self.loc.all());
            let names = self.table_names();
            self.error(
                span,
                Class::UnknownTable,
                format!("there is no table `{table}`"),
                format!("the tables are: {}", names.join(", ")),
            );
            return Val::of(Ty::Any);
        };
        if name == "id" {
            return Val::of(Ty::Record(table.to_owned()));
        }
        if let TableKind::Relation { from, to } = &t.kind {
            if name == "in" {
                return Val::of(Ty::Record(from.clone()));
            }
            if name == "out" {
                return Val::of(Ty::Record(to.clone()));
            }
        }
        if let Some(f) = visible_fields(t).find(|f| f.name == name) {
            return Val {
                ty: Ty::of(&f.ty),
                field: Some((table.to_owned(), name.to_owned())),
            };
        }
        let span = self
            .loc
            .ident(name, after)
            .unwrap_or_else(|| self.loc.all());
        let (class, message, fix) = self.unknown_field(t, name, path);
        if t.schemaless && class == Class::UnknownField {
            // A SCHEMALESS table's rows may hold fields the schema does not declare: the query
            // may be right, so say what the schema knows without blocking it.
            self.report.diagnostics.push(Diagnostic {
                span,
                severity: Severity::Warning,
                class,
                message: format!(
                    "{message} declared (`{}` is SCHEMALESS: rows without it read it as NONE)",
                    t.name
                ),
                fix,
            });
        } else {
            self.error(span, class, message, fix);
        }
        Val::of(Ty::Any)
    }

    /// The message for `name` not being a field of `t`, reached by `path`.
    fn unknown_field(&self, t: &Table, name: &str, path: &Path) -> (Class, String, String) {
        let mut candidates: Vec<&str> = visible_fields(t).map(|f| f.name.as_str()).collect();
        candidates.push("id");
        if matches!(t.kind, TableKind::Relation { .. }) {
            candidates.extend(["in", "out"]);
        }
        let fields = candidates.join(", ");
        let owners: Vec<&Table> = self
            .visible
            .iter()
            .copied()
            .filter(|o| o.name != t.name && visible_fields(o).any(|f| f.name == name))
            .collect();
        let landed = if path.traversed && !path.text.is_empty() {
            format!(
                "`{}` lands on `{}`, which has no field `{name}`",
                path.text, t.name
            )
        } else {
            format!("`{}` has no field `{name}`", t.name)
        };
        // The field belongs to a table the traversal went through.
        if path.traversed {
            if let Some(owner) = owners.iter().find(|o| path.tables.contains(&o.name)) {
                let route = self.route_hint(owner, &t.name, name, path);
                // The field may also be one step further (a product's `name` after ->purchase).
                let further: Vec<String> = owners
                    .iter()
                    .filter(|o| !path.tables.contains(&o.name))
                    .filter_map(|o| {
                        self.reach(&t.name, &o.name).map(|hops| {
                            format!("`{name}` of `{}` is `{}{hops}.{name}`", o.name, path.text)
                        })
                    })
                    .collect();
                let further = if further.is_empty() {
                    String::new()
                } else {
                    format!("; {}", further.join("; "))
                };
                return (
                    Class::WrongTableAfterTraversal,
                    landed,
                    format!("`{name}` is a field of `{}`: {route}{further}", owner.name),
                );
            }
        }
        if let Some(near) = nearest(name, candidates.iter().copied()) {
            return (
                Class::UnknownField,
                landed,
                format!(
                    "did you mean `{near}`? The fields of `{}` are: {fields}",
                    t.name
                ),
            );
        }
        if let Some(owner) = owners.first() {
            let reach = match self.reach(&t.name, &owner.name) {
                Some(hops) => format!("reach it from `{}` as `{hops}.{name}`", t.name),
                None => format!("select FROM {} to read it", owner.name),
            };
            return (
                Class::UnknownField,
                landed,
                format!(
                    "`{name}` is a field of `{}`: {reach}; the fields of `{}` are: {fields}",
                    owner.name, t.name
                ),
            );
        }
        (
            Class::UnknownField,
            landed,
            format!("the fields of `{}` are: {fields}", t.name),
        )
    }

    /// How to read `field` of `owner` when a traversal landed on `landed` instead.
    fn route_hint(&self, owner: &Table, landed: &str, field: &str, path: &Path) -> String {
        // An edge between the owner and the landing table: select FROM it and use in./out.
        for r in &self.visible {
            if let TableKind::Relation { from, to } = &r.kind {
                if *from == owner.name && to == landed {
                    return format!("select FROM {} and use in.{field}", r.name);
                }
                if *to == owner.name && from == landed {
                    return format!("select FROM {} and use out.{field}", r.name);
                }
            }
        }
        if let TableKind::Relation { .. } = owner.kind {
            return format!(
                "filter the edge inside the traversal, `->{}[WHERE {field} ...]`, or select FROM {} and use {field}",
                owner.name, owner.name
            );
        }
        let first = path
            .tables
            .first()
            .map_or(owner.name.as_str(), String::as_str);
        if first == owner.name {
            format!(
                "filter it before traversing: `{}[WHERE {field} ...]` or FROM {} WHERE {field} ...",
                owner.name, owner.name
            )
        } else {
            format!(
                "filter that step inside the traversal: `{}[WHERE {field} ...]`",
                owner.name
            )
        }
    }

    /// The shortest chain of steps from `from` to `to` (record links, edges both ways), as SurrealQL.
    fn reach(&self, from: &str, to: &str) -> Option<String> {
        let mut seen = vec![from.to_owned()];
        let mut queue = std::collections::VecDeque::from([(from.to_owned(), String::new())]);
        while let Some((at, text)) = queue.pop_front() {
            if text.len() > 120 {
                continue;
            }
            for (next, step) in self.neighbours(&at) {
                if seen.contains(&next) {
                    continue;
                }
                let text = if step.starts_with("->") || step.starts_with("<-") || text.is_empty() {
                    format!("{text}{step}")
                } else {
                    format!("{text}.{step}")
                };
                if next == to {
                    return Some(text);
                }
                seen.push(next.clone());
                queue.push_back((next, text));
            }
        }
        None
    }

    /// One step from a table: `(table reached, how it is written)`.
    fn neighbours(&self, at: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let Some(t) = self.table(at) else {
            return out;
        };
        for f in visible_fields(t) {
            if let Ty::Record(target) = Ty::of(&f.ty).element() {
                out.push((target.clone(), f.name.clone()));
            }
        }
        if let TableKind::Relation { from, to } = &t.kind {
            out.push((from.clone(), "in".into()));
            out.push((to.clone(), "out".into()));
        }
        for r in &self.visible {
            if let TableKind::Relation { from, to } = &r.kind {
                if from == at {
                    out.push((to.clone(), format!("->{}->{to}", r.name)));
                }
                if to == at {
                    out.push((from.clone(), format!("<-{}<-{from}", r.name)));
                }
            }
        }
        out
    }

    /// A graph step `->edge`, `<-edge`, `<->edge` (or onto a node from an edge) from a value of type `on`.
    fn graph(&mut self, on: &Ty, lookup: &Lookup, scope: &Scope, path: &mut Path) -> Ty {
        let arrow = match &lookup.kind {
            LookupKind::Graph(Dir::Out) => "->",
            LookupKind::Graph(Dir::In) => "<-",
            LookupKind::Graph(Dir::Both) => "<->",
            LookupKind::Reference => "<~",
        };
        let mut landed: Vec<String> = Vec::new();
        let source = match on.element() {
            Ty::Record(t) => Some(t.clone()),
            _ => None,
        };
        for subject in &lookup.what {
            let target = match subject {
                LookupSubject::Table { table, .. } | LookupSubject::Range { table, .. } => {
                    table.as_str().to_owned()
                }
            };
            if !self.check_table(&target, &[arrow, "(", ","]) {
                continue;
            }
            path.text.push_str(arrow);
            path.text.push_str(&target);
            path.tables.push(target.clone());
            if matches!(lookup.kind, LookupKind::Reference) {
                landed.push(target);
                continue;
            }
            let Some(source) = &source else {
                landed.push(target);
                continue;
            };
            match self.step(source, &target, &lookup.kind) {
                Ok(()) => landed.push(target),
                Err((message, fix)) => {
                    let span = self
                        .loc
                        .ident(&target, &[arrow])
                        .unwrap_or_else(|| self.loc.all());
                    self.error(span, Class::BadTraversal, message, fix);
                }
            }
        }
        let each = match landed.as_slice() {
            [one] => Ty::Record(one.clone()),
            _ => Ty::Any,
        };
        if let Some(cond) = &lookup.cond {
            let inner = Scope::new(each.clone(), Some(scope));
            self.expr(&cond.0, &inner);
        }
        if let Some(fields) = &lookup.expr {
            let inner = Scope::new(each.clone(), Some(scope));
            if let Fields::Select(list) = fields {
                for f in list {
                    if let Field::Single(sel) = f {
                        self.expr(&sel.expr, &inner);
                    }
                }
            }
            return Ty::array(Ty::Any);
        }
        if lookup.only {
            each
        } else {
            Ty::array(each)
        }
    }

    /// Whether a graph step from table `source` to table `target` is possible; else the message and the fix.
    fn step(&self, source: &str, target: &str, kind: &LookupKind) -> Result<(), (String, String)> {
        let (Some(s), Some(t)) = (self.table(source), self.table(target)) else {
            return Ok(());
        };
        let dir = match kind {
            LookupKind::Graph(d) => d.clone(),
            LookupKind::Reference => return Ok(()),
        };
        let out = matches!(dir, Dir::Out | Dir::Both);
        let inn = matches!(dir, Dir::In | Dir::Both);
        // From an edge onto one of its ends.
        if let TableKind::Relation { from, to } = &s.kind {
            if (out && to == target) || (inn && from == target) {
                return Ok(());
            }
        }
        // From a node onto an edge that starts (->) or ends (<-) there.
        if let TableKind::Relation { from, to } = &t.kind {
            if (out && from == source) || (inn && to == source) {
                return Ok(());
            }
        }
        let describe = |r: &Table| match &r.kind {
            TableKind::Relation { from, to } => {
                format!("`{}` links {from} (in) to {to} (out)", r.name)
            }
            TableKind::Normal => format!("`{}` is not an edge", r.name),
        };
        if let TableKind::Relation { from, to } = &s.kind {
            // Wrong end after an edge.
            let want = if out { to } else { from };
            let arrow = if out { "->" } else { "<-" };
            return Err((
                format!(
                    "{}, so `{source}{arrow}{target}` cannot land on `{target}`",
                    describe(s)
                ),
                format!("write `{source}{arrow}{want}`"),
            ));
        }
        match &t.kind {
            TableKind::Relation { from, to } => {
                // The edge exists but points the other way, or does not touch the source.
                if (out && to == source) || (inn && from == source) {
                    let (arrow, other) = if out { ("<-", from) } else { ("->", to) };
                    Err((
                        format!(
                            "{}: it arrives at `{source}`, it does not leave it",
                            describe(t)
                        ),
                        format!(
                            "traverse it the other way: `{source}{arrow}{target}{arrow}{other}`"
                        ),
                    ))
                } else {
                    let routes = self.edges_of(source);
                    Err((
                        format!("{}; it does not touch `{source}`", describe(t)),
                        if routes.is_empty() {
                            format!("`{source}` has no edges; reach `{target}` from {from} or {to}")
                        } else {
                            format!("from `{source}` traverse {}", routes.join(" or "))
                        },
                    ))
                }
            }
            TableKind::Normal => {
                // Node to node: the edge was skipped.
                let via: Vec<String> = self
                    .visible
                    .iter()
                    .filter_map(|r| match &r.kind {
                        TableKind::Relation { from, to }
                            if from == source && to == target && out =>
                        {
                            Some(format!("`{source}->{}->{target}`", r.name))
                        }
                        TableKind::Relation { from, to }
                            if to == source && from == target && inn =>
                        {
                            Some(format!("`{source}<-{}<-{target}`", r.name))
                        }
                        _ => None,
                    })
                    .collect();
                let fix = if via.is_empty() {
                    match self.reach(source, target) {
                        Some(hops) => format!("go through the edges: `{source}{hops}`"),
                        None => format!(
                            "from `{source}` traverse {}",
                            self.edges_of(source).join(" or ")
                        ),
                    }
                } else {
                    format!("go through the edge: {}", via.join(" or "))
                };
                Err((
                    format!("`{source}` and `{target}` are not linked directly: a graph step goes through an edge table"),
                    fix,
                ))
            }
        }
    }

    /// The graph steps that leave `table`: `->placed`, `<-contains`.
    fn edges_of(&self, table: &str) -> Vec<String> {
        let mut out = Vec::new();
        for r in &self.visible {
            if let TableKind::Relation { from, to } = &r.kind {
                if from == table {
                    out.push(format!("`->{}->{to}`", r.name));
                }
                if to == table {
                    out.push(format!("`<-{}<-{from}`", r.name));
                }
            }
        }
        out
    }
}

/// `2025-05-01` as a full datetime literal body.
fn datetime_hint(s: &str) -> String {
    let s = s.trim();
    if s.len() == 10 && s.as_bytes().get(4) == Some(&b'-') {
        format!("{s}T00:00:00Z")
    } else {
        s.to_owned()
    }
}

fn arithmetic(l: &Ty, r: &Ty) -> Ty {
    match (l.element(), r.element()) {
        (Ty::Int, Ty::Int) => Ty::Int,
        (Ty::Decimal, x) | (x, Ty::Decimal) if x.is_numeric() => Ty::Decimal,
        (Ty::Float, x) | (x, Ty::Float) if x.is_numeric() => Ty::Float,
        (Ty::Datetime, Ty::Duration) | (Ty::Duration, Ty::Datetime) => Ty::Datetime,
        (Ty::Datetime, Ty::Datetime) | (Ty::Duration, Ty::Duration) => Ty::Duration,
        (Ty::String, Ty::String) => Ty::String,
        (a, b) if a.is_numeric() && b.is_numeric() => Ty::Number,
        _ => Ty::Any,
    }
}

/// The result type of a built-in function from its name and argument types.
fn function_type(name: &str, args: &[Val]) -> Ty {
    let first = args.first().map_or(Ty::Any, |a| a.ty.clone());
    let (module, func) = name.split_once("::").unwrap_or(("", name));
    match (module, func) {
        ("", "count") => Ty::Int,
        ("math", "sum" | "min" | "max" | "product") => match first.element() {
            t if t.is_numeric() => t.clone(),
            Ty::Datetime => Ty::Datetime,
            _ => Ty::Number,
        },
        ("math", "fixed" | "round" | "floor" | "ceil" | "abs") => first.element().clone(),
        ("math", _) => Ty::Number,
        ("string", "len") => Ty::Int,
        ("string", "contains" | "starts_with" | "ends_with" | "matches") => Ty::Bool,
        ("string", f) if f.starts_with("is") => Ty::Bool,
        ("string", "split" | "words") => Ty::array(Ty::String),
        ("string", _) => Ty::String,
        (
            "time",
            "now" | "floor" | "round" | "ceil" | "group" | "min" | "max" | "from_unix"
            | "from_millis" | "from_secs",
        ) => Ty::Datetime,
        ("time", "format" | "timezone") => Ty::String,
        ("time", _) => Ty::Int,
        (
            "array",
            "distinct" | "sort" | "flatten" | "reverse" | "slice" | "union" | "group" | "intersect"
            | "difference" | "complement",
        ) => first,
        ("array", "len") => Ty::Int,
        ("array", "first" | "last" | "pop") => first.element().clone(),
        ("array", "any" | "all" | "includes") => Ty::Bool,
        ("record", "tb" | "table") | ("meta", "tb") => Ty::String,
        ("record", "exists") => Ty::Bool,
        ("type", "is") => Ty::Bool,
        ("type", "string") => Ty::String,
        ("type", "int") => Ty::Int,
        ("type", "float") => Ty::Float,
        ("type", "decimal") => Ty::Decimal,
        ("type", "datetime") => Ty::Datetime,
        ("duration", _) => Ty::Int,
        _ => Ty::Any,
    }
}

/// The result type of a method call `value.name(args)`; `args[0]` is the receiver.
fn method_type(name: &str, args: &[Val]) -> Ty {
    let module = match args.first().map(|a| a.ty.clone()) {
        Some(Ty::Array(_)) => "array",
        Some(Ty::String | Ty::Literal(_)) => "string",
        Some(Ty::Datetime) => "time",
        _ => return Ty::Any,
    };
    function_type(&format!("{module}::{name}"), args)
}
