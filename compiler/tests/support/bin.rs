//! The `surqlc` binary the CLI tests run: `SURQLC_TEST_BIN` if set (a copy of this branch's binary, for when several worktrees share one target directory and overwrite `debug/surqlc` under the run), else Cargo's.

use std::path::PathBuf;

pub fn surqlc_bin() -> PathBuf {
    std::env::var_os("SURQLC_TEST_BIN")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_surqlc")))
}
