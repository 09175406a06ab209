//! The audit's static schema block equals the engine's `fn::schema_context()`, and its token counts equal the lesson's.

use surqlc::ir::Schema;
use surqlc::surql::info::{self as render, Rendering};
use surqlc::tokens::{self, Encoding};
use surqlc_tests::*;

/// What the embedded engine renders for a compiled schema, and the compiled IR.
fn live_block(output: &surqlc::builder::Output) -> String {
    block_on(async {
        let db = loaded(&[&output.schema_surql]).await;
        surqlc::db::query_string(&db, "RETURN fn::schema_context()")
            .await
            .expect("fn::schema_context runs")
    })
}

#[test]
fn static_block_equals_the_engine_for_every_schema() {
    let files = schema_files();
    assert!(!files.is_empty());
    for file in files {
        let output = surqlc::Builder::new()
            .schema(&file)
            .cargo_metadata(false)
            .generate()
            .expect("schema compiles");
        let want = live_block(&output);
        assert_eq!(render::schema_block(&output.schema), want, "{}", file.display());
    }
}

#[test]
fn static_block_of_the_store_is_the_lessons() {
    let schema = builder("store").load().unwrap();
    assert_eq!(
        render::schema_block(&schema),
        read(store_fixtures().join("expected/schema_context.txt"))
    );
}

const AWKWARD: &str = r##"
use surqlc_macros::{Literal, Relation, Schema, Table};

#[derive(Schema)]
#[surqlc(expose(Note, Tagged, Tag))]
pub struct Awkward;

/// It's a "note": back\slash, tab	here, emoji 😀 and ⟩.
///
/// Second paragraph with only 'single' quotes.
#[derive(Table)]
pub struct Note {
    /// Only "double" quotes.
    pub title: String,
    #[doc = "a raw\nnewline and \\ and it's \"both\""]
    pub body: Option<String>,
    /// Lists sort after their name: tags.* follows tags.
    pub tags: Vec<String>,
    pub tags_b: Option<Vec<Option<[f64; 3]>>>,
    /// A field named like a keyword.
    pub value: i64,
    pub Zed: bool,
    pub mood: Option<Mood>,
    pub link: Option<Link<Tag>>,
    #[surqlc(type = "string")]
    pub raw: String,
    #[surqlc(type = "option<array<'a' | \"b\">>")]
    pub raw_list: Option<Vec<String>>,
    #[surqlc(type = "string ASSERT $value INSIDE ['x', 'y']")]
    pub raw_assert: String,
}

#[derive(Literal)]
pub enum Mood { Sad, Glad, Mad }

/// Tag 'x'.
#[derive(Table)]
pub struct Tag {
    pub name: String,
}

#[derive(Relation)]
pub struct Tagged {
    pub r#in: Link<Note>,
    pub out: Link<Tag>,
    /// 🙂 weight\n
    pub weight: f64,
}
"##;

fn compile_text(name: &str, text: &str) -> surqlc::builder::Output {
    let path = schema_file(name, text);
    surqlc::Builder::new()
        .schema(&path)
        .cargo_metadata(false)
        .generate()
        .expect("schema compiles")
}

#[test]
fn awkward_comments_names_and_types_render_like_the_engine() {
    let output = compile_text("awkward", AWKWARD);
    let want = live_block(&output);
    let got = render::schema_block(&output.schema);
    assert_eq!(got, want);
    assert!(
        got.contains(r#"COMMENT "a raw\nnewline and \\ and it's \"both\"""#),
        "{got}"
    );
    assert!(got.contains("DEFINE FIELD `value` ON note"), "{got}");
}

fn store() -> Schema {
    builder("store").load().unwrap()
}

#[test]
fn store_token_counts_equal_the_lesson() {
    let want: serde_json::Value = serde_json::from_str(&read(store_fixtures().join("expected/tokens.json"))).unwrap();
    let schema = store();
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
        let cost = tokens::block_cost(&schema, Rendering::Engine, encoding);
        let expected = &want[encoding.name()];
        for table in &cost.tables {
            assert_eq!(
                Some(table.tokens as u64),
                expected[&table.table].as_u64(),
                "{encoding} {}",
                table.table
            );
        }
        assert_eq!(cost.tables.len(), 5);
        assert_eq!(
            Some(cost.block_tokens as u64),
            expected["schema_block_total"].as_u64(),
            "{encoding} block"
        );
    }
}

