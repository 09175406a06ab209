//! The one reader of SurrealQL text outside SurrealDB's parser: tokens with byte offsets, where comments and unterminated quotes are kinds and flags of their own, for what the parser cannot do (point at a place, mask a secret, check an expression's shape before it is spliced into a statement).
//!
//! It never fails and never panics: any text is tokens. Strings and names follow the engine's
//! quoting (`'...'`, `"..."`, prefixed `d'...'`, `` `...` ``, `⟨...⟩`, backslash escapes).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A name: bare, backticked or in `⟨⟩`; `text` is the name itself.
    Ident,
    /// A quoted string, possibly prefixed (`d'...'`, `r"..."`); `text` is its content.
    Str,
    Number,
    /// `$name`; `text` is the name.
    Param,
    /// Punctuation and operators (`->`, `<-`, `[`, `*`, ...).
    Punct,
    /// A comment (`-- `, `#`, `//` to the end of the line, or `/* */`); `text` is all of it.
    Comment,
}

#[derive(Debug, Clone)]
pub struct Token {
    pub kind: Kind,
    pub text: String,
    pub start: usize,
    pub end: usize,
    /// A quote or comment the text ends inside of (`'abc`, `/* ...`).
    pub open: bool,
}

impl Token {
    /// An identifier spelled `word`, in any case (keywords are case-insensitive).
    pub fn is_word(&self, word: &str) -> bool {
        self.kind == Kind::Ident && self.text.eq_ignore_ascii_case(word)
    }

    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == Kind::Punct && self.text == p
    }

    fn new(kind: Kind, text: &str, start: usize, end: usize) -> Self {
        Token {
            kind,
            text: text.to_owned(),
            start,
            end,
            open: false,
        }
    }
}

const MULTI_PUNCT: &[&str] = &[
    "<->", "->", "<-", "<~", "::", "..", "!=", "<=", ">=", "==", "?:", "??", "?=", "*=", "||",
    "&&", "<>",
];

/// The tokens of `text` that are code: [`scan`] without comments.
pub fn code(text: &str) -> Vec<Token> {
    let mut tokens = scan(text);
    tokens.retain(|t| t.kind != Kind::Comment);
    tokens
}

/// Every token of `text` with byte offsets, comments included; whitespace dropped.
pub fn scan(text: &str) -> Vec<Token> {
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
            out.push(Token::new(
                Kind::Comment,
                &text[start..end_of(i)],
                start,
                end_of(i),
            ));
            continue;
        }
        if c == '/' && next == Some('*') {
            i += 2;
            while i < bytes.len()
                && !(bytes[i].1 == '*' && bytes.get(i + 1).map(|b| b.1) == Some('/'))
            {
                i += 1;
            }
            let open = i >= bytes.len();
            i = (i + 2).min(bytes.len());
            out.push(Token {
                open,
                ..Token::new(Kind::Comment, &text[start..end_of(i)], start, end_of(i))
            });
            continue;
        }
        if c == '\'' || c == '"' {
            let (content, j, open) = quoted(&bytes, i, c);
            out.push(Token {
                kind: Kind::Str,
                text: content,
                start,
                end: end_of(j),
                open,
            });
            i = j;
            continue;
        }
        if c == '`' || c == '⟨' {
            let close = if c == '`' { '`' } else { '⟩' };
            let (content, j, open) = quoted(&bytes, i, close);
            out.push(Token {
                kind: Kind::Ident,
                text: content,
                start,
                end: end_of(j),
                open,
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
                open: false,
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
                open: false,
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
                    let (content, k, open) = quoted(&bytes, j, q);
                    out.push(Token {
                        kind: Kind::Str,
                        text: content,
                        start,
                        end: end_of(k),
                        open,
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
                open: false,
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
            open: false,
        });
        while i < bytes.len() && bytes[i].0 < start + len {
            i += 1;
        }
    }
    out
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// The content of a quoted run opened at `bytes[i]` and closed by `close`, the index after it,
/// and whether the text ended before the quote was closed.
fn quoted(bytes: &[(usize, char)], i: usize, close: char) -> (String, usize, bool) {
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
            return (content, j + 1, false);
        }
        content.push(c);
        j += 1;
    }
    (content, bytes.len(), true)
}
