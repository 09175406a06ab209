//! Named query files (`-- name: NAME :many|:one|:opt|:value`): the application's own queries, read with positions for errors at file:line:col.

#[cfg(feature = "codegen")]
pub mod check;
pub mod file;

pub use file::{is_named, parse, FileError, NamedQuery, Returns};
