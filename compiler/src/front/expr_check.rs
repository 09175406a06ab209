//! The checks of SurrealQL expressions written in attribute strings (their shape always, the
//! engine's parser with `check-expr`), and the sub-span that points at the offending characters.

use super::clauses::ExprLit;
use super::ctxt::Ctxt;
use proc_macro2::Span;
use syn::LitStr;

/// The span of the characters `start..end` (char offsets into the literal's value) inside the
/// literal's source text; the whole literal where that cannot be computed (escapes aside, a
/// span from rustc without `proc_macro_span`).
pub fn value_subspan(lit: &LitStr, start: usize, end: usize) -> Span {
    let source = lit.token().to_string();
    let Some(map) = value_to_source(&source) else {
        return lit.span();
    };
    let at = |i: usize| map.get(i).copied().or_else(|| map.last().map(|l| l + 1));
    match (at(start), at(end.max(start + 1) - 1)) {
        (Some(a), Some(b)) => lit.token().subspan(a..b + 1).unwrap_or_else(|| lit.span()),
        _ => lit.span(),
    }
}

/// For each char of a string literal's value, the char offset in its source text where it was written.
fn value_to_source(source: &str) -> Option<Vec<usize>> {
    let chars: Vec<char> = source.chars().collect();
    let mut map = Vec::new();
    if chars.first() == Some(&'r') {
        let hashes = chars[1..].iter().take_while(|c| **c == '#').count();
        let open = 1 + hashes + 1;
        let close = chars.len().checked_sub(1 + hashes)?;
        return Some((open..close).collect());
    }
    if chars.first() != Some(&'"') {
        return None;
    }
    let mut i = 1;
    let end = chars.len().checked_sub(1)?;
    while i < end {
        if chars[i] == '\\' {
            let kind = *chars.get(i + 1)?;
            match kind {
                '\n' | '\r' => {
                    // A line continuation: skip the break and the next line's leading whitespace.
                    i += 2;
                    while i < end && chars[i].is_whitespace() {
                        i += 1;
                    }
                    continue;
                }
                'x' => {
                    map.push(i);
                    i += 4;
                }
                'u' => {
                    map.push(i);
                    while i < end && chars[i] != '}' {
                        i += 1;
                    }
                    i += 1;
                }
                _ => {
                    map.push(i);
                    i += 2;
                }
            }
        } else {
            map.push(i);
            i += 1;
        }
    }
    Some(map)
}

/// A problem in an expression: char offsets into its text and a message.
#[cfg(feature = "surql-parser")]
pub use crate::surql::expr::ExprError;
#[cfg(not(feature = "surql-parser"))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    pub start: usize,
    pub end: usize,
    pub message: String,
}

/// Checks that `text` stays one expression inside the statement it is written into: no `;`
/// outside a block, no comments, balanced brackets and closed quotes. Always on; the
/// engine's parser ([`check_expr`] with `check-expr`) goes further.
pub fn check_expr_shape(text: &str) -> Result<(), ExprError> {
    use crate::surql::scan::{scan, Kind};
    // The scanner gives byte offsets; an `ExprError` counts chars of the value.
    let err = |byte: usize, message: String| {
        let start = text.get(..byte).map_or(0, |t| t.chars().count());
        Err(ExprError {
            start,
            end: start + 1,
            message,
        })
    };
    if text.trim().is_empty() {
        return err(0, "the expression is empty".into());
    }
    let mut open: Vec<(char, usize)> = Vec::new();
    for t in scan(text) {
        match t.kind {
            Kind::Str | Kind::Ident if t.open => {
                let quote = text[t.start..].chars().find(|c| matches!(c, '\'' | '"' | '`' | '⟨'));
                let quote = quote.unwrap_or('\'');
                return err(t.start, format!("the quote opened with {quote} is not closed"));
            }
            Kind::Comment => {
                let what = match &t.text[..1] {
                    "-" => "comments (`--`) are",
                    "#" => "comments (`#`) are",
                    _ => "comments are",
                };
                return err(t.start, format!("{what} not allowed in an attribute expression"));
            }
            Kind::Punct => match t.text.as_str() {
                "{" => open.push(('}', t.start)),
                "[" => open.push((']', t.start)),
                "(" => open.push((')', t.start)),
                c @ ("}" | "]" | ")") => match open.pop() {
                    Some((want, _)) if c.starts_with(want) => {}
                    _ => return err(t.start, format!("unbalanced `{c}`")),
                },
                ";" if !open.iter().any(|(c, _)| *c == '}') => {
                    return err(t.start, "unexpected `;`: it would end the statement".into())
                }
                _ => {}
            },
            _ => {}
        }
    }
    match open.pop() {
        Some((want, at)) => err(at, format!("this bracket is not closed (expected `{want}`)")),
        None => Ok(()),
    }
}

/// Checks `text` as SurrealDB's own parser reads a clause's expression (`check-expr` feature).
#[cfg(feature = "check-expr")]
pub fn check_expr(text: &str) -> Result<(), ExprError> {
    check_expr_shape(text)?;
    crate::surql::expr::parse(text).map(|_| ())
}

/// Without the `check-expr` feature, only [`check_expr_shape`].
#[cfg(not(feature = "check-expr"))]
pub fn check_expr(text: &str) -> Result<(), ExprError> {
    check_expr_shape(text)
}

/// Reports a bad expression at the offending characters inside the attribute string.
pub fn report_expr(cx: &Ctxt, e: &ExprLit, what: &str) {
    if let Err(err) = check_expr(&e.text) {
        cx.error_at(
            value_subspan(&e.lit, err.start, err.end),
            format!("`{what}` is not a valid SurrealQL expression: {}", err.message),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_offsets_map_to_source_offsets() {
        assert_eq!(value_to_source(r#""ab""#), Some(vec![1, 2]));
        assert_eq!(value_to_source(r#""a\"b""#), Some(vec![1, 2, 4]));
        assert_eq!(value_to_source(r##"r#"a"b"#"##), Some(vec![3, 4, 5]));
        assert_eq!(value_to_source(r#""\u{e9}x""#), Some(vec![1, 7]));
    }

    #[test]
    fn shapes() {
        assert!(check_expr_shape("$value > 0 AND $value < 10").is_ok());
        assert!(check_expr_shape("{ LET $a = 1; RETURN $a }").is_ok());
        assert_eq!(check_expr_shape("1; REMOVE TABLE x").unwrap_err().start, 1);
        assert_eq!(check_expr_shape("f(1").unwrap_err().start, 1);
        assert_eq!(check_expr_shape("'a").unwrap_err().start, 0);
        assert!(check_expr_shape(" ").is_err());
    }
}
