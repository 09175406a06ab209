//! What real applications' own SurrealQL writes (found trying surqlc on open-source applications), each run on SurrealDB 3.3.5 and judged by the validator's application profile: the idioms the engine answers as meant pass, the mistakes it answers wrongly or refuses are reported.

use serde_json::{json, Value};
use surqlc::db::Db;
use surqlc::ir::Schema;
use surqlc::validate::{self, Class};
use surqlc_tests::*;

const SCHEMA: &str = r#"
use surqlc::runtime::Link;
use surqlc_macros::{Relation, Schema, Table};

#[derive(Schema)]
pub struct Notes;

#[derive(Table)]
pub struct Person {
    pub name: String,
    pub email: String,
    pub stars: Option<i64>,
    pub seen_at: Option<surqlc::runtime::Datetime>,
    pub command: Option<Link<Command>>,
}

/// Declared by the application's field only: the database has the table, the schema does not.
#[derive(Table)]
#[surqlc(schemaless)]
pub struct Command {}

#[derive(Table)]
pub struct Notebook {
    pub title: String,
}

/// A source cited in a notebook: source -> reference -> notebook.
#[derive(Relation)]
pub struct Reference {
    pub r#in: Link<Person>,
    pub out: Link<Notebook>,
}

#[derive(Table)]
#[surqlc(view = "SELECT count() AS n, name FROM person GROUP BY name")]
pub struct PerName {
    pub n: i64,
    pub name: String,
}
"#;

const DATA: &str = r#"
CREATE command:c SET status = 'done';
CREATE person:a SET name = 'a', email = 'a@x.io', stars = 7, seen_at = d'2026-01-01T00:00:00Z', command = command:c;
CREATE person:b SET name = 'b', email = '';
CREATE notebook:n SET title = 'n';
RELATE person:a->reference->notebook:n;
"#;

async fn setup() -> (Schema, Db) {
    built("app_idioms", SCHEMA, DATA).await
}

/// The schema `source` (a Rust schema file's text, written as `name`) built, and a database with
/// its `schema.surql` and `data` loaded.
async fn built(name: &str, source: &str, data: &str) -> (Schema, Db) {
    let path = schema_file(name, source);
    let mut b = surqlc::Builder::new();
    b.schema(&path).cargo_metadata(false).no_agent();
    let output = b.generate().unwrap_or_else(|e| panic!("{e}"));
    let db = loaded(&[&output.schema_surql, data]).await;
    (output.schema, db)
}

/// `q` refused by the engine (its error says `engine_says`) and reported as the error `class` by
/// the application's profile.
async fn refused_and_reported(db: &Db, schema: &Schema, q: &str, engine_says: &str, class: Class) {
    let e = surqlc::db::query_json(db, q).await.expect_err(q).to_string();
    assert!(e.contains(engine_says), "{q}: {e}");
    let found = findings(schema, q);
    assert!(found.contains(&(class, true)), "{q}: {found:?}");
}

async fn answer(db: &Db, q: &str) -> Value {
    surqlc::db::query_json(db, q)
        .await
        .unwrap_or_else(|e| panic!("`{q}` failed: {e}"))
}

/// The application profile's findings on `q`: (class, is an error).
fn findings(schema: &Schema, q: &str) -> Vec<(Class, bool)> {
    let report = validate::validate_with(schema, q, &validate::Options::for_app());
    report
        .diagnostics
        .iter()
        .map(|d| (d.class, d.severity == validate::Severity::Error))
        .collect()
}

