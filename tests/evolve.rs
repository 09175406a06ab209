//! `surqlc plan`/`apply` on the seeded store (issue 39): `Customer::joined` renamed to `joined_at` and `Tier::Plus` dropped is refused with the rows named; with `renamed_from` and the data moved it applies in one transaction and every row stays writable; a failed statement mid-plan changes nothing; a removal of a field with values needs `allow_data_loss`.

use surqlc::builder::Output;
use surqlc::db::{self, Db};
use surqlc::evolve::{self, Action, PlanOptions, Verdict};
use surqlc_tests::*;

const PASSWORD: &str = "evolve-test";

/// The store's schema file with each `(from, to)` replaced once (each must be there).
fn store_changed(name: &str, edits: &[(&str, &str)]) -> Output {
    let mut text = read(root().join("schemas/store.rs"));
    for (from, to) in edits {
        assert!(text.contains(from), "{from:?} is in schemas/store.rs");
        text = text.replacen(from, to, 1);
    }
    let mut b = surqlc::Builder::new();
    b.schema(schema_file(name, &text))
        .cargo_metadata(false)
        .agent_password(PASSWORD);
    b.generate().expect("the changed store compiles")
}

const RENAME: (&str, &str) = ("    pub joined: Datetime,", "    pub joined_at: Datetime,");
const RENAMED_FROM: (&str, &str) = (
    "    pub joined: Datetime,",
    "    #[surqlc(renamed_from = \"joined\")]\n    pub joined_at: Datetime,",
);
const DROP_PLUS: (&str, &str) = ("    Free,\n    Plus,\n", "    Free,\n");

/// The store as built and seeded: the database the changed schema meets.
async fn seeded_store() -> Db {
    let store = builder("store")
        .agent_password(PASSWORD)
        .generate()
        .expect("the store compiles");
    loaded(&[&store.schema_surql, &read(root().join("schemas/store.seed.surql"))]).await
}

async fn json(conn: &Db, q: &str) -> serde_json::Value {
    db::query_json(conn, q).await.expect("the query runs")
}

/// What a failed apply must leave as it was: the customer table's definitions and rows.
async fn snapshot(conn: &Db) -> (serde_json::Value, serde_json::Value) {
    (
        json(conn, "INFO FOR TABLE customer").await,
        json(conn, "SELECT * FROM customer ORDER BY id").await,
    )
}

#[test]
fn the_renamed_and_narrowed_store_is_planned_with_the_rows_it_breaks() {
    block_on(async {
        let conn = seeded_store().await;
        let output = store_changed("evolve_plan", &[RENAME, DROP_PLUS]);
        let plan = evolve::plan(&conn, &output, PlanOptions::default()).await.unwrap();
        let text = plan.to_string();
        let step = |name: &str| {
            plan.steps
                .iter()
                .find(|s| s.name == name)
                .unwrap_or_else(|| panic!("{name}:\n{text}"))
        };
        match &step("joined_at ON customer").verdict {
            Verdict::Breaks { rows, ids, reason } => {
                assert_eq!(*rows, 5, "{text}");
                assert!(ids.contains(&"customer:ines".to_owned()), "{text}");
                assert!(reason.contains("joined_at"), "{reason}");
            }
            other => panic!("{other:?}\n{text}"),
        }
        match &step("tier ON customer").verdict {
            Verdict::Breaks { rows: 1, ids, .. } => assert_eq!(ids, &["customer:omar"], "{text}"),
            other => panic!("{other:?}\n{text}"),
        }
        let joined = step("joined ON customer");
        assert_eq!(joined.action, Action::Remove);
        assert!(matches!(joined.verdict, Verdict::LosesData { rows: 5, .. }), "{text}");
        assert!(!joined.applied, "kept without allow_data_loss: {text}");
        assert!(!plan.is_safe());
        assert!(
            plan.warnings
                .iter()
                .any(|w| w.contains("customer.tier") && w.contains("'plus'")),
            "{:?}",
            plan.warnings
        );
        assert!(text.contains("BREAKS 1 row (customer:omar)"), "{text}");
        let json = serde_json::to_value(&plan).unwrap();
        assert_eq!(json["steps"].as_array().map(Vec::len), Some(plan.steps.len()));
        // The unchanged store against itself: nothing to do.
        let same = builder("store").agent_password(PASSWORD).generate().unwrap();
        let plan = evolve::plan(&conn, &same, PlanOptions::default()).await.unwrap();
        assert!(plan.steps.is_empty() && plan.is_safe(), "{plan}");
    });
}

