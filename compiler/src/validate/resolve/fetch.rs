//! FETCH on the rows the SELECT answers: SurrealDB 3.3.5 fetches after it projects, so a FETCH path names the answer's keys (an alias, a projected path, any field under `*`), and one the answer lacks fetches nothing.

use super::{Path, Resolver, Scope};
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::{Class, Edit};
use surrealdb_sql::{Expr, Fetchs, Field, Fields, Idiom, Part, SelectStatement};
use surrealdb_types::ToSql;

/// What the engine does with one FETCH path, read off the projection (tests/select_engine.rs).
enum Target {
    /// A key of the answered row (an alias, a projected path): typed from the projection.
    Answered(Ty),
    /// A field of the document under `*`: typed from the table.
    Document,
    /// A graph step in the path: the engine's FETCH walks field names only, so it does nothing.
    Graph,
    /// Not in the answer: nothing to fetch.
    Missing,
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// FETCH's fields, each typed where the engine looks for it (the answered row), a link to a
    /// known table; a path the answer lacks is a FETCH that does nothing (SQ0605).
    pub(super) fn fetch(&mut self, s: &SelectStatement, fetch: &Fetchs, scope: &Scope) {
        for f in &fetch.0 {
            let ty = match (&f.0, target(s, &f.0, scope)) {
                (Expr::Idiom(idiom), Target::Answered(row)) => {
                    let mut path = Path::default();
                    let inner = Scope::new(Ty::Any, Some(scope));
                    self.parts(&idiom.0, row, &inner, &mut path).ty
                }
                (_, Target::Graph) => {
                    self.expr(&f.0, scope);
                    self.fetch_does_nothing(s, &f.0, "a graph step is no key of the row");
                    continue;
                }
                (_, Target::Missing) => {
                    let before = self.report.diagnostics.len();
                    self.expr(&f.0, scope);
                    // An unknown field is that finding; a field the rows have but the answer lacks is this one.
                    if self.report.diagnostics.len() == before {
                        self.fetch_does_nothing(s, &f.0, "the SELECT does not answer it");
                    }
                    continue;
                }
                _ => self.expr(&f.0, scope).ty,
            };
            self.no_op_fetch(&f.0, &ty);
            // A link to a table the agent may not read (hidden reads as missing) is refused; the
            // application fetches what its field declares, even a table the schema leaves undefined.
            if let Ty::Record(t) = ty.element() {
                if !self.app && self.table(t).is_none() {
                    let t = t.clone();
                    let span = self.loc.word_and_next("fetch").or_all(self.loc);
                    self.unknown_table(span, &t, |_| None);
                }
            }
        }
    }

    /// `FETCH x` where the answered rows have no `x`: the engine answers as without it. The
    /// repair names the alias the projection gave the same expression, when there is one.
    fn fetch_does_nothing(&mut self, s: &SelectStatement, field: &Expr, why: &str) {
        let written = field.to_sql();
        let alias = alias_of(s, &written);
        let span = self.loc.text_after("fetch", &written).or_all(self.loc);
        let fix = match &alias {
            Some(alias) => format!("FETCH the name the row has: `FETCH {alias}`"),
            None if matches!(field, Expr::Idiom(i) if has_graph(i)) => {
                format!(
                    "project it with an alias and FETCH the alias: `SELECT ..., {written} AS linked ... FETCH linked`"
                )
            }
            None => format!("project `{written}` (FETCH acts on the answered rows), or drop FETCH {written}"),
        };
        let d = self.error(
            span,
            Class::NoOpClause,
            format!("FETCH {written}: {why}, and FETCH acts on the rows the SELECT answers, so it fetches nothing"),
            fix,
        );
        if let Some(alias) = alias {
            d.fixes.push(Edit {
                span,
                replacement: alias,
            });
        }
    }
}

/// Where the engine finds FETCH's `expr` in the answered rows. SELECT VALUE, a parameter or a
/// function (a path given as a string) are typed from the document, as before.
fn target(s: &SelectStatement, expr: &Expr, scope: &Scope) -> Target {
    let Expr::Idiom(idiom) = expr else {
        return Target::Document;
    };
    if matches!(s.fields, Fields::Value(_)) {
        return Target::Document;
    }
    if has_graph(idiom) {
        return Target::Graph;
    }
    let Some(Part::Field(head)) = idiom.0.first() else {
        return Target::Document;
    };
    let keys: Vec<(String, Ty)> = scope.projected.iter().filter(|(n, _)| n != "*").cloned().collect();
    let row = Ty::nested_row(&keys);
    if matches!(&row, Ty::Object(keys) if keys.iter().any(|(k, _)| k == head.as_str())) {
        return Target::Answered(row);
    }
    if scope.all {
        Target::Document
    } else {
        Target::Missing
    }
}

fn has_graph(idiom: &Idiom) -> bool {
    idiom.0.iter().any(|p| matches!(p, Part::Graph(_)))
}

/// The alias the projection gives the expression written `text` (`->placed->purchase AS orders`).
fn alias_of(s: &SelectStatement, text: &str) -> Option<String> {
    let Fields::Select(fields) = &s.fields else {
        return None;
    };
    fields.iter().find_map(|f| match f {
        Field::Single(selector) if selector.expr.to_sql() == text => selector.alias.as_ref().map(ToSql::to_sql),
        _ => None,
    })
}
