//! Where a name, string or keyword sits in the query text: the validator's locator over the one SurrealQL reader ([`crate::surql::scan`]).
//!
//! SurrealDB's AST carries no positions, so the resolver asks the locator where the thing it
//! complains about was written. It never fails and never panics: any text is tokens.

use super::Span;
pub(crate) use crate::surql::scan::{Kind, Token};

/// Tokens of `text` with byte offsets; comments and whitespace dropped.
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    crate::surql::scan::code(text)
}

impl Token {
    /// Where the token is in the text, as a validator span.
    pub fn span(&self) -> Span {
        Span {
            start: self.start,
            end: self.end,
        }
    }
}

/// Whether `tokens` from `i` spell `want` (tokens the parser printed back), and the last token
/// they take: names and keywords in any case, and an operator in any spelling the parser reads as
/// the one it prints (`IN` is printed `INSIDE`, `NOT IN` `NOTINSIDE`, `IS` `=`, `&&` `AND`).
fn spells(tokens: &[Token], i: usize, want: &[Token]) -> Option<usize> {
    let mut j = i;
    for w in want {
        let at = |k: usize| tokens.get(j + k);
        let word = |k: usize, s: &str| at(k).is_some_and(|t| t.is_word(s));
        let punct = |k: usize, s: &str| at(k).is_some_and(|t| t.is_punct(s));
        let same = at(0).is_some_and(|t| t.kind == w.kind && t.text.eq_ignore_ascii_case(&w.text));
        let taken = if same {
            1
        } else {
            match (w.kind, w.text.to_ascii_uppercase().as_str()) {
                (Kind::Ident, "INSIDE") if word(0, "IN") => 1,
                (Kind::Ident, "NOTINSIDE") if word(0, "NOT") && (word(1, "IN") || word(1, "INSIDE")) => 2,
                (Kind::Ident, "CONTAINSNOT") if word(0, "CONTAINS") && word(1, "NOT") => 2,
                (Kind::Ident, "AND") if punct(0, "&&") => 1,
                (Kind::Ident, "OR") if punct(0, "||") => 1,
                (Kind::Punct, "=") if word(0, "IS") && !word(1, "NOT") => 1,
                (Kind::Punct, "!=") if word(0, "IS") && word(1, "NOT") => 2,
                _ => return None,
            }
        };
        j += taken;
    }
    Some(j - 1)
}

fn prev(tokens: &[Token], i: usize) -> Option<&Token> {
    i.checked_sub(1).and_then(|p| tokens.get(p))
}

/// Finds tokens for diagnostics, each at most once, so repeated names get successive spans.
///
/// The text is scanned the first time a token is asked for: a query the resolver finds nothing
/// in is never scanned (scanning was a fifth of a validation's cost, `validate_cost`).
pub(crate) struct Locator {
    text: String,
    scanned: std::cell::OnceCell<Vec<Token>>,
    /// Which tokens a finding took (sized when the text is scanned).
    used: Vec<bool>,
    /// Byte offset of the scanned text within the query (a fenced reply's body).
    base: usize,
    len: usize,
}

impl Locator {
    pub fn new(text: &str, base: usize) -> Self {
        Locator {
            text: text.to_owned(),
            scanned: std::cell::OnceCell::new(),
            used: Vec::new(),
            base,
            len: text.len(),
        }
    }

    /// The text the locator reads (without the base offset).
    pub fn source(&self) -> &str {
        &self.text
    }

    /// The text's tokens, comments and whitespace dropped; scanned on the first call.
    pub fn tokens(&self) -> &[Token] {
        self.scanned.get_or_init(|| tokens(&self.text))
    }

    /// The tokens and which of them are taken, for the searches that take one.
    fn tokens_used(&mut self) -> (&[Token], &mut Vec<bool>) {
        let tokens = self.scanned.get_or_init(|| tokens(&self.text));
        if self.used.len() != tokens.len() {
            self.used = vec![false; tokens.len()];
        }
        (tokens, &mut self.used)
    }

    fn shift(&self, span: Span) -> Span {
        Span {
            start: span.start + self.base,
            end: span.end + self.base,
        }
    }

    /// The text a span (in query offsets) covers, as the query writes it.
    pub fn written(&self, span: Span) -> Option<&str> {
        let start = span.start.checked_sub(self.base)?;
        let end = span.end.checked_sub(self.base)?;
        self.text.get(start..end)
    }

    /// Where an expression the parser printed back (`printed`) was written ([`Locator::text`]), and
    /// its text as written (`NOT IN`, which the parser prints `NOTINSIDE`); the whole query and the
    /// printed text when it is not found.
    pub fn as_written(&mut self, printed: String) -> (Span, String) {
        match self.text(&printed) {
            Some(span) => (span, self.written(span).map_or(printed, str::to_owned)),
            None => (self.all(), printed),
        }
    }

