//! The store from SurrealDB's text-to-SurrealQL lesson, as the Rust types an application would use.
//!
//! surqlc reads this file with `syn`: structs deriving `Table` or `Relation` are tables,
//! doc comments become `COMMENT`s written for the model, `Literal` enums become literal
//! union types, and the `Schema` item holds the prompt's settings. The same file compiles
//! as ordinary Rust with the `surqlc-macros` derives (see `examples/store-agent`).

use serde::{Deserialize, Serialize};
use surqlc::runtime::{Datetime, Decimal, Link};
use surqlc_macros::{Literal, Relation, Schema, Table};

/// The prompt for the store's agent.
#[derive(Schema)]
#[surqlc(
    expose(Customer, Placed, Purchase, Contains, Product),
    value_hints(Customer::country, Customer::tier, Product::category, Purchase::status),
    examples(dimension = 4, k = 3, ef = 40),
    agent(user = "agent", token = "1h", session = "12h"),
    scope(end_user = Customer, access = "customer_agent", token = "15m", session = "1h")
)]
pub struct Store;

/// A person who buys from the store. Their orders: customer->placed->purchase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
pub struct Customer {
    /// Full name of the customer.
    pub name: String,
    /// ISO-3166 alpha-2 country code.
    pub country: Country,
    /// Subscription tier, where 'pro' is the highest.
    pub tier: Tier,
    /// When the account was created.
    pub joined: Datetime,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
pub enum Country {
    DE,
    ES,
    GB,
    US,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Free,
    Plus,
    Pro,
}

/// One completed or pending order. Buyer: purchase<-placed<-customer. Lines: purchase->contains->product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
#[surqlc(owner = "<-placed<-customer")]
pub struct Purchase {
    /// When the order was submitted.
    pub placed_at: Datetime,
    /// Fulfilment state. Revenue counts 'shipped' only.
    pub status: Status,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Cancelled,
    Pending,
    Shipped,
}

/// An item in the catalogue. Orders containing it: product<-contains<-purchase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
#[surqlc(shared)]
pub struct Product {
    /// Display name of the product.
    pub name: String,
    /// Catalogue section.
    pub category: Category,
    /// Current list price in EUR. Historic prices live on the contains edge.
    pub price: Decimal,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Audio,
    Home,
    Wearables,
}

/// Links a customer (in) to an order they placed (out). Traverse: customer->placed->purchase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Relation)]
#[surqlc(owner = "in")]
pub struct Placed {
    pub r#in: Link<Customer>,
    pub out: Link<Purchase>,
}

/// One line of an order: links a purchase (in) to a product (out). Traverse: purchase->contains->product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Relation)]
#[surqlc(owner = "in<-placed<-customer")]
pub struct Contains {
    pub r#in: Link<Purchase>,
    pub out: Link<Product>,
    /// Units of this product on the order.
    pub qty: u32,
    /// Price per unit actually charged, in EUR. Line revenue is qty * unit_price.
    pub unit_price: Decimal,
}
