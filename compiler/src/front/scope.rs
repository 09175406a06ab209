//! The per-user agent in the front end: `scope(end_user = T, ...)` resolved to settings, and each table's `owner` route followed step by step through the schema to the end-user table.

use super::ast::Items;
use super::ctxt::Ctxt;
use super::owner_routes;
use super::schema_attrs::SchemaAttrs;
use super::suggest::did_you_mean;
use crate::ir;
use crate::surql::route::{self, Step};
use std::collections::BTreeMap;
use syn::LitStr;

/// The scope's settings, or `None` when the schema declares none (or its end user is not a table:
/// reported here).
pub(super) fn settings(cx: &Ctxt, a: &SchemaAttrs, table_names: &BTreeMap<String, String>) -> Option<ir::Scope> {
    let path = a.scope_end_user.as_ref()?;
    let ident = path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
    let Some(end_user) = table_names.get(&ident) else {
        cx.error_spanned_by(
            path,
            format!(
                "`{ident}` is not a table in this schema{}; scope(end_user = ...) names the table whose rows are the agent's users",
                did_you_mean(&ident, table_names.keys())
            ),
        );
        return None;
    };
    let valid = |v: &Option<super::attr::Spanned<String>>, rule: fn(&str) -> Result<(), String>| {
        v.as_ref().filter(|s| rule(&s.value).is_ok()).map(|s| s.value.clone())
    };
    use super::settings::{duration_rule, name_rule};
    Some(ir::Scope {
        access: valid(&a.scope_access, name_rule).unwrap_or_else(|| format!("{end_user}_agent")),
        token_duration: valid(&a.scope_token, duration_rule).unwrap_or_else(|| "15m".into()),
        session_duration: valid(&a.scope_session, duration_rule).unwrap_or_else(|| "1h".into()),
        end_user: end_user.clone(),
        oidc: oidc(a),
    })
}

/// The identity provider of `scope(jwks = ...)`, when it and its issuer and audience are valid
/// (`settings::check` reports them otherwise).
fn oidc(a: &SchemaAttrs) -> Option<ir::Oidc> {
    let oidc = ir::Oidc {
        jwks: a.scope_jwks.as_ref()?.value.clone(),
        issuer: a.scope_issuer.as_ref()?.value.clone(),
        audience: a.scope_audience.as_ref()?.value.clone(),
        user_claim: a
            .scope_user_claim
            .as_ref()
            .map_or_else(|| ir::DEFAULT_USER_CLAIM.to_owned(), |c| c.value.clone()),
    };
    oidc.check().is_ok().then_some(oidc)
}

/// What the schema item says of the per-user agent, for [`check_owners`].
pub(super) struct Declared<'a> {
    /// The resolved scope (`None` without one, or when its end user was not a table).
    pub scope: Option<&'a ir::Scope>,
    /// Whether `scope(...)` was written at all (a wrong `end_user` is reported on its own).
    pub written: bool,
    /// The exposed tables: each must say who owns it under a scope.
    pub exposed: &'a [String],
    pub agent: &'a ir::AgentSettings,
}

/// Checks every `owner = "..."` route against the schema: each step must exist and lead on, and
/// the route must end at the end-user table. Under a scope every exposed table but the end
/// user's must say `owner = "..."` or `shared`: left silent, a table would be shared, and every
/// user would read all of its rows.
pub(super) fn check_owners(cxs: &[Ctxt], items: &Items, tables: &[ir::Table], declared: &Declared) {
    let by_name: BTreeMap<&str, &ir::Table> = tables.iter().map(|t| (t.name.as_str(), t)).collect();
    let shared: Vec<&str> = items
        .tables
        .iter()
        .filter(|(_, t)| t.shared.is_some())
        .map(|(_, t)| t.name.as_str())
        .collect();
    for (file, ast) in &items.tables {
        let cx = &cxs[*file];
        if let (Some(lit), Some(span)) = (&ast.owner, ast.shared) {
            cx.error_at(span, format!("`{}` says both `owner = {:?}` and `shared`: a row either belongs to one user or is read by all; keep one", ast.name, lit.value()));
            continue;
        }
        let Some(scope) = declared.scope else {
            if !declared.written {
                without_scope(cx, ast);
            }
            continue;
        };
        let suggest = || routes_hint(&ast.name, &scope.end_user, &by_name, &shared);
        if ast.name == scope.end_user {
            let at = ast.owner.as_ref().map(LitStr::span).or(ast.shared);
            if let Some(at) = at {
                cx.error_at(at, format!("`{}` is the end-user table: each user reads their own row (`id = $auth`) without an owner route or `shared`", ast.name));
            }
            continue;
        }
        if let Some(lit) = &ast.owner {
            let route = lit.value();
            let trimmed = route.trim();
            let lead = route.len() - route.trim_start().len();
            if let Err((offset, message)) = follow(trimmed, &ast.name, &by_name, &scope.end_user) {
                cx.error_at(
                    super::attr::span_in(lit, lead + offset),
                    format!("{message}{}", suggest()),
                );
            }
        } else if ast.shared.is_none() && ast.name != declared.agent.user && declared.exposed.contains(&ast.name) {
            let routes = checked_routes(&ast.name, &scope.end_user, &by_name, &shared);
            let owner = match routes.first() {
                Some(first) => format!(
                    "#[surqlc(owner = \"{first}\")] if each row belongs to one `{}`{}",
                    scope.end_user,
                    if routes.len() > 1 {
                        format!(" (other routes: {})", owner_routes::listed(&routes[1..]))
                    } else {
                        String::new()
                    }
                ),
                None => format!(
                    "#[surqlc(owner = \"...\")] with a route to `{}` (none is found through its links and relations)",
                    scope.end_user
                ),
            };
            cx.error_at(
                ast.name_span,
                format!(
                    "`{}` is exposed to the per-user agent but does not say who owns its rows; add {owner}, or \
                    #[surqlc(shared)] if every `{}` may read every row",
                    ast.name, scope.end_user
                ),
            );
        }
    }
}

