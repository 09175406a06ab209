//! Graph steps: `->edge->table` and `<-edge<-table` checked against the relations, and the routes between tables that messages suggest.

use super::visible_fields;
use super::{Path, Resolver, Scope};
use crate::ir::{union_text, Table, TableKind};
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::Class;
use surrealdb_sql::lookup::{LookupKind, LookupSubject};
use surrealdb_sql::{Dir, Field, Fields, Lookup};

impl<'a, 'l> Resolver<'a, 'l> {
    /// The shortest chain of steps from `from` to `to` (record links, edges both ways), as SurrealQL.
    pub(super) fn reach(&self, from: &str, to: &str) -> Option<String> {
        let mut seen = vec![from.to_owned()];
        let mut queue = std::collections::VecDeque::from([(from.to_owned(), String::new())]);
        while let Some((at, text)) = queue.pop_front() {
            if text.len() > 120 {
                continue;
            }
            for (next, step) in self.neighbours(&at) {
                if seen.contains(&next) {
                    continue;
                }
                let text = if step.starts_with("->") || step.starts_with("<-") || text.is_empty() {
                    format!("{text}{step}")
                } else {
                    format!("{text}.{step}")
                };
                if next == to {
                    return Some(text);
                }
                seen.push(next.clone());
                queue.push_back((next, text));
            }
        }
        None
    }

    /// One step from a table: `(table reached, how it is written)`.
    pub(super) fn neighbours(&self, at: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let Some(t) = self.table(at) else {
            return out;
        };
        for f in visible_fields(t, self.app) {
            for target in f.ty.linked_tables() {
                out.push((target.clone(), f.name.clone()));
            }
        }
        if let TableKind::Relation { from, to } = &t.kind {
            out.extend(from.iter().map(|f| (f.clone(), "in".into())));
            out.extend(to.iter().map(|t| (t.clone(), "out".into())));
        }
        // An end of several tables: the step lands on each of them.
        for r in &self.visible {
            if let TableKind::Relation { from, to } = &r.kind {
                if has(from, at) {
                    out.extend(to.iter().map(|t| (t.clone(), format!("->{}->{t}", r.name))));
                }
                if has(to, at) {
                    out.extend(from.iter().map(|f| (f.clone(), format!("<-{}<-{f}", r.name))));
                }
            }
        }
        out
    }

    /// A graph step `->edge`, `<-edge`, `<->edge` (or onto a node from an edge) from a value of type `on`.
    pub(super) fn graph(&mut self, on: &Ty, lookup: &Lookup, scope: &Scope, path: &mut Path) -> Ty {
        let arrow = match &lookup.kind {
            LookupKind::Graph(Dir::Out) => "->",
            LookupKind::Graph(Dir::In) => "<-",
            LookupKind::Graph(Dir::Both) => "<->",
            LookupKind::Reference => "<~",
        };
        let mut landed: Vec<String> = Vec::new();
        let source = match on.element() {
            Ty::Record(t) => Some(t.clone()),
            _ => None,
        };
        for subject in &lookup.what {
            let target = match subject {
                LookupSubject::Table { table, .. } | LookupSubject::Range { table, .. } => table.as_str().to_owned(),
            };
            if !self.check_table(&target, &[arrow, "(", ","]) {
                continue;
            }
            path.text.push_str(arrow);
            path.text.push_str(&target);
            path.tables.push(target.clone());
            if matches!(lookup.kind, LookupKind::Reference) {
                landed.push(target);
                continue;
            }
            let Some(source) = &source else {
                landed.push(target);
                continue;
            };
            match self.step(source, &target, &lookup.kind) {
                Ok(()) => landed.push(target),
                Err((message, fix)) => {
                    let span = self.loc.ident(&target, &[arrow]).or_all(self.loc);
                    self.error(span, Class::BadTraversal, message, fix);
                }
            }
        }
        let each = match landed.as_slice() {
            [one] => Ty::Record(one.clone()),
            _ => Ty::Any,
        };
        if let Some(cond) = &lookup.cond {
            let inner = Scope::new(each.clone(), Some(scope));
            self.condition(&cond.0, &inner, super::conditions::Place::Filter);
        }
        if let Some(fields) = &lookup.expr {
            let inner = Scope::new(each.clone(), Some(scope));
            if let Fields::Select(list) = fields {
                for f in list {
                    if let Field::Single(sel) = f {
                        self.expr(&sel.expr, &inner);
                    }
                }
            }
            return Ty::array(Ty::Any);
        }
        if lookup.only {
            each
        } else {
            Ty::array(each)
        }
    }

