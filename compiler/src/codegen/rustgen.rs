//! Renders the typed Rust helper module from the IR through `templates/module.rs.tera`, formatted with prettyplease.

use crate::codegen::generated::{sources_line, template_error, EmitError};
use crate::codegen::idents::rust_ident;
use crate::ir::{Schema, TableKind};
use serde::Serialize;

pub const MODULE_TEMPLATE: &str = include_str!("../../../templates/module.rs.tera");

/// What the module depends on besides the IR.
#[derive(Debug, Clone)]
pub struct ModuleOptions {
    /// The Rust path the domain types live under, as seen from the module (`super`, `crate::model`).
    pub types_path: String,
    /// The file name of the schema text beside the module, for `include_str!`.
    pub surql_file: String,
    /// The module's own file stem, shown in the header's usage line.
    pub file_stem: String,
    /// Shown in the `@generated` header (file names only).
    pub sources: Vec<String>,
    /// Whether `schema.surql` defines the agent user (an agent password was given).
    pub agent_defined: bool,
    /// The tables that get a helper module (by table or Rust type name); `None`: every table.
    pub helper_tables: Option<Vec<String>>,
    /// Whether each table module gets `Input`/`Patch` and the write helpers (`create`, `insert`,
    /// `update`, `merge`, `delete`, `relate`); on by default.
    pub write_helpers: bool,
    /// The named queries, typed: each a function of the `queries` module.
    pub queries: Vec<crate::codegen::queries::Query>,
}

impl Default for ModuleOptions {
    fn default() -> Self {
        ModuleOptions {
            types_path: "super".into(),
            surql_file: "schema.surql".into(),
            file_stem: "schema".into(),
            sources: Vec::new(),
            agent_defined: false,
            helper_tables: None,
            write_helpers: true,
            queries: Vec::new(),
        }
    }
}

#[derive(Serialize)]
struct TableContext {
    name: String,
    module: String,
    rust_type: String,
    doc: String,
    select_query: String,
    traversals: Vec<Traversal>,
    /// Typed helpers for the table's indexes (`search_*`, `nearest_*`, `find_by_*`).
    index_helpers: Vec<crate::codegen::index_helpers::Helper>,
    /// The input struct and write helpers (`None` for a view).
    writes: Option<crate::codegen::writes::Writes>,
}

#[derive(Serialize)]
struct Traversal {
    function: String,
    rust_type: String,
    query: String,
    doc: String,
}

/// `types_path` (written as seen from the module the file is included in) as seen from one of
/// its table modules: a relative path (`super`, `self::model`, `super::super::x`) gains a
/// `super::`; an absolute one (`crate::model`, `::dep::model`, `dep::model`) is the same from anywhere.
pub fn types_path_from_table_module(types_path: &str) -> String {
    let path = types_path.trim().trim_end_matches("::");
    match path.split("::").next().map(str::trim) {
        Some("self") => format!("super{}", &path[path.find("self").map_or(0, |i| i + 4)..]),
        Some("super") => format!("super::{path}"),
        _ => path.to_owned(),
    }
}

/// A helper function's name from its parts, each in snake_case; never a keyword, since it joins two names.
fn function_ident(parts: &[&str]) -> String {
    parts
        .iter()
        .map(|p| heck::AsSnakeCase(*p).to_string())
        .collect::<Vec<_>>()
        .join("_")
}

fn rust_string(value: &tera::Value, _: &std::collections::HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let s = value
        .as_str()
        .ok_or_else(|| tera::Error::msg("rust_string expects a string"))?;
    // `{:?}` writes a valid Rust string literal: quotes, backslashes and control characters escaped.
    Ok(tera::Value::String(format!("{s:?}")))
}

/// One `#[doc = " line"]` per line, so prettyplease prints `///` comments rather than a `/** */` block.
fn rust_doc(value: &tera::Value, _: &std::collections::HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let s = value
        .as_str()
        .ok_or_else(|| tera::Error::msg("rust_doc expects a string"))?;
    // A fence in a schema comment would make rustdoc compile it as a doctest of the user's crate.
    let s = s.replace("```", "'''");
    let attrs: Vec<String> = s
        .lines()
        .map(|line| {
            let line = if line.is_empty() {
                String::new()
            } else {
                format!(" {line}")
            };
            format!("#[doc = {line:?}]")
        })
        .collect();
    Ok(tera::Value::String(attrs.join("\n")))
}

