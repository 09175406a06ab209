//! One walk over SurrealDB's AST: every expression inside an expression or a SELECT (operands, arguments, idiom parts, graph steps' clauses, subqueries and their clauses), visited before its children.
//!
//! What reads the query's structure without resolving it (which functions a projection calls,
//! whether a WHERE full-text matches, whether a gold query sorts) asks this walk, rather than
//! printing the AST and reading the text back as tokens.

use surrealdb_sql::{Expr, Fields, Function, Literal, Part, SelectStatement};

/// Calls `visit` on `e` and on every expression inside it.
pub fn expr(e: &Expr, visit: &mut dyn FnMut(&Expr)) {
    visit(e);
    match e {
        Expr::Literal(Literal::Array(items) | Literal::Set(items)) => items.iter().for_each(|i| expr(i, visit)),
        Expr::Literal(Literal::Object(entries)) => entries.iter().for_each(|o| expr(&o.value, visit)),
        Expr::Idiom(idiom) => parts(&idiom.0, visit),
        Expr::Prefix { expr: inner, .. } | Expr::Postfix { expr: inner, .. } => expr(inner, visit),
        Expr::Binary { left, right, .. } => {
            expr(left, visit);
            expr(right, visit);
        }
        Expr::FunctionCall(call) => call.arguments.iter().for_each(|a| expr(a, visit)),
        Expr::Select(s) => select(s, visit),
        Expr::Block(block) => block.0.iter().for_each(|e| expr(e, visit)),
        Expr::IfElse(ifelse) => {
            for (cond, then) in &ifelse.exprs {
                expr(cond, visit);
                expr(then, visit);
            }
            if let Some(close) = &ifelse.close {
                expr(close, visit);
            }
        }
        Expr::Throw(inner) => expr(inner, visit),
        _ => {}
    }
}

/// Calls `visit` on every expression of a SELECT: projections, targets, WHERE, ORDER BY, LIMIT,
/// START, OMIT and FETCH.
pub fn select(s: &SelectStatement, visit: &mut dyn FnMut(&Expr)) {
    fields(&s.fields, visit);
    s.what.iter().for_each(|w| expr(w, visit));
    if let Some(cond) = &s.cond {
        expr(&cond.0, visit);
    }
    s.omit.iter().for_each(|o| expr(o, visit));
    if let Some(surrealdb_sql::order::Ordering::Order(list)) = &s.order {
        list.iter().for_each(|o| parts(&o.value.0, visit));
    }
    if let Some(limit) = &s.limit {
        expr(&limit.0, visit);
    }
    if let Some(start) = &s.start {
        expr(&start.0, visit);
    }
    if let Some(fetch) = &s.fetch {
        fetch.0.iter().for_each(|f| expr(&f.0, visit));
    }
}

fn fields(f: &Fields, visit: &mut dyn FnMut(&Expr)) {
    match f {
        Fields::Value(selector) => expr(&selector.expr, visit),
        Fields::Select(list) => {
            for field in list {
                if let surrealdb_sql::Field::Single(selector) = field {
                    expr(&selector.expr, visit);
                }
            }
        }
    }
}

fn parts(list: &[Part], visit: &mut dyn FnMut(&Expr)) {
    for part in list {
        match part {
            Part::Where(e) | Part::Value(e) | Part::Start(e) => expr(e, visit),
            Part::Method(_, args) => args.iter().for_each(|a| expr(a, visit)),
            Part::Graph(lookup) => {
                if let Some(f) = &lookup.expr {
                    fields(f, visit);
                }
                if let Some(cond) = &lookup.cond {
                    expr(&cond.0, visit);
                }
                if let Some(limit) = &lookup.limit {
                    expr(&limit.0, visit);
                }
            }
            _ => {}
        }
    }
}

/// The names of the built-in functions `e` calls (lower case, `math::sum`), and of the methods
/// it calls (bare, `len`), in order.
pub fn called_functions(e: &Expr) -> Vec<String> {
    let mut names = Vec::new();
    expr(e, &mut |e| match e {
        Expr::FunctionCall(call) => {
            if let Function::Normal(name) = &call.receiver {
                names.push(name.as_str().to_ascii_lowercase());
            }
        }
        Expr::Idiom(idiom) => {
            for part in &idiom.0 {
                if let Part::Method(name, _) = part {
                    names.push(name.as_str().to_ascii_lowercase());
                }
            }
        }
        _ => {}
    });
    names
}

/// Whether `e` holds a full-text match (`@@`, `@1@`).
pub fn has_fulltext_match(e: &Expr) -> bool {
    let mut found = false;
    expr(e, &mut |e| {
        found |= matches!(
            e,
            Expr::Binary {
                op: surrealdb_sql::BinaryOperator::Matches(_),
                ..
            }
        );
    });
    found
}

/// How many SELECTs in `e` (itself included) have an ORDER BY, and whether `e` calls a sorting
/// function or method (`array::sort`, `array::sort::asc`, `.sort()`).
pub fn sorting(e: &Expr) -> (usize, bool) {
    let (mut ordered, mut sorts) = (0, false);
    expr(e, &mut |e| match e {
        Expr::Select(s) if s.order.is_some() => ordered += 1,
        Expr::FunctionCall(call) => {
            if let Function::Normal(name) = &call.receiver {
                sorts |= name
                    .as_str()
                    .split("::")
                    .skip(1)
                    .any(|seg| seg.to_ascii_lowercase().starts_with("sort"));
            }
        }
        Expr::Idiom(idiom) => {
            sorts |= idiom
                .0
                .iter()
                .any(|p| matches!(p, Part::Method(name, _) if name.as_str().to_ascii_lowercase().starts_with("sort")));
        }
        _ => {}
    });
    (ordered, sorts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(q: &str) -> Expr {
        match surrealdb_syn::parse(q).unwrap().expressions.remove(0) {
            surrealdb_sql::TopLevelExpr::Expr(e) => e,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn finds_calls_matches_and_sorts_in_the_tree_not_in_strings() {
        let e = parsed("SELECT math::sum(x) * 2 AS s, name.len() AS n, 'count(' AS t FROM a WHERE b @1@ 'x' GROUP ALL");
        assert_eq!(called_functions(&e), ["math::sum", "len"]);
        let Expr::Select(s) = &e else { unreachable!() };
        assert!(has_fulltext_match(&s.cond.as_ref().unwrap().0));
        assert!(!has_fulltext_match(&parsed("SELECT * FROM a WHERE b = '@@'")));
        let (ordered, sorts) = sorting(&parsed(
            "SELECT array::sort(tags) AS t, (SELECT * FROM b ORDER BY x) AS s FROM a ORDER BY y",
        ));
        assert_eq!((ordered, sorts), (2, true));
        assert_eq!(sorting(&parsed("SELECT 'array::sort(' AS t FROM a")), (0, false));
    }
}
