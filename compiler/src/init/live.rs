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
    Ok(compare(&from, &to))
}

fn compare(from: &Definitions, to: &Definitions) -> Vec<String> {
    let drift = drift::compare(from, to, CompareOptions::default());
    drift
        .changes
        .iter()
        .map(|c| match c {
            Change::Missing { key, expected } => format!("{key}: not in the written schema (`{}`)", one_line(expected)),
            Change::Extra { key, live } => format!("{key}: only in the written schema (`{}`)", one_line(live)),
            Change::Changed { key, expected, live } => {
                format!("{key}: `{}` becomes `{}`", one_line(expected), one_line(live))
            }
        })
        .collect()
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

/// What the engine's check of a written file found.
#[derive(Debug, Clone, Default)]
pub struct RoundTrip {
    /// How the source's definitions differ from the written file's, one line each.
    pub differences: Vec<String>,
    /// The source's statements the engine refuses on an empty database even after the rest
    /// (`FILE:LINE: ...`, with the engine's reason): the comparison is made without them.
    pub refused: Vec<String>,
}

/// The engine's check of a written schema file: `schema_file` built as `surqlc build` builds it
/// and applied to a fresh embedded database, the sources (respelled as `init` read them) applied
/// to another, and their definitions compared. `Err`: the written file does not build or does not
/// load (each error with its position), or the engine could not be reached. A source statement the
/// engine refuses is no `Err`: the source, not the file, is at fault, and it is listed in `refused`.
pub async fn round_trip(
    sources: &[Source],
    schema_file: &std::path::Path,
    init: &super::Init,
) -> Result<RoundTrip, String> {
    let mut b = crate::Builder::new();
    b.schema(schema_file).cargo_metadata(false);
    let built = b.generate().map_err(|e| e.to_string())?;
    let to = drift::embedded_definitions(&built.schema_surql)
        .await
        .map_err(|e| format!("the engine refuses the written file's schema.surql: {e}"))?;
    let texts: Vec<(String, String)> = sources
        .iter()
        .map(|s| {
            let mut notes = super::Notes::default();
            (
                s.name.clone(),
                without_use(&super::respell::respell(&s.name, &s.text, &mut notes)),
            )
        })
        .collect();
    let (from, refused) = source_definitions(&texts)
        .await
        .map_err(|e| format!("the engine could not load the source: {e}"))?;
    let (from, to) = as_compared(keep(from, init), keep(to, init));
    Ok(RoundTrip {
        differences: compare(&from, &to),
        refused,
    })
}

/// Both sides as the comparison reads a view: its `TYPE` left out (SurrealDB 3.3.5 stores a view
/// without `TYPE` as `TYPE ANY` and surqlc writes `TYPE NORMAL`; a view is never written to, so the
/// two answer and refuse alike, `tests/init_roundtrip.rs`), and the fields `init` gave a view whose
/// source defines none (its noted choice: the columns its SELECT computes) left out of the file's side;
/// so is a field `init` declared `any` on a SCHEMALESS table for an index on it (its noted choice: the
/// table takes any value there with or without it).
fn as_compared(from: Definitions, to: Definitions) -> (Definitions, Definitions) {
    // `AS SELECT` before any quoted text (a COMMENT that says "AS SELECT" is no view).
    let is_view = |text: &str| {
        text.find(" AS SELECT ")
            .is_some_and(|at| !text[..at].contains(['\'', '"']))
    };
    let untyped_view = |(key, text): (drift::Key, String)| {
        if key.kind == "table" && is_view(&text) {
            let text = [" TYPE ANY ", " TYPE NORMAL "]
                .iter()
                .fold(text, |t, clause| t.replacen(clause, " ", 1));
            (key, text)
        } else {
            (key, text)
        }
    };
    let fieldless_views: Vec<String> = from
        .0
        .iter()
        .filter(|(k, text)| k.kind == "table" && is_view(text))
        .map(|(k, _)| k.name.clone())
        .filter(|view| !from.0.keys().any(|k| k.kind == "field" && k.table() == view))
        .collect();
    let schemaless: Vec<String> = from
        .0
        .iter()
        .filter(|(k, text)| k.kind == "table" && text.contains(" SCHEMALESS"))
        .map(|(k, _)| k.name.clone())
        .collect();
    // `DEFINE FIELD f ON t PERMISSIONS FULL` (its `TYPE any` read as none by `keep`), not in the source.
    let declared_any = |k: &drift::Key, text: &str| {
        let words: Vec<&str> = text.split_whitespace().collect();
        k.kind == "field"
            && schemaless.iter().any(|t| t == k.table())
            && !from.0.keys().any(|f| f.kind == k.kind && f.name == k.name)
            && words.len() == 7
            && words[..2] == ["DEFINE", "FIELD"]
            && words[3] == "ON"
            && words[5..] == ["PERMISSIONS", "FULL"]
    };
    let to = Definitions(to.0.into_iter().filter(|(k, text)| !declared_any(k, text)).collect());
    let from = Definitions(from.0.into_iter().map(untyped_view).collect());
    let to = Definitions(
        to.0.into_iter()
            .filter(|(k, _)| !(k.kind == "field" && fieldless_views.iter().any(|v| v == k.table())))
            .map(untyped_view)
            .collect(),
    );
    (from, to)
}

/// The definitions the sources leave in a fresh embedded database, and the statements it refused.
/// The sources load whole when they can; when the engine refuses a statement they are loaded again,
/// statement by statement, into another database, and each refused one is tried again once the rest
/// is in (a view written before the table it reads loads then), until a round loads none of them.
async fn source_definitions(texts: &[(String, String)]) -> Result<(Definitions, Vec<String>), surrealdb::Error> {
    let whole = texts.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>().join("\n");
    let conn = crate::db::connect(&crate::db::Target::default()).await?;
    if conn.query(whole.as_str()).await?.check().is_ok() {
        return Ok((drift::definitions(&conn).await?, Vec::new()));
    }
    let conn = crate::db::connect(&crate::db::Target::default()).await?;
    let mut pending = Vec::new();
    for (name, text) in texts {
        for statement in statements(name, text) {
            if let Err(e) = conn.query(statement.text.as_str()).await?.check() {
                pending.push((statement, e.to_string()));
            }
        }
    }
    loop {
        let before = pending.len();
        let mut still = Vec::new();
        for (statement, first_error) in pending {
            // The reason kept is the first one, given where the statement stands in the file.
            if conn.query(statement.text.as_str()).await?.check().is_err() {
                still.push((statement, first_error));
            }
        }
        pending = still;
        if pending.is_empty() || pending.len() == before {
            break;
        }
    }
    let refused = pending
        .into_iter()
        .map(|(s, error)| {
            format!(
                "{}: `{}`: SurrealDB refuses it on an empty database ({error}); the check compares without it",
                s.at, s.head
            )
        })
        .collect();
    Ok((drift::definitions(&conn).await?, refused))
}

/// One top-level statement of a source as its own script, where it starts.
struct Statement {
    at: String,
    head: String,
    text: String,
}

/// The top-level statements of `text`, transaction frames left out (each statement is sent alone).
fn statements(name: &str, text: &str) -> Vec<Statement> {
    let starts = crate::surql::functions::statement_starts(text);
    let mut out = Vec::with_capacity(starts.len());
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len()).max(start);
        let body = &text[start..end];
        let first = body.split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
        if ["BEGIN", "COMMIT", "CANCEL"]
            .iter()
            .any(|f| first.eq_ignore_ascii_case(f))
        {
            continue;
        }
        let (line, _) = super::line_col(text, start);
        out.push(Statement {
            at: format!("{name}:{line}"),
            head: super::short(body.lines().next().unwrap_or("").trim_end()),
            text: body.to_owned(),
        });
    }
    out
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
