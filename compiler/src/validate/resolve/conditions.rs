//! Conditions (a WHERE, a `[WHERE ...]` filter, an IF guard): a value that is no boolean (SQ0204), a quoted field name compared with a value (SQ0209), a condition decided by constants (SQ0208).

use super::{visible_fields, Resolver, Scope, Val};
use crate::validate::params::cast_ty;
use crate::validate::scan::OrAll;
use crate::validate::types::Ty;
use crate::validate::Class;
use surrealdb_sql::{BinaryOperator, Expr, Function, Literal, PrefixOperator};
use surrealdb_types::ToSql;

/// Where a condition stands, for the messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// A statement's WHERE.
    Where,
    /// A filter on a path or a graph step (`tags[WHERE ...]`, `->placed[WHERE ...]`).
    Filter,
    /// An IF guard.
    Guard,
}

impl Place {
    fn what(self) -> &'static str {
        match self {
            Place::Where => "every row",
            Place::Filter => "every element",
            Place::Guard => "every row: the same branch is taken",
        }
    }
}

/// Whether `e` is built of constants alone (literals and operators over them): its value is the
/// same whatever the row.
pub(super) fn constant(e: &Expr) -> bool {
    match e {
        Expr::Literal(Literal::Array(items) | Literal::Set(items)) => items.iter().all(constant),
        Expr::Literal(Literal::Object(entries)) => entries.iter().all(|e| constant(&e.value)),
        Expr::Literal(_) | Expr::Constant(_) => true,
        Expr::Prefix { expr, .. } => constant(expr),
        Expr::Binary { left, op, right } => {
            !matches!(op, BinaryOperator::Matches(_) | BinaryOperator::NearestNeighbor(_))
                && constant(left)
                && constant(right)
        }
        _ => false,
    }
}

/// Whether `e` reads nothing of the row: constants, and built-in calls and operators over them
/// (`time::now() - 30d`). A parameter is not (it may hold anything the application binds).
fn row_free(e: &Expr) -> bool {
    match e {
        Expr::FunctionCall(call) => matches!(call.receiver, Function::Normal(_)) && call.arguments.iter().all(row_free),
        Expr::Prefix { expr, .. } => row_free(expr),
        Expr::Binary { left, op, right } => {
            !matches!(op, BinaryOperator::Matches(_) | BinaryOperator::NearestNeighbor(_))
                && row_free(left)
                && row_free(right)
        }
        e => constant(e),
    }
}

/// Whether a constant `e` is a boolean-valued one (a comparison, `true`, `NONE`, `NOT ...`): a constant
/// of another kind is a value that is no boolean (SQ0204).
fn boolean(e: &Expr) -> bool {
    match e {
        Expr::Literal(Literal::Bool(_) | Literal::None | Literal::Null) => true,
        Expr::Prefix {
            op: PrefixOperator::Not,
            ..
        } => true,
        Expr::Binary { op, .. } => {
            super::COMPARISONS.contains(op) || matches!(op, BinaryOperator::And | BinaryOperator::Or)
        }
        _ => false,
    }
}

/// A scalar type that is certainly no boolean (through an option or an array's elements).
fn non_bool(ty: &Ty) -> bool {
    matches!(
        ty.element(),
        Ty::Int
            | Ty::Float
            | Ty::Decimal
            | Ty::Number
            | Ty::String
            | Ty::Literal(_)
            | Ty::Datetime
            | Ty::Duration
            | Ty::Uuid
    )
}

/// The type of a condition that is certainly no boolean, when the expression's kind is one
/// whose type the validator knows for sure: a field (any declared type but bool), a literal, an
/// arithmetic result, a cast, a built-in call by its engine-checked signature.
fn not_a_bool(cond: &Expr, v: &Val) -> Option<String> {
    match cond {
        Expr::Idiom(_) => (!matches!(v.ty.element(), Ty::Bool | Ty::Any)).then(|| v.ty.to_string()),
        Expr::Literal(Literal::Bool(_) | Literal::None | Literal::Null) => None,
        Expr::Literal(Literal::Array(_) | Literal::Set(_)) => Some("array".into()),
        Expr::Literal(Literal::Object(_)) => Some("object".into()),
        Expr::Literal(_) => (v.ty != Ty::Any).then(|| v.ty.to_string()),
        Expr::Binary {
            op:
                BinaryOperator::Add
                | BinaryOperator::Subtract
                | BinaryOperator::Multiply
                | BinaryOperator::Divide
                | BinaryOperator::Remainder
                | BinaryOperator::Power,
            ..
        } => non_bool(&v.ty).then(|| v.ty.element().to_string()),
        Expr::Prefix {
            op: PrefixOperator::Cast(kind),
            ..
        } => {
            let ty = cast_ty(kind);
            non_bool(&ty).then(|| ty.to_string())
        }
        Expr::FunctionCall(call) => match &call.receiver {
            Function::Normal(name) => {
                let ty = crate::validate::functions::signature(name.as_str())?.returns.ty();
                non_bool(&ty).then(|| ty.to_string())
            }
            _ => None,
        },
        _ => None,
    }
}

