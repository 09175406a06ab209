//! The two real-world schemas (`schemas/memory.rs`, `schemas/meetings.rs`) load, import twice without change, and behave as their constructs promise.

#[deny(warnings)]
mod memory_db {
    include!(concat!(env!("OUT_DIR"), "/memory/schema.rs"));
}

#[deny(warnings)]
mod meetings_db {
    include!(concat!(env!("OUT_DIR"), "/meetings/schema.rs"));
}

use crate::memory;
use surqlc::runtime::{surrealdb, Link};
use surqlc_tests::*;

type Db = surrealdb::Surreal<surrealdb::engine::any::Any>;

async fn db_with(name: &str, apply: impl AsyncFn(&Db)) -> Db {
    let db = surrealdb::engine::any::connect("mem://").await.unwrap();
    db.use_ns("ai").use_db(name).await.unwrap();
    apply(&db).await;
    db.query(read(root().join(format!("schemas/{name}.seed.surql"))))
        .await
        .unwrap()
        .check()
        .expect("data loads");
    db
}

async fn memory() -> Db {
    db_with("memory", async |db| {
        memory_db::apply_schema(db).await.expect("schema applies")
    })
    .await
}

async fn meetings() -> Db {
    db_with("meetings", async |db| {
        meetings_db::apply_schema(db).await.expect("schema applies")
    })
    .await
}

/// Everything an import could change: the definitions and every row.
async fn snapshot(db: &Db, tables: &[&str]) -> String {
    let mut out = String::new();
    let mut script = String::from("INFO FOR DB;");
    for t in tables {
        script.push_str(&format!("INFO FOR TABLE {t}; SELECT * FROM {t} ORDER BY id;"));
    }
    let mut response = db.query(script).await.unwrap().check().unwrap();
    for i in 0..(1 + 2 * tables.len()) {
        let v: surqlc::runtime::Value = response.take(i).unwrap();
        out.push_str(&format!("{v:?}\n"));
    }
    out
}

#[test]
fn importing_either_schema_and_its_data_twice_changes_nothing() {
    block_on(async {
        for (name, schema, tables) in [
            ("memory", memory_db::SCHEMA_SURQL, &["file"][..]),
            (
                "meetings",
                meetings_db::SCHEMA_SURQL,
                &["person", "meeting", "task", "attended", "discussed", "assigned"][..],
            ),
        ] {
            let seed = read(root().join(format!("schemas/{name}.seed.surql")));
            let db = loaded(&[schema, &seed]).await;
            let once = snapshot(&db, tables).await;
            db.query(schema).await.unwrap().check().expect("schema imports again");
            db.query(seed.as_str())
                .await
                .unwrap()
                .check()
                .expect("data imports again");
            assert_eq!(once, snapshot(&db, tables).await, "{name}");
        }
    })
}

fn file(name: &str, parent: Option<Link<memory::File>>, content: Option<&str>) -> memory::File {
    memory::File {
        name: name.into(),
        parent,
        parent_key: String::new(),
        content: content.map(str::to_owned),
        path: String::new(),
        is_folder: false,
        created_at: Default::default(),
        updated_at: Default::default(),
        embedding: None,
    }
}

async fn create(db: &Db, f: memory::File) -> Result<(), surrealdb::Error> {
    db.query("CREATE file CONTENT $f")
        .bind(("f", f))
        .await?
        .check()
        .map(|_| ())
}