#[test]
fn the_idioms_applications_write_pass_as_the_engine_answers_them() {
    block_on(async {
        let (schema, db) = setup().await;
        for (q, expected) in [
            // `OR` answers its first truthy operand, `AND` its first falsy one or the last.
            ("SELECT VALUE (stars OR 0) + 1 FROM person ORDER BY name", json!([8, 1])),
            (
                "RETURN math::max([(SELECT VALUE stars FROM person:a)[0] OR 0, 1])",
                json!(7),
            ),
            (
                "SELECT VALUE string::uppercase(email OR 'none') FROM person ORDER BY name",
                json!(["A@X.IO", "NONE"]),
            ),
            ("RETURN 1 AND 'x'", json!("x")),
            // A subquery of `*` answers the rows themselves.
            ("RETURN (SELECT * FROM person ORDER BY name).name", json!(["a", "b"])),
            (
                "SELECT VALUE (SELECT * FROM reference).in FROM notebook",
                json!([["person:a"]]),
            ),
            // FROM any value that holds records.
            (
                "LET $p = person:a; SELECT VALUE title FROM $p->reference->notebook OR []",
                json!(["n"]),
            ),
            // ONLY over one record a path holds.
            (
                "LET $r = (SELECT id FROM person ORDER BY name)[0]; SELECT name FROM ONLY $r.id",
                json!({"name": "a"}),
            ),
            // A link to a table the schema does not define, fetched.
            (
                "SELECT command FROM person:a FETCH command",
                json!([{"command": {"id": "command:c", "status": "done"}}]),
            ),
            // The NONE test beside a redundant NULL one.
            (
                "SELECT VALUE name FROM person WHERE seen_at != NONE AND seen_at != NULL",
                json!(["a"]),
            ),
            // The same in its OR form, and spelled `IS [NOT] NULL` (no SQL habit then either).
            (
                "SELECT VALUE name FROM person WHERE seen_at IS NONE OR seen_at = NULL ORDER BY name",
                json!(["b"]),
            ),
            (
                "SELECT VALUE name FROM person WHERE seen_at = NONE OR seen_at IS NULL ORDER BY name",
                json!(["b"]),
            ),
            (
                "SELECT VALUE name FROM person WHERE seen_at IS NOT NONE AND seen_at IS NOT NULL",
                json!(["a"]),
            ),
            // `WHERE true`, where an application appends `AND ...` conditions in code.
            ("SELECT VALUE name FROM person WHERE true ORDER BY name", json!(["a", "b"])),
            ("SELECT VALUE name FROM person WHERE true AND stars > 1", json!(["a"])),
            // A string guard asks whether it is non-empty.
            (
                "SELECT VALUE IF email { 'set' } ELSE { 'empty' } FROM person ORDER BY name",
                json!(["set", "empty"]),
            ),
            // A new field written into a SCHEMALESS table.
            (
                "UPSERT command:ping SET pinged = true RETURN VALUE pinged",
                json!([true]),
            ),
            // The signed-in record user of the application's session (none here: root).
            ("SELECT * FROM $auth", json!([])),
            // A rewrite of one field beside `*`: a function of it, or a path through its link.
            (
                "SELECT *, record::id(id) AS id FROM notebook",
                json!([{"id": "n", "title": "n"}]),
            ),
            (
                "SELECT *, string::uppercase($this.title) AS title FROM notebook",
                json!([{"id": "notebook:n", "title": "N"}]),
            ),
            (
                "SELECT *, command.status AS command FROM person:a",
                json!([{
                    "id": "person:a", "name": "a", "email": "a@x.io", "stars": 7,
                    "seen_at": "2026-01-01T00:00:00Z", "command": "done"
                }]),
            ),
            (
                "SELECT VALUE command FROM (SELECT *, (SELECT VALUE status FROM $parent.command)[0] AS command FROM person:a)",
                json!(["done"]),
            ),
            // A field of a SCHEMALESS table the schema does not declare, read back.
            ("SELECT VALUE status FROM command:c", json!(["done"])),
        ] {
            let got = answer(&db, q).await;
            assert_eq!(got, expected, "{q}");
            assert_eq!(findings(&schema, q), [], "{q}");
        }
    });
}