impl<'a, 'l> Resolver<'a, 'l> {
    /// A condition (and each operand of its AND/OR): its value resolved, and reported when it
    /// is no boolean, compares a quoted field name, or is decided by constants.
    pub(super) fn condition(&mut self, cond: &Expr, scope: &Scope, place: Place) {
        match cond {
            Expr::Binary {
                left,
                op: BinaryOperator::And | BinaryOperator::Or,
                right,
            } if !constant(cond) => {
                self.condition(left, scope, place);
                self.condition(right, scope, place);
            }
            _ => {
                let v = self.expr(cond, scope);
                if self.quoted_field(cond, scope) {
                    return;
                }
                // `WHERE true` (alone or as an AND operand) is how an application leaves room to append
                // `AND ...` conditions in code: it answers as no condition, and says so.
                let placeholder = place == Place::Where && matches!(cond, Expr::Literal(Literal::Bool(true)));
                if constant(cond) && boolean(cond) && !placeholder {
                    self.constant_condition(cond, place);
                    return;
                }
                // `IF parent THEN ...`, `IF tags THEN ...`: an IF asks "is it set" of a link, an
                // option or a list by its truthiness; only a scalar guard is reported there.
                // A string field's guard (`IF email { ... }`) asks "is it non-empty", as applications write it.
                let set_test = matches!(v.ty, Ty::Option(_) | Ty::Array(_) | Ty::Record(_) | Ty::AnyObject)
                    || (matches!(cond, Expr::Idiom(_)) && matches!(v.ty, Ty::String | Ty::Literal(_)));
                if place == Place::Guard && set_test {
                    return;
                }
                if let Some(ty) = not_a_bool(cond, &v) {
                    self.not_bool(cond, &ty, place);
                }
            }
        }
    }

    fn not_bool(&mut self, cond: &Expr, ty: &str, place: Place) {
        let (span, text) = self.loc.as_written(cond.to_sql());
        let (message, fix) = match cond {
            Expr::Literal(_) => (
                format!(
                    "the condition `{text}` is a constant {ty}, not a bool: it is the same for {}",
                    place.what()
                ),
                "compare a field with it (`status = 'paid'`, `price > 100`), or drop the condition".to_owned(),
            ),
            _ => (
                format!(
                    "the condition `{text}` is {ty}, not a bool: {} where it is set (non-zero, non-empty) matches",
                    match place {
                        Place::Filter => "every element",
                        _ => "every row",
                    }
                ),
                match ty {
                    "string" => format!("compare it: `{text} != ''`, `{text} = '...'`, `{text} != NONE`"),
                    "int" | "float" | "decimal" | "number" => format!("compare it: `{text} > 0`, `{text} != NONE`"),
                    _ => format!("compare it: `{text} > 0`, `{text} != NONE`, `{text} = '...'`"),
                },
            ),
        };
        self.error(span, Class::ConditionNotBool, message, fix);
    }

    fn constant_condition(&mut self, cond: &Expr, place: Place) {
        let (span, text) = self.loc.as_written(cond.to_sql());
        let (message, fix) = match place {
            Place::Guard => (
                format!("the IF guard `{text}` compares constants: the same branch is taken for every row"),
                "compare a field or a parameter, or keep only the branch that is taken".to_owned(),
            ),
            _ => (
                format!(
                    "the condition `{text}` compares constants: it is the same for {}",
                    place.what()
                ),
                "compare a field with the value (`status = 'paid'`), or drop the condition".to_owned(),
            ),
        };
        self.error(span, Class::ConstantCondition, message, fix);
    }

    /// `'status' = 'paid'`: a string that names a field of the row, compared with a value read from no row (a
    /// parameter is left alone: `$mode = 'all' OR ...` is the application's own switch): the
    /// string is compared, not the field, so the answer is the same for every row. Repaired by
    /// unquoting the name.
    fn quoted_field(&mut self, cond: &Expr, scope: &Scope) -> bool {
        let Expr::Binary { left, op, right } = cond else {
            return false;
        };
        if !super::COMPARISONS.contains(op) {
            return false;
        }
        let (name, other) = match (left.as_ref(), right.as_ref()) {
            (Expr::Literal(Literal::String(s)), other) if row_free(other) && self.names_field(s.as_str(), scope) => {
                (s.as_str().to_owned(), other)
            }
            (other, Expr::Literal(Literal::String(s))) if row_free(other) && self.names_field(s.as_str(), scope) => {
                (s.as_str().to_owned(), other)
            }
            _ => return false,
        };
        let span = self.loc.string(&name).or_all(self.loc);
        let bare = if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
        {
            name.clone()
        } else {
            format!("`{name}`")
        };
        self.error_replacing(
            span,
            Class::QuotedField,
            format!(
                "'{name}' is a string, not the field {name}: the condition compares the string with {}, so it is the same for every row",
                other.to_sql()
            ),
            format!("write the field without quotes: {bare}"),
            bare,
        );
        true
    }

    /// Whether `name` is a field of the rows (or elements) the scope reads.
    fn names_field(&self, name: &str, scope: &Scope) -> bool {
        match &scope.doc {
            Ty::Record(t) => self
                .table(t)
                .is_some_and(|t| visible_fields(t, self.app).any(|f| f.name == name)),
            Ty::Object(keys) => keys.iter().any(|(k, _)| k == name),
            _ => false,
        }
    }
}
