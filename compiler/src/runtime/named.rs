//! The bodies of the generated named-query functions (`queries::NAME`): the query text sent once with its parameters bound, the rows decoded into the query's row type.

use super::{SurrealValue, Value};
use surrealdb::{Connection, Error, Surreal};

/// Runs `surql` with `bindings` and decodes every row (`:many`).
pub async fn many<R: SurrealValue, C: Connection>(
    db: &Surreal<C>,
    surql: &'static str,
    bindings: Vec<(&'static str, Value)>,
) -> Result<Vec<R>, Error> {
    let mut query = db.query(surql);
    for binding in bindings {
        query = query.bind(binding);
    }
    query.await?.check()?.take(0)
}

/// The first row, if any (`:opt`).
pub async fn opt<R: SurrealValue, C: Connection>(
    db: &Surreal<C>,
    surql: &'static str,
    bindings: Vec<(&'static str, Value)>,
) -> Result<Option<R>, Error> {
    Ok(many(db, surql, bindings).await?.into_iter().next())
}

/// The first row; none is a not-found error naming the query (`:one`, `:value`).
pub async fn one<R: SurrealValue, C: Connection>(
    db: &Surreal<C>,
    name: &'static str,
    surql: &'static str,
    bindings: Vec<(&'static str, Value)>,
) -> Result<R, Error> {
    opt(db, surql, bindings)
        .await?
        .ok_or_else(|| Error::not_found(format!("query `{name}` returned no row"), None))
}
