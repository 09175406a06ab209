//! Bad schemas get every error at once, each with file, line and column, and no output file.

use surqlc::front::{compile, SourceFile};
use surqlc::Diagnostic;
use surqlc_tests::schema_file;

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
    assert_one(
        "#[derive(Table)]\npub struct Customer {\n    #[surqlc(renmae = \"n\")]\n    pub name: String,\n}\n",
        3,
        14,
        "unknown surqlc attribute `renmae`",
    );
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
    assert_one(
        "#[derive(Literal)]\npub enum Tier {\n    Free,\n    Paid(u32),\n}\n#[derive(Table)]\npub struct T {}\n",
        4,
        5,
        "carries data",
    );
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
    assert_eq!(schema.tables[0].comment.as_deref(), Some("'\"\\ -- ; ⟩ 😀 שלום"));
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
    let schema = schema_file("bad", "#[derive(Table)]\npub struct T { pub x: Foo }\n");
    let out = schema.with_file_name("out");
    let err = surqlc::Builder::new()
        .schema(&schema)
        .out_dir(&out)
        .cargo_metadata(false)
        .compile()
        .unwrap_err();
    assert!(err.to_string().contains("bad.rs:2:23"), "{err}");
    assert!(!out.join("schema.surql").exists());
    std::fs::remove_dir_all(schema.parent().unwrap()).unwrap();
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
    assert!(messages.iter().any(|m| m.contains("unknown surqlc attribute `typ`")));
    assert!(messages.iter().any(|m| m.contains("cannot be generic")));
    assert!(messages.iter().any(|m| m.contains("`Owner` is not a table")));
    assert!(messages.iter().any(|m| m.contains("`Nope` is not a table")));
}

#[test]
fn a_raw_type_that_would_end_the_statement_is_rejected() {
    // The caret is under the `;` inside the attribute string (column 28), not at the string's start.
    assert_one(
        "#[derive(Table)]\npub struct Thing {\n    #[surqlc(type = \"string; REMOVE TABLE thing\")]\n    pub a: String,\n}\n",
        3,
        28,
        "is not a SurrealQL type surqlc can read: unexpected `;`",
    );
}

#[test]
fn a_raw_type_surqlc_cannot_read_is_an_error_at_the_bad_word() {
    // Once silently copied as written; now read once by the front end, and refused where it goes wrong.
    assert_one(
        "#[derive(Table)]\npub struct Thing {\n    #[surqlc(type = \"option<array<strng>>\")]\n    pub a: String,\n}\n",
        3,
        35,
        "`strng` is not a SurrealQL type",
    );
    assert_one(
        "#[derive(Table)]\npub struct Thing {\n    #[surqlc(type = \"geometry<point | pont>\")]\n    pub a: String,\n}\n",
        3,
        38,
        "`pont` is not a geometry kind",
    );
}

fn schema(text: &str) -> surqlc::ir::Schema {
    compile(&[SourceFile {
        path: "schemas/ok.rs".into(),
        text: text.to_owned(),
    }])
    .unwrap_or_else(|d| panic!("{d}"))
}

fn messages(text: &str) -> Vec<String> {
    errors(text).into_iter().map(|d| d.message).collect()
}

#[test]
fn non_ascii_names_under_rename_all_are_errors_not_panics() {
    let found = messages("#[derive(Table)]\n#[serde(rename_all = \"camelCase\")]\npub struct T {\n    pub ärger: String,\n    pub __: String,\n}\n");
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found
        .iter()
        .all(|m| m.contains("must be ASCII letters, digits and underscores")));
    let s = schema("#[derive(Literal)]\n#[serde(rename_all = \"camelCase\")]\npub enum E { Ärger, r#Type }\n#[derive(Table)]\npub struct r#Match { pub e: E }\n");
    // serde lowercases ASCII only: `Ärger` stays as it is.
    assert_eq!(s.enums[0].variants[0].1, "Ärger");
    assert_eq!(s.enums[0].variants[1].1, "type");
    assert_eq!(s.tables[0].name, "match");
}

#[test]
fn serde_names_are_followed_where_serde_writes_them() {
    let s = schema(
        "#[derive(Table)]\npub struct T {\n    #[serde(rename(serialize = \"alpha\"))]\n    #[serde(rename(deserialize = \"beta\"))]\n    pub a: String,\n    #[serde(rename = \"code\")]\n    pub id: String,\n    /// Its parent.\n    pub parent: Option<Link<Self>>,\n}\n",
    );
    let names: Vec<&str> = s.tables[0].fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["alpha", "code", "parent"]);
    assert_eq!(
        s.tables[0].fields[2].ty,
        surqlc::ir::Type::Option(Box::new(surqlc::ir::Type::Record("t".into())))
    );
}