#[test]
fn an_inside_assert_is_reported_with_its_saving() {
    let schema = compile_text("inside", AWKWARD).schema;
    let savings = tokens::savings(&schema, Encoding::O200kBase);
    assert_eq!(savings.len(), 1, "{savings:?}");
    assert_eq!(savings[0].field, "raw_assert");
    assert!(savings[0].advice.contains("'x' | 'y'"), "{savings:?}");
    assert!(savings[0].saved() > 0, "{savings:?}");
}

/// What the engine renders for the compact spelling, whatever the schema chose.
fn live_compact_block(output: &surqlc::builder::Output) -> String {
    block_on(async {
        let db = loaded(&[&output.schema_surql]).await;
        surqlc::db::query_string(&db, "RETURN fn::schema_context_compact()")
            .await
            .expect("fn::schema_context_compact runs")
    })
}

#[test]
fn compact_block_equals_the_engine_for_every_schema() {
    let mut outputs: Vec<_> = schema_files()
        .iter()
        .map(|f| {
            surqlc::Builder::new()
                .schema(f)
                .cargo_metadata(false)
                .generate()
                .expect("schema compiles")
        })
        .collect();
    outputs.push(compile_text("awkward_compact", AWKWARD));
    for output in outputs {
        let want = live_compact_block(&output);
        assert_eq!(
            render::schema_block_as(&output.schema, Rendering::Compact),
            want,
            "{}",
            output.schema.name
        );
    }
}

#[test]
fn compact_store_is_within_400_tokens() {
    let cost = tokens::block_cost(&store(), Rendering::Compact, Encoding::O200kBase);
    assert!(cost.block_tokens <= 400, "{} tokens", cost.block_tokens);
}

#[test]
fn a_compact_schema_shrinks_the_live_prompt() {
    let text = AWKWARD.replace(
        "#[surqlc(expose(Note, Tagged, Tag))]",
        "#[surqlc(expose(Note, Tagged, Tag), compact)]",
    );
    let output = compile_text("compact_setting", &text);
    assert!(output.schema.settings.compact);
    assert_eq!(render::schema_block(&output.schema), live_block(&output));
    assert_eq!(
        render::schema_block(&output.schema),
        render::schema_block_as(&output.schema, Rendering::Compact)
    );
}

/// A string literal as the engine writes it, read back.
fn unquote(text: &str) -> (String, &str) {
    let mut chars = text.char_indices();
    let (_, quote) = chars.next().expect("a quote");
    assert!(quote == '\'' || quote == '"', "{text}");
    let mut value = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                let (_, e) = chars.next().expect("escape");
                match e {
                    'n' => value.push('\n'),
                    't' => value.push('\t'),
                    'r' => value.push('\r'),
                    '0' => value.push('\0'),
                    'f' => value.push('\x0C'),
                    'u' => {
                        let rest = &text[i + 2..];
                        let close = rest.find('}').expect("\\u{...}");
                        value.push(char::from_u32(u32::from_str_radix(&rest[1..close], 16).unwrap()).unwrap());
                        for _ in 0..=close {
                            chars.next();
                        }
                    }
                    other => value.push(other),
                }
            }
            c if c == quote => return (value, &text[i + 1..]),
            c => value.push(c),
        }
    }
    panic!("unterminated string in {text}")
}

/// Splits `... COMMENT 'x'` at the top-level ` COMMENT ` (not one inside a literal type).
fn split_comment(line: &str) -> (&str, Option<String>) {
    let mut quote = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (Some(_), '\\') if !escaped => {
                escaped = true;
                continue;
            }
            (Some(q), c) if c == q && !escaped => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, ' ') if line[i..].starts_with(" COMMENT ") => {
                let (comment, rest) = unquote(&line[i + 9..]);
                assert_eq!(rest, "", "nothing follows the comment in {line}");
                return (&line[..i], Some(comment));
            }
            _ => {}
        }
        escaped = false;
    }
    (line, None)
}

