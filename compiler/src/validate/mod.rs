//! Checks a generated query against the schema before it runs: every table, field path, traversal and compared literal, with a repairable message.
//!
//! [`validate`] parses the reply with SurrealDB's own parser (`surrealdb-syn`), walks the AST
//! against an [`crate::ir::Schema`] and returns a [`Report`]: [`QueryDiagnostic`]s with a byte span in the
//! query, a [`Severity`], a [`Class`] and a message naming the fix, plus the type of every
//! projected expression. No database is needed; what needs the data (record ids that exist,
//! values present) is in `data` (feature `runtime`). Only the schema's exposed tables are
//! visible: a hidden table gets exactly the message of a table that does not exist.
//!
//! ```rust
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = std::env::temp_dir().join(format!("surqlc-doc-validate-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("shop.rs");
//! # std::fs::write(&path, "#[derive(Schema)]\n#[surqlc(expose(Customer))]\npub struct Shop;\n\n\
//! #     /// A person who buys from the shop.\n#[derive(Table)]\npub struct Customer {\n    \
//! #     /// Full name.\n    pub name: String,\n}\n")?;
//! // An application has the schema from its generated module (`schema::schema_ir()`); a build
//! // script or a test can read it from the schema file.
//! let schema = surqlc::Builder::new().schema(&path).load()?;
//!
//! let query = "SELECT name, email FROM customer LIMIT 5";
//! let report = surqlc::validate::validate(&schema, query);
//! assert!(report.has_errors());
//! assert_eq!(report.diagnostics[0].class.code(), "SQ0102"); // UnknownField: `email`
//! // One line per problem, with its position and fix: what goes back to the model.
//! println!("{}", report.render(query));
//!
//! assert!(!surqlc::validate::validate(&schema, "SELECT name FROM customer LIMIT 5").has_errors());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```

#[cfg(any(feature = "runtime", feature = "db"))]
pub mod data;
pub mod functions;
mod habits;
mod legacy;
pub mod params;
mod parse_error;
pub mod reply;
mod resolve;
mod suppress;
pub use suppress::apply_comments as apply_suppressions;
pub(crate) mod scan;
mod types;
pub mod walk;

pub use crate::codes::{Class, Engine, Severity};
pub use types::Ty;

use crate::ir::Schema;
use std::fmt;

/// A byte range in the query text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte (`start` for an empty span: an insertion point).
    pub end: usize,
}

impl Span {
    /// 1-based line and column (in chars) of the start in `text`.
    pub fn line_col(&self, text: &str) -> (usize, usize) {
        let start = self.start.min(text.len());
        let before = text.get(..start).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// The text the span covers, if it lies on char boundaries of `text`.
    pub fn text<'t>(&self, text: &'t str) -> &'t str {
        text.get(self.start..self.end).unwrap_or("")
    }
}

/// One problem in a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryDiagnostic {
    /// Where in the query (byte offsets into the text given to [`validate`]).
    pub span: Span,
    /// An error (the query is refused) or a warning (it runs).
    pub severity: Severity,
    /// The kind of mistake, with its stable code (`SQ0102`).
    pub class: Class,
    /// What is wrong.
    pub message: String,
    /// How to repair it.
    pub fix: String,
    /// Machine-applicable repairs, where the validator knows the right text (a did-you-mean, a
    /// missing LIMIT, `= NULL` as `= NONE`, ...): applied together, they give the repaired query.
    pub fixes: Vec<Edit>,
}

/// A replacement of part of the query: `span` (empty: an insertion) becomes `replacement`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Edit {
    /// The text replaced, in the query's byte offsets.
    pub span: Span,
    /// The new text.
    pub replacement: String,
}

