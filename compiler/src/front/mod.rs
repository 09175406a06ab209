//! The front end: Rust source in, `ir::Schema` or every error out. Shared by the CLI, `build.rs` and the derives.
//!
//! `attr` reads attributes, `ast` reads one item (its field types through `types`),
//! `settings` holds the rules for the `Schema` item's values, `resolve` ties items
//! together; `ctxt` collects errors so a run reports all of them; `suggest` finds the
//! name a typo meant and `unsupported` says how to write what surqlc cannot map.

pub mod ast;
pub mod attr;
pub mod clauses;
pub mod ctxt;
pub mod definitions;
pub mod ends;
pub mod expr_check;
pub mod functions;
mod names;
mod objects;
mod owner_routes;
pub mod positions;
pub(crate) mod read;
mod rename;
pub mod resolve;
pub mod schema_attrs;
pub mod schema_checks;
mod scope;
mod settings;
pub mod suggest;
pub mod types;
pub mod unsupported;
mod views;

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::ir;
use ctxt::Ctxt;
use std::path::{Path, PathBuf};

/// A schema file's path (as it should appear in errors) and text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
}

impl SourceFile {
    pub fn read(path: impl AsRef<Path>) -> Result<SourceFile, Diagnostics> {
        let path = path.as_ref();
        if path.extension().is_some_and(|e| e == "surql") {
            return Err(Diagnostics(vec![Diagnostic::whole_file(
                path,
                "this is a SurrealQL file, but surqlc reads Rust schema files (.rs); to load data into the database, pass it with --seed",
            )]));
        }
        std::fs::read_to_string(path)
            .map(|text| SourceFile {
                path: path.to_owned(),
                text,
            })
            .map_err(|e| {
                Diagnostics(vec![Diagnostic::whole_file(
                    path,
                    format!("cannot read the schema file: {e}"),
                )])
            })
    }
}

/// Reads `files` as one schema. The schema's name is the `#[derive(Schema)]` type's, else the first file's stem.
pub fn compile(files: &[SourceFile]) -> Result<ir::Schema, Diagnostics> {
    compile_with_warnings(files).map(|(schema, _)| schema)
}

/// As [`compile`], also returning the lints (warnings with a position and a one-line why).
pub fn compile_with_warnings(files: &[SourceFile]) -> Result<(ir::Schema, Vec<Diagnostic>), Diagnostics> {
    compile_with_positions(files).map(|(schema, warnings, _)| (schema, warnings))
}

/// As [`compile_with_warnings`], also returning where each table and field was declared.
pub fn compile_with_positions(
    files: &[SourceFile],
) -> Result<(ir::Schema, Vec<Diagnostic>, positions::Positions), Diagnostics> {
    // syn parses recursively: deeply nested types that rustc accepts would overflow a small
    // stack (a build script's main thread, a test thread), so parse on a thread with room.
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("surqlc-front".into())
            .stack_size(256 << 20)
            .spawn_scoped(scope, || compile_here(files))
        {
            Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => compile_here(files),
        }
    })
}

fn compile_here(files: &[SourceFile]) -> Result<(ir::Schema, Vec<Diagnostic>, positions::Positions), Diagnostics> {
    let same = |a: &Path, b: &Path| {
        a == b || matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    };
    for (i, file) in files.iter().enumerate() {
        if files[..i].iter().any(|f| same(&f.path, &file.path)) {
            return Err(Diagnostics(vec![Diagnostic::whole_file(
                &file.path,
                "this schema file is given twice",
            )]));
        }
    }
    let cxs: Vec<Ctxt> = files.iter().map(|_| Ctxt::new()).collect();
    let mut items = ast::Items::new();
    let mut parse_failed = false;
    for (i, file) in files.iter().enumerate() {
        match syn::parse_file(&file.text) {
            Ok(parsed) => collect(&cxs[i], i, &parsed.items, &mut items),
            Err(err) => {
                parse_failed = true;
                cxs[i].syn_error(err);
            }
        }
    }
    // Items with attribute errors still take part in resolving (an item that could not be read
    // at all is remembered as broken, so naming it is not a second error): one run reports all.
    let default_name = files
        .first()
        .and_then(|f| f.path.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "schema".into());
    let schema = if parse_failed {
        None
    } else {
        Some(resolve::resolve(&cxs, &items, &default_name))
    };
    let (functions, mut diagnostics) = if parse_failed {
        (Vec::new(), Vec::new())
    } else {
        functions::read(&cxs, &items, files)
    };
    let schema = schema.map(|schema| ir::Schema { functions, ..schema });
    let mut warnings = Vec::new();
    for (cx, file) in cxs.iter().zip(files) {
        for w in cx.take_warnings() {
            warnings.extend(
                Diagnostic::from_syn(&file.path, &file.text, w)
                    .into_iter()
                    .map(|d| Diagnostic {
                        severity: crate::codes::Severity::Warning,
                        ..d
                    }),
            );
        }
    }
    for (cx, file) in cxs.into_iter().zip(files) {
        if let Err(errors) = cx.check() {
            for err in errors {
                diagnostics.extend(Diagnostic::from_syn(&file.path, &file.text, err));
            }
        }
    }
    match schema {
        Some(schema) if diagnostics.is_empty() => {
            if schema.tables.is_empty() {
                let path = files.first().map(|f| f.path.as_path()).unwrap_or(Path::new("<none>"));
                return Err(Diagnostics(vec![Diagnostic::whole_file(
                    path,
                    "no tables found: mark a struct with #[derive(Table)] or #[derive(Relation)]",
                )]));
            }
            Ok((schema, warnings, positions::Positions::of(files, &items)))
        }
        _ => Err(Diagnostics(diagnostics)),
    }
}

/// Gathers surqlc items, descending into inline modules.
fn collect(cx: &Ctxt, file: usize, syn_items: &[syn::Item], items: &mut ast::Items) {
    for item in syn_items {
        let input: syn::DeriveInput = match item {
            syn::Item::Struct(s) => s.clone().into(),
            syn::Item::Enum(e) => e.clone().into(),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect(cx, file, inner, items);
                }
                continue;
            }
            _ => continue,
        };
        match attr::surqlc_derive(cx, &input.attrs) {
            Some((kind, _)) => {
                read::reject_cfg(cx, &input.attrs);
                match ast::Container::from_derive_input(cx, &input, kind) {
                    Some(container) => items.push(file, container),
                    None => items.broken.push(input.ident.to_string()),
                }
            }
            None => {
                items
                    .plain
                    .insert(input.ident.to_string(), unsupported::classify(&input));
                if let Some(a) = input.attrs.iter().find(|a| a.path().is_ident("surqlc")) {
                    cx.error_spanned_by(a, format!("`{}` has #[surqlc(...)] but no surqlc derive (Table, Relation, Object, Literal, Ends or Schema)", input.ident));
                }
            }
        }
    }
}
