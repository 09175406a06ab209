//! Every table helper of every example schema (and of the fixtures with indexes) called on the embedded engine with the schema's seed: each runs without an engine error, and answers typed rows where the seed has matching data.
//!
//! The calls come from the generated modules themselves (`tests/build/helper_calls.rs` reads each
//! one back), so a helper a module holds cannot be left out. Index helpers (`search_*`,
//! `nearest_*`, `find_by_*`) are called with words, vectors and values taken from seed rows, so
//! each must find at least one row; the others are compared with the engine's own answer.

/// The generated modules, compiled as an application compiles them (tests/build.rs).
#[deny(warnings)]
#[allow(dead_code)]
mod store_db {
    include!(concat!(env!("OUT_DIR"), "/store/schema.rs"));
}
#[deny(warnings)]
#[allow(dead_code)]
mod library_db {
    include!(concat!(env!("OUT_DIR"), "/library/schema.rs"));
}
#[deny(warnings)]
#[allow(dead_code)]
mod memory_db {
    include!(concat!(env!("OUT_DIR"), "/memory/schema.rs"));
}
#[deny(warnings)]
#[allow(dead_code)]
mod meetings_db {
    include!(concat!(env!("OUT_DIR"), "/meetings/schema.rs"));
}
#[deny(warnings)]
#[allow(dead_code)]
mod enterprise_db {
    include!(concat!(env!("OUT_DIR"), "/enterprise/schema.rs"));
}
#[deny(warnings)]
#[allow(dead_code)]
mod marketplace_db {
    include!(concat!(env!("OUT_DIR"), "/marketplace/schema.rs"));
}
#[deny(warnings)]
#[allow(dead_code)]
mod clinic_db {
    include!(concat!(env!("OUT_DIR"), "/clinic/schema.rs"));
}
#[deny(warnings)]
#[allow(dead_code)]
mod objects_db {
    include!(concat!(env!("OUT_DIR"), "/objects/schema.rs"));
}
#[deny(warnings)]
#[allow(dead_code)]
pub(crate) mod flexible_db {
    include!(concat!(env!("OUT_DIR"), "/flexible/schema.rs"));
}

/// Indexes on paths inside FLEXIBLE objects, an `id` inside an object (tests/fixtures/flexible.rs).
#[path = "fixtures/flexible.rs"]
#[allow(dead_code)]
pub(crate) mod fixture;

/// Per module, a function per table calling each of its helpers, and `NAME: &[Call]` listing them.
mod calls {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/helper_calls.rs"));
}

use std::fmt::Debug;
use surqlc::runtime::{surrealdb, Link, Nearest, Record, Scored, SurrealValue, Value};
use surqlc_tests::*;

type Db = surrealdb::Surreal<surrealdb::engine::any::Any>;

/// One table's calls, as `helper_calls.rs` lists them.
type Call = for<'a> fn(&'a Db, &'a mut Report) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + 'a>>;

/// This checkout's root: the files these tests add are read from where the suite was built
/// (`surqlc_tests::root` is wherever the shared support crate was first compiled).
pub(crate) fn repo() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_owned()
}

/// What was called: with data (each index helper must be), without (a table the seed leaves
/// empty, a traversal no seed row reaches), and the write helpers left to their own tests.
#[derive(Default, Debug)]
pub struct Report {
    with_data: Vec<String>,
    without_data: Vec<String>,
    writes: Vec<String>,
}

/// A stored value read back as a helper's parameter type.
fn typed<V: SurrealValue>(value: &Value) -> V {
    V::from_value(value.clone()).unwrap_or_else(|e| panic!("{value:?} as a parameter: {e}"))
}

/// The text between `from` and `to` in a generated query (the path an index helper reads).
fn between<'q>(query: &'q str, from: &str, to: &str) -> &'q str {
    let start = query
        .find(from)
        .map(|i| i + from.len())
        .unwrap_or_else(|| panic!("{query}"));
    let end = query[start..].find(to).unwrap_or_else(|| panic!("{query}")) + start;
    &query[start..end]
}

