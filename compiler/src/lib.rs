//! surqlc compiles annotated Rust schema definitions into a SurrealDB schema whose
//! functions write a text-to-SurrealQL prompt, plus typed Rust helpers.
//!
//! What a user reaches for:
//! - `Builder` (feature `codegen`, the default; `surqlc::Builder`): from `build.rs`, compile the schema file into
//!   `schema.surql` and the typed module `schema.rs`;
//! - [`runtime`] (feature `runtime`): what an application links: typed links and rows, the traits
//!   the derives implement, the agent's sign-in and its guarded runner, and what every generated
//!   module shares;
//! - [`validate`] (feature `validate`, in `runtime`): a generated query checked against the schema,
//!   each problem with its position and a fix;
//! - [`drift`]: how a database's definitions differ from the schema file.
//!
//! The rest (the front end, the SurrealQL back ends, the database the CLI opens, the audit) is public only
//! for the command line (the `surqlc-cli` crate), the derives and the tests, hidden from these docs. See
//! `ARCHITECTURE.md` at the repository root.

#![warn(missing_docs)]

// The user's API: `Builder` (build.rs), `runtime` (what an application links), `validate`
// (the query checker), `ir` (what generated code and the validator read), `drift`, `diagnostic`.
#[cfg(feature = "front")]
pub mod diagnostic;
#[cfg(any(feature = "runtime", feature = "db"))]
pub mod drift;
pub mod ir;
#[cfg(feature = "runtime")]
pub mod runtime;
#[cfg(feature = "validate")]
pub mod validate;

/// Every kind of query mistake with its stable code (`SQ0102`): what `validate` reports and
/// `lints(...)` names. Dependency-free, so the front end checks lint codes without the parser.
pub mod codes;
/// Unguessable per-process strings (a run's agent password, MCP's data markers).
#[cfg(feature = "db")]
mod random;

#[cfg(feature = "codegen")]
pub use codegen::builder::{self, Builder, Error};
/// Named query files: the application's own queries, read, checked against the schema and typed.
pub use codegen::queries;
#[cfg(feature = "front")]
pub use diagnostic::{Diagnostic, Diagnostics};

// The compiler's own rooms. Public only because the command line (`surqlc-cli`), the derives, the benches and the
// end-to-end tests (other crates) reach into them; hidden from the docs and not a stable API.
#[doc(hidden)]
pub mod access;
#[cfg(all(feature = "tokens", feature = "db", feature = "codegen"))]
#[doc(hidden)]
pub mod audit;
/// Code generation (`Builder`, `schema.surql`, `schema.rs`); `builder` and `queries` are re-exported above.
#[doc(hidden)]
pub mod codegen;
#[cfg(feature = "db")]
#[doc(hidden)]
pub mod db;
/// Schema evolution: `surqlc plan` and `apply` (the changes judged against the rows, one transaction).
#[cfg(all(feature = "db", feature = "codegen"))]
#[doc(hidden)]
pub mod evolve;
/// Why a command's work failed (`Failure`); the command line's and the MCP server's, not a stable API.
#[doc(hidden)]
pub mod exit;
/// The front end, shared with `surqlc-macros` (the derives run it on each item); not a stable API.
#[cfg(feature = "front")]
#[doc(hidden)]
pub mod front;
/// `surqlc init`: an existing SurrealDB schema (a `.surql` file, a dump, a live database) written as
/// the annotated Rust schema file.
#[cfg(all(feature = "codegen", feature = "surql-parser"))]
#[doc(hidden)]
pub mod init;
/// The MCP server `surqlc mcp` runs (feature `mcp`), kept in the library so an application may
/// embed it; hidden until its API is settled.
#[cfg(feature = "mcp")]
#[doc(hidden)]
pub mod mcp;
#[doc(hidden)]
pub mod prune;
#[cfg(all(feature = "db", feature = "codegen"))]
#[doc(hidden)]
pub mod schema_db;
/// The per-user agent's key pair from the scope key (the public key for `schema.surql`, tokens).
#[cfg(feature = "scope-keys")]
mod scope_key;
#[cfg(any(feature = "front", feature = "validate"))]
mod suggest;
#[doc(hidden)]
pub mod surql;
#[cfg(feature = "tokens")]
#[doc(hidden)]
pub mod tokens;
#[cfg(any(all(feature = "db", feature = "codegen"), feature = "mcp"))]
mod utc;

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

    /// A field's comment as the compiler builds it: its doc, then the meaning of its Literal enum type.
    pub fn field_comment(comment: Option<String>, meaning: Option<String>) -> Option<String> {
        crate::surql::meaning::with_meaning(comment, meaning)
    }

    /// The field type of an `Ends` enum: `record<t>` for one table, `record<a | b>` for several.
    pub fn ends_type(tables: Vec<String>) -> crate::ir::Type {
        match <[String; 1]>::try_from(tables) {
            Ok([one]) => crate::ir::Type::Record(one),
            Err(tables) => crate::ir::Type::Records(tables),
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
