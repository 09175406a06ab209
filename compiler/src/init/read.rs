//! SurrealQL text read by SurrealDB's own parser into plain definitions (`Def`), each with its line: the only file of `init` that sees the parser's AST.

use super::{line_col, respell, short};
use super::{InitError, Notes};
use crate::ir;
use crate::surql::functions::{parse_ast, statement_starts};
use surrealdb_sql::statements::define::{DefineDefault, DefineKind};
use surrealdb_sql::statements::DefineStatement;
use surrealdb_sql::{Expr, Index, Literal, Permission, Permissions, TableType, TopLevelExpr};
use surrealdb_types::ToSql as _;

/// One top-level statement of a source, where it is, and what it defines.
#[derive(Debug, Clone)]
pub(super) struct Located {
    /// `FILE:LINE`, as notes print it.
    pub at: String,
    /// The statement's first line as written (for notes).
    pub head: String,
    pub def: Def,
    /// What a `DEFINE` does when its name is already defined.
    pub mode: Mode,
}

/// What a `DEFINE` does with a name already defined: the engine refuses a plain one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Plain,
    /// `OVERWRITE`: replaces the earlier definition.
    Overwrite,
    /// `IF NOT EXISTS`: keeps the earlier definition.
    IfNotExists,
}

/// What a definition defines, as a `REMOVE` names it: its kind in lower case (`field`), the table
/// or level it is `ON` (`t`, `ROOT`; empty for none) and its name (`address.city`, `fn::f`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Key {
    pub kind: String,
    pub on: String,
    pub name: String,
}

impl Key {
    pub(super) fn new(kind: &str, on: &str, name: &str) -> Key {
        Key {
            kind: kind.to_owned(),
            on: on.to_owned(),
            name: name.to_owned(),
        }
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the {} `{}`", self.kind, self.name)?;
        if !self.on.is_empty() {
            write!(f, " on `{}`", self.on)?;
        }
        Ok(())
    }
}

/// What a statement is, in surqlc's terms.
#[derive(Debug, Clone)]
pub(super) enum Def {
    Table(TableDef),
    Field(FieldDef),
    Index(IndexDef),
    Analyzer(AnalyzerDef),
    Function(FunctionDef),
    /// A definition the annotation grammar has no words for (`EVENT`, `PARAM`, `ACCESS`, ...):
    /// its kind in lower case and its name.
    Other {
        kind: String,
        name: String,
        /// What a `REMOVE` of it names.
        key: Key,
        text: String,
    },
    /// `REMOVE KIND name`: what it removes, and whether `IF EXISTS` lets it find nothing.
    Remove {
        key: Key,
        if_exists: bool,
    },
    /// `USE NS x DB y`: where a script's definitions go, which a schema file does not say.
    Use,
    /// A statement that is not a definition (a dump's `INSERT`, an `UPSERT`, an `IF`).
    Data {
        text: String,
    },
    /// `OPTION IMPORT`, `BEGIN`, `COMMIT`: a dump's frame, which defines nothing.
    Frame,
}

#[derive(Debug, Clone)]
pub(super) struct TableDef {
    pub name: String,
    /// `None`: `TYPE ANY` (which the grammar cannot say).
    pub kind: Option<ir::TableKind>,
    /// Whether the statement says its `TYPE` (without one, SurrealDB 3 reads a SCHEMAFULL table as
    /// NORMAL, a SCHEMALESS one as ANY; SurrealDB 2 read both as ANY).
    pub typed: bool,
    pub enforced: bool,
    pub schemaless: bool,
    /// The view's `SELECT ...` (without `AS`).
    pub view: Option<String>,
    pub permissions: ir::Permissions,
    pub comment: Option<String>,
    /// Clauses the grammar cannot say (`DROP`, `CHANGEFEED 1h`), as the engine prints them.
    pub unsaid: Vec<String>,
}

