//! Reads the definition clauses in `#[surqlc(...)]`: table mode, permissions, indexes, field clauses, analyzers and value hints.
//!
//! `attr` hands each `#[surqlc]` item it does not know to the functions here; they
//! record what was written (with spans) and leave meaning to `ast` and `resolve`.
//! SurrealQL expressions stay text, checked by [`super::expr_check`] where they are read.

use super::ctxt::{Ctxt, Spanned};
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{LitStr, Token};

/// A SurrealQL expression written as a string literal (kept for pointing into it).
#[derive(Debug, Clone)]
pub struct ExprLit {
    pub text: String,
    pub lit: LitStr,
}

impl ExprLit {
    pub fn span(&self) -> Span {
        self.lit.span()
    }
}

/// One operation's permission as written: `full`, `none` or `"guard expression"`.
#[derive(Debug, Clone)]
pub enum PermissionAttr {
    None,
    Full,
    Where(ExprLit),
}

/// `permissions(select = ..., create = ..., update = ..., delete = ...)`.
#[derive(Debug, Clone, Default)]
pub struct PermissionsAttr {
    pub select: Option<PermissionAttr>,
    pub create: Option<PermissionAttr>,
    pub update: Option<PermissionAttr>,
    pub delete: Option<PermissionAttr>,
    /// Where `delete` was written (a field has no delete permission).
    pub delete_span: Option<Span>,
    pub span: Option<Span>,
}

/// `index(name = "...", fields(a, b), unique | fulltext(...) | hnsw(...))`.
#[derive(Debug, Clone)]
pub struct IndexAttr {
    pub name: Option<Spanned<String>>,
    /// Rust field names (or database names), or paths into object fields, as written.
    pub fields: Vec<IndexPath>,
    pub kind: IndexKindAttr,
    pub span: Span,
}

/// A field an index covers, as written: a field's name (`email`), a path into an object field
/// (`address.country`: the field's name, then its sub-fields' database names), or a relation's
/// `in`/`out`.
#[derive(Debug, Clone)]
pub struct IndexPath(pub Vec<syn::Ident>);

impl IndexPath {
    /// The field the path starts at.
    pub fn first(&self) -> &syn::Ident {
        &self.0[0]
    }

    /// The names after the first, joined by `.` (empty for a plain field).
    pub fn rest(&self) -> String {
        self.0[1..].iter().map(|i| i.to_string()).collect::<Vec<_>>().join(".")
    }
}

impl quote::ToTokens for IndexPath {
    fn to_tokens(&self, tokens: &mut proc_macro2::TokenStream) {
        for (k, ident) in self.0.iter().enumerate() {
            if k > 0 {
                <Token![.]>::default().to_tokens(tokens);
            }
            ident.to_tokens(tokens);
        }
    }
}

fn index_path(input: syn::parse::ParseStream) -> syn::Result<IndexPath> {
    let mut parts = vec![any_ident(input)?];
    while input.peek(Token![.]) {
        input.parse::<Token![.]>()?;
        parts.push(any_ident(input)?);
    }
    Ok(IndexPath(parts))
}

#[derive(Debug, Clone)]
pub enum IndexKindAttr {
    Plain,
    Unique,
    FullText {
        analyzer: Option<Spanned<String>>,
        bm25: Option<Spanned<(f64, f64)>>,
        highlights: bool,
    },
    Hnsw {
        dimension: Option<Spanned<u32>>,
        dist: Option<Spanned<String>>,
        vector_type: Option<Spanned<String>>,
        efc: Option<Spanned<u32>>,
        m: Option<Spanned<u32>>,
    },
}

/// The clauses on a table struct.
#[derive(Debug, Default)]
pub struct TableClauses {
    pub schemaless: Option<Span>,
    pub enforced: Option<Span>,
    pub permissions: Option<PermissionsAttr>,
    pub indexes: Vec<IndexAttr>,
}

