//! SurrealDB 2's spellings that 3.3's parser refuses, respelled before parsing by the one list the validator also uses (`surql::legacy`: `SEARCH ANALYZER` as `FULLTEXT ANALYZER`, `FLEXIBLE TYPE t` as `TYPE t FLEXIBLE`, renamed functions, ...), each noted; an `MTREE` index is blanked and left out. Lines never move.

use super::Note;
use crate::surql::legacy::{self, Edit, Spelling};
use crate::surql::scan::{code, Token};

/// `text` with SurrealDB 2's spellings respelled; each change is noted in `notes` (`choices`), an
/// MTREE index in `left_out`. A 2.x spelling SurrealDB 3 has no mechanical spelling for is left
/// for the parser to refuse at its line.
pub(super) fn respell(file: &str, text: &str, notes: &mut super::Notes) -> String {
    let tokens = code(text);
    let (mut edits, mut blanks): (Vec<Edit>, Vec<(usize, usize)>) = (Vec::new(), Vec::new());
    for found in legacy::find(text) {
        let at = format!("{file}:{}", super::line_col(text, found.start).0);
        if found.spelling == Spelling::Mtree {
            // The grammar's vector index is hnsw(...): the index is left out, not converted.
            let (start, end) = statement_around(text, &tokens, found.start);
            let blank: String = text[start..end]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' })
                .collect();
            notes.left_out.push(Note::new(
                format!("{file}:{}", super::line_col(text, start).0),
                super::short(&text[start..end]),
                "an MTREE index: SurrealDB 3 has none (the grammar's vector index is hnsw(...))",
            ));
            edits.push(Edit {
                start,
                end,
                replacement: blank,
            });
            blanks.push((start, end));
            continue;
        }
        if found.edits.is_empty() {
            continue;
        }
        let how = if found.spelling == Spelling::SearchOption {
            "dropped"
        } else {
            "respelled"
        };
        notes
            .choices
            .push(Note::new(at, &found.written, format!("{}: {how}", found.message)));
        edits.extend(found.edits);
    }
    // What lies inside a blanked statement goes with it.
    edits.retain(|e| {
        !blanks
            .iter()
            .any(|&(s, t)| s <= e.start && e.end <= t && (s, t) != (e.start, e.end))
    });
    edits.sort_by_key(|e| std::cmp::Reverse((e.start, e.end)));
    let mut out = text.to_owned();
    let mut floor = usize::MAX;
    for e in edits {
        if e.end > floor {
            continue;
        }
        let replacement = keeping_lines(&text[e.start..e.end], e.replacement);
        out.replace_range(e.start..e.end, &replacement);
        floor = e.start;
    }
    out
}

/// `replacement` with as many line breaks as the `replaced` text had, so no line moves.
fn keeping_lines(replaced: &str, replacement: String) -> String {
    let lost = replaced
        .matches('\n')
        .count()
        .saturating_sub(replacement.matches('\n').count());
    replacement + &"\n".repeat(lost)
}

/// The byte range of the top-level statement holding byte `at`, its `;` included.
fn statement_around(text: &str, tokens: &[Token], at: usize) -> (usize, usize) {
    let i = tokens.iter().position(|t| t.start >= at).unwrap_or(tokens.len());
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