#[derive(Debug, Clone)]
pub(super) struct FieldDef {
    pub table: String,
    /// The path, element steps as `*`: `images.*.url`.
    pub path: String,
    /// The type as the engine prints it; `None`: no `TYPE` (any value).
    pub kind: Option<String>,
    pub clauses: ir::FieldClauses,
    pub comment: Option<String>,
    pub unsaid: Vec<String>,
}

#[derive(Debug, Clone)]
pub(super) struct IndexDef {
    pub table: String,
    pub name: String,
    pub fields: Vec<String>,
    /// The kind, or why the grammar cannot say it.
    pub kind: Result<ir::IndexKind, String>,
    pub comment: Option<String>,
}

#[derive(Debug, Clone)]
pub(super) struct AnalyzerDef {
    pub analyzer: ir::Analyzer,
    /// `FUNCTION fn::...`, which the grammar cannot say.
    pub function: Option<String>,
}

#[derive(Debug, Clone)]
pub(super) struct FunctionDef {
    pub name: String,
    /// The statement as the engine prints it, with `OVERWRITE` and a final `;`.
    pub definition: String,
}

/// Every statement of `text` (from `file`), or the parser's error at its line and column. The
/// spellings of SurrealDB 2 that 3.3's parser refuses are respelled first (`respell`), each noted.
pub(super) fn statements(file: &str, text: &str, notes: &mut Notes) -> Result<Vec<Located>, InitError> {
    let text = respell::respell(file, text, notes);
    let ast = parse_ast(&text).map_err(|e| {
        let (line, column) = line_col(&text, e.start);
        InitError(format!("error: {file}:{line}:{column}: {}", e.message))
    })?;
    let starts = statement_starts(&text);
    let mut out = Vec::with_capacity(ast.expressions.len());
    for (i, statement) in ast.expressions.iter().enumerate() {
        let start = starts.get(i).copied().unwrap_or(0);
        let (line, _) = line_col(&text, start);
        let head = text[start..].lines().next().unwrap_or("").trim_end().to_owned();
        let end = starts.get(i + 1).copied().unwrap_or(text.len()).max(start);
        let mut def = def(statement);
        if let Def::Table(t) = &mut def {
            t.typed = says_type(&text[start..end]);
        }
        if let Def::Field(f) = &def {
            repeated_assert(&text[start..end], f, &format!("{file}:{line}"), notes);
        }
        out.push(Located {
            at: format!("{file}:{line}"),
            head: short(&head),
            def,
            mode: mode(statement),
        });
    }
    Ok(out)
}

/// A `DEFINE FIELD` with two `ASSERT` clauses: SurrealDB's parser keeps only the last (as this file
/// does, since it reads the engine's definition), so the first check is lost in the database too; a
/// note says so, with the fix (one ASSERT, the conditions joined with AND).
fn repeated_assert(statement: &str, f: &FieldDef, at: &str, notes: &mut Notes) {
    let asserts = crate::surql::scan::code(statement)
        .iter()
        .filter(|t| t.is_word("ASSERT"))
        .count();
    if asserts > 1 {
        notes.choices.push(super::Note::new(
            at,
            format!("{}.{}", f.table, f.path),
            format!(
                "{asserts} ASSERT clauses: SurrealDB keeps only the last, so the database checks that one alone \
                 (and so does this file); write one ASSERT with the conditions joined by AND to keep them all"
            ),
        ));
    }
}

fn def(statement: &TopLevelExpr) -> Def {
    match statement {
        TopLevelExpr::Begin | TopLevelExpr::Commit | TopLevelExpr::Cancel => Def::Frame,
        TopLevelExpr::Option(_) => Def::Frame,
        TopLevelExpr::Use(_) => Def::Use,
        TopLevelExpr::Expr(Expr::Define(define)) => define_def(define),
        TopLevelExpr::Expr(Expr::Remove(remove)) => remove_def(remove),
        other => Def::Data { text: other.to_sql() },
    }
}

