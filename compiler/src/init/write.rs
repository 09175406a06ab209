//! The Rust source of the schema file (formatted by prettyplease, its header listing what was left out and what was chosen) and the functions file.

use super::model::Model;
use super::types::{FieldItem, Items, LiteralItem, TableItem};
use super::{InitError, Note, Notes, Options};
use crate::front::attr::RenameRule;
use crate::ir;
use std::fmt::Write as _;

/// The functions file: each function as the engine prints it, in source order.
pub(super) fn functions(model: &Model, options: &Options) -> Option<String> {
    (!model.functions.is_empty()).then(|| {
        let mut out = format!(
            "-- The database's own functions, written by `surqlc init` from {}; named by the schema's `functions = ...`.\n\n",
            options.from
        );
        for f in &model.functions {
            out.push_str(f);
            out.push_str("\n\n");
        }
        out.pop();
        out
    })
}

/// The schema file's text.
pub(super) fn rust(model: &Model, items: &Items, options: &Options, notes: &Notes) -> Result<String, InitError> {
    let mut body = String::new();
    imports(&mut body, model, items);
    schema_item(&mut body, model, items, options, notes);
    let keep_none = kept_none(model, items);
    for (t, item) in model.tables.iter().zip(&items.tables) {
        if let Some(item) = item {
            table(&mut body, t, item, keep_none.contains(&t.def.name));
        }
    }
    for o in &items.objects {
        let _ = writeln!(body, "#[derive(Debug, Clone, Object)] pub struct {} {{", o.rust);
        fields(&mut body, &o.fields);
        body.push_str("}\n");
    }
    for l in &items.literals {
        literal(&mut body, l);
    }
    for e in &items.ends {
        let _ = writeln!(body, "#[derive(Debug, Clone, Ends)] pub enum {} {{", e.rust);
        for (variant, table) in &e.variants {
            let _ = writeln!(body, "{variant}(Link<{table}>),");
        }
        body.push_str("}\n");
    }
    let file = syn::parse_file(&body).map_err(|e| {
        InitError(format!(
            "error: surqlc init wrote Rust that does not parse ({e}); please report it"
        ))
    })?;
    Ok(format!(
        "{}\n{}",
        header(options, notes, !items.literals.is_empty()),
        spaced(&prettyplease::unparse(&file))
    ))
}

fn header(options: &Options, notes: &Notes, literals: bool) -> String {
    let mut out = format!(
        "// The annotated schema `surqlc init` wrote from {}. Review it, then `surqlc build` it.\n",
        options.from
    );
    if literals {
        out.push_str(
            "// Its Literal enums may use serde's renames: the crate that holds it needs serde (with `derive`).\n",
        );
    }
    let list = |out: &mut String, title: &str, list: &[Note]| {
        if !list.is_empty() {
            let _ = writeln!(out, "//\n// {title}");
            for n in list {
                let _ = writeln!(out, "//   {}", n.to_string().replace('\n', " "));
            }
        }
    };
    list(
        &mut out,
        "Left out (the annotation grammar cannot say these; keep them in the database another way):",
        &notes.left_out,
    );
    list(&mut out, "Chosen (the source left a choice):", &notes.choices);
    if notes.own > 0 {
        let _ = writeln!(
            out,
            "//\n// {} of surqlc's own definitions (prompt functions, few-shot pool, agent) skipped: `surqlc build` writes them.",
            notes.own
        );
    }
    out
}

fn imports(out: &mut String, model: &Model, items: &Items) {
    if !items.runtime.is_empty() {
        let names: Vec<&str> = items.runtime.iter().copied().collect();
        let _ = writeln!(out, "use surqlc::runtime::{{{}}};", names.join(", "));
    }
    let mut derives = vec!["Schema"];
    let kinds = |relation: bool| {
        model
            .tables
            .iter()
            .zip(&items.tables)
            .any(|(_, i)| i.as_ref().is_some_and(|i| i.ends.is_some() == relation))
    };
    if kinds(false) {
        derives.push("Table");
    }
    if kinds(true) {
        derives.push("Relation");
    }
    if !items.objects.is_empty() {
        derives.push("Object");
    }
    if !items.literals.is_empty() {
        derives.push("Literal");
    }
    if !items.ends.is_empty() {
        derives.push("Ends");
    }
    derives.sort_unstable();
    let _ = writeln!(out, "use surqlc_macros::{{{}}};", derives.join(", "));
}

