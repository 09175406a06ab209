//! The checks that need the data, run on the agent's own connection: record ids exist, compared values are present.
//!
//! Kept cheap: one point lookup per record id, and one `LIMIT 1` lookup per value compared with
//! a value-hinted field (the present values are listed only when the value is missing).

use super::{Class, QueryDiagnostic, Report};
use crate::ir::Schema;
use surrealdb::types::Value;
use surrealdb::{Connection, Surreal};

/// Adds to `report` an error for each record id it names that does not exist, and a warning for
/// each value compared with a value-hinted field that no row has. Only a failure of the
/// connection is an `Err`; a lookup the engine refuses is skipped.
pub async fn check<C: Connection>(
    db: &Surreal<C>,
    schema: &Schema,
    report: &mut Report,
) -> Result<(), surrealdb::Error> {
    missing_records(db, report).await?;
    absent_values(db, schema, report).await?;
    report.finish();
    report.apply_lints(&schema.settings.lints);
    Ok(())
}

/// An error for each record id the query names that does not exist, with ids the table has.
async fn missing_records<C: Connection>(db: &Surreal<C>, report: &mut Report) -> Result<(), surrealdb::Error> {
    let mut seen: Vec<String> = Vec::new();
    for record in report.records.clone() {
        if seen.contains(&record.id) {
            continue;
        }
        seen.push(record.id.clone());
        // The id is SurrealDB's own rendering of the parsed literal, so it is safe to splice.
        let Some(found) = values(db, &format!("SELECT VALUE id FROM {} LIMIT 1", record.id)).await? else {
            continue;
        };
        if !found.is_empty() {
            continue;
        }
        let samples = values(
            db,
            &format!(
                "SELECT VALUE id FROM {} LIMIT 3",
                crate::surql::field_ident(&record.table)
            ),
        )
        .await?
        .unwrap_or_default();
        let samples: Vec<String> = samples.iter().map(render).collect();
        report.diagnostics.push(QueryDiagnostic {
            fixes: Vec::new(),
            span: record.span,
            severity: Class::UnknownRecord.severity(),
            class: Class::UnknownRecord,
            message: format!("there is no record `{}`", record.id),
            fix: if samples.is_empty() {
                format!(
                    "`{}` has no rows; select FROM {} and filter by a field instead",
                    record.table, record.table
                )
            } else {
                format!(
                    "ids of `{}` look like {}: do not guess ids, select FROM {} WHERE a field matches",
                    record.table,
                    samples.join(", "),
                    record.table
                )
            },
        });
    }
    Ok(())
}

/// A warning for each value compared with a value-hinted field that no row has, with the values
/// present.
async fn absent_values<C: Connection>(
    db: &Surreal<C>,
    schema: &Schema,
    report: &mut Report,
) -> Result<(), surrealdb::Error> {
    let mut asked: Vec<(String, String, String)> = Vec::new();
    for compared in report.compared.clone() {
        let hinted = schema.settings.value_hints.iter().any(|h| {
            matches!(h, crate::ir::ValueHint::Distinct { field, .. }
                    if field.table == compared.table && field.field == compared.field)
        });
        let key = (compared.table.clone(), compared.field.clone(), compared.value.clone());
        if !hinted || asked.contains(&key) {
            continue;
        }
        asked.push(key);
        let table = crate::surql::field_ident(&compared.table);
        let field = crate::surql::path_ident(&compared.field, crate::surql::field_ident);
        let found = match db
            .query(format!("SELECT VALUE id FROM {table} WHERE {field} = $value LIMIT 1"))
            .bind(("value", compared.value.clone()))
            .await
        {
            Ok(mut response) => match response.take::<Value>(0) {
                Ok(Value::Array(items)) => !items.is_empty(),
                _ => continue,
            },
            Err(e) if e.is_connection() => return Err(e),
            Err(_) => continue,
        };
        if found {
            continue;
        }
        let present = values(
            db,
            &format!("SELECT VALUE {field} FROM {table} GROUP BY {field} LIMIT 50"),
        )
        .await?
        .unwrap_or_default();
        let present: Vec<String> = present.iter().map(render).collect();
        report.diagnostics.push(QueryDiagnostic {
            fixes: Vec::new(),
            span: compared.span,
            severity: Class::ValueNotPresent.severity(),
            class: Class::ValueNotPresent,
            message: format!(
                "no `{}` row has {} = '{}', so this comparison matches nothing",
                compared.table, compared.field, compared.value
            ),
            fix: if present.is_empty() {
                format!("`{}` has no rows", compared.table)
            } else {
                format!("the values present are: {}", present.join(", "))
            },
        });
    }
    Ok(())
}

/// The rows of `query` as values, `None` when the engine refuses it (only a connection failure is an error).
async fn values<C: Connection>(db: &Surreal<C>, query: &str) -> Result<Option<Vec<Value>>, surrealdb::Error> {
    match db.query(query).await {
        Ok(mut response) => match response.take::<Value>(0) {
            Ok(Value::Array(items)) => Ok(Some(items.into_iter().collect())),
            Ok(other) => Ok(Some(vec![other])),
            Err(e) if e.is_connection() => Err(e),
            Err(_) => Ok(None),
        },
        Err(e) if e.is_connection() => Err(e),
        Err(_) => Ok(None),
    }
}

fn render(value: &Value) -> String {
    use surrealdb::types::ToSql;
    value.to_sql()
}