/// `query` with `edits` applied (non-overlapping; the later ones first, so offsets hold).
pub fn apply_edits(query: &str, edits: &[&Edit]) -> String {
    let mut edits: Vec<&Edit> = edits.to_vec();
    edits.sort_by_key(|e| std::cmp::Reverse((e.span.start, e.span.end)));
    edits.dedup();
    let mut out = query.to_owned();
    let mut floor = usize::MAX;
    for e in edits {
        if e.span.end > floor || e.span.end > out.len() || !out.is_char_boundary(e.span.start) {
            continue;
        }
        out.replace_range(e.span.start..e.span.end, &e.replacement);
        floor = e.span.start;
    }
    out
}

impl QueryDiagnostic {
    /// A finding of `class` at the registry's level for it ([`Class::severity`]).
    pub fn new(span: Span, class: Class, message: String, fix: String) -> Self {
        QueryDiagnostic {
            span,
            severity: class.severity(),
            class,
            message,
            fix,
            fixes: Vec::new(),
        }
    }

    /// This diagnostic with a machine-applicable repair of `span`.
    pub fn replacing(mut self, span: Span, replacement: impl Into<String>) -> Self {
        self.fixes.push(Edit {
            span,
            replacement: replacement.into(),
        });
        self
    }
}

impl fmt::Display for QueryDiagnostic {
    /// `message; fix`, the text a model repairs from.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.fix.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}; {}", self.message, self.fix)
        }
    }
}

/// One projected expression of the top-level SELECT and its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Projection {
    /// The output key: the alias, the engine's key path for a field path (`images.url` for
    /// `images[0].url`: the row nests there), or the expression as written (`*` for all fields,
    /// `VALUE` for `SELECT VALUE`).
    pub name: String,
    /// The type of the value under that key.
    pub ty: Ty,
}

/// A record id written in the query: `table:key`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordRef {
    /// The table part (`customer`).
    pub table: String,
    /// The id as SurrealQL, `customer:alice`.
    pub id: String,
    /// Where it is written in the query.
    pub span: Span,
}

/// A string literal compared with a declared field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compared {
    /// The table of the field.
    pub table: String,
    /// The field's path in that table.
    pub field: String,
    /// The literal's value, unquoted.
    pub value: String,
    /// Where the literal is written in the query.
    pub span: Span,
}

/// What the validator found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Errors first, then warnings, each in text order.
    pub diagnostics: Vec<QueryDiagnostic>,
    /// The top-level SELECT's projections and their types (empty when the query does not resolve).
    pub projections: Vec<Projection>,
    /// The type of the whole result (an array of rows, or one row with `ONLY`).
    pub result: Option<Ty>,
    /// `-- cannot answer: <reason>`: the model's refusal, not an error.
    pub cannot_answer: Option<String>,
    /// Record ids written in the query, for the data checks.
    pub records: Vec<RecordRef>,
    /// String literals compared with declared fields, for the data checks.
    pub compared: Vec<Compared>,
    /// Whether the top-level SELECT has no LIMIT (the runner may add one).
    pub missing_limit: bool,
    /// Each typed use of a `$param` (compared with a field, LIMIT/START, a cast), for named queries.
    pub params: Vec<params::ParamUse>,
    /// The application's profile: the `$names` the query reads as its own parameters (what a
    /// caller binds), in order of first use; never the engine's (`$this` in a row, ...).
    pub query_params: Vec<String>,
    /// The application's profile: the `$names` read where the engine sets them (`$this` in a row,
    /// `$parent` in a subquery, `$before`/`$after` in a write's RETURN, the session's `$auth`).
    pub engine_params: Vec<String>,
}