fn schema_item(out: &mut String, model: &Model, items: &Items, options: &Options, notes: &Notes) {
    out.push_str(
        "/// The prompt's settings. `expose(...)` lists every table: narrow it to the tables the model should see.\n",
    );
    let mut settings: Vec<String> = Vec::new();
    let exposed: Vec<&str> = items.tables.iter().flatten().map(|t| t.rust.as_str()).collect();
    if !exposed.is_empty() {
        settings.push(format!("expose({})", exposed.join(", ")));
    }
    for a in &model.analyzers {
        let mut s = format!("analyzer(name = {:?}", a.name);
        if !a.tokenizers.is_empty() {
            let _ = write!(s, ", tokenizers({})", a.tokenizers.join(", "));
        }
        if !a.filters.is_empty() {
            let quoted: Vec<String> = a.filters.iter().map(|f| format!("{f:?}")).collect();
            let _ = write!(s, ", filters({})", quoted.join(", "));
        }
        if let Some(c) = &a.comment {
            let _ = write!(s, ", comment = {c:?}");
        }
        s.push(')');
        settings.push(s);
    }
    settings.extend(notes.settings.iter().cloned());
    if !model.functions.is_empty() {
        settings.push(format!("functions = {:?}", options.functions_file));
    }
    out.push_str("#[derive(Schema)]\n");
    if !settings.is_empty() {
        let _ = writeln!(out, "#[surqlc({})]", settings.join(", "));
    }
    let _ = writeln!(out, "pub struct {};", options.schema_type);
}

/// A `COMMENT` as doc comments the front end joins back to the same text: one `///` line per
/// line, an empty `///` line for each line break; text that rule cannot give back exactly (blank
/// lines, spaces at a line's ends) is one `#[doc]` holding it whole.
fn doc(out: &mut String, comment: Option<&String>) {
    let Some(c) = comment else { return };
    let lines: Vec<&str> = c.split('\n').collect();
    let plain = lines.iter().all(|l| !l.is_empty() && l.trim() == *l);
    if lines.len() > 1 && plain {
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                out.push_str("#[doc = \"\"]\n");
            }
            let _ = writeln!(out, "#[doc = {:?}]", format!(" {line}"));
        }
    } else {
        let _ = writeln!(out, "#[doc = {:?}]", format!(" {c}"));
    }
}

/// prettyplease's items with a blank line between top-level items, as rustfmt writes them.
fn spaced(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 20);
    let mut previous_ended = false;
    for line in code.lines() {
        let top = !line.starts_with(' ') && !line.starts_with('}');
        let starts_item = top && (line.starts_with("///") || line.starts_with("#[") || line.starts_with("pub "));
        if starts_item && previous_ended {
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
        previous_ended = !line.starts_with(' ') && (line.ends_with('}') || line.ends_with(';'));
    }
    out
}

/// Whether a select permission limits record users (`NONE` or `WHERE`).
fn limits(select: Option<&ir::Permission>) -> bool {
    matches!(select, Some(ir::Permission::None | ir::Permission::Where(_)))
}

/// Whether a field's `select` limits record users.
fn limits_field(fields: &[FieldItem]) -> bool {
    fields
        .iter()
        .any(|f| limits(f.clauses.permissions.as_ref().and_then(|p| p.select.as_ref())))
}

/// Whether every one of a table's permissions is `NONE` (what no `PERMISSIONS` clause means).
fn all_none(p: &ir::Permissions) -> bool {
    [&p.select, &p.create, &p.update, &p.delete]
        .iter()
        .all(|p| matches!(p, Some(ir::Permission::None) | None))
}

/// The tables (database names) whose source permissions are all `NONE` that must say
/// `permissions(select = none)`: once a table's or field's select limits record users, the build
/// signs the agent in through record access and grants each exposed table whose select is
/// unwritten `FOR select FULL` (`access::Access::table_permissions`), which would open it to
/// every record user (the application's own included). Empty otherwise: there the unwritten
/// default builds `PERMISSIONS NONE`, and writing `none` would itself switch to record access.
pub(super) fn kept_none(model: &Model, items: &Items) -> Vec<String> {
    let written = model.tables.iter().zip(&items.tables).filter(|(_, i)| i.is_some());
    let record_access = written
        .clone()
        .any(|(t, _)| !all_none(&t.def.permissions) && limits(t.def.permissions.select.as_ref()))
        || items.tables.iter().flatten().any(|t| limits_field(&t.fields))
        || items.objects.iter().any(|o| limits_field(&o.fields));
    if !record_access {
        return Vec::new();
    }
    written
        .filter(|(t, _)| all_none(&t.def.permissions))
        .map(|(t, _)| t.def.name.clone())
        .collect()
}

