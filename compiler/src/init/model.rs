//! The definitions gathered per table, applied in file order as the engine applies them (`REMOVE` takes back, `OVERWRITE` replaces, `IF NOT EXISTS` keeps, a plain redefinition is refused): each table's fields as a tree (`address.city` under `address`, `images.*.url` under `images`), its indexes, and the schema's analyzers and functions; what has no place in the grammar becomes a note, one line per kind when repeated.

use super::read::{AnalyzerDef, Def, FieldDef, IndexDef, Key, Located, Mode, TableDef};
use super::{InitError, Note, Notes};
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

/// The model of `statements`, applied in file order as the engine applies them: a `REMOVE` takes
/// back what it names, `DEFINE ... OVERWRITE` replaces an earlier definition and `IF NOT EXISTS`
/// keeps it; a plain `DEFINE` of a name already defined is refused at its line, as the engine
/// refuses it. Notes for what the model cannot hold.
pub(super) fn build(statements: Vec<Located>, notes: &mut Notes) -> Result<Model, InitError> {
    let mut b = Builder::default();
    for s in statements {
        b.statement(s, notes)?;
    }
    Ok(b.finish(notes))
}

/// The model as the statements build it, with what a later statement may take back.
#[derive(Default)]
struct Builder {
    model: Model,
    /// Tables only fields or indexes have named so far: a later `DEFINE TABLE` makes them its own
    /// (a live database's `INFO` lists fields before tables).
    implicit: Vec<MTable>,
    /// Each function's name and definition.
    functions: Vec<(String, String)>,
    /// What is defined, and where: what a second `DEFINE` of one name is checked against.
    defined: Vec<(Key, String)>,
    /// Notes a `REMOVE` or an `OVERWRITE` takes back (a definition the grammar has no words for,
    /// a clause of one it has), and notes of statements that are only listed; in file order.
    held: Vec<Held>,
}

struct Held {
    /// What a `REMOVE` of it names; `None`: nothing can take it back.
    key: Option<Key>,
    /// Notes with one label and reason are listed as one line (`25 DEFINE USER statements`).
    label: Option<String>,
    choice: bool,
    note: Note,
}

/// What a `DEFINE` of `key` does given what is defined.
enum Then {
    Add,
    Replace,
    Keep,
}

impl Builder {
    fn statement(&mut self, s: Located, notes: &mut Notes) -> Result<(), InitError> {
        let key = match &s.def {
            Def::Table(t) => Some(Key::new("table", "", &t.name)),
            Def::Field(f) => Some(Key::new("field", &f.table, &f.path)),
            Def::Index(i) => Some(Key::new("index", &i.table, &i.name)),
            Def::Analyzer(a) => Some(Key::new("analyzer", "", &a.analyzer.name)),
            Def::Function(f) => Some(Key::new("function", "", &f.name)),
            Def::Other { key, .. } => Some(key.clone()),
            _ => None,
        };
        let then = match &key {
            Some(key) => self.then(key, &s)?,
            None => Then::Add,
        };
        if let (Some(key), Then::Replace) = (&key, &then) {
            // What the earlier definition left out goes with it.
            self.held.retain(|h| h.key.as_ref() != Some(key));
        }
        if matches!(then, Then::Keep) {
            return Ok(());
        }
        if let (Some(key), Then::Add) = (&key, &then) {
            self.defined.push((key.clone(), s.at.clone()));
        }
        let replace = matches!(then, Then::Replace);
        match s.def {
            Def::Table(t) => self.add_table(t, s.at, replace),
            Def::Field(f) => self.add_field(f, s.at),
            Def::Index(i) => self.add_index(i, s.at, replace),
            Def::Analyzer(a) => self.add_analyzer(a, s.at, s.head, replace),
            Def::Function(f) => {
                self.functions.retain(|(name, _)| *name != f.name);
                self.functions.push((f.name, f.definition));
            }
            Def::Other { kind, key, .. } => {
                let why = format!("the annotation grammar has no {}", plural(&kind));
                self.hold(Some(key), &format!("DEFINE {}", kind.to_ascii_uppercase()), s.at, s.head, why);
            }
            Def::Remove { key, if_exists } => {
                if !self.remove(&key) && !if_exists {
                    notes.choices.push(Note::new(
                        &s.at,
                        s.head,
                        format!("{key} is not defined before it here: nothing to remove"),
                    ));
                }
            }
            Def::Use => self.held.push(Held {
                key: None,
                label: Some("USE".into()),
                choice: true,
                note: Note::new(
                    s.at,
                    s.head,
                    "the namespace and database a script is loaded into are not the schema's: every definition is read into the one schema",
                ),
            }),
            Def::Data { text } => {
                let word = text.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
                let why = "not a definition (data or a statement): skipped".to_owned();
                self.hold(None, &word, s.at, s.head, why);
            }
            Def::Frame => {}
        }
        Ok(())
    }

