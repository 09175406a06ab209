//! The derives and the compiler agree: for every table in `schemas/`, the derive's `DEFINE` text is the compiler's; derived types read and write rows.

use crate::{library, marketplace, meetings, memory, store};
use surqlc::runtime::{Link, Literal, Record, Relation, SurrealValue, Table};
use surqlc_tests::*;

/// Each derived table's `define()` against the compiler's `surql::table_definition`, by table name.
fn assert_agree(schema: &str, derived: &[(&str, String, surqlc::ir::Table)]) {
    let compiled = builder(schema).load().expect("schema compiles");
    assert_eq!(compiled.tables.len(), derived.len(), "{schema}: every table is checked");
    for (name, define, ir) in derived {
        let table = compiled
            .table(name)
            .unwrap_or_else(|| panic!("{schema}: no table {name}"));
        assert_eq!(ir, table, "{schema}.{name}: IR");
        assert_eq!(
            define,
            &surqlc::surql::table_definition(table),
            "{schema}.{name}: DEFINE text"
        );
    }
}

fn of<T: Table>() -> (&'static str, String, surqlc::ir::Table) {
    (T::TABLE, T::define(), T::table_ir())
}

#[test]
fn the_derive_defines_every_store_table_as_the_compiler_does() {
    use store::*;
    assert_agree(
        "store",
        &[
            of::<Customer>(),
            of::<Purchase>(),
            of::<Product>(),
            of::<Placed>(),
            of::<Contains>(),
        ],
    );
}

#[test]
fn the_derive_defines_every_library_table_as_the_compiler_does() {
    use library::*;
    assert_agree(
        "library",
        &[
            of::<Member>(),
            of::<Book>(),
            of::<Author>(),
            of::<Borrowed>(),
            of::<Wrote>(),
            of::<LoanAuditEntry>(),
        ],
    );
}

#[test]
fn the_derive_defines_every_memory_table_as_the_compiler_does() {
    assert_agree("memory", &[of::<memory::File>()]);
}

#[test]
fn the_derive_defines_every_meetings_table_as_the_compiler_does() {
    use meetings::*;
    assert_agree(
        "meetings",
        &[
            of::<Person>(),
            of::<Meeting>(),
            of::<Task>(),
            of::<Attended>(),
            of::<Discussed>(),
            of::<Assigned>(),
        ],
    );
}

#[test]
fn the_derive_defines_every_marketplace_table_as_the_compiler_does() {
    use marketplace::*;
    // The view too: `MonthlySales::define()` is `DEFINE TABLE ... TYPE NORMAL ... AS SELECT ...`.
    assert_agree(
        "marketplace",
        &[of::<Seller>(), of::<Product>(), of::<Order>(), of::<MonthlySales>()],
    );
    assert!(MonthlySales::define().contains(" TYPE NORMAL SCHEMAFULL COMMENT "));
    assert!(MonthlySales::table_ir().view.is_some());
}

#[test]
fn typed_ids_take_their_key_type() {
    use meetings::*;
    // `Meeting::record` takes the `i64` of `Meeting::id`, `Person::record` the `String`.
    let m: Link<Meeting> = Meeting::record(3);
    assert_eq!(m.to_string(), "meeting:3");
    assert_eq!(m.typed_key(), Some(3i64));
    let p = Person::record("Alice Chen");
    assert_eq!(p.typed_key().as_deref(), Some("Alice Chen"));
    assert_eq!(Meeting::table_ir().id, Some(surqlc::ir::Type::Int));
    // A table without an `id` field takes any key.
    let f = memory::File::record(7);
    assert_eq!(f.to_string(), "file:7");
}

#[test]
fn a_computed_field_is_read_but_never_written() {
    let file = memory::File {
        name: "a.md".into(),
        parent: None,
        parent_key: String::new(),
        content: Some("x".into()),
        path: "/ignored".into(),
        is_folder: true,
        created_at: Default::default(),
        updated_at: Default::default(),
        embedding: None,
    };
    let surqlc::runtime::Value::Object(object) = file.into_value() else {
        panic!("a row is an object");
    };
    assert!(object.get("path").is_none() && object.get("is_folder").is_none());
    assert!(object.get("parent_key").is_some());
}

#[test]
fn derived_types_expose_names_fields_and_ids() {
    use store::*;
    assert_eq!(Customer::TABLE, "customer");
    assert_eq!(<Contains as Table>::FIELDS, &["qty", "unit_price"]);
    assert_eq!(Contains::UNIT_PRICE, "unit_price");
    assert_eq!(library::Member::DISPLAY_NAME, "displayName");
    assert_eq!(<Contains as Relation>::In::TABLE, "purchase");
    assert_eq!(Customer::record("c1").to_string(), "customer:c1");
    assert_eq!(Tier::VALUES, &["free", "plus", "pro"]);
    assert_eq!(Tier::from_str("plus"), Some(Tier::Plus));
    assert_eq!(Country::ES.as_str(), "ES");
    assert_eq!(store::Store::NAME, "store");
}

