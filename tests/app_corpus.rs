//! The application's profile on real application statements (issue 51): every statement of `tests/corpus/app_*.surql` (reads and writes over two schemas) has no diagnostic and runs on the embedded engine, in file order, on the schema's seed.

use surqlc::validate::{self, Options};
use surqlc_tests::*;

fn corpus(schema: &str) -> usize {
    let text = read(root().join(format!("tests/corpus/app_{schema}.surql")));
    let pieces = validate::split_statements(&text);
    let output = builder(schema).no_agent().generate().unwrap();
    let mut failures = Vec::new();
    block_on(async {
        let seed = read(root().join(format!("schemas/{schema}.seed.surql")));
        let db = loaded(&[&output.schema_surql, &seed]).await;
        for p in &pieces {
            let report = validate::validate_with(&output.schema, &p.text, &Options::for_app());
            if !report.diagnostics.is_empty() {
                failures.push(format!("line {}: {}\n{}", p.line, p.text, report.render(&p.text)));
            }
            if let Err(e) = surqlc::db::query_json(&db, &p.text).await {
                failures.push(format!("line {}: the engine refuses {}: {e}", p.line, p.text));
            }
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    pieces.len()
}

#[test]
fn the_application_statements_of_two_schemas_pass_and_run() {
    let store = corpus("store");
    let marketplace = corpus("marketplace");
    assert!(store + marketplace >= 80, "{store} + {marketplace} statements");
}

#[test]
fn statements_split_as_the_engine_reads_them() {
    let text = "SELECT 1;\n-- surqlc: allow(SQ0204) reason=\"x\"\nFOR $x IN [1, 2] { CREATE t SET v = $x; UPDATE t SET w = 1; };\n\nBEGIN; CREATE a; CREATE b; COMMIT;\nRETURN 'a;b'";
    let pieces = validate::split_statements(text);
    let texts: Vec<&str> = pieces.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "SELECT 1;",
            "-- surqlc: allow(SQ0204) reason=\"x\"\nFOR $x IN [1, 2] { CREATE t SET v = $x; UPDATE t SET w = 1; };",
            "BEGIN; CREATE a; CREATE b; COMMIT;",
            "RETURN 'a;b'"
        ]
    );
    assert_eq!(pieces.iter().map(|p| p.line).collect::<Vec<_>>(), [1, 2, 5, 6]);
}
