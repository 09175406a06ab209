//! Settles what one item cannot know alone (link targets, enum types, settings) and builds the IR.

pub use super::ast::Items;
use super::ast::TableAst;
use super::ctxt::Ctxt;
use super::names::{last_ident, Names};
use super::suggest::did_you_mean;
use crate::ir;
use std::collections::{BTreeMap, HashMap};

/// Builds the IR; every problem is recorded in the `Ctxt` of the file it is in.
pub fn resolve(cxs: &[Ctxt], items: &Items, default_name: &str) -> ir::Schema {
    let names = Names::collect(cxs, items);
    let tables = ir_tables(cxs, &names);
    let analyzers = super::schema_checks::analyzers(cxs, items);
    super::schema_checks::lints(cxs, items);

    let (name, rust_name, settings) = settings(cxs, items, &tables, &names.tables, default_name);
    refuse_reserved_table_names(cxs, items, &settings);
    let built = built_tables(items, &tables);
    warn_of_named_hidden_tables(cxs, &built, &settings.exposed);
    warn_of_agent_writes(cxs, &built, &tables, &settings);
    let written = items.schemas.iter().any(|(_, s)| s.attrs.scope_end_user.is_some());
    super::scope::check_owners(
        cxs,
        items,
        &tables,
        &super::scope::Declared {
            scope: settings.scope.as_ref(),
            written,
            exposed: &settings.exposed,
            agent: &settings.agent,
        },
    );
    ir::Schema {
        name,
        rust_name,
        tables,
        enums: items.enums.iter().map(|(_, e)| e.to_ir()).collect(),
        analyzers,
        functions: Vec::new(),
        settings,
    }
}

/// The IR's tables, in item order; a relation whose ends do not resolve is left out (its error is
/// recorded), and so is a field whose type does not.
fn ir_tables(cxs: &[Ctxt], names: &Names) -> Vec<ir::Table> {
    let objects = super::objects::resolve_all(cxs, names);
    let mut tables = Vec::new();
    for (file, t) in &names.items.tables {
        let cx = &cxs[*file];
        let kind = match &t.relation {
            Some((from, to)) => match (names.end(cx, from), names.end(cx, to)) {
                (Some(from), Some(to)) => ir::TableKind::Relation { from, to },
                _ => continue,
            },
            None => ir::TableKind::Normal,
        };
        let fields = t
            .fields
            .iter()
            .filter_map(|f| super::objects::field(cx, names, &objects, f))
            .collect();
        let table = ir::Table {
            name: t.name.clone(),
            rust_name: t.ident.to_string(),
            comment: t.comment.clone(),
            kind,
            schemaless: t.schemaless,
            enforced: t.enforced,
            id: t.id.as_ref().map(|(ty, _)| ty.clone()),
            permissions: t.permissions.clone(),
            fields,
            indexes: t.indexes.iter().map(|i| i.index.clone()).collect(),
            aka: t.aka.clone(),
            owner: t.owner.as_ref().map(|route| route.value().trim().to_owned()),
            view: t.view.as_ref().map(|v| v.value().trim().to_owned()),
            renamed_from: t.renamed_from.clone(),
        };
        super::objects::check_index_paths(cx, t, &table);
        tables.push(table);
    }
    tables
}

/// Errors at a table that takes a name surqlc keeps for itself: the few-shot pool, the agent's
/// identity table, and pruning's per-table rows (when the schema prunes).
fn refuse_reserved_table_names(cxs: &[Ctxt], items: &Items, settings: &ir::Settings) {
    let named = |name: &str| items.tables.iter().find(|(_, t)| t.name == name);
    // Point at the clashing table itself: that is where the name comes from.
    if let Some((file, table)) = named(&settings.examples.table) {
        cxs[*file].error_at(table.name_span, format!("the few-shot pool table `{}` clashes with a table of the schema; rename one with examples(table = \"...\")", settings.examples.table));
    }
    if let Some((file, table)) = named(crate::access::IDENTITY_TABLE) {
        cxs[*file].error_at(
            table.name_span,
            format!(
                "the table `{}` is where surqlc keeps the record-access agent's password hash; rename this table",
                crate::access::IDENTITY_TABLE
            ),
        );
    }
    if settings.prune.is_some() {
        if let Some((file, table)) = named(crate::prune::DOC_TABLE) {
            cxs[*file].error_at(
                table.name_span,
                format!(
                    "the table `{}` is where prune(...) keeps its per-table rows; rename this table",
                    crate::prune::DOC_TABLE
                ),
            );
        }
    }
}