#[test]
fn derived_types_read_and_write_rows_through_the_client() {
    use store::*;
    block_on(async {
        let schema = builder("store").generate().unwrap().schema_surql;
        let db = loaded(&[&schema, &read(root().join("schemas/store.seed.surql"))]).await;

        // Reading: typed rows with their ids.
        let mut customers: Vec<Record<Customer>> = db.select(Customer::TABLE).await.unwrap();
        customers.sort_by(|a, b| a.name.cmp(&b.name));
        assert!(!customers.is_empty());
        let first = &customers[0];
        let again: Option<Customer> = db.select(first.id.record_id()).await.unwrap();
        assert_eq!(again.as_ref(), Some(&first.data));

        // Writing: a new customer, then an edge between typed links.
        let ana = Customer {
            name: "Ana Test".into(),
            country: Country::ES,
            tier: Tier::Plus,
            joined: "2025-01-02T03:04:05Z".parse().unwrap(),
        };
        let created: Option<Record<Customer>> = db
            .create(Customer::record("ana").record_id())
            .content(ana.clone())
            .await
            .unwrap();
        let created = created.expect("created");
        assert_eq!(created.id, Customer::record("ana"));
        assert_eq!(created.data, ana);

        let edge: Vec<Record<Contains>> = db
            .query("SELECT * FROM contains LIMIT 1")
            .await
            .unwrap()
            .take(0)
            .unwrap();
        let line = &edge[0];
        assert_eq!(line.r#in.record_id().table.as_str(), "purchase");
        let written = line.data.clone().into_value();
        let back = Contains::from_value(written).unwrap();
        assert_eq!(&back, &line.data);
    });
}

#[test]
fn a_wrong_table_or_value_is_a_clear_conversion_error() {
    use store::*;
    let err = Link::<Customer>::from_value(surqlc::runtime::Value::RecordId(surqlc::runtime::RecordId::new(
        "product", "p1",
    )))
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("expected a record of table `customer`, found one of `product`"),
        "{err}"
    );
    let err = Tier::from_value(surqlc::runtime::Value::String("gold".into())).unwrap_err();
    assert!(
        err.to_string()
            .contains(r#"expected one of "free", "plus", "pro" for `Tier`"#),
        "{err}"
    );
}

#[test]
fn derived_types_round_trip_through_serde_with_the_schemas_names() {
    use store::*;
    let line = Contains {
        r#in: Purchase::record("p1"),
        out: Product::record("buds"),
        qty: 2,
        unit_price: "55.00".parse().unwrap(),
    };
    let json = serde_json::to_value(&line).unwrap();
    assert_eq!(json["qty"], 2);
    let back: Contains = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, line);
    // serde and the schema agree on names: rename_all on the enum, field names on the struct.
    let member = serde_json::to_value(library::Level::Staff).unwrap();
    assert_eq!(member, "staff");
    assert_eq!(<library::Level as Literal>::VALUES, &["JUNIOR", "ADULT", "staff"]);
    // A link to the wrong table is refused by serde too.
    let mut wrong = json;
    wrong["out"] = serde_json::to_value(Customer::record("mei")).unwrap();
    let err = serde_json::from_value::<Contains>(wrong).unwrap_err();
    assert!(
        err.to_string().contains("expected a record of table `product`"),
        "{err}"
    );
}

// A restaurant seat: its field `table` must not take the constant that names the table.
#[derive(Debug, Clone, PartialEq, surqlc_macros::Table)]
pub struct Seat {
    /// Which table the seat is at.
    pub table: u32,
    /// `#[surqlc(type)]` is written verbatim once checked.
    #[surqlc(type = "'window' | 'aisle'")]
    pub side: String,
    /// A Rust keyword as a field name.
    pub r#type: Option<String>,
    #[surqlc(skip)]
    pub r#match: u8,
}

#[test]
fn a_field_named_table_gets_table_field() {
    assert_eq!(Seat::TABLE, "seat");
    assert_eq!(Seat::TABLE_FIELD, "table");
    assert_eq!(
        Seat::define(),
        "DEFINE TABLE OVERWRITE seat SCHEMAFULL;\n\
         DEFINE FIELD OVERWRITE `table` ON seat TYPE int COMMENT \"Which table the seat is at.\";\n\
         DEFINE FIELD OVERWRITE side ON seat TYPE 'window' | 'aisle' COMMENT \"`#[surqlc(type)]` is written verbatim once checked.\";\n\
         DEFINE FIELD OVERWRITE type ON seat TYPE option<string> COMMENT \"A Rust keyword as a field name.\";"
    );
    assert_eq!(Seat::TYPE, "type");
    let seat = Seat {
        table: 4,
        side: "window".into(),
        r#type: Some("stool".into()),
        r#match: 7,
    };
    let back = Seat::from_value(seat.clone().into_value()).unwrap();
    assert_eq!((back.r#type.as_deref(), back.r#match), (Some("stool"), 0));
}

// A table whose struct carries its own record id.
#[derive(Debug, Clone, PartialEq, surqlc_macros::Table)]
pub struct Memo {
    pub id: Option<Link<Memo>>,
    pub body: String,
}

#[test]
fn a_record_keeps_the_id_for_a_type_that_has_one() {
    let mut row = surqlc::runtime::ObjectWriter::new();
    row.field("id", Memo::record("m1")).field("body", "hello".to_owned());
    let record = Record::<Memo>::from_value(row.finish()).unwrap();
    assert_eq!(record.id, Memo::record("m1"));
    assert_eq!(record.data.id, Some(Memo::record("m1")));
    assert_eq!(
        Memo::define(),
        "DEFINE TABLE OVERWRITE memo SCHEMAFULL;\nDEFINE FIELD OVERWRITE body ON memo TYPE string;"
    );
}