/// `owner` and `shared` written without a scope.
fn without_scope(cx: &Ctxt, ast: &super::ast::TableAst) {
    const ADD: &str = "add `scope(end_user = T)` to the schema item, T the table whose rows are the users";
    if let Some(lit) = &ast.owner {
        cx.error_at(lit.span(), format!("`owner` needs a per-user agent: {ADD}"));
    }
    if let Some(span) = ast.shared {
        cx.error_at(
            span,
            format!("`shared` only means something to a per-user agent: {ADD}, or remove `shared`"),
        );
    }
}

/// The routes from `table` to `end_user` the walk finds ([`owner_routes::routes_to`]), each kept
/// only if [`follow`] accepts it: a suggestion is always a route the checker takes.
fn checked_routes(table: &str, end_user: &str, by_name: &BTreeMap<&str, &ir::Table>, shared: &[&str]) -> Vec<String> {
    owner_routes::routes_to(table, end_user, by_name, shared)
        .into_iter()
        .filter(|r| follow(r, table, by_name, end_user).is_ok())
        .collect()
}

/// `; routes from `visit` that reach `owner`: ...`, or nothing when none is found.
fn routes_hint(table: &str, end_user: &str, by_name: &BTreeMap<&str, &ir::Table>, shared: &[&str]) -> String {
    let routes = checked_routes(table, end_user, by_name, shared);
    if routes.is_empty() {
        String::new()
    } else {
        format!(
            "; routes from `{table}` that reach `{end_user}`: {}",
            owner_routes::listed(&routes)
        )
    }
}