fn settings(
    cxs: &[Ctxt],
    items: &Items,
    tables: &[ir::Table],
    table_names: &BTreeMap<String, String>,
    default_name: &str,
) -> (String, Option<String>, ir::Settings) {
    for (file, extra) in items.schemas.iter().skip(1) {
        cxs[*file].error_spanned_by(&extra.ident, "only one item may derive Schema");
    }
    let Some((file, schema)) = items.schemas.first() else {
        let exposed: Vec<String> = tables.iter().map(|t| t.name.clone()).collect();
        let mut value_hints = default_hints(tables, &exposed);
        value_hints.extend(time_spans(tables, &exposed));
        let settings = ir::Settings {
            value_hints,
            exposed,
            ..Default::default()
        };
        return (default_name.to_owned(), None, settings);
    };
    let cx = &cxs[*file];
    let a = &schema.attrs;
    let exposed = match &a.expose {
        None => tables.iter().map(|t| t.name.clone()).collect(),
        Some(paths) => exposed_tables(cx, items, table_names, paths),
    };
    let mut value_hints = match &a.value_hints {
        None => default_hints(tables, &exposed),
        Some(h) => super::schema_checks::value_hints(cx, items, tables, table_names, h, &exposed),
    };
    // Each exposed datetime field's span, unless `value_hints(time_spans = false)`.
    if a.value_hints
        .as_ref()
        .and_then(|h| h.time_spans.as_ref())
        .is_none_or(|on| on.value)
    {
        let spans: Vec<ir::ValueHint> = time_spans(tables, &exposed)
            .filter(|s| !value_hints.contains(s))
            .collect();
        value_hints.extend(spans);
    }
    // Pruning fills its budget with exact o200k_base costs; a build of surqlc without them would
    // write a `schema.surql` that differs from the CLI's in silence (a budget filled from byte
    // counts shows a fraction of the tables), so it is refused where `prune` is written.
    #[cfg(not(feature = "tokens"))]
    if let Some(span) = a.prune {
        cx.error_at(span, PRUNE_NEEDS_TOKENS);
    }
    let prune = a.prune.map(|_| prune_settings(cx, items, table_names, a, &exposed));
    let scope = super::scope::settings(cx, a, table_names);
    let settings = ir::Settings {
        exposed,
        value_hints,
        prune,
        scope,
        ..written_settings(a)
    };
    if let (Some(scope), Some(access)) = (&settings.scope, &a.scope_access) {
        if scope.access == settings.agent.user {
            cx.error_at(
                access.span,
                format!(
                    "the per-user agent's access cannot take the name of the agent `{}`; name it e.g. \"{}_agent\"",
                    settings.agent.user, scope.end_user
                ),
            );
        }
    }
    (
        super::ast::schema_name(&schema.ident),
        Some(schema.ident.to_string()),
        settings,
    )
}

/// Every literal field the prompt shows (never a hidden table's or field's), as the default value
/// hints; a literal sub-field of an object (`address.kind`) too, unless it is inside an array.
fn default_hints(tables: &[ir::Table], exposed: &[String]) -> Vec<ir::ValueHint> {
    let exposed: std::collections::HashSet<&str> = exposed.iter().map(String::as_str).collect();
    let mut hints: Vec<(String, String)> = tables
        .iter()
        .filter(|t| exposed.contains(t.name.as_str()))
        .flat_map(|t| {
            t.fields
                .iter()
                .filter(|f| !crate::access::is_hidden(f))
                .flat_map(|f| {
                    let mut paths = Vec::new();
                    f.with_paths(&f.name, &mut paths);
                    paths
                })
                .filter(|(path, f)| is_literal(&f.ty) && !path.contains(".*"))
                .map(|(path, _)| (t.name.clone(), path))
                .collect::<Vec<_>>()
        })
        .collect();
    hints.sort();
    hints
        .into_iter()
        .map(|(table, field)| ir::ValueHint::Distinct {
            field: ir::FieldRef { table, field },
            limit: ir::DEFAULT_HINT_LIMIT,
        })
        .collect()
}

/// The tables of `expose(...)`, in the order written; twice-named and unknown tables are errors.
fn exposed_tables(
    cx: &Ctxt,
    items: &Items,
    table_names: &BTreeMap<String, String>,
    paths: &[syn::Path],
) -> Vec<String> {
    let mut exposed: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        match table_names.get(&last_ident(p)) {
            Some(name) if !seen.insert(name) => cx.error_spanned_by(p, format!("`{name}` is exposed twice")),
            Some(name) => exposed.push(name.clone()),
            None if items.broken.contains(&last_ident(p)) => {}
            None => cx.error_spanned_by(
                p,
                format!(
                    "`{}` is not a table in this schema{}",
                    last_ident(p),
                    did_you_mean(&last_ident(p), table_names.keys())
                ),
            ),
        }
    }
    exposed
}

