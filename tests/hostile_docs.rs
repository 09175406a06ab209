//! Any doc comment text comes back out of `INFO` exactly as written: quotes, backslashes, newlines, `--`, `;`, `⟩`, emoji, right-to-left text.

use proptest::prelude::*;
use surqlc::db;
use surqlc::front::{compile, SourceFile};
use surqlc_tests::*;

/// A schema whose table and field docs are `table_doc` and `field_doc`, written as `#[doc = "..."]`.
fn schema_text(table_doc: &str, field_doc: &str) -> String {
    // One leading space is what `///` adds and what surqlc strips, so add it back.
    format!(
        "#[doc = {:?}]\n#[derive(Table)]\npub struct Note {{\n    #[doc = {:?}]\n    pub body: String,\n}}\n",
        format!(" {table_doc}"),
        format!(" {field_doc}")
    )
}

/// Strings that lean on everything SurrealQL's lexer treats specially, mixed with arbitrary text.
fn hostile() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "'",
        "\"",
        "\\",
        "\\n",
        "\n",
        "\r\n",
        "\t",
        "--",
        ";",
        "⟩",
        "⟨",
        "`",
        "😀",
        "👩‍👩‍👧",
        "שלום",
        "مرحبا",
        "\u{202e}",
        "$value",
        "{{",
        "}}",
        "*/",
        "/*",
        "COMMENT",
        " PERMISSIONS FULL",
        "\\u{41}",
        "é",
        " ",
        "x",
    ]);
    let piece = prop_oneof![pieces.prop_map(str::to_owned), any::<String>()];
    prop::collection::vec(piece, 1..8)
        .prop_map(|v| v.concat())
        // A one-line comment of only whitespace is no comment (docs/annotations.md).
        .prop_filter("a comment needs text", |s| {
            (!s.trim().is_empty() || s.contains('\n')) && !s.contains('\0')
        })
}

async fn round_trip(conn: &db::Db, table_doc: &str, field_doc: &str) -> (serde_json::Value, serde_json::Value) {
    let file = SourceFile {
        path: "hostile.rs".into(),
        text: schema_text(table_doc, field_doc),
    };
    let schema = compile(&[file]).expect("hostile docs compile");
    db::execute(conn, &surqlc::surql::table_definition(&schema.tables[0]))
        .await
        .expect("the definition loads");
    let table = db::query_json(
        conn,
        "RETURN (INFO FOR DB STRUCTURE).tables.filter(|$t| $t.name = 'note')[0].comment",
    )
    .await
    .unwrap();
    let field = db::query_json(
        conn,
        "RETURN (INFO FOR TABLE note STRUCTURE).fields.filter(|$f| $f.name = 'body')[0].comment",
    )
    .await
    .unwrap();
    (table, field)
}

#[test]
fn the_lesson_examples_round_trip() {
    block_on(async {
        let conn = loaded(&[]).await;
        for text in [
            "Produktkatalog. Preise in €. Größe, Übersicht.",
            "商品名。日本語と中文の両方が使えます。",
            "✅ shipped, ⏳ pending, ❌ cancelled.",
            "{\"unit\":\"EUR\",\"precision\":2}",
        ] {
            let (t, f) = round_trip(&conn, text, text).await;
            assert_eq!((t.as_str(), f.as_str()), (Some(text), Some(text)));
        }
    })
}

#[test]
fn random_hostile_text_round_trips_through_info() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let conn = runtime.block_on(loaded(&[]));
    proptest!(ProptestConfig::with_cases(256), |(table_doc in hostile(), field_doc in hostile())| {
        let (t, f) = runtime.block_on(round_trip(&conn, &table_doc, &field_doc));
        prop_assert_eq!(t.as_str(), Some(table_doc.as_str()));
        prop_assert_eq!(f.as_str(), Some(field_doc.as_str()));
    });
}
