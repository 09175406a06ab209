//! What `templates/schema.surql.tera` and its parts read: the schema, its access and its agent as typed values.

use crate::access::{self, Access, Mechanism};
use crate::codegen::agent_define::{self, AgentKind};
use crate::codegen::password;
use crate::ir::Schema;
use crate::surql;
use serde::Serialize;

/// The template's context.
#[derive(Serialize)]
pub(crate) struct SchemaView<'a> {
    version: &'static str,
    /// Who the `@generated` header says the file comes from.
    sources: String,
    /// One `DEFINE ANALYZER` statement each.
    analyzers: Vec<String>,
    /// The user's `DEFINE FUNCTION OVERWRITE fn::...` statements, as the engine prints them.
    functions: Vec<&'a str>,
    /// Each table's definition, with the permissions the agent's access gives it; views after
    /// the other tables (the engine fills a view from its tables when it is defined).
    tables: Vec<String>,
    /// The tables the prompt shows, in prompt order.
    exposed: &'a [String],
    /// Whether the schema has value hints.
    value_hints: bool,
    /// The spans and distinct-value hints as data rows by table (`surql::hints::plan`).
    hint_specs: String,
    /// The other hints: their index, table (none for a note) and SurrealQL.
    hint_others: Vec<HintOther>,
    pool: Pool<'a>,
    /// The prompt's text before `SCHEMA`.
    preamble: &'a str,
    /// The preamble as the prompt functions return it: today's date computed per call (`emit::preamble_expression`).
    preamble_expr: String,
    /// Whether the schema block is the compact rendering.
    compact: bool,
    /// Question-specific pruning; `None` unless the schema sets `prune(...)`.
    prune: Option<crate::prune::facts::TemplateContext>,
    access: AccessView,
    /// `{ table: ["field", ...], ... }`: the exposed tables' hidden fields as a SurrealQL object;
    /// empty when there are none.
    hidden: String,
    agent: AgentView<'a>,
    /// The per-user agent; `None` unless the schema sets `scope(...)`.
    scope: Option<ScopeView<'a>>,
}

/// The per-user agent (`scope(...)`): its access, end-user table, owned tables, the prompt's rules
/// for it and, given the scope key, its `DEFINE ACCESS`.
#[derive(Serialize)]
struct ScopeView<'a> {
    access: &'a str,
    end_user: &'a str,
    token: &'a str,
    session: &'a str,
    /// The exposed tables whose rows belong to one end user, as a SurrealQL array of names.
    owned: String,
    /// The same names, comma-separated, for comments.
    owned_list: String,
    /// `(SELECT VALUE ... FROM t), ...`: every string field and the ids of each owned table.
    owned_values: String,
    /// The `DEFINE ACCESS` (`None` without the scope key: the file then says how to get one).
    define: Option<String>,
    /// The prompt's rules for the per-user agent, between the preamble and the schema block.
    rules: String,
    /// The pool's `PERMISSIONS`: the agent reads every example, the per-user agent those that
    /// name no owned value.
    pool_read_only: String,
    /// Value linking's `PERMISSIONS`: the owned tables' values stay with the agent.
    values_read_only: String,
}

/// A value hint `fn::value_hints_of` runs from its own SurrealQL (ids, ranges, notes).
#[derive(Serialize)]
struct HintOther {
    /// Its place among the schema's hints (the lines keep the declared order).
    index: usize,
    /// The table it describes; `None` for a note, which every prompt keeps.
    table: Option<String>,
    /// The SurrealQL that prints its line.
    expression: String,
}

/// The few-shot pool.
#[derive(Serialize)]
struct Pool<'a> {
    table: &'a str,
    dimension: u32,
    /// How many examples the prompt shows.
    k: u32,
    /// HNSW search breadth.
    ef: u32,
    /// [`crate::prune::STOP_WORDS`] as a SurrealQL array: left out of a question before its words rank the examples.
    stop_words: String,
}

