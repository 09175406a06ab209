//! The `Schema` item's `functions = "FILE.surql"`: the file (relative to the schema file) read into `ir::Function`s by SurrealDB's parser, every problem at its line and column in that file.

use super::ast::Items;
use super::ctxt::Ctxt;
use super::SourceFile;
use crate::diagnostic::Diagnostic;
use crate::ir;

/// The functions `schema.surql`'s own parts define (`templates/schema/`): a user's function may not
/// take one of these names (a unit test in `codegen::emit` keeps the list equal to the templates').
pub const SURQLC_FUNCTIONS: &[&str] = &[
    "fn::example_context",
    "fn::exposed_tables",
    "fn::fused_examples",
    "fn::hint_line",
    "fn::mentions_owned",
    "fn::nl2surql_prompt",
    "fn::nl2surql_prompt_pruned",
    "fn::nl2surql_prompt_tables",
    "fn::pruned_block",
    "fn::pruned_choice_block",
    "fn::pruned_field_matches",
    "fn::pruned_index_values",
    "fn::pruned_matches",
    "fn::pruned_prompt_for",
    "fn::pruned_rank",
    "fn::pruned_schema_context",
    "fn::pruned_search",
    "fn::pruned_select",
    "fn::pruned_tables",
    "fn::pruned_value_hints",
    "fn::pruned_value_links",
    "fn::refresh_schema_context",
    "fn::remember_example",
    "fn::schema_context",
    "fn::schema_context_compact",
    "fn::schema_context_live",
    "fn::scope_rules",
    "fn::similar_examples",
    "fn::table_catalog",
    "fn::value_hints",
    "fn::value_hints_of",
];

/// The schema's user functions, and the problems inside their file (problems with the attribute
/// itself, such as a missing file, are recorded in the schema file's `Ctxt`).
pub fn read(cxs: &[Ctxt], items: &Items, files: &[SourceFile]) -> (Vec<ir::Function>, Vec<Diagnostic>) {
    let Some((file, schema)) = items.schemas.first() else {
        return (Vec::new(), Vec::new());
    };
    let Some(lit) = &schema.attrs.functions else {
        return (Vec::new(), Vec::new());
    };
    let cx = &cxs[*file];
    let written = lit.value();
    let base = files[*file].path.parent().unwrap_or(std::path::Path::new(""));
    let path = base.join(&written);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            cx.error_at(
                lit.span(),
                format!(
                    "cannot read the functions file {} ({e}); its path is relative to the schema file",
                    path.display()
                ),
            );
            return (Vec::new(), Vec::new());
        }
    };
    parsed(cx, lit, &path, &text)
}

/// `text` read by the engine's parser, each error placed in the file at `path`.
#[cfg(feature = "surql-parser")]
fn parsed(_cx: &Ctxt, _lit: &syn::LitStr, path: &std::path::Path, text: &str) -> (Vec<ir::Function>, Vec<Diagnostic>) {
    let found = crate::surql::functions::parse(text).map(|functions| {
        let clashes: Vec<_> = functions
            .iter()
            .filter(|f| SURQLC_FUNCTIONS.contains(&f.name.as_str()))
            .map(|f| crate::surql::functions::FunctionsError {
                start: name_offset(text, &f.name),
                end: name_offset(text, &f.name) + f.name.len(),
                message: format!(
                    "{} is one of the functions schema.surql defines for the prompt; give yours another name",
                    f.name
                ),
            })
            .collect();
        (functions, clashes)
    });
    match found {
        Ok((functions, clashes)) if clashes.is_empty() => (functions, Vec::new()),
        Ok((_, errors)) | Err(errors) => (
            Vec::new(),
            errors
                .into_iter()
                .map(|e| at(path, text, e.start, e.end, e.message))
                .collect(),
        ),
    }
}

/// Without SurrealDB's parser a functions file cannot be read: refused where it is named.
#[cfg(not(feature = "surql-parser"))]
fn parsed(cx: &Ctxt, lit: &syn::LitStr, _path: &std::path::Path, _text: &str) -> (Vec<ir::Function>, Vec<Diagnostic>) {
    cx.error_at(lit.span(), NEEDS_PARSER);
    (Vec::new(), Vec::new())
}

/// What a build without SurrealDB's parser is told about `functions` and `view`.
pub const NEEDS_PARSER: &str = "user functions and views are read and checked with SurrealDB's parser: give \
    the build-dependency `surqlc = { version = \"...\", features = [\"validate\"] }`";

#[cfg(feature = "surql-parser")]
fn name_offset(text: &str, name: &str) -> usize {
    text.find(name).unwrap_or(0)
}

/// A diagnostic at bytes `start..end` of `text` (the file at `path`).
pub fn at(path: &std::path::Path, text: &str, start: usize, end: usize, message: String) -> Diagnostic {
    let start = start.min(text.len());
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..start].chars().count() + 1;
    let source_line = text[line_start..].lines().next().unwrap_or("").to_owned();
    let width = text
        .get(start..end.max(start))
        .map_or(1, |s| s.lines().next().unwrap_or("").chars().count().max(1));
    Diagnostic {
        path: path.to_owned(),
        line,
        column,
        message,
        snippet: Some((source_line, width)),
        severity: crate::codes::Severity::Error,
    }
}
