//! A validated named query's Rust face from the validator's types: each projection a row field (aliases as names), each parameter an argument in order of first appearance; what has no static type is an error at the expression with the cast that fixes it.

use super::shape::{struct_name, FieldShape, ParamShape, RType, Shape, StructShape};
use crate::ir::Schema;
use crate::surql::named::{NamedQuery, Returns};
use crate::surql::scan::{self, Kind, Token};
use crate::validate::params::{is_argument, resolved, InputOf};
use crate::validate::{Report, Span, Ty};

/// Why a query cannot be typed: where in its text, and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Untypable {
    pub span: Span,
    pub message: String,
}

/// One projection as written: its expression, its alias, and whether it is `x.*` (whole rows).
struct Item<'t> {
    span: Span,
    expr: &'t str,
    alias: Option<String>,
    whole: bool,
    simple: Option<String>,
}

/// One projection's place in the row: its key path, type and text.
struct Entry {
    path: Vec<String>,
    ty: Ty,
    span: Span,
    expr: String,
    whole: bool,
}

/// The query's Rust face; every problem at once.
pub fn shape(schema: &Schema, query: &NamedQuery, report: &Report) -> Result<Shape, Vec<Untypable>> {
    let text = query.text.as_str();
    let tokens = scan::code(text);
    let mut errors = Vec::new();
    let (is_value, items) = projection_items(text, &tokens);
    let whole_query = Span {
        start: 0,
        end: tokens.first().map_or(0, |t| t.end),
    };
    let row_name = struct_name(&query.name);
    let mut typer = Typer {
        schema,
        structs: Vec::new(),
        errors: &mut errors,
    };
    let row = if query.returns == Returns::Exec {
        // Run for its effect: whatever the statement answers is dropped.
        Some(RType::Unit)
    } else if is_value {
        let ty = report.projections.first().map_or(Ty::Any, |p| p.ty.clone());
        let item = items.first();
        let span = item.map_or(whole_query, |i| i.span);
        let expr = item.map_or(text, |i| i.expr);
        let whole = item.is_some_and(|i| i.whole);
        typer.rtype(&ty, whole, span, expr, &row_name)
    } else {
        if query.returns == Returns::Value {
            typer.errors.push(Untypable {
                span: whole_query,
                message:
                    "`:value` returns one value: write `SELECT VALUE expr ...`, or annotate the query `:one` for a row"
                        .into(),
            });
        }
        typer.row(report, &items, whole_query, &row_name)
    };
    let mut params = typer.params(text, &tokens, report);
    // `-- param:` lines put their parameters first, in their order (a stable sort keeps the rest
    // in order of first appearance).
    params.sort_by_key(|p| {
        query
            .params
            .iter()
            .position(|d| d.name == p.name)
            .unwrap_or(query.params.len())
    });
    let structs = std::mem::take(&mut typer.structs);
    if errors.is_empty() {
        Ok(Shape {
            params,
            row: row.unwrap_or(RType::Value),
            structs,
        })
    } else {
        Err(errors)
    }
}

struct Typer<'a, 'e> {
    schema: &'a Schema,
    structs: Vec<StructShape>,
    errors: &'e mut Vec<Untypable>,
}

impl Typer<'_, '_> {
    fn fail(&mut self, span: Span, message: String) -> Option<RType> {
        self.errors.push(Untypable { span, message });
        None
    }

