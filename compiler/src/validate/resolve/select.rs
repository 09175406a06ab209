//! Statements: the SELECT, its FROM targets, projections, ORDER/GROUP/FETCH, and the LIMIT policy.

use super::conditions::Place;
use super::{Path, Resolver, Scope};
use crate::codes::Demotion;
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::{Class, Options, Projection};
use surrealdb_sql::order::Ordering;
use surrealdb_sql::{Expr, Field, Fields, Idiom, Literal, Part, SelectStatement};
use surrealdb_types::ToSql;

impl<'a, 'l> Resolver<'a, 'l> {
    /// Resolves a SELECT; returns the type of its result.
    pub(super) fn select(&mut self, s: &SelectStatement, parent: Option<&Scope>) -> Ty {
        self.explain_in_session(s.explain.is_some());
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
        scope.grouped = Some(s.group.is_some());
        scope.tested = s.cond.as_ref().map(|c| &c.0);
        scope.matches = s
            .cond
            .as_ref()
            .is_some_and(|c| crate::validate::walk::has_fulltext_match(&c.0));
        let (row, value) = self.project(&s.fields, &mut scope, &doc);
        scope.grouped = None;
        scope.projected = row.clone();
        self.shape(s);
        self.overlapping_projections(s, &doc, &row);
        for omit in &s.omit {
            self.expr(omit, &scope);
        }
        if let Some(cond) = &s.cond {
            self.condition(&cond.0, &scope, Place::Where);
        }
        if let Some(split) = &s.split {
            for idiom in &split.0 {
                let ty = self.idiom_in(&idiom.0 .0, &scope).ty;
                self.no_op_split(&idiom.0, &ty);
            }
        }
        self.clauses(s);
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
                    let before = self.report.diagnostics.len();
                    self.idiom_in(&order.value.0, &scope);
                    // Under GROUP BY the engine sorts the groups, which have only their keys and aggregates.
                    if self.report.diagnostics.len() == before {
                        self.order_not_grouped(s, &order.value);
                    }
                }
            }
        }
        if let Some(start) = &s.start {
            self.expr(&start.0, &scope);
        }
        // The application's every SELECT, a subquery's too, may take its row count as a parameter.
        if self.app {
            self.limit_params(s);
        }
        if let Some(fetch) = &s.fetch {
            self.fetch(s, fetch, &scope);
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
        let item = value.unwrap_or_else(|| self.row_type(&row));
        if s.only {
            item
        } else {
            Ty::array(item)
        }
    }

    /// The projected row (names and types) and, for `SELECT VALUE`, the value's type; `*` marks
    /// the scope as seeing every field.
    pub(super) fn project(&mut self, fields: &Fields, scope: &mut Scope, doc: &Ty) -> (Vec<(String, Ty)>, Option<Ty>) {
        let mut row: Vec<(String, Ty)> = Vec::new();
        let mut value = None::<Ty>;
        match fields {
            Fields::Value(selector) => {
                let v = self.expr(&selector.expr, scope);
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
                            let v = self.expr(&selector.expr, scope);
                            let name = match &selector.alias {
                                Some(alias) => alias.to_sql(),
                                None => super::paths::unaliased_key(&selector.expr),
                            };
                            row.push((name, v.ty));
                        }
                    }
                }
            }
        }
        (row, value)
    }

    /// The type of one answered row: `SELECT *` alone is the record itself (field access follows
    /// it: `(SELECT * FROM t).name`); `*` beside other projections is the table's fields with
    /// theirs written over them, as the engine builds the row; `*` over what is no known table
    /// is not known.
    fn row_type(&self, row: &[(String, Ty)]) -> Ty {
        if !row.iter().any(|(name, _)| name == "*") {
            return Ty::nested_row(row);
        }
        if let [(_, doc)] = row {
            return doc.clone();
        }
        let mut fields: Vec<(String, Ty)> = Vec::new();
        for (name, ty) in row {
            if name != "*" {
                fields.retain(|(n, _)| n != name);
                fields.push((name.clone(), ty.clone()));
                continue;
            }
            let Ty::Record(t) = ty else { return Ty::Any };
            let Some(table) = self.table(t) else { return Ty::Any };
            fields.push(("id".into(), Ty::Record(table.name.clone())));
            fields.extend(super::visible_fields(table, self.app).map(|f| (f.name.clone(), Ty::of_field(f))));
            if let crate::ir::TableKind::Relation { from, to } = &table.kind {
                fields.extend([
                    ("in".into(), super::relation_end(from)),
                    ("out".into(), super::relation_end(to)),
                ]);
            }
        }
        Ty::nested_row(&fields)
    }

    /// Whether `idiom` names a projected alias or expression (GROUP BY and ORDER BY may use them).
    pub(super) fn is_projected(&self, idiom: &Idiom, scope: &Scope) -> bool {
        let text = idiom.to_sql();
        scope.projected.iter().any(|(name, _)| *name == text)
    }

    /// One FROM target: the document type its rows have, and the traversal that reached it.
    pub(super) fn from(&mut self, what: &Expr, parent: Option<&Scope>) -> (Ty, Path) {
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
                        self.traversal_from_table(&name, idiom);
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
            // The signed-in end user's own row.
            Expr::Param(p) if p.as_str() == "auth" => (self.auth_param(), Path::default()),
            // The application binds a record (or records) to the parameter: `FROM ONLY $rid`.
            Expr::Param(p) if self.app => {
                let scope = Scope::new(Ty::Any, parent);
                (self.param(p.as_str(), &scope, true).element().clone(), Path::default())
            }
            // The application reads from any value it computes (`FROM $u->friends->user OR
            // $u<-friends<-user`, a block, a cast): the engine reads records as their rows.
            Expr::Prefix { .. }
            | Expr::FunctionCall(_)
            | Expr::Binary { .. }
            | Expr::Postfix { .. }
            | Expr::Block(_)
            | Expr::IfElse(_)
                if self.app =>
            {
                let scope = Scope::new(Ty::Any, parent);
                let v = self.expr(what, &scope);
                (v.ty.element().clone(), Path::default())
            }
            // `FROM array::flatten(SELECT VALUE ->contains->product FROM purchase)`: a call whose
            // value is records is read from as those records (the engine fetches each).
            Expr::FunctionCall(_) => {
                let scope = Scope::new(Ty::Any, parent);
                let v = self.expr(what, &scope);
                match v.ty.element() {
                    Ty::Record(t) => (Ty::Record(t.clone()), Path::default()),
                    _ => self.not_a_table(what),
                }
            }
            Expr::Param(_)
            | Expr::Block(_)
            | Expr::IfElse(_)
            | Expr::Binary { .. }
            | Expr::Postfix { .. }
            | Expr::Prefix { .. } => self.not_a_table(what),
            other => {
                let scope = Scope::new(Ty::Any, parent);
                let v = self.expr(other, &scope);
                (v.ty.element().clone(), Path::default())
            }
        }
    }

    /// A FROM target that is no table nor records.
    fn not_a_table(&mut self, what: &Expr) -> (Ty, Path) {
        let span = self.loc.word("from").or_all(self.loc);
        let names = self.table_names();
        self.error(
            span,
            Class::UnknownTable,
            format!("FROM {} does not name a table", what.to_sql()),
            format!("write the table name itself; the tables are: {}", names.join(", ")),
        );
        (Ty::Any, Path::default())
    }

    /// `FROM table->edge->...`: SurrealDB 3.3.5 reads `table` as a field of no document, so
    /// the traversal starts from NONE and the SELECT answers no rows (the path is still typed,
    /// so what it reads is checked too).
    fn traversal_from_table(&mut self, table: &str, idiom: &Idiom) {
        let steps = idiom.0[1..].iter().map(|p| p.to_sql()).collect::<String>();
        let written = format!("{table}{steps}");
        let span = self
            .loc
            .text(&written)
            .or_else(|| self.loc.ident(table, &["FROM", ","]));
        let span = span.or_all(self.loc);
        let replacement = format!("array::flatten(SELECT VALUE {steps} FROM {table})");
        self.error_replacing(
            span,
            Class::TraversalFromTable,
            format!("`FROM {written}` starts from the table's name, not its records: the engine answers no rows"),
            format!(
                "traverse from each record: `FROM array::flatten(SELECT VALUE {steps} FROM {table})`, or from one record: `FROM {table}:key{steps}`"
            ),
            replacement,
        );
    }

    /// `LIMIT $n` / `START $n`: the parameter is a row count.
    fn limit_params(&mut self, s: &SelectStatement) {
        for e in [s.limit.as_ref().map(|l| &l.0), s.start.as_ref().map(|l| &l.0)]
            .into_iter()
            .flatten()
        {
            if let Some(name) = crate::validate::params::user_param(e) {
                self.param_use(name, Ty::Int, false);
            }
        }
    }

    pub(super) fn limit(&mut self, s: &SelectStatement, options: &Options) {
        self.limit_params(s);
        if let Some(Expr::Literal(Literal::Integer(n))) = s.start.as_ref().map(|st| &st.0) {
            if *n < 0 {
                let span = self.signed_clause("start");
                self.error(
                    span,
                    Class::Limit,
                    format!("START {n} is negative: the engine refuses it"),
                    "leave START out, or write START 0 or more".into(),
                );
            }
        }
        let Some(max) = options.max_rows else {
            return;
        };
        match &s.limit {
            // One row at most: a LIMIT changes nothing, so none is asked for (issue 53).
            None if super::only::at_most_one_row(s) => {}
            None => {
                self.report.missing_limit = true;
                let span = self.loc.end();
                let insert = crate::validate::Edit {
                    span,
                    replacement: format!(" LIMIT {max}"),
                };
                if options.adds_limit {
                    // The runner repairs this itself: a warning that says what it did.
                    self.warning(
                        span,
                        Demotion::RunnerAddsLimit,
                        format!("the query has no LIMIT, so the agent's runner adds LIMIT {max}"),
                        format!("end queries with LIMIT {max} or less"),
                    )
                    .fixes
                    .push(insert);
                } else {
                    self.error(
                        span,
                        Class::Limit,
                        "the query has no LIMIT".into(),
                        format!(
                            "end it with LIMIT {max} (the most rows the agent may return; the agent's \
                            runner adds LIMIT {max} to a query without one)"
                        ),
                    )
                    .fixes
                    .push(insert);
                }
            }
            Some(limit) => match &limit.0 {
                Expr::Literal(Literal::Integer(n)) if *n >= 0 && (*n as u64) <= u64::from(max) => {}
                Expr::Literal(Literal::Integer(n)) if *n < 0 => {
                    let span = self.signed_clause("limit");
                    self.error(
                        span,
                        Class::Limit,
                        format!("LIMIT {n} is negative: the engine refuses it"),
                        format!("write LIMIT {max} or a smaller whole number"),
                    );
                }
                Expr::Literal(Literal::Float(_) | Literal::Decimal(_)) => {
                    let i = self.loc.tokens().iter().position(|t| t.is_word("limit"));
                    let written = i
                        .and_then(|i| self.loc.tokens().get(i + 1))
                        .map_or_else(String::new, |t| t.text.clone());
                    let span = i.map_or_else(|| self.loc.all(), |i| self.loc.token_span(i, i + 1));
                    self.error(
                        span,
                        Class::Limit,
                        format!("LIMIT {written} is not a whole number: the engine drops the fraction"),
                        format!("write LIMIT {max} or a smaller whole number"),
                    );
                }
                Expr::Literal(Literal::Integer(n)) => {
                    let span = self.loc.word_and_next("limit").or_all(self.loc);
                    self.error_replacing(
                        span,
                        Class::Limit,
                        format!("LIMIT {n} is more than the {max} rows the agent may return"),
                        format!("use LIMIT {max} or less; to cover more rows, aggregate them (GROUP BY with count() or math::sum())"),
                        format!("LIMIT {max}"),
                    );
                }
                other => {
                    let span = self.loc.word_and_next("limit").or_all(self.loc);
                    self.error(
                        span,
                        Class::Limit,
                        format!("LIMIT {} is not a number", other.to_sql()),
                        format!("write LIMIT {max} or a smaller whole number"),
                    );
                }
            },
        }
    }

    /// `LIMIT -1` / `START -1`: the keyword, the sign and the number.
    fn signed_clause(&mut self, word: &str) -> crate::validate::Span {
        let i = self.loc.tokens().iter().position(|t| t.is_word(word));
        match i {
            Some(i) if self.loc.tokens().get(i + 1).is_some_and(|t| t.is_punct("-")) => self.loc.token_span(i, i + 2),
            Some(i) => self.loc.token_span(i, i + 1),
            None => self.loc.all(),
        }
    }
}