/// The module's text, formatted, with its `@generated` header.
pub fn render_module(schema: &Schema, options: &ModuleOptions) -> Result<String, EmitError> {
    let types = options.types_path.trim().trim_end_matches("::");
    if syn::parse_str::<syn::Path>(types).is_err() {
        return Err(EmitError::TypesPath(format!(
            "types_path {:?} is not a Rust path: give the module that holds the domain types as seen from the \
                module the generated file is included in, e.g. `super` (the default) or `crate::model`",
            options.types_path
        )));
    }
    // Every user type is named from inside a table's module, one level below the include site.
    let nested = types_path_from_table_module(types);
    let mut tables = table_contexts(schema, types, &nested);
    if let Some(chosen) = &options.helper_tables {
        keep_helper_tables(schema, chosen, &mut tables)?;
    }
    if !options.write_helpers {
        tables.iter_mut().for_each(|t| t.writes = None);
    }
    add_traversals(schema, &nested, &mut tables);
    check_generated_names(&tables)?;
    check_query_inputs(&options.queries, &tables)?;
    let context = module_context(schema, options, &nested, &tables)?;
    let mut tera = tera::Tera::default();
    tera.register_filter("rust_string", rust_string);
    tera.register_filter("rust_doc", rust_doc);
    tera.add_raw_template("module.rs", MODULE_TEMPLATE)
        .map_err(|e| template_error("templates/module.rs.tera", e))?;
    let text = tera
        .render("module.rs", &context)
        .map_err(|e| template_error("templates/module.rs.tera", e))?;
    let formatted = format_parallel(&text)?;
    let formatted = with_schema_ir(schema, &formatted)?;
    Ok(header(schema, options, types) + &formatted)
}

/// Each table's module: its type, doc, select query and index helpers (traversals come after).
fn table_contexts(schema: &Schema, types: &str, nested: &str) -> Vec<TableContext> {
    schema
        .tables
        .iter()
        .map(|t| TableContext {
            name: t.name.clone(),
            module: rust_ident(&t.name),
            rust_type: format!("{nested}::{}", t.rust_name),
            doc: match &t.comment {
                Some(c) => format!("`{}`: {c}", t.name),
                None => format!("The `{}` table.", t.name),
            },
            select_query: format!("SELECT * FROM {} LIMIT $limit", t.name),
            traversals: Vec::new(),
            index_helpers: crate::codegen::index_helpers::helpers(t, types, &|name| {
                schema.table(name).map(|x| x.rust_name.clone())
            }),
            writes: crate::codegen::writes::writes(t),
        })
        .collect()
}

/// Keeps the modules of the tables `helper_tables` names (by table or Rust type name); a name that
/// is neither is an error.
fn keep_helper_tables(schema: &Schema, chosen: &[String], tables: &mut Vec<TableContext>) -> Result<(), EmitError> {
    let mut names = std::collections::HashMap::new();
    for t in &schema.tables {
        names.insert(t.rust_name.as_str(), t.name.as_str());
        names.insert(t.name.as_str(), t.name.as_str());
    }
    let mut keep = std::collections::HashSet::new();
    for name in chosen {
        match names.get(name.as_str()) {
            Some(table) => keep.insert(*table),
            None => {
                return Err(EmitError::UnknownTable(format!(
                    "helper_tables names `{name}`, which is not a table of this schema"
                )))
            }
        };
    }
    tables.retain(|t| keep.contains(t.name.as_str()));
    Ok(())
}

/// Each relation's helpers on the modules of its ends' tables.
fn add_traversals(schema: &Schema, nested: &str, tables: &mut [TableContext]) {
    let rust_type = |rust_name: &str| format!("{nested}::{rust_name}");
    // Lookups by name through maps: the module stays linear in the number of tables.
    let by_name = schema.table_index();
    let position: std::collections::HashMap<String, usize> =
        tables.iter().enumerate().map(|(i, t)| (t.name.clone(), i)).collect();
    for relation in &schema.tables {
        let TableKind::Relation { from: froms, to: tos } = &relation.kind else {
            continue;
        };
        let r = &relation.name;
        let mut push = |table: &str, traversal: Traversal| {
            if let Some(&i) = position.get(table) {
                tables[i].traversals.push(traversal);
            }
        };
        // An end of several tables (`IN customer | supplier`): each table gets its helpers, and a
        // step lands on each table of the other end. Order per table: outgoing steps, the edges
        // leaving it, incoming steps, the edges arriving (a self-relation's table gets all four).
        let known = |t: &&String| by_name.contains_key(t.as_str());
        for from in froms.iter().filter(known) {
            for to in tos.iter().filter(known) {
                push(
                    from,
                    Traversal {
                        function: function_ident(&[r, to]),
                        rust_type: rust_type(&by_name[to.as_str()].rust_name),
                        query: format!("SELECT * FROM $id->{r}->{to}"),
                        doc: format!("The `{to}` rows this `{from}` reaches through `{r}`: `{from}:id->{r}->{to}`."),
                    },
                );
            }
            push(
                from,
                Traversal {
                    function: function_ident(&[r, "edges_from"]),
                    rust_type: rust_type(&relation.rust_name),
                    query: format!("SELECT * FROM {r} WHERE in = $id"),
                    doc: format!("The `{r}` edges whose `in` is this `{from}`, with their own fields."),
                },
            );
        }
        for to in tos.iter().filter(known) {
            for from in froms.iter().filter(known) {
                push(
                    to,
                    Traversal {
                        function: function_ident(&[from, r]),
                        rust_type: rust_type(&by_name[from.as_str()].rust_name),
                        query: format!("SELECT * FROM $id<-{r}<-{from}"),
                        doc: format!("The `{from}` rows that reach this `{to}` through `{r}`: `{to}:id<-{r}<-{from}`."),
                    },
                );
            }
            push(
                to,
                Traversal {
                    function: function_ident(&[r, "edges_to"]),
                    rust_type: rust_type(&relation.rust_name),
                    query: format!("SELECT * FROM {r} WHERE out = $id"),
                    doc: format!("The `{r}` edges whose `out` is this `{to}`, with their own fields."),
                },
            );
        }
    }
}

