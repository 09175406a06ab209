//! What a named query's parameters must satisfy beyond having a type: every `-- param:` declared one is used, and one parameter is not two different whole inputs (one used as two kinds of value is the validator's SQ0607).

use crate::diagnostic::Diagnostic;
use crate::surql::named::NamedQuery;
use crate::surql::scan::{self, Kind};
use crate::validate::{Report, Span};
use std::path::Path;

/// A `-- param:` the query text never uses: the function would take an argument for nothing.
pub(super) fn unused(path: &Path, query: &NamedQuery) -> Vec<Diagnostic> {
    let tokens = scan::code(&query.text);
    query
        .params
        .iter()
        .filter(|d| {
            !tokens
                .iter()
                .any(|t| t.kind == Kind::Param && t.text == d.name)
        })
        .map(|d| Diagnostic {
            path: path.to_owned(),
            line: d.line,
            column: d.column,
            snippet: None,
            message: format!(
                "in query `{}`: parameter `${}` is declared but the query never uses it: use it or remove it from `-- param:`",
                query.name, d.name
            ),
            severity: crate::codes::Severity::Error,
        })
        .collect()
}

/// A parameter written as two different whole inputs (`CONTENT $x` of two tables, or a whole row
/// and a patch): at its second use. One used as two kinds of value is the validator's
/// ConflictingParam (SQ0607), reported with the query's other errors.
pub(super) fn conflicting(query: &NamedQuery, report: &Report) -> Vec<(Span, String)> {
    let mut out: Vec<(Span, String)> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for u in &report.params {
        if !names.contains(&u.name.as_str()) {
            names.push(&u.name);
        }
    }
    for name in names {
        if report.params.iter().any(|u| u.name == name && u.cast) {
            continue;
        }
        let inputs: Vec<&crate::validate::params::InputOf> = report
            .params
            .iter()
            .filter(|u| u.name == name)
            .filter_map(|u| u.input.as_ref())
            .collect();
        let Some(first) = inputs.first() else { continue };
        if let Some(other) = inputs.iter().find(|i| *i != first) {
            let kind = |i: &crate::validate::params::InputOf| {
                format!(
                    "{} `{}`",
                    if i.partial { "a patch of" } else { "a whole row of" },
                    i.table
                )
            };
            out.push((
                second_occurrence(query, name),
                format!(
                    "parameter `${name}` is written as {} and as {}: give each its own parameter",
                    kind(first),
                    kind(other)
                ),
            ));
        }
    }
    out
}

/// The parameter's second occurrence in the text, else its first (the uses are not spanned).
fn second_occurrence(query: &NamedQuery, name: &str) -> Span {
    let occurrences: Vec<Span> = scan::code(&query.text)
        .iter()
        .filter(|t| t.kind == Kind::Param && t.text == name)
        .map(|t| Span {
            start: t.start,
            end: t.end,
        })
        .collect();
    occurrences
        .get(1)
        .or(occurrences.first())
        .copied()
        .unwrap_or(Span { start: 0, end: 0 })
}
