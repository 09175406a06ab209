//! Schema-wide definitions and checks: analyzers (declared on the `Schema` item, named by full-text indexes) and value hints.

use super::ast::Items;
use super::clauses::{HintAttr, HintsAttr};
use super::ctxt::Ctxt;
use crate::ir;
use std::collections::BTreeMap;

/// Tokenizers the engine knows.
const TOKENIZERS: &[&str] = &["blank", "camel", "class", "punct"];

/// Whether `f` is a filter the engine knows: `ascii`, `lowercase`, `uppercase`,
/// `edgengram(min, max)`, `ngram(min, max)`, `snowball(language)`, `mapper('path')`.
fn filter_ok(f: &str) -> Result<(), String> {
    let f = f.trim();
    let lower = f.to_ascii_lowercase();
    if matches!(lower.as_str(), "ascii" | "lowercase" | "uppercase") {
        return Ok(());
    }
    let Some((name, rest)) = lower.split_once('(') else {
        return Err(format!(
            "unknown filter {f:?}; expected ascii, lowercase, uppercase, edgengram(min, max), \
            ngram(min, max), snowball(language) or mapper('path')"
        ));
    };
    let Some(args) = rest.strip_suffix(')') else {
        return Err(format!("filter {f:?} is missing its closing `)`"));
    };
    let args: Vec<&str> = args.split(',').map(str::trim).collect();
    match (name.trim(), args.as_slice()) {
        ("edgengram" | "ngram", [a, b]) if a.parse::<u16>().is_ok() && b.parse::<u16>().is_ok() => Ok(()),
        ("snowball", [lang]) if SNOWBALL.contains(lang) => Ok(()),
        ("snowball", _) => Err(format!(
            "unknown snowball language in {f:?}; expected one of {}",
            SNOWBALL.join(", ")
        )),
        ("mapper", [path]) if path.len() >= 2 && (path.starts_with('\'') || path.starts_with('"')) => Ok(()),
        _ => Err(format!("malformed filter {f:?}")),
    }
}

/// Snowball stemmer languages the engine knows.
const SNOWBALL: &[&str] = &[
    "arabic",
    "danish",
    "dutch",
    "english",
    "finnish",
    "french",
    "german",
    "greek",
    "hungarian",
    "italian",
    "norwegian",
    "portuguese",
    "romanian",
    "russian",
    "spanish",
    "swedish",
    "tamil",
    "turkish",
];

/// The analyzers of the `Schema` item, checked, and every full-text index checked against them.
pub fn analyzers(cxs: &[Ctxt], items: &Items) -> Vec<ir::Analyzer> {
    let mut out: Vec<ir::Analyzer> = Vec::new();
    if let Some((file, schema)) = items.schemas.first() {
        let cx = &cxs[*file];
        for a in &schema.attrs.analyzers {
            let name = &a.name.value;
            if !crate::surql::is_plain_ident(name) || crate::surql::is_reserved(name) {
                cx.error_at(a.name.span, format!("invalid analyzer name {name:?}: use letters, digits and underscores, and not a SurrealQL keyword"));
            }
            if out.iter().any(|o| &o.name == name) {
                cx.error_at(a.name.span, format!("the analyzer `{name}` is declared twice"));
            }
            let mut tokenizers = Vec::new();
            for t in &a.tokenizers {
                let lower = t.to_string().to_ascii_lowercase();
                if !TOKENIZERS.contains(&lower.as_str()) {
                    cx.error_spanned_by(
                        t,
                        format!("unknown tokenizer `{t}`; expected blank, camel, class or punct"),
                    );
                }
                tokenizers.push(lower);
            }
            let mut filters = Vec::new();
            for f in &a.filters {
                if let Err(why) = filter_ok(&f.value()) {
                    cx.error_at(f.span(), why);
                }
                filters.push(f.value().trim().to_owned());
            }
            out.push(ir::Analyzer {
                name: name.clone(),
                tokenizers,
                filters,
                comment: a.comment.clone(),
            });
        }
    }
    for (file, t) in &items.tables {
        for index in &t.indexes {
            if let (ir::IndexKind::FullText { analyzer, .. }, Some(span)) = (&index.index.kind, index.analyzer_span) {
                if !out.iter().any(|a| &a.name == analyzer) {
                    cxs[*file].error_at(
                        span,
                        format!(
                            "unknown analyzer `{analyzer}`: declare it on the Schema item \
                        with analyzer(name = \"{analyzer}\", tokenizers(...), filters(...))"
                        ),
                    );
                }
            }
        }
    }
    out
}

