//! SurrealDB 2's spellings that SurrealDB 3.3's parser refuses, each found in the text with its 3.x spelling (or why none is mechanical): the one list `init` respells a schema by and the validator reports and repairs a query by.
//!
//! Sources: the engine's own table of renamed functions (`surrealdb_sql::builtin_paths::PATHS`,
//! whose second column is a path's old spelling), SurrealDB's migration guide "Upgrading from 2.x
//! to 3.x" (docs.surrealdb.com: its function table, futures replaced by `COMPUTED`, `LET` required,
//! GROUP and SPLIT exclusive, the like operators removed, `SEARCH ANALYZER`, `MTREE`, `ANALYZE`,
//! the optional part `?` spelled `.?`), and the messages 3.3.5's parser refuses each one with.
//! Every respelling is proven on the embedded engine by `tests/corpus/catalogue_legacy.surql`.

use super::scan::{code, Kind, Token};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Which 2.x spelling a [`Found`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Spelling {
    /// A function SurrealDB 3 renamed (`type::thing` is `type::record`, `string::is::email` is
    /// `string::is_email`, `duration::from::days` is `duration::from_days`).
    Function,
    /// `SEARCH ANALYZER` in a `DEFINE INDEX`: 3.x's `FULLTEXT ANALYZER`.
    SearchAnalyzer,
    /// A 2.x full-text index option (`DOC_IDS_ORDER 100`) 3.x has no words for: dropped.
    SearchOption,
    /// An `MTREE` vector index: 3.x's `HNSW` (its `CAPACITY` dropped).
    Mtree,
    /// `FLEXIBLE TYPE t` in a `DEFINE FIELD`: 3.x's `TYPE t FLEXIBLE`.
    FlexibleType,
    /// `<future> { e }`: `COMPUTED e` in a `DEFINE FIELD`'s `VALUE`; nothing elsewhere.
    Future,
    /// `$x = v` as a statement: 3.x's `LET $x = v`.
    LetlessParam,
    /// `SPLIT` beside `GROUP` in one SELECT: 3.x refuses the pair; in 2.x the SPLIT did nothing.
    SplitWithGroup,
    /// The like operators `~`, `!~`, `?~`, `*~`: removed, no mechanical spelling.
    LikeOperator,
    /// The optional part `x?.y`: 3.x's `x.?.y`.
    OptionalPart,
    /// The `ANALYZE INDEX` statement: removed, no spelling.
    Analyze,
    /// A statement's `PARALLEL` clause (2.x: fetch records in parallel, the same answer): removed.
    Parallel,
}

/// A replacement of part of the text: bytes `start..end` become `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The first byte replaced.
    pub start: usize,
    /// One past the last byte replaced (`start`: an insertion).
    pub end: usize,
    /// The 3.x text.
    pub replacement: String,
}

/// One 2.x spelling in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Which one.
    pub spelling: Spelling,
    /// The bytes of the 2.x spelling (what a diagnostic points at).
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// What was written, short: `type::thing`, `SEARCH ANALYZER`, `DOC_IDS_ORDER`.
    pub written: String,
    /// What it is and what SurrealDB 3 did with it.
    pub message: String,
    /// What to write instead (the 3.x spelling), or what to do when none is mechanical.
    pub instead: String,
    /// The edits that respell it; empty when SurrealDB 3 has no mechanical spelling.
    pub edits: Vec<Edit>,
}

/// Functions SurrealDB 3 renamed that the engine's own table does not list, each from the source
/// that names it: `geo::is::valid` in the migration guide's function table; `record::is::edge` in
/// 2.x's builtin table (`record::is::edge`), which 3.3.5's lists as `record::is_edge`.
const MORE_RENAMES: &[(&str, &str)] = &[
    ("geo::is::valid", "geo::is_valid"),
    ("record::is::edge", "record::is_edge"),
];

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

/// The clauses 3.x's `COMPUTED` cannot stand beside (the migration guide's "COMPUTED restrictions").
const NOT_WITH_COMPUTED: &[&str] = &["DEFAULT", "READONLY", "ASSERT", "REFERENCE", "FLEXIBLE"];

