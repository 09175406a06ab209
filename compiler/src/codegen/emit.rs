//! Renders `schema.surql` from the IR through the Tera templates in `templates/`.

use crate::ir::Schema;
use crate::surql;
use std::collections::HashMap;
use std::path::PathBuf;

/// The built-in templates, compiled into the crate so `build.rs` users need no files.
pub const SCHEMA_TEMPLATE: &str = include_str!("../../../templates/schema.surql.tera");
pub const PROMPT_RULES_TEMPLATE: &str = include_str!("../../../templates/prompt_rules.tera");

/// What `schema.surql` depends on besides the IR.
#[derive(Debug, Clone, Default)]
pub struct EmitOptions {
    /// Replaces the built-in prompt rules (the text before `SCHEMA`).
    pub prompt_template: Option<PathBuf>,
    /// The agent's password; `None` leaves the agent undefined (see the README).
    pub agent_password: Option<String>,
    /// The application's scope key (`SURQLC_SCOPE_KEY`); `None` leaves the per-user agent undefined.
    pub scope_key: Option<String>,
    /// Shown in the `@generated` header.
    pub sources: Vec<PathBuf>,
}

#[derive(Debug)]
pub enum EmitError {
    /// The user's prompt template could not be read.
    Io(PathBuf, std::io::Error),
    /// A template failed to parse or render; the message names the template.
    Template(String),
    Password(String),
    /// The generated Rust would not compile: two helpers or modules would share a name.
    NameClash(String),
    /// `Builder::types_path` is not a Rust path.
    TypesPath(String),
    /// A setting names a table the schema does not have.
    UnknownTable(String),
}

impl std::fmt::Display for EmitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EmitError::Io(p, e) => {
                write!(f, "cannot read the prompt template {}: {e}", p.display())
            }
            EmitError::Template(m) => write!(f, "{m}"),
            EmitError::Password(m) => write!(f, "cannot hash the agent password: {m}"),
            EmitError::NameClash(m) | EmitError::TypesPath(m) | EmitError::UnknownTable(m) => {
                write!(f, "{m}")
            }
        }
    }
}

impl std::error::Error for EmitError {}

pub(crate) fn template_error(name: &str, err: tera::Error) -> EmitError {
    // Tera keeps the useful part (line, column, what was expected) in the source chain.
    let mut message = format!("template {name}: {err}");
    let mut source = std::error::Error::source(&err);
    while let Some(s) = source {
        message.push_str(&format!(": {s}"));
        source = s.source();
    }
    EmitError::Template(message)
}

fn surql_string_filter(
    value: &tera::Value,
    _: &HashMap<String, tera::Value>,
) -> tera::Result<tera::Value> {
    let s = value
        .as_str()
        .ok_or_else(|| tera::Error::msg("surql_string expects a string"))?;
    Ok(tera::Value::String(surql::quote_string(s)))
}

/// The file names of `paths`, for `@generated` headers: the output must not depend on where the project is checked out.
pub fn source_names(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .collect()
}

/// The prompt's preamble: every line before `SCHEMA`.
pub fn render_preamble(schema: &Schema, options: &EmitOptions) -> Result<String, EmitError> {
    let (name, text) = match &options.prompt_template {
        Some(path) => (
            path.display().to_string(),
            std::fs::read_to_string(path).map_err(|e| EmitError::Io(path.clone(), e))?,
        ),
        None => (
            "templates/prompt_rules.tera".to_owned(),
            PROMPT_RULES_TEMPLATE.to_owned(),
        ),
    };
    let mut context = tera::Context::new();
    context.insert("schema", &schema.name);
    context.insert("exposed", &schema.settings.exposed);
    context.insert("value_hints", &!schema.settings.value_hints.is_empty());
    context.insert("max_rows", &schema.settings.max_rows);
    // A named template (not Tera::one_off), so errors name the user's file rather than `__tera_one_off`.
    let mut tera = tera::Tera::default();
    tera.autoescape_on(Vec::new());
    tera.add_raw_template(&name, &text)
        .map_err(|e| template_error(&name, e))?;
    tera.render(&name, &context)
        .map_err(|e| template_error(&name, e))
}

/// The parts `fn::nl2surql_prompt` joins, each as the database returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptParts<'a> {
    pub preamble: &'a str,
    pub schema_block: &'a str,
    /// `None` when the schema asks for no value hints (the prompt then has no VALUES section).
    pub value_hints: Option<&'a str>,
    pub examples: &'a str,
    pub question: &'a str,
}

