//! Suppression in the query: `-- surqlc: allow(SQ0204) reason="..."` on the line before a query or at the end of its line drops that code's findings for that query; a directive without a reason, with an unknown code, or allowing a code whose queries the engine fails is itself a finding.

use super::{Class, QueryDiagnostic, Report, Span};
use crate::surql::scan::{scan, Kind};

/// One `-- surqlc: allow(...)` comment, read.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Directive {
    codes: Vec<Class>,
}

const PREFIX: &str = "surqlc:";

/// Applies the `allow` directives in `text` (the query as validated, comments included) to
/// `report`: the allowed codes' findings are dropped, a malformed directive is reported.
pub(crate) fn apply(text: &str, base: usize, report: &mut Report) {
    // Every directive spells the prefix: without it there is nothing to read (and no second scan).
    if !text.contains(PREFIX) {
        return;
    }
    let comments: Vec<(usize, String)> = scan(text)
        .into_iter()
        .filter(|t| t.kind == Kind::Comment)
        .map(|t| (t.start, t.text))
        .collect();
    for (at, problem) in apply_comments(&comments, report) {
        let span = Span {
            start: base + at,
            end: base + at + comments.iter().find(|c| c.0 == at).map_or(0, |c| c.1.len()),
        };
        let (message, fix) = problem;
        report
            .diagnostics
            .push(QueryDiagnostic::new(span, Class::BadSuppression, message, fix));
    }
}

/// Drops the findings the `allow` directives among `comments` (offset, text) allow, and returns
/// each malformed directive's offset with what is wrong and how to write it (a named query's
/// directives sit outside its text, so the caller places them).
pub fn apply_comments(comments: &[(usize, String)], report: &mut Report) -> Vec<(usize, (String, String))> {
    let mut allowed: Vec<Class> = Vec::new();
    let mut problems = Vec::new();
    for (at, comment) in comments {
        let body = comment.trim_start_matches(['-', '#', '/', '*']).trim_start();
        let Some(rest) = body.strip_prefix(PREFIX) else {
            continue;
        };
        match read(rest.trim()) {
            Ok(d) => allowed.extend(d.codes),
            Err(problem) => problems.push((*at, problem)),
        }
    }
    report
        .diagnostics
        .retain(|d| d.class == Class::BadSuppression || !allowed.contains(&d.class));
    problems
}

/// `allow(SQ0204, SQ0902) reason="..."`: the codes, or what is wrong and how to write it.
fn read(text: &str) -> Result<Directive, (String, String)> {
    let usage = || "write `-- surqlc: allow(SQ0204) reason=\"why the query is right\"`".to_owned();
    let Some(inner) = text.strip_prefix("allow(") else {
        return Err((format!("`surqlc: {text}` is not a directive surqlc knows"), usage()));
    };
    let Some((list, after)) = inner.split_once(')') else {
        return Err(("the `allow(` has no closing `)`".into(), usage()));
    };
    let reason = after.trim().strip_prefix("reason").map(str::trim_start);
    // A statement's `;` may follow on the comment's line.
    let reason = reason
        .and_then(|r| r.strip_prefix('='))
        .map(|r| r.trim().trim_end_matches(';').trim_end());
    let quoted = reason.is_some_and(|r| r.len() > 2 && r.starts_with('"') && r.ends_with('"'));
    if !quoted {
        return Err((format!("`allow({list})` has no reason"), usage()));
    }
    let mut codes = Vec::new();
    for code in list.split(',').map(str::trim) {
        let class = crate::codes::lint_rule(code, true).map_err(|why| (why, usage()))?;
        codes.push(class);
    }
    if codes.is_empty() {
        return Err(("`allow()` names no code".into(), usage()));
    }
    Ok(Directive { codes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_codes_and_requires_a_reason() {
        let d = read("allow(SQ0204, sq0902) reason=\"a flag column\"").unwrap();
        assert_eq!(d.codes, vec![Class::ConditionNotBool, Class::ValueNotPresent]);
        assert!(read("allow(SQ0204)").unwrap_err().0.contains("no reason"));
        assert!(read("allow(SQ0204) reason=\"\"").unwrap_err().0.contains("no reason"));
        assert!(read("allow(SQ9999) reason=\"x\"")
            .unwrap_err()
            .0
            .contains("unknown lint code"));
        assert!(read("allow(SQ0101) reason=\"x\"")
            .unwrap_err()
            .0
            .contains("cannot be allowed"));
        assert!(read("deny(SQ0204)").unwrap_err().0.contains("not a directive"));
    }
}
