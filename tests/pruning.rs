//! Question-specific pruning on the embedded engine: the committed benchmark reaches its recall target within the budget, no budget is ever exceeded, the full block comes back when it fits, and the settings are checked.

use surqlc::db::{self, Db};
use surqlc::front::{compile, SourceFile};
use surqlc::prune_eval::{self, Question, Strategy};
use surqlc::tokens::Encoding;
use surqlc_tests::*;

/// The enterprise schema and data loaded, with hashed table embeddings stored; its questions; the embedding dimension.
async fn enterprise() -> (Db, Vec<Question>, usize, surqlc::builder::Output) {
    let output = builder("enterprise").generate().unwrap();
    let dimension = output.schema.settings.examples.dimension as usize;
    let db = loaded(&[
        &output.schema_surql,
        &read(root().join("schemas/enterprise.seed.surql")),
    ])
    .await;
    prune_eval::store_hashed_embeddings(&db, dimension)
        .await
        .unwrap();
    let questions =
        prune_eval::read_questions(&read(root().join("schemas/enterprise.questions.json")))
            .unwrap();
    (db, questions, dimension, output)
}

/// One load of the benchmark (loading it and storing its embeddings is the slow part) for every check on it.
#[test]
fn the_enterprise_benchmark() {
    block_on(async {
        let (db, questions, dimension, output) = enterprise().await;
        assert!(questions.len() >= 60, "at least 60 labelled questions");
        assert!(output.schema.settings.exposed.len() >= 150);
        let prune = output
            .schema
            .settings
            .prune
            .clone()
            .expect("enterprise prunes");
        let full_block = surqlc::surql::info::schema_block(&output.schema);
        let full = Encoding::O200kBase.count(&full_block) as u32;
        assert!(
            full > 5 * prune.budget,
            "the benchmark needs pruning: {full}"
        );

        // The stored blocks are the live fn::schema_context(), and their costs exact.
        let live = db::query_string(&db, "RETURN fn::schema_context()")
            .await
            .unwrap();
        assert_eq!(live, full_block);
        let rows = db::query_json(
            &db,
            "SELECT block, tokens FROM schema_doc ORDER BY position",
        )
        .await
        .unwrap();
        let blocks: Vec<String> = rows
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                let block = row["block"].as_str().unwrap();
                assert_eq!(
                    row["tokens"].as_u64().unwrap() as usize,
                    Encoding::O200kBase.count(&format!("{block}\n\n"))
                );
                block.to_owned()
            })
            .collect();
        assert_eq!(blocks.join("\n\n"), live);

        // Full text with relation closure, with and without vectors, reaches the target within the budget.
        for strategy in [Strategy::FullTextClosure, Strategy::FullTextVector] {
            let report = prune_eval::evaluate(&db, strategy, &questions, prune.budget, dimension)
                .await
                .unwrap();
            let misses: Vec<_> = questions
                .iter()
                .zip(&report.outcomes)
                .filter(|(_, o)| !o.missing.is_empty())
                .map(|(q, o)| (q.question.as_str(), o.missing.clone()))
                .collect();
            assert!(
                report.recall() >= 0.95,
                "{}: {:.1}% of questions get every table; misses: {misses:#?}",
                strategy.name(),
                100.0 * report.recall()
            );
            for o in &report.outcomes {
                assert!(o.tokens <= prune.budget as usize, "{} tokens", o.tokens);
                // The pruned block is the chosen tables' blocks in prompt order, as the full block has them.
                let expected: Vec<&str> = output
                    .schema
                    .settings
                    .exposed
                    .iter()
                    .zip(&blocks)
                    .filter(|(t, _)| o.tables.contains(t))
                    .map(|(_, b)| b.as_str())
                    .collect();
                assert_eq!(o.block, expected.join("\n\n"));
            }
        }

        // No budget is exceeded, whatever the strategy.
        for budget in [1, 150, 1200, full - 1] {
            for q in questions.iter().step_by(29) {
                for strategy in [
                    Strategy::FullText,
                    Strategy::FullTextClosure,
                    Strategy::FullTextVector,
                ] {
                    let o = prune_eval::run(&db, strategy, q, budget, dimension)
                        .await
                        .unwrap();
                    assert!(
                        o.tokens <= budget as usize,
                        "{}: {} tokens over {budget} for {:?}",
                        strategy.name(),
                        o.tokens,
                        q.question
                    );
                }
            }
        }
        // A question with no word in any table's text still gets a block within the budget.
        let nothing = Question {
            question: "?!".into(),
            tables: Vec::new(),
        };
        let o = prune_eval::run(&db, Strategy::FullTextClosure, &nothing, 2000, dimension)
            .await
            .unwrap();
        assert!(o.tokens <= 2000);

        // The whole block when it fits.
        for budget in [full, full + 1000] {
            let block: String = db
                .query("RETURN fn::pruned_schema_context($q, NONE, $b)")
                .bind(("q", questions[0].question.clone()))
                .bind(("b", budget))
                .await
                .unwrap()
                .check()
                .unwrap()
                .take::<Option<String>>(0)
                .unwrap()
                .unwrap();
            assert_eq!(block, full_block);
        }
    });
}

