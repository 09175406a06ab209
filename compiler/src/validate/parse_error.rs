//! A reply SurrealDB's parser refused, as one diagnostic: the engine's message, the place it points at, and the fix when the engine's error is one with a known repair.

use super::scan::Locator;
use super::{Class, QueryDiagnostic, Span};

/// The diagnostic for a reply whose parse failed with `error` (the engine's rendered error).
pub(super) fn diagnose(error: &str, body: &str, base: usize, locator: &Locator, app: bool) -> QueryDiagnostic {
    let message = first_line(error);
    // The agent answers with one SELECT; the application's statements are of every kind.
    let general = if app {
        "correct the statement at the place shown (SurrealDB 3's SurrealQL)"
    } else {
        "write one SurrealQL SELECT statement: SELECT fields FROM table WHERE ... LIMIT n"
    };
    QueryDiagnostic {
        fixes: Vec::new(),
        span: error_span(error, body, base).unwrap_or_else(|| locator.all()),
        severity: Class::Syntax.severity(),
        class: Class::Syntax,
        fix: known_fix(message).unwrap_or_else(|| general.into()),
        message: format!("the query does not parse: {message}"),
    }
}

/// The repair for an engine parse error that has a known one.
///
/// `Missing group idiom `in.plan` in statement selection`: SurrealDB groups only by what the
/// SELECT projects, so the fix projects the idiom under an alias and groups by the alias.
fn known_fix(message: &str) -> Option<String> {
    for (kind, clause) in [("group", "GROUP BY"), ("split", "SPLIT")] {
        let Some(rest) = message.strip_prefix(&format!("Missing {kind} idiom `")) else {
            continue;
        };
        let idiom = rest.split('`').next()?.trim_matches('"');
        let alias = alias_for(idiom);
        let fix = if alias == idiom {
            format!("project the field you {clause}: add `{idiom}` to the SELECT's fields")
        } else {
            format!(
                "{clause} works only on what the SELECT projects: project `{idiom} AS {alias}` and write `{clause} {alias}`"
            )
        };
        return Some(fix);
    }
    None
}

/// A name for an idiom's value: its last plain field name (`in.plan` → `plan`).
fn alias_for(idiom: &str) -> String {
    idiom
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|w| !w.is_empty() && !w.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .unwrap_or(idiom)
        .to_owned()
}

fn first_line(text: &str) -> &str {
    let text = text.strip_prefix("Parse error: ").unwrap_or(text);
    text.lines().next().unwrap_or("").trim()
}

/// The `--> [line:col]` of a rendered parse error, as a one-char span of `body`.
fn error_span(error: &str, body: &str, base: usize) -> Option<Span> {
    let at = error.find("--> [")? + 5;
    let rest = &error[at..];
    let close = rest.find(']')?;
    let (line, col) = rest[..close].split_once(':')?;
    let (line, col): (usize, usize) = (line.trim().parse().ok()?, col.trim().parse().ok()?);
    let line_start: usize = body
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let line_text = body.get(line_start..)?.lines().next().unwrap_or("");
    let offset = line_text
        .char_indices()
        .nth(col.saturating_sub(1))
        .map_or(line_text.len(), |(o, _)| o);
    let start = line_start + offset;
    let end = body[start..].chars().next().map_or(start, |c| start + c.len_utf8());
    Some(Span {
        start: base + start,
        end: base + end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_by_on_an_unprojected_path_gets_the_alias_fix() {
        let fix = known_fix("Missing group idiom `in.plan` in statement selection").unwrap();
        assert_eq!(
            fix,
            "GROUP BY works only on what the SELECT projects: project `in.plan AS plan` and write `GROUP BY plan`"
        );
        assert!(known_fix("Missing group idiom `tier` in statement selection")
            .unwrap()
            .contains("add `tier` to the SELECT's fields"));
        assert_eq!(known_fix("Unexpected token `FROM`"), None);
    }
}
