//! Aggregates and the SELECT's shape: `count()` and other aggregates outside GROUP, what a grouped SELECT may project, `*` under GROUP, duplicate output names (`FROM ONLY` is `only.rs`', conditions `conditions.rs`').

use super::{Resolver, Scope, Val};
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::Class;
use surrealdb_sql::{Expr, Field, Fields, SelectStatement};
use surrealdb_types::ToSql;

/// Whether the engine folds a group's values with `name` (the signature table's aggregate flag,
/// proven on the engine by tests/functions.rs); without GROUP it sees one row's value.
fn is_aggregate(name: &str) -> bool {
    crate::validate::functions::signature(name).is_some_and(|s| s.aggregate)
}

/// Aggregates over numbers: over strings they answer 0 or NONE, not an error.
fn is_numeric_aggregate(name: &str) -> bool {
    name.starts_with("math::") && is_aggregate(name)
}

/// Whether `expr` folds values: it calls an aggregate somewhere.
fn aggregates(expr: &Expr) -> bool {
    crate::validate::walk::called_functions(expr)
        .iter()
        .any(|n| is_aggregate(n))
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// An aggregate call, with its arguments resolved: outside GROUP it sees one row's value.
    pub(super) fn aggregate_call(&mut self, name: &str, args: &[Val], scope: &Scope) {
        if !is_aggregate(name) {
            return;
        }
        let first = args.first().map(|a| &a.ty);
        let scalar = |t: Option<&Ty>| {
            t.is_some_and(|t| {
                !matches!(t, Ty::Any | Ty::Array(_) | Ty::Option(_)) && !matches!(t, Ty::Object(_) | Ty::AnyObject)
            })
        };
        let head = name.split("::").next().unwrap_or(name).to_owned();
        if scope.grouped == Some(false) {
            if name == "count" && (args.is_empty() || scalar(first)) {
                let span = self.loc.ident("count", &[]).or_all(self.loc);
                self.error(
                    span,
                    Class::CountWithoutGroup,
                    "count() without GROUP BY or GROUP ALL counts each row once: every row answers 1".into(),
                    "add GROUP ALL for one total, or GROUP BY a field for a count per value (count(->edge) counts a row's links without GROUP)".into(),
                );
                return;
            }
            if name != "count" && scalar(first) {
                let span = self.loc.ident(&head, &[]).or_all(self.loc);
                let arg = first.map(ToString::to_string).unwrap_or_default();
                self.error(
                    span,
                    Class::AggregateWithoutGroup,
                    format!("{name}() folds many values, but without GROUP BY or GROUP ALL it gets one row's {arg}, and the engine refuses it"),
                    format!("add GROUP ALL for one {name}() over all rows, or GROUP BY a field for one per group"),
                );
                return;
            }
        }
        if is_numeric_aggregate(name) {
            if let Some(t) = first {
                let what = match t.element() {
                    Ty::String | Ty::Literal(_) => Some("strings"),
                    Ty::Bool => Some("booleans"),
                    Ty::Record(_) => Some("record links"),
                    _ => None,
                };
                if let Some(what) = what {
                    let span = self.loc.ident(&head, &[]).or_all(self.loc);
                    let field = args[0]
                        .field
                        .as_ref()
                        .map_or_else(|| "the value".to_owned(), |(t, f)| format!("{t}.{f}"));
                    self.error(
                        span,
                        Class::AggregateArgument,
                        format!("{name}() of {what} ({field} is {t}) answers 0 or NONE without an error"),
                        format!("give {name}() a number field; count() counts rows, array::group() collects values"),
                    );
                }
            }
        }
    }

    /// The SELECT's shape, once its projections are resolved: grouping, output names, ONLY.
    pub(super) fn shape(&mut self, s: &SelectStatement) {
        if let (Some(group), Fields::Select(fields)) = (&s.group, &s.fields) {
            let keys: Vec<String> = group.0.iter().map(|g| g.0.to_sql()).collect();
            for field in fields {
                match field {
                    Field::All => {
                        let span = self.loc.punct("*").or_all(self.loc);
                        self.error(
                            span,
                            Class::AllFieldsUnderGroup,
                            "`*` in a grouped SELECT: the engine refuses to aggregate every field".into(),
                            "name the GROUP BY fields and aggregates (count(), math::sum(field), array::group(field))"
                                .into(),
                        );
                    }
                    Field::Single(selector) => {
                        // The cheap tests first: printing the expression is most of this check's cost.
                        let alias = selector.alias.as_ref().map(ToSql::to_sql);
                        let keyed_alias = alias.as_ref().is_some_and(|a| keys.contains(a));
                        if keyed_alias || aggregates(&selector.expr) || matches!(selector.expr, Expr::Literal(_)) {
                            continue;
                        }
                        let text = selector.expr.to_sql();
                        if keys.contains(&text) {
                            continue;
                        }
                        let name = alias.clone().unwrap_or_else(|| text.clone());
                        let span = self.loc.text(&text).or_all(self.loc);
                        let by = if keys.is_empty() {
                            "GROUP ALL".to_owned()
                        } else {
                            format!("GROUP BY {}", keys.join(", "))
                        };
                        self.error(
                            span,
                            Class::UngroupedProjection,
                            format!("`{text}` is neither a group key nor an aggregate, so under {by} `{name}` \
                                is an array of every row's value in the group"),
                            format!("add it to the GROUP BY, wrap it in an aggregate (math::max({text}), array::group({text})), or leave it out"),
                        );
                    }
                }
            }
        }
        self.duplicate_names(s);
        self.only_without_limit_one(s);
    }

    fn duplicate_names(&mut self, s: &SelectStatement) {
        let Fields::Select(fields) = &s.fields else {
            return;
        };
        // Without an alias a projection is named by its expression, so two can share a name with
        // different expressions only through an alias: without one there is nothing to print.
        if !fields
            .iter()
            .any(|f| matches!(f, Field::Single(selector) if selector.alias.is_some()))
        {
            return;
        }
        // Each projection's name, and its expression printed only when an earlier one has that name.
        let mut seen: Vec<(String, &Expr)> = Vec::new();
        for field in fields {
            let Field::Single(selector) = field else {
                continue;
            };
            let name = match &selector.alias {
                Some(alias) => alias.to_sql(),
                None => selector.expr.to_sql(),
            };
            let named = seen.iter().any(|(n, _)| *n == name);
            let expr = if named { selector.expr.to_sql() } else { String::new() };
            let first = if named {
                seen.iter()
                    .filter(|(n, _)| *n == name)
                    .map(|(_, e)| e.to_sql())
                    .find(|e| *e != expr)
            } else {
                None
            };
            if let Some(first) = first {
                let span = selector
                    .alias
                    .as_ref()
                    .and_then(|_| self.loc.ident(&name, &["AS"]))
                    .or_all(self.loc);
                self.error(
                    span,
                    Class::DuplicateAlias,
                    format!("two projections are named `{name}` ({first} and {expr}): the row keeps only the last"),
                    format!("give each projection its own name: {expr} AS {name}_2"),
                );
            }
            seen.push((name, &selector.expr));
        }
    }
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// `ORDER BY x` under GROUP BY where the groups have no `x`: neither a group key nor a
    /// projected name. SurrealDB 3.3.5 sorts the grouped rows, which hold only their keys and
    /// aggregates, so every group sorts as NONE and ORDER BY does nothing (analyzer 2017). The
    /// repair names the alias the projection gave `x`, when it gave one.
    pub(super) fn order_not_grouped(&mut self, s: &SelectStatement, key: &surrealdb_sql::Idiom) {
        let (Some(group), Fields::Select(fields)) = (&s.group, &s.fields) else {
            return;
        };
        if group.0.is_empty() {
            return;
        }
        let text = key.to_sql();
        let alias = fields.iter().find_map(|f| match f {
            Field::Single(sel) if sel.expr.to_sql() == text => sel.alias.as_ref().map(ToSql::to_sql),
            _ => None,
        });
        if alias.is_none() && group.0.iter().any(|g| g.0.to_sql() == text) {
            return;
        }
        // A path into what a group has (`seller.name` under GROUP BY seller) is read from the group's value.
        let names = group
            .0
            .iter()
            .map(|g| g.0.to_sql())
            .chain(fields.iter().filter_map(|f| match f {
                Field::Single(sel) => Some(sel.alias.as_ref().map_or_else(|| sel.expr.to_sql(), ToSql::to_sql)),
                Field::All => None,
            }))
            .collect::<Vec<_>>();
        if names
            .iter()
            .any(|n| text.starts_with(&format!("{n}.")) || text.starts_with(&format!("{n}[")))
        {
            return;
        }
        // An aggregate over `x` is what a sort by `x` most likely meant.
        let over = fields.iter().find_map(|f| match f {
            Field::Single(sel) if aggregates(&sel.expr) && sel.expr.to_sql().contains(&text) => {
                sel.alias.as_ref().map(ToSql::to_sql)
            }
            _ => None,
        });
        let keys: Vec<String> = group.0.iter().map(|g| g.0.to_sql()).collect();
        let span = self.loc.text_after("order", &text).or_all(self.loc);
        let fix = match (&alias, &over) {
            (Some(alias), _) => format!("sort by the name the groups have: `ORDER BY {alias}`"),
            (None, Some(agg)) => format!(
                "sort by an aggregate's alias (`ORDER BY {agg}`) or a group key ({})",
                keys.join(", ")
            ),
            (None, None) => format!(
                "sort by a group key ({}) or by an aggregate's alias (`math::max({text}) AS top ... ORDER BY top`)",
                keys.join(", ")
            ),
        };
        let d = self.error(
            span,
            Class::OrderByUngrouped,
            format!(
                "ORDER BY {text}: the groups of GROUP BY {} have no `{text}` (only their keys and aggregates), \
                so every group sorts alike and ORDER BY does nothing",
                keys.join(", ")
            ),
            fix,
        );
        if let Some(alias) = alias {
            d.fixes.push(crate::validate::Edit {
                span,
                replacement: alias,
            });
        }
    }
}
