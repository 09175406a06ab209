//! The one registry of the validator's codes: each class written once, with everything the page, the lint rules and the diagnostics read from it.

use super::{Engine, Severity};

/// One code, as registered.
pub(super) struct Entry {
    pub(super) name: &'static str,
    pub(super) code: &'static str,
    pub(super) engine: Engine,
    pub(super) level: Severity,
    pub(super) about: &'static str,
    pub(super) schema: &'static str,
    pub(super) wrong: &'static str,
    pub(super) fixed: &'static str,
}

/// Declares `Class` (one variant per entry, its doc the entry's summary), `Class::ALL` and
/// `ENTRIES` in the same order, so a class cannot lack an entry nor an entry a class.
macro_rules! registry {
    ($(
        $(#[doc = $summary:literal])*
        $class:ident = {
            code: $code:literal,
            engine: $engine:ident,
            level: $level:ident,
            about: $about:literal,
            $(schema: $schema:literal,)?
            wrong: $wrong:literal,
            fixed: $fixed:literal,
        }
    )*) => {
        /// What kind of mistake a diagnostic reports.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Class {
            $($(#[doc = $summary])* $class,)*
        }

        impl Class {
            /// Every class, in code order.
            pub const ALL: &'static [Class] = &[$(Class::$class,)*];
        }

        pub(super) const ENTRIES: &[Entry] = &[$(Entry {
            name: stringify!($class),
            code: $code,
            engine: Engine::$engine,
            level: Severity::$level,
            about: $about,
            schema: registry!(@schema $($schema)?),
            wrong: $wrong,
            fixed: $fixed,
        },)*];
    };
    (@schema) => { "store" };
    (@schema $schema:literal) => { $schema };
}

registry! {
    /// The text does not parse (and no SQL habit explains why).
    Syntax = {
        code: "SQ0001",
        engine: Fails,
        level: Error,
        about: r#"The text does not parse as SurrealQL (and no SQL habit explains why). The message is the parser's,
at its position."#,
        wrong: r#"SELECT name FROM customer WHERE LIMIT 5"#,
        fixed: r#"SELECT name FROM customer LIMIT 5"#,
    }
    /// Not exactly one SELECT, a write inside it, or its own TIMEOUT.
    NotOneSelect = {
        code: "SQ0002",
        engine: Refused,
        level: Error,
        about: r#"Not exactly one SELECT: several statements, a write (CREATE, UPDATE, DELETE, RELATE, ...) inside it,
or a TIMEOUT of its own (the runner sets it)."#,
        wrong: r#"SELECT name FROM customer LIMIT 5; DELETE customer"#,
        fixed: r#"SELECT name FROM customer LIMIT 5"#,
    }
    /// A `-- surqlc: allow(...)` directive without a reason, with an unknown code, or allowing
    /// a code whose queries the engine fails.
    BadSuppression = {
        code: "SQ0003",
        engine: Refused,
        level: Error,
        about: r#"A suppression comment surqlc cannot honour. `-- surqlc: allow(SQ0204) reason="..."` on the
line before a query or at the end of its line drops that code's findings for that query (in a
reply, in `check-query`, and in named query files); the reason is required. Codes whose queries
the engine fails (or the runner refuses) cannot be allowed, as with the schema's `lints(...)`; an
unknown code, a missing reason or another word than `allow` is this finding, and the query is
refused until the directive is right."#,
        wrong: r#"SELECT name FROM product WHERE price LIMIT 5 -- surqlc: allow(SQ0204)"#,
        fixed: r#"SELECT name FROM product WHERE price LIMIT 5 -- surqlc: allow(SQ0204) reason="price is never 0 here""#,
    }
    /// A table the agent cannot query (unknown or not exposed: the same message).
    UnknownTable = {
        code: "SQ0101",
        engine: Fails,
        level: Error,
        about: r#"A table the agent cannot query: missing, or hidden from the prompt (the same message: a hidden table
reads as a missing one). The engine fails with "The table ... does not exist"."#,
        wrong: r#"SELECT name FROM customers LIMIT 5"#,
        fixed: r#"SELECT name FROM customer LIMIT 5"#,
    }
    /// A field the table (or the subquery's rows) does not have.
    UnknownField = {
        code: "SQ0102",
        engine: AnswersWrongly,
        level: Error,
        about: r#"A field the table (or a subquery's rows) does not have. The engine reads it as NONE in every row, in
projections, WHERE and ORDER BY alike."#,
        wrong: r#"SELECT name, email FROM customer LIMIT 5"#,
        fixed: r#"SELECT name FROM customer LIMIT 5"#,
    }
    /// A field read after a traversal that landed on another table than the one that has it.
    WrongTableAfterTraversal = {
        code: "SQ0103",
        engine: AnswersWrongly,
        level: Error,
        about: r#"A field read after a graph step that landed on another table than the one that has it
(`->contains->product.status`)."#,
        wrong: r#"SELECT VALUE ->placed->purchase->contains->product.status FROM customer LIMIT 5"#,
        fixed: r#"SELECT VALUE ->placed->purchase.status FROM customer LIMIT 5"#,
    }
    /// A graph step through an edge that does not connect those tables, or in the wrong direction.
    BadTraversal = {
        code: "SQ0104",
        engine: AnswersWrongly,
        level: Error,
        about: r#"A graph step through an edge that does not connect those tables, or in the wrong direction: the
engine answers empty lists."#,
        wrong: r#"SELECT name, <-placed<-purchase AS orders FROM customer LIMIT 5"#,
        fixed: r#"SELECT name, ->placed->purchase AS orders FROM customer LIMIT 5"#,
    }
    /// `[field = x]` (an index) where `[WHERE field = x]` (a filter) was meant.
    FilterWithoutWhere = {
        code: "SQ0105",
        engine: AnswersWrongly,
        level: Error,
        about: r#"`[field = x]` after a step is an index into the list, not a filter; `[WHERE field = x]` filters."#,
        wrong: r#"SELECT name, ->placed->purchase[status = 'shipped'] AS shipped FROM customer LIMIT 5"#,
        fixed: r#"SELECT name, ->placed->purchase[WHERE status = 'shipped'] AS shipped FROM customer LIMIT 5"#,
    }
    /// An index, a filter or `.*` on a value that is one scalar (`price[0]`, `name[WHERE ...]`).
    NotACollection = {
        code: "SQ0106",
        engine: AnswersWrongly,
        level: Error,
        about: r#"An index (`[0]`, `[$]`), a filter (`[WHERE ...]`) or `.*` on a field that holds one scalar (a
string, a number, a datetime, ...). SurrealDB 3.3.5 answers NONE for it in every row, without an
error (analyzer 2030)."#,
        wrong: r#"SELECT price[0] AS price FROM product LIMIT 5"#,
        fixed: r#"SELECT price FROM product LIMIT 5"#,
    }
    /// A graph step from a value that is not a record (`price->contains->product`).
    TraversalFromValue = {
        code: "SQ0107",
        engine: AnswersWrongly,
        level: Error,
        about: r#"A graph step (`->edge`, `<-edge`) from a field that holds a scalar, not a record: SurrealDB 3.3.5
answers NONE for it in every row, without an error (analyzer 3009). Traverse from the row itself
(`->edge->table` at the start of the path), its `id`, or a record link field."#,
        wrong: r#"SELECT name->placed->purchase AS orders FROM customer LIMIT 5"#,
        fixed: r#"SELECT ->placed->purchase AS orders FROM customer LIMIT 5"#,
    }
    /// `FROM table->edge->...`: a traversal from a table's name, which answers no rows.
    TraversalFromTable = {
        code: "SQ0108",
        engine: AnswersWrongly,
        level: Error,
        about: r#"A FROM target that traverses from a table's name (`FROM purchase->contains->product`, `FROM
customer->placed`): SurrealDB 3.3.5 reads the name as a field of no document, starts the traversal
from NONE and answers no rows, without an error (the analyzer's 3004 flags only the incomplete
chain; on 3.3.5 the complete one answers nothing too). Traverse from each record (`FROM
array::flatten(SELECT VALUE ->contains->product FROM purchase)`), from one record id (`FROM
purchase:p1->contains->product`), or project the traversal (`SELECT ->placed->purchase FROM
customer`)."#,
        wrong: r#"SELECT name FROM purchase->contains->product LIMIT 5"#,
        fixed: r#"SELECT name FROM array::flatten(SELECT VALUE ->contains->product FROM purchase) LIMIT 5"#,
    }
    /// A compared string that is not one of a literal union's values.
    ValueNotInUnion = {
        code: "SQ0201",
        engine: AnswersWrongly,
        level: Error,
        about: r#"A string compared with a literal union (an enum) that is not one of its values: no row ever matches."#,
        wrong: r#"SELECT name FROM customer WHERE tier = 'Pro' LIMIT 5"#,
        fixed: r#"SELECT name FROM customer WHERE tier = 'pro' LIMIT 5"#,
    }
    /// A comparison of values of different types (a datetime with a plain string, a number with a string).
    TypeMismatch = {
        code: "SQ0202",
        engine: AnswersWrongly,
        level: Error,
        about: r#"Values of different types compared (a number with a string, a datetime with a plain string): the
engine compares by type order, so the result is the same for every row."#,
        wrong: r#"SELECT name FROM product WHERE price > '100' LIMIT 5"#,
        fixed: r#"SELECT name FROM product WHERE price > 100 LIMIT 5"#,
    }
    /// `field = NULL` / `field != NULL` on a declared field: a missing value is NONE, never NULL.
    NullComparison = {
        code: "SQ0203",
        engine: AnswersWrongly,
        level: Error,
        about: r#"`field = NULL` on a declared field: a missing value is NONE, never NULL, so `= NULL` never matches
and `!= NULL` matches every row. On `memory`:"#,
        wrong: r#"SELECT name FROM file WHERE content = NULL LIMIT 50"#,
        fixed: r#"SELECT name FROM file WHERE content = NONE LIMIT 50"#,
    }
    /// A condition that is not a boolean (`WHERE price`, `WHERE 1`, `tags[WHERE weight]`): every truthy row matches.
    ConditionNotBool = {
        code: "SQ0204",
        engine: Suspicious,
        level: Warning,
        about: r#"A condition that is no boolean: a WHERE (or an operand of its AND/OR), a `[WHERE ...]` filter on a
path or a graph step, or an IF guard that is a field of another type than bool, a number or a
string written as the condition (`WHERE 1`, `WHERE 'paid'`), or an expression whose type is known
and no bool (`WHERE price * 2`, `WHERE string::len(name)`, `tags[WHERE weight]`). SurrealDB 3.3.5
answers without an error: every row (or element) where the value is truthy (non-zero, non-empty)
matches (analyzer 2005)."#,
        wrong: r#"SELECT name FROM product WHERE price LIMIT 5"#,
        fixed: r#"SELECT name FROM product WHERE price > 100 LIMIT 5"#,
    }
    /// A membership test whose answer is the same for every row (`tier IN []`, `tags CONTAINS 5`).
    VacuousMembership = {
        code: "SQ0205",
        engine: AnswersWrongly,
        level: Error,
        about: r#"A membership test whose answer cannot depend on the row: against an empty list (`IN []`,
`CONTAINSANY []` and `ANYINSIDE []` are false for every row; `NOT IN []`, `CONTAINSNONE []` and
`CONTAINSALL []` true), or a value of another kind than the list holds (`tags CONTAINS 5` on an
`array<string>`, `title CONTAINS true`, `5 IN tags`, `tags CONTAINSANY [1, 2]`). SurrealDB 3.3.5
answers without an error: no rows, or every row (analyzer 7006)."#,
        wrong: r#"SELECT name FROM customer WHERE tier IN [] LIMIT 5"#,
        fixed: r#"SELECT name FROM customer WHERE tier IN ['pro', 'plus'] LIMIT 5"#,
    }
    /// Arithmetic on operands of kinds the operator does not take (`price + 'x'`, `joined + 1`).
    BadOperands = {
        code: "SQ0206",
        engine: Fails,
        level: Error,
        about: r#"Arithmetic whose operands' kinds the operator does not take: a number with a string, a
datetime or a bool (`price + 'x'`, `joined * 2`), a datetime or a duration plus a number (`joined +
1`: add a duration, `joined + 1d`), a string minus or times a string, or `-` before a string or a
datetime. SurrealDB 3.3.5 fails with "Cannot perform addition with 'datetime' and 'int'" (a number
divided by a string answers NONE instead). Only the pairs the engine was seen to refuse are
reported; `tests/operands.rs` runs each (analyzer 2004)."#,
        wrong: r#"SELECT name, joined + 30 AS renewal FROM customer LIMIT 5"#,
        fixed: r#"SELECT name, joined + 30d AS renewal FROM customer LIMIT 5"#,
    }
    /// A cast of a constant that cannot succeed (`<datetime> 'yesterday'`).
    CastFails = {
        code: "SQ0207",
        engine: Fails,
        level: Error,
        about: r#"A cast of a constant the engine refuses whatever the rows hold: `<datetime> 'yesterday'`,
`<datetime> '2024-01'`, `<int> '1.5'`, `<duration> '1 hour'`, `<bool> 'yes'`, `<int> true`,
`<datetime> 5`. Decided by the engine's own rules (Rust's number parse, SurrealDB's datetime and
duration parsers); SurrealDB 3.3.5 fails with "Could not cast into `datetime` using input
`'yesterday'`". Before this code, such a query was caught only after it ran (SQ9000) (analyzer
2008)."#,
        wrong: r#"SELECT status FROM purchase WHERE placed_at > <datetime> 'yesterday' LIMIT 5"#,
        fixed: r#"SELECT status FROM purchase WHERE placed_at > time::now() - 1d LIMIT 5"#,
    }
    /// A condition decided by constants (`WHERE 1 = 1`, `IF 1 > 2 THEN ...`): the same for every row.
    ConstantCondition = {
        code: "SQ0208",
        engine: Suspicious,
        level: Warning,
        about: r#"A condition built of constants alone: a WHERE (or an operand of its AND/OR), a `[WHERE ...]` filter
or an IF guard that compares two literals (`WHERE 1 = 1`, `WHERE 1 > 2`, `IF 'a' = 'b' THEN ...`)
or is `true`/`false`, and (in the application's profile) a `FOR` over an empty list. SurrealDB
3.3.5 answers without an error, the same for every row: every row, no row, always the same IF
branch, a loop body that never runs (analyzer 7004 and 4024)."#,
        wrong: r#"SELECT name FROM product WHERE 1 = 1 AND category = 'audio' LIMIT 5"#,
        fixed: r#"SELECT name FROM product WHERE category = 'audio' LIMIT 5"#,
    }
    /// A quoted field name compared with a value (`WHERE 'status' = 'paid'`): the string is compared, not the field.
    QuotedField = {
        code: "SQ0209",
        engine: AnswersWrongly,
        level: Error,
        about: r#"A string that names a field of the rows, compared with a constant (`WHERE 'status' = 'shipped'`,
`WHERE "price" > 100`): quotes make a string, not a field name (double quotes too, unlike SQL), so
the string itself is compared and the answer is the same for every row. SurrealDB 3.3.5 answers
no rows for `'status' = 'shipped'`, and every row for `'price' > 100` (a string sorts after every
number). The fix unquotes the name."#,
        wrong: r#"SELECT placed_at FROM purchase WHERE 'status' = 'shipped' LIMIT 5"#,
        fixed: r#"SELECT placed_at FROM purchase WHERE status = 'shipped' LIMIT 5"#,
    }
    /// Arithmetic on an optional field (`rating + 1` where rating is `option<int>`): rows without it fail.
    OptionalArithmetic = {
        code: "SQ0210",
        engine: Fails,
        level: Error,
        about: r#"Arithmetic on a field declared `option<...>`, or the field passed to a built-in that takes no NONE
there (`math::abs(rating)`, `string::lowercase(email)`), where neither the WHERE nor an IF around it
reads the field: in every row without it the value is NONE, and SurrealDB 3.3.5 fails the query
("Cannot perform addition with 'none' and 'int'", "Expected `string` but found `NONE`"). Keep the
rows that have it (`WHERE rating != NONE`) or give it a default (`rating ?? 0`) (analyzer 2015)."#,
        schema: "enterprise",
        wrong: r#"SELECT name, rating + 1 AS next FROM supplier LIMIT 5"#,
        fixed: r#"SELECT name, rating + 1 AS next FROM supplier WHERE rating != NONE LIMIT 5"#,
    }
    /// A GeoJSON object of another shape (`{ type: 'Point', coordinates: [1.5] }`): no geometry.
    GeometryShape = {
        code: "SQ0211",
        engine: Fails,
        level: Error,
        about: r#"An object literal written as GeoJSON (`type` a geometry name such as 'Point', 'LineString' or
'Polygon', beside its `coordinates`) whose coordinates do not have the geometry's shape: a point of
one number or three (`[1.5]`), a decimal coordinate, a misspelt `coordinate` key. SurrealDB 3.3.5
converts only the exact shape into a geometry and keeps anything else a plain object, so a geo
function fails on it ("Expected a geometry") and a comparison with a geometry never matches
(analyzer 2036)."#,
        wrong: r#"SELECT name, geo::distance({ type: 'Point', coordinates: [-0.12] }, (2.35, 48.85)) AS km FROM customer LIMIT 2"#,
        fixed: r#"SELECT name, geo::distance({ type: 'Point', coordinates: [-0.12, 51.5] }, (2.35, 48.85)) AS km FROM customer LIMIT 2"#,
    }
    /// A typed closure whose body answers another kind than it declares (`|$x: int| -> string { $x + 1 }`).
    ClosureReturn = {
        code: "SQ0212",
        engine: Fails,
        level: Error,
        about: r#"A closure that declares its return kind (`|$x: int| -> string { ... }`) whose body certainly answers
another kind (a number for a string, a string for a number, ...): SurrealDB 3.3.5 coerces a
closure's value to its declared kind when it is called, and fails the query ("Expected a string
but found 2"). Only bodies whose kind is certain are judged: literals, the closure's typed
parameters, casts, arithmetic over numbers, comparisons, built-in calls by their signatures
(analyzer 2012)."#,
        wrong: r#"SELECT name, array::map([1, 2], |$n: int| -> string { $n + 1 }) AS next FROM product LIMIT 2"#,
        fixed: r#"SELECT name, array::map([1, 2], |$n: int| -> int { $n + 1 }) AS next FROM product LIMIT 2"#,
    }
    /// A habit from SQL that SurrealQL does not have (DISTINCT, JOIN, COUNT(*), ILIKE, TOP n, ...).
    SqlHabit = {
        code: "SQ0301",
        engine: Fails,
        level: Error,
        about: r#"A habit from SQL that SurrealQL does not have: DISTINCT, JOIN, COUNT(*), ILIKE, TOP n, HAVING, ...
with the SurrealQL way to say it."#,
        wrong: r#"SELECT DISTINCT country FROM customer LIMIT 5"#,
        fixed: r#"SELECT country FROM customer GROUP BY country LIMIT 5"#,
    }
    /// A missing, too large, negative or non-numeric LIMIT (or START).
    Limit = {
        code: "SQ0401",
        engine: Refused,
        level: Error,
        about: r#"A LIMIT above the schema's `max_rows`, a negative or non-numeric LIMIT or START. A missing LIMIT is
a warning: the runner adds `LIMIT max_rows`. A SELECT that answers one row at most (GROUP ALL, FROM ONLY,
one record id without SPLIT) needs none."#,
        wrong: r#"SELECT name FROM product LIMIT 500"#,
        fixed: r#"SELECT name FROM product LIMIT 50"#,
    }
    /// `count()` in a SELECT without GROUP BY or GROUP ALL: 1 per row, not a total.
    CountWithoutGroup = {
        code: "SQ0501",
        engine: AnswersWrongly,
        level: Error,
        about: r#"`count()` (or `count(field)`) without GROUP BY or GROUP ALL counts each row once: every row answers
1. `count(->edge)` counts a row's links and is fine."#,
        wrong: r#"SELECT count() AS n FROM customer LIMIT 50"#,
        fixed: r#"SELECT count() AS n FROM customer GROUP ALL LIMIT 50"#,
    }
    /// An aggregate (`math::sum`, `array::group`, ...) of one row's value outside GROUP BY.
    AggregateWithoutGroup = {
        code: "SQ0502",
        engine: Fails,
        level: Error,
        about: r#"An aggregate (`math::sum`, `math::max`, `array::group`, `time::max`, ...) of one row's value without
GROUP: the engine wants an array and fails."#,
        wrong: r#"SELECT math::sum(qty) AS total FROM contains LIMIT 50"#,
        fixed: r#"SELECT math::sum(qty) AS total FROM contains GROUP ALL LIMIT 50"#,
    }
    /// An aggregate over values it cannot add up (`math::sum` of strings is 0).
    AggregateArgument = {
        code: "SQ0503",
        engine: AnswersWrongly,
        level: Error,
        about: r#"A numeric aggregate over strings, booleans or links: `math::sum` answers 0, `math::mean` and
`math::max` NONE, without an error."#,
        wrong: r#"SELECT math::sum(name) AS total FROM product GROUP ALL LIMIT 50"#,
        fixed: r#"SELECT math::sum(price) AS total FROM product GROUP ALL LIMIT 50"#,
    }
    /// Under GROUP BY, a projection that is neither a group key nor an aggregate: an array per group.
    UngroupedProjection = {
        code: "SQ0504",
        engine: AnswersWrongly,
        level: Error,
        about: r#"Under GROUP BY (or GROUP ALL), a projection that is neither a group key nor an aggregate: each group
answers an array of every row's value."#,
        wrong: r#"SELECT category, name, count() AS n FROM product GROUP BY category LIMIT 50"#,
        fixed: r#"SELECT category, count() AS n FROM product GROUP BY category LIMIT 50"#,
    }
    /// `*` in a grouped SELECT.
    AllFieldsUnderGroup = {
        code: "SQ0505",
        engine: Fails,
        level: Error,
        about: r#"`*` in a grouped SELECT: the engine refuses to aggregate every field."#,
        wrong: r#"SELECT * FROM product GROUP BY category LIMIT 50"#,
        fixed: r#"SELECT category, count() AS n FROM product GROUP BY category LIMIT 50"#,
    }
    /// Under GROUP BY, ORDER BY a key the groups do not have: the sort does nothing.
    OrderByUngrouped = {
        code: "SQ0506",
        engine: AnswersWrongly,
        level: Error,
        about: r#"Under GROUP BY, ORDER BY a field that is neither a group key nor a projected name (an alias or
an aggregate's). SurrealDB 3.3.5 sorts the grouped rows, which hold only their keys and aggregates, so
every group sorts as NONE and the answer comes in the groups' own order, without an error (analyzer
2017). Without GROUP, ORDER BY may name any field of the rows: the engine sorts before it projects.
Where the projection gave the field an alias (`country AS c`), the repair sorts by the alias."#,
        wrong: r#"SELECT country, time::max(joined) AS last FROM customer GROUP BY country ORDER BY joined DESC LIMIT 50"#,
        fixed: r#"SELECT country, time::max(joined) AS last FROM customer GROUP BY country ORDER BY last DESC LIMIT 50"#,
    }
    /// Two projections with the same output name: the last overwrites the first.
    DuplicateAlias = {
        code: "SQ0601",
        engine: AnswersWrongly,
        level: Error,
        about: r#"Two projections with the same output name: the row keeps only the last. Also an alias that
replaces a field `*` already answers (`SELECT *, tier AS name`: the row's `name` is the tier; analyzer
4011); the same expression twice answers one key and passes, as does a rewrite of the field (`*,
record::id(id) AS id`; in the application's profile any value read from it: `*, author.name AS author`)."#,
        wrong: r#"SELECT name AS x, price AS x FROM product LIMIT 5"#,
        fixed: r#"SELECT name AS x, price AS y FROM product LIMIT 5"#,
    }
    /// `FROM ONLY table` without `LIMIT 1`.
    OnlyWithoutLimitOne = {
        code: "SQ0602",
        engine: Fails,
        level: Error,
        about: r#"`FROM ONLY` over rows that can be more than one. SurrealDB 3.3.5 collects a `FROM ONLY` table's rows
and answers the one row (NONE when none matches), but fails ("Expected a single result output when
using the ONLY keyword") at the second, and a `LIMIT` above 1 fails before it reads. What it does
with each form, on the embedded engine (`tests/document_engine.rs`):

| form | the engine | the validator |
| --- | --- | --- |
| `FROM ONLY customer:mei`, `FROM ONLY [customer:mei]` | the row, NONE if it does not exist | passes |
| `FROM ONLY t LIMIT 1` | the first row | passes |
| `FROM ONLY t ... GROUP ALL` (`SELECT VALUE count() FROM ONLY order WHERE ... GROUP ALL`) | one row | passes |
| `FROM ONLY t WHERE id = t:k` (AND-ed with anything), `WHERE id IN [t:k]` | the row, NONE | passes |
| `FROM ONLY t WHERE email = '...'` where a `UNIQUE` index covers the compared fields | the row, NONE | passes |
| `FROM ONLY t WHERE status = 'x'` | the row while one matches, fails at the second | SQ0602 |
| `FROM ONLY t WHERE id = t:k OR ...` | fails when the OR matches more | SQ0602 |
| `FROM ONLY t LIMIT 2` (or the runner's LIMIT on a table) | fails | SQ0602 |
| `FROM ONLY t GROUP BY f` | fails at the second group | SQ0602 |
| `FROM ONLY t:1..3` (a range), a traversal | fails at the second row | SQ0602 |
| `FROM ONLY [t:1, t:2]`, `FROM ONLY t:1, t:2` (analyzer 4003) | fails when both exist | SQ0602 |
| `FROM ONLY (SELECT ...)` unless the subquery is ONLY, LIMIT 1 or GROUP ALL | fails at the second row | SQ0602 |

A form that answers on today's data and fails once a second row matches is refused: it is a query
that breaks later, without a change to it. One more thing the engine does, with or without `ONLY`:
`SELECT VALUE count() ... GROUP ALL` without a `WHERE` (or with only an equality an index answers)
takes the engine's count fast path, which answers the row `{ count: 3 }` instead of `3`; any other
`WHERE` answers `3`. The validator does not yet type that difference (it says `int`)."#,
        wrong: r#"SELECT * FROM ONLY product LIMIT 5"#,
        fixed: r#"SELECT * FROM ONLY product LIMIT 1"#,
    }
    /// `FROM table:key ... START n`: START past the one row a record id reads.
    StartOnRecord = {
        code: "SQ0603",
        engine: AnswersWrongly,
        level: Error,
        about: r#"START 1 or more on a SELECT FROM one record id: the record id reads one row, START skips
it, and SurrealDB 3.3.5 answers no rows without an error (ORDER BY and LIMIT on it do nothing;
analyzer 4032)."#,
        wrong: r#"SELECT * FROM customer:mei LIMIT 5 START 1"#,
        fixed: r#"SELECT * FROM customer:mei LIMIT 5"#,
    }
    /// `SELECT a, b OMIT b`: OMIT without `*` strips what was asked for, or nothing.
    OmitWithoutAll = {
        code: "SQ0604",
        engine: AnswersWrongly,
        level: Error,
        about: r#"OMIT after an explicit projection list. OMIT removes fields from `SELECT *`; after a list,
SurrealDB 3.3.5 removes a listed field from every row (the answer lacks what was asked for) or
does nothing (analyzer 4012)."#,
        wrong: r#"SELECT name, country OMIT country FROM customer LIMIT 5"#,
        fixed: r#"SELECT name, country FROM customer LIMIT 5"#,
    }
    /// SPLIT on a field that is no array, FETCH on one that holds no record: the clause does nothing.
    NoOpClause = {
        code: "SQ0605",
        engine: Suspicious,
        level: Warning,
        about: r#"A clause the engine ignores for what it names: SPLIT on a field that holds one scalar, not
an array (analyzer 1024), FETCH on a field that holds no record link (analyzer 1023). SurrealDB
3.3.5 answers exactly as without the clause; the query likely meant something else (a warning:
it runs). `tests/corpus/catalogue.surql` proves each case with the verdict `same`."#,
        wrong: r#"SELECT * FROM purchase SPLIT status LIMIT 5"#,
        fixed: r#"SELECT * FROM purchase LIMIT 5"#,
    }
    /// `$before`/`$after` in the agent's SELECT, where the engine sets neither.
    ParamOutOfContext = {
        code: "SQ0606",
        engine: AnswersWrongly,
        level: Error,
        about: r#"`$before` or `$after` in the agent's SELECT. SurrealDB 3.3.5 sets them only in a write's RETURN
clause (and in events, field clauses and live queries), and the agent binds no parameter, so
`$before.name` reads NONE in every row without an error (analyzer 6005). In the application's
profile they are the caller's own parameters wherever the engine does not set them (the engine
binds the names), so they are not reported there."#,
        wrong: r#"SELECT name, $before.tier AS was FROM customer LIMIT 5"#,
        fixed: r#"SELECT name, tier AS was FROM customer LIMIT 5"#,
    }
    /// One parameter used as two kinds of value with no cast to say which.
    ConflictingParam = {
        code: "SQ0607",
        engine: AnswersWrongly,
        level: Error,
        about: r#"One parameter asked to be two kinds of value (compared with a datetime and used as LIMIT, compared
with a name and used as a row count) with no cast to say which (analyzer 6001; the application's
profile: the agent binds no parameters). Whatever the caller binds, one of the uses gets the wrong
kind: SurrealDB 3.3.5 refuses `LIMIT 'x'`, and a comparison with another kind matches nothing
without an error.
A named query's function could give the argument no one Rust type."#,
        wrong: r#"SELECT name FROM customer WHERE name = $x LIMIT $x"#,
        fixed: r#"SELECT name FROM customer WHERE name = $x LIMIT $n"#,
    }
    /// A projection written inside another's key, or inside a field `*` answers.
    OverlappingProjection = {
        code: "SQ0608",
        engine: AnswersWrongly,
        level: Error,
        about: r#"A projection whose key lies inside another's: `name AS info, country AS info.country`, or `*`
beside an unaliased path through an array or a record link (`*, images.url`, `*, seller.name`).
SurrealDB 3.3.5 writes `*`'s fields first, then each projection at its key path: a nested key is
set inside the value already there (through an array, into every element: `*, images.url` gives
each image the list of all urls; through a record link, replacing the link with an object), and a
later shorter key overwrites the nested one; the row loses or rewrites a value without an error
(analyzers 4011 and 7007). `*, address.city`, a path through objects that reads the value it is
written at, answers as `*` alone and passes. The repair gives an unaliased path a key of its own
(`images.url AS images_url`)."#,
        schema: "marketplace",
        wrong: r#"SELECT *, images.url FROM product LIMIT 5"#,
        fixed: r#"SELECT *, images.url AS images_url FROM product LIMIT 5"#,
    }
    /// `.{..}` without an upper bound over links that can lead back to their table.
    UnboundedRecursion = {
        code: "SQ0609",
        engine: Fails,
        level: Warning,
        about: r#"A recursion `.{..}` (or `.{2..}`) without an upper bound whose path leads from a table back to the
same table (`parent` of a category, `manager` of an employee). SurrealDB 3.3.5 follows the path until
it reaches NONE or the record it stands on; a cycle of two or more records never ends, so the engine
runs to its idiom recursion limit (256) and fails ("Exceeded the idiom recursion limit of 256").
Whether the data holds a cycle is known only when the query runs: a warning (analyzer 3011).
`{1..N}` stops at depth N, and `+collect` remembers the records it has seen and stops."#,
        schema: "enterprise",
        wrong: r#"SELECT name, @.{..}.parent AS root FROM product_category LIMIT 5"#,
        fixed: r#"SELECT name, @.{1..5}.parent AS root FROM product_category LIMIT 5"#,
    }
    /// A full-text match, `search::*` or KNN operator without the index it needs.
    MissingIndex = {
        code: "SQ0701",
        engine: Fails,
        level: Error,
        about: r#"A full-text match (`@@`, `@1@`) on a field without a FULLTEXT index,
`search::score`/`highlight`/`offsets` without a match in WHERE, the M-tree KNN `<|k|>` SurrealDB 3
no longer has, or `<|k, EF|>` on a field without an HNSW index (which answers empty)."#,
        wrong: r#"SELECT name FROM product WHERE name @@ 'sound' LIMIT 5"#,
        fixed: r#"SELECT name FROM product WHERE string::contains(string::lowercase(name), 'sound') LIMIT 5"#,
    }
    /// A KNN query vector whose dimension is not the index's.
    VectorDimension = {
        code: "SQ0702",
        engine: Fails,
        level: Error,
        about: r#"A KNN query vector whose length is not the HNSW index's dimension: the engine fails with the index,
and finds nothing with a brute-force distance. On `memory`:"#,
        wrong: r#"SELECT name FROM file WHERE embedding <|2, 40|> [0.1, 0.9, 0.2] LIMIT 5"#,
        fixed: r#"SELECT name FROM file WHERE embedding <|2, 40|> [0.1, 0.9, 0.2, 0.0] LIMIT 5"#,
    }
    /// A built-in function called with the wrong number of arguments, or an argument of a type it refuses.
    FunctionArguments = {
        code: "SQ0801",
        engine: Fails,
        level: Error,
        about: r#"A built-in function called with the wrong number of arguments, or with an argument of a kind it
refuses (a string to `math::abs`, a number to `string::len`); and a call of one of the schema's own
functions (`fn::...`) with a number of arguments it does not take, or an argument the parameter's
type refuses (a string for a `decimal`: "Failed to coerce argument"). The message gives the
signature, from the table of SurrealDB 3.3.5's functions that `tests/functions.rs` calls on the
engine."#,
        wrong: r#"SELECT string::len(name, 2) AS l FROM product LIMIT 2"#,
        fixed: r#"SELECT string::len(name) AS l FROM product LIMIT 2"#,
    }
    /// A `fn::` function the schema does not define for the agent (a typo, surqlc's own, or one with `PERMISSIONS NONE`).
    UnknownFunction = {
        code: "SQ0802",
        engine: Fails,
        level: Error,
        about: r#"A `fn::` function the database does not define for the agent: a typo of one of the schema's own
functions (`functions = "FILE.surql"` on the Schema item), one the schema does not have, one of the
functions `schema.surql` defines for the prompt (`fn::schema_context`, ...), or one whose
`PERMISSIONS` are `NONE` (the application's). The engine fails ("The function 'fn::...' does not
exist"). The fix names the nearest function the agent may call, or lists them; the same with the
data checks (`--seed`, `--endpoint`) as without."#,
        schema: "marketplace",
        wrong: r#"SELECT title, fn::pound_to_usdd(price_gbp) AS usd FROM product LIMIT 2"#,
        fixed: r#"SELECT title, fn::pound_to_usd(price_gbp) AS usd FROM product LIMIT 2"#,
    }
    /// A method the receiver's kind does not have (`price.len()`, `name.year()`).
    UnknownMethod = {
        code: "SQ0803",
        engine: Fails,
        level: Error,
        about: r#"A method call (`value.name()`) the value's kind does not have: SurrealDB 3.3.5 dispatches a
method by the receiver's kind (`name.len()` calls `string::len`, `joined.year()` calls `time::year`)
and fails with "no such method found for the decimal type" when the kind has none of that name. The
table is the engine's own method registry (`surrealdb-core` 3.3.5's `build_method_registry`); a
method's arity is checked against the function it calls (SQ0801). Object receivers are not judged
(an object's field may hold a closure) (analyzer 5001 for methods)."#,
        wrong: r#"SELECT name, price.len() AS digits FROM product LIMIT 5"#,
        fixed: r#"SELECT name, (<string> price).len() AS digits FROM product LIMIT 5"#,
    }
    /// A record id written in the query that does not exist (needs the data).
    UnknownRecord = {
        code: "SQ0901",
        engine: AnswersWrongly,
        level: Error,
        about: r#"A record id written in the query that does not exist (a data check: `--seed`, `--endpoint`, the
runner). The message lists a few ids the table has."#,
        wrong: r#"SELECT ->placed->purchase AS orders FROM customer:alice LIMIT 50"#,
        fixed: r#"SELECT ->placed->purchase AS orders FROM customer:mei LIMIT 50"#,
    }
    /// A compared value not present in the data of a value-hinted field (needs the data).
    ValueNotPresent = {
        code: "SQ0902",
        engine: Suspicious,
        level: Warning,
        about: r#"A string compared with a value-hinted field that no row holds (a data check). The message lists the
values present. On `enterprise`:"#,
        wrong: r#"SELECT name FROM customer WHERE segment = 'consumer' LIMIT 50"#,
        fixed: r#"SELECT name FROM customer WHERE segment = 'enterprise' LIMIT 50"#,
    }
    /// In an end user's session, a value computed over other users' rows too (EXPLAIN, a search
    /// score or highlight, a KNN distance over an owned table): a side channel.
    SideChannel = {
        code: "SQ1001",
        engine: Refused,
        level: Error,
        about: r#"In an end user's session of the per-user agent (`--as`, `--per-user`, a session opened with
`Scope::signin`), a value the engine computes over every user's rows before permissions filter them:
`EXPLAIN` (its timings and counts grow with rows the user cannot see), `search::score`,
`search::highlight`, `search::offsets` and `vector::distance::knn` on an owned table (a BM25 score
reads the whole index's statistics: the user's own scores change when another user's row gains a
word). `@@` matching and ORDER BY on the rows' own fields stay allowed. The team's agent is not
affected. See [agent.md](agent.md#what-a-user-can-still-infer). On `clinic`, as an owner:"#,
        wrong: r#"SELECT id, search::score(1) AS score FROM visit WHERE notes @1@ 'dog' ORDER BY score DESC LIMIT 5"#,
        fixed: r#"SELECT id FROM visit WHERE notes @1@ 'dog' ORDER BY at DESC LIMIT 5"#,
    }
    /// `$auth` where it is no end user's record: the team's agent, or a schema without a scope.
    AuthOutsideSession = {
        code: "SQ1002",
        engine: AnswersWrongly,
        level: Error,
        about: r#"`$auth` where it is no end user's record: a query for the team's agent (for which `$auth` is NONE,
or the agent's own record), or a schema without `scope(...)`. In an end user's session `$auth` is
that user's record: `FROM $auth`, `$auth.name` and `$auth->owns->pet` are typed and checked as the
end-user table. On `store`, for the team's agent:"#,
        wrong: r#"SELECT name FROM $auth LIMIT 5"#,
        fixed: r#"SELECT name FROM customer WHERE id = customer:mei LIMIT 5"#,
    }
    /// A write to a field that cannot take it: `id` on an update, a READONLY field on an
    /// update, a COMPUTED field.
    WriteToReadonly = {
        code: "SQ1101",
        engine: Fails,
        level: Error,
        about: r#"The application's profile (`check-query --profile app`, named queries): a write to a field that
cannot take one: the record's `id` in an UPDATE, a `READONLY` field in an UPDATE (it is set once,
when the record is made), or a `COMPUTED` field (worked out on every read). SurrealDB 3.3.5 fails
the write to `id` or a READONLY field ("Found changed value for field ... but field is readonly"),
and answers a write to a COMPUTED field without an error, the value lost."#,
        wrong: r#"UPDATE customer:mei SET id = customer:may"#,
        fixed: r#"UPDATE customer:mei SET name = 'May'"#,
    }
    /// A RELATE (or `INSERT RELATION`) whose end is not the relation's IN/OUT table, or
    /// through a table that is not a relation.
    WrongRelationEnd = {
        code: "SQ1102",
        engine: Fails,
        level: Error,
        about: r#"The application's profile: a `RELATE` or `INSERT RELATION` whose `in` is not one of the relation's `IN`
tables or whose `out` is not one of its `OUT` tables (the fix says when the ends are swapped), or a
`RELATE` through a table that is not `TYPE RELATION`. SurrealDB 3.3.5 fails the write."#,
        wrong: r#"RELATE purchase:p1->placed->customer:mei"#,
        fixed: r#"RELATE customer:mei->placed->purchase:p1"#,
    }
    /// A CREATE, INSERT or RELATE that leaves a field needing a value without one.
    MissingRequiredField = {
        code: "SQ1103",
        engine: Fails,
        level: Error,
        about: r#"The application's profile: a `CREATE`, `INSERT` or `RELATE` whose `SET` or object leaves out a field
that needs a value: a scalar, record or literal-union field without `DEFAULT`, `VALUE` or
`COMPUTED` and not `option<...>`. SurrealDB 3.3.5 fails the write ("Expected `string` but found
`NONE`"). `CONTENT $x` and other values the query does not spell out are not checked."#,
        wrong: r#"CREATE customer SET name = 'May', tier = 'free', country = 'DE'"#,
        fixed: r#"CREATE customer SET name = 'May', tier = 'free', country = 'DE', joined = time::now()"#,
    }
    /// A value of another kind assigned to a field, or a string outside its literal union.
    AssignedWrongType = {
        code: "SQ1104",
        engine: Fails,
        level: Error,
        about: r#"The application's profile: a value assigned (`SET f = v`, `CONTENT`, `MERGE`, an `INSERT` object) that
the field's type refuses: a string outside a literal union (with the nearest value as the repair), a
value of another kind (a string into a `datetime`, a number into a `string`), a link to another
table, NONE into a field that needs a value. SurrealDB 3.3.5 fails the write ("Couldn't coerce value
for field")."#,
        wrong: r#"UPDATE customer:mei SET tier = 'Pro'"#,
        fixed: r#"UPDATE customer:mei SET tier = 'pro'"#,
    }
    /// A parameter named as one of the session's protected variables.
    ProtectedParam = {
        code: "SQ1105",
        engine: Fails,
        level: Error,
        about: r#"The application's profile: a parameter named `$token`, `$session` or `$access`, which SurrealDB 3.3.5
reserves for the session (with `$auth`): binding it fails ("'token' is a protected variable and
cannot be set"), and the query reads the session's value instead. Read as the start of a path
(`$session.ip`, `$token.email`) it is the session's and is not reported."#,
        wrong: r#"SELECT * FROM customer WHERE name = $token LIMIT 5"#,
        fixed: r#"SELECT * FROM customer WHERE name = $token_value LIMIT 5"#,
    }
    /// `$rec.field = value` as a statement: a comparison whose answer is dropped, no assignment.
    DroppedComparison = {
        code: "SQ1106",
        engine: AnswersWrongly,
        level: Error,
        about: r#"The application's profile: `$rec.field = value` as a statement (top level, a block, an IF or FOR
body). SurrealQL has no assignment to a parameter's field: SurrealDB 3.3.5 reads `=` as a comparison
and drops its answer, so the record is not changed (without an error). Write the change to the
record, `UPDATE $rec.id SET field = value`, or give the parameter a new value with `LET`."#,
        wrong: r#"FOR $c IN (SELECT * FROM customer WHERE tier = 'pro') { $c.tier = 'free'; }"#,
        fixed: r#"FOR $c IN (SELECT * FROM customer WHERE tier = 'pro') { UPDATE $c.id SET tier = 'free'; }"#,
    }
    /// A function SurrealDB 3 renamed, called by its SurrealDB 2 name (`type::thing`).
    V2Function = {
        code: "SQ1201",
        engine: Fails,
        level: Error,
        about: r#"SurrealDB 2.x spellings: a function SurrealDB 3 renamed, called by its 2.x name (`type::thing`,
`string::is::email`, `duration::from::days`, `rand::guid`, ...; the engine's own table of renamed paths and
the 2.x-to-3.x migration guide's). 3.3.5's parser refuses the call; the repair is the 3.x name, and the
query is then checked as usual, its findings at the text as written (analyzer 8002)."#,
        wrong: r#"SELECT name FROM type::thing('customer', 'mei')"#,
        fixed: r#"SELECT name FROM type::record('customer', 'mei')"#,
    }
    /// A SurrealDB 2 index or field definition: `SEARCH ANALYZER`, its options, `MTREE`, `FLEXIBLE TYPE`.
    V2Definition = {
        code: "SQ1202",
        engine: Fails,
        level: Error,
        about: r#"SurrealDB 2.x spellings in a definition: `SEARCH ANALYZER` (3.x: `FULLTEXT ANALYZER`), the 2.x
full-text options 3.x has no words for (`DOC_IDS_ORDER 100`, ...: dropped), an `MTREE` index (3.x: `HNSW`,
approximate where MTREE was exact, no `CAPACITY`), `FLEXIBLE TYPE t` (3.x: `TYPE t FLEXIBLE`). 3.3.5's
parser refuses each; the repair is the 3.x spelling. In the application's profile:"#,
        wrong: r#"DEFINE INDEX product_name ON product FIELDS name SEARCH ANALYZER query_example_words BM25"#,
        fixed: r#"DEFINE INDEX product_name ON product FIELDS name FULLTEXT ANALYZER query_example_words BM25"#,
    }
    /// `<future> { ... }`, which SurrealDB 3 replaced by `COMPUTED` fields.
    V2Future = {
        code: "SQ1203",
        engine: Fails,
        level: Error,
        about: r#"SurrealDB 2.x's `<future> { expr }`: SurrealDB 3 removed futures. In a top-level `DEFINE FIELD`'s
`VALUE` (beside no `DEFAULT`, `READONLY`, `ASSERT`, `REFERENCE` or `FLEXIBLE`) the repair is `COMPUTED expr`;
a future stored in a record (`SET f = <future> {...}`), a `DEFAULT <future>` or a nested field's has no 3.x
spelling, and the finding says so without a repair. In the application's profile:"#,
        wrong: r#"DEFINE FIELD seen ON customer VALUE <future> { time::now() }"#,
        fixed: r#"DEFINE FIELD seen ON customer COMPUTED time::now()"#,
    }
    /// SurrealDB 2 statement or operator syntax 3 refuses: `$x = v` without LET, SPLIT beside GROUP, `?.`, `~`, ANALYZE.
    V2Syntax = {
        code: "SQ1204",
        engine: Fails,
        level: Error,
        about: r#"SurrealDB 2.x syntax SurrealDB 3 refuses: `$x = v` as a statement (3.x: `LET $x = v`), `SPLIT`
beside `GROUP` (the SPLIT did nothing in 2.x: the repair removes it), a `PARALLEL` clause (removed), the
optional part `x?.y` (3.x: `x.?.y`); and, without a mechanical repair, the like operators `~`, `!~`, `?~`, `*~` (3.x: a similarity
function against a cutoff of your own) and `ANALYZE INDEX`. In the application's profile:"#,
        wrong: r#"$cutoff = d'2025-01-01T00:00:00Z'; SELECT name FROM customer WHERE joined > $cutoff"#,
        fixed: r#"LET $cutoff = d'2025-01-01T00:00:00Z'; SELECT name FROM customer WHERE joined > $cutoff"#,
    }
    /// The engine refused the query at run time (after the validator passed it).
    EngineError = {
        code: "SQ9000",
        engine: Fails,
        level: Error,
        about: r#"The engine refused a query the validator passed (a cast that fails at run time, a function's
argument out of range). `ask` and MCP's `run_query` send it back to the model in the validator's
shape: `error[SQ9000 EngineError] 1:1: the engine refused the query: ...`."#,
        wrong: r#"SELECT name FROM product WHERE <int> name > 3 LIMIT 5"#,
        fixed: r#"SELECT name FROM product WHERE price > 3 LIMIT 5"#,
    }
}
