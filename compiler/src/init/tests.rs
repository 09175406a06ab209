//! Unit tests of `init`: SurrealQL in, Rust that surqlc's own front end compiles out.

use super::*;

fn options() -> Options {
    Options {
        schema_type: "Shop".into(),
        functions_file: "shop.functions.surql".into(),
        from: "shop.surql".into(),
    }
}

fn run(text: &str) -> Init {
    init(
        &[Source {
            name: "shop.surql".into(),
            text: text.into(),
        }],
        &options(),
    )
    .unwrap()
}

/// The written file compiled by the front end (the functions file beside it).
fn compile(out: &Init) -> crate::ir::Schema {
    let dir = std::env::temp_dir().join(format!(
        "surqlc-init-unit-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    if let Some(f) = &out.functions {
        std::fs::write(dir.join("shop.functions.surql"), f).unwrap();
    }
    let file = crate::front::SourceFile {
        path: dir.join("shop.rs"),
        text: out.rust.clone(),
    };
    match crate::front::compile(&[file]) {
        Ok(schema) => schema,
        Err(e) => panic!("{e}\n{}", out.rust),
    }
}

#[test]
fn names_are_in_rust_style_and_the_database_names_are_kept() {
    let out = run("DEFINE TABLE room_alias SCHEMAFULL;\n\
        DEFINE FIELD firstName ON room_alias TYPE string;\n\
        DEFINE FIELD type ON room_alias TYPE int;\n\
        DEFINE FIELD kind ON room_alias TYPE 'two words' | 'x';\n\
        DEFINE TABLE userV2 SCHEMAFULL;\n\
        DEFINE FIELD owner ON userV2 TYPE option<record<room_alias>>;\n");
    for expected in [
        "pub struct RoomAlias {",
        "#[surqlc(rename = \"firstName\")]",
        "pub first_name: String,",
        "pub r#type: i64,",
        "#[surqlc(rename = \"userV2\")]",
        "pub owner: Option<Link<RoomAlias>>,",
        "#[serde(rename = \"two words\")]",
    ] {
        assert!(out.rust.contains(expected), "no {expected:?} in\n{}", out.rust);
    }
    let schema = compile(&out);
    let names: Vec<&str> = schema.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["room_alias", "userV2"]);
    let fields: Vec<&str> = schema.tables[0].fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(fields, ["firstName", "type", "kind"]);
    assert_eq!(
        schema.tables[0].fields[2].ty,
        crate::ir::Type::Literal(vec!["two words".into(), "x".into()])
    );
    assert!(
        out.left_out.is_empty() && out.choices.is_empty(),
        "{:?} {:?}",
        out.left_out,
        out.choices
    );
}

#[test]
fn what_the_grammar_cannot_say_is_noted_at_its_line() {
    let out = run("DEFINE TABLE t SCHEMAFULL;\n\
        DEFINE FIELD v ON t TYPE array<float, 3>;\n\
        DEFINE INDEX i ON t FIELDS v MTREE DIMENSION 3;\n\
        DEFINE EVENT e ON t THEN {};\n\
        DEFINE FIELD `first-name` ON t TYPE string;\n");
    let left: Vec<String> = out.left_out.iter().map(|n| n.to_string()).collect();
    assert!(
        left.iter()
            .any(|n| n.starts_with("shop.surql:3: ") && n.contains("MTREE")),
        "{left:?}"
    );
    assert!(
        left.iter().any(|n| n.starts_with("shop.surql:4: DEFINE EVENT")),
        "{left:?}"
    );
    assert!(
        left.iter().any(|n| n.starts_with("shop.surql:5: t.first-name")),
        "{left:?}"
    );
    assert!(out.rust.contains("//   shop.surql:4: DEFINE EVENT"), "{}", out.rust);
    compile(&out);
}

#[test]
fn a_statement_the_parser_refuses_is_an_error_at_its_line() {
    let source = Source {
        name: "shop.surql".into(),
        text: "DEFINE TABLE a SCHEMAFULL;\nDEFINE FIELD x ON a TYPE strin g;\n".into(),
    };
    let error = init(&[source], &options()).unwrap_err();
    assert!(error.0.starts_with("error: shop.surql:2:"), "{error}");
}

