//! One annotated Rust item read into surqlc's terms: what it is, its names, docs and field types.
//!
//! Works item by item, so the derive (which sees one item) and the compiler (which
//! sees the whole file) share it; cross-item facts are settled in `resolve`.

use super::attr::{self, Derive, RenameRule, SchemaAttrs};
use super::ctxt::Ctxt;
use crate::ir;
use proc_macro2::Span;
use syn::{Data, DeriveInput, Fields, GenericArgument, PathArguments};

/// An item carrying a surqlc derive.
pub enum Container {
    Table(TableAst),
    Literal(EnumAst),
    Schema(SchemaAst),
}

/// A `#[derive(Table)]` or `#[derive(Relation)]` struct.
pub struct TableAst {
    pub ident: syn::Ident,
    /// The table name in the database.
    pub name: String,
    /// Where an error about the table name should point.
    pub name_span: Span,
    pub comment: Option<String>,
    /// For a relation: the types inside `r#in: Link<A>` and `out: Link<B>`.
    pub relation: Option<(syn::Path, syn::Path)>,
    pub fields: Vec<FieldAst>,
    /// Whether the struct has an `id` field: the record id, read and written as `id` but never defined.
    pub has_id: bool,
    /// Fields skipped with `#[serde(skip)]` or `#[surqlc(skip)]`: not in the database, `Default` when read.
    pub skipped: Vec<syn::Ident>,
    /// The record id's key type and its Rust type, when `id` has a key type (`i64`, `String`, `Uuid`, arrays).
    pub id: Option<(ir::Type, syn::Type)>,
    pub schemaless: bool,
    pub enforced: bool,
    pub permissions: Option<ir::Permissions>,
    pub indexes: Vec<IndexAst>,
}

/// An index read from `#[surqlc(index(...))]`, with what `resolve` still checks.
pub struct IndexAst {
    pub index: ir::Index,
    /// Where the index was written.
    pub span: Span,
    /// Where a full-text index names its analyzer (checked against the schema's analyzers).
    pub analyzer_span: Option<Span>,
}

pub struct FieldAst {
    /// The Rust field, without `r#`.
    pub ident: syn::Ident,
    pub name: String,
    pub name_span: Span,
    pub ty: TypeAst,
    /// The field's Rust type, for the derive's generated code.
    pub rust_ty: syn::Type,
    pub comment: Option<String>,
    pub clauses: ir::FieldClauses,
    /// Where `computed` was written, for the index-over-COMPUTED error.
    pub computed_span: Option<Span>,
}

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
    Raw(String),
}

/// A `#[derive(Literal)]` unit-only enum.
pub struct EnumAst {
    pub ident: syn::Ident,
    pub comment: Option<String>,
    /// `(variant, stored value, span)`.
    pub variants: Vec<(syn::Ident, String, Span)>,
}

/// The `#[derive(Schema)]` item with its settings.
pub struct SchemaAst {
    pub ident: syn::Ident,
    pub attrs: SchemaAttrs,
}

impl Container {
    /// Reads `input` as the kind its derive says; problems go to `cx`.
    pub fn from_derive_input(cx: &Ctxt, input: &DeriveInput, kind: Derive) -> Option<Container> {
        if !input.generics.params.is_empty() {
            cx.error_spanned_by(
                &input.generics,
                format!("a {} cannot be generic", kind.name()),
            );
            return None;
        }
        match kind {
            Derive::Table | Derive::Relation => {
                table(cx, input, kind == Derive::Relation).map(Container::Table)
            }
            Derive::Literal => literal(cx, input).map(Container::Literal),
            Derive::Schema => {
                if !matches!(&input.data, Data::Struct(s) if s.fields.is_empty()) {
                    cx.error_spanned_by(
                        &input.ident,
                        "derive Schema on a unit struct, e.g. `pub struct Store;`",
                    );
                }
                let attrs = attr::schema_attrs(cx, &input.attrs);
                check_settings(cx, &attrs);
                Some(Container::Schema(SchemaAst {
                    ident: input.ident.clone(),
                    attrs,
                }))
            }
        }
    }
}

