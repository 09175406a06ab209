//! The generated write helpers (`create`, `create_at`, `insert`, `insert_many`, `update`, `merge`, `delete`, a relation's `relate`) on the embedded engine: every table's rows of every example schema round-trip through them, and what the engine does with each statement they send.

#[deny(warnings)]
mod store_db {
    include!(concat!(env!("OUT_DIR"), "/store/schema.rs"));
}

#[deny(warnings)]
mod library_db {
    include!(concat!(env!("OUT_DIR"), "/library/schema.rs"));
}

#[deny(warnings)]
mod memory_db {
    include!(concat!(env!("OUT_DIR"), "/memory/schema.rs"));
}

#[deny(warnings)]
mod meetings_db {
    include!(concat!(env!("OUT_DIR"), "/meetings/schema.rs"));
}

#[deny(warnings)]
mod marketplace_db {
    include!(concat!(env!("OUT_DIR"), "/marketplace/schema.rs"));
}

#[deny(warnings)]
mod clinic_db {
    include!(concat!(env!("OUT_DIR"), "/clinic/schema.rs"));
}

#[deny(warnings)]
mod store_writes_db {
    include!(concat!(env!("OUT_DIR"), "/store_writes/schema.rs"));
}

// The enterprise schema's module (168 tables) is compiled once, by tests/golden.rs.
use crate::golden::enterprise_db;
use surqlc::ir::{Schema, Type};
use surqlc::runtime::{surrealdb, Record, SurrealValue, Value};
use surqlc_tests::*;

type Db = surrealdb::Surreal<surrealdb::engine::any::Any>;

/// An embedded database with a module's schema applied and, when given, a data file loaded.
async fn database(apply: impl std::future::Future<Output = surqlc::runtime::Result<()>>, db: &Db, seed: Option<&str>) {
    apply.await.expect("the schema applies");
    if let Some(seed) = seed {
        db.query(read(root().join("schemas").join(seed)))
            .await
            .unwrap()
            .check()
            .expect("the data loads");
    }
}

async fn empty() -> Db {
    let db = surrealdb::engine::any::connect("mem://").await.unwrap();
    db.use_ns("t").use_db("writes").await.unwrap();
    db
}

/// The fields of `table` the engine computes again on every write (`VALUE`): left out of comparisons.
fn recomputed(schema: &Schema, table: &str) -> Vec<String> {
    let table = schema.table(table).expect("a table of the schema");
    table
        .field_paths()
        .into_iter()
        .filter(|(_, f)| {
            f.clauses.value.is_some() || matches!(&f.ty, Type::Raw(raw) if raw.clauses.to_lowercase().contains("value"))
        })
        .map(|(path, _)| path)
        .collect()
}

/// `value` without the field at `path` (`time.updated_at`; inside arrays, `images.*.x`, each element's).
fn remove_path(value: &mut Value, path: &[&str]) {
    match (value, path) {
        (Value::Object(object), [last]) => {
            object.remove(*last);
        }
        (Value::Array(items), ["*", rest @ ..]) => items.iter_mut().for_each(|v| remove_path(v, rest)),
        (Value::Object(object), [head, rest @ ..]) => {
            if let Some(inner) = object.get_mut(*head) {
                remove_path(inner, rest);
            }
        }
        _ => {}
    }
}

/// Whether the engine may choose a new row's id: the table declares no key type, or a string one.
fn random_ids(schema: &Schema, table: &str) -> bool {
    matches!(
        schema.table(table).and_then(|t| t.id.as_ref()),
        None | Some(Type::String)
    )
}

/// A row's value as compared: without the recomputed fields, and without its id unless `keep_id`.
fn comparable(value: Value, skip: &[String], keep_id: bool) -> Value {
    let mut value = value;
    for path in skip {
        remove_path(&mut value, &path.split('.').collect::<Vec<_>>());
    }
    if !keep_id {
        remove_path(&mut value, &["id"]);
    }
    value
}

/// How many tables, edges and rows a schema's round trips went through.
#[derive(Debug, Default)]
struct Tally {
    tables: usize,
    edges: usize,
    rows: usize,
}

