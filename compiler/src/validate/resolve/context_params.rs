//! Parameters out of their context: `$before`/`$after` in the agent's SELECT, where the engine sets neither (analyzer 6005), and one parameter asked to be two kinds of value (analyzer 6001).

use super::Resolver;
use crate::validate::params::{conflicts, settling_cast};
use crate::validate::scan::{Kind, OrAll};
use crate::validate::{Class, Span};

impl<'a, 'l> Resolver<'a, 'l> {
    /// `$before`/`$after` in the agent's SELECT: SurrealDB 3.3.5 sets them only in a write's
    /// RETURN (and in events, field clauses and live queries), and the agent binds no parameter,
    /// so they are NONE. (In the application's profile they are the caller's own parameters
    /// where the engine does not set them, which the engine binds: tests/app_engine.rs.)
    /// Reported once per name.
    pub(super) fn state_param_outside_output(&mut self, name: &str) {
        let said = format!("`${name}` is set by the engine only");
        if self.report.diagnostics.iter().any(|d| d.message.starts_with(&said)) {
            return;
        }
        let span = self.param_occurrence(name, 0);
        self.error(
            span,
            Class::ParamOutOfContext,
            format!("{said} in a write's RETURN clause (and in events): in a SELECT it is NONE in every row"),
            "read the row's own fields (`field`, `$this.field`)".to_owned(),
        );
    }

    /// Each parameter whose uses ask for two kinds of value, without a cast to say which: at its
    /// second occurrence (the application's profile: the agent binds no parameters).
    pub(super) fn param_conflicts(&mut self) {
        for (name, first, other) in conflicts(&self.report.params) {
            let span = self.param_occurrence(&name, 1);
            self.error(
                span,
                Class::ConflictingParam,
                format!("parameter `${name}` is used as {first} and as {other}, so it has no one type"),
                format!(
                    "cast it once to say which (`<{}> ${name}`), or give each use its own parameter",
                    settling_cast(&first)
                ),
            );
        }
    }

    /// The `nth` occurrence (0-based) of `$name` in the text, else its first, else the whole query.
    fn param_occurrence(&self, name: &str, nth: usize) -> Span {
        let at: Vec<usize> = (0..self.loc.tokens().len())
            .filter(|&i| {
                let t = &self.loc.tokens()[i];
                t.kind == Kind::Param && t.text.trim_start_matches('$') == name
            })
            .collect();
        at.get(nth)
            .or(at.first())
            .map(|&i| self.loc.token_span(i, i))
            .or_all(self.loc)
    }
}
