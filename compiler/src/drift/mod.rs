//! Drift: a database's definitions (`INFO FOR DB`, `INFO FOR TABLE`) against the ones a schema file leaves in an empty database, listed for a reviewer.
//!
//! Both sides are read from the engine, so both are in its spelling: the expected side is the
//! schema file applied to an empty database (a fresh embedded one in `surqlc diff`, a scratch
//! database on the application's own connection in [`check_drift`]), never our own rendering.
//!
//! ```no_run
//! // Needs a database: at start-up, refuse to serve when it is not what `schema.surql` defines.
//! use surqlc::runtime::{Connection, Surreal};
//!
//! async fn check_schema<C: Connection>(db: &Surreal<C>, schema_surql: &str) -> surqlc::runtime::Result<()> {
//!     let drift = surqlc::drift::check_drift(db, schema_surql).await?;
//!     for change in &drift.changes {
//!         eprintln!("differs: {}", change.key()); // `field email ON customer`
//!     }
//!     assert!(drift.is_empty(), "the database is not what schema.surql defines");
//!     Ok(())
//! }
//! ```

#[cfg(all(feature = "db", feature = "codegen"))]
pub mod diff;

use crate::surql::scan::{self, Kind};
use std::collections::BTreeMap;
use std::fmt;
use surrealdb::{Connection, Surreal};

/// The kinds of definition `INFO FOR DB` lists that are compared by their text, in report order.
const DB_KINDS: &[(&str, &str)] = &[
    ("tables", "table"),
    ("functions", "function"),
    ("params", "param"),
    ("analyzers", "analyzer"),
    ("accesses", "access"),
    ("users", "user"),
    ("apis", "api"),
    ("buckets", "bucket"),
    ("configs", "config"),
    ("models", "model"),
];

/// The kinds `INFO FOR TABLE` lists (its `lives` are connections, not definitions; its `tables` are
/// views, which `INFO FOR DB` lists already).
const TABLE_KINDS: &[(&str, &str)] = &[("fields", "field"), ("indexes", "index"), ("events", "event")];

/// Kinds whose `INFO` entry holds run-time state: compared by presence only.
const PRESENCE_ONLY: &[(&str, &str)] = &[("sequences", "sequence"), ("modules", "module")];

/// One definition's identity: its kind and its name as a reviewer reads it (`email ON customer`, `fn::f`, `$p`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    order: usize,
    /// The table a field, index or event belongs to (empty for database-level kinds): sorts them by table.
    table: String,
    /// The kind of definition, as `INFO` names it in the singular: `table`, `field`, `index`, `function`, ...
    pub kind: &'static str,
    /// Its name as a reviewer reads it: `customer`, `email ON customer`, `fn::f`, `$p`.
    pub name: String,
}

impl Key {
    /// The table a field, index or event belongs to; empty for a database-level definition.
    pub fn table(&self) -> &str {
        &self.table
    }

    /// The definition's own name: a field's path, an index's name (`email` of `email ON customer`).
    pub fn own_name(&self) -> &str {
        self.name.split(" ON ").next().unwrap_or(&self.name)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind, self.name)
    }
}

/// Every definition of one database, keyed by kind and name, as the engine spells it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Definitions(pub BTreeMap<Key, String>);

impl Definitions {
    /// The definition text of `kind` `name` (`("field", "email ON customer")`), if there is one.
    pub fn get(&self, kind: &str, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k.kind == kind && k.name == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One difference between what the schema defines and what the database has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Defined by the schema, absent from the database.
    Missing {
        /// Which definition.
        key: Key,
        /// Its text as the schema defines it.
        expected: String,
    },
    /// In the database, not defined by the schema.
    Extra {
        /// Which definition.
        key: Key,
        /// Its text as the database has it.
        live: String,
    },
    /// Defined by both, differently.
    Changed {
        /// Which definition.
        key: Key,
        /// Its text as the schema defines it.
        expected: String,
        /// Its text as the database has it.
        live: String,
    },
}

impl Change {
    /// Which definition differs.
    pub fn key(&self) -> &Key {
        match self {
            Change::Missing { key, .. } | Change::Extra { key, .. } | Change::Changed { key, .. } => key,
        }
    }
}

/// The differences, in report order (tables, then fields, indexes, events, functions, params, ...).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Drift {
    /// Each difference, in report order.
    pub changes: Vec<Change>,
}