    /// The row of a `SELECT a, b AS c`: a struct of its projections, or the table's own struct for `SELECT *`.
    fn row(&mut self, report: &Report, items: &[Item], whole_query: Span, name: &str) -> Option<RType> {
        let projections = &report.projections;
        if let [only] = projections.as_slice() {
            if only.name == "*" {
                let span = items.first().map_or(whole_query, |i| i.span);
                return self.rtype(&only.ty, true, span, "*", name);
            }
        }
        // Each projection's key path in the row (`seller.name` nests, as the engine nests it).
        let mut entries: Vec<Entry> = Vec::new();
        for (k, p) in projections.iter().enumerate() {
            // The projections and the items are both in text order; a mismatch points at the query.
            let item = items.get(k).filter(|_| items.len() == projections.len());
            let span = item.map_or(whole_query, |i| i.span);
            let expr = item.map_or(p.name.as_str(), |i| i.expr);
            if p.name == "*" {
                // `SELECT *, expr AS extra`: the row's own fields and id, then the extras (a
                // later projection of the same name replaces the field, as the engine does).
                let Ty::Record(table) = p.ty.element() else {
                    self.fail(
                        span,
                        "`*` beside other projections is typed only over one table: list the fields".into(),
                    );
                    continue;
                };
                let later: Vec<String> = projections[k + 1..].iter().map(|q| q.name.clone()).collect();
                for (key, ty) in self.row_of(table) {
                    if !later.contains(&key) {
                        entries.push(Entry {
                            path: vec![key.clone()],
                            ty,
                            span,
                            expr: key,
                            whole: false,
                        });
                    }
                }
                continue;
            }
            let path: Vec<String> = match item {
                Some(Item { alias: Some(alias), .. }) => vec![alias.clone()],
                Some(Item {
                    simple: Some(field), ..
                }) => vec![field.clone()],
                _ if p.name == "count()" => vec!["count".into()],
                // The engine's key path (`seller.name`, `images.url` for `images[0].url`).
                _ if Ty::is_nested_key(&p.name) => p.name.split('.').map(str::to_owned).collect(),
                _ => {
                    self.fail(
                        span,
                        format!("the row's key for `{expr}` is not a plain name: give it one, `{expr} AS name`"),
                    );
                    continue;
                }
            };
            entries.push(Entry {
                path,
                ty: p.ty.clone(),
                span,
                expr: expr.to_owned(),
                whole: item.is_some_and(|i| i.whole),
            });
        }
        let fields = self.row_fields(&entries, name);
        self.structs.insert(
            0,
            StructShape {
                name: name.to_owned(),
                fields,
            },
        );
        Some(RType::Struct(name.to_owned()))
    }

    /// A table's row as keys and types: `id`, then each field in schema order.
    fn row_of(&self, table: &str) -> Vec<(String, Ty)> {
        let Some(t) = self.schema.table(table) else {
            return Vec::new();
        };
        let mut out = vec![("id".to_owned(), Ty::Record(table.to_owned()))];
        out.extend(t.fields.iter().map(|f| (f.name.clone(), Ty::of_field(f))));
        out
    }

    /// The row's fields from its projections' key paths, in order of first appearance: a key
    /// reached by plain paths (`seller.name`, `seller.city`) is a struct of them, as the engine
    /// nests them; a key written twice, or both whole and as a path, is an error.
    fn row_fields(&mut self, entries: &[Entry], name: &str) -> Vec<FieldShape> {
        let mut heads: Vec<&str> = Vec::new();
        for e in entries {
            if !heads.contains(&e.path[0].as_str()) {
                heads.push(&e.path[0]);
            }
        }
        let mut fields = Vec::new();
        for head in heads {
            let group: Vec<&Entry> = entries.iter().filter(|e| e.path[0] == head).collect();
            let first = group[0];
            let ident = field_ident(head);
            if fields.iter().any(|f: &FieldShape| f.ident == ident)
                || (group.len() > 1 && group.iter().any(|e| e.path.len() == 1))
            {
                let last = group[group.len() - 1];
                self.fail(
                    last.span,
                    format!("two projections would both be the row's field `{ident}`: give this one another name, `{} AS other_name`", last.expr),
                );
                continue;
            }
            let nested = format!("{name}{}", struct_name(head));
            let ty = if first.path.len() == 1 {
                self.rtype(&first.ty, first.whole, first.span, &first.expr, &nested)
            } else {
                let row: Vec<(String, Ty)> = group.iter().map(|e| (e.path[1..].join("."), e.ty.clone())).collect();
                self.rtype(&Ty::nested_row(&row), false, first.span, &first.expr, &nested)
            };
            if let Some(ty) = ty {
                fields.push(FieldShape {
                    ident,
                    key: head.to_owned(),
                    ty,
                });
            }
        }
        fields
    }

