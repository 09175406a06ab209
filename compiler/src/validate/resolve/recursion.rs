//! Recursive idioms (`.{..}`, analyzer 3011): an unbounded recursion over links that can lead back to where they start fails on the engine as soon as the data holds such a cycle.
//!
//! SurrealDB 3.3.5 follows a `.{..}` path until it reaches NONE or the record it stands on; a
//! cycle of two or more records never does, so it runs to the idiom recursion limit (256) and
//! fails ("Exceeded the idiom recursion limit of 256"); `+collect` remembers what it visited and
//! stops (tests/select_engine.rs). Whether the data holds a cycle is known only when the query
//! runs, so where the schema lets the path return to its table this is a warning.

use super::{Path, Resolver, Scope};
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::Class;
use surrealdb_sql::part::{Recurse, RecurseInstruction};
use surrealdb_sql::Part;
use surrealdb_types::ToSql;

impl<'a, 'l> Resolver<'a, 'l> {
    /// A recursion from a value of type `from` repeating `body`: warned when it has no upper
    /// bound, does not remember what it visited, and the body leads from a table back to it.
    pub(super) fn recursion(
        &mut self,
        from: &Ty,
        bounds: &Recurse,
        instruction: Option<&RecurseInstruction>,
        body: &[Part],
        scope: &Scope,
    ) {
        let unbounded = matches!(bounds, Recurse::Range(_, None));
        let remembers = matches!(
            instruction,
            Some(RecurseInstruction::Collect { .. } | RecurseInstruction::Shortest { .. })
        );
        if !unbounded
            || remembers
            || body
                .iter()
                .any(|p| matches!(p, Part::RepeatRecurse | Part::Destructure(_)))
        {
            return;
        }
        let Ty::Record(table) = from.element() else {
            return;
        };
        // The body typed on its own: its findings are the path's (an unknown field, a wrong step).
        let before = self.report.diagnostics.len();
        let inner = Scope::new(Ty::Any, Some(scope));
        let mut path = Path::default();
        let to = self.parts(body, Ty::Record(table.clone()), &inner, &mut path).ty;
        if self.report.diagnostics.len() != before || !matches!(to.element(), Ty::Record(t) if t == table) {
            return;
        }
        let written = format!(
            "{}{}",
            bounds_text(bounds),
            body.iter().map(ToSql::to_sql).collect::<String>()
        );
        let span = self.loc.text(&format!("{{{}", bounds.to_sql())).or_all(self.loc);
        self.error(
            span,
            Class::UnboundedRecursion,
            format!(
                "`{written}` has no upper bound and leads from `{table}` back to `{table}`: as soon as the links \
                form a cycle, the engine follows it to its recursion limit (256) and fails"
            ),
            "bound it with the depth the data needs (`{1..10}`), or collect what it reaches with `{..+collect}`, \
            which stops at records it has seen"
                .to_owned(),
        );
    }
}

/// `.{..}` or `.{2..}` as written before its path.
fn bounds_text(bounds: &Recurse) -> String {
    format!(".{{{}}}", bounds.to_sql())
}
