//! SQL habits (DISTINCT, JOIN, COUNT(*), ILIKE, TOP n, ...) found in the query's tokens, each with its SurrealQL repair.
//!
//! Most of them do not parse, so the parser's own error ("unexpected token") would be all the
//! model sees; these messages name what to write instead.

use super::scan::{Kind, Locator, Token};
use super::{Class, QueryDiagnostic, Span};
use crate::ir::{Schema, TableKind, Type};

/// A habit and whether the parser accepts the text anyway (then it means something else).
pub(crate) struct Habit {
    pub diagnostic: QueryDiagnostic,
    pub parses: bool,
}

/// The words every habit the parser accepts starts at (`IS [NOT] NULL`): [`silent`] scans only a
/// query that may hold one of them, and a debug build checks that nothing it finds starts elsewhere.
const PARSING_HABIT_WORDS: &[&str] = &["is"];

/// The habits the parser accepts (they mean something else): reported even when the query parses,
/// but not an `IS [NOT] NULL` over one of `quiet_nulls` (the resolver found a NONE test of the same
/// field beside it, which makes it redundant: `x IS NOT NONE AND x IS NOT NULL`).
pub(crate) fn silent(loc: &Locator, schema: &Schema, quiet_nulls: &[Span]) -> Vec<QueryDiagnostic> {
    let may_hold = may_hold_word(loc.source(), PARSING_HABIT_WORDS);
    // Most queries hold no such word: then they are not scanned at all (a debug build scans to check).
    if !may_hold && !cfg!(debug_assertions) {
        return Vec::new();
    }
    let found: Vec<QueryDiagnostic> = find(loc, &LazyExamples::of(schema))
        .into_iter()
        .filter(|h| h.parses)
        .map(|h| h.diagnostic)
        .filter(|d| {
            !quiet_nulls
                .iter()
                .any(|q| d.span.start <= q.start && q.end <= d.span.end)
        })
        .collect();
    debug_assert!(
        found.is_empty() || may_hold,
        "a habit the parser accepts starts at a word missing from PARSING_HABIT_WORDS"
    );
    found
}

/// Whether `text` may hold one of `words` (lower case) as a token, in any case: conservative, so
/// a word inside a string or comment counts, and any backslash (an escape inside a quoted name
/// can spell a word) does too.
fn may_hold_word(text: &str, words: &[&str]) -> bool {
    let bytes = text.as_bytes();
    let ident = |i: usize| bytes.get(i).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    text.contains('\\')
        || words.iter().any(|w| {
            (0..bytes.len().saturating_sub(w.len() - 1)).any(|i| {
                bytes[i..i + w.len()].eq_ignore_ascii_case(w.as_bytes())
                    && !(i > 0 && ident(i - 1))
                    && !ident(i + w.len())
            })
        })
}

/// SQL functions whose SurrealQL spelling differs, and that spelling.
const FUNCTIONS: &[(&str, &str)] = &[
    ("sum", "math::sum(x) (with GROUP BY alias or GROUP ALL)"),
    ("avg", "math::mean(x) (with GROUP BY alias or GROUP ALL)"),
    ("average", "math::mean(x) (with GROUP BY alias or GROUP ALL)"),
    ("min", "math::min(x) (with GROUP BY alias or GROUP ALL)"),
    ("max", "math::max(x) (with GROUP BY alias or GROUP ALL)"),
    ("now", "time::now()"),
    ("getdate", "time::now()"),
    ("current_timestamp", "time::now()"),
    ("lower", "string::lowercase(x)"),
    ("upper", "string::uppercase(x)"),
    ("length", "string::len(x) for a string, array::len(x) for an array"),
    ("len", "string::len(x) for a string, array::len(x) for an array"),
    ("char_length", "string::len(x)"),
    ("concat", "string::concat(a, b) or a + b"),
    ("substring", "string::slice(x, start, len)"),
    ("substr", "string::slice(x, start, len)"),
    ("coalesce", "a ?? b"),
    ("ifnull", "a ?? b"),
    ("nvl", "a ?? b"),
    ("date_trunc", "time::floor(x, 1d) or time::format(x, '%Y-%m')"),
    ("extract", "time::year(x), time::month(x), time::day(x)"),
    ("year", "time::year(x)"),
    ("month", "time::month(x)"),
    ("round", "math::round(x)"),
    ("abs", "math::abs(x)"),
];

fn habit(loc: &Locator, i: usize, j: usize, message: &str, fix: String) -> Habit {
    Habit {
        diagnostic: QueryDiagnostic {
            fixes: Vec::new(),
            span: loc.token_span(i, j),
            severity: Class::SqlHabit.severity(),
            class: Class::SqlHabit,
            message: message.to_owned(),
            fix,
        },
        parses: false,
    }
}