#[test]
fn what_serde_would_write_differently_is_an_error() {
    let found = messages(
        "#[derive(Table)]\npub struct T {\n    #[serde(skip_serializing_if = \"Vec::is_empty\")]\n    pub tags: Vec<String>,\n    #[cfg(test)]\n    pub debug: String,\n}\n\
         #[derive(Literal)]\n#[serde(tag = \"kind\")]\npub enum Tagged { A }\n\
         #[derive(Literal)]\npub enum Duration { Short, Long }\n\
         #[derive(Relation)]\npub struct R {\n    #[serde(rename = \"src\")]\n    pub r#in: Link<T>,\n    pub out: Link<T>,\n}\n",
    );
    let expect = [
        "skip_serializing_if",
        "#[cfg]",
        "tagged or untagged enum",
        "cannot be named `Duration`",
        "cannot be renamed, skipped or retyped",
    ];
    assert_eq!(found.len(), expect.len(), "{found:#?}");
    for e in expect {
        assert!(found.iter().any(|m| m.contains(e)), "{e}: {found:#?}");
    }
}

#[test]
fn doc_comments_drop_rustdoc_decoration() {
    let s = schema(
        "/// A table\n#[doc(hidden)]\n#[doc(alias = \"x\")]\n#[derive(Table)]\npub struct T {\n    /// first\n    ///   \n    /// second\n    pub a: String,\n    #[doc = \"   \"]\n    pub b: String,\n}\n",
    );
    let t = &s.tables[0];
    assert_eq!(t.comment.as_deref(), Some("A table"));
    assert_eq!(t.fields[0].comment.as_deref(), Some("first\nsecond"));
    assert_eq!(t.fields[1].comment, None);
}

#[test]
fn settings_the_engine_would_refuse_are_errors() {
    let found = messages(
        "#[derive(Schema)]\n#[surqlc(examples(dimension = 70000), agent(user = \"explain\"))]\npub struct S;\n#[derive(Table)]\n#[surqlc(rename = \"only\")]\npub struct T { pub a: String }\n",
    );
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[0].contains("at most 65535") || found.iter().any(|m| m.contains("at most 65535")));
    assert!(found.iter().any(|m| m.contains("invalid user name \"explain\"")));
    assert!(found.iter().any(|m| m.contains("`only` is a SurrealQL keyword")));
}

#[test]
fn the_pool_clash_points_at_the_table() {
    assert_one(
        "#[derive(Schema)]\npub struct S;\n\n/// Clashes.\n#[derive(Table)]\npub struct QueryExample { pub a: String }\n",
        6,
        12,
        "few-shot pool table `query_example` clashes",
    );
}

#[test]
fn helpers_that_would_share_a_name_are_an_error() {
    let path = schema_file(
        "clash",
        "#[derive(Table)]\npub struct X { pub n: u8 }\n#[derive(Table)]\n#[surqlc(rename = \"b_c\")]\npub struct BC { pub n: u8 }\n#[derive(Table)]\npub struct C { pub n: u8 }\n\
         #[derive(Relation)]\npub struct A { pub r#in: Link<X>, pub out: Link<BC> }\n\
         #[derive(Relation)]\n#[surqlc(rename = \"a_b\")]\npub struct AB { pub r#in: Link<X>, pub out: Link<C> }\n",
    );
    let err = surqlc::Builder::new()
        .schema(&path)
        .cargo_metadata(false)
        .generate()
        .expect_err("a_b_c twice");
    assert!(err.to_string().contains("two functions named `a_b_c`"), "{err}");
}

#[test]
fn numbers_and_repr_enums_get_plain_messages() {
    let found = messages(
        "#[derive(Schema)]\n#[surqlc(examples(k = -1))]\npub struct S;\n\
         #[derive(Table)]\npub struct T { pub a: [u8; 99999999999999999999999] }\n\
         #[derive(Literal, Serialize_repr)]\n#[repr(u8)]\npub enum Level { Low = 1, High = 2 }\n",
    );
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found.iter().any(|m| m.contains("expected a whole number")));
    assert!(found.iter().any(|m| m.contains("array length is too large")));
    assert!(found.iter().any(|m| m.contains("serde_repr writes the discriminant")));
}

