//! How a `surqlc` run ends: its exit status (`Exit`), one type for every subcommand: 0 done (clean, in sync, answered), 1 the input was read but a check failed or the work could not be done, 2 bad input; and the status a library `Failure` ends the run with.
//!
//! docs/cli.md documents these per subcommand; `cli/tests/cli.rs` holds every subcommand to them.

use surqlc::exit::Failure;

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

/// The exit status a library [`Failure`] ends the run with (`failure.exit()`).
pub trait FailureExit {
    /// `BadInput` is 2, `Failed` is 1.
    fn exit(&self) -> Exit;
}

impl FailureExit for Failure {
    fn exit(&self) -> Exit {
        match self {
            Failure::BadInput(_) => Exit::BadInput,
            Failure::Failed(_) => Exit::Failed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Exit, FailureExit};
    use surqlc::exit::Failure;

    #[test]
    fn the_documented_statuses() {
        assert_eq!([Exit::Ok, Exit::Failed, Exit::BadInput].map(Exit::code), [0, 1, 2]);
        assert_eq!(Failure::BadInput(String::new()).exit(), Exit::BadInput);
        assert_eq!(Failure::Failed(String::new()).exit(), Exit::Failed);
    }
}
