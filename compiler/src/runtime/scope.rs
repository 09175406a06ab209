//! The per-user agent's session: a short-lived token the application signs for one end user with its scope key (`SURQLC_SCOPE_KEY`), and the engine session that token opens.
//!
//! A schema with `scope(end_user = Customer)` defines a record access (`customer_agent`) that
//! accepts only tokens signed with the key pair derived from the scope key; `schema.surql` holds
//! the public half. The application opens a session for any of its users without their password
//! ([`Scope::signin`]), or hands a token to a client that speaks for the user ([`Scope::token`],
//! e.g. an MCP host), and the engine holds that session to the user's rows by the owned tables'
//! `PERMISSIONS`. The returned [`Agent`] is what [`super::run_readonly`], [`super::run_validated`]
//! and [`super::Asker`] take, so the prompt and every query of the loop run as that user.

use super::Agent;
use surrealdb::{Connection, Surreal};

/// The variable the application's scope key is read from (by `surqlc build`, `build.rs` and the CLI).
pub const SCOPE_KEY_VAR: &str = "SURQLC_SCOPE_KEY";

/// One end user, and where and through which access they sign in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// The namespace the user signs in to.
    pub namespace: String,
    /// The database the user signs in to.
    pub database: String,
    /// The schema's scope access (`customer_agent`).
    pub access: String,
    /// The end user's record id as SurrealQL writes it (`customer:mei`).
    pub user: String,
    /// How long a token lives (the schema's `scope(token = ...)`).
    pub token_duration: std::time::Duration,
}

impl Scope {
    /// The scope of module `M`'s schema (`scope(end_user = T, ...)`) for the end user `user`, on
    /// `namespace`/`database`; an error when the schema declares no scope or `T` is not its end user.
    pub fn of<M: super::SchemaModule, T: super::Table>(
        namespace: &str,
        database: &str,
        user: &super::Link<T>,
    ) -> Result<Scope, surrealdb::Error> {
        let refuse =
            |message: String| surrealdb::Error::configuration(message, None::<surrealdb::types::ConfigurationError>);
        let Some(scope) = &M::schema_ir().settings.scope else {
            return Err(refuse(
                "the schema declares no per-user agent: add scope(end_user = T) to its Schema item".into(),
            ));
        };
        if scope.end_user != T::TABLE {
            return Err(refuse(format!(
                "the per-user agent answers for rows of `{}`, not of `{}`",
                scope.end_user,
                T::TABLE
            )));
        }
        Ok(Scope::from_ir(scope, namespace, database, &user.to_string()))
    }

    /// The schema's `scope` for the end user `user` (`customer:mei`) on `namespace`/`database`.
    /// The token duration was checked by the front end; one it could not read is 15 minutes.
    pub fn from_ir(scope: &crate::ir::Scope, namespace: &str, database: &str, user: &str) -> Scope {
        Scope {
            namespace: namespace.to_owned(),
            database: database.to_owned(),
            access: scope.access.clone(),
            user: user.to_owned(),
            token_duration: std::time::Duration::from_secs(
                crate::surql::lex::duration_secs(&scope.token_duration).unwrap_or(900),
            ),
        }
    }

    /// A token for this end user, signed with the key pair derived from `key` and valid from now
    /// for the scope's token duration: what the engine's record access accepts.
    pub fn token(&self, key: &str) -> String {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        crate::scope_key::token(
            key,
            &crate::scope_key::Claims {
                namespace: &self.namespace,
                database: &self.database,
                access: &self.access,
                user: &self.user,
                issued_at: now,
                expires_at: now.saturating_add(self.token_duration.as_secs().max(1)),
            },
        )
    }

    /// A new session on `db`'s connection signed in as this end user with a fresh token.
    /// `db` keeps its own credentials.
    pub async fn signin<C: Connection>(&self, db: &Surreal<C>, key: &str) -> Result<Agent<C>, surrealdb::Error> {
        let who = format!("the end user `{}` (record access `{}`)", self.user, self.access);
        let table = self.user.split(':').next().unwrap_or(&self.user);
        let hint = format!(
            "is `{}` a row of `{table}` in this database? The per-user access admits only existing rows. \
             And was the schema applied with the scope key {SCOPE_KEY_VAR} holds? The token is signed with the key derived from it",
            self.user
        );
        authenticate_as(db, &self.namespace, &self.database, &self.token(key), &who, &hint).await
    }
}

/// A new session on `db`'s connection authenticated by a token ([`Scope::token`]): the engine
/// checks its signature and expiry, and the session reads what the token's user may read.
/// `db` keeps its own credentials.
pub async fn authenticate<C: Connection>(
    db: &Surreal<C>,
    namespace: &str,
    database: &str,
    token: &str,
) -> Result<Agent<C>, surrealdb::Error> {
    authenticate_as(
        db,
        namespace,
        database,
        token,
        "a session with the given token",
        &format!(
            "is the token signed with the key derived from the {SCOPE_KEY_VAR} the schema was applied \
            with, unexpired, and for a row that exists?"
        ),
    )
    .await
}

async fn authenticate_as<C: Connection>(
    db: &Surreal<C>,
    namespace: &str,
    database: &str,
    token: &str,
    who: &str,
    hint: &str,
) -> Result<Agent<C>, surrealdb::Error> {
    let session = db.clone();
    let signed = session.authenticate(token.to_owned()).await;
    super::agent::signed_in_as(session, signed, namespace, database, who, hint)
        .await
        .map(Agent::end_user)
}