    /// Whether a graph step from table `source` to table `target` is possible; else the message and the fix.
    pub(super) fn step(&self, source: &str, target: &str, kind: &LookupKind) -> Result<(), (String, String)> {
        let (Some(s), Some(t)) = (self.table(source), self.table(target)) else {
            return Ok(());
        };
        let dir = match kind {
            LookupKind::Graph(d) => d.clone(),
            LookupKind::Reference => return Ok(()),
        };
        let out = matches!(dir, Dir::Out | Dir::Both);
        let inn = matches!(dir, Dir::In | Dir::Both);
        // From an edge onto one of its ends.
        if let TableKind::Relation { from, to } = &s.kind {
            if (out && has(to, target)) || (inn && has(from, target)) {
                return Ok(());
            }
        }
        // From a node onto an edge that starts (->) or ends (<-) there.
        if let TableKind::Relation { from, to } = &t.kind {
            if (out && has(from, source)) || (inn && has(to, source)) {
                return Ok(());
            }
        }
        let describe = |r: &Table| match &r.kind {
            TableKind::Relation { from, to } => {
                format!(
                    "`{}` links {} (in) to {} (out)",
                    r.name,
                    union_text(from),
                    union_text(to)
                )
            }
            TableKind::Normal => format!("`{}` is not an edge", r.name),
        };
        if let TableKind::Relation { from, to } = &s.kind {
            // Wrong end after an edge.
            let want = if out { to } else { from };
            let arrow = if out { "->" } else { "<-" };
            let fixes: Vec<String> = want.iter().map(|w| format!("`{source}{arrow}{w}`")).collect();
            return Err((
                format!(
                    "{}, so `{source}{arrow}{target}` cannot land on `{target}`",
                    describe(s)
                ),
                format!("write {}", fixes.join(" or ")),
            ));
        }
        match &t.kind {
            TableKind::Relation { from, to } => {
                // The edge exists but points the other way, or does not touch the source.
                if (out && has(to, source)) || (inn && has(from, source)) {
                    let (arrow, other) = if out { ("<-", from) } else { ("->", to) };
                    let other = union_text(other);
                    Err((
                        format!("{}: it arrives at `{source}`, it does not leave it", describe(t)),
                        format!("traverse it the other way: `{source}{arrow}{target}{arrow}{other}`"),
                    ))
                } else {
                    let routes = self.edges_of(source);
                    Err((
                        format!("{}; it does not touch `{source}`", describe(t)),
                        if routes.is_empty() {
                            format!(
                                "`{source}` has no edges; reach `{target}` from {} or {}",
                                union_text(from),
                                union_text(to)
                            )
                        } else {
                            format!("from `{source}` traverse {}", routes.join(" or "))
                        },
                    ))
                }
            }
            // Node to node: the edge was skipped.
            TableKind::Normal => Err(self.skipped_edge(source, target, out, inn)),
        }
    }

    /// The message and fix for a step from node `source` straight to node `target`: the edges
    /// between them, or a route through several, or the edges `source` has.
    fn skipped_edge(&self, source: &str, target: &str, out: bool, inn: bool) -> (String, String) {
        let via: Vec<String> = self
            .visible
            .iter()
            .filter_map(|r| match &r.kind {
                TableKind::Relation { from, to } if has(from, source) && has(to, target) && out => {
                    Some(format!("`{source}->{}->{target}`", r.name))
                }
                TableKind::Relation { from, to } if has(to, source) && has(from, target) && inn => {
                    Some(format!("`{source}<-{}<-{target}`", r.name))
                }
                _ => None,
            })
            .collect();
        let fix = if via.is_empty() {
            match (self.reach(source, target), self.link_between(source, target)) {
                (Some(hops), _) => format!("go through the edges: `{source}{hops}`"),
                (None, Some(link)) => link,
                (None, None) => {
                    let edges = self.edges_of(source);
                    if edges.is_empty() {
                        format!("`{source}` has no edges and no record link to `{target}`: query `{target}` on its own")
                    } else {
                        format!(
                            "`{target}` is not reached from `{source}`; from `{source}` traverse {}",
                            edges.join(" or ")
                        )
                    }
                }
            }
        } else {
            format!("go through the edge: {}", via.join(" or "))
        };
        (
            format!("`{source}` and `{target}` are not linked directly: a graph step goes through an edge table"),
            fix,
        )
    }

    /// A record-link field between two tables, as a fix for a graph step where no edge is: the
    /// field of `source` that links `target` (follow it with `.`), or the field of `target`
    /// that links `source` (select from `target` and filter on it).
    fn link_between(&self, source: &str, target: &str) -> Option<String> {
        let links = |from: &str, to: &str| {
            self.table(from).and_then(|t| {
                super::visible_fields(t, self.app)
                    .find(|f| f.ty.linked_tables().iter().any(|l| l == to))
                    .map(|f| f.name.clone())
            })
        };
        if let Some(field) = links(source, target) {
            return Some(format!(
                "`{source}.{field}` links to `{target}` (a record link, not an edge): write \
                `{field}.` and the field you want, e.g. `{field}.*`"
            ));
        }
        links(target, source).map(|field| {
            format!(
                "`{target}.{field}` links each `{target}` to its `{source}` (a record link, not an edge): select \
                FROM {target} and filter on `{field}` (WHERE {field} = ... or WHERE {field} IN ...)"
            )
        })
    }

    /// The graph steps that leave `table`: `->placed`, `<-contains`.
    pub(super) fn edges_of(&self, table: &str) -> Vec<String> {
        let mut out = Vec::new();
        for r in &self.visible {
            if let TableKind::Relation { from, to } = &r.kind {
                if has(from, table) {
                    out.extend(to.iter().map(|t| format!("`->{}->{t}`", r.name)));
                }
                if has(to, table) {
                    out.extend(from.iter().map(|f| format!("`<-{}<-{f}`", r.name)));
                }
            }
        }
        out
    }
}

/// Whether a relation's end (one table or several) includes `table`.
fn has(end: &[String], table: &str) -> bool {
    end.iter().any(|t| t == table)
}
