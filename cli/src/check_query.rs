//! `surqlc check-query`: validate one query, or a file of examples, against a Rust schema file, as text or JSON; with data, the runner's data checks too.

use crate::exit::{Exit, FailureExit};
use std::path::{Path, PathBuf};
use surqlc::builder::Output;
use surqlc::db::Target;
use surqlc::schema_db::{connect, load_file, open};
use surqlc::validate::{render_one, split_queries, validate_with, Class, Options, Report, Severity};

/// Where the queries come from.
pub enum Queries {
    /// One query given on the command line.
    Inline(String),
    /// A file of examples: one query per part, parts separated by blank lines or `;`.
    File(PathBuf),
}

/// What `check-query` prints and its exit status: `Ok` clean (warnings allowed), `Failed` an error found, `BadInput`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckQueryOutput {
    pub stdout: String,
    pub stderr: String,
    pub status: Exit,
}

fn bad_input(message: String) -> CheckQueryOutput {
    CheckQueryOutput {
        stdout: String::new(),
        stderr: message,
        status: Exit::BadInput,
    }
}

/// Checks `queries` against the schema in `schemas` (compiled as `surqlc build` does), with lint
/// levels from the command line over the schema's own.
pub fn check_query_linted(
    schemas: &[PathBuf],
    queries: &Queries,
    json: bool,
    lints: &surqlc::ir::Lints,
    profile: surqlc::validate::Profile,
) -> CheckQueryOutput {
    let mut files = Vec::new();
    for path in schemas {
        match surqlc::front::SourceFile::read(path) {
            Ok(f) => files.push(f),
            Err(e) => return bad_input(e.to_string()),
        }
    }
    let mut schema = match surqlc::front::compile(&files) {
        Ok(s) => s,
        Err(e) => return bad_input(e.to_string()),
    };
    schema.settings.lints.override_with(lints);
    match checked(&schema, queries, false, profile) {
        Ok(checked) => checked.outcome(json),
        Err(outcome) => outcome,
    }
}

/// Every query of `queries` with its report; `Err` is the bad-input outcome (an empty query, an unreadable file).
pub struct Checked {
    /// `query` or the file's path, as positions are prefixed.
    pub label: String,
    /// Each query's text, its first line in the source, and its report.
    pub items: Vec<(String, usize, Report)>,
    /// The column each query's first line starts at (1 unless it follows other text on its line).
    pub columns: Vec<usize>,
}

/// Validates each of `queries` against `schema` (no database; the data checks are added by the
/// caller), as one end user's session runs them when `end_user`.
///
/// A file with `-- name:` lines is a named-query file (the application's own queries, with
/// `$params` and `LIMIT $n`), checked with [`Options::for_named_queries`]; any other text is
/// checked in `profile`: the agent's queries with the schema's own options, or the application's
/// statements ([`Options::for_app`]).
pub fn checked(
    schema: &surqlc::ir::Schema,
    queries: &Queries,
    end_user: bool,
    profile: surqlc::validate::Profile,
) -> Result<Checked, CheckQueryOutput> {
    // `--as`: the agent's queries as that end user's session runs them (`$auth`, side channels).
    let mut options = match profile {
        surqlc::validate::Profile::Agent => Options::for_session(schema, end_user),
        surqlc::validate::Profile::App => Options::for_app(),
    };
    let (label, pieces) = match queries {
        Queries::Inline(q) => {
            if q.trim().is_empty() {
                return Err(bad_input("error: the query is empty".into()));
            }
            ("query".to_owned(), vec![(q.clone(), 1usize, 1usize)])
        }
        Queries::File(path) => match std::fs::read_to_string(path) {
            Ok(text) if surqlc::surql::named::is_named(&text) => match surqlc::surql::named::parse(&text) {
                Ok(named) => {
                    options = Options::for_named_queries();
                    (
                        display(path),
                        named.into_iter().map(|q| (q.text, q.column, q.line)).collect(),
                    )
                }
                Err(errors) => {
                    let lines: Vec<String> = errors.iter().map(|e| format!("{}:{e}", display(path))).collect();
                    return Err(bad_input(lines.join("\n")));
                }
            },
            // The application's statements are split as the engine splits them (blocks and
            // transactions whole); the agent's replies at each `;` or blank line.
            Ok(text) if profile == surqlc::validate::Profile::App => (
                display(path),
                surqlc::validate::split_statements(&text)
                    .into_iter()
                    .map(|p| (p.text, 1, p.line))
                    .collect(),
            ),
            Ok(text) => (
                display(path),
                split_queries(&text, true)
                    .into_iter()
                    .map(|p| (p.text, 1, p.line))
                    .collect(),
            ),
            Err(e) => return Err(bad_input(format!("error: cannot read {}: {e}", path.display()))),
        },
    };
    if pieces.is_empty() {
        return Err(bad_input(format!("error: {label} holds no query")));
    }
    let mut columns = Vec::new();
    let items = pieces
        .into_iter()
        .map(|(text, column, line)| {
            columns.push(column);
            let report = validate_with(schema, &text, &options);
            (text, line, report)
        })
        .collect();
    Ok(Checked { label, items, columns })
}