impl PromptParts<'_> {
    /// The prompt's sections, named, in order; joined they are the whole prompt.
    ///
    /// This is the layout `fn::nl2surql_prompt` in `templates/schema.surql.tera` writes;
    /// `schema_db::prompt_sections` checks the two agree on every prompt it splits.
    pub fn sections(&self) -> Vec<(&'static str, String)> {
        vec![
            ("preamble", self.preamble.to_owned()),
            ("schema", format!("SCHEMA\n{}\n\n", self.schema_block)),
            (
                "value hints",
                self.value_hints
                    .map_or_else(String::new, |h| format!("VALUES\n{h}\n\n")),
            ),
            ("examples", format!("EXAMPLES\n{}\n\n", self.examples)),
            ("question", format!("QUESTION\n{}\nSURQL\n", self.question)),
        ]
    }
}

/// The whole `schema.surql` text.
pub fn render_schema_surql(schema: &Schema, options: &EmitOptions) -> Result<String, EmitError> {
    let preamble = render_preamble(schema, options)?;
    render_schema_surql_with(schema, options, &preamble)
}

/// The whole `schema.surql` text around an already rendered preamble.
pub fn render_schema_surql_with(
    schema: &Schema,
    options: &EmitOptions,
    preamble: &str,
) -> Result<String, EmitError> {
    let settings = &schema.settings;
    let mut context = tera::Context::new();
    context.insert("version", env!("CARGO_PKG_VERSION"));
    context.insert(
        "sources",
        &sources_line(&schema.name, &source_names(&options.sources)),
    );
    let access = crate::access::Access::of(schema);
    context.insert(
        "tables",
        &schema
            .tables
            .iter()
            .map(|t| surql::table_definition_with(t, access.table_permissions(t).as_ref()))
            .collect::<Vec<_>>(),
    );
    context.insert(
        "analyzers",
        &schema
            .analyzers
            .iter()
            .map(surql::define_analyzer)
            .collect::<Vec<_>>(),
    );
    context.insert("exposed", &settings.exposed);
    let hints: Vec<String> = settings
        .value_hints
        .iter()
        .map(crate::surql::hints::expression)
        .collect();
    context.insert("value_hints", &hints);
    let pool = &settings.examples;
    context.insert(
        "pool",
        &HashMap::from([
            ("table", pool.table.clone()),
            ("dimension", pool.dimension.to_string()),
            ("k", pool.k.to_string()),
            ("ef", pool.ef.to_string()),
        ]),
    );
    context.insert("preamble", preamble);
    context.insert("compact", &schema.settings.compact);
    // Question-specific pruning: `false` unless the schema sets prune(...).
    match crate::prune::facts::template_context(schema) {
        Some(prune) => context.insert("prune", &prune),
        None => context.insert("prune", &false),
    }
    context.insert("access", &access_context(&access));
    context.insert("hidden", &hidden_fields_literal(schema));
    context.insert("agent", &agent_context(schema, options, &access)?);
    context.insert("scope", &scope_context(schema, options));
    let mut tera = tera::Tera::default();
    tera.register_filter("surql_string", surql_string_filter);
    tera.add_raw_template("schema.surql", SCHEMA_TEMPLATE)
        .map_err(|e| template_error("templates/schema.surql.tera", e))?;
    tera.render("schema.surql", &context)
        .map_err(|e| template_error("templates/schema.surql.tera", e))
}

/// Who a `@generated` header says the file comes from: the schema files' names, or the schema's
/// name when it was built from none (`schema.surql` and `schema.rs` say the same).
pub fn sources_line(schema_name: &str, file_names: &[String]) -> String {
    if file_names.is_empty() {
        schema_name.to_owned()
    } else {
        file_names.join(", ")
    }
}

/// The template's `access`: whether record users read the exposed tables by their `PERMISSIONS`
/// (`record`: the agent under record access, or a scope's per-user agent), whether the agent
/// itself is one (`agent_record`), and why (on one comment line).
fn access_context(access: &crate::access::Access) -> serde_json::Value {
    let record = access.grants_record_users();
    let mut stripped = if record {
        format!(
            "FULL|NONE|{}",
            crate::access::READ_ONLY_TABLE.trim_start_matches("PERMISSIONS ")
        )
    } else {
        "FULL|NONE".to_owned()
    };
    if access.scope().is_some() {
        // An owned table's select rule (`$access = 'agent' OR <route>`, as INFO prints it, maybe
        // inside a declared rule's parentheses) is the engine's business, not the model's.
        stripped.push_str(r"|FOR select WHERE \(?\$access = '[^']*' OR .*");
    }
    serde_json::json!({
        "record": record,
        "agent_record": access.mechanism() == crate::access::Mechanism::RecordAccess,
        "reasons": access.reasons_on_one_line(),
        "identity": crate::access::IDENTITY_TABLE,
        // The PERMISSIONS texts the schema block leaves out (a regex alternation).
        "stripped": stripped,
    })
}

