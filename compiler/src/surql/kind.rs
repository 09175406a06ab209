//! Reads a type written in SurrealQL (`#[surqlc(type = "...")]`) into an [`crate::ir::RawType`], or says where it goes wrong.
//!
//! This is the only reader of hand-written types: the front end calls it once and the back
//! ends work from the parsed [`crate::ir::Kind`]. It accepts the kinds of SurrealDB 3.3's parser
//! (`surrealdb-syn` `parse_inner_kind`) that surqlc can print as the engine does; a property
//! test in `tests/` checks the printed form against the engine's `INFO`.

use crate::ir::{Kind, KindLiteral, RawType};

/// Why a type could not be read, and the byte offset in the text where it went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindError {
    pub offset: usize,
    pub message: String,
}

/// Kind names without arguments.
const NAMED: &[&str] = &[
    "any", "none", "null", "bool", "bytes", "datetime", "decimal", "duration", "float", "int", "number", "object",
    "string", "uuid", "regex", "range", "function", "record", "table", "geometry", "file",
];

/// Geometry kinds `geometry<...>` takes.
const GEOMETRIES: &[&str] = &[
    "feature",
    "point",
    "line",
    "polygon",
    "multipoint",
    "multiline",
    "multipolygon",
    "collection",
];

/// Reads `text`: a type, then optionally clauses (`ASSERT ...`, `DEFAULT ...`) that must stay inside one `DEFINE FIELD`.
pub fn parse(text: &str) -> Result<RawType, KindError> {
    // A line break or control character has no place in a type, and would spread the statement over lines.
    if let Some((offset, c)) = text.char_indices().find(|(_, c)| c.is_control()) {
        return Err(KindError {
            offset,
            message: format!("unexpected `{}`", c.escape_default()),
        });
    }
    let mut p = Parser { text, pos: 0 };
    p.skip_ws();
    if p.rest().is_empty() {
        return Err(p.error("the type is empty"));
    }
    let kind = p.union()?;
    let type_end = p.pos;
    p.skip_ws();
    let clauses_at = p.pos;
    if clauses_at < text.len() {
        if clauses_at == type_end {
            return Err(p.error(format!(
                "unexpected `{}` after the type",
                p.rest().chars().next().unwrap_or(' ')
            )));
        }
        check_clauses(&text[clauses_at..]).map_err(|mut e| {
            e.offset += clauses_at;
            e
        })?;
        if !p.rest().starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(p.error("after the type only clauses may follow (ASSERT, DEFAULT, VALUE, READONLY, ...)"));
        }
    }
    Ok(RawType {
        text: text.to_owned(),
        kind,
        clauses: text[clauses_at..].trim_end().to_owned(),
    })
}

