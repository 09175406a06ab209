//! A forgiving tokenizer for spans only: it finds where a name, string or keyword sits in the query text.
//!
//! SurrealDB's AST carries no positions, so the resolver asks this scanner where the thing it
//! complains about was written. It never fails and never panics: any text is tokens.

use super::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A name: bare, backticked or in `⟨⟩`; `text` is the name itself.
    Ident,
    /// A quoted string, possibly prefixed (`d'...'`, `r"..."`); `text` is its content.
    Str,
    Number,
    /// `$name`; `text` is the name.
    Param,
    /// Punctuation and operators (`->`, `<-`, `[`, `*`, ...).
    Punct,
}

#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub kind: Kind,
    pub text: String,
    pub start: usize,
    pub end: usize,
}

impl Token {
    pub fn span(&self) -> Span {
        Span {
            start: self.start,
            end: self.end,
        }
    }

    /// An identifier spelled `word`, in any case (keywords are case-insensitive).
    pub fn is_word(&self, word: &str) -> bool {
        self.kind == Kind::Ident && self.text.eq_ignore_ascii_case(word)
    }

    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == Kind::Punct && self.text == p
    }
}

const MULTI_PUNCT: &[&str] = &[
    "<->", "->", "<-", "<~", "::", "..", "!=", "<=", ">=", "==", "?:", "??", "?=", "*=", "||",
    "&&", "<>",
];

/// Tokens of `text` with byte offsets; comments and whitespace dropped.
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |i: usize| bytes.get(i).map_or(text.len(), |(o, _)| *o);
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let (start, c) = bytes[i];
        let next = bytes.get(i + 1).map(|(_, c)| *c);
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        // Comments: `-- `, `#`, `//` to the end of the line; `/* */`.
        if (c == '-' && next == Some('-')) || c == '#' || (c == '/' && next == Some('/')) {
            while i < bytes.len() && !matches!(bytes[i].1, '\n' | '\r') {
                i += 1;
            }
            continue;
        }
        if c == '/' && next == Some('*') {
            i += 2;
            while i < bytes.len()
                && !(bytes[i].1 == '*' && bytes.get(i + 1).map(|b| b.1) == Some('/'))
            {
                i += 1;
            }
            i = (i + 2).min(bytes.len());
            continue;
        }
        if c == '\'' || c == '"' {
            let (content, j) = quoted(&bytes, i, c);
            out.push(Token {
                kind: Kind::Str,
                text: content,
                start,
                end: end_of(j),
            });
            i = j;
            continue;
        }
        if c == '`' || c == '⟨' {
            let close = if c == '`' { '`' } else { '⟩' };
            let (content, j) = quoted(&bytes, i, close);
            out.push(Token {
                kind: Kind::Ident,
                text: content,
                start,
                end: end_of(j),
            });
            i = j;
            continue;
        }
        if c == '$' {
            let mut j = i + 1;
            while j < bytes.len() && is_ident_char(bytes[j].1) {
                j += 1;
            }
            out.push(Token {
                kind: Kind::Param,
                text: text[end_of(i + 1)..end_of(j)].to_owned(),
                start,
                end: end_of(j),
            });
            i = j;
            continue;
        }
        if c.is_ascii_digit() {
            let mut j = i + 1;
            while j < bytes.len() {
                let d = bytes[j].1;
                // `1..5` is a range: stop before `..`.
                if d == '.' && bytes.get(j + 1).map(|b| b.1) == Some('.') {
                    break;
                }
                if d.is_ascii_alphanumeric() || d == '_' || d == '.' {
                    j += 1;
                } else {
                    break;
                }
            }
            out.push(Token {
                kind: Kind::Number,
                text: text[start..end_of(j)].to_owned(),
                start,
                end: end_of(j),
            });
            i = j;
            continue;
        }
        if is_ident_char(c) {
            let mut j = i + 1;
            while j < bytes.len() && is_ident_char(bytes[j].1) {
                j += 1;
            }
            // A one-letter string prefix: d'...', r"...", u'...', s'...', b'...'.
            if j == i + 1 && matches!(c, 'd' | 'r' | 'u' | 's' | 'b' | 'f') {
                if let Some(&(_, q @ ('\'' | '"'))) = bytes.get(j) {
                    let (content, k) = quoted(&bytes, j, q);
                    out.push(Token {
                        kind: Kind::Str,
                        text: content,
                        start,
                        end: end_of(k),
                    });
                    i = k;
                    continue;
                }
            }
            out.push(Token {
                kind: Kind::Ident,
                text: text[start..end_of(j)].to_owned(),
                start,
                end: end_of(j),
            });
            i = j;
            continue;
        }
        let rest = &text[start..];
        let len = MULTI_PUNCT
            .iter()
            .find(|p| rest.starts_with(**p))
            .map_or(c.len_utf8(), |p| p.len());
        out.push(Token {
            kind: Kind::Punct,
            text: rest[..len].to_owned(),
            start,
            end: start + len,
        });
        while i < bytes.len() && bytes[i].0 < start + len {
            i += 1;
        }
    }
    out
}

