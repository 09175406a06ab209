//! surqlc compiles annotated Rust schema definitions into a SurrealDB schema whose
//! functions write a text-to-SurrealQL prompt, plus typed Rust helpers.
//!
//! Pipeline: [`front`] (Rust source to [`ir`]) then the back ends: [`surql`]
//! (everything SurrealQL: definitions and the engine's rendering), `emit` (the
//! `schema.surql` file), `rustgen`, and the optional `tokens` and `db` modules. See `ARCHITECTURE.md` at the repository root.

pub mod access;
#[cfg(feature = "front")]
pub mod diagnostic;
/// The front end, shared with `surqlc-macros` (the derives run it on each item); not a stable API.
#[cfg(feature = "front")]
#[doc(hidden)]
pub mod front;
pub mod ir;
pub mod prune;
#[cfg(all(feature = "db", feature = "tokens", feature = "codegen"))]
pub mod prune_eval;
#[cfg(all(feature = "db", feature = "tokens", feature = "codegen"))]
pub mod prune_run;
#[cfg(feature = "runtime")]
pub mod runtime;
pub mod suggest;
pub mod surql;
pub mod thesaurus;
#[cfg(feature = "validate")]
pub mod validate;

#[cfg(feature = "front")]
pub use diagnostic::{Diagnostic, Diagnostics};
#[cfg(all(feature = "tokens", feature = "db", feature = "codegen"))]
pub mod audit;
#[cfg(feature = "codegen")]
pub mod builder;
#[cfg(feature = "db")]
pub mod db;
#[cfg(any(feature = "runtime", feature = "db"))]
pub mod drift;
#[cfg(feature = "codegen")]
pub mod emit;
#[cfg(feature = "db")]
pub mod hint_costs;
#[cfg(feature = "codegen")]
mod index_helpers;
#[cfg(feature = "codegen")]
mod password;
/// The typed-helper generator; public for the benchmarks only, not a stable API (use `Builder`).
#[cfg(feature = "codegen")]
#[doc(hidden)]
pub mod rustgen;
#[cfg(all(feature = "db", feature = "codegen"))]
pub mod session;
#[cfg(feature = "tokens")]
pub mod tokens;
#[cfg(feature = "codegen")]
pub use builder::{Builder, Error};

/// What generated and derived code needs from surqlc; not a public API.
#[doc(hidden)]
pub mod __private {
    /// The schema's IR a generated module carries as JSON (written by `rustgen` from the same types).
    #[cfg(feature = "runtime")]
    pub fn schema_from_json(json: &str) -> crate::ir::Schema {
        match serde_json::from_str(json) {
            Ok(schema) => schema,
            // Unreachable: the build script wrote this text from an `ir::Schema` of this surqlc.
            Err(e) => panic!("surqlc: the generated schema IR does not read back: {e}"),
        }
    }

    /// A `#[surqlc(type = "...")]` the derive accepted at expansion time, read again at run time
    /// by the same reader so the derive and the compiler build the same IR.
    pub fn raw_type(text: &str) -> crate::ir::Type {
        match crate::surql::kind::parse(text) {
            Ok(raw) => crate::ir::Type::Raw(raw),
            // Unreachable: the derive refused the text at compile time with the same reader.
            Err(e) => panic!("surqlc: `type = {text:?}`: {}", e.message),
        }
    }
}
