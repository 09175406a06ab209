//! Bad schemas get every error at once, each with file, line and column, and no output file.

use surqlc::front::{compile, SourceFile};
use surqlc::Diagnostic;

fn errors(text: &str) -> Vec<Diagnostic> {
    let file = SourceFile {
        path: "schemas/bad.rs".into(),
        text: text.to_owned(),
    };
    compile(&[file]).expect_err("the schema is rejected").0
}

/// `(line, column, message fragment)` of each error, in order.
fn positions(text: &str) -> Vec<(usize, usize, String)> {
    errors(text)
        .into_iter()
        .map(|d| (d.line, d.column, d.message))
        .collect()
}

fn assert_one(text: &str, line: usize, column: usize, fragment: &str) {
    let found = positions(text);
    assert_eq!(found.len(), 1, "one error expected: {found:#?}");
    let (l, c, m) = &found[0];
    assert_eq!((*l, *c), (line, column), "position of {m:?}");
    assert!(m.contains(fragment), "{m:?} should mention {fragment:?}");
}

#[test]
fn malformed_rust() {
    assert_one(
        "#[derive(Table)]\npub struct Customer {\n    pub name: String\n    pub age: u8,\n}\n",
        4,
        5,
        "expected",
    );
}

#[test]
fn unknown_attribute() {
    assert_one("#[derive(Table)]\npub struct Customer {\n    #[surqlc(renmae = \"n\")]\n    pub name: String,\n}\n", 3, 14, "unknown surqlc attribute `renmae`");
}

#[test]
fn unsupported_field_type() {
    assert_one(
        "use std::collections::HashMap;\n#[derive(Table)]\npub struct Customer {\n    pub tags: HashMap<String, u32>,\n}\n",
        4,
        15,
        "unsupported field type `HashMap<String, u32>`",
    );
}

#[test]
fn enum_variant_with_data() {
    assert_one("#[derive(Literal)]\npub enum Tier {\n    Free,\n    Paid(u32),\n}\n#[derive(Table)]\npub struct T {}\n", 4, 5, "carries data");
}

#[test]
fn duplicate_table_names() {
    assert_one(
        "#[derive(Table)]\npub struct Customer {}\n#[derive(Table)]\n#[surqlc(rename = \"customer\")]\npub struct Client {}\n",
        4,
        19,
        "two tables are named `customer`",
    );
}

#[test]
fn relation_end_that_is_not_a_table() {
    let text = "#[derive(Table)]\npub struct Customer {}\n#[derive(Literal)]\npub enum Tier { Free }\n\
                #[derive(Relation)]\npub struct Placed {\n    pub r#in: Link<Customer>,\n    pub out: Link<Tier>,\n}\n";
    assert_one(text, 8, 19, "`Tier` is a literal enum, not a table");
    let text = "#[derive(Table)]\npub struct Customer {}\n#[derive(Relation)]\npub struct Placed {\n    pub r#in: Link<Customer>,\n    pub out: Link<Order>,\n}\n";
    assert_one(text, 6, 19, "`Order` is not a table");
}

#[test]
fn every_error_is_reported_in_one_run() {
    let text = "#[derive(Table)]\n#[surqlc(colour = \"red\")]\npub struct Customer {\n    pub tags: std::collections::HashSet<String>,\n    pub tier: Tier,\n}\n\
                #[derive(Literal)]\npub enum Tier { Free, Paid { months: u8 } }\n";
    let found = positions(text);
    let messages: Vec<&str> = found.iter().map(|(_, _, m)| m.as_str()).collect();
    assert_eq!(found.len(), 3, "{messages:#?}");
    assert!(messages[0].contains("unknown surqlc attribute `colour`"));
    assert!(messages[1].contains("unsupported field type"));
    assert!(messages[2].contains("carries data"));
}

