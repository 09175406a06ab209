//! Derives `Table`, `Relation`, `Object`, `Literal`, `Ends` and `Schema` on an application's own types, reading them with the compiler's front end so the two cannot disagree.
//!
//! Each derive hands its one item to `surqlc::front::ast` (the code `surqlc build` runs on
//! the whole file), reports every error that finds at its span, and emits impls of the
//! traits in `surqlc::runtime`. What one item cannot know (the table a `Link<T>` points
//! at, the values of a literal enum used as a field type) is asked of the other types'
//! impls at run time, so `T::define()` is built from the same IR the compiler builds.
//!
//! The generated code needs `surqlc` with its `runtime` feature in the application's
//! `[dependencies]`.

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote, quote_spanned};
use surqlc::front::ast::{Container, EndAst, EndsAst, EnumAst, ObjectAst, SchemaAst, TableAst, TypeAst};
use surqlc::front::attr::Derive;
use surqlc::front::ctxt::Ctxt;
use surqlc::ir;
use syn::spanned::Spanned;
use syn::DeriveInput;

mod ir_tokens;

use ir_tokens::{option, string};

/// A table: a struct with named fields. See `docs/annotations.md`.
#[proc_macro_derive(Table, attributes(surqlc))]
pub fn derive_table(input: TokenStream) -> TokenStream {
    expand(input, Derive::Table)
}

/// A relation table: a struct with `pub r#in: Link<A>` and `pub out: Link<B>`.
#[proc_macro_derive(Relation, attributes(surqlc))]
pub fn derive_relation(input: TokenStream) -> TokenStream {
    expand(input, Derive::Relation)
}

/// A literal union: a unit-only enum stored as strings (serde's renames honoured).
#[proc_macro_derive(Literal, attributes(surqlc))]
pub fn derive_literal(input: TokenStream) -> TokenStream {
    expand(input, Derive::Literal)
}

/// Several tables at one place: an enum whose variants each hold one `Link<T>`, used as a
/// relation's `r#in`/`out` (`TYPE RELATION IN a | b`) or as a field's type (`record<a | b>`).
#[proc_macro_derive(Ends)]
pub fn derive_ends(input: TokenStream) -> TokenStream {
    expand(input, Derive::Ends)
}

/// A struct stored inside a row: a field of its type is `TYPE object` (`option<object>`,
/// `array<object>`) and each of its fields a sub-field `DEFINE FIELD parent.sub` with its own
/// clauses. See `docs/annotations.md`.
#[proc_macro_derive(Object, attributes(surqlc))]
pub fn derive_object(input: TokenStream) -> TokenStream {
    expand(input, Derive::Object)
}

/// The schema's prompt settings, on a unit struct.
#[proc_macro_derive(Schema, attributes(surqlc))]
pub fn derive_schema(input: TokenStream) -> TokenStream {
    expand(input, Derive::Schema)
}

fn expand(input: TokenStream, kind: Derive) -> TokenStream {
    let input = match syn::parse::<DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error().into(),
    };
    let cx = Ctxt::new();
    let container = Container::from_derive_input(&cx, &input, kind);
    let tokens = match &container {
        Some(Container::Table(table)) => table_impls(table),
        Some(Container::Literal(literal)) => literal_impls(literal),
        Some(Container::Schema(schema)) => schema_impls(schema),
        Some(Container::Ends(ends)) => ends_impls(ends),
        Some(Container::Object(object)) => object_impls(object),
        None => Tokens::new(),
    };
    match cx.check() {
        Ok(()) => tokens.into(),
        Err(errors) => errors
            .into_iter()
            .map(|e| e.to_compile_error())
            .collect::<Tokens>()
            .into(),
    }
}

fn option_string(s: &Option<String>) -> Tokens {
    option(s, |s| string(s))
}

