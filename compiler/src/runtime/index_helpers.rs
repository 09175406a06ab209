//! The bodies of the generated per-index helpers (`get_by_key`, `search_*`, `nearest_*`, `find_by_*`), so the generated module stays one line per helper.

use super::{Nearest, Record, RecordKey, Scored, Table, Value};
use surrealdb::{Connection, Error, Surreal};

/// The row of `T` whose key is `key`, with its id.
pub async fn get_by_key<T: Table, C: Connection>(db: &Surreal<C>, key: T::Key) -> Result<Option<Record<T>>, Error> {
    let id = super::Link::<T>::new(key.into_key());
    let rows: Vec<Record<T>> = db
        .query("SELECT * FROM $id")
        .bind(("id", id.record_id()))
        .await?
        .check()?
        .take(0)?;
    Ok(rows.into_iter().next())
}

/// Runs a generated full-text query (`$query`, `$limit`): rows with score and highlight.
pub async fn search<T: Table, C: Connection>(
    db: &Surreal<C>,
    surql: &'static str,
    query: &str,
    limit: u32,
) -> Result<Vec<Scored<T>>, Error> {
    db.query(surql)
        .bind(("query", query.to_owned()))
        .bind(("limit", limit))
        .await?
        .check()?
        .take(0)
}

/// Runs a generated nearest-neighbour query: `{k}` and `{ef}` (literals to the engine) are
/// filled with `k` and a search breadth of at least 40; `$vector` is bound.
pub async fn nearest<T: Table, C: Connection>(
    db: &Surreal<C>,
    surql: &'static str,
    vector: &[f64],
    k: u32,
) -> Result<Vec<Nearest<T>>, Error> {
    let query = surql
        .replace("{k}", &k.max(1).to_string())
        .replace("{ef}", &k.max(40).to_string());
    db.query(query)
        .bind(("vector", vector.to_vec()))
        .await?
        .check()?
        .take(0)
}

/// Runs a generated unique-index lookup with its bindings: the one row, if any.
pub async fn find_one<T: Table, C: Connection>(
    db: &Surreal<C>,
    surql: &'static str,
    bindings: Vec<(&'static str, Value)>,
) -> Result<Option<Record<T>>, Error> {
    let mut query = db.query(surql);
    for (name, value) in bindings {
        query = query.bind((name, value));
    }
    let rows: Vec<Record<T>> = query.await?.check()?.take(0)?;
    Ok(rows.into_iter().next())
}