/// Whether a `DEFINE TABLE`'s text says `TYPE NORMAL`, `TYPE RELATION` or `TYPE ANY`.
fn says_type(text: &str) -> bool {
    let tokens = crate::surql::scan::code(text);
    tokens
        .windows(2)
        .any(|w| w[0].is_word("TYPE") && ["NORMAL", "RELATION", "ANY"].iter().any(|k| w[1].is_word(k)))
}

/// A `DEFINE`'s mode, from the engine's printing (`DEFINE KIND [OVERWRITE | IF NOT EXISTS] ...`),
/// the same for every kind of definition.
fn mode(statement: &TopLevelExpr) -> Mode {
    let TopLevelExpr::Expr(Expr::Define(define)) = statement else {
        return Mode::Plain;
    };
    let text = define.to_sql();
    let rest = text.split_whitespace().skip(2).take(3).collect::<Vec<_>>();
    match rest.as_slice() {
        ["OVERWRITE", ..] => Mode::Overwrite,
        ["IF", "NOT", "EXISTS"] => Mode::IfNotExists,
        _ => Mode::Plain,
    }
}

/// The key of a definition or removal the model keeps no structure for, from the engine's printing
/// (`DEFINE EVENT e ON t WHEN ...`, `REMOVE USER u ON ROOT`): kind, name and what it is `ON`.
fn printed_key(text: &str) -> Key {
    let mut words = text.split_whitespace().skip(1).peekable();
    let kind = words.next().unwrap_or("").to_ascii_lowercase();
    let name = words
        .find(|w| !matches!(*w, "OVERWRITE" | "IF" | "NOT" | "EXISTS"))
        .unwrap_or("")
        .to_owned();
    let mut on = String::new();
    if words.next() == Some("ON") {
        on = words.find(|w| *w != "TABLE").map(unquote).unwrap_or_default();
    }
    Key {
        kind,
        on,
        name: unquote(&name),
    }
}

fn remove_def(remove: &surrealdb_sql::statements::RemoveStatement) -> Def {
    use surrealdb_sql::statements::RemoveStatement as R;
    let (key, if_exists) = match remove {
        R::Table(t) => (Key::new("table", "", &name(&t.name)), t.if_exists),
        R::Field(f) => (Key::new("field", &name(&f.what), &path(&f.name)), f.if_exists),
        R::Index(i) => (Key::new("index", &name(&i.what), &name(&i.name)), i.if_exists),
        R::Function(f) => (
            Key::new("function", "", &format!("fn::{}", f.name.as_str())),
            f.if_exists,
        ),
        R::Analyzer(a) => (Key::new("analyzer", "", &name(&a.name)), a.if_exists),
        // Removing a namespace or a database is not a schema's business: it stays a statement.
        R::Namespace(_) | R::Database(_) => return Def::Data { text: remove.to_sql() },
        other => {
            let text = other.to_sql();
            let if_exists = text.split_whitespace().nth(2) == Some("IF");
            (printed_key(&text), if_exists)
        }
    };
    Def::Remove { key, if_exists }
}

fn define_def(define: &DefineStatement) -> Def {
    match define {
        DefineStatement::Table(t) => Def::Table(table(t)),
        DefineStatement::Field(f) => Def::Field(field(f)),
        DefineStatement::Index(i) => Def::Index(index(i)),
        DefineStatement::Analyzer(a) => Def::Analyzer(analyzer(a)),
        DefineStatement::Function(f) => {
            let mut written = f.clone();
            written.kind = DefineKind::Overwrite;
            Def::Function(FunctionDef {
                name: format!("fn::{}", f.name.as_str()),
                definition: format!("{};", written.to_sql()),
            })
        }
        other => {
            let text = other.to_sql();
            let key = printed_key(&text);
            Def::Other {
                kind: key.kind.clone(),
                name: key.name.clone(),
                key,
                text,
            }
        }
    }
}