/// The SQL habits in the query's tokens, in text order.
pub(crate) fn in_tokens(loc: &Locator, schema: &Schema) -> Vec<QueryDiagnostic> {
    find(loc, &LazyExamples::of(schema))
        .into_iter()
        .map(|h| h.diagnostic)
        .collect()
}

fn find(loc: &Locator, examples: &LazyExamples) -> Vec<Habit> {
    let t: &[Token] = loc.tokens();
    let mut out = Vec::new();
    for (i, tok) in t.iter().enumerate() {
        let after_path = i > 0 && (t[i - 1].is_punct("::") || t[i - 1].is_punct("."));
        if tok.kind != Kind::Ident || after_path {
            if tok.is_punct("<>") {
                let mut h = habit(
                    loc,
                    i,
                    i,
                    "SurrealQL has no `<>` operator",
                    "write != for not equal".into(),
                );
                h.diagnostic = h.diagnostic.replacing(loc.token_span(i, i), "!=");
                out.push(h);
            }
            continue;
        }
        let mut buf = [0u8; 32];
        let w = lowercase(&tok.text, &mut buf);
        let found = clause_habit(loc, examples, i, &w)
            .or_else(|| expression_habit(loc, i, &w))
            .or_else(|| function_habit(loc, i, &w));
        out.extend(found);
    }
    out
}

/// `word` in ASCII lower case, in `buf` when it fits (no allocation for a query's every word).
fn lowercase<'b>(word: &'b str, buf: &'b mut [u8; 32]) -> std::borrow::Cow<'b, str> {
    if !word.bytes().any(|b| b.is_ascii_uppercase()) {
        return std::borrow::Cow::Borrowed(word);
    }
    match buf.get_mut(..word.len()) {
        Some(out) => {
            out.copy_from_slice(word.as_bytes());
            out.make_ascii_lowercase();
            // ASCII case changes keep UTF-8 valid.
            std::borrow::Cow::Borrowed(std::str::from_utf8(out).expect("lower-cased UTF-8"))
        }
        None => std::borrow::Cow::Owned(word.to_ascii_lowercase()),
    }
}

/// The query's tokens, read around a position.
struct Around<'a>(&'a [Token]);

impl Around<'_> {
    fn at(&self, i: usize) -> Option<&Token> {
        self.0.get(i)
    }
    fn word(&self, i: usize, w: &str) -> bool {
        self.at(i).is_some_and(|t| t.is_word(w))
    }
    fn punct(&self, i: usize, p: &str) -> bool {
        self.at(i).is_some_and(|t| t.is_punct(p))
    }
    fn number(&self, i: usize) -> bool {
        self.at(i).is_some_and(|n| n.kind == Kind::Number)
    }
}

/// A statement clause of SQL at word `i` (`w`, lower case): DISTINCT, JOIN, COUNT(*), TOP n,
/// OFFSET n, LIMIT offset, count, HAVING.
fn clause_habit(loc: &Locator, examples: &LazyExamples, i: usize, w: &str) -> Option<Habit> {
    let t: &[Token] = loc.tokens();
    let near = Around(t);
    Some(match w {
        "distinct" => habit(
            loc,
            i,
            i,
            "SurrealQL has no DISTINCT",
            format!("GROUP BY the projected alias{}, or wrap a traversal in array::distinct(); count distinct values with count(array::distinct(...))", examples.get().distinct),
        ),
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
            habit(
                loc,
                start,
                i,
                "SurrealQL has no JOIN",
                format!("follow the relation with graph arrows{}, or select FROM the edge table and read its ends as in.field and out.field", examples.get().join),
            )
        }
        "count" if near.punct(i + 1, "(") && near.punct(i + 2, "*") => habit(
            loc,
            i,
            i + 3,
            "SurrealQL has no COUNT(*)",
            format!("write count() to count rows, with GROUP BY alias or GROUP ALL{}", examples.get().count),
        ),
        "top" if i > 0 && t[i - 1].is_word("select") => {
            let n = near.at(i + 1).map_or("n", |t| t.text.as_str());
            habit(
                loc,
                i,
                i + 1,
                "SurrealQL has no TOP n",
                format!("remove TOP {n} and end the query with LIMIT {n} (after ORDER BY)"),
            )
        }
        "offset" if near.number(i + 1) => habit(
            loc,
            i,
            i + 1,
            "SurrealQL has no OFFSET",
            format!("write START {} after LIMIT", t[i + 1].text),
        ),
        "limit" if near.number(i + 1) && near.punct(i + 2, ",") && near.number(i + 3) => habit(
            loc,
            i,
            i + 3,
            "SurrealQL has no LIMIT offset, count",
            format!("write LIMIT {} START {}", t[i + 3].text, t[i + 1].text),
        ),
        "having" => habit(
            loc,
            i,
            i,
            "SurrealQL has no HAVING",
            "filter the grouped rows in an outer query: SELECT * FROM (SELECT ... GROUP BY ...) WHERE alias > x".into(),
        ),
        _ => return None,
    })
}

