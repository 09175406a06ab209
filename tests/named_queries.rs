//! Named queries end to end: the functions generated from `schemas/*.queries` compile under `deny(warnings)`, run on the embedded engine against the seed data, and every typed row, written back as a value, is the very row the engine returned (the inferred types are the engine's).

#[deny(warnings)]
mod store_db {
    include!(concat!(env!("OUT_DIR"), "/store/schema.rs"));
}

#[deny(warnings)]
mod meetings_db {
    include!(concat!(env!("OUT_DIR"), "/meetings/schema.rs"));
}

#[deny(warnings)]
mod corpus_db {
    include!(concat!(env!("OUT_DIR"), "/store_corpus/schema.rs"));
}

#[deny(warnings)]
mod memory_db {
    include!(concat!(env!("OUT_DIR"), "/memory/schema.rs"));
}

use crate::store::{Category, Country, Status, Tier};
use surqlc::runtime::{surrealdb, Datetime, SurrealValue, Value};
use surqlc_tests::*;

type Db = surrealdb::Surreal<surrealdb::engine::any::Any>;

async fn seeded(name: &str, schema: &str) -> Db {
    let db = surrealdb::engine::any::connect("mem://").await.unwrap();
    db.use_ns("ai").use_db(name).await.unwrap();
    db.query(schema).await.unwrap().check().expect("schema applies");
    db.query(read(root().join(format!("schemas/{name}.seed.surql"))))
        .await
        .unwrap()
        .check()
        .expect("data loads");
    db
}

/// `NONE` fields dropped: a row the engine returns may leave them out where the typed row writes them.
fn without_none(v: Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut out = surrealdb::types::Object::new();
            for (k, v) in o {
                if v != Value::None {
                    out.insert(k, without_none(v));
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.into_iter().map(without_none).collect()),
        other => other,
    }
}

