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
    "<->", "->", "<-", "<~", "::", "..", "!=", "<=", ">=", "==", "?:", "??", "?=", "*=", "||", "&&", "<>",
];

/// The tokens of `text` that are code: [`scan`] without comments.
pub fn code(text: &str) -> Vec<Token> {
    let mut tokens = scan(text);
    tokens.retain(|t| t.kind != Kind::Comment);
    tokens
}

/// Every token of `text` with byte offsets, comments included; whitespace dropped.
pub fn scan(text: &str) -> Vec<Token> {
    // Sized up front: a query is scanned on every validation, and growing these was a tenth of it.
    let mut chars: Vec<(usize, char)> = Vec::with_capacity(text.len());
    chars.extend(text.char_indices());
    let mut out = Vec::with_capacity(text.len() / 4 + 1);
    let mut i = 0;
    while i < chars.len() {
        if chars[i].1.is_whitespace() {
            i += 1;
            continue;
        }
        let (token, next) = token_at(text, &chars, i);
        out.push(token);
        i = next;
    }
    out
}

/// The token that starts at `chars[i]` (not whitespace), and the index of the char after it.
fn token_at(text: &str, chars: &[(usize, char)], i: usize) -> (Token, usize) {
    let (start, c) = chars[i];
    let next = chars.get(i + 1).map(|(_, c)| *c);
    let end_of = |i: usize| chars.get(i).map_or(text.len(), |(o, _)| *o);
    let quoted_token = |kind: Kind, open_at: usize, close: char| {
        let (content, j, open) = quoted(chars, open_at, close);
        let token = Token {
            kind,
            text: content,
            start,
            end: end_of(j),
            open,
        };
        (token, j)
    };
    let plain = |kind: Kind, text: &str, j: usize| {
        let token = Token::new(kind, text, start, end_of(j));
        (token, j)
    };
    // Comments: `-- `, `#`, `//` to the end of the line; `/* */`.
    if (c == '-' && next == Some('-')) || c == '#' || (c == '/' && next == Some('/')) {
        let j = (i..chars.len())
            .find(|&j| matches!(chars[j].1, '\n' | '\r'))
            .unwrap_or(chars.len());
        return plain(Kind::Comment, &text[start..end_of(j)], j);
    }
    if c == '/' && next == Some('*') {
        let close = (i + 2..chars.len()).find(|&j| chars[j].1 == '*' && chars.get(j + 1).map(|b| b.1) == Some('/'));
        let j = close.map_or(chars.len(), |j| (j + 2).min(chars.len()));
        let (token, j) = plain(Kind::Comment, &text[start..end_of(j)], j);
        let open = close.is_none();
        return (Token { open, ..token }, j);
    }
    match c {
        '\'' | '"' => return quoted_token(Kind::Str, i, c),
        '`' => return quoted_token(Kind::Ident, i, '`'),
        '⟨' => return quoted_token(Kind::Ident, i, '⟩'),
        '$' => {
            let j = ident_end(chars, i + 1);
            return plain(Kind::Param, &text[end_of(i + 1)..end_of(j)], j);
        }
        _ => {}
    }
    if c.is_ascii_digit() {
        let j = number_end(chars, i);
        return plain(Kind::Number, &text[start..end_of(j)], j);
    }
    if is_ident_char(c) {
        let j = ident_end(chars, i + 1);
        // A one-letter string prefix: d'...', r"...", u'...', s'...', b'...'.
        if j == i + 1 && matches!(c, 'd' | 'r' | 'u' | 's' | 'b' | 'f') {
            if let Some(&(_, q @ ('\'' | '"'))) = chars.get(j) {
                return quoted_token(Kind::Str, j, q);
            }
        }
        return plain(Kind::Ident, &text[start..end_of(j)], j);
    }
    let rest = &text[start..];
    let len = MULTI_PUNCT
        .iter()
        .find(|p| rest.starts_with(**p))
        .map_or(c.len_utf8(), |p| p.len());
    let j = (i..chars.len())
        .find(|&j| chars[j].0 >= start + len)
        .unwrap_or(chars.len());
    (Token::new(Kind::Punct, &rest[..len], start, start + len), j)
}

/// The index after the identifier characters from `chars[i]` on.
fn ident_end(chars: &[(usize, char)], i: usize) -> usize {
    (i..chars.len())
        .find(|&j| !is_ident_char(chars[j].1))
        .unwrap_or(chars.len())
}

/// The index after the number starting at `chars[i]` (digits, letters, `_` and `.`, but not `..`:
/// `1..5` is a range).
fn number_end(chars: &[(usize, char)], i: usize) -> usize {
    let mut j = i + 1;
    while j < chars.len() {
        let d = chars[j].1;
        if d == '.' && chars.get(j + 1).map(|b| b.1) == Some('.') {
            break;
        }
        if d.is_ascii_alphanumeric() || d == '_' || d == '.' {
            j += 1;
        } else {
            break;
        }
    }
    j
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
