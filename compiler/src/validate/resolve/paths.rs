//! Field paths: idioms part by part, indexes and bracket filters, a table's fields, and the message (with the route to the field) for one that is not there.

use super::visible_fields;
use super::{Path, Resolver, Scope, Val, COMPARISONS};
use crate::codes::Demotion;
use crate::ir::{Table, TableKind};
use crate::suggest::nearest;
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::Class;
use surrealdb_sql::{BinaryOperator, Expr, Literal, Part, PrefixOperator};
use surrealdb_types::ToSql;

/// One element of an array (`[0]`, `[$i]`, `[-1]`, `.first()`): NONE when the array is shorter,
/// so an option of the element; anything else is itself.
fn one_element(ty: Ty) -> Ty {
    match ty {
        Ty::Array(t) => match *t {
            Ty::Option(inner) => Ty::Option(inner),
            Ty::Any => Ty::Any,
            t => Ty::Option(Box::new(t)),
        },
        other => other,
    }
}

/// The field of `t` nearest to `name` (what `unknown_field`'s did-you-mean names).
pub(super) fn candidates_near(t: &Table, name: &str, all: bool) -> Option<String> {
    let mut candidates: Vec<&str> = visible_fields(t, all).map(|f| f.name.as_str()).collect();
    candidates.push("id");
    if matches!(t.kind, TableKind::Relation { .. }) {
        candidates.extend(["in", "out"]);
    }
    nearest(name, candidates.iter().copied()).map(str::to_owned)
}

/// The key path the engine writes a projection without an alias at, when the projection is a
/// field path with indexes or filters (`images[0].url`, `images[*].url`, `time.created_at`): its
/// field names, as `Idiom::simplify` keeps them (`images.url`). `None` for anything else.
pub(super) fn output_key(expr: &Expr) -> Option<String> {
    let Expr::Idiom(idiom) = expr else {
        return None;
    };
    let mut names: Vec<&str> = Vec::new();
    for part in &idiom.0 {
        match part {
            Part::Field(name) => names.push(name.as_str()),
            Part::Value(_) | Part::All | Part::First | Part::Last | Part::Where(_) => {}
            _ => return None,
        }
    }
    (names.len() > 1 && matches!(idiom.0.first(), Some(Part::Field(_)))).then(|| names.join("."))
}

