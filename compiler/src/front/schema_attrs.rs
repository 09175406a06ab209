//! The `Schema` item's `#[surqlc(...)]` settings as written (expose, value hints, examples, agent, scope, budgets, pruning, lints), with their spans.

use super::attr::{each_surqlc, lit_str, lit_u32, set_once, unknown, Spanned};
use super::ctxt::Ctxt;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::Attribute;

/// On the `#[derive(Schema)]` item.
#[derive(Debug, Default)]
pub struct SchemaAttrs {
    pub expose: Option<Vec<syn::Path>>,
    pub value_hints: Option<super::clauses::HintsAttr>,
    /// `analyzer(...)`, one per analyzer, in order.
    pub analyzers: Vec<super::clauses::AnalyzerAttr>,
    pub examples_table: Option<Spanned<String>>,
    pub dimension: Option<Spanned<u32>>,
    pub k: Option<Spanned<u32>>,
    pub ef: Option<Spanned<u32>>,
    pub agent_user: Option<Spanned<String>>,
    pub token_duration: Option<Spanned<String>>,
    pub session_duration: Option<Spanned<String>>,
    pub max_rows: Option<Spanned<u32>>,
    /// `compact`: the schema block in its compact rendering.
    pub compact: bool,
    /// `budget(block = N, table = N)`: token budgets for the schema block.
    pub budget_block: Option<Spanned<u32>>,
    pub budget_table: Option<Spanned<u32>>,
    /// `prune` or `prune(budget = N, always(T, ...), mix = "...")`: where it was written.
    pub prune: Option<Span>,
    pub prune_budget: Option<Spanned<u32>>,
    pub prune_always: Option<Vec<syn::Path>>,
    pub prune_mix: Option<Spanned<String>>,
    /// `prune(fields = false)`: pruned tables show every field (field-level pruning off).
    pub prune_fields: Option<bool>,
    /// `lints(allow(SQ0204, ...), deny(SQ0902, ...))`: the codes as written, with their spans.
    pub lints_allow: Vec<Spanned<String>>,
    pub lints_warn: Vec<Spanned<String>>,
    pub lints_deny: Vec<Spanned<String>>,
    /// `scope(end_user = T, access = "...", token = "...", session = "...")`: where it was written.
    pub scope: Option<Span>,
    pub scope_end_user: Option<syn::Path>,
    pub scope_access: Option<Spanned<String>>,
    pub scope_token: Option<Spanned<String>>,
    pub scope_session: Option<Spanned<String>>,
    /// `scope(jwks = "URL", issuer = "...", audience = "...", user_claim = "sub")`: the team's
    /// identity provider, as written.
    pub scope_jwks: Option<Spanned<String>>,
    pub scope_issuer: Option<Spanned<String>>,
    pub scope_audience: Option<Spanned<String>>,
    pub scope_user_claim: Option<Spanned<String>>,
    /// `functions = "FILE.surql"`: the user's `DEFINE FUNCTION`s, relative to the schema file.
    pub functions: Option<syn::LitStr>,
}

/// The settings `#[surqlc(...)]` takes on the `Schema` item.
const SCHEMA_SETTINGS: &[&str] = &[
    "expose",
    "value_hints",
    "analyzer",
    "examples",
    "agent",
    "budget",
    "prune",
    "max_rows",
    "compact",
    "lints",
    "scope",
    "functions",
];