    /// The Rust type of a value of type `ty`; `whole`: a record is the row (`x.*`), not its id.
    fn rtype(&mut self, ty: &Ty, whole: bool, span: Span, expr: &str, name: &str) -> Option<RType> {
        Some(match ty {
            Ty::Bool => RType::Bool,
            Ty::Int => RType::Int,
            Ty::Float => RType::Float,
            Ty::Decimal => RType::Decimal,
            Ty::Number => RType::Number,
            Ty::String => RType::String,
            Ty::Datetime => RType::Datetime,
            Ty::Duration => RType::Duration,
            Ty::Uuid => RType::Uuid,
            Ty::Bytes => RType::Bytes,
            Ty::AnyObject => RType::Value,
            Ty::RecordKey => RType::Key,
            Ty::Literal(values) => self.literal(values),
            Ty::Record(table) => match self.schema.table(table) {
                Some(t) if whole => RType::Row(t.rust_name.clone()),
                Some(t) => RType::Link(t.rust_name.clone()),
                None => return self.untyped(span, expr),
            },
            Ty::Array(inner) => RType::Vec(Box::new(self.rtype(inner, whole, span, expr, name)?)),
            Ty::Option(inner) => match self.rtype(inner, whole, span, expr, name)? {
                // `option<option<T>>` reads as one `Option`.
                o @ RType::Option(_) => o,
                t => RType::Option(Box::new(t)),
            },
            Ty::Object(fields) => {
                let mut out = Vec::new();
                for (key, t) in fields {
                    if !is_plain_key(key) {
                        return self.fail(
                            span,
                            format!("the key `{key}` inside `{expr}` is not a plain name: give it one with `AS name`"),
                        );
                    }
                    let nested = format!("{name}{}", struct_name(key));
                    let ty = self.rtype(t, false, span, expr, &nested)?;
                    out.push(FieldShape {
                        key: key.clone(),
                        ident: field_ident(key),
                        ty,
                    });
                }
                self.structs.push(StructShape {
                    name: name.to_owned(),
                    fields: out,
                });
                RType::Struct(name.to_owned())
            }
            Ty::Any | Ty::None => return self.untyped(span, expr),
        })
    }

    /// A whole input of a table (`CONTENT $x`, `INSERT INTO t $x`): its module's `Input`, or its
    /// `Patch` when any subset of fields will do (`MERGE $x`).
    fn input(&mut self, input: &InputOf, span: Span, expr: &str) -> Option<RType> {
        match self.schema.table(&input.table) {
            Some(t) if t.view.is_none() => Some(RType::Input {
                module: crate::codegen::idents::rust_ident(&t.name),
                partial: input.partial,
            }),
            _ => self.fail(
                span,
                format!(
                    "`{expr}` is written into `{}`, which has no input struct (it is no table the application writes)",
                    input.table
                ),
            ),
        }
    }

    fn untyped(&mut self, span: Span, expr: &str) -> Option<RType> {
        self.fail(
            span,
            format!(
                "`{expr}` has no type the schema gives it; cast it to the type it holds: `<TYPE> {expr}` \
                (`<string>`, `<int>`, `<datetime>`, `<object>`, ...)"
            ),
        )
    }

    /// The schema's Literal enum with exactly these values (the first one, if several do); a
    /// hand-written literal type without an enum is a string.
    fn literal(&self, values: &[String]) -> RType {
        let mut want: Vec<&str> = values.iter().map(String::as_str).collect();
        want.sort_unstable();
        self.schema
            .enums
            .iter()
            .find(|e| {
                let mut have: Vec<&str> = e.variants.iter().map(|(_, v)| v.as_str()).collect();
                have.sort_unstable();
                have == want
            })
            .map_or(RType::String, |e| RType::Enum(e.rust_name.clone()))
    }

