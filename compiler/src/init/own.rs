//! The definitions surqlc itself writes into `schema.surql` (its prompt functions, few-shot pool, pruning tables, parameters and agent), recognised in a source that surqlc built, and skipped: `surqlc build` writes them again.
//!
//! Recognised by what the templates spell, never by a fixture's names: a source is surqlc's
//! only when it defines `fn::nl2surql_prompt`; its own tables are those whose `COMMENT` is one a
//! template gives a table (read from the templates themselves, so the two cannot drift apart),
//! with their fields, indexes, events and analyzers; its functions are `SURQLC_FUNCTIONS`; its
//! parameters are the templates' and those named after its tables; its agent is the `USER` or
//! `ACCESS` whose `COMMENT` says "surqlc agent definition".

use super::read::{Def, Located};
use super::Notes;
use crate::codegen::emit::SCHEMA_TEMPLATES;
use crate::front::functions::SURQLC_FUNCTIONS;
use std::collections::HashSet;

/// The mark in the agent's `COMMENT` (`codegen::agent_define`).
const AGENT_MARK: &str = "surqlc agent definition";

/// `statements` without surqlc's own definitions (counted in `notes.own`).
pub(super) fn skip_own(statements: Vec<Located>, notes: &mut Notes) -> Vec<Located> {
    let built = statements
        .iter()
        .any(|s| matches!(&s.def, Def::Function(f) if f.name == "fn::nl2surql_prompt"));
    if !built {
        return statements;
    }
    let comments = template_table_comments();
    let tables: HashSet<String> = statements
        .iter()
        .filter_map(|s| match &s.def {
            Def::Table(t) if t.comment.as_ref().is_some_and(|c| comments.contains(c)) => Some(t.name.clone()),
            _ => None,
        })
        .collect();
    let params = template_params();
    let analyzers = own_analyzers(&statements, &tables);
    let agents: Vec<String> = statements.iter().filter_map(|s| agent_name(&s.def)).collect();
    let owned_name = |name: &str| tables.iter().any(|t| name.starts_with(&format!("{t}_")));
    let is_own = |def: &Def| match def {
        Def::Table(t) => tables.contains(&t.name),
        Def::Field(f) => tables.contains(&f.table),
        Def::Index(i) => tables.contains(&i.table),
        Def::Analyzer(a) => analyzers.contains(&a.analyzer.name),
        Def::Function(f) => SURQLC_FUNCTIONS.contains(&f.name.as_str()),
        Def::Other { kind, name, text, .. } => match kind.as_str() {
            "param" => {
                let name = name.trim_start_matches('$');
                params.contains(name) || owned_name(name)
            }
            "event" => owned_name(name) || tables.iter().any(|t| on_table(text, t)),
            "user" | "access" => text.contains(AGENT_MARK),
            _ => false,
        },
        Def::Data { text } => {
            text.contains(AGENT_MARK)
                || tables.iter().any(|t| names_table(text, t))
                || agents.iter().any(|a| removes(text, a))
        }
        // A removal of one of surqlc's own definitions (the agent's `REMOVE USER IF EXISTS`).
        Def::Remove { key, .. } => match key.kind.as_str() {
            "table" => tables.contains(&key.name),
            "field" | "index" | "event" => tables.contains(&key.on),
            "function" => SURQLC_FUNCTIONS.contains(&key.name.as_str()),
            "analyzer" => analyzers.contains(&key.name),
            "param" => {
                let name = key.name.trim_start_matches('$');
                params.contains(name) || owned_name(name)
            }
            "user" | "access" => agents.contains(&key.name),
            _ => false,
        },
        Def::Use | Def::Frame => false,
    };
    if let Some(pool) = pool_settings(&statements) {
        notes.settings.push(pool);
    }
    let before = statements.len();
    let kept: Vec<Located> = statements.into_iter().filter(|s| !is_own(&s.def)).collect();
    notes.own += before - kept.len();
    kept
}

