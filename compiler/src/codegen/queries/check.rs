//! A build's named-query files read and, with the `validate` feature, checked against the schema: every problem a [`Diagnostic`] at the query file's line and column.

use super::shape::{Query, Shape};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::ir::Schema;
use crate::surql::named::{self as file, NamedQuery};
use std::path::{Path, PathBuf};

/// The query files a build names: a directory's `*.surql` files (sorted), or a file itself.
pub fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, (PathBuf, std::io::Error)> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| (path.clone(), e))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "surql") && p.is_file())
                .collect();
            found.sort();
            out.extend(found);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// The source line `line` (1-based) of `text`, for a diagnostic's snippet.
fn snippet(text: &str, line: usize, width: usize) -> Option<(String, usize)> {
    text.lines()
        .nth(line.saturating_sub(1))
        .map(|l| (l.to_owned(), width.max(1)))
}

/// Why a build's queries were refused.
#[derive(Debug)]
pub enum Refused {
    Io(PathBuf, std::io::Error),
    Invalid(Diagnostics),
}

/// Reads every query of `files`; a malformed file, a name used twice across files, or (with the
/// `validate` feature) a query the schema refutes is an error at its file:line:col.
pub fn read_and_check(schema: &Schema, files: &[PathBuf]) -> Result<Vec<Query>, Refused> {
    let mut diagnostics = Vec::new();
    let mut all: Vec<(PathBuf, Query)> = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| Refused::Io(path.clone(), e))?;
        match file::parse(&text) {
            Err(errors) => diagnostics.extend(errors.into_iter().map(|e| Diagnostic {
                path: path.clone(),
                line: e.line,
                column: e.column,
                snippet: snippet(&text, e.line, 1),
                message: e.message,
                severity: crate::codes::Severity::Error,
            })),
            Ok(queries) => {
                for q in queries {
                    if let Some((first, _)) = all.iter().find(|(_, o)| o.name == q.name) {
                        diagnostics.push(Diagnostic {
                            path: path.clone(),
                            line: q.name_line,
                            column: 1,
                            snippet: snippet(&text, q.name_line, 1),
                            message: format!("query `{}` is also defined in {}", q.name, first.display()),
                            severity: crate::codes::Severity::Error,
                        });
                        continue;
                    }
                    let (found, shape) = validate(schema, path, &text, &q);
                    diagnostics.extend(found);
                    all.push((
                        path.clone(),
                        Query {
                            named: q,
                            path: path.clone(),
                            shape,
                        },
                    ));
                }
            }
        }
    }
    // Without SurrealDB's parser a query cannot be typed, so it cannot become a function.
    #[cfg(not(feature = "validate"))]
    if let Some((path, q)) = all.first() {
        diagnostics.push(Diagnostic {
            path: path.clone(),
            line: q.name_line,
            column: 1,
            snippet: None,
            message: "named queries are checked and typed with surqlc's `validate` feature: give the build-dependency `surqlc = { version = \"...\", features = [\"validate\"] }`".into(),
            severity: crate::codes::Severity::Error,
        });
    }
    if diagnostics.is_empty() {
        Ok(all.into_iter().map(|(_, q)| q).collect())
    } else {
        Err(Refused::Invalid(Diagnostics(diagnostics)))
    }
}