/// One table's helpers under test: its first rows' ids, and what was called.
pub struct Table<T: surqlc::runtime::Table> {
    db: Db,
    label: String,
    links: Vec<Link<T>>,
    report: Report,
}

impl<T: surqlc::runtime::Table> Table<T> {
    pub async fn new(db: &Db, schema: &str, module: &str) -> Self {
        let ids: Vec<surqlc::runtime::RecordId> = db
            .query("SELECT VALUE id FROM type::table($t) ORDER BY id LIMIT 20")
            .bind(("t", T::TABLE))
            .await
            .and_then(|r| r.check())
            .and_then(|mut r| r.take(0))
            .unwrap_or_else(|e| panic!("{schema}.{module}: the ids: {e}"));
        Table {
            db: db.clone(),
            label: format!("{schema}.{module}"),
            links: ids.into_iter().map(|id| Link::from_record_id(id).unwrap()).collect(),
            report: Report::default(),
        }
    }

    fn ran(&mut self, helper: &str, with_data: bool) {
        let name = format!("{}::{helper}", self.label);
        if with_data {
            self.report.with_data.push(name);
        } else {
            self.report.without_data.push(name);
        }
    }

    /// What the engine answers for `surql` with these bindings, as plain values.
    async fn raw(&self, surql: &str, bindings: Vec<(&'static str, Value)>) -> Vec<Value> {
        let mut q = self.db.query(surql.to_owned());
        for b in bindings {
            q = q.bind(b);
        }
        q.await
            .and_then(|r| r.check())
            .and_then(|mut r| r.take(0))
            .unwrap_or_else(|e| panic!("{}: {surql}: {e}", self.label))
    }

    /// The first stored value at each path (a row where none is NONE), or `None`.
    async fn sample(&self, paths: &[&str]) -> Option<Vec<Value>> {
        let present: Vec<String> = paths.iter().map(|p| format!("{p} != NONE")).collect();
        let surql = format!(
            "SELECT VALUE [{}] FROM type::table($t) WHERE {} ORDER BY id LIMIT 1",
            paths.join(", "),
            present.join(" AND ")
        );
        let rows = self.raw(&surql, vec![("t", Value::from_t(T::TABLE.to_owned()))]).await;
        match rows.into_iter().next() {
            Some(Value::Array(values)) => Some(values.into_iter().collect()),
            _ => None,
        }
    }

    pub async fn get<E: Debug>(&mut self, name: &str, f: impl AsyncFn(&Link<T>) -> Result<Option<T>, E>) {
        let (link, with_data) = match self.links.first() {
            Some(l) => (l.clone(), true),
            None => (Link::new("absent"), false),
        };
        let row = f(&link)
            .await
            .unwrap_or_else(|e| panic!("{}::{name}: {e:?}", self.label));
        assert_eq!(row.is_some(), with_data, "{}::{name}({link})", self.label);
        self.ran(name, with_data);
    }

    pub async fn get_by_key<E: Debug>(&mut self, name: &str, f: impl AsyncFn(T::Key) -> Result<Option<Record<T>>, E>) {
        // A key of the struct's type exists only for a stored row.
        let Some(link) = self.links.first().cloned() else {
            self.ran(name, false);
            return;
        };
        let key = link
            .typed_key()
            .unwrap_or_else(|| panic!("{}: {link} has no typed key", self.label));
        let row = f(key).await.unwrap_or_else(|e| panic!("{}::{name}: {e:?}", self.label));
        assert_eq!(row.map(|r| r.id), Some(link), "{}::{name}", self.label);
        self.ran(name, true);
    }

    pub async fn select<E: Debug>(
        &mut self,
        name: &str,
        query: &str,
        f: impl AsyncFn(u32) -> Result<Vec<Record<T>>, E>,
    ) {
        let rows = f(1000)
            .await
            .unwrap_or_else(|e| panic!("{}::{name}: {e:?}", self.label));
        let raw = self.raw(query, vec![("limit", Value::from_t(1000))]).await;
        assert_eq!(
            rows.len(),
            raw.len(),
            "{}::{name}: typed rows against the engine's",
            self.label
        );
        self.ran(name, !rows.is_empty());
    }

    pub async fn traverse<R, E: Debug>(
        &mut self,
        name: &str,
        query: &str,
        f: impl AsyncFn(&Link<T>) -> Result<Vec<R>, E>,
    ) {
        let links = if self.links.is_empty() {
            vec![Link::new("absent")]
        } else {
            self.links.clone()
        };
        let mut found = 0;
        for link in &links {
            let rows = f(link)
                .await
                .unwrap_or_else(|e| panic!("{}::{name}({link}): {e:?}", self.label));
            let raw = self.raw(query, vec![("id", Value::RecordId(link.record_id()))]).await;
            assert_eq!(
                rows.len(),
                raw.len(),
                "{}::{name}({link}): typed rows against the engine's",
                self.label
            );
            found += rows.len();
        }
        self.ran(name, found > 0);
    }

    pub async fn search<E: Debug>(
        &mut self,
        name: &str,
        query: &str,
        f: impl AsyncFn(&str, u32) -> Result<Vec<Scored<T>>, E>,
    ) {
        let path = between(query, " WHERE ", " @1@ ");
        let text = match self.sample(&[path]).await.as_deref() {
            Some([Value::String(s)]) => s.clone(),
            other => panic!(
                "{}::{name}: the seed has no text at `{path}` to search for ({other:?}); add a row",
                self.label
            ),
        };
        // The longest word of a stored text: the analyzer turns it into a term the index holds.
        let word = text
            .split(|c: char| !c.is_alphabetic())
            .max_by_key(|w| w.chars().count())
            .unwrap_or_default()
            .to_owned();
        let hits = f(&word, 10)
            .await
            .unwrap_or_else(|e| panic!("{}::{name}({word:?}): {e:?}", self.label));
        assert!(
            !hits.is_empty(),
            "{}::{name}({word:?}) finds the row it came from",
            self.label
        );
        let scores: Vec<f64> = hits.iter().map(|h| h.score).collect();
        assert!(scores.iter().all(|s| *s > 0.0), "{}::{name}: {scores:?}", self.label);
        let bindings = vec![("query", Value::from_t(word.clone())), ("limit", Value::from_t(10))];
        assert_eq!(
            hits.len(),
            self.raw(query, bindings).await.len(),
            "{}::{name}({word:?})",
            self.label
        );
        self.ran(name, true);
    }

    pub async fn nearest<E: Debug>(
        &mut self,
        name: &str,
        query: &str,
        f: impl AsyncFn(&[f64], u32) -> Result<Vec<Nearest<T>>, E>,
    ) {
        let path = between(query, " WHERE ", " <|");
        let vector: Vec<f64> = match self.sample(&[path]).await {
            Some(values) => typed(&values[0]),
            None => panic!("{}::{name}: the seed has no vector at `{path}`; add a row", self.label),
        };
        let near = f(&vector, 3)
            .await
            .unwrap_or_else(|e| panic!("{}::{name}: {e:?}", self.label));
        assert!(
            !near.is_empty(),
            "{}::{name} finds the row its vector came from",
            self.label
        );
        let distances: Vec<f64> = near.iter().map(|n| n.distance).collect();
        assert!(distances[0].abs() < 1e-3, "{}::{name}: {distances:?}", self.label);
        assert!(
            distances.windows(2).all(|w| w[0] <= w[1]),
            "{}::{name}: {distances:?}",
            self.label
        );
        self.ran(name, true);
    }

    pub async fn find<E: Debug>(
        &mut self,
        name: &str,
        query: &str,
        f: impl AsyncFn(Vec<Value>) -> Result<Option<Record<T>>, E>,
    ) {
        let condition = between(query, " WHERE ", " LIMIT 1");
        let paths: Vec<&str> = condition
            .split(" AND ")
            .map(|c| c.split_once(" = $").map_or(c, |(path, _)| path))
            .collect();
        let Some(values) = self.sample(&paths).await else {
            panic!(
                "{}::{name}: the seed has no row with `{}` to look up; add one",
                self.label,
                paths.join("`, `")
            );
        };
        let row = f(values.clone())
            .await
            .unwrap_or_else(|e| panic!("{}::{name}({values:?}): {e:?}", self.label));
        assert!(
            row.is_some(),
            "{}::{name}({values:?}) finds the row they came from",
            self.label
        );
        self.ran(name, true);
    }

    /// A write helper (issue 51's typed inputs): run on the engine by its own tests.
    #[allow(dead_code)] // Until the modules generate write helpers.
    pub fn write_helper(&mut self, name: &str) {
        self.report.writes.push(format!("{}::{name}", self.label));
    }

    pub fn done(self, report: &mut Report) {
        report.with_data.extend(self.report.with_data);
        report.without_data.extend(self.report.without_data);
        report.writes.extend(self.report.writes);
    }
}

/// A fresh database with the module's schema applied and its seed loaded.
async fn seeded(name: &str, seed: Option<&str>, apply: impl AsyncFn(&Db)) -> Db {
    let db = surrealdb::engine::any::connect("mem://").await.unwrap();
    db.use_ns("helpers").use_db(name).await.unwrap();
    apply(&db).await;
    if let Some(seed) = seed {
        db.query(read(repo().join(seed)))
            .await
            .and_then(|r| r.check())
            .unwrap_or_else(|e| panic!("{seed} loads: {e}"));
    }
    db
}

macro_rules! run {
    ($report:ident, $name:ident, $list:ident, $module:ident, $seed:expr) => {{
        let db = seeded(stringify!($name), $seed, async |db| {
            $module::apply_schema(db).await.expect("the schema applies")
        })
        .await;
        for call in calls::$list {
            call(&db, &mut $report).await;
        }
    }};
}

#[test]
fn every_table_helper_of_every_schema_runs_on_the_engine() {
    block_on(async {
        let mut report = Report::default();
        run!(report, store, STORE, store_db, Some("schemas/store.seed.surql"));
        run!(report, library, LIBRARY, library_db, None);
        run!(report, memory, MEMORY, memory_db, Some("schemas/memory.seed.surql"));
        run!(
            report,
            meetings,
            MEETINGS,
            meetings_db,
            Some("schemas/meetings.seed.surql")
        );
        run!(
            report,
            enterprise,
            ENTERPRISE,
            enterprise_db,
            Some("schemas/enterprise.seed.surql")
        );
        run!(
            report,
            marketplace,
            MARKETPLACE,
            marketplace_db,
            Some("schemas/marketplace.seed.surql")
        );
        run!(report, clinic, CLINIC, clinic_db, Some("schemas/clinic.seed.surql"));
        run!(
            report,
            objects,
            OBJECTS,
            objects_db,
            Some("tests/fixtures/objects.seed.surql")
        );
        run!(
            report,
            flexible,
            FLEXIBLE,
            flexible_db,
            Some("tests/fixtures/flexible.seed.surql")
        );
        let empty: std::collections::BTreeMap<&str, usize> =
            report.without_data.iter().fold(Default::default(), |mut by, h| {
                *by.entry(h.split('.').next().unwrap_or_default()).or_default() += 1;
                by
            });
        println!(
            "{} helpers answered rows, {} ran on an empty answer (by schema: {empty:?}), {} write helpers left to their tests",
            report.with_data.len(),
            report.without_data.len(),
            report.writes.len(),
        );
        // The index helpers on paths inside FLEXIBLE objects, and the ones of the real schemas.
        for helper in [
            "flexible.message::search_content_body",
            "flexible.message::find_by_meta_slug",
            "flexible.seller::find_by_address_id",
            "memory.file::search_content",
            "memory.file::nearest_embedding",
            "memory.file::find_by_parent_key_and_name",
            "clinic.visit::search_notes",
            "marketplace.seller::find_by_email",
            "objects.wishlist::find_by_in_and_out",
        ] {
            assert!(
                report.with_data.iter().any(|h| h == helper),
                "{helper} ran on data: {report:?}"
            );
        }
    })
}
