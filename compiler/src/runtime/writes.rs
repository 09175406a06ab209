//! The bodies of the generated write helpers (`customer::create`, `insert`, `update`, `merge`, `delete`, a relation's `relate`): one statement each, the input bound as `$content`, the rows the engine answers decoded as the table's rows.
//!
//! The statements, for table `t` (each helper sends exactly one):
//!
//! | helper | statement | answers |
//! |---|---|---|
//! | `create(input)` | `CREATE ONLY t CONTENT $content` | the new row |
//! | `create_at(id, input)` | `CREATE ONLY $id CONTENT $content` | the new row |
//! | `insert(input)`, `insert_many(inputs)` | `INSERT INTO t $content` | the new rows |
//! | `update(id, input)` | `UPDATE ONLY $id CONTENT $content` | the row after, `None` when `id` is no row |
//! | `merge(id, patch)` | `UPDATE ONLY $id MERGE $content` | the row after, `None` when `id` is no row |
//! | `delete(id)` | `DELETE ONLY $id RETURN BEFORE` | the row deleted, `None` when `id` is no row |
//! | `relate(from, to, input)` | `RELATE ONLY $from->t->$to CONTENT $content` | the new edge |
//!
//! `UPDATE ... CONTENT` replaces the row: a field the input leaves out (`None`) is removed, and the
//! engine then refuses a field that has neither `option` type nor `DEFAULT ALWAYS` (its plain
//! `DEFAULT` applies only when a row is created). `MERGE` changes only what the patch sets.

use super::{Record, SurrealValue, Table, Value};
use crate::surql::lex::escape_ident;
use surrealdb::{Connection, Error, Surreal};

/// Sends `surql` with `bindings`: the one row it answers (`ONLY`), if any.
async fn run<T: Table, C: Connection>(
    db: &Surreal<C>,
    surql: String,
    bindings: Vec<(&'static str, Value)>,
) -> Result<Option<Record<T>>, Error> {
    send(db, surql, bindings).await?.take(0)
}

/// Sends `surql` with `bindings`, every statement's error the call's.
async fn send<C: Connection>(
    db: &Surreal<C>,
    surql: String,
    bindings: Vec<(&'static str, Value)>,
) -> Result<surrealdb::IndexedResults, Error> {
    let mut query = db.query(surql);
    for binding in bindings {
        query = query.bind(binding);
    }
    query.await?.check()
}

/// The row a write that always makes one answered; none is an error naming the statement.
fn made<T: Table>(row: Option<Record<T>>, what: &str) -> Result<Record<T>, Error> {
    row.ok_or_else(|| Error::internal(format!("{what} on `{}` answered no row", T::TABLE)))
}

/// `CREATE ONLY t CONTENT $content`: the new row, its id chosen by the engine.
pub async fn create<T: Table, I: SurrealValue, C: Connection>(db: &Surreal<C>, input: I) -> Result<Record<T>, Error> {
    let surql = format!("CREATE ONLY {} CONTENT $content", escape_ident(T::TABLE));
    made(run(db, surql, vec![("content", input.into_value())]).await?, "CREATE")
}

/// `CREATE ONLY $id CONTENT $content`: the new row at the id given (a table whose ids have a key
/// type, `id: i64`, takes no id the engine would choose).
pub async fn create_at<T: Table, I: SurrealValue, C: Connection>(
    db: &Surreal<C>,
    id: &super::Link<T>,
    input: I,
) -> Result<Record<T>, Error> {
    let bindings = vec![("id", Value::RecordId(id.record_id())), ("content", input.into_value())];
    made(
        run(db, "CREATE ONLY $id CONTENT $content".to_owned(), bindings).await?,
        "CREATE",
    )
}

/// `INSERT INTO t $content` with the inputs as one array: the new rows, in order.
pub async fn insert<T: Table, I: SurrealValue, C: Connection>(
    db: &Surreal<C>,
    inputs: Vec<I>,
) -> Result<Vec<Record<T>>, Error> {
    if inputs.is_empty() {
        return Ok(Vec::new());
    }
    let surql = format!("INSERT INTO {} $content", escape_ident(T::TABLE));
    let rows = Value::Array(
        inputs
            .into_iter()
            .map(SurrealValue::into_value)
            .collect::<Vec<_>>()
            .into(),
    );
    send(db, surql, vec![("content", rows)]).await?.take(0)
}

/// `INSERT INTO t $content` with one input: the new row.
pub async fn insert_one<T: Table, I: SurrealValue, C: Connection>(
    db: &Surreal<C>,
    input: I,
) -> Result<Record<T>, Error> {
    made(insert(db, vec![input]).await?.into_iter().next(), "INSERT")
}

/// `UPDATE ONLY $id CONTENT $content`: the row replaced by the input; `None` when `id` is no row.
pub async fn update<T: Table, I: SurrealValue, C: Connection>(
    db: &Surreal<C>,
    id: &super::Link<T>,
    input: I,
) -> Result<Option<Record<T>>, Error> {
    let bindings = vec![("id", Value::RecordId(id.record_id())), ("content", input.into_value())];
    run(db, "UPDATE ONLY $id CONTENT $content".to_owned(), bindings).await
}

/// `UPDATE ONLY $id MERGE $content`: the row with the patch's fields set; `None` when `id` is no row.
pub async fn merge<T: Table, P: SurrealValue, C: Connection>(
    db: &Surreal<C>,
    id: &super::Link<T>,
    patch: P,
) -> Result<Option<Record<T>>, Error> {
    let bindings = vec![("id", Value::RecordId(id.record_id())), ("content", patch.into_value())];
    run(db, "UPDATE ONLY $id MERGE $content".to_owned(), bindings).await
}

/// `DELETE ONLY $id RETURN BEFORE`: the row deleted; `None` when `id` is no row.
pub async fn delete<T: Table, C: Connection>(db: &Surreal<C>, id: &super::Link<T>) -> Result<Option<Record<T>>, Error> {
    let bindings = vec![("id", Value::RecordId(id.record_id()))];
    run(db, "DELETE ONLY $id RETURN BEFORE".to_owned(), bindings).await
}

/// `RELATE ONLY $from->t->$to CONTENT $content`: the new edge of relation `T`.
pub async fn relate<T: super::RelationEnds, I: SurrealValue, C: Connection>(
    db: &Surreal<C>,
    from: T::From,
    to: T::To,
    input: I,
) -> Result<Record<T>, Error> {
    let surql = format!("RELATE ONLY $from->{}->$to CONTENT $content", escape_ident(T::TABLE));
    let bindings = vec![
        ("from", from.into_value()),
        ("to", to.into_value()),
        ("content", input.into_value()),
    ];
    made(run(db, surql, bindings).await?, "RELATE")
}