#[test]
fn apply_refuses_a_plan_that_breaks_rows_and_names_them() {
    block_on(async {
        let conn = seeded_store().await;
        let before = snapshot(&conn).await;
        let output = store_changed("evolve_refused", &[RENAME, DROP_PLUS]);
        let refused = evolve::apply(&conn, &output, PlanOptions::default(), false)
            .await
            .unwrap_err();
        let message = refused.to_string();
        assert!(
            message.contains("customer:omar") && message.contains("customer:ines"),
            "{message}"
        );
        assert!(message.contains("nothing was applied"), "{message}");
        assert_eq!(snapshot(&conn).await, before);
    });
}

#[test]
fn a_failed_statement_mid_plan_leaves_the_database_as_it_was() {
    block_on(async {
        let conn = seeded_store().await;
        let before = snapshot(&conn).await;
        // Told to apply anyway, the move of `joined` rewrites customer:omar, whose `plus` the new
        // tier type refuses: that statement fails after the definitions and the REMOVE ran.
        let output = store_changed("evolve_midway", &[RENAMED_FROM, DROP_PLUS]);
        let plan = evolve::plan(&conn, &output, PlanOptions::default()).await.unwrap();
        let move_at = plan
            .script
            .find("UPDATE customer SET joined_at = joined")
            .expect("the move is planned");
        assert!(plan.script[..move_at].contains("REMOVE FIELD IF EXISTS joined ON customer"));
        let failed = evolve::apply(&conn, &output, PlanOptions::default(), true)
            .await
            .unwrap_err();
        assert!(failed.to_string().contains("nothing was applied"), "{failed}");
        assert_eq!(snapshot(&conn).await, before);
    });
}

#[test]
fn a_rename_with_the_data_moved_applies_and_every_row_stays_writable() {
    block_on(async {
        let conn = seeded_store().await;
        let joined = json(&conn, "SELECT id, joined FROM customer ORDER BY id").await;
        // The data move a team writes for the dropped literal, then the plan.
        db::execute(&conn, "UPDATE customer SET tier = 'pro' WHERE tier = 'plus';")
            .await
            .unwrap();
        let output = store_changed("evolve_applies", &[RENAMED_FROM, DROP_PLUS]);
        let plan = evolve::plan(&conn, &output, PlanOptions::default()).await.unwrap();
        assert!(plan.is_safe(), "{plan}");
        assert!(
            plan.steps
                .iter()
                .any(|s| s.action == Action::Rename { from: "joined".into() } && s.name == "joined_at ON customer"),
            "{plan}"
        );
        assert!(plan.warnings.is_empty(), "{:?}", plan.warnings);
        evolve::apply(&conn, &output, PlanOptions::default(), false)
            .await
            .expect("the plan applies");
        db::execute(&conn, "UPDATE customer SET name = name;")
            .await
            .expect("every customer row is writable");
        let moved = json(&conn, "SELECT id, joined_at AS joined FROM customer ORDER BY id").await;
        assert_eq!(moved, joined, "every value of joined is in joined_at");
        let left = json(&conn, "SELECT VALUE joined FROM customer WHERE joined != NONE").await;
        assert_eq!(left, serde_json::json!([]));
        let drift = surqlc::drift::diff::drift_on(&conn, &output, false).await.unwrap();
        assert!(drift.is_empty(), "the diff is empty after the apply:\n{drift}");
        let block = db::query_string(&conn, "RETURN fn::schema_context()").await.unwrap();
        assert!(block.contains("joined_at") && !block.contains("joined ON"), "{block}");
        assert!(!block.contains("plus"), "the hints follow the rows: {block}");
        let again = evolve::plan(&conn, &output, PlanOptions::default()).await.unwrap();
        assert!(again.steps.is_empty(), "{again}");
    });
}

#[test]
fn a_removed_field_with_values_needs_allow_data_loss() {
    block_on(async {
        let conn = seeded_store().await;
        let before = snapshot(&conn).await;
        let output = store_changed(
            "evolve_removal",
            &[("    /// When the account was created.\n    pub joined: Datetime,\n", "")],
        );
        let refused = evolve::apply(&conn, &output, PlanOptions::default(), false)
            .await
            .unwrap_err();
        assert!(
            refused.to_string().contains("remove field joined ON customer"),
            "{refused}"
        );
        assert!(refused.to_string().contains("--allow-data-loss"), "{refused}");
        assert_eq!(snapshot(&conn).await, before);
        let options = PlanOptions {
            allow_data_loss: true,
            ..PlanOptions::default()
        };
        evolve::apply(&conn, &output, options, false)
            .await
            .expect("applied when allowed");
        db::execute(&conn, "UPDATE customer SET name = name;")
            .await
            .expect("every customer row is writable");
        let left = json(&conn, "SELECT VALUE joined FROM customer WHERE joined != NONE").await;
        assert_eq!(left, serde_json::json!([]));
        let drift = surqlc::drift::diff::drift_on(&conn, &output, false).await.unwrap();
        assert!(drift.is_empty(), "{drift}");
    });
}

