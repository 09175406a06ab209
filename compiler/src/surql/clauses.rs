//! SurrealQL text of the definition clauses: table mode and permissions, field clauses, indexes and analyzers.
//!
//! [`crate::surql`] assembles the statements; this spells the parts issue 9 added, in the
//! order the engine's own formatter writes them, so `INFO` echoes them in the same order.

use crate::ir::{Analyzer, FieldClauses, Index, IndexKind, OnDelete, Permission, Permissions, Table, TableKind};
use std::fmt::Write;

/// `PERMISSIONS FOR select WHERE ..., FOR create, update FULL` for the operations written, in the
/// engine's order, grouping operations that share a rule; the engine's default fills the others.
pub fn permissions(p: &Permissions, table: bool, expr: &dyn Fn(&str) -> String) -> String {
    let default = if table { Permission::None } else { Permission::Full };
    let mut ops: Vec<(&str, Permission)> = vec![
        ("select", p.select.clone().unwrap_or(default.clone())),
        ("create", p.create.clone().unwrap_or(default.clone())),
        ("update", p.update.clone().unwrap_or(default.clone())),
    ];
    if table {
        ops.push(("delete", p.delete.clone().unwrap_or(default)));
    }
    if ops.iter().all(|(_, p)| *p == Permission::None) {
        return "PERMISSIONS NONE".into();
    }
    if ops.iter().all(|(_, p)| *p == Permission::Full) {
        return "PERMISSIONS FULL".into();
    }
    let mut groups: Vec<(Vec<&str>, Permission)> = Vec::new();
    for (op, perm) in ops {
        match groups.iter_mut().find(|(_, p)| *p == perm) {
            Some((names, _)) => names.push(op),
            None => groups.push((vec![op], perm)),
        }
    }
    let mut out = String::from("PERMISSIONS ");
    for (i, (names, perm)) in groups.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str("FOR ");
        out.push_str(&names.join(", "));
        match perm {
            Permission::None => out.push_str(" NONE"),
            Permission::Full => out.push_str(" FULL"),
            Permission::Where(e) => {
                out.push_str(" WHERE ");
                out.push_str(&expr(e));
            }
        }
    }
    out
}

/// The clauses between the type and the comment, as the engine orders them.
pub fn field_clauses(c: &FieldClauses, expr: &dyn Fn(&str) -> String) -> String {
    let mut out = String::new();
    if c.flexible {
        out.push_str(" FLEXIBLE");
    }
    if let Some(d) = &c.default {
        out.push_str(if d.always { " DEFAULT ALWAYS " } else { " DEFAULT " });
        out.push_str(&expr(&d.expr));
    }
    if c.readonly {
        out.push_str(" READONLY");
    }
    if let Some(v) = &c.value {
        let _ = write!(out, " VALUE {}", expr(v));
    }
    if let Some(v) = &c.assert {
        let _ = write!(out, " ASSERT {}", expr(v));
    }
    if let Some(v) = &c.computed {
        let _ = write!(out, " COMPUTED {}", expr(v));
    }
    if let Some(r) = &c.reference {
        out.push_str(" REFERENCE");
        match &r.on_delete {
            None => {}
            Some(d) => {
                out.push_str(" ON DELETE ");
                out.push_str(&on_delete(d, expr));
            }
        }
    }
    out
}

/// `REJECT`, `CASCADE`, ... or `THEN expr`.
pub fn on_delete(d: &OnDelete, expr: &dyn Fn(&str) -> String) -> String {
    match d {
        OnDelete::Reject => "REJECT".into(),
        OnDelete::Cascade => "CASCADE".into(),
        OnDelete::Ignore => "IGNORE".into(),
        OnDelete::Unset => "UNSET".into(),
        OnDelete::Then(e) => format!("THEN {}", expr(e)),
    }
}

/// ` ENFORCED` for an enforced relation.
pub fn relation_suffix(table: &Table) -> &'static str {
    match (&table.kind, table.enforced) {
        (TableKind::Relation { .. }, true) => " ENFORCED",
        _ => "",
    }
}

/// ` SCHEMAFULL` or ` SCHEMALESS`.
pub fn mode(table: &Table) -> &'static str {
    if table.schemaless {
        " SCHEMALESS"
    } else {
        " SCHEMAFULL"
    }
}

/// The index kind after `FIELDS ...` (empty for a plain index).
pub fn index_kind(kind: &IndexKind) -> String {
    match kind {
        IndexKind::Plain => String::new(),
        IndexKind::Unique => " UNIQUE".into(),
        IndexKind::FullText {
            analyzer,
            bm25,
            highlights,
        } => {
            let mut out = format!(" FULLTEXT ANALYZER {analyzer}");
            if let Some((k1, b)) = bm25 {
                let _ = write!(out, " BM25({k1},{b})");
            }
            if *highlights {
                out.push_str(" HIGHLIGHTS");
            }
            out
        }
        IndexKind::Hnsw(h) => {
            let mut out = format!(" HNSW DIMENSION {} DIST {} TYPE {}", h.dimension, h.dist, h.vector_type);
            if let Some(efc) = h.efc {
                let _ = write!(out, " EFC {efc}");
            }
            if let Some(m) = h.m {
                let _ = write!(out, " M {m}");
            }
            out
        }
    }
}

/// `DEFINE INDEX OVERWRITE name ON table FIELDS a, b ...;`
pub fn define_index(table: &str, index: &Index) -> String {
    let fields: Vec<String> = index
        .fields
        .iter()
        .map(|f| crate::surql::path_ident(f, crate::surql::field_ident))
        .collect();
    format!(
        "DEFINE INDEX OVERWRITE {} ON {table} FIELDS {}{};",
        index.name,
        fields.join(", "),
        index_kind(&index.kind)
    )
}

/// `DEFINE ANALYZER OVERWRITE name TOKENIZERS ... FILTERS ... COMMENT ...;`
pub fn define_analyzer(a: &Analyzer) -> String {
    let mut out = format!("DEFINE ANALYZER OVERWRITE {}", a.name);
    if !a.tokenizers.is_empty() {
        let _ = write!(out, " TOKENIZERS {}", a.tokenizers.join(","));
    }
    if !a.filters.is_empty() {
        let _ = write!(out, " FILTERS {}", a.filters.join(","));
    }
    if let Some(c) = &a.comment {
        out.push_str(" COMMENT ");
        out.push_str(&crate::surql::quote_string(c));
    }
    out.push(';');
    out
}