/// `prune(...)`'s settings: its `always` tables (exposed ones, in prompt order), budget, mix, fields.
fn prune_settings(
    cx: &Ctxt,
    items: &Items,
    table_names: &BTreeMap<String, String>,
    a: &super::schema_attrs::SchemaAttrs,
    exposed: &[String],
) -> ir::Prune {
    let mut always: Vec<String> = Vec::new();
    for p in a.prune_always.iter().flatten() {
        match table_names.get(&last_ident(p)) {
            Some(name) if always.contains(name) => {
                cx.error_spanned_by(p, format!("`{name}` is in prune(always) twice"))
            }
            Some(name) if !exposed.contains(name) => cx.error_spanned_by(
                p,
                format!("`{name}` is in prune(always) but not exposed; add it to expose(...)"),
            ),
            Some(name) => always.push(name.clone()),
            None if items.broken.contains(&last_ident(p)) => {}
            None => cx.error_spanned_by(p, format!("`{}` is not a table in this schema", last_ident(p))),
        }
    }
    // Prompt order, so the pruned block is a subsequence of the full one.
    always.sort_by_key(|t| exposed.iter().position(|e| e == t));
    let defaults = ir::Prune::default();
    ir::Prune {
        budget: a.prune_budget.as_ref().map_or(defaults.budget, |b| b.value.max(1)),
        always,
        mix: a
            .prune_mix
            .as_ref()
            .and_then(|m| super::settings::mix_rule(&m.value).ok())
            .unwrap_or(defaults.mix),
        fields: a.prune_fields.unwrap_or(defaults.fields),
    }
}

/// The settings written as plain values (examples, agent, rows, budgets, lints), each its default
/// when absent or invalid: invalid values were reported by `ast` under the same rules (the derive
/// sees the same errors, and a schema with errors produces no output), so they fall back quietly.
fn written_settings(a: &super::schema_attrs::SchemaAttrs) -> ir::Settings {
    use super::settings::{count_rule, dimension_rule, duration_rule, name_rule};
    let defaults = ir::Settings::default();
    let pick_str = |v: &Option<super::attr::Spanned<String>>, d: String, rule: fn(&str) -> Result<(), String>| match v {
        Some(s) if rule(&s.value).is_ok() => s.value.clone(),
        _ => d,
    };
    let pick_count = |v: &Option<super::attr::Spanned<u32>>, d: u32, rule: fn(u32) -> Result<(), String>| match v {
        Some(s) if rule(s.value).is_ok() => s.value,
        _ => d,
    };
    ir::Settings {
        examples: ir::ExampleSettings {
            table: pick_str(&a.examples_table, defaults.examples.table.clone(), name_rule),
            dimension: pick_count(&a.dimension, defaults.examples.dimension, dimension_rule),
            k: pick_count(&a.k, defaults.examples.k, count_rule),
            ef: pick_count(&a.ef, defaults.examples.ef, count_rule),
        },
        agent: ir::AgentSettings {
            user: pick_str(&a.agent_user, defaults.agent.user.clone(), name_rule),
            token_duration: pick_str(&a.token_duration, defaults.agent.token_duration.clone(), duration_rule),
            session_duration: pick_str(
                &a.session_duration,
                defaults.agent.session_duration.clone(),
                duration_rule,
            ),
        },
        max_rows: pick_count(&a.max_rows, defaults.max_rows, count_rule),
        compact: a.compact,
        budget: ir::Budget {
            block: a.budget_block.as_ref().map(|b| b.value.max(1)),
            table: a.budget_table.as_ref().map(|b| b.value.max(1)),
        },
        lints: ir::Lints {
            allow: known_lints(&a.lints_allow, false),
            warn: known_lints(&a.lints_warn, false),
            deny: known_lints(&a.lints_deny, true),
        },
        ..defaults
    }
}

/// The codes of `lints(...)` that name a class (the others were reported by `settings::check`), upper case.
fn known_lints(codes: &[super::attr::Spanned<String>], deny: bool) -> Vec<String> {
    codes
        .iter()
        .filter_map(|c| super::settings::lint_rule(&c.value, deny).ok())
        .map(|class| class.code().to_owned())
        .collect()
}

/// A span hint for every visible datetime field (sub-fields too, not inside arrays) of the exposed
/// tables, in table and field order: the dates the data covers, for questions about "last month".
fn time_spans<'a>(tables: &'a [ir::Table], exposed: &'a [String]) -> impl Iterator<Item = ir::ValueHint> + 'a {
    tables
        .iter()
        .filter(|t| exposed.contains(&t.name) && t.view.is_none())
        .flat_map(|t| {
            let mut paths = Vec::new();
            for f in t.fields.iter().filter(|f| !crate::access::is_hidden(f)) {
                f.with_paths(&f.name, &mut paths);
            }
            paths
                .into_iter()
                .filter(|(path, f)| is_datetime(&f.ty) && !path.contains(".*"))
                .map(|(path, _)| ir::ValueHint::Span {
                    field: ir::FieldRef {
                        table: t.name.clone(),
                        field: path,
                    },
                })
                .collect::<Vec<_>>()
        })
}

