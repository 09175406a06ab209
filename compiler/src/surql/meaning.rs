//! What a Literal enum's doc comments add to the `COMMENT` of a field of its type: one rule, for the front end and the derive.
//!
//! The values' meanings are what a model needs to pick one ("`urgent`: answer within one hour"),
//! so they go where the prompt already shows the field: its `COMMENT`, after the field's own doc.
//! The form is the cheapest one measured that still reads unambiguously next to the field's
//! `TYPE 'low' | 'urgent'`: `Priority. How soon to answer. urgent: within one hour; low: within a week`
//! (quoting each value costs one more token per value on o200k_base and cl100k_base alike).
//! An enum without doc comments adds nothing, so such schemas are byte-for-byte what they were.

use crate::ir::LiteralEnum;

/// The meaning of `e`'s values: the enum's doc, then `value: doc` for each documented variant;
/// `None` when neither the enum nor any variant has a doc comment.
pub fn of_literal(e: &LiteralEnum) -> Option<String> {
    of_enum(
        e.comment.as_deref(),
        e.variants
            .iter()
            .map(|(_, value)| (value.as_str(), e.variant_docs.get(value).map(String::as_str))),
    )
}

/// [`of_literal`] from the parts: the enum's doc and `(stored value, variant doc)` in source order.
pub fn of_enum<'a>(doc: Option<&str>, values: impl IntoIterator<Item = (&'a str, Option<&'a str>)>) -> Option<String> {
    let list: Vec<String> = values
        .into_iter()
        .filter_map(|(value, doc)| {
            let doc = one_line(doc?);
            let doc = doc.trim_end_matches('.').trim_end();
            (!doc.is_empty()).then(|| format!("{}: {doc}", label(value)))
        })
        .collect();
    let doc = doc.map(one_line).filter(|d| !d.is_empty());
    let list = (!list.is_empty()).then(|| list.join("; "));
    match (doc, list) {
        (None, None) => None,
        (Some(d), None) => Some(d),
        (None, Some(l)) => Some(l),
        (Some(d), Some(l)) => Some(sentences(&d, &l)),
    }
}

/// A field's own comment followed by the meaning of its enum type.
pub fn with_meaning(comment: Option<String>, meaning: Option<String>) -> Option<String> {
    match (comment, meaning) {
        (Some(c), Some(m)) => Some(sentences(&c, &m)),
        (c, m) => c.or(m),
    }
}

/// [`with_meaning`] undone, for the audit's count of what the meanings cost: the field's own
/// comment when `comment` ends with `meaning` as [`with_meaning`] appends it (with the full stop
/// that may have been added: `Priority` and `Priority.` both read back as `Priority.`), `Some(None)`
/// when the comment is the meaning alone, `None` when `meaning` was not appended.
pub fn own_part<'a>(comment: &'a str, meaning: &str) -> Option<Option<&'a str>> {
    if comment == meaning {
        return Some(None);
    }
    let own = comment.strip_suffix(meaning)?.strip_suffix(' ')?;
    ends_sentence(own).then_some(Some(own))
}

/// `a` then `b` as two sentences: a full stop is added only where `a` does not end one.
fn sentences(a: &str, b: &str) -> String {
    let a = a.trim_end();
    if ends_sentence(a) {
        format!("{a} {b}")
    } else {
        format!("{a}. {b}")
    }
}

fn ends_sentence(s: &str) -> bool {
    s.ends_with(['.', '!', '?', ':', ';'])
}

/// Doc paragraphs on one line: a line break in a `COMMENT` costs an escape and reads no better.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A value as the list names it: bare when it is one word, else quoted as the engine quotes strings.
fn label(value: &str) -> String {
    if !value.is_empty() && value.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        value.to_owned()
    } else {
        super::lex::quote_str(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_values_follow_the_enums_doc() {
        let m = of_enum(
            Some("How soon a ticket\nmust be answered."),
            [
                ("urgent", Some("Answer within one hour.")),
                ("normal", None),
                ("on hold", Some("waiting for the customer")),
            ],
        );
        assert_eq!(
            m.as_deref(),
            Some("How soon a ticket must be answered. urgent: Answer within one hour; 'on hold': waiting for the customer")
        );
        assert_eq!(of_enum(None, [("a", None), ("b", None)]), None);
        assert_eq!(
            of_enum(Some("Tier"), [("pro", Some("the highest"))]).as_deref(),
            Some("Tier. pro: the highest")
        );
    }

    #[test]
    fn the_field_comment_comes_first_and_splits_back() {
        let m = "urgent: within one hour".to_owned();
        for (own, back) in [
            ("Priority", "Priority."),
            ("Priority.", "Priority."),
            ("Late?", "Late?"),
        ] {
            let c = with_meaning(Some(own.into()), Some(m.clone())).unwrap();
            assert_eq!(own_part(&c, &m), Some(Some(back)), "{c}");
        }
        assert_eq!(with_meaning(None, Some(m.clone())), Some(m.clone()));
        assert_eq!(own_part(&m, &m), Some(None));
        assert_eq!(with_meaning(Some("x".into()), None).as_deref(), Some("x"));
        assert_eq!(own_part("Priority", &m), None);
    }
}