/// Where a route stands between steps: on rows of these tables, or on edges of a relation.
enum Place<'a> {
    Rows(Vec<&'a str>),
    Edges { relation: &'a ir::Table, out: bool },
}

/// Follows `route` from rows of `start`; `Err((byte offset, message))` at the first step that
/// does not lead on, or at the end if it does not reach `end_user`.
fn follow(
    route: &str,
    start: &str,
    tables: &BTreeMap<&str, &ir::Table>,
    end_user: &str,
) -> Result<(), (usize, String)> {
    let steps = route::parse(route).map_err(|e| (e.offset, e.message))?;
    let mut place = Place::Rows(vec![start]);
    for at in &steps {
        place = step(place, at.step, tables).map_err(|m| (at.offset, m))?;
    }
    match place {
        Place::Rows(reached) if reached.contains(&end_user) => Ok(()),
        Place::Rows(reached) => Err((
            0,
            format!(
                "the route `{route}` from `{start}` reaches {}, not the end-user table `{end_user}`",
                reached
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        )),
        Place::Edges { relation, out } => Err((
            route.len(),
            format!(
                "the route ends on `{}` edges; add `{}{end_user}` to go on to the end-user table",
                relation.name,
                if out { "->" } else { "<-" }
            ),
        )),
    }
}

/// One step from `place`, or why it does not lead on.
fn step<'a>(place: Place<'a>, step: Step<'_>, tables: &BTreeMap<&'a str, &'a ir::Table>) -> Result<Place<'a>, String> {
    let out = matches!(step, Step::Out(_));
    match (place, step) {
        (Place::Rows(current), Step::Field(name)) => field_step(&current, name, tables),
        (Place::Rows(current), Step::Out(name) | Step::In(name)) => onto_edges(&current, name, out, tables),
        (Place::Edges { relation, out: along }, Step::Out(name) | Step::In(name)) => {
            if out != along {
                return Err(format!(
                    "a route keeps its direction across an edge: write `{}{name}`",
                    arrow(along)
                ));
            }
            off_edges(relation, along, name, tables)
        }
        (Place::Edges { relation, out: along }, Step::Field(name)) => Err(format!(
            "after `{}{}` name the table at its end (e.g. `{}{}`) before `.{name}`",
            arrow(along),
            relation.name,
            arrow(along),
            ir::union_text(ends(relation, along))
        )),
    }
}

fn arrow(out: bool) -> &'static str {
    if out {
        "->"
    } else {
        "<-"
    }
}

/// A relation's tables at the far end when followed `out` (its `to`) or in (its `from`).
fn ends(relation: &ir::Table, out: bool) -> &[String] {
    match &relation.kind {
        ir::TableKind::Relation { from, to } => {
            if out {
                to
            } else {
                from
            }
        }
        _ => &[],
    }
}

/// `.name` from rows of `current`: the tables its record links (or a relation's `in`/`out`) reach.
fn field_step<'a>(
    current: &[&'a str],
    name: &str,
    tables: &BTreeMap<&'a str, &'a ir::Table>,
) -> Result<Place<'a>, String> {
    let mut next: Vec<&'a str> = Vec::new();
    for t in current {
        let table = tables[t];
        let linked: Vec<&'a str> = match (&table.kind, name) {
            (ir::TableKind::Relation { .. }, "in") => ends(table, false).iter().map(String::as_str).collect(),
            (ir::TableKind::Relation { .. }, "out") => ends(table, true).iter().map(String::as_str).collect(),
            (_, "id") => vec![table.name.as_str()],
            _ => {
                let Some(field) = table.field(name) else {
                    return Err(format!(
                        "`{t}` has no field `{name}`{}",
                        did_you_mean(name, table.fields.iter().map(|f| &f.name))
                    ));
                };
                let linked: Vec<&'a str> = field.ty.linked_tables().iter().map(String::as_str).collect();
                if linked.is_empty() {
                    return Err(format!(
                        "`{t}.{name}` is not a record link, so the route cannot go on from it"
                    ));
                }
                linked
            }
        };
        for l in linked {
            if tables.contains_key(l) && !next.contains(&l) {
                next.push(l);
            }
        }
    }
    Ok(Place::Rows(next))
}

/// `->name` or `<-name` from rows of `current`: onto the edges of relation `name`, which must
/// start (or, followed backwards, end) at one of them.
fn onto_edges<'a>(
    current: &[&'a str],
    name: &str,
    out: bool,
    tables: &BTreeMap<&'a str, &'a ir::Table>,
) -> Result<Place<'a>, String> {
    let is_relation = |t: &&ir::Table| matches!(t.kind, ir::TableKind::Relation { .. });
    let Some(relation) = tables.get(name).copied().filter(is_relation) else {
        return Err(format!(
            "`{name}` is not a relation in this schema{}",
            did_you_mean(name, tables.values().filter(|t| is_relation(t)).map(|t| &t.name))
        ));
    };
    let near = ends(relation, !out);
    if !current.iter().any(|t| near.iter().any(|n| n == t)) {
        return Err(format!(
            "`{}{name}` does not start at {}: `{name}` goes from {} to {}; follow it the other way with `{}{name}`",
            arrow(out),
            current
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(" or "),
            ir::union_text(ends(relation, false)),
            ir::union_text(ends(relation, true)),
            arrow(!out)
        ));
    }
    Ok(Place::Edges { relation, out })
}

/// `->name` or `<-name` off `relation`'s edges: the table `name` at their far end.
fn off_edges<'a>(
    relation: &'a ir::Table,
    out: bool,
    name: &str,
    tables: &BTreeMap<&'a str, &'a ir::Table>,
) -> Result<Place<'a>, String> {
    let far = ends(relation, out);
    match tables.get_key_value(name) {
        Some((table, _)) if far.iter().any(|t| t == name) => Ok(Place::Rows(vec![*table])),
        _ => Err(format!(
            "`{}` edges lead {} to {}, not to `{name}`",
            relation.name,
            if out { "out" } else { "in" },
            ir::union_text(far)
        )),
    }
}
