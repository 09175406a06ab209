//! The schema block exactly as `fn::schema_context()` renders it on SurrealDB 3.3.5, computed from the IR alone.
//!
//! The engine does not echo what `schema.surql` wrote: it re-renders each definition
//! from its catalog. So this module mirrors the engine's formatter (surrealdb-sql and
//! surrealdb-common 3.3.5), not [`crate::surql`]:
//!
//! - `DEFINE TABLE name TYPE NORMAL SCHEMAFULL` (a relation: `TYPE RELATION IN a OUT b`);
//! - fields sorted by name in byte order (`INFO FOR TABLE` returns an ordered map),
//!   including a relation's derived `in`/`out` fields and the `name.*` element field the
//!   engine derives for every array of a concrete type;
//! - `option<T>` as `none | T`, `array<any>` as `array`, literal unions deduplicated in
//!   declaration order;
//! - (compact only) no `TYPE NORMAL`, `SCHEMAFULL` or relation `in`/`out` lines;
//! - strings in single quotes unless the text holds one, then in double quotes, with
//!   `\\`, `\n`, `\r`, `\t`, `\0`, `\f`, `\u{8}` and the chosen quote escaped;
//! - names that could be keywords in backticks.
//!
//! A `#[surqlc(type = "...")]` override is copied verbatim: the engine may respell it, which
//! `surqlc audit --live` reports.

use crate::ir::{Schema, Table, TableKind, Type};

/// Which spelling of the schema block to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rendering {
    /// What the engine's `INFO` statements print.
    Engine,
    /// The engine's text without `TYPE NORMAL`, `SCHEMAFULL` (every surqlc table is) and a relation's derived `in`/`out` lines.
    Compact,
}

impl Rendering {
    /// The rendering an audit shows beside this one.
    pub fn other(self) -> Rendering {
        match self {
            Rendering::Engine => Rendering::Compact,
            Rendering::Compact => Rendering::Engine,
        }
    }

    /// The rendering `fn::schema_context()` of this schema produces.
    pub fn of(schema: &Schema) -> Rendering {
        if schema.settings.compact {
            Rendering::Compact
        } else {
            Rendering::Engine
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rendering::Engine => "engine",
            Rendering::Compact => "compact",
        }
    }
}

/// What `RETURN fn::schema_context()` returns for this schema.
pub fn schema_block(schema: &Schema) -> String {
    schema_block_as(schema, Rendering::of(schema))
}

/// One exposed table's lines as `fn::schema_context()` renders them, without the blank separator line.
pub fn table_block(schema: &Schema, table: &Table) -> String {
    table_block_as(table, Rendering::of(schema))
}

