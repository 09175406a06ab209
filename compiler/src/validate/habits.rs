//! SQL habits (DISTINCT, JOIN, COUNT(*), ILIKE, TOP n, ...) found in the query's tokens, each with its SurrealQL repair.
//!
//! Most of them do not parse, so the parser's own error ("unexpected token") would be all the
//! model sees; these messages name what to write instead.

use super::scan::{Kind, Locator, Token};
use super::{Class, Diagnostic, Severity};
use crate::ir::{Schema, TableKind, Type};

/// A habit and whether the parser accepts the text anyway (then it means something else).
pub(crate) struct Habit {
    pub diagnostic: Diagnostic,
    pub parses: bool,
}

/// The habits the parser accepts (they mean something else): reported even when the query parses.
pub(crate) fn silent(loc: &Locator, schema: &Schema) -> Vec<Diagnostic> {
    find(loc, &Examples::of(schema))
        .into_iter()
        .filter(|h| h.parses)
        .map(|h| h.diagnostic)
        .collect()
}

/// SQL functions whose SurrealQL spelling differs, and that spelling.
const FUNCTIONS: &[(&str, &str)] = &[
    ("sum", "math::sum(x) (with GROUP BY alias or GROUP ALL)"),
    ("avg", "math::mean(x) (with GROUP BY alias or GROUP ALL)"),
    (
        "average",
        "math::mean(x) (with GROUP BY alias or GROUP ALL)",
    ),
    ("min", "math::min(x) (with GROUP BY alias or GROUP ALL)"),
    ("max", "math::max(x) (with GROUP BY alias or GROUP ALL)"),
    ("now", "time::now()"),
    ("getdate", "time::now()"),
    ("current_timestamp", "time::now()"),
    ("lower", "string::lowercase(x)"),
    ("upper", "string::uppercase(x)"),
    (
        "length",
        "string::len(x) for a string, array::len(x) for an array",
    ),
    (
        "len",
        "string::len(x) for a string, array::len(x) for an array",
    ),
    ("char_length", "string::len(x)"),
    ("concat", "string::concat(a, b) or a + b"),
    ("substring", "string::slice(x, start, len)"),
    ("substr", "string::slice(x, start, len)"),
    ("coalesce", "a ?? b"),
    ("ifnull", "a ?? b"),
    ("nvl", "a ?? b"),
    (
        "date_trunc",
        "time::floor(x, 1d) or time::format(x, '%Y-%m')",
    ),
    ("extract", "time::year(x), time::month(x), time::day(x)"),
    ("year", "time::year(x)"),
    ("month", "time::month(x)"),
    ("round", "math::round(x)"),
    ("abs", "math::abs(x)"),
];

fn habit(loc: &Locator, i: usize, j: usize, message: &str, fix: String) -> Habit {
    Habit {
        diagnostic: Diagnostic {
            span: loc.token_span(i, j),
            severity: Severity::Error,
            class: Class::SqlHabit,
            message: message.to_owned(),
            fix,
        },
        parses: false,
    }
}

/// The SQL habits in the query's tokens, in text order.
pub(crate) fn in_tokens(loc: &Locator, schema: &Schema) -> Vec<Diagnostic> {
    find(loc, &Examples::of(schema))
        .into_iter()
        .map(|h| h.diagnostic)
        .collect()
}