/// `reference` or `reference(on_delete = "cascade")`.
#[derive(Debug, Clone)]
pub struct ReferenceAttr {
    pub on_delete: Option<OnDeleteAttr>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum OnDeleteAttr {
    Word(Spanned<String>),
    Then(ExprLit),
}

/// The clauses on a field.
#[derive(Debug, Default)]
pub struct FieldClauses {
    pub default: Option<ExprLit>,
    pub default_always: Option<Span>,
    pub value: Option<ExprLit>,
    pub computed: Option<ExprLit>,
    pub assert: Option<ExprLit>,
    pub readonly: Option<Span>,
    pub flexible: Option<Span>,
    pub reference: Option<ReferenceAttr>,
    pub permissions: Option<PermissionsAttr>,
    /// `hidden`: left out of the prompt and unreadable by the agent (`PERMISSIONS FOR select NONE`).
    pub hidden: Option<Span>,
}

impl FieldClauses {
    /// Whether any clause was written (a relation's `in`/`out` may carry none).
    pub fn any(&self) -> bool {
        self.default.is_some()
            || self.default_always.is_some()
            || self.value.is_some()
            || self.computed.is_some()
            || self.assert.is_some()
            || self.readonly.is_some()
            || self.flexible.is_some()
            || self.reference.is_some()
            || self.permissions.is_some()
            || self.hidden.is_some()
    }
}

/// `analyzer(name = "en", tokenizers(blank, class), filters("lowercase", "snowball(english)"), comment = "...")`.
#[derive(Debug, Clone)]
pub struct AnalyzerAttr {
    pub name: Spanned<String>,
    pub tokenizers: Vec<syn::Ident>,
    pub filters: Vec<LitStr>,
    pub comment: Option<String>,
}

/// One item of `value_hints(...)`.
#[derive(Debug, Clone)]
pub enum HintAttr {
    /// `Type::field` or `distinct(Type::field, max = N)`.
    Distinct(syn::ExprPath, Option<Spanned<u32>>),
    /// `ids(Type)` or `ids(Type, max = N)`.
    Ids(syn::ExprPath, Option<Spanned<u32>>),
    /// `range(Type::field)`.
    Range(syn::ExprPath),
    /// `note("text")`.
    Note(Spanned<String>),
}

/// `value_hints(...)`: the hints and the ceiling `max = N` for all of them.
#[derive(Debug, Clone, Default)]
pub struct HintsAttr {
    pub hints: Vec<HintAttr>,
    pub max: Option<Spanned<u32>>,
    /// `time_spans = false`: no span line for the exposed datetime fields.
    pub time_spans: Option<Spanned<bool>>,
}

fn lit_str(meta: &ParseNestedMeta) -> syn::Result<LitStr> {
    meta.value()?.parse()
}

fn expr_lit(meta: &ParseNestedMeta) -> syn::Result<ExprLit> {
    let lit = lit_str(meta)?;
    Ok(ExprLit { text: lit.value(), lit })
}

fn spanned_str(meta: &ParseNestedMeta) -> syn::Result<Spanned<String>> {
    let lit = lit_str(meta)?;
    Ok(Spanned {
        value: lit.value(),
        span: lit.span(),
    })
}

fn int_u32(expr: &syn::Expr) -> syn::Result<Spanned<u32>> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(lit),
            ..
        }) => match lit.base10_parse::<u32>() {
            Ok(value) => Ok(Spanned {
                value,
                span: lit.span(),
            }),
            Err(_) => Err(syn::Error::new_spanned(
                expr,
                format!("expected a whole number from 0 to {}", u32::MAX),
            )),
        },
        _ => Err(syn::Error::new_spanned(
            expr,
            format!("expected a whole number from 0 to {}", u32::MAX),
        )),
    }
}

fn meta_u32(meta: &ParseNestedMeta) -> syn::Result<Spanned<u32>> {
    let expr: syn::Expr = meta.value()?.parse()?;
    int_u32(&expr)
}

fn float(expr: &syn::Expr) -> syn::Result<f64> {
    let lit = match expr {
        syn::Expr::Lit(syn::ExprLit { lit, .. }) => lit,
        _ => return Err(syn::Error::new_spanned(expr, "expected a number")),
    };
    match lit {
        syn::Lit::Float(f) => f.base10_parse(),
        syn::Lit::Int(i) => i.base10_parse(),
        _ => Err(syn::Error::new_spanned(expr, "expected a number")),
    }
}

