//! What the workspace's tests share across its crates (the `tests` crate, the compiler's integration tests, `examples/store-agent`): the repository root, one way to run a child without the caller's surqlc configuration, the local model stand-in, an identity-provider stand-in (JWKS and JWTs), an OAuth authorization-server stand-in and a `surreal start` server.

pub mod idp;
pub mod model_standin;
pub mod oauth;
pub mod surreal;

use std::path::PathBuf;
use std::process::Command;

/// The repository root (this crate's parent directory).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("test-support/ has a parent")
        .to_owned()
}

/// Removes from `command`'s environment every `SURQLC_*` and `OPENAI_*` variable the test inherited
/// (the agent's password, the model's URL, name, key and timeout, the MCP token, the root password),
/// so the child runs unconfigured: a test sets what it needs afterwards.
pub fn unconfigured(command: &mut Command) -> &mut Command {
    for (name, _) in std::env::vars_os() {
        let ours = name
            .to_str()
            .is_some_and(|n| n.starts_with("SURQLC_") || n.starts_with("OPENAI_"));
        if ours {
            command.env_remove(name);
        }
    }
    command
}
