// src/store.rs
use surqlc::runtime::{Datetime, Decimal, Link};
use surqlc_macros::{Literal, Relation, Schema, Table};

/// The prompt's settings.
#[derive(Schema)]
#[surqlc(
    expose(Customer, Placed, Purchase, Contains, Product),
    value_hints(Customer::tier, Purchase::status),
    examples(dimension = 4, k = 3),
    agent(user = "agent", token = "1h", session = "12h")
)]
pub struct Store;

/// A person who buys from the store. Their orders: customer->placed->purchase.
#[derive(Debug, Clone, Table)]
pub struct Customer {
    /// Full name of the customer.
    pub name: String,
    /// Subscription tier, where 'pro' is the highest.
    pub tier: Tier,
    /// When the account was created.
    pub joined: Datetime,
}

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, Literal)]
#[serde(rename_all = "lowercase")] // the stored values: "free", "plus", "pro"
pub enum Tier {
    Free,
    Plus,
    Pro,
}

/// An order. Buyer: purchase<-placed<-customer. Lines: purchase->contains->product.
#[derive(Debug, Clone, Table)]
pub struct Purchase {
    /// When the order was submitted.
    pub placed_at: Datetime,
    /// Fulfilment state. Revenue counts 'shipped' only.
    pub status: Status,
}

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, Literal)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pending,
    Shipped,
    Cancelled,
}

/// An item in the catalogue.
#[derive(Debug, Clone, Table)]
pub struct Product {
    /// Display name of the product.
    pub name: String,
    /// Current list price in EUR.
    pub price: Decimal,
}

/// Links a customer (in) to an order they placed (out). Traverse: customer->placed->purchase.
#[derive(Debug, Clone, Relation)]
pub struct Placed {
    pub r#in: Link<Customer>,
    pub out: Link<Purchase>,
}

/// One line of an order: links a purchase (in) to a product (out).
#[derive(Debug, Clone, Relation)]
pub struct Contains {
    pub r#in: Link<Purchase>,
    pub out: Link<Product>,
    /// Units of this product on the order.
    pub qty: u32,
    /// Price per unit actually charged, in EUR. Line revenue is qty * unit_price.
    pub unit_price: Decimal,
}

/// The typed helpers build.rs generates from this file. They name the types above through
/// `super` (the default `types_path`), so they live in a child module of this one.
pub mod db {
    include!(concat!(env!("OUT_DIR"), "/schema.rs"));
}
