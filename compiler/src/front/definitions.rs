//! Turns one item's definition clauses (read by `clauses`) into IR, with the checks one item can make.
//!
//! Shared by the compiler and the derives: expressions are checked here (the engine's parser
//! with `check-expr`), indexes are tied to the item's own fields, and clause combinations the
//! engine refuses are errors at the attribute. What needs the whole schema (analyzers,
//! value hints, lints) is in `resolve`.

use super::ast::{FieldAst, IndexAst, TableAst, TypeAst};
use super::clauses::{self, ExprLit, IndexKindAttr, OnDeleteAttr, PermissionAttr};
use super::ctxt::Ctxt;
use crate::ir;

fn expr(cx: &Ctxt, e: &ExprLit, what: &str) -> ir::Expr {
    super::expr_check::report_expr(cx, e, what);
    e.text.clone()
}

/// `permissions(...)` as IR; `table` allows `delete` (a field has none).
pub fn permissions(cx: &Ctxt, p: &clauses::PermissionsAttr, table: bool) -> ir::Permissions {
    if let (Some(span), false) = (p.delete_span, table) {
        cx.error_at(
            span,
            "a field has no `delete` permission (a row is deleted whole): put it on the table",
        );
    }
    let one = |op: &Option<PermissionAttr>, what: &str| {
        op.as_ref().map(|p| match p {
            PermissionAttr::None => ir::Permission::None,
            PermissionAttr::Full => ir::Permission::Full,
            PermissionAttr::Where(e) => ir::Permission::Where(expr(cx, e, what)),
        })
    };
    ir::Permissions {
        select: one(&p.select, "permissions(select)"),
        create: one(&p.create, "permissions(create)"),
        update: one(&p.update, "permissions(update)"),
        delete: if table {
            one(&p.delete, "permissions(delete)")
        } else {
            None
        },
    }
}

/// The key type of a record id declared as the struct's `id` field: integers, strings, UUIDs and
/// arrays of those; `None` for anything else (`Link<Self>`, `RecordId`: any key).
pub fn id_key_type(ty: &syn::Type) -> Option<ir::Type> {
    let probe = Ctxt::new();
    let mapped = super::types::map_type(&probe, ty);
    let _ = probe.check();
    fn key(t: &TypeAst, top: bool) -> Option<ir::Type> {
        match t {
            TypeAst::Known(k @ (ir::Type::Int | ir::Type::String | ir::Type::Uuid)) => Some(k.clone()),
            TypeAst::Known(k @ (ir::Type::Float | ir::Type::Bool | ir::Type::Datetime)) if !top => Some(k.clone()),
            TypeAst::Array(inner, n) if top => Some(ir::Type::Array(Box::new(key(inner, false)?), *n)),
            _ => None,
        }
    }
    // Only integer types that fit a record key (an i64) exactly.
    if let syn::Type::Path(p) = ty {
        if p.path.segments.last().is_some_and(|s| {
            matches!(
                s.ident.to_string().as_str(),
                "u64" | "usize" | "isize" | "i128" | "u128"
            )
        }) {
            return None;
        }
    }
    key(&mapped?, true)
}

/// Whether `kind`, a member of its union, or an element of its array or set satisfies `test`.
pub(crate) fn kind_has(kind: &ir::Kind, test: &dyn Fn(&ir::Kind) -> bool) -> bool {
    test(kind)
        || match kind {
            ir::Kind::Either(members) => members.iter().any(|m| kind_has(m, test)),
            ir::Kind::Array(inner, _) | ir::Kind::Set(inner, _) => kind_has(inner, test),
            _ => false,
        }
}

/// Whether the field's type holds a record link (what `REFERENCE` needs).
fn holds_record(ty: &TypeAst) -> bool {
    match ty {
        TypeAst::Link(_) => true,
        TypeAst::Known(ir::Type::Record(_)) => true,
        TypeAst::Option(inner) | TypeAst::Array(inner, _) => holds_record(inner),
        TypeAst::Raw(raw) => kind_has(&raw.kind, &|k| {
            matches!(k, ir::Kind::Record(_)) || matches!(k, ir::Kind::Named(n) if n == "record")
        }),
        _ => false,
    }
}

