//! How a command ends: its exit status (`Exit`), one type for every subcommand: 0 done (clean, in sync, answered), 1 the input was read but a check failed or the work could not be done, 2 bad input; and why it failed (`Failure`), which says which.
//!
//! README.md documents these per subcommand; `compiler/tests/cli.rs` holds every subcommand to them.

/// How a `surqlc` run ends. Clap's own usage errors exit with 2 as well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// The command did its work and found nothing wrong (warnings allowed).
    Ok = 0,
    /// The input was read, but a check failed (an invalid query, drift, a budget exceeded, no
    /// valid answer) or the database or model refused the work.
    Failed = 1,
    /// The input was wrong: a schema error, an unreadable file, a bad argument.
    BadInput = 2,
}

impl Exit {
    /// The status as the process reports it.
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit.code())
    }
}

/// Why a command failed, and so its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The input was wrong (a schema error, an unreadable file, a vector of the wrong length): exit status 2.
    BadInput(String),
    /// The input was read but a check failed (the database refused it, a budget was exceeded): exit status 1.
    Failed(String),
}

impl Failure {
    pub fn exit(&self) -> Exit {
        match self {
            Failure::BadInput(_) => Exit::BadInput,
            Failure::Failed(_) => Exit::Failed,
        }
    }
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
    std::fs::read_to_string(path)
        .map_err(|e| Failure::BadInput(format!("error: cannot read {}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::Exit;

    #[test]
    fn the_documented_statuses() {
        assert_eq!(
            [Exit::Ok, Exit::Failed, Exit::BadInput].map(Exit::code),
            [0, 1, 2]
        );
    }
}