/// A table's struct; `keep_none`: its permissions are all `NONE` and must be written so (`kept_none`).
fn table(out: &mut String, t: &super::model::MTable, item: &TableItem, keep_none: bool) {
    let def = &t.def;
    doc(out, def.comment.as_ref());
    let derive = if item.ends.is_some() { "Relation" } else { "Table" };
    let _ = writeln!(out, "#[derive(Debug, Clone, {derive})]");
    let mut attrs: Vec<String> = Vec::new();
    if let Some(r) = &item.rename {
        attrs.push(format!("rename = {r:?}"));
    }
    if def.schemaless {
        attrs.push("schemaless".into());
    }
    if def.enforced {
        attrs.push("enforced".into());
    }
    if let Some(v) = &def.view {
        attrs.push(format!("view = {v:?}"));
    }
    if !all_none(&def.permissions) {
        attrs.push(permissions(&def.permissions));
    } else if keep_none {
        attrs.push("permissions(select = none)".into());
    }
    for &i in &item.indexes {
        attrs.push(index(&t.indexes[i].0));
    }
    if !attrs.is_empty() {
        let _ = writeln!(out, "#[surqlc({})]", attrs.join(", "));
    }
    let _ = writeln!(out, "pub struct {} {{", item.rust);
    if let Some((i, o)) = &item.ends {
        let _ = writeln!(out, "pub r#in: {i},\npub out: {o},");
    }
    if let Some(id) = &item.id {
        let _ = writeln!(out, "pub id: {id},");
    }
    fields(out, &item.fields);
    out.push_str("}\n");
}

fn permission(p: &ir::Permission) -> String {
    match p {
        ir::Permission::None => "none".into(),
        ir::Permission::Full => "full".into(),
        ir::Permission::Where(e) => format!("{e:?}"),
    }
}

fn permissions(p: &ir::Permissions) -> String {
    let ops = [
        ("select", &p.select),
        ("create", &p.create),
        ("update", &p.update),
        ("delete", &p.delete),
    ];
    let written: Vec<String> = ops
        .iter()
        .filter_map(|(op, p)| p.as_ref().map(|p| format!("{op} = {}", permission(p))))
        .collect();
    format!("permissions({})", written.join(", "))
}