/// The clauses that may follow a SELECT's `SPLIT`: where the SPLIT ends.
const AFTER_SPLIT: &[&str] = &[
    "GROUP",
    "ORDER",
    "LIMIT",
    "START",
    "FETCH",
    "TIMEOUT",
    "PARALLEL",
    "TEMPFILES",
    "EXPLAIN",
    "WITH",
];

/// The 3.x name of a function SurrealDB 2 spelled `old` (any case), if SurrealDB 3 renamed it.
pub fn renamed(old: &str) -> Option<&'static str> {
    static TABLE: OnceLock<HashMap<String, &'static str>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let engine = surrealdb_sql::builtin_paths::PATHS
            .entries()
            .filter_map(|(new, (_, old))| old.map(|old| (old.into_inner(), new.into_inner())));
        engine
            .chain(MORE_RENAMES.iter().copied())
            .map(|(old, new)| (old.to_ascii_lowercase(), new))
            .collect()
    });
    table.get(&old.to_ascii_lowercase()).copied()
}

/// Every rename: (2.x name, 3.x name), sorted by the 2.x name.
pub fn renames() -> Vec<(String, &'static str)> {
    let engine = surrealdb_sql::builtin_paths::PATHS
        .entries()
        .filter_map(|(new, (_, old))| old.map(|old| (old.into_inner().to_owned(), new.into_inner())));
    let mut all: Vec<(String, &'static str)> = engine
        .chain(MORE_RENAMES.iter().map(|(o, n)| ((*o).to_owned(), *n)))
        .collect();
    all.sort();
    all
}

/// Every 2.x spelling in `text`, in text order.
pub fn find(text: &str) -> Vec<Found> {
    let tokens = code(text);
    let near = Near {
        text,
        t: &tokens,
        starts: statement_starts(&tokens),
    };
    let mut out = Vec::new();
    for i in 0..tokens.len() {
        let found = function(&near, i)
            .or_else(|| definition(&near, i))
            .or_else(|| future(&near, i))
            .or_else(|| syntax(&near, i));
        out.extend(found);
    }
    out
}

/// `text` with every mechanical respelling of `found` applied (overlapping edits: the first kept).
pub fn respell(text: &str, found: &[Found]) -> String {
    let edits = edits_of(found);
    let mut out = text.to_owned();
    for e in edits.iter().rev() {
        out.replace_range(e.start..e.end, &e.replacement);
    }
    out
}

/// The edits of `found`, in text order, without overlaps.
pub fn edits_of(found: &[Found]) -> Vec<Edit> {
    let mut edits: Vec<Edit> = found.iter().flat_map(|f| f.edits.iter().cloned()).collect();
    edits.sort_by_key(|e| (e.start, e.end));
    let mut kept: Vec<Edit> = Vec::with_capacity(edits.len());
    for e in edits {
        if kept.last().is_none_or(|last| last.end <= e.start && last != &e) {
            kept.push(e);
        }
    }
    kept
}

/// The tokens of a text, with where each one's top-level statement starts.
struct Near<'a> {
    text: &'a str,
    t: &'a [Token],
    /// For each token, the index of the first token of its top-level statement.
    starts: Vec<usize>,
}

impl Near<'_> {
    fn word(&self, i: usize, w: &str) -> bool {
        self.t.get(i).is_some_and(|t| t.is_word(w))
    }
    fn punct(&self, i: usize, p: &str) -> bool {
        self.t.get(i).is_some_and(|t| t.is_punct(p))
    }
    /// Whether tokens `i` and `i + 1` touch (no space between them).
    fn touch(&self, i: usize) -> bool {
        matches!((self.t.get(i), self.t.get(i + 1)), (Some(a), Some(b)) if a.end == b.start)
    }
    /// Whether token `i` ends a value (so an operator after it is binary).
    fn ends_value(&self, i: usize) -> bool {
        self.t.get(i).is_some_and(|t| {
            matches!(t.kind, Kind::Ident | Kind::Str | Kind::Number | Kind::Param)
                || t.is_punct(")")
                || t.is_punct("]")
                || t.is_punct("}")
        })
    }
    /// The index of the bracket closing the one opened at `open`, at the same depth.
    fn closing(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (j, t) in self.t.iter().enumerate().skip(open) {
            if is_open(t) {
                depth += 1;
            } else if is_close(t) {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(j);
                }
            }
        }
        None
    }
    /// The token indices of the top-level statement holding token `i`, `;` excluded.
    fn statement(&self, i: usize) -> std::ops::Range<usize> {
        let start = self.starts[i];
        let end = (start..self.t.len())
            .find(|&j| j > i && self.starts[j] != start)
            .map_or(self.t.len(), |j| j - 1);
        start..end
    }
    fn found(&self, spelling: Spelling, (i, j): (usize, usize), message: String, instead: String) -> Found {
        let (start, end) = (self.t[i].start, self.t[j].end);
        Found {
            spelling,
            start,
            end,
            written: self.text[start..end].to_owned(),
            message,
            instead,
            edits: Vec::new(),
        }
    }
}