fn table(cx: &Ctxt, input: &DeriveInput, is_relation: bool) -> Option<TableAst> {
    let what = if is_relation { "Relation" } else { "Table" };
    let fields = match &input.data {
        Data::Struct(s) => &s.fields,
        _ => {
            cx.error_spanned_by(
                &input.ident,
                format!(
                    "derive {what} on a struct; enums map to literal unions with derive Literal"
                ),
            );
            return None;
        }
    };
    let attrs = attr::table_attrs(cx, &input.attrs);
    let (name, name_span) = match attrs.rename {
        Some(r) => (r.value, r.span),
        None => (
            heck::AsSnakeCase(syn::ext::IdentExt::unraw(&input.ident).to_string()).to_string(),
            input.ident.span(),
        ),
    };
    if !crate::surql::is_plain_ident(&name) {
        cx.error_at(
            name_span,
            format!("table name {name:?} must be ASCII letters, digits and underscores"),
        );
    } else if crate::surql::is_reserved(&name) {
        cx.error_at(
            name_span,
            format!("table name `{name}` is a SurrealQL keyword; rename the table with #[surqlc(rename = \"...\")]"),
        );
    }
    let rename_all = attrs.rename_all.map(|r| r.value);
    let mut out = TableAst {
        ident: input.ident.clone(),
        name,
        name_span,
        comment: attr::docs(cx, &input.attrs),
        relation: None,
        fields: Vec::new(),
        has_id: false,
        skipped: Vec::new(),
        id: None,
        schemaless: attrs.clauses.schemaless.is_some(),
        enforced: attrs.clauses.enforced.is_some(),
        permissions: attrs
            .clauses
            .permissions
            .as_ref()
            .map(|p| super::definitions::permissions(cx, p, true)),
        indexes: Vec::new(),
    };
    if let (Some(span), false) = (attrs.clauses.enforced, is_relation) {
        cx.error_at(span, "`enforced` is a relation's: it makes RELATE check that both ends exist");
    }
    if let Fields::Unnamed(_) = fields {
        cx.error_spanned_by(fields, "a table needs named fields (or none at all)");
        return None;
    }
    let (mut from, mut to) = (None, None);
    for f in fields.iter() {
        let ident = syn::ext::IdentExt::unraw(f.ident.as_ref().expect("named field"));
        let raw = ident.to_string();
        reject_cfg(cx, &f.attrs);
        if is_relation && (raw == "in" || raw == "out") {
            let end_attrs = attr::field_attrs(cx, &f.attrs);
            if end_attrs.rename.is_some()
                || end_attrs.skip
                || end_attrs.ty.is_some()
                || end_attrs.clauses.any()
            {
                cx.error_spanned_by(
                    f,
                    format!("a relation's `{raw}` is the engine's: it cannot be renamed, skipped or retyped"),
                );
            }
            match link_target(&f.ty).map(|p| self_to(p, &input.ident)) {
                Some(path) if raw == "in" => from = Some(path),
                Some(path) => to = Some(path),
                None => cx.error_spanned_by(
                    &f.ty,
                    format!("a relation's `{raw}` must be `Link<T>` where T is a table"),
                ),
            }
            continue;
        }
        match field(cx, f, ident.clone(), rename_all) {
            Column::Field(field) => out.fields.push(field),
            Column::Id => {
                out.has_id = true;
                out.id = super::definitions::id_key_type(&f.ty).map(|t| (t, f.ty.clone()));
            }
            Column::Skipped => out.skipped.push(ident),
            Column::Invalid => {}
        }
    }
    for f in &mut out.fields {
        replace_self(&mut f.ty, &input.ident);
    }
    out.indexes = super::definitions::indexes(cx, &attrs.clauses.indexes, &out);
    if is_relation {
        match (from, to) {
            (Some(a), Some(b)) => out.relation = Some((a, b)),
            _ => cx.error_spanned_by(
                &input.ident,
                "a relation needs both ends as fields: `pub r#in: Link<FromTable>` and `pub out: Link<ToTable>`",
            ),
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut consts: Vec<(String, &syn::Ident)> = Vec::new();
    for f in &out.fields {
        if seen.contains(&f.name.as_str()) {
            cx.error_at(
                f.name_span,
                format!("duplicate field `{}` on table `{}`", f.name, out.name),
            );
        }
        seen.push(&f.name);
        // The derive names each field by a constant; two Rust fields must not share one.
        let konst = field_const_name(&f.ident.to_string());
        if let Some((_, other)) = consts.iter().find(|(k, _)| *k == konst) {
            cx.error_spanned_by(
                &f.ident,
                format!("fields `{other}` and `{}` would share the constant `{}::{konst}` the derive generates; rename one", f.ident, out.ident),
            );
        }
        consts.push((konst, &f.ident));
    }
    Some(out)
}

/// The name of the constant the derive gives a field: SCREAMING_SNAKE_CASE, and `TABLE_FIELD` for a
/// field that would take the table's own `TABLE`.
pub fn field_const_name(field: &str) -> String {
    let name = heck::AsShoutySnakeCase(field).to_string();
    if name == "TABLE" {
        "TABLE_FIELD".into()
    } else {
        name
    }
}

/// What one struct field is to the table. Short-lived, one per field, so its size does not matter.
#[allow(clippy::large_enum_variant)]
enum Column {
    Field(FieldAst),
    /// The record id.
    Id,
    Skipped,
    /// An error was recorded.
    Invalid,
}

fn field(cx: &Ctxt, f: &syn::Field, ident: syn::Ident, rename_all: Option<RenameRule>) -> Column {
    let attrs = attr::field_attrs(cx, &f.attrs);
    let comment = attr::docs(cx, &f.attrs);
    let raw = ident.to_string();
    if attrs.skip {
        return Column::Skipped;
    }
    if attrs.flatten {
        return Column::Invalid;
    }
    // The record id lives outside the table's fields; it is never a DEFINE FIELD. A Rust field
    // `id` that serde renames is an ordinary column under its new name.
    if raw == "id" && attrs.rename.is_none() {
        return Column::Id;
    }
    let (name, name_span) = match attrs.rename {
        Some(r) => (r.value, r.span),
        None => (
            rename_all.map_or(raw.clone(), |rule| rule.apply_to_field(&raw)),
            ident.span(),
        ),
    };
    if !crate::surql::is_plain_ident(&name) {
        cx.error_at(
            name_span,
            format!("field name {name:?} must be ASCII letters, digits and underscores"),
        );
    }
    if matches!(name.as_str(), "id" | "in" | "out") {
        cx.error_at(
            name_span,
            format!("`{name}` is reserved by SurrealDB; rename the field"),
        );
    }
    let ty = match attrs.ty {
        Some(raw_ty) => {
            if let Err(why) = check_raw_type(&raw_ty.value) {
                cx.error_at(
                    raw_ty.span,
                    format!("`type = {:?}` is not a SurrealQL type: {why}", raw_ty.value),
                );
            }
            TypeAst::Raw(raw_ty.value)
        }
        None => match map_type(cx, &f.ty) {
            Some(ty) => ty,
            None => return Column::Invalid,
        },
    };
    if let Some(span) = attrs.skip_serializing_if {
        if !matches!(ty, TypeAst::Option(_) | TypeAst::Raw(_)) {
            cx.error_at(
                span,
                "`skip_serializing_if` lets serde leave this field out, which a SCHEMAFULL table stores as NONE: make the field an Option",
            );
        }
    }
    let clauses = super::definitions::field_clauses(cx, &attrs.clauses, &ty);
    Column::Field(FieldAst {
        ident,
        name,
        name_span,
        ty,
        rust_ty: f.ty.clone(),
        comment,
        clauses,
        computed_span: attrs.clauses.computed.as_ref().map(|c| c.span()),
    })
}

/// The `T` in `Link<T>` (or `Option<Link<T>>` is not accepted: an edge has both ends).
fn link_target(ty: &syn::Type) -> Option<syn::Path> {
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

const UNSUPPORTED_HINT: &str = "give its SurrealQL type with #[surqlc(type = \"...\")]";

/// The SurrealQL shape of a Rust field type; see `docs/annotations.md` for the table.
pub fn map_type(cx: &Ctxt, ty: &syn::Type) -> Option<TypeAst> {
    let unsupported = || {
        let shown = type_to_string(ty);
        cx.error_spanned_by(
            ty,
            format!("unsupported field type `{shown}`; {UNSUPPORTED_HINT}"),
        );
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
                    lit: syn::Lit::Int(n),
                    ..
                }) => n
                    .base10_parse::<u64>()
                    .map_err(|_| "array length is too large"),
                _ => Err("array length must be an integer literal"),
            };
            let len = match len {
                Ok(len) => len,
                Err(why) => {
                    cx.error_spanned_by(&arr.len, format!("{why}; {UNSUPPORTED_HINT}"));
                    return None;
                }
            };
            Some(TypeAst::Array(
                Box::new(map_type(cx, &arr.elem)?),
                Some(len),
            ))
        }
        syn::Type::Path(_) => {
            let Some((name, args)) = last_segment(ty) else {
                return unsupported();
            };
            let known = |t| Some(TypeAst::Known(t));
            match (name.as_str(), args.as_slice()) {
                ("String" | "str", []) => known(ir::Type::String),
                ("bool", []) => known(ir::Type::Bool),
                (
                    "i8" | "i16" | "i32" | "i64" | "isize" | "u8" | "u16" | "u32" | "u64" | "usize",
                    [],
                ) => known(ir::Type::Int),
                ("f32" | "f64", []) => known(ir::Type::Float),
                ("Decimal", []) => known(ir::Type::Decimal),
                ("Datetime" | "OffsetDateTime" | "SystemTime", []) => known(ir::Type::Datetime),
                // chrono::DateTime<Utc> carries its time zone as a type argument.
                ("DateTime", [_] | []) => known(ir::Type::Datetime),
                ("Duration", []) => known(ir::Type::Duration),
                ("Uuid", []) => known(ir::Type::Uuid),
                ("Bytes", []) => known(ir::Type::Bytes),
                ("Option", [inner]) => match map_type(cx, inner)? {
                    TypeAst::Option(_) => {
                        cx.error_spanned_by(ty, "`Option<Option<T>>` has no SurrealQL type: a field is NONE or a value; use one `Option`");
                        None
                    }
                    inner => Some(TypeAst::Option(Box::new(inner))),
                },
                ("Vec" | "VecDeque", [inner]) => {
                    Some(TypeAst::Array(Box::new(map_type(cx, inner)?), None))
                }
                ("Box" | "Arc" | "Rc", [inner]) => map_type(cx, inner),
                ("Link", [_]) => link_target(ty).map(TypeAst::Link).or_else(unsupported),
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

fn literal(cx: &Ctxt, input: &DeriveInput) -> Option<EnumAst> {
    let Data::Enum(data) = &input.data else {
        cx.error_spanned_by(&input.ident, "derive Literal on a unit-only enum");
        return None;
    };
    let attrs = attr::enum_attrs(cx, &input.attrs);
    if let Some(repr) = derives_named(&input.attrs, "Serialize_repr") {
        cx.error_spanned_by(
            repr,
            "serde_repr writes the discriminant as a number, not the variant's name; a literal union holds the names",
        );
    }
    let name = syn::ext::IdentExt::unraw(&input.ident).to_string();
    if BUILTIN_TYPE_NAMES.contains(&name.as_str()) {
        cx.error_spanned_by(
            &input.ident,
            format!("a Literal enum cannot be named `{name}`: fields of a type named `{name}` map to a built-in SurrealQL type; rename the enum"),
        );
    }
    let mut variants: Vec<(syn::Ident, String, Span)> = Vec::new();
    for v in &data.variants {
        reject_cfg(cx, &v.attrs);
        let vattrs = attr::variant_attrs(cx, &v.attrs);
        if !matches!(v.fields, Fields::Unit) {
            cx.error_spanned_by(
                v,
                format!(
                    "enum variant `{}` carries data; a literal union holds only unit variants",
                    v.ident
                ),
            );
            continue;
        }
        let (value, span) = match vattrs.rename {
            Some(r) => (r.value, r.span),
            None => {
                let name = syn::ext::IdentExt::unraw(&v.ident).to_string();
                (
                    attrs
                        .rename_all
                        .as_ref()
                        .map_or(name.clone(), |r| r.value.apply_to_variant(&name)),
                    v.ident.span(),
                )
            }
        };
        if variants.iter().any(|(_, existing, _)| *existing == value) {
            cx.error_at(span, format!("two variants are stored as {value:?}"));
        }
        variants.push((v.ident.clone(), value, span));
    }
    if data.variants.is_empty() {
        cx.error_spanned_by(&input.ident, "a literal enum needs at least one variant");
    }
    Some(EnumAst {
        ident: input.ident.clone(),
        comment: attr::docs(cx, &input.attrs),
        variants,
    })
}

impl EnumAst {
    pub fn to_ir(&self) -> ir::LiteralEnum {
        ir::LiteralEnum {
            rust_name: self.ident.to_string(),
            comment: self.comment.clone(),
            variants: self
                .variants
                .iter()
                .map(|(i, v, _)| (i.to_string(), v.clone()))
                .collect(),
        }
    }
}

impl TableAst {
    pub fn span(&self) -> Span {
        self.ident.span()
    }
}

/// Checks the settings' values that need no other item, so the derive reports them too.
fn check_settings(cx: &Ctxt, a: &SchemaAttrs) {
    let names = [
        (&a.examples_table, "table name"),
        (&a.agent_user, "user name"),
    ];
    for (value, what) in names {
        if let Some(v) = value {
            if !crate::surql::is_plain_ident(&v.value) || crate::surql::is_reserved(&v.value) {
                cx.error_at(v.span, format!("invalid {what} {:?}: use letters, digits and underscores, and not a SurrealQL keyword", v.value));
            }
        }
    }
    for v in [&a.token_duration, &a.session_duration]
        .into_iter()
        .flatten()
    {
        if !super::resolve::is_duration(&v.value) {
            cx.error_at(
                v.span,
                format!(
                    "invalid duration {:?}: write e.g. \"1h\", \"30m\" or \"1d12h\"",
                    v.value
                ),
            );
        }
    }
    let counts = [
        (&a.dimension, "examples(dimension)"),
        (&a.k, "examples(k)"),
        (&a.ef, "examples(ef)"),
        (&a.max_rows, "max_rows"),
        (&a.budget_block, "budget(block)"),
        (&a.budget_table, "budget(table)"),
    ];
    for (value, what) in counts {
        if let Some(v) = value {
            if v.value == 0 {
                cx.error_at(v.span, format!("{what} must be at least 1"));
            }
        }
    }
    // The engine's HNSW index takes a 16-bit dimension.
    if let Some(d) = &a.dimension {
        if d.value > u32::from(u16::MAX) {
            cx.error_at(
                d.span,
                format!("examples(dimension) must be at most {}", u16::MAX),
            );
        }
    }
}

/// A light check of a `#[surqlc(type = "...")]` type: it is written into `schema.surql` verbatim
/// (clauses such as `ASSERT` included), so it must stay inside one `DEFINE FIELD` statement: no `;`,
/// comments, line breaks or unbalanced brackets and quotes.
fn check_raw_type(text: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        return Err("it is empty".into());
    }
    let mut closers: Vec<char> = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' | '`' | '⟨' => {
                // A string or an escaped name: skip to its closing quote (a `;` inside is text).
                let close = if c == '⟨' { '⟩' } else { c };
                loop {
                    match chars.next() {
                        None => return Err(format!("the quote opened with {c} is not closed")),
                        Some('\\') => {
                            chars.next();
                        }
                        Some(q) if q == close => break,
                        Some(_) => {}
                    }
                }
            }
            '<' => closers.push('>'),
            '{' => closers.push('}'),
            '[' => closers.push(']'),
            '(' => closers.push(')'),
            '>' | '}' | ']' | ')' if closers.pop() != Some(c) => {
                return Err(format!("unbalanced `{c}`"));
            }
            '>' | '}' | ']' | ')' => {}
            '-' if chars.peek() == Some(&'-') => return Err("it contains a comment (`--`)".into()),
            '/' if chars.peek() == Some(&'*') || chars.peek() == Some(&'/') => {
                return Err("it contains a comment".into())
            }
            '#' => return Err("it contains a comment (`#`)".into()),
            // `;` would end the DEFINE FIELD statement; a line break or control character has no place in a type.
            ';' => return Err("unexpected `;`: it would end the statement".into()),
            c if c.is_control() => return Err(format!("unexpected `{}`", c.escape_default())),
            // Anything else may follow TYPE: kinds, literal values, and clauses such as `ASSERT $value > 0`.
            _ => {}
        }
    }
    match closers.pop() {
        Some(c) => Err(format!("a bracket is not closed (expected `{c}`)")),
        None => Ok(()),
    }
}

