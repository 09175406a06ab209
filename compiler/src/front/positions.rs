//! Where each table and field was declared (file and line), for reports that point back at the source; kept beside the IR, never in it, so nothing generated changes.

use super::ast::Items;
use super::SourceFile;
use std::collections::HashMap;
use std::path::PathBuf;

/// A declaration's file (as given to the compiler) and 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub path: PathBuf,
    pub line: usize,
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.path.display(), self.line)
    }
}

/// The declarations' positions by table name and by (table, field) name, as the database names them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Positions {
    tables: HashMap<String, Position>,
    fields: HashMap<(String, String), Position>,
    views: HashMap<String, ViewSource>,
}

/// Where a view's `#[surqlc(view = "...")]` and its struct were written, so a problem the
/// validator finds in the SELECT (or a field that does not match it) points into the source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ViewSource {
    pub path: PathBuf,
    /// For each char of the view's text (trimmed, as the IR holds it): its 1-based line and column.
    pub chars: Vec<(usize, usize)>,
    /// Where the struct's name is, and each field's name (by database name): line and column.
    pub ident: (usize, usize),
    pub fields: Vec<(String, usize, usize)>,
    /// The source lines these positions are on, for the snippet.
    pub lines: HashMap<usize, String>,
}

impl ViewSource {
    /// A diagnostic at chars `start..end` of the view's text.
    pub fn at(&self, start: usize, end: usize, message: String) -> crate::diagnostic::Diagnostic {
        let (line, column) = self
            .chars
            .get(start)
            .or(self.chars.last())
            .copied()
            .unwrap_or(self.ident);
        let width = match self.chars.get(end.saturating_sub(1)) {
            Some((l, c)) if *l == line && *c >= column => c - column + 1,
            _ => 1,
        };
        self.diagnostic(line, column, width, message)
    }

    /// A diagnostic at the field `name` (database name), else at the struct.
    pub fn at_field(&self, name: Option<&str>, message: String) -> crate::diagnostic::Diagnostic {
        let found = name.and_then(|n| self.fields.iter().find(|(f, _, _)| f == n));
        let ((line, column), width) = match found {
            Some((f, l, c)) => ((*l, *c), f.chars().count()),
            None => (self.ident, 1),
        };
        self.diagnostic(line, column, width, message)
    }

    fn diagnostic(&self, line: usize, column: usize, width: usize, message: String) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic {
            path: self.path.clone(),
            line,
            column,
            message,
            snippet: self.lines.get(&line).map(|l| (l.clone(), width.max(1))),
            severity: crate::codes::Severity::Error,
        }
    }
}

impl Positions {
    /// Where the table's struct is declared.
    pub fn table(&self, table: &str) -> Option<&Position> {
        self.tables.get(table)
    }

    /// Where the field is declared; `key` may be an element (`tags.*`) or a sub-field
    /// (`address.city`), which point at the field that holds them.
    pub fn field(&self, table: &str, key: &str) -> Option<&Position> {
        let get = |name: &str| self.fields.get(&(table.to_owned(), name.to_owned()));
        get(key).or_else(|| get(key.split(['.', '[']).next().unwrap_or(key)))
    }

    /// Where the view `table` was written (`None`: not a view, or read by a derive).
    pub fn view(&self, table: &str) -> Option<&ViewSource> {
        self.views.get(table)
    }

    /// The positions of every table read from `files` (the index in `items` is the file's).
    pub(super) fn of(files: &[SourceFile], items: &Items) -> Positions {
        let mut out = Positions::default();
        for (file, table) in &items.tables {
            let Some(source) = files.get(*file) else {
                continue;
            };
            let at = |span: proc_macro2::Span| Position {
                path: source.path.clone(),
                line: span.start().line.max(1),
            };
            out.tables
                .entry(table.name.clone())
                .or_insert_with(|| at(table.ident.span()));
            for field in &table.fields {
                out.fields
                    .entry((table.name.clone(), field.name.clone()))
                    .or_insert_with(|| at(field.ident.span()));
            }
            if let Some(lit) = &table.view {
                out.views.insert(table.name.clone(), view_source(source, table, lit));
            }
        }
        out
    }
}

/// Where each char of a view's trimmed text, the struct and its fields are in `source`.
fn view_source(source: &SourceFile, table: &super::ast::TableAst, lit: &syn::LitStr) -> ViewSource {
    let value = lit.value();
    let lead = value[..value.len() - value.trim_start().len()].chars().count();
    let count = value.trim().chars().count();
    let place = |span: proc_macro2::Span| (span.start().line.max(1), span.start().column + 1);
    let chars: Vec<(usize, usize)> = (lead..lead + count)
        .map(|i| place(super::expr_check::value_subspan(lit, i, i + 1)))
        .collect();
    let fields = table
        .fields
        .iter()
        .map(|f| {
            let (l, c) = place(f.ident.span());
            (f.name.clone(), l, c)
        })
        .collect::<Vec<_>>();
    let ident = place(table.ident.span());
    let mut lines = HashMap::new();
    let wanted = chars
        .iter()
        .map(|(l, _)| *l)
        .chain(fields.iter().map(|(_, l, _)| *l))
        .chain([ident.0]);
    for line in wanted {
        lines
            .entry(line)
            .or_insert_with(|| source.text.lines().nth(line - 1).unwrap_or("").to_owned());
    }
    ViewSource {
        path: source.path.clone(),
        chars,
        ident,
        fields,
        lines,
    }
}