/// Up to two rows of a table through `update` (the row itself: unchanged), an empty `merge`
/// (unchanged), `delete` (the row as it was; gone after), `create_at` its own id (the row again)
/// and, where the engine chooses ids, `create`, `insert_many` and `insert` (the row under a new id).
macro_rules! table {
    ($db:ident, $tally:ident, $schema:ident, $t:ident) => {{
        // Each table's round trip on the heap: a schema's 168 inlined would overflow the stack.
        $tally.rows += Box::pin(async {
            let mut rows_done = 0usize;
            use $schema::$t as t;
            let schema = $schema::schema_ir();
            let name = <t::Row as surqlc::runtime::Table>::TABLE;
            let skip = recomputed(schema, name);
            let rows = t::select(&$db, 2).await.unwrap_or_else(|e| panic!("{name}: {e}"));
            let fail = |what: &str, e: surrealdb::Error| -> ! { panic!("{what} on {name}: {e}") };
            for record in rows {
                let id = record.id.clone();
                let before = record.into_value();
                // The row as the engine answers it, computed fields too (its struct reads them).
                let raw: Value = $db
                    .query("SELECT * FROM ONLY $id")
                    .bind(("id", id.record_id()))
                    .await
                    .unwrap()
                    .take(0)
                    .unwrap();
                let copy = || -> t::Input {
                    let row: Record<t::Row> = SurrealValue::from_value(raw.clone()).unwrap();
                    row.data.into()
                };
                let same = |after: Record<t::Row>, keep_id: bool, what: &str| {
                    assert_eq!(
                        comparable(after.into_value(), &skip, keep_id),
                        comparable(before.clone(), &skip, keep_id),
                        "{what} on {name}"
                    );
                };
                let updated = t::update(&$db, &id, copy()).await.unwrap_or_else(|e| fail("update", e));
                same(updated.expect("update answers the row"), true, "update");
                let merged = t::merge(&$db, &id, t::Patch::default())
                    .await
                    .unwrap_or_else(|e| fail("merge", e));
                same(merged.expect("merge answers the row"), true, "merge");
                let deleted = t::delete(&$db, &id).await.unwrap_or_else(|e| fail("delete", e));
                same(deleted.expect("delete answers the row"), true, "delete");
                assert!(t::get(&$db, &id).await.unwrap().is_none(), "{name}: deleted");
                assert!(
                    t::delete(&$db, &id).await.unwrap().is_none(),
                    "{name}: no row to delete"
                );
                let again = t::create_at(&$db, &id, copy())
                    .await
                    .unwrap_or_else(|e| fail("create_at", e));
                same(again, true, "create_at");
                if random_ids(schema, name) {
                    t::delete(&$db, &id).await.unwrap();
                    let made = t::create(&$db, copy()).await.unwrap_or_else(|e| fail("create", e));
                    assert_ne!(made.id, id);
                    let made_id = made.id.clone();
                    same(made, false, "create");
                    t::delete(&$db, &made_id).await.unwrap().expect("the created row");
                    let many = t::insert_many(&$db, vec![copy()])
                        .await
                        .unwrap_or_else(|e| fail("insert_many", e));
                    assert_eq!(many.len(), 1);
                    let many_id = many[0].id.clone();
                    same(many.into_iter().next().unwrap(), false, "insert_many");
                    t::delete(&$db, &many_id).await.unwrap().expect("the inserted row");
                    let one = t::insert(&$db, copy()).await.unwrap_or_else(|e| fail("insert", e));
                    same(one, false, "insert");
                }
                rows_done += 1;
            }
            rows_done
        })
        .await;
        $tally.tables += 1;
    }};
}