/// The path in a `#[derive(...)]` whose last segment is `name`, if any.
fn derives_named(attrs: &[syn::Attribute], name: &str) -> Option<syn::Path> {
    attr::derive_paths(attrs).find(|p| p.segments.last().is_some_and(|s| s.ident == name))
}

/// `Self` in a link inside a table means the table itself.
fn self_to(path: syn::Path, table: &syn::Ident) -> syn::Path {
    if path.is_ident("Self") {
        syn::Path::from(table.clone())
    } else {
        path
    }
}

/// surqlc reads source without evaluating `#[cfg]`, so it cannot know whether a cfg'd item or field exists.
pub(crate) fn reject_cfg(cx: &Ctxt, attrs: &[syn::Attribute]) {
    for a in attrs {
        if a.path().is_ident("cfg") || a.path().is_ident("cfg_attr") {
            cx.error_spanned_by(
                a,
                "surqlc reads the source without evaluating #[cfg] or #[cfg_attr]: keep schema items and fields unconditional",
            );
        }
    }
}

/// Type names the front end maps to built-in SurrealQL types (see `map_type`); a Literal enum may not take one.
pub const BUILTIN_TYPE_NAMES: &[&str] = &[
    "String",
    "Decimal",
    "Datetime",
    "OffsetDateTime",
    "SystemTime",
    "DateTime",
    "Duration",
    "Uuid",
    "Bytes",
    "Option",
    "Vec",
    "VecDeque",
    "Box",
    "Arc",
    "Rc",
    "Link",
];

