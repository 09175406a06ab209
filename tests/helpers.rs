//! The generated helper modules compile without warnings for every schema, and the store's helpers do what their docs say on the embedded engine.

#[deny(warnings)]
mod store_db {
    include!(concat!(env!("OUT_DIR"), "/store/schema.rs"));
}

#[deny(warnings)]
mod library_db {
    include!(concat!(env!("OUT_DIR"), "/library/schema.rs"));
}

#[deny(warnings)]
mod store_without_agent_db {
    include!(concat!(env!("OUT_DIR"), "/store_without_agent/schema.rs"));
}

use crate::store::*;
use surqlc::runtime::{surrealdb, Outcome};
use surqlc_tests::*;

type Db = surrealdb::Surreal<surrealdb::engine::any::Any>;

/// An embedded database with the schema applied through the helper and the project's store data.
async fn store_db() -> Db {
    let db = surrealdb::engine::any::connect("mem://").await.unwrap();
    db.use_ns("ai").use_db("store").await.unwrap();
    store_db::apply_schema(&db).await.expect("schema applies");
    store_db::apply_schema(&db).await.expect("and applies twice");
    db.query(read(root().join("schemas/store.seed.surql")))
        .await
        .unwrap()
        .check()
        .expect("data loads");
    db
}

fn names<T: std::ops::Deref<Target = U>, U: HasName>(rows: &[T]) -> Vec<String> {
    let mut names: Vec<String> = rows.iter().map(|r| r.name().to_owned()).collect();
    names.sort();
    names
}

trait HasName {
    fn name(&self) -> &str;
}
impl HasName for Customer {
    fn name(&self) -> &str {
        &self.name
    }
}
impl HasName for Product {
    fn name(&self) -> &str {
        &self.name
    }
}

#[test]
fn prompt_functions_are_typed_calls() {
    block_on(async {
        let db = store_db().await;
        let qvec = [0.92, 0.0, 0.4, 0.0];
        let block = store_db::schema_context(&db).await.unwrap();
        assert!(
            block.starts_with("DEFINE TABLE customer TYPE NORMAL SCHEMAFULL"),
            "{block}"
        );
        let hints = store_db::value_hints(&db).await.unwrap();
        assert!(
            hints.contains("purchase.status: cancelled, pending, shipped"),
            "{hints}"
        );
        let examples = store_db::similar_examples(&db, &qvec).await.unwrap();
        assert_eq!(examples.len(), 3);
        assert!(examples.windows(2).all(|w| w[0].distance <= w[1].distance));
        let context = store_db::example_context(&db, &qvec).await.unwrap();
        assert!(context.starts_with(&format!("-- {}\n{}", examples[0].question, examples[0].surql)));
        let prompt = store_db::nl2surql_prompt(&db, "How many orders?", &qvec).await.unwrap();
        assert!(prompt.contains(&block) && prompt.ends_with("QUESTION\nHow many orders?\nSURQL\n"));

        let id = store_db::remember_example(
            &db,
            "How many orders?",
            "SELECT count() AS n FROM purchase GROUP ALL LIMIT 1;",
            &[0.0, 1.0, 0.0, 0.0],
        )
        .await
        .expect("the owner may remember an example");
        assert_eq!(id.table.as_str(), "query_example");
        let nearest = store_db::similar_examples(&db, &[0.0, 1.0, 0.0, 0.0]).await.unwrap();
        assert_eq!(nearest[0].question, "How many orders?");
    });
}

