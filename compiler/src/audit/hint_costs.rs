//! What each `fn::value_hints()` line says and costs on a loaded database: the audit's view of the hints.

use crate::db::{query_string, Db, Error};
use crate::ir::Schema;

/// One hint line as the database prints it now, with its token count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintCost {
    /// The hint's label (`customer.country`, `person ids`, ...).
    pub label: String,
    pub line: String,
    pub tokens: usize,
}

/// Evaluates each of the schema's value hints on `db` (schema and data loaded) and counts its line with `count`.
pub async fn hint_costs(db: &Db, schema: &Schema, count: impl Fn(&str) -> usize) -> Result<Vec<HintCost>, Error> {
    let mut out = Vec::new();
    for hint in &schema.settings.value_hints {
        let line = query_string(db, &format!("RETURN {}", crate::surql::hints::expression(hint))).await?;
        out.push(HintCost {
            label: crate::surql::hints::label(hint),
            tokens: count(&line),
            line,
        });
    }
    Ok(out)
}
