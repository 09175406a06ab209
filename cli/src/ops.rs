//! `surqlc mcp`'s operations flags: `--audit-log`, read into the library's `ObserveOptions`.

use clap::Args;
use std::path::Path;

/// How a running `surqlc mcp` is watched.
#[derive(Args, Clone, Default)]
pub struct OpsArgs {
    /// Append one JSON line per tool call to FILE (`-`: stderr), synced before the answer goes out; a call
    /// whose line cannot be written is refused.
    #[arg(long, value_name = "FILE")]
    audit_log: Option<String>,
}

impl OpsArgs {
    /// The library's options; the bearer token is named by its file's name (or `SURQLC_MCP_TOKEN`)
    /// in the audit log, never shown.
    pub fn options(&self, token_file: Option<&Path>, has_token: bool) -> surqlc::mcp::ObserveOptions {
        let token_name = has_token.then(|| match token_file {
            Some(file) => file
                .file_name()
                .map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned()),
            None => surqlc::mcp::TOKEN_ENV.to_owned(),
        });
        surqlc::mcp::ObserveOptions {
            audit_log: self.audit_log.as_deref().map(surqlc::mcp::AuditTarget::parse),
            token_name,
        }
    }
}
