//! The reader of a named-query file (see [`crate::codegen::queries`]): `-- name:`, `-- question:` and `-- param:` lines, then the query text up to its `;` or the next `-- name:`.
//!
//! Annotations are SurrealQL comments, so the file is also plain SurrealQL; they are found with the
//! one SurrealQL tokenizer ([`crate::surql::scan`]), never inside a string.

use crate::surql::scan::{self, Kind, Token};

/// What a query's function returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Returns {
    /// `:many`: every row, `Vec<Row>`.
    Many,
    /// `:one`: exactly one row; none is an error.
    One,
    /// `:opt`: `Option<Row>`.
    Opt,
    /// `:value`: `SELECT VALUE` / `RETURN`, the value's own type.
    Value,
    /// `:exec`: a statement run for its effect (a write); no rows, `()`.
    Exec,
}

impl Returns {
    /// The annotation's spelling, without the colon.
    pub fn name(self) -> &'static str {
        match self {
            Returns::Many => "many",
            Returns::One => "one",
            Returns::Opt => "opt",
            Returns::Value => "value",
            Returns::Exec => "exec",
        }
    }

    fn from_name(name: &str) -> Option<Returns> {
        [Returns::Many, Returns::One, Returns::Opt, Returns::Value, Returns::Exec]
            .into_iter()
            .find(|r| r.name() == name)
    }
}

/// One query of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedQuery {
    pub name: String,
    pub returns: Returns,
    /// The `-- question:` lines, in order (the function's doc comment, the agent's examples).
    pub questions: Vec<String>,
    /// The query, without its `;` and without the annotations.
    pub text: String,
    /// Byte offset of `text` in the file.
    pub offset: usize,
    /// 1-based line and column of `text` in the file.
    pub line: usize,
    pub column: usize,
    /// 1-based line of the `-- name:` annotation.
    pub name_line: usize,
    /// The `-- param: $a, $b` declarations (without `$`), with their 1-based line and column: the
    /// function's first arguments, in this order; each must be used by the query.
    pub params: Vec<DeclaredParam>,
    /// The `-- surqlc: allow(...)` comments of the query's block (before it or after its `;`),
    /// with their byte offsets in the file.
    pub directives: Vec<(usize, String)>,
}

/// A parameter named by a `-- param:` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredParam {
    pub name: String,
    pub line: usize,
    pub column: usize,
    /// `-- param: customer = $auth.id`: the parameter is the end user's, filled by their session
    /// (`surqlc mcp --as`/`--per-user`), never by a caller. The binding as written (`$auth.id`).
    pub session: Option<String>,
}

/// What a session-bound parameter may be bound to: the signed-in end user's record id.
pub const SESSION_BINDINGS: [&str; 2] = ["$auth.id", "$auth"];

/// A malformed file: where (1-based, column in characters) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

const NAME: &str = "-- name:";
const QUESTION: &str = "-- question:";
const PARAM: &str = "-- param:";

fn annotation<'t>(t: &'t Token, prefix: &str) -> Option<&'t str> {
    (t.kind == Kind::Comment).then(|| t.text.strip_prefix(prefix)).flatten()
}

/// Whether a comment is a surqlc directive (`-- surqlc: allow(...)`).
pub fn is_directive(comment: &str) -> bool {
    comment
        .trim_start_matches(['-', '#', '/', '*'])
        .trim_start()
        .starts_with("surqlc:")
}

/// Whether `text` is a named-query file (holds a `-- name:` line) rather than plain examples.
pub fn is_named(text: &str) -> bool {
    scan::scan(text).iter().any(|t| annotation(t, NAME).is_some())
}

/// Records a problem of the file at byte `at`.
fn push_error(text: &str, at: usize, message: String, errors: &mut Vec<FileError>) {
    let (line, column) = line_col(text, at);
    errors.push(FileError { line, column, message });
}

/// The parameters of one `-- param: $a, $b` line (its list starts at byte `at`): each a `$` and an
/// identifier, declared once; or one bound to the end user's session, `customer = $auth.id` (the
/// `$` before the name is optional there).
fn declare_params(text: &str, list: &str, mut at: usize, params: &mut Vec<DeclaredParam>, errors: &mut Vec<FileError>) {
    for item in list.split_inclusive(',') {
        let here = at;
        at += item.len();
        match item.split_once('=') {
            Some((left, right)) => declare_bound(text, here, left, right, params, errors),
            None => declare_plain(text, item, here, params, errors),
        }
    }
}

