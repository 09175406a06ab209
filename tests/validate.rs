//! The validator on the store: the wrong corpus is caught with the right class and a fix, the right corpus and every seed example are clean, hidden tables read as unknown.

use surqlc::front::{compile, SourceFile};
use surqlc::ir::Schema;
use surqlc::validate::{self, split_queries, Class, Report, Severity};
use surqlc_tests::*;

fn schema(name: &str) -> Schema {
    compile(&[SourceFile::read(root().join("schemas").join(format!("{name}.rs"))).unwrap()]).unwrap()
}

/// `(expected classes, needs data, query, line)` for each query of a corpus file.
fn corpus(file: &str) -> Vec<(Vec<Class>, bool, String, usize)> {
    let text = read(root().join("tests/corpus").join(file));
    split_queries(&text, false)
        .into_iter()
        .map(|piece| {
            let mut classes = Vec::new();
            let mut data = false;
            for line in piece.text.lines() {
                if let Some(rest) = line.trim().strip_prefix("-- expect:") {
                    for word in rest.split_whitespace() {
                        if word == "(data)" {
                            data = true;
                        } else {
                            classes.push(
                                Class::from_name(word)
                                    .unwrap_or_else(|| panic!("{file}:{}: unknown class {word}", piece.line)),
                            );
                        }
                    }
                }
            }
            (classes, data, piece.text, piece.line)
        })
        .collect()
}

fn describe(report: &Report, query: &str) -> String {
    report.render(query)
}

