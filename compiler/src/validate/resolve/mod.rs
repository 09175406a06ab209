//! The walk over SurrealDB's AST: resolves tables, field paths, graph steps and compared literals against the IR, giving every expression a [`Ty`].

mod calls;
mod casts;
mod clauses;
mod closures;
mod conditions;
mod context_params;
mod contracts;
mod custom;
mod expr;
mod fetch;
mod geometry;
mod graph;
mod grouping;
mod indexes;
mod keys;
mod only;
mod operands;
mod overlaps;
mod paths;
mod recursion;
mod select;
mod session;
mod statements;
mod writes;

use super::scan::Locator;
use super::types::Ty;
use super::{Class, Options, QueryDiagnostic, Report, Severity, Span};
use crate::codes::Demotion;
use crate::ir::{Schema, Table};
use crate::suggest::nearest;
use crate::validate::scan::OrAll;
use surrealdb_sql::{Ast, BinaryOperator};

/// Checks the one top-level statement of `ast`.
///
/// Answers where a redundant NULL test sits beside its NONE test (`x != NONE AND x != NULL`):
/// the `IS [NOT] NULL` habit is not reported there.
pub(crate) fn statement(
    schema: &Schema,
    options: &Options,
    ast: &Ast,
    loc: &mut Locator,
    report: &mut Report,
) -> Vec<Span> {
    let app = options.profile == super::Profile::App;
    let mut r = Resolver::new(schema, loc, report, app);
    r.end_user = options.end_user.clone();
    if app {
        r.statements(ast);
        return r.quiet_nulls;
    }
    // The reply gate's rule, reported with a span; the runner refuses with the same words.
    match super::reply::one_select(ast) {
        Ok(select) => {
            let ty = r.select(select, None);
            r.limit(select, options);
            r.report.result = Some(ty);
        }
        Err(refusal) => {
            let span = refusal.at.and_then(|w| r.loc.word_and_next(w));
            let span = span.or_all(r.loc);
            r.error(span, Class::NotOneSelect, refusal.message, refusal.fix);
        }
    }
    r.quiet_nulls
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
    /// The schema field (table, path) the document is an element of, inside a bracket filter on
    /// an object field (`images[WHERE url = ...]`): its sub-fields are named by it.
    doc_field: Option<(String, String)>,
    /// How the FROM reached the document's table, when it was a traversal.
    origin: Path,
    /// Projected aliases (and expressions without one) with their types.
    projected: Vec<(String, Ty)>,
    /// Whether the projection includes `*`.
    all: bool,
    /// While the projections resolve: whether the SELECT groups (`None` elsewhere).
    grouped: Option<bool>,
    /// Whether the SELECT's WHERE has a full-text match (`@@`), which `search::*` reads.
    matches: bool,
    /// Whether names resolve against a row (a statement's records), not the query's top level.
    row: bool,
    /// The statement's WHERE: a field it mentions may be kept from NONE there (its names are read
    /// only when a finding asks, as printing the condition costs more than most checks).
    tested: Option<&'p surrealdb_sql::Expr>,
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
            doc_field: None,
            origin,
            projected: Vec::new(),
            all: false,
            grouped: None,
            matches: false,
            row: true,
            tested: None,
            parent,
        }
    }
}

