//! `#[derive(Object)]`: nested objects and arrays of objects as typed sub-fields, on the engine, in the compiler, the derive and the validator.

#[path = "fixtures/objects.rs"]
#[allow(dead_code)]
mod fixture;

/// The generated module (tests/build.rs), compiled as an application compiles it.
#[deny(warnings)]
#[allow(dead_code)]
mod shop_db {
    include!(concat!(env!("OUT_DIR"), "/objects/schema.rs"));
}

use fixture::{Address, AddressKind, Buyer, Geo, Image, Product, Seller, Stamps, Wishlist};
use surqlc::runtime::{surrealdb, Datetime, Link, Number, SurrealValue, Table, Value};
use surqlc::validate::{self, Class};
use surqlc_tests::*;

fn output() -> surqlc::builder::Output {
    surqlc::Builder::new()
        .schema(root().join("tests/fixtures/objects.rs"))
        .cargo_metadata(false)
        .generate()
        .expect("schema compiles")
}

fn schema() -> surqlc::ir::Schema {
    output().schema
}

/// Runs each statement on its own and prints what the engine answers (a probe, not a test):
/// `PROBE='stmt;; stmt' cargo test -p surqlc-tests --test suite objects::probe -- --ignored --nocapture`.
#[test]
#[ignore]
fn probe_engine() {
    let script = std::env::var("PROBE").unwrap_or_default();
    block_on(async {
        let db = loaded(&[]).await;
        for stmt in script.split(";;") {
            let stmt = stmt.trim();
            if stmt.is_empty() {
                continue;
            }
            match surqlc::db::query_json(&db, stmt).await {
                Ok(v) => println!(">> {stmt}\n{v:#}"),
                Err(e) => println!(">> {stmt}\nERROR {e}"),
            }
        }
    });
}

#[test]
fn print_schema() {
    println!("{}", output().schema_surql);
}
