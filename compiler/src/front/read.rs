//! Reads one annotated Rust item (a `syn::DeriveInput`) into the AST, lowering its clauses through `definitions`; problems go to the `Ctxt`.

use super::ast::{field_const_name, Container, EndAst, EnumAst, FieldAst, ObjectAst, SchemaAst, TableAst, TypeAst};
use super::attr::{self, Derive, RenameRule};
use super::ctxt::Ctxt;
use super::types::{is_builtin_type_name, link_target, map_type};
use proc_macro2::Span;
use syn::{Data, DeriveInput, Fields};

impl Container {
    /// Reads `input` as the kind its derive says; problems go to `cx`.
    pub fn from_derive_input(cx: &Ctxt, input: &DeriveInput, kind: Derive) -> Option<Container> {
        if !input.generics.params.is_empty() {
            cx.error_spanned_by(&input.generics, format!("a {} cannot be generic", kind.name()));
            return None;
        }
        match kind {
            Derive::Table | Derive::Relation => table(cx, input, kind == Derive::Relation).map(Container::Table),
            Derive::Literal => literal(cx, input).map(Container::Literal),
            Derive::Object => object(cx, input).map(Container::Object),
            Derive::Ends => {
                if let Data::Enum(data) = &input.data {
                    for v in &data.variants {
                        reject_cfg(cx, &v.attrs);
                    }
                }
                super::ends::read(cx, input).map(Container::Ends)
            }
            Derive::Schema => {
                if !matches!(&input.data, Data::Struct(s) if s.fields.is_empty()) {
                    cx.error_spanned_by(&input.ident, "derive Schema on a unit struct, e.g. `pub struct Store;`");
                }
                let attrs = super::schema_attrs::schema_attrs(cx, &input.attrs);
                super::settings::check(cx, &attrs);
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
                format!("derive {what} on a struct; enums map to literal unions with derive Literal"),
            );
            return None;
        }
    };
    let attrs = attr::table_attrs(cx, &input.attrs);
    let (name, name_span) = table_name(cx, input, attrs.rename.clone());
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
        aka: attrs.aka.clone(),
        owner: attrs.owner.clone(),
        view: attrs.view.clone(),
        shared: attrs.shared,
        renamed_from: attrs.renamed_from.as_ref().map(|r| r.value.clone()),
    };
    if let Some(view) = &attrs.view {
        super::views::check_one_item(cx, view, is_relation, &attrs.clauses);
    }
    if let (Some(span), false) = (attrs.clauses.enforced, is_relation) {
        cx.error_at(
            span,
            "`enforced` is a relation's: it makes RELATE check that both ends exist",
        );
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
            let end = relation_end(cx, f, &raw, &input.ident);
            match end {
                Some(end) if raw == "in" => from = Some(end),
                Some(end) => to = Some(end),
                None => cx.error_spanned_by(
                    &f.ty,
                    format!("a relation's `{raw}` must be `Link<T>` where T is a table, or an enum deriving Ends"),
                ),
            }
            continue;
        }
        match field(cx, f, ident.clone(), rename_all, Holder::Table) {
            Column::Field(field) => out.fields.push(field),
            Column::Id => {
                out.has_id = true;
                out.id = super::definitions::id_key_type(&f.ty).map(|t| (t, f.ty.clone()));
                if attr::docs(cx, &f.attrs).is_some() {
                    cx.warn_at(ident.span(), format!("the doc comment on `{}`'s `id` is not written anywhere: the record id is the engine's, and surqlc gives it no COMMENT; say what the ids look like in the table's doc comment (e.g. \"Keyed by ISO country code\")", input.ident));
                }
            }
            Column::Skipped => out.skipped.push(ident),
            Column::Invalid => {}
        }
    }
    for f in &mut out.fields {
        replace_self(&mut f.ty, &input.ident);
    }
    if is_relation {
        match (from, to) {
            (Some(a), Some(b)) => out.relation = Some((a, b)),
            _ => cx.error_spanned_by(
                &input.ident,
                "a relation needs both ends as fields: `pub r#in: Link<FromTable>` and `pub out: Link<ToTable>`",
            ),
        }
    }
    // After the ends: a relation's index may cover `in` and `out`.
    out.indexes = super::definitions::indexes(cx, &attrs.clauses.indexes, &out);
    check_field_names(cx, &out.fields, &out.name, &out.ident);
    Some(out)
}