impl Report {
    /// The diagnostics that refuse the query.
    pub fn errors(&self) -> impl Iterator<Item = &QueryDiagnostic> {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Error)
    }

    /// The diagnostics that let the query run.
    pub fn warnings(&self) -> impl Iterator<Item = &QueryDiagnostic> {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Warning)
    }

    /// Whether the query is refused: some diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.errors().next().is_some()
    }

    /// Whether some diagnostic has this class.
    pub fn has(&self, class: Class) -> bool {
        self.diagnostics.iter().any(|d| d.class == class)
    }

    /// Applies the schema's lint levels: `allow`ed codes dropped, `warn` made warnings, `deny`
    /// made errors (the front end refused levels an error class may not take).
    pub fn apply_lints(&mut self, lints: &crate::ir::Lints) {
        if lints.is_empty() {
            return;
        }
        let listed = |list: &[String], c: Class| list.iter().any(|code| code.eq_ignore_ascii_case(c.code()));
        self.diagnostics
            .retain(|d| !(listed(&lints.allow, d.class) && (d.class.may_warn() || d.severity == Severity::Warning)));
        for d in &mut self.diagnostics {
            if listed(&lints.deny, d.class) {
                d.severity = Severity::Error;
            } else if listed(&lints.warn, d.class) && (d.class.may_warn() || d.severity == Severity::Warning) {
                d.severity = Severity::Warning;
            }
        }
        self.finish();
    }

    /// Sorts errors before warnings, each in text order, and drops exact duplicates.
    pub(crate) fn finish(&mut self) {
        self.diagnostics.sort_by_key(|d| (d.severity, d.span.start, d.span.end));
        self.diagnostics.dedup();
    }

    /// The diagnostics as text for the model: one per line, `error[Class] line:col `text`: message; fix`.
    pub fn render(&self, query: &str) -> String {
        let mut out = String::new();
        for d in &self.diagnostics {
            out.push_str(&render_one(d, query));
            out.push('\n');
        }
        out
    }

    /// The report as JSON (diagnostics with spans and line/column, projections with types).
    pub fn to_json(&self, query: &str) -> serde_json::Value {
        let diagnostics: Vec<serde_json::Value> = self
            .diagnostics
            .iter()
            .map(|d| {
                let (line, column) = d.span.line_col(query);
                serde_json::json!({
                    "severity": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
                    "code": d.class.code(),
                    "class": d.class.name(),
                    "start": d.span.start,
                    "end": d.span.end,
                    "line": line,
                    "column": column,
                    "text": d.span.text(query),
                    "message": d.message,
                    "fix": d.fix,
                    "fixes": d.fixes.iter().map(|e| {
                        let (line, column) = e.span.line_col(query);
                        let end = Span { start: e.span.end, end: e.span.end };
                        let (end_line, end_column) = end.line_col(query);
                        serde_json::json!({
                            "span": {"line": line, "column": column, "end_line": end_line, "end_column": end_column},
                            "replacement": e.replacement,
                        })
                    }).collect::<Vec<_>>(),
                })
            })
            .collect();
        let projections: Vec<serde_json::Value> = self
            .projections
            .iter()
            .map(|p| serde_json::json!({"name": p.name, "type": p.ty.to_string()}))
            .collect();
        serde_json::json!({
            "diagnostics": diagnostics,
            "projections": projections,
            "result": self.result.as_ref().map(|t| t.to_string()),
            "cannot_answer": self.cannot_answer,
        })
    }
}

/// `error[UnknownField] 1:14 `email`: customer has no field `email`; its fields are ...`.
pub fn render_one(d: &QueryDiagnostic, query: &str) -> String {
    let (line, col) = d.span.line_col(query);
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let text = d.span.text(query);
    let mut out = if text.is_empty() || text.len() > 80 || text.contains('\n') {
        format!("{severity}[{} {}] {line}:{col}: {d}", d.class.code(), d.class)
    } else {
        format!("{severity}[{} {}] {line}:{col} `{text}`: {d}", d.class.code(), d.class)
    };
    for e in &d.fixes {
        let old = e.span.text(query);
        if old.is_empty() {
            out.push_str(&format!("\n  help: insert `{}`", e.replacement.trim()));
        } else {
            out.push_str(&format!("\n  help: replace `{old}` with `{}`", e.replacement));
        }
    }
    out
}

