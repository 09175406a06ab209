//! The application's profile: every statement of a query the application runs (several statements, transactions, LET, RETURN, IF, FOR, blocks) and whose each `$name` is, the engine's or the application's.

use super::{Resolver, Scope};
use crate::validate::params::cast_ty;
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::Class;
use surrealdb_sql::{Ast, BinaryOperator, Expr, Literal, Part, TopLevelExpr};
use surrealdb_types::ToSql;

impl<'a, 'l> Resolver<'a, 'l> {
    /// Every top-level statement in order; the result is the last statement's.
    pub(super) fn statements(&mut self, ast: &Ast) {
        let mut scope = Scope::new(Ty::Any, None);
        scope.row = false;
        let mut last = None;
        for top in &ast.expressions {
            if let TopLevelExpr::Expr(e) = top {
                last = Some(self.app_statement(e, &scope));
            }
        }
        self.report.result = last;
        self.param_conflicts();
    }

    /// One statement of the application's profile, and the type of what it answers.
    pub(super) fn app_statement(&mut self, e: &Expr, scope: &Scope) -> Ty {
        self.dropped_comparison(e);
        match e {
            Expr::Let(set) => {
                let v = self.expr(&set.what, scope);
                let ty = set.kind.as_ref().map_or(v.ty, cast_ty);
                self.vars.push((set.name.as_str().to_owned(), ty));
                Ty::None
            }
            Expr::Foreach(each) => {
                let range = self.expr(&each.range, scope);
                if matches!(&each.range, Expr::Literal(Literal::Array(items)) if items.is_empty()) {
                    let span = self.loc.word("for").or_all(self.loc);
                    self.error(
                        span,
                        Class::ConstantCondition,
                        format!(
                            "FOR ${} IN []: the list is empty, so the body never runs",
                            each.param.as_str()
                        ),
                        "loop over the values the body is for (a list, a parameter, a SELECT), or drop the loop"
                            .to_owned(),
                    );
                }
                let depth = self.vars.len();
                self.vars
                    .push((each.param.as_str().to_owned(), range.ty.element().clone()));
                for e in &each.block.0 {
                    self.app_statement(e, scope);
                }
                self.vars.truncate(depth);
                Ty::None
            }
            Expr::Block(block) => {
                let depth = self.vars.len();
                let mut last = Ty::None;
                for e in &block.0 {
                    last = self.app_statement(e, scope);
                }
                self.vars.truncate(depth);
                last
            }
            Expr::Return(out) => self.expr(&out.what, scope).ty,
            // A statement of its own: its rows are the query's (projections, result).
            Expr::Select(s) => self.select(s, None),
            Expr::Throw(e) => {
                self.expr(e, scope);
                Ty::None
            }
            Expr::Create(s) => self.create(s, scope),
            Expr::Update(s) => self.update(
                &s.what,
                s.only,
                s.data.as_ref(),
                s.cond.as_ref(),
                s.output.as_ref(),
                false,
                scope,
            ),
            Expr::Upsert(s) => self.update(
                &s.what,
                s.only,
                s.data.as_ref(),
                s.cond.as_ref(),
                s.output.as_ref(),
                true,
                scope,
            ),
            Expr::Delete(s) => self.delete(s, scope),
            Expr::Relate(s) => self.relate(s, scope),
            Expr::Insert(s) => self.insert(s, scope),
            // The schema's own statements and the engine's introspection: nothing to check here.
            Expr::Info(_) | Expr::Sleep(_) | Expr::Define(_) | Expr::Remove(_) | Expr::Alter(_) | Expr::Rebuild(_) => {
                Ty::Any
            }
            other => self.expr(other, scope).ty,
        }
    }

    /// `$rec.field = value;` as a statement: SurrealQL compares and drops the answer (there is
    /// no assignment to a parameter's field), so the record is unchanged (tests/app_idioms.rs).
    pub(super) fn dropped_comparison(&mut self, e: &Expr) {
        let Expr::Binary {
            left,
            op: BinaryOperator::Equal,
            ..
        } = e
        else {
            return;
        };
        let Expr::Idiom(idiom) = left.as_ref() else {
            return;
        };
        let (Some(Part::Start(Expr::Param(param))), true) = (idiom.0.first(), idiom.0.len() > 1) else {
            return;
        };
        let place = idiom.0[1..].iter().map(|p| p.to_sql()).collect::<String>();
        let place = place.trim_start_matches('.').to_owned();
        let written = left.to_sql();
        let span = self.loc.text(&written).or_all(self.loc);
        let param = param.as_str();
        self.error(
            span,
            Class::DroppedComparison,
            format!(
                "`{written} = ...` as a statement compares and drops the answer: SurrealQL has no \
                assignment to a parameter's field, so the record is not changed"
            ),
            format!(
                "change the record: `UPDATE ${param}.id SET {place} = ...` (or `LET ${param} = ...` for a new value)"
            ),
        );
    }

    /// The type of `$name` where it stands (`bare`: alone, not the start of a path such as
    /// `$session.ip`), and whose it is there: the engine's (`$this` in a row, `$parent` in a
    /// subquery, `$before`/`$after` in a write's RETURN, the session's values) or the
    /// application's own parameter, which the report lists.
    pub(super) fn param(&mut self, name: &str, scope: &Scope, bare: bool) -> Ty {
        if !self.app {
            return match name {
                "auth" => self.auth_param(),
                "before" | "after" => {
                    self.state_param_outside_output(name);
                    Ty::Any
                }
                "this" | "self" => scope.doc.clone(),
                "parent" => scope.parent.map_or(Ty::Any, |p| p.doc.clone()),
                _ => Ty::Any,
            };
        }
        if let Some((_, ty)) = self.vars.iter().rev().find(|(n, _)| n == name) {
            return ty.clone();
        }
        let in_row = scope.row;
        let in_subquery = scope.parent.is_some_and(|p| p.row);
        let engine = match name {
            "auth" => Some(self.scope_end_user.clone().map_or(Ty::Any, Ty::Record)),
            "token" | "session" | "access" if !bare => Some(Ty::AnyObject),
            "token" | "session" | "access" => {
                self.protected_param(name);
                Some(Ty::Any)
            }
            "this" | "self" if in_row => Some(scope.doc.clone()),
            "parent" if in_subquery => Some(scope.parent.map_or(Ty::Any, |p| p.doc.clone())),
            "before" | "after" if self.in_output => Some(Ty::Any),
            _ => None,
        };
        match engine {
            Some(ty) => {
                push_unique(&mut self.report.engine_params, name);
                ty
            }
            None => {
                push_unique(&mut self.report.query_params, name);
                Ty::Any
            }
        }
    }

    /// `$token` used as the application's parameter: the engine refuses to bind the name.
    fn protected_param(&mut self, name: &str) {
        let span = self.loc.param(name).or_all(self.loc);
        self.error(
            span,
            Class::ProtectedParam,
            format!(
                "`${name}` is the session's own variable: the engine refuses to bind a parameter of that name, \
                and reads the session's value here"
            ),
            format!("rename the parameter (`${name}_value`, `$my_{name}`) and bind that name"),
        );
    }
}

fn push_unique(list: &mut Vec<String>, name: &str) {
    if !list.iter().any(|n| n == name) {
        list.push(name.to_owned());
    }
}