impl Drift {
    /// No difference: the database is what the schema compiles to.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

/// Longest definition shown whole in a `changed` line; longer ones show where they first differ.
const SHOWN_WHOLE: usize = 160;

impl fmt::Display for Change {
    /// `- missing field email ON customer`, `+ extra table audit_log`,
    /// `~ changed comment on table product: schema "..." database "..."`: each side named.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Missing { key, .. } => write!(f, "- missing {key}"),
            Change::Extra { key, .. } => write!(f, "+ extra {key}"),
            Change::Changed { key, expected, live } => {
                if (key.kind == "user" || key.kind == "access") && mask_fingerprint(expected) == mask_fingerprint(live)
                {
                    return write!(
                        f,
                        "~ changed {key}: defined by another build of the agent (its fingerprint covers the \
                            password hash: another password, or another surqlc); applying the schema defines \
                            it again, which signs running agents out"
                    );
                }
                let (rest_e, comment_e) = split_comment(expected);
                let (rest_l, comment_l) = split_comment(live);
                if rest_e == rest_l {
                    let show = |c: Option<&str>| c.map_or("none".to_owned(), str::to_owned);
                    return write!(
                        f,
                        "~ changed comment on {key}: schema {} database {}",
                        show(comment_e.as_deref()),
                        show(comment_l.as_deref())
                    );
                }
                if key.kind == "param" && key.name == CACHE_PARAM {
                    return write!(
                        f,
                        "~ changed {key}: the cached schema block differs from the one the schema renders \
                            (apply the schema again; after a manual change, fn::refresh_schema_context() \
                            re-renders it)"
                    );
                }
                if expected.chars().count() <= SHOWN_WHOLE && live.chars().count() <= SHOWN_WHOLE {
                    write!(f, "~ changed {key}:\n    schema:   {expected}\n    database: {live}")
                } else {
                    let (schema, database) = first_difference(expected, live);
                    write!(
                        f,
                        "~ changed {key}, first difference:\n    schema:   {schema}\n    database: {database}"
                    )
                }
            }
        }
    }
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for change in &self.changes {
            writeln!(f, "{change}")?;
        }
        Ok(())
    }
}

/// The parameter holding the cached schema block (`templates/schema/prompt.surql.tera`).
pub const CACHE_PARAM: &str = "$schema_context_cache";

/// How the two sides are compared.
#[derive(Debug, Clone, Copy, Default)]
pub struct CompareOptions {
    /// Compare users without their `PASSHASH` (when the expected side was built without the real password).
    /// SurrealDB 3.3's `INFO` already prints every hash as `[REDACTED]`, so no version compares passwords.
    pub ignore_passhash: bool,
}

/// What `expected` (the schema applied to an empty database) lacks, adds or spells differently from `live`.
pub fn compare(expected: &Definitions, live: &Definitions, options: CompareOptions) -> Drift {
    let normal = |key: &Key, text: &str| {
        if options.ignore_passhash && key.kind == "user" {
            mask_fingerprint(&mask_passhash(text))
        } else {
            text.to_owned()
        }
    };
    let mut changes = Vec::new();
    let mut live_iter = live.0.iter().peekable();
    // Both maps are sorted by key: one merge pass.
    for (key, e) in &expected.0 {
        while let Some((lk, l)) = live_iter.peek() {
            if *lk < key {
                changes.push(Change::Extra {
                    key: (*lk).clone(),
                    live: (*l).clone(),
                });
                live_iter.next();
            } else {
                break;
            }
        }
        match live_iter.peek() {
            Some((lk, l)) if *lk == key => {
                if normal(key, e) != normal(key, l) {
                    changes.push(Change::Changed {
                        key: key.clone(),
                        expected: e.clone(),
                        live: (*l).clone(),
                    });
                }
                live_iter.next();
            }
            _ => changes.push(Change::Missing {
                key: key.clone(),
                expected: e.clone(),
            }),
        }
    }
    for (lk, l) in live_iter {
        changes.push(Change::Extra {
            key: lk.clone(),
            live: l.clone(),
        });
    }
    Drift { changes }
}

