//! What both generated files share: the error a generation fails with (`EmitError`), a template's error read out of Tera, and the `@generated` header's sources line.

use std::path::PathBuf;

/// Why `schema.surql` or `schema.rs` could not be generated.
#[derive(Debug)]
pub enum EmitError {
    /// The user's prompt template could not be read.
    Io(PathBuf, std::io::Error),
    /// A template failed to parse or render; the message names the template.
    Template(String),
    /// The agent's password could not be hashed.
    Password(String),
    /// The generated Rust would not compile: two helpers or modules would share a name.
    NameClash(String),
    /// `Builder::types_path` is not a Rust path.
    TypesPath(String),
    /// A setting names a table the schema does not have.
    UnknownTable(String),
}

impl std::fmt::Display for EmitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EmitError::Io(p, e) => {
                write!(f, "cannot read the prompt template {}: {e}", p.display())
            }
            EmitError::Template(m) => write!(f, "{m}"),
            EmitError::Password(m) => write!(f, "cannot hash the agent password: {m}"),
            EmitError::NameClash(m) | EmitError::TypesPath(m) | EmitError::UnknownTable(m) => {
                write!(f, "{m}")
            }
        }
    }
}

impl std::error::Error for EmitError {}

/// A Tera error as one line, naming the template.
pub(crate) fn template_error(name: &str, err: tera::Error) -> EmitError {
    // Tera keeps the useful part (line, column, what was expected) in the source chain.
    let mut message = format!("template {name}: {err}");
    let mut source = std::error::Error::source(&err);
    while let Some(s) = source {
        message.push_str(&format!(": {s}"));
        source = s.source();
    }
    EmitError::Template(message)
}

/// The file names of `paths`, for `@generated` headers: the output must not depend on where the project is checked out.
pub fn source_names(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
        })
        .collect()
}

/// Who a `@generated` header says the file comes from: the schema files' names, or the schema's
/// name when it was built from none (`schema.surql` and `schema.rs` say the same).
pub fn sources_line(schema_name: &str, file_names: &[String]) -> String {
    if file_names.is_empty() {
        schema_name.to_owned()
    } else {
        file_names.join(", ")
    }
}
