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
    /// Each table's definition, with the permissions the agent's access gives it.
    tables: Vec<String>,
    /// The tables the prompt shows, in prompt order.
    exposed: &'a [String],
    /// The SurrealQL that prints each value-hint line.
    value_hints: Vec<String>,
    pool: Pool<'a>,
    /// The prompt's text before `SCHEMA`.
    preamble: &'a str,
    /// Whether the schema block is the compact rendering.
    compact: bool,
    /// Question-specific pruning; `None` unless the schema sets `prune(...)`.
    prune: Option<crate::prune::facts::TemplateContext>,
    access: AccessView,
    /// `{ table: ["field", ...], ... }`: the exposed tables' hidden fields as a SurrealQL object;
    /// empty when there are none.
    hidden: String,
    agent: AgentView<'a>,
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
    ) -> Self {
        let settings = &schema.settings;
        let access = Access::of(schema);
        let pool = &settings.examples;
        SchemaView {
            version: env!("CARGO_PKG_VERSION"),
            sources,
            analyzers: schema
                .analyzers
                .iter()
                .map(surql::define_analyzer)
                .collect(),
            tables: schema
                .tables
                .iter()
                .map(|t| surql::table_definition_with(t, access.table_permissions(t).as_ref()))
                .collect(),
            exposed: &settings.exposed,
            value_hints: settings
                .value_hints
                .iter()
                .map(surql::hints::expression)
                .collect(),
            pool: Pool {
                table: &pool.table,
                dimension: pool.dimension,
                k: pool.k,
                ef: pool.ef,
            },
            preamble,
            compact: settings.compact,
            prune: crate::prune::facts::template_context(schema),
            access: AccessView::of(&access),
            hidden: hidden_fields_literal(schema),
            agent: AgentView::of(schema, passhash, &access),
        }
    }
}

impl AccessView {
    fn of(access: &Access) -> Self {
        let record = access.mechanism() == Mechanism::RecordAccess;
        let read_only = access::READ_ONLY_TABLE;
        AccessView {
            record,
            reasons: access.reasons_on_one_line(),
            identity: access::IDENTITY_TABLE,
            stripped: if record {
                format!("FULL|NONE|{}", read_only.trim_start_matches("PERMISSIONS "))
            } else {
                "FULL|NONE".to_owned()
            },
            read_only: if record {
                format!(" {read_only}")
            } else {
                String::new()
            },
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
            agent_define::statement(
                &agent.user,
                &agent.token_duration,
                &agent.session_duration,
                kind,
            )
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
                let names: Vec<String> =
                    hidden.iter().map(|f| surql::lex::quote_string(f)).collect();
                format!(
                    "{}: [{}]",
                    surql::lex::quote_string(&t.name),
                    names.join(", ")
                )
            })
        })
        .collect();
    if entries.is_empty() {
        String::new()
    } else {
        format!("{{ {} }}", entries.join(", "))
    }
}
