//! Built-in function calls against their signatures ([`crate::validate::functions`]): a wrong number of arguments, or an argument whose known type the engine refuses, is a FunctionArguments error quoting the signature.

use super::{Resolver, Val};
use crate::validate::functions::{self, fits, Kind, Signature};
use crate::validate::scan::{Kind as Token, Locator};
use crate::validate::types::Ty;
use crate::validate::{Class, Span};
use surrealdb_sql::Function;

impl<'a, 'l> Resolver<'a, 'l> {
    /// Checks a call of built-in `name` with arguments `args` (already resolved): the arity
    /// first, then each argument whose type is known. Functions outside the table pass.
    pub(super) fn check_call(&mut self, receiver: &Function, args: &[Val]) {
        let Function::Normal(name) = receiver else {
            return;
        };
        let name = name.as_str();
        let Some(sig) = functions::signature(name) else {
            return;
        };
        if !sig.accepts(args.len()) {
            let span =
                call_span(self.loc, name, Some(args.len())).unwrap_or_else(|| self.loc.all());
            let got = match args.len() {
                1 => "1 argument".to_owned(),
                n => format!("{n} arguments"),
            };
            self.error(
                span,
                Class::FunctionArguments,
                format!("{name} {}: {sig}, but got {got}", sig.arity()),
                format!("call it as {}", example(sig)),
            );
            return;
        }
        for (i, arg) in args.iter().enumerate() {
            let Some(kind) = sig.arg(i) else { continue };
            if fits(kind, &arg.ty, sig.aggregate) {
                continue;
            }
            let span =
                call_span(self.loc, name, Some(args.len())).unwrap_or_else(|| self.loc.all());
            let what = match &arg.field {
                Some((table, field)) => format!("{table}.{field}, {}", a(&arg.ty)),
                None => a(&arg.ty),
            };
            self.error(
                span,
                Class::FunctionArguments,
                format!(
                    "argument {} of {name} is {what}, but {sig} takes {} there: {}",
                    i + 1,
                    a_kind(kind),
                    if sig.aggregate {
                        "the call fails, or under GROUP BY skips every value and answers 0 or NONE"
                    } else {
                        "the call fails, or under GROUP BY answers NONE for every row"
                    }
                ),
                fix(sig, kind, &arg.ty),
            );
            // One message per call: the first argument that cannot be right.
            return;
        }
    }
}

/// `a string`, `an array<string>`: the type with its article.
fn a(ty: &Ty) -> String {
    let text = match ty {
        Ty::Literal(_) => "string".to_owned(),
        Ty::Record(t) => format!("record<{t}>"),
        ty => ty.to_string(),
    };
    article(text)
}

fn a_kind(kind: Kind) -> String {
    article(kind.name().to_owned())
}

fn article(text: String) -> String {
    let vowel = text.starts_with(['a', 'e', 'i', 'o', 'u']);
    let is_name = text.starts_with('{');
    match (vowel, is_name) {
        (_, true) => format!("the object {text}"),
        (true, _) => format!("an {text}"),
        (false, _) => format!("a {text}"),
    }
}

/// The call with a literal of each required kind: `math::sum([1, 2])`.
fn example(sig: &Signature) -> String {
    let mut args: Vec<&str> = sig.args[..sig.min].iter().map(|k| k.sample()).collect();
    if args.is_empty() {
        if let Some(v) = sig.variadic {
            args.push(v.sample());
        }
    }
    format!("{}({}) ({})", sig.name, args.join(", "), sig.arity())
}

/// How to give the function what it takes, for the argument that does not fit.
fn fix(sig: &Signature, kind: Kind, ty: &Ty) -> String {
    let given = match ty {
        Ty::Option(inner) => inner.as_ref(),
        ty => ty,
    };
    let is_string = matches!(given, Ty::String | Ty::Literal(_));
    match kind {
        Kind::Datetime | Kind::Datetimes if is_string => format!(
            "a string is not a datetime: write a datetime literal such as {} (or cast with <datetime>)",
            Kind::Datetime.sample()
        ),
        Kind::Number | Kind::Int | Kind::Float if is_string => {
            "a string is not a number: pass a numeric field or literal (or cast with <number>)".into()
        }
        Kind::Numbers if is_string || matches!(given, Ty::Array(_)) => format!(
            "{} adds up numbers: pass a numeric field, or an array of numbers such as [1, 2]",
            sig.name
        ),
        Kind::Numbers | Kind::Datetimes | Kind::Strings | Kind::Vectors | Kind::Array => format!(
            "{} takes an array: pass an array field or a list such as {}, as in {}",
            sig.name,
            kind.sample(),
            sig
        ),
        Kind::Record if is_string => {
            "pass the record itself (a record link field, or table:key without quotes), not a string".into()
        }
        Kind::String => format!(
            "pass a string (a string field or a quoted literal), or convert with type::string(...): {sig}"
        ),
        _ => format!("pass {} such as {}: {sig}", a_kind(kind), kind.sample()),
    }
}

/// Where the call `name(...)` is written: its name through its closing parenthesis, preferring
/// one written with `count` arguments.
fn call_span(loc: &Locator, name: &str, count: Option<usize>) -> Option<Span> {
    let parts: Vec<&str> = name.split("::").collect();
    let tokens = &loc.tokens;
    let mut found: Vec<(usize, usize, usize)> = Vec::new();
    'start: for i in 0..tokens.len() {
        let mut j = i;
        for (n, part) in parts.iter().enumerate() {
            if n > 0 {
                if !tokens.get(j).is_some_and(|t| t.is_punct("::")) {
                    continue 'start;
                }
                j += 1;
            }
            match tokens.get(j) {
                Some(t) if t.kind == Token::Ident && t.text.eq_ignore_ascii_case(part) => j += 1,
                _ => continue 'start,
            }
        }
        if i > 0 && tokens[i - 1].is_punct("::") {
            continue;
        }
        if !tokens.get(j).is_some_and(|t| t.is_punct("(")) {
            continue;
        }
        let (mut depth, mut commas, mut empty, mut close) = (0usize, 0usize, true, None);
        for (k, t) in tokens.iter().enumerate().skip(j) {
            if t.is_punct("(") || t.is_punct("[") || t.is_punct("{") {
                depth += 1;
            } else if t.is_punct(")") || t.is_punct("]") || t.is_punct("}") {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    close = Some(k);
                    break;
                }
            } else if depth == 1 && t.is_punct(",") {
                commas += 1;
            }
            if k > j {
                empty = false;
            }
        }
        let Some(close) = close else { continue };
        let args = if empty { 0 } else { commas + 1 };
        found.push((i, close, args));
    }
    let pick = found
        .iter()
        .find(|(_, _, n)| Some(*n) == count)
        .or(found.first())?;
    Some(loc.token_span(pick.0, pick.1))
}
