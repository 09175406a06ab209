//! `fn::schema_context()` reads the block cached when the schema was applied: it equals the live walk for every schema, follows a re-apply, and the agent may read it.

use surqlc::db::{self, Db};
use surqlc_tests::*;

const CACHED: &str = "RETURN fn::schema_context()";
const LIVE: &str = "RETURN fn::schema_context_live()";

async fn string(db: &Db, statement: &str) -> String {
    db::query_string(db, statement)
        .await
        .unwrap_or_else(|e| panic!("{statement}: {e}"))
}

fn compile(file: &std::path::Path) -> surqlc::builder::Output {
    surqlc::Builder::new()
        .schema(file)
        .cargo_metadata(false)
        .agent_password("cache-test")
        .generate()
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

#[test]
fn the_cached_block_equals_the_live_walk_for_every_schema() {
    let files = schema_files();
    assert!(files.len() >= 2);
    block_on(async {
        for file in files {
            let output = compile(&file);
            let db = loaded(&[&output.schema_surql]).await;
            let cached = string(&db, CACHED).await;
            assert!(!cached.is_empty(), "{}", file.display());
            assert_eq!(cached, string(&db, LIVE).await, "{}", file.display());
            assert_eq!(
                cached,
                surqlc::surql::info::schema_block(&output.schema),
                "{}",
                file.display()
            );
        }
    });
}

#[test]
fn the_store_block_is_the_lessons_byte_for_byte() {
    block_on(async {
        let output = compile(&root().join("schemas/store.rs"));
        let db = loaded(&[&output.schema_surql]).await;
        assert_eq!(
            string(&db, CACHED).await,
            read(store_fixtures().join("expected/schema_context.txt"))
        );
    });
}

#[test]
fn a_compact_schema_caches_the_compact_block() {
    let source = read(root().join("schemas/store.rs")).replace(
        "agent(user = \"agent\", token = \"1h\", session = \"12h\"),",
        "agent(user = \"agent\", token = \"1h\", session = \"12h\"),\n    compact,",
    );
    assert!(source.contains("compact"));
    let output = compile(&schema_file("cache_compact", &source));
    block_on(async {
        let db = loaded(&[&output.schema_surql]).await;
        let cached = string(&db, CACHED).await;
        assert_eq!(cached, string(&db, "RETURN fn::schema_context_compact()").await);
        assert_eq!(cached, string(&db, LIVE).await);
        assert!(!cached.contains("SCHEMAFULL"), "{cached}");
    });
}

#[test]
fn applying_a_changed_schema_refreshes_the_cache() {
    let before = compile(&root().join("schemas/store.rs"));
    let changed_source = read(root().join("schemas/store.rs"))
        .replace(
            "/// Display name of the product.",
            "/// Display name of the product, as printed on the invoice.",
        )
        .replace(
            "    /// Catalogue section.\n",
            "    /// Stock-keeping unit.\n    pub sku: String,\n    /// Catalogue section.\n",
        );
    let after = compile(&schema_file("cache_changed", &changed_source));
    block_on(async {
        let db = loaded(&[&before.schema_surql]).await;
        let old = string(&db, CACHED).await;
        db::execute(&db, &after.schema_surql)
            .await
            .expect("the changed schema applies over the old one");
        let new = string(&db, CACHED).await;
        assert_ne!(new, old);
        assert!(
            new.contains("as printed on the invoice") && new.contains("DEFINE FIELD sku ON product"),
            "{new}"
        );
        assert_eq!(new, string(&db, LIVE).await);
        assert_eq!(new, surqlc::surql::info::schema_block(&after.schema));
    });
}

#[test]
fn a_manual_define_leaves_the_cache_stale_until_refreshed() {
    let output = compile(&root().join("schemas/store.rs"));
    block_on(async {
        let db = loaded(&[&output.schema_surql]).await;
        let old = string(&db, CACHED).await;
        db::execute(
            &db,
            "DEFINE FIELD OVERWRITE email ON customer TYPE option<string> COMMENT 'Contact address.';",
        )
        .await
        .unwrap();
        assert_eq!(string(&db, CACHED).await, old, "the cache is a snapshot");
        let live = string(&db, LIVE).await;
        assert!(live.contains("DEFINE FIELD email ON customer"), "{live}");
        assert_eq!(string(&db, "RETURN fn::refresh_schema_context()").await, live);
        assert_eq!(string(&db, CACHED).await, live);
        // Applying the schema again renders the cache from what is then defined.
        db::execute(&db, &output.schema_surql).await.unwrap();
        assert_eq!(string(&db, CACHED).await, string(&db, LIVE).await);
    });
}

#[test]
fn the_viewer_agent_reads_the_cache_but_cannot_refresh_it() {
    let output = compile(&root().join("schemas/store.rs"));
    block_on(async {
        let db = loaded(&[&output.schema_surql]).await;
        let owner_view = string(&db, CACHED).await;
        let agent = db.clone();
        agent
            .signin(db::database_user("ai", "store", "agent", "cache-test"))
            .await
            .expect("the agent signs in");
        agent.use_ns("ai").use_db("store").await.unwrap();
        assert_eq!(string(&agent, CACHED).await, owner_view);
        let refused = db::query_string(&agent, "RETURN fn::refresh_schema_context()").await;
        assert!(refused.is_err(), "a VIEWER must not rewrite the cache: {refused:?}");
        assert_eq!(string(&db, CACHED).await, owner_view);
    });
}

#[test]
fn surreal_import_fills_the_cache() {
    let output = compile(&root().join("schemas/store.rs"));
    let file = scratch_dir("cache_import").join("schema.surql");
    std::fs::write(&file, &output.schema_surql).unwrap();
    block_on(async {
        let db = loaded(&[]).await;
        db.import(&file).await.expect("the schema imports");
        assert_eq!(
            string(&db, CACHED).await,
            read(store_fixtures().join("expected/schema_context.txt"))
        );
        assert_eq!(string(&db, CACHED).await, string(&db, LIVE).await);
    });
}
