//! A query written for SurrealDB 2 (`type::thing`, `SEARCH ANALYZER`, `<future>`, `$x = v`, ...): each 2.x spelling a diagnostic (SQ1201..SQ1204) with its 3.x spelling as the fix, and the respelled query checked as usual, every finding at the text as written.
//!
//! The spellings and their 3.x forms are `surql::legacy`'s, the list `surqlc init` respells a
//! schema by. Only a reply SurrealDB's parser refused is read for them, so a query that parses
//! costs nothing here.

use super::scan::Locator;
use super::{habits, parse_error, resolve, Class, Edit, Options, QueryDiagnostic, Report, Span};
use crate::ir::Schema;
use crate::surql::legacy::{self, Found, Spelling};

/// Reads an unparsed `body` (at `base` in the reply) for SurrealDB 2's spellings. With none,
/// `false` and `report` untouched. Otherwise each is a diagnostic, and when every one has its
/// 3.x spelling the respelled body is checked as a parsed reply is (its parse error, SQL habits
/// or the resolver's findings), those findings moved back to the text as written.
pub(super) fn check(schema: &Schema, options: &Options, body: &str, base: usize, report: &mut Report) -> bool {
    let found = legacy::find(body);
    if found.is_empty() {
        return false;
    }
    report.diagnostics.extend(found.iter().map(|f| diagnostic(f, base)));
    if found.iter().any(|f| f.edits.is_empty()) {
        // The query cannot be respelled as a whole: its 2.x spelling is the finding.
        return true;
    }
    let edits = legacy::edits_of(&found);
    let text = legacy::respell(body, &found);
    let mut respelled = Report::default();
    let mut locator = Locator::new(&text, base);
    match surrealdb_syn::parse(&text) {
        Ok(ast) => {
            let quiet_nulls = resolve::statement(schema, options, &ast, &mut locator, &mut respelled);
            respelled
                .diagnostics
                .extend(habits::silent(&locator, schema, &quiet_nulls));
        }
        Err(e) => {
            let habits = habits::in_tokens(&locator, schema);
            if habits.is_empty() {
                let error = e.to_string();
                respelled.diagnostics.push(parse_error::diagnose(
                    &error,
                    &text,
                    base,
                    &locator,
                    options.profile == super::Profile::App,
                ));
            } else {
                respelled.diagnostics.extend(habits);
            }
        }
    }
    let back = Back { edits: &edits, base };
    moved_back(&back, respelled, report);
    true
}

/// The class a 2.x spelling is reported with.
fn class_of(spelling: Spelling) -> Class {
    match spelling {
        Spelling::Function => Class::V2Function,
        Spelling::SearchAnalyzer | Spelling::SearchOption | Spelling::Mtree | Spelling::FlexibleType => {
            Class::V2Definition
        }
        Spelling::Future => Class::V2Future,
        Spelling::LetlessParam
        | Spelling::SplitWithGroup
        | Spelling::LikeOperator
        | Spelling::OptionalPart
        | Spelling::Analyze
        | Spelling::Parallel => Class::V2Syntax,
    }
}

fn diagnostic(found: &Found, base: usize) -> QueryDiagnostic {
    let span = Span {
        start: base + found.start,
        end: base + found.end,
    };
    let mut d = QueryDiagnostic::new(
        span,
        class_of(found.spelling),
        found.message.clone(),
        found.instead.clone(),
    );
    d.fixes = found
        .edits
        .iter()
        .map(|e| Edit {
            span: Span {
                start: base + e.start,
                end: base + e.end,
            },
            replacement: e.replacement.clone(),
        })
        .collect();
    d
}

/// Positions in the respelled text moved back to the text as written.
struct Back<'e> {
    /// The respelling's edits, in text order, in the body's offsets.
    edits: &'e [legacy::Edit],
    /// Where the body starts in the reply.
    base: usize,
}

impl Back<'_> {
    /// Reply offset `at` in the respelled text, as an offset in the text as written: shifted past
    /// the edits before it; inside a replacement, the same distance into what it replaced (at most
    /// its end).
    fn offset(&self, at: usize) -> usize {
        let Some(q) = at.checked_sub(self.base) else {
            return at;
        };
        let mut shift: isize = 0;
        for e in self.edits {
            let new_start = e.start.saturating_add_signed(shift);
            if q < new_start {
                break;
            }
            let new_end = new_start + e.replacement.len();
            if q < new_end {
                return self.base + e.start + (q - new_start).min(e.end - e.start);
            }
            shift += e.replacement.len() as isize - (e.end - e.start) as isize;
        }
        self.base + q.saturating_add_signed(-shift)
    }

    fn span(&self, span: Span) -> Span {
        let start = self.offset(span.start);
        Span {
            start,
            end: self.offset(span.end).max(start),
        }
    }
}

/// The respelled query's report merged into `report`, every span moved back to the text as written.
fn moved_back(back: &Back, mut respelled: Report, report: &mut Report) {
    for d in &mut respelled.diagnostics {
        d.span = back.span(d.span);
        for e in &mut d.fixes {
            e.span = back.span(e.span);
        }
    }
    for r in &mut respelled.records {
        r.span = back.span(r.span);
    }
    for c in &mut respelled.compared {
        c.span = back.span(c.span);
    }
    report.diagnostics.append(&mut respelled.diagnostics);
    report.projections = respelled.projections;
    report.result = respelled.result;
    report.records = respelled.records;
    report.compared = respelled.compared;
    report.missing_limit = respelled.missing_limit;
    report.params = respelled.params;
    report.query_params = respelled.query_params;
    report.engine_params = respelled.engine_params;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_move_back_past_and_into_the_edits() {
        // `ab type::thing(x)` → `ab type::record(x)`: one edit at 3..14, one byte longer.
        let edits = [legacy::Edit {
            start: 3,
            end: 14,
            replacement: "type::record".into(),
        }];
        let back = Back {
            edits: &edits,
            base: 10,
        };
        assert_eq!(back.offset(10), 10);
        assert_eq!(back.offset(13), 13, "the replacement's start");
        assert_eq!(back.offset(25), 24, "the replacement's end is the replaced text's end");
        assert_eq!(back.offset(26), 25, "after it, one byte back");
        assert_eq!(back.offset(24), 24, "inside it, at most the replaced text's end");
        // An insertion (`LET `) shifts what follows it.
        let edits = [legacy::Edit {
            start: 0,
            end: 0,
            replacement: "LET ".into(),
        }];
        let back = Back { edits: &edits, base: 0 };
        assert_eq!(back.offset(4), 0);
        assert_eq!(back.offset(9), 5);
    }
}