fn ident_name(seg: &syn::PathSegment) -> String {
    syn::ext::IdentExt::unraw(&seg.ident).to_string()
}

/// The table a hint names (`Type` or `Type::field`'s `Type`), reporting an unknown one.
fn hint_table<'t>(
    cx: &Ctxt,
    items: &Items,
    tables: &'t [ir::Table],
    table_names: &BTreeMap<String, String>,
    path: &syn::ExprPath,
    ty: &syn::PathSegment,
) -> Option<&'t ir::Table> {
    let ty_name = ty.ident.to_string();
    let table = table_names
        .get(&ty_name)
        .and_then(|n| tables.iter().find(|t| &t.name == n));
    if table.is_none() && !items.broken.contains(&ty_name) {
        cx.error_spanned_by(
            path,
            format!(
                "`{ty_name}` is not a table in this schema{}",
                super::suggest::did_you_mean(&ty_name, table_names.keys())
            ),
        );
    }
    table
}

fn hint_field(
    cx: &Ctxt,
    items: &Items,
    tables: &[ir::Table],
    table_names: &BTreeMap<String, String>,
    path: &syn::ExprPath,
) -> Option<ir::FieldRef> {
    let segs: Vec<&syn::PathSegment> = path.path.segments.iter().collect();
    let [ty, field] = segs.as_slice() else {
        cx.error_spanned_by(path, "write a value hint as `Type::field`, e.g. `Customer::country`");
        return None;
    };
    let table = hint_table(cx, items, tables, table_names, path, ty)?;
    let field = ident_name(field);
    match table.fields.iter().find(|f| f.rust_name == field) {
        Some(f) => Some(ir::FieldRef {
            table: table.name.clone(),
            field: f.name.clone(),
        }),
        // A field whose type is in error is already reported; naming it is no second error.
        None if items
            .tables
            .iter()
            .any(|(_, t)| t.name == table.name && t.fields.iter().any(|f| f.ident == field)) =>
        {
            None
        }
        None => {
            let fields: Vec<&str> = table.fields.iter().map(|f| f.rust_name.as_str()).collect();
            let near = super::suggest::closest(&field, &fields)
                .map(|f| format!("; did you mean `{}::{f}`?", ty.ident))
                .unwrap_or_default();
            cx.error_spanned_by(path, format!("`{}` has no field `{field}`{near}", ty.ident));
            None
        }
    }
}