#[test]
fn every_wrong_query_is_caught_with_its_class_and_a_fix() {
    let store = schema("store");
    let wrong = corpus("store_wrong.surql");
    assert!(wrong.len() >= 40, "{} wrong queries", wrong.len());
    let mut seen = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for (classes, data, query, line) in &wrong {
        assert!(!classes.is_empty(), "line {line}: no `-- expect:` for {query}");
        if *data {
            continue;
        }
        let report = validate::validate(&store, query);
        let missing: Vec<&Class> = classes.iter().filter(|c| !report.has(**c)).collect();
        if !missing.is_empty() || !report.has_errors() {
            failures.push(format!(
                "line {line}: expected {missing:?} for\n{query}\ngot:\n{}",
                describe(&report, query)
            ));
        }
        for d in &report.diagnostics {
            if d.fix.trim().is_empty() {
                failures.push(format!("line {line}: no fix in `{d}`"));
            }
            if d.span.end > query.len() || d.span.start > d.span.end {
                failures.push(format!("line {line}: span {:?} outside the query", d.span));
            }
        }
        seen.extend(classes.iter().copied());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    for class in [
        Class::UnknownField,
        Class::UnknownTable,
        Class::WrongTableAfterTraversal,
        Class::BadTraversal,
        Class::FilterWithoutWhere,
        Class::ValueNotInUnion,
        Class::SqlHabit,
        Class::Limit,
    ] {
        assert!(seen.contains(&class), "the wrong corpus has no {class} query");
    }
}

#[test]
fn no_right_query_is_flagged() {
    let store = schema("store");
    let right = corpus("store_right.surql");
    assert!(right.len() >= 40, "{} right queries", right.len());
    let failures: Vec<String> = right
        .iter()
        .filter_map(|(_, _, query, line)| {
            let report = validate::validate(&store, query);
            (!report.diagnostics.is_empty()).then(|| format!("line {line}:\n{query}\n{}", describe(&report, query)))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_issue_examples_read_as_the_issue_asks() {
    let store = schema("store");
    let check = |query: &str, class: Class, needles: &[&str]| {
        let report = validate::validate(&store, query);
        let d = report
            .diagnostics
            .iter()
            .find(|d| d.class == class)
            .unwrap_or_else(|| panic!("no {class} for {query}: {}", report.render(query)));
        let text = d.to_string();
        for needle in needles {
            assert!(text.contains(needle), "{query}: `{text}` lacks `{needle}`");
        }
        (d.span.text(query).to_owned(), text)
    };
    let (at, _) = check(
        "SELECT name, email FROM customer LIMIT 50",
        Class::UnknownField,
        &["`customer` has no field `email`", "name, country, tier, joined"],
    );
    assert_eq!(at, "email");
    let (at, _) = check(
        "SELECT name FROM purchase->contains->product WHERE status = 'shipped' LIMIT 50",
        Class::WrongTableAfterTraversal,
        &[
            "`purchase->contains->product` lands on `product`, which has no field `status`",
            "`status` is a field of `purchase`: select FROM contains and use in.status",
        ],
    );
    assert_eq!(at, "status");
    let (at, _) = check(
        "SELECT * FROM purchase WHERE status = 'Shipped' LIMIT 50",
        Class::ValueNotInUnion,
        &[
            "'Shipped' is not a value of purchase.status ('cancelled' | 'pending' | 'shipped')",
            "did you mean 'shipped'",
        ],
    );
    assert_eq!(at, "'Shipped'");
    let (at, _) = check(
        "SELECT DISTINCT country FROM customer LIMIT 50",
        Class::SqlHabit,
        &["SurrealQL has no DISTINCT", "GROUP BY", "array::distinct()"],
    );
    assert_eq!(at, "DISTINCT");
    let (at, _) = check(
        "SELECT * FROM custmer LIMIT 50",
        Class::UnknownTable,
        &["there is no table `custmer`", "did you mean `customer`"],
    );
    assert_eq!(at, "custmer");
    let (at, _) = check(
        "SELECT name, ->placed[status = 'shipped']->purchase AS s FROM customer LIMIT 50",
        Class::FilterWithoutWhere,
        &["[WHERE status = 'shipped']"],
    );
    assert_eq!(at, "[status = 'shipped']");
    check("SELECT name FROM customer", Class::Limit, &["LIMIT 50"]);
}

#[test]
fn projections_carry_their_types() {
    let store = schema("store");
    let report = validate::validate(
        &store,
        "SELECT out.category AS category, math::sum(qty * unit_price) AS revenue, count() AS lines, in<-placed<-customer[0].name AS buyer, ->x AS bad FROM contains GROUP BY category LIMIT 50",
    );
    let types: Vec<(String, String)> = report
        .projections
        .iter()
        .map(|p| (p.name.clone(), p.ty.to_string()))
        .collect();
    assert_eq!(
        types[..4],
        [
            ("category".to_owned(), "\"audio\" | \"home\" | \"wearables\"".to_owned()),
            ("revenue".to_owned(), "decimal".to_owned()),
            ("lines".to_owned(), "int".to_owned()),
            // One element of a list may be missing: NONE when the order has no buyer.
            ("buyer".to_owned(), "option<string>".to_owned()),
        ]
    );
    let report = validate::validate(&store, "SELECT VALUE ->placed->purchase FROM customer LIMIT 5");
    assert_eq!(report.projections[0].ty.to_string(), "array<record<purchase>>");
    assert_eq!(report.result.unwrap().to_string(), "array<array<record<purchase>>>");
}

#[test]
fn a_hidden_table_reads_exactly_as_a_missing_one() {
    let path = schema_file(
        "hidden",
        r#"
        #[derive(Schema)]
        #[surqlc(expose(Customer))]
        pub struct Shop;
        /// A customer.
        #[derive(Table)]
        pub struct Customer { pub name: String, pub note: Link<Salary> }
        /// Hidden.
        #[derive(Table)]
        pub struct Salary { pub amount: i64 }
        "#,
    );
    let hidden = compile(&[SourceFile::read(&path).unwrap()]).unwrap();
    let message = |query: &str| {
        let report = validate::validate(&hidden, query);
        report
            .diagnostics
            .iter()
            .find(|d| d.class == Class::UnknownTable)
            .map(|d| d.to_string())
            .unwrap_or_else(|| panic!("{query}: {}", report.render(query)))
    };
    let for_hidden = message("SELECT * FROM salary LIMIT 5").replace("salary", "NAME");
    let for_missing = message("SELECT * FROM wages LIMIT 5").replace("wages", "NAME");
    assert_eq!(for_hidden, for_missing);
    assert!(!for_hidden.contains("salary"));
    // Reading through a link into it, or a record id of it, is the same "no such table".
    let through = message("SELECT note.amount FROM customer LIMIT 5");
    assert!(through.contains("there is no table `salary`"), "{through}");
    message("SELECT * FROM salary:one LIMIT 5");
    // Other routes to it are refused too: a computed table name, `.*` or FETCH through a link.
    for query in [
        "SELECT * FROM type::table('sal' + 'ary') LIMIT 5",
        "SELECT * FROM $t LIMIT 5",
        "SELECT note.* AS n FROM customer LIMIT 5",
        "SELECT * FROM customer LIMIT 5 FETCH note",
        "SELECT name, (SELECT * FROM salary) AS s FROM customer LIMIT 5",
        "SELECT * FROM customer WHERE note IN (SELECT VALUE id FROM salary) LIMIT 5",
    ] {
        message(query);
    }
    let report = validate::validate(
        &hidden,
        "SELECT name, (INFO FOR TABLE salary) AS i FROM customer LIMIT 5",
    );
    assert!(report.has(Class::NotOneSelect), "{}", report.render("INFO"));
}

#[test]
fn every_seed_example_validates() {
    block_on(async {
        let store = schema("store");
        let output = builder("store").generate().unwrap();
        for seed in [
            store_fixtures().join("seed.surql"),
            root().join("schemas/store.seed.surql"),
        ] {
            let conn = loaded(&[&output.schema_surql, &read(&seed)]).await;
            let examples = surqlc::db::query_json(&conn, "SELECT VALUE surql FROM query_example")
                .await
                .unwrap();
            let examples = examples.as_array().unwrap();
            assert!(!examples.is_empty(), "{}: no examples", seed.display());
            for example in examples {
                let query = example.as_str().unwrap();
                let report = validate::validate(&store, query);
                assert!(
                    report.diagnostics.is_empty(),
                    "{}: {query}\n{}",
                    seed.display(),
                    report.render(query)
                );
            }
        }
    })
}

#[test]
fn a_habit_that_parses_is_still_caught() {
    let store = schema("store");
    // `IS NULL` parses as `= NULL`, but a missing field is NONE: it never matches.
    let query = "SELECT * FROM customer WHERE name IS NULL LIMIT 5";
    let report = validate::validate(&store, query);
    assert!(report.has(Class::SqlHabit), "{}", report.render(query));
    assert!(report.diagnostics.iter().all(|d| d.severity == Severity::Error));
}

#[test]
fn a_file_of_examples_splits_at_blank_lines_and_semicolons_outside_strings() {
    let text = "-- head\n\nSELECT 'a;\n\nb' FROM x;\nSELECT 2 FROM y;\n\n-- cannot answer: no\n";
    let pieces: Vec<String> = split_queries(text, true).into_iter().map(|p| p.text).collect();
    assert_eq!(
        pieces,
        ["SELECT 'a;\n\nb' FROM x;", "\nSELECT 2 FROM y;", "-- cannot answer: no"]
    );
    assert_eq!(split_queries(text, false).len(), 2);
}

#[test]
fn the_wrong_queries_that_need_data_are_caught_on_the_store_data() {
    block_on(async {
        let store = schema("store");
        let output = builder("store").generate().unwrap();
        let conn = loaded(&[&output.schema_surql, &read(root().join("schemas/store.seed.surql"))]).await;
        let mut checked = 0;
        for (classes, data, query, line) in corpus("store_wrong.surql") {
            if !data {
                continue;
            }
            let mut report = validate::validate(&store, &query);
            validate::data::check(&conn, &store, &mut report).await.unwrap();
            for class in &classes {
                assert!(
                    report.has(*class),
                    "line {line}: no {class}:\n{query}\n{}",
                    report.render(&query)
                );
            }
            assert!(report.diagnostics.iter().all(|d| !d.fix.is_empty()));
            checked += 1;
        }
        assert!(checked >= 2);
        // And the right corpus stays clean with the data checks too.
        for (_, _, query, line) in corpus("store_right.surql") {
            let mut report = validate::validate(&store, &query);
            validate::data::check(&conn, &store, &mut report).await.unwrap();
            assert!(report.diagnostics.is_empty(), "line {line}: {}", report.render(&query));
            if report.cannot_answer.is_none() {
                surqlc::db::query_json(&conn, &query)
                    .await
                    .unwrap_or_else(|e| panic!("line {line}: the engine refuses\n{query}\n{e}"));
            }
        }
    })
}

/// The right corpus's queries, each cut, spliced or salted with SurrealQL fragments.
fn mutated() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let queries: Vec<String> = corpus("store_right.surql")
        .into_iter()
        .chain(corpus("store_wrong.surql"))
        .map(|(_, _, q, _)| q)
        .collect();
    const SALT: &[&str] = &[
        "->",
        "<-",
        "<->",
        "[",
        "]",
        "[WHERE ",
        "(",
        ")",
        "'",
        "\"",
        "`",
        "⟨",
        ".",
        "..",
        ":",
        "::",
        "$",
        "$parent",
        "@",
        "*",
        ",",
        ";",
        " FROM ",
        " WHERE ",
        " GROUP ALL",
        " LIMIT ",
        "-- ",
        "/*",
        "d'",
        "customer",
        "placed",
        "in",
        "out",
        "id",
        "[0]",
        "[$]",
        "?",
        "é",
        "\u{2028}",
        " SELECT ",
        "{",
        "}",
        "<string>",
        "1..3",
        "VALUE",
        "ONLY ",
        "EXPLAIN",
        "fn::x(",
        "math::sum(",
    ];
    (
        proptest::sample::select(queries),
        proptest::collection::vec(
            (any::<prop::sample::Index>(), 0usize..6, proptest::sample::select(SALT)),
            0..6,
        ),
    )
        .prop_map(|(query, edits)| {
            let mut chars: Vec<char> = query.chars().collect();
            for (at, cut, salt) in edits {
                let i = at.index(chars.len() + 1);
                let end = (i + cut).min(chars.len());
                chars.splice(i..end, salt.chars());
            }
            chars.into_iter().collect()
        })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    #[test]
    fn the_validator_never_panics_on_any_text(text in "\\PC{0,120}") {
        let store = schema("store");
        let report = validate::validate(&store, &text);
        for d in &report.diagnostics {
            proptest::prop_assert!(d.span.start <= d.span.end && d.span.end <= text.len());
            let _ = report.render(&text);
        }
    }

    #[test]
    fn the_validator_never_panics_on_mutated_queries(text in mutated()) {
        let store = schema("store");
        let report = validate::validate(&store, &text);
        for d in &report.diagnostics {
            proptest::prop_assert!(d.span.start <= d.span.end && d.span.end <= text.len(), "{d:?} in {text:?}");
        }
        let _ = report.to_json(&text);
        let _ = surqlc::runtime::prepare_select(&text, std::time::Duration::from_secs(1));
    }
}

#[test]
fn the_validating_runner_never_panics_on_mutated_queries() {
    use proptest::strategy::{Strategy, ValueTree};
    block_on(async {
        let store = schema("store");
        let output = builder("store").agent_password("fuzz-password").generate().unwrap();
        let conn = loaded(&[&output.schema_surql, &read(root().join("schemas/store.seed.surql"))]).await;
        let agent = surqlc::runtime::signin_agent(&conn, "ai", "store", "agent", "fuzz-password")
            .await
            .unwrap();
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = mutated();
        for _ in 0..150 {
            let text = strategy.new_tree(&mut runner).unwrap().current();
            surqlc::runtime::run_validated(&agent, &text, std::time::Duration::from_secs(2), &store)
                .await
                .unwrap_or_else(|e| panic!("{text:?}: {e}"));
        }
    })
}

#[test]
fn an_undeclared_field_of_a_schemaless_table_warns_without_blocking() {
    let meetings = schema("meetings");
    let query = "SELECT role, in AS person FROM attended LIMIT 5";
    let report = surqlc::validate::validate(&meetings, query);
    assert!(!report.has_errors(), "{}", describe(&report, query));
    let warning = report.warnings().next().expect("a warning for `role`");
    assert_eq!(warning.class, Class::UnknownField);
    assert!(warning.message.contains("SCHEMALESS"), "{}", warning.message);
    // A SCHEMAFULL table's unknown field still blocks.
    let query = "SELECT nme FROM meeting LIMIT 5";
    let report = surqlc::validate::validate(&meetings, query);
    assert!(report.has_errors(), "{}", describe(&report, query));
}

/// Rule 6 of the default rules says what SurrealDB 3.3 does: GROUP BY only what the query
/// returns (the parser refuses the rest, and the validator says how to fix it), ORDER BY any field.
#[test]
fn the_default_rules_say_what_the_engine_does_with_group_by_and_order_by() {
    let store = schema("store");
    let rules = surqlc::codegen::emit::render_preamble(&store, &Default::default()).unwrap();
    let rule = rules.lines().find(|l| l.starts_with("6.")).unwrap();
    assert!(rule.contains("ORDER BY may name an alias or any field"), "{rule}");
    assert!(!rule.contains("ORDER BY accepts only"), "{rule}");
    // ORDER BY a field that is not returned: clean (store_right.surql runs it on the engine too).
    let report = validate::validate(&store, "SELECT name FROM product ORDER BY price DESC LIMIT 5");
    assert!(report.diagnostics.is_empty(), "{}", report.render(""));
    // GROUP BY a path that is not projected: the engine's parse error, with the alias fix.
    let query = "SELECT count() AS orders FROM placed GROUP BY in.tier LIMIT 50";
    let report = validate::validate(&store, query);
    let d = report.errors().next().expect("an error");
    assert_eq!(d.class, Class::Syntax);
    assert!(
        d.fix.contains("project `in.tier AS tier` and write `GROUP BY tier`"),
        "{}",
        report.render(query)
    );
}

/// The repairs quote the schema being checked: its own tables, fields and relations, never the store's.
#[test]
fn repair_examples_come_from_the_schema_being_checked() {
    let meetings = schema("meetings");
    let cases = [
        (
            "SELECT DISTINCT title FROM meeting LIMIT 50",
            "SELECT title FROM meeting GROUP BY title",
        ),
        (
            "SELECT * FROM person JOIN attended ON attended.in = person.id LIMIT 50",
            "person->attended->meeting, or meeting<-attended<-person",
        ),
        (
            "SELECT COUNT(*) FROM meeting LIMIT 50",
            "SELECT count() AS n FROM person GROUP ALL",
        ),
    ];
    for (query, example) in cases {
        let text = validate::validate(&meetings, query).render(query);
        assert!(text.contains(example), "{query}: {text}");
        for store_name in ["customer", "purchase", "country"] {
            assert!(!text.contains(store_name), "{query} quotes the store: {text}");
        }
    }
}

/// A datetime compared with a string: `<`/`>` match by type order (the same for every row), `=` never.
#[test]
fn a_datetime_compared_with_a_string_says_what_the_engine_does() {
    let store = schema("store");
    let query = "SELECT * FROM purchase WHERE placed_at > '2025-08-15' LIMIT 5";
    let report = validate::validate(&store, query);
    let d = report.errors().next().expect("flagged");
    assert_eq!(d.class, Class::TypeMismatch);
    assert!(d.message.contains("compare by type order"), "{}", d.message);
    assert!(!d.message.contains("never matches"), "{}", d.message);
    assert!(d.fix.contains("d'2025-08-15"), "{}", d.fix);
    let query = "SELECT * FROM purchase WHERE placed_at = '2025-08-15' LIMIT 5";
    let report = validate::validate(&store, query);
    assert!(report.errors().next().unwrap().message.contains("never matches"));
}

#[test]
fn a_comparison_with_null_is_the_missing_value_mistake() {
    // `content = NULL` answers without an error on the engine, but never matches: a missing value
    // is NONE. The validator refuses it with the NONE spelling; the NONE spellings pass and answer.
    block_on(async {
        let memory = schema("memory");
        let output = builder("memory").generate().unwrap();
        let conn = loaded(&[&output.schema_surql, &read(root().join("schemas/memory.seed.surql"))]).await;
        let count = |rows: serde_json::Value| rows.as_array().map_or(0, Vec::len);
        let null = "SELECT name FROM file WHERE content = NULL LIMIT 50";
        let report = validate::validate(&memory, null);
        assert!(report.has(Class::NullComparison), "{}", report.render(null));
        let d = &report.diagnostics[0];
        assert_eq!(&null[d.span.start..d.span.end], "NULL");
        assert!(d.fix.contains("content = NONE"), "{}", d.fix);
        assert_eq!(count(surqlc::db::query_json(&conn, null).await.unwrap()), 0);
        let not_null = "SELECT name FROM file WHERE content != NULL LIMIT 50";
        let report = validate::validate(&memory, not_null);
        assert!(report.has(Class::NullComparison), "{}", report.render(not_null));
        assert!(report.diagnostics[0].message.contains("matches every row"));
        let all = count(
            surqlc::db::query_json(&conn, "SELECT name FROM file LIMIT 50")
                .await
                .unwrap(),
        );
        assert_eq!(count(surqlc::db::query_json(&conn, not_null).await.unwrap()), all);
        let mut folders = None;
        for right in [
            "SELECT name FROM file WHERE content = NONE LIMIT 50",
            "SELECT name FROM file WHERE content IS NONE LIMIT 50",
        ] {
            let report = validate::validate(&memory, right);
            assert!(report.diagnostics.is_empty(), "{}", report.render(right));
            let n = count(surqlc::db::query_json(&conn, right).await.unwrap());
            assert!(n > 0, "{right}");
            assert_eq!(*folders.get_or_insert(n), n);
        }
    })
}

/// A projection without an alias is keyed as the engine keys it (`Expr::to_idiom`): `count()` is
/// `count`, `math::sum(..)` is `math::sum`; reading those keys back is clean and answers on the engine.
#[test]
fn an_unaliased_call_is_keyed_by_its_name_as_the_engine_keys_it() {
    block_on(async {
        let store = schema("store");
        let output = builder("store").no_agent().generate().unwrap();
        let conn = loaded(&[&output.schema_surql, &read(root().join("schemas/store.seed.surql"))]).await;
        let cases = [
            ("RETURN (SELECT count() FROM customer GROUP ALL)[0].count", "count"),
            (
                "RETURN (SELECT math::sum(price) FROM product GROUP ALL)[0]['math::sum']",
                "math::sum",
            ),
        ];
        for (query, key) in cases {
            let report = validate::validate_with(&store, query, &validate::Options::for_app());
            assert!(report.diagnostics.is_empty(), "{}", report.render(query));
            let mut response = conn.query(query).await.unwrap().check().unwrap();
            let value: surrealdb::types::Value = response.take(0).unwrap();
            let value = value.into_json_value();
            // A decimal's sum comes back as its text in JSON; a missing key would be NONE (null).
            assert!(!value.is_null(), "{query}: the engine's key is `{key}`, got {value}");
        }
        // The agent's profile reads the same key.
        let query = "SELECT count() FROM customer GROUP ALL";
        let report = validate::validate(&store, query);
        assert!(report.diagnostics.is_empty(), "{}", report.render(query));
    })
}
