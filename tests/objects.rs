//! `#[derive(Object)]`: nested objects and arrays of objects as typed sub-fields, on the engine, in the compiler, the derive and the validator.

#[path = "fixtures/objects.rs"]
#[allow(dead_code)]
pub(crate) mod fixture;

/// The generated module (tests/build.rs), compiled as an application compiles it.
#[deny(warnings)]
#[allow(dead_code)]
mod shop_db {
    include!(concat!(env!("OUT_DIR"), "/objects/schema.rs"));
}

use fixture::{Address, AddressKind, Buyer, Geo, Image, Product, Seller, Stamps, Wishlist};
use surqlc::runtime::{surrealdb, Datetime, Number, SurrealValue, Table, Value};
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

type Db = surrealdb::Surreal<surrealdb::engine::any::Any>;

async fn applied() -> Db {
    let db = surrealdb::engine::any::connect("mem://").await.unwrap();
    db.use_ns("shop").use_db("shop").await.unwrap();
    shop_db::apply_schema(&db).await.expect("the schema loads");
    db
}

#[test]
fn each_sub_field_is_a_define_field_with_its_clauses_and_comment() {
    let surql = output().schema_surql;
    for line in [
        // The field's doc, then the Object's.
        "DEFINE FIELD OVERWRITE address ON seller TYPE object COMMENT \"Where the seller ships from. A postal address.\";",
        "DEFINE FIELD OVERWRITE address.street ON seller TYPE string COMMENT \"Street and number.\";",
        "DEFINE FIELD OVERWRITE address.city ON seller TYPE string;",
        "DEFINE FIELD OVERWRITE address.country ON seller TYPE string ASSERT string::len($value) = 2 COMMENT \"ISO 3166-1 alpha-2 code, upper case.\";",
        // A Literal enum's meaning reaches a sub-field as it reaches a field.
        "DEFINE FIELD OVERWRITE address.kind ON seller TYPE \"shipping\" | \"billing\" COMMENT \"What an address is for. shipping: Where parcels are sent from\";",
        // An object inside an object, renamed, optional.
        "DEFINE FIELD OVERWRITE address.geoPoint ON seller TYPE option<object> FLEXIBLE COMMENT \"Where it is, when known. A point on the map.\";",
        "DEFINE FIELD OVERWRITE address.geoPoint.lat ON seller TYPE float;",
        "DEFINE FIELD OVERWRITE billing ON seller TYPE option<object> COMMENT \"Where invoices go, when not the shipping address. A postal address.\";",
        "DEFINE FIELD OVERWRITE billing.geoPoint.lon ON seller TYPE float;",
        "DEFINE INDEX OVERWRITE seller_address_country ON seller FIELDS address.country;",
        "DEFINE FIELD OVERWRITE price ON product TYPE number COMMENT \"The price in pounds: an int or a float, as entered.\";",
        // An array of objects: each element's sub-field.
        "DEFINE FIELD OVERWRITE images ON product TYPE array<object> COMMENT \"Pictures, the cover first. A picture of a product.\";",
        "DEFINE FIELD OVERWRITE images.*.url ON product TYPE string COMMENT \"Where the picture is served from.\";",
        "DEFINE FIELD OVERWRITE images.*.`by` ON product TYPE option<record<seller>> COMMENT \"The seller who took it, when it was one.\";",
        "DEFINE FIELD OVERWRITE images.*.exif ON product TYPE option<object> FLEXIBLE COMMENT \"Anything the camera wrote.\";",
        "DEFINE FIELD OVERWRITE time.created_at ON product TYPE datetime DEFAULT time::now() READONLY COMMENT \"Set once, when the row is created.\";",
        "DEFINE FIELD OVERWRITE time.updated_at ON product TYPE datetime VALUE time::now() COMMENT \"Set on every write.\";",
        "DEFINE FIELD OVERWRITE time.created_at ON wishlist TYPE datetime DEFAULT time::now() READONLY COMMENT \"Set once, when the row is created.\";",
        "DEFINE INDEX OVERWRITE wishlist_in_out ON wishlist FIELDS in, out UNIQUE;",
    ] {
        assert!(surql.contains(line), "{line}\n{surql}");
    }
}

