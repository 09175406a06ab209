//! Named query files (`-- name: NAME :many|:one|:opt|:value`): the application's own queries, read with positions ([`crate::surql::named`]) and checked against the schema.

#[cfg(feature = "codegen")]
pub mod check;

pub use crate::surql::named::{is_named, parse, FileError, NamedQuery, Returns};
