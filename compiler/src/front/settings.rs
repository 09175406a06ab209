//! The rules for the `Schema` item's settings, in one place: `ast` reports every value that breaks
//! one (so the derive reports it too), and `resolve` builds the IR from the same rules.

use super::ctxt::Ctxt;
use super::schema_attrs::SchemaAttrs;
use crate::surql::lex;

/// Why `value` cannot name a table or user, if it cannot.
pub(crate) fn name_rule(value: &str) -> Result<(), String> {
    if lex::is_plain_ident(value) && !lex::is_reserved(value) {
        Ok(())
    } else {
        Err("use letters, digits and underscores, and not a SurrealQL keyword".into())
    }
}

/// Why `value` is not a SurrealQL duration, if it is not.
pub(crate) fn duration_rule(value: &str) -> Result<(), String> {
    if lex::is_duration(value) {
        Ok(())
    } else {
        Err("write e.g. \"1h\", \"30m\" or \"1d12h\"".into())
    }
}

/// Why `value` is not a usable count (a dimension, a limit, a budget), if it is not.
pub(crate) fn count_rule(value: u32) -> Result<(), String> {
    if value == 0 {
        Err("must be at least 1".into())
    } else {
        Ok(())
    }
}

/// The engine's HNSW index takes a 16-bit dimension.
pub(crate) fn dimension_rule(value: u32) -> Result<(), String> {
    count_rule(value)?;
    if value > u32::from(u16::MAX) {
        return Err(format!("must be at most {}", u16::MAX));
    }
    Ok(())
}

/// Checks the settings' values that need no other item, so the derive reports them too.
pub(crate) fn check(cx: &Ctxt, a: &SchemaAttrs) {
    let names = [
        (&a.examples_table, "table name"),
        (&a.agent_user, "user name"),
        (&a.scope_access, "access name"),
    ];
    for (value, what) in names {
        if let Some(v) = value {
            if let Err(why) = name_rule(&v.value) {
                cx.error_at(v.span, format!("invalid {what} {:?}: {why}", v.value));
            }
        }
    }
    for v in [&a.token_duration, &a.session_duration, &a.scope_token, &a.scope_session]
        .into_iter()
        .flatten()
    {
        if let Err(why) = duration_rule(&v.value) {
            cx.error_at(v.span, format!("invalid duration {:?}: {why}", v.value));
        }
    }
    let counts = [
        (&a.k, "examples(k)"),
        (&a.ef, "examples(ef)"),
        (&a.max_rows, "max_rows"),
        (&a.budget_block, "budget(block)"),
        (&a.budget_table, "budget(table)"),
        (&a.prune_budget, "prune(budget)"),
    ];
    for (value, what) in counts {
        if let Some(v) = value {
            if let Err(why) = count_rule(v.value) {
                cx.error_at(v.span, format!("{what} {why}"));
            }
        }
    }
    if let Some(d) = &a.dimension {
        if let Err(why) = dimension_rule(d.value) {
            cx.error_at(d.span, format!("examples(dimension) {why}"));
        }
    }
    for (codes, deny) in [(&a.lints_allow, false), (&a.lints_warn, false), (&a.lints_deny, true)] {
        for code in codes {
            if let Err(why) = lint_rule(&code.value, deny) {
                cx.error_at(code.span, why);
            }
        }
    }
    oidc_check(cx, a);
    if let Some(m) = &a.prune_mix {
        if let Err(why) = mix_rule(&m.value) {
            cx.error_at(m.span, format!("unknown prune(mix) {:?}: {why}", m.value));
        }
    }
}

/// Why `value` is not a retrieval mix for `prune(mix = "...")`, if it is not.
pub(crate) fn mix_rule(value: &str) -> Result<crate::ir::RetrievalMix, String> {
    crate::ir::RetrievalMix::from_name(value).ok_or_else(|| "use \"fulltext\" or \"fulltext+vector\"".into())
}

/// Why `code` cannot take a lint level ([`crate::codes::lint_rule`]); `deny` never relaxes.
pub(crate) fn lint_rule(code: &str, deny: bool) -> Result<crate::codes::Class, String> {
    crate::codes::lint_rule(code, !deny)
}

/// `scope(jwks, issuer, audience, user_claim)`: each value by its rule (`ir::Oidc`'s, which the
/// command line's overrides follow too), and the provider whole: a JWKS without the issuer and
/// audience its tokens are checked for, or those without a JWKS, is an error.
fn oidc_check(cx: &Ctxt, a: &SchemaAttrs) {
    use crate::ir::Oidc;
    let rules: [(
        &Option<super::attr::Spanned<String>>,
        &str,
        fn(&str) -> Result<(), String>,
    ); 4] = [
        (&a.scope_jwks, "scope(jwks)", Oidc::jwks_rule),
        (&a.scope_issuer, "scope(issuer)", Oidc::text_rule),
        (&a.scope_audience, "scope(audience)", Oidc::text_rule),
        (&a.scope_user_claim, "scope(user_claim)", Oidc::claim_rule),
    ];
    for (value, what, rule) in rules {
        if let Some(v) = value {
            if let Err(why) = rule(&v.value) {
                cx.error_at(v.span, format!("invalid {what} {:?}: {why}", v.value));
            }
        }
    }
    match &a.scope_jwks {
        Some(jwks) => {
            for (value, key) in [(&a.scope_issuer, "issuer"), (&a.scope_audience, "audience")] {
                if value.is_none() {
                    cx.error_at(
                        jwks.span,
                        format!(
                            "scope(jwks = ...) needs `{key} = \"...\"` too: a token is accepted only from the provider's \
                             issuer and for this application's audience"
                        ),
                    );
                }
            }
        }
        None => {
            for v in [&a.scope_issuer, &a.scope_audience, &a.scope_user_claim]
                .into_iter()
                .flatten()
            {
                cx.error_at(
                    v.span,
                    "this setting belongs to an identity provider: add `jwks = \"https://.../jwks.json\"` to scope(...)",
                );
            }
        }
    }
}
