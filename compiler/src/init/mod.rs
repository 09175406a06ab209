//! `surqlc init`: an existing SurrealDB schema (`.surql` files, a `surreal export` dump, or a live database's `INFO`) written as the annotated Rust schema file surqlc compiles, with everything the grammar cannot say listed.
//!
//! Behind `codegen` + `surql-parser`. The pipeline is one way: `respell` (SurrealDB 2's spellings
//! that 3.3's parser refuses) → `read` (SurrealDB's own parser; the only file that sees its AST)
//! → `own` (the definitions surqlc itself writes into `schema.surql`, skipped) → `model` (tables
//! with their field trees, indexes, analyzers, functions) → `views` (feature `validate`: a view
//! without fields gets its SELECT's columns, typed by the validator) → `types` (each field's Rust type, and
//! the Literal, Ends and Object items it needs, named in Rust style) → `write` (the Rust source,
//! formatted by prettyplease, and the functions file). `live` (feature `db`) reads a database's
//! `INFO FOR DB`/`INFO FOR TABLE` into the same statements. Nothing is dropped in silence: each
//! statement or clause the grammar cannot say is a `Note` in `Init::left_out`, with its
//! source line, and each choice `init` had to make is one in `Init::choices`.

mod model;
mod own;
mod read;
mod respell;
mod types;
#[cfg(feature = "validate")]
mod views;
mod write;

#[cfg(feature = "db")]
pub mod live;

/// One source of definitions: a name for notes (a file path, or the endpoint) and its SurrealQL.
#[derive(Debug, Clone)]
pub struct Source {
    /// What notes call it (`schema.surql`, `ws://localhost:8000`).
    pub name: String,
    /// `DEFINE ...;` statements (and a dump's data statements, which are skipped).
    pub text: String,
}

/// What to call what `init` writes.
#[derive(Debug, Clone)]
pub struct Options {
    /// The `#[derive(Schema)]` struct's name (Rust style, e.g. `Shop`).
    pub schema_type: String,
    /// The functions file the Schema item names (`functions = "..."`), relative to the schema file.
    pub functions_file: String,
    /// How the sources are named in the file's header (`from shop.surql`).
    pub from: String,
}

/// A definition, a clause or a choice, at its source line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// `FILE:LINE`.
    pub at: String,
    /// What it is: the statement's first line, or a field's path.
    pub what: String,
    /// Why it was left out, or what was chosen and why.
    pub why: String,
}

impl Note {
    pub(crate) fn new(at: impl Into<String>, what: impl Into<String>, why: impl Into<String>) -> Note {
        Note {
            at: at.into(),
            what: what.into(),
            why: why.into(),
        }
    }
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.at, self.what, self.why)
    }
}

/// The notes a run collects.
#[derive(Debug, Clone, Default)]
pub(crate) struct Notes {
    pub left_out: Vec<Note>,
    pub choices: Vec<Note>,
    pub own: usize,
    /// Settings of a schema surqlc built, recovered from its own definitions (`examples(...)`).
    pub settings: Vec<String>,
}

/// Input `init` cannot read (a statement SurrealDB's parser refuses), with its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitError(pub String);

impl std::fmt::Display for InitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InitError {}

/// What `init` wrote and what it could not carry over.
#[derive(Debug, Clone)]
pub struct Init {
    /// The annotated Rust schema file, formatted, its header listing the notes.
    pub rust: String,
    /// The functions file's text, when the source defines functions of its own.
    pub functions: Option<String>,
    /// What the grammar cannot say, each with its source line: not in the file.
    pub left_out: Vec<Note>,
    /// What `init` chose where the source left a choice (a field typed `any`, an untyped array).
    pub choices: Vec<Note>,
    /// How many of surqlc's own definitions (its prompt functions, few-shot pool, agent) were
    /// recognised and skipped: `surqlc build` writes them again.
    pub own: usize,
    /// The tables the file declares, by their database names.
    pub table_names: Vec<String>,
    /// The analyzers the file declares.
    pub analyzer_names: Vec<String>,
}

/// The Rust schema file for the definitions in `sources`.
pub fn init(sources: &[Source], options: &Options) -> Result<Init, InitError> {
    let mut notes = Notes::default();
    let mut statements = Vec::new();
    for source in sources {
        statements.extend(read::statements(&source.name, &source.text, &mut notes)?);
    }
    let statements = own::skip_own(statements, &mut notes);
    let model = model::build(statements, &mut notes)?;
    #[cfg(feature = "validate")]
    let model = views::with_columns(model, &mut notes);
    let items = types::settle(&model, options, &mut notes);
    let kept = write::kept_none(&model, &items);
    if !kept.is_empty() {
        let why = "no PERMISSIONS in the source (NONE for record users), written `permissions(select = none)`: \
                   this schema's other permissions sign surqlc's agent in through record access, under which an \
                   exposed table without them is granted `FOR select FULL`; grant the agent select to let it read them";
        notes.choices.push(Note::new(
            options.from.clone(),
            format!(
                "{} {}",
                if kept.len() == 1 { "table" } else { "tables" },
                kept.join(", ")
            ),
            why,
        ));
    }
    let rust = write::rust(&model, &items, options, &notes)?;
    let functions = write::functions(&model, options);
    Ok(Init {
        rust,
        functions,
        left_out: notes.left_out,
        choices: notes.choices,
        own: notes.own,
        table_names: model
            .tables
            .iter()
            .zip(&items.tables)
            .filter(|(_, item)| item.is_some())
            .map(|(t, _)| t.def.name.clone())
            .collect(),
        analyzer_names: model.analyzers.iter().map(|a| a.name.clone()).collect(),
    })
}

/// The Schema struct's name for an output file (`shop.rs` → `Shop`, `my-db.rs` → `MyDb`).
pub fn schema_type_for(file_stem: &str) -> String {
    let name = heck::AsUpperCamelCase(file_stem).to_string();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("Schema{name}")
    } else {
        name
    }
}

#[cfg(test)]
mod tests;

/// `text` cut to one readable line.
fn short(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    if line.chars().count() > 100 {
        format!("{}...", line.chars().take(97).collect::<String>())
    } else {
        line.to_owned()
    }
}

/// The 1-based line and column of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