/// Two tables with one module, or two functions with one name in a module, are errors.
fn check_generated_names(tables: &[TableContext]) -> Result<(), EmitError> {
    let mut modules: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    for t in tables {
        if let Some(other) = modules.get(t.module.as_str()) {
            return Err(EmitError::NameClash(format!(
                "tables `{other}` and `{}` would both get the generated module `{}`; rename one of them",
                t.name, t.module
            )));
        }
        modules.insert(&t.module, &t.name);
        let mut names = vec![
            "get",
            "get_by_key",
            "select",
            "create",
            "create_at",
            "insert",
            "insert_many",
            "update",
            "merge",
            "delete",
            "relate",
        ];
        for h in &t.index_helpers {
            if names.contains(&h.function.as_str()) {
                return Err(EmitError::NameClash(format!(
                    "the generated module `{}` would have two functions named `{}`; name one of the indexes differently",
                    t.module, h.function
                )));
            }
            names.push(&h.function);
        }
        for r in &t.traversals {
            if names.contains(&r.function.as_str()) {
                return Err(EmitError::NameClash(format!(
                    "the generated module `{}` would have two functions named `{}` (relation helpers are named \
                        relation_table and table_relation); rename one of the relations",
                    t.module, r.function
                )));
            }
            names.push(&r.function);
        }
    }
    Ok(())
}

/// A named query's argument that is a table's input struct needs that table's module, which
/// `helper_tables` may have left out.
fn check_query_inputs(queries: &[crate::codegen::queries::Query], tables: &[TableContext]) -> Result<(), EmitError> {
    use crate::codegen::queries::shape::RType;
    for q in queries {
        let Some(shape) = &q.shape else { continue };
        for p in &shape.params {
            let RType::Input { module, .. } = &p.ty else { continue };
            if !tables.iter().any(|t| t.module == *module && t.writes.is_some()) {
                return Err(EmitError::UnknownTable(format!(
                    "named query `{}` takes `${}` as the input of the table module `{module}`, which \
                        helper_tables or write_helpers(false) leaves out: add the table to helper_tables \
                        and keep write_helpers on",
                    q.name, p.name
                )));
            }
        }
    }
    Ok(())
}

/// What `templates/module.rs.tera` reads.
fn module_context(
    schema: &Schema,
    options: &ModuleOptions,
    nested: &str,
    tables: &[TableContext],
) -> Result<tera::Context, EmitError> {
    let settings = &schema.settings;
    let mut context = tera::Context::new();
    context.insert("schema", &schema.name);
    // The JSON is a third of a big module's text: it goes in after formatting, not through syn.
    context.insert("schema_ir_json", SCHEMA_IR_PLACEHOLDER);
    context.insert("max_rows", &schema.settings.max_rows);
    context.insert("tables", tables);
    let queries = crate::codegen::queries::rust::contexts(&options.queries, nested).map_err(EmitError::NameClash)?;
    context.insert("queries", &queries);
    context.insert(
        "query_examples",
        &crate::codegen::queries::rust::examples(&options.queries),
    );
    context.insert("exposed", &settings.exposed);
    context.insert("dimension", &settings.examples.dimension);
    context.insert("k", &settings.examples.k);
    context.insert("pool_table", &settings.examples.table);
    context.insert("agent_user", &settings.agent.user);
    // On one doc line: a renamed field's name may hold anything.
    context.insert(
        "agent_reasons",
        &crate::access::Access::of(schema).reasons_on_one_line(),
    );
    context.insert("surql_file", &options.surql_file);
    context.insert("agent_defined", &options.agent_defined);
    context.insert("password_env", crate::codegen::password::AGENT_PASSWORD_ENV);
    Ok(context)
}