/// Whether the field's type is (or may be) an object (what `FLEXIBLE` needs).
fn holds_object(ty: &TypeAst) -> bool {
    match ty {
        TypeAst::Known(ir::Type::Object | ir::Type::Any) => true,
        // An Object struct, or a Literal enum: the compiler settles which (`objects::field`).
        TypeAst::Named(_) => true,
        TypeAst::Option(inner) | TypeAst::Array(inner, _) => holds_object(inner),
        TypeAst::Raw(raw) => kind_has(&raw.kind, &|k| {
            matches!(k, ir::Kind::Named(n) if n == "object" || n == "any")
                || matches!(k, ir::Kind::Literal(ir::KindLiteral::Object(_)))
        }),
        _ => false,
    }
}

/// The field's clauses as IR, refusing the combinations the engine refuses.
pub fn field_clauses(cx: &Ctxt, c: &clauses::FieldClauses, ty: &TypeAst) -> ir::FieldClauses {
    let default = c.default.as_ref().map(|d| ir::FieldDefault {
        expr: expr(cx, d, "default"),
        always: c.default_always.is_some(),
    });
    if let (Some(span), None) = (c.default_always, &c.default) {
        cx.error_at(span, "`default_always` needs `default = \"expr\"`");
    }
    if c.computed.is_some() {
        // The engine refuses these beside COMPUTED: the value is never stored.
        let clashes = [
            ("value", c.value.as_ref().map(|e| e.span())),
            ("assert", c.assert.as_ref().map(|e| e.span())),
            ("default", c.default.as_ref().map(|e| e.span())),
            ("readonly", c.readonly),
            ("reference", c.reference.as_ref().map(|r| r.span)),
        ];
        for (what, span) in clashes {
            if let Some(span) = span {
                cx.error_at(
                    span,
                    format!("`{what}` cannot go with `computed`: a COMPUTED field is never stored"),
                );
            }
        }
    }
    if let Some(span) = c.flexible {
        if !holds_object(ty) {
            cx.error_at(
                span,
                "`flexible` is for object fields: it lets an object hold keys the schema does not declare",
            );
        }
    }
    if let Some(r) = &c.reference {
        if !holds_record(ty) {
            cx.error_at(
                r.span,
                "`reference` is for record links: make the field a `Link<T>` (or an Option or Vec of one)",
            );
        }
    }
    ir::FieldClauses {
        default,
        value: c.value.as_ref().map(|e| expr(cx, e, "value")),
        computed: c.computed.as_ref().map(|e| expr(cx, e, "computed")),
        assert: c.assert.as_ref().map(|e| expr(cx, e, "assert")),
        readonly: c.readonly.is_some(),
        flexible: c.flexible.is_some(),
        reference: c.reference.as_ref().map(|r| ir::Reference {
            on_delete: r.on_delete.as_ref().map(|d| match d {
                OnDeleteAttr::Word(w) => match w.value.as_str() {
                    "REJECT" => ir::OnDelete::Reject,
                    "CASCADE" => ir::OnDelete::Cascade,
                    "UNSET" => ir::OnDelete::Unset,
                    _ => ir::OnDelete::Ignore,
                },
                OnDeleteAttr::Then(e) => ir::OnDelete::Then(expr(cx, e, "reference(then)")),
            }),
        }),
        permissions: field_permissions(cx, c),
    }
}

/// The field's `PERMISSIONS`: as written, and `hidden` is `FOR select NONE` (what the agent's record
/// access obeys, and what leaves the field out of the prompt).
fn field_permissions(cx: &Ctxt, c: &clauses::FieldClauses) -> Option<ir::Permissions> {
    let written = c.permissions.as_ref().map(|p| permissions(cx, p, false));
    let Some(span) = c.hidden else {
        return written;
    };
    let mut p = written.unwrap_or_default();
    if p.select.is_some() {
        cx.error_at(
            span,
            "`hidden` sets the field's select permission to NONE: drop `select` from `permissions(...)`",
        );
    }
    p.select = Some(ir::Permission::None);
    Some(p)
}

/// HNSW distance functions the engine knows, as it prints them.
const DISTANCES: &[&str] = &[
    "CHEBYSHEV",
    "COSINE",
    "EUCLIDEAN",
    "HAMMING",
    "JACCARD",
    "MANHATTAN",
    "PEARSON",
];
/// HNSW vector element types, as the engine prints them.
const VECTOR_TYPES: &[&str] = &["F64", "F32", "I64", "I32", "I16"];

/// The fixed length of an array type (through `Option`), if it has one.
fn fixed_len(ty: &TypeAst) -> Option<u64> {
    match ty {
        TypeAst::Option(inner) => fixed_len(inner),
        TypeAst::Array(_, n) => *n,
        _ => None,
    }
}

