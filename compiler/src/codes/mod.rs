//! The validator's catalogue: every kind of mistake (`Class`) with its stable code (`SQ0102`), what the engine does with it, and whether a lint level may make it a warning.
//!
//! Codes never change meaning once released; a retired class keeps its number. Each code is
//! written once, in `registry.rs` (name, code, engine behaviour, default level, what it catches,
//! a wrong and a fixed example); `docs/diagnostics.md` is [`page`](crate::codes::page)'s output, and a test fails
//! when the committed page differs.
//!
//! ```
//! use surqlc::codes::{Class, Severity};
//!
//! let class = Class::from_name("SQ0102").expect("a registered code");
//! assert_eq!(class, Class::UnknownField);
//! assert_eq!(class.severity(), Severity::Error);
//! // Every class has a wrong query and its fixed twin, as `docs/diagnostics.md` shows them.
//! println!("{}\n{}", class.examples().wrong, class.examples().fixed);
//! ```

mod page;
mod registry;

pub use page::page;
pub use registry::Class;
use registry::{Entry, ENTRIES};
use std::fmt;

/// How sure a diagnostic is: an error refuses the query, a warning goes back with the rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The query is wrong: it must not run.
    Error,
    /// The query may be wrong: it runs, and the warning goes back with the rows.
    Warning,
}

/// The registered cases where a class that is an error by default is reported as a warning:
/// the query may well be right, and it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Demotion {
    /// An undeclared field of a SCHEMALESS table, or an undeclared key of a FLEXIBLE object that
    /// looks like a misspelt declared one ([`Class::UnknownField`]): rows may hold it.
    SchemalessField,
    /// A missing LIMIT where the agent's runner adds one ([`Class::Limit`]).
    RunnerAddsLimit,
    /// An aggregate given extra arguments under GROUP BY, which the engine ignores
    /// ([`Class::FunctionArguments`]).
    ExtraAggregateArguments,
}

impl Demotion {
    /// The class the demoted finding keeps.
    pub fn class(self) -> Class {
        match self {
            Demotion::SchemalessField => Class::UnknownField,
            Demotion::RunnerAddsLimit => Class::Limit,
            Demotion::ExtraAggregateArguments => Class::FunctionArguments,
        }
    }
}

/// A code's wrong query and its fixed twin, from the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Examples {
    /// The example schema they are written for (`schemas/<schema>.rs`).
    pub schema: &'static str,
    /// A query with the mistake.
    pub wrong: &'static str,
    /// The same question, asked right.
    pub fixed: &'static str,
}

/// What SurrealDB 3.3 does with a query that has the mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// It fails with an error.
    Fails,
    /// It answers without an error, but the answer is not the one asked for.
    AnswersWrongly,
    /// It answers; the query is suspicious, not certainly wrong.
    Suspicious,
    /// The agent's runner refuses it (a policy: one read-only SELECT, a row cap).
    Refused,
}

impl Engine {
    /// How the catalogue page says it: `fails`, `answers wrongly`, ...
    pub fn describe(self) -> &'static str {
        match self {
            Engine::Fails => "fails",
            Engine::AnswersWrongly => "answers wrongly",
            Engine::Suspicious => "suspicious",
            Engine::Refused => "refused by the runner",
        }
    }
}

impl Class {
    fn entry(self) -> &'static Entry {
        &ENTRIES[self as usize]
    }

    /// The stable code: `SQ0102`.
    pub fn code(self) -> &'static str {
        self.entry().code
    }

    /// What the engine does with a query that has this mistake.
    pub fn engine(self) -> Engine {
        self.entry().engine
    }

    /// Whether it is reported as a warning by default.
    pub fn warns_by_default(self) -> bool {
        self.entry().level == Severity::Warning
    }

    /// Its default level: what the registry says, before a schema's or a query's lint levels.
    pub fn severity(self) -> Severity {
        self.entry().level
    }

    /// What it catches and what the engine does, as the catalogue page says it (markdown).
    pub fn about(self) -> &'static str {
        self.entry().about
    }

    /// A wrong query and its fixed twin, and the example schema they are written for (`store`).
    pub fn examples(self) -> Examples {
        let e = self.entry();
        Examples {
            schema: e.schema,
            wrong: e.wrong,
            fixed: e.fixed,
        }
    }

    /// Whether a lint level may turn its error into a warning: only where the engine does not fail
    /// (or the runner would refuse it anyway).
    pub fn may_warn(self) -> bool {
        matches!(self.engine(), Engine::AnswersWrongly | Engine::Suspicious)
    }

    /// The name: `UnknownField`.
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// A class by its name (`UnknownField`) or its code (`SQ0102`, any case).
    pub fn from_name(name: &str) -> Option<Class> {
        Class::ALL
            .iter()
            .copied()
            .find(|c| c.name() == name || c.code().eq_ignore_ascii_case(name))
    }

    /// A class by its code only.
    pub fn from_code(code: &str) -> Option<Class> {
        Class::ALL
            .iter()
            .copied()
            .find(|c| c.code().eq_ignore_ascii_case(code.trim()))
    }
}

/// Why `code` cannot take a lint level, if it cannot: any code may be denied (made an error); an
/// error's code may be allowed (dropped) or made a warning only where the engine does not fail on
/// the query (nor the runner refuse it). `relaxes`: the level is `allow` or `warn`.
pub fn lint_rule(code: &str, relaxes: bool) -> Result<Class, String> {
    let class = Class::from_code(code).ok_or_else(|| {
        let codes: Vec<&str> = Class::ALL.iter().map(|c| c.code()).collect();
        format!(
            "unknown lint code `{code}`: the codes are {} (docs/diagnostics.md)",
            codes.join(", ")
        )
    })?;
    if relaxes && !class.warns_by_default() && !class.may_warn() {
        return Err(format!(
            "{code} ({class}) cannot be allowed or made a warning: the {} such a query",
            match class.engine() {
                Engine::Refused => "runner refuses",
                _ => "engine fails on",
            }
        ));
    }
    Ok(class)
}

impl fmt::Display for Class {
    /// The name (`UnknownField`); the code is [`Class::code`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_has_one_entry_and_a_unique_code() {
        let mut codes = std::collections::BTreeSet::new();
        for (i, class) in Class::ALL.iter().enumerate() {
            assert_eq!(ENTRIES[i].name, format!("{class:?}"));
            assert!(codes.insert(class.code()), "{} twice", class.code());
            assert!(class.code().len() == 6 && class.code().starts_with("SQ"));
            assert_eq!(Class::from_name(class.code()), Some(*class));
            assert_eq!(Class::from_name(class.name()), Some(*class));
        }
        assert_eq!(ENTRIES.len(), Class::ALL.len());
        // In code order.
        let listed: Vec<&str> = Class::ALL.iter().map(|c| c.code()).collect();
        let mut sorted = listed.clone();
        sorted.sort();
        assert_eq!(listed, sorted);
    }
}
