//! Why a command's work failed (`Failure`): bad input or a failed check, its `error:` text written once; the command line (`surqlc-cli`'s `exit.rs`) turns it into the process's exit status, and the MCP server into a tool error.
//!
//! docs/cli.md documents the statuses per subcommand; `cli/tests/cli.rs` holds every subcommand to them.

/// Why a command failed, and so (in the command line) its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The input was wrong (a schema error, an unreadable file, a vector of the wrong length): exit status 2.
    BadInput(String),
    /// The input was read but a check failed (the database refused it, a budget was exceeded): exit status 1.
    Failed(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::BadInput(m) | Failure::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Failure {}

#[cfg(feature = "codegen")]
impl From<crate::codegen::builder::Error> for Failure {
    fn from(e: crate::codegen::builder::Error) -> Self {
        Failure::BadInput(e.to_string())
    }
}

/// A `map_err` for work that failed on read input: `error: {what}: {e}`, exit status 1.
pub fn failed<E: std::fmt::Display>(what: &str) -> impl Fn(E) -> Failure + '_ {
    move |e| Failure::Failed(format!("error: {what}: {e}"))
}

/// The text of a file the user named; unreadable is bad input.
pub fn read_input(path: &std::path::Path) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| Failure::BadInput(format!("error: cannot read {}: {e}", path.display())))
}
