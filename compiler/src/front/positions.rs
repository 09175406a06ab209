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
        }
        out
    }
}