fn find(loc: &Locator, examples: &Examples) -> Vec<Habit> {
    let t: &[Token] = &loc.tokens;
    let at = |i: usize| t.get(i);
    let word = |i: usize, w: &str| at(i).is_some_and(|t| t.is_word(w));
    let punct = |i: usize, p: &str| at(i).is_some_and(|t| t.is_punct(p));
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let tok = &t[i];
        let after_path = i > 0 && (t[i - 1].is_punct("::") || t[i - 1].is_punct("."));
        if tok.kind != Kind::Ident || after_path {
            if tok.is_punct("<>") {
                out.push(habit(
                    loc,
                    i,
                    i,
                    "SurrealQL has no `<>` operator",
                    "write != for not equal".into(),
                ));
            }
            i += 1;
            continue;
        }
        let w = tok.text.to_ascii_lowercase();
        match w.as_str() {
            "distinct" => out.push(habit(
                loc,
                i,
                i,
                "SurrealQL has no DISTINCT",
                format!("GROUP BY the projected alias{}, or wrap a traversal in array::distinct(); count distinct values with count(array::distinct(...))", examples.distinct),
            )),
            "join" => {
                // Include a preceding INNER/LEFT/RIGHT/OUTER/CROSS/FULL.
                let start = if i > 0
                    && ["inner", "left", "right", "outer", "cross", "full"]
                        .iter()
                        .any(|k| t[i - 1].is_word(k))
                {
                    i - 1
                } else {
                    i
                };
                out.push(habit(
                    loc,
                    start,
                    i,
                    "SurrealQL has no JOIN",
                    format!("follow the relation with graph arrows{}, or select FROM the edge table and read its ends as in.field and out.field", examples.join),
                ))
            }
            "count" if punct(i + 1, "(") && punct(i + 2, "*") => out.push(habit(
                loc,
                i,
                i + 3,
                "SurrealQL has no COUNT(*)",
                format!("write count() to count rows, with GROUP BY alias or GROUP ALL{}", examples.count),
            )),
            "ilike" | "like" => out.push(habit(
                loc,
                i,
                i,
                &format!("SurrealQL has no {}", tok.text.to_uppercase()),
                "match text with string::contains(string::lowercase(field), 'x'), string::starts_with(field, 'x') or string::ends_with(field, 'x')".into(),
            )),
            "top" if i > 0 && t[i - 1].is_word("select") => out.push(habit(
                loc,
                i,
                i + 1,
                "SurrealQL has no TOP n",
                format!(
                    "remove TOP {} and end the query with LIMIT {} (after ORDER BY)",
                    at(i + 1).map_or("n", |t| t.text.as_str()),
                    at(i + 1).map_or("n", |t| t.text.as_str())
                ),
            )),
            "offset" if at(i + 1).is_some_and(|n| n.kind == Kind::Number) => out.push(habit(
                loc,
                i,
                i + 1,
                "SurrealQL has no OFFSET",
                format!("write START {} after LIMIT", t[i + 1].text),
            )),
            "limit"
                if at(i + 1).is_some_and(|n| n.kind == Kind::Number)
                    && punct(i + 2, ",")
                    && at(i + 3).is_some_and(|n| n.kind == Kind::Number) =>
            {
                out.push(habit(
                    loc,
                    i,
                    i + 3,
                    "SurrealQL has no LIMIT offset, count",
                    format!("write LIMIT {} START {}", t[i + 3].text, t[i + 1].text),
                ))
            }
            "having" => out.push(habit(
                loc,
                i,
                i,
                "SurrealQL has no HAVING",
                "filter the grouped rows in an outer query: SELECT * FROM (SELECT ... GROUP BY ...) WHERE alias > x".into(),
            )),
            "between" => out.push(habit(
                loc,
                i,
                i,
                "SurrealQL has no BETWEEN",
                "write field >= low AND field <= high".into(),
            )),
            "case" if t[i..].iter().take(4).any(|t| t.is_word("when")) => out.push(habit(
                loc,
                i,
                i,
                "SurrealQL has no CASE WHEN",
                "write IF cond THEN a ELSE b END, or cond ? a : b".into(),
            )),
            "in" if punct(i + 1, "(")
                && at(i + 2).is_some_and(|n| matches!(n.kind, Kind::Str | Kind::Number)) =>
            {
                out.push(habit(
                    loc,
                    i,
                    i + 1,
                    "IN takes an array in SurrealQL, not a parenthesised list",
                    "write IN ['a', 'b'] with square brackets".into(),
                ))
            }
            "as" if i >= 2
                && t[i - 2].is_word("from")
                && at(i + 1).is_some_and(|n| n.kind == Kind::Ident) =>
            {
                out.push(habit(
                    loc,
                    i,
                    i + 1,
                    "SurrealQL has no table aliases",
                    format!(
                        "drop `AS {}` and write the fields directly (name, not {}.name); reach other tables with graph arrows or record links",
                        t[i + 1].text,
                        t[i + 1].text
                    ),
                ))
            }
            "is" if word(i + 1, "null") || (word(i + 1, "not") && word(i + 2, "null")) => {
                let not = word(i + 1, "not");
                out.push(Habit {
                    parses: true,
                    ..habit(
                        loc,
                        i,
                        if not { i + 2 } else { i + 1 },
                        "a missing field is NONE, not NULL",
                        format!(
                            "write {} NONE (or {}) to test for a missing value",
                            if not { "!=" } else { "=" },
                            if not { "field != NONE" } else { "!field" }
                        ),
                    )
                })
            }
            _ => {
                let after_arrow = i > 0 && (t[i - 1].is_punct("->") || t[i - 1].is_punct("<-"));
                if punct(i + 1, "(") && !after_arrow {
                    if let Some((_, fix)) = FUNCTIONS.iter().find(|(name, _)| *name == w) {
                        out.push(habit(
                            loc,
                            i,
                            i,
                            &format!("`{}()` is not a SurrealQL function", tok.text),
                            format!("write {fix}"),
                        ));
                    }
                }
            }
        }
        i += 1;
    }
    out
}

/// The examples the repairs quote, built from the schema being checked (its own visible tables,
/// fields and relations), each ` (...)` or empty when the schema has nothing to show.
struct Examples {
    distinct: String,
    join: String,
    count: String,
}

impl Examples {
    fn of(schema: &Schema) -> Examples {
        let exposed: Vec<&crate::ir::Table> = schema
            .settings
            .exposed
            .iter()
            .filter_map(|name| schema.table(name))
            .collect();
        let normal = exposed.iter().find(|t| t.kind == TableKind::Normal);
        // A literal field groups best; any plain string field will do.
        let grouped = [true, false].into_iter().find_map(|literal| {
            exposed.iter().find_map(|t| {
                t.fields
                    .iter()
                    .filter(|f| !crate::access::is_hidden(f))
                    .find(|f| match f.ty {
                        Type::Literal(_) => true,
                        Type::String => !literal,
                        _ => false,
                    })
                    .map(|f| (t.name.as_str(), f.name.as_str()))
            })
        });
        let relation = exposed.iter().find_map(|t| match &t.kind {
            TableKind::Relation { from, to } => {
                Some((from[0].as_str(), t.name.as_str(), to[0].as_str()))
            }
            TableKind::Normal => None,
        });
        Examples {
            distinct: grouped
                .map(|(t, f)| format!(" (SELECT {f} FROM {t} GROUP BY {f})"))
                .unwrap_or_default(),
            join: relation
                .map(|(a, r, b)| format!(" ({a}->{r}->{b}, or {b}<-{r}<-{a})"))
                .unwrap_or_default(),
            count: normal
                .map(|t| format!(" (SELECT count() AS n FROM {} GROUP ALL)", t.name))
                .unwrap_or_default(),
        }
    }
}