impl Checked {
    /// What `check-query` prints (text or JSON) and its status.
    pub fn outcome(&self, json: bool) -> CheckQueryOutput {
        let (label, reports) = (&self.label, &self.items);
        let failed = reports.iter().filter(|(_, _, r)| r.has_errors()).count();
        let warned = reports
            .iter()
            .filter(|(_, _, r)| r.diagnostics.iter().any(|d| d.severity == Severity::Warning))
            .count();
        let stdout = if json {
            let items: Vec<serde_json::Value> = reports
                .iter()
                .map(|(text, line, report)| {
                    let mut value = report.to_json(text);
                    if let Some(object) = value.as_object_mut() {
                        object.insert("query".into(), text.trim().into());
                        object.insert("line".into(), (*line).into());
                    }
                    value
                })
                .collect();
            let mut out = serde_json::to_string_pretty(&serde_json::json!({
                "source": label,
                "queries": items,
                "errors": failed,
            }))
            .unwrap_or_default();
            out.push('\n');
            out
        } else {
            let mut out = String::new();
            for ((text, line, report), column) in reports.iter().zip(&self.columns) {
                for d in &report.diagnostics {
                    // `render_one` starts with `severity[Class] line:col`; make the position the file's
                    // (a query's first line may start after a column of its own).
                    let (l, c) = d.span.line_col(text);
                    let one = render_one(d, text);
                    let rest = one.replacen(&format!(" {l}:{c}"), "", 1);
                    let c = if l == 1 { c + column - 1 } else { c };
                    out.push_str(&format!("{label}:{}:{c}: {rest}\n", line + l - 1));
                }
            }
            out
        };
        CheckQueryOutput {
            stdout,
            stderr: format!(
                "checked {} quer{}: {failed} with errors, {warned} with warnings",
                reports.len(),
                if reports.len() == 1 { "y" } else { "ies" }
            ),
            status: if failed > 0 { Exit::Failed } else { Exit::Ok },
        }
    }
}

/// `check-query`'s positional arguments: the ones ending in `.rs` are schema files, the one that
/// does not is the query (so `SCHEMA.rs... 'QUERY'` reads as before, in any order). `Err` says
/// what is wrong.
pub fn split_arguments(args: &[String]) -> Result<(Vec<PathBuf>, Option<String>), String> {
    let (schemas, rest): (Vec<&String>, Vec<&String>) = args.iter().partition(|a| a.trim_end().ends_with(".rs"));
    if schemas.is_empty() {
        return Err(
            "error: give the schema file(s) first: surqlc check-query SCHEMA.rs... 'QUERY' (schema files end in .rs)"
                .into(),
        );
    }
    if rest.len() > 1 {
        return Err(format!(
            "error: {} arguments are not schema files (.rs): give one QUERY, quoted, or --query Q",
            rest.len()
        ));
    }
    Ok((
        schemas.into_iter().map(PathBuf::from).collect(),
        rest.first().map(|q| (*q).clone()),
    ))
}