fn is_array(ty: &TypeAst) -> bool {
    match ty {
        TypeAst::Option(inner) => is_array(inner),
        TypeAst::Array(..) => true,
        TypeAst::Raw(raw) => kind_has(&raw.kind, &|k| matches!(k, ir::Kind::Array(..))),
        _ => false,
    }
}

/// The table's indexes: fields named by their Rust (or database) names, the kind checked against the field.
pub fn indexes(cx: &Ctxt, attrs: &[clauses::IndexAttr], table: &TableAst) -> Vec<IndexAst> {
    let mut out: Vec<IndexAst> = Vec::new();
    for a in attrs {
        let fields = index_fields(cx, a, table);
        let name = index_name(cx, a, table, &fields);
        if out.iter().any(|i| i.index.name == name) {
            cx.error_at(
                a.name.as_ref().map_or(a.span, |n| n.span),
                format!(
                    "two indexes on `{}` are named `{name}`; name one with index(name = \"...\")",
                    table.name
                ),
            );
        }
        let mut analyzer_span = None;
        let kind = match &a.kind {
            IndexKindAttr::Plain => ir::IndexKind::Plain,
            IndexKindAttr::Unique => ir::IndexKind::Unique,
            IndexKindAttr::FullText {
                analyzer,
                bm25,
                highlights,
            } => {
                analyzer_span = analyzer.as_ref().map(|an| an.span);
                fulltext_index(cx, a, &fields, analyzer, bm25, *highlights)
            }
            IndexKindAttr::Hnsw {
                dimension,
                dist,
                vector_type,
                efc,
                m,
            } => ir::IndexKind::Hnsw(ir::Hnsw {
                dimension: hnsw_dimension(cx, a, &fields, dimension.as_ref()),
                dist: known_word(cx, dist, DISTANCES, "EUCLIDEAN", "HNSW distance"),
                vector_type: known_word(cx, vector_type, VECTOR_TYPES, "F64", "HNSW vector type"),
                efc: efc.as_ref().map(|v| v.value),
                m: m.as_ref().map(|v| v.value),
            }),
        };
        out.push(IndexAst {
            index: ir::Index {
                name,
                fields: fields.iter().map(|f| f.name.clone()).collect(),
                kind,
            },
            span: a.span,
            analyzer_span,
        });
    }
    out
}

/// One field an index covers: its database path (`email`, `address.country`, `in`) and the
/// table's field it starts at (`None` for a relation's `in`/`out`).
struct IndexField<'t> {
    name: String,
    field: Option<&'t FieldAst>,
    /// Whether the path goes into an object field's sub-fields (checked by `resolve`, which sees
    /// the Object's fields).
    nested: bool,
}

/// The fields an index names, by Rust or database name (a path into an object field: its
/// sub-fields by database name; a relation's `in`/`out`); unknown and computed fields are errors.
fn index_fields<'t>(cx: &Ctxt, a: &clauses::IndexAttr, table: &'t TableAst) -> Vec<IndexField<'t>> {
    let mut fields: Vec<IndexField> = Vec::new();
    for path in &a.fields {
        let ident = path.first();
        let name = ident.to_string();
        let rest = path.rest();
        let nested = !rest.is_empty();
        let full = |top: &str| {
            if nested {
                format!("{top}.{rest}")
            } else {
                top.to_owned()
            }
        };
        if table.relation.is_some() && (name == "in" || name == "out") {
            if nested {
                cx.error_spanned_by(
                    path,
                    format!(
                        "`{name}` is a record link: an index covers this table's own fields, so index `{name}` itself"
                    ),
                );
            }
            fields.push(IndexField {
                name: name.clone(),
                field: None,
                nested: false,
            });
            continue;
        }
        match table.fields.iter().find(|f| f.ident == name || f.name == name) {
            Some(f) => {
                if f.computed_span.is_some() {
                    cx.error_spanned_by(
                        ident,
                        format!(
                            "`{name}` is COMPUTED: the engine cannot index a field that \
                        is computed on read; store it with `value = \"...\"` instead"
                        ),
                    );
                }
                if nested && !matches!(f.ty.named(), Some(_)) && !matches!(f.ty, TypeAst::Raw(_)) {
                    cx.error_spanned_by(
                        path,
                        format!(
                            "`{name}` is not an object: only an object field (a \
                        `#[derive(Object)]` type) has sub-fields to index"
                        ),
                    );
                }
                fields.push(IndexField {
                    name: full(&f.name),
                    field: Some(f),
                    nested,
                });
            }
            None => cx.error_spanned_by(ident, format!("`{}` has no field `{name}` to index", table.ident)),
        }
    }
    fields
}

