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
    build(&out, "view");
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
    build(&out, "view-star");
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

/// The written file built as `surqlc build` builds it (the front end, then the back ends' checks,
/// such as a view's fields against its SELECT).
fn build(out: &Init, name: &str) {
    let dir = std::env::temp_dir().join(format!("surqlc-init-build-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("shop.rs"), &out.rust).unwrap();
    if let Some(f) = &out.functions {
        std::fs::write(dir.join("shop.functions.surql"), f).unwrap();
    }
    let built = crate::Builder::new()
        .schema(dir.join("shop.rs"))
        .out_dir(&dir)
        .no_agent()
        .generate();
    assert!(built.is_ok(), "{}\n{}", built.unwrap_err(), out.rust);
}

fn lines_of(notes: &[Note]) -> Vec<String> {
    notes.iter().map(|n| n.to_string()).collect()
}

#[test]
fn a_field_without_type_is_declared_any_with_one_note() {
    // The engine reads no TYPE as TYPE any (tests/init_roundtrip.rs compares them on it).
    let out = run("DEFINE TABLE t SCHEMAFULL;\nDEFINE FIELD a ON t DEFAULT time::now();\n\
        DEFINE FIELD n ON t TYPE int;\nDEFINE FIELD twice ON t COMPUTED n * 2;\n");
    let chose = lines_of(&out.choices);
    assert_eq!(chose.len(), 2, "{chose:?}");
    assert!(chose[0].starts_with("shop.surql:2: t.a: no TYPE"), "{chose:?}");
    assert!(chose[1].starts_with("shop.surql:4: t.twice: no TYPE"), "{chose:?}");
    assert!(
        out.rust.contains("#[surqlc(type = \"any\", computed = \"n * 2\")]"),
        "{}",
        out.rust
    );
    compile(&out);
}

#[test]
#[cfg(feature = "db")]
fn a_field_typed_any_reads_as_one_without_type_when_compared() {
    for (written, as_compared) in [
        (
            "DEFINE FIELD a ON t TYPE any DEFAULT 1 PERMISSIONS FULL",
            "DEFINE FIELD a ON t DEFAULT 1 PERMISSIONS FULL",
        ),
        ("DEFINE FIELD `on` ON TABLE t TYPE any", "DEFINE FIELD `on` ON TABLE t "),
        ("DEFINE FIELD a.b ON t TYPE any", "DEFINE FIELD a.b ON t "),
        // Only `any` itself: a union or an argument is a type of its own.
        (
            "DEFINE FIELD a ON t TYPE any | string",
            "DEFINE FIELD a ON t TYPE any | string",
        ),
        ("DEFINE FIELD a ON t TYPE int", "DEFINE FIELD a ON t TYPE int"),
    ] {
        assert_eq!(live::untyped(written), as_compared);
    }
}

#[test]
fn a_surrealdb_2_edge_table_is_read_as_a_relation() {
    let out = run(
        "DEFINE TABLE chat SCHEMAFULL;\nDEFINE TABLE message SCHEMAFULL;\nDEFINE TABLE sent SCHEMAFULL;\n\
        DEFINE FIELD in ON TABLE sent TYPE record<chat>;\nDEFINE FIELD out ON TABLE sent TYPE record<message | chat>;\n\
        DEFINE INDEX pair ON TABLE sent COLUMNS in, out UNIQUE;\n\
        DEFINE TABLE said TYPE NORMAL SCHEMAFULL;\nDEFINE FIELD who ON said TYPE record<chat>;\n",
    );
    assert!(out.left_out.is_empty(), "{:?}", out.left_out);
    let chose = lines_of(&out.choices);
    assert!(
        chose
            .iter()
            .any(|n| n.starts_with("shop.surql:3: table sent: SurrealDB 2's edge table")
                && n.contains("TYPE RELATION IN chat OUT message | chat")),
        "{chose:?}"
    );
    let schema = compile(&out);
    let sent = schema.table("sent").expect("sent");
    assert_eq!(
        sent.kind,
        crate::ir::TableKind::Relation {
            from: vec!["chat".into()],
            to: vec!["message".into(), "chat".into()]
        }
    );
    assert_eq!(sent.indexes.len(), 1);
    // A table that says its TYPE is what it says.
    assert_eq!(schema.table("said").expect("said").kind, crate::ir::TableKind::Normal);
}

#[test]
#[cfg(feature = "validate")]
fn a_view_column_declared_number_holds_what_its_select_counts() {
    let out = run(
        "DEFINE TABLE sale SCHEMAFULL;\nDEFINE FIELD month ON sale TYPE string;\n\
        DEFINE FIELD price ON sale TYPE float;\n\
        DEFINE TABLE monthly AS SELECT count() AS n, math::sum(price) AS total, month FROM sale GROUP BY month;\n\
        DEFINE FIELD n ON monthly TYPE number;\nDEFINE FIELD total ON monthly TYPE option<number>;\n\
        DEFINE FIELD month ON monthly TYPE string;\n",
    );
    assert!(out.rust.contains("pub n: Number,"), "{}", out.rust);
    build(&out, "view-number");
}

#[test]
fn an_optional_flexible_object_is_written_as_the_type_grammar_reads_it() {
    // SurrealDB 3's order, and SurrealDB 2's (`FLEXIBLE TYPE`), which `respell` turns into it.
    for field in [
        "DEFINE FIELD payload ON t TYPE option<object> FLEXIBLE;",
        "DEFINE FIELD payload ON t FLEXIBLE TYPE option<object>;",
    ] {
        let out = run(&format!("DEFINE TABLE t SCHEMAFULL;\n{field}\n"));
        assert!(
            out.rust.contains("#[surqlc(type = \"option<object> FLEXIBLE\")]"),
            "{}",
            out.rust
        );
        let schema = compile(&out);
        let payload = schema.table("t").and_then(|t| t.field("payload")).expect("payload");
        let text = crate::surql::define::table_definition(schema.table("t").unwrap());
        assert!(text.contains("TYPE option<object> FLEXIBLE"), "{text}\n{payload:?}");
    }
}

#[test]
fn a_schemaless_table_may_index_a_field_it_does_not_define() {
    let out = run(
        "DEFINE TABLE edge SCHEMALESS;\nDEFINE INDEX i ON TABLE edge FIELDS name;\n\
        DEFINE INDEX j ON TABLE edge FIELDS in;\nDEFINE INDEX k ON TABLE edge FIELDS meta.kind;\n",
    );
    let chose = lines_of(&out.choices);
    assert!(
        chose
            .iter()
            .any(|n| n.starts_with("shop.surql:2: edge.name: not defined, only indexed")),
        "{chose:?}"
    );
    let left = lines_of(&out.left_out);
    assert!(
        left.iter().any(|n| n.starts_with("shop.surql:3: index j ON edge")),
        "{left:?}"
    );
    assert!(
        left.iter().any(|n| n.starts_with("shop.surql:4: index k ON edge")),
        "{left:?}"
    );
    let schema = compile(&out);
    let edge = schema.table("edge").expect("edge");
    assert_eq!(edge.indexes.len(), 1);
    let name = edge.field("name").map(|f| f.ty.clone());
    assert!(
        matches!(&name, Some(crate::ir::Type::Raw(r)) if r.kind.is_any()),
        "{name:?}"
    );
}

/// A migration chain read as the engine applies it: what a REMOVE names is gone, what is defined
/// again after it is the new definition.
#[test]
fn remove_statements_are_applied_in_file_order() {
    let out = run(
        "DEFINE TABLE m SCHEMAFULL;\nDEFINE FIELD a ON m TYPE string;\nDEFINE FIELD b ON m TYPE string;\n\
        DEFINE FIELD legacy ON m TYPE option<string>;\nDEFINE FIELD addr ON m TYPE object;\n\
        DEFINE FIELD addr.city ON m TYPE string;\nDEFINE INDEX u ON m FIELDS a, b UNIQUE;\n\
        REMOVE INDEX u ON TABLE m;\nDEFINE INDEX u ON m FIELDS b, a UNIQUE;\n\
        REMOVE FIELD legacy ON TABLE m;\nREMOVE FIELD addr ON m;\n\
        DEFINE TABLE old SCHEMAFULL;\nDEFINE FIELD x ON old TYPE int;\nREMOVE TABLE old;\n\
        DEFINE TABLE old SCHEMAFULL;\nDEFINE FIELD y ON old TYPE int;\n\
        DEFINE FUNCTION fn::f($x: int) { RETURN $x; };\nREMOVE FUNCTION fn::f;\n\
        DEFINE FUNCTION fn::f($x: int) { RETURN $x + 1; };\n\
        DEFINE ANALYZER en TOKENIZERS blank;\nREMOVE ANALYZER en;\nDEFINE ANALYZER en TOKENIZERS class;\n\
        DEFINE PARAM $p VALUE 1;\nREMOVE PARAM $p;\n\
        DEFINE EVENT e ON m THEN {};\nREMOVE EVENT e ON TABLE m;\n\
        DEFINE ACCESS acc ON DATABASE TYPE RECORD;\nREMOVE ACCESS acc ON DATABASE;\n\
        DEFINE USER bob ON DATABASE PASSWORD 'x';\nREMOVE USER bob ON DATABASE;\n\
        REMOVE FIELD IF EXISTS nothing ON m;\n",
    );
    assert!(out.left_out.is_empty(), "{:?}", out.left_out);
    assert!(out.choices.is_empty(), "{:?}", out.choices);
    let schema = compile(&out);
    let m = schema.table("m").expect("m");
    let fields: Vec<&str> = m.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(fields, ["a", "b"]);
    assert_eq!(m.indexes.len(), 1);
    assert_eq!(m.indexes[0].fields, ["b", "a"]);
    let old = schema.table("old").expect("old");
    let fields: Vec<&str> = old.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(fields, ["y"]);
    let functions = out.functions.as_deref().unwrap_or_default();
    assert_eq!(functions.matches("fn::f(").count(), 1, "{functions}");
    assert!(functions.contains("$x + 1"), "{functions}");
    assert_eq!(schema.analyzers.len(), 1);
    assert_eq!(schema.analyzers[0].tokenizers, ["class"]);
    // Removing what was never defined is named (the engine refuses it without IF EXISTS).
    let out = run("DEFINE TABLE m SCHEMAFULL;\nREMOVE FIELD ghost ON m;\n");
    let chose = lines_of(&out.choices);
    assert!(
        chose
            .iter()
            .any(|n| n.starts_with("shop.surql:2: REMOVE FIELD ghost ON m;")
                && n.contains("the field `ghost` on `m` is not defined before it")),
        "{chose:?}"
    );
}

#[test]
fn overwrite_replaces_and_if_not_exists_keeps_an_earlier_definition() {
    let out = run("DEFINE TABLE m SCHEMAFULL;\nDEFINE FIELD a ON m TYPE string;\n\
        DEFINE FIELD OVERWRITE a ON m TYPE int;\nDEFINE FIELD IF NOT EXISTS a ON m TYPE bool;\n\
        DEFINE INDEX i ON m FIELDS a;\nDEFINE INDEX OVERWRITE i ON m FIELDS a UNIQUE;\n\
        DEFINE TABLE OVERWRITE m SCHEMALESS;\nDEFINE TABLE IF NOT EXISTS m SCHEMAFULL;\n\
        DEFINE FUNCTION fn::f() { RETURN 1; };\nDEFINE FUNCTION OVERWRITE fn::f() { RETURN 2; };\n\
        DEFINE FUNCTION IF NOT EXISTS fn::f() { RETURN 3; };\n\
        DEFINE PARAM $p VALUE 1;\nDEFINE PARAM OVERWRITE $p VALUE 2;\n");
    let schema = compile(&out);
    let m = schema.table("m").expect("m");
    assert!(m.schemaless, "OVERWRITE replaced the table's definition");
    assert_eq!(m.fields.len(), 1, "its fields stay");
    assert_eq!(m.fields[0].ty, crate::ir::Type::Int);
    assert_eq!(m.indexes.len(), 1);
    assert_eq!(m.indexes[0].kind, crate::ir::IndexKind::Unique);
    let functions = out.functions.as_deref().unwrap_or_default();
    assert_eq!(functions.matches("fn::f(").count(), 1, "{functions}");
    assert!(functions.contains("RETURN 2"), "{functions}");
    // One PARAM left out: the one OVERWRITE kept.
    let left = lines_of(&out.left_out);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(
        left[0].starts_with("shop.surql:13: DEFINE PARAM OVERWRITE $p"),
        "{left:?}"
    );
}

#[test]
fn a_plain_definition_of_a_name_already_defined_is_refused_at_its_line() {
    for (text, line, what) in [
        (
            "DEFINE TABLE t SCHEMAFULL;\nDEFINE TABLE t SCHEMALESS;\n",
            2,
            "the table `t`",
        ),
        (
            "DEFINE TABLE t SCHEMAFULL;\nDEFINE FIELD a ON t TYPE int;\nDEFINE FIELD a ON t TYPE string;\n",
            3,
            "the field `a` on `t`",
        ),
        (
            "DEFINE TABLE t SCHEMAFULL;\nDEFINE FIELD a ON t TYPE int;\n\
             DEFINE INDEX u ON t FIELDS a;\nDEFINE INDEX u ON t FIELDS a UNIQUE;\n",
            4,
            "the index `u` on `t`",
        ),
        (
            "DEFINE FUNCTION fn::f() { 1 };\nDEFINE FUNCTION fn::f() { 2 };\n",
            2,
            "the function `fn::f`",
        ),
        (
            "DEFINE USER u ON ROOT PASSWORD 'x';\nDEFINE USER u ON ROOT PASSWORD 'y';\n",
            2,
            "the user `u` on `ROOT`",
        ),
    ] {
        let source = Source {
            name: "shop.surql".into(),
            text: text.into(),
        };
        let error = init(&[source], &options()).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!("error: shop.surql:{line}: {what} is already defined")),
            "{error}"
        );
        assert!(error.contains("OVERWRITE"), "{error}");
    }
    // A field its sub-fields named first is not defined twice, nor a table its fields named first.
    let out = run("DEFINE FIELD a.b ON t TYPE string;\nDEFINE FIELD a ON t TYPE object;\nDEFINE TABLE t SCHEMAFULL;\n");
    assert!(!compile(&out).table("t").expect("t").schemaless);
}