/// Whose statements are judged: the agent's (what a model writes for the agent to run) or the
/// application's own (what its code runs against the same schema).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// The agent's rules: one SELECT, only exposed tables and visible fields, the row policy (LIMIT).
    #[default]
    Agent,
    /// The application's own statements: the whole schema (every table, hidden fields too), every
    /// statement kind (writes, LET, RETURN, IF, FOR, transactions, several statements), no row
    /// policy; only what the engine refuses or answers wrongly is reported.
    App,
}

impl Profile {
    /// `agent` or `app`: the spelling of `check-query --profile`.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Agent => "agent",
            Profile::App => "app",
        }
    }

    /// The profile `name` spells (`agent`, `app`).
    pub fn from_name(name: &str) -> Option<Profile> {
        [Profile::Agent, Profile::App].into_iter().find(|p| p.name() == name)
    }
}

/// What [`validate_with`] checks beyond the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The most rows the top-level SELECT may ask for; `None` skips the LIMIT check.
    pub max_rows: Option<u32>,
    /// Whether the caller adds `LIMIT max_rows` to a query without one (the agent's runner does):
    /// then a missing LIMIT is a warning saying so, else an error.
    pub adds_limit: bool,
    /// The end-user table when the query runs in one end user's session (the per-user agent,
    /// `scope(end_user = T)`): `$auth` is then that user's record, and what would measure other
    /// users' rows (EXPLAIN, search scores, KNN distances over owned tables) is refused
    /// ([`Class::SideChannel`]). `None`: the team's agent, for which `$auth` is an error.
    pub end_user: Option<String>,
    /// Whose statements these are: the agent's (one SELECT over what the prompt shows) or the
    /// application's own (every statement kind over the whole schema).
    pub profile: Profile,
}

impl Options {
    /// The agent's verdict, one for every surface that judges an agent's query (`surqlc
    /// check-query`, MCP's `check_query` and `run_query`, `ask`, the generated module's `validate`):
    /// the schema's `max_rows`, a larger LIMIT an error, a missing LIMIT a warning, since the
    /// runner adds `LIMIT max_rows` to a query without one. A CI check thus refuses exactly what
    /// the agent's runner refuses.
    pub fn of(schema: &Schema) -> Self {
        Options {
            max_rows: Some(schema.settings.max_rows),
            adds_limit: true,
            end_user: None,
            profile: Profile::Agent,
        }
    }

    /// The agent's verdict ([`Options::of`]) for a query that runs in an end user's session when
    /// `end_user` (a session of the per-user agent: [`Options::in_end_user_session`]), else for
    /// the team's agent: what the runner, MCP's `check_query` and `check-query --as` each ask.
    pub fn for_session(schema: &Schema, end_user: bool) -> Self {
        let options = Options::of(schema);
        if end_user {
            options.in_end_user_session(schema)
        } else {
            options
        }
    }

    /// These options for a query that runs in an end user's session of `schema`'s per-user
    /// agent (its `scope(end_user = T)`); unchanged when the schema declares no scope.
    pub fn in_end_user_session(mut self, schema: &Schema) -> Self {
        self.end_user = schema.settings.scope.as_ref().map(|s| s.end_user.clone());
        self
    }

    /// The application's profile ([`Profile::App`]): the application's own statements, reads and
    /// writes, checked against the whole schema with no row policy (`check-query --profile app`,
    /// named queries).
    pub fn for_app() -> Self {
        Options {
            max_rows: None,
            adds_limit: false,
            end_user: None,
            profile: Profile::App,
        }
    }

    /// The application's own named queries (`-- name:` files): the application's profile
    /// ([`Options::for_app`]), so `LIMIT $n`, a query without LIMIT, writes and every table are
    /// theirs to choose.
    pub fn for_named_queries() -> Self {
        Options::for_app()
    }

    /// Stricter than the agent's verdict: a missing LIMIT is an error (for a caller that runs
    /// the query as written, without the runner's LIMIT).
    pub fn requiring_limit(schema: &Schema) -> Self {
        Options {
            adds_limit: false,
            ..Options::of(schema)
        }
    }
}