/// A name as written, without the engine's backticks or angle quotes.
pub(super) fn name(expr: &Expr) -> String {
    unquote(&expr.to_sql())
}

fn unquote(text: &str) -> String {
    let t = text.trim();
    let stripped = t
        .strip_prefix('`')
        .and_then(|s| s.strip_suffix('`'))
        .or_else(|| t.strip_prefix('⟨').and_then(|s| s.strip_suffix('⟩')));
    stripped.map_or_else(|| t.to_owned(), |s| s.replace("\\`", "`"))
}

/// A field path as `INFO` prints it: element steps as `.*` (`images[*].url` is `images.*.url`).
pub(super) fn path(expr: &Expr) -> String {
    let text = expr.to_sql().replace("[*]", ".*");
    text.split('.').map(unquote).collect::<Vec<_>>().join(".")
}

fn comment(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Literal(Literal::String(s)) => Some(s.as_str().to_owned()),
        Expr::Literal(Literal::None) => None,
        other => Some(other.to_sql()),
    }
}

fn permission(p: &Permission) -> ir::Permission {
    match p {
        Permission::None => ir::Permission::None,
        Permission::Full => ir::Permission::Full,
        Permission::Specific(e) => ir::Permission::Where(e.to_sql()),
    }
}

fn permissions(p: &Permissions) -> ir::Permissions {
    ir::Permissions {
        select: Some(permission(&p.select)),
        create: Some(permission(&p.create)),
        update: Some(permission(&p.update)),
        delete: Some(permission(&p.delete)),
    }
}

fn table(t: &surrealdb_sql::statements::DefineTableStatement) -> TableDef {
    let (kind, enforced) = match &t.table_type {
        TableType::Any => (None, false),
        TableType::Normal => (Some(ir::TableKind::Normal), false),
        TableType::Relation(r) => (
            Some(ir::TableKind::Relation {
                from: r.from.iter().map(|n| n.as_str().to_owned()).collect(),
                to: r.to.iter().map(|n| n.as_str().to_owned()).collect(),
            }),
            r.enforced,
        ),
    };
    let mut unsaid = Vec::new();
    if t.drop {
        unsaid.push("DROP".to_owned());
    }
    if let Some(cf) = &t.changefeed {
        unsaid.push(cf.to_sql());
    }
    if t.graphql_alias.is_some() || t.graphql_deprecated.is_some() {
        unsaid.push("GRAPHQL_ALIAS/GRAPHQL_DEPRECATED".to_owned());
    }
    if t.inline_edges_cap.is_some() || t.inline_refs_cap.is_some() {
        unsaid.push("INLINE EDGES/REFERENCES".to_owned());
    }
    TableDef {
        name: name(&t.name),
        kind,
        // Set from the statement's text by `statements`.
        typed: false,
        enforced,
        schemaless: !t.full,
        view: t.view.as_ref().map(|v| v.to_sql().trim_start_matches("AS ").to_owned()),
        permissions: permissions(&t.permissions),
        comment: comment(&t.comment),
        unsaid,
    }
}

fn field(f: &surrealdb_sql::statements::define::DefineFieldStatement) -> FieldDef {
    let mut p = permissions(&f.permissions);
    p.delete = None;
    let full = |x: &Option<ir::Permission>| matches!(x, Some(ir::Permission::Full));
    for slot in [&mut p.select, &mut p.create, &mut p.update] {
        if full(slot) {
            *slot = None;
        }
    }
    let clauses = ir::FieldClauses {
        default: match &f.default {
            DefineDefault::None => None,
            DefineDefault::Set(e) => Some(ir::FieldDefault {
                expr: e.to_sql(),
                always: false,
            }),
            DefineDefault::Always(e) => Some(ir::FieldDefault {
                expr: e.to_sql(),
                always: true,
            }),
        },
        value: f.value.as_ref().map(|e| e.to_sql()),
        computed: f.computed.as_ref().map(|e| e.to_sql()),
        assert: f.assert.as_ref().map(|e| e.to_sql()),
        readonly: f.readonly,
        flexible: f.flexible,
        reference: f.reference.as_ref().map(reference),
        permissions: Some(p).filter(|p| *p != ir::Permissions::default()),
    };
    let mut unsaid = Vec::new();
    if f.inline {
        unsaid.push("INLINE".to_owned());
    }
    if f.graphql_alias.is_some() || f.graphql_deprecated.is_some() {
        unsaid.push("GRAPHQL_ALIAS/GRAPHQL_DEPRECATED".to_owned());
    }
    FieldDef {
        table: name(&f.what),
        path: path(&f.name),
        kind: f.field_kind.as_ref().map(|k| k.to_sql()),
        clauses,
        comment: comment(&f.comment),
        unsaid,
    }
}

