//! What a named query's parameters must satisfy beyond having a type: every `-- param:` declared one is used, and one parameter is not used as two different types without a cast saying which.

use crate::diagnostic::Diagnostic;
use crate::surql::named::NamedQuery;
use crate::surql::scan::{self, Kind};
use crate::validate::{Report, Span, Ty};
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

/// The kind of value a use asks for: options and literal unions read as what they hold.
fn base(ty: &Ty) -> Ty {
    match ty {
        Ty::Option(inner) => base(inner),
        Ty::Literal(_) => Ty::String,
        Ty::Array(inner) => Ty::array(base(inner)),
        other => other.clone(),
    }
}

/// A parameter whose uses ask for two kinds of value (compared with a datetime, used as LIMIT),
/// with no cast to settle it: at its second use, with the cast that would.
pub(super) fn conflicting(query: &NamedQuery, report: &Report) -> Vec<(Span, String)> {
    let mut out: Vec<(Span, String)> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for u in &report.params {
        if !names.contains(&u.name.as_str()) {
            names.push(&u.name);
        }
    }
    for name in names {
        let uses: Vec<&Ty> = report
            .params
            .iter()
            .filter(|u| u.name == name && u.ty != Ty::Any)
            .map(|u| &u.ty)
            .collect();
        if report.params.iter().any(|u| u.name == name && u.cast) {
            continue;
        }
        // A whole input (`CONTENT $x`) is typed by its table: two different tables (or a whole
        // input and a patch) cannot both be one argument.
        let inputs: Vec<&crate::validate::params::InputOf> = report
            .params
            .iter()
            .filter(|u| u.name == name)
            .filter_map(|u| u.input.as_ref())
            .collect();
        if let Some(first) = inputs.first() {
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
            continue;
        }
        let Some(first) = uses.first() else { continue };
        let Some(other) = uses.iter().find(|t| base(t) != base(first)) else {
            continue;
        };
        out.push((
            second_occurrence(query, name),
            format!(
                "parameter `${name}` is used as {first} and as {other}, so it has no one type; cast it once to say which: `<{}> ${name}`",
                base(first)
            ),
        ));
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
