//! The one place that knows SurrealQL: its lexical rules, its types, the `DEFINE` text surqlc writes, and the engine's `INFO` rendering.
//!
//! - [`lex`]: string literals, identifiers, keywords, durations;
//! - [`scan`]: the one tokenizer of SurrealQL text (comments and open quotes included), for positions and masking;
//! - [`kind`]: reads a hand-written type into the IR (the front end calls it once);
//! - [`define`]: the `DEFINE TABLE`/`DEFINE FIELD` statements of `schema.surql` and the derives;
//! - [`flexible`]: which fields keep keys they do not declare, and the paths that reach into them;
//! - [`clauses`]: the clauses after a table's kind and a field's type, `DEFINE INDEX`, `DEFINE ANALYZER`;
//! - `expr` (`surql-parser`): expressions read by the engine's own parser (the check, the engine's spelling);
//! - `functions` (`surql-parser`): a file of `DEFINE FUNCTION`s read by the engine's parser into the IR;
//! - `legacy` (`surql-parser`): SurrealDB 2's spellings 3.3's parser refuses and their 3.x spelling (`init`, the validator);
//! - [`hints`]: the SurrealQL behind each `fn::value_hints()` line;
//! - [`meaning`]: what a Literal enum's doc comments add to its fields' `COMMENT`;
//! - [`route`]: an owner route (`in<-placed<-customer`) as steps, for the per-user agent;
//! - [`info`]: the schema block exactly as the engine prints it back (`fn::schema_context()`).
//!
//! Nothing here depends on `syn`, Tera or the engine: the derives' run-time code uses it too.

pub mod clauses;
pub mod define;
#[cfg(feature = "surql-parser")]
pub mod expr;
pub mod flexible;
#[cfg(feature = "surql-parser")]
pub mod functions;
pub mod hints;
pub mod info;
pub mod kind;
#[cfg(feature = "surql-parser")]
pub mod legacy;
pub mod lex;
pub mod meaning;
pub mod named;
pub mod route;
pub mod scan;

pub use define::{
    define_analyzer, define_field, define_table, define_table_with, render_type, table_definition,
    table_definition_with,
};
pub use lex::{field_ident, is_plain_ident, is_reserved, path_ident, quote_string};
