//! Reads a `#[derive(Ends)]` enum (each variant one `Link<T>`): the tables a relation end or a record field may link to.
//!
//! `enum Party { Customer(Link<Customer>), Supplier(Link<Supplier>) }` as a relation's `r#in`
//! gives `TYPE RELATION IN customer | supplier`, and as a field's type `record<customer | supplier>`.

use super::ast::EndsAst;
use super::ctxt::Ctxt;
use super::types::link_target;
use syn::{Data, DeriveInput, Fields};

/// The enum as the tables it links to, in variant order; problems go to `cx`.
pub fn read(cx: &Ctxt, input: &DeriveInput) -> Option<EndsAst> {
    let Data::Enum(data) = &input.data else {
        cx.error_spanned_by(
            &input.ident,
            "derive Ends on an enum whose variants each hold one `Link<T>`",
        );
        return None;
    };
    let mut variants: Vec<(syn::Ident, syn::Path)> = Vec::new();
    for v in &data.variants {
        let target = match &v.fields {
            Fields::Unnamed(f) if f.unnamed.len() == 1 => link_target(&f.unnamed[0].ty),
            _ => None,
        };
        let Some(target) = target else {
            cx.error_spanned_by(
                v,
                format!(
                    "variant `{}` of an Ends enum must hold one `Link<T>`: `{}(Link<{}>)`",
                    v.ident, v.ident, v.ident
                ),
            );
            continue;
        };
        if variants.iter().any(|(_, p)| p == &target) {
            cx.error_spanned_by(&target, "two variants link to the same table");
        }
        variants.push((v.ident.clone(), target));
    }
    if data.variants.is_empty() {
        cx.error_spanned_by(&input.ident, "an Ends enum needs at least one variant");
    }
    Some(EndsAst {
        ident: input.ident.clone(),
        variants,
    })
}

/// `T` for a plain path type `T` (no generics, no `Option`): what may name an Ends enum.
pub fn plain_path(ty: &syn::Type) -> Option<syn::Path> {
    match ty {
        syn::Type::Path(p)
            if p.qself.is_none()
                && p.path
                    .segments
                    .iter()
                    .all(|s| matches!(s.arguments, syn::PathArguments::None)) =>
        {
            Some(p.path.clone())
        }
        _ => None,
    }
}
