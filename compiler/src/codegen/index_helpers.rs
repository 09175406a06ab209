//! The typed helper each index makes possible: full-text search, nearest neighbours, lookup by a unique key.
//!
//! `rustgen` puts one per `FULLTEXT`, user `HNSW` and `UNIQUE` index into the table's module;
//! the signatures and queries are spelled here, the function shells in `templates/module.rs.tera`.

use crate::ir::{IndexKind, Table, Type};
use serde::Serialize;

/// One generated function: its name, doc, parameters and the query it runs.
#[derive(Debug, Clone, Serialize)]
pub struct Helper {
    /// `search`, `nearest` or `find`.
    pub kind: &'static str,
    pub function: String,
    pub doc: String,
    /// The SurrealQL it runs (for `nearest`, a template with `{k}` and `{ef}` filled at run time).
    pub query: String,
    /// `(name, Rust type, expression that binds it)` for `find`.
    pub params: Vec<Param>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Param {
    /// The Rust parameter (raw if a keyword).
    pub name: String,
    /// The SurrealQL parameter it binds, without `$`.
    pub var: String,
    pub rust_type: String,
    pub bind: String,
}

/// A parameter for a field of this type: borrowed where a borrow reads naturally.
fn param(name: &str, ty: &Type, types: &str, schema_table: &dyn Fn(&str) -> Option<String>) -> Param {
    let ident = crate::codegen::idents::rust_ident(name);
    let (rust_type, bind) = match ty {
        Type::String | Type::Literal(_) => ("&str".to_owned(), format!("{ident}.to_owned()")),
        Type::Int => ("i64".into(), ident.clone()),
        Type::Float => ("f64".into(), ident.clone()),
        Type::Bool => ("bool".into(), ident.clone()),
        Type::Uuid => ("::surqlc::runtime::Uuid".into(), ident.clone()),
        Type::Datetime => ("&::surqlc::runtime::Datetime".into(), format!("{ident}.clone()")),
        Type::Record(t) => match schema_table(t) {
            Some(rust) => (
                format!("&::surqlc::runtime::Link<{types}::{rust}>"),
                format!("{ident}.record_id()"),
            ),
            None => ("::surqlc::runtime::RecordId".into(), ident.clone()),
        },
        _ => ("::surqlc::runtime::Value".into(), ident.clone()),
    };
    let bind = format!("::surqlc::runtime::SurrealValue::into_value({bind})");
    Param {
        var: ident.trim_start_matches("r#").to_owned(),
        name: ident,
        rust_type,
        bind,
    }
}

/// An index's field path as a query names it: an idiom, each name escaped on its own
/// (`content.body`, `` address.`select` ``), never the whole path backticked as one name (which
/// names a top-level field the index does not cover: the engine answers "no suitable index").
fn path(f: &str) -> String {
    crate::surql::path_ident(f, crate::surql::field_ident)
}

/// The type of what an index covers: a relation's `in`/`out` link its ends, a path reaches into
/// an object field.
fn indexed_type(table: &Table, name: &str) -> Type {
    let ends = |tables: &[String]| match tables {
        [one] => Type::Record(one.clone()),
        many => Type::Records(many.to_vec()),
    };
    match (&table.kind, name) {
        (crate::ir::TableKind::Relation { from, .. }, "in") => ends(from),
        (crate::ir::TableKind::Relation { to, .. }, "out") => ends(to),
        _ => table.field_at(name).map_or(Type::Any, |f| f.ty.clone()),
    }
}

/// The helpers for `table`'s indexes; `types` is the path the domain types live under, and
/// `schema_table` gives the Rust type of a table a record field links to.
pub fn helpers(table: &Table, types: &str, schema_table: &dyn Fn(&str) -> Option<String>) -> Vec<Helper> {
    let t = &table.name;
    let mut out = Vec::new();
    for index in &table.indexes {
        match &index.kind {
            IndexKind::FullText { highlights, .. } => {
                let f = &index.fields[0];
                let highlight = if *highlights {
                    ", search::highlight('<b>', '</b>', 1) AS highlight"
                } else {
                    ""
                };
                out.push(Helper {
                    kind: "search",
                    function: format!("search_{}", heck::AsSnakeCase(f)),
                    doc: format!(
                        "Full-text search of `{t}.{f}` (index `{}`): up to `limit` rows matching `query`, best BM25 score first{}.",
                        index.name,
                        if *highlights { ", with the matching text highlighted in `<b>...</b>`" } else { "" }
                    ),
                    query: format!(
                        "SELECT *, search::score(1) AS score{highlight} FROM {t} WHERE {} @1@ $query ORDER BY score DESC LIMIT $limit",
                        path(f)
                    ),
                    params: Vec::new(),
                });
            }
            IndexKind::Hnsw(h) => {
                let f = &index.fields[0];
                out.push(Helper {
                    kind: "nearest",
                    function: format!("nearest_{}", heck::AsSnakeCase(f)),
                    doc: format!(
                        "The `k` rows whose `{f}` is nearest to `vector` (index `{}`, {} distance, dimension {}), nearest first.",
                        index.name,
                        h.dist.to_ascii_lowercase(),
                        h.dimension
                    ),
                    query: format!(
                        "SELECT *, vector::distance::knn() AS distance FROM {t} WHERE {} <|{{k}},{{ef}}|> $vector ORDER BY distance ASC",
                        path(f)
                    ),
                    params: Vec::new(),
                });
            }
            IndexKind::Unique => {
                let params: Vec<Param> = index
                    .fields
                    .iter()
                    .map(|f| {
                        let ty = indexed_type(table, f);
                        param(&f.replace('.', "_"), &ty, types, schema_table)
                    })
                    .collect();
                let condition: Vec<String> = index
                    .fields
                    .iter()
                    .zip(&params)
                    .map(|(f, p)| format!("{} = ${}", path(f), p.var))
                    .collect();
                let names: Vec<String> = index
                    .fields
                    .iter()
                    .map(|f| heck::AsSnakeCase(f.replace('.', "_")).to_string())
                    .collect();
                out.push(Helper {
                    kind: "find",
                    function: format!("find_by_{}", names.join("_and_")),
                    doc: format!(
                        "The `{t}` row with this {} (unique index `{}`), if there is one.",
                        index
                            .fields
                            .iter()
                            .map(|f| format!("`{f}`"))
                            .collect::<Vec<_>>()
                            .join(" and "),
                        index.name
                    ),
                    query: format!("SELECT * FROM {t} WHERE {} LIMIT 1", condition.join(" AND ")),
                    params,
                });
            }
            IndexKind::Plain => {}
        }
    }
    // Two indexes on the same fields (the engine takes both: `a_unique` and `A_UNIQUE`) give the
    // same helper with the same query: one function serves both.
    let mut seen: Vec<(String, String)> = Vec::new();
    out.retain(|h| {
        let key = (h.function.clone(), h.query.clone());
        let first = !seen.contains(&key);
        seen.push(key);
        first
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Index, Table};

    /// A table whose FLEXIBLE `content` holds the indexed keys (nothing declares them).
    fn table(fields: &[&str], kind: IndexKind) -> Table {
        let source = "#[derive(Table)]\npub struct Message {\n    #[surqlc(type = \"object FLEXIBLE\")]\n    pub content: X,\n}\n";
        let file = crate::front::SourceFile {
            path: "m.rs".into(),
            text: source.into(),
        };
        let mut t = crate::front::compile(&[file]).expect("compiles").tables.remove(0);
        t.indexes.push(Index {
            name: "message_idx".into(),
            fields: fields.iter().map(|f| (*f).to_owned()).collect(),
            kind,
        });
        t
    }

    /// Two UNIQUE indexes on the same fields (a real schema had `x_unique_idx` and `X_UNIQUE_IDX`):
    /// one `find_by_*` helper, not two functions of one name (the build failed).
    #[test]
    fn two_indexes_on_the_same_fields_share_one_helper() {
        let mut t = table(&["content.slug"], IndexKind::Unique);
        t.indexes.push(Index {
            name: "MESSAGE_IDX".into(),
            fields: vec!["content.slug".into()],
            kind: IndexKind::Unique,
        });
        let helpers = helpers(&t, "super", &|_: &str| None);
        let names: Vec<&str> = helpers.iter().map(|h| h.function.as_str()).collect();
        assert_eq!(names, ["find_by_content_slug"]);
    }

    #[test]
    fn every_helper_names_a_nested_path_as_an_idiom_never_as_one_backticked_name() {
        let search = IndexKind::FullText {
            analyzer: "words".into(),
            bm25: None,
            highlights: false,
        };
        let hnsw = IndexKind::Hnsw(crate::ir::Hnsw {
            dimension: 2,
            dist: "COSINE".into(),
            vector_type: "F32".into(),
            efc: None,
            m: None,
        });
        let none = |_: &str| None;
        for (fields, kind, function, condition) in [
            (
                &["content.body"][..],
                search,
                "search_content_body",
                "WHERE content.body @1@ $query",
            ),
            (
                &["content.vec"][..],
                hnsw,
                "nearest_content_vec",
                "WHERE content.vec <|{k},{ef}|> $vector",
            ),
            (
                &["content.slug", "content.select"][..],
                IndexKind::Unique,
                "find_by_content_slug_and_content_select",
                "WHERE content.slug = $content_slug AND content.`select` = $content_select LIMIT 1",
            ),
        ] {
            let helpers = helpers(&table(fields, kind), "crate", &none);
            let h = &helpers[0];
            assert_eq!(h.function, function);
            assert!(h.query.contains(condition), "{}", h.query);
            assert!(!h.query.contains("`content."), "{}", h.query);
        }
    }
}
