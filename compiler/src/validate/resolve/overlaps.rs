//! Projections that write into each other's keys: an alias that replaces a field `*` answers (analyzer 4011), a path written inside another projection's value (`name AS info, country AS info.country`; `*` beside `images.url` or `seller.name`, analyzer 7007).
//!
//! SurrealDB 3.3.5 builds a row by writing each projection at its key path, `*`'s fields first
//! (whatever its position), the others in order: a nested key (`info.country`) is set inside what
//! the earlier key holds, turning it into an object, and through an array or a record link it
//! rewrites every element or replaces the link (`*, images.url` gives every image the list of
//! all urls); a later shorter key overwrites the nested one (tests/select_engine.rs). A path that
//! reads the same value it is written at, through objects only (`*, address.city`), answers as
//! without it and is left alone.

use super::{visible_fields, Resolver};
use crate::ir::TableKind;
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::{Class, Edit};
use surrealdb_sql::{Expr, Field, Fields, Idiom, Part, SelectStatement};
use surrealdb_types::ToSql;

/// Whether the printed expression `expr` names `name` as an identifier (not inside a longer one).
fn reads_name(expr: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    expr.match_indices(name).any(|(at, _)| {
        let before = expr[..at].chars().next_back();
        let after = expr[at + name.len()..].chars().next();
        // `$this.f` is the row's field; so is `$parent.f` inside a subquery of the projection.
        let this = expr[..at].ends_with("$this.") || expr[..at].ends_with("$parent.");
        (this || !before.is_some_and(|c| ident(c) || c == '.' || c == '$')) && !after.is_some_and(ident)
    })
}

/// One key the row is written at.
struct Out {
    /// The key path (`info.country` as `["info", "country"]`).
    key: Vec<String>,
    /// The expression written there, as the parser prints it (a field of `*`: its name).
    expr: String,
    ty: Ty,
    alias: Option<String>,
    /// A field `*` answers.
    wildcard: bool,
    /// A function call, a cast or a method call: a value computed from what it reads.
    transform: bool,
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// Each projection that replaces or rewrites what another (or `*`) answers: the same key from
    /// `*` is DuplicateAlias, a key inside another's value OverlappingProjection.
    pub(super) fn overlapping_projections(&mut self, s: &SelectStatement, doc: &Ty, row: &[(String, Ty)]) {
        // The keys alone first: printing every projection costs more than the rest of most
        // validations, and only keys that meet need their expressions.
        if !keys_meet(&self.outputs(s, doc, row, false)) {
            return;
        }
        let outs = self.outputs(s, doc, row, true);
        for j in 0..outs.len() {
            for i in 0..j {
                let (first, later) = (&outs[i], &outs[j]);
                if first.wildcard && later.wildcard {
                    continue;
                }
                if first.key == later.key {
                    // A function of the field it replaces (`record::id(id) AS id`, `<string>id AS
                    // id`): a deliberate rewrite of that value, an idiom of applications; so is,
                    // in the application's own statements, a path into it (`creator.username AS
                    // creator`), which the agent's reply more often writes by mistake.
                    let rewrite = (later.transform || self.app) && reads_name(&later.expr, &first.expr);
                    if first.wildcard && later.expr != first.expr && !rewrite {
                        self.replaces_wildcard_field(later);
                    }
                } else if is_prefix(&first.key, &later.key) {
                    // Written inside what `first` holds: harmless only where it reads that same value through objects.
                    let rest = &later.key[first.key.len()..];
                    let same = later.expr == format!("{}.{}", first.expr, rest.join("."));
                    if !(same && through_objects(&first.ty, rest)) {
                        self.overlap(first, later);
                    }
                } else if is_prefix(&later.key, &first.key) {
                    // Overwritten by the whole later value: harmless only where it was part of it.
                    let inside = first.expr.starts_with(&format!("{}.", later.expr))
                        || first.expr.starts_with(&format!("{}[", later.expr));
                    if !inside {
                        self.overlap(later, first);
                    }
                }
            }
        }
    }

