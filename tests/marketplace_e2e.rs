//! The marketplace (`schemas/marketplace.rs`) end to end: its generated module compiles under `deny(warnings)`, rows written from Rust (with nested objects and arrays of objects) round-trip through the engine unchanged, the `monthly_sales` view fills itself and reads typed, and the named queries that read the view, call the database's own functions and select nested paths return the engine's rows, typed.

#[deny(warnings)]
mod marketplace_db {
    include!(concat!(env!("OUT_DIR"), "/marketplace/schema.rs"));
}

use crate::marketplace::{Address, Category, Country, Image, MonthlySales, Order, Product, Seller, Stamps, Status};
use surqlc::runtime::{surrealdb, Datetime, Decimal, SurrealValue, Value};
use surqlc_tests::*;

type Db = surrealdb::Surreal<surrealdb::engine::any::Any>;

async fn seeded() -> Db {
    let db = surrealdb::engine::any::connect("mem://").await.unwrap();
    db.use_ns("ai").use_db("marketplace").await.unwrap();
    db.query(marketplace_db::SCHEMA_SURQL)
        .await
        .unwrap()
        .check()
        .expect("schema applies");
    db.query(read(root().join("schemas/marketplace.seed.surql")))
        .await
        .unwrap()
        .check()
        .expect("data loads");
    db
}