/// Reads every definition of the session's database: `INFO FOR DB`, then `INFO FOR TABLE` for each table.
pub async fn definitions<C: Connection>(db: &Surreal<C>) -> Result<Definitions, surrealdb::Error> {
    let info = info(db, "INFO FOR DB").await?;
    let mut out = BTreeMap::new();
    let mut order = 0;
    for (group, kind) in DB_KINDS {
        for (name, text) in entries(&info, group) {
            let name = match *kind {
                "function" => format!("fn::{name}"),
                "param" => format!("${name}"),
                _ => name,
            };
            out.insert(
                Key {
                    order,
                    table: String::new(),
                    kind,
                    name,
                },
                text,
            );
        }
        order += 1;
        // A table's own definitions follow the tables.
        if *group == "tables" {
            let tables: Vec<String> = entries(&info, "tables").into_iter().map(|(n, _)| n).collect();
            let mut statement = String::new();
            for t in &tables {
                statement.push_str("INFO FOR TABLE ");
                statement.push_str(&crate::surql::lex::escape_ident(t));
                statement.push_str(";\n");
            }
            let per_table = if tables.is_empty() {
                Vec::new()
            } else {
                infos(db, &statement, tables.len()).await?
            };
            for (i, (group, kind)) in TABLE_KINDS.iter().enumerate() {
                for (t, tinfo) in tables.iter().zip(&per_table) {
                    for (name, text) in entries(tinfo, group) {
                        out.insert(
                            Key {
                                order: order + i,
                                table: t.clone(),
                                kind,
                                name: format!("{name} ON {t}"),
                            },
                            text,
                        );
                    }
                }
            }
            order += TABLE_KINDS.len();
        }
    }
    for (group, kind) in PRESENCE_ONLY {
        for (name, _) in entries(&info, group) {
            out.insert(
                Key {
                    order,
                    table: String::new(),
                    kind,
                    name,
                },
                String::new(),
            );
        }
        order += 1;
    }
    Ok(Definitions(out))
}

/// The definitions `schema_surql` leaves in an empty database, read on a scratch database beside
/// `db`'s: a new session on the same connection (same credentials) selects a database named
/// `surqlc_drift_*` in `db`'s namespace, applies the schema, reads it and removes the database.
/// The session must be allowed to define and remove a database there (a namespace or root user).
pub async fn expected_beside<C: Connection>(
    db: &Surreal<C>,
    schema_surql: &str,
) -> Result<Definitions, surrealdb::Error> {
    let namespace: Option<String> = db.query("RETURN session::ns()").await?.check()?.take(0)?;
    let namespace = namespace.ok_or_else(|| {
        surrealdb::Error::internal("check_drift needs a connection with a namespace selected".to_owned())
    })?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let name = format!("surqlc_drift_{}_{nanos}", std::process::id());
    // Cloning a `Surreal` handle opens a new session with the same credentials: `db` keeps its database.
    let scratch = db.clone();
    scratch.use_ns(namespace).use_db(name.as_str()).await?;
    let read = async {
        scratch.query(schema_surql).await?.check()?;
        definitions(&scratch).await
    }
    .await;
    let removed = scratch
        .query(format!(
            "REMOVE DATABASE IF EXISTS {}",
            crate::surql::lex::escape_ident(&name)
        ))
        .await
        .and_then(|r| r.check().map(|_| ()));
    let definitions = read?;
    removed?;
    Ok(definitions)
}

/// How `db`'s database differs from what `schema_surql` defines, both read from the engine (see [`expected_beside`]).
pub async fn check_drift<C: Connection>(db: &Surreal<C>, schema_surql: &str) -> Result<Drift, surrealdb::Error> {
    let expected = expected_beside(db, schema_surql).await?;
    let live = definitions(db).await?;
    Ok(compare(&expected, &live, CompareOptions::default()))
}

/// The definitions `script` (a compiled schema, a dump, any SurrealQL file) leaves in a fresh embedded database.
#[cfg(feature = "db")]
pub async fn embedded_definitions(script: &str) -> Result<Definitions, surrealdb::Error> {
    let conn = crate::db::connect(&crate::db::Target::default()).await?;
    crate::db::execute(&conn, script).await?;
    definitions(&conn).await
}

async fn info<C: Connection>(db: &Surreal<C>, statement: &str) -> Result<serde_json::Value, surrealdb::Error> {
    Ok(infos(db, statement, 1).await?.pop().unwrap_or_default())
}

/// The results of `n` `INFO` statements sent as one query.
async fn infos<C: Connection>(
    db: &Surreal<C>,
    statement: &str,
    n: usize,
) -> Result<Vec<serde_json::Value>, surrealdb::Error> {
    let mut response = db.query(statement).await?.check()?;
    (0..n)
        .map(|i| {
            let value: surrealdb::types::Value = response.take(i)?;
            Ok(value.into_json_value())
        })
        .collect()
}

