//! `surqlc init` round-tripped on the engine (issue 52): every example schema's own `schema.surql`
//! read back into annotated Rust, that file built again, and both applied to fresh embedded
//! databases: their tables (views included), fields, indexes, analyzers and functions are equal, or
//! each difference is named in init's notes.

use std::path::PathBuf;
use surqlc::init::{self, Init, Options, Source};
use surqlc_tests::{block_on, read, scratch_dir};

/// This checkout's root, from this crate's own manifest directory: `test-support`'s `root()` is
/// built once in a target directory that several checkouts may share.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_owned()
}

/// `schemas/NAME.rs` built as `surqlc build` builds it.
fn builder(name: &str) -> surqlc::Builder {
    let mut b = surqlc::Builder::new();
    b.schema(root().join("schemas").join(format!("{name}.rs")))
        .cargo_metadata(false);
    b
}

/// `init` on `sources`, the file written to a scratch directory, built and compared on the engine.
fn round_trip(name: &str, sources: &[Source]) -> (Init, Vec<String>, String) {
    let (out, checked, rust) = checked(name, sources);
    assert!(
        checked.refused.is_empty(),
        "{name}: the engine refused source statements: {:?}",
        checked.refused
    );
    (out, checked.differences, rust)
}

/// `round_trip`, with the source statements the engine refused.
fn checked(name: &str, sources: &[Source]) -> (Init, init::live::RoundTrip, String) {
    let options = Options {
        schema_type: init::schema_type_for(name),
        functions_file: format!("{name}.functions.surql"),
        from: format!("{name}.surql"),
    };
    let out = init::init(sources, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
    let dir = scratch_dir(&format!("init-{name}"));
    let file = dir.join(format!("{name}.rs"));
    std::fs::write(&file, &out.rust).unwrap();
    if let Some(f) = &out.functions {
        std::fs::write(dir.join(&options.functions_file), f).unwrap();
    }
    let checked = block_on(init::live::round_trip(sources, &file, &out))
        .unwrap_or_else(|e| panic!("{name}: the written file does not build: {e}\n{}", out.rust));
    let rust = out.rust.clone();
    (out, checked, rust)
}

/// Whether `difference` (a line of `live::differences`) is about something a note of `init` names.
fn named(out: &Init, difference: &str) -> bool {
    let key = difference.split(':').next().unwrap_or("");
    let mut words = key.split_whitespace().skip(1);
    let name = words.next().unwrap_or("");
    let table = key.split(" ON ").nth(1).unwrap_or(name);
    out.left_out.iter().chain(&out.choices).any(|n| {
        n.what.contains(&format!("{table}.{name}"))
            || n.what.contains(&format!("table {table}"))
            || n.what.contains(name) && n.what.contains(table)
    })
}

#[test]
fn every_example_schema_round_trips_on_the_engine() {
    for name in [
        "store",
        "marketplace",
        "clinic",
        "memory",
        "meetings",
        "library",
        "enterprise",
    ] {
        let built = builder(name).generate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let source = Source {
            name: format!("{name}.schema.surql"),
            text: built.schema_surql.clone(),
        };
        let (out, diffs, rust) = round_trip(name, &[source]);
        // surqlc's own schema says nothing the grammar cannot: equal on the engine, nothing left out.
        assert!(
            diffs.is_empty(),
            "{name}: the engine sees differences:\n{}\n\n{rust}",
            diffs.join("\n")
        );
        // A table surqlc built `PERMISSIONS NONE` (`library`'s unexposed `loan_audit`) is written
        // `permissions(select = none)` with a note: init's `expose(...)` lists every table.
        let kept_none = |n: &init::Note| n.why.contains("written `permissions(select = none)`");
        assert!(
            out.left_out.is_empty() && out.choices.iter().all(kept_none),
            "{name}: {:?} {:?}",
            out.left_out,
            out.choices
        );
        assert!(out.own > 0, "{name}: surqlc's own definitions were not recognised");
        assert_eq!(
            out.table_names.len(),
            built.schema.tables.len(),
            "{name}: every table is written"
        );
    }
}

/// Every difference the engine sees is named by a note.
fn all_named(name: &str, out: &Init, diffs: &[String], rust: &str) {
    let unnamed: Vec<&String> = diffs.iter().filter(|d| !named(out, d)).collect();
    assert!(
        unnamed.is_empty(),
        "{name}: differences init did not name:\n{}\n\n{rust}",
        unnamed.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}

fn notes(out: &Init) -> String {
    out.left_out
        .iter()
        .chain(&out.choices)
        .map(|n| format!("{n}\n"))
        .collect()
}

#[test]
fn a_schema_in_surrealdb_documented_style_round_trips_with_every_difference_named() {
    let path = root().join("tests/fixtures/init/blog.surql");
    let source = Source {
        name: "blog.surql".into(),
        text: read(&path),
    };
    let (out, diffs, rust) = round_trip("blog", &[source]);
    all_named("blog", &out, &diffs, &rust);
    let notes = notes(&out);
    // What the grammar cannot say, each at its line.
    for expected in [
        "blog.surql:50: DEFINE EVENT post_published",
        "blog.surql:71: DEFINE PARAM IF NOT EXISTS $site_name",
        "blog.surql:75: CREATE user:alice",
        "blog.surql:73: table audit CHANGEFEED 1d",
        // SurrealDB 2's spellings, respelled.
        "blog.surql:47: SEARCH ANALYZER",
        "blog.surql:47: DOC_IDS_ORDER",
        "blog.surql:20: FLEXIBLE TYPE",
        // Choices.
        "blog.surql:34: post.metadata: typed `any`",
        "blog.surql:21: user.roles.*: the element type folded",
    ] {
        assert!(notes.contains(expected), "no note {expected:?} in:\n{notes}");
    }
    assert_eq!(out.left_out.len(), 4, "{notes}");
    // Everything else carried over: nested objects, a relation, an Ends union, a view, the full-text index.
    for expected in [
        "pub address: Option<Address>,",
        "pub images: Vec<Images>,",
        "pub r#in: Link<User>,",
        "pub on: On,",
        "view = \"SELECT count() AS posts, author FROM post GROUP BY author\"",
        "fulltext(analyzer = \"english\", highlights)",
        "#[serde(rename_all = \"kebab-case\")]",
        "functions = \"blog.functions.surql\"",
        "#[surqlc(default = \"time::now()\", default_always)]",
        "update = \"id = $auth.id\"",
    ] {
        assert!(rust.contains(expected), "no {expected:?} in:\n{rust}");
    }
    let functions = out.functions.as_deref().unwrap_or_default();
    assert!(
        functions.contains("DEFINE FUNCTION OVERWRITE fn::reading_minutes($body: string) -> int"),
        "{functions}"
    );
    // The only differences on the engine: the CHANGEFEED and the folded element type, both named above.
    assert_eq!(diffs.len(), 2, "{}", diffs.join("\n"));
}

#[test]
fn the_lessons_hand_written_schema_round_trips() {
    let path = root().join("../shared/fixtures/store/reference.surql");
    let source = Source {
        name: "reference.surql".into(),
        text: read(&path),
    };
    let (out, diffs, rust) = round_trip("reference", &[source]);
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    assert_eq!(
        out.table_names,
        ["customer", "purchase", "product", "placed", "contains"],
        "{rust}"
    );
    // The lesson's own agent user is not surqlc's: listed, not carried over.
    let notes = notes(&out);
    assert!(notes.contains("DEFINE USER OVERWRITE agent"), "{notes}");
    assert!(out.own > 0);
}

#[test]
fn a_live_database_is_read_through_info() {
    let built = builder("marketplace").generate().unwrap();
    let source = block_on(async {
        let conn = surqlc_tests::loaded(&[&built.schema_surql]).await;
        init::live::source(&conn, "mem://").await
    })
    .unwrap();
    assert!(source.text.contains("DEFINE TABLE seller"), "{}", source.text);
    let (out, diffs, rust) = round_trip("live_marketplace", &[source]);
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    assert!(out.left_out.is_empty(), "{:?}", out.left_out);
    assert_eq!(out.table_names.len(), built.schema.tables.len(), "{rust}");
    // INFO prints the element fields the engine derives (`images.*`): folded back, nothing said twice.
    assert!(rust.contains("pub images: Vec<Images>,"), "{rust}");
}

/// A field without TYPE is written `type = "any"`, which the engine reads alike: no difference.
/// So is a migration chain (REMOVE, then DEFINE again), applied in file order.
#[test]
fn untyped_fields_and_a_migration_chain_round_trip_without_differences() {
    let source = Source {
        name: "untyped.surql".into(),
        text: "DEFINE TABLE c SCHEMAFULL;\nDEFINE FIELD n ON c TYPE int;\n\
            DEFINE FIELD at ON c DEFAULT time::now();\nDEFINE FIELD twice ON c COMPUTED n * 2;\n\
            DEFINE FIELD payload ON c TYPE option<object> FLEXIBLE;\n\
            DEFINE FIELD legacy ON c TYPE option<string>;\nREMOVE FIELD legacy ON TABLE c;\n\
            DEFINE INDEX u ON c FIELDS n UNIQUE;\nREMOVE INDEX u ON TABLE c;\nDEFINE INDEX u ON c FIELDS n, at;\n"
            .into(),
    };
    let (out, diffs, rust) = round_trip("untyped", &[source]);
    assert!(diffs.is_empty(), "{}\n\n{rust}", diffs.join("\n"));
    assert!(out.left_out.is_empty(), "{:?}", out.left_out);
    assert_eq!(out.choices.len(), 2, "{:?}", out.choices);
}

/// A table without PERMISSIONS beside one with them: SurrealDB stores NONE for record users, and
/// the schema's agent then signs in through record access, under which surqlc grants an exposed
/// table's unwritten select; init writes `select = none`, so every table's permissions come back
/// as the engine stores the source's, never looser.
#[test]
fn tables_without_permissions_keep_none_beside_tables_with_permissions() {
    let source = Source {
        name: "perm.surql".into(),
        text: "DEFINE TABLE a SCHEMAFULL;\nDEFINE FIELD x ON a TYPE string;\n\
            DEFINE TABLE b SCHEMAFULL PERMISSIONS FOR select WHERE id = $auth.id;\nDEFINE FIELD y ON b TYPE string;\n\
            DEFINE TABLE c SCHEMAFULL PERMISSIONS NONE;\nDEFINE TABLE d SCHEMAFULL PERMISSIONS FULL;\n\
            DEFINE TABLE e SCHEMAFULL;\nDEFINE FIELD z ON e TYPE string PERMISSIONS FOR select WHERE $auth != NONE;\n"
            .into(),
    };
    let (out, diffs, rust) = round_trip("perm", &[source]);
    // `differences` compares each table's whole definition, its PERMISSIONS included.
    assert!(diffs.is_empty(), "{}\n\n{rust}", diffs.join("\n"));
    assert_eq!(out.table_names.len(), 5, "{:?}", out.table_names);
    assert!(
        out.choices
            .iter()
            .any(|n| n.what.contains("a, c, e") && n.why.contains("select = none")),
        "{:?}",
        out.choices
    );
}

/// `USE NS/DB` in the source: init reads every definition into the one schema, and the check
/// loads them into the database it compares (before, each became "only in the written schema").
#[test]
fn use_statements_do_not_move_the_source_out_of_the_compared_database() {
    let source = Source {
        name: "use.surql".into(),
        text: "USE NS test;\nUSE DB test;\nDEFINE TABLE t SCHEMAFULL;\nDEFINE FIELD a ON t TYPE string;\n".into(),
    };
    let (_, diffs, rust) = round_trip("use_ns", &[source]);
    assert!(diffs.is_empty(), "{}\n\n{rust}", diffs.join("\n"));
}

/// A view without `DEFINE FIELD`s (as `surreal export` writes one): SurrealDB stores it `TYPE ANY`
/// and surqlc writes `TYPE NORMAL`, which the engine answers and refuses writes to alike (proven
/// here), and the fields init types for its columns are init's noted choice: no difference, exit 0.
/// Before, every database with such a view gave three differences.
#[test]
fn a_view_without_fields_round_trips_without_differences() {
    let setup = "DEFINE TABLE person SCHEMAFULL; DEFINE FIELD name ON person TYPE string;\n\
        DEFINE TABLE va TYPE ANY AS SELECT count() AS n, name FROM person GROUP BY name;\n\
        DEFINE TABLE vn TYPE NORMAL AS SELECT count() AS n, name FROM person GROUP BY name;\n\
        CREATE person:1 SET name = 'a'; CREATE person:2 SET name = 'a';";
    let answers = block_on(async {
        let db = surqlc::db::connect(&surqlc::db::Target::default()).await.unwrap();
        surqlc::db::execute(&db, setup).await.unwrap();
        let mut answers = Vec::new();
        for view in ["va", "vn"] {
            let rows = surqlc::db::query_json(&db, &format!("SELECT n, name FROM {view}"))
                .await
                .unwrap();
            let write = db
                .query(format!("CREATE {view}:x SET n = 1"))
                .await
                .unwrap()
                .check()
                .is_err();
            answers.push((rows, write));
        }
        answers
    });
    assert_eq!(answers[0], answers[1], "TYPE ANY and TYPE NORMAL views answer alike");
    assert!(answers[0].1, "a view refuses writes");
    let source = Source {
        name: "views.surql".into(),
        text: "DEFINE TABLE person SCHEMAFULL;\nDEFINE FIELD name ON person TYPE string;\n\
            DEFINE TABLE by_name TYPE ANY SCHEMALESS AS SELECT count() AS n, name FROM person GROUP BY name PERMISSIONS NONE;\n"
            .into(),
    };
    let (out, diffs, rust) = round_trip("views_export", &[source]);
    assert!(diffs.is_empty(), "{}\n\n{rust}", diffs.join("\n"));
    assert!(rust.contains("pub n: i64"), "{rust}");
    assert!(
        out.choices.iter().any(|n| n.what.contains("by_name")),
        "{:?}",
        out.choices
    );
}

/// A source the engine refuses in part on an empty database: a REMOVE of a table it never defined
/// (a migration chain's step for a database that had it) and a view written before the table it
/// reads. The written file builds, so the error is not "cannot build": the view loads once its
/// table is in, the REMOVE is listed as refused with its line and the engine's reason, and the
/// check compares without it.
#[test]
fn source_statements_the_engine_refuses_are_listed_not_blamed_on_the_file() {
    let source = Source {
        name: "partly.surql".into(),
        text: "REMOVE TABLE old_stuff;\n\
            DEFINE TABLE by_name AS SELECT count() AS n, name FROM person GROUP BY name;\n\
            DEFINE TABLE person SCHEMAFULL;\nDEFINE FIELD name ON person TYPE string;\n"
            .into(),
    };
    let (_, checked, rust) = checked("partly", std::slice::from_ref(&source));
    assert!(
        checked.differences.is_empty(),
        "{}\n\n{rust}",
        checked.differences.join("\n")
    );
    assert_eq!(checked.refused.len(), 1, "{:?}", checked.refused);
    let refused = &checked.refused[0];
    assert!(
        refused.starts_with("partly.surql:1: `REMOVE TABLE old_stuff;`"),
        "{refused}"
    );
    assert!(refused.contains("does not exist"), "{refused}");
}

/// A SCHEMALESS table indexing a field it does not define: init declares it `any` (its noted choice,
/// so the file builds), which the table takes any value in with or without: no difference, exit 0.
/// Before, each such field was a `difference:` and init exited 1.
#[test]
fn a_schemaless_tables_indexed_fields_declared_any_are_no_difference() {
    let source = Source {
        name: "loose.surql".into(),
        text: "DEFINE TABLE kv SCHEMALESS;\nDEFINE INDEX by_item ON kv FIELDS item;\nDEFINE INDEX by_pair ON kv FIELDS a, b UNIQUE;\n"
            .into(),
    };
    let (out, diffs, rust) = round_trip("loose", &[source]);
    assert!(diffs.is_empty(), "{}\n\n{rust}", diffs.join("\n"));
    assert!(out.left_out.is_empty(), "{:?}", out.left_out);
    assert_eq!(out.choices.len(), 3, "{:?}", out.choices);
}