fn replace_self(ty: &mut TypeAst, table: &syn::Ident) {
    match ty {
        TypeAst::Link(path) if path.is_ident("Self") => *path = syn::Path::from(table.clone()),
        TypeAst::Option(inner) | TypeAst::Array(inner, _) => replace_self(inner, table),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::check_raw_type;

    #[test]
    fn raw_types_stay_one_type() {
        for ok in [
            "string",
            "array<record<book>, 3>",
            "'a' | \"b;c\" | 1",
            "option<{ a: int, b: -1 }>",
            "geometry<point>",
            "set<int>",
        ] {
            assert_eq!(check_raw_type(ok), Ok(()), "{ok}");
        }
        for (bad, why) in [
            ("string; REMOVE TABLE thing", "unexpected `;`"),
            ("int # note", "comment"),
            ("", "empty"),
            ("array<int", "not closed"),
            ("int>", "unbalanced"),
            ("int -- x", "comment"),
            ("'open", "not closed"),
            ("record<t | `'`>; REMOVE TABLE t", "unexpected `;`"),
            ("record<⟨a;b⟩>; x", "unexpected `;`"),
            ("int\nstring", "unexpected `\\n`"),
        ] {
            let err = check_raw_type(bad).expect_err(bad);
            assert!(err.contains(why), "{bad:?}: {err}");
        }
    }
}