/// The same design written by hand, arrays of objects spelled `images[*].url` as SurrealDB's
/// documentation writes them: the engine reads both spellings as one field.
const BY_HAND: &str = r#"
DEFINE TABLE seller SCHEMAFULL;
DEFINE FIELD id ON seller TYPE string;
DEFINE FIELD name ON seller TYPE string COMMENT "The seller's trading name.";
DEFINE FIELD address ON seller TYPE object COMMENT "Where the seller ships from. A postal address.";
DEFINE FIELD address.street ON seller TYPE string COMMENT "Street and number.";
DEFINE FIELD address.city ON seller TYPE string;
DEFINE FIELD address.country ON seller TYPE string ASSERT string::len($value) = 2 COMMENT "ISO 3166-1 alpha-2 code, upper case.";
DEFINE FIELD address.kind ON seller TYPE "shipping" | "billing" COMMENT "What an address is for. shipping: Where parcels are sent from";
DEFINE FIELD address.geoPoint ON seller TYPE option<object> FLEXIBLE COMMENT "Where it is, when known. A point on the map.";
DEFINE FIELD address.geoPoint.lat ON seller TYPE float;
DEFINE FIELD address.geoPoint.lon ON seller TYPE float;
DEFINE FIELD billing ON seller TYPE option<object> COMMENT "Where invoices go, when not the shipping address. A postal address.";
DEFINE FIELD billing.street ON seller TYPE string COMMENT "Street and number.";
DEFINE FIELD billing.city ON seller TYPE string;
DEFINE FIELD billing.country ON seller TYPE string ASSERT string::len($value) = 2 COMMENT "ISO 3166-1 alpha-2 code, upper case.";
DEFINE FIELD billing.kind ON seller TYPE "shipping" | "billing" COMMENT "What an address is for. shipping: Where parcels are sent from";
DEFINE FIELD billing.geoPoint ON seller TYPE option<object> FLEXIBLE COMMENT "Where it is, when known. A point on the map.";
DEFINE FIELD billing.geoPoint.lat ON seller TYPE float;
DEFINE FIELD billing.geoPoint.lon ON seller TYPE float;
DEFINE INDEX seller_address_country ON seller FIELDS address.country;
DEFINE TABLE product SCHEMAFULL;
DEFINE FIELD name ON product TYPE string COMMENT "What the product is called.";
DEFINE FIELD price ON product TYPE number COMMENT "The price in pounds: an int or a float, as entered.";
DEFINE FIELD seller ON product TYPE record<seller> COMMENT "Who sells it.";
DEFINE FIELD images ON product TYPE array<object> COMMENT "Pictures, the cover first. A picture of a product.";
DEFINE FIELD images[*].url ON product TYPE string COMMENT "Where the picture is served from.";
DEFINE FIELD images[*].alt ON product TYPE option<string> COMMENT "Text for screen readers.";
DEFINE FIELD images[*].by ON product TYPE option<record<seller>> COMMENT "The seller who took it, when it was one.";
DEFINE FIELD images[*].exif ON product TYPE option<object> FLEXIBLE COMMENT "Anything the camera wrote.";
DEFINE FIELD time ON product TYPE object COMMENT "When the row was made and last changed.";
DEFINE FIELD time.created_at ON product TYPE datetime DEFAULT time::now() READONLY COMMENT "Set once, when the row is created.";
DEFINE FIELD time.updated_at ON product TYPE datetime VALUE time::now() COMMENT "Set on every write.";
DEFINE TABLE wishlist TYPE RELATION IN buyer OUT product SCHEMAFULL;
DEFINE FIELD time ON wishlist TYPE object COMMENT "When the row was made and last changed.";
DEFINE FIELD time.created_at ON wishlist TYPE datetime DEFAULT time::now() READONLY COMMENT "Set once, when the row is created.";
DEFINE FIELD time.updated_at ON wishlist TYPE datetime VALUE time::now() COMMENT "Set on every write.";
DEFINE INDEX wishlist_in_out ON wishlist FIELDS in, out UNIQUE;
"#;

/// `INFO FOR TABLE`'s fields and indexes.
async fn info(db: &Db, table: &str) -> (serde_json::Value, serde_json::Value) {
    let info = surqlc::db::query_json(db, &format!("INFO FOR TABLE {table}"))
        .await
        .expect("INFO runs");
    (info["fields"].clone(), info["indexes"].clone())
}

