//! The validator's catalogue: every kind of mistake (`Class`) with its stable code (`SQ0102`), what the engine does with it, and whether a lint level may make it a warning.
//!
//! Codes never change meaning once released; a retired class keeps its number. `docs/diagnostics.md`
//! lists every code with a wrong and a fixed example, and a test holds the two together.

use std::fmt;

/// What kind of mistake a diagnostic reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The text does not parse (and no SQL habit explains why).
    Syntax,
    /// Not exactly one SELECT, a write inside it, or its own TIMEOUT.
    NotOneSelect,
    /// A table the agent cannot query (unknown or not exposed: the same message).
    UnknownTable,
    /// A field the table (or the subquery's rows) does not have.
    UnknownField,
    /// A field read after a traversal that landed on another table than the one that has it.
    WrongTableAfterTraversal,
    /// A graph step through an edge that does not connect those tables, or in the wrong direction.
    BadTraversal,
    /// `[field = x]` (an index) where `[WHERE field = x]` (a filter) was meant.
    FilterWithoutWhere,
    /// A compared string that is not one of a literal union's values.
    ValueNotInUnion,
    /// A comparison of values of different types (a datetime with a plain string, a number with a string).
    TypeMismatch,
    /// `field = NULL` / `field != NULL` on a declared field: a missing value is NONE, never NULL.
    NullComparison,
    /// A WHERE condition that is not a boolean (`WHERE price`): every truthy row matches.
    ConditionNotBool,
    /// A habit from SQL that SurrealQL does not have (DISTINCT, JOIN, COUNT(*), ILIKE, TOP n, ...).
    SqlHabit,
    /// A missing, too large, negative or non-numeric LIMIT (or START).
    Limit,
    /// `count()` in a SELECT without GROUP BY or GROUP ALL: 1 per row, not a total.
    CountWithoutGroup,
    /// An aggregate (`math::sum`, `array::group`, ...) of one row's value outside GROUP BY.
    AggregateWithoutGroup,
    /// An aggregate over values it cannot add up (`math::sum` of strings is 0).
    AggregateArgument,
    /// Under GROUP BY, a projection that is neither a group key nor an aggregate: an array per group.
    UngroupedProjection,
    /// `*` in a grouped SELECT.
    AllFieldsUnderGroup,
    /// Two projections with the same output name: the last overwrites the first.
    DuplicateAlias,
    /// `FROM ONLY table` without `LIMIT 1`.
    OnlyWithoutLimitOne,
    /// A full-text match, `search::*` or KNN operator without the index it needs.
    MissingIndex,
    /// A KNN query vector whose dimension is not the index's.
    VectorDimension,
    /// A built-in function called with the wrong number of arguments, or an argument of a type it refuses.
    FunctionArguments,
    /// A `fn::` function the schema does not define for the agent (a typo, surqlc's own, or one with `PERMISSIONS NONE`).
    UnknownFunction,
    /// A record id written in the query that does not exist (needs the data).
    UnknownRecord,
    /// A compared value not present in the data of a value-hinted field (needs the data).
    ValueNotPresent,
    /// In an end user's session, a value computed over other users' rows too (EXPLAIN, a
    /// search score or highlight, a KNN distance over an owned table): a side channel.
    SideChannel,
    /// `$auth` where it is no end user's record: the team's agent, or a schema without a scope.
    AuthOutsideSession,
    /// The engine refused the query at run time (after the validator passed it).
    EngineError,
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
    pub fn describe(self) -> &'static str {
        match self {
            Engine::Fails => "fails",
            Engine::AnswersWrongly => "answers wrongly",
            Engine::Suspicious => "suspicious",
            Engine::Refused => "refused by the runner",
        }
    }
}

/// One entry: a class's code, name and behaviour.
struct Entry {
    class: Class,
    code: &'static str,
    engine: Engine,
    /// Reported as a warning unless a lint level says otherwise.
    warning: bool,
}

const fn e(class: Class, code: &'static str, engine: Engine, warning: bool) -> Entry {
    Entry {
        class,
        code,
        engine,
        warning,
    }
}