fn is_open(t: &Token) -> bool {
    t.is_punct("(") || t.is_punct("[") || t.is_punct("{")
}

fn is_close(t: &Token) -> bool {
    t.is_punct(")") || t.is_punct("]") || t.is_punct("}")
}

/// For each token, the first token of its top-level statement (statements end at `;` outside brackets).
fn statement_starts(tokens: &[Token]) -> Vec<usize> {
    let (mut depth, mut start) = (0usize, 0usize);
    let mut out = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        out.push(start);
        if is_open(t) {
            depth += 1;
        } else if is_close(t) {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && t.is_punct(";") {
            start = i + 1;
        }
    }
    out
}

/// A renamed function's path starting at token `i` (`type::thing`, `string::is::email`).
fn function(near: &Near, i: usize) -> Option<Found> {
    let t = near.t;
    if t[i].kind != Kind::Ident || (i > 0 && (t[i - 1].is_punct("::") || t[i - 1].is_punct("."))) {
        return None;
    }
    let mut j = i;
    while near.punct(j + 1, "::") && near.touch(j) && near.touch(j + 1) && t.get(j + 2)?.kind == Kind::Ident {
        j += 2;
    }
    if j == i {
        return None;
    }
    let written = &near.text[t[i].start..t[j].end];
    let new = renamed(written)?;
    let mut found = near.found(
        Spelling::Function,
        (i, j),
        format!("`{written}` is SurrealDB 2's name for `{new}`, which SurrealDB 3 renamed"),
        format!("write `{new}`"),
    );
    found.edits.push(Edit {
        start: found.start,
        end: found.end,
        replacement: new.to_owned(),
    });
    Some(found)
}

/// A 2.x spelling in a `DEFINE INDEX` or `DEFINE FIELD` at token `i`: `SEARCH ANALYZER`, a
/// full-text option, `MTREE`, `FLEXIBLE TYPE`.
fn definition(near: &Near, i: usize) -> Option<Found> {
    let t = near.t;
    if near.word(i, "SEARCH") && near.word(i + 1, "ANALYZER") {
        let mut found = near.found(
            Spelling::SearchAnalyzer,
            (i, i + 1),
            "`SEARCH ANALYZER` is SurrealDB 2's full-text index, which SurrealDB 3 spells `FULLTEXT ANALYZER`".into(),
            "write `FULLTEXT ANALYZER`".into(),
        );
        found.edits.push(replace(&t[i], "FULLTEXT"));
        return Some(found);
    }
    if SEARCH_OPTIONS.iter().any(|o| t[i].is_word(o)) {
        let j = if t.get(i + 1).is_some_and(|n| n.kind == Kind::Number) {
            i + 1
        } else {
            i
        };
        let mut found = near.found(
            Spelling::SearchOption,
            (i, j),
            format!(
                "`{}` is a SurrealDB 2 full-text option SurrealDB 3 has no words for (it sizes the index itself)",
                t[i].text
            ),
            "remove it".into(),
        );
        found.edits.push(remove(near, i, j));
        return Some(found);
    }
    if near.word(i, "MTREE") && near.word(i + 1, "DIMENSION") {
        return Some(mtree(near, i));
    }
    if near.word(i, "FLEXIBLE") && near.word(i + 1, "TYPE") {
        let end = type_end(t, i + 2)?;
        let mut found = near.found(
            Spelling::FlexibleType,
            (i, i + 1),
            "`FLEXIBLE TYPE` is SurrealDB 2's order, which SurrealDB 3 spells `TYPE ... FLEXIBLE`".into(),
            "write the type first and `FLEXIBLE` after it".into(),
        );
        found.edits.push(Edit {
            start: t[i].start,
            end: t[i + 1].start,
            replacement: String::new(),
        });
        found.edits.push(Edit {
            start: end,
            end,
            replacement: " FLEXIBLE".into(),
        });
        return Some(found);
    }
    None
}