fn is_datetime(ty: &ir::Type) -> bool {
    match ty {
        ir::Type::Datetime => true,
        ir::Type::Option(inner) => is_datetime(inner),
        _ => false,
    }
}

fn is_literal(ty: &ir::Type) -> bool {
    match ty {
        ir::Type::Literal(_) => true,
        ir::Type::Option(inner) => is_literal(inner),
        _ => false,
    }
}

/// Each table item with the IR table built from it, in item order: one name map for the warnings
/// that point at an item but read its table.
fn built_tables<'a>(items: &'a Items, tables: &'a [ir::Table]) -> Vec<(usize, &'a TableAst, &'a ir::Table)> {
    let by_name: HashMap<&str, &ir::Table> = tables.iter().map(|t| (t.name.as_str(), t)).collect();
    items
        .tables
        .iter()
        .filter_map(|(file, ast)| Some((*file, ast, *by_name.get(ast.name.as_str())?)))
        .collect()
}

/// A warning where the prompt would name a table it hides: an exposed relation's end, or an exposed
/// record link, pointing at a table outside `expose(...)`. The agent still cannot read that table,
/// but the schema block tells the model it exists.
fn warn_of_named_hidden_tables(cxs: &[Ctxt], built: &[(usize, &TableAst, &ir::Table)], exposed: &[String]) {
    let exposed: std::collections::HashSet<&str> = exposed.iter().map(String::as_str).collect();
    let hidden = |name: &str| !exposed.contains(name);
    for &(file, ast, table) in built {
        if hidden(&table.name) {
            continue;
        }
        let cx = &cxs[file];
        if let ir::TableKind::Relation { from, to } = &table.kind {
            for end in from.iter().chain(to) {
                if hidden(end) {
                    cx.warn_at(ast.name_span, format!("the relation `{}` is exposed but its end `{end}` is not: the prompt names `{end}`, though the agent cannot read it; expose both or neither", table.name));
                }
            }
        }
        for field in &table.fields {
            let Some(field_ast) = ast.fields.iter().find(|f| f.name == field.name) else {
                continue;
            };
            for to in field.ty.linked_tables() {
                if hidden(to) && !crate::access::is_hidden(field) {
                    cx.warn_at(
                        field_ast.name_span,
                        format!("`{}.{}` links to `{to}`, which is not exposed: the prompt names `{to}`, though the agent cannot read it; mark the field `hidden` or expose `{to}`", table.name, field.name),
                    );
                }
            }
        }
    }
}

/// A warning where a record-access agent could write: under record access (the schema hides
/// something) the agent is a record user, and a table whose permissions let record users create,
/// update or delete lets the agent's credential do so through any client, whatever the runner
/// refuses. The remedy keeps the rule for other record users and shuts the agent out.
fn warn_of_agent_writes(
    cxs: &[Ctxt],
    built: &[(usize, &TableAst, &ir::Table)],
    tables: &[ir::Table],
    settings: &ir::Settings,
) {
    if crate::access::reasons_of(tables, &settings.exposed).is_empty() {
        return; // A database VIEWER: table permissions do not apply to it, and it cannot write.
    }
    let agent = &settings.agent.user;
    for &(file, ast, table) in built {
        let writes = crate::access::record_writes(table);
        if writes.is_empty() {
            continue;
        }
        cxs[file].warn_at(
            ast.name_span,
            format!(
                "`{}` lets record users {}, and the read-only agent surqlc's build defines, `{agent}`, is a record \
                    user (the schema hides something), so its credential could write here through any client; add \
                    `$access != \"{agent}\" AND ` before each of those rules (e.g. `permissions({} = \"$access != \
                    '{agent}' AND ...\")`), or make them `none`",
                table.name,
                writes.join(", "),
                writes[0]
            ),
        );
    }
}

/// Why `prune(...)` is refused by a surqlc built without its `tokens` feature.
#[cfg(not(feature = "tokens"))]
const PRUNE_NEEDS_TOKENS: &str = "prune(...) fills its budget with exact o200k_base token counts, and this \
    build of surqlc has no `tokens` feature: add \"tokens\" to surqlc's features where it is a dependency (in \
    build.rs's case, [build-dependencies] surqlc = { version = \"0.1\", features = [\"validate\", \"tokens\"] \
    }), so the schema.surql it writes is the one `surqlc build` writes";
