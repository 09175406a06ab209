//! A relation with several tables at one end and a field linking several tables (`#[derive(Ends)]`): the schema, the engine's checks, the prompt block, the validator, pruning, drift and the derive.

#[path = "fixtures/ends.rs"]
#[allow(dead_code)]
mod fixture;

/// The generated module (tests/build.rs), compiled as an application compiles it.
#[deny(warnings)]
#[allow(dead_code)]
mod billing_db {
    include!(concat!(env!("OUT_DIR"), "/ends/schema.rs"));
}

use fixture::{Customer, Invoice, Party, Pays, Product, Supplier};
use surqlc::drift::{self, CompareOptions};
use surqlc::runtime::{Link, SurrealValue, Table};
use surqlc::surql::info;
use surqlc_tests::*;

fn output() -> surqlc::builder::Output {
    surqlc::Builder::new()
        .schema(root().join("tests/fixtures/ends.rs"))
        .cargo_metadata(false)
        .generate()
        .expect("schema compiles")
}

#[test]
fn the_schema_names_every_end() {
    let surql = output().schema_surql;
    for line in [
        "DEFINE TABLE OVERWRITE pays TYPE RELATION IN customer | supplier OUT invoice SCHEMAFULL",
        "DEFINE FIELD OVERWRITE addressee ON invoice TYPE record<customer | supplier>",
        "DEFINE FIELD OVERWRITE copy_to ON invoice TYPE option<record<customer | supplier>>",
    ] {
        assert!(surql.contains(line), "{line}\n{surql}");
    }
}

#[test]
fn the_engine_takes_either_table_and_refuses_another() {
    let out = output();
    block_on(async {
        let db = loaded(&[&out.schema_surql]).await;
        let run = |q: &'static str| {
            let db = db.clone();
            async move { surqlc::db::execute(&db, q).await }
        };
        for ok in [
            "CREATE invoice:i1 SET total = 100, addressee = customer:c1",
            "CREATE invoice:i2 SET total = 100, addressee = supplier:s1, copy_to = customer:c1",
            "RELATE customer:c1->pays->invoice:i1 SET amount = 50",
            "RELATE supplier:s1->pays->invoice:i2 SET amount = 50",
        ] {
            run(ok).await.unwrap_or_else(|e| panic!("{ok}: {e}"));
        }
        for refused in [
            "CREATE invoice:i3 SET total = 100, addressee = product:p1",
            "RELATE product:p1->pays->invoice:i1 SET amount = 50",
            "RELATE customer:c1->pays->customer:c2 SET amount = 50",
        ] {
            assert!(run(refused).await.is_err(), "{refused} must be refused");
        }
        // The block the database renders is the one surqlc renders statically.
        let live = surqlc::db::query_string(&db, "RETURN fn::schema_context()")
            .await
            .unwrap();
        assert_eq!(info::schema_block(&out.schema), live);
        assert!(
            live.contains("TYPE RELATION IN customer | supplier OUT invoice"),
            "{live}"
        );
    });
}

#[test]
fn a_freshly_applied_schema_has_no_drift() {
    let surql = output().schema_surql;
    block_on(async {
        let expected = drift::embedded_definitions(&surql).await.unwrap();
        let live = loaded(&[&surql]).await;
        let found = drift::compare(
            &expected,
            &drift::definitions(&live).await.unwrap(),
            CompareOptions::default(),
        );
        assert!(found.is_empty(), "{found}");
        // One end dropped from the relation on the server is reported.
        surqlc::db::execute(
            &live,
            "DEFINE TABLE OVERWRITE pays TYPE RELATION IN customer OUT invoice SCHEMAFULL COMMENT 'A payment of an invoice by a customer or a supplier.'",
        )
        .await
        .unwrap();
        let found = drift::compare(
            &expected,
            &drift::definitions(&live).await.unwrap(),
            CompareOptions::default(),
        );
        assert!(!found.is_empty(), "a dropped end is drift");
    });
}

#[test]
fn a_traversal_lands_on_either_table() {
    let schema = output().schema;
    for ok in [
        "SELECT ->pays->invoice AS paid FROM customer LIMIT 10",
        "SELECT ->pays->invoice AS paid FROM supplier LIMIT 10",
        "SELECT <-pays<-customer AS payers FROM invoice LIMIT 10",
        "SELECT <-pays<-supplier AS payers FROM invoice LIMIT 10",
        "SELECT <-pays<-? AS payers FROM invoice LIMIT 10",
        "SELECT in, out, amount FROM pays LIMIT 10",
    ] {
        let report = surqlc::validate::validate(&schema, ok);
        assert!(!report.has_errors(), "{ok}: {:?}", report.diagnostics);
    }
    for bad in [
        "SELECT <-pays<-product AS payers FROM invoice LIMIT 10",
        "SELECT ->pays->invoice AS paid FROM product LIMIT 10",
        "SELECT ->pays->customer AS paid FROM supplier LIMIT 10",
    ] {
        let report = surqlc::validate::validate(&schema, bad);
        assert!(report.has_errors(), "{bad} must be refused");
    }
    // The message names both tables of the end.
    let report = surqlc::validate::validate(&schema, "SELECT <-pays<-product AS p FROM invoice LIMIT 10");
    let text = format!("{:?}", report.diagnostics);
    assert!(text.contains("customer | supplier"), "{text}");
}

