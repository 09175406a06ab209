//! Question-specific pruning on the embedded engine: the committed benchmark reaches its recall target within the budget, no budget is ever exceeded, the full block comes back when it fits, and the settings are checked.

use surqlc::audit::prune_eval::{self, Knobs, Question, Strategy};
use surqlc::db::{self, Db};
use surqlc::front::{compile, SourceFile};
use surqlc::tokens::Encoding;
use surqlc_tests::*;

/// The enterprise schema and data loaded, with hashed table embeddings stored; its questions; the embedding dimension.
async fn enterprise() -> (Db, Vec<Question>, usize, surqlc::builder::Output) {
    let output = builder("enterprise").generate().unwrap();
    let dimension = output.schema.settings.examples.dimension as usize;
    let db = loaded(&[
        &output.schema_surql,
        &read(root().join("schemas/enterprise.seed.surql")),
        "RETURN fn::pruned_index_values();",
    ])
    .await;
    prune_eval::store_hashed_embeddings(&db, dimension).await.unwrap();
    let questions = prune_eval::read_questions(&read(root().join("schemas/enterprise.questions.json"))).unwrap();
    (db, questions, dimension, output)
}

/// One load of the benchmark (loading it and storing its embeddings is the slow part) for every check on it.
#[test]
// A scenario: one load of the benchmark (the slow part) for a sequence of checks on it.
#[allow(clippy::too_many_lines)]
fn the_enterprise_benchmark() {
    block_on(async {
        let (db, questions, dimension, output) = enterprise().await;
        assert!(questions.len() >= 60, "at least 60 labelled questions");
        assert!(output.schema.settings.exposed.len() >= 150);
        let prune = output.schema.settings.prune.clone().expect("enterprise prunes");
        let full_block = surqlc::surql::info::schema_block(&output.schema);
        let full = Encoding::O200kBase.count(&full_block) as u32;
        assert!(full > 5 * prune.budget, "the benchmark needs pruning: {full}");

        // The stored blocks are the live fn::schema_context(), and their costs exact.
        let live = db::query_string(&db, "RETURN fn::schema_context()").await.unwrap();
        assert_eq!(live, full_block);
        let rows = db::query_json(&db, "SELECT block, tokens FROM schema_doc ORDER BY position")
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

        // The application's pruner (surqlc::runtime::Pruner) is compared with the database's
        // choice on every question below.
        let pruner = surqlc::runtime::Pruner::load(&db)
            .await
            .unwrap()
            .expect("a schema with prune(...) has pruning facts");

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
            agrees(
                &db,
                &pruner,
                strategy,
                Knobs::NONE,
                &questions,
                &report,
                prune.budget,
                dimension,
            )
            .await;
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

        // Questions in other words than the schema's (written from a description of the company,
        // labelled afterwards): the thesaurus, synonyms, person hubs, field-level pruning and value
        // linking keep at least 95% of them whole.
        let paraphrased =
            prune_eval::read_questions(&read(root().join("schemas/enterprise.paraphrased.json"))).unwrap();
        assert!(paraphrased.len() >= 80);
        let report = prune_eval::evaluate_with(
            &db,
            Strategy::FullTextClosure,
            Knobs::BUILT,
            &paraphrased,
            prune.budget,
            dimension,
        )
        .await
        .unwrap();
        assert!(
            report.recall() >= 0.95,
            "paraphrased: {:.1}% of questions get every table",
            100.0 * report.recall()
        );
        agrees(
            &db,
            &pruner,
            Strategy::FullTextClosure,
            Knobs::BUILT,
            &paraphrased,
            &report,
            prune.budget,
            dimension,
        )
        .await;
        // The pruned prompt the application makes is the database's, byte for byte (a sample:
        // each of the database's prompts takes a while in a debug build), the no-match note included.
        let nothing = "?!".to_owned();
        for question in paraphrased.iter().step_by(9).map(|q| &q.question).chain([&nothing]) {
            let v: Vec<f64> = surqlc::prune::hashed_embedding(question, dimension)
                .into_iter()
                .map(f64::from)
                .collect();
            let theirs = pruned_prompt_on(&db, question, v.clone()).await.unwrap();
            let mine = pruner.prompt(&db, question, &v).await.unwrap();
            assert_eq!(mine, theirs, "{question:?}");
        }
        assert!(report.max_tokens() <= prune.budget as usize);

        // Value linking: a name only the data holds brings the table holding it.
        let links = db::query_json(
            &db,
            "RETURN fn::pruned_value_links('How many people at Globex do we have on file?')",
        )
        .await
        .unwrap();
        assert_eq!(
            links[0],
            serde_json::json!({"tb": "customer", "field": "name"}),
            "{links}"
        );
        let none = db::query_json(&db, "RETURN fn::pruned_value_links('how many people are there')")
            .await
            .unwrap();
        assert_eq!(none, serde_json::json!([]));

        // No budget is exceeded, whatever the strategy.
        for budget in [1, 150, 1200, full - 1] {
            for q in questions.iter().step_by(29) {
                for strategy in [Strategy::FullText, Strategy::FullTextClosure, Strategy::FullTextVector] {
                    let o = prune_eval::run_with(&db, strategy, Knobs::BUILT, q, budget, dimension)
                        .await
                        .unwrap();
                    let mine = prune_eval::run_by(&db, Some(&pruner), strategy, Knobs::BUILT, q, budget, dimension)
                        .await
                        .unwrap();
                    assert_eq!(
                        (&mine.tables, &mine.block),
                        (&o.tables, &o.block),
                        "{} at {budget}: {:?}",
                        strategy.name(),
                        q.question
                    );
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

/// `surqlc::runtime::Pruner` chose the same tables and rendered the same block as the database did in `report`.
#[allow(clippy::too_many_arguments)]
async fn agrees(
    db: &Db,
    pruner: &surqlc::runtime::Pruner,
    strategy: Strategy,
    knobs: Knobs,
    questions: &[Question],
    report: &prune_eval::StrategyRecall,
    budget: u32,
    dimension: usize,
) {
    for (q, theirs) in questions.iter().zip(&report.outcomes) {
        let mine = prune_eval::run_by(db, Some(pruner), strategy, knobs, q, budget, dimension)
            .await
            .unwrap();
        assert_eq!(mine.tables, theirs.tables, "{}: {:?}", strategy.name(), q.question);
        assert_eq!(mine.block, theirs.block, "{}: {:?}", strategy.name(), q.question);
    }
}

/// The store with pruning switched on (its 453-token block fits any budget above it).
pub(crate) fn pruned_store(settings: &str) -> String {
    read(root().join("schemas/store.rs")).replace(
        "    examples(dimension = 4, k = 3, ef = 40),\n",
        &format!("    examples(dimension = 4, k = 3, ef = 40),\n    {settings},\n"),
    )
}

#[test]
fn a_pruned_prompt_that_fits_is_the_whole_prompt_and_a_tight_one_keeps_its_always_tables() {
    block_on(async {
        let store = read(root().join("schemas/store.seed.surql"));
        let path = schema_file("pruned_store", &pruned_store("prune(budget = 2000, always(Product))"));
        let mut b = surqlc::Builder::new();
        b.schema(&path).cargo_metadata(false);
        let output = b.generate().unwrap();
        assert_eq!(output.schema.settings.prune.as_ref().unwrap().always, ["product"]);
        let db = loaded(&[&output.schema_surql, &store]).await;
        let qvec = [0.92, 0.0, 0.4, 0.0];
        let question = "Which category earns us the most money?";
        let whole = surqlc::runtime::module::nl2surql_prompt(&db, question, &qvec)
            .await
            .unwrap();
        let pruned = pruned_prompt_on(&db, question, qvec.to_vec()).await.unwrap();
        assert_eq!(pruned, whole);
        // Under a tight budget the always-included table comes first, and value hints follow the tables shown.
        let tables = pruned_tables(&db, "Who are our customers?", 150).await;
        assert!(tables.contains(&"product".to_owned()), "{tables:?}");
        let hints = db::query_string(&db, "RETURN fn::pruned_value_hints(['product'])")
            .await
            .unwrap();
        assert!(hints.starts_with("product.category: "), "{hints}");
        assert!(!hints.contains("customer."));
        // A relation brings its ends: asking about order lines shows purchases and products.
        let tables = pruned_tables(&db, "units on an order line", 300).await;
        assert!(
            ["contains", "purchase", "product"]
                .iter()
                .all(|t| tables.contains(&t.to_string())),
            "{tables:?}"
        );
        // The application's pruner makes the same choices.
        let pruner = surqlc::runtime::Pruner::load(&db).await.unwrap().unwrap();
        assert_eq!(pruner.prompt(&db, question, &qvec).await.unwrap(), whole);
        for (question, budget) in [("Who are our customers?", 150), ("units on an order line", 300)] {
            let theirs = pruned_tables(&db, question, budget).await;
            let how = surqlc::runtime::Mechanisms {
                closure: true,
                fields: false,
                values: true,
            };
            let (mine, _) = pruner.select(&db, question, None, budget, how).await.unwrap();
            assert_eq!(mine.tables, theirs, "{question:?} at {budget}");
        }
        // Reloading the schema keeps the rows (and any embeddings) and changes nothing, but drops
        // the values of a table it no longer exposes: they must not bring it back.
        db::execute(
            &db,
            "CREATE schema_doc_value SET tb = 'gone', field = 'name', val = 'Zanzibar'",
        )
        .await
        .unwrap();
        db::execute(&db, &output.schema_surql).await.unwrap();
        let stale = db::query_json(&db, "SELECT VALUE val FROM schema_doc_value WHERE tb = 'gone'")
            .await
            .unwrap();
        assert_eq!(stale, serde_json::json!([]));
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
    assert!(found[1].starts_with("6:62: unknown prune(mix) \"bm25\""), "{found:#?}");
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("6:46: `b` is in prune(always) but not exposed")),
        "{found:#?}"
    );
    assert!(
        found.iter().any(|m| m.starts_with("6:49: `Nope` is not a table")),
        "{found:#?}"
    );
    let found = errors(&format!(
        "{tables}#[derive(Table)]\npub struct SchemaDoc {{}}\n#[derive(Schema)]\n#[surqlc(prune, prune(budget = 9))]\npub struct S;\n"
    ));
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found.iter().any(|m| m.contains("duplicate `prune`")), "{found:#?}");
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("6:12: the table `schema_doc` is where prune")),
        "{found:#?}"
    );
}

/// `fn::pruned_tables` of a loaded database.
async fn pruned_tables(db: &Db, question: &str, budget: u32) -> Vec<String> {
    db.query("RETURN fn::pruned_tables($q, NONE, $b, true)")
        .bind(("q", question.to_owned()))
        .bind(("b", budget))
        .await
        .unwrap()
        .check()
        .unwrap()
        .take::<Vec<String>>(0)
        .unwrap()
}

/// `fn::pruned_select` with fields and values: the tables, the fields shown, and the block.
async fn pruned_choice(db: &Db, question: &str, budget: u32) -> (Vec<String>, serde_json::Value, String) {
    let v: serde_json::Value = db
        .query(
            "LET $c = fn::pruned_select($q, NONE, $b, true, true, true);
             RETURN { tables: $c.tables, fields: $c.fields, block: fn::pruned_choice_block($c, $b) }",
        )
        .bind(("q", question.to_owned()))
        .bind(("b", budget))
        .await
        .unwrap()
        .check()
        .unwrap()
        .take::<surrealdb::types::Value>(1)
        .unwrap()
        .into_json_value();
    let tables = serde_json::from_value(v["tables"].clone()).unwrap();
    (tables, v["fields"].clone(), v["block"].as_str().unwrap().to_owned())
}

async fn pruned_prompt(db: &Db, question: &str) -> String {
    db.query("RETURN fn::nl2surql_prompt_pruned($q, $v)")
        .bind(("q", question.to_owned()))
        .bind(("v", vec![0.92, 0.0, 0.4, 0.0]))
        .await
        .unwrap()
        .check()
        .unwrap()
        .take::<Option<String>>(0)
        .unwrap()
        .unwrap_or_default()
}

#[test]
// A scenario: one loaded store (with and without field pruning) for a sequence of checks on it.
#[allow(clippy::too_many_lines)]
fn surqlc_prune_chooses_what_the_pruned_prompt_shows_on_a_schema_without_prune() {
    block_on(async {
        const BUDGET: u32 = 300;
        let path = schema_file("pruned_store_300", &pruned_store(&format!("prune(budget = {BUDGET})")));
        let mut b = surqlc::Builder::new();
        b.schema(&path).cargo_metadata(false);
        let output = b.generate().unwrap();
        let db = loaded(&[&output.schema_surql]).await;
        let docs = surqlc::prune::table_docs(&output.schema);
        let compact = surqlc::prune::fields::table_fields(&output.schema);
        assert!(output.schema.settings.prune.as_ref().unwrap().fields);
        let path_whole = schema_file(
            "pruned_store_300_whole",
            &pruned_store(&format!("prune(budget = {BUDGET}, fields = false)")),
        );
        let mut b = surqlc::Builder::new();
        b.schema(&path_whole).cargo_metadata(false);
        let whole_output = b.generate().unwrap();
        assert!(!whole_output.schema.settings.prune.as_ref().unwrap().fields);
        let whole_db = loaded(&[&whole_output.schema_surql]).await;
        // The store without prune(...), the budget from the command line.
        let plain = root().join("schemas/store.rs");
        let pruner =
            surqlc::audit::prune_run::PruneRun::open(std::slice::from_ref(&plain), None, None, Some(BUDGET), None)
                .await
                .unwrap();
        for q in [
            "Which category earns us the most money?",
            "units on an order line",
            "Who are our customers?",
            "?!",
        ] {
            let (expected, fields, block) = pruned_choice(&db, q, BUDGET).await;
            let choice = pruner.choose(q).await.unwrap();
            assert_eq!(choice.tables, expected, "{q}");
            // The prompt shows those tables' compact blocks with the chosen fields, in prompt
            // order, as surqlc renders them.
            let rendered: Vec<String> = compact
                .iter()
                .filter(|t| expected.contains(&t.name))
                .map(|t| {
                    let shown: Vec<&str> = fields[&t.name]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|f| f[2].as_str().unwrap())
                        .collect();
                    surqlc::prune::fields::render_block(t, &shown)
                })
                .collect();
            assert_eq!(block, rendered.join("\n\n"), "{q}");
            assert!(pruned_prompt(&db, q).await.contains(&format!("{block}\n\n")), "{q}");
            assert_eq!(choice.tokens, Encoding::O200kBase.count(&block));
            assert!(choice.tokens <= BUDGET as usize);
            // Without field-level pruning: the whole blocks of fn::pruned_tables' choice, as before it.
            let tables = pruned_tables(&whole_db, q, BUDGET).await;
            let whole: Vec<&str> = docs
                .iter()
                .filter(|d| tables.contains(&d.name))
                .map(|d| d.block.as_str())
                .collect();
            assert!(
                pruned_prompt(&whole_db, q)
                    .await
                    .contains(&format!("{}\n\n", whole.join("\n\n"))),
                "{q}"
            );
        }
        // The two-step path: a catalogue within the budget, then the prompt for the tables a model chose.
        let catalog = db::query_string(&db, "RETURN fn::table_catalog()").await.unwrap();
        assert_eq!(catalog.lines().count(), docs.len(), "{catalog}");
        assert!(
            catalog.contains("contains (purchase->contains->product): One line of an order"),
            "{catalog}"
        );
        assert!(Encoding::O200kBase.count(&catalog) <= BUDGET as usize);
        let chosen: String = db
            .query("RETURN fn::nl2surql_prompt_tables('Units per order?', [0.92, 0.0, 0.4, 0.0], ['contains', 'nope'])")
            .await
            .unwrap()
            .check()
            .unwrap()
            .take::<Option<String>>(0)
            .unwrap()
            .unwrap();
        let ends: Vec<&str> = docs
            .iter()
            .filter(|d| ["purchase", "contains", "product"].contains(&d.name.as_str()))
            .map(|d| d.block.as_str())
            .collect();
        assert!(
            chosen.contains(&format!("SCHEMA\n{}\n\n", ends.join("\n\n"))),
            "{chosen}"
        );
        // The budget: the flag, else the schema's, else 2,000.
        let own = surqlc::audit::prune_run::PruneRun::open(&[path], None, None, None, None)
            .await
            .unwrap();
        assert_eq!(own.budget, BUDGET);
        let default = surqlc::audit::prune_run::PruneRun::open(&[plain], None, None, None, None)
            .await
            .unwrap();
        assert_eq!(default.budget, surqlc::audit::prune_run::DEFAULT_BUDGET);
        // The whole block fits 2,000 tokens: every table.
        assert_eq!(
            default.choose("anything").await.unwrap().tables,
            output.schema.settings.exposed
        );
    });
}

#[test]
fn a_relation_too_big_with_its_ends_comes_alone_and_a_question_matching_nothing_falls_back() {
    block_on(async {
        let path = schema_file("pruned_store_9", &pruned_store("prune(budget = 9)"));
        let mut b = surqlc::Builder::new();
        b.schema(&path).cargo_metadata(false);
        let output = b.generate().unwrap();
        let docs = surqlc::prune::table_docs(&output.schema);
        let cost = |t: &str| docs.iter().find(|d| d.name == t).unwrap().tokens as u32;
        // The build says what cannot fit.
        let warnings: Vec<String> = output.warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            warnings.iter().any(|w| w.contains("the table `customer` alone costs")),
            "{warnings:#?}"
        );
        let db = loaded(&[&output.schema_surql]).await;
        // `contains` with `purchase` and `product` is over this budget; alone it fits.
        let budget = cost("contains") + 1;
        assert!(cost("contains") + cost("purchase") + cost("product") > budget);
        let tables = pruned_tables(&db, "qty and unit price of contains", budget).await;
        assert!(tables.contains(&"contains".to_owned()), "{tables:?}");
        // No table shares a word with the question: the tables value hints describe come first
        // (customer, product, purchase), not the first tables in source order.
        let matches = |q: &'static str| {
            let db = &db;
            async move {
                db.query("RETURN fn::pruned_matches($q)")
                    .bind(("q", q))
                    .await
                    .unwrap()
                    .check()
                    .unwrap()
                    .take::<Option<bool>>(0)
                    .unwrap()
                    .unwrap()
            }
        };
        assert!(!matches("zzz qqq").await && matches("order lines").await);
        let budget = cost("customer") + cost("product");
        assert_eq!(pruned_tables(&db, "zzz qqq", budget).await, ["customer", "product"]);
        // And the prompt says so (only then).
        let note = "-- No table's name or description shares a word with the question";
        let path = schema_file(
            "pruned_store_fallback",
            &pruned_store(&format!("prune(budget = {budget})")),
        );
        let mut b = surqlc::Builder::new();
        b.schema(&path).cargo_metadata(false);
        let db = loaded(&[&b.generate().unwrap().schema_surql]).await;
        assert!(pruned_prompt(&db, "zzz qqq").await.contains(note));
        assert!(!pruned_prompt(&db, "order lines").await.contains(note));
        // The application's pruner writes the same prompts, note and all.
        let pruner = surqlc::runtime::Pruner::load(&db).await.unwrap().unwrap();
        for q in ["zzz qqq", "order lines", "Which customers bought the most units?"] {
            let mine = pruner.prompt(&db, q, &[0.92, 0.0, 0.4, 0.0]).await.unwrap();
            assert_eq!(mine, pruned_prompt(&db, q).await, "{q:?}");
        }
    });
}

