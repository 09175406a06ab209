//! Named query files (`-- name: NAME :many|:one|:opt|:value`): the application's own queries, read with positions ([`crate::surql::named`]) and checked against the schema.

#[cfg(feature = "codegen")]
pub mod check;

#[cfg(all(feature = "codegen", feature = "validate"))]
mod param_checks;
#[cfg(feature = "codegen")]
pub mod rust;
pub mod shape;
// Typing needs the validator (a query's types) and the code generator's identifiers.
#[cfg(all(feature = "codegen", feature = "validate"))]
pub mod typing;

pub use crate::surql::named::{is_named, parse, FileError, NamedQuery, Returns};
pub use shape::{Query, Shape};