/// A `#[derive(Object)]` struct: its named fields read as a table's (every field attribute), each
/// a sub-field of whatever field it types.
fn object(cx: &Ctxt, input: &DeriveInput) -> Option<ObjectAst> {
    let Data::Struct(data) = &input.data else {
        cx.error_spanned_by(
            &input.ident,
            format!("derive Object on a struct with named fields; a unit-only enum is a Literal, and an enum with data is stored in a field with {}", super::unsupported::FLEXIBLE_OBJECT),
        );
        return None;
    };
    let Fields::Named(fields) = &data.fields else {
        cx.error_spanned_by(
            &input.ident,
            "an Object needs named fields: each is a sub-field `parent.name`",
        );
        return None;
    };
    let attrs = attr::object_attrs(cx, &input.attrs);
    let rename_all = attrs.rename_all.map(|r| r.value);
    let mut out = ObjectAst {
        ident: input.ident.clone(),
        comment: attr::docs(cx, &input.attrs),
        fields: Vec::new(),
        skipped: Vec::new(),
    };
    let mut invalid = false;
    for f in &fields.named {
        let ident = syn::ext::IdentExt::unraw(f.ident.as_ref().expect("named field"));
        reject_cfg(cx, &f.attrs);
        // Inside an object `id` is a key like any other: the engine gives it no meaning there
        // (tests/flexible_paths.rs proves it), so it is an ordinary sub-field.
        match field(cx, f, ident.clone(), rename_all, Holder::Object) {
            Column::Field(sub) => {
                check_sub_field(cx, &sub, &input.ident);
                out.fields.push(sub);
            }
            // Never: `Holder::Object` reads `id` as a field.
            Column::Id => {}
            Column::Skipped => out.skipped.push(ident),
            Column::Invalid => invalid = true,
        }
    }
    if out.fields.is_empty() && !invalid {
        cx.error_spanned_by(
            &input.ident,
            "an Object needs at least one stored field: a field of its type would be an empty object",
        );
    }
    check_field_names(cx, &out.fields, &out.ident.to_string(), &out.ident);
    Some(out)
}

/// What a sub-field may not be: itself (an object inside itself defines sub-fields without end),
/// or a clause the validator and the agent's access cannot follow below the top level.
fn check_sub_field(cx: &Ctxt, sub: &FieldAst, object: &syn::Ident) {
    if let Some(path) = sub.ty.named() {
        if path.is_ident("Self") || path.is_ident(object) {
            cx.error_spanned_by(
                path,
                format!("`{object}` contains itself: a schema defines every sub-field, so a recursive object has no schema; store this field with {}", super::unsupported::FLEXIBLE_OBJECT),
            );
        }
    }
    if sub.clauses.permissions.is_some() {
        cx.error_at(
            sub.name_span,
            "`permissions` and `hidden` are a table field's: the agent's access is decided per top-level \
                field; put them on the field of the table that holds this object",
        );
    }
    if let Some(span) = sub.computed_span {
        cx.error_at(
            span,
            "`computed` is a table field's: SurrealDB computes only top-level fields; use `value` (computed on every write) here",
        );
    }
}

