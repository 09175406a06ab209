//! Rust field types to SurrealQL types: the mapping table (`docs/annotations.md` shows it) and what it cannot map.

use super::ctxt::Ctxt;
use crate::ir;
use syn::{GenericArgument, PathArguments};

/// A field type as far as one item can tell; `Link` and `Named` need the other items to settle.
#[derive(Clone)]
pub enum TypeAst {
    Known(ir::Type),
    Option(Box<TypeAst>),
    Array(Box<TypeAst>, Option<u64>),
    /// `Link<T>`: a record of table type `T`.
    Link(syn::Path),
    /// A user type, such as a literal enum.
    Named(syn::Path),
    /// `#[surqlc(type = "...")]`.
    Raw(crate::ir::RawType),
}

impl TypeAst {
    /// The user type this type stores, inside `Option`s and arrays: the Literal enum whose doc
    /// comments a field of this type carries in its comment (the compiler and the derive both ask).
    pub fn named(&self) -> Option<&syn::Path> {
        match self {
            TypeAst::Named(path) => Some(path),
            TypeAst::Option(inner) | TypeAst::Array(inner, _) => inner.named(),
            _ => None,
        }
    }
}

/// The `T` in `Link<T>` (or `Option<Link<T>>` is not accepted: an edge has both ends).
pub(crate) fn link_target(ty: &syn::Type) -> Option<syn::Path> {
    let (name, args) = last_segment(ty)?;
    if name != "Link" {
        return None;
    }
    match args.as_slice() {
        [syn::Type::Path(p)] if p.qself.is_none() => Some(p.path.clone()),
        _ => None,
    }
}

/// The last path segment's name and its type arguments.
fn last_segment(ty: &syn::Type) -> Option<(String, Vec<syn::Type>)> {
    let syn::Type::Path(tp) = ty else { return None };
    if tp.qself.is_some() {
        return None;
    }
    let seg = tp.path.segments.last()?;
    let args = match &seg.arguments {
        PathArguments::None => Vec::new(),
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(t) => Some(t.clone()),
                _ => None,
            })
            .collect(),
        PathArguments::Parenthesized(_) => return None,
    };
    Some((seg.ident.to_string(), args))
}

use super::unsupported::RAW_TYPE as UNSUPPORTED_HINT;

/// The SurrealQL shape of a Rust field type; see `docs/annotations.md` for the table.
pub fn map_type(cx: &Ctxt, ty: &syn::Type) -> Option<TypeAst> {
    let unsupported = || {
        let shown = type_to_string(ty);
        cx.error_spanned_by(ty, format!("unsupported field type `{shown}`; {UNSUPPORTED_HINT}"));
        None
    };
    match ty {
        syn::Type::Paren(p) => map_type(cx, &p.elem),
        syn::Type::Group(g) => map_type(cx, &g.elem),
        syn::Type::Reference(r) if matches!(&*r.elem, syn::Type::Path(p) if p.path.is_ident("str")) => {
            Some(TypeAst::Known(ir::Type::String))
        }
        syn::Type::Array(arr) => {
            let len = match &arr.len {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n), ..
                }) => n.base10_parse::<u64>().map_err(|_| "array length is too large"),
                _ => Err("array length must be an integer literal"),
            };
            let len = match len {
                Ok(len) => len,
                Err(why) => {
                    cx.error_spanned_by(&arr.len, format!("{why}; {UNSUPPORTED_HINT}"));
                    return None;
                }
            };
            Some(TypeAst::Array(Box::new(map_type(cx, &arr.elem)?), Some(len)))
        }
        syn::Type::Path(_) => {
            let Some((name, args)) = last_segment(ty) else {
                return unsupported();
            };
            let mapping = TYPE_NAMES
                .iter()
                .find(|(n, m)| *n == name && m.arity().contains(&args.len()))
                .map(|(_, m)| m);
            match (mapping, args.as_slice()) {
                (Some(Mapping::Scalar(t) | Mapping::Zoned(t)), _) => Some(TypeAst::Known(t.clone())),
                (Some(Mapping::Option), [inner]) => {
                    match map_type(cx, inner)? {
                        TypeAst::Option(_) => {
                            cx.error_spanned_by(ty, "`Option<Option<T>>` has no SurrealQL type: a field is NONE or a value; use one `Option`");
                            None
                        }
                        inner => Some(TypeAst::Option(Box::new(inner))),
                    }
                }
                (Some(Mapping::Array), [inner]) => Some(TypeAst::Array(Box::new(map_type(cx, inner)?), None)),
                (Some(Mapping::Transparent), [inner]) => map_type(cx, inner),
                (Some(Mapping::Link), [_]) => link_target(ty).map(TypeAst::Link).or_else(unsupported),
                (None, [key, _]) if matches!(name.as_str(), "HashMap" | "BTreeMap" | "IndexMap") => {
                    let string_keys = is_string(key);
                    cx.error_spanned_by(
                        ty,
                        format!(
                            "unsupported field type `{}`; {}",
                            type_to_string(ty),
                            super::unsupported::map(string_keys)
                        ),
                    );
                    None
                }
                (_, []) => match ty {
                    syn::Type::Path(p) => Some(TypeAst::Named(p.path.clone())),
                    _ => unsupported(),
                },
                _ => unsupported(),
            }
        }
        _ => unsupported(),
    }
}

