//! The per-user agent's session: one end user signed in through the schema's scope access with the application's key (`SURQLC_SCOPE_KEY`), or from a token the application issued for them.
//!
//! A schema with `scope(end_user = Customer)` defines a second record access (`customer_agent`)
//! whose `SIGNIN` takes a user's record id and the application's scope key (only its Argon2id hash
//! is in `schema.surql`): the application opens a session for any of its users without their
//! password, and the engine holds that session to the user's rows by the owned tables'
//! `PERMISSIONS`. The returned [`Agent`] is what [`super::run_readonly`], [`super::run_validated`]
//! and [`super::Asker`] take, so every query of the loop and the prompt itself run as that user.

use super::Agent;
use surrealdb::{Connection, Surreal};

/// The variable the application's scope key is read from (by `surqlc build`, `build.rs` and the CLI).
pub const SCOPE_KEY_VAR: &str = "SURQLC_SCOPE_KEY";

/// Which end user a scoped session is for, and through which access.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// The schema's scope access (`customer_agent`).
    pub access: String,
    /// The end user's record id as SurrealQL writes it (`customer:mei`).
    pub user: String,
}

impl Scope {
    pub fn new(access: impl Into<String>, user: impl Into<String>) -> Self {
        Scope {
            access: access.into(),
            user: user.into(),
        }
    }

    /// Signs a new session on `db`'s connection in as this end user, with the application's scope
    /// key. `db` keeps its own credentials.
    pub async fn signin<C: Connection>(
        &self,
        db: &Surreal<C>,
        namespace: &str,
        database: &str,
        key: &str,
    ) -> Result<Agent<C>, surrealdb::Error> {
        let session = db.clone();
        let signed = session.signin(self.credentials(namespace, database, key)).await;
        super::agent::use_after_signin(session, signed, namespace, database, &self.who())
            .await
            .map(Agent)
    }

    /// A token for this end user's session (valid for the scope's `token` duration), for a
    /// client the application hands it to, such as an MCP host speaking for that user.
    pub async fn token<C: Connection>(
        &self,
        db: &Surreal<C>,
        namespace: &str,
        database: &str,
        key: &str,
    ) -> Result<String, surrealdb::Error> {
        let session = db.clone();
        let token = session
            .signin(self.credentials(namespace, database, key))
            .await
            .map_err(|e| {
                let message = format!("{} could not sign in: {}", self.who(), e.message());
                surrealdb::Error::from_details(message, e.details().clone()).with_cause(e)
            })?;
        Ok(token.access.into_insecure_token())
    }

    fn credentials(
        &self,
        namespace: &str,
        database: &str,
        key: &str,
    ) -> surrealdb::opt::auth::Record<serde_json::Value> {
        surrealdb::opt::auth::Record {
            namespace: namespace.into(),
            database: database.into(),
            access: self.access.clone(),
            params: serde_json::json!({ "user": self.user, "key": key }),
        }
    }

    fn who(&self) -> String {
        format!(
            "the end user `{}` (record access `{}`; the key is {SCOPE_KEY_VAR} as it was when the schema was built)",
            self.user, self.access
        )
    }
}

/// A new session on `db`'s connection authenticated by a token a scoped sign-in issued
/// ([`Scope::token`]): the engine checks its signature and expiry, and the session reads what
/// the token's user may read. `db` keeps its own credentials.
pub async fn authenticate<C: Connection>(
    db: &Surreal<C>,
    namespace: &str,
    database: &str,
    token: &str,
) -> Result<Agent<C>, surrealdb::Error> {
    let session = db.clone();
    let signed = session.authenticate(token.to_owned()).await;
    super::agent::use_after_signin(
        session,
        signed,
        namespace,
        database,
        "a session with the given token",
    )
    .await
    .map(Agent)
}
