//! Code generation: `schema.surql` (`emit`) and the typed module `schema.rs` (`rustgen`) from the IR, and the `builder::Builder` that runs the front end and both.
//!
//! The rest serves them: the agent's `DEFINE ACCESS`/`DEFINE USER` text (`agent_define`) and its
//! password (`password`), Rust names for SurrealQL ones (`idents`), the per-index helpers
//! (`index_helpers`), each table's input structs and write helpers (`writes`), the views checked
//! against the schema (`views`), and the application's named
//! queries read, checked and typed ([`queries`]).

#[cfg(feature = "codegen")]
mod agent_define;
#[cfg(feature = "codegen")]
pub mod builder;
#[cfg(feature = "codegen")]
pub mod emit;
#[cfg(feature = "codegen")]
mod generated;
#[cfg(feature = "codegen")]
mod idents;
#[cfg(feature = "codegen")]
mod index_helpers;
#[cfg(feature = "codegen")]
pub(crate) mod password;
pub mod queries;
/// The typed-helper generator; public for the benchmarks only, not a stable API (use `Builder`).
#[cfg(feature = "codegen")]
pub mod rustgen;
#[cfg(feature = "codegen")]
mod schema_view;
#[cfg(feature = "codegen")]
pub mod views;
#[cfg(feature = "codegen")]
pub(crate) mod writes;
