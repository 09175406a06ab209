//! A small marketplace: sellers, their products, the orders buyers place, a monthly-sales view
//! the engine keeps up to date, and two functions of the database's own
//! (`marketplace.functions.surql`) that queries may call.
//!
//! It is the example of a document-shaped schema: a seller's address, a product's images and
//! time stamps are objects inside the row (`#[derive(Object)]`, each field a typed sub-field), and
//! `MonthlySales` is a view (`DEFINE TABLE ... AS SELECT`), whose fields surqlc checks against its
//! SELECT at build time.

use serde::{Deserialize, Serialize};
use surqlc::runtime::{Datetime, Decimal, Link};
use surqlc_macros::{Literal, Object, Schema, Table};

/// The prompt for the marketplace's agent.
#[derive(Schema)]
#[surqlc(
    expose(Seller, Product, Order, MonthlySales),
    value_hints(Product::category, Order::status),
    examples(dimension = 4, k = 3, ef = 40),
    functions = "marketplace.functions.surql"
)]
pub struct Marketplace;

/// A shop that sells on the marketplace. Its products: product WHERE seller = seller:key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
#[surqlc(index(fields(email), unique), index(fields(address.country)))]
pub struct Seller {
    /// The shop's display name.
    pub name: String,
    /// Where the shop's mail goes; one shop per address.
    pub email: String,
    /// Where the shop ships from.
    pub address: Address,
    /// When the shop opened on the marketplace.
    pub joined_at: Datetime,
}

/// A postal address.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Object)]
pub struct Address {
    /// Street and number.
    pub street: String,
    pub city: String,
    pub postcode: String,
    /// ISO-3166 alpha-2 country code.
    pub country: Country,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
pub enum Country {
    DE,
    FR,
    GB,
    US,
}

/// An item a seller lists. Its orders: order WHERE product = product:key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
pub struct Product {
    /// The listing's title.
    pub title: String,
    /// The shop that sells it.
    pub seller: Link<Seller>,
    /// Catalogue section.
    pub category: Category,
    /// List price in pounds sterling (GBP); fn::pound_to_usd converts it.
    pub price_gbp: Decimal,
    /// Search words the seller chose.
    pub tags: Vec<String>,
    /// Pictures of it, the cover first.
    pub images: Vec<Image>,
    pub time: Stamps,
}

/// A picture of a product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Object)]
pub struct Image {
    /// Where the picture is served from.
    pub url: String,
    /// Text for screen readers, when the seller wrote one.
    pub alt: Option<String>,
}

/// When the listing was made and last changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Object)]
pub struct Stamps {
    /// Set once, when the listing is created.
    #[surqlc(default = "time::now()", readonly)]
    pub created_at: Datetime,
    /// Set by the database on every write.
    #[surqlc(value = "time::now()")]
    pub updated_at: Datetime,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Books,
    Garden,
    Kitchen,
    Toys,
}

/// One buyer's order of one product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
pub struct Order {
    /// What was bought.
    pub product: Link<Product>,
    /// The shop that sold it (the product's seller at the time).
    pub seller: Link<Seller>,
    /// Units bought.
    pub quantity: u32,
    /// What the buyer paid in GBP: quantity times the price at the time.
    pub total_gbp: Decimal,
    /// Where the order is. Revenue counts every order that is not 'cancelled'.
    pub status: Status,
    /// When the buyer placed it.
    pub placed_at: Datetime,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Literal)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Cancelled,
    Paid,
    Shipped,
}

/// Each seller's sales per calendar month, kept up to date by the database from the orders
/// that are not cancelled (a view: read it, never write it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
#[surqlc(
    view = "SELECT time::group(placed_at, 'month') AS month, seller, count() AS orders, math::sum(total_gbp) AS revenue_gbp FROM order WHERE status != 'cancelled' GROUP BY month, seller"
)]
pub struct MonthlySales {
    /// The first instant of the month.
    pub month: Datetime,
    /// The shop.
    pub seller: Link<Seller>,
    /// How many orders it took that month.
    pub orders: i64,
    /// What those orders paid, in GBP.
    pub revenue_gbp: Decimal,
}
