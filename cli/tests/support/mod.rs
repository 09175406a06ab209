//! What every CLI test shares: the repository root, the binary under test and the one way to run it (from the root, with none of the caller's `SURQLC_*`/`OPENAI_*` configuration), and the workspace's model stand-in and `surreal` server (`test-support/`).

#![allow(dead_code, unused_imports)]

pub mod mcp_client;

use std::path::PathBuf;
use std::process::{Command, Output};
pub use surqlc_test_support::model_standin::{Reply, StandIn};
pub use surqlc_test_support::surreal::SurrealServer;
pub use surqlc_test_support::{root, unconfigured};

/// The `surqlc` binary under test: `SURQLC_TEST_BIN` if set (a copy of this branch's binary, for
/// when several worktrees share one target directory and overwrite `debug/surqlc` under the run),
/// else Cargo's.
pub fn surqlc_bin() -> PathBuf {
    std::env::var_os("SURQLC_TEST_BIN")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_surqlc")))
}

/// `surqlc`, run from the repository root with no password, model or token configured: a test
/// adds its arguments and sets what it needs. `tokio::process::Command::from` makes it async.
pub fn surqlc() -> Command {
    let mut command = Command::new(surqlc_bin());
    command.current_dir(root());
    unconfigured(&mut command);
    command
}

/// A stand-in model that answers the n-th request with `replies[n]` (the last after that); its API base.
pub fn model(replies: Vec<Reply>) -> String {
    StandIn::replies(replies).url
}

/// A run's stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A run's stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The run ended with exit status `code`; else its stdout and stderr are the failure's message.
pub fn assert_status(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "status\nstdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}
