//! SurrealDB 2's spellings that 3.3's parser refuses, respelled before parsing (`SEARCH ANALYZER` as `FULLTEXT ANALYZER`, `FLEXIBLE TYPE t` as `TYPE t FLEXIBLE`), each noted; an `MTREE` index is blanked and left out. Lines never move.

use super::Note;
use crate::surql::scan::{code, Token};

/// 2.x full-text index options that 3.x's `FULLTEXT` has no words for (the engine sizes them itself).
const SEARCH_OPTIONS: &[&str] = &[
    "DOC_IDS_ORDER",
    "DOC_LENGTHS_ORDER",
    "POSTINGS_ORDER",
    "TERMS_ORDER",
    "DOC_IDS_CACHE",
    "DOC_LENGTHS_CACHE",
    "POSTINGS_CACHE",
    "TERMS_CACHE",
];

/// The clauses that may follow a field's type: where a 2.x `FLEXIBLE TYPE t` type ends.
const FIELD_CLAUSES: &[&str] = &[
    "DEFAULT",
    "VALUE",
    "ASSERT",
    "READONLY",
    "PERMISSIONS",
    "COMMENT",
    "REFERENCE",
    "COMPUTED",
];

/// `text` with SurrealDB 2's spellings respelled; each change is noted in `notes` (`choices`), an
/// MTREE index in `left_out`.
pub(super) fn respell(file: &str, text: &str, notes: &mut super::Notes) -> String {
    let tokens = code(text);
    // (start, end, replacement), applied from the end so offsets stay valid.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let at = |t: &Token| format!("{file}:{}", super::line_col(text, t.start).0);
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let next = tokens.get(i + 1);
        if t.is_word("SEARCH") && next.is_some_and(|n| n.is_word("ANALYZER")) {
            edits.push((t.start, t.end, "FULLTEXT".into()));
            notes.choices.push(Note::new(
                at(t),
                "SEARCH ANALYZER",
                "SurrealDB 2's full-text index, read as SurrealDB 3's FULLTEXT ANALYZER",
            ));
        } else if SEARCH_OPTIONS.iter().any(|o| t.is_word(o)) {
            let end = next
                .filter(|n| n.kind == crate::surql::scan::Kind::Number)
                .map_or(t.end, |n| n.end);
            edits.push((t.start, end, String::new()));
            notes.choices.push(Note::new(
                at(t),
                &t.text,
                "a SurrealDB 2 full-text option SurrealDB 3 has no words for (it sizes the index itself): dropped",
            ));
        } else if t.is_word("MTREE") && next.is_some_and(|n| n.is_word("DIMENSION")) {
            let (start, end) = statement_around(text, &tokens, i);
            let blank: String = text[start..end]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' })
                .collect();
            notes.left_out.push(Note::new(
                format!("{file}:{}", super::line_col(text, start).0),
                super::short(&text[start..end]),
                "an MTREE index: SurrealDB 3 has none (the grammar's vector index is hnsw(...))",
            ));
            edits.push((start, end, blank));
        } else if t.is_word("FLEXIBLE") && next.is_some_and(|n| n.is_word("TYPE")) {
            if let Some(type_end) = type_end(&tokens, i + 2) {
                edits.push((type_end, type_end, " FLEXIBLE ".into()));
                edits.push((t.start, t.end, String::new()));
                notes.choices.push(Note::new(
                    at(t),
                    "FLEXIBLE TYPE",
                    "SurrealDB 2's order, read as SurrealDB 3's TYPE ... FLEXIBLE",
                ));
            }
        }
        i += 1;
    }
    edits.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut out = text.to_owned();
    for (start, end, with) in edits {
        out.replace_range(start..end, &with);
    }
    out
}

/// The byte range of the top-level statement holding token `i`, its `;` included.
fn statement_around(text: &str, tokens: &[Token], i: usize) -> (usize, usize) {
    let start = tokens[..i]
        .iter()
        .rposition(|t| t.is_punct(";"))
        .map_or(0, |p| tokens[p + 1].start);
    let end = tokens[i..]
        .iter()
        .find(|t| t.is_punct(";"))
        .map_or(text.len(), |t| t.end);
    (start, end)
}

/// Where the type starting at token `from` ends: before the first field clause or `;` outside brackets.
fn type_end(tokens: &[Token], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut last_end = None;
    for t in tokens.get(from..)? {
        if depth == 0 && (t.is_punct(";") || FIELD_CLAUSES.iter().any(|c| t.is_word(c))) {
            return last_end;
        }
        if t.is_punct("<") || t.is_punct("(") || t.is_punct("[") || t.is_punct("{") {
            depth += 1;
        } else if t.is_punct(">") || t.is_punct(")") || t.is_punct("]") || t.is_punct("}") {
            depth -= 1;
        }
        last_end = Some(t.end);
    }
    last_end
}
