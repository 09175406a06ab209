//! Built-in function calls against their signatures ([`crate::validate::functions`]): a wrong number of arguments, or an argument whose known type the engine refuses, is a FunctionArguments error quoting the signature.

use super::{Resolver, Val};
use crate::codes::Demotion;
use crate::validate::functions::{self, fits, methods, Kind, Signature};
use crate::validate::scan::{Kind as Token, Locator, OrAll};
use crate::validate::types::Ty;
use crate::validate::{Class, Span};
use surrealdb_sql::{Expr, Function, FunctionCall, Literal};
use surrealdb_types::ToSql;

impl<'a, 'l> Resolver<'a, 'l> {
    /// `value.name(args)` (`args[0]` the receiver): the function the engine dispatches to for
    /// the receiver's kind ([`functions::methods`]), its arity, and the call's type; a method the
    /// kind does not have is UnknownMethod.
    pub(super) fn method(&mut self, name: &str, args: &[Val]) -> Ty {
        let Some(on) = args.first().and_then(|r| methods::receiver(&r.ty)) else {
            return super::method_type(name, args);
        };
        let Some(function) = methods::resolve(name, on) else {
            let kind = args[0]
                .ty
                .scalar_kind()
                .map_or_else(|| format!("{on:?}").to_lowercase(), str::to_owned);
            let span = self.loc.ident(name, &["."]).or_all(self.loc);
            let names = methods::names_on(on);
            // A method of other kinds is no typo: converting the value is the repair, not a name.
            let elsewhere = methods::kinds_with(name);
            let near = crate::suggest::nearest(name, names.iter().copied()).filter(|_| elsewhere.is_empty());
            let fix = match near {
                None if !elsewhere.is_empty() => format!(
                    "`.{name}()` is a method of {}: convert the value first (`(<string> value).{name}()`), or use a {kind} function",
                    elsewhere.join(" and ")
                ),
                Some(near) => format!("did you mean `.{near}()`? A {kind} has: {}", names.join(", ")),
                None if names.is_empty() => {
                    format!("a {kind} has only the generic methods (`.to_string()`, `.is_string()`, ...)")
                }
                None => format!("a {kind} has: {}", names.join(", ")),
            };
            self.error_fixed(
                span,
                Class::UnknownMethod,
                format!("a {kind} has no method `.{name}()`: the engine fails (\"no such method found for the {kind} type\")"),
                fix,
                near.map(str::to_owned),
            );
            return Ty::Any;
        };
        if let Some(sig) = functions::signature(function) {
            if !sig.accepts(args.len()) {
                let span = self.loc.ident(name, &["."]).or_all(self.loc);
                self.error(
                    span,
                    Class::FunctionArguments,
                    format!(
                        "`.{name}()` calls {function} with the value as its first argument: {sig} {}, but it gets {}",
                        sig.arity(),
                        args.len()
                    ),
                    arity_fix(sig, args.len()),
                );
            }
        }
        super::function_type(function, args)
    }

    /// Checks a call of built-in `name` with arguments `args` (already resolved): the arity
    /// first, then each argument whose type is known. Functions outside the table pass.
    pub(super) fn check_call(&mut self, call: &FunctionCall, args: &[Val]) {
        let Function::Normal(name) = &call.receiver else {
            return;
        };
        let name = name.as_str();
        let Some(sig) = functions::signature(name) else {
            return;
        };
        if !sig.accepts(args.len()) {
            let span = call_span(self.loc, name, &call.arguments).unwrap_or_else(|| self.loc.all());
            let got = match args.len() {
                1 => "1 argument".to_owned(),
                n => format!("{n} arguments"),
            };
            let mut message = format!("{name} {}: {sig}, but got {got}", sig.arity());
            // Under GROUP BY an aggregate reads its first argument and ignores the rest.
            let fix = arity_fix(sig, args.len());
            if sig.aggregate && args.len() > sig.min && grouped(self.loc) {
                message.push_str(", and under GROUP BY the engine ignores the extra ones");
                self.warning(span, Demotion::ExtraAggregateArguments, message, fix);
            } else {
                self.error(span, Class::FunctionArguments, message, fix);
            }
            return;
        }
        // `string::starts_with($prefix, ...)`: a parameter takes the signature's kind there.
        for (i, e) in call.arguments.iter().enumerate() {
            if let (Some(param), Some(ty)) = (crate::validate::params::user_param(e), sig.arg(i).and_then(param_type)) {
                self.param_use(param, ty, false);
            }
        }
        for (i, arg) in args.iter().enumerate() {
            let Some(kind) = sig.arg(i) else { continue };
            let ty = call.arguments.get(i).map_or(Ty::Any, |e| argument_type(e, &arg.ty));
            if fits(kind, &ty, sig.aggregate) {
                continue;
            }
            let span = call_span(self.loc, name, &call.arguments).unwrap_or_else(|| self.loc.all());
            let what = match &arg.field {
                Some((table, field)) => format!("{table}.{field}, {}", a(&ty)),
                None => a(&ty),
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
                fix(sig, kind, &ty),
            );
            // One message per call: the first argument that cannot be right.
            return;
        }
    }
}

/// The type a parameter passed where a signature takes `kind` has, when the kind names one.
fn param_type(kind: Kind) -> Option<Ty> {
    Some(match kind {
        Kind::Bool => Ty::Bool,
        Kind::Int => Ty::Int,
        Kind::Float => Ty::Float,
        Kind::Number => Ty::Number,
        Kind::String => Ty::String,
        Kind::Datetime => Ty::Datetime,
        Kind::Duration => Ty::Duration,
        Kind::Uuid => Ty::Uuid,
        Kind::Bytes => Ty::Bytes,
        Kind::Numbers => Ty::array(Ty::Number),
        Kind::Datetimes => Ty::array(Ty::Datetime),
        Kind::Strings => Ty::array(Ty::String),
        Kind::Object => Ty::AnyObject,
        _ => return None,
    })
}

