//! Errors in a user's schema, pinned to file, line and column and printed the way rustc prints them.
//!
//! ```rust
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = std::env::temp_dir().join(format!("surqlc-doc-diagnostic-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("shop.rs");
//! // `expose` names a table the file does not declare.
//! std::fs::write(&path, "#[derive(Schema)]\n#[surqlc(expose(Custmer))]\npub struct Shop;\n\n\
//!     #[derive(Table)]\npub struct Customer {\n    pub name: String,\n}\n")?;
//! match surqlc::Builder::new().schema(&path).load() {
//!     Err(surqlc::Error::Schema(diagnostics)) => {
//!         let first = &diagnostics.0[0];
//!         assert_eq!((first.line, first.severity), (2, surqlc::diagnostic::Severity::Error));
//!         eprintln!("{diagnostics}"); // error: ..., then `--> shop.rs:2:...` and the line, underlined
//!     }
//!     other => panic!("expected the schema's diagnostics, got {other:?}"),
//! }
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```

pub use crate::codes::Severity;
use std::fmt;
use std::path::{Path, PathBuf};

/// One problem in a schema file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The schema file the problem is in.
    pub path: PathBuf,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    /// What is wrong, and how to fix it when there is a fix to name.
    pub message: String,
    /// The offending source line and how many characters to underline, when known.
    pub snippet: Option<(String, usize)>,
    /// An error, or a lint (printed as `warning:`): the same [`Severity`] as a query's findings.
    pub severity: Severity,
}

impl Diagnostic {
    /// A diagnostic for `err` (whose spans come from parsing `source`), one per message it carries.
    pub fn from_syn(path: &Path, source: &str, err: syn::Error) -> Vec<Diagnostic> {
        err.into_iter()
            .map(|e| {
                let span = e.span();
                let (start, end) = (span.start(), span.end());
                let text = source.lines().nth(start.line.saturating_sub(1)).map(str::to_owned);
                let width = if end.line == start.line {
                    end.column.saturating_sub(start.column).max(1)
                } else {
                    1
                };
                Diagnostic {
                    path: path.to_owned(),
                    line: start.line.max(1),
                    column: start.column + 1,
                    message: e.to_string(),
                    snippet: text.map(|t| (t, width)),
                    severity: Severity::Error,
                }
            })
            .collect()
    }

    /// A problem with the file as a whole (unreadable, empty of tables); `line` and `column` are 0.
    pub fn whole_file(path: &Path, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            path: path.to_owned(),
            line: 0,
            column: 0,
            message: message.into(),
            snippet: None,
            severity: Severity::Error,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        writeln!(f, "{level}: {}", self.message)?;
        if self.line == 0 {
            // About the file as a whole: no position to give.
            return write!(f, "  --> {}", self.path.display());
        }
        write!(f, "  --> {}:{}:{}", self.path.display(), self.line, self.column)?;
        if let Some((line, width)) = &self.snippet {
            let gutter = self.line.to_string().len();
            let pad = line
                .chars()
                .take(self.column - 1)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect::<String>();
            write!(
                f,
                "\n{:gutter$} |\n{} | {}\n{:gutter$} | {}{}",
                "",
                self.line,
                line,
                "",
                pad,
                "^".repeat(*width)
            )?;
        }
        Ok(())
    }
}

/// Every problem found in one run, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n\n")?;
            }
            write!(f, "{d}")?;
        }
        if self.0.len() > 1 {
            write!(
                f,
                "\n\nerror: could not compile the schema due to {} previous errors",
                self.0.len()
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
