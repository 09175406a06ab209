//! Reads the attributes surqlc cares about: `#[derive]` markers, doc comments, `#[surqlc(...)]` and serde's renames.

use super::ctxt::Ctxt;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Attribute, LitStr, Token};

/// What a derive marks an item as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derive {
    Table,
    Relation,
    Literal,
    Schema,
    /// An enum of `Link<T>` variants: a relation end or a record field of several tables.
    Ends,
    /// A struct stored inside a row: a field of its type is an object with typed sub-fields.
    Object,
}

impl Derive {
    pub fn name(self) -> &'static str {
        match self {
            Derive::Table => "Table",
            Derive::Relation => "Relation",
            Derive::Literal => "Literal",
            Derive::Schema => "Schema",
            Derive::Ends => "Ends",
            Derive::Object => "Object",
        }
    }
}

/// Every path in the item's `#[derive(...)]` attributes, in order (unparsable ones are rustc's to report).
pub fn derive_paths(attrs: &[Attribute]) -> impl Iterator<Item = syn::Path> + '_ {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .filter_map(|a| {
            a.parse_args_with(syn::punctuated::Punctuated::<syn::Path, Token![,]>::parse_terminated)
                .ok()
        })
        .flatten()
}

/// The surqlc derive among `#[derive(...)]`, matched by last path segment so `surqlc_macros::Table` and `Table` both count.
pub fn surqlc_derive(cx: &Ctxt, attrs: &[Attribute]) -> Option<(Derive, Span)> {
    let mut found: Option<(Derive, Span)> = None;
    for path in derive_paths(attrs) {
        let Some(last) = path.segments.last() else {
            continue;
        };
        let kind = match last.ident.to_string().as_str() {
            "Table" => Derive::Table,
            "Relation" => Derive::Relation,
            "Literal" => Derive::Literal,
            "Schema" => Derive::Schema,
            "Ends" => Derive::Ends,
            "Object" => Derive::Object,
            _ => continue,
        };
        match found {
            Some((other, _)) => cx.error_spanned_by(
                &path,
                format!("an item can derive only one of Table, Relation, Object, Literal, Ends and Schema; it already derives {}", other.name()),
            ),
            None => found = Some((kind, path.span())),
        }
    }
    found
}

/// The doc comment as one string; see `docs/annotations.md` for the joining rule.
///
/// Each `///` line (each `#[doc]`) loses one leading space; lines are joined with a
/// space, an empty line is a paragraph break (`\n`), and empty lines at either end are
/// dropped. Text inside a single `#[doc = "..."]` is kept verbatim, newlines included.
pub fn docs(cx: &Ctxt, attrs: &[Attribute]) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        let syn::Meta::NameValue(nv) = &attr.meta else {
            // `#[doc(hidden)]`, `#[doc(alias = "...")]`: rustdoc settings, not text.
            continue;
        };
        match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s), ..
            }) => {
                let text = s.value();
                let line = text.strip_prefix(' ').map(str::to_owned).unwrap_or(text);
                // A `///` line of spaces reads as an empty line (a paragraph break); text with a
                // line break is a `#[doc = "..."]` or `/** */` written on purpose and stays verbatim.
                let blank = !line.contains('\n') && line.trim().is_empty();
                lines.push(if blank { String::new() } else { line });
            }
            other => cx.error_spanned_by(
                other,
                "surqlc reads only literal doc comments; write the text out instead of a macro",
            ),
        }
    }
    while lines.first().is_some_and(|l| l.is_empty()) {
        lines.remove(0);
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        return None;
    }
    let mut out = String::new();
    let mut after_break = true;
    for line in lines {
        if line.is_empty() {
            out.push('\n');
            after_break = true;
        } else {
            if !after_break {
                out.push(' ');
            }
            out.push_str(&line);
            after_break = false;
        }
    }
    Some(out)
}