/// The index's name as written (an identifier), or the table's name and its fields' joined by `_`.
fn index_name(cx: &Ctxt, a: &clauses::IndexAttr, table: &TableAst, fields: &[IndexField]) -> String {
    match &a.name {
        Some(n) => {
            if !crate::surql::is_plain_ident(&n.value) {
                cx.error_at(
                    n.span,
                    format!("index name {:?} must be ASCII letters, digits and underscores", n.value),
                );
            }
            n.value.clone()
        }
        None => {
            let mut name = table.name.clone();
            for f in fields {
                name.push('_');
                name.push_str(&f.name.replace('.', "_"));
            }
            name
        }
    }
}

/// A full-text index: one field, a named analyzer, BM25 parameters in range.
fn fulltext_index(
    cx: &Ctxt,
    a: &clauses::IndexAttr,
    fields: &[IndexField],
    analyzer: &Option<super::attr::Spanned<String>>,
    bm25: &Option<super::attr::Spanned<(f64, f64)>>,
    highlights: bool,
) -> ir::IndexKind {
    if fields.len() > 1 {
        cx.error_at(a.span, "a full-text index covers one field");
    }
    let analyzer = match analyzer {
        Some(an) => an.value.clone(),
        None => {
            cx.error_at(
                a.span,
                "a full-text index names its analyzer: fulltext(analyzer = \"...\"), declared \
                on the Schema item with analyzer(name = \"...\", ...)",
            );
            String::new()
        }
    };
    if let Some(b) = bm25 {
        let (k1, bb) = b.value;
        if !(k1.is_finite() && k1 >= 0.0 && bb.is_finite() && (0.0..=1.0).contains(&bb)) {
            cx.error_at(b.span, "bm25(k1, b) needs k1 >= 0 and b between 0 and 1");
        }
    }
    ir::IndexKind::FullText {
        analyzer,
        bm25: bm25.as_ref().map(|b| b.value),
        highlights,
    }
}

/// An HNSW index's dimension: as written or the field's fixed array length (which must agree),
/// from 1 to 65535; the index covers one array field.
fn hnsw_dimension(
    cx: &Ctxt,
    a: &clauses::IndexAttr,
    fields: &[IndexField],
    dimension: Option<&super::attr::Spanned<u32>>,
) -> u32 {
    if fields.len() > 1 {
        cx.error_at(a.span, "an HNSW index covers one vector field");
    }
    let first = fields.first().filter(|f| !f.nested).and_then(|f| f.field);
    let field_len = first.and_then(|f| fixed_len(&f.ty));
    if let Some(f) = fields.first() {
        if !first.is_some_and(|f| is_array(&f.ty)) {
            cx.error_spanned_by(
                &a.fields[0],
                format!(
                    "`{}` is not an array of numbers: an HNSW index needs a vector field",
                    f.name
                ),
            );
        }
    }
    let dimension = match (dimension, field_len) {
        (Some(d), Some(n)) if u64::from(d.value) != n => {
            cx.error_at(
                d.span,
                format!(
                    "hnsw(dimension = {}) disagrees with the field's type, an array of {n}",
                    d.value
                ),
            );
            d.value
        }
        (Some(d), _) => d.value,
        (None, Some(n)) => u32::try_from(n).unwrap_or(u32::MAX),
        (None, None) => {
            cx.error_at(a.span, "an HNSW index needs a dimension: give the field a fixed-size array type (`[f32; 4]`) or write hnsw(dimension = N)");
            1
        }
    };
    if dimension == 0 || dimension > u32::from(u16::MAX) {
        cx.error_at(a.span, format!("an HNSW dimension must be from 1 to {}", u16::MAX));
    }
    dimension
}

/// One of `allowed` (upper case) as written in any case, or `default` when absent.
fn known_word(
    cx: &Ctxt,
    v: &Option<super::attr::Spanned<String>>,
    allowed: &[&str],
    default: &str,
    what: &str,
) -> String {
    match v {
        Some(s) => {
            let up = s.value.to_ascii_uppercase();
            if !allowed.contains(&up.as_str()) {
                cx.error_at(
                    s.span,
                    format!(
                        "unknown {what} {:?}; expected one of {}",
                        s.value,
                        allowed.join(", ").to_ascii_lowercase()
                    ),
                );
            }
            up
        }
        None => default.to_owned(),
    }
}