pub fn schema_attrs(cx: &Ctxt, attrs: &[Attribute]) -> SchemaAttrs {
    let mut out = SchemaAttrs::default();
    each_surqlc(cx, attrs, |meta| {
        let p = &meta.path;
        if p.is_ident("expose") {
            let mut paths = Vec::new();
            meta.parse_nested_meta(|inner| {
                paths.push(inner.path.clone());
                Ok(())
            })?;
            if out.expose.replace(paths).is_some() {
                return Err(meta.error("duplicate `expose`"));
            }
        } else if p.is_ident("value_hints") {
            let hints = super::clauses::value_hints(meta)?;
            if out.value_hints.replace(hints).is_some() {
                return Err(meta.error("duplicate `value_hints`"));
            }
        } else if p.is_ident("analyzer") {
            out.analyzers.push(super::clauses::analyzer(cx, meta)?);
        } else if p.is_ident("examples") {
            examples_attrs(cx, meta, &mut out)?;
        } else if p.is_ident("agent") {
            agent_attrs(cx, meta, &mut out)?;
        } else if p.is_ident("budget") {
            budget_attrs(cx, meta, &mut out)?;
        } else if p.is_ident("prune") {
            if out.prune.replace(p.span()).is_some() {
                return Err(meta.error("duplicate `prune`"));
            }
            if meta.input.peek(syn::token::Paren) {
                prune_attrs(cx, meta, &mut out)?;
            }
        } else if p.is_ident("lints") {
            lints_attrs(meta, &mut out)?;
        } else if p.is_ident("scope") {
            if out.scope.replace(p.span()).is_some() {
                return Err(meta.error("duplicate `scope`"));
            }
            scope_attrs(cx, meta, &mut out)?;
        } else if p.is_ident("functions") {
            let lit: syn::LitStr = meta.value()?.parse()?;
            if out.functions.replace(lit).is_some() {
                return Err(meta.error("duplicate `functions`"));
            }
        } else if p.is_ident("max_rows") {
            set_once(cx, &mut out.max_rows, lit_u32(meta)?, "max_rows");
        } else if p.is_ident("compact") {
            if out.compact {
                return Err(meta.error("duplicate `compact`"));
            }
            out.compact = true;
        } else {
            return Err(unknown(meta, "a schema", "`expose(...)`, `value_hints(...)`, `analyzer(...)`, `examples(...)`, `agent(...)`, `budget(...)`, `prune(...)`, `lints(...)`, `scope(...)`, `functions = \"FILE.surql\"`, `max_rows = N` or `compact`", SCHEMA_SETTINGS));
        }
        Ok(())
    });
    out
}

/// The inside of `examples(table = "...", dimension = N, k = N, ef = N)`.
fn examples_attrs(cx: &Ctxt, meta: &ParseNestedMeta, out: &mut SchemaAttrs) -> syn::Result<()> {
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("table") {
            set_once(cx, &mut out.examples_table, lit_str(&inner)?, "examples(table)");
        } else if inner.path.is_ident("dimension") {
            set_once(cx, &mut out.dimension, lit_u32(&inner)?, "examples(dimension)");
        } else if inner.path.is_ident("k") {
            set_once(cx, &mut out.k, lit_u32(&inner)?, "examples(k)");
        } else if inner.path.is_ident("ef") {
            set_once(cx, &mut out.ef, lit_u32(&inner)?, "examples(ef)");
        } else {
            return Err(unknown(
                &inner,
                "examples(...)",
                "`table`, `dimension`, `k` or `ef`",
                &["table", "dimension", "k", "ef"],
            ));
        }
        Ok(())
    })
}

/// The inside of `agent(user = "...", token = "...", session = "...")`.
fn agent_attrs(cx: &Ctxt, meta: &ParseNestedMeta, out: &mut SchemaAttrs) -> syn::Result<()> {
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("user") {
            set_once(cx, &mut out.agent_user, lit_str(&inner)?, "agent(user)");
        } else if inner.path.is_ident("token") {
            set_once(cx, &mut out.token_duration, lit_str(&inner)?, "agent(token)");
        } else if inner.path.is_ident("session") {
            set_once(cx, &mut out.session_duration, lit_str(&inner)?, "agent(session)");
        } else {
            return Err(unknown(
                &inner,
                "agent(...)",
                "`user`, `token` or `session`",
                &["user", "token", "session"],
            ));
        }
        Ok(())
    })
}