/// The span of the character at byte `offset` of `lit`'s value, for an error inside an attribute string.
///
/// Falls back to the whole literal where the value's bytes are not the source's (escapes) or
/// the compiler cannot say (a proc-macro on stable Rust).
pub fn span_in(lit: &LitStr, offset: usize) -> Span {
    let token = lit.token().to_string();
    let value = lit.value();
    let open = token.find('"').map_or(0, |q| q + 1);
    let close = token.rfind('"').unwrap_or(token.len());
    if open > close || token.get(open..close) != Some(value.as_str()) {
        return lit.span();
    }
    let offset = offset.min(value.len());
    // proc-macro2 counts source positions in characters.
    let start = token[..open].chars().count() + value[..offset].chars().count();
    let width = value[offset..].chars().next().map_or(0, |_| 1);
    lit.token()
        .subspan(start..start + width.max(1))
        .unwrap_or_else(|| lit.span())
}

pub use super::ctxt::Spanned;
pub use super::rename::RenameRule;

/// `#[surqlc(...)]` and `#[serde(...)]` on a table or relation struct.
#[derive(Debug, Default)]
pub struct TableAttrs {
    pub rename: Option<Spanned<String>>,
    /// `aka("word", ...)`: other words for the table, for pruning's full-text search.
    pub aka: Vec<String>,
    /// serde's `rename_all`, applied to field names.
    pub rename_all: Option<Spanned<RenameRule>>,
    /// `schemaless`, `enforced`, `permissions(...)`, `index(...)`.
    pub clauses: super::clauses::TableClauses,
    /// `owner = "in<-placed<-customer"`: how a row reaches its end user (checked by `resolve`).
    pub owner: Option<LitStr>,
    /// `view = "SELECT ..."`: the table is a view the engine computes (checked by `codegen::views`).
    pub view: Option<LitStr>,
    /// `shared`: every end user of the per-user agent reads every row (checked by `resolve`).
    pub shared: Option<Span>,
    /// `renamed_from = "old"`: the table's previous name (a plan moves its rows).
    pub renamed_from: Option<Spanned<String>>,
}

/// On a field.
#[derive(Debug, Default)]
pub struct FieldAttrs {
    pub rename: Option<Spanned<String>>,
    /// `aka("word", ...)`: other words for the field, for pruning's full-text search.
    pub aka: Vec<String>,
    /// `#[surqlc(type = "...")]`: the SurrealQL type, verbatim.
    pub ty: Option<Spanned<LitStr>>,
    pub skip: bool,
    /// Where `#[serde(skip_serializing_if = "...")]` is: serde may leave the field out.
    pub skip_serializing_if: Option<Span>,
    /// `#[serde(flatten)]` (already reported): the field's type is not a column's.
    pub flatten: bool,
    /// `default`, `value`, `computed`, `assert`, `readonly`, ...
    pub clauses: super::clauses::FieldClauses,
    /// `renamed_from = "old"`: the field's previous name (a plan moves its values).
    pub renamed_from: Option<Spanned<String>>,
}

/// On a unit-only enum.
#[derive(Debug, Default)]
pub struct EnumAttrs {
    pub rename_all: Option<Spanned<RenameRule>>,
}

/// On an enum variant.
#[derive(Debug, Default)]
pub struct VariantAttrs {
    pub rename: Option<Spanned<String>>,
}

pub(super) fn lit_str(meta: &ParseNestedMeta) -> syn::Result<Spanned<String>> {
    let lit: LitStr = meta.value()?.parse()?;
    Ok(Spanned {
        value: lit.value(),
        span: lit.span(),
    })
}

pub(super) fn lit_u32(meta: &ParseNestedMeta) -> syn::Result<Spanned<u32>> {
    let expr: syn::Expr = meta.value()?.parse()?;
    let number = match &expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(lit),
            ..
        }) => lit.base10_parse::<u32>().ok(),
        _ => None,
    };
    match number {
        Some(value) => Ok(Spanned {
            value,
            span: expr.span(),
        }),
        None => Err(syn::Error::new_spanned(
            &expr,
            format!("expected a whole number from 0 to {}", u32::MAX),
        )),
    }
}

