//! Typed closures (`|$x: int| -> string { ... }`): a body whose value is certainly of another kind than the declared return, which the engine refuses to coerce when the closure is called.

use super::operands::Kind;
use super::{arithmetic, Resolver};
use crate::validate::params::cast_ty;
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::Class;
use surrealdb_sql::{BinaryOperator, Closure, Expr, Function, Literal};
use surrealdb_types::ToSql;

/// The type of `e` when it is certain: a literal, a parameter declared with a kind, a cast, a
/// built-in call by its engine-checked signature, arithmetic over certain numbers, a comparison,
/// a block's last value. Anything else (fields, methods, custom functions) is not judged.
fn certain(e: &Expr, params: &[(String, Ty)]) -> Option<Ty> {
    let ty = match e {
        Expr::Literal(l) => match l {
            Literal::Integer(_) => Ty::Int,
            Literal::Float(_) => Ty::Float,
            Literal::Decimal(_) => Ty::Decimal,
            Literal::String(_) => Ty::String,
            Literal::Bool(_) => Ty::Bool,
            Literal::Datetime(_) => Ty::Datetime,
            Literal::Duration(_) => Ty::Duration,
            _ => return None,
        },
        Expr::Param(p) => params.iter().find(|(n, _)| n == p.as_str())?.1.clone(),
        Expr::Prefix {
            op: surrealdb_sql::PrefixOperator::Cast(kind),
            ..
        } => cast_ty(kind),
        Expr::FunctionCall(call) => match &call.receiver {
            Function::Normal(name) => crate::validate::functions::signature(name.as_str())?.returns.ty(),
            _ => return None,
        },
        Expr::Binary { op, .. } if super::COMPARISONS.contains(op) => Ty::Bool,
        Expr::Binary {
            left,
            op: BinaryOperator::Add | BinaryOperator::Subtract | BinaryOperator::Multiply | BinaryOperator::Divide,
            right,
        } => {
            let (l, r) = (certain(left, params)?, certain(right, params)?);
            // Only numbers with numbers: another pair is refused by the engine (SQ0206) or depends.
            if !(l.is_numeric() && r.is_numeric()) {
                return None;
            }
            arithmetic(&l, &r)
        }
        Expr::Block(block) => certain(block.0.last()?, params)?,
        _ => return None,
    };
    (ty != Ty::Any).then_some(ty)
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// `|$x: int| -> string { $x + 1 }`: the body's kind is certainly not the declared one.
    pub(super) fn closure(&mut self, c: &Closure) -> Ty {
        let params: Vec<(String, Ty)> = c
            .args
            .iter()
            .map(|(p, kind)| (p.as_str().to_owned(), cast_ty(kind)))
            .collect();
        let Some(returns) = &c.returns else {
            return Ty::Any;
        };
        let declared = cast_ty(returns);
        let (Some(want), Some(body)) = (Kind::of(&declared), certain(&c.body, &params)) else {
            return Ty::Any;
        };
        let Some(have) = Kind::of(&body) else {
            return Ty::Any;
        };
        if have == want {
            return Ty::Any;
        }
        let text = c.body.to_sql();
        let span = self.loc.text(&text).or_all(self.loc);
        self.error(
            span,
            Class::ClosureReturn,
            format!(
                "the closure declares `-> {}` but its body `{text}` is {}: the engine refuses to coerce it when the closure is called",
                returns.to_sql(),
                super::calls::article(body.to_string())
            ),
            format!(
                "declare what the body answers (`-> {body}`), or convert it in the body (`<{}> ...`)",
                returns.to_sql()
            ),
        );
        Ty::Any
    }
}