/// A name or path as the attribute's `fields(...)` takes it (`r#type` for a keyword, no `*` steps).
fn index_path(path: &str) -> String {
    path.split('.')
        .filter(|s| *s != "*")
        .map(|s| {
            if syn::parse_str::<syn::Ident>(s).is_ok() {
                s.to_owned()
            } else {
                format!("r#{s}")
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn index(i: &super::read::IndexDef) -> String {
    let fields: Vec<String> = i.fields.iter().map(|f| index_path(f)).collect();
    let mut s = format!("index(name = {:?}, fields({})", i.name, fields.join(", "));
    match &i.kind {
        Ok(ir::IndexKind::Plain) | Err(_) => {}
        Ok(ir::IndexKind::Unique) => s.push_str(", unique"),
        Ok(ir::IndexKind::FullText {
            analyzer,
            bm25,
            highlights,
        }) => {
            let _ = write!(s, ", fulltext(analyzer = {analyzer:?}");
            if let Some((k1, b)) = bm25 {
                let _ = write!(s, ", bm25({k1:?}, {b:?})");
            }
            if *highlights {
                s.push_str(", highlights");
            }
            s.push(')');
        }
        Ok(ir::IndexKind::Hnsw(h)) => {
            let _ = write!(
                s,
                ", hnsw(dimension = {}, dist = {:?}, type = {:?}",
                h.dimension,
                h.dist.to_ascii_lowercase(),
                h.vector_type.to_ascii_lowercase()
            );
            if let Some(efc) = h.efc {
                let _ = write!(s, ", efc = {efc}");
            }
            if let Some(m) = h.m {
                let _ = write!(s, ", m = {m}");
            }
            s.push(')');
        }
    }
    s.push(')');
    s
}

fn fields(out: &mut String, list: &[FieldItem]) {
    for f in list {
        doc(out, f.comment.as_ref());
        let attrs = field_attrs(f);
        if !attrs.is_empty() {
            let _ = writeln!(out, "#[surqlc({})]", attrs.join(", "));
        }
        let _ = writeln!(out, "pub {}: {},", f.ident, f.rust);
    }
}

fn field_attrs(f: &FieldItem) -> Vec<String> {
    let mut attrs: Vec<String> = Vec::new();
    if let Some(r) = &f.rename {
        attrs.push(format!("rename = {r:?}"));
    }
    if let Some(raw) = &f.raw {
        attrs.push(format!("type = {raw:?}"));
    }
    let c = &f.clauses;
    if let Some(d) = &c.default {
        attrs.push(format!("default = {:?}", d.expr));
        if d.always {
            attrs.push("default_always".into());
        }
    }
    if let Some(v) = &c.value {
        attrs.push(format!("value = {v:?}"));
    }
    if let Some(v) = &c.computed {
        attrs.push(format!("computed = {v:?}"));
    }
    if let Some(v) = &c.assert {
        attrs.push(format!("assert = {v:?}"));
    }
    if c.readonly {
        attrs.push("readonly".into());
    }
    if c.flexible {
        attrs.push("flexible".into());
    }
    if let Some(r) = &c.reference {
        attrs.push(match &r.on_delete {
            None => "reference".into(),
            Some(ir::OnDelete::Then(e)) => format!("reference(then = {e:?})"),
            Some(other) => {
                let word = match other {
                    ir::OnDelete::Reject => "reject",
                    ir::OnDelete::Cascade => "cascade",
                    ir::OnDelete::Unset => "unset",
                    _ => "ignore",
                };
                format!("reference(on_delete = {word:?})")
            }
        });
    }
    if let Some(p) = &c.permissions {
        attrs.push(permissions(p));
    }
    attrs
}

/// Rules in the order tried: the first under which every variant gives its value back is used.
const RULES: &[(RenameRule, &str)] = &[
    (RenameRule::Pascal, ""),
    (RenameRule::Lower, "lowercase"),
    (RenameRule::Snake, "snake_case"),
    (RenameRule::Kebab, "kebab-case"),
    (RenameRule::ScreamingSnake, "SCREAMING_SNAKE_CASE"),
    (RenameRule::Upper, "UPPERCASE"),
    (RenameRule::Camel, "camelCase"),
    (RenameRule::ScreamingKebab, "SCREAMING-KEBAB-CASE"),
];

fn literal(out: &mut String, l: &LiteralItem) {
    let mut variants: Vec<String> = Vec::new();
    for (i, v) in l.values.iter().enumerate() {
        let mut name = heck::AsUpperCamelCase(v).to_string();
        let valid = syn::parse_str::<syn::Ident>(&name).is_ok() && name != "Self";
        if !valid || variants.contains(&name) {
            name = format!("V{}{}", i + 1, if valid { name } else { String::new() });
        }
        variants.push(name);
    }
    let rule = RULES.iter().find(|(rule, _)| {
        variants
            .iter()
            .zip(&l.values)
            .all(|(n, v)| rule.apply_to_variant(n) == *v)
    });
    let serde = rule.is_none_or(|(_, n)| !n.is_empty());
    let _ = writeln!(
        out,
        "#[derive(Debug, Clone, Copy, PartialEq{}, Literal)]",
        if serde { ", serde::Serialize" } else { "" }
    );
    if let Some((_, name)) = rule.filter(|(_, n)| !n.is_empty()) {
        let _ = writeln!(out, "#[serde(rename_all = {name:?})]");
    }
    let _ = writeln!(out, "pub enum {} {{", l.rust);
    for (n, v) in variants.iter().zip(&l.values) {
        if rule.is_none() && RenameRule::Pascal.apply_to_variant(n) != *v {
            let _ = writeln!(out, "#[serde(rename = {v:?})]");
        }
        let _ = writeln!(out, "{n},");
    }
    out.push_str("}\n");
}