/// The schema block in a chosen rendering: exposed tables in prompt order, separated by a blank line.
pub fn schema_block_as(schema: &Schema, rendering: Rendering) -> String {
    schema
        .exposed_tables()
        .map(|t| table_block_as(t, rendering))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// One table's `DEFINE TABLE` line and its sorted `DEFINE FIELD` lines, each ending in `;`.
pub fn table_block_as(table: &Table, rendering: Rendering) -> String {
    let mut out = define_table(table, rendering);
    out.push(';');
    for (_, line) in field_lines(table, rendering) {
        out.push('\n');
        out.push_str(&line);
        out.push(';');
    }
    out
}

/// `DEFINE TABLE ...` without the `PERMISSIONS` clause the prompt strips.
fn define_table(table: &Table, rendering: Rendering) -> String {
    let mut out = format!("DEFINE TABLE {}", escape_ident(&table.name));
    match &table.kind {
        TableKind::Normal if rendering == Rendering::Compact => {}
        TableKind::Normal => out.push_str(" TYPE NORMAL"),
        TableKind::Relation { from, to } => {
            out.push_str(" TYPE RELATION IN ");
            out.push_str(&escape_kw_free_ident(from));
            out.push_str(" OUT ");
            out.push_str(&escape_kw_free_ident(to));
        }
    }
    out.push_str(crate::surql_clauses::relation_suffix(table));
    // Compact drops SCHEMAFULL (the usual case); SCHEMALESS says something and stays.
    if rendering == Rendering::Engine || table.schemaless {
        out.push_str(crate::surql_clauses::mode(table));
    }
    push_comment(&mut out, table.comment.as_deref());
    push_permissions(&mut out, table.permissions.as_ref(), true);
    out
}

/// A clause's expression as `INFO` prints it: the engine's formatter with `surql-parser`, else as written.
pub fn engine_expr(text: &str) -> String {
    #[cfg(feature = "surql-parser")]
    {
        crate::surql_expr::canonical(text)
    }
    #[cfg(not(feature = "surql-parser"))]
    {
        text.to_owned()
    }
}

/// ` PERMISSIONS ...` unless it is all `FULL` or all `NONE` (the prompt strips those).
fn push_permissions(out: &mut String, p: Option<&crate::ir::Permissions>, table: bool) {
    let text = crate::surql_clauses::permissions(&p.cloned().unwrap_or_default(), table, &engine_expr);
    if text != "PERMISSIONS FULL" && text != "PERMISSIONS NONE" {
        out.push(' ');
        out.push_str(&text);
    }
}

/// The field's clauses after its type, as `INFO` prints them (a bare `REFERENCE` shows its default `ON DELETE IGNORE`).
fn field_clauses(field: &crate::ir::Field) -> String {
    let mut clauses = field.clauses.clone();
    if let Some(r) = &mut clauses.reference {
        r.on_delete.get_or_insert(crate::ir::OnDelete::Ignore);
    }
    crate::surql_clauses::field_clauses(&clauses, &engine_expr)
}

/// Every field line of `table` with the key `INFO FOR TABLE` sorts it by.
fn field_lines(table: &Table, rendering: Rendering) -> Vec<(String, String)> {
    let on = escape_ident(&table.name);
    let mut lines = Vec::new();
    let mut push = |key: String,
                         shown: String,
                         kind: &str,
                         comment: Option<&str>,
                         field: Option<&crate::ir::Field>| {
        let mut line = format!("DEFINE FIELD {shown} ON {on} TYPE {kind}");
        if let Some(f) = field {
            line.push_str(&field_clauses(f));
        }
        push_comment(&mut line, comment);
        if let Some(f) = field {
            push_permissions(&mut line, f.clauses.permissions.as_ref(), false);
        }
        lines.push((key, line));
    };
    if let Some(id) = &table.id {
        push("id".into(), "id".into(), &render_kind(id), None, None);
    }
    if let (TableKind::Relation { from, to }, Rendering::Engine) = (&table.kind, rendering) {
        push(
            "in".into(),
            "in".into(),
            &render_kind(&Type::Record(from.clone())),
            None,
            None,
        );
        push(
            "out".into(),
            "out".into(),
            &render_kind(&Type::Record(to.clone())),
            None,
            None,
        );
    }
    for field in &table.fields {
        let (kind, clauses) = Kind::of(&field.ty);
        let mut key = field.name.clone();
        let mut shown = escape_ident(&field.name);
        push(
            key.clone(),
            shown.clone(),
            &kind.render_with(&clauses),
            field.comment.as_deref(),
            Some(field),
        );
        // The engine defines `name.*` for the elements of a typed array, and so on down.
        let mut kind = &kind;
        while let Some(element) = kind.array_element() {
            key.push_str(".*");
            shown.push_str(".*");
            push(key.clone(), shown.clone(), &element.render(), None, None);
            kind = element;
        }
    }
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    lines
}

fn push_comment(out: &mut String, comment: Option<&str>) {
    if let Some(c) = comment {
        out.push_str(" COMMENT ");
        out.push_str(&quote_str(c));
    }
}

/// A field type as the engine prints it (a type override is respelled where surqlc can read it).
pub fn render_kind(ty: &Type) -> String {
    let (kind, clauses) = Kind::of(ty);
    kind.render_with(&clauses)
}

/// A type in the engine's own terms: `option<T>` is a union with `none`, and unions are flat.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// A kind the engine prints as written, such as `int` or `geometry<polygon>`.
    Plain(String),
    Array(Box<Kind>, Option<u64>),
    Set(Box<Kind>, Option<u64>),
    Record(Vec<String>),
    /// A literal value, already printed.
    Literal(String),
    Either(Vec<Kind>),
}

