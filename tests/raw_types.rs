//! Hand-written types (`#[surqlc(type = "...")]`) are read once by `surql::kind`; what the static
//! rendering prints for them is what the engine's `INFO` prints, for any type the reader accepts.

use proptest::prelude::*;
use surqlc::ir::Type;
use surqlc::surql::{info, kind};
use surqlc_tests::loaded;

/// SurrealQL type text from the grammar `surql::kind` reads.
fn kind_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![prop::sample::select(vec![
        "any",
        "bool",
        "int",
        "float",
        "string",
        "datetime",
        "decimal",
        "duration",
        "uuid",
        "bytes",
        "object",
        "number",
        "record",
        "record<book>",
        "record<a | b>",
        "geometry<point>",
        "geometry<point | polygon>",
        "true",
        "'x'",
        "\"it's\"",
        "-3",
        "7",
    ])
    .prop_map(String::from),];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|k| format!("option<{k}>")),
            (inner.clone(), prop::option::of(1..5u8)).prop_map(|(k, n)| match n {
                Some(n) => format!("array<{k}, {n}>"),
                None => format!("array<{k}>"),
            }),
            inner.clone().prop_map(|k| format!("set<{k}>")),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| v.join(" | ")),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| format!("[{}]", v.join(", "))),
            prop::collection::vec(inner, 1..3).prop_map(|v| {
                let keys = ["b", "a", "c"];
                let fields: Vec<String> = v.iter().zip(keys).map(|(k, key)| format!("{key}: {k}")).collect();
                format!("{{ {} }}", fields.join(", "))
            }),
        ]
    })
}

/// The engine's `INFO FOR TABLE t` line for field `f` after defining it with `text` on a fresh
/// table `t` (`table` is its kind), without its permissions. A fresh table each time: a field
/// redefined in place keeps the `f.*` element fields an earlier array type derived.
async fn engine_line(db: &surqlc::db::Db, table: &str, text: &str) -> Result<String, String> {
    let define = format!("REMOVE TABLE IF EXISTS t; DEFINE TABLE t {table}; DEFINE FIELD f ON t TYPE {text};");
    surqlc::db::execute(db, &define).await.map_err(|e| e.to_string())?;
    let info = surqlc::db::query_json(db, "INFO FOR TABLE t")
        .await
        .map_err(|e| e.to_string())?;
    let line = info["fields"]["f"].as_str().ok_or("no field f")?.to_owned();
    Ok(line.strip_suffix(" PERMISSIONS FULL").unwrap_or(&line).to_owned())
}

#[test]
fn the_static_rendering_of_a_raw_type_is_the_engines() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let db = rt.block_on(loaded(&[]));
    let checked = std::cell::Cell::new(0);
    let refused = std::cell::RefCell::new(Vec::new());
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 96,
        ..ProptestConfig::default()
    });
    runner
        .run(&kind_text(), |text| {
            let raw =
                kind::parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: the reader refused it: {e:?}")))?;
            let ours = info::field_line("t", "f", &Type::Raw(raw));
            match rt.block_on(engine_line(&db, "SCHEMALESS", &text)) {
                Ok(line) => {
                    prop_assert_eq!(line, ours, "type {}", text);
                    checked.set(checked.get() + 1);
                }
                // Types the engine refuses to store (none is generated on purpose) are not compared.
                Err(e) => {
                    refused.borrow_mut().push(format!("{text}: {e}"));
                    prop_assume!(false);
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| {
            panic!(
                "every accepted type prints as the engine prints it: {e}; the engine refused: {:#?}",
                refused.borrow().iter().take(5).collect::<Vec<_>>()
            )
        });
    assert!(checked.get() >= 48, "only {} types were compared", checked.get());
}

#[test]
fn clauses_follow_the_kind_verbatim() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let db = rt.block_on(loaded(&[]));
    for text in [
        "string ASSERT string::len($value) > 0",
        "option<int> DEFAULT 3",
        "object FLEXIBLE",
    ] {
        let raw = kind::parse(text).expect("a type with clauses");
        let ours = info::field_line("t", "f", &Type::Raw(raw));
        // FLEXIBLE needs a SCHEMAFULL table.
        let line = rt
            .block_on(engine_line(&db, "SCHEMAFULL", text))
            .expect("the engine takes it");
        assert_eq!(line, ours, "{text}");
    }
}