/// Where `check-query` finds the data for its data checks.
#[derive(Debug, Clone)]
pub enum DataSource {
    /// A data file loaded after the schema into a fresh embedded database.
    Seed(std::path::PathBuf),
    /// A database that holds the data (and the schema); only read.
    Server(Target),
}

impl DataSource {
    /// Where the data is: the server's target, or `embedded` (the namespace and database a seed
    /// is loaded into).
    pub fn target(&self, embedded: &Target) -> Target {
        match self {
            DataSource::Server(target) => target.clone(),
            DataSource::Seed(_) => embedded.clone(),
        }
    }

    /// The database holding the data: a fresh embedded one at `embedded` with `output`'s schema
    /// and the seed loaded, or the server, connected to and only read.
    pub async fn open(&self, output: &Output, embedded: &Target) -> Result<surqlc::db::Db, surqlc::exit::Failure> {
        match self {
            DataSource::Seed(seed) => {
                let conn = open(output, embedded).await?;
                load_file(&conn, seed).await?;
                Ok(conn)
            }
            DataSource::Server(target) => connect(target).await,
        }
    }
}

/// `surqlc check-query` with the data checks the agent's runner makes
/// (`surqlc::validate::data::check`: record ids exist, compared values are present), run on the
/// data of `source` for each query with no error but a missing `LIMIT` (which the runner adds).
pub async fn with_data(
    output: &Output,
    queries: &Queries,
    json: bool,
    source: &DataSource,
    as_user: Option<&(String, String)>,
) -> CheckQueryOutput {
    let agent = surqlc::validate::Profile::Agent;
    let mut checked = match checked(&output.schema, queries, as_user.is_some(), agent) {
        Ok(checked) => checked,
        Err(outcome) => return outcome,
    };
    // A seed is loaded where `open_embedded` loads the schema: the default namespace, the schema's database.
    let embedded = Target {
        database: output.schema.name.clone(),
        ..Default::default()
    };
    let conn = source.open(output, &embedded).await;
    // As an end user: the checks see only what that user's session may read.
    let conn = match (conn, as_user) {
        (Ok(conn), Some((user, key))) => {
            let target = source.target(&embedded);
            surqlc::schema_db::signin_as(&conn, &output.schema, &target, key, user)
                .await
                .map(|agent| agent.session().clone())
        }
        (conn, _) => conn,
    };
    let conn = match conn {
        Ok(conn) => conn,
        Err(failure) => {
            return CheckQueryOutput {
                stdout: String::new(),
                stderr: failure.to_string(),
                status: failure.exit(),
            }
        }
    };
    for (_, _, report) in &mut checked.items {
        let only_limit = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .all(|d| d.class == Class::Limit);
        if !only_limit {
            continue;
        }
        if let Err(e) = surqlc::validate::data::check(&conn, &output.schema, report).await {
            return CheckQueryOutput {
                stdout: String::new(),
                stderr: format!("error: the data checks failed: {e}"),
                status: Exit::Failed,
            };
        }
    }
    checked.outcome(json)
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<String> {
        args.iter().map(|a| (*a).to_owned()).collect()
    }

    #[test]
    fn schema_files_are_the_arguments_ending_in_rs() {
        let (schemas, query) = split_arguments(&words(&["a.rs", "b.rs", "SELECT * FROM t LIMIT 5"])).unwrap();
        assert_eq!(schemas, [PathBuf::from("a.rs"), PathBuf::from("b.rs")]);
        assert_eq!(query.as_deref(), Some("SELECT * FROM t LIMIT 5"));
        let (schemas, query) = split_arguments(&words(&["a.rs"])).unwrap();
        assert_eq!((schemas.len(), query), (1, None));
        assert!(split_arguments(&words(&["SELECT 1"]))
            .unwrap_err()
            .contains("schema file"));
        assert!(split_arguments(&words(&["a.rs", "SELECT 1", "SELECT 2"]))
            .unwrap_err()
            .contains("give one QUERY"));
    }
}