const CATALOGUE: &[Entry] = &[
    e(Class::Syntax, "SQ0001", Engine::Fails, false),
    e(Class::NotOneSelect, "SQ0002", Engine::Refused, false),
    e(Class::UnknownTable, "SQ0101", Engine::Fails, false),
    e(Class::UnknownField, "SQ0102", Engine::AnswersWrongly, false),
    e(Class::WrongTableAfterTraversal, "SQ0103", Engine::AnswersWrongly, false),
    e(Class::BadTraversal, "SQ0104", Engine::AnswersWrongly, false),
    e(Class::FilterWithoutWhere, "SQ0105", Engine::AnswersWrongly, false),
    e(Class::ValueNotInUnion, "SQ0201", Engine::AnswersWrongly, false),
    e(Class::TypeMismatch, "SQ0202", Engine::AnswersWrongly, false),
    e(Class::NullComparison, "SQ0203", Engine::AnswersWrongly, false),
    e(Class::ConditionNotBool, "SQ0204", Engine::Suspicious, true),
    e(Class::SqlHabit, "SQ0301", Engine::Fails, false),
    e(Class::Limit, "SQ0401", Engine::Refused, false),
    e(Class::CountWithoutGroup, "SQ0501", Engine::AnswersWrongly, false),
    e(Class::AggregateWithoutGroup, "SQ0502", Engine::Fails, false),
    e(Class::AggregateArgument, "SQ0503", Engine::AnswersWrongly, false),
    e(Class::UngroupedProjection, "SQ0504", Engine::AnswersWrongly, false),
    e(Class::AllFieldsUnderGroup, "SQ0505", Engine::Fails, false),
    e(Class::DuplicateAlias, "SQ0601", Engine::AnswersWrongly, false),
    e(Class::OnlyWithoutLimitOne, "SQ0602", Engine::Fails, false),
    e(Class::MissingIndex, "SQ0701", Engine::Fails, false),
    e(Class::VectorDimension, "SQ0702", Engine::Fails, false),
    e(Class::FunctionArguments, "SQ0801", Engine::Fails, false),
    e(Class::UnknownFunction, "SQ0802", Engine::Fails, false),
    e(Class::UnknownRecord, "SQ0901", Engine::AnswersWrongly, false),
    e(Class::ValueNotPresent, "SQ0902", Engine::Suspicious, true),
    e(Class::SideChannel, "SQ1001", Engine::Refused, false),
    e(Class::AuthOutsideSession, "SQ1002", Engine::AnswersWrongly, false),
    e(Class::EngineError, "SQ9000", Engine::Fails, false),
];

impl Class {
    /// Every class, in code order.
    pub const ALL: &'static [Class] = &[
        Class::Syntax,
        Class::NotOneSelect,
        Class::UnknownTable,
        Class::UnknownField,
        Class::WrongTableAfterTraversal,
        Class::BadTraversal,
        Class::FilterWithoutWhere,
        Class::ValueNotInUnion,
        Class::TypeMismatch,
        Class::NullComparison,
        Class::ConditionNotBool,
        Class::SqlHabit,
        Class::Limit,
        Class::CountWithoutGroup,
        Class::AggregateWithoutGroup,
        Class::AggregateArgument,
        Class::UngroupedProjection,
        Class::AllFieldsUnderGroup,
        Class::DuplicateAlias,
        Class::OnlyWithoutLimitOne,
        Class::MissingIndex,
        Class::VectorDimension,
        Class::FunctionArguments,
        Class::UnknownFunction,
        Class::UnknownRecord,
        Class::ValueNotPresent,
        Class::SideChannel,
        Class::AuthOutsideSession,
        Class::EngineError,
    ];

    fn entry(self) -> &'static Entry {
        CATALOGUE
            .iter()
            .find(|e| e.class == self)
            .expect("every class is in the catalogue (tested)")
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
        self.entry().warning
    }

    /// Whether a lint level may turn its error into a warning: only where the engine does not fail
    /// (or the runner would refuse it anyway).
    pub fn may_warn(self) -> bool {
        matches!(self.engine(), Engine::AnswersWrongly | Engine::Suspicious)
    }

    pub fn name(self) -> &'static str {
        match self {
            Class::Syntax => "Syntax",
            Class::NotOneSelect => "NotOneSelect",
            Class::UnknownTable => "UnknownTable",
            Class::UnknownField => "UnknownField",
            Class::WrongTableAfterTraversal => "WrongTableAfterTraversal",
            Class::BadTraversal => "BadTraversal",
            Class::FilterWithoutWhere => "FilterWithoutWhere",
            Class::ValueNotInUnion => "ValueNotInUnion",
            Class::TypeMismatch => "TypeMismatch",
            Class::NullComparison => "NullComparison",
            Class::ConditionNotBool => "ConditionNotBool",
            Class::SqlHabit => "SqlHabit",
            Class::Limit => "Limit",
            Class::CountWithoutGroup => "CountWithoutGroup",
            Class::AggregateWithoutGroup => "AggregateWithoutGroup",
            Class::AggregateArgument => "AggregateArgument",
            Class::UngroupedProjection => "UngroupedProjection",
            Class::AllFieldsUnderGroup => "AllFieldsUnderGroup",
            Class::DuplicateAlias => "DuplicateAlias",
            Class::OnlyWithoutLimitOne => "OnlyWithoutLimitOne",
            Class::MissingIndex => "MissingIndex",
            Class::VectorDimension => "VectorDimension",
            Class::FunctionArguments => "FunctionArguments",
            Class::UnknownFunction => "UnknownFunction",
            Class::UnknownRecord => "UnknownRecord",
            Class::ValueNotPresent => "ValueNotPresent",
            Class::SideChannel => "SideChannel",
            Class::AuthOutsideSession => "AuthOutsideSession",
            Class::EngineError => "EngineError",
        }
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
        for class in Class::ALL {
            let n = CATALOGUE.iter().filter(|e| e.class == *class).count();
            assert_eq!(n, 1, "{class}");
            assert!(codes.insert(class.code()), "{} twice", class.code());
            assert!(class.code().len() == 6 && class.code().starts_with("SQ"));
            assert_eq!(Class::from_name(class.code()), Some(*class));
            assert_eq!(Class::from_name(class.name()), Some(*class));
        }
        assert_eq!(CATALOGUE.len(), Class::ALL.len());
        // In code order.
        let listed: Vec<&str> = Class::ALL.iter().map(|c| c.code()).collect();
        let mut sorted = listed.clone();
        sorted.sort();
        assert_eq!(listed, sorted);
    }
}