/// The validator's errors on `query`, moved to their place in the file; when there are none, the
/// query's Rust face ([`super::typing`]) or why it has none.
#[cfg(feature = "validate")]
fn validate(schema: &Schema, path: &Path, text: &str, query: &NamedQuery) -> (Vec<Diagnostic>, Option<Shape>) {
    let options = crate::validate::Options::for_named_queries();
    let mut report = crate::validate::validate_with(schema, &query.text, &options);
    // `-- surqlc: allow(...)` before the query or after its `;`: outside its text, in the file.
    let bad = crate::validate::apply_suppressions(&query.directives, &mut report);
    let mut out = untyped_params(path, text, query, &report);
    out.extend(two_meanings(path, text, query, &report));
    for (at, (message, fix)) in bad {
        let (line, column) = crate::surql::named::line_col(text, at);
        out.push(Diagnostic {
            path: path.to_owned(),
            line,
            column,
            snippet: snippet(text, line, 1),
            message: format!("{message}; {fix}"),
            severity: crate::codes::Severity::Error,
        });
    }
    out.extend(super::param_checks::unused(path, query));
    out.extend(
        super::param_checks::conflicting(query, &report)
            .into_iter()
            .map(|(span, message)| place(path, text, query, span, message)),
    );
    out.extend(report.errors().map(|d| place(path, text, query, d.span, d.to_string())));
    if !out.is_empty() {
        return (out, None);
    }
    match super::typing::shape(schema, query, &report) {
        Ok(shape) => (out, Some(shape)),
        Err(untypable) => (
            untypable
                .into_iter()
                .map(|u| place(path, text, query, u.span, u.message))
                .collect(),
            None,
        ),
    }
}

/// A problem at `span` of `query`'s text, as a diagnostic at its line and column in the file.
#[cfg(feature = "validate")]
fn place(path: &Path, text: &str, query: &NamedQuery, span: crate::validate::Span, message: String) -> Diagnostic {
    let (l, c) = span.line_col(&query.text);
    let line = query.line + l - 1;
    let column = if l == 1 { c + query.column - 1 } else { c };
    Diagnostic {
        path: path.to_owned(),
        line,
        column,
        snippet: snippet(text, line, span.text(&query.text).chars().count()),
        message: format!("in query `{}`: {message}", query.name),
        severity: crate::codes::Severity::Error,
    }
}

/// A parameter no use gives a type to (and no cast): the function could not type its argument.
#[cfg(feature = "validate")]
fn untyped_params(path: &Path, text: &str, query: &NamedQuery, report: &crate::validate::Report) -> Vec<Diagnostic> {
    use crate::surql::scan::{self, Kind};
    let typed = crate::validate::params::resolved(&report.params);
    let tokens = scan::code(&query.text);
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != Kind::Param || !crate::validate::params::is_argument(&t.text, report) {
            continue;
        }
        // `LET $x = ...` and `FOR $x IN ...` define a variable of the query's own.
        let defined = i > 0 && (tokens[i - 1].is_word("let") || tokens[i - 1].is_word("for"));
        if defined || seen.contains(&t.text.as_str()) {
            seen.push(&t.text);
            continue;
        }
        seen.push(&t.text);
        if typed.iter().any(|(n, _)| *n == t.text) || super::typing::input_use(report, &t.text).is_some() {
            continue;
        }
        let (l, c) = file::line_col(&query.text, t.start);
        let line = query.line + l - 1;
        let column = if l == 1 { c + query.column - 1 } else { c };
        out.push(Diagnostic {
            path: path.to_owned(),
            line,
            column,
            snippet: snippet(text, line, t.text.chars().count() + 1),
            message: format!(
                "in query `{}`: parameter `${}` has no type: compare it with a field, use it as LIMIT, or cast it {}",
                query.name,
                t.text,
                cast_hint(&tokens, i)
            ),
            severity: crate::codes::Severity::Error,
        });
    }
    out
}

/// A name the query reads both as its argument and where the engine sets it (`$parent` at the
/// top level and inside a subquery): one of the two is not what the author meant.
#[cfg(feature = "validate")]
fn two_meanings(path: &Path, text: &str, query: &NamedQuery, report: &crate::validate::Report) -> Vec<Diagnostic> {
    let both = report.query_params.iter().filter(|n| report.engine_params.contains(n));
    both.map(|name| {
        let at = crate::surql::scan::code(&query.text)
            .into_iter()
            .find(|t| t.kind == crate::surql::scan::Kind::Param && t.text == *name)
            .map_or(0, |t| t.start);
        let span = crate::validate::Span { start: at, end: at + name.len() + 1 };
        place(
            path,
            text,
            query,
            span,
            format!(
                "`${name}` is the engine's own value in part of this query (the row, the outer row or the record's state) \
                and your argument elsewhere: rename the argument (`${name}_value`)"
            ),
        )
    })
    .collect()
}