#[test]
fn generated_module_names_are_rust_names() {
    let path = schema_file(
        "names",
        "#[derive(Table)]\n#[surqlc(rename = \"Customer\")]\npub struct Customer { pub n: u8 }\n\
         #[derive(Table)]\n#[surqlc(rename = \"type\")]\npub struct Kind { pub n: u8 }\n\
         #[derive(Relation)]\n#[surqlc(rename = \"Bought\")]\npub struct Bought { pub r#in: Link<Customer>, pub out: Link<Kind> }\n",
    );
    let out = path.with_file_name("out");
    let output = surqlc::Builder::new()
        .schema(&path)
        .out_dir(&out)
        .file_stem("names")
        .cargo_metadata(false)
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    let module = &output.rust_module;
    for want in [
        "pub mod customer {",
        "pub mod r#type {",
        "pub mod bought {",
        "pub async fn bought_type<",
        "pub async fn customer_bought<",
        "include_str!(\"names.surql\")",
    ] {
        assert!(module.contains(want), "{want} in\n{module}");
    }
    assert!(out.join("names.surql").exists() && out.join("names.rs").exists());

    std::fs::write(
        &path,
        "#[derive(Table)]\n#[surqlc(rename = \"Note\")]\npub struct A { pub n: u8 }\n#[derive(Table)]\n#[surqlc(rename = \"note\")]\npub struct B { pub n: u8 }\n",
    )
    .unwrap();
    let err = surqlc::Builder::new()
        .schema(&path)
        .cargo_metadata(false)
        .generate()
        .expect_err("two modules named note");
    assert!(
        err.to_string().contains("would both get the generated module `note`"),
        "{err}"
    );
}

#[test]
fn flatten_is_one_error() {
    assert_one(
        "#[derive(Table)]\npub struct T {\n    #[serde(flatten)]\n    pub extra: std::collections::HashMap<String, String>,\n}\n",
        3,
        13,
        "#[serde(flatten)]",
    );
}