/// serde's rename forms: `rename = "x"` or `rename(serialize = "x", ...)`; surqlc follows what serde writes.
fn serde_rename(meta: &ParseNestedMeta) -> syn::Result<Option<Spanned<String>>> {
    if meta.input.peek(Token![=]) {
        return lit_str(meta).map(Some);
    }
    let mut serialize = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("serialize") {
            serialize = Some(lit_str(&inner)?);
        } else {
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    Ok(serialize)
}

/// Consumes a serde item surqlc does not read, whatever its shape.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let _: proc_macro2::TokenTree = meta.input.parse()?;
    }
    Ok(())
}

pub(super) fn set_once<T>(cx: &Ctxt, slot: &mut Option<Spanned<T>>, value: Spanned<T>, what: &str) {
    if slot.is_some() {
        cx.error_at(value.span, format!("duplicate `{what}`"));
    } else {
        *slot = Some(value);
    }
}

/// Runs `f` on every item of every `#[surqlc(...)]` attribute, reporting syntax errors.
pub(super) fn each_surqlc(cx: &Ctxt, attrs: &[Attribute], mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<()>) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("surqlc")) {
        if let Err(err) = attr.parse_nested_meta(|meta| f(&meta)) {
            cx.syn_error(err);
        }
    }
}

/// Runs `f` on serde items surqlc reads; the rest are skipped (serde checks its own).
fn each_serde(cx: &Ctxt, attrs: &[Attribute], mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<bool>) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| {
            if !f(&meta)? {
                skip_value(&meta)?;
            }
            Ok(())
        });
        if let Err(err) = result {
            cx.syn_error(err);
        }
    }
}

