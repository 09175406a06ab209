//! `--allow`, `--warn`, `--deny CODE`: lint levels on the command line, over the schema's own `lints(...)`.

use clap::Args;
use surqlc::exit::Failure;

/// Lint levels on the command line, over the schema's own `lints(...)`.
#[derive(Args, Clone, Default)]
pub struct LintArgs {
    /// Drop the diagnostics with this code (e.g. SQ0204); an error's code only where the engine does not fail. Repeatable.
    #[arg(long, value_name = "CODE")]
    allow: Vec<String>,
    /// Report the diagnostics with this code as warnings (same rule as --allow). Repeatable.
    #[arg(long, value_name = "CODE")]
    warn: Vec<String>,
    /// Report the diagnostics with this code as errors. Repeatable.
    #[arg(long, value_name = "CODE")]
    deny: Vec<String>,
}

impl LintArgs {
    /// Adds the flags' levels to `lints` (a flag wins over the schema's level for its code).
    pub fn apply(&self, lints: &mut surqlc::ir::Lints) -> Result<(), Failure> {
        let mut flags = surqlc::ir::Lints::default();
        for (codes, relaxes, flag, list) in [
            (&self.allow, true, "allow", &mut flags.allow),
            (&self.warn, true, "warn", &mut flags.warn),
            (&self.deny, false, "deny", &mut flags.deny),
        ] {
            for code in codes {
                let class = surqlc::codes::lint_rule(code, relaxes)
                    .map_err(|why| Failure::BadInput(format!("error: --{flag}: {why}")))?;
                list.push(class.code().to_owned());
            }
        }
        lints.override_with(&flags);
        Ok(())
    }
}
