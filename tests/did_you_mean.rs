//! A misspelled attribute, setting, `Type::field` or type name is answered with the nearest valid one.

use surqlc::front::{compile, SourceFile};

const DESK: &str = r#"use surqlc::runtime::Link;
use surqlc_macros::{Literal, Schema, Table};

#[derive(Schema)]
#[surqlc(value_hints(Ticket::priority))]
pub struct Desk;

/// A support ticket.
#[derive(Table)]
pub struct Ticket {
    /// What the customer wrote.
    #[surqlc(rename = "title")]
    pub subject: String,
    pub priority: Priority,
    pub customer: Link<Customer>,
}

#[derive(Table)]
pub struct Customer {
    pub name: String,
}

#[derive(Literal)]
pub enum Priority {
    Low,
    High,
}
"#;

/// `(line, column, message)` of every error in DESK with `fixed` replaced by `typo`.
fn errors_with(fixed: &str, typo: &str) -> Vec<(usize, usize, String)> {
    assert_eq!(DESK.matches(fixed).count(), 1, "{fixed:?} occurs once");
    let file = SourceFile {
        path: "desk.rs".into(),
        text: DESK.replace(fixed, typo),
    };
    match compile(&[file]) {
        Ok(_) => panic!("{typo:?} must be an error"),
        Err(d) => d.0.into_iter().map(|d| (d.line, d.column, d.message)).collect(),
    }
}

fn only(errors: Vec<(usize, usize, String)>) -> (usize, usize, String) {
    assert_eq!(errors.len(), 1, "{errors:#?}");
    errors.into_iter().next().unwrap()
}

#[test]
fn the_fixture_compiles() {
    let file = SourceFile {
        path: "desk.rs".into(),
        text: DESK.to_owned(),
    };
    compile(&[file]).expect("no typo, no error");
}

#[test]
fn a_misspelled_attribute_name() {
    let (line, column, message) = only(errors_with("rename = \"title\"", "renam = \"title\""));
    assert_eq!((line, column), (12, 14));
    assert_eq!(
        message,
        "unknown surqlc attribute `renam` on a field; did you mean `rename`? (expected `rename = \"...\"`, `type = \"...\"`, `skip`, `aka(\"...\", ...)`, `renamed_from = \"...\"`, `default = \"expr\"`, `default_always`, `value = \"expr\"`, `computed = \"expr\"`, `assert = \"expr\"`, `readonly`, `flexible`, `reference(...)`, `permissions(...)`, `hidden`)"
    );
    // Too far from any name: no guess, the list only.
    let (_, _, message) = only(errors_with("rename = \"title\"", "colour = \"title\""));
    assert!(!message.contains("did you mean"), "{message}");
    assert!(message.contains("expected `rename"), "{message}");
}

#[test]
fn a_misspelled_setting_name() {
    let (line, column, message) = only(errors_with("value_hints(", "value_hint("));
    assert_eq!((line, column), (5, 10));
    assert!(
        message.starts_with("unknown surqlc attribute `value_hint` on a schema; did you mean `value_hints`?"),
        "{message}"
    );
}

#[test]
fn a_misspelled_field_reference() {
    let (line, column, message) = only(errors_with("Ticket::priority))", "Ticket::prority))"));
    assert_eq!((line, column), (5, 22));
    assert_eq!(
        message,
        "`Ticket` has no field `prority`; did you mean `Ticket::priority`?"
    );
    let (_, _, message) = only(errors_with("Ticket::priority))", "Tiket::priority))"));
    assert_eq!(message, "`Tiket` is not a table in this schema; did you mean `Ticket`?");
}

#[test]
fn a_misspelled_type_name() {
    let (_, _, message) = only(errors_with("Link<Customer>", "Link<Custmer>"));
    assert!(
        message.ends_with("(derive Table or Relation on it); did you mean `Customer`?"),
        "{message}"
    );
    let (_, _, message) = only(errors_with("pub priority: Priority,", "pub priority: Priorty,"));
    assert!(
        message.starts_with("unsupported field type `Priorty`; did you mean `Priority`?"),
        "{message}"
    );
}