#[test]
fn info_for_table_equals_a_hand_written_schemas() {
    block_on(async {
        let built = applied().await;
        let by_hand = loaded(&[BY_HAND]).await;
        for table in ["seller", "product", "wishlist"] {
            let (fields, indexes) = info(&built, table).await;
            assert_eq!(
                (&fields, &indexes),
                (&info(&by_hand, table).await.0, &info(&by_hand, table).await.1),
                "{table}"
            );
            // The engine prints an element's sub-field as `images.*.url`, under the element's `images.*`.
            if table == "product" {
                assert_eq!(
                    fields["images.*.url"],
                    "DEFINE FIELD images.*.url ON product TYPE string COMMENT 'Where the picture is served from.' PERMISSIONS FULL"
                );
                assert_eq!(
                    fields["images.*"],
                    "DEFINE FIELD images.* ON product TYPE object PERMISSIONS FULL"
                );
            }
        }
    })
}

#[test]
fn the_prompts_schema_block_is_the_engines_and_shows_the_sub_fields() {
    let out = output();
    let want = block_on(async {
        let db = loaded(&[&out.schema_surql]).await;
        surqlc::db::query_string(&db, "RETURN fn::schema_context()")
            .await
            .expect("fn::schema_context runs")
    });
    let block = surqlc::surql::info::schema_block(&out.schema);
    assert_eq!(block, want);
    for line in [
        "DEFINE FIELD address.geoPoint.lat ON seller TYPE float;",
        "DEFINE FIELD images.*.url ON product TYPE string COMMENT 'Where the picture is served from.';",
        "DEFINE FIELD time.created_at ON product TYPE datetime DEFAULT time::now() READONLY COMMENT 'Set once, when the row is created.';",
    ] {
        assert!(block.contains(line), "{line}\n{block}");
    }
}

#[test]
fn the_derive_builds_the_compilers_ir_and_text() {
    let schema = schema();
    fn same<T: Table>(schema: &surqlc::ir::Schema) {
        let compiled = schema.table(T::TABLE).expect("the table");
        assert_eq!(&T::table_ir(), compiled, "{}", T::TABLE);
        assert_eq!(T::define(), surqlc::surql::table_definition(compiled));
    }
    same::<Seller>(&schema);
    same::<Product>(&schema);
    same::<Buyer>(&schema);
    same::<Wishlist>(&schema);
}

fn seller() -> Seller {
    Seller {
        id: "ada".into(),
        name: "Ada's Lamps".into(),
        address: Address {
            street: "1 Analytical Row".into(),
            city: "London".into(),
            country: "GB".into(),
            kind: AddressKind::Shipping,
            geo_point: Some(Geo { lat: 51.5, lon: -0.12 }),
        },
        billing: None,
    }
}

fn product(name: &str, images: Vec<Image>) -> Product {
    let now = Datetime::from_timestamp(1_790_000_000, 0).expect("a time");
    Product {
        name: name.into(),
        price: Number::Float(12.5),
        seller: Seller::record("ada"),
        images,
        time: Stamps {
            created_at: now.clone(),
            updated_at: now,
        },
    }
}

fn image(url: &str) -> Image {
    Image {
        url: url.into(),
        alt: None,
        by: None,
        exif: None,
    }
}

#[test]
fn rows_with_nested_objects_and_arrays_of_objects_round_trip() {
    block_on(async {
        let db = applied().await;
        let ada: Option<Seller> = db.create(("seller", "ada")).content(seller()).await.unwrap();
        assert_eq!(ada, Some(seller()));
        let lamp = product(
            "Lamp",
            vec![
                Image {
                    alt: Some("A brass lamp".into()),
                    by: Some(Seller::record("ada")),
                    exif: Some([("iso".to_owned(), "200".to_owned())].into()),
                    ..image("https://img/lamp.jpg")
                },
                image("https://img/lamp-side.jpg"),
            ],
        );
        let created: Option<Product> = db.create(("product", "lamp")).content(lamp.clone()).await.unwrap();
        let created = created.expect("a row");
        // `updated_at` is the engine's (VALUE time::now()); everything else reads back as written.
        assert_eq!(
            Product {
                time: Stamps {
                    updated_at: lamp.time.updated_at.clone(),
                    ..created.time.clone()
                },
                ..created.clone()
            },
            lamp
        );
        let read: Option<Product> = db.select(("product", "lamp")).await.unwrap();
        assert_eq!(read, Some(created));
        // The engine checks each element's sub-fields.
        let wrong = db
            .query(
                "CREATE product:bad SET name = 'x', price = 1, seller = seller:ada, images = [{ url: 1 }], time = {}",
            )
            .await
            .unwrap()
            .check();
        let message = wrong.expect_err("a number is not a url").to_string();
        assert!(message.contains("images.*.url"), "{message}");
        // A sub-field of an absent `option<object>` is not required.
        assert!(ada.unwrap().billing.is_none());
    })
}

