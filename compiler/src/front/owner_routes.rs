//! The owner routes from a table to the end-user table, found by walking the schema's record links and relations, shortest first: what an owner error suggests.

use crate::ir;
use std::collections::{BTreeMap, VecDeque};

/// The most steps a suggested route takes (a route of more is rarely meant, and the walk stays small).
const MAX_STEPS: usize = 6;
/// The most routes one message suggests.
const MAX_ROUTES: usize = 3;

/// Where a partial route stands: on rows of a table, or on the edges of a relation followed one way.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At<'a> {
    Rows(&'a str),
    Edges(&'a str, bool),
}

/// Up to three routes from rows of `start` to `end_user`, shortest first, each a route the front
/// end's checker accepts (`front::scope` checks them again before suggesting them). A route never
/// passes through the same table twice, nor through `end_user` before its end, nor through a
/// table in `avoid` (the shared tables: a route through one reaches every user's rows).
pub(super) fn routes_to(
    start: &str,
    end_user: &str,
    tables: &BTreeMap<&str, &ir::Table>,
    avoid: &[&str],
) -> Vec<String> {
    let mut found = Vec::new();
    let mut queue: VecDeque<(At<'_>, String, Vec<&str>, usize)> = VecDeque::new();
    let Some((start, _)) = tables.get_key_value(start) else {
        return found;
    };
    queue.push_back((At::Rows(start), String::new(), vec![*start], 0));
    while let Some((at, route, seen, steps)) = queue.pop_front() {
        if found.len() >= MAX_ROUTES {
            break;
        }
        if let At::Rows(t) = at {
            if t == end_user && !route.is_empty() {
                found.push(route);
                continue;
            }
        }
        if steps >= MAX_STEPS {
            continue;
        }
        for (next, text) in moves(at, tables) {
            let table = match next {
                At::Rows(t) => t,
                At::Edges(r, _) => r,
            };
            let shared = avoid.contains(&table) && table != end_user;
            if seen.contains(&table) || shared {
                continue;
            }
            let mut seen = seen.clone();
            seen.push(table);
            let joined = if route.is_empty() {
                text.trim_start_matches('.').to_owned()
            } else {
                format!("{route}{text}")
            };
            queue.push_back((next, joined, seen, steps + 1));
        }
    }
    found
}

/// Every step that leads on from `at`, with its text (`.field`, `->rel`, `<-table`).
fn moves<'a>(at: At<'a>, tables: &BTreeMap<&'a str, &'a ir::Table>) -> Vec<(At<'a>, String)> {
    let mut out = Vec::new();
    match at {
        At::Rows(t) => {
            let Some(table) = tables.get(t) else {
                return out;
            };
            if let ir::TableKind::Relation { from, to } = &table.kind {
                for (field, end) in [("in", from), ("out", to)] {
                    for e in end {
                        if let Some((name, _)) = tables.get_key_value(e.as_str()) {
                            out.push((At::Rows(name), format!(".{field}")));
                        }
                    }
                }
            }
            for field in &table.fields {
                for linked in field.ty.linked_tables() {
                    if let Some((name, _)) = tables.get_key_value(linked.as_str()) {
                        out.push((At::Rows(name), format!(".{}", field.name)));
                    }
                }
            }
            for (name, relation) in tables {
                if let ir::TableKind::Relation { from, to } = &relation.kind {
                    if from.iter().any(|f| f == t) {
                        out.push((At::Edges(name, true), format!("->{name}")));
                    }
                    if to.iter().any(|f| f == t) {
                        out.push((At::Edges(name, false), format!("<-{name}")));
                    }
                }
            }
        }
        At::Edges(relation, forward) => {
            if let Some(ir::TableKind::Relation { from, to }) = tables.get(relation).map(|r| &r.kind) {
                let far = if forward { to } else { from };
                let arrow = if forward { "->" } else { "<-" };
                for e in far {
                    if let Some((name, _)) = tables.get_key_value(e.as_str()) {
                        out.push((At::Rows(name), format!("{arrow}{name}")));
                    }
                }
            }
        }
    }
    out
}

/// `` `a`, `b` or `c` ``: routes as a message lists them.
pub(super) fn listed(routes: &[String]) -> String {
    let quoted: Vec<String> = routes.iter().map(|r| format!("`{r}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}
