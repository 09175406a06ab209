//! A SurrealDB connection for checks and demos: the embedded `mem://` engine by default, a `ws://` server on request.

use surrealdb::engine::any::Any;
use surrealdb::Surreal;

pub type Db = Surreal<Any>;
pub use surrealdb::Error;

/// The embedded engine's endpoint: an in-process database that starts empty.
pub const EMBEDDED: &str = "mem://";

/// Whether `endpoint` is the embedded engine ([`EMBEDDED`]) rather than a server.
pub fn is_embedded(endpoint: &str) -> bool {
    endpoint.starts_with(EMBEDDED)
}

/// Where to connect and as whom. `mem://` needs no credentials.
#[derive(Debug, Clone)]
pub struct Target {
    pub endpoint: String,
    pub namespace: String,
    pub database: String,
    /// Root credentials for a server.
    pub root: Option<(String, String)>,
}

impl Default for Target {
    fn default() -> Self {
        Target {
            endpoint: EMBEDDED.into(),
            namespace: "ai".into(),
            database: "store".into(),
            root: None,
        }
    }
}

/// Opens the connection and selects the namespace and database.
pub async fn connect(target: &Target) -> Result<Db, Error> {
    let db = surrealdb::engine::any::connect(target.endpoint.as_str()).await?;
    if let Some((user, pass)) = &target.root {
        db.signin(surrealdb::opt::auth::Root {
            username: user.clone(),
            password: pass.clone(),
        })
        .await?;
    }
    db.use_ns(target.namespace.as_str())
        .use_db(target.database.as_str())
        .await?;
    Ok(db)
}

/// Runs a whole SurrealQL script (a schema or a data file), failing on the first statement that errors.
pub async fn execute(db: &Db, script: &str) -> Result<(), Error> {
    db.query(script).await?.check()?;
    Ok(())
}

/// The single string one statement returns, such as `RETURN fn::schema_context()`.
pub async fn query_string(db: &Db, statement: &str) -> Result<String, Error> {
    let mut response = db.query(statement).await?.check()?;
    let value: Option<String> = response.take(0)?;
    Ok(value.unwrap_or_default())
}

/// The last statement's result as JSON.
pub async fn query_json(db: &Db, statement: &str) -> Result<serde_json::Value, Error> {
    let mut response = db.query(statement).await?.check()?;
    let last = response.num_statements().saturating_sub(1);
    let value: surrealdb::types::Value = response.take(last)?;
    Ok(value.into_json_value())
}

// No prompt here: `RETURN fn::nl2surql_prompt(...)` is sent only by the runtime
// (`runtime::module::prompt_function`; `runtime::module::nl2surql_prompt` on a `Db`). `db` cannot
// call it: `db` does not imply `runtime`, and `runtime` -> `drift` -> `db` already, so an import
// back would close a loop (tests/house.rs). What asks for a prompt (`schema_db`, the tests) builds with the runtime.

/// Credentials of a database-level user, such as the agent. A database user must name its namespace and database.
pub fn database_user(namespace: &str, database: &str, user: &str, password: &str) -> surrealdb::opt::auth::Database {
    surrealdb::opt::auth::Database {
        namespace: namespace.into(),
        database: database.into(),
        username: user.into(),
        password: password.into(),
    }
}
