//! Each table and field of the model as the Rust items that say it: struct names in Rust style (the table's name kept with `rename` when snake_case does not give it back), each field's Rust type, and the Literal, Ends and Object items the types need; a type with no Rust mapping stays the engine's text (`type = "..."` on a `Value`), noted.

use super::model::{MField, MTable, Model};
use super::{Note, Notes, Options};
use crate::ir::{self, Kind, KindLiteral};
use std::collections::{BTreeSet, HashMap, HashSet};

/// What the writer prints: the model's items, named.
#[derive(Debug, Default)]
pub(super) struct Items {
    /// One per model table, in order; `None`: the table is left out.
    pub tables: Vec<Option<TableItem>>,
    pub literals: Vec<LiteralItem>,
    pub ends: Vec<EndsItem>,
    pub objects: Vec<ObjectItem>,
    /// The `surqlc::runtime` names the types use.
    pub runtime: BTreeSet<&'static str>,
}

#[derive(Debug)]
pub(super) struct TableItem {
    pub rust: String,
    /// `#[surqlc(rename = "...")]`: the table's name when snake_case of `rust` is not it.
    pub rename: Option<String>,
    /// A relation's `in` and `out` Rust types.
    pub ends: Option<(String, String)>,
    /// The typed record id's Rust type.
    pub id: Option<String>,
    pub fields: Vec<FieldItem>,
    /// The indexes kept, by position in the model table's list.
    pub indexes: Vec<usize>,
}

#[derive(Debug, Clone)]
pub(super) struct FieldItem {
    pub ident: String,
    pub rename: Option<String>,
    pub rust: String,
    /// `#[surqlc(type = "...")]`: the engine's type text, when no Rust type says it.
    pub raw: Option<String>,
    pub clauses: ir::FieldClauses,
    pub comment: Option<String>,
}

#[derive(Debug)]
pub(super) struct LiteralItem {
    pub rust: String,
    pub values: Vec<String>,
}

#[derive(Debug)]
pub(super) struct EndsItem {
    pub rust: String,
    /// `(variant, table struct)`.
    pub variants: Vec<(String, String)>,
}

#[derive(Debug)]
pub(super) struct ObjectItem {
    pub rust: String,
    pub fields: Vec<FieldItem>,
}

/// Names a Rust item of the file may not take: the imports, the derives and the prelude's.
const TAKEN: &[&str] = &[
    "Link",
    "Datetime",
    "Decimal",
    "Duration",
    "Uuid",
    "Bytes",
    "Number",
    "Value",
    "Table",
    "Relation",
    "Object",
    "Literal",
    "Ends",
    "Schema",
    "Option",
    "Vec",
    "String",
    "Box",
    "Result",
    "Some",
    "None",
    "Ok",
    "Err",
    "Self",
    "Default",
    "Clone",
    "Debug",
    "Copy",
    "PartialEq",
    "Eq",
    "Send",
    "Sync",
    "Sized",
    "Drop",
    "Fn",
    "Iterator",
];

struct Namer {
    used: HashSet<String>,
    /// Table name → its struct.
    tables: HashMap<String, String>,
    literal_by_values: HashMap<Vec<String>, String>,
    ends_by_tables: HashMap<Vec<String>, String>,
    items: Items,
}

impl Namer {
    /// `want`, or `prefix` + `want`, or with a number: the first not taken.
    fn fresh(&mut self, want: &str, prefix: &str) -> String {
        let mut name = want.to_owned();
        if self.used.contains(&name) && !prefix.is_empty() {
            name = format!("{prefix}{want}");
        }
        let base = name.clone();
        let mut n = 2;
        while self.used.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.used.insert(name.clone());
        name
    }
}

fn pascal(name: &str) -> String {
    let p = heck::AsUpperCamelCase(name).to_string();
    if p.is_empty() || p.starts_with(|c: char| c.is_ascii_digit()) {
        format!("T{p}")
    } else {
        p
    }
}