/// The table's name (renamed, or the type's in snake case) and where it comes from; it must be an
/// identifier and no keyword.
fn table_name(cx: &Ctxt, input: &DeriveInput, rename: Option<attr::Spanned<String>>) -> (String, proc_macro2::Span) {
    let (name, name_span) = match rename {
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
    (name, name_span)
}

/// A relation's `in` or `out` field as the end it links to (`Link<T>` or an Ends enum), checking
/// that it is not renamed, skipped or retyped; `None` when its type is neither.
fn relation_end(cx: &Ctxt, f: &syn::Field, raw: &str, ty_ident: &syn::Ident) -> Option<EndAst> {
    let end_attrs = attr::field_attrs(cx, &f.attrs);
    if end_attrs.rename.is_some() || end_attrs.skip || end_attrs.ty.is_some() || end_attrs.clauses.any() {
        cx.error_spanned_by(
            f,
            format!("a relation's `{raw}` is the engine's: it cannot be renamed, skipped or retyped"),
        );
    }
    match link_target(&f.ty) {
        Some(p) => Some(EndAst::Link(self_to(p, ty_ident))),
        // Any other plain path must name an `Ends` enum (checked in `resolve`).
        None => super::ends::plain_path(&f.ty).map(EndAst::Ends),
    }
}

/// Two fields of one table (or object) with one database name, or with one derive-generated
/// constant, are errors.
fn check_field_names(cx: &Ctxt, fields: &[FieldAst], name: &str, ident: &syn::Ident) {
    let mut seen: Vec<&str> = Vec::new();
    let mut consts: Vec<(String, &syn::Ident)> = Vec::new();
    for f in fields {
        if seen.contains(&f.name.as_str()) {
            cx.error_at(f.name_span, format!("duplicate field `{}` on table `{name}`", f.name));
        }
        seen.push(&f.name);
        // The derive names each field by a constant; two Rust fields must not share one.
        let konst = field_const_name(&f.ident.to_string());
        if let Some((_, other)) = consts.iter().find(|(k, _)| *k == konst) {
            cx.error_spanned_by(
                &f.ident,
                format!("fields `{other}` and `{}` would share the constant `{ident}::{konst}` the derive generates; rename one", f.ident),
            );
        }
        consts.push((konst, &f.ident));
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

/// Whose field a struct field is: a table's (where `id` is the record id) or an Object's (where
/// `id` is a plain key).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holder {
    Table,
    Object,
}

fn field(cx: &Ctxt, f: &syn::Field, ident: syn::Ident, rename_all: Option<RenameRule>, holder: Holder) -> Column {
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
    if holder == Holder::Table && raw == "id" && attrs.rename.is_none() {
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
    if matches!(name.as_str(), "in" | "out") || (holder == Holder::Table && name == "id") {
        cx.error_at(
            name_span,
            format!("`{name}` is reserved by SurrealDB; rename the field"),
        );
    }
    let ty = match attrs.ty {
        Some(raw_ty) => match crate::surql::kind::parse(&raw_ty.value.value()) {
            Ok(raw) => TypeAst::Raw(raw),
            Err(why) => {
                cx.error_at(
                    attr::span_in(&raw_ty.value, why.offset),
                    format!(
                        "`type = {:?}` is not a SurrealQL type surqlc can read: {}",
                        raw_ty.value.value(),
                        why.message
                    ),
                );
                return Column::Invalid;
            }
        },
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
        aka: attrs.aka.clone(),
        computed_span: attrs.clauses.computed.as_ref().map(|c| c.span()),
        renamed_from: attrs.renamed_from.as_ref().map(|r| r.value.clone()),
    })
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
    if is_builtin_type_name(&name) {
        cx.error_spanned_by(
            &input.ident,
            format!("a Literal enum cannot be named `{name}`: fields of a type named `{name}` map to a built-in SurrealQL type; rename the enum"),
        );
    }
    let mut variants: Vec<(syn::Ident, String, Span, Option<String>)> = Vec::new();
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
        if variants.iter().any(|(_, existing, _, _)| *existing == value) {
            cx.error_at(span, format!("two variants are stored as {value:?}"));
        }
        variants.push((v.ident.clone(), value, span, attr::docs(cx, &v.attrs)));
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

fn replace_self(ty: &mut TypeAst, table: &syn::Ident) {
    match ty {
        TypeAst::Link(path) if path.is_ident("Self") => *path = syn::Path::from(table.clone()),
        TypeAst::Option(inner) | TypeAst::Array(inner, _) => replace_self(inner, table),
        _ => {}
    }
}