/// Checks `query` (a model's reply: one SELECT, maybe fenced, or `-- cannot answer: ...`) against `schema`: the agent's verdict ([`Options::of`]).
pub fn validate(schema: &Schema, query: &str) -> Report {
    validate_with(schema, query, &Options::of(schema))
}

/// [`validate`] with explicit [`Options`].
pub fn validate_with(schema: &Schema, query: &str, options: &Options) -> Report {
    validate_reply(schema, &reply::read(query), options)
}

/// [`validate_with`] on a reply already [`read`](reply::read): the runner validates and then runs
/// the same parsed statement.
pub fn validate_reply(schema: &Schema, reply: &reply::Reply<'_>, options: &Options) -> Report {
    let mut report = Report::default();
    let (body, base) = (reply.body, reply.base);
    let mut locator = scan::Locator::new(body, base);
    match &reply.read {
        reply::Read::CannotAnswer(reason) => {
            report.cannot_answer = Some(reason.clone());
            return report;
        }
        // A query written for SurrealDB 2: its spellings, and the respelled query checked.
        reply::Read::Unparsed(_) if legacy::check(schema, options, body, base, &mut report) => {}
        reply::Read::Unparsed(text) => {
            let habits = habits::in_tokens(&locator, schema);
            if habits.is_empty() {
                report.diagnostics.push(parse_error::diagnose(
                    text,
                    body,
                    base,
                    &locator,
                    options.profile == Profile::App,
                ));
            } else {
                report.diagnostics.extend(habits);
            }
        }
        reply::Read::Parsed(ast) => {
            let quiet_nulls = resolve::statement(schema, options, ast, &mut locator, &mut report);
            // Habits that parse (they read as something else) are reported too.
            report
                .diagnostics
                .extend(habits::silent(&locator, schema, &quiet_nulls));
        }
    }
    suppress::apply(body, base, &mut report);
    report.finish();
    report.apply_lints(&schema.settings.lints);
    report
}

/// `'a' | 'b'`: literal values as the messages quote them.
pub(crate) fn quoted_values(values: &[String]) -> String {
    values
        .iter()
        .map(|v| format!("'{}'", v.replace('\\', "\\\\").replace('\'', "\\'")))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// One query of a file of examples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The query text (comment lines before it included).
    pub text: String,
    /// Byte offset of `text` in the file.
    pub offset: usize,
    /// 1-based line of `text` in the file.
    pub line: usize,
}

/// Splits a file of example queries at blank lines (and at `;` when `on_semicolon`), never inside a string.
///
/// A part holding only comments is dropped, except a `-- cannot answer: ...` line, which is a reply of its own.
pub fn split_queries(text: &str, on_semicolon: bool) -> Vec<Piece> {
    let tokens = scan::tokens(text);
    let inside_token = |at: usize| tokens.iter().any(|t| t.start < at && at < t.end);
    // Segments between blank lines that are not inside a string.
    let mut segments: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let end = offset + line.len();
        if line.trim().is_empty() && !inside_token(offset) {
            if start < offset {
                segments.push((start, offset));
            }
            start = end;
        }
        offset = end;
    }
    if start < text.len() {
        segments.push((start, text.len()));
    }
    let mut pieces = Vec::new();
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let push = |from: usize, to: usize, pieces: &mut Vec<Piece>| {
        let piece = &text[from..to];
        let has_code = tokens
            .iter()
            .any(|t| t.start >= from && t.end <= to && !t.is_punct(";"));
        if has_code {
            pieces.push(Piece {
                text: piece.trim_end().to_owned(),
                offset: from,
                line: line_of(from),
            });
        } else if let Some(pos) = piece.find("-- cannot answer") {
            let line = piece[pos..].lines().next().unwrap_or("");
            pieces.push(Piece {
                text: line.to_owned(),
                offset: from + pos,
                line: line_of(from + pos),
            });
        }
    };
    for (from, to) in segments {
        if !on_semicolon {
            push(from, to, &mut pieces);
            continue;
        }
        let mut piece_start = from;
        for t in tokens
            .iter()
            .filter(|t| t.start >= from && t.end <= to && t.is_punct(";"))
        {
            push(piece_start, t.end, &mut pieces);
            piece_start = t.end;
        }
        if piece_start < to {
            push(piece_start, to, &mut pieces);
        }
    }
    pieces
}

