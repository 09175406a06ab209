//! Calls of the schema's own functions (`fn::...`, its functions file): an unknown name is UnknownFunction with the nearest one, a wrong count or a refused argument FunctionArguments, and the declared return type types the call.

use super::calls::call_span;
use super::{Resolver, Val};
use crate::ir::{Function, Kind};
use crate::validate::types::Ty;
use crate::validate::Class;
use surrealdb_sql::FunctionCall;

impl<'a, 'l> Resolver<'a, 'l> {
    /// Checks a call of `fn::{path}` against the functions the agent may call; its result type.
    pub(super) fn custom_call(&mut self, call: &FunctionCall, path: &str, args: &[Val]) -> Ty {
        let name = format!("fn::{path}");
        let span = call_span(self.loc, &name, &call.arguments).unwrap_or_else(|| self.loc.all());
        let functions = self.functions;
        let callable = || functions.iter().filter(|f| f.agent);
        let Some(f) = callable().find(|f| f.name == name) else {
            let near = crate::suggest::nearest(&name, callable().map(|f| f.name.as_str()));
            let listed: Vec<&str> = callable().map(|f| f.name.as_str()).collect();
            let fix = match (near, listed.is_empty()) {
                (Some(near), _) => format!("did you mean {near}? Call it exactly as the prompt lists it"),
                (None, true) => {
                    "this database defines no functions for queries: use SurrealDB's built-in functions".into()
                }
                (None, false) => format!(
                    "call one of the database's functions ({}) or a built-in one",
                    listed.join(", ")
                ),
            };
            self.error(
                span,
                Class::UnknownFunction,
                format!("{name} is not a function of this database: the engine fails"),
                fix,
            );
            return Ty::Any;
        };
        let f: &Function = f;
        let returns = f.returns.as_ref().map_or(Ty::Any, ty_of_kind);
        if args.len() != f.args.len() {
            let takes = match f.args.len() {
                1 => "1 argument".to_owned(),
                n => format!("{n} arguments"),
            };
            self.error(
                span,
                Class::FunctionArguments,
                format!("{name} takes {takes}: {}, but got {}", signature(f), args.len()),
                format!("call it with {takes}, as the prompt lists it"),
            );
            return returns;
        }
        for (i, ((param, kind), arg)) in f.args.iter().zip(args).enumerate() {
            if fits(kind, &arg.ty) {
                continue;
            }
            let kind_text = crate::surql::info::print_kind(kind);
            self.error(
                span,
                Class::FunctionArguments,
                format!(
                    "argument {} of {name} (${param}) is {}, but {} takes {kind_text} there: the engine fails to coerce it",
                    i + 1,
                    arg.ty,
                    signature(f)
                ),
                format!("pass {kind_text} (a field or literal of that type, or cast it with <{kind_text}>)"),
            );
            return returns;
        }
        returns
    }
}

fn signature(f: &Function) -> String {
    crate::surql::info::function_line(&Function {
        comment: None,
        ..f.clone()
    })
}

/// The type a declared kind gives a value (`option<T>` an option, unions and the rest unknown).
pub(super) fn ty_of_kind(kind: &Kind) -> Ty {
    match kind {
        Kind::Named(n) => match n.as_str() {
            "bool" => Ty::Bool,
            "int" => Ty::Int,
            "float" => Ty::Float,
            "decimal" => Ty::Decimal,
            "number" => Ty::Number,
            "string" => Ty::String,
            "datetime" => Ty::Datetime,
            "duration" => Ty::Duration,
            "uuid" => Ty::Uuid,
            "bytes" => Ty::Bytes,
            "object" => Ty::AnyObject,
            "none" | "null" => Ty::None,
            _ => Ty::Any,
        },
        Kind::Array(inner, _) | Kind::Set(inner, _) => Ty::array(ty_of_kind(inner)),
        Kind::Record(tables) if tables.len() == 1 => Ty::Record(tables[0].clone()),
        Kind::Either(_) => match kind.optional_inner() {
            Some(one) => Ty::Option(Box::new(ty_of_kind(one))),
            None => Ty::Any,
        },
        _ => Ty::Any,
    }
}

/// Whether a value of type `ty` passes the engine's coercion to `kind`; only what is known to
/// fail is refused (an unknown type, an option's content, a number for any numeric kind pass).
fn fits(kind: &Kind, ty: &Ty) -> bool {
    let ty = match ty {
        Ty::Option(inner) => inner.as_ref(),
        ty => ty,
    };
    match kind {
        Kind::Either(members) => members.iter().any(|k| fits(k, ty)),
        Kind::Array(inner, _) | Kind::Set(inner, _) => match ty {
            Ty::Array(t) => fits(inner, t),
            _ => unknown(ty),
        },
        Kind::Record(tables) => match ty {
            Ty::Record(t) => tables.contains(t),
            _ => unknown(ty),
        },
        Kind::Named(n) => named_fits(n, ty),
        _ => true,
    }
}

fn unknown(ty: &Ty) -> bool {
    matches!(ty, Ty::Any | Ty::None | Ty::RecordKey)
}

fn named_fits(kind: &str, ty: &Ty) -> bool {
    if unknown(ty) || kind == "any" {
        return true;
    }
    match kind {
        "string" => matches!(ty, Ty::String | Ty::Literal(_)),
        "int" | "float" | "decimal" | "number" => ty.is_numeric() && !matches!(ty, Ty::Array(_)),
        "bool" => matches!(ty, Ty::Bool),
        "datetime" => matches!(ty, Ty::Datetime),
        "duration" => matches!(ty, Ty::Duration),
        "uuid" => matches!(ty, Ty::Uuid),
        "bytes" => matches!(ty, Ty::Bytes),
        "record" => matches!(ty, Ty::Record(_)),
        "object" => matches!(ty, Ty::Object(_) | Ty::AnyObject | Ty::Record(_)),
        "array" => matches!(ty, Ty::Array(_)),
        _ => true,
    }
}