/// Clauses are written into `schema.surql` verbatim, so they must not leave the statement:
/// no `;`, comments, line breaks or unbalanced brackets and quotes.
fn check_clauses(text: &str) -> Result<(), KindError> {
    let err = |offset: usize, message: String| Err(KindError { offset, message });
    let mut closers: Vec<(char, usize)> = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\'' | '"' | '`' | '⟨' => {
                // A string or an escaped name: skip to its closing quote (a `;` inside is text).
                let close = if c == '⟨' { '⟩' } else { c };
                loop {
                    match chars.next() {
                        None => return err(at, format!("the quote opened with {c} is not closed")),
                        Some((_, '\\')) => {
                            chars.next();
                        }
                        Some((_, q)) if q == close => break,
                        Some(_) => {}
                    }
                }
            }
            '{' => closers.push(('}', at)),
            '[' => closers.push((']', at)),
            '(' => closers.push((')', at)),
            // `<` and `>` are comparisons or casts here (`$value > 0`, `<string>`), not brackets.
            '}' | ']' | ')' if closers.pop().map(|(c, _)| c) != Some(c) => {
                return err(at, format!("unbalanced `{c}`"));
            }
            '}' | ']' | ')' => {}
            '-' if chars.peek().map(|(_, c)| *c) == Some('-') => return err(at, "it contains a comment (`--`)".into()),
            '/' if matches!(chars.peek().map(|(_, c)| *c), Some('*' | '/')) => {
                return err(at, "it contains a comment".into())
            }
            '#' => return err(at, "it contains a comment (`#`)".into()),
            ';' => return err(at, "unexpected `;`: it would end the statement".into()),
            c if c.is_control() => return err(at, format!("unexpected `{}`", c.escape_default())),
            _ => {}
        }
    }
    match closers.last() {
        Some((c, at)) => err(*at, format!("a bracket is not closed (expected `{c}`)")),
        None => Ok(()),
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn error(&self, message: impl Into<String>) -> KindError {
        KindError {
            offset: self.pos,
            message: message.into(),
        }
    }

    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.rest().chars().next()
    }

    /// Takes `c` (after whitespace) if it comes next; otherwise leaves the position alone.
    fn eat(&mut self, c: char) -> bool {
        let before = self.pos;
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            self.pos = before;
            false
        }
    }

    fn expect(&mut self, c: char, what: &str) -> Result<(), KindError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(format!("expected `{c}` {what}")))
        }
    }

    /// A bare word of letters, digits and `_`.
    fn word(&mut self) -> Option<&str> {
        self.skip_ws();
        let len = self
            .rest()
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(self.rest().len());
        if len == 0 {
            return None;
        }
        let start = self.pos;
        self.pos += len;
        Some(&self.text[start..self.pos])
    }

    /// A table or bucket name: a word, or backticked / `⟨...⟩` escaped.
    fn name(&mut self, what: &str) -> Result<String, KindError> {
        match self.peek() {
            Some('`') => self.quoted('`', '`'),
            Some('⟨') => self.quoted('⟨', '⟩'),
            _ => self
                .word()
                .map(str::to_owned)
                .ok_or_else(|| self.error(format!("expected {what}"))),
        }
    }

    fn union(&mut self) -> Result<Kind, KindError> {
        let mut members = vec![self.term()?];
        while self.eat('|') {
            members.push(self.term()?);
        }
        Ok(Kind::either(members))
    }

    fn term(&mut self) -> Result<Kind, KindError> {
        let Some(first) = self.peek() else {
            return Err(self.error("expected a type"));
        };
        match first {
            '\'' | '"' => {
                let s = self.quoted(first, first)?;
                Ok(Kind::Literal(KindLiteral::String(s)))
            }
            '-' | '0'..='9' => self.integer().map(|n| Kind::Literal(KindLiteral::Integer(n))),
            '[' => {
                self.pos += 1;
                let mut items = Vec::new();
                if !self.eat(']') {
                    loop {
                        items.push(self.union()?);
                        if self.eat(']') {
                            break;
                        }
                        self.expect(',', "between the items of an array type")?;
                    }
                }
                Ok(Kind::Literal(KindLiteral::Array(items)))
            }
            '{' => {
                self.pos += 1;
                let mut fields: Vec<(String, Kind)> = Vec::new();
                if !self.eat('}') {
                    loop {
                        let at = self.pos;
                        let key = self.name("a key")?;
                        if fields.iter().any(|(k, _)| *k == key) {
                            return Err(KindError {
                                offset: at,
                                message: format!("the key `{key}` is given twice"),
                            });
                        }
                        self.expect(':', "after an object key")?;
                        fields.push((key, self.union()?));
                        if self.eat('}') {
                            break;
                        }
                        self.expect(',', "between the keys of an object type")?;
                    }
                }
                Ok(Kind::Literal(KindLiteral::Object(fields)))
            }
            _ => self.named(),
        }
    }

    fn integer(&mut self) -> Result<i64, KindError> {
        let start = self.pos;
        let negative = self.rest().starts_with('-');
        let digits_at = start + usize::from(negative);
        let len = self.text[digits_at..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(self.text.len() - digits_at);
        let end = digits_at + len;
        if self.text[end..].starts_with(|c: char| c == '.' || c.is_ascii_alphabetic()) {
            return Err(
                self.error("only whole numbers are read as literal types here (no floats, decimals or durations)")
            );
        }
        let n = self.text[start..end]
            .parse()
            .map_err(|_| self.error("expected a whole number that fits in 64 bits"))?;
        self.pos = end;
        Ok(n)
    }

    fn named(&mut self) -> Result<Kind, KindError> {
        let at = self.pos;
        let Some(word) = self.word() else {
            let c = self.rest().chars().next().unwrap_or(' ');
            return Err(self.error(format!("unexpected `{c}` where a type should be")));
        };
        let lower = word.to_ascii_lowercase();
        if lower == "true" || lower == "false" {
            return Ok(Kind::Literal(KindLiteral::Bool(lower == "true")));
        }
        let generic = matches!(
            lower.as_str(),
            "option" | "array" | "set" | "record" | "table" | "geometry" | "file"
        );
        if !NAMED.contains(&lower.as_str()) && !generic {
            return Err(KindError {
                offset: at,
                message: format!("`{word}` is not a SurrealQL type"),
            });
        }
        if !self.eat('<') {
            if lower == "option" {
                return Err(self.error("`option` needs its type: `option<T>`"));
            }
            return Ok(Kind::Named(lower));
        }
        if !generic {
            return Err(KindError {
                offset: self.pos - 1,
                message: format!("`{lower}` takes no `<...>`"),
            });
        }
        let kind = match lower.as_str() {
            "option" => Kind::either(vec![Kind::Named("none".into()), self.union()?]),
            "array" | "set" => {
                let inner = Box::new(self.union()?);
                let size = if self.eat(',') {
                    self.skip_ws();
                    let at = self.pos;
                    let n = self.integer()?;
                    Some(u64::try_from(n).map_err(|_| KindError {
                        offset: at,
                        message: "a size must not be negative".into(),
                    })?)
                } else {
                    None
                };
                if lower == "array" {
                    Kind::Array(inner, size)
                } else {
                    Kind::Set(inner, size)
                }
            }
            "record" => Kind::Record(self.names("a table name")?),
            "geometry" => {
                let mut kinds = Vec::new();
                loop {
                    let at = self.pos;
                    let g = self.name("a geometry kind")?.to_ascii_lowercase();
                    if !GEOMETRIES.contains(&g.as_str()) {
                        return Err(KindError {
                            offset: at,
                            message: format!(
                                "`{g}` is not a geometry kind (expected one of {})",
                                GEOMETRIES.join(", ")
                            ),
                        });
                    }
                    kinds.push(g);
                    if !self.eat('|') {
                        break;
                    }
                }
                Kind::Parameterized(lower, kinds)
            }
            // `table<a | b>`, `file<bucket>`
            _ => Kind::Parameterized(lower, self.names("a name")?),
        };
        self.expect('>', "to close the type's arguments")?;
        Ok(kind)
    }

    fn names(&mut self, what: &str) -> Result<Vec<String>, KindError> {
        let mut names = vec![self.name(what)?];
        while self.eat('|') {
            names.push(self.name(what)?);
        }
        Ok(names)
    }

    /// A quoted string or escaped name, with its escapes resolved.
    fn quoted(&mut self, open: char, close: char) -> Result<String, KindError> {
        self.skip_ws();
        let start = self.pos;
        let mut chars = self.rest().char_indices();
        chars.next(); // the opening quote
        let mut value = String::new();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    let Some((_, e)) = chars.next() else { break };
                    value.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        '0' => '\0',
                        'f' => '\x0C',
                        other => other,
                    });
                }
                c if c == close => {
                    self.pos += i + c.len_utf8();
                    return Ok(value);
                }
                c => value.push(c),
            }
        }
        Err(KindError {
            offset: start,
            message: format!("the quote opened with {open} is not closed"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Kind {
        parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}")).kind
    }

    #[test]
    fn reads_kinds_as_the_engine_models_them() {
        assert_eq!(
            kind("option<array<record<book>, 3>>"),
            Kind::Either(vec![
                Kind::Named("none".into()),
                Kind::Array(Box::new(Kind::Record(vec!["book".into()])), Some(3))
            ])
        );
        assert_eq!(
            kind("'a' | \"b;c\" | -1 | 'a'"),
            Kind::Either(vec![
                Kind::Literal(KindLiteral::String("a".into())),
                Kind::Literal(KindLiteral::String("b;c".into())),
                Kind::Literal(KindLiteral::Integer(-1)),
            ])
        );
        assert!(matches!(kind("option<{ a: int, b: -1 }>"), Kind::Either(_)));
        assert_eq!(
            kind("GEOMETRY<Point>"),
            Kind::Parameterized("geometry".into(), vec!["point".into()])
        );
        assert_eq!(kind("set<int>"), Kind::Set(Box::new(Kind::Named("int".into())), None));
        assert_eq!(kind("record"), Kind::Named("record".into()));
    }

    #[test]
    fn keeps_clauses_verbatim() {
        let raw = parse("  string ASSERT $value > 0 AND $value < 9 ").unwrap();
        assert_eq!(raw.kind, Kind::Named("string".into()));
        assert_eq!(raw.clauses, "ASSERT $value > 0 AND $value < 9");
        assert_eq!(parse("object FLEXIBLE").unwrap().clauses, "FLEXIBLE");
    }

    #[test]
    fn says_where_a_type_goes_wrong() {
        for (bad, at, why) in [
            ("string; REMOVE TABLE thing", 6, "unexpected `;`"),
            ("int # note", 4, "comment"),
            ("", 0, "empty"),
            ("array<int", 9, "expected `>`"),
            ("int>", 3, "unexpected `>`"),
            ("int -- x", 4, "comment"),
            ("'open", 0, "not closed"),
            ("record<t | `'`>; REMOVE TABLE t", 15, "unexpected `;`"),
            ("record<⟨a;b⟩>; x", 17, "unexpected `;`"),
            ("int\nstring", 3, "unexpected `\\n`"),
            ("int 5", 4, "only clauses"),
            ("strng", 0, "not a SurrealQL type"),
            ("array<strin>", 6, "not a SurrealQL type"),
            ("int DEFAULT (1", 12, "not closed"),
            ("int ASSERT $value < 3 AND $value > 0)", 36, "unbalanced `)`"),
            ("1.5", 0, "whole numbers"),
            ("geometry<pint>", 9, "not a geometry kind"),
        ] {
            let err = parse(bad).expect_err(bad);
            assert!(err.message.contains(why), "{bad:?}: {err:?}");
            assert_eq!(err.offset, at, "{bad:?}: {err:?}");
        }
    }
}
