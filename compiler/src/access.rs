//! What the agent may read, and the engine mechanism that holds it there: a database `VIEWER` when the prompt hides nothing, record access bound by `PERMISSIONS` when it hides something.
//!
//! A database-level `VIEWER` (the lesson's agent) reads every table and field: system users
//! bypass table and field `PERMISSIONS`. That is right while the prompt shows everything, and
//! it keeps the lesson's `surreal sql --auth-level database` flow. Once a schema hides something
//! (a table left out of `expose(...)`, a field marked `hidden` or given its own select
//! permission), the agent signs in through `DEFINE ACCESS ... TYPE RECORD` instead: record users
//! obey `PERMISSIONS`, so the engine itself refuses hidden rows and fields to every route
//! (subqueries, traversals, record links, functions), and `INFO` is refused outright.
//!
//! Under record access an exposed table's select must be granted (a defined table's default is
//! `NONE`); [`Access::table_permissions`] adds `FOR select FULL` and the prompt leaves that clause out
//! ([`READ_ONLY_TABLE`]), so the schema block reads the same under either mechanism.

use crate::ir::{Field, Permission, Permissions, Schema, Scope, Table};

/// The table holding the record-access agent's password hash; the agent cannot read it.
pub const IDENTITY_TABLE: &str = "surqlc_agent";

/// The `PERMISSIONS` text of an exposed table the agent may only read, as `INFO` prints it:
/// left out of the schema block, like `PERMISSIONS FULL` and `PERMISSIONS NONE`.
pub const READ_ONLY_TABLE: &str = "PERMISSIONS FOR select FULL, FOR create, update, delete NONE";

/// What precedes the fingerprint of the agent's definition in its `COMMENT` (`agent_define` writes
/// it, `drift` masks it along with the password hash it covers).
pub const FINGERPRINT_MARK: &str = "surqlc agent definition ";

/// How the agent signs in, which decides what the engine lets it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mechanism {
    /// `DEFINE USER ... ON DATABASE ROLES VIEWER`: reads every table and field; the prompt hides nothing.
    Viewer,
    /// `DEFINE ACCESS ... ON DATABASE TYPE RECORD`: reads what table and field `PERMISSIONS` allow.
    RecordAccess,
}

/// Whether the agent may not read `field`: `hidden`, or a select permission of `NONE`.
pub fn is_hidden(field: &Field) -> bool {
    matches!(
        field.clauses.permissions,
        Some(Permissions {
            select: Some(Permission::None),
            ..
        })
    )
}

/// Whether `path` (an `INFO FOR TABLE` key such as `address.city` or `tags.*`) is `hidden` or inside it.
pub fn path_is_under(path: &str, hidden: &str) -> bool {
    path == hidden
        || path
            .strip_prefix(hidden)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

/// The agent's mechanism for `schema` (see [`Access`] to ask more than once).
pub fn mechanism(schema: &Schema) -> Mechanism {
    Access::of(schema).mechanism()
}

/// What the schema keeps from the agent, one phrase each (`table loan_audit is not exposed`):
/// empty when the agent may read everything, so a `VIEWER` is enough.
pub fn reasons(schema: &Schema) -> Vec<String> {
    Access::of(schema).reasons
}

/// [`reasons`] of tables not yet gathered into a schema (the front end warns before it has one).
pub fn reasons_of(tables: &[Table], exposed: &[String]) -> Vec<String> {
    reasons_with(tables, &exposed.iter().map(String::as_str).collect())
}

/// The writes `table`'s permissions grant record users (`create`, `update`, `delete` as `FULL` or
/// `WHERE`): under record access the agent is a record user, so its credential could make them.
/// A `WHERE` rule that reads `$access` is taken to tell the agent apart, as the warning advises.
pub fn record_writes(table: &Table) -> Vec<&'static str> {
    let Some(p) = &table.permissions else {
        return Vec::new();
    };
    [("create", &p.create), ("update", &p.update), ("delete", &p.delete)]
        .into_iter()
        .filter(|(_, rule)| match rule {
            Some(Permission::Full) => true,
            Some(Permission::Where(e)) => !e.contains("$access"),
            _ => false,
        })
        .map(|(op, _)| op)
        .collect()
}

fn reasons_with(tables: &[Table], exposed: &std::collections::HashSet<&str>) -> Vec<String> {
    let mut out = Vec::new();
    for table in tables {
        if !exposed.contains(table.name.as_str()) {
            out.push(format!("table {} is not exposed", table.name));
            continue;
        }
        if let Some(Permission::None | Permission::Where(_)) =
            table.permissions.as_ref().and_then(|p| p.select.as_ref())
        {
            out.push(format!("table {} limits select", table.name));
        }
        for field in &table.fields {
            match field.clauses.permissions.as_ref().and_then(|p| p.select.as_ref()) {
                Some(Permission::None) => out.push(format!("field {}.{} is hidden", table.name, field.name)),
                Some(Permission::Where(_)) => out.push(format!("field {}.{} limits select", table.name, field.name)),
                _ => {}
            }
        }
    }
    out
}

/// The fields of `table` the prompt leaves out, by database name (their sub-fields go with them).
pub fn hidden_fields(table: &Table) -> Vec<&str> {
    table
        .fields
        .iter()
        .filter(|f| is_hidden(f))
        .map(|f| f.name.as_str())
        .collect()
}

