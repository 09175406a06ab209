//! The audit's static schema block equals the engine's `fn::schema_context()`, and its token counts equal the lesson's.

use surqlc::ir::Schema;
use surqlc::render::{self, Rendering};
use surqlc::tokens::{self, Encoding};
use surqlc_tests::*;

/// What the embedded engine renders for a compiled schema, and the compiled IR.
fn live_block(output: &surqlc::builder::Output) -> String {
    block_on(async {
        let db = loaded(&[&output.schema_surql]).await;
        surqlc::db::query_string(&db, "RETURN fn::schema_context()")
            .await
            .expect("fn::schema_context runs")
    })
}

fn schema_files() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(root().join("schemas"))
        .expect("schemas/ exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    files
}

#[test]
fn static_block_equals_the_engine_for_every_schema() {
    let files = schema_files();
    assert!(!files.is_empty());
    for file in files {
        let output = surqlc::Builder::new()
            .schema(&file)
            .cargo_metadata(false)
            .generate()
            .expect("schema compiles");
        let want = live_block(&output);
        assert_eq!(
            render::schema_block(&output.schema),
            want,
            "{}",
            file.display()
        );
    }
}

#[test]
fn static_block_of_the_store_is_the_lessons() {
    let schema = builder("store").load().unwrap();
    assert_eq!(
        render::schema_block(&schema),
        read(store_fixtures().join("expected/schema_context.txt"))
    );
}

const AWKWARD: &str = r##"
use surqlc_macros::{Literal, Relation, Schema, Table};

#[derive(Schema)]
#[surqlc(expose(Note, Tagged, Tag))]
pub struct Awkward;

/// It's a "note": back\slash, tab	here, emoji 😀 and ⟩.
///
/// Second paragraph with only 'single' quotes.
#[derive(Table)]
pub struct Note {
    /// Only "double" quotes.
    pub title: String,
    #[doc = "a raw\nnewline and \\ and it's \"both\""]
    pub body: Option<String>,
    /// Lists sort after their name: tags.* follows tags.
    pub tags: Vec<String>,
    pub tags_b: Option<Vec<Option<[f64; 3]>>>,
    /// A field named like a keyword.
    pub value: i64,
    pub Zed: bool,
    pub mood: Option<Mood>,
    pub link: Option<Link<Tag>>,
    #[surqlc(type = "string")]
    pub raw: String,
    #[surqlc(type = "option<array<'a' | \"b\">>")]
    pub raw_list: Option<Vec<String>>,
    #[surqlc(type = "string ASSERT $value INSIDE ['x', 'y']")]
    pub raw_assert: String,
}

#[derive(Literal)]
pub enum Mood { Sad, Glad, Mad }

/// Tag 'x'.
#[derive(Table)]
pub struct Tag {
    pub name: String,
}

#[derive(Relation)]
pub struct Tagged {
    pub r#in: Link<Note>,
    pub out: Link<Tag>,
    /// 🙂 weight\n
    pub weight: f64,
}
"##;

fn compile_text(name: &str, text: &str) -> surqlc::builder::Output {
    let dir = std::env::temp_dir().join(format!("surqlc-audit-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.rs"));
    std::fs::write(&path, text).unwrap();
    surqlc::Builder::new()
        .schema(&path)
        .cargo_metadata(false)
        .generate()
        .expect("schema compiles")
}

#[test]
fn awkward_comments_names_and_types_render_like_the_engine() {
    let output = compile_text("awkward", AWKWARD);
    let want = live_block(&output);
    let got = render::schema_block(&output.schema);
    assert_eq!(got, want);
    assert!(
        got.contains(r#"COMMENT "a raw\nnewline and \\ and it's \"both\"""#),
        "{got}"
    );
    assert!(got.contains("DEFINE FIELD `value` ON note"), "{got}");
}

fn store() -> Schema {
    builder("store").load().unwrap()
}

#[test]
fn store_token_counts_equal_the_lesson() {
    let want: serde_json::Value =
        serde_json::from_str(&read(store_fixtures().join("expected/tokens.json"))).unwrap();
    let schema = store();
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
        let cost = tokens::block_cost(&schema, Rendering::Engine, encoding);
        let expected = &want[encoding.name()];
        for table in &cost.tables {
            assert_eq!(
                Some(table.tokens as u64),
                expected[&table.table].as_u64(),
                "{encoding} {}",
                table.table
            );
        }
        assert_eq!(cost.tables.len(), 5);
        assert_eq!(
            Some(cost.block_tokens as u64),
            expected["schema_block_total"].as_u64(),
            "{encoding} block"
        );
    }
}

#[test]
fn an_inside_assert_is_reported_with_its_saving() {
    let schema = compile_text("inside", AWKWARD).schema;
    let savings = tokens::savings(&schema, Encoding::O200kBase);
    assert_eq!(savings.len(), 1, "{savings:?}");
    assert_eq!(savings[0].field, "raw_assert");
    assert!(savings[0].advice.contains("'x' | 'y'"), "{savings:?}");
    assert!(savings[0].saved() > 0, "{savings:?}");
}