/// The Rust items for `model`: table structs first (so they keep their names), then what fields need.
pub(super) fn settle(model: &Model, options: &Options, notes: &mut Notes) -> Items {
    let mut namer = Namer {
        used: TAKEN.iter().map(|s| (*s).to_owned()).collect(),
        tables: HashMap::new(),
        literal_by_values: HashMap::new(),
        ends_by_tables: HashMap::new(),
        items: Items::default(),
    };
    namer.used.insert(options.schema_type.clone());
    let mut names = Vec::new();
    for t in &model.tables {
        let name = &t.def.name;
        if !crate::surql::is_plain_ident(name) || crate::surql::is_reserved(name) || name == "id" {
            notes.left_out.push(Note::new(
                &t.at,
                format!("table {name}"),
                "its name must be letters, digits and underscores and not a SurrealQL keyword (the grammar's rule)",
            ));
            names.push(None);
            continue;
        }
        let rust = namer.fresh(&pascal(name), "");
        let rename = (heck::AsSnakeCase(&rust).to_string() != *name).then(|| name.clone());
        namer.tables.insert(name.clone(), rust.clone());
        names.push(Some((rust, rename)));
    }
    for (t, name) in model.tables.iter().zip(names) {
        let item = name.and_then(|(rust, rename)| table_item(&mut namer, t, rust, rename, notes));
        namer.items.tables.push(item);
    }
    namer.items
}

fn table_item(
    namer: &mut Namer,
    t: &MTable,
    rust: String,
    rename: Option<String>,
    notes: &mut Notes,
) -> Option<TableItem> {
    let def = &t.def;
    for clause in &def.unsaid {
        notes.left_out.push(Note::new(
            &t.at,
            format!("table {} {clause}", def.name),
            "a table clause the grammar has no words for",
        ));
    }
    let ends = match &def.kind {
        Some(ir::TableKind::Relation { from, to }) => {
            let end = |namer: &mut Namer, tables: &[String], side: &str| {
                if tables.is_empty() || tables.iter().any(|t| !namer.tables.contains_key(t)) {
                    return None;
                }
                Some(link_or_ends(namer, tables, &format!("{rust}{side}")))
            };
            match (end(namer, from, "In"), end(namer, to, "Out")) {
                (Some(i), Some(o)) => Some((i, o)),
                _ => {
                    notes.left_out.push(Note::new(
                        &t.at,
                        format!("table {}", def.name),
                        "a relation whose IN or OUT is missing or names a table not in the file: the grammar's relations name both ends",
                    ));
                    return None;
                }
            }
        }
        // SurrealDB's parser reads a table without TYPE as TYPE NORMAL, as surqlc writes one.
        Some(ir::TableKind::Normal) | None => None,
    };
    let id = t.id.as_ref().and_then(|(kind, at)| {
        let rust = match kind.as_str() {
            "int" => Some("i64"),
            "string" => Some("String"),
            "uuid" => Some("Uuid"),
            _ => None,
        };
        if rust.is_none() {
            notes.left_out.push(Note::new(
                at,
                format!("{}.id", def.name),
                format!("a record id typed `{kind}`: the grammar types ids as int, string or uuid"),
            ));
        }
        rust.map(|r| {
            if r == "Uuid" {
                namer.items.runtime.insert("Uuid");
            }
            r.to_owned()
        })
    });
    if def.view.is_some() && t.fields.is_empty() {
        notes.left_out.push(Note::new(
            &t.at,
            format!("view {}", def.name),
            "a view without DEFINE FIELDs: surqlc types a view's columns, one field per projection; \
             add them to its struct (the build says which)",
        ));
    }
    let relation = ends.is_some();
    let mut fields = fields(namer, &def.name, &rust, &t.fields, relation, notes);
    let indexes = indexed(namer, t, &mut fields, relation, notes);
    Some(TableItem {
        rust,
        rename,
        ends,
        id,
        fields,
        indexes,
    })
}