#[test]
fn named_queries_over_nested_paths_return_nested_structs() {
    block_on(async {
        let db = applied().await;
        let _: Option<Seller> = db.create(("seller", "ada")).content(seller()).await.unwrap();
        let _: Option<Product> = db
            .create(("product", "lamp"))
            .content(product("Lamp", vec![image("https://img/lamp.jpg")]))
            .await
            .unwrap();
        let cards = shop_db::queries::product_cards(&db).await.unwrap();
        assert_eq!(cards.len(), 1);
        let card = &cards[0];
        assert_eq!(
            (card.seller.name.as_str(), card.seller.address.city.as_str()),
            ("Ada's Lamps", "London")
        );
        assert_eq!(card.images.url.as_deref(), Some("https://img/lamp.jpg"));
        // Written back, the typed row is the engine's row.
        let raw: Vec<Value> = db
            .query(shop_db::queries::PRODUCT_CARDS)
            .await
            .unwrap()
            .take(0)
            .unwrap();
        assert_eq!(raw, vec![card.clone().into_value()]);
        let found = shop_db::queries::products_from(&db, "GB", "https://img/lamp.jpg")
            .await
            .unwrap();
        assert_eq!(found.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["Lamp"]);
    })
}

fn errors(schema: &surqlc::ir::Schema, query: &str) -> Vec<(Class, String, String)> {
    validate::validate(schema, query)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == validate::Severity::Error)
        .map(|d| (d.class, d.message, d.fix))
        .collect()
}