#[test]
fn the_mistakes_applications_make_are_reported_as_the_engine_answers_them() {
    block_on(async {
        let (schema, db) = setup().await;
        // The relation's ends the wrong way round: never true, without an error.
        let q = "SELECT * FROM reference WHERE out = person:a AND in = notebook:n";
        assert_eq!(answer(&db, q).await, json!([]));
        assert_eq!(
            answer(
                &db,
                "SELECT VALUE id FROM reference WHERE in = person:a AND out = notebook:n"
            )
            .await
            .as_array()
            .map(Vec::len),
            Some(1)
        );
        assert_eq!(
            findings(&schema, q),
            [(Class::TypeMismatch, true), (Class::TypeMismatch, true)]
        );
        // Every write into a view is refused.
        for q in [
            "CREATE per_name SET n = 1, name = 'x'",
            "UPDATE per_name SET n = 2",
            "DELETE per_name",
            "INSERT INTO per_name { n: 1, name: 'x' }",
        ] {
            refused_and_reported(&db, &schema, q, "as it is a view", Class::WriteToReadonly).await;
        }
        // `$rec.field = value` as a statement compares and drops the answer: nothing changes.
        let q =
            "LET $p = SELECT * FROM ONLY person:a; IF $p.stars > 1 { $p.name = 'z'; }; SELECT VALUE name FROM person:a";
        assert_eq!(answer(&db, q).await, json!(["a"]));
        assert!(
            findings(&schema, q).contains(&(Class::DroppedComparison, true)),
            "{:?}",
            findings(&schema, q)
        );
        let q = "LET $p = SELECT * FROM ONLY person:a; IF $p.stars > 1 { UPDATE $p.id SET name = 'z'; }; SELECT VALUE name FROM person:a";
        assert_eq!(answer(&db, q).await, json!(["z"]));
        assert_eq!(findings(&schema, q), []);
        // OMIT of what the projection does not hold: the same answer, a warning.
        let q = "SELECT name OMIT email FROM person ORDER BY name";
        assert_eq!(
            answer(&db, q).await,
            answer(&db, "SELECT name FROM person ORDER BY name").await
        );
        assert_eq!(findings(&schema, q), [(Class::NoOpClause, false)]);
    });
}

#[test]
fn a_statement_without_its_semicolon_ends_at_a_blank_line() {
    let file = "SELECT name FROM person\n\n-- the next one\nSELECT email FROM person;\nSELECT *\n\nFROM person;\n";
    let pieces: Vec<(String, usize)> = validate::split_statements(file)
        .into_iter()
        .map(|p| (p.text, p.line))
        .collect();
    assert_eq!(
        pieces,
        [
            ("SELECT name FROM person".to_owned(), 1),
            ("-- the next one\nSELECT email FROM person;".to_owned(), 3),
            ("SELECT *\n\nFROM person;".to_owned(), 5),
        ]
    );
    // A statement that starts with an expression; a clause after a blank line.
    let file =
        "SELECT name FROM person\n\ncount(SELECT 1 FROM person);\nUPDATE person SET name = 'x'\n\nRETURN AFTER;\n";
    let pieces: Vec<String> = validate::split_statements(file).into_iter().map(|p| p.text).collect();
    assert_eq!(
        pieces,
        [
            "SELECT name FROM person",
            "count(SELECT 1 FROM person);",
            "UPDATE person SET name = 'x'\n\nRETURN AFTER;"
        ]
    );
}

/// `IF cond THEN ... END` whose branch is a statement with its `;` stays one statement in a
/// file (it was cut at the inner `;` and refused, SQ0001), as do `ELSE IF` chains and the form in a
/// projection; `IF NOT EXISTS` opens nothing. Each piece runs on the engine as the author meant.
#[test]
fn if_then_end_with_statements_in_its_branches_stays_whole() {
    block_on(async {
        let (schema, db) = setup().await;
        let file = "LET $n = (SELECT VALUE name FROM person WHERE name = 'z');\n\
            IF array::len($n) = 0 THEN UPDATE person:a SET stars = 1; END;\n\
            IF $n THEN CREATE notebook:x SET title = 'x'; ELSE IF array::len($n) = 0 THEN CREATE notebook:y SET title = 'y'; END;\n\
            SELECT name, IF stars > 3 THEN 'many' ELSE 'few' END AS kind FROM person ORDER BY name;\n\
            DEFINE FIELD IF NOT EXISTS title ON notebook TYPE string;\n\
            SELECT VALUE title FROM notebook ORDER BY title;\n";
        let pieces: Vec<String> = validate::split_statements(file).into_iter().map(|p| p.text).collect();
        assert_eq!(pieces.len(), 6, "{pieces:#?}");
        assert!(
            pieces[1].starts_with("IF array::len") && pieces[1].ends_with("END;"),
            "{}",
            pieces[1]
        );
        assert!(pieces[2].ends_with("END;"), "{}", pieces[2]);
        for piece in &pieces[..4] {
            assert_eq!(findings(&schema, piece), [], "{piece}");
        }
        // The engine runs the file as these pieces: both branches' statements ran.
        let titles = answer(&db, file).await;
        assert_eq!(titles, json!(["n", "y"]));
        assert_eq!(answer(&db, "SELECT VALUE stars FROM person:a").await, json!([1]));
    });
}