/// Up to two edges of a relation through `update`, an empty `merge`, `delete`, and `relate`
/// between the same ends (the edge again, under a new id).
macro_rules! edge {
    ($db:ident, $tally:ident, $schema:ident, $t:ident) => {{
        // Each table's round trip on the heap: a schema's 168 inlined would overflow the stack.
        $tally.rows += Box::pin(async {
            let mut rows_done = 0usize;
            use $schema::$t as t;
            let schema = $schema::schema_ir();
            let name = <t::Row as surqlc::runtime::Table>::TABLE;
            let skip = recomputed(schema, name);
            let rows = t::select(&$db, 2).await.unwrap_or_else(|e| panic!("{name}: {e}"));
            let fail = |what: &str, e: surrealdb::Error| -> ! { panic!("{what} on {name}: {e}") };
            for record in rows {
                let id = record.id.clone();
                let before = record.into_value();
                // The row as the engine answers it, computed fields too (its struct reads them).
                let raw: Value = $db
                    .query("SELECT * FROM ONLY $id")
                    .bind(("id", id.record_id()))
                    .await
                    .unwrap()
                    .take(0)
                    .unwrap();
                let decode = || -> Record<t::Row> { SurrealValue::from_value(raw.clone()).unwrap() };
                let same = |after: Record<t::Row>, keep_id: bool, what: &str| {
                    assert_eq!(
                        comparable(after.into_value(), &skip, keep_id),
                        comparable(before.clone(), &skip, keep_id),
                        "{what} on {name}"
                    );
                };
                let updated = t::update(&$db, &id, decode().data.into())
                    .await
                    .unwrap_or_else(|e| fail("update", e));
                same(updated.expect("update answers the edge"), true, "update");
                let merged = t::merge(&$db, &id, t::Patch::default())
                    .await
                    .unwrap_or_else(|e| fail("merge", e));
                same(merged.expect("merge answers the edge"), true, "merge");
                let deleted = t::delete(&$db, &id).await.unwrap_or_else(|e| fail("delete", e));
                same(deleted.expect("delete answers the edge"), true, "delete");
                assert!(t::get(&$db, &id).await.unwrap().is_none(), "{name}: deleted");
                let ends = decode().data;
                let made = t::relate(&$db, ends.r#in, ends.out, decode().data.into())
                    .await
                    .unwrap_or_else(|e| fail("relate", e));
                assert_ne!(made.id, id);
                same(made, false, "relate");
                rows_done += 1;
            }
            rows_done
        })
        .await;
        $tally.edges += 1;
    }};
}

// Every table and relation of a schema's module (`writes_calls.rs`, written by tests/build.rs),
// one function per schema: the included calls name `db` and `tally`, which a macro's own would hide.
async fn store_round_trips(db: &Db) -> Tally {
    let mut tally = Tally::default();
    let db: Db = db.clone();
    include!(concat!(env!("OUT_DIR"), "/store/writes_calls.rs"));
    println!("store: {tally:?}");
    tally
}

async fn memory_round_trips(db: &Db) -> Tally {
    let mut tally = Tally::default();
    let db: Db = db.clone();
    include!(concat!(env!("OUT_DIR"), "/memory/writes_calls.rs"));
    println!("memory: {tally:?}");
    tally
}

async fn meetings_round_trips(db: &Db) -> Tally {
    let mut tally = Tally::default();
    let db: Db = db.clone();
    include!(concat!(env!("OUT_DIR"), "/meetings/writes_calls.rs"));
    println!("meetings: {tally:?}");
    tally
}

async fn marketplace_round_trips(db: &Db) -> Tally {
    let mut tally = Tally::default();
    let db: Db = db.clone();
    include!(concat!(env!("OUT_DIR"), "/marketplace/writes_calls.rs"));
    println!("marketplace: {tally:?}");
    tally
}

async fn clinic_round_trips(db: &Db) -> Tally {
    let mut tally = Tally::default();
    let db: Db = db.clone();
    include!(concat!(env!("OUT_DIR"), "/clinic/writes_calls.rs"));
    println!("clinic: {tally:?}");
    tally
}

async fn enterprise_round_trips(db: &Db) -> Tally {
    let mut tally = Tally::default();
    let db: Db = db.clone();
    include!(concat!(env!("OUT_DIR"), "/enterprise/writes_calls.rs"));
    println!("enterprise: {tally:?}");
    tally
}

async fn library_round_trips(db: &Db) -> Tally {
    let mut tally = Tally::default();
    let db: Db = db.clone();
    include!(concat!(env!("OUT_DIR"), "/library/writes_calls.rs"));
    println!("library: {tally:?}");
    tally
}

#[test]
fn every_example_schemas_rows_round_trip_through_its_write_helpers() {
    block_on(async {
        let db = empty().await;
        database(store_db::apply_schema(&db), &db, Some("store.seed.surql")).await;
        let store = store_round_trips(&db).await;
        assert_eq!((store.tables, store.edges), (3, 2));
        assert!(store.rows >= 10, "{store:?}");

        let db = empty().await;
        database(memory_db::apply_schema(&db), &db, Some("memory.seed.surql")).await;
        let memory = memory_round_trips(&db).await;
        assert!(memory.rows >= 2, "{memory:?}");

        let db = empty().await;
        database(meetings_db::apply_schema(&db), &db, Some("meetings.seed.surql")).await;
        let meetings = meetings_round_trips(&db).await;
        assert_eq!((meetings.tables, meetings.edges), (3, 3));
        assert!(meetings.rows >= 12, "{meetings:?}");

        let db = empty().await;
        database(marketplace_db::apply_schema(&db), &db, Some("marketplace.seed.surql")).await;
        let marketplace = marketplace_round_trips(&db).await;
        assert!(marketplace.rows >= 4, "{marketplace:?}");

        let db = empty().await;
        database(clinic_db::apply_schema(&db), &db, Some("clinic.seed.surql")).await;
        let clinic = clinic_round_trips(&db).await;
        assert!(clinic.rows >= 8, "{clinic:?}");

        let db = empty().await;
        database(enterprise_db::apply_schema(&db), &db, Some("enterprise.seed.surql")).await;
        let enterprise = enterprise_round_trips(&db).await;
        assert_eq!(enterprise.tables + enterprise.edges, 168);
        assert!(enterprise.rows >= 45, "{enterprise:?}");

        // The library has no data file: its rows are written with its own helpers first.
        let db = empty().await;
        database(library_db::apply_schema(&db), &db, None).await;
        library_rows(&db).await;
        let library = library_round_trips(&db).await;
        assert_eq!((library.tables, library.edges), (4, 2));
        assert_eq!(library.rows, 6, "{library:?}");
    });
}

/// One row of each library table, written through the typed inputs (what an application writes).
async fn library_rows(db: &Db) {
    use crate::library::{Genre, Level};
    use library_db::{author, book, borrowed, loan_audit, member, wrote};
    let ann = member::create(
        db,
        member::Input {
            card_id: surqlc::runtime::Uuid::new_v4(),
            display_name: "Ann".into(),
            level: Level::Adult,
            nicknames: vec!["annie".into()],
            phone: Some("555-0100".into()),
        },
    )
    .await
    .unwrap();
    assert_eq!(ann.display_name, "Ann");
    let dune = book::insert(
        db,
        book::Input {
            title: "Dune".into(),
            isbn: Some("978-0441013593".into()),
            shelf: [1, 2, 3],
            genres: vec![Genre::ScienceFiction, Genre::Fiction],
            cover_outline: None,
        },
    )
    .await
    .unwrap();
    let frank = author::create(
        db,
        author::Input {
            name: "Frank Herbert".into(),
        },
    )
    .await
    .unwrap();
    wrote::relate(db, frank.id.clone(), dune.id.clone(), wrote::Input::default())
        .await
        .unwrap();
    let loan = borrowed::relate(
        db,
        ann.id.clone(),
        dune.id.clone(),
        borrowed::Input {
            at: "2025-03-01T10:00:00Z".parse().unwrap(),
            period: "14d".parse().unwrap(),
            returned_at: None,
        },
    )
    .await
    .unwrap();
    assert_eq!(loan.r#in, ann.id);
    assert_eq!(loan.out, dune.id);
    let audit = loan_audit::insert_many(
        db,
        vec![loan_audit::Input {
            member: ann.id.clone(),
            note: "late".into(),
            fine_cents: Some(150),
        }],
    )
    .await
    .unwrap();
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].fine_cents, Some(150));
    // A patch changes what it sets: `Some(None)` removes an option field's value, `None` leaves one.
    let patched = book::merge(
        db,
        &dune.id,
        book::Patch {
            title: Some("Dune (2nd ed.)".into()),
            isbn: Some(None),
            ..Default::default()
        },
    )
    .await
    .unwrap()
    .expect("the book");
    assert_eq!(patched.title, "Dune (2nd ed.)");
    assert_eq!(patched.isbn, None);
    assert_eq!(patched.shelf, [1, 2, 3]);
    assert!(
        book::merge(db, &crate::library::Book::record("nothing"), book::Patch::default())
            .await
            .unwrap()
            .is_none()
    );
}

