//! Operators that need an index: full-text matches (`@@`, `@N@`) and `search::*` need a FULLTEXT index, KNN (`<|k, EF|>`) an HNSW index of the query vector's dimension.

use super::{Resolver, Scope, Val};
use crate::ir::{Index, IndexKind};
use crate::validate::scan::OrAll;
use crate::validate::Class;
use surrealdb_sql::operator::NearestNeighbor;
use surrealdb_sql::{Expr, Literal};

impl<'a, 'l> Resolver<'a, 'l> {
    /// The indexes of `field`'s table that cover the field.
    fn indexes_on(&self, field: &Val) -> Option<(String, String, Vec<&'a Index>)> {
        let (table, name) = field.field.clone()?;
        let t = self.table(&table)?;
        let found = t.indexes.iter().filter(|i| i.fields.first() == Some(&name)).collect();
        Some((table, name, found))
    }

    /// The fields of the table that have an index of this kind, for the fix.
    fn indexed_fields(&self, table: &str, fulltext: bool) -> Vec<String> {
        self.table(table).map_or_else(Vec::new, |t| {
            t.indexes
                .iter()
                .filter(|i| match i.kind {
                    IndexKind::FullText { .. } => fulltext,
                    IndexKind::Hnsw(_) => !fulltext,
                    _ => false,
                })
                .filter_map(|i| i.fields.first().cloned())
                .collect()
        })
    }

    /// `field @@ 'words'`: the engine answers only through a FULLTEXT index on the field.
    pub(super) fn fulltext_match(&mut self, field: &Val) {
        let Some((table, name, indexes)) = self.indexes_on(field) else {
            return;
        };
        if indexes.iter().any(|i| matches!(i.kind, IndexKind::FullText { .. })) {
            return;
        }
        let span = self.loc.ident(&name, &[]).or_all(self.loc);
        let others = self.indexed_fields(&table, true);
        let fix = if others.is_empty() {
            format!("`{table}` has no full-text index: use string::contains(string::lowercase({name}), 'word') instead")
        } else {
            format!(
                "match a field that has one ({}), or use string::contains(string::lowercase({name}), 'word')",
                others.join(", ")
            )
        };
        self.error(
            span,
            Class::MissingIndex,
            format!("`{table}.{name}` has no FULLTEXT index, so the full-text match fails (\"no suitable index\")"),
            fix,
        );
    }

    /// `search::score(n)`, `search::highlight(...)`, `search::offsets(n)`: only beside a match in WHERE.
    pub(super) fn search_call(&mut self, name: &str, scope: &Scope) {
        if !name.starts_with("search::") || scope.matches {
            return;
        }
        let span = self.loc.ident("search", &[]).or_all(self.loc);
        self.error(
            span,
            Class::MissingIndex,
            format!("{name}() reads the full-text match of the WHERE clause, and this SELECT has none: the engine fails"),
            "add a match on a FULLTEXT-indexed field to WHERE (field @1@ 'words'), with the same number as the function's".into(),
        );
    }

    /// `field <|k, EF|> [..]` and `field <|k, DIST|> [..]`: the index, and the vector's dimension.
    pub(super) fn nearest(&mut self, field: &Val, nn: &NearestNeighbor, vector: &Expr) {
        let Some((table, name, indexes)) = self.indexes_on(field) else {
            return;
        };
        let hnsw = indexes.iter().find_map(|i| match &i.kind {
            IndexKind::Hnsw(h) => Some(h),
            _ => None,
        });
        let span = self.loc.ident(&name, &[]).or_all(self.loc);
        match (nn, hnsw) {
            (NearestNeighbor::KTree(k), _) => {
                let fix = match hnsw {
                    Some(h) => format!("write `{name} <|{k}, 40|> [...]` (the HNSW index, EF 40) or `{name} <|{k}, {}|> [...]` (exact)", h.dist),
                    None => format!("write `{name} <|{k}, COSINE|> [...]` (an exact search with a distance)"),
                };
                self.error(
                    span,
                    Class::MissingIndex,
                    format!("`<|{k}|>` (the M-tree KNN) is no longer supported by SurrealDB 3: the engine fails"),
                    fix,
                );
                return;
            }
            (NearestNeighbor::Approximate(k, _), None) => {
                let others = self.indexed_fields(&table, false);
                self.error(
                    span,
                    Class::MissingIndex,
                    format!("`<|{k}, EF|>` searches an HNSW index, and `{table}.{name}` has none: the answer is empty"),
                    if others.is_empty() {
                        format!("write `{name} <|{k}, COSINE|> [...]` (an exact search with a distance)")
                    } else {
                        format!(
                            "search a field with an HNSW index ({}), or write `{name} <|{k}, COSINE|> [...]`",
                            others.join(", ")
                        )
                    },
                );
                return;
            }
            _ => {}
        }
        let (Some(h), Expr::Literal(Literal::Array(items))) = (hnsw, vector) else {
            return;
        };
        if items.len() as u32 != h.dimension {
            self.error(
                span,
                Class::VectorDimension,
                format!(
                    "the query vector has {} dimensions, but `{table}.{name}` holds vectors of {}: the engine fails or finds nothing",
                    items.len(),
                    h.dimension
                ),
                format!("give a vector of {} numbers", h.dimension),
            );
        }
    }
}