#[test]
fn a_renamed_table_moves_its_rows_with_their_keys() {
    block_on(async {
        let conn = seeded_store().await;
        // Product renamed to Item: every `Link<Product>` now names the item table.
        let output = {
            let mut text = read(root().join("schemas/store.rs"));
            text = text.replacen(
                "#[surqlc(shared)]\npub struct Product {",
                "#[surqlc(shared, renamed_from = \"product\")]\npub struct Item {",
                1,
            );
            text = text
                .replace("Link<Product>", "Link<Item>")
                .replace(
                    "expose(Customer, Placed, Purchase, Contains, Product)",
                    "expose(Customer, Placed, Purchase, Contains, Item)",
                )
                .replace("Product::category", "Item::category");
            let mut b = surqlc::Builder::new();
            b.schema(schema_file("evolve_table", &text))
                .cargo_metadata(false)
                .agent_password(PASSWORD);
            b.generate().expect("the renamed store compiles")
        };
        let plan = evolve::plan(&conn, &output, PlanOptions::default()).await.unwrap();
        assert!(
            plan.steps
                .iter()
                .any(|s| s.action == Action::Rename { from: "product".into() } && s.name == "item"),
            "{plan}"
        );
        let names = json(&conn, "SELECT VALUE name FROM product ORDER BY id").await;
        // The contains edges still point at product:... ids, which the new `out` type refuses: breaking, told to apply.
        let applied = evolve::apply(&conn, &output, PlanOptions::default(), true).await;
        applied.unwrap_or_else(|e| panic!("{e}\n{plan}"));
        assert_eq!(json(&conn, "SELECT VALUE name FROM item ORDER BY id").await, names);
        assert_eq!(
            json(&conn, "SELECT VALUE name FROM item:soundbar").await,
            serde_json::json!(["Compact Soundbar"])
        );
        db::execute(&conn, "UPDATE item SET name = name;")
            .await
            .expect("every item row is writable");
    });
}

#[test]
fn audit_live_warns_when_rows_hold_a_value_the_literal_union_dropped() {
    block_on(async {
        let output = store_changed("evolve_audit", &[DROP_PLUS]);
        let options = surqlc::audit::AuditOptions {
            encoding: surqlc::tokens::Encoding::O200kBase,
            budget: Default::default(),
            live: true,
            question: Some(surqlc::audit::QuestionOptions {
                question: "Which customers are on the pro tier?".into(),
                vector: vec![0.0, 1.0, 0.0, 0.0],
                // `OPTION IMPORT` first: the seed loads without the field checks, `plus` and all.
                seed: Some(root().join("schemas/store.seed.surql")),
            }),
        };
        let findings = surqlc::audit::audit(&output, &options).await.expect("the audit runs");
        assert!(
            findings
                .literal
                .iter()
                .any(|w| w.contains("customer.tier holds 'plus'")),
            "{:?}",
            findings.literal
        );
        assert!(findings.text().contains("warning: customer.tier holds 'plus'"));
    });
}

/// The same item for the derive (below) and the compiler (as text).
const RENAMED_ITEM: &str = r#"
#[derive(Schema)]
pub struct Shop;

/// A person who buys.
#[derive(serde::Serialize, serde::Deserialize, Table)]
#[surqlc(renamed_from = "client")]
pub struct Patron {
    /// When they joined.
    #[surqlc(renamed_from = "joined")]
    pub joined_at: Datetime,
}
"#;

mod renamed {
    use surqlc::runtime::Datetime;
    use surqlc_macros::Table;

    /// A person who buys.
    #[derive(serde::Serialize, serde::Deserialize, Table)]
    #[surqlc(renamed_from = "client")]
    pub struct Patron {
        /// When they joined.
        #[surqlc(renamed_from = "joined")]
        pub joined_at: Datetime,
    }
}

#[test]
fn the_derive_and_the_compiler_read_renamed_from_alike() {
    use surqlc::runtime::Table;
    let text = format!("use surqlc::runtime::Datetime;\nuse surqlc_macros::{{Schema, Table}};\n{RENAMED_ITEM}");
    let mut b = surqlc::Builder::new();
    b.schema(schema_file("evolve_renamed_item", &text))
        .cargo_metadata(false);
    let compiled = b.load().expect("the item compiles");
    let derived = renamed::Patron::table_ir();
    assert_eq!(compiled.tables[0], derived);
    assert_eq!(derived.renamed_from.as_deref(), Some("client"));
    assert_eq!(derived.fields[0].renamed_from.as_deref(), Some("joined"));
    let bad = text.replace("renamed_from = \"joined\"", "renamed_from = \"joined at\"");
    let mut b = surqlc::Builder::new();
    b.schema(schema_file("evolve_renamed_bad", &bad)).cargo_metadata(false);
    let error = b.load().unwrap_err().to_string();
    assert!(
        error.contains("`renamed_from` takes the previous name") && error.contains(".rs:"),
        "{error}"
    );
}