/// `$a $b` (an item of a `-- param:` list without `=`) starting at byte `at`.
fn declare_plain(text: &str, item: &str, mut at: usize, params: &mut Vec<DeclaredParam>, errors: &mut Vec<FileError>) {
    for word in item.split_inclusive([',', ' ', '\t']) {
        let name = word.trim_end_matches([',', ' ', '\t']);
        let here = at;
        at += word.len();
        if name.is_empty() {
            continue;
        }
        match name.strip_prefix('$').filter(|n| is_ident(n)) {
            Some(n) => push_param(text, here, n, None, params, errors),
            None => push_error(
                text,
                here,
                format!("`{name}` is not a parameter: write `-- param: $name, $other`"),
                errors,
            ),
        }
    }
}

/// `customer = $auth.id` (an item of a `-- param:` list starting at byte `at`).
fn declare_bound(
    text: &str,
    at: usize,
    left: &str,
    right: &str,
    params: &mut Vec<DeclaredParam>,
    errors: &mut Vec<FileError>,
) {
    let name_at = at + (left.len() - left.trim_start().len());
    let name = left.trim();
    let bound = right.trim_end_matches(',').trim();
    let bound_at = at + left.len() + 1 + (right.len() - right.trim_start().len());
    let bare = name.strip_prefix('$').unwrap_or(name);
    if !is_ident(bare) {
        let message = format!("`{name}` is not a parameter: write `-- param: customer = $auth.id`");
        return push_error(text, name_at, message, errors);
    }
    if !SESSION_BINDINGS.contains(&bound) {
        let message = format!(
            "`{bound}` is not a session binding: a parameter is bound to the end user's session with `= $auth.id` (their record id)"
        );
        return push_error(text, bound_at, message, errors);
    }
    push_param(text, name_at, bare, Some(bound.to_owned()), params, errors);
}

fn is_ident(n: &str) -> bool {
    n.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && n.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Declares `$name` at byte `at`, once.
fn push_param(
    text: &str,
    at: usize,
    name: &str,
    session: Option<String>,
    params: &mut Vec<DeclaredParam>,
    errors: &mut Vec<FileError>,
) {
    if params.iter().any(|p| p.name == name) {
        return push_error(text, at, format!("`${name}` is declared twice"), errors);
    }
    let (line, column) = line_col(text, at);
    params.push(DeclaredParam {
        name: name.to_owned(),
        line,
        column,
        session,
    });
}

/// Where a query's text ends: at its first `;` outside brackets (only comments may follow), or
/// after its last code token.
fn query_end(text: &str, name: &str, code: &[&Token], errors: &mut Vec<FileError>) -> usize {
    let Some(begin) = code.first() else {
        return 0;
    };
    let mut depth = 0i32;
    let mut stop = code.last().map_or(begin.end, |t| t.end);
    for (k, t) in code.iter().enumerate() {
        if t.kind != Kind::Punct {
            continue;
        }
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            ";" if depth <= 0 => {
                stop = t.start;
                if let Some(extra) = code.get(k + 1) {
                    push_error(
                        text,
                        extra.start,
                        format!("text after the `;` of query `{name}`: start another query with `-- name: NAME :many`"),
                        errors,
                    );
                }
                break;
            }
            _ => {}
        }
    }
    stop
}

/// 1-based line and column (in characters) of byte `at`.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// Reads every query of a named-query file; all the file's problems at once when it has any.
pub fn parse(text: &str) -> Result<Vec<NamedQuery>, Vec<FileError>> {
    let tokens = scan::scan(text);
    let mut errors = Vec::new();
    let error = |at: usize, message: String, errors: &mut Vec<FileError>| push_error(text, at, message, errors);
    let starts: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| annotation(t, NAME).is_some())
        .map(|(i, _)| i)
        .collect();
    if starts.is_empty() {
        error(0, "no query: start one with `-- name: NAME :many`".into(), &mut errors);
        return Err(errors);
    }
    if let Some(t) = tokens[..starts[0]].iter().find(|t| t.kind != Kind::Comment) {
        error(
            t.start,
            "query text before the first `-- name:` line".into(),
            &mut errors,
        );
    }
    let mut queries: Vec<NamedQuery> = Vec::new();
    for (n, &first) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(tokens.len());
        let head = &tokens[first];
        let Some((name, returns)) = header(text, head, &mut errors) else {
            continue;
        };
        let mut questions = Vec::new();
        let mut params: Vec<DeclaredParam> = Vec::new();
        let mut i = first + 1;
        // Annotations and comments up to the first code token.
        while i < end && tokens[i].kind == Kind::Comment {
            if let Some(list) = annotation(&tokens[i], PARAM) {
                let at = tokens[i].start + PARAM.len();
                declare_params(text, list, at, &mut params, &mut errors);
            }
            if let Some(q) = annotation(&tokens[i], QUESTION) {
                let q = q.trim();
                if q.is_empty() {
                    error(tokens[i].start, "empty `-- question:`".into(), &mut errors);
                } else {
                    questions.push(q.to_owned());
                }
            }
            i += 1;
        }
        let code: Vec<&Token> = tokens[i..end].iter().filter(|t| t.kind != Kind::Comment).collect();
        let Some(begin) = code.first() else {
            error(
                head.start,
                format!("query `{name}` has no text after its annotations"),
                &mut errors,
            );
            continue;
        };
        let stop = query_end(text, &name, &code, &mut errors);
        if let Some(prev) = queries.iter().find(|q| q.name == name) {
            error(
                head.start + NAME.len() + 1,
                format!("query `{name}` is defined twice (first at line {})", prev.name_line),
                &mut errors,
            );
            continue;
        }
        let (line, column) = line_col(text, begin.start);
        let directives = tokens[first + 1..end]
            .iter()
            .filter(|t| t.kind == Kind::Comment && is_directive(&t.text))
            .map(|t| (t.start, t.text.clone()))
            .collect();
        queries.push(NamedQuery {
            name,
            returns,
            questions,
            text: text[begin.start..stop].trim_end().to_owned(),
            offset: begin.start,
            line,
            column,
            name_line: line_col(text, head.start).0,
            params,
            directives,
        });
    }
    if errors.is_empty() {
        Ok(queries)
    } else {
        Err(errors)
    }
}