/// What the engine does with the statements the write helpers send (surrealdb 3.3.5, kv-mem): a
/// field left out of `CREATE ... CONTENT` takes its DEFAULT (NONE too), `UPDATE ... CONTENT` does
/// not (a field without `option` nor `DEFAULT ALWAYS` is then refused), `MERGE` with NONE removes a
/// value, READONLY refuses a changed value and takes the same one, `ONLY` on a missing record
/// answers NONE, and an edge's `UPDATE ... CONTENT` keeps its ends.
#[test]
fn the_engine_does_what_the_write_helpers_rely_on() {
    block_on(async {
        let db = empty().await;
        let schema =
            "DEFINE TABLE p SCHEMAFULL; DEFINE FIELD name ON p TYPE string; DEFINE FIELD n ON p TYPE int DEFAULT 7; \
            DEFINE FIELD o ON p TYPE option<string>; DEFINE FIELD r ON p TYPE string READONLY; \
            DEFINE TABLE e TYPE RELATION IN p OUT p SCHEMAFULL; DEFINE FIELD w ON e TYPE int;";
        db.query(schema).await.unwrap().check().unwrap();
        let one = |q: &'static str| {
            let db = db.clone();
            async move {
                let mut r = db.query(q).await.unwrap();
                let n = r.num_statements();
                r.take::<Value>(n - 1).map_err(|e| e.to_string())
            }
        };
        let field = |v: &Value, k: &str| match v {
            Value::Object(o) => o.get(k).cloned().unwrap_or(Value::None),
            other => panic!("{other:?}"),
        };
        let made = one("CREATE ONLY p:k CONTENT { name: 'k', r: 'x', n: NONE }")
            .await
            .unwrap();
        assert_eq!(field(&made, "n"), Value::from_t(7i64));
        let refused = one("UPDATE ONLY p:k CONTENT { name: 'k', r: 'x' }").await.unwrap_err();
        assert!(refused.contains("Expected `int` but found `NONE`"), "{refused}");
        let merged = one("UPDATE ONLY p:k MERGE { o: 'set' }").await.unwrap();
        assert_eq!(field(&merged, "o"), Value::from_t("set".to_owned()));
        let unset = one("UPDATE ONLY p:k MERGE { o: NONE }").await.unwrap();
        assert_eq!(field(&unset, "o"), Value::None);
        assert!(one("UPDATE ONLY p:k MERGE { r: 'x' }").await.is_ok());
        let readonly = one("UPDATE ONLY p:k MERGE { r: 'changed' }").await.unwrap_err();
        assert!(readonly.contains("readonly"), "{readonly}");
        assert_eq!(
            one("UPDATE ONLY p:missing CONTENT { name: 'z', r: 'x' }")
                .await
                .unwrap(),
            Value::None
        );
        assert_eq!(one("DELETE ONLY p:missing RETURN BEFORE").await.unwrap(), Value::None);
        let edge = one("RELATE ONLY p:k->e->p:k CONTENT { w: 1 }").await.unwrap();
        let id = field(&edge, "id");
        let Value::RecordId(id) = id else { panic!("{id:?}") };
        let mut r = db
            .query("UPDATE ONLY $id CONTENT { w: 2 }")
            .bind(("id", id))
            .await
            .unwrap();
        let updated: Value = r.take(0).unwrap();
        assert_eq!(field(&updated, "in"), field(&edge, "in"));
        assert_eq!(field(&updated, "w"), Value::from_t(2i64));
        assert_eq!(
            one("INSERT INTO p []").await.unwrap(),
            Value::Array(Vec::<Value>::new().into())
        );
    });
}