#[test]
fn repeated_left_out_statements_are_one_line_and_use_is_noted() {
    let out = run("USE NS app DB main;\nDEFINE TABLE t SCHEMAFULL;\n\
        DEFINE USER a ON ROOT PASSWORD 'x';\nDEFINE USER b ON ROOT PASSWORD 'x';\nDEFINE USER c ON ROOT PASSWORD 'x';\n\
        DEFINE ACCESS acc ON DATABASE TYPE RECORD;\nDEFINE USER d ON ROOT PASSWORD 'x';\n");
    let left = lines_of(&out.left_out);
    assert_eq!(
        left,
        [
            "shop.surql:3: 4 DEFINE USER statements (lines 3-5, 7): the annotation grammar has no users",
            "shop.surql:6: DEFINE ACCESS acc ON DATABASE TYPE RECORD;: the annotation grammar has no accesses",
        ]
    );
    let chose = lines_of(&out.choices);
    assert!(
        chose
            .iter()
            .any(|n| n.starts_with("shop.surql:1: USE NS app DB main;: the namespace and database")),
        "{chose:?}"
    );
}

#[test]
fn a_kinds_plural_follows_english_rules() {
    let words = ["user", "access", "param", "policy", "key", "index", "match"];
    let plurals: Vec<String> = words.iter().map(|w| super::model::plural(w)).collect();
    assert_eq!(
        plurals,
        ["users", "accesses", "params", "policies", "keys", "indexes", "matches"]
    );
}