    /// The arguments, in order of first appearance; untyped and unused ones are reported by the checker.
    fn params(&mut self, text: &str, tokens: &[Token], report: &Report) -> Vec<ParamShape> {
        let typed = resolved(&report.params);
        let mut out: Vec<ParamShape> = Vec::new();
        for (i, t) in tokens.iter().enumerate() {
            if t.kind != Kind::Param || !is_argument(&t.text, report) {
                continue;
            }
            let defined = i > 0 && (tokens[i - 1].is_word("let") || tokens[i - 1].is_word("for"));
            if defined || out.iter().any(|p| p.name == t.text) {
                continue;
            }
            let span = Span {
                start: t.start,
                end: t.end,
            };
            let expr = &text[t.start..t.end];
            let ty = match input_use(report, &t.text) {
                Some(input) => self.input(input, span, expr),
                None => {
                    let Some((_, ty)) = typed.iter().find(|(n, _)| *n == t.text) else {
                        continue;
                    };
                    self.rtype(ty, false, span, expr, "Param")
                }
            };
            if let Some(ty) = ty {
                let mut ident = field_ident(&t.text);
                if ident == "db" {
                    ident.push('_');
                }
                if out.iter().any(|p| p.ident == ident) {
                    self.fail(
                        span,
                        format!(
                            "`${}` would be the same Rust argument `{ident}` as another parameter: rename one of them",
                            t.text
                        ),
                    );
                    continue;
                }
                out.push(ParamShape {
                    name: t.text.clone(),
                    ident,
                    ty,
                });
            }
        }
        out
    }
}

/// The table a parameter is written into as a whole (`CONTENT $x`, `MERGE $x`, `INSERT INTO t $x`), if it is.
pub fn input_use<'r>(report: &'r Report, name: &str) -> Option<&'r InputOf> {
    report
        .params
        .iter()
        .filter(|u| u.name == name)
        .find_map(|u| u.input.as_ref())
}

/// A Rust field name for a row key (`totalRevenue` → `total_revenue`, `type` → `r#type`).
fn field_ident(key: &str) -> String {
    crate::codegen::idents::rust_ident(key)
}

fn is_plain_key(key: &str) -> bool {
    key.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The statements that write: their output is the list after their own `RETURN`.
const WRITES: [&str; 6] = ["create", "insert", "update", "upsert", "delete", "relate"];

/// The top-level token that is the word `word`, outside every bracket.
fn top_level(tokens: &[Token], word: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == Kind::Punct {
            match t.text.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                _ => {}
            }
        } else if depth == 0 && t.is_word(word) {
            return Some(i);
        }
    }
    None
}