/// `-- name: NAME :kind` → the name (a Rust function name) and what it returns.
fn header(text: &str, head: &Token, errors: &mut Vec<FileError>) -> Option<(String, Returns)> {
    let rest = &head.text[NAME.len()..];
    let mut at = head.start + NAME.len();
    let mut words = Vec::new();
    for word in rest.split_inclusive(char::is_whitespace) {
        let trimmed = word.trim_end();
        if !trimmed.is_empty() {
            words.push((at, trimmed));
        }
        at += word.len();
    }
    let fail = |at: usize, message: String, errors: &mut Vec<FileError>| {
        let (line, column) = line_col(text, at);
        errors.push(FileError { line, column, message });
        None
    };
    let usage = "write `-- name: NAME :many` (or :one, :opt, :value, :exec)";
    let Some(&(name_at, name)) = words.first() else {
        return fail(head.start, format!("`-- name:` without a name: {usage}"), errors);
    };
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !valid {
        return fail(
            name_at,
            format!(
                "`{name}` is not a query name: use snake_case letters, digits and `_` (it becomes a Rust function)"
            ),
            errors,
        );
    }
    let Some(&(kind_at, kind)) = words.get(1) else {
        return fail(
            head.end,
            format!("query `{name}` says nothing of what it returns: {usage}"),
            errors,
        );
    };
    let Some(returns) = kind.strip_prefix(':').and_then(Returns::from_name) else {
        return fail(
            kind_at,
            format!("`{kind}` is not :many, :one, :opt, :value or :exec"),
            errors,
        );
    };
    if let Some(&(extra_at, extra)) = words.get(2) {
        return fail(extra_at, format!("unexpected `{extra}`: {usage}"), errors);
    }
    Some((name.to_owned(), returns))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "\
-- Store queries.
-- name: revenue_by_category :many
-- question: Which category earns us the most money?
SELECT out.category AS category, math::sum(qty * unit_price) AS revenue
FROM contains WHERE in.status = $status GROUP BY category;

-- name: customer :opt
SELECT * FROM customer WHERE email = $email
-- name: count_orders :value
-- a plain comment
RETURN count(SELECT id FROM order WHERE note = '-- name: x :one');
";

    #[test]
    fn reads_names_kinds_questions_and_positions() {
        let q = parse(FILE).unwrap();
        assert_eq!(q.len(), 3);
        assert_eq!(q[0].name, "revenue_by_category");
        assert_eq!(q[0].returns, Returns::Many);
        assert_eq!(
            q[0].questions,
            vec!["Which category earns us the most money?".to_owned()]
        );
        assert!(q[0].text.starts_with("SELECT out.category"));
        assert!(q[0].text.ends_with("GROUP BY category"));
        assert_eq!((q[0].line, q[0].column, q[0].name_line), (4, 1, 2));
        assert_eq!(&FILE[q[0].offset..q[0].offset + 6], "SELECT");
        assert_eq!(q[1].returns, Returns::Opt);
        assert_eq!(q[1].text, "SELECT * FROM customer WHERE email = $email");
        assert_eq!(q[1].line, 8);
        // A `-- name:` inside a string is text, and plain comments are skipped.
        assert_eq!(q[2].returns, Returns::Value);
        assert!(q[2].text.starts_with("RETURN count("));
        assert!(q[2].text.contains("'-- name: x :one'"));
        assert!(is_named(FILE));
        assert!(!is_named("SELECT * FROM x WHERE note = '-- name: x :one'"));
    }

    fn errors(text: &str) -> Vec<String> {
        parse(text).unwrap_err().iter().map(ToString::to_string).collect()
    }

    #[test]
    fn malformed_annotations_point_at_line_and_column() {
        assert_eq!(
            errors("-- name: Bad :many\nSELECT 1"),
            vec![
                "1:10: `Bad` is not a query name: use snake_case letters, digits and `_` (it becomes a Rust function)"
            ]
        );
        assert_eq!(
            errors("-- name: a :all\nSELECT 1"),
            vec!["1:12: `:all` is not :many, :one, :opt, :value or :exec"]
        );
        assert_eq!(
            errors("-- name: a\nSELECT 1"),
            vec![concat!(
                "1:11: query `a` says nothing of what it returns: ",
                "write `-- name: NAME :many` (or :one, :opt, :value, :exec)"
            )]
        );
        assert_eq!(
            errors("-- name: a :one\n-- question: q\n"),
            vec!["1:1: query `a` has no text after its annotations"]
        );
        assert_eq!(
            errors("SELECT 1;\n-- name: a :one\nSELECT 2"),
            vec!["1:1: query text before the first `-- name:` line"]
        );
        assert_eq!(
            errors("-- name: a :one\nSELECT 1; SELECT 2"),
            vec!["2:11: text after the `;` of query `a`: start another query with `-- name: NAME :many`"]
        );
        assert_eq!(
            errors("-- name: a :one\nSELECT 1;\n-- name: a :many\nSELECT 2"),
            vec!["3:10: query `a` is defined twice (first at line 1)"]
        );
    }

    #[test]
    fn param_lines_declare_arguments_with_positions() {
        let q = parse("-- name: a :many\n-- param: $n, $status\nSELECT 1 LIMIT $n").unwrap();
        let names: Vec<(&str, usize, usize)> = q[0]
            .params
            .iter()
            .map(|p| (p.name.as_str(), p.line, p.column))
            .collect();
        assert_eq!(names, vec![("n", 2, 11), ("status", 2, 15)]);
        assert!(q[0].params.iter().all(|p| p.session.is_none()));
        assert_eq!(
            errors("-- name: a :many\n-- param: n, $n, $n\nSELECT 1"),
            vec![
                "2:11: `n` is not a parameter: write `-- param: $name, $other`",
                "2:18: `$n` is declared twice"
            ]
        );
    }

    #[test]
    fn a_param_bound_to_the_session_is_read_with_or_without_its_dollar() {
        let q = parse("-- name: a :many\n-- param: $n, customer = $auth.id\n-- param: $who = $auth\nSELECT 1 LIMIT $n")
            .unwrap();
        let got: Vec<(&str, Option<&str>, usize, usize)> = q[0]
            .params
            .iter()
            .map(|p| (p.name.as_str(), p.session.as_deref(), p.line, p.column))
            .collect();
        assert_eq!(
            got,
            vec![
                ("n", None, 2, 11),
                ("customer", Some("$auth.id"), 2, 15),
                ("who", Some("$auth"), 3, 11)
            ]
        );
        assert_eq!(
            errors("-- name: a :many\n-- param: customer = $auth.name\nSELECT 1"),
            vec![
                "2:22: `$auth.name` is not a session binding: a parameter is bound to the end user's session with `= $auth.id` (their record id)"
            ]
        );
        assert_eq!(
            errors("-- name: a :many\n-- param: 9x = $auth.id, $n, $n = $auth\nSELECT 1"),
            vec![
                "2:11: `9x` is not a parameter: write `-- param: customer = $auth.id`",
                "2:30: `$n` is declared twice"
            ]
        );
    }

    #[test]
    fn exec_names_a_statement_run_for_its_effect() {
        let q = parse("-- name: rename :exec\nUPDATE $id SET name = $name;\n").unwrap();
        assert_eq!(q[0].returns, Returns::Exec);
        assert_eq!(q[0].returns.name(), "exec");
        assert_eq!(q[0].text, "UPDATE $id SET name = $name");
    }

    #[test]
    fn a_semicolon_inside_a_block_does_not_end_the_query() {
        let q = parse("-- name: b :value\nRETURN { LET $x = 1; $x };\n").unwrap();
        assert_eq!(q[0].text, "RETURN { LET $x = 1; $x }");
    }
}