fn once<T>(cx: &Ctxt, slot: &mut Option<T>, value: T, span: Span, what: &str) {
    if slot.is_some() {
        cx.error_at(span, format!("duplicate `{what}`"));
    } else {
        *slot = Some(value);
    }
}

fn flag(cx: &Ctxt, slot: &mut Option<Span>, meta: &ParseNestedMeta, what: &str) -> syn::Result<()> {
    if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
        return Err(meta.error(format!("`{what}` takes no value")));
    }
    let span = meta.path.span();
    once(cx, slot, span, span, what);
    Ok(())
}

/// `permissions(select = "...", create = full, update = none, delete = "...")`.
pub fn permissions(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<PermissionsAttr> {
    let mut out = PermissionsAttr {
        span: Some(meta.path.span()),
        ..Default::default()
    };
    meta.parse_nested_meta(|inner| {
        let slot = if inner.path.is_ident("select") {
            &mut out.select
        } else if inner.path.is_ident("create") {
            &mut out.create
        } else if inner.path.is_ident("update") {
            &mut out.update
        } else if inner.path.is_ident("delete") {
            out.delete_span = Some(inner.path.span());
            &mut out.delete
        } else {
            return Err(inner.error("expected `select`, `create`, `update` or `delete` in permissions(...)"));
        };
        let value: syn::Expr = inner.value()?.parse()?;
        let permission = match &value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(lit),
                ..
            }) => PermissionAttr::Where(ExprLit {
                text: lit.value(),
                lit: lit.clone(),
            }),
            syn::Expr::Path(p) if p.path.is_ident("full") => PermissionAttr::Full,
            syn::Expr::Path(p) if p.path.is_ident("none") => PermissionAttr::None,
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    "expected `full`, `none` or a SurrealQL condition in a string (\"$auth.id = owner\")",
                ))
            }
        };
        let span = inner.path.span();
        once(cx, slot, permission, span, "permission");
        Ok(())
    })?;
    Ok(out)
}