/// The store with pruning switched on (its 453-token block fits any budget above it).
fn pruned_store(settings: &str) -> String {
    read(root().join("schemas/store.rs")).replace(
        "    agent(user = \"agent\", token = \"1h\", session = \"12h\")\n)]",
        &format!(
            "    agent(user = \"agent\", token = \"1h\", session = \"12h\"),\n    {settings}\n)]"
        ),
    )
}

#[test]
fn a_pruned_prompt_that_fits_is_the_whole_prompt_and_a_tight_one_keeps_its_always_tables() {
    block_on(async {
        let store = read(root().join("schemas/store.seed.surql"));
        let path = schema_file(
            "pruned_store",
            &pruned_store("prune(budget = 2000, always(Product))"),
        );
        let mut b = surqlc::Builder::new();
        b.schema(&path).cargo_metadata(false);
        let output = b.generate().unwrap();
        assert_eq!(
            output.schema.settings.prune.as_ref().unwrap().always,
            ["product"]
        );
        let db = loaded(&[&output.schema_surql, &store]).await;
        let qvec = [0.92, 0.0, 0.4, 0.0];
        let question = "Which category earns us the most money?";
        let whole = db::prompt(&db, question, &qvec).await.unwrap();
        let pruned: Option<String> = db
            .query("RETURN fn::nl2surql_prompt_pruned($q, $v)")
            .bind(("q", question))
            .bind(("v", qvec.to_vec()))
            .await
            .unwrap()
            .check()
            .unwrap()
            .take(0)
            .unwrap();
        assert_eq!(pruned.unwrap(), whole);
        // Under a tight budget the always-included table comes first, and value hints follow the tables shown.
        let tables: Vec<String> = db
            .query("RETURN fn::pruned_tables('Who are our customers?', NONE, 150, true)")
            .await
            .unwrap()
            .check()
            .unwrap()
            .take(0)
            .unwrap();
        assert!(tables.contains(&"product".to_owned()), "{tables:?}");
        let hints = db::query_string(&db, "RETURN fn::pruned_value_hints(['product'])")
            .await
            .unwrap();
        assert!(hints.starts_with("product.category: "), "{hints}");
        assert!(!hints.contains("customer."));
        // A relation brings its ends: asking about order lines shows purchases and products.
        let tables: Vec<String> = db
            .query("RETURN fn::pruned_tables('units on an order line', NONE, 300, true)")
            .await
            .unwrap()
            .check()
            .unwrap()
            .take(0)
            .unwrap();
        assert!(
            ["contains", "purchase", "product"]
                .iter()
                .all(|t| tables.contains(&t.to_string())),
            "{tables:?}"
        );
        // Reloading the schema keeps the rows (and any embeddings) and changes nothing.
        db::execute(&db, &output.schema_surql).await.unwrap();
        let rows = db::query_json(&db, "SELECT VALUE name FROM schema_doc ORDER BY position")
            .await
            .unwrap();
        assert_eq!(
            rows,
            serde_json::json!(["customer", "placed", "purchase", "contains", "product"])
        );
    });
}

fn errors(text: &str) -> Vec<String> {
    compile(&[SourceFile {
        path: "schemas/bad.rs".into(),
        text: text.to_owned(),
    }])
    .expect_err("rejected")
    .0
    .into_iter()
    .map(|d| format!("{}:{}: {}", d.line, d.column, d.message))
    .collect()
}

#[test]
fn bad_prune_settings_are_errors_with_positions() {
    let tables = "#[derive(Table)]\npub struct A {}\n#[derive(Table)]\npub struct B {}\n";
    let found = errors(&format!(
        "{tables}#[derive(Schema)]\n#[surqlc(expose(A), prune(budget = 0, always(B, Nope), mix = \"bm25\"))]\npub struct S;\n"
    ));
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(
        found[0].starts_with("6:36: prune(budget) must be at least 1"),
        "{found:#?}"
    );
    assert!(
        found[1].starts_with("6:62: unknown prune(mix) \"bm25\""),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("6:46: `b` is in prune(always) but not exposed")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("6:49: `Nope` is not a table")),
        "{found:#?}"
    );
    let found = errors(&format!(
        "{tables}#[derive(Table)]\npub struct SchemaDoc {{}}\n#[derive(Schema)]\n#[surqlc(prune, prune(budget = 9))]\npub struct S;\n"
    ));
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found.iter().any(|m| m.contains("duplicate `prune`")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("6:12: the table `schema_doc` is where prune")),
        "{found:#?}"
    );
}
