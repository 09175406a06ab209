//! SurrealQL expressions read by SurrealDB's own parser: a check that points at the bad character, and the engine's spelling.
//!
//! Behind the `surql-parser` feature (the engine's parser crates, about 230 crates), which
//! `check-expr` and `runtime` turn on; the default build never pays for it.

use surrealdb_syn::{ParserConfig, ParserSettings};
use surrealdb_types::ToSql as _;

/// Where and why an expression does not parse: char offsets into its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    pub start: usize,
    pub end: usize,
    pub message: String,
}

/// Parses `text` as the engine parses a clause's expression (`VALUE`, `ASSERT`, a permission guard).
pub fn parse(text: &str) -> Result<surrealdb_sql::Expr, ExprError> {
    let mut found: Option<ExprError> = None;
    let result = surrealdb_syn::parse_with_settings(
        text.as_bytes(),
        ParserSettings::all_features(&ParserConfig::default()),
        async |parser, stk| {
            let parsed = async {
                let expr = parser.parse_expr_field(stk).await?;
                parser.assert_finished()?;
                Ok(expr)
            }
            .await;
            parsed.map_err(|err: surrealdb_syn::error::SyntaxError| {
                let message = err
                    .render_on(text)
                    .errors
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "invalid expression".into());
                let mut span = None;
                let err = err.update_spans(|s| {
                    if span.is_none() {
                        span = Some((s.offset as usize, s.len as usize));
                    }
                });
                let (start, end) = match span {
                    Some((offset, len)) => {
                        let start = char_index(text, offset);
                        (start, char_index(text, offset + len.max(1)).max(start + 1))
                    }
                    None => (0, 1),
                };
                found = Some(ExprError { start, end, message });
                err
            })
        },
    );
    match result {
        Ok(expr) => Ok(expr),
        Err(e) => Err(found.unwrap_or(ExprError {
            start: 0,
            end: 1,
            message: e.to_string(),
        })),
    }
}

/// The char index of byte `offset` in `text` (clamped to its end).
fn char_index(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.char_indices().take_while(|(i, _)| *i < offset).count()
}

/// The expression as the engine prints it back in a clause (`IS NONE` as `= NONE`, `||` as `OR`,
/// a statement such as `IF` in parentheses); the text unchanged if it does not parse.
pub fn canonical(text: &str) -> String {
    match parse(text) {
        Ok(expr) => surrealdb_sql::CoverStmts(&expr).to_sql(),
        Err(_) => text.to_owned(),
    }
}

/// A view's `AS SELECT ...` as the engine prints it in `DEFINE TABLE` (`AS SELECT ... FROM a GROUP BY ...`);
/// `None` if `DEFINE TABLE v AS <select>` does not parse.
pub fn canonical_view(select: &str) -> Option<String> {
    use surrealdb_sql::statements::DefineStatement;
    use surrealdb_sql::{Expr, TopLevelExpr};
    let ast = surrealdb_syn::parse(&format!("DEFINE TABLE v AS {select}")).ok()?;
    match ast.expressions.as_slice() {
        [TopLevelExpr::Expr(Expr::Define(define))] => match define.as_ref() {
            DefineStatement::Table(t) => t.view.as_ref().map(|v| v.to_sql()),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_at_the_bad_character() {
        let err = parse("$value > 0 AND AND 1").unwrap_err();
        assert!(err.start >= 11, "{err:?}");
        assert!(parse("time::now()").is_ok());
        assert!(parse("string::len($value) > 0").is_ok());
    }

    #[test]
    fn a_view_as_the_engine_prints_it() {
        assert_eq!(
            canonical_view("select count() as n, seller from order group by seller").as_deref(),
            Some("AS SELECT count() AS n, seller FROM order GROUP BY seller")
        );
        assert_eq!(canonical_view("SELECT * FROM a->b"), None);
    }

    #[test]
    fn respells_as_the_engine_does() {
        assert_eq!(canonical("parent IS NONE || true"), canonical("parent = NONE OR true"));
    }
}