/// The inside of `scope(end_user = T, access = "...", token = "...", session = "...", jwks = "URL", issuer = "...",
/// audience = "...", user_claim = "...")`.
fn scope_attrs(cx: &Ctxt, meta: &ParseNestedMeta, out: &mut SchemaAttrs) -> syn::Result<()> {
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("end_user") {
            let path: syn::Path = inner.value()?.parse()?;
            if out.scope_end_user.replace(path).is_some() {
                return Err(inner.error("duplicate `scope(end_user)`"));
            }
        } else if inner.path.is_ident("access") {
            set_once(cx, &mut out.scope_access, lit_str(&inner)?, "scope(access)");
        } else if inner.path.is_ident("token") {
            set_once(cx, &mut out.scope_token, lit_str(&inner)?, "scope(token)");
        } else if inner.path.is_ident("session") {
            set_once(cx, &mut out.scope_session, lit_str(&inner)?, "scope(session)");
        } else if inner.path.is_ident("jwks") {
            set_once(cx, &mut out.scope_jwks, lit_str(&inner)?, "scope(jwks)");
        } else if inner.path.is_ident("issuer") {
            set_once(cx, &mut out.scope_issuer, lit_str(&inner)?, "scope(issuer)");
        } else if inner.path.is_ident("audience") {
            set_once(cx, &mut out.scope_audience, lit_str(&inner)?, "scope(audience)");
        } else if inner.path.is_ident("user_claim") {
            set_once(cx, &mut out.scope_user_claim, lit_str(&inner)?, "scope(user_claim)");
        } else {
            return Err(unknown(
                &inner,
                "scope(...)",
                "`end_user = Table`, `access`, `token`, `session`, `jwks`, `issuer`, `audience` or `user_claim`",
                &[
                    "end_user",
                    "access",
                    "token",
                    "session",
                    "jwks",
                    "issuer",
                    "audience",
                    "user_claim",
                ],
            ));
        }
        Ok(())
    })?;
    if out.scope_end_user.is_none() {
        return Err(meta.error(
            "`scope(...)` needs the end-user table, e.g. scope(end_user = Customer): the rows the agent answers for",
        ));
    }
    Ok(())
}

/// The inside of `budget(block = N, table = N)`.
fn budget_attrs(cx: &Ctxt, meta: &ParseNestedMeta, out: &mut SchemaAttrs) -> syn::Result<()> {
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("block") {
            set_once(cx, &mut out.budget_block, lit_u32(&inner)?, "budget(block)");
        } else if inner.path.is_ident("table") {
            set_once(cx, &mut out.budget_table, lit_u32(&inner)?, "budget(table)");
        } else {
            return Err(unknown(
                &inner,
                "budget(...)",
                "`block` or `table`",
                &["block", "table"],
            ));
        }
        Ok(())
    })
}

/// The inside of `lints(allow(CODE, ...), warn(...), deny(...))`.
fn lints_attrs(meta: &ParseNestedMeta, out: &mut SchemaAttrs) -> syn::Result<()> {
    meta.parse_nested_meta(|inner| {
        let list = if inner.path.is_ident("allow") {
            &mut out.lints_allow
        } else if inner.path.is_ident("warn") {
            &mut out.lints_warn
        } else if inner.path.is_ident("deny") {
            &mut out.lints_deny
        } else {
            return Err(unknown(
                &inner,
                "lints(...)",
                "`allow(...)`, `warn(...)` or `deny(...)`",
                &["allow", "warn", "deny"],
            ));
        };
        inner.parse_nested_meta(|code| {
            let ident = code
                .path
                .get_ident()
                .ok_or_else(|| code.error("expected a code such as SQ0204"))?;
            list.push(Spanned {
                value: ident.to_string(),
                span: ident.span(),
            });
            Ok(())
        })
    })
}

/// The inside of `prune(budget = N, always(T, ...), mix = "fulltext" | "fulltext+vector", fields = BOOL)`.
fn prune_attrs(cx: &Ctxt, meta: &ParseNestedMeta, out: &mut SchemaAttrs) -> syn::Result<()> {
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("budget") {
            set_once(cx, &mut out.prune_budget, lit_u32(&inner)?, "prune(budget)");
        } else if inner.path.is_ident("mix") {
            set_once(cx, &mut out.prune_mix, lit_str(&inner)?, "prune(mix)");
        } else if inner.path.is_ident("fields") {
            let value: syn::LitBool = inner.value()?.parse()?;
            if out.prune_fields.replace(value.value).is_some() {
                return Err(inner.error("duplicate `prune(fields)`"));
            }
        } else if inner.path.is_ident("always") {
            let mut paths = Vec::new();
            inner.parse_nested_meta(|t| {
                paths.push(t.path.clone());
                Ok(())
            })?;
            if out.prune_always.replace(paths).is_some() {
                return Err(inner.error("duplicate `prune(always)`"));
            }
        } else {
            return Err(unknown(
                &inner,
                "prune(...)",
                "`budget`, `always(...)`, `mix` or `fields`",
                &["budget", "always", "mix", "fields"],
            ));
        }
        Ok(())
    })
}