    /// What a `DEFINE` of `key` does: the engine refuses a plain one of a name already defined.
    fn then(&self, key: &Key, s: &Located) -> Result<Then, InitError> {
        let Some((_, first)) = self.defined.iter().find(|(k, _)| k == key) else {
            return Ok(Then::Add);
        };
        match s.mode {
            Mode::Overwrite => Ok(Then::Replace),
            Mode::IfNotExists => Ok(Then::Keep),
            Mode::Plain => Err(InitError(format!(
                "error: {}: {key} is already defined (at {first}), and SurrealDB refuses to define it again: \
                 write DEFINE ... OVERWRITE to replace it, DEFINE ... IF NOT EXISTS to keep the first, or REMOVE it before",
                s.at
            ))),
        }
    }

    /// A left-out note, `key`ed when a `REMOVE` may take it back, grouped by `label` with its kind.
    fn hold(&mut self, key: Option<Key>, label: &str, at: String, what: String, why: String) {
        self.held.push(Held {
            key,
            label: Some(label.to_owned()).filter(|l| !l.is_empty()),
            choice: false,
            note: Note::new(at, what, why),
        });
    }

    /// The model with the tables no `DEFINE TABLE` made its own, and the held notes, grouped.
    fn finish(mut self, notes: &mut Notes) -> Model {
        for t in std::mem::take(&mut self.implicit) {
            notes.choices.push(Note::new(
                &t.at,
                format!("table {}", t.def.name),
                "not defined, only its fields or indexes: declared as a SCHEMALESS normal table",
            ));
            self.model.tables.push(t);
        }
        for t in &mut self.model.tables {
            edge(t, notes);
        }
        let (choices, left_out): (Vec<Held>, Vec<Held>) = self.held.into_iter().partition(|h| h.choice);
        notes.left_out.extend(grouped(left_out));
        notes.choices.extend(grouped(choices));
        self.model.functions = self.functions.into_iter().map(|(_, d)| d).collect();
        self.model
    }

    fn add_table(&mut self, t: TableDef, at: String, replace: bool) {
        if replace {
            // OVERWRITE replaces the table's definition; its fields and indexes stay.
            if let Some(m) = self.model.tables.iter_mut().find(|m| m.def.name == t.name) {
                m.def = t;
                m.at = at;
            }
            return;
        }
        // Fields or indexes named it before: the table is theirs, defined now.
        let (fields, indexes, id) = match self.implicit.iter().position(|m| m.def.name == t.name) {
            Some(i) => {
                let m = self.implicit.remove(i);
                (m.fields, m.indexes, m.id)
            }
            None => Default::default(),
        };
        self.model.tables.push(MTable {
            def: t,
            at,
            id,
            fields,
            indexes,
        });
    }

    /// The table `name`, defined as the engine defines one a field names first (schemaless) if
    /// need be; a later `DEFINE TABLE` takes it over.
    fn table(&mut self, name: &str, at: &str) -> &mut MTable {
        if let Some(i) = self.model.tables.iter().position(|t| t.def.name == name) {
            return &mut self.model.tables[i];
        }
        if let Some(i) = self.implicit.iter().position(|t| t.def.name == name) {
            return &mut self.implicit[i];
        }
        let def = TableDef {
            name: name.to_owned(),
            kind: Some(ir::TableKind::Normal),
            typed: false,
            enforced: false,
            schemaless: true,
            view: None,
            permissions: ir::Permissions::default(),
            comment: None,
            unsaid: Vec::new(),
        };
        self.implicit.push(MTable {
            def,
            at: at.to_owned(),
            id: None,
            fields: Vec::new(),
            indexes: Vec::new(),
        });
        self.implicit.last_mut().expect("just pushed")
    }