/// An expression of SQL at word `i` (`w`, lower case): LIKE, BETWEEN, CASE WHEN, IN (list),
/// a table alias, IS [NOT] NULL.
fn expression_habit(loc: &Locator, i: usize, w: &str) -> Option<Habit> {
    let t: &[Token] = loc.tokens();
    let near = Around(t);
    Some(match w {
        "ilike" | "like" => habit(
            loc,
            i,
            i,
            &format!("SurrealQL has no {}", t[i].text.to_uppercase()),
            "match text with string::contains(string::lowercase(field), 'x'), string::starts_with(field, 'x') or string::ends_with(field, 'x')".into(),
        ),
        "between" => habit(
            loc,
            i,
            i,
            "SurrealQL has no BETWEEN",
            "write field >= low AND field <= high".into(),
        ),
        "case" if t[i..].iter().take(4).any(|t| t.is_word("when")) => habit(
            loc,
            i,
            i,
            "SurrealQL has no CASE WHEN",
            "write IF cond THEN a ELSE b END, or cond ? a : b".into(),
        ),
        "in" if near.punct(i + 1, "(")
            && near
                .at(i + 2)
                .is_some_and(|n| matches!(n.kind, Kind::Str | Kind::Number)) =>
        {
            habit(
                loc,
                i,
                i + 1,
                "IN takes an array in SurrealQL, not a parenthesised list",
                "write IN ['a', 'b'] with square brackets".into(),
            )
        }
        "as" if i >= 2
            && t[i - 2].is_word("from")
            && near.at(i + 1).is_some_and(|n| n.kind == Kind::Ident) =>
        {
            habit(
                loc,
                i,
                i + 1,
                "SurrealQL has no table aliases",
                format!(
                    "drop `AS {}` and write the fields directly (name, not {}.name); reach other tables with graph arrows or record links",
                    t[i + 1].text,
                    t[i + 1].text
                ),
            )
        }
        "is" if near.word(i + 1, "null") || (near.word(i + 1, "not") && near.word(i + 2, "null")) => {
            let not = near.word(i + 1, "not");
            Habit {
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
            }
        }
        _ => return None,
    })
}

/// A call at word `i` (`w`, lower case) of an SQL function SurrealQL spells otherwise (`year(x)`);
/// not a graph step (`->year(...)`).
fn function_habit(loc: &Locator, i: usize, w: &str) -> Option<Habit> {
    let t: &[Token] = loc.tokens();
    let after_arrow = i > 0 && (t[i - 1].is_punct("->") || t[i - 1].is_punct("<-"));
    if !Around(t).punct(i + 1, "(") || after_arrow {
        return None;
    }
    let (_, fix) = FUNCTIONS.iter().find(|(name, _)| *name == w)?;
    Some(habit(
        loc,
        i,
        i,
        &format!("`{}()` is not a SurrealQL function", t[i].text),
        format!("write {fix}"),
    ))
}

/// The [`Examples`] of a schema, built the first time a repair quotes one (most queries have no habit).
struct LazyExamples<'s> {
    schema: &'s Schema,
    built: std::cell::OnceCell<Examples>,
}

impl<'s> LazyExamples<'s> {
    fn of(schema: &'s Schema) -> Self {
        LazyExamples {
            schema,
            built: std::cell::OnceCell::new(),
        }
    }

    fn get(&self) -> &Examples {
        self.built.get_or_init(|| Examples::of(self.schema))
    }
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
            TableKind::Relation { from, to } => Some((from[0].as_str(), t.name.as_str(), to[0].as_str())),
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

#[cfg(test)]
mod tests {
    use super::may_hold_word;

    #[test]
    fn a_word_is_found_as_a_token_would_be() {
        for text in [
            "WHERE x IS NULL",
            "x is not null",
            "(is)",
            "`is`",
            "⟨is⟩",
            "a = 1 AND\nIs",
            "`i\\s`",
        ] {
            assert!(may_hold_word(text, &["is"]), "{text}");
        }
        for text in ["SELECT list, this, is_active FROM wishlist", "1is", "", "i", "s"] {
            assert!(!may_hold_word(text, &["is"]), "{text}");
        }
    }
}