/// The template's `scope` (`false` without one): the per-user agent's access, its end-user table,
/// the owned tables, the prompt's rules for it and, given the scope key, its `DEFINE ACCESS`.
fn scope_context(schema: &Schema, options: &EmitOptions) -> serde_json::Value {
    let Some(scope) = &schema.settings.scope else {
        return serde_json::Value::Bool(false);
    };
    let access = crate::access::Access::of(schema);
    let owned: Vec<&str> = schema
        .exposed_tables()
        .filter(|t| access.is_owned(t))
        .map(|t| t.name.as_str())
        .collect();
    let define = options.scope_key.as_deref().map_or(String::new(), |key| {
        crate::codegen::agent_define::scope_statement(
            scope,
            &crate::scope_key::public_key_pem(key),
        )
    });
    let quoted: Vec<String> = owned.iter().map(|t| surql::quote_string(t)).collect();
    // Every string field and the record ids of each owned table, as the writer of an example sees them.
    let owned_values: Vec<String> = schema
        .exposed_tables()
        .filter(|t| access.is_owned(t))
        .flat_map(|t| {
            let table = surql::field_ident(&t.name);
            let strings = t
                .fields
                .iter()
                .filter(|f| !crate::access::is_hidden(f) && is_string(&f.ty))
                .map(move |f| {
                    format!(
                        "(SELECT VALUE {} FROM {})",
                        surql::field_ident(&f.name),
                        surql::field_ident(&t.name)
                    )
                });
            std::iter::once(format!("(SELECT VALUE <string> id FROM {table})")).chain(strings)
        })
        .collect();
    serde_json::json!({
        "access": scope.access,
        "end_user": scope.end_user,
        "token": scope.token_duration,
        "session": scope.session_duration,
        "owned": format!("[{}]", quoted.join(", ")),
        "owned_list": owned.join(", "),
        "define": define,
        "rules": scope_rules(&scope.end_user, &owned),
        "owned_values": owned_values.join(", "),
    })
}

/// Whether values of `ty` are strings (or optional strings).
fn is_string(ty: &crate::ir::Type) -> bool {
    match ty {
        crate::ir::Type::String => true,
        crate::ir::Type::Option(inner) => is_string(inner),
        _ => false,
    }
}

/// The prompt's rules for the per-user agent, between the preamble and the schema block.
fn scope_rules(end_user: &str, owned: &[&str]) -> String {
    let tables = owned
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "You answer for one signed-in {end_user}: $auth is their record. The database shows you only \
         their own rows of {tables}, and every row of the other tables, so \"my\" and \"I\" mean $auth \
         and you never need to filter by {end_user} yourself; a question about other {end_user}s' \
         data cannot be answered.\n\n"
    )
}

/// The template's `agent`: its user, durations, and (given a password) the `PASSHASH` and the
/// `DEFINE ACCESS`/`DEFINE USER` text for its mechanism.
fn agent_context(
    schema: &Schema,
    options: &EmitOptions,
    access: &crate::access::Access,
) -> Result<HashMap<&'static str, String>, EmitError> {
    use crate::codegen::agent_define::{self, AgentKind};
    let agent = &schema.settings.agent;
    let passhash = match &options.agent_password {
        Some(pw) => {
            crate::codegen::password::passhash(&agent.user, pw).map_err(EmitError::Password)?
        }
        None => String::new(),
    };
    let define = if passhash.is_empty() {
        String::new()
    } else {
        let kind = match access.mechanism() {
            crate::access::Mechanism::Viewer => AgentKind::Viewer {
                passhash: &passhash,
            },
            crate::access::Mechanism::RecordAccess => AgentKind::RecordAccess {
                identity: crate::access::IDENTITY_TABLE,
            },
        };
        agent_define::statement(
            &agent.user,
            &agent.token_duration,
            &agent.session_duration,
            kind,
        )
    };
    Ok(HashMap::from([
        ("user", agent.user.clone()),
        ("token", agent.token_duration.clone()),
        ("session", agent.session_duration.clone()),
        ("passhash", passhash),
        ("define", define),
    ]))
}

/// `{ table: ["field", ...], ... }`: the exposed tables' fields the prompt functions leave out, as a
/// SurrealQL object; empty when there are none.
fn hidden_fields_literal(schema: &Schema) -> String {
    let entries: Vec<String> = schema
        .exposed_tables()
        .filter_map(|t| {
            let hidden = crate::access::hidden_fields(t);
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