/// An `MTREE DIMENSION n` index at token `i`: SurrealDB 3's vector index is `HNSW`, which takes
/// the same `DIMENSION`, `DIST` and `TYPE` but no `CAPACITY`.
fn mtree(near: &Near, i: usize) -> Found {
    let t = near.t;
    let mut found = near.found(
        Spelling::Mtree,
        (i, i),
        "`MTREE` is SurrealDB 2's vector index, which SurrealDB 3 removed: its vector index is `HNSW` \
         (approximate nearest neighbours where MTREE was exact)"
            .into(),
        "write `HNSW` (with the same DIMENSION, DIST and TYPE, and no CAPACITY)".into(),
    );
    found.edits.push(replace(&t[i], "HNSW"));
    let statement = near.statement(i);
    for j in i + 1..statement.end {
        if t[j].is_word("CAPACITY") && t.get(j + 1).is_some_and(|n| n.kind == Kind::Number) {
            found.edits.push(remove(near, j, j + 1));
        }
    }
    found
}

/// `<future> { ... }` at token `i`: in a top-level `DEFINE FIELD`'s `VALUE` (and no clause
/// `COMPUTED` cannot stand beside, on a top-level field) it is `COMPUTED`; elsewhere SurrealDB 3
/// has no spelling for it (a value stored in a record is not computed on read).
fn future(near: &Near, i: usize) -> Option<Found> {
    let t = near.t;
    if !(near.punct(i, "<") && near.word(i + 1, "future") && near.punct(i + 2, ">")) {
        return None;
    }
    let open = i + 3;
    let close = near.punct(open, "{").then(|| near.closing(open)).flatten();
    let last = close.unwrap_or(i + 2);
    let mut found = near.found(
        Spelling::Future,
        (i, last),
        "`<future>` is SurrealDB 2's value computed on every read, which SurrealDB 3 removed".into(),
        "a value computed on every read is a field defined with `COMPUTED expr` (only in DEFINE FIELD, \
         on a top-level field); a future stored in a record or a DEFAULT has no SurrealDB 3 spelling"
            .into(),
    );
    found.written = "<future>".into();
    let Some(close) = close else {
        return Some(found);
    };
    let statement = near.statement(i);
    let in_value = i > 0 && t[i - 1].is_word("VALUE");
    let define_field = near.word(statement.start, "DEFINE") && near.word(statement.start + 1, "FIELD");
    let (name, conflict) = field_name_and_conflict(near, statement);
    if !(in_value && define_field) || conflict || name.contains('.') || name.contains('[') || close == open + 1 {
        return Some(found);
    }
    // `VALUE <future> { e }` is `COMPUTED e`; a body of several statements keeps its braces.
    let several = (open + 1..close).any(|j| t[j].is_punct(";") && depth_of(t, open, j) == 1);
    let (body_start, body_end) = if several {
        (t[open].start, t[close].end)
    } else {
        (t[open + 1].start, t[close - 1].end)
    };
    found.instead = "write `COMPUTED` and the future's expression".into();
    found.edits.push(Edit {
        start: t[i - 1].start,
        end: body_start,
        replacement: "COMPUTED ".into(),
    });
    found.edits.push(Edit {
        start: body_end,
        end: t[close].end,
        replacement: String::new(),
    });
    Some(found)
}

