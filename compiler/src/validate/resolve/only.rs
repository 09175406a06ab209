//! `FROM ONLY`: what the engine answers with one row (a record id, LIMIT 1, GROUP ALL, a WHERE that pins the record id or a UNIQUE index) passes; a table, a range or a traversal without one is OnlyWithoutLimitOne. Also which SELECTs answer one row at most, whose LIMIT the policy does not ask for.
//!
//! SurrealDB 3.3.5 collects a `FROM ONLY` table's rows and answers the one row, NONE for none,
//! and fails ("Expected a single result output when using the ONLY keyword") at the second; a
//! LIMIT above 1 fails before it reads (tests/document_engine.rs). So a form passes only when no
//! data can give it two rows; one that answers today and fails when a second row matches is refused.

use super::Resolver;
use crate::ir::IndexKind;
use crate::validate::scan::OrAll;
use crate::validate::Class;
use surrealdb_sql::{BinaryOperator, Expr, Literal, Part, RecordIdKeyLit, RecordIdLit, SelectStatement};

impl<'a, 'l> Resolver<'a, 'l> {
    pub(super) fn only_without_limit_one(&mut self, s: &SelectStatement) {
        if !s.only {
            return;
        }
        // A record id gives one row; a table, a range or a traversal from one, many; so do two
        // targets, or a list of more than one record id (`FROM ONLY [t:1, t:2]`: analyzer 4003).
        let many = s.what.len() > 1
            || s.what.iter().any(|w| match w {
                Expr::Table(_) => true,
                // A traversal, a filter or `.*` gives many; a path to one value (`$r.id`) one.
                Expr::Idiom(i) => i.0.iter().any(|p| {
                    matches!(
                        p,
                        Part::Graph(_) | Part::All | Part::Flatten | Part::Where(_) | Part::Recurse(..)
                    )
                }),
                // A subquery's rows: many unless it gives one (tests/document_engine.rs).
                Expr::Select(inner) => !(inner.only || limit_at_most_one(inner) || group_all(inner)),
                Expr::Literal(Literal::RecordId(RecordIdLit {
                    key: RecordIdKeyLit::Range(_),
                    ..
                })) => true,
                Expr::Literal(Literal::Array(items)) => items.len() > 1,
                _ => false,
            });
        if !many || limit_at_most_one(s) || group_all(s) || self.pins_one_row(s) {
            return;
        }
        let span = self.loc.word("ONLY").or_all(self.loc);
        self.error(
            span,
            Class::OnlyWithoutLimitOne,
            "FROM ONLY over rows that can be more than one: the engine fails (\"Expected a single result output when using the ONLY keyword\") as soon as a second row matches".into(),
            "add LIMIT 1 to get one row, GROUP ALL for one total, WHERE id = table:key for one record, or drop ONLY to get a list".into(),
        );
    }

    /// A `FROM ONLY table WHERE ...` whose AND-ed conditions fix the record id (`id = t:k`,
    /// `id IN [t:k]`) or every field of one of the table's UNIQUE indexes (`email = '...'`).
    fn pins_one_row(&self, s: &SelectStatement) -> bool {
        let ([Expr::Table(table)], Some(cond)) = (s.what.as_slice(), &s.cond) else {
            return false;
        };
        let mut pinned: Vec<String> = Vec::new();
        conjuncts(&cond.0, &mut |e| {
            if let Some(field) = equality_field(e) {
                pinned.push(field);
            }
        });
        if pinned.iter().any(|f| f == "id") {
            return true;
        }
        self.table(table.as_str()).is_some_and(|t| {
            t.indexes
                .iter()
                .any(|i| matches!(i.kind, IndexKind::Unique) && i.fields.iter().all(|f| pinned.iter().any(|p| p == f)))
        })
    }
}

/// Whether `s` answers one row at most whatever the data, so a LIMIT would change nothing:
/// `GROUP ALL` (one total), `FROM ONLY` (one value, or the engine's error that SQ0602 is about),
/// or one record id without `SPLIT` (its row or none). Proven on the engine in tests/document_engine.rs.
pub(super) fn at_most_one_row(s: &SelectStatement) -> bool {
    let one_record = matches!(
        s.what.as_slice(),
        [Expr::Literal(Literal::RecordId(RecordIdLit { key, .. }))] if !matches!(key, RecordIdKeyLit::Range(_))
    );
    group_all(s) || s.only || (one_record && s.split.is_none())
}

fn limit_at_most_one(s: &SelectStatement) -> bool {
    matches!(&s.limit, Some(l) if matches!(l.0, Expr::Literal(Literal::Integer(0 | 1))))
}

/// `GROUP ALL`: one row whatever the data (NONE for no rows).
fn group_all(s: &SelectStatement) -> bool {
    matches!(&s.group, Some(g) if g.0.is_empty())
}

/// Calls `f` on each operand of the top-level ANDs of `e`.
pub(super) fn conjuncts(e: &Expr, f: &mut impl FnMut(&Expr)) {
    match e {
        Expr::Binary {
            left,
            op: BinaryOperator::And,
            right,
        } => {
            conjuncts(left, f);
            conjuncts(right, f);
        }
        other => f(other),
    }
}

/// The field an equality fixes to one value: `field = value` (either side), `id IN [one]`.
fn equality_field(e: &Expr) -> Option<String> {
    let Expr::Binary { left, op, right } = e else {
        return None;
    };
    let field = |e: &Expr| match e {
        Expr::Idiom(i) => match i.0.as_slice() {
            [Part::Field(name)] => Some(name.as_str().to_owned()),
            _ => None,
        },
        _ => None,
    };
    let one_value =
        |e: &Expr| matches!(e, Expr::Literal(_) | Expr::Param(_)) && !matches!(e, Expr::Literal(Literal::Array(_)));
    match op {
        BinaryOperator::Equal | BinaryOperator::ExactEqual => match (field(left), field(right)) {
            (Some(f), None) if one_value(right) => Some(f),
            (None, Some(f)) if one_value(left) => Some(f),
            _ => None,
        },
        BinaryOperator::Inside => match (field(left), right.as_ref()) {
            (Some(f), Expr::Literal(Literal::Array(items))) if f == "id" && items.len() == 1 => Some(f),
            _ => None,
        },
        _ => None,
    }
}
