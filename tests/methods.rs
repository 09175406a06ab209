//! The validator's method table (SQ0803 UnknownMethod) against the embedded engine: for a value of each kind and every method name the engine registers, the validator says "no such method" exactly when SurrealDB 3.3.5 does.

use surqlc::validate::{self, Class};
use surqlc_tests::*;

/// A value of each kind the validator judges, as a query writes it.
const RECEIVERS: &[&str] = &[
    "'abc'",
    "[1, 2]",
    "3",
    "1.5f",
    "d'2024-01-01T00:00:00Z'",
    "1h",
    "customer:mei",
    "true",
    "u'0190d8f0-0000-7000-8000-000000000000'",
];

#[test]
fn every_method_on_every_kind_is_judged_as_the_engine_judges_it() {
    let store =
        surqlc::front::compile(&[surqlc::front::SourceFile::read(root().join("schemas/store.rs")).unwrap()]).unwrap();
    let mut names = validate::functions::method_names();
    names.extend(["nope", "year_of", "length"]);
    block_on(async {
        let output = builder("store").no_agent().generate().unwrap();
        let db = loaded(&[&output.schema_surql, &read(root().join("schemas/store.seed.surql"))]).await;
        let (mut disagreements, mut unknown) = (Vec::new(), 0);
        for receiver in RECEIVERS {
            for name in &names {
                let expr = format!("({receiver}).{name}()");
                let says = validate::validate(&store, &format!("SELECT VALUE {expr} FROM customer LIMIT 1"))
                    .has(Class::UnknownMethod);
                let engine =
                    match surqlc::db::query_json(&db, &format!("SELECT VALUE {expr} FROM ONLY customer:mei")).await {
                        Err(e) => e.to_string().contains("no such method"),
                        Ok(_) => false,
                    };
                unknown += usize::from(engine);
                if says != engine {
                    disagreements.push(format!("{expr}: validator {says}, engine {engine}"));
                }
            }
        }
        assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
        assert!(unknown > 500, "{unknown} unknown methods seen");
    });
}