/// An unknown name in `#[surqlc(...)]`, with the closest of the `known` names when one is near.
pub(super) fn unknown(meta: &ParseNestedMeta, place: &str, expected: &str, known: &[&str]) -> syn::Error {
    let name = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_else(|| {
        let path = &meta.path;
        quote::quote!(#path).to_string().replace(' ', "")
    });
    match super::suggest::closest(&name, known) {
        Some(near) => meta.error(format!(
            "unknown surqlc attribute `{name}` on {place}; did you mean `{near}`? (expected {expected})"
        )),
        None => meta.error(format!(
            "unknown surqlc attribute `{name}` on {place}; expected {expected}"
        )),
    }
}

fn rename_all(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Spanned<RenameRule>>> {
    let lit = if meta.input.peek(Token![=]) {
        Some(meta.value()?.parse::<LitStr>()?)
    } else {
        let mut serialize = None;
        meta.parse_nested_meta(|inner| {
            if inner.path.is_ident("serialize") {
                serialize = Some(inner.value()?.parse::<LitStr>()?);
            } else {
                skip_value(&inner)?;
            }
            Ok(())
        })?;
        serialize
    };
    let Some(lit) = lit else { return Ok(None) };
    match RenameRule::from_str(&lit.value()) {
        Some(rule) => Ok(Some(Spanned {
            value: rule,
            span: lit.span(),
        })),
        None => {
            cx.error_at(lit.span(), format!("unknown rename_all rule {:?}", lit.value()));
            Ok(None)
        }
    }
}

/// `aka("word", "other words", ...)`: non-empty strings, each once, appended to `out`.
fn aka(cx: &Ctxt, meta: &ParseNestedMeta, out: &mut Vec<String>) -> syn::Result<()> {
    let content;
    syn::parenthesized!(content in meta.input);
    let words = content.parse_terminated(|input: syn::parse::ParseStream| input.parse::<LitStr>(), syn::Token![,])?;
    if words.is_empty() {
        return Err(meta.error("`aka(...)` needs at least one word, e.g. aka(\"vendor\", \"provider\")"));
    }
    for w in words {
        let value = w.value();
        if value.trim().is_empty() {
            cx.error_at(w.span(), "an `aka` word cannot be empty");
        } else if out.contains(&value) {
            cx.error_at(w.span(), format!("{value:?} is in aka(...) twice"));
        } else {
            out.push(value);
        }
    }
    Ok(())
}

/// `renamed_from = "old"`: a previous name, a plain identifier (what `INFO` lists and a plan's
/// `UPDATE ... SET new = old` names without quoting).
fn renamed_from(meta: &ParseNestedMeta) -> syn::Result<Spanned<String>> {
    let name = lit_str(meta)?;
    let ok = name
        .value
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        return Err(syn::Error::new(
            name.span,
            format!(
                "`renamed_from` takes the previous name as the database spells it (letters, digits, `_`), not {:?}",
                name.value
            ),
        ));
    }
    Ok(name)
}

pub fn table_attrs(cx: &Ctxt, attrs: &[Attribute]) -> TableAttrs {
    let mut out = TableAttrs::default();
    each_surqlc(cx, attrs, |meta| {
        if meta.path.is_ident("rename") {
            set_once(cx, &mut out.rename, lit_str(meta)?, "rename");
            Ok(())
        } else if meta.path.is_ident("aka") {
            aka(cx, meta, &mut out.aka)
        } else if meta.path.is_ident("renamed_from") {
            set_once(cx, &mut out.renamed_from, renamed_from(meta)?, "renamed_from");
            Ok(())
        } else if meta.path.is_ident("owner") {
            let lit: LitStr = meta.value()?.parse()?;
            if out.owner.replace(lit).is_some() {
                return Err(meta.error("duplicate `owner`"));
            }
            Ok(())
        } else if meta.path.is_ident("view") {
            let lit: LitStr = meta.value()?.parse()?;
            if out.view.replace(lit).is_some() {
                return Err(meta.error("duplicate `view`"));
            }
            Ok(())
        } else if meta.path.is_ident("shared") {
            if out.shared.replace(meta.path.span()).is_some() {
                return Err(meta.error("duplicate `shared`"));
            }
            Ok(())
        } else if super::clauses::table_item(cx, meta, &mut out.clauses)? {
            Ok(())
        } else {
            Err(unknown(
                meta,
                "a table",
                &format!(
                    "`rename = \"...\"`, `aka(\"...\", ...)`, `renamed_from = \"...\"`, `owner = \"...\"`, `shared`, \
                     `view = \"SELECT ...\"`, {}",
                    super::clauses::TABLE_ITEMS
                ),
                &[
                    "rename",
                    "aka",
                    "renamed_from",
                    "owner",
                    "view",
                    "shared",
                    "schemaless",
                    "enforced",
                    "permissions",
                    "index",
                ],
            ))
        }
    });
    each_serde(cx, attrs, |meta| {
        if meta.path.is_ident("rename_all") {
            if let Some(rule) = rename_all(cx, meta)? {
                out.rename_all = Some(rule);
            }
            Ok(true)
        } else {
            Ok(false)
        }
    });
    out
}

/// `#[serde(rename_all = "...")]` on a `#[derive(Object)]` struct; it takes no `#[surqlc(...)]` of
/// its own (its fields take every field attribute; indexes and permissions are the table's).
pub fn object_attrs(cx: &Ctxt, attrs: &[Attribute]) -> EnumAttrs {
    let mut out = EnumAttrs::default();
    each_surqlc(cx, attrs, |meta| {
        Err(unknown(
            meta,
            "an object struct",
            "no attributes (serde's rename_all; field attributes go on its fields, indexes on the table: `index(fields(parent.sub))`)",
            &[],
        ))
    });
    each_serde(cx, attrs, |meta| {
        if meta.path.is_ident("rename_all") {
            if let Some(rule) = rename_all(cx, meta)? {
                out.rename_all = Some(rule);
            }
            Ok(true)
        } else {
            Ok(false)
        }
    });
    out
}

pub fn field_attrs(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    each_surqlc(cx, attrs, |meta| {
        if meta.path.is_ident("rename") {
            set_once(cx, &mut out.rename, lit_str(meta)?, "rename");
        } else if meta.path.is_ident("type") {
            let lit: LitStr = meta.value()?.parse()?;
            let span = lit.span();
            set_once(cx, &mut out.ty, Spanned { value: lit, span }, "type");
        } else if meta.path.is_ident("skip") {
            out.skip = true;
        } else if meta.path.is_ident("aka") {
            aka(cx, meta, &mut out.aka)?;
        } else if meta.path.is_ident("renamed_from") {
            set_once(cx, &mut out.renamed_from, renamed_from(meta)?, "renamed_from");
        } else if !super::clauses::field_item(cx, meta, &mut out.clauses)? {
            return Err(unknown(
                meta,
                "a field",
                &format!(
                    "`rename = \"...\"`, `type = \"...\"`, `skip`, `aka(\"...\", ...)`, `renamed_from = \"...\"`, {}",
                    super::clauses::FIELD_ITEMS
                ),
                &[
                    "rename",
                    "type",
                    "skip",
                    "aka",
                    "renamed_from",
                    "default",
                    "default_always",
                    "value",
                    "computed",
                    "assert",
                    "readonly",
                    "flexible",
                    "reference",
                    "permissions",
                    "hidden",
                ],
            ));
        }
        Ok(())
    });
    let mut serde_rename_seen = None;
    each_serde(cx, attrs, |meta| {
        if meta.path.is_ident("rename") {
            if let Some(name) = serde_rename(meta)? {
                serde_rename_seen = Some(name);
            }
            Ok(true)
        } else if meta.path.is_ident("skip") || meta.path.is_ident("skip_serializing") {
            out.skip = true;
            Ok(true)
        } else if meta.path.is_ident("skip_serializing_if") {
            skip_value(meta)?;
            out.skip_serializing_if = Some(meta.path.span());
            Ok(true)
        } else if meta.path.is_ident("flatten") {
            cx.error_spanned_by(
                &meta.path,
                "surqlc cannot map `#[serde(flatten)]`: declare the fields on the \
                table, or skip this one with #[surqlc(skip)]",
            );
            out.flatten = true;
            Ok(true)
        } else {
            Ok(false)
        }
    });
    if out.rename.is_none() {
        out.rename = serde_rename_seen;
    }
    out
}

pub fn enum_attrs(cx: &Ctxt, attrs: &[Attribute]) -> EnumAttrs {
    let mut out = EnumAttrs::default();
    each_surqlc(cx, attrs, |meta| {
        Err(unknown(
            meta,
            "a literal enum",
            "no attributes (use serde's rename/rename_all)",
            &[],
        ))
    });
    each_serde(cx, attrs, |meta| {
        if meta.path.is_ident("rename_all") {
            if let Some(rule) = rename_all(cx, meta)? {
                out.rename_all = Some(rule);
            }
            Ok(true)
        } else if ["tag", "content", "untagged"].iter().any(|k| meta.path.is_ident(k)) {
            Err(meta.error(
                "surqlc cannot map a tagged or untagged enum: serde would not write the variant's \
                name as a plain string; drop the attribute or give the field #[surqlc(type = \"...\")]",
            ))
        } else {
            Ok(false)
        }
    });
    out
}

pub fn variant_attrs(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut out = VariantAttrs::default();
    each_surqlc(cx, attrs, |meta| {
        if meta.path.is_ident("rename") {
            set_once(cx, &mut out.rename, lit_str(meta)?, "rename");
            Ok(())
        } else {
            Err(unknown(meta, "an enum variant", "`rename = \"...\"`", &["rename"]))
        }
    });
    let mut serde_seen = None;
    each_serde(cx, attrs, |meta| {
        if meta.path.is_ident("rename") {
            if let Some(name) = serde_rename(meta)? {
                serde_seen = Some(name);
            }
            Ok(true)
        } else {
            Ok(false)
        }
    });
    if out.rename.is_none() {
        out.rename = serde_seen;
    }
    out
}