/// The indexes the file keeps, by position. A SCHEMALESS table may index a field it does not
/// define (the engine indexes whatever the records hold): the grammar indexes declared fields, so
/// such a field is declared, `any`. An index on `in` or `out` of a table that is not a relation
/// names what the grammar cannot declare: left out.
fn indexed(
    namer: &mut Namer,
    t: &MTable,
    fields: &mut Vec<FieldItem>,
    relation: bool,
    notes: &mut Notes,
) -> Vec<usize> {
    let mut kept = Vec::new();
    for (n, (index, at)) in t.indexes.iter().enumerate() {
        let firsts: Vec<&str> = index.fields.iter().map(|p| p.split('.').next().unwrap_or(p)).collect();
        if !relation && firsts.iter().any(|f| matches!(*f, "in" | "out")) {
            notes.left_out.push(Note::new(
                at,
                format!("index {} ON {}", index.name, t.def.name),
                "an index on `in` or `out` of a table that is not a relation with record links for its ends: \
                 the grammar's `in` and `out` are a relation's",
            ));
            continue;
        }
        let undeclared = |path: &String, fields: &[FieldItem]| {
            let first = path.split('.').next().unwrap_or(path);
            let declared = fields
                .iter()
                .any(|f| f.rename.as_deref().unwrap_or(f.ident.trim_start_matches("r#")) == first);
            !declared && first != "id" && !(relation && matches!(first, "in" | "out"))
        };
        // A path into an undeclared field (`meta.kind`): the grammar indexes past declared sub-fields
        // or a FLEXIBLE object's, and SurrealDB takes FLEXIBLE only in a SCHEMAFULL table.
        if let Some(path) = index.fields.iter().find(|p| p.contains('.') && undeclared(p, fields)) {
            notes.left_out.push(Note::new(
                at,
                format!("index {} ON {}", index.name, t.def.name),
                format!("its path `{path}` goes into a field the table does not define: the grammar indexes declared fields"),
            ));
            continue;
        }
        for path in &index.fields {
            let first = path.split('.').next().unwrap_or(path);
            if !undeclared(path, fields) || !t.def.schemaless || !crate::surql::is_plain_ident(first) {
                continue;
            }
            notes.choices.push(Note::new(
                at,
                format!("{}.{first}", t.def.name),
                format!(
                    "not defined, only indexed (by {}) on a SCHEMALESS table: declared `type = \"any\"` so the index names a field",
                    index.name
                ),
            ));
            namer.items.runtime.insert("Value");
            let (ident, rename) = field_ident(first, fields);
            fields.push(FieldItem {
                ident,
                rename,
                rust: "Value".into(),
                raw: Some("any".into()),
                clauses: ir::FieldClauses::default(),
                comment: None,
            });
        }
        kept.push(n);
    }
    kept
}

/// `Link<T>` for one table, else an Ends enum (shared by every field with the same tables).
fn link_or_ends(namer: &mut Namer, tables: &[String], want: &str) -> String {
    namer.items.runtime.insert("Link");
    if let [one] = tables {
        return format!("Link<{}>", namer.tables[one]);
    }
    if let Some(name) = namer.ends_by_tables.get(tables) {
        return name.clone();
    }
    let name = namer.fresh(want, "");
    let variants = tables
        .iter()
        .map(|t| (namer.tables[t].clone(), namer.tables[t].clone()))
        .collect();
    namer.ends_by_tables.insert(tables.to_vec(), name.clone());
    namer.items.ends.push(EndsItem {
        rust: name.clone(),
        variants,
    });
    name
}

fn fields(
    namer: &mut Namer,
    table: &str,
    owner: &str,
    list: &[MField],
    relation: bool,
    notes: &mut Notes,
) -> Vec<FieldItem> {
    let mut out: Vec<FieldItem> = Vec::new();
    for f in list {
        if relation && (f.name == "in" || f.name == "out") {
            if !f.clauses.is_empty() || f.comment.is_some() {
                notes.left_out.push(Note::new(
                    &f.at,
                    format!("{table}.{}", f.name),
                    "clauses on a relation's in/out: the engine derives them from IN/OUT and the grammar has no words for more",
                ));
            }
            continue;
        }
        if !crate::surql::is_plain_ident(&f.name) || f.name == "in" || f.name == "out" || f.name == "id" {
            notes.left_out.push(Note::new(
                &f.at,
                format!("{table}.{}", f.name),
                "a field name the grammar refuses (letters, digits and underscores; not id, in or out)",
            ));
            continue;
        }
        let (rust, raw, clauses) = field_type(namer, table, owner, f, notes);
        let (ident, rename) = field_ident(&f.name, &out);
        out.push(FieldItem {
            ident,
            rename,
            rust,
            raw,
            clauses,
            comment: f.comment.clone(),
        });
    }
    out
}

/// A field's Rust identifier (snake_case, raw when a keyword) and its `rename` when that is not its name.
fn field_ident(name: &str, taken: &[FieldItem]) -> (String, Option<String>) {
    let mut snake = heck::AsSnakeCase(name).to_string();
    if matches!(snake.as_str(), "self" | "super" | "crate" | "_" | "") {
        snake.push('_');
    }
    let base = snake.clone();
    let mut n = 2;
    while taken.iter().any(|f| f.ident.trim_start_matches("r#") == snake) {
        snake = format!("{base}_{n}");
        n += 1;
    }
    let rename = (snake != name).then(|| name.to_owned());
    let ident = if syn::parse_str::<syn::Ident>(&snake).is_ok() {
        snake
    } else {
        format!("r#{snake}")
    };
    (ident, rename)
}