/// `String`, `str` or `&str` (the types that map to `string`).
fn is_string(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => is_string(&r.elem),
        _ => {
            matches!(last_segment(ty), Some((name, args)) if (name == "String" || name == "str") && args.is_empty())
        }
    }
}

/// A type as a person writes it (`HashMap<String, u8>`), not as tokens print (`HashMap < String , u8 >`).
fn type_to_string(ty: &syn::Type) -> String {
    let tokens = quote::ToTokens::to_token_stream(ty).to_string();
    let mut out = String::with_capacity(tokens.len());
    for piece in tokens.split(' ') {
        let glue = matches!(piece, "<" | ">" | "," | "::" | ")" | "]" | ";")
            || out.ends_with(['<', '(', '[', '&'])
            || out.ends_with("::");
        if !out.is_empty() && !glue {
            out.push(' ');
        }
        out.push_str(piece);
    }
    out
}

/// How a Rust type name maps to SurrealQL: the table `map_type` reads.
enum Mapping {
    /// A type without arguments (`String`).
    Scalar(ir::Type),
    /// A type whose one argument does not change the mapping (`DateTime<Utc>`).
    Zoned(ir::Type),
    /// `Option<T>`: `option<T>`.
    Option,
    /// `Vec<T>`: `array<T>`.
    Array,
    /// `Box<T>`: whatever `T` is.
    Transparent,
    /// `Link<T>`: `record<t>`.
    Link,
}

impl Mapping {
    /// How many type arguments the name takes for this mapping.
    fn arity(&self) -> std::ops::RangeInclusive<usize> {
        match self {
            Mapping::Scalar(_) => 0..=0,
            _ => 1..=1,
        }
    }
}

/// Rust type names (the last path segment) and their SurrealQL types.
const TYPE_NAMES: &[(&str, Mapping)] = &[
    ("String", Mapping::Scalar(ir::Type::String)),
    ("str", Mapping::Scalar(ir::Type::String)),
    ("bool", Mapping::Scalar(ir::Type::Bool)),
    ("i8", Mapping::Scalar(ir::Type::Int)),
    ("i16", Mapping::Scalar(ir::Type::Int)),
    ("i32", Mapping::Scalar(ir::Type::Int)),
    ("i64", Mapping::Scalar(ir::Type::Int)),
    ("isize", Mapping::Scalar(ir::Type::Int)),
    ("u8", Mapping::Scalar(ir::Type::Int)),
    ("u16", Mapping::Scalar(ir::Type::Int)),
    ("u32", Mapping::Scalar(ir::Type::Int)),
    ("u64", Mapping::Scalar(ir::Type::Int)),
    ("usize", Mapping::Scalar(ir::Type::Int)),
    ("f32", Mapping::Scalar(ir::Type::Float)),
    ("f64", Mapping::Scalar(ir::Type::Float)),
    ("Decimal", Mapping::Scalar(ir::Type::Decimal)),
    ("Number", Mapping::Scalar(ir::Type::Number)),
    ("Datetime", Mapping::Scalar(ir::Type::Datetime)),
    ("OffsetDateTime", Mapping::Scalar(ir::Type::Datetime)),
    ("SystemTime", Mapping::Scalar(ir::Type::Datetime)),
    ("DateTime", Mapping::Scalar(ir::Type::Datetime)),
    // chrono::DateTime<Utc> carries its time zone as a type argument.
    ("DateTime", Mapping::Zoned(ir::Type::Datetime)),
    ("Duration", Mapping::Scalar(ir::Type::Duration)),
    ("Uuid", Mapping::Scalar(ir::Type::Uuid)),
    ("Bytes", Mapping::Scalar(ir::Type::Bytes)),
    ("Option", Mapping::Option),
    ("Vec", Mapping::Array),
    ("VecDeque", Mapping::Array),
    ("Box", Mapping::Transparent),
    ("Arc", Mapping::Transparent),
    ("Rc", Mapping::Transparent),
    ("Link", Mapping::Link),
];

/// Whether fields of a type named `name` map to a built-in SurrealQL type (so a Literal enum may not take the name).
pub fn is_builtin_type_name(name: &str) -> bool {
    TYPE_NAMES.iter().any(|(n, _)| *n == name)
}
