//! The application's writes (CREATE, UPDATE, UPSERT, DELETE, RELATE, INSERT) against the whole schema: the table written, each assigned field and value, the fields a new record leaves without a value, a relation's ends, and what the write returns.

use super::operands::Kind;
use super::{Resolver, Scope};
use crate::ir::{Field, Table, TableKind, Type};
use crate::suggest::nearest;
use crate::validate::params::{user_param, InputOf, ParamUse};
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::{quoted_values, Class, Projection};
use surrealdb_sql::statements::{CreateStatement, DeleteStatement, InsertStatement, RelateStatement};
use surrealdb_sql::{AssignOperator, Cond, Data, Expr, Idiom, Literal, Output, Part};
use surrealdb_types::ToSql;

/// Which write assigns: what a field's READONLY refuses, and what a new record must carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Write {
    /// CREATE, INSERT, RELATE: a new record.
    New,
    /// UPDATE, `ON DUPLICATE KEY UPDATE`: a record that exists.
    Change,
    /// UPSERT: either.
    Either,
}

/// The table a view's SELECT reads (the first name after its FROM), for the repair's wording.
fn view_source(select: &str) -> Option<String> {
    let upper = select.to_ascii_uppercase();
    let at = upper.find(" FROM ")? + " FROM ".len();
    let name: String = select[at..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The top-level fields a write's data names, when they can be known (`None`: `CONTENT $x`).
type Assigned = Option<Vec<String>>;

impl<'a, 'l> Resolver<'a, 'l> {
    /// A write's target (`person`, `person:ann`, `type::record('person', $id)`, a parameter):
    /// the table its records are in, when the query says.
    fn target(&mut self, what: &Expr, scope: &Scope) -> Option<String> {
        let table = match what {
            Expr::Table(t) => {
                let name = t.as_str();
                self.check_table(name, &["CREATE", "UPDATE", "UPSERT", "DELETE", "INTO", "ONLY", ","])
                    .then(|| name.to_owned())
            }
            other => match self.expr(other, scope).ty.element() {
                Ty::Record(t) => Some(t.clone()),
                _ => None,
            },
        }?;
        self.write_to_view(&table);
        Some(table)
    }

    /// A write into a view: SurrealDB 3.3.5 refuses every one ("Cannot write to the `t` table,
    /// as it is a view"; tests/app_engine.rs): the engine computes a view's rows from its SELECT.
    fn write_to_view(&mut self, table: &str) {
        let Some(select) = self.table(table).and_then(|t| t.view.as_deref()) else {
            return;
        };
        let source = view_source(select);
        let span = self
            .loc
            .ident(
                table,
                &["CREATE", "UPDATE", "UPSERT", "DELETE", "INTO", "ONLY", ",", "->"],
            )
            .or_else(|| self.loc.record(table))
            .or_all(self.loc);
        self.error(
            span,
            Class::WriteToReadonly,
            format!("`{table}` is a view: the engine computes its rows from its SELECT and refuses every write to it"),
            match source {
                Some(source) => format!("write to `{source}`, the table the view reads; the view follows"),
                None => "write to the tables the view reads; the view follows".to_owned(),
            },
        );
    }

    /// The one table every target is in, if there is one.
    fn targets(&mut self, what: &[Expr], scope: &Scope) -> Option<String> {
        let tables: Vec<Option<String>> = what.iter().map(|w| self.target(w, scope)).collect();
        match tables.as_slice() {
            [Some(one), rest @ ..] if rest.iter().all(|t| t.as_deref() == Some(one.as_str())) => Some(one.clone()),
            _ => None,
        }
    }

    /// The document scope of a write on `table` (its fields are what names in it refer to).
    fn row_scope<'p>(table: Option<&str>, parent: &'p Scope<'p>) -> Scope<'p> {
        Scope::new(table.map_or(Ty::Any, |t| Ty::Record(t.to_owned())), Some(parent))
    }

    pub(super) fn create(&mut self, s: &CreateStatement, scope: &Scope) -> Ty {
        let table = self.targets(&s.what, scope);
        let row = Self::row_scope(table.as_deref(), scope);
        let assigned = match &s.data {
            Some(data) => self.data(data, table.as_deref(), &row, Write::New),
            None => Some(Vec::new()),
        };
        if let (Some(t), Some(assigned)) = (&table, &assigned) {
            self.required(t, assigned, "CREATE");
        }
        self.output(s.output.as_ref(), table.as_deref(), s.only, &row, true)
    }

    #[allow(clippy::too_many_arguments)] // UPDATE and UPSERT share every clause but their names.
    pub(super) fn update(
        &mut self,
        what: &[Expr],
        only: bool,
        data: Option<&Data>,
        cond: Option<&Cond>,
        output: Option<&Output>,
        upsert: bool,
        scope: &Scope,
    ) -> Ty {
        let table = self.targets(what, scope);
        let row = Self::row_scope(table.as_deref(), scope);
        if let Some(cond) = cond {
            self.condition(&cond.0, &row, super::conditions::Place::Where);
        }
        if let Some(data) = data {
            let write = if upsert { Write::Either } else { Write::Change };
            self.data(data, table.as_deref(), &row, write);
        }
        self.output(output, table.as_deref(), only, &row, true)
    }

    pub(super) fn delete(&mut self, s: &DeleteStatement, scope: &Scope) -> Ty {
        let table = self.targets(&s.what, scope);
        let row = Self::row_scope(table.as_deref(), scope);
        if let Some(cond) = &s.cond {
            self.condition(&cond.0, &row, super::conditions::Place::Where);
        }
        self.output(s.output.as_ref(), table.as_deref(), s.only, &row, false)
    }

    pub(super) fn relate(&mut self, s: &RelateStatement, scope: &Scope) -> Ty {
        let edge = self.target(&s.through, scope);
        let from = (self.expr(&s.from, scope).ty, s.from.to_sql());
        let to = (self.expr(&s.to, scope).ty, s.to.to_sql());
        if let Some(edge) = &edge {
            self.relation_ends(edge, &from, &to);
        }
        let row = Self::row_scope(edge.as_deref(), scope);
        let assigned = match &s.data {
            Some(data) => self.data(data, edge.as_deref(), &row, Write::New),
            None => Some(Vec::new()),
        };
        if let (Some(t), Some(assigned)) = (&edge, &assigned) {
            self.required(t, assigned, "RELATE");
        }
        self.output(s.output.as_ref(), edge.as_deref(), s.only, &row, true)
    }

    pub(super) fn insert(&mut self, s: &InsertStatement, scope: &Scope) -> Ty {
        let table = s.into.as_ref().and_then(|into| self.target(into, scope));
        let row = Self::row_scope(table.as_deref(), scope);
        let records: Vec<&Expr> = match &s.data {
            Data::SingleExpression(Expr::Literal(Literal::Array(items))) => items.iter().collect(),
            Data::SingleExpression(one) => vec![one],
            _ => Vec::new(),
        };
        if records.is_empty() {
            let assigned = self.data(&s.data, table.as_deref(), &row, Write::New);
            if let (Some(t), Some(assigned)) = (&table, &assigned) {
                self.required(t, assigned, "INSERT");
            }
        }
        for record in records {
            let assigned = self.record_value(record, table.as_deref(), &row, Write::New, false);
            if let (Some(t), Some(assigned)) = (&table, &assigned) {
                if s.relation {
                    self.inserted_ends(t, record, &row);
                }
                self.required(t, assigned, "INSERT");
            }
        }
        if let Some(update) = &s.update {
            self.data(update, table.as_deref(), &row, Write::Change);
        }
        self.output(s.output.as_ref(), table.as_deref(), false, &row, true)
    }

    /// The data clause of a write on `table` (when known): each assignment checked; the
    /// top-level fields it names, when the query says them.
    fn data(&mut self, data: &Data, table: Option<&str>, scope: &Scope, write: Write) -> Assigned {
        match data {
            Data::SetExpression(list) | Data::UpdateExpression(list) => {
                let mut names = Vec::new();
                for a in list {
                    self.assign(&a.place, &a.operator, &a.value, table, scope, write);
                    names.extend(first_field(&a.place));
                }
                Some(names)
            }
            Data::UnsetExpression(idioms) => {
                for idiom in idioms {
                    self.idiom_in(&idiom.0, scope);
                }
                Some(Vec::new())
            }
            Data::ContentExpression(e) | Data::ReplaceExpression(e) | Data::SingleExpression(e) => {
                self.record_value(e, table, scope, write, false)
            }
            Data::MergeExpression(e) | Data::PatchExpression(e) => {
                self.record_value(e, table, scope, write, true);
                None
            }
            Data::ValuesExpression(rows) => {
                let mut names = Vec::new();
                for row in rows {
                    names.clear();
                    for (place, value) in row {
                        self.assign(place, &AssignOperator::Assign, value, table, scope, write);
                        names.extend(first_field(place));
                    }
                }
                Some(names)
            }
            Data::EmptyExpression => Some(Vec::new()),
        }
    }

    /// A whole record's value (`CONTENT {...}`, `MERGE $x`, one `INSERT` object): an object
    /// literal's keys checked as fields and its values as assignments; a parameter typed as the
    /// table's input (`partial`: any subset of its fields).
    fn record_value(&mut self, e: &Expr, table: Option<&str>, scope: &Scope, write: Write, partial: bool) -> Assigned {
        match e {
            Expr::Literal(Literal::Object(entries)) => {
                let mut names = Vec::new();
                for entry in entries {
                    let place = Idiom(vec![Part::Field(entry.key.clone())]);
                    self.assign(&place, &AssignOperator::Assign, &entry.value, table, scope, write);
                    names.push(entry.key.as_str().to_owned());
                }
                Some(names)
            }
            other => {
                if let (Some(name), Some(t)) = (user_param(other), table) {
                    self.report.params.push(ParamUse {
                        name: name.to_owned(),
                        ty: Ty::Record(t.to_owned()),
                        cast: false,
                        input: Some(InputOf {
                            table: t.to_owned(),
                            partial,
                        }),
                    });
                }
                self.expr(other, scope);
                None
            }
        }
    }

    /// `place op value` on a record of `table`: the place a field the query may write, the
    /// value of the field's kind (a literal union's value), a parameter typed as the field.
    fn assign(
        &mut self,
        place: &Idiom,
        op: &AssignOperator,
        value: &Expr,
        table: Option<&str>,
        scope: &Scope,
        write: Write,
    ) {
        let v = self.expr(value, scope);
        let Some(t) = table.and_then(|t| self.table(t)) else {
            return;
        };
        if let Some(first) = first_field(place) {
            if matches!(first.as_str(), "id" | "in" | "out") {
                if first == "id" && write == Write::Change && place.0.len() == 1 {
                    self.write_to_fixed(
                        &first,
                        &t.name,
                        "the record's id cannot change, so the engine fails the write",
                    );
                }
                return;
            }
            // A SCHEMALESS table takes fields its schema does not declare: writing one is how
            // they come to be, not a mistake (a read of one is still a warning).
            if t.schemaless && t.field(&first).is_none() {
                return;
            }
        }
        let target = self.idiom_in(&place.0, scope);
        if !t.schemaless {
            self.undeclared_path(t, place);
        }
        let Some((_, path)) = &target.field else {
            return;
        };
        let Some(field) = field_at(t, path) else {
            return;
        };
        if field.clauses.computed.is_some() {
            self.write_to_fixed(
                path,
                &t.name,
                "it is COMPUTED: the engine works it out on every read and drops the value written",
            );
        } else if field.clauses.readonly && write == Write::Change {
            self.write_to_fixed(
                path,
                &t.name,
                "it is READONLY, set once when the record is made, so the engine fails the write",
            );
        }
        if !t.schemaless {
            let element = !matches!(op, AssignOperator::Assign);
            self.undeclared_keys(&t.name, path, field, value, element);
        }
        let want = match op {
            AssignOperator::Assign => target.ty.clone(),
            // `tags += 'x'`: one element (or a list of them) added to the array.
            _ => match &target.ty {
                Ty::Array(item) => (**item).clone(),
                Ty::Option(inner) => inner.element().clone(),
                other => other.clone(),
            },
        };
        if let Some(name) = user_param(value) {
            if !self.vars.iter().any(|(n, _)| n == name) {
                self.param_use(name, want.clone(), false);
            }
        }
        // NONE into a field with a DEFAULT or VALUE clause takes that value instead.
        let fills_none = field.clauses.default.is_some() || field.clauses.value.is_some();
        let got = match (&v.ty, op) {
            (Ty::None, _) if fills_none => Ty::Any,
            // `tags += ['a', 'b']`: a list of elements extends the array as one element does.
            (Ty::Array(item), AssignOperator::Add | AssignOperator::Subtract) if matches!(target.ty, Ty::Array(_)) => {
                (**item).clone()
            }
            (ty, _) => ty.clone(),
        };
        if *op == AssignOperator::Assign || matches!(target.ty, Ty::Array(_)) {
            self.assigned_kind(&t.name, path, &want, value, &got);
        }
    }

    /// A write to `id`, a READONLY field on an update, or a COMPUTED field: the engine fails.
    fn write_to_fixed(&mut self, path: &str, table: &str, why: &str) {
        let span = self
            .loc
            .ident(path.split('.').next().unwrap_or(path), &["SET", ",", "{"])
            .or_all(self.loc);
        self.error(
            span,
            Class::WriteToReadonly,
            format!("`{table}.{path}` cannot be written here: {why}"),
            format!("leave `{path}` out of the write"),
        );
    }

    /// The value assigned to `table.path` (whose type is `want`) against that type: a string
    /// outside a literal union, a value of another kind, NONE into a field that needs a value.
    fn assigned_kind(&mut self, table: &str, path: &str, want: &Ty, value: &Expr, got: &Ty) {
        if matches!(value, Expr::Literal(Literal::Null)) && *want != Ty::Any {
            self.null_assigned(table, path, want);
            return;
        }
        if let (Some(values), Expr::Literal(Literal::String(s))) = (want.literal_values(), value) {
            if !values.iter().any(|v| v == s.as_str()) {
                let near = values.iter().find(|v| v.eq_ignore_ascii_case(s.as_str())).or_else(|| {
                    nearest(s.as_str(), values.iter().map(String::as_str)).and_then(|n| values.iter().find(|v| *v == n))
                });
                let span = self.loc.string(s.as_str()).or_all(self.loc);
                let fix = match near {
                    Some(near) => format!("did you mean '{near}'? Write the value exactly as the type spells it"),
                    None => format!("write one of {}", quoted_values(values)),
                };
                self.error_fixed(
                    span,
                    Class::AssignedWrongType,
                    format!(
                        "'{s}' is not a value of {table}.{path} ({}): the engine fails the write",
                        quoted_values(values)
                    ),
                    fix,
                    near.map(|n| quoted_values(std::slice::from_ref(n))),
                );
            }
            return;
        }
        let whole = |w: &Ty| matches!(w, Ty::Int) || matches!(w, Ty::Option(inner) if **inner == Ty::Int);
        let fraction = match value {
            Expr::Literal(Literal::Float(f)) => f.fract() != 0.0,
            Expr::Literal(Literal::Decimal(_)) => {
                let text = value.to_sql();
                text.trim_end_matches("dec")
                    .parse::<f64>()
                    .is_ok_and(|f| f.fract() != 0.0)
            }
            _ => false,
        };
        let why = if whole(want) && fraction {
            Some("a number with a fraction, which no int holds".to_owned())
        } else {
            mismatch(want, got)
        };
        if let Some(why) = why {
            let written = value.to_sql();
            let span = self.loc.text(&written).or_all(self.loc);
            self.error(
                span,
                Class::AssignedWrongType,
                format!(
                    "{table}.{path} is {}, but `{written}` is {why}: the engine fails the write",
                    a(want)
                ),
                format!(
                    "assign {} (a cast such as `<{}> ...` converts a value the engine can read as one)",
                    a(want),
                    want
                ),
            );
        }
    }

    /// NULL written into a typed field: SurrealQL's NULL is a value of its own, not NONE, and only
    /// `any` (or a type that names `null`) holds it; an `option<T>` or a DEFAULT does not take it
    /// for NONE (the engine fails: "Expected `none | string` but found `NULL`", `tests/app_idioms.rs`).
    fn null_assigned(&mut self, table: &str, path: &str, want: &Ty) {
        let found = self.loc.word("NULL");
        let span = found.or_all(self.loc);
        let optional = matches!(want, Ty::Option(_));
        let fix = if optional {
            "write NONE to leave the field without a value (or leave it out of the write)".to_owned()
        } else {
            format!("assign {}; the field takes no NULL and no NONE", a(want))
        };
        self.error_fixed(
            span,
            Class::AssignedWrongType,
            format!(
                "{table}.{path} is {}, and NULL is not NONE: SurrealQL's NULL is a value of its own, which the field \
                 does not hold, so the engine fails the write (\"found `NULL`\")",
                a(want)
            ),
            fix,
            found.filter(|_| optional).map(|_| "NONE".to_owned()),
        );
    }

    /// CREATE/INSERT/RELATE of `table` naming only `assigned`: every field that needs a value
    /// (no DEFAULT, VALUE or COMPUTED clause, not `option`) and is left out makes the engine fail.
    fn required(&mut self, table: &str, assigned: &[String], verb: &str) {
        let Some(t) = self.table(table) else {
            return;
        };
        if t.schemaless {
            return;
        }
        let missing: Vec<&Field> = t
            .fields
            .iter()
            .filter(|f| needs_value(f) && !assigned.iter().any(|a| *a == f.name))
            .collect();
        if missing.is_empty() {
            return;
        }
        let names: Vec<String> = missing
            .iter()
            .map(|f| format!("`{}` ({})", f.name, Ty::of(&f.ty)))
            .collect();
        let span = self.loc.find_text(verb).or_all(self.loc);
        self.error(
            span,
            Class::MissingRequiredField,
            format!(
                "this {verb} leaves {} of `{table}` without a value: the engine fails (NONE is not a value of {})",
                names.join(", "),
                if missing.len() == 1 { "its type" } else { "their types" }
            ),
            "set each of them, or give the field a DEFAULT or an `option<...>` type in the schema".into(),
        );
    }

    /// `RELATE from->edge->to`: `edge` a relation table whose IN takes `from`'s table and OUT `to`'s.
    fn relation_ends(&mut self, edge: &str, from: &(Ty, String), to: &(Ty, String)) {
        let Some(t) = self.table(edge) else {
            return;
        };
        let TableKind::Relation { from: ins, to: outs } = &t.kind else {
            let span = self.loc.ident(edge, &["->", "<-"]).or_all(self.loc);
            self.error(
                span,
                Class::WrongRelationEnd,
                format!("`{edge}` is not a relation table (TYPE RELATION): the engine refuses to relate through it"),
                match self.relation_names().as_slice() {
                    [] => format!(
                        "declare `{edge}` as a relation (TYPE RELATION IN ... OUT ...), or write a link field instead"
                    ),
                    names => format!("relate through one of the relation tables: {}", names.join(", ")),
                },
            );
            return;
        };
        let (ins, outs) = (ins.clone(), outs.clone());
        for (side, (ty, written), allowed, other) in [("IN", from, &ins, &outs), ("OUT", to, &outs, &ins)] {
            let Ty::Record(table) = ty.element() else {
                continue;
            };
            if allowed.iter().any(|a| a == table) {
                continue;
            }
            let reversed = other.iter().any(|o| o == table);
            let span = self.loc.find_text(written).or_all(self.loc);
            let fix = if reversed {
                format!(
                    "the relation runs {} -> {edge} -> {}: swap the two ends",
                    ins.join(" | "),
                    outs.join(" | ")
                )
            } else {
                format!("`{edge}`'s {side} end is {}", allowed.join(" | "))
            };
            self.error(
                span,
                Class::WrongRelationEnd,
                format!(
                    "`{edge}` is TYPE RELATION IN {} OUT {}, and this {side} end is a `{table}`: the engine fails",
                    ins.join(" | "),
                    outs.join(" | ")
                ),
                fix,
            );
        }
    }

    /// `INSERT RELATION INTO edge {in: ..., out: ...}`: the object's ends against the relation's.
    fn inserted_ends(&mut self, edge: &str, record: &Expr, scope: &Scope) {
        let Expr::Literal(Literal::Object(entries)) = record else {
            return;
        };
        let end = |name: &str| entries.iter().find(|e| e.key.as_str() == name).map(|e| e.value.clone());
        let (from, to) = (end("in"), end("out"));
        let mut side = |e: Option<Expr>| e.map_or((Ty::Any, String::new()), |e| (self.expr(&e, scope).ty, e.to_sql()));
        let (from, to) = (side(from), side(to));
        self.relation_ends(edge, &from, &to);
    }

    fn relation_names(&self) -> Vec<&'a str> {
        self.visible
            .iter()
            .filter(|t| matches!(t.kind, TableKind::Relation { .. }))
            .map(|t| t.name.as_str())
            .collect()
    }

    /// What a write answers: its RETURN clause (`default_rows`: the records after it, as
    /// CREATE, UPDATE and RELATE answer; DELETE answers nothing), typed as the table's rows.
    fn output(
        &mut self,
        output: Option<&Output>,
        table: Option<&str>,
        only: bool,
        row: &Scope,
        default_rows: bool,
    ) -> Ty {
        let record = table.map_or(Ty::AnyObject, |t| Ty::Record(t.to_owned()));
        let item = match output {
            None if default_rows => Some(record.clone()),
            None | Some(Output::None) | Some(Output::Null) => None,
            Some(Output::After | Output::Before) => Some(record.clone()),
            Some(Output::Diff) => Some(Ty::Any),
            Some(Output::Fields(fields)) => {
                self.in_output = true;
                // A SCHEMALESS table's written record holds what the write set, declared or not.
                let schemaless = table.and_then(|t| self.table(t)).is_some_and(|t| t.schemaless);
                let doc = if schemaless { Ty::AnyObject } else { row.doc.clone() };
                let mut scope = Scope::new(doc, row.parent);
                let (projected, value) = self.project(fields, &mut scope, &record);
                self.in_output = false;
                self.report.projections = to_projections(&projected);
                return wrap(value.unwrap_or_else(|| Ty::nested_row(&projected)), only);
            }
        };
        match item {
            Some(item) => {
                self.report.projections = vec![Projection {
                    name: "*".into(),
                    ty: item.clone(),
                }];
                wrap(item, only)
            }
            None => {
                self.report.projections.clear();
                Ty::None
            }
        }
    }
}

fn wrap(item: Ty, only: bool) -> Ty {
    if only {
        item
    } else {
        Ty::array(item)
    }
}

fn to_projections(row: &[(String, Ty)]) -> Vec<Projection> {
    row.iter()
        .map(|(name, ty)| Projection {
            name: name.clone(),
            ty: ty.clone(),
        })
        .collect()
}

/// The first field name of a place (`address` of `address.city`).
fn first_field(place: &Idiom) -> Option<String> {
    match place.0.first() {
        Some(Part::Field(name)) => Some(name.as_str().to_owned()),
        _ => None,
    }
}

/// The schema field at `path` (`address.city`; array levels as `.*` or not).
fn field_at<'t>(t: &'t Table, path: &str) -> Option<&'t Field> {
    let want: Vec<&str> = path.split('.').filter(|p| *p != "*").collect();
    t.field_paths()
        .into_iter()
        .find(|(p, _)| p.split('.').filter(|s| *s != "*").eq(want.iter().copied()))
        .map(|(_, f)| f)
}

