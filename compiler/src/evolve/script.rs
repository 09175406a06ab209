//! The plan's statements: renames found (`renamed_from` against the live definitions) and their data moves, removals, the schema's own definitions, one `BEGIN`/`COMMIT`; and a migration file's dated name.

use super::{Action, Step, Verdict};
use crate::codegen::builder::Output;
use crate::drift::{Definitions, Key};
use crate::ir;
use crate::surql::lex::escape_ident;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RenameKind {
    Field,
    Table,
}

/// A `renamed_from` whose old definition the database still has.
#[derive(Debug, Clone)]
pub(super) struct Rename {
    pub kind: RenameKind,
    /// The (new) table: the field's, or the renamed table itself.
    pub table: String,
    /// The old name: a field's on `table`, or the old table.
    pub from: String,
    /// The new field's name (the table's, for a table).
    pub to: String,
    /// The schema's definitions the moved values must fit: the new field's, or every one on the new table.
    pub expected: Vec<String>,
}

impl Rename {
    /// Whether this rename accounts for `key`: the old definition (and, for a table, all on it), or the new field.
    pub(super) fn consumes(&self, key: &Key) -> bool {
        match self.kind {
            RenameKind::Field => {
                key.kind == "field"
                    && key.table() == self.table
                    && (is_path_of(key.own_name(), &self.from) || key.own_name() == self.to)
            }
            RenameKind::Table => {
                (key.kind == "table" && key.name == self.from) || (!key.table().is_empty() && key.table() == self.from)
            }
        }
    }

    /// The step's name, as drift names definitions.
    pub(super) fn step_name(&self) -> String {
        match self.kind {
            RenameKind::Field => format!("{} ON {}", self.to, self.table),
            RenameKind::Table => self.table.clone(),
        }
    }

    /// The table whose rows are moved.
    pub(super) fn old_table(&self) -> &str {
        match self.kind {
            RenameKind::Field => &self.table,
            RenameKind::Table => &self.from,
        }
    }

    pub(super) fn step(&self) -> Step {
        Step {
            action: Action::Rename {
                from: self.from.clone(),
            },
            kind: match self.kind {
                RenameKind::Field => "field",
                RenameKind::Table => "table",
            },
            name: self.step_name(),
            verdict: Verdict::Safe,
            applied: true,
            table: self.table.clone(),
            expected: self.expected.first().cloned().unwrap_or_default(),
        }
    }

    /// The statement that moves the values: `UPDATE t SET new = old, old = NONE` for a field (run
    /// after the old field's definition is removed, so the row no longer holds what the table
    /// refuses), `INSERT INTO new (SELECT ...)` of every row, its key kept, for a table.
    pub(super) fn move_statement(&self, relation: bool) -> String {
        match self.kind {
            RenameKind::Field => {
                let (new, old) = (escape_ident(&self.to), escape_ident(&self.from));
                format!(
                    "UPDATE {} SET {new} = {old}, {old} = NONE WHERE {old} != NONE;",
                    escape_ident(&self.table)
                )
            }
            RenameKind::Table => format!(
                "INSERT {}INTO {} (SELECT *, record::id(id) AS id FROM {});",
                if relation { "RELATION " } else { "" },
                escape_ident(&self.table),
                escape_ident(&self.from)
            ),
        }
    }
}