/// Splits a file of the application's statements as the engine reads them: at each `;` outside
/// brackets, parentheses and braces (a `FOR`, `IF` or block body stays whole) and outside a
/// `BEGIN ... COMMIT`/`CANCEL` transaction (checked as one piece), never inside a string or a
/// comment; and at a blank line after a statement without its `;` when a statement's first
/// word follows. A piece keeps the comment lines before it (its `-- surqlc: allow(...)`).
pub fn split_statements(text: &str) -> Vec<Piece> {
    let tokens = scan::tokens(text);
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let mut pieces = Vec::new();
    let (mut depth, mut in_transaction, mut at_start, mut start) = (0usize, false, true, 0usize);
    let mut has_code = false;
    let mut prev: Option<&crate::surql::scan::Token> = None;
    let mut ifs = IfThen::default();
    for (i, t) in tokens.iter().enumerate() {
        // A blank line ends a statement written without its `;` (a query string copied from
        // code) where the next line starts another statement: the engine would read the two as
        // one and fail, and the second would never be checked.
        if depth == 0 && !in_transaction && has_code && !continues_statement(t) {
            let ends = |p: &&crate::surql::scan::Token| {
                !p.is_punct(";")
                    && has_blank_line(&text[p.end..t.start])
                    // An expression that starts a statement (`count(...)`, `$x`, `fn::f()`): the
                    // text before must be a whole statement on its own.
                    // `RETURN` is also a write's clause.
                    && !(t.is_word("return") && is_write(&text[start..p.end]))
                    && (starts_statement(t) || surrealdb_syn::parse(&text[start..p.end]).is_ok())
            };
            if let Some(p) = prev.filter(ends) {
                pieces.push(Piece {
                    text: text[start..p.end].trim_end().to_owned(),
                    offset: start,
                    line: line_of(start),
                });
                start = p.end;
                has_code = false;
            }
        }
        let after_else = prev.is_some_and(|p| p.is_word("else"));
        prev = Some(t);
        if ifs.opens(t, after_else, &tokens[i + 1..]) {
            depth += 1;
        } else if ifs.closes(t) {
            depth = depth.saturating_sub(1);
        } else if t.is_punct("{") || t.is_punct("(") || t.is_punct("[") {
            depth += 1;
        } else if t.is_punct("}") || t.is_punct(")") || t.is_punct("]") {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && at_start && t.is_word("begin") {
            in_transaction = true;
        } else if depth == 0 && at_start && (t.is_word("commit") || t.is_word("cancel")) {
            in_transaction = false;
        }
        let ends = depth == 0 && t.is_punct(";");
        at_start = ends;
        has_code |= !ends;
        if ends && !in_transaction {
            if has_code {
                let piece = text[start..t.end].trim_end();
                pieces.push(Piece {
                    text: piece.to_owned(),
                    offset: start,
                    line: line_of(start),
                });
            }
            start = t.end;
            has_code = false;
        }
    }
    if has_code {
        pieces.push(Piece {
            text: text[start..].trim_end().to_owned(),
            offset: start,
            line: line_of(start),
        });
    }
    // A piece starts after the previous `;`: its leading blank lines are not its own.
    for p in &mut pieces {
        let lead = p.text.len() - p.text.trim_start().len();
        let newlines = p.text[..lead].matches('\n').count();
        p.offset += lead;
        p.line += newlines;
        p.text = p.text[lead..].to_owned();
    }
    pieces
}

/// The `IF cond THEN ... END` form's nesting: its branches may hold statements with their `;`
/// (`IF $n = 0 THEN CREATE t SET a = 1; END;`), so a `THEN` opens a level until its `END`, as a
/// brace does. An `ELSE IF` shares its chain's one `END`; `IF NOT EXISTS` and `IF cond { ... }`
/// open nothing.
#[derive(Default)]
struct IfThen {
    /// One per `IF` read: whether its `THEN` was (false: still in its condition).
    open: Vec<bool>,
}

impl IfThen {
    /// Whether `t` opens a level: the `THEN` of an `IF` in its condition. Notes an `IF` as it goes.
    fn opens(&mut self, t: &crate::surql::scan::Token, after_else: bool, rest: &[crate::surql::scan::Token]) -> bool {
        if t.is_word("if") && !after_else {
            let if_not_exists =
                rest.first().is_some_and(|n| n.is_word("not")) && rest.get(1).is_some_and(|n| n.is_word("exists"));
            if !if_not_exists {
                self.open.push(false);
            }
        } else if self.open.last() == Some(&false) {
            if t.is_word("then") {
                *self.open.last_mut().expect("checked") = true;
                return true;
            }
            if t.is_punct("{") || t.is_punct(";") {
                // The block form: its braces nest as braces do.
                self.open.pop();
            }
        }
        false
    }

    /// Whether `t` closes a level: the `END` of an open `THEN`.
    fn closes(&mut self, t: &crate::surql::scan::Token) -> bool {
        if t.is_word("end") && self.open.last() == Some(&true) {
            self.open.pop();
            return true;
        }
        false
    }
}

/// The words a statement starts with (SurrealQL 3's statements).
const STATEMENT_WORDS: &[&str] = &[
    "select", "create", "update", "upsert", "delete", "insert", "relate", "let", "return", "if", "for", "define",
    "remove", "alter", "begin", "info", "live", "kill", "use", "throw", "sleep", "rebuild", "show", "explain",
];

fn starts_statement(t: &crate::surql::scan::Token) -> bool {
    STATEMENT_WORDS.iter().any(|w| t.is_word(w))
}

/// The words that go on a statement already begun (its clauses and operators): a blank line before
/// one is layout, never the end of a statement.
const CLAUSE_WORDS: &[&str] = &[
    "from",
    "where",
    "group",
    "order",
    "limit",
    "start",
    "fetch",
    "split",
    "omit",
    "with",
    "timeout",
    "parallel",
    "set",
    "content",
    "merge",
    "patch",
    "replace",
    "unset",
    "on",
    "and",
    "or",
    "then",
    "else",
    "end",
    "by",
    "asc",
    "desc",
    "collate",
    "numeric",
    "tempfiles",
    "version",
    "into",
    "values",
    "only",
    "is",
    "not",
    "in",
    "contains",
];

/// Whether the statement `text` is a write (which takes a `RETURN` clause).
fn is_write(text: &str) -> bool {
    let lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("--"));
    let first = lines.flat_map(str::split_whitespace).next().unwrap_or_default();
    ["create", "update", "upsert", "delete", "relate", "insert"]
        .iter()
        .any(|w| first.eq_ignore_ascii_case(w))
}

fn continues_statement(t: &crate::surql::scan::Token) -> bool {
    CLAUSE_WORDS.iter().any(|w| t.is_word(w))
        || [
            ".", ",", "=", "+", "-", "*", "/", ")", "]", "}", "->", "<-", "<", ">", "!", "?", "&&", "||",
        ]
        .iter()
        .any(|p| t.is_punct(p))
}

/// Whether the text between two tokens holds an empty line (comments aside).
fn has_blank_line(gap: &str) -> bool {
    let mut lines = gap.split('\n');
    lines.next();
    let mut inner: Vec<&str> = lines.collect();
    inner.pop();
    inner.iter().any(|l| l.trim().is_empty())
}