    /// The keys the row is written at, `*`'s fields first; each projection's text (`expr`,
    /// `alias`) only `with_text`.
    fn outputs(&self, s: &SelectStatement, doc: &Ty, row: &[(String, Ty)], with_text: bool) -> Vec<Out> {
        let Fields::Select(fields) = &s.fields else {
            return Vec::new();
        };
        let mut outs = Vec::new();
        if fields.iter().any(|f| matches!(f, Field::All)) {
            if let Some(t) = match doc.element() {
                Ty::Record(t) => self.table(t),
                _ => None,
            } {
                let mut names: Vec<(String, Ty)> = visible_fields(t, self.app)
                    .map(|f| (f.name.clone(), Ty::of_field(f)))
                    .collect();
                names.push(("id".into(), Ty::Record(t.name.clone())));
                // A relation's ends are record links (of several tables: still links, never objects).
                if let TableKind::Relation { from, to } = &t.kind {
                    let end = |tables: &[String]| Ty::Record(tables.first().cloned().unwrap_or_default());
                    names.extend([("in".into(), end(from)), ("out".into(), end(to))]);
                }
                outs.extend(names.into_iter().map(|(name, ty)| Out {
                    key: vec![name.clone()],
                    expr: name,
                    ty,
                    alias: None,
                    wildcard: true,
                    transform: false,
                }));
            }
        }
        for (field, (_, ty)) in fields.iter().zip(row) {
            let Field::Single(selector) = field else { continue };
            let key = match &selector.alias {
                Some(alias) => field_names(alias).unwrap_or_else(|| vec![alias.to_sql()]),
                None => match &selector.expr {
                    Expr::Idiom(idiom) => super::paths::output_key(&selector.expr)
                        .map(|k| k.split('.').map(str::to_owned).collect())
                        .or_else(|| field_names(idiom))
                        .unwrap_or_else(|| vec![selector.expr.to_sql()]),
                    other => vec![other.to_sql()],
                },
            };
            outs.push(Out {
                key,
                // Reserved words print quoted (`info`); the keys and `*`'s fields are bare names.
                expr: if with_text {
                    selector.expr.to_sql().replace('`', "")
                } else {
                    String::new()
                },
                ty: ty.clone(),
                alias: selector.alias.as_ref().filter(|_| with_text).map(|a| a.to_sql()),
                wildcard: false,
                transform: matches!(selector.expr, Expr::FunctionCall(_) | Expr::Prefix { .. })
                    || matches!(&selector.expr, Expr::Idiom(i) if matches!(i.0.last(), Some(Part::Method(..)))),
            });
        }
        outs
    }

    /// `*, tier AS name`: the alias replaces the field `*` answers under that name.
    fn replaces_wildcard_field(&mut self, later: &Out) {
        let name = later.key.join(".");
        let span = self.projection_span(later);
        self.error(
            span,
            Class::DuplicateAlias,
            format!(
                "`*` already answers `{name}`, and `{} AS {name}` replaces it: the row's `{name}` is no longer the record's",
                later.expr
            ),
            format!("give it its own name: `{} AS {}_2`", later.expr, name.replace('.', "_")),
        );
    }

    /// `inner` is written inside the value `outer` holds (or `outer` overwrites it).
    fn overlap(&mut self, outer: &Out, inner: &Out) {
        let (outer_name, inner_name) = (outer.key.join("."), inner.key.join("."));
        let outer_what = if outer.wildcard {
            format!("the `{outer_name}` that `*` answers")
        } else {
            format!("`{}`", written(outer))
        };
        let free = inner_name.replace('.', "_");
        let span = self.projection_span(inner);
        let d = self.error(
            span,
            Class::OverlappingProjection,
            format!(
                "`{}` is written at `{inner_name}`, inside {outer_what}: the engine sets one into the other, \
                so the row loses or rewrites a value (through an array or a record link, every element)",
                written(inner)
            ),
            format!("give it a key of its own: `{} AS {free}`", inner.expr),
        );
        if inner.alias.is_none() {
            d.fixes.push(Edit {
                span: crate::validate::Span {
                    start: span.end,
                    end: span.end,
                },
                replacement: format!(" AS {free}"),
            });
        }
    }

    /// Where a projection is written: its alias after AS, else its expression.
    fn projection_span(&mut self, out: &Out) -> crate::validate::Span {
        let found = match &out.alias {
            Some(alias) => self.loc.find_text(&format!("AS {alias}")),
            None => self.loc.find_text(&out.expr),
        };
        found.or_all(self.loc)
    }
}

/// A projection as written: `expr AS alias` or `expr`.
fn written(out: &Out) -> String {
    match &out.alias {
        Some(alias) => format!("{} AS {alias}", out.expr),
        None => out.expr.clone(),
    }
}

/// An idiom's names when it is only field names (`info.country`), as the engine keys them.
fn field_names(idiom: &Idiom) -> Option<Vec<String>> {
    idiom
        .0
        .iter()
        .map(|p| match p {
            Part::Field(name) => Some(name.as_str().to_owned()),
            _ => None,
        })
        .collect()
}

fn is_prefix(short: &[String], long: &[String]) -> bool {
    short.len() < long.len() && long.starts_with(short)
}

/// Whether the keys `rest` lead through objects only from a value of type `ty`: a nested write
/// there sets the one value it reads. Through an array or a record link it rewrites them; where
/// the type is not known, nothing is claimed.
fn through_objects(ty: &Ty, rest: &[String]) -> bool {
    let Some((head, tail)) = rest.split_first() else {
        return true;
    };
    match ty {
        Ty::Option(inner) => through_objects(inner, rest),
        Ty::Object(keys) => keys
            .iter()
            .find(|(k, _)| k == head)
            .is_none_or(|(_, t)| through_objects(t, tail)),
        Ty::Array(_) | Ty::Record(_) => false,
        _ => true,
    }
}

/// Whether two keys (not both `*`'s) are the same or one lies inside the other: the only pairs
/// `overlapping_projections` judges.
fn keys_meet(outs: &[Out]) -> bool {
    outs.iter().enumerate().any(|(j, later)| {
        outs[..j].iter().any(|first| {
            !(first.wildcard && later.wildcard)
                && (first.key == later.key || is_prefix(&first.key, &later.key) || is_prefix(&later.key, &first.key))
        })
    })
}