fn prev(tokens: &[Token], i: usize) -> Option<&Token> {
    i.checked_sub(1).and_then(|p| tokens.get(p))
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// The content of a quoted run opened at `bytes[i]` and closed by `close`, and the index after it.
fn quoted(bytes: &[(usize, char)], i: usize, close: char) -> (String, usize) {
    let mut content = String::new();
    let mut j = i + 1;
    while j < bytes.len() {
        let c = bytes[j].1;
        if c == '\\' {
            if let Some(&(_, e)) = bytes.get(j + 1) {
                content.push(match e {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    other => other,
                });
            }
            j += 2;
            continue;
        }
        if c == close {
            return (content, j + 1);
        }
        content.push(c);
        j += 1;
    }
    (content, bytes.len())
}

/// Finds tokens for diagnostics, each at most once, so repeated names get successive spans.
pub(crate) struct Locator {
    pub tokens: Vec<Token>,
    used: Vec<bool>,
    /// Byte offset of the scanned text within the query (a fenced reply's body).
    base: usize,
    len: usize,
}

impl Locator {
    pub fn new(text: &str, base: usize) -> Self {
        let tokens = tokens(text);
        let used = vec![false; tokens.len()];
        Locator {
            tokens,
            used,
            base,
            len: text.len(),
        }
    }

    fn shift(&self, span: Span) -> Span {
        Span {
            start: span.start + self.base,
            end: span.end + self.base,
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
            .tokens
            .iter()
            .rev()
            .find(|t| !t.is_punct(";"))
            .map_or(0, |t| t.end);
        self.shift(Span { start: end, end })
    }

    /// The span from token `i` to token `j` (inclusive), in query offsets.
    pub fn token_span(&self, i: usize, j: usize) -> Span {
        let last = self.tokens.len().saturating_sub(1);
        let (a, b) = (i.min(last), j.min(last).max(i.min(last)));
        match (self.tokens.get(a), self.tokens.get(b)) {
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
        let found = (0..self.tokens.len()).find(|&i| !self.used[i] && pred(&self.tokens, i))?;
        self.used[found] = true;
        Some(self.shift(self.tokens[found].span()))
    }

    fn prev(&self, i: usize) -> Option<&Token> {
        prev(&self.tokens, i)
    }

    /// The first unused identifier `name`, preferring one right after one of `after` (punctuation or words).
    pub fn ident(&mut self, name: &str, after: &[&str]) -> Option<Span> {
        if !after.is_empty() {
            let found = self.take_in(|tokens, i| {
                tokens[i].kind == Kind::Ident
                    && tokens[i].text == name
                    && prev(tokens, i)
                        .is_some_and(|p| after.iter().any(|a| p.text.eq_ignore_ascii_case(a)))
            });
            if found.is_some() {
                return found;
            }
        }
        self.take(|_, t| t.kind == Kind::Ident && t.text == name)
            .or_else(|| {
                self.take(|_, t| t.kind == Kind::Ident && t.text.eq_ignore_ascii_case(name))
            })
    }

    /// The first unused string literal with content `value`.
    pub fn string(&mut self, value: &str) -> Option<Span> {
        self.take(|_, t| t.kind == Kind::Str && t.text == value)
    }

    /// The first unused keyword `word` (any case).
    pub fn word(&mut self, word: &str) -> Option<Span> {
        self.take(|_, t| t.is_word(word))
    }

    /// `word` and the token after it (`LIMIT 500`).
    pub fn word_and_next(&mut self, word: &str) -> Option<Span> {
        let i = (0..self.tokens.len()).find(|&i| !self.used[i] && self.tokens[i].is_word(word))?;
        self.used[i] = true;
        let end = self.tokens.get(i + 1).map_or(self.tokens[i].end, |t| t.end);
        Some(self.shift(Span {
            start: self.tokens[i].start,
            end,
        }))
    }

    /// A `table:key` record id.
    pub fn record(&mut self, table: &str) -> Option<Span> {
        let i = (0..self.tokens.len()).find(|&i| {
            !self.used[i]
                && self.tokens[i].kind == Kind::Ident
                && self.tokens[i].text == table
                && self.tokens.get(i + 1).is_some_and(|t| t.is_punct(":"))
        })?;
        self.used[i] = true;
        let end = self.tokens.get(i + 2).map_or(self.tokens[i].end, |t| t.end);
        Some(self.shift(Span {
            start: self.tokens[i].start,
            end,
        }))
    }

    /// A bracket `[ ... ]` that does not start with `WHERE`, `?`, a number or a parameter: an index written as a filter.
    pub fn bracket_filter(&mut self) -> Option<Span> {
        let i = (0..self.tokens.len()).find(|&i| {
            !self.used[i]
                && self.tokens[i].is_punct("[")
                && self
                    .prev(i)
                    .is_some_and(|p| p.kind == Kind::Ident || p.is_punct("]"))
                && self.tokens.get(i + 1).is_some_and(|n| {
                    !(n.is_word("where")
                        || n.is_punct("?")
                        || n.is_punct("]")
                        || n.is_punct("$")
                        || n.kind == Kind::Number
                        || n.kind == Kind::Param)
                })
        })?;
        self.used[i] = true;
        let mut depth = 0usize;
        let mut end = self.tokens[i].end;
        for t in &self.tokens[i..] {
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
        Some(self.shift(Span {
            start: self.tokens[i].start,
            end,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_strings_and_comments() {
        let text =
            "SELECT `a b`, d'2025-01-01' FROM x->y -- c 'not a string'\nWHERE s = \"it\\\"s\"";
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
    fn any_text_scans() {
        for text in ["'", "`", "⟨", "/*", "$", "1..", "é\u{2028}x", "\\", "d'"] {
            let _ = tokens(text);
        }
    }
}