/// The projection list split at its commas: whether it is `SELECT VALUE` (`RETURN VALUE`), and
/// each item. A SELECT's list runs to its `FROM`; a write's is the one after its own `RETURN`
/// (none for `RETURN NONE|BEFORE|AFTER|DIFF` or without one: the engine answers whole rows).
fn projection_items<'t>(text: &'t str, tokens: &[Token]) -> (bool, Vec<Item<'t>>) {
    let write = tokens.first().is_some_and(|t| WRITES.iter().any(|w| t.is_word(w)));
    let start = if write {
        top_level(tokens, "return")
    } else {
        tokens.iter().position(|t| t.is_word("select"))
    };
    let Some(start) = start else {
        return (false, Vec::new());
    };
    let mut i = start + 1;
    let whole = ["none", "before", "after", "diff"];
    if write && tokens.get(i).is_some_and(|t| whole.iter().any(|w| t.is_word(w))) {
        return (false, Vec::new());
    }
    let is_value = tokens.get(i).is_some_and(|t| t.is_word("value"));
    if is_value {
        i += 1;
    }
    let mut items = Vec::new();
    let mut depth = 0i32;
    let mut begin = i;
    while i <= tokens.len() {
        let t = tokens.get(i);
        let end = match t {
            None => true,
            Some(t) if depth == 0 && (t.is_word("from") || t.is_punct(",")) => true,
            Some(t) if write && depth == 0 && (t.is_word("timeout") || t.is_word("parallel")) => true,
            Some(t) => {
                if t.kind == Kind::Punct {
                    match t.text.as_str() {
                        "(" | "[" | "{" => depth += 1,
                        ")" | "]" | "}" => depth -= 1,
                        _ => {}
                    }
                }
                false
            }
        };
        if end {
            if begin < i {
                items.push(item(text, &tokens[begin..i]));
            }
            if t.is_none_or(|t| t.is_word("from") || (write && !t.is_punct(","))) {
                break;
            }
            begin = i + 1;
        }
        i += 1;
    }
    (is_value, items)
}

fn item<'t>(text: &'t str, tokens: &[Token]) -> Item<'t> {
    // The last top-level `AS` starts the alias.
    let mut depth = 0i32;
    let mut as_at = None;
    for (k, t) in tokens.iter().enumerate() {
        match t.text.as_str() {
            "(" | "[" | "{" if t.kind == Kind::Punct => depth += 1,
            ")" | "]" | "}" if t.kind == Kind::Punct => depth -= 1,
            _ if depth == 0 && t.is_word("as") && k > 0 => as_at = Some(k),
            _ => {}
        }
    }
    let expr_tokens = &tokens[..as_at.unwrap_or(tokens.len())];
    let alias = as_at.and_then(|k| match &tokens[k + 1..] {
        [one] if one.kind == Kind::Ident => Some(one.text.clone()),
        _ => None,
    });
    let start = tokens[0].start;
    let end = expr_tokens.last().map_or(start, |t| t.end);
    let whole = matches!(expr_tokens, [.., dot, star] if dot.is_punct(".") && star.is_punct("*"));
    let simple = match expr_tokens {
        [one] if one.kind == Kind::Ident => Some(one.text.clone()),
        _ => None,
    };

    Item {
        span: Span {
            start,
            end: tokens.last().map_or(end, |t| t.end),
        },
        expr: &text[start..end],
        alias,
        whole,
        simple,
    }
}

#[cfg(all(test, feature = "front"))]
mod tests {
    use super::*;

    fn store() -> Schema {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/store.rs");
        let file = crate::front::SourceFile::read(&path).unwrap();
        crate::front::compile(&[file]).unwrap()
    }

    fn typed(schema: &Schema, returns: Returns, text: &str) -> Result<Shape, Vec<Untypable>> {
        let report = crate::validate::validate_with(schema, text, &crate::validate::Options::for_named_queries());
        assert!(!report.has_errors(), "{text}: {:?}", report.diagnostics);
        let query = NamedQuery {
            name: "q".into(),
            returns,
            questions: Vec::new(),
            text: text.into(),
            offset: 0,
            line: 1,
            column: 1,
            name_line: 1,
            params: Vec::new(),
            directives: Vec::new(),
        };
        shape(schema, &query, &report)
    }

    fn fields(shape: &Shape) -> Vec<(String, String)> {
        shape.structs[0]
            .fields
            .iter()
            .map(|f| (f.key.clone(), f.ty.rust("t")))
            .collect()
    }

    #[test]
    fn projections_become_typed_fields() {
        let s = store();
        let shape = typed(
            &s,
            Returns::Many,
            "SELECT out.category AS category, math::sum(qty * unit_price) AS revenue, count() AS lines, \
                math::mean(qty) AS avg_qty FROM contains WHERE in.status = $status GROUP BY category",
        )
        .unwrap();
        let rt = "::surqlc::runtime";
        assert_eq!(
            fields(&shape),
            vec![
                ("category".into(), "t::Category".into()),
                ("revenue".into(), format!("{rt}::Decimal")),
                ("lines".into(), "i64".into()),
                ("avg_qty".into(), "f64".into()),
            ]
        );
        assert_eq!(shape.params[0].ty, RType::Enum("Status".into()));
    }

