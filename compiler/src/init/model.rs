//! The definitions gathered per table: each table's fields as a tree (`address.city` under `address`, `images.*.url` under `images`), its indexes, and the schema's analyzers and functions; what has no place in the grammar becomes a note.

use super::read::{Def, FieldDef, IndexDef, Located, TableDef};
use super::{Note, Notes};
use crate::ir;

/// Everything `init` writes, in source order.
#[derive(Debug, Default)]
pub(super) struct Model {
    pub tables: Vec<MTable>,
    pub analyzers: Vec<ir::Analyzer>,
    /// Each function's definition as the engine prints it.
    pub functions: Vec<String>,
}

#[derive(Debug)]
pub(super) struct MTable {
    pub def: TableDef,
    pub at: String,
    /// The record id's type (`DEFINE FIELD id ... TYPE int`), as printed.
    pub id: Option<(String, String)>,
    pub fields: Vec<MField>,
    /// Each index with where it was defined.
    pub indexes: Vec<(IndexDef, String)>,
}

#[derive(Debug)]
pub(super) struct MField {
    /// The name relative to its parent.
    pub name: String,
    pub at: String,
    /// The type as printed; `None`: not defined by a statement of its own, or no `TYPE`.
    pub kind: Option<String>,
    /// A `name.*` definition: the type of each element of this array field.
    pub element: Option<String>,
    pub clauses: ir::FieldClauses,
    pub comment: Option<String>,
    pub children: Vec<MField>,
    /// Defined only through its sub-fields (no `DEFINE FIELD` of its own).
    pub implicit: bool,
}

/// The model of `statements`; notes for what it cannot hold.
pub(super) fn build(statements: Vec<Located>, notes: &mut Notes) -> Model {
    let mut model = Model::default();
    let mut pending: Vec<(String, Def)> = Vec::new();
    for s in statements {
        match s.def {
            Def::Table(t) => add_table(&mut model, t, s.at, notes),
            Def::Field(_) | Def::Index(_) => pending.push((s.at, s.def)),
            Def::Analyzer(a) => {
                if let Some(f) = a.function {
                    notes.left_out.push(Note::new(
                        &s.at,
                        s.head,
                        format!("an analyzer's `{f}`: the grammar's analyzers have none"),
                    ));
                } else {
                    model.analyzers.push(a.analyzer);
                }
            }
            Def::Function(f) => model.functions.push(f.definition),
            Def::Other { kind, .. } => notes.left_out.push(Note::new(
                &s.at,
                s.head,
                format!(
                    "a DEFINE {}: the annotation grammar has no {kind}s",
                    kind.to_ascii_uppercase()
                ),
            )),
            Def::Data { .. } => notes.left_out.push(Note::new(
                &s.at,
                s.head,
                "not a definition (data or a statement): skipped",
            )),
            Def::Frame => {}
        }
    }
    for (at, def) in pending {
        match def {
            Def::Field(f) => add_field(&mut model, f, at, notes),
            Def::Index(i) => add_index(&mut model, i, at, notes),
            _ => {}
        }
    }
    model
}

fn add_table(model: &mut Model, t: TableDef, at: String, notes: &mut Notes) {
    if model.tables.iter().any(|m| m.def.name == t.name) {
        notes.choices.push(Note::new(
            &at,
            format!("table {}", t.name),
            "defined again: the last definition is kept",
        ));
        model.tables.retain(|m| m.def.name != t.name);
    }
    model.tables.push(MTable {
        def: t,
        at,
        id: None,
        fields: Vec::new(),
        indexes: Vec::new(),
    });
}

/// The table `name`, defined as the engine defines one a field names first (schemaless) if need be.
fn table<'m>(model: &'m mut Model, name: &str, at: &str, notes: &mut Notes) -> &'m mut MTable {
    if let Some(i) = model.tables.iter().position(|t| t.def.name == name) {
        return &mut model.tables[i];
    }
    notes.choices.push(Note::new(
        at,
        format!("table {name}"),
        "not defined, only its fields or indexes: declared as a SCHEMALESS normal table",
    ));
    let def = TableDef {
        name: name.to_owned(),
        kind: Some(ir::TableKind::Normal),
        enforced: false,
        schemaless: true,
        view: None,
        permissions: ir::Permissions::default(),
        comment: None,
        unsaid: Vec::new(),
    };
    add_table(model, def, at.to_owned(), notes);
    model.tables.last_mut().expect("just pushed")
}

fn add_field(model: &mut Model, f: FieldDef, at: String, notes: &mut Notes) {
    for clause in &f.unsaid {
        notes.left_out.push(Note::new(
            &at,
            format!("{}.{}", f.table, f.path),
            format!("the field's `{clause}`: the grammar has no words for it"),
        ));
    }
    let table = table(model, &f.table, &at, notes);
    if f.path == "id" {
        table.id = f.kind.clone().map(|k| (k, at));
        return;
    }
    let steps: Vec<&str> = f.path.split('.').collect();
    let mut siblings = &mut table.fields;
    let mut i = 0;
    while i < steps.len() {
        let name = steps[i];
        let last = i + 1 == steps.len() || (i + 2 == steps.len() && steps[i + 1] == "*");
        let pos = match siblings.iter().position(|m| m.name == name) {
            Some(p) => p,
            None => {
                siblings.push(MField {
                    name: name.to_owned(),
                    at: at.clone(),
                    kind: None,
                    element: None,
                    clauses: ir::FieldClauses::default(),
                    comment: None,
                    children: Vec::new(),
                    implicit: true,
                });
                siblings.len() - 1
            }
        };
        if last {
            let node = &mut siblings[pos];
            if i + 1 < steps.len() {
                // `name.*`: the element type of an array field.
                node.element = f.kind.clone();
                if !f.clauses.is_empty() || f.comment.is_some() {
                    notes.left_out.push(Note::new(
                        &at,
                        format!("{}.{}", f.table, f.path),
                        "clauses or a COMMENT on an array's elements: the grammar types the elements only",
                    ));
                }
            } else {
                node.kind = f.kind.clone();
                node.clauses = f.clauses.clone();
                node.comment = f.comment.clone();
                node.at = at.clone();
                node.implicit = false;
            }
            return;
        }
        siblings = &mut siblings[pos].children;
        i += 1;
        // Element steps between names (`images.*.url`) are the parent's array type's business.
        while i < steps.len() && steps[i] == "*" && i + 1 < steps.len() {
            i += 1;
        }
    }
}

fn add_index(model: &mut Model, i: IndexDef, at: String, notes: &mut Notes) {
    if let Some(c) = &i.comment {
        notes.left_out.push(Note::new(
            &at,
            format!("index {} COMMENT {c:?}", i.name),
            "an index's COMMENT: the grammar's indexes have none",
        ));
    }
    let table = table(model, &i.table, &at, notes);
    if let Err(why) = &i.kind {
        notes
            .left_out
            .push(Note::new(&at, format!("index {} ON {}", i.name, i.table), why.clone()));
        return;
    }
    table.indexes.push((i, at));
}
