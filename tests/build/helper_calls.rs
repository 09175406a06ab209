//! Reads each generated module back with syn and writes one typed call of every per-table helper it
//! holds (`get`, `get_by_key`, `find_by_*`, `search_*`, `nearest_*`, `select`, traversals) into
//! `helper_calls.rs`, which `tests/every_helper.rs` runs on the engine with the schema's seed.
//!
//! The calls are read off the generated text, not off the generator's own list: a helper that
//! the module holds and this file cannot call fails the build, so none is left out in silence.

use quote::ToTokens;
use std::fmt::Write as _;

/// One generated module: its name in the test, where its text is, and the Rust path of the
/// module the test includes it as.
pub struct Module<'a> {
    pub name: &'a str,
    pub file: std::path::PathBuf,
    pub path: String,
}

/// The write helpers issue 51's typed inputs add; their own tests run them on the engine.
const WRITES: &[&str] = &["create", "insert", "update", "merge", "upsert", "delete", "relate"];

/// Per module, `async fn NAME_TABLE(db: &Db, report: &mut Report)` per table, calling each of its
/// helpers, and `const NAME: &[Call]` listing them (a list, so no function grows with the schema).
pub fn write(out: &std::path::Path, modules: &[Module]) {
    let mut code = String::new();
    for m in modules {
        let text = std::fs::read_to_string(&m.file).unwrap_or_else(|e| panic!("{}: {e}", m.file.display()));
        let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", m.file.display()));
        let mut list = Vec::new();
        for item in &file.items {
            if let syn::Item::Mod(table) = item {
                if let Some(function) = table_calls(&mut code, m, table) {
                    list.push(format!("    |db, report| Box::pin({function}(db, report)),\n"));
                }
            }
        }
        let _ = writeln!(
            code,
            "pub const {}: &[Call] = &[\n{}];\n",
            m.name.to_uppercase(),
            list.concat()
        );
    }
    std::fs::write(out.join("helper_calls.rs"), code).expect("helper_calls.rs written");
}

/// The function calling the helpers of one table module (one with `pub type Row`), by name;
/// nothing for the others (`queries`).
fn table_calls(code: &mut String, m: &Module, table: &syn::ItemMod) -> Option<String> {
    let (_, items) = table.content.as_ref()?;
    let is_table = items
        .iter()
        .any(|i| matches!(i, syn::Item::Type(t) if t.ident == "Row"));
    if !is_table {
        return None;
    }
    let module = format!("{}::{}", m.path, table.ident);
    let function = format!("{}_{}", m.name, table.ident.to_string().trim_start_matches("r#"));
    let _ = writeln!(
        code,
        "pub async fn {function}(db: &Db, report: &mut Report) {{\n    let mut t = Table::<{module}::Row>::new(db, \"{}\", \"{}\").await;",
        m.name, table.ident
    );
    for item in items {
        if let syn::Item::Fn(f) = item {
            code.push_str(&call(&module, f));
        }
    }
    code.push_str("    t.done(report);\n}\n\n");
    Some(function)
}

/// The surrounding test's check of one helper, by its parameters after `db`.
fn call(module: &str, f: &syn::ItemFn) -> String {
    let name = f.sig.ident.to_string();
    let params: Vec<(String, syn::Type)> = f
        .sig
        .inputs
        .iter()
        .skip(1)
        .filter_map(|a| match a {
            syn::FnArg::Typed(p) => Some((p.pat.to_token_stream().to_string(), (*p.ty).clone())),
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let names: Vec<&str> = params.iter().map(|(n, _)| n.as_str()).collect();
    let query = first_string(&f.block);
    let q = format!("{query:?}");
    let helper = format!("{module}::{name}");
    match (name.as_str(), names.as_slice()) {
        // The write helpers change the rows: tests/writes.rs round-trips them.
        (n, _) if WRITES.iter().any(|w| n == *w || n.starts_with(&format!("{w}_"))) => {
            format!("        t.write_helper(\"{name}\");\n")
        }
        ("get", ["id"]) => format!("        t.get(\"get\", async |id| {helper}(db, id).await).await;\n"),
        ("get_by_key", ["key"]) => {
            format!("        t.get_by_key(\"get_by_key\", async |key| {helper}(db, key).await).await;\n")
        }
        ("select", ["limit"]) => format!("        t.select(\"select\", {q}, async |n| {helper}(db, n).await).await;\n"),
        (_, ["id"]) => format!("        t.traverse(\"{name}\", {q}, async |id| {helper}(db, id).await).await;\n"),
        (_, ["query", "limit"]) => {
            format!("        t.search(\"{name}\", {q}, async |w, n| {helper}(db, w, n).await).await;\n")
        }
        (_, ["vector", "k"]) => {
            format!("        t.nearest(\"{name}\", {q}, async |v, k| {helper}(db, v, k).await).await;\n")
        }
        (n, _) if n.starts_with("find_by_") => find_call(&helper, &name, &q, &params),
        _ => panic!("{helper}: a generated helper tests/every_helper.rs does not know how to call; teach tests/build/helper_calls.rs its parameters"),
    }
}

/// A `find_by_*` call: one seed row's values at the index's paths, each read as its parameter's type.
fn find_call(helper: &str, name: &str, query: &str, params: &[(String, syn::Type)]) -> String {
    let mut out = format!("        t.find(\"{name}\", {query}, async |values: Vec<Value>| {{\n");
    let mut args = Vec::new();
    for (i, (_, ty)) in params.iter().enumerate() {
        let (owned, arg) = match ty {
            syn::Type::Reference(r) => {
                let inner = r.elem.to_token_stream().to_string();
                let owned = if inner == "str" { "String".to_owned() } else { inner };
                (owned, format!("&a{i}"))
            }
            other => (other.to_token_stream().to_string(), format!("a{i}")),
        };
        let _ = writeln!(out, "            let a{i} = typed::<{owned}>(&values[{i}]);");
        args.push(arg);
    }
    let _ = writeln!(out, "            {helper}(db, {}).await", args.join(", "));
    out.push_str("        }).await;\n");
    out
}

/// The first string literal in a helper's body: the query it sends.
fn first_string(block: &syn::Block) -> String {
    fn first(tokens: proc_macro2::TokenStream) -> Option<String> {
        tokens.into_iter().find_map(|t| match t {
            proc_macro2::TokenTree::Literal(lit) => match syn::Lit::new(lit) {
                syn::Lit::Str(s) => Some(s.value()),
                _ => None,
            },
            proc_macro2::TokenTree::Group(g) => first(g.stream()),
            _ => None,
        })
    }
    first(block.to_token_stream()).unwrap_or_default()
}