/// The field's Rust type, its raw type text when it has none, and its clauses (FLEXIBLE moved
/// into a raw `object` type's text).
fn field_type(
    namer: &mut Namer,
    table: &str,
    owner: &str,
    f: &MField,
    notes: &mut Notes,
) -> (String, Option<String>, ir::FieldClauses) {
    let path = format!("{table}.{}", f.name);
    let mut clauses = f.clauses.clone();
    let mut text = match (&f.kind, f.implicit) {
        (Some(k), _) => k.clone(),
        (None, true) => {
            notes.choices.push(Note::new(
                &f.at,
                &path,
                "no DEFINE FIELD of its own, only sub-fields: declared an object",
            ));
            "object".to_owned()
        }
        (None, false) => {
            notes.choices.push(Note::new(
                &f.at,
                &path,
                "no TYPE (any value): declared `type = \"any\"`; name its type if it has one",
            ));
            "any".to_owned()
        }
    };
    if let Some(element) = &f.element {
        text = element_type(&text, element, &f.at, &path, notes);
    }
    let kind = match crate::surql::kind::parse(&text) {
        Ok(raw) if raw.clauses.is_empty() => raw.kind,
        _ => {
            notes
                .choices
                .push(Note::new(&f.at, &path, format!("type `{text}` kept as written")));
            return raw_field(namer, text, clauses);
        }
    };
    let want = pascal(&f.name);
    match rust_of(namer, &kind, f, &want, owner, notes, &path) {
        Some(rust) => (rust, None, clauses),
        None => {
            if !f.children.is_empty() {
                for c in &f.children {
                    notes.left_out.push(Note::new(
                        &c.at,
                        format!("{path}.{}", c.name),
                        format!(
                            "a sub-field of a field typed `{text}`: the grammar's sub-fields belong to object fields"
                        ),
                    ));
                }
            }
            // A field without TYPE has had its note (`declared "any"`): one note for one choice.
            if kind.is_any() && f.kind.is_some() {
                notes.choices.push(Note::new(
                    &f.at,
                    &path,
                    "typed `any`: kept as `type = \"any\"` on a surqlc::runtime::Value",
                ));
            } else if matches!(&kind, Kind::Named(n) if n == "array")
                || matches!(&kind, Kind::Array(k, _) if k.is_any())
            {
                notes.choices.push(Note::new(
                    &f.at,
                    &path,
                    "an array of any values: kept as written on a Value; write Vec<T> if its elements have one type",
                ));
            }
            if clauses.flexible && text.contains("object") && !text.contains("FLEXIBLE") {
                text.push_str(" FLEXIBLE");
                clauses.flexible = false;
            }
            raw_field(namer, text, clauses)
        }
    }
}

fn raw_field(namer: &mut Namer, text: String, clauses: ir::FieldClauses) -> (String, Option<String>, ir::FieldClauses) {
    namer.items.runtime.insert("Value");
    // The engine prints `option<T>` as `none | T`: written back the way people write it, the
    // clauses after the type (`FLEXIBLE`) outside the brackets, where the type grammar reads them.
    let text = match text
        .strip_prefix("none | ")
        .map(|rest| (rest, crate::surql::kind::parse(rest)))
    {
        Some((rest, Ok(k))) if !matches!(k.kind, Kind::Either(_)) => {
            let ty = rest[..rest.len() - k.clauses.len()].trim_end();
            if k.clauses.is_empty() {
                format!("option<{ty}>")
            } else {
                format!("option<{ty}> {}", k.clauses)
            }
        }
        _ => text,
    };
    ("Value".to_owned(), Some(text), clauses)
}

