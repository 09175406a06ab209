//! A Literal enum's doc comments reach the prompt through its fields' `COMMENT`s, the derive builds the same comments, an enum without docs adds nothing, and the audit counts what they cost.

#[path = "fixtures/enum_docs.rs"]
#[allow(dead_code)]
mod fixture;

use surqlc::runtime::Table;
use surqlc::surql::info::Rendering;
use surqlc::tokens::{self, Encoding};
use surqlc_tests::*;

const PRIORITY: &str =
    "Answer times are contractual. urgent: Answer within one hour; normal: Answer within a working day";

fn fixture_text() -> String {
    read(root().join("tests/fixtures/enum_docs.rs"))
}

/// The fixture with every doc comment on an enum or a variant taken out (the tables' kept).
fn without_enum_docs() -> String {
    let text = fixture_text();
    let (tables, enums) = text
        .split_once("/// Answer times")
        .expect("the enums follow the tables");
    let enums = format!("/// Answer times{enums}");
    let enums: String = enums
        .lines()
        .filter(|l| !l.trim_start().starts_with("///"))
        .map(|l| format!("{l}\n"))
        .collect();
    format!("{tables}{enums}")
}

fn compile(text: &str, name: &str) -> surqlc::builder::Output {
    surqlc::Builder::new()
        .schema(schema_file(name, text))
        .cargo_metadata(false)
        .generate()
        .expect("schema compiles")
}

fn comments(output: &surqlc::builder::Output) -> Vec<(String, Option<String>)> {
    let table = output.schema.table("ticket").expect("ticket");
    table
        .fields
        .iter()
        .map(|f| (f.name.clone(), f.comment.clone()))
        .collect()
}

fn pairs(list: &[(&str, Option<&str>)]) -> Vec<(String, Option<String>)> {
    list.iter()
        .map(|(f, c)| (f.to_string(), c.map(str::to_owned)))
        .collect()
}

#[test]
fn enum_docs_reach_the_field_comments_and_the_prompt() {
    let output = compile(&fixture_text(), "enum_docs");
    let with_field_doc = format!("How soon it needs an answer. {PRIORITY}");
    let want = [
        ("priority", Some(with_field_doc.as_str())),
        ("escalated_to", Some(PRIORITY)),
        ("tiers", Some("Tiers the customer has held. 'pro' is the highest tier.")),
        ("channel", Some("Where the ticket came from.")),
        (
            "state",
            Some("Where it stands. 'on hold': Waiting for the customer's reply"),
        ),
    ];
    assert_eq!(comments(&output), pairs(&want));
    // The database writes the prompt: the meanings are in the block it renders.
    let block = block_on(async {
        let db = loaded(&[&output.schema_surql]).await;
        surqlc::db::query_string(&db, "RETURN fn::schema_context()")
            .await
            .expect("fn::schema_context runs")
    });
    for (_, comment) in &want[..4] {
        let quoted = surqlc::surql::lex::quote_str(comment.unwrap());
        assert!(block.contains(&quoted), "{quoted} in\n{block}");
    }
    assert!(
        block.contains("'on hold': Waiting for the customer\\'s reply")
            || block.contains("'on hold': Waiting for the customer's reply"),
        "{block}"
    );
}

#[test]
fn the_derive_builds_the_compilers_comments() {
    let output = compile(&fixture_text(), "enum_docs_derive");
    let compiled = output.schema.table("ticket").expect("ticket");
    assert_eq!(&fixture::Ticket::table_ir(), compiled);
    assert_eq!(fixture::Ticket::define(), surqlc::surql::table_definition(compiled));
}

#[test]
fn enums_without_docs_add_nothing() {
    let output = compile(&without_enum_docs(), "enum_docs_none");
    assert_eq!(
        comments(&output),
        pairs(&[
            ("priority", Some("How soon it needs an answer")),
            ("escalated_to", None),
            ("tiers", Some("Tiers the customer has held.")),
            ("channel", Some("Where the ticket came from.")),
            ("state", Some("Where it stands.")),
        ])
    );
    let cost = tokens::block_cost(&output.schema, Rendering::Engine, Encoding::O200kBase);
    assert_eq!(cost.tables[0].enum_doc_tokens, 0);
}

#[test]
fn the_audit_counts_what_the_enum_docs_cost() {
    let with = compile(&fixture_text(), "enum_docs_cost");
    let without = compile(&without_enum_docs(), "enum_docs_cost_none");
    for rendering in [Rendering::Engine, Rendering::Compact] {
        let a = tokens::block_cost(&with.schema, rendering, Encoding::O200kBase);
        let b = tokens::block_cost(&without.schema, rendering, Encoding::O200kBase);
        let (a, b) = (&a.tables[0], &b.tables[0]);
        assert!(a.enum_doc_tokens > 0);
        // What the docs add to the table's cost, to within the full stop `with_meaning` may add.
        let added = a.tokens - b.tokens;
        assert!(
            added.abs_diff(a.enum_doc_tokens) <= 2,
            "{rendering:?}: block grows by {added}, the audit says {}",
            a.enum_doc_tokens
        );
        assert_eq!(a.comment_tokens - b.comment_tokens, a.enum_doc_tokens);
    }
}