/// NULL written into a typed field (what a client's `null` becomes): the engine refuses it for an
/// `option<T>` field as for any other (`Expected none | int but found NULL`), NONE is what leaves
/// the field empty. Reported, with NONE as the repair where the field is optional; `any` holds it.
#[test]
fn null_into_a_typed_field_is_refused_and_none_is_the_repair() {
    block_on(async {
        let (schema, db) = setup().await;
        for q in [
            "UPDATE person:a SET stars = NULL",
            "UPDATE person:a SET seen_at = null",
            "CREATE person CONTENT { name: 'c', email: 'c@x.io', stars: NULL }",
            "UPDATE person:b MERGE { stars: NULL }",
            "UPDATE person:b SET name = NULL",
        ] {
            let e = surqlc::db::query_json(&db, q).await.expect_err(q).to_string();
            assert!(e.contains("found `NULL`"), "{q}: {e}");
            let report = validate::validate_with(&schema, q, &validate::Options::for_app());
            let d = report
                .diagnostics
                .iter()
                .find(|d| d.class == Class::AssignedWrongType)
                .unwrap_or_else(|| panic!("{q}: {:?}", report.diagnostics));
            if q.contains("name = NULL") {
                assert!(d.fixes.is_empty(), "{q}: a required field has no NONE repair");
                continue;
            }
            let fixed = validate::apply_edits(q, &d.fixes.iter().collect::<Vec<_>>());
            assert!(
                fixed.contains("NONE") && !fixed.to_lowercase().contains("null"),
                "{fixed}"
            );
            assert_eq!(findings(&schema, &fixed), [], "{fixed}");
            surqlc::db::query_json(&db, &fixed)
                .await
                .unwrap_or_else(|e| panic!("{fixed}: {e}"));
        }
    });
}

const OBJECTS: &str = r#"
use surqlc::runtime::Value;
use surqlc_macros::{Object, Schema, Table};

#[derive(Schema)]
pub struct Docs;

#[derive(Table)]
pub struct Doc {
    #[surqlc(type = "object")]
    pub data: Value,
    #[surqlc(type = "option<object>")]
    pub meta: Value,
    #[surqlc(type = "option<object> FLEXIBLE")]
    pub flex: Value,
    #[surqlc(type = "array")]
    pub tags: Value,
    #[surqlc(type = "array<object>")]
    pub objs: Value,
    #[surqlc(type = "any")]
    pub loose: Value,
    pub addr: Addr,
}

#[derive(Object)]
pub struct Addr {
    pub city: String,
}
"#;