impl Kind {
    /// The kind and, for a type override such as `string ASSERT ...`, the clauses after it, verbatim.
    fn of(ty: &Type) -> (Kind, String) {
        let kind = match ty {
            Type::Any => Kind::Plain("any".into()),
            Type::Bool => Kind::Plain("bool".into()),
            Type::Int => Kind::Plain("int".into()),
            Type::Float => Kind::Plain("float".into()),
            Type::Decimal => Kind::Plain("decimal".into()),
            Type::String => Kind::Plain("string".into()),
            Type::Datetime => Kind::Plain("datetime".into()),
            Type::Duration => Kind::Plain("duration".into()),
            Type::Uuid => Kind::Plain("uuid".into()),
            Type::Bytes => Kind::Plain("bytes".into()),
            Type::Object => Kind::Plain("object".into()),
            Type::Option(inner) => {
                Kind::either(vec![Kind::Plain("none".into()), Kind::of(inner).0])
            }
            Type::Array(inner, n) => Kind::Array(Box::new(Kind::of(inner).0), *n),
            Type::Record(table) => Kind::Record(vec![table.clone()]),
            Type::Literal(values) => {
                Kind::either(values.iter().map(|v| Kind::Literal(quote_str(v))).collect())
            }
            Type::Raw(text) => return raw::parse(text),
        };
        (kind, String::new())
    }

    /// A flat union without repeats; one member stands alone.
    fn either(kinds: Vec<Kind>) -> Kind {
        let mut flat: Vec<Kind> = Vec::new();
        for kind in kinds {
            let members = match kind {
                Kind::Either(inner) => inner,
                other => vec![other],
            };
            for m in members {
                if !flat.contains(&m) {
                    flat.push(m);
                }
            }
        }
        if flat.len() == 1 {
            flat.remove(0)
        } else {
            Kind::Either(flat)
        }
    }