/// The cast to suggest for the untyped parameter at `tokens[i]`: a condition (after WHERE, AND,
/// OR, NOT or `!`) needs a bool; elsewhere the position does not say, so the common ones.
#[cfg(feature = "validate")]
fn cast_hint(tokens: &[crate::surql::scan::Token], i: usize) -> String {
    let p = &tokens[i].text;
    let condition = i.checked_sub(1).and_then(|j| tokens.get(j)).is_some_and(|prev| {
        ["where", "and", "or", "not"].iter().any(|w| prev.is_word(w))
            || prev.is_punct("!")
            || prev.is_punct("&&")
            || prev.is_punct("||")
    });
    if condition {
        format!("to the bool a condition needs: `<bool> ${p}`")
    } else {
        format!("to the type it stands for: `<string> ${p}`, `<int> ${p}`, `<datetime> ${p}`, ...")
    }
}

/// Without the `validate` feature (SurrealDB's parser), queries are read but not checked.
#[cfg(not(feature = "validate"))]
fn validate(_: &Schema, _: &Path, _: &str, _: &NamedQuery) -> (Vec<Diagnostic>, Option<Shape>) {
    (Vec::new(), None)
}

#[cfg(all(test, feature = "validate"))]
mod tests {
    use crate::Builder;
    use std::path::Path;

    #[test]
    fn a_field_the_schema_drops_is_a_cargo_error_at_the_query() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let schema = std::fs::read_to_string(root.join("schemas/store.rs")).unwrap();
        let dir = std::env::temp_dir().join(format!("surqlc-queries-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dropped = dir.join("store.rs");
        std::fs::write(&dropped, schema.replace("    pub placed_at: Datetime,\n", "")).unwrap();
        let queries = root.join("schemas/store.queries");
        let e = Builder::new()
            .schema(&dropped)
            .queries(&queries)
            .cargo_metadata(false)
            .generate()
            .unwrap_err();
        let lines = e.cargo_error_lines();
        let want = format!(
            "{}:14:12: in query `recent_purchases`: `purchase` has no field `placed_at`",
            queries.join("store.surql").display()
        );
        assert!(lines.iter().any(|l| l.starts_with(&want)), "{lines:#?}");
        // The intact schema takes every query, in file order.
        let output = Builder::new()
            .schema(root.join("schemas/store.rs"))
            .queries(&queries)
            .cargo_metadata(false)
            .generate()
            .unwrap();
        let names: Vec<&str> = output.queries.iter().map(|q| q.name.as_str()).collect();
        // Files in name order: mine.surql's one query, then store.surql's fifteen.
        assert_eq!(names[..2], ["my_orders", "revenue_by_category"]);
        assert_eq!(names.len(), 16);
        assert!(output.inputs.contains(&queries.join("store.surql")));
        assert_eq!(output.queries[0].path, queries.join("mine.surql"));
        assert_eq!(
            output.queries[0].params[0].session.as_deref(),
            Some("$auth.id"),
            "-- param: customer = $auth.id"
        );
    }
}

#[cfg(all(test, not(feature = "validate")))]
mod without_validate {
    use std::path::Path;

    #[test]
    fn named_queries_ask_for_the_validate_feature() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let e = crate::Builder::new()
            .schema(root.join("schemas/store.rs"))
            .queries(root.join("schemas/store.queries"))
            .cargo_metadata(false)
            .generate()
            .unwrap_err();
        let lines = e.cargo_error_lines();
        assert!(
            lines[0].contains("mine.surql:5:1: named queries are checked and typed with surqlc's `validate` feature"),
            "{lines:#?}"
        );
    }
}
