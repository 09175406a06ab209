//! SurrealDB 2.x spellings (issue 54, SQ1201..SQ1204), proven on the engine: every rename is the engine's own suggestion, every fix of `catalogue_legacy.surql` gives exactly its fixed line and runs, a batch of 2.x application statements is repaired by the fixes alone and then clean, and a 2.x query's other mistakes are found at their place in the text as written.

use surqlc::validate::{self, Class, Options};
use surqlc_tests::*;

/// The SurrealDB 2.x classes.
const V2: [Class; 4] = [Class::V2Function, Class::V2Definition, Class::V2Future, Class::V2Syntax];

/// `query` with every fix of its report applied.
fn repaired(report: &validate::Report, query: &str) -> String {
    let edits: Vec<&validate::Edit> = report.diagnostics.iter().flat_map(|d| &d.fixes).collect();
    validate::apply_edits(query, &edits)
}

/// The store's schema and a database with its schema and seed.
async fn store() -> (surqlc::ir::Schema, surqlc::db::Db) {
    let output = builder("store").no_agent().generate().unwrap();
    let seed = read(root().join("schemas/store.seed.surql"));
    let db = loaded(&[&output.schema_surql, &seed]).await;
    (output.schema, db)
}

#[test]
fn every_rename_is_the_engines_own_suggestion_and_its_new_name_runs() {
    block_on(async {
        let (_, db) = store().await;
        let renames = surqlc::surql::legacy::renames();
        assert!(renames.len() >= 64, "{} renames", renames.len());
        let mut failures = Vec::new();
        for (old, new) in &renames {
            // The 2.x name fails to parse; SurrealDB names the 3.x one itself.
            match surqlc::db::query_json(&db, &format!("RETURN {old}();")).await {
                Ok(v) => failures.push(format!("{old}: the engine answers {v}")),
                Err(e) if e.to_string().contains(&format!("did you maybe mean `{new}`")) => {}
                Err(e) => failures.push(format!("{old}: {e}")),
            }
            // The 3.x name is a function the parser knows: called without its arguments, the
            // engine's complaint is about them, never the name.
            if let Err(e) = surqlc::db::query_json(&db, &format!("RETURN {new}();")).await {
                let e = e.to_string();
                if e.contains("Invalid function/constant path") {
                    failures.push(format!("{new}: {e}"));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    });
}

/// One `-- SQ12xx SCHEMA VERDICT` case of `catalogue_legacy.surql`: (code, app profile, wrong, fixed).
fn catalogue() -> Vec<(String, bool, String, String)> {
    let text = read(root().join("tests/corpus/catalogue_legacy.surql"));
    let lines: Vec<&str> = text.lines().collect();
    let mut cases = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(head) = line.strip_prefix("-- SQ") {
            let words: Vec<&str> = head.split_whitespace().collect();
            cases.push((
                format!("SQ{}", words[0]),
                words[1].ends_with("@app"),
                lines[i + 1].to_owned(),
                lines[i + 2].to_owned(),
            ));
        }
    }
    cases
}

#[test]
fn every_fix_of_a_2x_spelling_gives_the_fixed_query_and_it_runs() {
    let cases = catalogue();
    assert!(cases.len() >= 20, "{} cases", cases.len());
    block_on(async {
        let (schema, _) = store().await;
        let (mut failures, mut repaired_count) = (Vec::new(), 0);
        for (code, app, wrong, fixed) in &cases {
            let options = if *app { Options::for_app() } else { Options::of(&schema) };
            let report = validate::validate_with(&schema, wrong, &options);
            let ours: Vec<&validate::QueryDiagnostic> =
                report.diagnostics.iter().filter(|d| V2.contains(&d.class)).collect();
            assert!(
                ours.iter().any(|d| d.class.code() == code),
                "{wrong}: no {code}\n{}",
                report.render(wrong)
            );
            if ours.iter().any(|d| d.fixes.is_empty()) {
                // No mechanical spelling: the finding says what to do, and offers no edit.
                assert!(ours.iter().all(|d| !d.fix.is_empty()), "{wrong}");
                continue;
            }
            let got = repaired(&report, wrong);
            if &got != fixed {
                failures.push(format!("{wrong}\n  repaired as {got}\n  not as      {fixed}"));
                continue;
            }
            // The repair runs on a fresh database (a definition or a write changes it).
            let (_, db) = store().await;
            if let Err(e) = surqlc::db::query_json(&db, &got).await {
                failures.push(format!("{got}: the engine refuses the repair: {e}"));
            }
            repaired_count += 1;
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
        assert!(repaired_count >= 18, "{repaired_count} repaired");
    });
}

#[test]
fn application_statements_written_for_2x_are_repaired_by_the_fixes_then_clean_and_run() {
    let text = read(root().join("tests/corpus/app_legacy.surql"));
    let statements: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("--") && !l.trim().is_empty())
        .collect();
    assert!(statements.len() >= 30, "{} statements", statements.len());
    block_on(async {
        let (schema, db) = store().await;
        let mut failures = Vec::new();
        for s in &statements {
            if surqlc::db::query_json(&db, s).await.is_ok() {
                failures.push(format!("{s}: 3.3.5 runs it as written, so it is no 2.x spelling"));
            }
            let report = validate::validate_with(&schema, s, &Options::for_app());
            let other: Vec<_> = report
                .diagnostics
                .iter()
                .filter(|d| !V2.contains(&d.class) || d.fixes.is_empty())
                .collect();
            if report.diagnostics.is_empty() || !other.is_empty() {
                failures.push(format!("{s}: not only fixable 2.x spellings\n{}", report.render(s)));
                continue;
            }
            let fixed = repaired(&report, s);
            let again = validate::validate_with(&schema, &fixed, &Options::for_app());
            if !again.diagnostics.is_empty() {
                failures.push(format!(
                    "{fixed}: the repaired statement is flagged\n{}",
                    again.render(&fixed)
                ));
            }
            if let Err(e) = surqlc::db::query_json(&db, &fixed).await {
                failures.push(format!("{fixed}: the engine refuses the repaired statement: {e}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    });
}

#[test]
fn a_2x_query_is_respelled_and_its_other_mistakes_found_where_they_are_written() {
    let schema = builder("store").no_agent().generate().unwrap().schema;
    // `string::is::ascii` is 2.x; `nmae` is a real mistake before it, `'Pro'` another after it.
    let query = "SELECT nmae FROM customer WHERE string::is::ascii(name) AND tier = 'Pro' LIMIT 5";
    let report = validate::validate(&schema, query);
    let at = |class: Class| {
        let d = report.diagnostics.iter().find(|d| d.class == class);
        d.map(|d| d.span.text(query).to_owned())
            .unwrap_or_else(|| panic!("no {class}:\n{}", report.render(query)))
    };
    assert_eq!(at(Class::V2Function), "string::is::ascii");
    assert_eq!(at(Class::UnknownField), "nmae");
    assert_eq!(at(Class::ValueNotInUnion), "'Pro'");
    // Each fix applies to the text as written: the repaired query is the 3.x one.
    assert_eq!(
        repaired(&report, query),
        "SELECT name FROM customer WHERE string::is_ascii(name) AND tier = 'pro' LIMIT 5"
    );
    // Before the respelled part too, and in a statement that does not parse after the respelling.
    let query = "SELECT name FROM customer WHERE type::is::string(name) AND LIMIT 5";
    let report = validate::validate(&schema, query);
    assert!(
        report.has(Class::V2Function) && report.has(Class::Syntax),
        "{}",
        report.render(query)
    );
    // A 2.x spelling without a mechanical 3.x one is the only finding, with no edit.
    let query = "CREATE customer SET seen = <future> { time::now() }";
    let report = validate::validate_with(&schema, query, &Options::for_app());
    assert_eq!(report.diagnostics.len(), 1, "{}", report.render(query));
    assert!(report.has(Class::V2Future) && report.diagnostics[0].fixes.is_empty());
    // A query that parses is not read for 2.x spellings at all.
    let report = validate::validate(
        &schema,
        "SELECT name FROM customer WHERE string::is_ascii(name) LIMIT 5",
    );
    assert!(report.diagnostics.is_empty(), "{}", report.render(""));
}

/// The right corpus's queries salted with SurrealDB 2 fragments (and cuts), in either profile.
fn salted() -> impl proptest::strategy::Strategy<Value = (String, bool)> {
    use proptest::prelude::*;
    let text = read(root().join("tests/corpus/store_right.surql"));
    let queries: Vec<String> = validate::split_queries(&text, true)
        .into_iter()
        .map(|p| p.text)
        .collect();
    const SALT: &[&str] = &[
        "type::thing(",
        "string::is::email(",
        "duration::from::days(3)",
        "<future> { ",
        "<future>",
        " } ",
        " ~ ",
        "!~",
        "?.",
        "$x = ",
        "; $y = 1; ",
        " SPLIT ",
        " GROUP BY ",
        " PARALLEL",
        "SEARCH ANALYZER ",
        " DOC_IDS_ORDER 1",
        "MTREE DIMENSION 3",
        " CAPACITY 4",
        "FLEXIBLE TYPE ",
        "DEFINE FIELD a.b ON t ",
        "VALUE ",
        "ANALYZE INDEX ",
        "(",
        ")",
        "{",
        "'",
        "é",
        ";",
    ];
    (
        proptest::sample::select(queries),
        proptest::collection::vec(
            (any::<prop::sample::Index>(), 0usize..6, proptest::sample::select(SALT)),
            1..6,
        ),
        any::<bool>(),
    )
        .prop_map(|(query, edits, app)| {
            let mut chars: Vec<char> = query.chars().collect();
            for (at, cut, salt) in edits {
                let i = at.index(chars.len() + 1);
                let end = (i + cut).min(chars.len());
                chars.splice(i..end, salt.chars());
            }
            (chars.into_iter().collect(), app)
        })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    /// Every span and every fix of a 2.x-salted query lies in the text as written, and the fixes apply.
    #[test]
    fn the_validator_never_panics_on_2x_fragments((text, app) in salted()) {
        static STORE: std::sync::OnceLock<surqlc::ir::Schema> = std::sync::OnceLock::new();
        let store = STORE.get_or_init(|| builder("store").no_agent().generate().unwrap().schema);
        let options = if app { Options::for_app() } else { Options::of(store) };
        let report = validate::validate_with(store, &text, &options);
        for d in &report.diagnostics {
            proptest::prop_assert!(d.span.start <= d.span.end && d.span.end <= text.len(), "{d:?} in {text:?}");
            for e in &d.fixes {
                proptest::prop_assert!(e.span.start <= e.span.end && e.span.end <= text.len(), "{e:?} in {text:?}");
            }
        }
        let _ = report.render(&text);
        let _ = repaired(&report, &text);
    }
}