fn dec(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn at(s: &str) -> Datetime {
    s.parse().unwrap()
}

/// A product with an array of objects and a stamps object, written from Rust, reads back as
/// written (but the `updated_at` its VALUE sets on every write); the named query returns its images.
async fn a_product_with_objects_round_trips(db: &Db, seller_id: &surqlc::runtime::Link<Seller>) {
    let lamp = Product {
        title: "Paper Lamp".into(),
        seller: seller_id.clone(),
        category: Category::Kitchen,
        price_gbp: dec("25.50"),
        tags: vec!["light".into()],
        images: vec![
            Image {
                url: "https://img.example/lamp.jpg".into(),
                alt: Some("A round paper lamp".into()),
            },
            Image {
                url: "https://img.example/lamp-lit.jpg".into(),
                alt: None,
            },
        ],
        time: Stamps {
            created_at: at("2026-03-27T09:00:00Z"),
            updated_at: at("2000-01-01T00:00:00Z"),
        },
    };
    let lamp_id = Product::record("lamp");
    db.query("CREATE $id CONTENT $row")
        .bind(("id", lamp_id.clone().into_value()))
        .bind(("row", lamp.clone().into_value()))
        .await
        .unwrap()
        .check()
        .expect("the product with nested objects is written");
    let back = marketplace_db::product::get(db, &lamp_id)
        .await
        .unwrap()
        .expect("written");
    assert!(back.time.updated_at > at("2026-01-01T00:00:00Z"), "{back:?}");
    assert_eq!(
        back,
        Product {
            time: Stamps {
                updated_at: back.time.updated_at,
                ..lamp.time.clone()
            },
            ..lamp.clone()
        }
    );
    let images = marketplace_db::queries::product_images(db, seller_id.clone())
        .await
        .unwrap();
    assert_eq!(images.len(), 1);
    let urls: Vec<(&str, Option<&str>)> = images[0]
        .images
        .iter()
        .map(|i| (i.url.as_str(), i.alt.as_deref()))
        .collect();
    assert_eq!(
        urls,
        [
            ("https://img.example/lamp.jpg", Some("A round paper lamp")),
            ("https://img.example/lamp-lit.jpg", None)
        ]
    );
}

#[test]
fn rows_round_trip_typed_and_the_view_keeps_up() {
    block_on(async {
        let db = seeded().await;
        assert_eq!(marketplace_db::seller::select(&db, 100).await.unwrap().len(), 4);
        assert_eq!(marketplace_db::product::select(&db, 100).await.unwrap().len(), 8);
        assert_eq!(marketplace_db::order::select(&db, 100).await.unwrap().len(), 12);

        // A seller and an order written from Rust read back unchanged.
        let seller = Seller {
            name: "Nordlys".into(),
            email: "hei@nordlys.example".into(),
            address: Address {
                street: "Fjordgata 1".into(),
                city: "Berlin".into(),
                postcode: "10115".into(),
                country: Country::DE,
            },
            joined_at: at("2026-03-01T00:00:00Z"),
        };
        let seller_id = Seller::record("nordlys");
        let order = Order {
            product: Product::record("kite"),
            seller: seller_id.clone(),
            quantity: 2,
            total_gbp: dec("30.00"),
            status: Status::Paid,
            placed_at: at("2026-03-28T10:00:00Z"),
        };
        let order_id = Order::record(13);
        for (id, row) in [
            (seller_id.clone().into_value(), seller.clone().into_value()),
            (order_id.clone().into_value(), order.clone().into_value()),
        ] {
            db.query("CREATE $id CONTENT $row")
                .bind(("id", id))
                .bind(("row", row))
                .await
                .unwrap()
                .check()
                .expect("the typed row is written");
        }
        let back = marketplace_db::seller::get(&db, &seller_id).await.unwrap();
        assert_eq!(back.as_ref(), Some(&seller));
        let back = marketplace_db::order::get(&db, &order_id).await.unwrap();
        assert_eq!(back.as_ref(), Some(&order));

        a_product_with_objects_round_trips(&db, &seller_id).await;

        // The view counted the new order in its seller's March row, and reads as its struct.
        let march = marketplace_db::queries::monthly_sales_of(&db, seller_id.clone())
            .await
            .unwrap();
        assert_eq!(march.len(), 1);
        assert_eq!(
            (march[0].month, march[0].orders, march[0].revenue_gbp.clone()),
            (at("2026-03-01T00:00:00Z"), 1, dec("30.00"))
        );
        let rows: Vec<MonthlySales> = db
            .query("SELECT month, seller, orders, revenue_gbp FROM monthly_sales WHERE seller = $s")
            .bind(("s", seller_id.clone()))
            .await
            .unwrap()
            .take(0)
            .unwrap();
        assert_eq!(
            rows,
            [MonthlySales {
                month: at("2026-03-01T00:00:00Z"),
                seller: seller_id.clone(),
                orders: 1,
                revenue_gbp: dec("30.00"),
            }]
        );
        // Cancelling it takes it out of the view (its WHERE), as the engine keeps views.
        db.query("UPDATE $id SET status = 'cancelled'")
            .bind(("id", order_id.clone()))
            .await
            .unwrap()
            .check()
            .unwrap();
        let march = marketplace_db::queries::monthly_sales_of(&db, seller_id).await.unwrap();
        assert!(march.is_empty() || march[0].orders == 0, "{march:?}");
    });
}

#[test]
fn the_database_functions_answer_typed_through_named_queries() {
    block_on(async {
        let db = seeded().await;
        use marketplace_db::queries as q;
        let books = q::prices_in_usd(&db, Category::Books).await.unwrap();
        let prices: Vec<(String, Decimal)> = books.iter().map(|b| (b.title.clone(), b.price_usd.clone())).collect();
        assert_eq!(
            prices,
            [
                ("Collected Poems".to_owned(), dec("15.88")),
                ("Atlas of Remote Islands".to_owned(), dec("22.86"))
            ]
        );
        // fn::seller_revenue leaves the cancelled order out: 39 + 54 + 78.
        let revenue = q::seller_revenue(&db, Seller::record("kochwerk")).await.unwrap();
        assert_eq!(revenue, dec("171.00"));
        assert_eq!(q::order_count(&db, Status::Shipped).await.unwrap(), 7);
        let ada = q::seller_by_email(&db, "hello@adabooks.example")
            .await
            .unwrap()
            .expect("Ada Books");
        assert_eq!((ada.name.as_str(), ada.country), ("Ada Books", Country::GB));
        // A nested path selected without an alias comes back nested, as the engine nests it.
        let german = q::sellers_in(&db, Country::DE).await.unwrap();
        let cities: Vec<(&str, &str)> = german
            .iter()
            .map(|s| (s.name.as_str(), s.address.city.as_str()))
            .collect();
        assert_eq!(cities, [("Kochwerk", "Köln")]);
        // The seeded rows hold their nested objects: the atlas's images and its creation time.
        let atlas = marketplace_db::product::get(&db, &Product::record("atlas"))
            .await
            .unwrap()
            .expect("atlas");
        assert_eq!(atlas.images.len(), 2);
        assert_eq!(atlas.images[1].alt, None);
        assert_eq!(atlas.time.created_at, at("2025-03-05T10:00:00Z"));
        // The view's rows for February: one per seller, from the orders that are not cancelled.
        let feb: Vec<Value> = db
            .query("SELECT VALUE seller FROM monthly_sales WHERE month = d'2026-02-01T00:00:00Z' ORDER BY seller")
            .await
            .unwrap()
            .take(0)
            .unwrap();
        assert_eq!(feb.len(), 3, "{feb:?}");
    });
}

#[test]
fn the_prompt_shows_what_a_view_is_computed_from_and_lists_the_functions() {
    block_on(async {
        let db = seeded().await;
        let prompt: Option<String> = db
            .query("RETURN fn::nl2surql_prompt('How much did Kochwerk sell in March?', [0.9, 0.1, 0.0, 0.3])")
            .await
            .unwrap()
            .take(0)
            .unwrap();
        let prompt = prompt.expect("a prompt");
        // The view's line names the table it is computed from, as INFO prints it.
        assert!(
            prompt.contains("DEFINE TABLE monthly_sales TYPE NORMAL SCHEMAFULL COMMENT \"Each seller's sales per calendar month, kept up to date by the database from the orders that are not cancelled (a view: read it, never write it).\" AS SELECT time::group(placed_at, 'month') AS month, seller, count() AS orders, math::sum(total_gbp) AS revenue_gbp FROM order WHERE status != 'cancelled' GROUP BY month, seller;"),
            "{prompt}"
        );
        // The functions the agent may call, with their parameters and comments.
        assert!(prompt.contains("11. Besides SurrealDB's built-in functions, call only these functions of this database:\n   fn::pound_to_usd($gbp: decimal) -> decimal: A price in pounds sterling (GBP) in US dollars"), "{prompt}");
        assert!(
            prompt
                .contains("   fn::seller_revenue($seller: record<seller>) -> decimal: What a seller has taken in GBP"),
            "{prompt}"
        );
        // The nested objects' sub-fields are in the schema block too.
        assert!(
            prompt.contains("DEFINE FIELD address.country ON seller TYPE 'DE' | 'FR' | 'GB' | 'US'"),
            "{prompt}"
        );
    });
}
