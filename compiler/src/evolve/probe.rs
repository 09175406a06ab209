//! What the rows say about a step: a copy of the table's rows tried on a scratch embedded engine under the step's statements (`UPDATE` of each row, or an `INSERT` of each under a new unique index), and counts of the values a removal would lose; the live database is only read.

use super::script::{field_path, overwrite, Rename, RenameKind};
use super::{Action, Step, Verdict};
use crate::db::{self, Db};
use crate::drift::Definitions;
use crate::ir;
use crate::surql::lex::{escape_ident, quote_string};
use surrealdb::types::{ToSql, Value};

/// How many breaking ids a verdict names.
const SHOWN_IDS: usize = 5;
/// Rows re-checked per query on the scratch engine.
const CHUNK: usize = 500;

/// The live database and its definitions, read for the verdicts.
pub(super) struct Reader<'a> {
    pub conn: &'a Db,
    pub live: &'a Definitions,
}

/// How a copied row is tried: written again (`UPDATE`, as the application's next write), or
/// inserted one by one under a definition that judges rows against each other (a unique index).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Trial {
    Update,
    Insert,
}

impl Reader<'_> {
    pub(super) async fn verdict(&self, step: &Step, renames: &[Rename]) -> Result<Verdict, surrealdb::Error> {
        match &step.action {
            Action::Remove => self.removal(step).await,
            Action::Rename { .. } => match renames.iter().find(|r| r.step_name() == step.name) {
                Some(rename) => self.rename(rename).await,
                None => Ok(Verdict::Safe),
            },
            Action::Define | Action::Redefine => self.definition(step).await,
        }
    }

    async fn definition(&self, step: &Step) -> Result<Verdict, surrealdb::Error> {
        let table = if step.kind == "table" {
            step.name.as_str()
        } else {
            step.table.as_str()
        };
        if self.live.get("table", table).is_none() {
            return Ok(Verdict::Safe);
        }
        let mut statements = vec![overwrite(&step.expected)];
        let trial = match step.kind {
            "field" => Trial::Update,
            "index" if step.expected.contains(" UNIQUE") => Trial::Insert,
            "table" => {
                // The table's fields as they are, so a SCHEMAFULL table judges only what this step changes.
                for (key, text) in &self.live.0 {
                    if key.kind == "field" && key.table() == table && !matches!(key.own_name(), "in" | "out") {
                        statements.push(overwrite(text));
                    }
                }
                Trial::Update
            }
            _ => return Ok(Verdict::Safe),
        };
        let rows = self.rows(table).await?;
        try_rows(table, self.is_relation(table), rows, &[], &statements, trial).await
    }

    async fn rename(&self, rename: &Rename) -> Result<Verdict, surrealdb::Error> {
        let rows = self.rows(rename.old_table()).await?;
        match rename.kind {
            RenameKind::Field => {
                let statements = vec![overwrite(&rename.expected[0]), rename.move_statement(false)];
                try_rows(
                    &rename.table,
                    self.is_relation(&rename.table),
                    rows,
                    &[],
                    &statements,
                    Trial::Update,
                )
                .await
            }
            RenameKind::Table => {
                let relation = self.is_relation(&rename.from);
                let target = format!(
                    "DEFINE TABLE {} {}SCHEMALESS;",
                    escape_ident(&rename.table),
                    if relation { "TYPE RELATION " } else { "" }
                );
                let before = [target, rename.move_statement(relation)];
                let statements: Vec<String> = rename.expected.iter().map(|t| overwrite(t)).collect();
                try_rows(&rename.from, relation, rows, &before, &statements, Trial::Update).await
            }
        }
    }

    async fn removal(&self, step: &Step) -> Result<Verdict, surrealdb::Error> {
        let loses = |rows: usize, what: &str| {
            Ok(if rows == 0 {
                Verdict::Safe
            } else {
                Verdict::LosesData {
                    rows,
                    what: what.to_owned(),
                }
            })
        };
        match step.kind {
            "table" => loses(self.count(&step.name, None).await?, "rows"),
            "field" => {
                // A value inside an array (`tags.*`, `items[*].sku`) is counted by the array that holds it.
                let path = step.own_name();
                let holder = path
                    .split(".*")
                    .next()
                    .unwrap_or(path)
                    .split("[*]")
                    .next()
                    .unwrap_or(path);
                loses(self.count(&step.table, Some(holder)).await?, "rows hold a value")
            }
            "index" | "event" | "function" | "analyzer" => Ok(Verdict::Safe),
            "param" => loses(1, "value held by the parameter"),
            "user" | "access" => loses(1, "sign-in (users or tokens depend on it)"),
            _ => loses(1, "definition surqlc does not remove"),
        }
    }

    fn is_relation(&self, table: &str) -> bool {
        self.live
            .get("table", table)
            .is_some_and(|t| t.contains("TYPE RELATION"))
    }

    async fn rows(&self, table: &str) -> Result<Value, surrealdb::Error> {
        let mut response = self
            .conn
            .query(format!("SELECT * FROM {}", escape_ident(table)))
            .await?
            .check()?;
        response.take(0)
    }

    async fn count(&self, table: &str, path: Option<&str>) -> Result<usize, surrealdb::Error> {
        let filter = path.map_or(String::new(), |p| format!(" WHERE {} != NONE", field_path(p)));
        let q = format!("SELECT VALUE count() FROM {}{filter} GROUP ALL", escape_ident(table));
        let n: Option<i64> = self.conn.query(q).await?.check()?.take(0)?;
        Ok(n.map_or(0, |n| usize::try_from(n).unwrap_or(0)))
    }
}