/// The type an argument is known to have: a built-in call's result as its signature declares it
/// (checked on the engine; the resolver's result types are guesses for display), else the
/// resolver's type.
fn argument_type(e: &Expr, resolved: &Ty) -> Ty {
    match e {
        Expr::FunctionCall(call) => match &call.receiver {
            Function::Normal(name) => functions::signature(name).map_or(Ty::Any, |s| s.returns.ty()),
            _ => Ty::Any,
        },
        _ => resolved.clone(),
    }
}

/// Whether the query groups (`GROUP BY` or `GROUP ALL`, here or in a subquery).
fn grouped(loc: &Locator) -> bool {
    loc.tokens()
        .windows(2)
        .any(|w| w[0].is_word("group") && (w[1].is_word("by") || w[1].is_word("all")))
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

/// `text` with its article (`an int`, `a string`, `the object {...}`): the messages' one rule.
pub(super) fn article(text: String) -> String {
    let vowel = text.starts_with(['a', 'e', 'i', 'o', 'u']);
    let is_name = text.starts_with('{');
    match (vowel, is_name) {
        (_, true) => format!("the object {text}"),
        (true, _) => format!("an {text}"),
        (false, _) => format!("a {text}"),
    }
}

/// How to call it with as many arguments as it takes: an example with literals of its kinds,
/// and the function meant where a common confusion explains the count.
fn arity_fix(sig: &Signature, got: usize) -> String {
    let meant = match (sig.name, got) {
        ("math::round" | "math::floor" | "math::ceil", 2) => {
            Some("to round to a number of decimal places, use math::fixed(number, int)")
        }
        ("count", n) if n > 1 => {
            return "count() counts the rows, count(field) the rows where one value is truthy: pass at most one argument".into();
        }
        _ => None,
    };
    let n = match sig.max() {
        Some(max) if got > max => max,
        _ => sig.min.max(got.min(sig.args.len())),
    };
    let mut args: Vec<&str> = sig.args[..n].iter().map(|k| k.sample()).collect();
    if args.is_empty() {
        if let Some(v) = sig.variadic {
            args.push(v.sample());
        }
    }
    let example = format!("{}({})", sig.name, args.join(", "));
    match meant {
        Some(meant) => format!("{meant}; {} is called as {example}", sig.name),
        None => format!("call it with {}, as in {example}", count_text(args.len())),
    }
}

fn count_text(n: usize) -> String {
    match n {
        0 => "no arguments".to_owned(),
        1 => "1 argument".to_owned(),
        n => format!("{n} arguments"),
    }
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
            "{} works on numbers: pass a numeric field, or an array of numbers such as [1, 2]",
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
        Kind::String => {
            format!("pass a string (a string field or a quoted literal), or convert with type::string(...): {sig}")
        }
        _ => format!("pass {} such as {}: {sig}", a_kind(kind), kind.sample()),
    }
}

/// Where the call `name(...)` is written: its name through its closing parenthesis. Of several
/// calls of `name`, the one whose written arguments best match `args` (count, strings, names).
pub(super) fn call_span(loc: &Locator, name: &str, args: &[Expr]) -> Option<Span> {
    let parts: Vec<&str> = name.split("::").collect();
    let tokens = loc.tokens();
    let mut best: Option<(usize, usize, usize)> = None;
    'start: for i in 0..tokens.len() {
        if i > 0 && tokens[i - 1].is_punct("::") {
            continue;
        }
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
        if !tokens.get(j).is_some_and(|t| t.is_punct("(")) {
            continue;
        }
        // The written arguments: token ranges between top-level commas.
        let mut depth = 0usize;
        let mut written: Vec<(usize, usize)> = Vec::new();
        let mut start = j + 1;
        let mut close = None;
        for (k, t) in tokens.iter().enumerate().skip(j) {
            if t.is_punct("(") || t.is_punct("[") || t.is_punct("{") {
                depth += 1;
            } else if t.is_punct(")") || t.is_punct("]") || t.is_punct("}") {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    if k > start {
                        written.push((start, k));
                    }
                    close = Some(k);
                    break;
                }
            } else if depth == 1 && t.is_punct(",") {
                written.push((start, k));
                start = k + 1;
            }
        }
        let Some(close) = close else { continue };
        let mut score = usize::from(written.len() == args.len()) * 2;
        for ((from, to), arg) in written.iter().zip(args) {
            if argument_matches(&tokens[*from..*to], arg) {
                score += 1;
            }
        }
        if best.is_none_or(|(_, _, s)| score > s) {
            best = Some((i, close, score));
        }
    }
    best.map(|(i, close, _)| loc.token_span(i, close))
}

/// Whether the written tokens of an argument are the parsed `arg` (a string's content, a name, a number).
fn argument_matches(written: &[crate::validate::scan::Token], arg: &Expr) -> bool {
    let Some(first) = written.first() else {
        return false;
    };
    match arg {
        Expr::Literal(Literal::String(s)) => first.kind == Token::Str && first.text == s.as_str(),
        Expr::Literal(Literal::Datetime(_)) => first.kind == Token::Str,
        Expr::Idiom(_) | Expr::Literal(Literal::Integer(_) | Literal::Float(_)) => {
            let sql = arg.to_sql();
            let head = sql.split(['.', '-', '<', '[']).next().unwrap_or("");
            first.text == head.trim_matches('`')
        }
        _ => false,
    }
}