#[test]
fn pruning_brings_every_end_of_a_shown_relation() {
    let docs = surqlc::prune::table_docs(&output().schema);
    let pays = docs.iter().find(|d| d.name == "pays").unwrap();
    assert_eq!(pays.ends, ["customer", "supplier", "invoice"]);
    let supplier = docs.iter().find(|d| d.name == "supplier").unwrap();
    assert!(supplier.edges.contains(&("pays".into(), "invoice".into())));
    let product = docs.iter().find(|d| d.name == "product").unwrap();
    assert!(product.edges.is_empty());
}

#[test]
fn the_typed_helpers_reach_every_end() {
    let module = output().rust_module;
    for helper in [
        "fn pays_invoice",
        "fn customer_pays",
        "fn supplier_pays",
        "fn pays_edges_from",
        "fn pays_edges_to",
    ] {
        assert!(module.contains(helper), "{helper}");
    }
    assert!(module.contains("SELECT * FROM $id<-pays<-supplier"));
}

#[test]
fn the_generated_helpers_run_from_either_end() {
    block_on(async {
        let db = loaded(&[]).await;
        billing_db::apply_schema(&db).await.unwrap();
        surqlc::db::execute(
            &db,
            "CREATE customer:c1 SET name = 'Ada'; CREATE supplier:s1 SET name = 'Acme';
             CREATE invoice:i1 SET total = 100, addressee = customer:c1;
             RELATE customer:c1->pays->invoice:i1 SET amount = 60;
             RELATE supplier:s1->pays->invoice:i1 SET amount = 40;",
        )
        .await
        .unwrap();
        let i1 = Invoice::record("i1");
        let customers = billing_db::invoice::customer_pays(&db, &i1).await.unwrap();
        let suppliers = billing_db::invoice::supplier_pays(&db, &i1).await.unwrap();
        assert_eq!(customers.len(), 1);
        assert_eq!(suppliers.len(), 1);
        assert_eq!(suppliers[0].name, "Acme");
        let edges = billing_db::invoice::pays_edges_to(&db, &i1).await.unwrap();
        let mut payers: Vec<Party> = edges.iter().map(|e| e.r#in.clone()).collect();
        payers.sort_by_key(|p| matches!(p, Party::Supplier(_)));
        assert_eq!(
            payers,
            [Party::from(Customer::record("c1")), Party::from(Supplier::record("s1"))]
        );
        let paid = billing_db::supplier::pays_invoice(&db, &Supplier::record("s1"))
            .await
            .unwrap();
        assert_eq!(paid[0].addressee, Party::from(Customer::record("c1")));
    });
}

#[test]
fn the_derive_builds_the_compilers_tables_and_reads_either_end() {
    let out = output();
    for (name, ir, define) in [
        ("pays", Pays::table_ir(), Pays::define()),
        ("invoice", Invoice::table_ir(), Invoice::define()),
    ] {
        let compiled = out.schema.table(name).unwrap();
        assert_eq!(&ir, compiled, "{name}");
        assert_eq!(define, surqlc::surql::table_definition(compiled));
    }
    let c = Party::from(Customer::record("c1"));
    let value = c.clone().into_value();
    assert_eq!(Party::from_value(value).unwrap(), c);
    let s: Party = Supplier::record("s1").into();
    assert_eq!(Party::from_value(s.clone().into_value()).unwrap(), s);
    let err = Party::from_value(Link::<Product>::new("p1").into_value()).unwrap_err();
    assert!(err.to_string().contains("customer | supplier"), "{err}");
    assert_eq!(<Customer as Table>::TABLE, "customer");
}

#[test]
fn an_end_that_is_neither_a_link_nor_an_ends_enum_is_an_error() {
    let text = read(root().join("tests/fixtures/ends.rs")).replace("pub r#in: Party,", "pub r#in: Customer,");
    let file = surqlc::front::SourceFile {
        path: "ends.rs".into(),
        text,
    };
    let Err(errors) = surqlc::front::compile(&[file]) else {
        panic!("a table as a relation's end must be an error");
    };
    let text = errors.to_string();
    assert!(text.contains("`Customer` is not an enum deriving Ends"), "{text}");
}
