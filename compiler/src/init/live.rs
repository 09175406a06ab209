//! A live database's definitions (`INFO FOR DB`, `INFO FOR TABLE`) as a `Source` for `init`, and the engine's check of a written file: the source and the file's `schema.surql` applied each to a fresh embedded database, their user definitions compared.

use super::Source;
use crate::drift::{self, Change, CompareOptions, Definitions};
use crate::surql::scan::Kind;
use surrealdb::{Connection, Surreal};

/// Every definition of `db`'s database, one statement per line, named `name` in notes.
pub async fn source<C: Connection>(db: &Surreal<C>, name: &str) -> Result<Source, surrealdb::Error> {
    let definitions = drift::definitions(db).await?;
    Ok(Source {
        name: name.to_owned(),
        text: text(&definitions),
    })
}

/// The definitions as a script that loads: `INFO` lists tables by name, and a view must come after
/// the tables it reads, so views go last.
fn text(definitions: &Definitions) -> String {
    let mut out = String::new();
    let views: Vec<&str> = definitions
        .0
        .iter()
        .filter(|(k, t)| k.kind == "table" && t.contains(" AS SELECT "))
        .map(|(k, _)| k.name.as_str())
        .collect();
    // A view's own fields and indexes follow it: defining a view again would drop them.
    let of_view =
        |k: &drift::Key| views.contains(&k.table()) || (k.kind == "table" && views.contains(&k.name.as_str()));
    let (views, rest): (Vec<_>, Vec<_>) = definitions.0.iter().partition(|(k, _)| of_view(k));
    for (_, text) in rest.into_iter().chain(views) {
        // Sequences and modules are listed by presence only (no text): nothing to read.
        if text.is_empty() {
            continue;
        }
        out.push_str(&overwrite(text.trim_end().trim_end_matches(';')));
        out.push_str(";\n");
    }
    out
}

/// `DEFINE KIND name ...` as `DEFINE KIND OVERWRITE name ...`: `INFO` lists the element fields the
/// engine derives (`images.*` once `images.*.url` is defined), which a plain `DEFINE` would refuse
/// as already there when the script is loaded again.
fn overwrite(definition: &str) -> String {
    let mut parts = definition.splitn(3, ' ');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("DEFINE"), Some(kind), Some(rest))
            if !rest.starts_with("OVERWRITE ") && !rest.starts_with("IF NOT EXISTS ") =>
        {
            format!("DEFINE {kind} OVERWRITE {rest}")
        }
        _ => definition.to_owned(),
    }
}

/// How the user definitions `source` leaves in a fresh embedded database differ from those of
/// `built` (the written file's `schema.surql`): tables (views included), their fields and indexes,
/// analyzers and functions, surqlc's own left aside. Each difference is one line.
pub async fn differences(source: &str, built: &str, init: &super::Init) -> Result<Vec<String>, surrealdb::Error> {
    let from = keep(drift::embedded_definitions(source).await?, init);
    let to = keep(drift::embedded_definitions(built).await?, init);
    let drift = drift::compare(&from, &to, CompareOptions::default());
    Ok(drift
        .changes
        .iter()
        .map(|c| match c {
            Change::Missing { key, expected } => format!("{key}: not in the written schema (`{}`)", one_line(expected)),
            Change::Extra { key, live } => format!("{key}: only in the written schema (`{}`)", one_line(live)),
            Change::Changed { key, expected, live } => {
                format!("{key}: `{}` becomes `{}`", one_line(expected), one_line(live))
            }
        })
        .collect())
}

fn one_line(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 300 {
        format!("{}...", line.chars().take(297).collect::<String>())
    } else {
        line
    }
}

/// The definitions `init` carries over: those of its tables and analyzers, and the user's functions.
fn keep(definitions: Definitions, init: &super::Init) -> Definitions {
    let tables = &init.table_names;
    let functions = crate::front::functions::SURQLC_FUNCTIONS;
    Definitions(
        definitions
            .0
            .into_iter()
            .filter(|(key, _)| match key.kind {
                "table" => tables.iter().any(|t| *t == key.name),
                "field" | "index" => tables.iter().any(|t| t == key.table()),
                "function" => !functions.contains(&key.name.as_str()),
                "analyzer" => init.analyzer_names.contains(&key.name),
                _ => false,
            })
            .map(|(key, text)| {
                let text = if key.kind == "field" { untyped(&text) } else { text };
                (key, text)
            })
            .collect(),
    )
}

/// A field's definition as `INFO` prints it, with `TYPE any` left out: the engine treats a field
/// without `TYPE` and one typed `any` alike (any value, `NONE` included), and the grammar writes
/// the first as the second, so the two must compare equal.
pub(super) fn untyped(text: &str) -> String {
    let tokens = crate::surql::scan::code(text);
    // `DEFINE FIELD path ON [TABLE] table TYPE any ...`: the path takes at least the third token.
    let Some(on) = tokens
        .iter()
        .skip(3)
        .position(|t| t.kind == Kind::Ident && t.text == "ON")
    else {
        return text.to_owned();
    };
    let mut i = on + 4;
    if tokens.get(i).is_some_and(|t| t.text == "TABLE") {
        i += 1;
    }
    match (tokens.get(i + 1), tokens.get(i + 2), tokens.get(i + 3)) {
        (Some(ty), Some(any), next)
            if ty.kind == Kind::Ident
                && ty.text == "TYPE"
                && any.is_word("any")
                && !next.is_some_and(|n| n.is_punct("<") || n.is_punct("|")) =>
        {
            format!("{}{}", &text[..ty.start], text[any.end..].trim_start())
        }
        _ => text.to_owned(),
    }
}

/// The engine's check of a written schema file: `schema_file` built as `surqlc build` builds it,
/// then `differences` against the sources (respelled as `init` read them). `Err`: the file does
/// not build (each error with its position), or a database refused a script.
pub async fn round_trip(
    sources: &[Source],
    schema_file: &std::path::Path,
    init: &super::Init,
) -> Result<Vec<String>, String> {
    let mut b = crate::Builder::new();
    b.schema(schema_file).cargo_metadata(false);
    let built = b.generate().map_err(|e| e.to_string())?;
    let mut source = String::new();
    for s in sources {
        let mut notes = super::Notes::default();
        source.push_str(&without_use(&super::respell::respell(&s.name, &s.text, &mut notes)));
        source.push('\n');
    }
    differences(&source, &built.schema_surql, init)
        .await
        .map_err(|e| format!("the engine refused a script while checking: {e}"))
}

/// `text` without its `USE NS ...`/`USE DB ...` statements: `init` reads every definition into
/// the one schema (each USE is noted), and a USE would move the definitions after it out of the
/// database the check compares. A statement is dropped from `USE` at a line's start to its `;`.
fn without_use(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = find_use(rest) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').map_or(rest.len(), |e| e + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Where a line of `text` starts with `USE NS`, `USE DB`, `USE NAMESPACE` or `USE DATABASE`.
fn find_use(text: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let words: Vec<String> = trimmed
            .split_whitespace()
            .take(2)
            .map(str::to_ascii_uppercase)
            .collect();
        if words.first().map(String::as_str) == Some("USE")
            && matches!(
                words.get(1).map(String::as_str),
                Some("NS" | "DB" | "NAMESPACE" | "DATABASE")
            )
        {
            return Some(at + (line.len() - trimmed.len()));
        }
        at += line.len();
    }
    None
}
