//! `fn::value_hints_of` (the span and distinct-value hints read by one generic query over the rows of `$value_hint_specs`, `type::table`/`type::field`) proven on the embedded engine: line for line what each hint's own SurrealQL (`surql::hints::expression`, what `fn::value_hints()` ran before) gives, on every example schema with its data, for every table and for each table alone; and `type::field` reading the idioms the hints name (backticked, nested, keywords, through arrays) as the written idiom does.

use surqlc_tests::*;

/// Each hint's line from its own SurrealQL (`None` when it prints none), with the table it describes.
async fn own_lines(db: &surqlc::db::Db, schema: &surqlc::ir::Schema) -> Vec<(Option<String>, Option<String>)> {
    let mut out = Vec::new();
    for hint in &schema.settings.value_hints {
        let query = format!("RETURN {}", surqlc::surql::hints::expression(hint));
        let mut response = db.query(&query).await.and_then(|r| r.check()).expect(&query);
        let line: Option<String> = response.take(0).expect(&query);
        out.push((hint.table().map(str::to_owned), line));
    }
    out
}

async fn text(db: &surqlc::db::Db, query: &str) -> String {
    let mut response = db.query(query).await.and_then(|r| r.check()).expect(query);
    let value: Option<String> = response.take(0).expect(query);
    value.expect(query)
}

#[test]
fn the_generic_hints_give_each_hints_own_line_on_every_example_schema() {
    block_on(async {
        for name in ["store", "clinic", "enterprise", "marketplace", "meetings", "memory"] {
            let output = builder(name).generate().expect("the schema compiles");
            let seed = read(root().join(format!("schemas/{name}.seed.surql")));
            let db = loaded(&[&output.schema_surql, &seed]).await;
            let path = root().join(format!("schemas/{name}.rs"));
            let schema = surqlc::front::compile(&[surqlc::front::SourceFile::read(path).unwrap()]).unwrap();
            let own = own_lines(&db, &schema).await;
            assert!(own.iter().any(|(_, l)| l.is_some()), "{name}: some hint prints a line");
            let all: Vec<&str> = own.iter().filter_map(|(_, l)| l.as_deref()).collect();
            assert_eq!(
                text(&db, "RETURN fn::value_hints()").await,
                all.join("\n"),
                "{name}: every table"
            );
            let mut tables: Vec<&String> = own.iter().filter_map(|(t, _)| t.as_ref()).collect();
            tables.dedup();
            for table in tables {
                let mine: Vec<&str> = own
                    .iter()
                    .filter(|(t, _)| t.is_none() || t.as_ref() == Some(table))
                    .filter_map(|(_, l)| l.as_deref())
                    .collect();
                let query = format!("RETURN fn::value_hints_of([{}])", surqlc::surql::quote_string(table));
                assert_eq!(text(&db, &query).await, mine.join("\n"), "{name}: {table} alone");
            }
            assert_eq!(
                text(&db, "RETURN fn::value_hints_of([])").await,
                own.iter()
                    .filter(|(t, _)| t.is_none())
                    .filter_map(|(_, l)| l.as_deref())
                    .collect::<Vec<_>>()
                    .join("\n"),
                "{name}: no table: the notes alone"
            );
        }
    });
}

/// The engine: `type::field` reads a backticked name, a nested path, a keyword and a path through an
/// array of objects as the written idiom does, and `type::table` names the table to read.
#[test]
fn type_field_reads_the_idioms_hints_name_as_written() {
    block_on(async {
        let db = loaded(&[
            "CREATE tfx:1 SET `odd-name` = d'2024-01-02T00:00:00Z', nest = { `in`: 3, deep: { at: d'2023-05-06T00:00:00Z' } }, arr = [{ sku: 'a' }, { sku: 'b' }];",
        ])
        .await;
        for idiom in ["`odd-name`", "nest.deep.at", "nest.`in`", "arr.*.sku"] {
            let written = format!("RETURN (SELECT VALUE {idiom} FROM tfx)");
            let dynamic = format!(
                "RETURN (SELECT VALUE type::field({}) FROM type::table('tfx'))",
                surqlc::surql::quote_string(idiom)
            );
            let mut a = db.query(&written).await.and_then(|r| r.check()).expect(&written);
            let mut b = db.query(&dynamic).await.and_then(|r| r.check()).expect(&dynamic);
            let a: surrealdb::types::Value = a.take(0).unwrap();
            let b: surrealdb::types::Value = b.take(0).unwrap();
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "{idiom}");
            assert!(!format!("{a:?}").contains("None"), "{idiom}: {a:?}");
        }
    });
}