#[test]
fn the_composite_unique_index_refuses_a_name_twice_in_one_folder_only() {
    block_on(async {
        let db = memory().await;
        let root_dup = create(&db, file("notes.md", None, Some("again"))).await;
        assert!(
            root_dup
                .as_ref()
                .is_err_and(|e| e.message().contains("file_parent_name")),
            "a second notes.md at the root: {root_dup:?}"
        );
        let web = memory::File::record("web");
        let nested_dup = create(&db, file("editor.md", Some(web), Some("again"))).await;
        assert!(nested_dup.is_err(), "a second editor.md under web");
        // The same name under another parent is fine.
        create(
            &db,
            file("editor.md", Some(memory::File::record("projects")), Some("other")),
        )
        .await
        .expect("editor.md under projects");
        let found = memory_db::file::find_by_parent_key_and_name(&db, "projects", "editor.md")
            .await
            .unwrap()
            .expect("the unique lookup finds it");
        assert_eq!(found.content.as_deref(), Some("other"));
        assert!(memory_db::file::find_by_parent_key_and_name(&db, "root", "nope.md")
            .await
            .unwrap()
            .is_none());
    })
}

#[test]
fn path_and_is_folder_are_computed_for_a_three_level_tree() {
    block_on(async {
        let db = memory().await;
        let editor = memory_db::file::get_by_key(&db, "editor")
            .await
            .unwrap()
            .expect("editor.md");
        assert_eq!(editor.path, "/projects/web/editor.md");
        assert!(!editor.is_folder);
        assert_eq!(editor.parent_key, "web");
        let web = memory_db::file::get_by_key(&db, "web").await.unwrap().unwrap();
        assert_eq!((web.path.as_str(), web.is_folder), ("/projects/web", true));
        let projects = memory_db::file::get_by_key(&db, "projects").await.unwrap().unwrap();
        assert_eq!(
            (projects.path.as_str(), projects.is_folder, projects.parent_key.as_str()),
            ("/projects", true, "root")
        );
    })
}

#[test]
fn full_text_search_finds_a_stemmed_word_with_a_highlight() {
    block_on(async {
        let db = memory().await;
        let hits = memory_db::file::search_content(&db, "deploying", 5).await.unwrap();
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!(hits[0].record.name, "deploy.md");
        assert!(hits[0].score > 0.0);
        let highlight = hits[0].highlight.as_deref().unwrap_or_default();
        assert!(highlight.contains("<b>deploy</b>"), "{highlight}");
    })
}

#[test]
fn nearest_neighbours_come_in_distance_order() {
    block_on(async {
        let db = memory().await;
        let near = memory_db::file::nearest_embedding(&db, &[0.1, 0.8, 0.3, 0.0], 3)
            .await
            .unwrap();
        let names: Vec<&str> = near.iter().map(|n| n.record.name.as_str()).collect();
        assert_eq!(names, ["deploy.md", "editor.md", "notes.md"]);
        assert!(near.windows(2).all(|w| w[0].distance <= w[1].distance), "{near:?}");
    })
}

#[test]
fn meeting_hints_print_ids_range_and_note_exactly() {
    block_on(async {
        let db = meetings().await;
        assert_eq!(
            meetings_db::value_hints(&db).await.unwrap(),
            "person ids (5 total): ⟨Alice Chen⟩, ⟨Bruno Diaz⟩, ⟨Chidi Okafor⟩, ⟨Dana Levi⟩, ⟨Emma Stone⟩\n\
             meeting.time range: 2026-07-06 to 2026-07-22\n\
             task ids are full sentences; match them with string::contains(record::id(id), '...')"
        );
        let meeting = meetings_db::meeting::get_by_key(&db, 2)
            .await
            .unwrap()
            .expect("meeting:2");
        assert_eq!(meeting.title, "Design review");
    })
}

#[test]
fn an_id_hint_stays_bounded_when_the_table_grows_to_10000_rows() {
    block_on(async {
        let db = meetings().await;
        db.query("FOR $i IN 0..9995 { CREATE type::record('person', 'p' + <string> $i); }")
            .await
            .unwrap()
            .check()
            .unwrap();
        let hints = meetings_db::value_hints(&db).await.unwrap();
        let line = hints.lines().next().unwrap();
        assert!(line.starts_with("person ids (10000 total, first 20): "), "{line}");
        let listed = line.split_once("): ").unwrap().1;
        assert_eq!(listed.split(", ").count(), 20, "{line}");
        assert!(line.len() < 400, "{} bytes", line.len());
    })
}