#[test]
fn typed_reads_and_traversals_in_both_directions() {
    block_on(async {
        let db = store_db().await;
        let mei = Customer::record("mei");
        let got = store_db::customer::get(&db, &mei).await.unwrap().expect("mei exists");
        assert_eq!((got.name.as_str(), got.tier), ("Mei Tanaka", Tier::Pro));
        assert_eq!(
            store_db::customer::get(&db, &Customer::record("nobody")).await.unwrap(),
            None
        );
        assert_eq!(store_db::customer::select(&db, 2).await.unwrap().len(), 2);
        assert_eq!(store_db::customer::select(&db, 100).await.unwrap().len(), 5);

        // A customer's purchases, and back.
        let mut orders: Vec<String> = store_db::customer::placed_purchase(&db, &mei)
            .await
            .unwrap()
            .iter()
            .map(|p| p.id.to_string())
            .collect();
        orders.sort();
        assert_eq!(orders, ["purchase:p1", "purchase:p6"]);
        let p1 = Purchase::record("p1");
        let buyer = store_db::purchase::customer_placed(&db, &p1).await.unwrap();
        assert_eq!(names(&buyer), ["Mei Tanaka"]);
        let placed = store_db::customer::placed_edges_from(&db, &mei).await.unwrap();
        assert_eq!(placed.len(), 2);
        assert!(placed.iter().all(|e| e.r#in == mei));
        assert_eq!(
            store_db::purchase::placed_edges_to(&db, &p1).await.unwrap()[0].r#in,
            mei
        );

        // A purchase's products, a product's purchases, and the order lines with qty and unit_price.
        let products = store_db::purchase::contains_product(&db, &p1).await.unwrap();
        assert_eq!(names(&products), ["Compact Soundbar", "Sport Buds"]);
        let buds = Product::record("buds");
        let mut with_buds: Vec<String> = store_db::product::purchase_contains(&db, &buds)
            .await
            .unwrap()
            .iter()
            .map(|p| p.id.to_string())
            .collect();
        with_buds.sort();
        assert_eq!(with_buds, ["purchase:p1", "purchase:p5"]);
        let mut lines = store_db::purchase::contains_edges_from(&db, &p1).await.unwrap();
        lines.sort_by_key(|l| l.qty);
        let line: Vec<(u32, String, String)> = lines
            .iter()
            .map(|l| (l.qty, l.unit_price.to_string(), l.out.to_string()))
            .collect();
        assert_eq!(
            line,
            [
                (1, "149".to_owned(), "product:soundbar".to_owned()),
                (2, "55".to_owned(), "product:buds".to_owned())
            ]
        );
        let sold = store_db::product::contains_edges_to(&db, &buds).await.unwrap();
        assert_eq!(sold.iter().map(|l| l.qty).sum::<u32>(), 3);
    });
}

#[test]
fn the_agent_runs_one_select_and_gets_repair_signals_otherwise() {
    block_on(async {
        let db = store_db().await;
        let agent = store_db::agent_signin(&db, "ai", "store", "test-agent-password")
            .await
            .expect("the agent signs in at database level");
        let outcome = store_db::run_readonly(
            &agent,
            "SELECT name FROM customer WHERE country = 'ES' ORDER BY name LIMIT 50;",
        )
        .await
        .unwrap();
        assert!(
            matches!(&outcome, Outcome::Rows { warnings, .. } if warnings.is_empty()),
            "{outcome:?}"
        );
        assert_eq!(
            outcome.rows_json().unwrap(),
            [
                serde_json::json!({"name": "Inês Costa"}),
                serde_json::json!({"name": "Omar Haddad"})
            ]
        );
        let refused = |o: Outcome| match o {
            Outcome::Rejected(text) => text,
            other => panic!("{other:?}"),
        };
        let text = refused(store_db::run_readonly(&agent, "DELETE customer").await.unwrap());
        assert!(text.contains("only a SELECT"), "{text}");
        let text = refused(
            store_db::run_readonly(&agent, "SELECT * FROM customer; SELECT * FROM product")
                .await
                .unwrap(),
        );
        assert!(text.contains("2 statements"), "{text}");
        // The engine's own error comes back as text for the model to repair from.
        let text = refused(
            store_db::run_readonly(&agent, "SELECT name FROM customer WHERE")
                .await
                .unwrap(),
        );
        assert!(!text.is_empty(), "{text}");
        let text = refused(
            surqlc::runtime::run_readonly(
                &agent,
                "SELECT * FROM fn::remember_example('q', 'SELECT 1', [0.0, 0.0, 0.0, 1.0])",
                store_db::QUERY_TIMEOUT,
            )
            .await
            .unwrap(),
        );
        assert!(text.contains("EDITOR or OWNER"), "{text}");
        assert_eq!(
            store_db::run_readonly(&agent, "-- cannot answer: no stock levels")
                .await
                .unwrap(),
            Outcome::CannotAnswer("no stock levels".into())
        );
        // A write hidden in a subquery passes the parser (it is one SELECT) but not the VIEWER role.
        // (The validator refuses it too; the unvalidated runner shows the role alone holds.)
        let text = refused(
            store_db::run_readonly(&agent, "SELECT * FROM (DELETE customer RETURN BEFORE) LIMIT 5")
                .await
                .unwrap(),
        );
        assert!(text.contains("the agent may only read"), "{text}");
        let _ = surqlc::runtime::run_readonly(
            &agent,
            "SELECT * FROM (DELETE customer RETURN BEFORE)",
            store_db::QUERY_TIMEOUT,
        )
        .await
        .unwrap();
        let left: Vec<serde_json::Value> = store_db::customer::select(&db, 100)
            .await
            .unwrap()
            .into_iter()
            .map(|c| serde_json::json!(c.name))
            .collect();
        assert_eq!(left.len(), 5, "the agent deleted nothing: {left:?}");
        // The agent's session is separate: the owner's handle still writes.
        db.query("CREATE customer:zoe SET name = 'Zoe', country = 'DE', tier = 'free', joined = time::now()")
            .await
            .unwrap()
            .check()
            .expect("the owner's session is untouched");
    });
}

#[test]
fn a_slow_query_hits_the_timeout() {
    block_on(async {
        let db = store_db().await;
        let agent = store_db::agent_signin(&db, "ai", "store", "test-agent-password")
            .await
            .unwrap();
        let outcome = surqlc::runtime::run_readonly(
            &agent,
            "SELECT * FROM (SELECT sleep(2s) FROM customer)",
            std::time::Duration::from_millis(50),
        )
        .await
        .unwrap();
        match outcome {
            Outcome::Rejected(text) => assert!(
                text.to_lowercase().contains("timed out") || text.to_lowercase().contains("timeout"),
                "{text}"
            ),
            other => panic!("{other:?}"),
        }
    });
}

#[test]
fn without_an_agent_password_signin_says_why() {
    block_on(async {
        let db = store_db().await;
        assert_eq!(
            (store_db::AGENT_DEFINED, store_without_agent_db::AGENT_DEFINED),
            (true, false)
        );
        let err = store_without_agent_db::agent_signin(&db, "ai", "store", "anything")
            .await
            .expect_err("no agent in this build");
        assert!(
            err.to_string()
                .contains("defines no agent user: SURQLC_AGENT_PASSWORD was not set"),
            "{err}"
        );
    });
}

#[test]
fn a_wrong_agent_password_names_the_user_namespace_and_database_tried() {
    block_on(async {
        let db = store_db().await;
        let err = store_db::agent_signin(&db, "ai", "store", "not-the-password")
            .await
            .expect_err("a wrong password");
        let text = err.to_string();
        assert!(
            text.contains("user `agent` could not sign in to namespace `ai`, database `store`"),
            "{text}"
        );
        // The engine's own reason is kept, and the error is still an authentication error.
        assert!(text.contains("authentication"), "{text}");
        assert_eq!(err.kind_str(), err.cause().map_or("", |c| c.kind_str()));
        // The wrong database is named as such.
        let err = store_db::agent_signin(&db, "ai", "shop", "test-agent-password")
            .await
            .expect_err("no agent in that database");
        assert!(err.to_string().contains("namespace `ai`, database `shop`"), "{err}");
    });
}

#[test]
fn the_runner_validates_first_and_enforces_the_row_limit() {
    block_on(async {
        let db = store_db().await;
        let agent = store_db::agent_signin(&db, "ai", "store", "test-agent-password")
            .await
            .unwrap();
        let run = |q: &'static str| {
            let agent = agent.clone();
            async move { store_db::run_readonly(&agent, q).await.unwrap() }
        };
        let rejected = |o: Outcome| match o {
            Outcome::Rejected(text) => text,
            other => panic!("{other:?}"),
        };
        // A silent failure (an unknown field reads as NULL) is refused with its fix.
        let text = rejected(run("SELECT name, email FROM customer LIMIT 5").await);
        assert!(
            text.starts_with("error[SQ0102 UnknownField] 1:14 `email`: `customer` has no field `email`"),
            "{text}"
        );
        // No LIMIT: the runner adds the schema's max_rows and says so.
        match run("SELECT name FROM customer").await {
            Outcome::Rows { rows, warnings } => {
                assert_eq!(rows.len(), 5);
                assert_eq!(warnings.len(), 1, "{warnings:?}");
                assert!(warnings[0].contains("adds LIMIT 50"), "{warnings:?}");
            }
            other => panic!("{other:?}"),
        }
        let text = rejected(run("SELECT name FROM customer LIMIT 500").await);
        assert!(text.contains("LIMIT 500 is more than the 50 rows"), "{text}");
        // The data checks: a record id that does not exist, with the ids that do.
        let text = rejected(run("SELECT ->placed->purchase AS orders FROM customer:alice LIMIT 5").await);
        assert!(
            text.contains("error[SQ0901 UnknownRecord]")
                && text.contains("customer:alice")
                && text.contains("customer:"),
            "{text}"
        );
        match run("SELECT ->placed->purchase AS orders FROM customer:mei LIMIT 5").await {
            Outcome::Rows { rows, warnings } => {
                assert!(rows.len() == 1 && warnings.is_empty(), "{warnings:?}")
            }
            other => panic!("{other:?}"),
        }
        // A value allowed by the type but absent from the data is a warning, returned with the rows.
        db.query("DELETE purchase WHERE status = 'cancelled'")
            .await
            .unwrap()
            .check()
            .unwrap();
        match run("SELECT id FROM purchase WHERE status = 'cancelled' LIMIT 5").await {
            Outcome::Rows { rows, warnings } => {
                assert!(rows.is_empty());
                assert_eq!(warnings.len(), 1, "{warnings:?}");
                assert!(
                    warnings[0].contains("warning[SQ0902 ValueNotPresent]")
                        && warnings[0].contains("the values present are: 'pending', 'shipped'"),
                    "{warnings:?}"
                );
            }
            other => panic!("{other:?}"),
        }
        // remember_example validates before it stores.
        let err = store_db::remember_example(
            &db,
            "Who are the customers?",
            "SELECT name, email FROM customer LIMIT 5",
            &[0.0, 1.0, 0.0, 0.0],
        )
        .await
        .expect_err("an invalid example is refused");
        assert!(err.to_string().contains("has no field `email`"), "{err}");
        // The generated schema_ir() is the compiler's IR.
        let compiled =
            surqlc::front::compile(&[surqlc::front::SourceFile::read(root().join("schemas/store.rs")).unwrap()])
                .unwrap();
        assert_eq!(*store_db::schema_ir(), compiled);
    });
}

/// A reply is parsed once per run: the runner runs the statement the validator read. The runtime
/// is current-thread so the whole run, and the thread-local parse counter, stay on this thread.
#[test]
fn a_reply_is_parsed_once_per_run() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let db = store_db().await;
        let agent = store_db::agent_signin(&db, "ai", "store", "test-agent-password")
            .await
            .unwrap();
        for reply in [
            "SELECT name FROM customer WHERE country = 'ES' LIMIT 50",
            // Repaired by the runner (LIMIT added) and still parsed once.
            "```surql\nSELECT name FROM customer\n```",
            // Refused by the validator.
            "SELECT nme FROM customer LIMIT 5",
        ] {
            let before = surqlc::validate::reply::replies_parsed();
            store_db::run_readonly(&agent, reply).await.unwrap();
            assert_eq!(surqlc::validate::reply::replies_parsed() - before, 1, "{reply}");
        }
    })
}