/// `(line, column)` (1-based, in characters) of the first `needle` in `text`.
fn at(text: &str, needle: &str) -> (usize, usize) {
    let offset = text.find(needle).expect("needle in text");
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// Each schema is refused with one error at `needle` (and nothing written).
fn assert_refused_at(text: &str, needle: &str, fragment: &str) {
    let (line, column) = at(text, needle);
    assert_one(text, line, column, fragment);
    let stem = format!("refused_{}", line * 1000 + column);
    let schema = schema_file(&stem, text);
    let out = schema.with_file_name("out");
    let err = surqlc::Builder::new()
        .schema(&schema)
        .out_dir(&out)
        .cargo_metadata(false)
        .compile()
        .unwrap_err();
    assert!(err.to_string().contains(&format!(":{line}:{column}")), "{err}");
    assert!(!out.join("schema.surql").exists() && !out.join("schema.rs").exists());
    std::fs::remove_dir_all(schema.parent().unwrap()).unwrap();
}

#[test]
fn an_unknown_analyzer_is_refused_at_its_name() {
    let text = "#[derive(Schema)]\n#[surqlc(analyzer(name = \"en\", tokenizers(blank), filters(\"lowercase\")))]\npub struct S;\n\
                #[derive(Table)]\n#[surqlc(index(fields(body), fulltext(analyzer = \"english\", bm25(1.2, 0.75))))]\npub struct Note {\n    pub body: String,\n}\n";
    assert_refused_at(text, "\"english\"", "unknown analyzer `english`");
}

#[test]
fn an_index_on_an_unknown_field_is_refused_at_the_name() {
    let text = "#[derive(Table)]\n#[surqlc(index(name = \"by_mail\", fields(name, emial), unique))]\npub struct User {\n    pub name: String,\n    pub email: String,\n}\n";
    assert_refused_at(text, "emial", "`User` has no field `emial`");
}

#[test]
fn an_index_over_a_computed_field_is_refused() {
    let text = "#[derive(Table)]\n#[surqlc(index(fields(path), unique))]\npub struct File {\n    pub name: String,\n    #[surqlc(computed = \"'/' + name\")]\n    pub path: String,\n}\n";
    assert_refused_at(text, "path), unique", "`path` is COMPUTED");
}

#[test]
fn a_malformed_expression_is_refused_at_the_bad_character() {
    // The engine's parser finds the stray `)`: the caret is under it, inside the string.
    let text = "#[derive(Table)]\npub struct File {\n    pub name: String,\n    #[surqlc(value = \"string::lowercase(name))\")]\n    pub key: String,\n}\n";
    assert_refused_at(text, ")\")]", "`value` is not a valid SurrealQL expression");
    // The engine's parser, not a bracket count: a misspelt keyword.
    let text = "#[derive(Table)]\npub struct File {\n    #[surqlc(assert = \"$value != NONE ANDD $value > 0\")]\n    pub size: i64,\n}\n";
    let errors = positions(text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let (line, column, message) = &errors[0];
    let (want_line, string_start) = at(text, "\"$value");
    assert_eq!(*line, want_line);
    assert!(
        *column > string_start,
        "the caret points into the string: {column} > {string_start}: {message}"
    );
    assert!(
        message.contains("`assert` is not a valid SurrealQL expression"),
        "{message}"
    );
    // An escape before the bad character is counted once, as in the source.
    let text = "#[derive(Table)]\npub struct File {\n    #[surqlc(value = \"\\\"a\\\" +\")]\n    pub key: String,\n}\n";
    let errors = positions(text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
}

#[test]
fn an_hnsw_dimension_that_disagrees_with_the_field_is_refused() {
    let text = "#[derive(Table)]\n#[surqlc(index(fields(embedding), hnsw(dimension = 8, dist = \"cosine\")))]\npub struct Doc {\n    pub embedding: [f32; 4],\n}\n";
    assert_refused_at(text, "8, dist", "disagrees with the field's type, an array of 4");
}

#[test]
fn a_value_hint_on_a_missing_field_is_refused() {
    let text = "#[derive(Schema)]\n#[surqlc(value_hints(range(Meeting::tyme)))]\npub struct S;\n#[derive(Table)]\npub struct Meeting {\n    pub time: String,\n}\n";
    assert_refused_at(text, "Meeting::tyme", "`Meeting` has no field `tyme`");
}

#[test]
fn clauses_the_engine_refuses_together_are_errors() {
    let text = "#[derive(Table)]\npub struct File {\n    pub name: String,\n    #[surqlc(computed = \"name\", readonly)]\n    pub copy: String,\n}\n";
    assert_refused_at(text, "readonly", "cannot go with `computed`");
    let text = "#[derive(Table)]\n#[surqlc(enforced)]\npub struct File {\n    pub name: String,\n}\n";
    assert_refused_at(text, "enforced", "relation");
}

#[test]
fn known_traps_are_warnings_with_a_position() {
    let text = "#[derive(Table)]\n#[surqlc(index(fields(email), unique))]\npub struct User {\n    /// Login.\n    pub email: Option<String>,\n    /// Signed up.\n    pub signup_date: String,\n    /// 'YYYY-MM-DD'; compare as strings.\n    pub birth_date: String,\n}\n";
    let file = surqlc::front::SourceFile {
        path: "schemas/lint.rs".into(),
        text: text.to_owned(),
    };
    let (_, warnings) = surqlc::front::compile_with_warnings(&[file]).expect("warnings do not stop the build");
    let found: Vec<(usize, usize)> = warnings.iter().map(|w| (w.line, w.column)).collect();
    assert_eq!(
        found,
        [at(text, "email: Option"), at(text, "signup_date")],
        "{warnings:#?}"
    );
    assert!(
        warnings[0].message.contains("can be NONE") && warnings[0].severity == surqlc::diagnostic::Severity::Warning
    );
    assert!(warnings[1]
        .to_string()
        .starts_with("warning: `signup_date` looks like a date"));
}

#[test]
fn what_the_agent_may_not_read_is_never_in_the_prompt() {
    // `hidden` is the select permission: writing both is a contradiction.
    assert_one(
        "#[derive(Table)]\npub struct Person {\n    #[surqlc(hidden, permissions(select = full))]\n    pub salary: i64,\n}\n",
        3,
        14,
        "`hidden` sets the field's select permission to NONE",
    );
    // A value hint would print a hidden field's or table's values in the prompt.
    assert_one(
        "#[derive(Schema)]\n#[surqlc(value_hints(distinct(Person::salary)))]\npub struct S;\n#[derive(Table)]\npub struct Person {\n    #[surqlc(hidden)]\n    pub salary: i64,\n}\n",
        2,
        31,
        "`person.salary` is hidden from the agent",
    );
    assert_one(
        "#[derive(Schema)]\n#[surqlc(expose(Person), value_hints(ids(Case)))]\npub struct S;\n#[derive(Table)]\npub struct Person {\n    pub name: String,\n}\n#[derive(Table)]\npub struct Case {\n    pub note: String,\n}\n",
        2,
        42,
        "`case` is not exposed",
    );
    // The record-access agent's identities live in a table of surqlc's.
    assert_one(
        "#[derive(Table)]\npub struct SurqlcAgent {\n    pub name: String,\n}\n",
        2,
        12,
        "record-access agent's password hash",
    );
}