    fn add_field(&mut self, f: FieldDef, at: String) {
        let key = Key::new("field", &f.table, &f.path);
        for clause in &f.unsaid {
            let why = format!("the field's `{clause}`: the grammar has no words for it");
            self.hold(
                Some(key.clone()),
                "",
                at.clone(),
                format!("{}.{}", f.table, f.path),
                why,
            );
        }
        let elements_said = f.path.ends_with(".*") && (!f.clauses.is_empty() || f.comment.is_some());
        if elements_said {
            let why = "clauses or a COMMENT on an array's elements: the grammar types the elements only";
            self.hold(Some(key), "", at.clone(), format!("{}.{}", f.table, f.path), why.into());
        }
        let table = self.table(&f.table, &at);
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

    fn add_index(&mut self, i: IndexDef, at: String, replace: bool) {
        let key = Key::new("index", &i.table, &i.name);
        if let Some(c) = &i.comment {
            let what = format!("index {} COMMENT {c:?}", i.name);
            let why = "an index's COMMENT: the grammar's indexes have none".to_owned();
            self.hold(Some(key.clone()), "", at.clone(), what, why);
        }
        if let Err(why) = &i.kind {
            let what = format!("index {} ON {}", i.name, i.table);
            self.hold(Some(key), "", at.clone(), what, why.clone());
        }
        let table = self.table(&i.table, &at);
        if replace {
            table.indexes.retain(|(k, _)| k.name != i.name);
        }
        if i.kind.is_ok() {
            table.indexes.push((i, at));
        }
    }

    fn add_analyzer(&mut self, a: AnalyzerDef, at: String, head: String, replace: bool) {
        if replace {
            self.model.analyzers.retain(|m| m.name != a.analyzer.name);
        }
        match a.function {
            Some(f) => {
                let key = Key::new("analyzer", "", &a.analyzer.name);
                let why = format!("an analyzer's `{f}`: the grammar's analyzers have none");
                self.hold(Some(key), "", at, head, why);
            }
            None => self.model.analyzers.push(a.analyzer),
        }
    }

    /// Takes back what `key` names (a table with its fields, indexes and events; a field with its
    /// sub-fields), with the notes it left; whether anything was defined by that name.
    fn remove(&mut self, key: &Key) -> bool {
        let Some(p) = self.defined.iter().position(|(k, _)| k == key) else {
            return false;
        };
        self.defined.remove(p);
        let gone = |k: &Key| {
            let sub_field = key.kind == "field"
                && k.kind == "field"
                && k.on == key.on
                && k.name.starts_with(&format!("{}.", key.name));
            let on_table =
                key.kind == "table" && k.on == key.name && matches!(k.kind.as_str(), "field" | "index" | "event");
            k == key || sub_field || on_table
        };
        self.defined.retain(|(k, _)| !gone(k));
        self.held.retain(|h| h.key.as_ref().is_none_or(|k| !gone(k)));
        let tables = &mut self.model.tables;
        match key.kind.as_str() {
            "table" => {
                tables.retain(|t| t.def.name != key.name);
                self.implicit.retain(|t| t.def.name != key.name);
            }
            "index" => {
                for t in tables.iter_mut().chain(self.implicit.iter_mut()) {
                    if t.def.name == key.on {
                        t.indexes.retain(|(i, _)| i.name != key.name);
                    }
                }
            }
            "field" => {
                for t in tables.iter_mut().chain(self.implicit.iter_mut()) {
                    if t.def.name == key.on {
                        if key.name == "id" {
                            t.id = None;
                        }
                        remove_field(&mut t.fields, &key.name);
                    }
                }
            }
            "analyzer" => self.model.analyzers.retain(|a| a.name != key.name),
            "function" => self.functions.retain(|(name, _)| *name != key.name),
            _ => {}
        }
        true
    }
}

/// A SurrealDB 2 edge table (no `TYPE`, or `TYPE ANY`, with `in` and `out` defined as record
/// links) read as the relation it was used as: SurrealDB 3 reads a SCHEMAFULL table without
/// `TYPE` as NORMAL, and `RELATE` into a NORMAL table fails; the grammar says a relation's ends
/// with `TYPE RELATION IN a OUT b`.
fn edge(t: &mut MTable, notes: &mut Notes) {
    let untyped = t.def.kind.is_none() || (t.def.kind == Some(ir::TableKind::Normal) && !t.def.typed);
    if !untyped || t.def.view.is_some() {
        return;
    }
    let end = |name: &str| {
        let f = t.fields.iter().find(|f| f.name == name)?;
        match crate::surql::kind::parse(f.kind.as_deref()?).ok()?.kind {
            ir::Kind::Record(tables) if !tables.is_empty() => Some(tables),
            _ => None,
        }
    };
    let (Some(from), Some(to)) = (end("in"), end("out")) else {
        return;
    };
    notes.choices.push(Note::new(
        &t.at,
        format!("table {}", t.def.name),
        format!(
            "SurrealDB 2's edge table (no TYPE, `in` and `out` defined as record links), written as \
             TYPE RELATION IN {} OUT {}: SurrealDB 3 takes RELATE only into a relation (it reads a SCHEMAFULL table without TYPE as NORMAL)",
            from.join(" | "),
            to.join(" | ")
        ),
    ));
    t.def.kind = Some(ir::TableKind::Relation { from, to });
}

/// `path` out of a field tree: the node with its sub-fields, or an array's element type (`tags.*`).
fn remove_field(fields: &mut Vec<MField>, path: &str) {
    let (head, rest) = match path.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    let Some(p) = fields.iter().position(|f| f.name == head) else {
        return;
    };
    match rest {
        None => {
            fields.remove(p);
        }
        Some("*") => fields[p].element = None,
        Some(rest) => remove_field(&mut fields[p].children, rest.trim_start_matches("*.")),
    }
}

/// A kind's plural, by English's regular rules (`user` → `users`, `access` → `accesses`,
/// `policy` → `policies`): the kinds come from the engine's printing, so no list could be complete.
pub(super) fn plural(word: &str) -> String {
    let before_y = word.strip_suffix('y').and_then(|w| w.chars().next_back());
    if before_y.is_some_and(|c| !"aeiou".contains(c)) {
        format!("{}ies", &word[..word.len() - 1])
    } else if ["s", "x", "z", "ch", "sh"].iter().any(|e| word.ends_with(e)) {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

/// The held notes as listed: those with one label and one reason (every `DEFINE USER`, every
/// `INSERT`) as one line at the first, with each one's line, so a dump's users do not swamp the list.
fn grouped(held: Vec<Held>) -> Vec<Note> {
    // (label, reason) of a group, or `None` for a note listed alone.
    type Group = Option<(String, String)>;
    let mut out: Vec<(Group, Vec<Note>)> = Vec::new();
    for h in held {
        let group = h.label.map(|l| (l, h.note.why.clone()));
        match out.iter_mut().find(|(g, _)| g.is_some() && *g == group) {
            Some((_, notes)) => notes.push(h.note),
            None => out.push((group, vec![h.note])),
        }
    }
    out.into_iter()
        .map(|(group, mut notes)| match group {
            Some((label, why)) if notes.len() > 1 => {
                let what = format!("{} {label} statements ({})", notes.len(), lines(&notes));
                Note::new(notes.swap_remove(0).at, what, why)
            }
            _ => notes.swap_remove(0),
        })
        .collect()
}

/// The notes' lines, a run of consecutive lines as `3-27`, another file's named: `lines 3-27, 30, b.surql:4`.
fn lines(notes: &[Note]) -> String {
    let split = |at: &str| {
        let (file, line) = at.rsplit_once(':').unwrap_or(("", at));
        (file.to_owned(), line.parse::<usize>().unwrap_or(0))
    };
    let first_file = notes.first().map(|n| split(&n.at).0).unwrap_or_default();
    let mut runs: Vec<(String, usize, usize)> = Vec::new();
    for n in notes {
        let (file, line) = split(&n.at);
        match runs.last_mut() {
            Some((f, _, b)) if *f == file && line == *b + 1 => *b = line,
            _ => runs.push((file, line, line)),
        }
    }
    let written: Vec<String> = runs
        .into_iter()
        .map(|(file, a, b)| {
            let file = if file == first_file {
                String::new()
            } else {
                format!("{file}:")
            };
            if a == b {
                format!("{file}{a}")
            } else {
                format!("{file}{a}-{b}")
            }
        })
        .collect();
    format!("lines {}", written.join(", "))
}