    /// The whole scanned text.
    pub fn all(&self) -> Span {
        self.shift(Span {
            start: 0,
            end: self.len,
        })
    }

    /// An empty span at the end of the statement (before a trailing `;`).
    pub fn end(&self) -> Span {
        let end = self
            .tokens()
            .iter()
            .rev()
            .find(|t| !t.is_punct(";"))
            .map_or(0, |t| t.end);
        self.shift(Span { start: end, end })
    }

    /// The span from token `i` to token `j` (inclusive), in query offsets.
    pub fn token_span(&self, i: usize, j: usize) -> Span {
        let tokens = self.tokens();
        let last = tokens.len().saturating_sub(1);
        let (a, b) = (i.min(last), j.min(last).max(i.min(last)));
        match (tokens.get(a), tokens.get(b)) {
            (Some(x), Some(y)) => self.shift(Span {
                start: x.start,
                end: y.end,
            }),
            _ => self.all(),
        }
    }

    fn take(&mut self, pred: impl Fn(usize, &Token) -> bool) -> Option<Span> {
        self.take_in(|tokens, i| pred(i, &tokens[i]))
    }

    fn take_in(&mut self, pred: impl Fn(&[Token], usize) -> bool) -> Option<Span> {
        let (tokens, used) = self.tokens_used();
        let found = (0..tokens.len()).find(|&i| !used[i] && pred(tokens, i))?;
        used[found] = true;
        let span = tokens[found].span();
        Some(self.shift(span))
    }

    /// The first unused identifier `name`, preferring one right after one of `after` (punctuation or words).
    pub fn ident(&mut self, name: &str, after: &[&str]) -> Option<Span> {
        if !after.is_empty() {
            let found = self.take_in(|tokens, i| {
                tokens[i].kind == Kind::Ident
                    && tokens[i].text == name
                    && prev(tokens, i).is_some_and(|p| after.iter().any(|a| p.text.eq_ignore_ascii_case(a)))
            });
            if found.is_some() {
                return found;
            }
        }
        self.take(|_, t| t.kind == Kind::Ident && t.text == name)
            .or_else(|| self.take(|_, t| t.kind == Kind::Ident && t.text.eq_ignore_ascii_case(name)))
    }

    /// The first unused parameter `$name`.
    pub fn param(&mut self, name: &str) -> Option<Span> {
        self.take(|_, t| t.kind == Kind::Param && t.text.trim_start_matches('$') == name)
    }

    /// The first unused string literal with content `value`.
    pub fn string(&mut self, value: &str) -> Option<Span> {
        self.take(|_, t| t.kind == Kind::Str && t.text == value)
    }

    /// The first unused punctuation `p` (`*`).
    pub fn punct(&mut self, p: &str) -> Option<Span> {
        self.take(|_, t| t.is_punct(p))
    }

    /// Where an expression the parser printed back (`text`, SurrealQL) was written: the first
    /// unused run of tokens that spells it (names in any case, operators in any of their spellings).
    pub fn text(&mut self, text: &str) -> Option<Span> {
        let want = tokens(text);
        if want.is_empty() {
            return None;
        }
        let (tokens, used) = self.tokens_used();
        let (i, j) =
            (0..tokens.len()).find_map(|i| (!used[i]).then(|| spells(tokens, i, &want)).flatten().map(|j| (i, j)))?;
        used[i] = true;
        let span = Span {
            start: tokens[i].start,
            end: tokens[j].end,
        };
        Some(self.shift(span))
    }

    /// Where `text` (SurrealQL the parser printed back) is first written, whether or not another
    /// finding already points there: a second finding about the same words.
    pub fn find_text(&self, text: &str) -> Option<Span> {
        self.find_text_from(0, text)
    }

    fn find_text_from(&self, from: usize, text: &str) -> Option<Span> {
        let want = tokens(text);
        if want.is_empty() {
            return None;
        }
        let tokens = self.tokens();
        let (i, j) = (from..tokens.len()).find_map(|i| spells(tokens, i, &want).map(|j| (i, j)))?;
        Some(self.shift(Span {
            start: tokens[i].start,
            end: tokens[j].end,
        }))
    }

    /// Where `text` is written after the keyword `word` (`FETCH orders` in a query that also
    /// projects `orders`), whether or not another finding points there; else where it is first written.
    pub fn text_after(&self, word: &str, text: &str) -> Option<Span> {
        let from = self.tokens().iter().position(|t| t.is_word(word))?;
        self.find_text_from(from, text).or_else(|| self.find_text(text))
    }

    /// The first unused keyword `word` (any case).
    pub fn word(&mut self, word: &str) -> Option<Span> {
        self.take(|_, t| t.is_word(word))
    }

    /// `word` and the token after it (`LIMIT 500`).
    pub fn word_and_next(&mut self, word: &str) -> Option<Span> {
        let (tokens, used) = self.tokens_used();
        let i = (0..tokens.len()).find(|&i| !used[i] && tokens[i].is_word(word))?;
        used[i] = true;
        let end = tokens.get(i + 1).map_or(tokens[i].end, |t| t.end);
        let span = Span {
            start: tokens[i].start,
            end,
        };
        Some(self.shift(span))
    }