#[test]
fn diagnostics_render_like_rustc() {
    let text = "#[derive(Table)]\npub struct Customer {\n    pub tags: Vec<(u8, u8)>,\n}\n";
    let shown = errors(text)[0].to_string();
    let want = "error: unsupported field type `(u8, u8)`; give its SurrealQL type with #[surqlc(type = \"...\")]\n  \
                --> schemas/bad.rs:3:19\n  |\n3 |     pub tags: Vec<(u8, u8)>,\n  |                   ^^^^^^^^";
    assert_eq!(shown, want);
}

#[test]
fn hostile_doc_comment_is_not_an_error_and_never_panics() {
    let text = "/// '\"\\ -- ; ⟩ 😀 שלום\n#[derive(Table)]\npub struct Customer {\n    #[doc = \"a\\u{0}b\"]\n    pub name: String,\n}\n";
    let file = SourceFile {
        path: "x.rs".into(),
        text: text.into(),
    };
    let schema = compile(&[file]).expect("compiles");
    assert_eq!(
        schema.tables[0].comment.as_deref(),
        Some("'\"\\ -- ; ⟩ 😀 שלום")
    );
}

#[test]
fn doc_comment_macro_is_rejected_with_position() {
    assert_one(
        "#[doc = include_str!(\"x.md\")]\n#[derive(Table)]\npub struct T {}\n",
        1,
        9,
        "literal doc comments",
    );
}

#[test]
fn no_output_file_when_the_schema_is_bad() {
    let dir = std::env::temp_dir().join(format!("surqlc-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("bad.rs");
    std::fs::write(&schema, "#[derive(Table)]\npub struct T { pub x: Foo }\n").unwrap();
    let out = dir.join("out");
    let err = surqlc::Builder::new()
        .schema(&schema)
        .out_dir(&out)
        .cargo_metadata(false)
        .compile()
        .unwrap_err();
    assert!(err.to_string().contains("bad.rs:2:23"), "{err}");
    assert!(!out.join("schema.surql").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn keyword_table_name_is_rejected() {
    assert_one(
        "#[derive(Table)]\n#[surqlc(rename = \"select\")]\npub struct Picked {\n    pub name: String,\n}\n",
        2,
        19,
        "SurrealQL keyword",
    );
}

#[test]
fn nested_option_is_rejected() {
    assert_one(
        "#[derive(Table)]\npub struct Note {\n    pub due: Option<Option<String>>,\n}\n",
        3,
        14,
        "Option<Option<T>>",
    );
}

#[test]
fn attribute_and_lookup_errors_come_in_one_run() {
    let found = positions(
        "#[derive(Schema)]\n#[surqlc(expose(Thing, Nope), agent(token = \"soon\"))]\npub struct S;\n\
         #[derive(Table)]\npub struct Thing {\n    #[surqlc(typ = \"int\")]\n    pub a: u8,\n    pub owner: Link<Owner>,\n}\n\
         #[derive(Table)]\npub struct Broken<T> {\n    pub t: T,\n}\n\
         #[derive(Table)]\npub struct UsesBroken {\n    pub b: Link<Broken>,\n}\n",
    );
    let messages: Vec<&str> = found.iter().map(|(_, _, m)| m.as_str()).collect();
    assert_eq!(found.len(), 5, "{found:#?}");
    assert!(messages[0].contains("invalid duration"), "{messages:?}");
    assert!(messages
        .iter()
        .any(|m| m.contains("unknown surqlc attribute `typ`")));
    assert!(messages.iter().any(|m| m.contains("cannot be generic")));
    assert!(messages
        .iter()
        .any(|m| m.contains("`Owner` is not a table")));
    assert!(messages.iter().any(|m| m.contains("`Nope` is not a table")));
}

#[test]
fn a_raw_type_that_would_end_the_statement_is_rejected() {
    assert_one(
        "#[derive(Table)]\npub struct Thing {\n    #[surqlc(type = \"string; REMOVE TABLE thing\")]\n    pub a: String,\n}\n",
        3,
        21,
        "is not a SurrealQL type: unexpected `;`",
    );
}