/// The `name: definition` pairs of one group of an `INFO` object; a non-string entry is kept as JSON text.
fn entries(info: &serde_json::Value, group: &str) -> Vec<(String, String)> {
    match info.get(group) {
        Some(serde_json::Value::Object(map)) => map
            .iter()
            .map(|(name, v)| {
                let text = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (name.clone(), text)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Splits off a definition's top-level `COMMENT` clause: the rest, and the comment's string literal
/// as written. Read through `surql::scan`, so a `COMMENT` inside a string, a name or a block is not one.
fn split_comment(def: &str) -> (String, Option<String>) {
    let tokens = scan::code(def);
    let mut depth = 0i32;
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == Kind::Punct {
            match t.text.as_str() {
                "{" | "(" | "[" => depth += 1,
                "}" | ")" | "]" => depth -= 1,
                _ => {}
            }
            continue;
        }
        if depth != 0 || !is_keyword(def, t, "COMMENT") || !def[..t.start].ends_with(' ') {
            continue;
        }
        // The clause as the engine prints it: ` COMMENT 'text'`, one space each side.
        if let Some(value) = tokens.get(i + 1) {
            if value.kind == Kind::Str
                && value.start == t.end + 1
                && matches!(def.as_bytes()[value.start], b'\'' | b'"')
            {
                let rest = format!("{}{}", &def[..t.start - 1], &def[value.end..]);
                return (rest, Some(def[value.start..value.end].to_owned()));
            }
        }
    }
    (def.to_owned(), None)
}

/// Whether `t` is the bare keyword `word` as the engine prints it (not a quoted name that reads the same).
fn is_keyword(def: &str, t: &scan::Token, word: &str) -> bool {
    t.kind == Kind::Ident && &def[t.start..t.end] == word
}

/// A user definition with its password hash replaced by `<hash>`: the value after the `PASSHASH`
/// keyword (a string literal, or an unquoted run up to the next space).
fn mask_passhash(def: &str) -> String {
    let tokens = scan::code(def);
    let Some(value) = tokens
        .windows(2)
        .find(|w| is_keyword(def, &w[0], "PASSHASH"))
        .map(|w| &w[1])
    else {
        return def.to_owned();
    };
    let end = if value.kind == Kind::Str {
        value.end
    } else {
        def[value.start..].find(' ').map_or(def.len(), |i| value.start + i)
    };
    format!("{}<hash>{}", &def[..value.start], &def[end..])
}

/// A definition with the agent's fingerprint replaced by `<fingerprint>`: the fingerprint covers
/// the password hash, so it is left out where the hash is.
fn mask_fingerprint(def: &str) -> String {
    use crate::access::FINGERPRINT_MARK;
    let Some(at) = def.find(FINGERPRINT_MARK) else {
        return def.to_owned();
    };
    let start = at + FINGERPRINT_MARK.len();
    let end = def[start..]
        .find(|c: char| !c.is_ascii_hexdigit())
        .map_or(def.len(), |i| start + i);
    format!("{}<fingerprint>{}", &def[..start], &def[end..])
}

/// The byte offset where `a` and `b` first differ (the shorter one's length when one starts the
/// other): a character boundary of both. Drift's `changed` lines and the audit's live check show text from here.
pub(crate) fn first_difference_at(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
}

/// Each text from a little before where they first differ, up to 60 characters further.
fn first_difference(a: &str, b: &str) -> (String, String) {
    let at = first_difference_at(a, b);
    let window = |s: &str| {
        let mut start = at.min(s.len()).saturating_sub(40);
        while !s.is_char_boundary(start) {
            start -= 1;
        }
        let text: String = s[start..].chars().take(100).collect();
        format!(
            "{}{text}{}",
            if start > 0 { "..." } else { "" },
            if s.len() > start + text.len() { "..." } else { "" }
        )
    };
    (window(a), window(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_is_split_off_at_top_level_only() {
        let (rest, c) =
            split_comment("DEFINE TABLE t TYPE NORMAL SCHEMAFULL COMMENT 'it\\'s \" COMMENT x' PERMISSIONS NONE");
        assert_eq!(rest, "DEFINE TABLE t TYPE NORMAL SCHEMAFULL PERMISSIONS NONE");
        assert_eq!(c.as_deref(), Some("'it\\'s \" COMMENT x'"));
        let (rest, c) =
            split_comment("DEFINE FUNCTION fn::f() { RETURN 'a COMMENT b' + \" COMMENT 'x'\"; } PERMISSIONS FULL");
        assert_eq!(c, None);
        assert!(rest.ends_with("PERMISSIONS FULL"));
    }

    #[test]
    fn the_passhash_is_masked() {
        assert_eq!(
            mask_passhash("DEFINE USER agent ON DATABASE PASSHASH '$argon2id$v=19$x' ROLES VIEWER"),
            "DEFINE USER agent ON DATABASE PASSHASH <hash> ROLES VIEWER"
        );
    }

    #[test]
    fn a_comment_inside_a_quoted_name_is_part_of_the_name() {
        // `⟨⟩` quotes a name as backticks do: what is inside is not a clause.
        let (rest, c) = split_comment("DEFINE TABLE ⟨a COMMENT 'b'⟩ TYPE NORMAL COMMENT 'real' PERMISSIONS NONE");
        assert_eq!(c.as_deref(), Some("'real'"));
        assert_eq!(rest, "DEFINE TABLE ⟨a COMMENT 'b'⟩ TYPE NORMAL PERMISSIONS NONE");
        let (rest, c) = split_comment("DEFINE FIELD x ON t TYPE string -- COMMENT 'no'");
        assert_eq!(
            (rest.as_str(), c),
            ("DEFINE FIELD x ON t TYPE string -- COMMENT 'no'", None)
        );
    }

    #[test]
    fn only_the_passhash_keyword_is_masked() {
        assert_eq!(
            mask_passhash("DEFINE USER `a PASSHASH b` ON DATABASE PASSHASH '$argon2id$x' ROLES VIEWER"),
            "DEFINE USER `a PASSHASH b` ON DATABASE PASSHASH <hash> ROLES VIEWER"
        );
        assert_eq!(
            mask_passhash("DEFINE USER a ON DATABASE PASSHASH $argon2id$v=19$x ROLES VIEWER"),
            "DEFINE USER a ON DATABASE PASSHASH <hash> ROLES VIEWER"
        );
        assert_eq!(
            mask_passhash("DEFINE USER a ON DATABASE PASSHASH 'open"),
            "DEFINE USER a ON DATABASE PASSHASH <hash>"
        );
    }

    #[test]
    fn the_agents_fingerprint_is_masked_with_its_hash() {
        let a = "DEFINE USER agent ON DATABASE PASSHASH '[REDACTED]' ROLES VIEWER COMMENT 'surqlc agent \
            definition 0ab21513b7f1ea9b: defined again only when this changes'";
        let b = a.replace("0ab21513b7f1ea9b", "763c87dd26b827ad");
        assert_ne!(a, b);
        assert_eq!(mask_fingerprint(a), mask_fingerprint(&b));
        assert!(mask_fingerprint(a).contains("definition <fingerprint>: defined"));
    }

    fn defs(items: &[(&'static str, &str, &str)]) -> Definitions {
        Definitions(
            items
                .iter()
                .map(|(kind, name, text)| {
                    let order = ["table", "field", "index"].iter().position(|k| k == kind).unwrap_or(9);
                    let table = name.split(" ON ").nth(1).unwrap_or("").to_owned();
                    (
                        Key {
                            order,
                            table,
                            kind,
                            name: (*name).to_owned(),
                        },
                        (*text).to_owned(),
                    )
                })
                .collect(),
        )
    }

    #[test]
    fn compare_lists_missing_extra_and_changed_in_order() {
        let expected = defs(&[
            ("table", "product", "DEFINE TABLE product COMMENT 'An item.'"),
            (
                "field",
                "email ON customer",
                "DEFINE FIELD email ON customer TYPE string",
            ),
            (
                "index",
                "by_name ON product",
                "DEFINE INDEX by_name ON product FIELDS name",
            ),
        ]);
        let live = defs(&[
            ("table", "audit", "DEFINE TABLE audit"),
            ("table", "product", "DEFINE TABLE product COMMENT 'A thing.'"),
            (
                "index",
                "by_name ON product",
                "DEFINE INDEX by_name ON product FIELDS name UNIQUE",
            ),
        ]);
        let drift = compare(&expected, &live, CompareOptions::default());
        assert_eq!(
            drift.to_string(),
            "+ extra table audit\n\
             ~ changed comment on table product: schema 'An item.' database 'A thing.'\n\
             - missing field email ON customer\n\
             ~ changed index by_name ON product:\n    schema:   DEFINE INDEX by_name ON product FIELDS name\n    database: DEFINE INDEX by_name ON product FIELDS name UNIQUE\n"
        );
        assert!(compare(&expected, &expected, CompareOptions::default()).is_empty());
    }
}