/// `index(...)` on a table.
pub fn index(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<IndexAttr> {
    let mut name = None;
    let mut fields: Option<Vec<IndexPath>> = None;
    let mut kind: Option<IndexKindAttr> = None;
    let span = meta.path.span();
    meta.parse_nested_meta(|inner| {
        let at = inner.path.span();
        if inner.path.is_ident("name") {
            let value = spanned_str(&inner)?;
            once(cx, &mut name, value, at, "index(name)");
        } else if inner.path.is_ident("fields") {
            let content;
            syn::parenthesized!(content in inner.input);
            let list = content.parse_terminated(index_path, Token![,])?;
            once(cx, &mut fields, list.into_iter().collect(), at, "index(fields)");
        } else if inner.path.is_ident("unique") {
            once(cx, &mut kind, IndexKindAttr::Unique, at, "index kind");
        } else if inner.path.is_ident("fulltext") {
            let value = fulltext(cx, &inner)?;
            once(cx, &mut kind, value, at, "index kind");
        } else if inner.path.is_ident("hnsw") {
            let value = hnsw(cx, &inner)?;
            once(cx, &mut kind, value, at, "index kind");
        } else {
            return Err(inner.error(
                "expected `name = \"...\"`, `fields(...)`, `unique`, `fulltext(...)` or `hnsw(...)` in index(...)",
            ));
        }
        Ok(())
    })?;
    let Some(fields) = fields.filter(|f| !f.is_empty()) else {
        return Err(syn::Error::new(
            span,
            "an index names its fields: index(fields(a, b), ...)",
        ));
    };
    Ok(IndexAttr {
        name,
        fields,
        kind: kind.unwrap_or(IndexKindAttr::Plain),
        span,
    })
}

/// The inside of an index's `fulltext(analyzer = "...", bm25(k1, b), highlights)`.
fn fulltext(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<IndexKindAttr> {
    let mut analyzer = None;
    let mut bm25 = None;
    let mut highlights = false;
    meta.parse_nested_meta(|ft| {
        let at = ft.path.span();
        if ft.path.is_ident("analyzer") {
            let value = spanned_str(&ft)?;
            once(cx, &mut analyzer, value, at, "fulltext(analyzer)");
        } else if ft.path.is_ident("bm25") {
            let content;
            syn::parenthesized!(content in ft.input);
            let args = content.parse_terminated(syn::Expr::parse, Token![,])?;
            let args: Vec<&syn::Expr> = args.iter().collect();
            let [k1, b] = args.as_slice() else {
                return Err(ft.error("write bm25(k1, b), e.g. bm25(1.2, 0.75)"));
            };
            let value = Spanned {
                value: (float(k1)?, float(b)?),
                span: at,
            };
            once(cx, &mut bm25, value, at, "fulltext(bm25)");
        } else if ft.path.is_ident("highlights") {
            highlights = true;
        } else {
            return Err(ft.error("expected `analyzer = \"...\"`, `bm25(k1, b)` or `highlights` in fulltext(...)"));
        }
        Ok(())
    })?;
    Ok(IndexKindAttr::FullText {
        analyzer,
        bm25,
        highlights,
    })
}

/// The inside of an index's `hnsw(dimension = N, dist = "...", type = "...", efc = N, m = N)`, if any.
fn hnsw(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<IndexKindAttr> {
    let (mut dimension, mut dist, mut vector_type, mut efc, mut m) = (None, None, None, None, None);
    if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|h| {
            let at = h.path.span();
            if h.path.is_ident("dimension") {
                let v = meta_u32(&h)?;
                once(cx, &mut dimension, v, at, "hnsw(dimension)");
            } else if h.path.is_ident("dist") {
                let v = spanned_str(&h)?;
                once(cx, &mut dist, v, at, "hnsw(dist)");
            } else if h.path.is_ident("type") {
                let v = spanned_str(&h)?;
                once(cx, &mut vector_type, v, at, "hnsw(type)");
            } else if h.path.is_ident("efc") {
                let v = meta_u32(&h)?;
                once(cx, &mut efc, v, at, "hnsw(efc)");
            } else if h.path.is_ident("m") {
                let v = meta_u32(&h)?;
                once(cx, &mut m, v, at, "hnsw(m)");
            } else {
                return Err(h.error("expected `dimension`, `dist`, `type`, `efc` or `m` in hnsw(...)"));
            }
            Ok(())
        })?;
    }
    Ok(IndexKindAttr::Hnsw {
        dimension,
        dist,
        vector_type,
        efc,
        m,
    })
}

/// A table-level clause; `Ok(false)` if `meta` is not one.
pub fn table_item(cx: &Ctxt, meta: &ParseNestedMeta, out: &mut TableClauses) -> syn::Result<bool> {
    if meta.path.is_ident("schemaless") {
        flag(cx, &mut out.schemaless, meta, "schemaless")?;
    } else if meta.path.is_ident("enforced") {
        flag(cx, &mut out.enforced, meta, "enforced")?;
    } else if meta.path.is_ident("permissions") {
        let p = permissions(cx, meta)?;
        once(cx, &mut out.permissions, p, meta.path.span(), "permissions");
    } else if meta.path.is_ident("index") {
        out.indexes.push(index(cx, meta)?);
    } else {
        return Ok(false);
    }
    Ok(true)
}

/// What the table-level clauses are, for the unknown-attribute message.
pub const TABLE_ITEMS: &str = "`schemaless`, `enforced`, `permissions(...)`, `index(...)`";

/// A field-level clause; `Ok(false)` if `meta` is not one.
pub fn field_item(cx: &Ctxt, meta: &ParseNestedMeta, out: &mut FieldClauses) -> syn::Result<bool> {
    let p = &meta.path;
    let at = p.span();
    if p.is_ident("default") {
        let e = expr_lit(meta)?;
        once(cx, &mut out.default, e, at, "default");
    } else if p.is_ident("default_always") {
        flag(cx, &mut out.default_always, meta, "default_always")?;
    } else if p.is_ident("value") {
        let e = expr_lit(meta)?;
        once(cx, &mut out.value, e, at, "value");
    } else if p.is_ident("computed") {
        let e = expr_lit(meta)?;
        once(cx, &mut out.computed, e, at, "computed");
    } else if p.is_ident("assert") {
        let e = expr_lit(meta)?;
        once(cx, &mut out.assert, e, at, "assert");
    } else if p.is_ident("readonly") {
        flag(cx, &mut out.readonly, meta, "readonly")?;
    } else if p.is_ident("flexible") {
        flag(cx, &mut out.flexible, meta, "flexible")?;
    } else if p.is_ident("hidden") {
        flag(cx, &mut out.hidden, meta, "hidden")?;
    } else if p.is_ident("reference") {
        let mut on_delete = None;
        if meta.input.peek(syn::token::Paren) {
            meta.parse_nested_meta(|inner| {
                if inner.path.is_ident("on_delete") {
                    let lit = lit_str(&inner)?;
                    let text = lit.value();
                    let value = match text.trim().to_ascii_lowercase().as_str() {
                        "reject" | "cascade" | "ignore" | "unset" => OnDeleteAttr::Word(Spanned {
                            value: text.trim().to_ascii_uppercase(),
                            span: lit.span(),
                        }),
                        _ => {
                            return Err(syn::Error::new(
                                lit.span(),
                                "expected \"reject\", \"cascade\", \"ignore\" or \"unset\" (or `then = \"expr\"`)",
                            ))
                        }
                    };
                    once(cx, &mut on_delete, value, inner.path.span(), "on_delete");
                } else if inner.path.is_ident("then") {
                    let e = expr_lit(&inner)?;
                    once(cx, &mut on_delete, OnDeleteAttr::Then(e), inner.path.span(), "on_delete");
                } else {
                    return Err(inner.error(
                        "expected `on_delete = \"reject\" | \"cascade\" | \"ignore\" | \"unset\"` or `then = \"expr\"` in reference(...)",
                    ));
                }
                Ok(())
            })?;
        }
        let r = ReferenceAttr { on_delete, span: at };
        once(cx, &mut out.reference, r, at, "reference");
    } else if p.is_ident("permissions") {
        let perms = permissions(cx, meta)?;
        once(cx, &mut out.permissions, perms, at, "permissions");
    } else {
        return Ok(false);
    }
    Ok(true)
}

/// What the field-level clauses are, for the unknown-attribute message.
pub const FIELD_ITEMS: &str = "`default = \"expr\"`, `default_always`, `value = \"expr\"`, `computed = \
    \"expr\"`, `assert = \"expr\"`, `readonly`, `flexible`, `reference(...)`, `permissions(...)`, `hidden`";

/// `analyzer(...)` on the Schema item.
pub fn analyzer(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<AnalyzerAttr> {
    let mut name = None;
    let mut tokenizers = Vec::new();
    let mut filters = Vec::new();
    let mut comment = None;
    meta.parse_nested_meta(|inner| {
        let at = inner.path.span();
        if inner.path.is_ident("name") {
            let v = spanned_str(&inner)?;
            once(cx, &mut name, v, at, "analyzer(name)");
        } else if inner.path.is_ident("tokenizers") {
            let content;
            syn::parenthesized!(content in inner.input);
            tokenizers.extend(content.parse_terminated(any_ident, Token![,])?);
        } else if inner.path.is_ident("filters") {
            let content;
            syn::parenthesized!(content in inner.input);
            filters.extend(content.parse_terminated(<LitStr as syn::parse::Parse>::parse, Token![,])?);
        } else if inner.path.is_ident("comment") {
            let v = lit_str(&inner)?.value();
            once(cx, &mut comment, v, at, "analyzer(comment)");
        } else {
            return Err(inner.error(
                "expected `name = \"...\"`, `tokenizers(...)`, `filters(\"...\")` or `comment = \"...\"` in analyzer(...)",
            ));
        }
        Ok(())
    })?;
    let Some(name) = name else {
        return Err(meta.error("an analyzer needs a name: analyzer(name = \"en\", ...)"));
    };
    Ok(AnalyzerAttr {
        name,
        tokenizers,
        filters,
        comment,
    })
}

fn hint_path(expr: &syn::Expr) -> syn::Result<syn::ExprPath> {
    match expr {
        syn::Expr::Path(p) => Ok(p.clone()),
        other => Err(syn::Error::new_spanned(other, "expected `Type::field` or `Type`")),
    }
}

fn hint_max(args: &[&syn::Expr]) -> syn::Result<Option<Spanned<u32>>> {
    match args {
        [] => Ok(None),
        [syn::Expr::Assign(a)] if matches!(&*a.left, syn::Expr::Path(p) if p.path.is_ident("max")) => {
            int_u32(&a.right).map(Some)
        }
        [other, ..] => Err(syn::Error::new_spanned(other, "expected `max = N`")),
    }
}

/// `value_hints(Type::field, ids(Type), range(Type::field), note("..."), max = N)`.
pub fn value_hints(meta: &ParseNestedMeta) -> syn::Result<HintsAttr> {
    let content;
    syn::parenthesized!(content in meta.input);
    let items = content.parse_terminated(syn::Expr::parse, Token![,])?;
    let mut out = HintsAttr::default();
    for item in items {
        match &item {
            syn::Expr::Path(p) => out.hints.push(HintAttr::Distinct(p.clone(), None)),
            syn::Expr::Assign(a) if matches!(&*a.left, syn::Expr::Path(p) if p.path.is_ident("time_spans")) => {
                if out.time_spans.is_some() {
                    return Err(syn::Error::new_spanned(&item, "duplicate `time_spans`"));
                }
                let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Bool(on), ..
                }) = &*a.right
                else {
                    return Err(syn::Error::new_spanned(&a.right, "write `time_spans = false` (or `true`)"));
                };
                out.time_spans = Some(Spanned {
                    value: on.value,
                    span: on.span,
                });
            }
            syn::Expr::Assign(_) => {
                if out.max.is_some() {
                    return Err(syn::Error::new_spanned(&item, "duplicate `max`"));
                }
                out.max = hint_max(&[&item])?;
            }
            syn::Expr::Call(call) => {
                let kind = match &*call.func {
                    syn::Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
                    _ => None,
                };
                let args: Vec<&syn::Expr> = call.args.iter().collect();
                let Some((first, rest)) = args.split_first() else {
                    return Err(syn::Error::new_spanned(&item, "expected an argument"));
                };
                let hint = match kind.as_deref() {
                    Some("distinct") => HintAttr::Distinct(hint_path(first)?, hint_max(rest)?),
                    Some("ids") => HintAttr::Ids(hint_path(first)?, hint_max(rest)?),
                    Some("range") if rest.is_empty() => HintAttr::Range(hint_path(first)?),
                    Some("note") if rest.is_empty() => match first {
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(s),
                            ..
                        }) => HintAttr::Note(Spanned {
                            value: s.value(),
                            span: s.span(),
                        }),
                        other => return Err(syn::Error::new_spanned(other, "write note(\"text\")")),
                    },
                    _ => {
                        return Err(syn::Error::new_spanned(
                            &call.func,
                            "expected `Type::field`, `distinct(Type::field)`, `ids(Type)`, `range(Type::field)`, `note(\"...\")`, `max = N` or `time_spans = false`",
                        ))
                    }
                };
                out.hints.push(hint);
            }
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    "expected `Type::field`, `distinct(Type::field)`, `ids(Type)`, `range(Type::field)`, `note(\"...\")`, `max = N` or `time_spans = false`",
                ))
            }
        }
    }
    Ok(out)
}

use syn::ext::IdentExt as _;

/// A name, keywords included (`type`), without `r#`.
fn any_ident(input: syn::parse::ParseStream) -> syn::Result<syn::Ident> {
    syn::Ident::parse_any(input).map(|i| i.unraw())
}
use syn::parse::Parse as _;