/// An `ir::Type` known at expansion time, as an expression.
fn known_type(ty: &ir::Type) -> Tokens {
    let t = quote!(::surqlc::ir::Type);
    match ty {
        ir::Type::Any => quote!(#t::Any),
        ir::Type::Bool => quote!(#t::Bool),
        ir::Type::Int => quote!(#t::Int),
        ir::Type::Float => quote!(#t::Float),
        ir::Type::Decimal => quote!(#t::Decimal),
        ir::Type::String => quote!(#t::String),
        ir::Type::Datetime => quote!(#t::Datetime),
        ir::Type::Duration => quote!(#t::Duration),
        ir::Type::Uuid => quote!(#t::Uuid),
        ir::Type::Bytes => quote!(#t::Bytes),
        ir::Type::Number => quote!(#t::Number),
        ir::Type::Object => quote!(#t::Object),
        ir::Type::Option(inner) => {
            let inner = known_type(inner);
            quote!(#t::Option(::std::boxed::Box::new(#inner)))
        }
        ir::Type::Array(inner, len) => {
            let inner = known_type(inner);
            let len = length(*len);
            quote!(#t::Array(::std::boxed::Box::new(#inner), #len))
        }
        ir::Type::Record(table) => {
            let table = string(table);
            quote!(#t::Record(#table))
        }
        ir::Type::Records(tables) => {
            let tables = tables.iter().map(|t| string(t));
            quote!(#t::Records(::std::vec![#(#tables),*]))
        }
        ir::Type::Literal(values) => {
            let values = values.iter().map(|v| string(v));
            quote!(#t::Literal(::std::vec![#(#values),*]))
        }
        ir::Type::Raw(raw) => {
            let text = &raw.text;
            quote!(::surqlc::__private::raw_type(#text))
        }
    }
}

fn length(len: Option<u64>) -> Tokens {
    option(&len, |n| quote!(#n))
}

/// A field type as an expression; links and named types ask the other type's impl.
fn field_type(ty: &TypeAst) -> Tokens {
    let t = quote!(::surqlc::ir::Type);
    match ty {
        TypeAst::Known(known) => known_type(known),
        TypeAst::Raw(raw) => {
            // Read again at run time by the reader that accepted it here, so both build the same IR.
            let text = &raw.text;
            quote!(::surqlc::__private::raw_type(#text))
        }
        TypeAst::Option(inner) => {
            let inner = field_type(inner);
            quote!(#t::Option(::std::boxed::Box::new(#inner)))
        }
        TypeAst::Array(inner, len) => {
            let inner = field_type(inner);
            let len = length(*len);
            quote!(#t::Array(::std::boxed::Box::new(#inner), #len))
        }
        TypeAst::Link(path) => quote_spanned! {path.span()=>
            #t::Record(::std::string::String::from(<#path as ::surqlc::runtime::Table>::TABLE))
        },
        TypeAst::Named(path) => quote_spanned! {path.span()=>
            <#path as ::surqlc::runtime::SurqlType>::surql_type()
        },
    }
}

/// A field as Rust code must name it: the front end keeps names without `r#`, so a keyword
/// (`type`, `match`) is made raw again.
fn member(ident: &syn::Ident) -> syn::Ident {
    let name = ident.to_string();
    if syn::parse_str::<syn::Ident>(&name).is_ok() {
        ident.clone()
    } else {
        syn::Ident::new_raw(&name, ident.span())
    }
}

/// The constant that names a field: `signed_up` is `SIGNED_UP`, and `table` is `TABLE_FIELD`.
fn field_const(ident: &syn::Ident) -> syn::Ident {
    format_ident!(
        "{}",
        surqlc::front::ast::field_const_name(&ident.to_string()),
        span = ident.span()
    )
}

fn table_impls(table: &TableAst) -> Tokens {
    let table_impl = table_trait_impl(table);
    let relation = relation_impl(table);
    let inherent = inherent_impl(table);
    let value = value_impl(table);
    let fields = field_impls(table);
    let ends = ends_impl(table);
    quote! {
        #table_impl

        #relation

        #fields

        #ends

        #inherent

        #value
    }
}

/// `impl Table`: the table's name, fields, key type and its IR.
fn table_trait_impl(table: &TableAst) -> Tokens {
    let ident = &table.ident;
    let name = &table.name;
    let rust_name = ident.to_string();
    let comment = option_string(&table.comment);
    let rt = quote!(::surqlc::runtime);

    // An end is one table's name, or every table of an `Ends` enum.
    let end = |e: &EndAst| match e {
        EndAst::Link(p) => {
            quote!(::std::vec![::std::string::String::from(<#p as #rt::Table>::TABLE)])
        }
        EndAst::Ends(p) => quote_spanned!(p.span()=> <#p as #rt::Ends>::tables()),
    };
    let kind = match &table.relation {
        Some((from, to)) => {
            let (from, to) = (end(from), end(to));
            quote! {
                ::surqlc::ir::TableKind::Relation { from: #from, to: #to }
            }
        }
        None => quote!(::surqlc::ir::TableKind::Normal),
    };
    let fields = table.fields.iter().map(ir_field);
    let field_names = table.fields.iter().map(|f| &f.name);
    let table_aka = table.aka.iter().map(|w| string(w));
    let owner = option_string(&table.owner.as_ref().map(|r| r.value().trim().to_owned()));
    let view = option_string(&table.view.as_ref().map(|v| v.value().trim().to_owned()));
    let table_renamed_from = option_string(&table.renamed_from);
    let schemaless = table.schemaless;
    let enforced = table.enforced;
    let id_type = ir_tokens::option(&table.id, |(ty, _)| known_type(ty));
    let key_type = match &table.id {
        Some((_, rust_ty)) => quote!(#rust_ty),
        None => quote!(#rt::RecordIdKey),
    };
    let permissions = ir_tokens::option(&table.permissions, ir_tokens::permissions);
    let indexes = table.indexes.iter().map(|i| ir_tokens::index(&i.index));
    quote! {
        #[automatically_derived]
        impl #rt::Table for #ident {
            const TABLE: &'static str = #name;
            const FIELDS: &'static [&'static str] = &[#(#field_names),*];
            type Key = #key_type;
            fn table_ir() -> ::surqlc::ir::Table {
                ::surqlc::ir::Table {
                    name: ::std::string::String::from(#name),
                    rust_name: ::std::string::String::from(#rust_name),
                    comment: #comment,
                    kind: #kind,
                    schemaless: #schemaless,
                    enforced: #enforced,
                    id: #id_type,
                    permissions: #permissions,
                    fields: ::std::vec![#(#fields),*],
                    indexes: ::std::vec![#(#indexes),*],
                    aka: ::std::vec![#(#table_aka),*],
                    owner: #owner,
                    view: #view,
                    renamed_from: #table_renamed_from,
                }
            }
        }
    }
}

/// A field's `ir::Field` as an expression. What its type names is asked of that type's impl: a
/// Literal enum's docs reach the comment and an Object's sub-fields the field, as in the compiler.
fn ir_field(f: &surqlc::front::ast::FieldAst) -> Tokens {
    let name = string(&f.name);
    let rust_name = string(&f.ident.to_string());
    let ty = field_type(&f.ty);
    let comment = option_string(&f.comment);
    let rt = quote!(::surqlc::runtime);
    let (comment, fields) = match f.ty.named() {
        Some(path) => (
            quote_spanned! {path.span()=>
                ::surqlc::__private::field_comment(#comment, <#path as #rt::SurqlType>::meaning())
            },
            quote_spanned! {path.span()=> <#path as #rt::SurqlType>::fields() },
        ),
        None => (comment, quote!(::std::vec::Vec::new())),
    };
    let clauses = ir_tokens::field_clauses(&f.clauses);
    let aka = f.aka.iter().map(|w| string(w));
    let renamed_from = option_string(&f.renamed_from);
    quote! {
        ::surqlc::ir::Field {
            name: #name, rust_name: #rust_name, ty: #ty, comment: #comment, clauses: #clauses,
            aka: ::std::vec![#(#aka),*], fields: #fields, renamed_from: #renamed_from,
        }
    }
}

/// `impl TableField<N>` for each declared field: its Rust type, for the generated input structs.
fn field_impls(table: &TableAst) -> Tokens {
    let ident = &table.ident;
    let rt = quote!(::surqlc::runtime);
    let impls = table.fields.iter().enumerate().map(|(n, f)| {
        let n = proc_macro2::Literal::usize_unsuffixed(n);
        let ty = &f.rust_ty;
        let (optional, body) = if is_option(ty) {
            (quote!(#ty), quote!(value))
        } else {
            (
                quote!(::std::option::Option<#ty>),
                quote!(::std::option::Option::Some(value)),
            )
        };
        quote_spanned! {ty.span()=>
            #[automatically_derived]
            impl #rt::TableField<#n> for #ident {
                type Rust = #ty;
                type Optional = #optional;
                fn optional(value: Self::Rust) -> Self::Optional {
                    #body
                }
            }
        }
    });
    quote!(#(#impls)*)
}

/// Whether a field's Rust type is written as an `Option<...>` (`Option`, `std::option::Option`).
fn is_option(ty: &syn::Type) -> bool {
    let syn::Type::Path(tp) = ty else { return false };
    tp.qself.is_none()
        && tp
            .path
            .segments
            .last()
            .is_some_and(|seg| seg.ident == "Option" && matches!(seg.arguments, syn::PathArguments::AngleBracketed(_)))
}

/// `impl RelationEnds` on a relation: its `r#in` and `out` types, for the generated `relate`.
fn ends_impl(table: &TableAst) -> Option<Tokens> {
    let ident = &table.ident;
    let rt = quote!(::surqlc::runtime);
    let end = |e: &EndAst| match e {
        EndAst::Link(p) => quote!(#rt::Link<#p>),
        EndAst::Ends(p) => quote!(#p),
    };
    table.relation.as_ref().map(|(from, to)| {
        let (from, to) = (end(from), end(to));
        quote! {
            #[automatically_derived]
            impl #rt::RelationEnds for #ident {
                type From = #from;
                type To = #to;
            }
        }
    })
}

/// `impl Relation` when both ends are single tables (`Link<T>`).
fn relation_impl(table: &TableAst) -> Option<Tokens> {
    let ident = &table.ident;
    let rt = quote!(::surqlc::runtime);
    let relation = table.relation.as_ref().and_then(|ends| match ends {
        (EndAst::Link(from), EndAst::Link(to)) => Some((from, to)),
        _ => None,
    });
    relation.map(|(from, to)| {
        quote! {
            #[automatically_derived]
            impl #rt::Relation for #ident {
                type In = #from;
                type Out = #to;
            }
        }
    })
}

/// The type's own `TABLE`, one constant per field, and `record(key)`.
fn inherent_impl(table: &TableAst) -> Tokens {
    let ident = &table.ident;
    let name = &table.name;
    let rt = quote!(::surqlc::runtime);
    // One constant per field, named after the Rust field. They share a namespace with `TABLE`, so a
    // field named `table` gets `TABLE_FIELD`; the front end has already refused two fields whose
    // constants would coincide.
    let consts = table.fields.iter().map(|f| {
        let konst = field_const(&f.ident);
        let doc = format!(
            "`{}`: {}",
            f.name,
            f.comment.as_deref().unwrap_or("a field of the table.")
        );
        let value = &f.name;
        quote! {
            #[doc = #doc]
            pub const #konst: &'static str = #value;
        }
    });
    let table_doc = format!("The table's name in the database: `{name}`.");
    quote! {
        #[automatically_derived]
        #[allow(dead_code)]
        impl #ident {
            #[doc = #table_doc]
            pub const TABLE: &'static str = #name;
            #(#consts)*

            /// The typed record id `table:key` of this table (the key has the type of the struct's `id`).
            // A table may well be called `Record` (a call recording, a medical record).
            #[allow(clippy::self_named_constructors)]
            pub fn record(key: impl ::std::convert::Into<<Self as #rt::Table>::Key>) -> #rt::Link<Self> {
                #rt::Link::new(#rt::RecordKey::into_key(::std::convert::Into::<<Self as #rt::Table>::Key>::into(key)))
            }
        }
    }
}

/// `impl SurrealValue`: reading and writing rows.
fn value_impl(table: &TableAst) -> Tokens {
    let ident = &table.ident;
    let name = &table.name;
    let rt = quote!(::surqlc::runtime);
    // Reading and writing rows: the declared fields under their database names,
    // plus the record id and a relation's ends when the struct has them.
    // Each conversion is spanned at the field's type, so a type without a SurrealValue impl is
    // reported at the field rather than at the derive.
    let mut columns: Vec<(Tokens, String, proc_macro2::Span)> = Vec::new();
    if table.has_id {
        columns.push((quote!(id), "id".into(), ident.span()));
    }
    if table.relation.is_some() {
        columns.push((quote!(r#in), "in".into(), ident.span()));
        columns.push((quote!(out), "out".into(), ident.span()));
    }
    for f in &table.fields {
        let member = member(&f.ident);
        columns.push((quote!(#member), f.name.clone(), f.rust_ty.span()));
    }
    let name_lit = name;
    // A COMPUTED field is read, never written: the engine computes it on every read.
    let computed: Vec<&str> = table
        .fields
        .iter()
        .filter(|f| f.clauses.computed.is_some())
        .map(|f| f.name.as_str())
        .collect();
    let typed_id = table.id.is_some();
    let writes = columns.iter().map(|(member, name, span)| {
        if typed_id && name == "id" && member.to_string() == "id" {
            quote_spanned!(*span=> writer.key("id", #name_lit, self.id);)
        } else if computed.contains(&name.as_str()) {
            quote_spanned!(*span=> let _ = self.#member;)
        } else {
            quote_spanned!(*span=> writer.field(#name, self.#member);)
        }
    });
    let reads = columns.iter().map(|(member, name, span)| {
        if typed_id && name == "id" && member.to_string() == "id" {
            quote_spanned!(*span=> id: reader.key("id")?,)
        } else {
            quote_spanned!(*span=> #member: reader.field(#name)?,)
        }
    });
    let skipped = table.skipped.iter().map(|s| {
        let s = member(s);
        quote!(#s: ::std::default::Default::default(),)
    });
    quote! {
        #[automatically_derived]
        impl #rt::SurrealValue for #ident {
            fn kind_of() -> #rt::surrealdb::types::Kind {
                #rt::surrealdb::types::Kind::Object
            }

            fn into_value(self) -> #rt::Value {
                let mut writer = #rt::ObjectWriter::new();
                #(#writes)*
                writer.finish()
            }

            fn from_value(value: #rt::Value) -> ::std::result::Result<Self, #rt::surrealdb::Error> {
                let mut reader = #rt::ObjectReader::new(#name, value)?;
                ::std::result::Result::Ok(#ident {
                    #(#reads)*
                    #(#skipped)*
                })
            }
        }
    }
}

/// `impl SurqlType` (`object`, its sub-fields, its doc as the meaning every field of its type
/// carries) and `impl SurrealValue` (the object read and written under the database names).
fn object_impls(object: &ObjectAst) -> Tokens {
    let ident = &object.ident;
    let rust_name = ident.to_string();
    let rt = quote!(::surqlc::runtime);
    let fields = object.fields.iter().map(ir_field);
    let meaning = surqlc::surql::meaning::of_enum(object.comment.as_deref(), []).map(|m| {
        let m = string(&m);
        quote! {
            fn meaning() -> ::std::option::Option<::std::string::String> {
                ::std::option::Option::Some(#m)
            }
        }
    });
    let writes = object.fields.iter().map(|f| {
        let member = member(&f.ident);
        let name = &f.name;
        quote_spanned!(f.rust_ty.span()=> writer.field(#name, self.#member);)
    });
    let reads = object.fields.iter().map(|f| {
        let member = member(&f.ident);
        let name = &f.name;
        quote_spanned!(f.rust_ty.span()=> #member: reader.field(#name)?,)
    });
    let skipped = object.skipped.iter().map(|s| {
        let s = member(s);
        quote!(#s: ::std::default::Default::default(),)
    });
    quote! {
        #[automatically_derived]
        impl #rt::SurqlType for #ident {
            fn surql_type() -> ::surqlc::ir::Type {
                ::surqlc::ir::Type::Object
            }
            fn fields() -> ::std::vec::Vec<::surqlc::ir::Field> {
                ::std::vec![#(#fields),*]
            }
            #meaning
        }

        #[automatically_derived]
        impl #rt::SurrealValue for #ident {
            fn kind_of() -> #rt::surrealdb::types::Kind {
                #rt::surrealdb::types::Kind::Object
            }

            fn into_value(self) -> #rt::Value {
                let mut writer = #rt::ObjectWriter::new();
                #(#writes)*
                writer.finish()
            }

            fn from_value(value: #rt::Value) -> ::std::result::Result<Self, #rt::surrealdb::Error> {
                let mut reader = #rt::ObjectReader::new(#rust_name, value)?;
                ::std::result::Result::Ok(#ident {
                    #(#reads)*
                    #(#skipped)*
                })
            }
        }
    }
}

fn literal_impls(literal: &EnumAst) -> Tokens {
    let ident = &literal.ident;
    let rust_name = ident.to_string();
    let rt = quote!(::surqlc::runtime);
    let values: Vec<&String> = literal.variants.iter().map(|(_, v, _, _)| v).collect();
    let variants: Vec<&syn::Ident> = literal.variants.iter().map(|(v, _, _, _)| v).collect();
    let value_strings = values.iter().map(|v| string(v));
    // Computed here by the compiler's own rule, so the derive's comments are the compiler's.
    let meaning = surqlc::surql::meaning::of_literal(&literal.to_ir()).map(|m| {
        let m = string(&m);
        quote! {
            fn meaning() -> ::std::option::Option<::std::string::String> {
                ::std::option::Option::Some(#m)
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #rt::Literal for #ident {
            const VALUES: &'static [&'static str] = &[#(#values),*];
            fn as_str(&self) -> &'static str {
                match self {
                    #(#ident::#variants => #values,)*
                }
            }
            fn from_str(value: &str) -> ::std::option::Option<Self> {
                match value {
                    #(#values => ::std::option::Option::Some(#ident::#variants),)*
                    _ => ::std::option::Option::None,
                }
            }
        }

        #[automatically_derived]
        impl #rt::SurqlType for #ident {
            fn surql_type() -> ::surqlc::ir::Type {
                ::surqlc::ir::Type::Literal(::std::vec![#(#value_strings),*])
            }
            #meaning
        }

        #[automatically_derived]
        impl #rt::SurrealValue for #ident {
            fn kind_of() -> #rt::surrealdb::types::Kind {
                #rt::literal_kind::<Self>()
            }

            fn into_value(self) -> #rt::Value {
                #rt::Value::String(::std::string::String::from(#rt::Literal::as_str(&self)))
            }

            fn from_value(value: #rt::Value) -> ::std::result::Result<Self, #rt::surrealdb::Error> {
                #rt::literal_from_value::<Self>(#rust_name, value)
            }
        }
    }
}

fn ends_impls(ends: &EndsAst) -> Tokens {
    let ident = &ends.ident;
    let rust_name = ident.to_string();
    let rt = quote!(::surqlc::runtime);
    let variants: Vec<&syn::Ident> = ends.variants.iter().map(|(v, _)| v).collect();
    let targets: Vec<&syn::Path> = ends.variants.iter().map(|(_, t)| t).collect();
    quote! {
        #[automatically_derived]
        impl #rt::Ends for #ident {
            fn tables() -> ::std::vec::Vec<::std::string::String> {
                ::std::vec![#(::std::string::String::from(<#targets as #rt::Table>::TABLE)),*]
            }
        }

        #[automatically_derived]
        impl #rt::SurqlType for #ident {
            fn surql_type() -> ::surqlc::ir::Type {
                ::surqlc::__private::ends_type(<Self as #rt::Ends>::tables())
            }
        }

        #(
            #[automatically_derived]
            impl ::std::convert::From<#rt::Link<#targets>> for #ident {
                fn from(link: #rt::Link<#targets>) -> Self {
                    #ident::#variants(link)
                }
            }
        )*

        #[automatically_derived]
        impl #rt::SurrealValue for #ident {
            fn kind_of() -> #rt::surrealdb::types::Kind {
                #rt::surrealdb::types::Kind::Record(::std::vec![#(<#targets as #rt::Table>::TABLE.into()),*])
            }

            fn into_value(self) -> #rt::Value {
                match self {
                    #(#ident::#variants(link) => #rt::SurrealValue::into_value(link),)*
                }
            }

            fn from_value(value: #rt::Value) -> ::std::result::Result<Self, #rt::surrealdb::Error> {
                let table = #rt::record_table(&value).map(::std::borrow::ToOwned::to_owned);
                #(
                    if table.as_deref() == ::std::option::Option::Some(<#targets as #rt::Table>::TABLE) {
                        return ::std::result::Result::Ok(#ident::#variants(#rt::SurrealValue::from_value(value)?));
                    }
                )*
                ::std::result::Result::Err(#rt::ends_mismatch(#rust_name, &<Self as #rt::Ends>::tables(), &value))
            }
        }
    }
}

fn schema_impls(schema: &SchemaAst) -> Tokens {
    let ident = &schema.ident;
    let name = surqlc::front::ast::schema_name(ident);
    let rt = quote!(::surqlc::runtime);
    // The settings name types and fields; naming them here makes rustc check they exist.
    let exposed = schema
        .attrs
        .expose
        .iter()
        .flatten()
        .map(|path| quote_spanned!(path.span()=> let _ = <#path as #rt::Table>::TABLE;));
    let always = schema
        .attrs
        .prune_always
        .iter()
        .flatten()
        .map(|path| quote_spanned!(path.span()=> let _ = <#path as #rt::Table>::TABLE;));
    let hints = schema
        .attrs
        .value_hints
        .iter()
        .flat_map(|h| h.hints.iter())
        .filter_map(|hint| {
            use surqlc::front::clauses::HintAttr;
            let path = match hint {
                HintAttr::Distinct(p, _) | HintAttr::Range(p) => p,
                HintAttr::Ids(p, _) => {
                    let p = &p.path;
                    return Some(quote_spanned!(p.span()=> let _ = <#p as #rt::Table>::TABLE;));
                }
                HintAttr::Note(_) => return None,
            };
            let segments = &path.path.segments;
            let (ty, field) = match segments.len() {
                2 => (&segments[0].ident, &segments[1].ident),
                _ => return None,
            };
            let field = syn::ext::IdentExt::unraw(field);
            let konst = field_const(&field);
            Some(quote_spanned!(path.span()=> let _ = #ty::#konst;))
        });
    let doc = format!("The schema's name: `{name}`.");
    quote! {
        #[automatically_derived]
        #[allow(dead_code)]
        impl #ident {
            #[doc = #doc]
            pub const NAME: &'static str = #name;
        }

        const _: fn() = || {
            #(#exposed)*
            #(#always)*
            #(#hints)*
        };
    }
}