/// `value_hints(...)` as IR, in the order written.
pub fn value_hints(
    cx: &Ctxt,
    items: &Items,
    tables: &[ir::Table],
    table_names: &BTreeMap<String, String>,
    h: &HintsAttr,
    exposed: &[String],
) -> Vec<ir::ValueHint> {
    // A hint prints what the data holds: never of a table or field the agent may not read.
    let shown = |path: &syn::ExprPath, table: &str, field: Option<&str>| {
        let hidden = if !exposed.iter().any(|e| e == table) {
            Some(format!("`{table}` is not exposed"))
        } else {
            field
                .and_then(|f| tables.iter().find(|t| t.name == table)?.field(f))
                .filter(|f| crate::access::is_hidden(f))
                .map(|f| format!("`{table}.{}` is hidden from the agent", f.name))
        };
        match hidden {
            Some(why) => {
                cx.error_spanned_by(
                    path,
                    format!("{why}: a value hint would print its values in the prompt; drop the hint or show it"),
                );
                false
            }
            None => true,
        }
    };
    let default_limit = match &h.max {
        Some(m) if m.value == 0 => {
            cx.error_at(m.span, "max must be at least 1");
            ir::DEFAULT_HINT_LIMIT
        }
        Some(m) => m.value,
        None => ir::DEFAULT_HINT_LIMIT,
    };
    let limit = |m: &Option<super::attr::Spanned<u32>>| match m {
        Some(m) if m.value == 0 => {
            cx.error_at(m.span, "max must be at least 1");
            default_limit
        }
        Some(m) => m.value,
        None => default_limit,
    };
    h.hints
        .iter()
        .filter_map(|hint| match hint {
            HintAttr::Distinct(path, max) => hint_field(cx, items, tables, table_names, path)
                .filter(|f| shown(path, &f.table, Some(&f.field)))
                .map(|field| ir::ValueHint::Distinct {
                    field,
                    limit: limit(max),
                }),
            HintAttr::Range(path) => hint_field(cx, items, tables, table_names, path)
                .filter(|f| shown(path, &f.table, Some(&f.field)))
                .map(|field| ir::ValueHint::Range { field }),
            HintAttr::Ids(path, max) => {
                let segs: Vec<&syn::PathSegment> = path.path.segments.iter().collect();
                let [ty] = segs.as_slice() else {
                    cx.error_spanned_by(path, "write an id hint as `ids(Type)`");
                    return None;
                };
                hint_table(cx, items, tables, table_names, path, ty)
                    .filter(|t| shown(path, &t.name, None))
                    .map(|t| ir::ValueHint::Ids {
                        table: t.name.clone(),
                        limit: limit(max),
                    })
            }
            HintAttr::Note(text) => {
                if text.value.contains(['\n', '\r']) {
                    cx.error_at(
                        text.span,
                        "a note is one line: write several note(\"...\") for several lines",
                    );
                }
                Some(ir::ValueHint::Note(text.value.clone()))
            }
        })
        .collect()
}

/// Whether a field of this type can hold NONE.
fn can_be_none(ty: &super::ast::TypeAst) -> bool {
    use super::ast::TypeAst;
    match ty {
        TypeAst::Option(_) => true,
        TypeAst::Known(ir::Type::Option(_) | ir::Type::Any) => true,
        TypeAst::Raw(raw) => match &raw.kind {
            ir::Kind::Named(n) => n == "none" || n == "any",
            ir::Kind::Either(members) => members.iter().any(|m| matches!(m, ir::Kind::Named(n) if n == "none")),
            _ => false,
        },
        _ => false,
    }
}

fn is_string(ty: &super::ast::TypeAst) -> bool {
    use super::ast::TypeAst;
    match ty {
        TypeAst::Known(ir::Type::String) => true,
        TypeAst::Option(inner) => is_string(inner),
        _ => false,
    }
}

/// Whether a field name reads like a date or time.
fn date_like(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "time"
        || n == "date"
        || n.ends_with("_at")
        || n.ends_with("_on")
        || n.ends_with("date")
        || n.ends_with("_time")
        || n.starts_with("date_")
        || n.ends_with("day")
}

/// Warnings for known traps, each at the field it is about, with a one-line why.
pub fn lints(cxs: &[Ctxt], items: &Items) {
    for (file, t) in &items.tables {
        let cx = &cxs[*file];
        for index in &t.indexes {
            if !matches!(index.index.kind, ir::IndexKind::Unique) {
                continue;
            }
            for name in &index.index.fields {
                let Some(f) = t.fields.iter().find(|f| &f.name == name) else {
                    continue;
                };
                let filled = f.clauses.value.is_some() || f.clauses.default.as_ref().is_some_and(|d| d.always);
                if can_be_none(&f.ty) && !filled {
                    cx.warn_at(f.name_span, format!("the UNIQUE index `{}` covers `{}`, which can be NONE: rows where it is NONE skip the uniqueness check; store a mirror with `value = \"...\"` that is never NONE", index.index.name, f.name));
                }
            }
        }
        for f in &t.fields {
            let explained = f.comment.as_deref().is_some_and(|c| {
                let c = c.to_ascii_lowercase();
                ["compare", "sort", "iso", "yyyy", "order"]
                    .iter()
                    .any(|w| c.contains(w))
            });
            if is_string(&f.ty) && date_like(&f.name) && !explained {
                cx.warn_at(f.name_span, format!("`{}` looks like a date kept in a string: say in its doc comment how to compare it (e.g. \"'YYYY-MM-DD'; ISO dates sort as strings\"), or make it a Datetime", f.name));
            }
        }
    }
}