#[test]
fn the_compact_block_loses_nothing() {
    for output in [
        builder("store").generate().unwrap(),
        compile_text("awkward_parse", AWKWARD),
    ] {
        let schema = &output.schema;
        let block = render::schema_block_as(schema, Rendering::Compact);
        let chunks: Vec<&str> = block.split("\n\n").collect();
        assert_eq!(chunks.len(), schema.settings.exposed.len());
        for (table, chunk) in schema.exposed_tables().zip(chunks) {
            let mut lines = chunk.lines();
            let head = lines.next().unwrap().strip_suffix(';').unwrap();
            let (head, comment) = split_comment(head);
            assert_eq!(comment, table.comment, "{}", table.name);
            let head = head.strip_prefix("DEFINE TABLE ").unwrap();
            let name = match &table.kind {
                surqlc::ir::TableKind::Normal => head,
                surqlc::ir::TableKind::Relation { from, to } => {
                    let (name, ends) = head.split_once(" TYPE RELATION IN ").expect("relation head");
                    assert_eq!(ends, format!("{} OUT {}", from.join(" | "), to.join(" | ")));
                    name
                }
            };
            assert_eq!(name, surqlc::surql::lex::escape_ident(&table.name));
            let fields: Vec<(String, String, Option<String>)> = lines
                .map(|line| {
                    let (def, comment) = split_comment(line.strip_suffix(';').unwrap());
                    let rest = def.strip_prefix("DEFINE FIELD ").unwrap();
                    let (field, rest) = rest.split_once(" ON ").unwrap();
                    let (on, ty) = rest.split_once(" TYPE ").unwrap();
                    assert_eq!(on, surqlc::surql::lex::escape_ident(&table.name));
                    (field.to_owned(), ty.to_owned(), comment)
                })
                .collect();
            for field in &table.fields {
                let shown = surqlc::surql::lex::escape_ident(&field.name);
                let found = fields
                    .iter()
                    .find(|f| f.0 == shown)
                    .unwrap_or_else(|| panic!("{}.{} is in the block", table.name, field.name));
                assert_eq!(found.1, render::render_kind(&field.ty));
                assert_eq!(found.2, field.comment);
                if let surqlc::ir::Type::Literal(values) = &field.ty {
                    for v in values {
                        assert!(
                            found.1.contains(&surqlc::surql::lex::quote_str(v)),
                            "{v} in {}",
                            found.1
                        );
                    }
                }
            }
        }
    }
}

const BUDGETED: &str = r#"
use surqlc_macros::{Schema, Table};

#[derive(Schema)]
#[surqlc(budget(block = 40, table = 25))]
pub struct Tiny;

/// A note the user wrote, with a long comment that costs more tokens than a tiny budget allows.
#[derive(Table)]
pub struct Note {
    /// The note's text.
    pub body: String,
}

/// A tag.
#[derive(Table)]
pub struct Tag {
    pub label: String,
}
"#;

#[test]
fn a_budget_in_the_schema_file_is_read_and_checked() {
    let output = compile_text("budgeted", BUDGETED);
    let budget = &output.schema.settings.budget;
    assert_eq!((budget.block, budget.table), (Some(40), Some(25)));
    let cost = tokens::block_cost(&output.schema, Rendering::Engine, Encoding::O200kBase);
    let over = cost.over_budget(budget);
    let note = cost.tables.iter().find(|t| t.table == "note").unwrap();
    let tag = cost.tables.iter().find(|t| t.table == "tag").unwrap();
    assert!(note.tokens > 25 && tag.tokens <= 25, "{cost:?}");
    assert_eq!(over.len(), 2, "{over:?}");
    assert!(over[0].starts_with(&format!("the schema block costs {}", cost.block_tokens)));
    assert_eq!(
        over[1],
        format!(
            "table note costs {} o200k_base tokens, {} over the table budget of 25",
            note.tokens,
            note.tokens - 25
        )
    );
}

#[test]
fn build_rs_warns_over_budget_and_fails_when_asked() {
    let dir = scratch_dir("budget-store");
    // The store's block costs 453 o200k tokens and its customer table 120.
    let warned = builder("store")
        .out_dir(&dir)
        .token_budget(450)
        .compile()
        .expect("over budget only warns by default");
    assert_eq!(warned.over_budget.len(), 1, "{:?}", warned.over_budget);
    assert!(warned.over_budget[0].contains("453 o200k_base tokens, 3 over the budget of 450"));

    let err = builder("store")
        .out_dir(&dir)
        .table_token_budget(110)
        .deny_over_budget(true)
        .compile()
        .expect_err("denied");
    let text = err.to_string();
    assert!(
        matches!(err, surqlc::Error::OverBudget(ref o) if o.len() == 1),
        "{text}"
    );
    assert!(
        text.contains("table customer costs 120 o200k_base tokens, 10 over the table budget of 110"),
        "{text}"
    );

    let within = builder("store")
        .out_dir(&dir)
        .token_budget(453)
        .table_token_budget(120)
        .deny_over_budget(true)
        .compile()
        .expect("exactly at the budget passes");
    assert!(within.over_budget.is_empty());
}