/// The formatted module with the schema's IR, as one JSON string, where the placeholder stands.
fn with_schema_ir(schema: &Schema, formatted: &str) -> Result<String, EmitError> {
    // The IR travels as JSON: one string, whatever the IR grows to hold (serde, `ir-serde`).
    let schema_json = serde_json::to_string(schema)
        .map_err(|e| EmitError::Template(format!("cannot write the schema's IR as JSON: {e}")))?;
    let placeholder = format!("{SCHEMA_IR_PLACEHOLDER:?}");
    if formatted.matches(&placeholder).count() != 1 {
        // Only if a string of the schema's were this very text; never write a module that could be wrong.
        return Err(EmitError::Template(format!(
            "the generated module holds the text {placeholder} other than where the schema's IR goes; rename what holds it"
        )));
    }
    Ok(formatted.replacen(&placeholder, &format!("{schema_json:?}"), 1))
}

/// The `@generated` header: where the module comes from and how to include it.
fn header(schema: &Schema, options: &ModuleOptions, types: &str) -> String {
    let sources = sources_line(&schema.name, &options.sources);
    format!(
        "// @generated by surqlc {} from {sources}. Do not edit: change the Rust schema and rebuild.\n\
         //\n\
         // Typed helpers for the `{}` schema. Include this file in a module of your crate:\n\
         //     mod {}_db {{ include!(concat!(env!(\"OUT_DIR\"), \"/{}.rs\")); }}\n\
         // The domain types are named through `{types}` as seen from that module (`Builder::types_path`).\n\n",
        env!("CARGO_PKG_VERSION"),
        schema.name,
        schema.name,
        options.file_stem,
    )
}

/// Stands for the schema's IR JSON while the module is parsed and formatted (a string literal either way).
const SCHEMA_IR_PLACEHOLDER: &str = "surqlc: the schema IR as JSON";

/// Marks where the template starts a table's module: the text may be parsed in pieces there.
const SPLIT: &str = "// surqlc:split\n";

/// Parses the rendered module with syn (so a template mistake is an error here) and formats it
/// with prettyplease, in contiguous groups of table modules on as many threads as there are
/// cores. Items are formatted independently, so the groups' texts join into the whole file's.
fn format_parallel(text: &str) -> Result<String, EmitError> {
    let pieces: Vec<&str> = text.split(SPLIT).collect();
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(pieces.len())
        .max(1);
    let per = pieces.len().div_ceil(workers);
    let groups: Vec<String> = pieces.chunks(per).map(|g| g.concat()).collect();
    let format = |group: &String| -> Result<String, EmitError> {
        let file = syn::parse_file(group).map_err(|e| {
            let at = e.span().start();
            EmitError::Template(format!(
                "templates/module.rs.tera rendered Rust that does not parse (near line {} of a part, column {}): {e}",
                at.line, at.column
            ))
        })?;
        Ok(prettyplease::unparse(&file))
    };
    if groups.len() == 1 {
        return format(&groups[0]);
    }
    let results: Vec<Result<String, EmitError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = groups.iter().map(|g| scope.spawn(move || format(g))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    results
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map(|parts| parts.concat())
}

#[cfg(test)]
mod tests {
    use super::types_path_from_table_module as nested;

    #[test]
    fn relative_types_paths_gain_a_level_inside_table_modules() {
        assert_eq!(nested("super"), "super::super");
        assert_eq!(nested("super::model"), "super::super::model");
        assert_eq!(nested("self"), "super");
        assert_eq!(nested("self::model"), "super::model");
        assert_eq!(nested("crate::model"), "crate::model");
        assert_eq!(nested("::dep::model"), "::dep::model");
        assert_eq!(nested("dep::model::"), "dep::model");
    }

    #[test]
    fn a_types_path_that_is_no_rust_path_is_an_error() {
        let schema = crate::ir::Schema {
            name: "s".into(),
            rust_name: None,
            tables: Vec::new(),
            enums: Vec::new(),
            analyzers: Vec::new(),
            functions: Vec::new(),
            settings: crate::ir::Settings::default(),
        };
        for bad in ["", "my model", "crate::store;", "::"] {
            let options = super::ModuleOptions {
                types_path: bad.into(),
                ..Default::default()
            };
            let err = super::render_module(&schema, &options).expect_err(bad);
            assert!(err.to_string().contains("is not a Rust path"), "{bad:?}: {err}");
        }
    }
}