/// Runs `text` untyped with the same bindings and checks that the typed rows are the engine's rows,
/// every one (the property: the types are the engine's). The rows are the function's own result.
async fn same_rows<R: SurrealValue>(db: &Db, text: &str, bindings: Vec<(&'static str, Value)>, typed: Vec<R>) {
    let rows = same_rows_or_none(db, text, bindings, typed).await;
    assert!(rows > 0, "{text}: the seed data gives rows");
}

/// [`same_rows`] for a query the seed may give no rows; how many it gave.
async fn same_rows_or_none<R: SurrealValue>(
    db: &Db,
    text: &str,
    bindings: Vec<(&'static str, Value)>,
    typed: Vec<R>,
) -> usize {
    let mut query = db.query(text);
    for b in bindings {
        query = query.bind(b);
    }
    let raw: Vec<Value> = query.await.unwrap().check().unwrap().take(0).unwrap();
    assert_eq!(raw.len(), typed.len(), "{text}");
    let rows = raw.len();
    for (engine, row) in raw.into_iter().zip(typed) {
        assert_ne!(engine, Value::None, "{text}");
        assert_eq!(without_none(row.into_value()), without_none(engine), "{text}");
    }
    rows
}

#[test]
fn the_validators_corpus_and_the_seed_examples_run_typed() {
    // tests/build.rs made each correct query of tests/corpus/store_right.surql and each seed
    // example a named query; every one types, compiles, runs, and decodes into its struct.
    block_on(async {
        let db = seeded("store", corpus_db::SCHEMA_SURQL).await;
        let (mut queries, mut with_rows) = (0, 0);
        macro_rules! check {
            ($function:ident, $text:ident) => {{
                let typed = corpus_db::queries::$function(&db)
                    .await
                    .unwrap_or_else(|e| panic!("{}: {e}", stringify!($function)));
                queries += 1;
                if same_rows_or_none(&db, corpus_db::queries::$text, Vec::new(), typed).await > 0 {
                    with_rows += 1;
                }
            }};
        }
        include!(concat!(env!("OUT_DIR"), "/corpus_calls.rs"));
        println!("{with_rows} of {queries} corpus and seed queries returned rows, all decoded");
        assert!(queries >= 50, "{queries}");
        // Not vacuous: nearly every query has rows on the seed data to decode.
        assert!(with_rows * 10 >= queries * 9, "{with_rows} of {queries}");
    })
}

#[test]
fn store_queries_return_the_engines_rows_typed() {
    block_on(async {
        let db = seeded("store", store_db::SCHEMA_SURQL).await;
        use store_db::queries as q;
        let shipped = || vec![("status", Value::String("shipped".into()))];

        let revenue = q::revenue_by_category(&db, Status::Shipped).await.unwrap();
        // The Literal enum and the decimal sum, as the schema types them.
        let categories: Vec<Category> = revenue.iter().map(|r| r.category).collect();
        assert!(categories.contains(&Category::Audio), "{categories:?}");
        assert!(revenue.windows(2).all(|w| w[0].revenue >= w[1].revenue));
        same_rows(&db, q::REVENUE_BY_CATEGORY, shipped(), revenue).await;

        let mei = q::customer_by_name(&db, "Mei Tanaka").await.unwrap().expect("Mei");
        assert_eq!(mei.tier, Tier::Pro);
        assert_eq!(mei.id, crate::store::Customer::record("mei"));
        assert!(q::customer_by_name(&db, "Nobody").await.unwrap().is_none());
        let bindings = vec![("name", Value::String("Mei Tanaka".into()))];
        same_rows(&db, q::CUSTOMER_BY_NAME, bindings, vec![mei]).await;

        let since: Datetime = "2025-07-01T00:00:00Z".parse().unwrap();
        let recent = q::recent_purchases(&db, since, 3).await.unwrap();
        assert_eq!(recent.len(), 3);
        assert!(recent.iter().all(|r| r.placed_at >= since));
        let bindings = vec![("since", since.into_value()), ("n", Value::from_t(3i64))];
        same_rows(&db, q::RECENT_PURCHASES, bindings, recent).await;

        let shipped_count = q::purchase_count(&db, Status::Shipped).await.unwrap();
        assert!(shipped_count > 0, "{shipped_count}");
        same_rows(&db, q::PURCHASE_COUNT, shipped(), vec![shipped_count]).await;

        let pros = q::customers_of_tier(&db, Tier::Pro).await.unwrap();
        assert!(pros.iter().any(|c| !c.bought.is_empty()));
        same_rows(
            &db,
            q::CUSTOMERS_OF_TIER,
            vec![("tier", Value::String("pro".into()))],
            pros,
        )
        .await;

        let stats = q::customer_stats(&db).await.unwrap();
        assert_eq!(stats.customers, 5);

        let lines = q::order_lines(&db, Status::Shipped, 10).await.unwrap();
        // `out` is a link, `out.*` the linked row with its id; `qty * unit_price` a decimal.
        assert!(lines.iter().all(|l| l.item.id == l.product));
        assert!(lines
            .iter()
            .all(|l| l.line_total == l.unit_price * surqlc::runtime::Decimal::from(l.qty)));
        let bindings = vec![("status", Value::String("shipped".into())), ("n", Value::from_t(10i64))];
        same_rows(&db, q::ORDER_LINES, bindings, lines).await;

        let spanish = q::customer_orders(&db, Country::ES).await.unwrap();
        let omar = spanish.iter().find(|c| c.name == "Omar Haddad").expect("Omar");
        assert_eq!(omar.orders.len(), omar.order_rows.len());
        // `time::max` of a customer's order dates: NONE for a customer without orders.
        assert!(spanish.iter().all(|c| c.last_order.is_some() != c.orders.is_empty()));
        same_rows(
            &db,
            q::CUSTOMER_ORDERS,
            vec![("country", Value::String("ES".into()))],
            spanish,
        )
        .await;

        let prices = q::category_prices(&db).await.unwrap();
        assert!(prices
            .iter()
            .all(|p| p.products > 0 && p.mean_price > 0.0 && p.cheapest <= p.dearest));
        same_rows(&db, q::CATEGORY_PRICES, Vec::new(), prices).await;

        // An object literal and a subquery's rows are nested structs.
        let accounts = q::customer_accounts(&db, Category::Home).await.unwrap();
        assert!(accounts
            .iter()
            .all(|a| a.picks.len() == 2 && a.picks[0].name == "Aroma Diffuser"));
        assert!(accounts.iter().any(|a| a.account.tier == Tier::Pro));
        same_rows(
            &db,
            q::CUSTOMER_ACCOUNTS,
            vec![("category", Value::String("home".into()))],
            accounts,
        )
        .await;

        let audio = q::product_names(&db, Category::Audio).await.unwrap();
        assert_eq!(audio, vec!["Compact Soundbar".to_owned(), "Sport Buds".to_owned()]);
    })
}

#[test]
fn record_keys_and_options_are_typed() {
    block_on(async {
        let db = seeded("meetings", meetings_db::SCHEMA_SURQL).await;
        use meetings_db::queries as q;
        let rows = q::meeting_attendees(&db, "2026-07-01").await.unwrap();
        // `record::id(id)` is the table's key type: meeting keys are integers.
        let numbers: Vec<i64> = rows.iter().map(|r| r.number).collect();
        assert_eq!(numbers, vec![1, 2, 3]);
        assert!(rows
            .iter()
            .all(|r| r.people.len() == r.ids.len() && !r.people.is_empty()));
        same_rows(
            &db,
            q::MEETING_ATTENDEES,
            vec![("since", Value::String("2026-07-01".into()))],
            rows,
        )
        .await;
        let alice = crate::meetings::Person::record("Alice Chen".to_owned());
        let person = q::person_tasks(&db, alice.clone()).await.unwrap().expect("Alice");
        let name: String = person.name.clone();
        assert_eq!(name, "Alice Chen");
        same_rows(&db, q::PERSON_TASKS, vec![("who", alice.into_value())], vec![person]).await;

        let db = seeded("memory", memory_db::SCHEMA_SURQL).await;
        let files = memory_db::queries::files_under(&db, "root").await.unwrap();
        // At the root, `parent` is NONE: an `Option<Link<File>>`; folders have no content.
        assert!(files.iter().all(|f| f.parent.is_none()));
        assert!(files.iter().all(|f| f.is_folder == f.content.is_none()));
        same_rows(
            &db,
            memory_db::queries::FILES_UNDER,
            vec![("folder", Value::String("root".into()))],
            files,
        )
        .await;
    })
}

/// The rows of `text` run by hand with `bindings`: what the typed function must return.
async fn by_hand(db: &Db, text: &str, bindings: Vec<(&'static str, Value)>) -> Vec<Value> {
    let mut query = db.query(text);
    for b in bindings {
        query = query.bind(b);
    }
    query.await.unwrap().check().unwrap().take(0).unwrap()
}

#[test]
fn membership_operators_type_parameters_by_their_contract() {
    // `x CONTAINS $p` and `$p IN x` take one element of x; `x IN $p` and `x CONTAINSANY $p` a
    // list. The argument types below are the contract: a `Vec<Status>` where one `Status` is
    // meant would not compile here (and returned no rows, silently, before the fix).
    block_on(async {
        let db = seeded("store", store_db::SCHEMA_SURQL).await;
        use store_db::queries as q;
        let one = |v: &str| vec![("status", Value::String(v.into()))];

        let contains = q::customers_with_order_status(&db, Status::Shipped).await.unwrap();
        let hand = by_hand(&db, q::CUSTOMERS_WITH_ORDER_STATUS, one("shipped")).await;
        assert!(!hand.is_empty(), "the seed has customers with a shipped order");
        same_rows(&db, q::CUSTOMERS_WITH_ORDER_STATUS, one("shipped"), contains).await;

        let inside = q::customers_with_order_status_in(&db, Status::Cancelled).await.unwrap();
        same_rows(&db, q::CUSTOMERS_WITH_ORDER_STATUS_IN, one("cancelled"), inside).await;

        let tiers = q::customers_of_tiers(&db, vec![Tier::Pro, Tier::Plus]).await.unwrap();
        assert!(tiers.iter().all(|r| matches!(r.tier, Tier::Pro | Tier::Plus)));
        let list = |vs: &[&str]| Value::Array(vs.iter().map(|v| Value::String((*v).into())).collect::<Vec<_>>().into());
        same_rows(
            &db,
            q::CUSTOMERS_OF_TIERS,
            vec![("tiers", list(&["pro", "plus"]))],
            tiers,
        )
        .await;

        // A session-bound parameter (`-- param: customer = $auth.id`) is still the function's
        // first argument: the application passes its user's link.
        let mei_link = crate::store::Customer::record("mei");
        let mine = q::my_orders(&db, mei_link.clone(), vec![Status::Shipped], 5)
            .await
            .unwrap();
        let ids: Vec<String> = mine.iter().map(|r| r.id.to_string()).collect();
        assert_eq!(ids, ["purchase:p6", "purchase:p1"]);
        let bindings = vec![
            ("customer", mei_link.into_value()),
            ("statuses", list(&["shipped"])),
            ("n", Value::from_t(5i64)),
        ];
        same_rows(&db, q::MY_ORDERS, bindings, mine).await;

        let any = q::customers_buying_any(&db, vec![Category::Audio]).await.unwrap();
        same_rows(
            &db,
            q::CUSTOMERS_BUYING_ANY,
            vec![("categories", list(&["audio"]))],
            any,
        )
        .await;

        // `content @@ $words`: the search text is a string.
        let memory = seeded("memory", memory_db::SCHEMA_SURQL).await;
        let words = "deploy release";
        let found = memory_db::queries::files_mentioning(&memory, words).await.unwrap();
        same_rows(
            &memory,
            memory_db::queries::FILES_MENTIONING,
            vec![("words", Value::String(words.into()))],
            found,
        )
        .await;
    })
}

/// An embedder that puts every question at the same place: the nearest examples are then the pool's
/// examples at that place.
struct Fixed;

impl surqlc::runtime::Embedder for Fixed {
    async fn embed(&self, _: &str) -> Result<Vec<f64>, surqlc::runtime::ModelError> {
        Ok(vec![0.0, 0.0, 0.0, 1.0])
    }
}

#[test]
fn questions_of_queries_without_parameters_seed_the_few_shot_pool() {
    block_on(async {
        let db = seeded("store", store_db::SCHEMA_SURQL).await;
        use store_db::queries as q;
        // Only queries without parameters: the agent's runner binds none.
        assert_eq!(
            q::EXAMPLES,
            &[("What do products cost on average in each category?", q::CATEGORY_PRICES)]
        );
        let added = q::seed_examples(&db, &Fixed).await.unwrap();
        assert_eq!(added.len(), 1);
        assert!(q::seed_examples(&db, &Fixed).await.unwrap().is_empty(), "seeded once");
        let nearest = store_db::similar_examples(&db, &[0.0, 0.0, 0.0, 1.0]).await.unwrap();
        assert_eq!(nearest[0].question, q::EXAMPLES[0].0);
        assert_eq!(nearest[0].surql, q::CATEGORY_PRICES);
    })
}