#[test]
fn the_validator_reads_every_nested_form_the_engine_answers() {
    let schema = schema();
    let block = |q: &str| {
        block_on(async {
            let db = applied().await;
            let _: Option<Seller> = db.create(("seller", "ada")).content(seller()).await.unwrap();
            db.query(q)
                .await
                .unwrap()
                .check()
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
    };
    for q in [
        "SELECT time.created_at FROM product LIMIT 5",
        "SELECT * FROM product WHERE time.created_at > d'2026-01-01T00:00:00Z' LIMIT 5",
        "SELECT images.url FROM product LIMIT 5",
        "SELECT images[0].url FROM product LIMIT 5",
        "SELECT images[*].url FROM product LIMIT 5",
        "SELECT images[WHERE alt != NONE].url AS described FROM product LIMIT 5",
        "SELECT * FROM product WHERE images[WHERE url = 'x'] LIMIT 5",
        "SELECT * FROM product WHERE 'x' IN images.url LIMIT 5",
        "SELECT * FROM product WHERE images.*.url CONTAINS 'x' LIMIT 5",
        "SELECT * FROM seller WHERE address.country = 'GB' LIMIT 5",
        "SELECT * FROM seller WHERE address.kind = 'billing' LIMIT 5",
        "SELECT address.geoPoint.lat FROM seller LIMIT 5",
        "SELECT seller.address.city FROM product LIMIT 5",
        "SELECT images[WHERE by.name = 'Ada'].url AS by_ada FROM product LIMIT 5",
        "SELECT * FROM wishlist WHERE time.created_at < time::now() LIMIT 5",
    ] {
        assert_eq!(errors(&schema, q), Vec::new(), "{q}");
        assert_eq!(block(q), Ok(()), "the engine answers {q}");
    }
}

#[test]
fn typos_in_nested_paths_are_unknown_fields_with_the_nearest_name() {
    let schema = schema();
    for (q, near) in [
        (
            "SELECT time.creatd_at FROM product LIMIT 5",
            "did you mean `time.created_at`?",
        ),
        ("SELECT images[*].ur FROM product LIMIT 5", "did you mean `images.url`?"),
        (
            "SELECT images[0].urll FROM product LIMIT 5",
            "did you mean `images.url`?",
        ),
        (
            "SELECT * FROM product WHERE images[WHERE ulr = 'x'] LIMIT 5",
            "did you mean `images.url`?",
        ),
        (
            "SELECT seller.address.cty FROM product LIMIT 5",
            "did you mean `address.city`?",
        ),
    ] {
        let found = errors(&schema, q);
        assert!(
            matches!(found.as_slice(), [(Class::UnknownField, _, fix)] if fix.contains(near)),
            "{q}: {found:#?}"
        );
    }
    let found = errors(&schema, "SELECT time.creatd_at FROM product LIMIT 5");
    assert_eq!(found[0].1, "`product.time` has no field `creatd_at`");
}

/// `address.geoPoint` is FLEXIBLE: the engine keeps keys it does not declare, so reading one is
/// no error (it is `any`); one that looks like a misspelt declared key gets a warning with the fix.
#[test]
fn keys_a_flexible_object_does_not_declare_are_any_and_a_near_miss_a_warning() {
    let schema = schema();
    let report = validate::validate(&schema, "SELECT * FROM seller WHERE address.geoPoint.latt > 1 LIMIT 5");
    assert!(
        matches!(report.diagnostics.as_slice(), [d] if d.severity == validate::Severity::Warning
            && d.class == Class::UnknownField
            && d.message.contains("FLEXIBLE")
            && d.fix.contains("did you mean `address.geoPoint.lat`?")),
        "{:#?}",
        report.diagnostics
    );
    let q = "SELECT address.geoPoint.altitude AS alt FROM seller LIMIT 5";
    assert_eq!(validate::validate(&schema, q).diagnostics, Vec::new(), "{q}");
    // The engine keeps the undeclared key and answers it.
    block_on(async {
        let db = applied().await;
        let _: Option<Seller> = db.create(("seller", "ada")).content(seller()).await.unwrap();
        db.query("UPDATE seller:ada SET address.geoPoint.altitude = 35")
            .await
            .unwrap()
            .check()
            .expect("a FLEXIBLE object takes a key it does not declare");
        let alt = surqlc::db::query_json(&db, q).await.expect("the engine answers");
        assert_eq!(alt, serde_json::json!([{ "alt": 35 }]));
    });
}

#[test]
fn comparisons_are_typed_by_the_sub_field() {
    let schema = schema();
    let found = errors(&schema, "SELECT * FROM seller WHERE address.kind = 'shiping' LIMIT 5");
    assert!(
        matches!(found.as_slice(), [(Class::ValueNotInUnion, message, fix)]
            if message.contains("seller.address.kind") && fix.contains("'shipping'")),
        "{found:#?}"
    );
    let found = errors(
        &schema,
        "SELECT * FROM product WHERE time.created_at > '2026-01-01' LIMIT 5",
    );
    assert!(!found.is_empty(), "a datetime compared with a string: {found:#?}");
}

#[test]
fn result_types_nest_as_the_engines_rows_do() {
    let schema = schema();
    let report = validate::validate(
        &schema,
        "SELECT name, seller.name, seller.address.city, images[0].url FROM product LIMIT 5",
    );
    assert_eq!(
        report.result.map(|t| t.to_string()).as_deref(),
        Some("array<{ name: string, seller: { name: string, address: { city: string } }, images: { url: option<string> } }>")
    );
    let report = validate::validate(&schema, "SELECT images[*].url FROM product LIMIT 5");
    assert_eq!(
        report.result.map(|t| t.to_string()).as_deref(),
        Some("array<{ images: { url: array<string> } }>")
    );
}

#[test]
fn a_literal_sub_field_gets_a_value_hint_from_the_rows() {
    let schema = schema();
    let hinted: Vec<String> = schema
        .settings
        .value_hints
        .iter()
        .map(surqlc::surql::hints::label)
        .collect();
    // The literal sub-fields' values, then the datetime sub-fields' spans (issue 41).
    assert_eq!(
        hinted,
        [
            "seller.address.kind",
            "seller.billing.kind",
            "product.time.created_at span",
            "product.time.updated_at span",
            "wishlist.time.created_at span",
            "wishlist.time.updated_at span"
        ]
    );
    let line = block_on(async {
        let db = applied().await;
        let _: Option<Seller> = db.create(("seller", "ada")).content(seller()).await.unwrap();
        surqlc::db::query_string(&db, "RETURN fn::value_hints()")
            .await
            .expect("the hints run")
    });
    assert!(line.contains("seller.address.kind: shipping"), "{line}");
}

/// The errors of the fixture with `from` replaced by `to` (which must occur once).
fn compile_errors(from: &str, to: &str) -> Vec<String> {
    let text = read(root().join("tests/fixtures/objects.rs"));
    assert_eq!(text.matches(from).count(), 1, "{from:?} occurs once");
    let file = surqlc::front::SourceFile {
        path: "objects.rs".into(),
        text: text.replace(from, to),
    };
    match surqlc::front::compile(&[file]) {
        Ok(_) => panic!("{to:?} must be an error"),
        Err(d) => {
            d.0.into_iter()
                .map(|d| format!("{}:{}: {}", d.line, d.column, d.message))
                .collect()
        }
    }
}

#[test]
fn what_an_object_cannot_be_is_an_error_at_its_place() {
    for (from, to, says) in [
        // An object inside itself has no end of sub-fields, directly or through another.
        ("    pub lon: f64,\n", "    pub lon: f64,\n    pub near: Option<Box<Geo>>,\n", "`Geo` contains itself"),
        ("    pub lon: f64,\n", "    pub lon: f64,\n    pub around: Vec<Address>,\n", "contains itself (Address → Geo → Address)"),
        // An index path through a sub-field that does not exist, with the nearest one.
        ("index(fields(address.country))", "index(fields(address.contry))", "`seller.address` has no sub-field `contry` to index; did you mean `country`?"),
        ("index(fields(address.country))", "index(fields(name.country))", "`name` is not an object"),
        ("    pub kind: AddressKind,", "    #[surqlc(flexible)]\n    pub kind: AddressKind,", "`flexible` is for object fields"),
        // `in`/`out` are a relation's.
        ("index(fields(address.country))", "index(fields(in, name))", "`Seller` has no field `in` to index"),
        // What decides the agent's access stays on the table's fields.
        ("    /// Street and number.\n", "    /// Street and number.\n    #[surqlc(hidden)]\n", "`permissions` and `hidden` are a table field's"),
        ("    pub lat: f64,\n", "    #[surqlc(computed = \"1\")]\n    pub lat: f64,\n", "`computed` is a table field's"),
        // `id` inside an object is a plain key (tests/flexible_paths.rs); `in`/`out` stay reserved.
        ("    pub lat: f64,\n", "    #[surqlc(rename = \"in\")]\n    pub lat: f64,\n", "`in` is reserved by SurrealDB"),
        ("    pub by: Option<Link<Seller>>,", "    pub by: Option<Link<Geo>>,", "`Geo` is an Object, stored inside the row, not a table"),
        ("#[surqlc(type = \"option<object> FLEXIBLE\")]\n    pub exif: Option<std::collections::BTreeMap<String, String>>,", "pub exif: serde_json::Value,",
            "`serde_json::Value` is not declared in the schema files, so surqlc cannot give its fields a schema: store any value with #[surqlc(type = \"any\")], or an object with any keys with #[surqlc(type = \"object FLEXIBLE\")]"),
    ] {
        let errors = compile_errors(from, to);
        assert!(errors.iter().any(|e| e.contains(says)), "{to:?} should say {says:?}: {errors:#?}");
    }
}

#[test]
fn a_struct_that_derives_surreal_value_is_told_to_derive_object() {
    let errors = compile_errors(
        "#[derive(Debug, Clone, PartialEq, Object)]\npub struct Geo",
        "#[derive(Debug, Clone, PartialEq, SurrealValue)]\npub struct Geo",
    );
    assert!(
        errors.iter().any(|e| e.contains(
            "`Geo` derives SurrealValue, which stores it but gives its fields no schema: #[derive(Object)] on `Geo`"
        )),
        "{errors:#?}"
    );
}

#[test]
fn a_doc_comment_on_the_id_is_a_warning_that_says_where_to_put_it() {
    let text = read(root().join("tests/fixtures/objects.rs")).replace(
        "pub struct Seller {\n    pub id: String,",
        "pub struct Seller {\n    /// The seller's handle.\n    pub id: String,",
    );
    let file = surqlc::front::SourceFile {
        path: "objects.rs".into(),
        text,
    };
    let (_, warnings) = surqlc::front::compile_with_warnings(&[file]).expect("a warning, not an error");
    assert!(
        warnings.iter().any(|w| w
            .message
            .contains("the doc comment on `Seller`'s `id` is not written anywhere")),
        "{warnings:#?}"
    );
}

#[test]
fn the_engine_refuses_what_an_object_refuses() {
    // `computed` in an Object is an error because the engine refuses a nested COMPUTED field.
    let refused = block_on(async {
        let db = loaded(&["DEFINE TABLE product SCHEMAFULL; DEFINE FIELD time ON product TYPE object;"]).await;
        surqlc::db::execute(&db, "DEFINE FIELD time.x ON product COMPUTED 1").await
    });
    let message = refused.expect_err("the engine refuses it").to_string();
    assert!(message.contains("`COMPUTED` fields must be top-level"), "{message}");
}