impl Step {
    /// The definition's own name: a field's path, an index's name.
    pub(super) fn own_name(&self) -> &str {
        self.name.split(" ON ").next().unwrap_or(&self.name)
    }
}

/// Copies `rows` into `table` on a fresh embedded engine (schemaless, so every row goes in as it
/// is), runs `before` and then `statements`, and tries every row of the table then: which fail.
async fn try_rows(
    table: &str,
    relation: bool,
    rows: Value,
    before: &[String],
    statements: &[String],
    trial: Trial,
) -> Result<Verdict, surrealdb::Error> {
    let Value::Array(rows) = rows else {
        return Ok(Verdict::Safe);
    };
    if rows.is_empty() {
        return Ok(Verdict::Safe);
    }
    let scratch = db::connect(&db::Target::default()).await?;
    let t = escape_ident(table);
    let insert = if relation {
        "INSERT RELATION INTO"
    } else {
        "INSERT INTO"
    };
    let define = format!(
        "DEFINE TABLE {t} {}SCHEMALESS;",
        if relation { "TYPE RELATION " } else { "" }
    );
    let rows: Vec<Value> = rows.into_iter().collect();
    let mut failures = Vec::new();
    if trial == Trial::Insert {
        db::execute(&scratch, &format!("{define}\n{}", statements.join("\n"))).await?;
        for chunk in rows.chunks(CHUNK) {
            let script: String = (0..chunk.len())
                .map(|i| format!("{insert} {t} $rows[{i}];\n"))
                .collect();
            failures.extend(failed_statements(&scratch, &script, chunk.to_vec()).await?);
        }
    } else {
        scratch
            .query(format!("{define}\n{insert} {t} $rows;"))
            .bind(("rows", Value::Array(rows.into())))
            .await?
            .check()?;
        db::execute(&scratch, &format!("{}\n{}", before.join("\n"), statements.join("\n"))).await?;
        let ids: Value = scratch
            .query(format!(
                "SELECT VALUE id FROM {}",
                escape_ident(&trial_table(before, table))
            ))
            .await?
            .check()?
            .take(0)?;
        let Value::Array(ids) = ids else {
            return Ok(Verdict::Safe);
        };
        let ids: Vec<Value> = ids.into_iter().collect();
        for chunk in ids.chunks(CHUNK) {
            let script: String = (0..chunk.len()).map(|i| format!("UPDATE $rows[{i}];\n")).collect();
            failures.extend(failed_statements(&scratch, &script, chunk.to_vec()).await?);
        }
    }
    Ok(match failures.first() {
        None => Verdict::Safe,
        Some((_, reason)) => Verdict::Breaks {
            rows: failures.len(),
            ids: failures.iter().take(SHOWN_IDS).map(|(id, _)| id.clone()).collect(),
            reason: reason.clone(),
        },
    })
}