/// Object keys written into a SCHEMAFULL table's object field that does not declare them: the
/// engine fails the write ("Found field 'data.a', but no such field exists"), for a closed `object`,
/// an `option<object>`, an extra key beside declared sub-fields, and objects in an `array` or
/// `array<object>` whose elements declare no field; `FLEXIBLE`, `any` and scalars in an array take them.
#[test]
fn object_keys_a_schemafull_table_does_not_declare_are_reported_as_the_engine_refuses_them() {
    block_on(async {
        let base = "CREATE doc:1 SET data = {}, addr = { city: 'x' }, tags = [], objs = [], loose = 1";
        let (schema, db) = built("app_idioms_objects", OBJECTS, base).await;
        for q in [
            "CREATE doc:2 SET data = { a: 1 }, addr = { city: 'x' }, tags = [], objs = [], loose = 1",
            "CREATE doc:2 CONTENT { data: {}, meta: { a: 1 }, addr: { city: 'x' }, tags: [], objs: [], loose: 1 }",
            "UPDATE doc:1 SET addr = { city: 'y', zip: 1 }",
            "UPDATE doc:1 SET tags = [{ a: 1 }]",
            "UPDATE doc:1 SET objs = [{ a: 1 }]",
            "UPDATE doc:1 SET tags += { a: 1 }",
            "UPDATE doc:1 SET data.a = 1",
            "UPDATE doc:1 MERGE { data: { a: 1 } }",
        ] {
            refused_and_reported(&db, &schema, q, "but no such field exists", Class::UnknownField).await;
        }
        for q in [
            "UPDATE doc:1 SET flex = { a: { b: 1 } }",
            "UPDATE doc:1 SET loose = { a: [{ b: 1 }] }",
            "UPDATE doc:1 SET tags = [1, 'x', [2]]",
            "UPDATE doc:1 SET addr = { city: 'z' }, data = {}",
            "UPDATE doc:1 MERGE { flex: { c: 1 } }",
        ] {
            surqlc::db::query_json(&db, q)
                .await
                .unwrap_or_else(|e| panic!("{q}: {e}"));
            assert_eq!(findings(&schema, q), [], "{q}");
        }
    });
}

/// An optional field passed to a built-in that takes no NONE there fails the query at the first row
/// without it (SQ0210, as in arithmetic); a WHERE or an IF that reads the field, `?? v`, `any`
/// parameters (`type::string`) and aggregates under GROUP are left alone, as the engine answers them.
#[test]
fn an_optional_field_passed_to_a_built_in_is_reported_where_the_engine_fails() {
    block_on(async {
        let (schema, db) = setup().await;
        for q in [
            "SELECT VALUE math::abs(stars) FROM person",
            "SELECT VALUE time::year(seen_at) FROM person",
            // A method of the value's kind, the same call.
            "SELECT VALUE seen_at.year() FROM person",
        ] {
            let e = surqlc::db::query_json(&db, q).await.expect_err(q).to_string();
            assert!(
                e.contains("found `NONE`") || e.contains("no such method found for the none type"),
                "{q}: {e}"
            );
            assert_eq!(findings(&schema, q), [(Class::OptionalArithmetic, true)], "{q}");
        }
        for (q, expected) in [
            (
                "SELECT VALUE math::abs(stars) FROM person WHERE stars != NONE",
                json!([7]),
            ),
            (
                "SELECT VALUE math::abs(stars ?? 0) FROM person ORDER BY name",
                json!([7, 0]),
            ),
            (
                "SELECT VALUE IF stars { math::abs(stars) } ELSE { 0 } FROM person ORDER BY name",
                json!([7, 0]),
            ),
            (
                "SELECT VALUE IF stars THEN stars + 1 ELSE 0 END FROM person ORDER BY name",
                json!([8, 0]),
            ),
            (
                "SELECT VALUE type::string(stars) FROM person ORDER BY name",
                json!(["7", "NONE"]),
            ),
            ("SELECT VALUE math::max(stars) FROM person GROUP ALL", json!([7])),
            // A generic method answers on NONE; a kind's own one under a WHERE that tests the field.
            (
                "SELECT VALUE stars.to_string() FROM person ORDER BY name",
                json!(["7", "NONE"]),
            ),
            (
                "SELECT VALUE stars.is_none() FROM person ORDER BY name",
                json!([false, true]),
            ),
            (
                "SELECT VALUE seen_at.year() FROM person WHERE seen_at != NONE",
                json!([2026]),
            ),
        ] {
            assert_eq!(answer(&db, q).await, expected, "{q}");
            assert_eq!(findings(&schema, q), [], "{q}");
        }
    });
}
