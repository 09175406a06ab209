//! "Did you mean" in the front end: the crate's one rule (`crate::suggest`), re-exported where the front end's modules look for it.

pub use crate::suggest::{closest, did_you_mean};