/// `fn::nl2surql_prompt_pruned` on `conn` (the owner's or an agent's session).
async fn pruned_prompt_on(
    conn: &surqlc::runtime::surrealdb::Surreal<surqlc::runtime::surrealdb::engine::any::Any>,
    question: &str,
    qvec: Vec<f64>,
) -> Result<String, String> {
    let mut r = conn
        .query("RETURN fn::nl2surql_prompt_pruned($q, $v)")
        .bind(("q", question.to_owned()))
        .bind(("v", qvec))
        .await
        .and_then(|r| r.check())
        .map_err(|e| e.to_string())?;
    Ok(r.take::<Option<String>>(0)
        .map_err(|e| e.to_string())?
        .unwrap_or_default())
}

#[test]
fn the_agent_gets_the_pruned_prompt_the_application_gets_under_either_mechanism() {
    use surqlc::access::{self, Mechanism};
    const PASSWORD: &str = "prune-agent";
    block_on(async {
        // Record access: the library hides a field and a table.
        let library = read(root().join("schemas/library.rs")).replace(
            "    max_rows = 25\n)]",
            "    max_rows = 25,\n    prune(budget = 200)\n)]",
        );
        let path = schema_file("pruned_library", &library);
        let mut b = surqlc::Builder::new();
        b.schema(&path).cargo_metadata(false).agent_password(PASSWORD);
        let output = b.generate().unwrap();
        assert!(output.schema.settings.prune.is_some());
        assert_eq!(access::mechanism(&output.schema), Mechanism::RecordAccess);
        let db = loaded(&[
            &output.schema_surql,
            "CREATE library_example SET question = 'Which books are there?', surql = 'SELECT title FROM book LIMIT 5', embedding = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];",
        ])
        .await;
        let agent = surqlc::runtime::signin_record_agent(&db, "ai", "store", "librarian_bot", PASSWORD)
            .await
            .unwrap();
        let q = "Which books did members borrow?";
        let v = vec![1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let owner = pruned_prompt_on(&db, q, v.clone()).await.unwrap();
        assert!(
            owner.contains("DEFINE TABLE") && owner.contains("SELECT title FROM book"),
            "{owner}"
        );
        assert_eq!(pruned_prompt_on(agent.session(), q, v.clone()).await.unwrap(), owner);
        // The application's pruner, read on the agent's own session, writes the same prompt.
        let pruner = surqlc::runtime::Pruner::load(agent.session())
            .await
            .unwrap()
            .expect("the agent reads the pruning facts");
        assert_eq!(pruner.prompt(agent.session(), q, &v).await.unwrap(), owner);
        // What the agent may read of the rows is what the prompt shows: nothing hidden.
        let docs = db::query_json(&db, "SELECT VALUE doc FROM schema_doc").await.unwrap();
        assert!(!docs.to_string().to_lowercase().contains("phone"), "{docs}");

        // VIEWER: the store hides nothing.
        let path = schema_file("pruned_store_viewer", &pruned_store("prune(budget = 300)"));
        let mut b = surqlc::Builder::new();
        b.schema(&path).cargo_metadata(false).agent_password(PASSWORD);
        let output = b.generate().unwrap();
        assert_eq!(access::mechanism(&output.schema), Mechanism::Viewer);
        let db = loaded(&[
            &output.schema_surql,
            "CREATE query_example SET question = 'Which products are there?', surql = 'SELECT name FROM product LIMIT 5', embedding = [0.92, 0.0, 0.4, 0.0];",
        ])
        .await;
        let agent = surqlc::runtime::signin_agent(&db, "ai", "store", "agent", PASSWORD)
            .await
            .unwrap();
        let v = vec![0.92, 0.0, 0.4, 0.0];
        let q = "Which category earns us the most money?";
        let owner = pruned_prompt_on(&db, q, v.clone()).await.unwrap();
        assert!(owner.contains("SELECT name FROM product"), "{owner}");
        assert_eq!(pruned_prompt_on(agent.session(), q, v).await.unwrap(), owner);
    });
}

/// A table stating its synonyms, as an application writes it.
const AKA_SOURCE: &str = r#"
#[derive(Table)]
#[surqlc(aka("vendor", "provider"))]
pub struct Supplier {
    /// Registered name.
    #[surqlc(aka("trading name"))]
    pub name: String,
}
#[derive(Schema)]
#[surqlc(expose(Supplier))]
pub struct S;
"#;

mod aka_derived {
    use surqlc_macros::Table;
    /// A company we buy from.
    #[derive(Debug, Clone, Table)]
    #[surqlc(aka("vendor", "provider"))]
    pub struct Supplier {
        /// Registered name.
        #[surqlc(aka("trading name"))]
        pub name: String,
    }
}

#[test]
fn aka_reaches_the_ir_through_the_compiler_and_the_derive() {
    let schema = compile(&[SourceFile {
        path: "schemas/aka.rs".into(),
        text: AKA_SOURCE.to_owned(),
    }])
    .unwrap();
    let table = &schema.tables[0];
    assert_eq!(table.aka, ["vendor", "provider"]);
    assert_eq!(table.fields[0].aka, ["trading name"]);
    let derived = <aka_derived::Supplier as surqlc::runtime::Table>::table_ir();
    assert_eq!(derived.aka, table.aka);
    assert_eq!(derived.fields[0].aka, table.fields[0].aka);
    // Synonyms are searched, never shown: the definition is the same without them.
    assert!(!surqlc::surql::table_definition(table).contains("vendor"));
    let doc = &surqlc::prune::table_docs(&schema)[0].doc;
    assert!(
        doc.contains("vendor provider") && doc.contains("(trading name)"),
        "{doc}"
    );
    // Mistakes are errors at the word.
    let found = errors(
        "#[derive(Table)]\n#[surqlc(aka(\"x\", \"x\", \"\"))]\npub struct A {\n    #[surqlc(aka())]\n    pub b: String,\n}\n",
    );
    assert!(
        found.iter().any(|m| m.starts_with("2:19: \"x\" is in aka(...) twice")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("2:24: an `aka` word cannot be empty")),
        "{found:#?}"
    );
    assert!(
        found.iter().any(|m| m.contains("`aka(...)` needs at least one word")),
        "{found:#?}"
    );
}

#[test]
fn a_compact_block_keeps_links_names_the_rest_and_its_costs_bound_any_block_showing_more() {
    let output = builder("enterprise").generate().unwrap();
    let schema = &output.schema;
    let count = |text: &str| Encoding::O200kBase.count(&format!("{text}\n\n"));
    let docs = surqlc::prune::table_docs(schema);
    let compact = surqlc::prune::fields::table_fields(schema);
    let (mut full, mut small) = (0, 0);
    for (t, d) in compact.iter().zip(&docs) {
        assert_eq!(t.name, d.name);
        let names: Vec<&str> = t.rest.iter().map(|f| f.name.as_str()).collect();
        // Every field shown is the table's whole block; none shown is the compact block.
        assert_eq!(surqlc::prune::fields::render_block(t, &names), d.block);
        assert_eq!(surqlc::prune::fields::render_block(t, &[]), t.compact);
        assert_eq!(t.tokens, count(&t.compact));
        assert_eq!(d.compact, t.tokens);
        if let Some(last) = t.compact.lines().last().filter(|_| !names.is_empty()) {
            assert_eq!(
                last,
                format!(
                    "-- ... and {} more field{}: {}",
                    names.len(),
                    if names.len() == 1 { "" } else { "s" },
                    names.join(", ")
                )
            );
        }
        // Links stay: every record<...> line of the whole block is in the compact one.
        for line in d.block.lines().filter(|l| l.contains("record<")) {
            assert!(t.compact.contains(line), "{}: {line}", t.name);
        }
        // Showing any one field, or all of them, costs at most the compact cost plus theirs.
        for f in &t.rest {
            let shown = surqlc::prune::fields::render_block(t, &[f.name.as_str()]);
            assert!(count(&shown) <= t.tokens + f.tokens, "{}.{}", t.name, f.name);
        }
        let all: usize = t.rest.iter().map(|f| f.tokens).sum();
        assert!(count(&d.block) <= t.tokens + all, "{}", t.name);
        full += d.tokens;
        small += t.tokens;
    }
    // Compact blocks are much cheaper: more tables fit a budget.
    assert!(small * 10 < full * 8, "{small} of {full}");
    // Value linking indexes the readable string fields, not literal enums or links.
    let values = surqlc::prune::fields::value_fields(schema);
    assert!(values.contains(&("customer".to_owned(), "name".to_owned())));
    assert!(!values.iter().any(|(t, f)| t == "customer" && f == "segment"));
    assert!(!values.iter().any(|(t, f)| t == "customer" && f == "account_manager"));
}

/// Value linking follows writes: a value written after the index was built is linked at once by
/// its table's event (a new customer's name, a renamed product), and the next question that names
/// it brings its table.
#[test]
fn values_written_after_start_are_linked_by_the_next_question() {
    block_on(async {
        let store = read(root().join("schemas/store.seed.surql"));
        let path = schema_file("fresh_values", &pruned_store("prune(budget = 150)"));
        let mut b = surqlc::Builder::new();
        b.schema(&path).cargo_metadata(false);
        let output = b.generate().unwrap();
        let db = loaded(&[&output.schema_surql, &store, "RETURN fn::pruned_index_values()"]).await;
        let links = |q: &'static str| {
            let db = db.clone();
            async move {
                db::query_json(
                    &db,
                    &format!("RETURN fn::pruned_value_links({})", surqlc::surql::quote_string(q)),
                )
                .await
                .unwrap()
                .to_string()
            }
        };
        assert!(!links("What did Zed Quartz order?").await.contains("customer"));
        db::execute(&db, "CREATE customer:zed SET name = 'Zed Quartz', country = 'GB', tier = 'free', joined = time::now(); UPDATE product:buds SET name = 'Sport Buds Ultra';")
            .await
            .unwrap();
        assert!(
            links("What did Zed Quartz order?").await.contains("\"customer\""),
            "{}",
            links("What did Zed Quartz order?").await
        );
        assert!(links("Who bought the \"Sport Buds Ultra\"?")
            .await
            .contains("\"product\""));
        // The events and the rebuild write the same row ids: a value is linked once.
        let zed = "RETURN count(SELECT * FROM schema_doc_value WHERE val = 'Zed Quartz')";
        assert_eq!(db::query_json(&db, zed).await.unwrap(), 1);
        db::execute(
            &db,
            "UPDATE customer:zed SET tier = 'pro'; RETURN fn::pruned_index_values();",
        )
        .await
        .unwrap();
        assert_eq!(db::query_json(&db, zed).await.unwrap(), 1);
    });
}
