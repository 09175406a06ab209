//! surqlc compiles annotated Rust schema definitions into a SurrealDB schema whose
//! functions write a text-to-SurrealQL prompt, plus typed Rust helpers.
//!
//! Pipeline: [`front`] (Rust source to [`ir`]) then the back ends: [`surql`]
//! (definitions), `emit` (the `schema.surql` file), and the optional `tokens`
//! and `db` modules. See `ARCHITECTURE.md` at the repository root.

#[cfg(feature = "front")]
pub mod diagnostic;
#[cfg(feature = "front")]
pub mod front;
pub mod hints;
pub mod ir;
pub mod render;
#[cfg(feature = "runtime")]
pub mod runtime;
pub mod surql;
pub mod surql_clauses;
#[cfg(feature = "surql-parser")]
pub mod surql_expr;

#[cfg(feature = "front")]
pub use diagnostic::{Diagnostic, Diagnostics};
#[cfg(feature = "codegen")]
pub mod builder;
#[cfg(feature = "db")]
pub mod db;
#[cfg(feature = "db")]
pub mod hint_costs;
#[cfg(feature = "codegen")]
pub mod emit;
#[cfg(feature = "codegen")]
mod password;
#[cfg(feature = "codegen")]
pub mod index_helpers;
#[cfg(feature = "codegen")]
pub mod rustgen;
#[cfg(feature = "tokens")]
pub mod tokens;
#[cfg(feature = "codegen")]
pub use builder::{Builder, Error};
