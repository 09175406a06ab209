//! Clauses that do nothing or undo the question on what they act on: START past a single record, OMIT without `*`, SPLIT on a field that is no array, FETCH on one that holds no record.

use super::Resolver;
use crate::codes::Class;
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use surrealdb_sql::record_id::key::RecordIdKeyLit;
use surrealdb_sql::{Expr, Fields, Literal, SelectStatement};
use surrealdb_types::ToSql;

/// The one record a FROM names, when it is a single record id (not a range nor a list).
fn single_record(s: &SelectStatement) -> Option<String> {
    match s.what.as_slice() {
        [Expr::Literal(Literal::RecordId(rid))] if !matches!(rid.key, RecordIdKeyLit::Range(_)) => Some(rid.to_sql()),
        _ => None,
    }
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// The clause checks of one SELECT that need no types (SPLIT's and FETCH's are made as
    /// those clauses resolve: [`Resolver::no_op_split`], [`Resolver::no_op_fetch`]).
    pub(super) fn clauses(&mut self, s: &SelectStatement) {
        self.start_on_record(s);
        self.omit_without_all(s);
    }

    /// `SPLIT field` where `field` (of type `ty`) is no array: the engine ignores it.
    pub(super) fn no_op_split(&mut self, idiom: &surrealdb_sql::Idiom, ty: &Ty) {
        self.no_op_clause("SPLIT", &idiom.to_sql(), ty, |t| matches!(t, Ty::Array(_)), "an array");
    }

    /// `FETCH field` where `field` (of type `ty`) holds no record link: the engine ignores it.
    pub(super) fn no_op_fetch(&mut self, field: &Expr, ty: &Ty) {
        let holds_records = |t: &Ty| matches!(t.element(), Ty::Record(_));
        self.no_op_clause("FETCH", &field.to_sql(), ty, holds_records, "a record link");
    }

    /// `FROM customer:mei ... START 2`: one row at most, so any START past it answers nothing.
    fn start_on_record(&mut self, s: &SelectStatement) {
        let (Some(record), Some(start)) = (single_record(s), &s.start) else {
            return;
        };
        let Expr::Literal(Literal::Integer(n)) = &start.0 else {
            return;
        };
        if *n < 1 {
            return;
        }
        let span = self.loc.word_and_next("start").or_all(self.loc);
        self.error_replacing(
            span,
            Class::StartOnRecord,
            format!("FROM {record} reads one row, and START {n} skips it: the engine answers no rows"),
            format!("drop START {n} (a record id reads its one row), or select FROM the table"),
            String::new(),
        );
    }

    /// `SELECT name, country OMIT country`: OMIT removes fields from `*`; after an explicit
    /// list it strips a field the query asked for, or does nothing.
    fn omit_without_all(&mut self, s: &SelectStatement) {
        if s.omit.is_empty() {
            return;
        }
        let Fields::Select(fields) = &s.fields else {
            return;
        };
        if fields.iter().any(|f| matches!(f, surrealdb_sql::Field::All)) {
            return;
        }
        let omitted: Vec<String> = s.omit.iter().map(|e| e.to_sql()).collect();
        let span = self.loc.word_and_next("omit").or_all(self.loc);
        let keys: Vec<String> = fields
            .iter()
            .filter_map(|f| match f {
                surrealdb_sql::Field::Single(selector) => Some(match &selector.alias {
                    Some(alias) => alias.to_sql(),
                    None => super::paths::unaliased_key(&selector.expr),
                }),
                surrealdb_sql::Field::All => None,
            })
            .collect();
        // OMIT of what the list does not hold removes nothing: the answer is as without it.
        if !omitted
            .iter()
            .any(|o| keys.iter().any(|k| k == o || o.starts_with(&format!("{k}."))))
        {
            self.error(
                span,
                Class::NoOpClause,
                format!(
                    "OMIT {}: the projection has no such key, so OMIT removes nothing",
                    omitted.join(", ")
                ),
                format!("drop OMIT {} (OMIT removes fields from `SELECT *`)", omitted.join(", ")),
            );
            return;
        }
        self.error(
            span,
            Class::OmitWithoutAll,
            format!(
                "OMIT {} without `*` in the projection: it removes what the SELECT just asked for, or nothing",
                omitted.join(", ")
            ),
            "list only the fields you want (no OMIT), or write `SELECT * OMIT ...`".to_owned(),
        );
    }

    /// A SPLIT or FETCH on a value that cannot be split or fetched: the engine ignores it.
    fn no_op_clause(&mut self, clause: &str, written: &str, ty: &Ty, acts_on: impl Fn(&Ty) -> bool, needs: &str) {
        let kind = match ty {
            Ty::Any | Ty::AnyObject | Ty::None => return,
            t if acts_on(t) => return,
            t => match t.scalar_kind() {
                Some(kind) => kind,
                None => return,
            },
        };
        let span = self.loc.word_and_next(&clause.to_lowercase()).or_all(self.loc);
        self.error(
            span,
            Class::NoOpClause,
            format!("{clause} {written}: `{written}` is a {kind}, not {needs}, so {clause} does nothing"),
            format!("drop {clause} {written}"),
        );
    }
}