    /// The element kind of an (optional) array whose elements the engine types.
    fn array_element(&self) -> Option<&Kind> {
        match self {
            Kind::Array(inner, _) if !inner.is_any() => Some(inner),
            Kind::Either(members) => {
                // `none | array<T>`: the engine still types the elements.
                let mut arrays = members
                    .iter()
                    .filter(|m| !matches!(m, Kind::Plain(p) if p == "none"));
                match (arrays.next(), arrays.next()) {
                    (Some(only), None) => only.array_element(),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn is_any(&self) -> bool {
        matches!(self, Kind::Plain(p) if p == "any")
    }

    fn render(&self) -> String {
        match self {
            Kind::Plain(p) | Kind::Literal(p) => p.clone(),
            Kind::Array(inner, None) if inner.is_any() => "array".into(),
            Kind::Array(inner, None) => format!("array<{}>", inner.render()),
            Kind::Array(inner, Some(n)) => format!("array<{}, {n}>", inner.render()),
            Kind::Set(inner, None) if inner.is_any() => "set".into(),
            Kind::Set(inner, None) => format!("set<{}>", inner.render()),
            Kind::Set(inner, Some(n)) => format!("set<{}, {n}>", inner.render()),
            Kind::Record(tables) => format!(
                "record<{}>",
                tables
                    .iter()
                    .map(|t| escape_kw_free_ident(t))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ),
            Kind::Either(members) => members
                .iter()
                .map(Kind::render)
                .collect::<Vec<_>>()
                .join(" | "),
        }
    }

    fn render_with(&self, clauses: &str) -> String {
        let mut out = self.render();
        if !clauses.is_empty() {
            out.push(' ');
            out.push_str(clauses);
        }
        out
    }
}

/// Reads the type at the start of a `#[surqlc(type = "...")]` override.
mod raw {
    use super::{quote_str, Kind};

    /// The leading type and the rest of the text; text surqlc cannot read is kept whole.
    pub(super) fn parse(text: &str) -> (Kind, String) {
        let text = text.trim();
        let mut p = Parser { text, pos: 0 };
        match p.union() {
            Some(kind) => {
                p.skip_ws();
                let rest = &text[p.pos..];
                // A clause must start on a word boundary (`string ASSERT`), not mid-token.
                if rest.is_empty() || text[..p.pos].ends_with(char::is_whitespace) || p.pos == 0 {
                    (kind, rest.trim().to_owned())
                } else {
                    (Kind::Plain(text.to_owned()), String::new())
                }
            }
            None => (Kind::Plain(text.to_owned()), String::new()),
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

        fn skip_ws(&mut self) {
            let rest = self.rest();
            self.pos += rest.len() - rest.trim_start().len();
        }

        fn eat(&mut self, c: char) -> bool {
            self.skip_ws();
            if self.rest().starts_with(c) {
                self.pos += c.len_utf8();
                true
            } else {
                false
            }
        }

        fn word(&mut self) -> Option<String> {
            self.skip_ws();
            let len = self
                .rest()
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(self.rest().len());
            if len == 0 {
                return None;
            }
            let word = self.rest()[..len].to_owned();
            self.pos += len;
            Some(word)
        }

        fn union(&mut self) -> Option<Kind> {
            let start = self.pos;
            let mut members = vec![self.term()?];
            loop {
                let before = self.pos;
                if !self.eat('|') {
                    break;
                }
                match self.term() {
                    Some(t) => members.push(t),
                    None => {
                        self.pos = before;
                        break;
                    }
                }
            }
            if self.pos == start {
                return None;
            }
            Some(Kind::either(members))
        }

        fn term(&mut self) -> Option<Kind> {
            self.skip_ws();
            let first = self.rest().chars().next()?;
            if first == '\'' || first == '"' {
                return self.string().map(|s| Kind::Literal(quote_str(&s)));
            }
            if first.is_ascii_digit() || first == '-' {
                let len = self
                    .rest()
                    .find(|c: char| !(c.is_ascii_digit() || c == '-' || c == '.'))
                    .unwrap_or(self.rest().len());
                let n = self.rest()[..len].to_owned();
                self.pos += len;
                return Some(Kind::Literal(n));
            }
            let checkpoint = self.pos;
            let word = self.word()?;
            let lower = word.to_ascii_lowercase();
            if !KINDS.contains(&lower.as_str()) {
                self.pos = checkpoint;
                return None;
            }
            if !self.eat('<') {
                return Some(Kind::Plain(lower));
            }
            let kind = match lower.as_str() {
                "option" => Kind::either(vec![Kind::Plain("none".into()), self.union()?]),
                "array" | "set" => {
                    let inner = Box::new(self.union()?);
                    let size = if self.eat(',') {
                        Some(self.word()?.parse().ok()?)
                    } else {
                        None
                    };
                    if lower == "array" {
                        Kind::Array(inner, size)
                    } else {
                        Kind::Set(inner, size)
                    }
                }
                "record" => {
                    let mut tables = vec![self.word()?];
                    while self.eat('|') {
                        tables.push(self.word()?);
                    }
                    Kind::Record(tables)
                }
                _ => {
                    let mut args = vec![self.word()?.to_ascii_lowercase()];
                    while self.eat('|') {
                        args.push(self.word()?.to_ascii_lowercase());
                    }
                    Kind::Plain(format!("{lower}<{}>", args.join(" | ")))
                }
            };
            self.eat('>').then_some(kind)
        }

        fn string(&mut self) -> Option<String> {
            let mut chars = self.rest().char_indices();
            let (_, quote) = chars.next()?;
            let mut value = String::new();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        let (_, e) = chars.next()?;
                        value.push(match e {
                            'n' => '\n',
                            't' => '\t',
                            'r' => '\r',
                            '0' => '\0',
                            other => other,
                        });
                    }
                    c if c == quote => {
                        self.pos += i + c.len_utf8();
                        return Some(value);
                    }
                    c => value.push(c),
                }
            }
            None
        }
    }

    /// Kind names the engine knows; anything else is not a type and is kept verbatim.
    const KINDS: &[&str] = &[
        "any", "none", "null", "bool", "bytes", "datetime", "decimal", "duration", "float", "int",
        "number", "object", "string", "uuid", "regex", "range", "option", "array", "set", "record",
        "geometry", "table", "file", "function",
    ];
}

/// A string literal as the engine prints it: single quotes unless `s` holds one.
pub fn quote_str(s: &str) -> String {
    let quote = if s.contains('\'') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    escape_into(&mut out, s, quote);
    out.push(quote);
    out
}

/// The engine's `EscapeWriter`: these escapes and no others (other control characters stay raw).
fn escape_into(out: &mut String, s: &str, quote: char) {
    for c in s.chars() {
        match c {
            '\0' => out.push_str("\\0"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x08' => out.push_str("\\u{8}"),
            '\x0C' => out.push_str("\\f"),
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
}

/// Words the engine's formatter backticks where a keyword could stand (`RESERVED_KEYWORD` in surrealdb-common).
const RESERVED: &[&str] = &[
    "ALTER", "BEGIN", "BREAK", "CANCEL", "COMMIT", "CONTINUE", "CREATE", "DEFINE", "DELETE", "FOR",
    "IF", "INFO", "INSERT", "KILL", "LIVE", "OPTION", "REBUILD", "RETURN", "RELATE", "REMOVE",
    "SELECT", "LET", "SHOW", "SLEEP", "THROW", "UPDATE", "UPSERT", "USE", "DIFF", "RAND", "NONE",
    "NULL", "AFTER", "BEFORE", "VALUE", "BY", "ALL", "TRUE", "FALSE", "WHERE", "TABLE", "TB",
    "SEQUENCE", "FUNCTION",
];

/// A table or field name where a keyword could stand (`DEFINE TABLE x`, `DEFINE FIELD x ON y`).
pub fn escape_ident(name: &str) -> String {
    if RESERVED.iter().any(|k| k.eq_ignore_ascii_case(name)) {
        backticked(name)
    } else {
        escape_kw_free_ident(name)
    }
}

/// A name where no keyword can stand (`record<x>`, `IN x OUT y`).
pub fn escape_kw_free_ident(name: &str) -> String {
    let plain = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "NaN"
        && name != "Infinity";
    if plain {
        name.to_owned()
    } else {
        backticked(name)
    }
}

fn backticked(name: &str) -> String {
    let mut out = String::from("`");
    escape_into(&mut out, name, '`');
    out.push('`');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_the_engine() {
        assert_eq!(quote_str("plain \"dq\""), "'plain \"dq\"'");
        assert_eq!(
            quote_str("it's \"q\" a\\b\nc\td 😀 \u{1}\u{8}\u{c}\0\r"),
            "\"it's \\\"q\\\" a\\\\b\\nc\\td 😀 \u{1}\\u{8}\\f\\0\\r\""
        );
    }

    #[test]
    fn renders_kinds_like_the_engine() {
        let opt_arr = Type::Option(Box::new(Type::Array(
            Box::new(Type::Option(Box::new(Type::String))),
            Some(2),
        )));
        assert_eq!(render_kind(&opt_arr), "none | array<none | string, 2>");
        assert_eq!(
            render_kind(&Type::Array(Box::new(Type::Any), None)),
            "array"
        );
        assert_eq!(
            render_kind(&Type::Option(Box::new(Type::Literal(vec![
                "b".into(),
                "a".into(),
                "b".into()
            ])))),
            "none | 'b' | 'a'"
        );
        assert_eq!(escape_ident("value"), "`value`");
        assert_eq!(escape_kw_free_ident("value"), "value");
    }
}