#[test]
fn a_bad_budget_is_a_schema_error() {
    let dir = scratch_dir("budget-bad");
    let path = dir.join("bad.rs");
    std::fs::write(
        &path,
        "#[derive(Schema)]\n#[surqlc(budget(block = 0, rows = 3))]\npub struct S;\n#[derive(Table)]\npub struct T { pub a: String }\n",
    )
    .unwrap();
    let err = surqlc::Builder::new()
        .schema(&path)
        .cargo_metadata(false)
        .load()
        .expect_err("bad budget");
    let text = err.to_string();
    assert!(text.contains("unknown") && text.contains("rows"), "{text}");
    assert!(text.contains("bad.rs:2:"), "{text}");
}

const KEYWORD_FIELDS: &str = r#"
use surqlc_macros::{Literal, Table};

/// Fields named like SurrealQL keywords are backticked, in the schema, the block and the hints.
#[derive(Table)]
pub struct Query {
    /// The chosen columns.
    pub select: String,
    pub value: Option<f64>,
    pub from: Mode,
    /// Printed bare by INFO, refused bare by the parser.
    pub explain: Option<String>,
}

#[derive(Literal)]
#[serde(rename_all = "lowercase")]
pub enum Mode { Fast, Slow }
"#;

#[test]
fn keyword_field_names_load_render_and_hint() {
    let output = compile_text("keywords", KEYWORD_FIELDS);
    assert!(output
        .schema_surql
        .contains("DEFINE FIELD OVERWRITE `select` ON query TYPE string"));
    let want = live_block(&output);
    assert_eq!(render::schema_block(&output.schema), want);
    block_on(async {
        let db = loaded(&[
            &output.schema_surql,
            "CREATE query:a SET select = 'x', from = 'fast'; CREATE query:b SET select = 'y', from = 'slow', value = 1.5;",
        ])
        .await;
        let hints = surqlc::db::query_string(&db, "RETURN fn::value_hints()").await.unwrap();
        assert_eq!(hints, "query.from: fast, slow");
    });
}

const PAYMENTS: &str = r#"
use surqlc_macros::{Schema, Table};

#[derive(Schema)]
#[surqlc(value_hints(Sale::payment_method, ids(City)))]
pub struct Shop;

#[derive(Table)]
pub struct Sale {
    pub payment_method: String,
    pub items: i64,
}

#[derive(Table)]
pub struct City {
    pub name: String,
}
"#;

/// Issue 41, item 3: a value holding a space, a comma or a quote is a SurrealQL string literal in
/// VALUES (single quotes unless it holds one, the engine's escapes), so the list reads one way;
/// plain values stay bare, and record ids keep their own spelling.
#[test]
fn values_holding_spaces_commas_or_quotes_are_quoted_literals() {
    let output = compile_text("payments", PAYMENTS);
    block_on(async {
        let db = loaded(&[
            &output.schema_surql,
            r#"CREATE sale SET payment_method = 'PayPal', items = 1;
               CREATE sale SET payment_method = 'credit card', items = 2;
               CREATE sale SET payment_method = 'cash, on delivery', items = 3;
               CREATE sale SET payment_method = "O'Brien's tab", items = 4;
               CREATE sale SET payment_method = 'say "hi"', items = 5;
               CREATE sale SET payment_method = 'back\\slash x', items = 6;
               CREATE city:⟨New York⟩ SET name = 'New York';
               CREATE city:paris SET name = 'Paris';"#,
        ])
        .await;
        let hints = surqlc::db::query_string(&db, "RETURN fn::value_hints()").await.unwrap();
        let want = [
            r#"sale.payment_method: "O'Brien's tab", PayPal, 'back\\slash x', 'cash, on delivery', 'credit card', 'say "hi"'"#,
            "city ids (2 total): ⟨New York⟩, paris",
        ];
        assert_eq!(hints, want.join("\n"));
        // Each quoted value reads back, through SurrealDB's parser, as the value stored.
        for spelled in [
            "'back\\\\slash x'",
            "'cash, on delivery'",
            r#""O'Brien's tab""#,
            r#"'say "hi"'"#,
        ] {
            let query =
                format!("RETURN <string> array::len(SELECT VALUE items FROM sale WHERE payment_method = {spelled})");
            let found = surqlc::db::query_string(&db, &query).await.unwrap();
            assert_eq!(found, "1", "{spelled} finds its row");
        }
    });
}