/// A `name.*` element definition that repeats what the field's type says, an optional or fixed-length
/// array's included (SurrealDB prints `option<array<float>>` as `none | array<float>`), is folded in
/// without a left-out note; before, the optional one was left out and init exited 1.
#[test]
fn an_element_type_the_field_already_says_is_folded_in() {
    let out = run("DEFINE TABLE t SCHEMAFULL;\n\
        DEFINE FIELD a ON t TYPE option<array<float>>;\nDEFINE FIELD a.* ON t TYPE float;\n\
        DEFINE FIELD b ON t TYPE none | array<string>;\nDEFINE FIELD b.* ON t TYPE string;\n\
        DEFINE FIELD c ON t TYPE array<float, 4>;\nDEFINE FIELD c.* ON t TYPE float;\n\
        DEFINE FIELD d ON t TYPE option<array>;\nDEFINE FIELD d.* ON t TYPE int;\n\
        DEFINE FIELD e ON t TYPE array<int>;\nDEFINE FIELD e.* ON t TYPE string;\n");
    let left: Vec<&str> = out.left_out.iter().map(|n| n.what.as_str()).collect();
    assert_eq!(left, ["t.e.*"], "{:?}", out.left_out);
    assert!(out.rust.contains("Option<Vec<i64>>"), "{}", out.rust);
    compile(&out);
}

/// Two ASSERT clauses on one field: SurrealDB 3.3.5 keeps the last (its `INFO` shows only that one,
/// and a value breaking the first is written), and so does the file; a note says the first is lost.
#[test]
fn a_second_assert_clause_is_noted_as_replacing_the_first() {
    let out = run("DEFINE TABLE t SCHEMAFULL;\n\
        DEFINE FIELD tags ON t TYPE array<string> ASSERT array::len($value) <= 50 ASSERT array::len($value) >= 1;\n");
    let notes: Vec<String> = out.choices.iter().map(|n| n.to_string()).collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("shop.surql:2: t.tags: 2 ASSERT clauses")),
        "{notes:?}"
    );
    assert!(out.rust.contains(">= 1"), "{}", out.rust);
    compile(&out);
}
