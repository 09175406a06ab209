//! Paths inside FLEXIBLE objects (indexes on keys the schema does not declare, searched through an idiom, never a backticked name) and an `id` inside an object as the plain key the engine stores: the front end, the generated helpers and the derive, each against the engine.

use crate::every_helper::fixture::{Address, Message, Seller};
use crate::every_helper::{flexible_db, repo};
use surqlc::runtime::{surrealdb, Table};
use surqlc_tests::*;

type Db = surrealdb::Surreal<surrealdb::engine::any::Any>;

fn output() -> surqlc::builder::Output {
    surqlc::Builder::new()
        .schema(repo().join("tests/fixtures/flexible.rs"))
        .cargo_metadata(false)
        .generate()
        .expect("indexes inside FLEXIBLE objects compile")
}

async fn seeded() -> Db {
    let db = surrealdb::engine::any::connect("mem://").await.unwrap();
    db.use_ns("chat").use_db("chat").await.unwrap();
    flexible_db::apply_schema(&db).await.expect("the schema applies");
    db.query(read(repo().join("tests/fixtures/flexible.seed.surql")))
        .await
        .and_then(|r| r.check())
        .expect("the seed loads");
    db
}

#[test]
fn indexes_reach_into_flexible_objects_with_no_invented_sub_field() {
    let out = output();
    for line in [
        "DEFINE FIELD OVERWRITE content ON message TYPE object FLEXIBLE",
        "DEFINE INDEX OVERWRITE message_body ON message FIELDS content.body FULLTEXT ANALYZER words BM25(1.2,0.75) HIGHLIGHTS;",
        "DEFINE INDEX OVERWRITE message_content_lang ON message FIELDS content.lang;",
        "DEFINE INDEX OVERWRITE message_meta_slug ON message FIELDS meta.slug UNIQUE;",
        "DEFINE INDEX OVERWRITE seller_address_country ON seller FIELDS address.country;",
        "DEFINE FIELD OVERWRITE address ON seller TYPE object FLEXIBLE",
        // `id` inside an object: a plain string sub-field.
        "DEFINE FIELD OVERWRITE address.id ON seller TYPE string",
    ] {
        assert!(out.schema_surql.contains(line), "{line}\n{}", out.schema_surql);
    }
    // No sub-field is made up for an index: the object keeps every key the client sends.
    for invented in [
        "content.body ON",
        "content.lang ON",
        "meta.slug ON",
        "address.country ON",
    ] {
        assert!(
            !out.schema_surql.contains(&format!("DEFINE FIELD OVERWRITE {invented}")),
            "{invented}"
        );
    }
    // The search helper names the path as an idiom.
    assert!(
        out.rust_module.contains("FROM message WHERE content.body @1@ $query"),
        "{}",
        out.rust_module
    );
    // The derive builds the compiler's IR and text, the `id` sub-field included.
    for t in [Message::table_ir(), Seller::table_ir()] {
        assert_eq!(Some(&t), out.schema.table(&t.name), "{}", t.name);
    }
    assert_eq!(
        Seller::define(),
        surqlc::surql::table_definition(out.schema.table("seller").unwrap())
    );
}

#[test]
fn a_path_past_an_object_that_keeps_only_its_declared_keys_is_still_refused() {
    let path = schema_file(
        "flexible_refused",
        r#"
use surqlc_macros::{Object, Table};

#[derive(Object)]
pub struct Address {
    pub city: String,
}

#[derive(Table)]
#[surqlc(index(fields(address.country)), index(fields(extra.body)))]
pub struct Seller {
    pub address: Address,
    #[surqlc(type = "object")]
    pub extra: std::collections::BTreeMap<String, String>,
}
"#,
    );
    let err = surqlc::Builder::new()
        .schema(&path)
        .cargo_metadata(false)
        .generate()
        .expect_err("the engine refuses undeclared keys of an object that is not FLEXIBLE")
        .to_string();
    for want in [
        "`seller.address` has no sub-field `country` to index",
        "`seller.extra` has no sub-field `body` to index",
        "make it FLEXIBLE",
    ] {
        assert!(err.contains(want), "{want}\n{err}");
    }
    // What the message says, on the engine: an object without FLEXIBLE refuses the key.
    block_on(async {
        let db = loaded(&[
            "DEFINE TABLE seller SCHEMAFULL; DEFINE FIELD address ON seller TYPE object; \
             DEFINE FIELD address.city ON seller TYPE string;",
        ])
        .await;
        let refused = surqlc::db::query_json(
            &db,
            "CREATE seller:a CONTENT { address: { city: 'Leeds', country: 'GB' } }",
        )
        .await
        .expect_err("a key the object does not declare")
        .to_string();
        assert!(refused.contains("no such field exists"), "{refused}");
    });
}