    /// A `table:key` record id.
    pub fn record(&mut self, table: &str) -> Option<Span> {
        let (tokens, used) = self.tokens_used();
        let i = (0..tokens.len()).find(|&i| {
            !used[i]
                && tokens[i].kind == Kind::Ident
                && tokens[i].text == table
                && tokens.get(i + 1).is_some_and(|t| t.is_punct(":"))
        })?;
        used[i] = true;
        let end = tokens.get(i + 2).map_or(tokens[i].end, |t| t.end);
        let span = Span {
            start: tokens[i].start,
            end,
        };
        Some(self.shift(span))
    }

    /// A bracket `[ ... ]` that does not start with `WHERE`, `?`, a number or a parameter: an index written as a filter.
    pub fn bracket_filter(&mut self) -> Option<Span> {
        let (tokens, used) = self.tokens_used();
        let i = (0..tokens.len()).find(|&i| {
            !used[i]
                && tokens[i].is_punct("[")
                && prev(tokens, i).is_some_and(|p| p.kind == Kind::Ident || p.is_punct("]"))
                && tokens.get(i + 1).is_some_and(|n| {
                    !(n.is_word("where")
                        || n.is_punct("?")
                        || n.is_punct("]")
                        || n.is_punct("$")
                        || n.kind == Kind::Number
                        || n.kind == Kind::Param)
                })
        })?;
        used[i] = true;
        let mut depth = 0usize;
        let mut end = tokens[i].end;
        for t in &tokens[i..] {
            if t.is_punct("[") {
                depth += 1;
            } else if t.is_punct("]") {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    end = t.end;
                    break;
                }
            }
            end = t.end;
        }
        let span = Span {
            start: tokens[i].start,
            end,
        };
        Some(self.shift(span))
    }
}

/// A span the locator found, or the whole query when it found none.
pub(crate) trait OrAll {
    fn or_all(self, loc: &Locator) -> Span;
}

impl OrAll for Option<Span> {
    fn or_all(self, loc: &Locator) -> Span {
        self.unwrap_or_else(|| loc.all())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_strings_and_comments() {
        let text = "SELECT `a b`, d'2025-01-01' FROM x->y -- c 'not a string'\nWHERE s = \"it\\\"s\"";
        let t = tokens(text);
        let kinds: Vec<(Kind, &str)> = t.iter().map(|t| (t.kind, t.text.as_str())).collect();
        assert_eq!(
            kinds,
            [
                (Kind::Ident, "SELECT"),
                (Kind::Ident, "a b"),
                (Kind::Punct, ","),
                (Kind::Str, "2025-01-01"),
                (Kind::Ident, "FROM"),
                (Kind::Ident, "x"),
                (Kind::Punct, "->"),
                (Kind::Ident, "y"),
                (Kind::Ident, "WHERE"),
                (Kind::Ident, "s"),
                (Kind::Punct, "="),
                (Kind::Str, "it\"s"),
            ]
        );
        assert_eq!(&text[t[7].start..t[7].end], "y");
    }

    #[test]
    fn printed_operators_are_found_in_any_spelling() {
        for (source, printed, written) in [
            ("SELECT 1 FROM t WHERE a IN [1]", "a INSIDE [1]", "a IN [1]"),
            (
                "SELECT 1 FROM t WHERE NONE NOT IN []",
                "NONE NOTINSIDE []",
                "NONE NOT IN []",
            ),
            ("SELECT 1 FROM t WHERE a IS NONE", "a = NONE", "a IS NONE"),
            ("SELECT 1 FROM t WHERE a IS NOT NONE", "a != NONE", "a IS NOT NONE"),
            ("SELECT 1 FROM t WHERE a && b || c", "a AND b OR c", "a && b || c"),
            (
                "SELECT 1 FROM t WHERE tags CONTAINS NOT 'x'",
                "tags CONTAINSNOT 'x'",
                "tags CONTAINS NOT 'x'",
            ),
        ] {
            let mut loc = Locator::new(source, 0);
            let span = loc.text(printed).unwrap_or_else(|| panic!("{printed} in {source}"));
            assert_eq!(&source[span.start..span.end], written);
            let found = loc.find_text(printed).expect("found again");
            assert_eq!(&source[found.start..found.end], written);
        }
        // `IS` before `NOT` is `!=`, never `=` followed by a stray NOT.
        assert!(Locator::new("a IS NOT NONE", 0).text("a = NONE").is_none());
    }

    #[test]
    fn any_text_scans() {
        for text in ["'", "`", "⟨", "/*", "$", "1..", "é\u{2028}x", "\\", "d'"] {
            let _ = tokens(text);
        }
    }
}