/// The table a trial re-checks: the renamed table's new name when `before` moved the rows there.
fn trial_table(before: &[String], table: &str) -> String {
    before
        .first()
        .and_then(|d| d.strip_prefix("DEFINE TABLE "))
        .and_then(|rest| rest.split(' ').next())
        .map_or(table.to_owned(), |t| t.trim_matches('`').to_owned())
}

/// Runs `script` (one statement per value of `rows`, bound as `$rows`) without a transaction, so
/// each statement stands alone; the failed ones' ids (the row's `id`, or the value itself) and errors.
async fn failed_statements(
    scratch: &Db,
    script: &str,
    rows: Vec<Value>,
) -> Result<Vec<(String, String)>, surrealdb::Error> {
    let ids: Vec<String> = rows.iter().map(row_id).collect();
    let mut response = scratch.query(script).bind(("rows", Value::Array(rows.into()))).await?;
    let mut errors: Vec<(usize, String)> = response
        .take_errors()
        .into_iter()
        .map(|(i, e)| (i, e.to_string()))
        .collect();
    errors.sort();
    Ok(errors
        .into_iter()
        .map(|(i, e)| (ids.get(i).cloned().unwrap_or_default(), e))
        .collect())
}

/// A row's record id as SurrealQL (`customer:ines`), or the value itself when it is an id.
fn row_id(row: &Value) -> String {
    match row {
        Value::Object(o) => o.get("id").map_or_else(|| row.to_sql(), ToSql::to_sql),
        other => other.to_sql(),
    }
}

/// A warning for each literal field (its type a union of literal values) whose rows hold a value
/// outside the union: the value hints would show it while the type refuses it.
pub(super) async fn literal_warnings(
    conn: &Db,
    schema: &ir::Schema,
    live: &Definitions,
) -> Result<Vec<String>, surrealdb::Error> {
    let mut out = Vec::new();
    for table in &schema.tables {
        if live.get("table", &table.name).is_none() || table.view.is_some() {
            continue;
        }
        for field in &table.fields {
            let values = match &field.ty {
                ir::Type::Literal(v) => v,
                ir::Type::Option(inner) => match inner.as_ref() {
                    ir::Type::Literal(v) => v,
                    _ => continue,
                },
                _ => continue,
            };
            let source = match &field.renamed_from {
                Some(old) if live.get("field", &format!("{old} ON {}", table.name)).is_some() => old.as_str(),
                _ => field.name.as_str(),
            };
            let union: Vec<String> = values.iter().map(|v| quote_string(v)).collect();
            let f = escape_ident(source);
            let q = format!(
                "SELECT VALUE array::distinct(array::group({f})) FROM {} WHERE {f} != NONE AND {f} NOTINSIDE [{}] GROUP ALL",
                escape_ident(&table.name),
                union.join(", ")
            );
            let found: Option<Value> = conn.query(q).await?.check()?.take(0)?;
            let Some(Value::Array(found)) = found else { continue };
            if found.is_empty() {
                continue;
            }
            let shown: Vec<String> = found.iter().map(ToSql::to_sql).collect();
            out.push(format!(
                "{}.{} holds {} in rows but its type is {}: the value hints would offer what the type refuses \
                 (map the values in the plan's migration, or keep them in the union)",
                table.name,
                field.name,
                shown.join(", "),
                union.join(" | ")
            ));
        }
    }
    Ok(out)
}
