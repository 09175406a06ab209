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
mod memory_db {
    include!(concat!(env!("OUT_DIR"), "/memory/schema.rs"));
}

use crate::store::{Category, Country, Status, Tier};
use surqlc::runtime::{surrealdb, Datetime, Link, SurrealValue, Value};
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
/// every one, each as non-empty as the engine's (the property: types match the values).
async fn same_rows<R: SurrealValue + Clone>(
    db: &Db,
    text: &str,
    bindings: Vec<(&'static str, Value)>,
    typed: &[R],
) {
    let mut query = db.query(text);
    for b in bindings {
        query = query.bind(b);
    }
    let raw: Vec<Value> = query.await.unwrap().check().unwrap().take(0).unwrap();
    assert!(!raw.is_empty(), "{text}: the seed data gives rows");
    assert_eq!(raw.len(), typed.len(), "{text}");
    for (engine, row) in raw.into_iter().zip(typed) {
        assert_ne!(engine, Value::None, "{text}");
        assert_eq!(without_none(row.clone().into_value()), without_none(engine), "{text}");
    }
}

#[test]
fn store_queries_return_the_engines_rows_typed() {
    block_on(async {
        let db = seeded("store", store_db::SCHEMA_SURQL).await;
        use store_db::queries as q;
        let shipped = || vec![("status", Value::String("shipped".into()))];

        let revenue = q::revenue_by_category(&db, Status::Shipped).await.unwrap();
        same_rows(&db, q::REVENUE_BY_CATEGORY, shipped(), &revenue).await;
        // The Literal enum and the decimal sum, as the schema types them.
        let categories: Vec<Category> = revenue.iter().map(|r| r.category).collect();
        assert!(categories.contains(&Category::Audio), "{categories:?}");
        assert!(revenue.windows(2).all(|w| w[0].revenue >= w[1].revenue));

        let mei = q::customer_by_name(&db, "Mei Tanaka").await.unwrap().expect("Mei");
        assert_eq!(mei.tier, Tier::Pro);
        assert_eq!(mei.id, crate::store::Customer::record("mei"));
        assert!(q::customer_by_name(&db, "Nobody").await.unwrap().is_none());

        let since: Datetime = "2025-07-01T00:00:00Z".parse().unwrap();
        let recent = q::recent_purchases(&db, since.clone(), 3).await.unwrap();
        assert_eq!(recent.len(), 3);
        let bindings = vec![("since", since.into_value()), ("n", Value::from_t(3i64))];
        same_rows(&db, q::RECENT_PURCHASES, bindings, &recent).await;

        let shipped_count = q::purchase_count(&db, Status::Shipped).await.unwrap();
        assert!(shipped_count > 0, "{shipped_count}");

        let pros = q::customers_of_tier(&db, Tier::Pro).await.unwrap();
        same_rows(&db, q::CUSTOMERS_OF_TIER, vec![("tier", Value::String("pro".into()))], &pros).await;
        assert!(pros.iter().any(|c| !c.bought.is_empty()), "{pros:?}");

        let stats = q::customer_stats(&db).await.unwrap();
        assert_eq!(stats.customers, 5);

        let lines = q::order_lines(&db, Status::Shipped, 10).await.unwrap();
        let bindings = vec![("status", Value::String("shipped".into())), ("n", Value::from_t(10i64))];
        same_rows(&db, q::ORDER_LINES, bindings, &lines).await;
        let first = &lines[0];
        // `out` is a link, `out.*` the linked row with its id; `qty * unit_price` a decimal.
        assert_eq!(first.item.id, first.product);
        assert_eq!(first.line_total, first.unit_price * surqlc::runtime::Decimal::from(first.qty));

        let spanish = q::customer_orders(&db, Country::ES).await.unwrap();
        same_rows(&db, q::CUSTOMER_ORDERS, vec![("country", Value::String("ES".into()))], &spanish).await;
        let omar = spanish.iter().find(|c| c.name == "Omar Haddad").expect("Omar");
        assert_eq!(omar.orders.len(), omar.order_rows.len());
        assert!(omar.last_order.is_some() || omar.orders.is_empty());

        let prices = q::category_prices(&db).await.unwrap();
        same_rows(&db, q::CATEGORY_PRICES, Vec::new(), &prices).await;
        assert!(prices.iter().all(|p| p.products > 0 && p.mean_price > 0.0 && p.cheapest <= p.dearest));

        let audio = q::product_names(&db, Category::Audio).await.unwrap();
        assert_eq!(audio, vec!["Compact Soundbar".to_owned(), "Sport Buds".to_owned()]);
        let _: Option<Link<crate::store::Product>> = None;
    })
}

#[test]
fn record_keys_and_options_are_typed() {
    block_on(async {
        let db = seeded("meetings", meetings_db::SCHEMA_SURQL).await;
        use meetings_db::queries as q;
        let rows = q::meeting_attendees(&db, "2026-07-01").await.unwrap();
        same_rows(&db, q::MEETING_ATTENDEES, vec![("since", Value::String("2026-07-01".into()))], &rows).await;
        // `record::id(id)` is the table's key type: meeting keys are integers.
        let numbers: Vec<i64> = rows.iter().map(|r| r.number).collect();
        assert_eq!(numbers, vec![1, 2, 3]);
        assert!(rows.iter().all(|r| r.people.len() == r.ids.len()));
        let alice = crate::meetings::Person::record("Alice Chen".to_owned());
        let person = q::person_tasks(&db, alice).await.unwrap().expect("Alice");
        let name: String = person.name;
        assert_eq!(name, "Alice Chen");

        let db = seeded("memory", memory_db::SCHEMA_SURQL).await;
        let files = memory_db::queries::files_under(&db, "root").await.unwrap();
        same_rows(&db, memory_db::queries::FILES_UNDER, vec![("folder", Value::String("root".into()))], &files).await;
        // At the root, `parent` is NONE: an `Option<Link<File>>`; folders have no content.
        assert!(files.iter().all(|f| f.parent.is_none()));
        assert!(files.iter().all(|f| f.is_folder == f.content.is_none()));
    })
}
