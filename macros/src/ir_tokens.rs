//! `surqlc::ir` values known at expansion time (clauses, permissions, indexes) as Rust expressions that rebuild them.

use proc_macro2::TokenStream as Tokens;
use quote::quote;
use surqlc::ir;

pub fn string(s: &str) -> Tokens {
    quote!(::std::string::String::from(#s))
}

pub fn option<T>(v: &Option<T>, f: impl Fn(&T) -> Tokens) -> Tokens {
    match v {
        Some(v) => {
            let v = f(v);
            quote!(::std::option::Option::Some(#v))
        }
        None => quote!(::std::option::Option::None),
    }
}

fn permission(p: &ir::Permission) -> Tokens {
    let t = quote!(::surqlc::ir::Permission);
    match p {
        ir::Permission::None => quote!(#t::None),
        ir::Permission::Full => quote!(#t::Full),
        ir::Permission::Where(e) => {
            let e = string(e);
            quote!(#t::Where(#e))
        }
    }
}

pub fn permissions(p: &ir::Permissions) -> Tokens {
    let select = option(&p.select, permission);
    let create = option(&p.create, permission);
    let update = option(&p.update, permission);
    let delete = option(&p.delete, permission);
    quote! {
        ::surqlc::ir::Permissions { select: #select, create: #create, update: #update, delete: #delete }
    }
}

pub fn field_clauses(c: &ir::FieldClauses) -> Tokens {
    if c.is_empty() {
        return quote!(::std::default::Default::default());
    }
    let default = option(&c.default, |d| {
        let e = string(&d.expr);
        let always = d.always;
        quote!(::surqlc::ir::FieldDefault { expr: #e, always: #always })
    });
    let value = option(&c.value, |e| string(e));
    let computed = option(&c.computed, |e| string(e));
    let assert = option(&c.assert, |e| string(e));
    let readonly = c.readonly;
    let flexible = c.flexible;
    let reference = option(&c.reference, |r| {
        let on_delete = option(&r.on_delete, |d| {
            let t = quote!(::surqlc::ir::OnDelete);
            match d {
                ir::OnDelete::Reject => quote!(#t::Reject),
                ir::OnDelete::Cascade => quote!(#t::Cascade),
                ir::OnDelete::Ignore => quote!(#t::Ignore),
                ir::OnDelete::Unset => quote!(#t::Unset),
                ir::OnDelete::Then(e) => {
                    let e = string(e);
                    quote!(#t::Then(#e))
                }
            }
        });
        quote!(::surqlc::ir::Reference { on_delete: #on_delete })
    });
    let perms = option(&c.permissions, permissions);
    quote! {
        ::surqlc::ir::FieldClauses {
            default: #default,
            value: #value,
            computed: #computed,
            assert: #assert,
            readonly: #readonly,
            flexible: #flexible,
            reference: #reference,
            permissions: #perms,
        }
    }
}

fn u32_opt(v: Option<u32>) -> Tokens {
    option(&v, |n| quote!(#n))
}

pub fn index(i: &ir::Index) -> Tokens {
    let name = string(&i.name);
    let fields = i.fields.iter().map(|f| string(f));
    let t = quote!(::surqlc::ir::IndexKind);
    let kind = match &i.kind {
        ir::IndexKind::Plain => quote!(#t::Plain),
        ir::IndexKind::Unique => quote!(#t::Unique),
        ir::IndexKind::FullText {
            analyzer,
            bm25,
            highlights,
        } => {
            let analyzer = string(analyzer);
            let bm25 = option(bm25, |(k1, b)| quote!((#k1, #b)));
            quote!(#t::FullText { analyzer: #analyzer, bm25: #bm25, highlights: #highlights })
        }
        ir::IndexKind::Hnsw(h) => {
            let dimension = h.dimension;
            let dist = string(&h.dist);
            let vt = string(&h.vector_type);
            let efc = u32_opt(h.efc);
            let m = u32_opt(h.m);
            quote!(#t::Hnsw(::surqlc::ir::Hnsw {
                dimension: #dimension, dist: #dist, vector_type: #vt, efc: #efc, m: #m
            }))
        }
    };
    quote!(::surqlc::ir::Index { name: #name, fields: ::std::vec![#(#fields),*], kind: #kind })
}