fn reference(r: &surrealdb_sql::reference::Reference) -> ir::Reference {
    use surrealdb_sql::reference::ReferenceDeleteStrategy as S;
    ir::Reference {
        on_delete: Some(match &r.on_delete {
            S::Reject => ir::OnDelete::Reject,
            S::Ignore => ir::OnDelete::Ignore,
            S::Cascade => ir::OnDelete::Cascade,
            S::Unset => ir::OnDelete::Unset,
            S::Custom(e) => ir::OnDelete::Then(e.to_sql()),
        }),
    }
}

fn index(i: &surrealdb_sql::statements::DefineIndexStatement) -> IndexDef {
    let kind = match &i.index {
        Index::Idx => Ok(ir::IndexKind::Plain),
        Index::Uniq => Ok(ir::IndexKind::Unique),
        Index::FullText(p) => {
            let bm25 = match &p.sc {
                surrealdb_sql::scoring::Scoring::Bm { k1, b } => {
                    let pair = (
                        k1.to_string().parse().unwrap_or(1.2),
                        b.to_string().parse().unwrap_or(0.75),
                    );
                    Some(pair).filter(|&(k1, b)| (k1, b) != (1.2, 0.75))
                }
                surrealdb_sql::scoring::Scoring::Vs => None,
            };
            Ok(ir::IndexKind::FullText {
                analyzer: p.az.as_str().to_owned(),
                bm25,
                highlights: p.hl,
            })
        }
        Index::Hnsw(h) => Ok(ir::IndexKind::Hnsw(ir::Hnsw {
            dimension: u32::from(h.dimension),
            dist: h.distance.to_sql().to_ascii_uppercase(),
            vector_type: h.vector_type.to_sql().to_ascii_uppercase(),
            efc: Some(u32::from(h.ef_construction)).filter(|&e| e != 150),
            m: Some(u32::from(h.m)).filter(|&m| m != 12),
        })),
        other => Err(format!(
            "a `{}` index: the grammar's indexes are plain, UNIQUE, FULLTEXT and HNSW",
            other.to_sql()
        )),
    };
    IndexDef {
        table: name(&i.what),
        name: name(&i.name),
        fields: i.cols.iter().map(path).collect(),
        kind,
        comment: comment(&i.comment),
    }
}

fn analyzer(a: &surrealdb_sql::statements::define::DefineAnalyzerStatement) -> AnalyzerDef {
    let list = |items: Option<Vec<String>>| items.unwrap_or_default();
    AnalyzerDef {
        analyzer: ir::Analyzer {
            name: name(&a.name),
            tokenizers: list(
                a.tokenizers
                    .as_ref()
                    .map(|ts| ts.iter().map(|t| t.to_sql().to_ascii_lowercase()).collect()),
            ),
            filters: list(
                a.filters
                    .as_ref()
                    .map(|fs| fs.iter().map(|f| f.to_sql().to_ascii_lowercase()).collect()),
            ),
            comment: comment(&a.comment),
        },
        function: a.function.as_ref().map(|f| format!("FUNCTION fn::{}", f.as_str())),
    }
}
