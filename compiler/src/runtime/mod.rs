//! What an application links at run time: typed record links, the traits the derives implement, typed rows, and the agent's read-only runner.
//!
//! Enabled by the `runtime` feature, which pulls in the `surrealdb` client without any
//! engine (the application picks its engines on its own `surrealdb` dependency) and
//! nothing of the compiler: no syn, Tera, tiktoken or clap. The derives in
//! `surqlc-macros` and the module `build.rs` generates refer to items here by their
//! full path, so they work whatever the application calls its `surrealdb` dependency.
//!
//! One file per job: [`traits`](Table) the derives implement, the values applications hold
//! ([`Link`], [`Record`], ...), the row codec the derived impls use ([`ObjectReader`]), the
//! agent ([`Agent`], [`run_validated`]), one end user's session ([`Scope`]), and what every generated module shares ([`module`]).
//!
//! ```no_run
//! // Needs a database: a model's reply checked and run as the read-only agent.
//! use surqlc::runtime::{run_validated, Agent, Connection, Outcome, QUERY_TIMEOUT};
//!
//! async fn answer<C: Connection>(
//!     agent: &Agent<C>,
//!     schema: &surqlc::ir::Schema,
//!     reply: &str,
//! ) -> surqlc::runtime::Result<()> {
//!     match run_validated(agent, reply, QUERY_TIMEOUT, schema).await? {
//!         Outcome::Rows { rows, warnings } => println!("{} rows; {}", rows.len(), warnings.join("; ")),
//!         Outcome::CannotAnswer(reason) => println!("the model cannot answer: {reason}"),
//!         // Each problem with its fix: the next turn for the model.
//!         Outcome::Rejected(problems) => println!("{problems}"),
//!     }
//!     Ok(())
//! }
//! ```

mod agent;
// The agent loop (ask.rs), execution accuracy (eval.rs) and the OpenAI-compatible client (openai.rs).
pub mod ask;
mod codec;
pub mod eval;
mod index_helpers;
pub mod module;
pub mod named;
#[cfg(feature = "model")]
pub mod openai;
// Question-specific pruning made in the application (pruner.rs).
pub mod pruner;
pub mod scope;
pub mod spans;
mod traits;
mod values;
pub mod writes;

pub use agent::{
    prepare_select, run_named_capped, run_readonly, run_validated, run_validated_capped, signin_agent,
    signin_database_user, signin_record_agent, to_json, Agent, Checked, Outcome,
};
pub use ask::{Answer, Asker, Attempt, Embedder, Message, Model, ModelError};
pub use codec::{
    ends_mismatch, literal_from_value, literal_kind, record_table, FieldValue, ObjectReader, ObjectWriter,
};
pub use index_helpers::{find_one, get_by_key, nearest, search};
pub use module::SchemaModule;
pub use pruner::{Choice, Mechanisms, Pruner, ShownField};
pub use scope::{Scope, SCOPE_KEY_VAR};
pub use traits::{Ends, Literal, RecordKey, Relation, RelationEnds, SurqlType, Table, TableField};
pub use values::{Example, Link, Nearest, Record, Scored};

pub use surrealdb;
pub use surrealdb::{Connection, Surreal};

/// The `TIMEOUT` the agent's queries run with unless the caller gives another: the generated
/// module's `QUERY_TIMEOUT` and the default of [`Asker`] and `surqlc ask`/`eval`.
pub const QUERY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// `Result` with surrealdb's `Error`: what the runtime's and the generated module's functions return.
pub type Result<T, E = surrealdb::Error> = std::result::Result<T, E>;
pub use surrealdb::types::{
    Bytes, Datetime, Decimal, Duration, Number, RecordId, RecordIdKey, SurrealValue, Uuid, Value,
};
