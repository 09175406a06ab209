//! The agent's password: where it is read from, and its `PASSHASH` (Argon2id), so the generated file never holds the password itself.

use argon2::password_hash::{PasswordHasher, SaltString};
use sha2::{Digest, Sha256};

/// The environment variable the agent's password is read from at build time.
pub const AGENT_PASSWORD_ENV: &str = "SURQLC_AGENT_PASSWORD";

/// The agent's password: the one given, else the environment's; an empty one is none.
pub fn agent_password(given: Option<&str>) -> Option<String> {
    given_or_env(given, AGENT_PASSWORD_ENV)
}

/// `given`, else the environment variable `var`; an empty value is none.
fn given_or_env(given: Option<&str>, var: &str) -> Option<String> {
    given
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
        .or_else(|| std::env::var(var).ok().filter(|v| !v.is_empty()))
}

/// The environment variable the application's scope key is read from at build time (the key
/// the application signs its end users in with, under `scope(...)`; see `runtime::Scope`).
pub const SCOPE_KEY_ENV: &str = "SURQLC_SCOPE_KEY";

/// The scope key: the one given, else the environment's; an empty one is none.
pub fn scope_key(given: Option<&str>) -> Option<String> {
    given_or_env(given, SCOPE_KEY_ENV)
}

/// Hashes `password` for `user`.
///
/// The salt is derived from the user and password rather than drawn at random, so the
/// same inputs give the same file (deterministic output, and no rewrite on every build).
/// The price is that two deployments with the same user name and password share a hash.
pub fn passhash(user: &str, password: &str) -> Result<String, String> {
    let digest = Sha256::new()
        .chain_update(b"surqlc-agent-salt\0")
        .chain_update(user)
        .chain_update([0])
        .chain_update(password)
        .finalize();
    let salt = SaltString::encode_b64(&digest[..16]).map_err(|e| e.to_string())?;
    argon2::Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}