/// Whether an end user of the per-user agent whose users are rows of `end_user` reads only some of
/// `table`'s rows: the end-user table itself and every table with an `owner` route. The one rule
/// behind [`Access::is_owned`] and the validator's side-channel checks.
pub fn is_owned_by(table: &Table, end_user: &str) -> bool {
    table.name == end_user || table.owner.is_some()
}

/// The agent's access to one schema, worked out once (schemas may hold thousands of tables).
#[derive(Debug, Clone)]
pub struct Access<'a> {
    /// [`reasons`]: what the schema keeps from the agent; the mechanism follows from it.
    reasons: Vec<String>,
    exposed: std::collections::HashSet<&'a str>,
    /// The agent's record access (its name), which reads every exposed row.
    agent: &'a str,
    scope: Option<&'a Scope>,
}

impl<'a> Access<'a> {
    pub fn of(schema: &'a Schema) -> Access<'a> {
        let exposed = schema.settings.exposed.iter().map(String::as_str).collect();
        Access {
            reasons: reasons_with(&schema.tables, &exposed),
            exposed,
            agent: &schema.settings.agent.user,
            scope: schema.settings.scope.as_ref(),
        }
    }

    /// Whether record users may read the exposed tables (by `PERMISSIONS`): the agent under record
    /// access, or the per-user agent of a scope (a record user even where the agent is a `VIEWER`).
    pub fn grants_record_users(&self) -> bool {
        self.mechanism() == Mechanism::RecordAccess || self.scope.is_some()
    }

    /// The per-user agent, if the schema declares one.
    pub fn scope(&self) -> Option<&'a Scope> {
        self.scope
    }

    /// What the model is told when it answers for one end user (the prompt's `fn::scope_rules()`
    /// and the MCP server's instructions say the same): who `$auth` is, how to start from it,
    /// and that the owned tables hold only that user's rows. `None` without a scope.
    pub fn end_user_rules(&self, schema: &Schema) -> Option<String> {
        let scope = self.scope?;
        let tables = schema
            .exposed_tables()
            .filter(|t| self.is_owned(t))
            .map(|t| format!("`{}`", t.name))
            .collect::<Vec<_>>()
            .join(", ");
        let end_user = &scope.end_user;
        Some(format!(
            "You answer for one signed-in {end_user}: $auth is their record (read it with FROM $auth, \
             start a path from it with $auth.field or $auth->relation->table). The database shows you \
             only their own rows of {tables}, and every row of the other tables, so \"my\" and \"I\" \
             mean $auth, you never need to filter by {end_user} yourself, and every answer, count or \
             sum over those tables is this {end_user}'s own; a question about other {end_user}s' data \
             cannot be answered.\n\n"
        ))
    }

    /// Whether the per-user agent reads only some of `table`'s rows: the end-user table and every
    /// table with an `owner` route, when the schema has a scope.
    pub fn is_owned(&self, table: &Table) -> bool {
        self.scope.is_some_and(|s| is_owned_by(table, &s.end_user))
    }

    /// The condition a row of `table` meets when it belongs to the signed-in end user (`$auth`):
    /// `id = $auth` on the end-user table, `$auth IN array::flatten([route])` on an owned table
    /// (a route may give one record or a list, so it is read as a list either way).
    pub fn owner_condition(&self, table: &Table) -> Option<String> {
        let scope = self.scope?;
        if table.name == scope.end_user {
            return Some("id = $auth".to_owned());
        }
        let route = table.owner.as_deref()?;
        Some(format!("$auth IN array::flatten([{route}])"))
    }

    pub fn mechanism(&self) -> Mechanism {
        if self.reasons.is_empty() {
            Mechanism::Viewer
        } else {
            Mechanism::RecordAccess
        }
    }

    /// See [`reasons`].
    pub fn reasons(&self) -> &[String] {
        &self.reasons
    }

    /// The reasons joined by `; ` on one line, as the generated files' comments carry them (a
    /// renamed field's name may hold a line break).
    pub fn reasons_on_one_line(&self) -> String {
        self.reasons.join("; ").replace(['\n', '\r'], " ")
    }

    /// The table's `PERMISSIONS` as `schema.surql` defines them: as declared, except that where
    /// record users read the exposed tables ([`Self::grants_record_users`]) an exposed table's
    /// undeclared select becomes `FULL`, so the agent can read it.
    ///
    /// Under a scope, an owned table's select lets the agent (`$access`) read every row and the
    /// per-user agent only the rows its owner route leads back to `$auth`, within any declared rule.
    pub fn table_permissions(&self, table: &Table) -> Option<Permissions> {
        let declared = table.permissions.clone();
        if !self.grants_record_users() || !self.exposed.contains(table.name.as_str()) {
            return declared;
        }
        let mut p = declared.unwrap_or_default();
        if let Some(condition) = self.owner_condition(table) {
            // The agent's name is a plain identifier (the front end's name rule), so quoting it
            // needs no escapes (and keeps this module below `surql`, which reads it).
            let scoped = format!("$access = \"{}\" OR {condition}", self.agent);
            p.select = Some(match p.select.take() {
                None | Some(Permission::Full) => Permission::Where(scoped),
                Some(Permission::Where(declared)) => Permission::Where(format!("({scoped}) AND ({declared})")),
                Some(Permission::None) => Permission::None,
            });
        }
        p.select.get_or_insert(Permission::Full);
        Some(p)
    }
}