/// An array field's type with its `name.*` element definition folded in.
fn element_type(text: &str, element: &str, at: &str, path: &str, notes: &mut Notes) -> String {
    // `option<T>` as people write it or as the engine prints it (`none | T`).
    let (optional, array) = match text
        .strip_prefix("none | ")
        .or_else(|| text.strip_prefix("option<").and_then(|t| t.strip_suffix('>')))
    {
        Some(inner) => (true, inner),
        None => (false, text),
    };
    let wrap = |t: String| if optional { format!("option<{t}>") } else { t };
    // The element type the field already says (`array<float>`, `array<float, 1536>`).
    let says_element = array
        .strip_prefix("array<")
        .and_then(|rest| rest.strip_prefix(element))
        .is_some_and(|rest| rest.starts_with('>') || rest.starts_with(','));
    let folded = match array {
        "array" | "array<any>" => wrap(format!("array<{element}>")),
        _ if says_element => text.to_owned(),
        _ => {
            let t = text;
            notes.left_out.push(Note::new(
                at,
                format!("{path}.*"),
                format!("an element type `{element}` on a field typed `{t}`: kept the field's type"),
            ));
            return t.to_owned();
        }
    };
    if folded != text {
        notes.choices.push(Note::new(
            at,
            format!("{path}.*"),
            format!("the element type folded into the field's: `{folded}`"),
        ));
    }
    folded
}

/// The Rust type of `kind`, or `None` when only the engine's text can say it.
fn rust_of(
    namer: &mut Namer,
    kind: &Kind,
    f: &MField,
    want: &str,
    owner: &str,
    notes: &mut Notes,
    path: &str,
) -> Option<String> {
    let scalar = |namer: &mut Namer, rust: &'static str, import: bool| {
        if import {
            namer.items.runtime.insert(rust);
        }
        Some(rust.to_owned())
    };
    match kind {
        Kind::Named(n) => match n.as_str() {
            "string" => scalar(namer, "String", false),
            "bool" => scalar(namer, "bool", false),
            "int" => scalar(namer, "i64", false),
            "float" => scalar(namer, "f64", false),
            "decimal" => scalar(namer, "Decimal", true),
            "number" => scalar(namer, "Number", true),
            "datetime" => scalar(namer, "Datetime", true),
            "duration" => scalar(namer, "Duration", true),
            "uuid" => scalar(namer, "Uuid", true),
            "bytes" => scalar(namer, "Bytes", true),
            "object" if !f.children.is_empty() => Some(object(namer, f, want, owner, notes, path)),
            _ => None,
        },
        Kind::Either(members) if members.iter().any(|m| matches!(m, Kind::Named(n) if n == "none")) => {
            let rest = Kind::either(
                members
                    .iter()
                    .filter(|m| !matches!(m, Kind::Named(n) if n == "none"))
                    .cloned()
                    .collect(),
            );
            let inner = rust_of(namer, &rest, f, want, owner, notes, path)?;
            (!inner.starts_with("Option<")).then(|| format!("Option<{inner}>"))
        }
        Kind::Either(members) => {
            let values: Option<Vec<String>> = members
                .iter()
                .map(|m| match m {
                    Kind::Literal(KindLiteral::String(s)) => Some(s.clone()),
                    _ => None,
                })
                .collect();
            values.map(|v| literal(namer, v, want, owner))
        }
        Kind::Literal(KindLiteral::String(s)) => Some(literal(namer, vec![s.clone()], want, owner)),
        Kind::Array(inner, len) => {
            let inner = rust_of(namer, inner, f, want, owner, notes, path)?;
            if inner.starts_with("Option<") && len.is_some() {
                return None;
            }
            Some(match len {
                None => format!("Vec<{inner}>"),
                Some(n) => format!("[{inner}; {n}]"),
            })
        }
        Kind::Record(tables) if tables.iter().all(|t| namer.tables.contains_key(t)) => {
            Some(link_or_ends(namer, tables, want))
        }
        _ => None,
    }
}

fn literal(namer: &mut Namer, values: Vec<String>, want: &str, owner: &str) -> String {
    if let Some(name) = namer.literal_by_values.get(&values) {
        return name.clone();
    }
    let name = namer.fresh(want, owner);
    namer.literal_by_values.insert(values.clone(), name.clone());
    namer.items.literals.push(LiteralItem {
        rust: name.clone(),
        values,
    });
    name
}

fn object(namer: &mut Namer, f: &MField, want: &str, owner: &str, notes: &mut Notes, path: &str) -> String {
    let name = namer.fresh(want, owner);
    let index = namer.items.objects.len();
    namer.items.objects.push(ObjectItem {
        rust: name.clone(),
        fields: Vec::new(),
    });
    let fields = fields(namer, path, &name, &f.children, false, notes);
    namer.items.objects[index].fields = fields;
    name
}
