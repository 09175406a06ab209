//! The one place that knows SurrealQL: its lexical rules, its types, the `DEFINE` text surqlc writes, and the engine's `INFO` rendering.
//!
//! - [`lex`]: string literals, identifiers, keywords, durations;
//! - [`kind`]: reads a hand-written type into the IR (the front end calls it once);
//! - [`define`]: the `DEFINE TABLE`/`DEFINE FIELD` statements of `schema.surql` and the derives;
//! - [`info`]: the schema block exactly as the engine prints it back (`fn::schema_context()`).
//!
//! Nothing here depends on `syn`, Tera or the engine: the derives' run-time code uses it too.

pub mod define;
pub mod info;
pub mod kind;
pub mod lex;

pub use define::{define_field, define_table, render_type, table_definition};
pub use lex::{field_ident, is_plain_ident, is_reserved, quote_string};