    #[test]
    fn whole_rows_links_and_keys() {
        let s = store();
        let shape = typed(
            &s,
            Returns::Many,
            "SELECT id, name, ->placed->purchase AS orders, ->placed->purchase.* AS order_rows FROM customer LIMIT $n",
        )
        .unwrap();
        let rt = "::surqlc::runtime";
        assert_eq!(
            fields(&shape),
            vec![
                ("id".into(), format!("{rt}::Link<t::Customer>")),
                ("name".into(), "::std::string::String".into()),
                ("orders".into(), format!("::std::vec::Vec<{rt}::Link<t::Purchase>>")),
                (
                    "order_rows".into(),
                    format!("::std::vec::Vec<{rt}::Record<t::Purchase>>")
                ),
            ]
        );
        assert_eq!(shape.params[0].ty, RType::Int);
        let all = typed(&s, Returns::Opt, "SELECT * FROM customer WHERE name = $name").unwrap();
        assert_eq!(all.row, RType::Row("Customer".into()));
        assert_eq!(all.params[0].ty, RType::String);
        let value = typed(&s, Returns::Value, "SELECT VALUE count() FROM purchase GROUP ALL").unwrap();
        assert_eq!(value.row, RType::Int);
    }

    #[test]
    fn what_has_no_type_is_an_error_at_the_expression_with_a_cast() {
        let s = store();
        let text = "SELECT name, string::concat(name, $x) AS label, rand() * 2 AS noise FROM customer WHERE name = $x";
        let errors = typed(&s, Returns::Many, text).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].message.contains("cast it to the type it holds"), "{errors:?}");
        assert_eq!(errors[0].span.text(text), "rand() * 2 AS noise");
        let unnamed = typed(&s, Returns::Many, "SELECT string::uppercase(name) FROM customer").unwrap_err();
        assert!(unnamed[0].message.contains("AS name"), "{unnamed:?}");
        let value = typed(&s, Returns::Value, "SELECT name FROM customer").unwrap_err();
        assert!(value[0].message.contains("SELECT VALUE"), "{value:?}");
        let nested = typed(
            &s,
            Returns::Many,
            "SELECT name, { tier: tier, since: joined } AS account, (SELECT name, price FROM product WHERE \
                category = 'audio' LIMIT 2) AS audio FROM customer",
        )
        .unwrap();
        assert_eq!(fields(&nested)[1].1, "QAccount");
        assert_eq!(fields(&nested)[2].1, "::std::vec::Vec<QAudio>");
        let audio = nested.structs.iter().find(|s| s.name == "QAudio").unwrap();
        let keys: Vec<(&str, String)> = audio.fields.iter().map(|f| (f.key.as_str(), f.ty.rust("t"))).collect();
        assert_eq!(
            keys,
            vec![
                ("name", "::std::string::String".to_owned()),
                ("price", "::surqlc::runtime::Decimal".to_owned())
            ]
        );
        // Two projections with one name are the validator's DuplicateAlias (SQ0601) before typing.
        let twice = crate::validate::validate_with(
            &s,
            "SELECT name, tier AS name FROM customer",
            &crate::validate::Options::for_named_queries(),
        );
        assert!(twice.has(crate::validate::Class::DuplicateAlias), "{twice:?}");
        // A cast gives the type.
        let cast = typed(
            &s,
            Returns::Many,
            "SELECT <string> (time::now() - joined) AS age FROM customer",
        )
        .unwrap();
        assert_eq!(fields(&cast)[0].1, "::std::string::String");
    }
}
