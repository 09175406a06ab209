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

/// Runs `surql` with `bindings` for its effect (`:exec`): every statement's error is the call's.
pub async fn exec<C: Connection>(
    db: &Surreal<C>,
    surql: &'static str,
    bindings: Vec<(&'static str, Value)>,
) -> Result<(), Error> {
    let mut query = db.query(surql);
    for binding in bindings {
        query = query.bind(binding);
    }
    query.await?.check()?;
    Ok(())
}

/// Puts each `(question, query)` into the few-shot pool `pool` (its question embedded by
/// `embedder`, its query validated as an agent's would be by [`super::module::remember_example`]),
/// skipping a pair the pool already holds; the ids of the examples added.
pub async fn seed_examples<M: super::SchemaModule, C: Connection, E: super::Embedder>(
    db: &Surreal<C>,
    embedder: &E,
    pool: &'static str,
    examples: &[(&'static str, &'static str)],
) -> Result<Vec<super::RecordId>, Error> {
    let mut added = Vec::new();
    for &(question, surql) in examples {
        let held: Option<super::RecordId> = db
            .query("SELECT VALUE id FROM type::table($pool) WHERE question = $question AND surql = $surql LIMIT 1")
            .bind(("pool", pool))
            .bind(("question", question))
            .bind(("surql", surql))
            .await?
            .check()?
            .take(0)?;
        if held.is_some() {
            continue;
        }
        let qvec = embedder
            .embed(question)
            .await
            .map_err(|e| Error::internal(format!("embedding the question {question:?}: {e}")))?;
        added.push(super::module::remember_example::<M, C>(db, question, surql, &qvec).await?);
    }
    Ok(added)
}
