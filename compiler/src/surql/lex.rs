//! SurrealQL's lexical rules: string literals (surqlc's and the engine's spelling), identifiers, keywords and durations.

use std::fmt::Write;

/// A double-quoted SurrealQL string literal that the parser reads back as exactly `s`
/// (how `schema.surql` writes every string).
pub fn quote_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Other control characters would be legal raw, but an escape keeps the file printable.
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A string literal as the engine prints it: single quotes unless `s` holds one.
pub fn quote_str(s: &str) -> String {
    let quote = if s.contains('\'') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    escape_into(&mut out, s, quote);
    out.push(quote);
    out
}

/// The engine's `EscapeWriter`: these escapes and no others (other control characters stay raw).
fn escape_into(out: &mut String, s: &str, quote: char) {
    for c in s.chars() {
        match c {
            '\0' => out.push_str("\\0"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x08' => out.push_str("\\u{8}"),
            '\x0C' => out.push_str("\\f"),
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
}

/// Words the engine's formatter backticks where a keyword could stand (`RESERVED_KEYWORD` in surrealdb-common).
const RESERVED: &[&str] = &[
    "ALTER", "BEGIN", "BREAK", "CANCEL", "COMMIT", "CONTINUE", "CREATE", "DEFINE", "DELETE", "FOR", "IF", "INFO",
    "INSERT", "KILL", "LIVE", "OPTION", "REBUILD", "RETURN", "RELATE", "REMOVE", "SELECT", "LET", "SHOW", "SLEEP",
    "THROW", "UPDATE", "UPSERT", "USE", "DIFF", "RAND", "NONE", "NULL", "AFTER", "BEFORE", "VALUE", "BY", "ALL",
    "TRUE", "FALSE", "WHERE", "TABLE", "TB", "SEQUENCE", "FUNCTION",
];

/// Words the parser refuses as a bare name although `INFO` prints them bare (found by trying every keyword).
const PARSER_ONLY_RESERVED: &[&str] = &["EXPLAIN", "ONLY"];

/// A table or field name as the engine prints it where a keyword could stand (`DEFINE TABLE x`, `DEFINE FIELD x ON y`).
pub fn escape_ident(name: &str) -> String {
    if RESERVED.iter().any(|k| k.eq_ignore_ascii_case(name)) {
        backticked(name)
    } else {
        escape_kw_free_ident(name)
    }
}

/// A name as the engine prints it where no keyword can stand (`record<x>`, `IN x OUT y`).
pub fn escape_kw_free_ident(name: &str) -> String {
    let plain = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "NaN"
        && name != "Infinity";
    if plain {
        name.to_owned()
    } else {
        backticked(name)
    }
}

fn backticked(name: &str) -> String {
    let mut out = String::from("`");
    escape_into(&mut out, name, '`');
    out.push('`');
    out
}

/// The record id `type::record(table, key)` makes for a string `key`, as the engine prints it
/// (its `EscapeRidKey` rule): `customer:mei`, or `` customer:`auth0|42` `` (backticked and escaped)
/// when the key holds anything but letters, digits and `_`, is only digits and `_` (it would read
/// as a number), or is `NaN` or `Infinity`.
pub fn record_id(table: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && key.chars().any(|c| !c.is_ascii_digit() && c != '_')
        && key != "NaN"
        && key != "Infinity";
    if plain {
        format!("{table}:{key}")
    } else {
        format!("{table}:{}", backticked(key))
    }
}

/// Whether `name` is a SurrealQL keyword that cannot stand unescaped where a name may be a statement (`SELECT`, `VALUE`, ...).
pub fn is_reserved(name: &str) -> bool {
    escape_ident(name).starts_with('`') || PARSER_ONLY_RESERVED.iter().any(|k| k.eq_ignore_ascii_case(name))
}

/// A field name as a statement of surqlc's must spell it: backticked when it is a keyword.
pub fn field_ident(name: &str) -> String {
    if PARSER_ONLY_RESERVED.iter().any(|k| k.eq_ignore_ascii_case(name)) {
        format!("`{name}`")
    } else {
        escape_ident(name)
    }
}

/// A field path (`time.created_at`, `images.*.url`) with each name escaped by `escape`.
pub fn path_ident(path: &str, escape: fn(&str) -> String) -> String {
    path.split('.')
        .map(|part| match part {
            "*" => part.to_owned(),
            name => escape(name),
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// Whether `name` can stand unescaped as a table or field name.
pub fn is_plain_ident(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A SurrealQL duration such as `1h`, `30m` or `1d12h`.
pub fn is_duration(s: &str) -> bool {
    let mut rest = s;
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return false;
        }
        rest = &rest[digits..];
        let unit = ["ns", "us", "µs", "ms", "s", "m", "h", "d", "w", "y"]
            .iter()
            .find(|u| rest.starts_with(**u) && !(**u == "m" && rest.starts_with("ms")));
        match unit {
            Some(u) => rest = &rest[u.len()..],
            None => return false,
        }
    }
    true
}

/// The seconds a duration (`"15m"`, `"1d12h"`) spans, rounded down; `None` if it is not one.
pub fn duration_secs(s: &str) -> Option<u64> {
    if !is_duration(s) {
        return None;
    }
    let mut rest = s;
    let mut nanos: u128 = 0;
    while !rest.is_empty() {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let n: u128 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let (unit, per): (&str, u128) = [
            ("ns", 1),
            ("us", 1_000),
            ("µs", 1_000),
            ("ms", 1_000_000),
            ("s", 1_000_000_000),
            ("m", 60_000_000_000),
            ("h", 3_600_000_000_000),
            ("d", 86_400_000_000_000),
            ("w", 604_800_000_000_000),
            ("y", 31_536_000_000_000_000),
        ]
        .into_iter()
        .find(|(u, _)| rest.starts_with(u) && !(*u == "m" && rest.starts_with("ms")))?;
        rest = &rest[unit.len()..];
        nanos = nanos.checked_add(n.checked_mul(per)?)?;
    }
    u64::try_from(nanos / 1_000_000_000).ok()
}

/// The quoted strings of an `INSIDE [...]` list in a clause, if the text has one made only of strings.
pub fn inside_list(clauses: &str) -> Option<Vec<String>> {
    let at = clauses.find("INSIDE")?;
    let rest = clauses[at + "INSIDE".len()..].trim_start();
    let body = rest.strip_prefix('[')?;
    let mut values = Vec::new();
    let mut chars = body.chars();
    loop {
        match chars.find(|c| !c.is_whitespace() && *c != ',')? {
            ']' => break,
            quote @ ('\'' | '"') => {
                let mut value = String::new();
                loop {
                    match chars.next()? {
                        '\\' => value.push(chars.next()?),
                        c if c == quote => break,
                        c => value.push(c),
                    }
                }
                values.push(value);
            }
            _ => return None,
        }
    }
    (!values.is_empty()).then_some(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_escape_everything_the_lexer_treats_specially() {
        assert_eq!(quote_string(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(quote_string("x\ny\tz\u{1}"), "\"x\\ny\\tz\\u{1}\"");
        assert_eq!(quote_string("'⟩ 😀"), "\"'⟩ 😀\"");
    }

    #[test]
    fn quotes_like_the_engine() {
        assert_eq!(quote_str("plain \"dq\""), "'plain \"dq\"'");
        assert_eq!(
            quote_str("it's \"q\" a\\b\nc\td 😀 \u{1}\u{8}\u{c}\0\r"),
            "\"it's \\\"q\\\" a\\\\b\\nc\\td 😀 \u{1}\\u{8}\\f\\0\\r\""
        );
    }

    #[test]
    fn escapes_keywords_where_they_could_stand() {
        assert_eq!(escape_ident("value"), "`value`");
        assert_eq!(escape_kw_free_ident("value"), "value");
        assert_eq!(field_ident("explain"), "`explain`");
        assert!(is_reserved("Select") && is_reserved("only") && !is_reserved("name"));
    }

    #[test]
    fn reads_durations_and_inside_lists() {
        assert!(is_duration("1d12h") && is_duration("30ms") && !is_duration("1x") && !is_duration(""));
        assert_eq!(
            inside_list("ASSERT $value INSIDE ['a', \"b\\\"c\"]"),
            Some(vec!["a".into(), "b\"c".into()])
        );
        assert_eq!(inside_list("ASSERT $value INSIDE [1, 2]"), None);
        assert_eq!(inside_list(""), None);
    }
}