struct Resolver<'a, 'l> {
    visible: Vec<&'a Table>,
    /// The application's profile: every table and field visible, every statement kind taken.
    app: bool,
    /// The variables the query defines (`LET $x`, `FOR $x IN`), innermost last, with their types.
    vars: Vec<(String, Ty)>,
    /// While a write's `RETURN` fields resolve: `$before`/`$after` are the record's states.
    in_output: bool,
    /// The schema's own functions (`fn::...`); the agent may call those whose `agent` is set.
    functions: &'a [crate::ir::Function],
    /// The end-user table when the query runs in an end user's session (`$auth` is its record).
    end_user: Option<String>,
    /// The schema's end-user table, if it declares a per-user agent (for messages about `$auth`).
    scope_end_user: Option<String>,
    loc: &'l mut Locator,
    report: &'l mut Report,
    /// Where a NULL test is redundant beside a NONE test of the same field (`null_comparison`).
    quiet_nulls: Vec<Span>,
    /// The names the conditions of the IFs around the expression being resolved read: a field
    /// tested there may be NONE-free in its branches (SQ0210).
    guards: Vec<String>,
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

/// The fields of `t` the query may read: for the agent a hidden field reads exactly like a
/// missing one; the application (`all`) sees every field.
/// A relation end's type as a path reads it: a record of its one table, not known for several.
fn relation_end(tables: &[String]) -> Ty {
    match tables {
        [one] => Ty::Record(one.clone()),
        _ => Ty::Any,
    }
}

fn visible_fields(t: &Table, all: bool) -> impl Iterator<Item = &crate::ir::Field> {
    t.fields.iter().filter(move |f| all || !crate::access::is_hidden(f))
}

impl<'a, 'l> Resolver<'a, 'l> {
    fn new(schema: &'a Schema, loc: &'l mut Locator, report: &'l mut Report, app: bool) -> Self {
        // With no `expose(...)` list every table is visible (the IR's default lists them all);
        // the application sees every table whatever the agent is shown.
        let visible = if app || schema.settings.exposed.is_empty() {
            schema.tables.iter().collect()
        } else {
            schema.exposed_tables().collect()
        };
        Resolver {
            visible,
            app,
            vars: Vec::new(),
            in_output: false,
            functions: &schema.functions,
            end_user: None,
            scope_end_user: schema.settings.scope.as_ref().map(|s| s.end_user.clone()),
            loc,
            report,
            quiet_nulls: Vec::new(),
            guards: Vec::new(),
        }
    }

    /// Reports a finding of `class` at the registry's level (the one place the resolver pushes them).
    fn error(&mut self, span: Span, class: Class, message: String, fix: String) -> &mut QueryDiagnostic {
        self.report
            .diagnostics
            .push(QueryDiagnostic::new(span, class, message, fix));
        self.report.diagnostics.last_mut().expect("just pushed")
    }

    /// [`Resolver::error`] with a machine-applicable repair: `span` becomes `replacement`.
    fn error_replacing(&mut self, span: Span, class: Class, message: String, fix: String, replacement: String) {
        self.error_fixed(span, class, message, fix, Some(replacement));
    }

    /// [`Resolver::error`] with the repair of `span` when there is one (a did-you-mean found).
    fn error_fixed(&mut self, span: Span, class: Class, message: String, fix: String, replacement: Option<String>) {
        let d = self.error(span, class, message, fix);
        if let Some(replacement) = replacement {
            d.fixes.push(super::Edit { span, replacement });
        }
    }

    /// Reports a finding in one of the registered cases where its class is only a warning.
    fn warning(&mut self, span: Span, demotion: Demotion, message: String, fix: String) -> &mut QueryDiagnostic {
        let mut d = QueryDiagnostic::new(span, demotion.class(), message, fix);
        d.severity = Severity::Warning;
        self.report.diagnostics.push(d);
        self.report.diagnostics.last_mut().expect("just pushed")
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
        let span = self.loc.ident(name, after).or_all(self.loc);
        self.unknown_table(span, name, |near| Some(near.to_owned()));
        false
    }