/// The `COMMENT`s the templates give the tables they define.
fn template_table_comments() -> HashSet<String> {
    let mut out = HashSet::new();
    for (_, text) in SCHEMA_TEMPLATES {
        for line in text.lines().filter(|l| l.trim_start().starts_with("DEFINE TABLE")) {
            if let Some(rest) = line.split(" COMMENT \"").nth(1) {
                if let Some(end) = rest.find('"') {
                    out.insert(rest[..end].to_owned());
                }
            }
        }
    }
    out
}

/// The parameters the templates define by a fixed name (`$schema_context_cache`, ...).
fn template_params() -> HashSet<String> {
    let mut out = HashSet::new();
    for (_, text) in SCHEMA_TEMPLATES {
        for part in text.split("DEFINE PARAM OVERWRITE $").skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && !part[name.len()..].starts_with("{{") {
                out.insert(name);
            }
        }
    }
    out
}

/// The analyzers only surqlc's own tables' indexes use.
fn own_analyzers(statements: &[Located], tables: &HashSet<String>) -> HashSet<String> {
    let mut own = HashSet::new();
    let mut users = HashSet::new();
    for s in statements {
        if let Def::Index(i) = &s.def {
            if let Ok(crate::ir::IndexKind::FullText { analyzer, .. }) = &i.kind {
                if tables.contains(&i.table) {
                    own.insert(analyzer.clone());
                } else {
                    users.insert(analyzer.clone());
                }
            }
        }
    }
    own.retain(|a| !users.contains(a));
    own
}

/// The agent's name, from its definition (top level, or inside the `IF` that guards it).
fn agent_name(def: &Def) -> Option<String> {
    let text = match def {
        Def::Other { text, .. } | Def::Data { text } if text.contains(AGENT_MARK) => text,
        _ => return None,
    };
    [
        "DEFINE USER OVERWRITE ",
        "DEFINE ACCESS OVERWRITE ",
        "DEFINE USER ",
        "DEFINE ACCESS ",
    ]
    .iter()
    .find_map(|head| text.split(head).nth(1))
    .and_then(|rest| rest.split_whitespace().next())
    .map(str::to_owned)
}

fn removes(text: &str, agent: &str) -> bool {
    let t = text.trim_start();
    (t.starts_with("REMOVE USER") || t.starts_with("REMOVE ACCESS")) && t.split_whitespace().any(|w| w == agent)
}

/// Whether a statement's text names `table` as a table (`schema_doc:x`, `"schema_doc"`, `FROM schema_doc`).
fn names_table(text: &str, table: &str) -> bool {
    text.match_indices(table).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + table.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !word(before) && !word(after)
    })
}

fn on_table(text: &str, table: &str) -> bool {
    text.contains(&format!(" ON {table} ")) || text.contains(&format!(" ON TABLE {table} "))
}

/// `examples(dimension = N[, table = "..."])` from the few-shot pool a surqlc build wrote: the table
/// with the pool template's `COMMENT` and its `<table>_vec` HNSW index (a seed's examples must fit it).
fn pool_settings(statements: &[Located]) -> Option<String> {
    let (_, pool_template) = SCHEMA_TEMPLATES.iter().find(|(name, _)| name.contains("pool"))?;
    let comment = pool_template
        .lines()
        .filter(|l| l.starts_with("DEFINE TABLE"))
        .find_map(|l| l.split(" COMMENT \"").nth(1)?.split('"').next())?;
    let table = statements.iter().find_map(|s| match &s.def {
        Def::Table(t) if t.comment.as_deref() == Some(comment) => Some(t.name.clone()),
        _ => None,
    })?;
    let dimension = statements.iter().find_map(|s| match &s.def {
        Def::Index(i) if i.table == table && i.name == format!("{table}_vec") => match &i.kind {
            Ok(crate::ir::IndexKind::Hnsw(h)) => Some(h.dimension),
            _ => None,
        },
        _ => None,
    })?;
    Some(if table == crate::ir::ExampleSettings::default().table {
        format!("examples(dimension = {dimension})")
    } else {
        format!("examples(dimension = {dimension}, table = {table:?})")
    })
}
