//! Named query files (`-- name: NAME :many|:one|:opt|:value|:exec`): the application's own queries, read with positions ([`crate::surql::named`]) and checked against the schema.
//!
//! ```
//! use surqlc::queries::{parse, Returns};
//!
//! let file = "-- name: customers_in :many\n-- question: Who buys from Germany?\n\
//!             SELECT name FROM customer WHERE country = $country;\n";
//! let queries = parse(file).expect("the file reads");
//! assert_eq!(queries[0].name, "customers_in");
//! assert_eq!(queries[0].returns, Returns::Many);
//! assert_eq!(queries[0].text, "SELECT name FROM customer WHERE country = $country");
//! ```

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
