//! Parameters out of their context: `$before`/`$after` where the engine sets neither (analyzer 6005), and one parameter asked to be two kinds of value (analyzer 6001).

use super::Resolver;
use crate::validate::params::{conflicts, settling_cast};
use crate::validate::scan::{Kind, OrAll};
use crate::validate::{Class, Span};

impl<'a, 'l> Resolver<'a, 'l> {
    /// `$before`/`$after` outside a write's RETURN: SurrealDB 3.3.5 sets them only there (and in
    /// events, field clauses and live queries, which no query here is), so a SELECT, a SET or a
    /// WHERE reads NONE, or the caller's own value of that name. Reported once per name.
    pub(super) fn state_param_outside_output(&mut self, name: &str) {
        let said = format!("`${name}` is set by the engine only");
        if self.report.diagnostics.iter().any(|d| d.message.starts_with(&said)) {
            return;
        }
        let span = self.param_occurrence(name, 0);
        let instead = if name == "before" {
            "read the field itself (the record as it is before the write's changes apply)"
        } else {
            "read the changed fields in the write's RETURN (`RETURN AFTER`, `RETURN $after.field`)"
        };
        let fix = if self.app {
            format!("{instead}, or name the application's own parameter otherwise (`${name}_value`)")
        } else {
            format!("{instead}: in a SELECT, the row's own fields (`field`, `$this.field`)")
        };
        self.error(
            span,
            Class::ParamOutOfContext,
            format!(
                "{said} in a write's RETURN clause (and in events): here it is NONE{}",
                if self.app { ", or whatever the caller binds" } else { "" }
            ),
            fix,
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
        let at: Vec<usize> = (0..self.loc.tokens.len())
            .filter(|&i| {
                let t = &self.loc.tokens[i];
                t.kind == Kind::Param && t.text.trim_start_matches('$') == name
            })
            .collect();
        at.get(nth)
            .or(at.first())
            .map(|&i| self.loc.token_span(i, i))
            .or_all(self.loc)
    }
}