/// How deep token `j` is inside the bracket opened at `open` (1: directly inside it).
fn depth_of(t: &[Token], open: usize, j: usize) -> usize {
    let mut depth = 0usize;
    for tok in &t[open..j] {
        if is_open(tok) {
            depth += 1;
        } else if is_close(tok) {
            depth = depth.saturating_sub(1);
        }
    }
    depth
}

/// A `DEFINE FIELD` statement's field name as written, and whether it has a clause `COMPUTED`
/// cannot stand beside.
fn field_name_and_conflict(near: &Near, statement: std::ops::Range<usize>) -> (String, bool) {
    let t = near.t;
    let mut j = statement.start + 2;
    while j < statement.end
        && (t[j].is_word("IF") || t[j].is_word("NOT") || t[j].is_word("EXISTS") || t[j].is_word("OVERWRITE"))
    {
        j += 1;
    }
    let on = (j..statement.end)
        .find(|&k| t[k].is_word("ON"))
        .unwrap_or(statement.end);
    let name = t.get(j).map_or(String::new(), |first| {
        let end = t.get(on.saturating_sub(1)).map_or(first.end, |l| l.end.max(first.end));
        near.text[first.start..end].to_owned()
    });
    let mut depth = 0usize;
    let mut conflict = false;
    for tok in &t[on.min(statement.end)..statement.end] {
        if is_open(tok) {
            depth += 1;
        } else if is_close(tok) {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && NOT_WITH_COMPUTED.iter().any(|c| tok.is_word(c)) {
            conflict = true;
        }
    }
    (name, conflict)
}

/// A statement or operator of 2.x at token `i`: `$x = v` without LET, SPLIT beside GROUP, a like
/// operator, `x?.y`, `ANALYZE INDEX`.
fn syntax(near: &Near, i: usize) -> Option<Found> {
    let t = near.t;
    let at_start = i == 0 || t[i - 1].is_punct(";") || t[i - 1].is_punct("{");
    if at_start && t[i].kind == Kind::Param && near.punct(i + 1, "=") {
        let mut found = near.found(
            Spelling::LetlessParam,
            (i, i + 1),
            format!(
                "`${} = ...` declares a parameter without LET, which SurrealDB 3 refuses",
                t[i].text
            ),
            format!("write `LET ${} = ...`", t[i].text),
        );
        found.edits.push(Edit {
            start: t[i].start,
            end: t[i].start,
            replacement: "LET ".into(),
        });
        return Some(found);
    }
    if at_start && t[i].is_word("ANALYZE") && near.word(i + 1, "INDEX") {
        return Some(near.found(
            Spelling::Analyze,
            (i, i + 1),
            "`ANALYZE INDEX` is a SurrealDB 2 statement SurrealDB 3 removed".into(),
            "remove the statement: SurrealDB 3 has no statistics of a full-text index to show".into(),
        ));
    }
    if t[i].is_word("SPLIT") {
        return split_with_group(near, i);
    }
    if t[i].is_word("PARALLEL") {
        return parallel(near, i);
    }
    if t[i].is_punct("~") {
        return like_operator(near, i);
    }
    if t[i].is_punct("?")
        && near.punct(i + 1, ".")
        && near.touch(i)
        && i > 0
        && near.touch(i - 1)
        && near.ends_value(i - 1)
    {
        let mut found = near.found(
            Spelling::OptionalPart,
            (i, i + 1),
            "`?.` is SurrealDB 2's optional part, which SurrealDB 3 spells `.?.`".into(),
            "write `.?` for the optional part".into(),
        );
        found.edits.push(replace(&t[i], ".?"));
        return Some(found);
    }
    None
}

/// A `SPLIT` at token `i` in a SELECT that also has `GROUP`: SurrealDB 3 refuses the pair ("SPLIT
/// and GROUP are mutually exclusive"); in SurrealDB 2 the SPLIT did nothing (the migration
/// guide), so the repair removes it.
fn split_with_group(near: &Near, i: usize) -> Option<Found> {
    let t = near.t;
    let mut depth = 0usize;
    let mut end = None;
    let mut group = false;
    for (j, tok) in t.iter().enumerate().skip(i + 1) {
        if is_open(tok) {
            depth += 1;
        } else if is_close(tok) {
            if depth == 0 {
                break;
            }
            depth -= 1;
        } else if depth == 0 && tok.is_punct(";") {
            break;
        } else if depth == 0 && AFTER_SPLIT.iter().any(|w| tok.is_word(w)) {
            end.get_or_insert(j);
            if tok.is_word("GROUP") {
                group = true;
                break;
            }
        }
    }
    let end = end?;
    if !group || end <= i + 1 {
        return None;
    }
    let mut found = near.found(
        Spelling::SplitWithGroup,
        (i, end - 1),
        "SPLIT beside GROUP: SurrealDB 3 refuses the pair, and in SurrealDB 2 the SPLIT did nothing".into(),
        "remove the SPLIT (or split in a subquery and group its rows)".into(),
    );
    found.edits.push(Edit {
        start: t[i].start,
        end: t[end].start,
        replacement: String::new(),
    });
    Some(found)
}

/// A `PARALLEL` clause at token `i`: after a value, at the end of a statement (or before
/// `TEMPFILES`/`EXPLAIN`) that reads or writes. 3.3.5 lexes the keyword but no statement takes it;
/// in 2.x it only fetched records in parallel, so the repair removes it.
fn parallel(near: &Near, i: usize) -> Option<Found> {
    let t = near.t;
    let first = near.statement(i).start;
    let statement = ["SELECT", "CREATE", "UPDATE", "UPSERT", "DELETE", "RELATE", "INSERT"];
    let ends = t
        .get(i + 1)
        .is_none_or(|n| n.is_punct(";") || n.is_punct(")") || n.is_word("TEMPFILES") || n.is_word("EXPLAIN"));
    if i == 0 || !near.ends_value(i - 1) || !ends || !statement.iter().any(|w| near.word(first, w)) {
        return None;
    }
    let mut found = near.found(
        Spelling::Parallel,
        (i, i),
        "`PARALLEL` is a SurrealDB 2 clause (records fetched in parallel, the same answer) SurrealDB 3 removed".into(),
        "remove it".into(),
    );
    found.edits.push(remove(near, i, i));
    Some(found)
}

/// A like operator (`~`, `!~`, `?~`, `*~`) at token `i` between two values.
fn like_operator(near: &Near, i: usize) -> Option<Found> {
    let t = near.t;
    let first = if i > 0 && near.touch(i - 1) && ["!", "?", "*"].iter().any(|p| t[i - 1].is_punct(p)) {
        i - 1
    } else {
        i
    };
    if first == 0 || !near.ends_value(first - 1) || t.get(i + 1).is_none_or(|n| n.kind == Kind::Punct && !is_open(n)) {
        return None;
    }
    let op = &near.text[t[first].start..t[i].end];
    Some(
        near.found(
            Spelling::LikeOperator,
            (first, i),
            format!("`{op}` is SurrealDB 2's fuzzy-match operator, which SurrealDB 3 removed"),
            "compare a similarity with a cutoff of your own: string::similarity::jaro(a, b) > 0.8 \
         (or string::similarity::fuzzy, string::distance::*)"
                .into(),
        ),
    )
}

/// Where the type starting at token `from` ends: before the first field clause or `;` outside brackets.
fn type_end(tokens: &[Token], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut last_end = None;
    for t in tokens.get(from..)? {
        if depth == 0 && (t.is_punct(";") || FIELD_CLAUSES.iter().any(|c| t.is_word(c))) {
            return last_end;
        }
        if t.is_punct("<") || is_open(t) {
            depth += 1;
        } else if t.is_punct(">") || is_close(t) {
            depth -= 1;
        }
        last_end = Some(t.end);
    }
    last_end
}

fn replace(t: &Token, with: &str) -> Edit {
    Edit {
        start: t.start,
        end: t.end,
        replacement: with.to_owned(),
    }
}

/// The removal of tokens `i..=j` and the space before them.
fn remove(near: &Near, i: usize, j: usize) -> Edit {
    let start = if i > 0 { near.t[i - 1].end } else { near.t[i].start };
    Edit {
        start,
        end: near.t[j].end,
        replacement: String::new(),
    }
}

#[cfg(test)]
mod tests;
