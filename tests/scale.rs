//! Counting the schema block from its tables (what keeps the audit linear) gives exactly the tokens of the whole block, in every encoding and rendering; the synthetic schemas of the scale bench compile.

#[path = "../compiler/benches/support/synthetic.rs"]
mod synthetic;

use surqlc::ir::{Field, Schema, Settings, Table, TableKind};
use surqlc::surql::info::{self as render, Rendering};
use surqlc::tokens::{self, Encoding};
use surqlc_tests::*;

fn assert_block_counts(schema: &Schema, what: &str) {
    for encoding in Encoding::ALL {
        for rendering in [Rendering::Engine, Rendering::Compact] {
            let cost = tokens::block_cost(schema, rendering, encoding);
            let block = render::schema_block_as(schema, rendering);
            assert_eq!(
                cost.block_tokens,
                encoding.count(&block),
                "{what}: {encoding}, {} rendering",
                rendering.name()
            );
            assert_eq!(cost.block_chars, block.chars().count(), "{what}");
            assert_eq!(cost.tables.len(), schema.settings.exposed.len(), "{what}");
            // Each table's count, summed line by line, is its block counted whole.
            let access = surqlc::access::Access::of(schema);
            for (table, counted) in schema.exposed_tables().zip(&cost.tables) {
                let text = render::table_block_as(&access, table, rendering);
                assert_eq!(counted.tokens, encoding.count(&text), "{what}: {}", table.name);
            }
        }
    }
}

#[test]
fn block_tokens_equal_counting_the_whole_block_for_every_schema() {
    for file in schema_files() {
        let schema = surqlc::Builder::new()
            .schema(&file)
            .cargo_metadata(false)
            .load()
            .unwrap();
        assert_block_counts(&schema, &file.display().to_string());
    }
}

#[test]
fn block_tokens_equal_counting_the_whole_block_for_a_large_schema() {
    // Over 256 tables, so the tables are counted on several threads.
    let file = schema_file("scale_synthetic", &synthetic::source(600));
    let schema = surqlc::Builder::new()
        .schema(&file)
        .cargo_metadata(false)
        .load()
        .expect("the synthetic schema compiles");
    assert_eq!(schema.tables.len(), 600);
    assert_eq!(schema.settings.exposed.len(), 600);
    assert_block_counts(&schema, "600 synthetic tables");
}

/// Comments that end in punctuation, spaces, line breaks written as escapes, digits, quotes and
/// other scripts: whatever ends a table's last line, the blank line after it counts the same.
#[test]
fn block_tokens_equal_counting_the_whole_block_whatever_ends_a_table() {
    let endings = [
        "ends in a full stop.",
        "ends in spaces   ",
        "ends in a line break\n",
        "ends in two\n\n",
        "ends in CRLF\r\n",
        "ends in a digit 42",
        "ends in 'quotes'",
        "ends in \"double\"",
        "ends in a backslash \\",
        "ends in -- a comment",
        "ends in ;",
        "ends in emoji 😀",
        "ends in שלום",
        "ends in \u{2028}",
        "",
    ];
    let tables: Vec<Table> = endings
        .iter()
        .enumerate()
        .map(|(i, ending)| Table {
            name: format!("t{i}"),
            rust_name: format!("T{i}"),
            comment: Some((*ending).to_owned()),
            kind: if i % 3 == 2 {
                TableKind::Relation {
                    from: vec![format!("t{}", i - 2)],
                    to: vec![format!("t{}", i - 1)],
                }
            } else {
                TableKind::Normal
            },
            fields: if i % 2 == 0 {
                vec![Field {
                    name: "f".into(),
                    rust_name: "f".into(),
                    ty: surqlc::__private::raw_type(&format!("string ASSERT $value != '{i}'")),
                    comment: Some((*ending).to_owned()),
                    clauses: Default::default(),
                    aka: Vec::new(),
                    fields: Vec::new(),
                    renamed_from: None,
                }]
            } else {
                Vec::new()
            },
            schemaless: false,
            enforced: false,
            id: None,
            permissions: None,
            indexes: Vec::new(),
            aka: Vec::new(),
            owner: None,
            view: None,
            renamed_from: None,
        })
        .collect();
    let schema = Schema {
        name: "endings".into(),
        rust_name: None,
        settings: Settings {
            exposed: tables.iter().map(|t| t.name.clone()).collect(),
            ..Default::default()
        },
        tables,
        enums: Vec::new(),
        analyzers: Vec::new(),
        functions: Vec::new(),
    };
    assert_block_counts(&schema, "endings");
}

#[test]
fn both_costs_are_the_two_block_costs() {
    let schema = builder("store").load().unwrap();
    for encoding in Encoding::ALL {
        let (active, other) = tokens::both_costs(&schema, encoding);
        let rendering = Rendering::of(&schema);
        assert_eq!(active, tokens::block_cost(&schema, rendering, encoding));
        assert_eq!(other, tokens::block_cost(&schema, rendering.other(), encoding));
    }
}
