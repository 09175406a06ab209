//! What the items' type names stand for (tables, Literal and Ends enums, Objects), and a field type written with them settled to the IR's, or an error that says what to write.

use super::ast::{Items, TableAst, TypeAst};
use super::ctxt::Ctxt;
use super::suggest::did_you_mean;
use super::unsupported::{self, Plain};
use crate::ir;
use std::collections::BTreeMap;

pub(super) fn last_ident(path: &syn::Path) -> String {
    path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default()
}

/// What the items' type names stand for: tables (Rust name -> table name), literal enums, the
/// tables each Ends enum links to, and Object structs (with their file). Duplicate names are
/// reported while collecting.
pub(super) struct Names<'a> {
    pub(super) items: &'a Items,
    pub(super) tables: BTreeMap<String, String>,
    pub(super) enums: BTreeMap<String, ir::LiteralEnum>,
    ends: BTreeMap<String, Vec<String>>,
    pub(super) objects: BTreeMap<String, (usize, &'a super::ast::ObjectAst)>,
}

impl<'a> Names<'a> {
    pub(super) fn collect(cxs: &[Ctxt], items: &'a Items) -> Self {
        let mut names = Names {
            items,
            tables: BTreeMap::new(),
            enums: BTreeMap::new(),
            ends: BTreeMap::new(),
            objects: BTreeMap::new(),
        };
        let mut by_db_name: BTreeMap<&str, &TableAst> = BTreeMap::new();
        for (file, t) in &items.tables {
            let cx = &cxs[*file];
            if let Some(first) = by_db_name.get(t.name.as_str()) {
                cx.error_at(
                    t.name_span,
                    format!("two tables are named `{}`: `{}` and `{}`", t.name, first.ident, t.ident),
                );
            } else {
                by_db_name.insert(&t.name, t);
            }
            if names.tables.insert(t.ident.to_string(), t.name.clone()).is_some() {
                cx.error_spanned_by(&t.ident, format!("the type name `{}` is declared twice", t.ident));
            }
        }
        for (file, e) in &items.enums {
            if names.enums.insert(e.ident.to_string(), e.to_ir()).is_some()
                || names.tables.contains_key(&e.ident.to_string())
            {
                cxs[*file].error_spanned_by(&e.ident, format!("the type name `{}` is declared twice", e.ident));
            }
        }
        for (file, o) in &items.objects {
            let name = o.ident.to_string();
            if names.tables.contains_key(&name)
                || names.enums.contains_key(&name)
                || names.objects.insert(name.clone(), (*file, o)).is_some()
            {
                cxs[*file].error_spanned_by(&o.ident, format!("the type name `{name}` is declared twice"));
            }
        }
        // Each Ends enum as the tables its variants link to.
        for (file, e) in &items.ends {
            let tables: Option<Vec<String>> = e
                .variants
                .iter()
                .map(|(_, path)| names.link(&cxs[*file], path))
                .collect();
            if let Some(tables) = tables {
                names.ends.insert(e.ident.to_string(), tables);
            }
        }
        names
    }

    fn is_ends_enum(&self, name: &str) -> bool {
        self.items.ends.iter().any(|(_, e)| e.ident == name)
    }

    /// The table a `Link<T>` points at, or an error at `T`.
    fn link(&self, cx: &Ctxt, path: &syn::Path) -> Option<String> {
        let name = last_ident(path);
        match self.tables.get(&name) {
            Some(table) => Some(table.clone()),
            None if self.items.broken.contains(&name) => None,
            None if self.enums.contains_key(&name) => {
                cx.error_spanned_by(
                    path,
                    format!("`{name}` is a literal enum, not a table; a link must point at a Table or Relation"),
                );
                None
            }
            None if self.objects.contains_key(&name) => {
                cx.error_spanned_by(
                    path,
                    format!(
                        "`{name}` is an Object, stored inside the row, not a table: \
                    write `{name}` as the field's type (or derive Table on it to link its rows)"
                    ),
                );
                None
            }
            None => {
                cx.error_spanned_by(
                    path,
                    format!(
                        "`{name}` is not a table in this schema (derive Table or Relation on it){}",
                        did_you_mean(&name, self.tables.keys())
                    ),
                );
                None
            }
        }
    }

