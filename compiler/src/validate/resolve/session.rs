//! The query as one end user's session runs it: `$auth` is that user's record, and what would measure other users' rows (EXPLAIN, search scores and highlights, KNN distances over an owned table) is refused.
//!
//! Table `PERMISSIONS` keep other users' rows out of every answer, but the engine computes some
//! values before it filters: a BM25 score reads the whole index's statistics, `EXPLAIN` reports
//! the work done over every row. Those values tell a user about rows they cannot see, so the
//! runner refuses them in an end user's session ([`Class::SideChannel`]); `docs/agent.md` lists
//! what a user can still infer.

use super::{Resolver, Scope};
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::Class;

/// Functions whose value is computed over an index's rows before permissions filter them.
const MEASURED_OVER_THE_INDEX: &[(&str, &str)] = &[
    (
        "search::score",
        "a BM25 score is computed from the whole full-text index, other users' rows included: it changes when their rows change",
    ),
    (
        "search::highlight",
        "highlights come from the full-text index built over every user's rows",
    ),
    (
        "search::offsets",
        "offsets come from the full-text index built over every user's rows",
    ),
    (
        "vector::distance::knn",
        "the nearest neighbours are searched among every user's rows before permissions filter them",
    ),
];

impl<'a, 'l> Resolver<'a, 'l> {
    /// The type of `$auth`: the end user's record in their session; elsewhere an error, since
    /// the team's agent answers for no user (there `$auth` is NONE or the agent's own record).
    pub(super) fn auth_param(&mut self) -> Ty {
        if let Some(end_user) = &self.end_user {
            return Ty::Record(end_user.clone());
        }
        // The application's own statements run in its sessions: a record user's (`DEFINE ACCESS
        // ... TYPE RECORD`, which surqlc's schema may not declare) has `$auth`.
        if self.app {
            return self.scope_end_user.clone().map_or(Ty::Any, Ty::Record);
        }
        let span = self.loc.param("auth").or_all(self.loc);
        let (message, fix) = match &self.scope_end_user {
            Some(end_user) => (
                "`$auth` is the signed-in user's record only in an end user's session, and this query runs for the team's agent, which answers for no user".to_owned(),
                format!("name the `{end_user}` rows the question means, or run the query as one user (`--as \
                    {end_user}:ID`, a session opened with Scope::signin)"),
            ),
            None => (
                "`$auth` is no end user's record here: the schema declares no per-user agent".to_owned(),
                "name the table and rows the question means; `scope(end_user = T)` on the schema item makes an agent for each user".to_owned(),
            ),
        };
        self.error(span, Class::AuthOutsideSession, message, fix);
        Ty::Any
    }

    /// `EXPLAIN` in an end user's session: its timings and counts cover every user's rows.
    pub(super) fn explain_in_session(&mut self, explain: bool) {
        if !explain || self.end_user.is_none() {
            return;
        }
        let span = self.loc.word("explain").or_all(self.loc);
        self.error(
            span,
            Class::SideChannel,
            "EXPLAIN is refused in an end user's session: the plan's timings and counts grow with rows of other users that permissions hide".into(),
            "leave EXPLAIN out and ask for the rows themselves".into(),
        );
    }

    /// A score, highlight or KNN distance over an owned table in an end user's session.
    pub(super) fn measured_call(&mut self, name: &str, scope: &Scope) {
        let Some(end_user) = self.end_user.clone() else {
            return;
        };
        let Some((_, why)) = MEASURED_OVER_THE_INDEX.iter().find(|(f, _)| *f == name) else {
            return;
        };
        let Ty::Record(table) = scope.doc.element() else {
            return;
        };
        let owned = self
            .table(table)
            .is_some_and(|t| crate::access::is_owned_by(t, &end_user));
        if !owned {
            return;
        }
        let table = table.clone();
        let head = name.split("::").next().unwrap_or(name);
        let span = self.loc.ident(head, &[]).or_all(self.loc);
        self.error(
            span,
            Class::SideChannel,
            format!("{name}() is refused in an end user's session on `{table}`, whose rows belong to different users: {why}"),
            match name {
                "search::score" => "keep the `@@` match in WHERE and order by one of the rows' own fields instead of the score".into(),
                "vector::distance::knn" => "leave the distance out; order by one of the rows' own fields".into(),
                _ => "keep the `@@` match in WHERE and return the matched field itself".into(),
            },
        );
    }
}