/// Whether a new record must carry the field: it has no DEFAULT, VALUE or COMPUTED clause and
/// its type does not take NONE (scalar, record link and literal types: those the engine was
/// seen to refuse NONE for, `tests/app_engine.rs`).
fn needs_value(f: &Field) -> bool {
    let c = &f.clauses;
    if c.default.is_some() || c.value.is_some() || c.computed.is_some() {
        return false;
    }
    matches!(
        f.ty,
        Type::Bool
            | Type::Int
            | Type::Float
            | Type::Decimal
            | Type::Number
            | Type::String
            | Type::Datetime
            | Type::Duration
            | Type::Uuid
            | Type::Record(_)
            | Type::Literal(_)
    )
}

/// Why a value of type `got` cannot be assigned to a field of type `want`, when the types say
/// so for every value: another scalar kind, a link to another table, NONE where a value is needed.
fn mismatch(want: &Ty, got: &Ty) -> Option<String> {
    match (want, got) {
        (_, Ty::Any) | (Ty::Any, _) => None,
        (Ty::Option(_), Ty::None) => None,
        (Ty::Option(inner), other) => mismatch(inner, other),
        (_, Ty::Option(inner)) => mismatch(want, inner),
        (_, Ty::None) => Some("NONE".into()),
        (Ty::Record(w), Ty::Record(g)) if w != g => Some(format!("a link to `{g}`")),
        (Ty::Array(w), Ty::Array(g)) => mismatch(w, g),
        // A record link takes a record id, an array an array: nothing else coerces to either.
        (Ty::Record(_), g) if Kind::of(g).is_some() || matches!(g, Ty::Array(_)) => Some(a(g)),
        (Ty::Array(_), g) if Kind::of(g).is_some() || matches!(g, Ty::Record(_)) => Some(a(g)),
        (w, g) => match (Kind::of(w), Kind::of(g)) {
            (Some(wk), Some(gk)) if wk != gk => Some(a(g)),
            (Some(_), None) if matches!(g, Ty::Record(_) | Ty::Array(_)) => Some(a(g)),
            _ => None,
        },
    }
}

/// `a datetime`, `an int`: a type with its article, for messages.
fn a(ty: &Ty) -> String {
    match ty {
        Ty::Record(t) => format!("a link to `{t}`"),
        Ty::Array(_) => "an array".into(),
        Ty::Literal(values) => format!("one of {}", quoted_values(values)),
        other => super::calls::article(other.to_string()),
    }
}