/// A view without `DEFINE FIELD`s gets its SELECT's columns, typed by the validator, and the file
/// passes the build's view check; one whose columns are not named (`*`) is named as unfinished.
#[test]
#[cfg(feature = "validate")]
fn a_view_without_fields_gets_its_selects_columns() {
    let out = run(
        "DEFINE TABLE post SCHEMAFULL;\nDEFINE FIELD author ON post TYPE string;\n\
        DEFINE FIELD stars ON post TYPE option<int>;\n\
        DEFINE TABLE per_author AS SELECT count() AS posts, author, math::max(stars) AS best FROM post GROUP BY author;\n",
    );
    assert!(out.left_out.is_empty(), "{:?}", out.left_out);
    let chose: Vec<String> = out.choices.iter().map(|n| n.to_string()).collect();
    assert!(
        chose
            .iter()
            .any(|n| n.starts_with("shop.surql:4: view per_author") && n.contains("posts: int")),
        "{chose:?}"
    );
    let view = compile(&out).table("per_author").expect("the view").clone();
    let names: Vec<&str> = view.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["posts", "author", "best"]);
    // The build checks each view's fields against its SELECT.
    let dir = std::env::temp_dir().join(format!("surqlc-init-view-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("shop.rs"), &out.rust).unwrap();
    let built = crate::Builder::new()
        .schema(dir.join("shop.rs"))
        .out_dir(&dir)
        .no_agent()
        .generate();
    assert!(built.is_ok(), "{}\n{}", built.unwrap_err(), out.rust);
    let out = run("DEFINE TABLE post SCHEMAFULL;\nDEFINE TABLE every_post AS SELECT * FROM post;\n");
    let left: Vec<String> = out.left_out.iter().map(|n| n.to_string()).collect();
    assert!(
        left.iter().any(|n| n.starts_with("shop.surql:2: view every_post")),
        "{left:?}"
    );
}

#[test]
fn a_view_of_every_field_gets_its_tables_fields() {
    // `SELECT *` copies each field of its table into the view's row (tests/document_engine.rs):
    // the view gets those fields with their types and comments, not the clauses that act on writes.
    let out = run(
        "DEFINE TABLE post SCHEMAFULL;\nDEFINE FIELD author ON post TYPE string ASSERT $value != '' COMMENT 'Who wrote it';\n\
        DEFINE FIELD stars ON post TYPE option<int> DEFAULT 0;\n\
        DEFINE TABLE starred AS SELECT *, stars > 3 AS loved FROM post WHERE stars > 1;\n",
    );
    assert!(out.left_out.is_empty(), "{:?}", out.left_out);
    let view = compile(&out).table("starred").expect("the view").clone();
    let fields: Vec<(&str, bool)> = view
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.clauses.is_empty()))
        .collect();
    assert_eq!(fields, [("author", true), ("stars", true), ("loved", true)]);
    assert_eq!(
        view.field("author").and_then(|f| f.comment.as_deref()),
        Some("Who wrote it")
    );
    let dir = std::env::temp_dir().join(format!("surqlc-init-view-star-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("shop.rs"), &out.rust).unwrap();
    let built = crate::Builder::new()
        .schema(dir.join("shop.rs"))
        .out_dir(&dir)
        .no_agent()
        .generate();
    assert!(built.is_ok(), "{}\n{}", built.unwrap_err(), out.rust);
}

#[test]
fn a_schema_written_for_surrealdb_2_is_respelled_by_the_validators_list() {
    // The 2.x names and a future, each with SurrealDB 3's spelling (`surql::legacy`), lines kept.
    let out = run("DEFINE TABLE person SCHEMAFULL;\n\
        DEFINE FIELD email ON person TYPE string ASSERT string::is::email($value);\n\
        DEFINE FIELD born ON person TYPE datetime;\n\
        DEFINE FIELD age ON person VALUE <future> {\n    time::year(time::now()) - time::year(born)\n};\n\
        DEFINE FIELD code ON person TYPE string VALUE string::concat('p-', rand::guid());\n");
    let choices: Vec<String> = out.choices.iter().map(|n| n.to_string()).collect();
    for expected in [
        "shop.surql:2: string::is::email",
        "shop.surql:4: <future>",
        "shop.surql:7: rand::guid",
    ] {
        assert!(
            choices.iter().any(|n| n.starts_with(expected)),
            "no {expected} in {choices:?}"
        );
    }
    assert!(out.rust.contains("string::is_email($value)"), "{}", out.rust);
    // The engine's printer writes `rand` quoted: `` `rand`::id() ``.
    assert!(
        out.rust.contains("::id()") && !out.rust.contains("guid()"),
        "{}",
        out.rust
    );
    assert!(
        out.rust
            .contains("computed = \"time::year(time::now()) - time::year(born)\""),
        "{}",
        out.rust
    );
    compile(&out);
}
