//! Renders `schema.surql` from the IR through the Tera templates in `templates/`.

use crate::codegen::generated::template_error;
pub use crate::codegen::generated::{source_names, sources_line, EmitError};
use crate::ir::Schema;
use crate::surql;
use std::collections::HashMap;
use std::path::PathBuf;

/// The built-in templates, compiled into the crate so `build.rs` users need no files.
pub const SCHEMA_TEMPLATE: &str = include_str!("../../../templates/schema.surql.tera");
pub const PROMPT_RULES_TEMPLATE: &str = include_str!("../../../templates/prompt_rules.tera");

/// `schema.surql`'s template first, then the parts it includes (`templates/schema/`), each under the
/// name its `include` or `import` uses: a new part is added here.
pub const SCHEMA_TEMPLATES: [(&str, &str); 8] = [
    ("schema.surql.tera", SCHEMA_TEMPLATE),
    (
        "schema/macros.surql.tera",
        include_str!("../../../templates/schema/macros.surql.tera"),
    ),
    (
        "schema/tables.surql.tera",
        include_str!("../../../templates/schema/tables.surql.tera"),
    ),
    (
        "schema/pool.surql.tera",
        include_str!("../../../templates/schema/pool.surql.tera"),
    ),
    (
        "schema/prompt.surql.tera",
        include_str!("../../../templates/schema/prompt.surql.tera"),
    ),
    (
        "schema/prune_data.surql.tera",
        include_str!("../../../templates/schema/prune_data.surql.tera"),
    ),
    (
        "schema/prune_functions.surql.tera",
        include_str!("../../../templates/schema/prune_functions.surql.tera"),
    ),
    (
        "schema/agent.surql.tera",
        include_str!("../../../templates/schema/agent.surql.tera"),
    ),
];

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

fn surql_string_filter(value: &tera::Value, _: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let s = value
        .as_str()
        .ok_or_else(|| tera::Error::msg("surql_string expects a string"))?;
    Ok(tera::Value::String(surql::quote_string(s)))
}

pub use super::schema_view::{preamble_expression, preamble_on, TODAY_MARK};

/// Whether an exposed table has a datetime field (sub-fields too): the rules then say how to
/// write relative dates.
fn has_datetimes(schema: &Schema) -> bool {
    fn datetime(ty: &crate::ir::Type) -> bool {
        match ty {
            crate::ir::Type::Datetime => true,
            crate::ir::Type::Option(inner) | crate::ir::Type::Array(inner, _) => datetime(inner),
            _ => false,
        }
    }
    fn any(fields: &[crate::ir::Field]) -> bool {
        fields.iter().any(|f| datetime(&f.ty) || any(&f.fields))
    }
    schema.exposed_tables().any(|t| any(&t.fields))
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
    context.insert("today", TODAY_MARK);
    context.insert("datetimes", &has_datetimes(schema));
    // The functions the agent may call (not those whose PERMISSIONS are NONE), one line each.
    let functions: Vec<String> = schema
        .functions
        .iter()
        .filter(|f| f.agent)
        .map(crate::surql::info::function_line)
        .collect();
    context.insert("functions", &functions);
    // A named template (not Tera::one_off), so errors name the user's file rather than `__tera_one_off`.
    let mut tera = tera::Tera::default();
    tera.autoescape_on(Vec::new());
    tera.add_raw_template(&name, &text)
        .map_err(|e| template_error(&name, e))?;
    tera.render(&name, &context).map_err(|e| template_error(&name, e))
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
    /// This is the layout `fn::nl2surql_prompt` in `templates/schema/prompt.surql.tera` writes;
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
pub fn render_schema_surql_with(schema: &Schema, options: &EmitOptions, preamble: &str) -> Result<String, EmitError> {
    render_schema_surql_docs(schema, options, preamble, None)
}

/// [`render_schema_surql_with`] given pruning's `schema_doc` rows (`prune::table_docs`), which a
/// build computes once for the pruning section and its warnings; `None` computes them.
pub(crate) fn render_schema_surql_docs(
    schema: &Schema,
    options: &EmitOptions,
    preamble: &str,
    prune_docs: Option<&[crate::prune::TableDoc]>,
) -> Result<String, EmitError> {
    const NAME: &str = "templates/schema.surql.tera";
    let sources = sources_line(&schema.name, &source_names(&options.sources));
    let passhash = options
        .agent_password
        .as_deref()
        .map(|pw| crate::codegen::password::passhash(&schema.settings.agent.user, pw))
        .transpose()
        .map_err(EmitError::Password)?;
    let view = crate::codegen::schema_view::SchemaView::new(
        schema,
        preamble,
        sources,
        passhash,
        options.scope_key.as_deref(),
        prune_docs,
    );
    let context = tera::Context::from_serialize(&view).map_err(|e| template_error(NAME, e))?;
    let mut tera = tera::Tera::default();
    tera.register_filter("surql_string", surql_string_filter);
    tera.add_raw_templates(SCHEMA_TEMPLATES)
        .map_err(|e| template_error(NAME, e))?;
    tera.render(SCHEMA_TEMPLATES[0].0, &context)
        .map_err(|e| template_error(NAME, e))
}

#[cfg(test)]
mod reserved_functions {
    /// `front::functions::SURQLC_FUNCTIONS` is every function `schema.surql`'s parts define, so a
    /// user's functions file cannot take one of their names.
    #[test]
    fn the_reserved_names_are_the_templates_functions() {
        let mut defined: Vec<String> = super::SCHEMA_TEMPLATES
            .iter()
            .flat_map(|(_, text)| text.split("DEFINE FUNCTION OVERWRITE ").skip(1))
            .map(|rest| rest.split('(').next().unwrap_or("").to_owned())
            .collect();
        defined.sort();
        defined.dedup();
        let mut reserved: Vec<String> = crate::front::functions::SURQLC_FUNCTIONS
            .iter()
            .map(|s| s.to_string())
            .collect();
        reserved.sort();
        assert_eq!(defined, reserved);
    }
}
