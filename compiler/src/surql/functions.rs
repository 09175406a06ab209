//! A file of `DEFINE FUNCTION fn::...` statements read by SurrealDB's own parser into [`ir::Function`]s, or the first problem at its byte offset.
//!
//! Behind the `surql-parser` feature. Each function is kept as the engine prints it back (with
//! `OVERWRITE`, so importing `schema.surql` twice changes nothing); its parameter and return
//! types are read into the IR's [`ir::Kind`] by [`super::kind`], the one reader of types.

use crate::ir;
use surrealdb_sql::statements::define::DefineKind;
use surrealdb_sql::statements::DefineStatement;
use surrealdb_sql::{Ast, Expr, Literal, Permission, TopLevelExpr};
use surrealdb_syn::{ParserConfig, ParserSettings};
use surrealdb_types::ToSql as _;

/// A problem in a functions file: byte offsets into it and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionsError {
    pub start: usize,
    pub end: usize,
    pub message: String,
}

/// The functions of `text`, in file order; every statement must be a `DEFINE FUNCTION`.
pub fn parse(text: &str) -> Result<Vec<ir::Function>, Vec<FunctionsError>> {
    let ast = parse_ast(text).map_err(|e| vec![e])?;
    let starts = statement_starts(text);
    let mut out: Vec<ir::Function> = Vec::new();
    let mut errors = Vec::new();
    for (i, statement) in ast.expressions.iter().enumerate() {
        let start = starts.get(i).copied().unwrap_or(0);
        let at = |message: String| FunctionsError {
            start,
            end: first_word_end(text, start),
            message,
        };
        let TopLevelExpr::Expr(Expr::Define(define)) = statement else {
            errors.push(at(not_a_function(statement.to_sql())));
            continue;
        };
        let DefineStatement::Function(f) = define.as_ref() else {
            errors.push(at(not_a_function(define.to_sql())));
            continue;
        };
        match function(f) {
            Ok(function) if out.iter().any(|o| o.name == function.name) => {
                errors.push(at(format!("{} is defined twice in this file", function.name)));
            }
            Ok(function) => out.push(function),
            Err(message) => errors.push(at(message)),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn not_a_function(sql: String) -> String {
    let word: Vec<&str> = sql.split_whitespace().take(2).collect();
    format!(
        "a functions file holds only DEFINE FUNCTION fn::... statements, not `{}`",
        word.join(" ")
    )
}

/// One statement to the IR: its name, typed parameters, return type, comment and text.
fn function(f: &surrealdb_sql::statements::DefineFunctionStatement) -> Result<ir::Function, String> {
    let name = format!("fn::{}", f.name.as_str());
    let kind = |k: &surrealdb_sql::Kind, what: &str| {
        crate::surql::kind::parse(&k.to_sql())
            .map(|raw| raw.kind)
            .map_err(|e| format!("{name}: {what} type `{}` cannot be read: {}", k.to_sql(), e.message))
    };
    let mut args = Vec::new();
    for (param, k) in &f.args {
        args.push((param.trim_start_matches('$').to_owned(), kind(k, "the parameter's")?));
    }
    let returns = f.returns.as_ref().map(|k| kind(k, "the return")).transpose()?;
    let comment = match &f.comment {
        Expr::Literal(Literal::String(s)) => Some(s.as_str().to_owned()),
        Expr::Literal(Literal::None) => None,
        other => {
            return Err(format!(
                "{name}: the COMMENT must be a string, not `{}`",
                other.to_sql()
            ))
        }
    };
    let mut written = f.clone();
    written.kind = DefineKind::Overwrite;
    Ok(ir::Function {
        name,
        args,
        returns,
        comment,
        agent: !matches!(f.permissions, Permission::None),
        definition: format!("{};", written.to_sql()),
    })
}

/// Where each top-level statement begins: the first code token after each top-level `;`.
pub(crate) fn statement_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut depth = 0usize;
    let mut expecting = true;
    for t in crate::surql::scan::code(text) {
        if expecting {
            if t.is_punct(";") {
                continue;
            }
            starts.push(t.start);
            expecting = false;
        }
        if t.is_punct("{") || t.is_punct("(") || t.is_punct("[") {
            depth += 1;
        } else if t.is_punct("}") || t.is_punct(")") || t.is_punct("]") {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && t.is_punct(";") {
            expecting = true;
        }
    }
    starts
}

fn first_word_end(text: &str, start: usize) -> usize {
    let rest = &text[start.min(text.len())..];
    start + rest.find(char::is_whitespace).unwrap_or(rest.len()).max(1)
}

/// The whole file as the engine's parser reads a query, or its first error at its byte offset.
pub(crate) fn parse_ast(text: &str) -> Result<Ast, FunctionsError> {
    let mut found: Option<FunctionsError> = None;
    let result = surrealdb_syn::parse_with_settings(
        text.as_bytes(),
        ParserSettings::all_features(&ParserConfig::default()),
        async |parser, stk| {
            parser
                .parse_query(stk)
                .await
                .map_err(|err: surrealdb_syn::error::SyntaxError| {
                    let message = err
                        .render_on(text)
                        .errors
                        .first()
                        .cloned()
                        .unwrap_or_else(|| "this file does not parse".into());
                    let mut span = None;
                    let err = err.update_spans(|s| {
                        if span.is_none() {
                            span = Some((s.offset as usize, s.len as usize));
                        }
                    });
                    let (start, len) = span.unwrap_or((0, 1));
                    found = Some(FunctionsError {
                        start,
                        end: start + len.max(1),
                        message,
                    });
                    err
                })
        },
    );
    result.map_err(|e| {
        found.unwrap_or(FunctionsError {
            start: 0,
            end: 1,
            message: e.to_string(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_functions_as_the_engine_prints_them() {
        let text = "-- money\nDEFINE FUNCTION fn::pound_to_usd($price: number) -> number {\n    RETURN $price \
            * 1.27;\n} COMMENT 'Pounds to dollars';\n\nDEFINE FUNCTION fn::app::secret($x: option<int>) { \
            RETURN $x; } PERMISSIONS NONE;\n";
        let fns = parse(text).unwrap();
        assert_eq!(fns.len(), 2);
        assert_eq!(fns[0].name, "fn::pound_to_usd");
        assert_eq!(
            fns[0].args,
            vec![("price".to_owned(), ir::Kind::Named("number".into()))]
        );
        assert_eq!(fns[0].returns, Some(ir::Kind::Named("number".into())));
        assert_eq!(fns[0].comment.as_deref(), Some("Pounds to dollars"));
        assert!(fns[0].agent && !fns[1].agent);
        assert!(
            fns[0]
                .definition
                .starts_with("DEFINE FUNCTION OVERWRITE fn::pound_to_usd($price: number) -> number {"),
            "{}",
            fns[0].definition
        );
        assert_eq!(fns[1].name, "fn::app::secret");
        assert_eq!(fns[1].returns, None);
    }

    #[test]
    fn points_at_what_is_wrong() {
        let text = "DEFINE FUNCTION fn::a() { RETURN 1; };\nDEFINE TABLE x;\n";
        let errors = parse(text).unwrap_err();
        assert_eq!(errors[0].start, text.find("DEFINE TABLE").unwrap(), "{errors:?}");
        assert!(errors[0].message.contains("not `DEFINE TABLE`"), "{errors:?}");
        let text = "DEFINE FUNCTION fn::a($x: int) { RETURN $x +; };";
        let errors = parse(text).unwrap_err();
        assert!(errors[0].start > text.find('{').unwrap(), "{errors:?}");
        let text = "DEFINE FUNCTION fn::a() { RETURN 1; };\nDEFINE FUNCTION fn::a() { RETURN 2; };";
        assert!(parse(text).unwrap_err()[0].message.contains("twice"));
    }
}