/// How the agent signs in, and what that asks of the tables surqlc defines.
#[derive(Serialize)]
struct AccessView {
    /// Record access (else a database `VIEWER`).
    record: bool,
    /// Why record access, on one comment line.
    reasons: String,
    /// The table of the agent's record identities.
    identity: &'static str,
    /// The `PERMISSIONS` texts the schema block leaves out (a regex alternation).
    stripped: String,
    /// What the tables surqlc adds (the pool, pruning's) end their `DEFINE TABLE` with, so the
    /// agent may read them and nothing more: under record access ` PERMISSIONS FOR select FULL, ...`
    /// ([`access::READ_ONLY_TABLE`]), for a `VIEWER` nothing.
    read_only: String,
}

/// The agent: its user, durations, and (given a password) its `PASSHASH` and definition.
#[derive(Serialize)]
struct AgentView<'a> {
    user: &'a str,
    token: &'a str,
    session: &'a str,
    /// `None` when no password was given: the file then defines no agent and says how to.
    passhash: Option<String>,
    /// The `DEFINE ACCESS`/`DEFINE USER` text for the agent's mechanism (`None` with `passhash`).
    define: Option<String>,
    /// The environment variable the password comes from.
    password_env: &'static str,
}

impl<'a> SchemaView<'a> {
    /// The view of `schema`, given the prompt's preamble, the `@generated` header's sources and
    /// the agent's `PASSHASH` (`None`: no password, no agent).
    pub(crate) fn new(
        schema: &'a Schema,
        preamble: &'a str,
        sources: String,
        passhash: Option<String>,
        scope_key: Option<&str>,
        prune_docs: Option<&[crate::prune::TableDoc]>,
    ) -> Self {
        let settings = &schema.settings;
        let access = Access::of(schema);
        let pool = &settings.examples;
        let hint_plan = surql::hints::plan(&settings.value_hints);
        SchemaView {
            version: env!("CARGO_PKG_VERSION"),
            sources,
            analyzers: schema.analyzers.iter().map(surql::define_analyzer).collect(),
            functions: schema.functions.iter().map(|f| f.definition.as_str()).collect(),
            tables: schema
                .tables
                .iter()
                .filter(|t| t.view.is_none())
                .chain(schema.tables.iter().filter(|t| t.view.is_some()))
                .map(|t| surql::table_definition_with(t, access.table_permissions(t).as_ref()))
                .collect(),
            exposed: &settings.exposed,
            value_hints: !settings.value_hints.is_empty(),
            hint_specs: hint_plan.specs,
            hint_others: hint_plan
                .others
                .into_iter()
                .map(|(index, table, expression)| HintOther {
                    index,
                    table,
                    expression,
                })
                .collect(),
            pool: Pool {
                table: &pool.table,
                dimension: pool.dimension,
                k: pool.k,
                ef: pool.ef,
                stop_words: format!(
                    "[{}]",
                    crate::prune::STOP_WORDS
                        .iter()
                        .map(|w| format!("'{w}'"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            },
            preamble,
            preamble_expr: preamble_expression(preamble),
            compact: settings.compact,
            prune: crate::prune::facts::template_context(schema, prune_docs),
            access: AccessView::of(&access),
            hidden: hidden_fields_literal(schema),
            agent: AgentView::of(schema, passhash, &access),
            scope: ScopeView::of(schema, &access, scope_key),
        }
    }
}

impl<'a> ScopeView<'a> {
    fn of(schema: &'a Schema, access: &Access, scope_key: Option<&str>) -> Option<Self> {
        let scope = schema.settings.scope.as_ref()?;
        let owned: Vec<&crate::ir::Table> = schema.exposed_tables().filter(|t| access.is_owned(t)).collect();
        let names: Vec<&str> = owned.iter().map(|t| t.name.as_str()).collect();
        let quoted: Vec<String> = names.iter().map(|t| surql::quote_string(t)).collect();
        // Every string field value linking indexes (the same rule), and the ids, of each owned table.
        let linked = crate::prune::fields::value_fields(schema);
        let owned_values: Vec<String> = owned
            .iter()
            .flat_map(|t| {
                let table = surql::field_ident(&t.name);
                let strings: Vec<String> = linked
                    .iter()
                    .filter(|(tb, _)| *tb == t.name)
                    .map(|(_, field)| format!("(SELECT VALUE {} FROM {table})", surql::field_ident(field)))
                    .collect();
                std::iter::once(format!("(SELECT VALUE <string> id FROM {table})")).chain(strings)
            })
            .collect();
        let grant = |rule: String| {
            format!(
                " PERMISSIONS FOR select WHERE $access != {} OR {rule}, FOR create, update, delete NONE",
                surql::quote_string(&scope.access)
            )
        };
        Some(ScopeView {
            access: &scope.access,
            end_user: &scope.end_user,
            token: &scope.token_duration,
            session: &scope.session_duration,
            owned: format!("[{}]", quoted.join(", ")),
            owned_list: names.join(", "),
            owned_values: owned_values.join(", "),
            define: scope_key.map(|key| agent_define::scope_statement(scope, &crate::scope_key::public_key_pem(key))),
            rules: access.end_user_rules(schema).unwrap_or_default(),
            pool_read_only: grant("!private".into()),
            values_read_only: grant(format!("tb NOTINSIDE [{}]", quoted.join(", "))),
        })
    }
}

impl AccessView {
    fn of(access: &Access) -> Self {
        let record = access.mechanism() == Mechanism::RecordAccess;
        // Record users read the tables surqlc adds: the agent under record access, or a scope's
        // per-user agent (a record user even where the agent is a VIEWER).
        let grants = access.grants_record_users();
        let read_only = access::READ_ONLY_TABLE;
        let mut stripped = if grants {
            format!("FULL|NONE|{}", read_only.trim_start_matches("PERMISSIONS "))
        } else {
            "FULL|NONE".to_owned()
        };
        if access.scope().is_some() {
            // An owned table's select rule (`$access = 'agent' OR <route>`, as INFO prints it,
            // maybe inside a declared rule's parentheses) is the engine's business, not the model's.
            stripped.push_str(r"|FOR select WHERE \(?\$access = '[^']*' OR .*");
        }
        AccessView {
            record,
            reasons: access.reasons_on_one_line(),
            identity: access::IDENTITY_TABLE,
            stripped,
            read_only: if grants { format!(" {read_only}") } else { String::new() },
        }
    }
}

impl<'a> AgentView<'a> {
    fn of(schema: &'a Schema, passhash: Option<String>, access: &Access) -> Self {
        let agent = &schema.settings.agent;
        let define = passhash.as_deref().map(|passhash| {
            let kind = match access.mechanism() {
                Mechanism::Viewer => AgentKind::Viewer { passhash },
                Mechanism::RecordAccess => AgentKind::RecordAccess {
                    identity: access::IDENTITY_TABLE,
                },
            };
            agent_define::statement(&agent.user, &agent.token_duration, &agent.session_duration, kind)
        });
        AgentView {
            user: &agent.user,
            token: &agent.token_duration,
            session: &agent.session_duration,
            passhash,
            define,
            password_env: password::AGENT_PASSWORD_ENV,
        }
    }
}

/// `{ table: ["field", ...], ... }`: the exposed tables' fields the prompt functions leave out, as a
/// SurrealQL object; empty when there are none.
fn hidden_fields_literal(schema: &Schema) -> String {
    let entries: Vec<String> = schema
        .exposed_tables()
        .filter_map(|t| {
            let hidden = access::hidden_fields(t);
            (!hidden.is_empty()).then(|| {
                let names: Vec<String> = hidden.iter().map(|f| surql::lex::quote_string(f)).collect();
                format!("{}: [{}]", surql::lex::quote_string(&t.name), names.join(", "))
            })
        })
        .collect();
    if entries.is_empty() {
        String::new()
    } else {
        format!("{{ {} }}", entries.join(", "))
    }
}

/// Where the preamble's template wrote `{{ today }}`: the prompt functions put the day of the call
/// there (UTC, `YYYY-MM-DD`), so the text around it is rendered once and the date per call.
pub const TODAY_MARK: &str = "[[today]]";

/// The preamble as a prompt of `day` (`YYYY-MM-DD`) shows it.
pub fn preamble_on(preamble: &str, day: &str) -> String {
    preamble.replace(TODAY_MARK, day)
}

/// The preamble as a SurrealQL expression: its text quoted, with today's date (UTC) computed per
/// call where [`TODAY_MARK`] stands.
pub fn preamble_expression(preamble: &str) -> String {
    preamble
        .split(TODAY_MARK)
        .map(crate::surql::quote_string)
        .collect::<Vec<_>>()
        .join(" + time::format(time::now(), '%Y-%m-%d') + ")
}