#[test]
fn the_search_helper_finds_through_the_idiom_where_a_backticked_path_fails() {
    block_on(async {
        let db = seeded().await;
        let hits = flexible_db::message::search_content_body(&db, "deploy", 5)
            .await
            .expect("the helper runs");
        assert_eq!(hits.len(), 1, "{hits:?}");
        let hit = &hits[0];
        assert_eq!(hit.record.id, Message::record(1));
        // The typed row keeps every key the client sent, not only the indexed one.
        assert_eq!(hit.record.content.get("mood").map(String::as_str), Some("calm"));
        assert!(hit.highlight.as_deref().unwrap_or_default().contains("<b>"), "{hit:?}");
        // The path backticked as one name is a top-level field the index does not cover: the
        // engine refuses the match on every call (what the helper used to send).
        let backticked = db
            .query("SELECT * FROM message WHERE `content.body` @1@ 'deploy'")
            .await
            .and_then(|r| r.check());
        let message = backticked.expect_err("no index covers `content.body`").to_string();
        assert!(message.contains("no suitable index"), "{message}");
        // The unique and plain indexes on paths inside FLEXIBLE objects hold.
        let slug = surqlc::runtime::Value::from_t("release-night".to_owned());
        let found = flexible_db::message::find_by_meta_slug(&db, slug).await.unwrap();
        assert_eq!(found.map(|r| r.id), Some(Message::record(1)));
        let twice = db
            .query("CREATE message:9 CONTENT { room: 'x', content: { body: 'b' }, meta: { slug: 'release-night' } }")
            .await
            .and_then(|r| r.check());
        assert!(twice.is_err_and(|e| e.to_string().contains("message_meta_slug")));
        let plan = surqlc::db::query_json(&db, "SELECT * FROM seller WHERE address.country = 'GB' EXPLAIN")
            .await
            .unwrap();
        assert!(plan.to_string().contains("seller_address_country"), "{plan}");
    })
}

#[test]
fn an_id_inside_an_object_is_a_plain_key_on_the_engine_and_in_typed_rows() {
    block_on(async {
        let db = seeded().await;
        // The engine stores and answers it as the string it is, and filters on it.
        let stored = surqlc::db::query_json(&db, "SELECT VALUE address.id FROM seller ORDER BY id")
            .await
            .unwrap();
        assert_eq!(stored, serde_json::json!(["UPRN-100", "UPRN-200"]));
        let by_id = surqlc::db::query_json(&db, "SELECT VALUE name FROM seller WHERE address.id = 'UPRN-200'")
            .await
            .unwrap();
        assert_eq!(by_id, serde_json::json!(["Brio"]));
        let info = surqlc::db::query_json(&db, "INFO FOR TABLE seller").await.unwrap();
        let field = info["fields"]["address.id"].as_str().unwrap_or_default().to_owned();
        assert!(
            field.starts_with("DEFINE FIELD address.id ON seller TYPE string"),
            "{info}"
        );
        // The derive's codec writes and reads it as a field; the generated helpers type it.
        let cara = Seller {
            name: "Cara".into(),
            address: Address {
                id: "UPRN-300".into(),
                city: "Cork".into(),
            },
        };
        let created: Option<Seller> = db.create(("seller", "cara")).content(cara.clone()).await.unwrap();
        assert_eq!(created, Some(cara.clone()));
        let found = flexible_db::seller::find_by_address_id(&db, "UPRN-300").await.unwrap();
        assert_eq!(
            found.map(|r| (r.id.clone(), r.data.clone())),
            Some((Seller::record("cara"), cara))
        );
        // A record id written there is refused: the field is a string, not the row's id.
        let wrong = db
            .query("UPDATE seller:cara SET address.id = seller:acme")
            .await
            .and_then(|r| r.check());
        assert!(wrong.is_err(), "{wrong:?}");
    })
}

#[test]
fn the_validator_types_paths_inside_flexible_objects() {
    let schema = output().schema;
    for q in [
        "SELECT content.body, content.mood, meta.slug FROM message LIMIT 5",
        "SELECT *, search::score(1) AS score FROM message WHERE content.body @1@ 'deploy' LIMIT 5",
        "SELECT name, address.id, address.country FROM seller WHERE address.country = 'GB' LIMIT 5",
    ] {
        let report = surqlc::validate::validate(&schema, q);
        assert_eq!(report.diagnostics, Vec::new(), "{q}");
    }
}