/// `path` is `name` or one of its sub-fields (`name.x`, `name[*]`, `name.*.y`).
fn is_path_of(path: &str, name: &str) -> bool {
    path == name
        || path
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

/// The schema's `renamed_from`s whose old definition `live` still has (a rename already made is no rename).
pub(super) fn renames(schema: &ir::Schema, expected: &Definitions, live: &Definitions) -> Vec<Rename> {
    let mut out = Vec::new();
    for table in &schema.tables {
        if let Some(from) = &table.renamed_from {
            if from != &table.name && live.get("table", from).is_some() && live.get("table", &table.name).is_none() {
                let mut on_table: Vec<String> = expected
                    .0
                    .iter()
                    .filter(|(k, _)| (k.kind == "table" && k.name == table.name) || k.table() == table.name)
                    .map(|(_, text)| text.clone())
                    .collect();
                // The table's own definition first (the `Key` order puts it there already).
                on_table.dedup();
                out.push(Rename {
                    kind: RenameKind::Table,
                    table: table.name.clone(),
                    from: from.clone(),
                    to: table.name.clone(),
                    expected: on_table,
                });
            }
        }
        for field in &table.fields {
            let Some(from) = &field.renamed_from else { continue };
            let old = format!("{from} ON {}", table.name);
            let new = format!("{} ON {}", field.name, table.name);
            if from == &field.name || live.get("field", &old).is_none() {
                continue;
            }
            out.push(Rename {
                kind: RenameKind::Field,
                table: table.name.clone(),
                from: from.clone(),
                to: field.name.clone(),
                expected: expected.get("field", &new).map(str::to_owned).into_iter().collect(),
            });
        }
    }
    out
}

/// A field path with each step escaped (`address.city`, `tags.*`).
pub(super) fn field_path(path: &str) -> String {
    path.split('.')
        .map(|p| if p == "*" { p.to_owned() } else { escape_ident(p) })
        .collect::<Vec<_>>()
        .join(".")
}

/// A definition as `INFO` prints it, made to replace one that exists (`DEFINE FIELD OVERWRITE ...`).
pub(super) fn overwrite(definition: &str) -> String {
    let mut words = definition.splitn(3, ' ');
    match (words.next(), words.next(), words.next()) {
        (Some("DEFINE"), Some(kind), Some(rest)) if !rest.starts_with("OVERWRITE ") => {
            format!("DEFINE {kind} OVERWRITE {rest};")
        }
        _ => format!("{definition};"),
    }
}

/// The statements that remove a definition the schema no longer makes (and, for a field whose
/// rows hold values, the values: a SCHEMAFULL table refuses a row holding an undefined field).
fn removal(step: &Step, removed_tables: &[&str]) -> Vec<String> {
    let own = step.own_name();
    let table = escape_ident(&step.table);
    if !step.table.is_empty() && removed_tables.contains(&step.table.as_str()) {
        return Vec::new();
    }
    match step.kind {
        "table" => vec![format!("REMOVE TABLE IF EXISTS {};", escape_ident(&step.name))],
        "field" => {
            let mut out = vec![format!("REMOVE FIELD IF EXISTS {} ON {table};", field_path(own))];
            if matches!(step.verdict, Verdict::LosesData { .. }) && !own.contains('*') && !own.contains('[') {
                let path = field_path(own);
                out.push(format!("UPDATE {table} SET {path} = NONE WHERE {path} != NONE;"));
            }
            out
        }
        "index" | "event" => vec![format!(
            "REMOVE {} IF EXISTS {} ON {table};",
            step.kind.to_uppercase(),
            escape_ident(own)
        )],
        "function" => vec![format!("REMOVE FUNCTION IF EXISTS {};", step.name)],
        "param" => vec![format!("REMOVE PARAM IF EXISTS {};", step.name)],
        "analyzer" => vec![format!("REMOVE ANALYZER IF EXISTS {};", escape_ident(&step.name))],
        "user" | "access" => vec![format!(
            "REMOVE {} IF EXISTS {} ON DATABASE;",
            step.kind.to_uppercase(),
            escape_ident(&step.name)
        )],
        other => vec![format!(
            "-- {other} {} is not made by the schema; surqlc does not remove it",
            step.name
        )],
    }
}

/// The whole plan as one transaction: the schema's definitions (`schema.surql` without `OPTION
/// IMPORT`, which would skip the checks of every row written), then each rename's move, then the
/// removals, then the cached schema block rendered again, so the prompt shows what is left.
pub(super) fn script(output: &Output, steps: &[Step], renames: &[Rename]) -> String {
    let mut out =
        String::from("-- surqlc plan: one transaction; a statement that fails leaves the database as it was.\n");
    out.push_str("BEGIN TRANSACTION;\n\n-- The schema's definitions.\n");
    for line in output.schema_surql.lines() {
        if line.trim() != "OPTION IMPORT;" {
            out.push_str(line);
            out.push('\n');
        }
    }
    if !renames.is_empty() {
        out.push_str("\n-- Renames: the values moved, the old definitions removed.\n");
    }
    for rename in renames {
        match rename.kind {
            RenameKind::Field => {
                out.push_str(&format!(
                    "REMOVE FIELD IF EXISTS {} ON {};\n",
                    escape_ident(&rename.from),
                    escape_ident(&rename.table)
                ));
                out.push_str(&rename.move_statement(false));
            }
            RenameKind::Table => {
                let relation = output
                    .schema
                    .tables
                    .iter()
                    .any(|t| t.name == rename.table && matches!(t.kind, ir::TableKind::Relation { .. }));
                out.push_str(&rename.move_statement(relation));
                out.push_str(&format!("\nREMOVE TABLE IF EXISTS {};", escape_ident(&rename.from)));
            }
        }
        out.push('\n');
    }
    let removed_tables: Vec<&str> = steps
        .iter()
        .filter(|s| s.action == Action::Remove && s.kind == "table" && s.applied)
        .map(|s| s.name.as_str())
        .collect();
    let removals: Vec<String> = steps
        .iter()
        .filter(|s| s.action == Action::Remove && s.applied)
        .flat_map(|s| removal(s, &removed_tables))
        .collect();
    if !removals.is_empty() {
        out.push_str("\n-- Definitions the schema no longer makes.\n");
        out.push_str(&removals.join("\n"));
        out.push('\n');
    }
    let cache: Vec<&str> = output
        .schema_surql
        .lines()
        .filter(|l| l.starts_with("DEFINE PARAM OVERWRITE $") && l.contains(" VALUE fn::") && l.ends_with(';'))
        .collect();
    if !cache.is_empty() {
        out.push_str("\n-- The cached schema block, rendered again from what is now defined.\n");
        out.push_str(&cache.join("\n"));
        out.push('\n');
    }
    out.push_str("\nCOMMIT TRANSACTION;\n");
    out
}

/// A migration file's name: `YYYYMMDDTHHMMSSZ_<schema>.surql` (UTC), so a folder of them sorts by date.
pub fn migration_file_name(schema_name: &str, now: std::time::SystemTime) -> String {
    let secs = now.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = crate::utc::civil_from_days(i64::try_from(days).unwrap_or(0));
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z_{schema_name}.surql",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_migration_file_is_named_by_its_utc_date() {
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_767_225_600 + 3_723);
        assert_eq!(migration_file_name("store", at), "20260101T010203Z_store.surql");
        assert_eq!(crate::utc::civil_from_days(0), (1970, 1, 1));
        assert_eq!(crate::utc::civil_from_days(19_782), (2024, 2, 29));
    }

    #[test]
    fn an_info_definition_is_made_to_overwrite() {
        assert_eq!(
            overwrite("DEFINE FIELD joined_at ON customer TYPE datetime"),
            "DEFINE FIELD OVERWRITE joined_at ON customer TYPE datetime;"
        );
        assert!(is_path_of("joined.at", "joined") && !is_path_of("joined_at", "joined"));
    }
}
