// src/main.rs
mod store;

use store::{Contains, Customer, Placed, Product, Purchase, Status, Tier};
use surqlc::runtime::{Datetime, Decimal, Outcome};

/// A question's embedding comes from your embedding model; it has EMBEDDING_DIMENSION numbers
/// (`examples(dimension = 4)` above, 384 by default). The same model embeds the pooled examples.
const QUESTION: &str = "Which tier has placed the most orders?";
const QUESTION_VECTOR: [f64; store::db::EMBEDDING_DIMENSION] = [0.1, 0.9, 0.0, 0.2];

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The embedded engine: an in-memory database whose handle has every right (no sign-in).
    let db = surrealdb::engine::any::connect("mem://").await?;
    db.use_ns("shop").use_db("store").await?;
    store::db::apply_schema(&db).await?;

    // Rows, written with the derived types under typed record ids.
    let ada = Customer::record("ada");
    let _: Option<Customer> = db
        .create(ada.record_id())
        .content(Customer {
            name: "Ada Lovelace".into(),
            tier: Tier::Pro,
            joined: Datetime::now(),
        })
        .await?;
    let order = Purchase::record("p1");
    let _: Option<Purchase> = db
        .create(order.record_id())
        .content(Purchase {
            placed_at: Datetime::now(),
            status: Status::Shipped,
        })
        .await?;
    let lamp = Product::record("lamp");
    let _: Option<Product> = db
        .create(lamp.record_id())
        .content(Product {
            name: "Desk Lamp".into(),
            price: Decimal::new(4900, 2),
        })
        .await?;

    // Edges: a relation row carries its two ends (and its own fields).
    let _: Vec<Placed> = db
        .insert(Placed::TABLE)
        .relation(Placed {
            r#in: ada.clone(),
            out: order.clone(),
        })
        .await?;
    let _: Vec<Contains> = db
        .insert(Contains::TABLE)
        .relation(Contains {
            r#in: order.clone(),
            out: lamp.clone(),
            qty: 2,
            unit_price: Decimal::new(4500, 2),
        })
        .await?;

    // The typed helpers read them back: ada's orders, and the order's lines.
    let orders = store::db::customer::placed_purchase(&db, &ada).await?;
    let lines = store::db::purchase::contains_edges_from(&db, &order).await?;
    println!(
        "{} has {} order(s); {} has {} line(s)",
        ada,
        orders.len(),
        order,
        lines.len()
    );

    // The few-shot pool: a question your application accepted, its query and its embedding.
    // Only an owner or editor may add one (the agent cannot).
    store::db::remember_example(
        &db,
        "How many customers are on each tier?",
        "SELECT tier, count() AS customers FROM customer GROUP BY tier LIMIT 50;",
        &[0.0, 1.0, 0.0, 0.0],
    )
    .await?;

    // The prompt for a question: rules, the live schema, the values present, the nearest examples.
    let prompt = store::db::nl2surql_prompt(&db, QUESTION, &QUESTION_VECTOR).await?;
    println!("{prompt}");

    // Send the prompt to your model; its reply runs as the read-only agent.
    let reply = "SELECT in.tier AS tier, count() AS orders FROM placed GROUP BY tier ORDER BY orders DESC LIMIT 50;";
    let password = std::env::var("SURQLC_AGENT_PASSWORD").unwrap_or_else(|_| "dev-only-password".into());
    let agent = store::db::agent_signin(&db, "shop", "store", &password).await?;
    match store::db::run_readonly(&agent, reply).await? {
        // Parsed, validated against the schema and the data, LIMIT and TIMEOUT enforced.
        Outcome::Rows { rows, warnings } => {
            for row in rows {
                println!("{}", surqlc::runtime::to_json(row));
            }
            for warning in warnings {
                println!("note: {warning}"); // e.g. a compared value not in the data, a LIMIT added
            }
        }
        // One line per problem, each naming its fix: send it back to the model.
        Outcome::Rejected(reason) => println!("send back to the model: {reason}"),
        Outcome::CannotAnswer(reason) => println!("the model cannot answer: {reason}"),
    }
    Ok(())
}