    /// The one "no such table" finding (a hidden table reads the same): with the nearest name
    /// when there is one, and the repair `replace` makes of it for `span`'s text, if any.
    fn unknown_table(&mut self, span: Span, name: &str, replace: impl Fn(&str) -> Option<String>) {
        let names = self.table_names();
        let near = nearest(name, names.iter().copied());
        let fix = match near {
            Some(near) => format!("did you mean `{near}`? The tables are: {}", names.join(", ")),
            None => format!("the tables are: {}", names.join(", ")),
        };
        let d = self.error(span, Class::UnknownTable, format!("there is no table `{name}`"), fix);
        if let Some(replacement) = near.and_then(replace) {
            d.fixes.push(super::Edit { span, replacement });
        }
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

/// `a OR b` and `a AND b` answer one of their operands, not a bool (SurrealDB 3.3.5: `OR` the
/// first truthy, `AND` the first falsy or the last; tests/analyzer_kinds.rs): both of one type
/// is that type (`title OR ''` a string: a default is no longer optional), else not known.
fn logical(op: &BinaryOperator, l: &Ty, r: &Ty) -> Ty {
    let base = |t: &Ty| match t {
        Ty::Option(inner) => (**inner).clone(),
        t => t.clone(),
    };
    let (lb, rb) = (base(l), base(r));
    if lb != rb || lb == Ty::Any {
        return Ty::Any;
    }
    let optional = |t: &Ty| matches!(t, Ty::Option(_) | Ty::None);
    match op {
        BinaryOperator::Or if !optional(r) => rb,
        _ if optional(l) || optional(r) => Ty::Option(Box::new(lb)),
        _ => lb,
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
/// A built-in call's type under GROUP: `array::distinct`/`array::group` fold the group's values
/// into an array (the engine collects them, then calls the function on the collection).
fn grouped_type(name: &str, ty: Ty, args: &[Val], scope: &Scope) -> Ty {
    if scope.grouped != Some(true) {
        return ty;
    }
    let first = args.first().map_or(Ty::Any, |a| a.ty.clone());
    match name {
        "array::distinct" => Ty::array(first),
        // `array::group` flattens one level: the values of an array field, merged.
        "array::group" => match first {
            Ty::Array(_) => first,
            Ty::Any => Ty::Any,
            one => Ty::array(one),
        },
        _ => ty,
    }
}

fn function_type(name: &str, args: &[Val]) -> Ty {
    let first = args.first().map_or(Ty::Any, |a| a.ty.clone());
    let (module, func) = name.split_once("::").unwrap_or(("", name));
    match (module, func) {
        ("", "count") => Ty::Int,
        // Of an array (not a group's values), the least or greatest of none is NONE.
        ("math", "min" | "max") if matches!(first, Ty::Array(_)) && first.is_numeric() => {
            Ty::Option(Box::new(first.element().clone()))
        }
        ("time", "min" | "max") if matches!(first, Ty::Array(_)) => Ty::Option(Box::new(Ty::Datetime)),
        ("math", "sum" | "min" | "max" | "product") => match first.element() {
            t if t.is_numeric() => t.clone(),
            Ty::Datetime => Ty::Datetime,
            _ => Ty::Number,
        },
        ("math", "fixed" | "round" | "floor" | "ceil" | "abs") => first.element().clone(),
        // The engine divides as floats, whatever the numbers were.
        ("math", "mean") if first.is_numeric() => Ty::Float,
        ("math", _) => Ty::Number,
        ("string", "len") => Ty::Int,
        ("string", "contains" | "starts_with" | "ends_with" | "matches") => Ty::Bool,
        ("string", f) if f.starts_with("is") => Ty::Bool,
        ("string", "split" | "words") => Ty::array(Ty::String),
        ("string", _) => Ty::String,
        (
            "time",
            "now" | "floor" | "round" | "ceil" | "group" | "min" | "max" | "from_unix" | "from_millis" | "from_secs",
        ) => Ty::Datetime,
        ("time", "format" | "timezone") => Ty::String,
        // The 3.x spellings of 2.x's `time::from::*` and `time::is::*` (SQ1201's repairs).
        ("time", f) if f.starts_with("from_") => Ty::Datetime,
        ("time", "is_leap_year") => Ty::Bool,
        ("time", _) => Ty::Int,
        (
            "array",
            "distinct" | "sort" | "flatten" | "reverse" | "slice" | "union" | "group" | "intersect" | "difference"
            | "complement",
        ) => first,
        ("array", "len") => Ty::Int,
        ("array", "first" | "last" | "pop") => first.element().clone(),
        ("array", "any" | "all" | "includes") => Ty::Bool,
        ("record", "tb" | "table") | ("meta", "tb") => Ty::String,
        ("record", "exists") => Ty::Bool,
        // BM25 scores are floats; highlights the matched text.
        ("search", "score") => Ty::Float,
        ("search", "highlight") => Ty::String,
        ("type", "is") => Ty::Bool,
        ("type", "string") => Ty::String,
        ("type", "int") => Ty::Int,
        ("type", "float") => Ty::Float,
        ("type", "decimal") => Ty::Decimal,
        ("type", "datetime") => Ty::Datetime,
        ("duration", f) if f.starts_with("from_") => Ty::Duration,
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