    /// The tables a relation's end may be.
    pub(super) fn end(&self, cx: &Ctxt, e: &super::ast::EndAst) -> Option<Vec<String>> {
        match e {
            super::ast::EndAst::Link(path) => Some(vec![self.link(cx, path)?]),
            super::ast::EndAst::Ends(path) => {
                let name = last_ident(path);
                if let Some(tables) = self.ends.get(&name) {
                    return Some(tables.clone());
                }
                if !self.items.broken.contains(&name) && !self.is_ends_enum(&name) {
                    cx.error_spanned_by(
                        path,
                        format!(
                            "`{name}` is not an enum deriving Ends; a relation's end is \
                        `Link<T>` or an Ends enum of links"
                        ),
                    );
                }
                None
            }
        }
    }

    /// A field's type in the IR, or `None` once its error is recorded.
    pub(super) fn ty(&self, cx: &Ctxt, t: &TypeAst) -> Option<ir::Type> {
        Some(match t {
            TypeAst::Known(k) => k.clone(),
            TypeAst::Raw(r) => ir::Type::Raw(r.clone()),
            TypeAst::Option(inner) => ir::Type::Option(Box::new(self.ty(cx, inner)?)),
            TypeAst::Array(inner, n) => ir::Type::Array(Box::new(self.ty(cx, inner)?), *n),
            TypeAst::Link(path) => ir::Type::Record(self.link(cx, path)?),
            TypeAst::Named(path) => return self.named_type(cx, path),
        })
    }

    /// A field type named by path: an Ends enum's links, a literal enum, or an error that says
    /// what to write instead.
    fn named_type(&self, cx: &Ctxt, path: &syn::Path) -> Option<ir::Type> {
        let name = last_ident(path);
        if let Some(tables) = self.ends.get(&name) {
            return Some(match tables.as_slice() {
                [one] => ir::Type::Record(one.clone()),
                _ => ir::Type::Records(tables.clone()),
            });
        }
        if self.is_ends_enum(&name) {
            // Its variants' errors are already recorded.
            return None;
        }
        if let Some(e) = self.enums.get(&name) {
            return Some(e.ty());
        }
        if self.objects.contains_key(&name) {
            // Its sub-fields are `objects::field`'s.
            return Some(ir::Type::Object);
        }
        if self.items.broken.contains(&name) {
            return None;
        }
        if self.tables.contains_key(&name) {
            cx.error_spanned_by(
                path,
                format!("`{name}` is a table; link to its rows with `Link<{name}>`"),
            );
            return None;
        }
        let what = self.items.plain.get(&name).copied();
        // A name that is no item of the files may be a typo of a surqlc type's.
        let near = match what {
            Some(_) => String::new(),
            None => did_you_mean(&name, self.enums.keys().chain(self.tables.keys())),
        };
        // A likely typo gets the name alone; the escape hatches are for real types. A path of
        // another crate (`serde_json::Value`) or a dynamic value type is stored untyped.
        let foreign =
            what.is_none() && (path.segments.len() > 1 || matches!(name.as_str(), "Value" | "JsonValue" | "Map"));
        let message = if foreign && near.is_empty() {
            let shown = quote::ToTokens::to_token_stream(path).to_string().replace(' ', "");
            format!("unsupported field type `{shown}`: {}", unsupported::foreign(&shown))
        } else if near.is_empty() {
            format!(
                "unsupported field type `{name}`: {}",
                unsupported::named(&name, what.unwrap_or(Plain::Unknown))
            )
        } else {
            format!("unsupported field type `{name}`{near}")
        };
        cx.error_spanned_by(path, message);
        None
    }
}