/// Named writes (tests/fixtures/writes.queries): `:exec` answers `()`, a `CONTENT $x` argument is
/// the table's `Input`, a `MERGE $x` one its `Patch`, `SET f = $x` the field's type, and
/// `:one`/`:many` type what the write answers (the row, or its `RETURN` list).
#[test]
fn named_writes_are_typed_by_the_schema_and_run() {
    use crate::store::{Customer, Tier};
    use store_writes_db::{customer, product, queries};
    block_on(async {
        let db = empty().await;
        database(store_writes_db::apply_schema(&db), &db, None).await;
        let input = customer::Input {
            name: "Zoe".into(),
            country: crate::store::Country::DE,
            tier: Tier::Free,
            joined: "2025-01-02T00:00:00Z".parse().unwrap(),
        };
        let zoe: surqlc::runtime::Record<Customer> = queries::add_customer(&db, input).await.unwrap();
        assert_eq!(zoe.name, "Zoe");
        let patch = customer::Patch {
            tier: Some(Tier::Plus),
            ..Default::default()
        };
        let patched = queries::patch_customer(&db, patch, zoe.id.clone()).await.unwrap();
        assert_eq!(patched.len(), 1);
        assert!(matches!(patched[0].tier, Tier::Plus));
        let renamed: () = queries::rename_customer(&db, "Zoé", zoe.id.clone()).await.unwrap();
        assert_eq!(renamed, ());
        let tiers = queries::set_tier(&db, Tier::Pro, "Zoé").await.unwrap();
        assert_eq!(tiers.len(), 1);
        assert_eq!(tiers[0].name, "Zoé");
        assert!(matches!(tiers[0].tier, Tier::Pro));
        let added = queries::add_product(
            &db,
            product::Input {
                name: "Lamp".into(),
                price: "19.5".parse().unwrap(),
                category: crate::store::Category::Home,
            },
        )
        .await
        .unwrap();
        assert_eq!(added.len(), 1);
        queries::remove_customer(&db, zoe.id.clone()).await.unwrap();
        assert!(customer::get(&db, &zoe.id).await.unwrap().is_none());
    });
}