/// The key the engine writes a projection without an alias at: a field path's names
/// (`output_key`), else the engine's own `Expr::to_idiom` when that is one field (`count()` is
/// `count`, `math::sum(x)` is `math::sum`, `$p` is `p`), else the expression's text.
pub(super) fn unaliased_key(expr: &Expr) -> String {
    if let Some(key) = output_key(expr) {
        return key;
    }
    if !matches!(expr, Expr::Idiom(_)) {
        if let [Part::Field(name)] = expr.to_idiom().0.as_slice() {
            return name.as_str().to_owned();
        }
    }
    expr.to_sql()
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// An idiom relative to the scope's document.
    pub(super) fn idiom_in(&mut self, parts: &[Part], scope: &Scope) -> Val {
        let mut path = scope.origin.clone();
        let start = Val {
            ty: scope.doc.clone(),
            field: scope.doc_field.clone(),
        };
        self.parts_from(parts, start, scope, &mut path)
    }

    pub(super) fn parts(&mut self, parts: &[Part], start: Ty, scope: &Scope, path: &mut Path) -> Val {
        self.parts_from(parts, Val::of(start), scope, path)
    }

    fn parts_from(&mut self, parts: &[Part], start: Val, scope: &Scope, path: &mut Path) -> Val {
        let mut cur = start;
        let mut prev: Option<&Part> = None;
        // The last field name read: where a finding about the value it holds points.
        let mut last: Option<&str> = None;
        for (i, part) in parts.iter().enumerate() {
            // `.{..}` without a path of its own takes every part after it as the path it repeats.
            if let Part::Recurse(bounds, nest, instruction) = part {
                let body = nest.as_ref().map_or(&parts[i + 1..], |n| n.0.as_slice());
                self.recursion(&cur.ty, bounds, instruction.as_ref(), body, scope);
                if nest.is_none() {
                    return Val::of(Ty::Any);
                }
            }
            if let Some(kind) = cur.ty.scalar_kind() {
                self.scalar_part(part, kind, last);
            }
            cur = match part {
                Part::Field(name) => {
                    let after: &[&str] = if prev.is_some() { &["."] } else { &[] };
                    let parent = cur.field.as_ref();
                    let v = self.field(&cur.ty, parent, name.as_str(), path, after, scope);
                    if !path.text.is_empty() {
                        path.text.push('.');
                    }
                    path.text.push_str(name.as_str());
                    last = Some(name.as_str());
                    v
                }
                Part::Graph(lookup) => {
                    let v = Val::of(self.graph(&cur.ty, lookup, scope, path));
                    path.traversed = true;
                    v
                }
                Part::Where(cond) => {
                    let mut inner = Scope::new(cur.ty.element().clone(), Some(scope));
                    // Inside a filter on an array of objects the document is one element.
                    inner.doc_field = cur.field.clone();
                    self.condition(cond, &inner, super::conditions::Place::Filter);
                    cur
                }
                Part::Value(index) => self.index(cur, index, scope, path),
                Part::First | Part::Last => Val {
                    ty: one_element(cur.ty),
                    field: cur.field,
                },
                Part::All => {
                    if let Ty::Record(t) = cur.ty.element() {
                        if self.table(t).is_none() {
                            let t = t.clone();
                            let span = self.loc.all();
                            self.unknown_table(span, &t, |_| None);
                        }
                    }
                    cur
                }
                Part::Optional => cur,
                Part::Flatten => Val::of(match cur.ty {
                    Ty::Array(t) => match *t {
                        Ty::Array(inner) => Ty::Array(inner),
                        other => Ty::array(other),
                    },
                    other => other,
                }),
                Part::Start(e) => {
                    let v = match e {
                        // `$session.ip`, `$parent.name`: the start of a path, not a bare value.
                        Expr::Param(p) => Val::of(self.param(p.as_str(), scope, false)),
                        e => self.expr(e, scope),
                    };
                    if let Ty::Record(t) = v.ty.element() {
                        *path = Path {
                            text: t.clone(),
                            tables: vec![t.clone()],
                            traversed: false,
                        };
                    }
                    v
                }
                Part::Method(name, args) => {
                    self.optional_receiver(name.as_str(), &cur, scope);
                    let mut all = vec![cur.clone()];
                    for a in args {
                        all.push(self.expr(a, scope));
                    }
                    Val::of(self.method(name.as_str(), &all))
                }
                Part::Doc => Val::of(scope.doc.clone()),
                Part::Destructure(_) | Part::Recurse(..) | Part::RepeatRecurse => Val::of(Ty::Any),
            };
            prev = Some(part);
        }
        cur
    }

    /// A part that needs a collection or a record, after a value that is one scalar (`kind`):
    /// an index, a filter, `.*` or a traversal reads NONE in every row (SurrealDB 3.3.5).
    fn scalar_part(&mut self, part: &Part, kind: &str, last: Option<&str>) {
        let what = match part {
            Part::Value(Expr::Literal(Literal::String(_))) => return, // a key: the field check's
            Part::Value(_) => "an index",
            Part::Where(_) => "a filter",
            Part::All => "`.*`",
            Part::First | Part::Last => "an index",
            Part::Graph(_) => "a graph step",
            _ => return,
        };
        let Some(name) = last else { return };
        let span = self.loc.ident(name, &[]).or_all(self.loc);
        if matches!(part, Part::Graph(_)) {
            self.error(
                span,
                Class::TraversalFromValue,
                format!("`{name}` is a {kind}, not a record: a graph step from it reads NONE in every row"),
                "start the traversal from a record: the row itself (`->edge->table`), its `id`, or a record link field"
                    .to_owned(),
            );
        } else {
            self.error(
                span,
                Class::NotACollection,
                format!("`{name}` is a {kind}, not an array or object: {what} on it reads NONE in every row"),
                format!("use `{name}` as it is, or a {kind} function (`{kind}::...`)"),
            );
        }
    }

    /// `[...]` after a value: an index (`[0]`, `[$]`), a key (`['name']`), or a filter written without WHERE.
    pub(super) fn index(&mut self, cur: Val, index: &Expr, scope: &Scope, path: &mut Path) -> Val {
        match index {
            Expr::Literal(Literal::Integer(_))
            | Expr::Param(_)
            | Expr::Prefix {
                op: PrefixOperator::Negate,
                ..
            } => Val {
                ty: one_element(cur.ty),
                field: cur.field,
            },
            Expr::Literal(Literal::String(key)) => {
                self.field(&cur.ty, cur.field.as_ref(), key.as_str(), path, &[], scope)
            }
            Expr::Binary { op, .. }
                if COMPARISONS.contains(op) || matches!(op, BinaryOperator::And | BinaryOperator::Or) =>
            {
                let text = index.to_sql();
                let span = self.loc.bracket_filter().or_all(self.loc);
                self.error_replacing(
                    span,
                    Class::FilterWithoutWhere,
                    format!("`[{text}]` is an index, not a filter: it compares the whole list and matches nothing"),
                    format!("write the filter with WHERE: `[WHERE {text}]`"),
                    format!("[WHERE {text}]"),
                );
                let inner = Scope::new(cur.ty.element().clone(), Some(scope));
                self.expr(index, &inner);
                cur
            }
            Expr::Prefix {
                op: PrefixOperator::Not,
                ..
            } => {
                let text = index.to_sql();
                let span = self.loc.bracket_filter().or_all(self.loc);
                self.error(
                    span,
                    Class::FilterWithoutWhere,
                    format!("`[{text}]` is an index, not a filter"),
                    format!("write the filter with WHERE: `[WHERE {text}]`"),
                );
                cur
            }
            other => {
                self.expr(other, scope);
                Val::of(match cur.ty {
                    Ty::Array(t) => *t,
                    _ => Ty::Any,
                })
            }
        }
    }

    /// `.name` on a value of type `on`; `parent` is the schema field (table and path) the value
    /// is, when it is one: an object field's sub-fields are named by it.
    pub(super) fn field(
        &mut self,
        on: &Ty,
        parent: Option<&(String, String)>,
        name: &str,
        path: &Path,
        after: &[&str],
        scope: &Scope,
    ) -> Val {
        match on {
            Ty::Array(inner) => {
                let v = self.field(inner, parent, name, path, after, scope);
                Val {
                    ty: Ty::array(v.ty),
                    field: v.field,
                }
            }
            // A field of NONE is NONE: the value read through an option is an option.
            Ty::Option(inner) => {
                let v = self.field(inner, parent, name, path, after, scope);
                Val {
                    ty: match v.ty {
                        Ty::Option(_) | Ty::Any | Ty::None => v.ty,
                        t => Ty::Option(Box::new(t)),
                    },
                    field: v.field,
                }
            }
            Ty::Record(table) => self.table_field(table, name, path, after),
            Ty::Object(keys) if parent.is_some() => {
                let (table, at) = parent.expect("a schema field");
                self.sub_field(keys, table, at, name, after)
            }
            Ty::Object(keys) => match keys.iter().find(|(k, _)| k == name) {
                Some((_, ty)) => Val::of(ty.clone()),
                None => {
                    let span = self.loc.ident(name, after).or_all(self.loc);
                    let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
                    let near = nearest(name, names.iter().copied());
                    let fix = match near {
                        Some(near) => {
                            format!("did you mean `{near}`? The rows have: {}", names.join(", "))
                        }
                        None => format!("the rows have: {}", names.join(", ")),
                    };
                    self.error_fixed(
                        span,
                        Class::UnknownField,
                        format!("the subquery's rows have no field `{name}`"),
                        fix,
                        near.map(str::to_owned),
                    );
                    Val::of(Ty::Any)
                }
            },
            Ty::Any | Ty::AnyObject | Ty::None => Val::of(Ty::Any),
            scalar => {
                let span = self.loc.ident(name, after).or_all(self.loc);
                let _ = scope;
                self.error(
                    span,
                    Class::UnknownField,
                    format!(
                        "`{}` is {}, which has no field `{name}`",
                        path.text,
                        super::calls::article(scalar.to_string())
                    ),
                    format!("the value is the {scalar} itself: drop `.{name}`, or read `{name}` from a record"),
                );
                Val::of(Ty::Any)
            }
        }
    }

    /// `.name` on the object field `table.at` (a `#[derive(Object)]` field): its sub-field, `any`
    /// for a key a `FLEXIBLE` one does not declare, or an unknown field with the nearest name.
    fn sub_field(&mut self, keys: &[(String, Ty)], table: &str, at: &str, name: &str, after: &[&str]) -> Val {
        if let Some((_, ty)) = keys.iter().find(|(k, _)| k == name) {
            return Val {
                ty: ty.clone(),
                field: Some((table.to_owned(), format!("{at}.{name}"))),
            };
        }
        let span = self.loc.ident(name, after).or_all(self.loc);
        let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
        let near = nearest(name, names.iter().copied());
        let fix = match near {
            Some(near) => format!(
                "did you mean `{at}.{near}`? The fields of `{at}` are: {}",
                names.join(", ")
            ),
            None => format!("the fields of `{at}` are: {}", names.join(", ")),
        };
        // A FLEXIBLE object keeps keys it does not declare: one the schema says nothing of is
        // `any`, and only one that looks like a misspelt declared key is worth a (non-blocking) word.
        let flexible = self.table(table).and_then(|t| t.field_at(at));
        if flexible.is_some_and(crate::surql::flexible::is_flexible) {
            if near.is_some() {
                self.warning(
                    span,
                    Demotion::SchemalessField,
                    format!(
                        "`{table}.{at}` declares no field `{name}` (it is FLEXIBLE: rows without it read it as NONE)"
                    ),
                    fix,
                );
            }
            return Val::of(Ty::Any);
        }
        self.error_fixed(
            span,
            Class::UnknownField,
            format!("`{table}.{at}` has no field `{name}`"),
            fix,
            near.map(str::to_owned),
        );
        Val::of(Ty::Any)
    }

    pub(super) fn table_field(&mut self, table: &str, name: &str, path: &Path, after: &[&str]) -> Val {
        let Some(t) = self.table(table) else {
            // A link into a table the agent cannot see reads like an unknown table.
            let span = self.loc.ident(name, after).or_all(self.loc);
            self.unknown_table(span, table, |_| None);
            return Val::of(Ty::Any);
        };
        if name == "id" {
            return Val::of(Ty::Record(table.to_owned()));
        }
        if let TableKind::Relation { from, to } = &t.kind {
            // An end of several tables is a record of any of them: its fields are not checked.
            if name == "in" || name == "out" {
                return Val {
                    ty: super::relation_end(if name == "in" { from } else { to }),
                    field: Some((table.to_owned(), name.to_owned())),
                };
            }
        }
        if let Some(f) = visible_fields(t, self.app).find(|f| f.name == name) {
            return Val {
                ty: Ty::of_field(f),
                field: Some((table.to_owned(), name.to_owned())),
            };
        }
        let span = self.loc.ident(name, after).or_all(self.loc);
        let (class, message, fix) = self.unknown_field(t, name, path);
        // The application writes a SCHEMALESS table's other fields itself and reads them back.
        if t.schemaless && class == Class::UnknownField && self.app {
            return Val::of(Ty::Any);
        }
        if t.schemaless && class == Class::UnknownField {
            // A SCHEMALESS table's rows may hold fields the schema does not declare: the query
            // may be right, so say what the schema knows without blocking it.
            self.warning(
                span,
                Demotion::SchemalessField,
                format!(
                    "{message} declared (`{}` is SCHEMALESS: rows without it read it as NONE)",
                    t.name
                ),
                fix,
            );
        } else {
            let near = candidates_near(t, name, self.app);
            let d = self.error(span, class, message, fix);
            // The nearest name is the repair only when it is what the message offers.
            if let (Class::UnknownField, Some(near)) = (class, near) {
                if d.fix.starts_with("did you mean") {
                    d.fixes.push(crate::validate::Edit {
                        span,
                        replacement: near,
                    });
                }
            }
        }
        Val::of(Ty::Any)
    }

    /// The message for `name` not being a field of `t`, reached by `path`.
    pub(super) fn unknown_field(&self, t: &Table, name: &str, path: &Path) -> (Class, String, String) {
        let mut candidates: Vec<&str> = visible_fields(t, self.app).map(|f| f.name.as_str()).collect();
        candidates.push("id");
        if matches!(t.kind, TableKind::Relation { .. }) {
            candidates.extend(["in", "out"]);
        }
        let fields = candidates.join(", ");
        let owners: Vec<&Table> = self
            .visible
            .iter()
            .copied()
            .filter(|o| o.name != t.name && visible_fields(o, self.app).any(|f| f.name == name))
            .collect();
        let landed = if path.traversed && !path.text.is_empty() {
            format!("`{}` lands on `{}`, which has no field `{name}`", path.text, t.name)
        } else {
            format!("`{}` has no field `{name}`", t.name)
        };
        // The field belongs to a table the traversal went through.
        if path.traversed {
            if let Some(owner) = owners.iter().find(|o| path.tables.contains(&o.name)) {
                let route = self.route_hint(owner, &t.name, name, path);
                // The field may also be one step further (a product's `name` after ->purchase).
                let further: Vec<String> = owners
                    .iter()
                    .filter(|o| !path.tables.contains(&o.name))
                    .filter_map(|o| {
                        self.reach(&t.name, &o.name)
                            .map(|hops| format!("`{name}` of `{}` is `{}{hops}.{name}`", o.name, path.text))
                    })
                    .collect();
                let further = if further.is_empty() {
                    String::new()
                } else {
                    format!("; {}", further.join("; "))
                };
                return (
                    Class::WrongTableAfterTraversal,
                    landed,
                    format!("`{name}` is a field of `{}`: {route}{further}", owner.name),
                );
            }
        }
        if let Some(near) = nearest(name, candidates.iter().copied()) {
            return (
                Class::UnknownField,
                landed,
                format!("did you mean `{near}`? The fields of `{}` are: {fields}", t.name),
            );
        }
        if let Some(owner) = owners.first() {
            let reach = match self.reach(&t.name, &owner.name) {
                Some(hops) => format!("reach it from `{}` as `{hops}.{name}`", t.name),
                None => format!("select FROM {} to read it", owner.name),
            };
            return (
                Class::UnknownField,
                landed,
                format!(
                    "`{name}` is a field of `{}`: {reach}; the fields of `{}` are: {fields}",
                    owner.name, t.name
                ),
            );
        }
        (
            Class::UnknownField,
            landed,
            format!("the fields of `{}` are: {fields}", t.name),
        )
    }

    /// How to read `field` of `owner` when a traversal landed on `landed` instead.
    pub(super) fn route_hint(&self, owner: &Table, landed: &str, field: &str, path: &Path) -> String {
        // An edge between the owner and the landing table: select FROM it and use in./out.
        for r in &self.visible {
            if let TableKind::Relation { from, to } = &r.kind {
                if from.contains(&owner.name) && to.iter().any(|t| t == landed) {
                    return format!("select FROM {} and use in.{field}", r.name);
                }
                if to.contains(&owner.name) && from.iter().any(|t| t == landed) {
                    return format!("select FROM {} and use out.{field}", r.name);
                }
            }
        }
        if let TableKind::Relation { .. } = owner.kind {
            return format!(
                "filter the edge inside the traversal, `->{}[WHERE {field} ...]`, or select FROM {} and use {field}",
                owner.name, owner.name
            );
        }
        let first = path.tables.first().map_or(owner.name.as_str(), String::as_str);
        if first == owner.name {
            format!(
                "filter it before traversing: `{}[WHERE {field} ...]` or FROM {} WHERE {field} ...",
                owner.name, owner.name
            )
        } else {
            format!(
                "filter that step inside the traversal: `{}[WHERE {field} ...]`",
                owner.name
            )
        }
    }
}
