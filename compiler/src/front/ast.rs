//! The AST of one annotated Rust item in surqlc's terms: what it is, its names, docs, field types and clauses.
//!
//! Plain data, built item by item by `read` (so the derive, which sees one item, and the
//! compiler, which sees the whole file, share it); cross-item facts are settled in `resolve`.

use super::schema_attrs::SchemaAttrs;
pub use super::types::TypeAst;
use super::unsupported::Plain;
use crate::ir;
use proc_macro2::Span;
use std::collections::BTreeMap;

/// An item carrying a surqlc derive.
// One value per item, consumed at once: boxing the large variant would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Container {
    Table(TableAst),
    Literal(EnumAst),
    Schema(SchemaAst),
    Ends(EndsAst),
    Object(ObjectAst),
}

/// A `#[derive(Object)]` struct: stored inside a row, each of its fields a sub-field of the
/// field it types (`DEFINE FIELD parent.sub`), read as a table's fields are.
pub struct ObjectAst {
    pub ident: syn::Ident,
    /// The struct's doc comment: the `COMMENT` of every field of this type (after the field's own).
    pub comment: Option<String>,
    pub fields: Vec<FieldAst>,
    /// Fields serde never writes: `Default` when read.
    pub skipped: Vec<syn::Ident>,
}

/// A `#[derive(Ends)]` enum: each variant holds one `Link<T>`; the tables it may link to, in order.
pub struct EndsAst {
    pub ident: syn::Ident,
    /// `(variant, the T of its Link<T>)`.
    pub variants: Vec<(syn::Ident, syn::Path)>,
}

/// A relation's `in` or `out` as written: `Link<T>` (one table) or an `Ends` enum (several).
pub enum EndAst {
    Link(syn::Path),
    Ends(syn::Path),
}

impl EndAst {
    pub fn path(&self) -> &syn::Path {
        match self {
            EndAst::Link(p) | EndAst::Ends(p) => p,
        }
    }
}

/// A `#[derive(Table)]` or `#[derive(Relation)]` struct.
pub struct TableAst {
    pub ident: syn::Ident,
    /// The table name in the database.
    pub name: String,
    /// Where an error about the table name should point.
    pub name_span: Span,
    pub comment: Option<String>,
    /// For a relation: its ends, `r#in: Link<A>` (or an `Ends` enum) and `out: Link<B>`.
    pub relation: Option<(EndAst, EndAst)>,
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
    /// `aka(...)`: other words for the table.
    pub aka: Vec<String>,
    /// `owner = "..."`: the route from a row to its end user, as written (checked by `resolve`).
    pub owner: Option<syn::LitStr>,
    /// `view = "SELECT ..."`: the view's SELECT as written (validated against the schema by `codegen::views`).
    pub view: Option<syn::LitStr>,
    /// Where `shared` was written: every end user reads every row.
    pub shared: Option<Span>,
    /// `renamed_from = "old"`: the table's previous name.
    pub renamed_from: Option<String>,
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
    /// `aka(...)`: other words for the field.
    pub aka: Vec<String>,
    /// Where `computed` was written, for the index-over-COMPUTED error.
    pub computed_span: Option<Span>,
    /// `renamed_from = "old"`: the field's previous name.
    pub renamed_from: Option<String>,
}

/// A `#[derive(Literal)]` unit-only enum.
pub struct EnumAst {
    pub ident: syn::Ident,
    pub comment: Option<String>,
    /// `(variant, stored value, span, doc comment)`.
    pub variants: Vec<(syn::Ident, String, Span, Option<String>)>,
}

/// The `#[derive(Schema)]` item with its settings.
pub struct SchemaAst {
    pub ident: syn::Ident,
    pub attrs: SchemaAttrs,
}

impl EnumAst {
    pub fn to_ir(&self) -> ir::LiteralEnum {
        ir::LiteralEnum {
            rust_name: self.ident.to_string(),
            comment: self.comment.clone(),
            variants: self
                .variants
                .iter()
                .map(|(i, v, _, _)| (i.to_string(), v.clone()))
                .collect(),
            variant_docs: self
                .variants
                .iter()
                .filter_map(|(_, v, _, doc)| Some((v.clone(), doc.clone()?)))
                .collect(),
        }
    }
}

impl TableAst {
    pub fn span(&self) -> Span {
        self.ident.span()
    }
}

/// The schema's name for the `#[derive(Schema)]` type `ident`: snake_case, without `r#`
/// (the compiler and the derive both call this, so `r#Store` is `store` in each).
pub fn schema_name(ident: &syn::Ident) -> String {
    heck::AsSnakeCase(syn::ext::IdentExt::unraw(ident).to_string()).to_string()
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

/// Every container of a schema with the index of the file (and so the `Ctxt`) it came from.
#[derive(Default)]
pub struct Items {
    pub tables: Vec<(usize, TableAst)>,
    pub enums: Vec<(usize, EnumAst)>,
    pub ends: Vec<(usize, EndsAst)>,
    pub objects: Vec<(usize, ObjectAst)>,
    pub schemas: Vec<(usize, SchemaAst)>,
    /// Names of surqlc items that could not be read (their errors are already recorded).
    pub broken: Vec<String>,
    /// Items without a surqlc derive, by name: what an unsupported field type's hint says depends on it.
    pub plain: BTreeMap<String, Plain>,
}

impl Items {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, file: usize, container: Container) {
        match container {
            Container::Table(t) => self.tables.push((file, t)),
            Container::Literal(e) => self.enums.push((file, e)),
            Container::Schema(s) => self.schemas.push((file, s)),
            Container::Ends(e) => self.ends.push((file, e)),
            Container::Object(o) => self.objects.push((file, o)),
        }
    }
}
