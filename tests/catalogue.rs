//! The validator's catalogue, proven on the engine: every code has wrong queries the validator flags and the embedded engine really refuses or answers differently, each beside a fixed query that is clean and runs; docs/diagnostics.md lists the same codes, levels and behaviours as `surqlc::codes`.

use std::collections::BTreeMap;
use surqlc::db::Db;
use surqlc::front::{compile, SourceFile};
use surqlc::ir::Schema;
use surqlc::validate::{self, Class, Severity};
use surqlc_tests::*;

/// One block of tests/corpus/catalogue.surql (or of a `catalogue_*.surql` beside it).
struct Case {
    class: Class,
    schema: String,
    verdict: String,
    wrong: String,
    fixed: String,
    line: usize,
    file: String,
}

/// Every case of `catalogue.surql` and of the `catalogue_*.surql` files beside it, in name order.
fn cases() -> Vec<Case> {
    let dir = root().join("tests/corpus");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/corpus")
        .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("catalogue") && name.ends_with(".surql"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|file| cases_of(file, &read(dir.join(file))))
        .collect()
}

fn cases_of(file: &str, text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(head) = line.strip_prefix("-- SQ") else {
            continue;
        };
        let words: Vec<&str> = head.split_whitespace().collect();
        // `store@user`: the case runs in an end user's session of the schema's scope.
        let code = format!("SQ{}", words[0]);
        let class = Class::from_code(&code).unwrap_or_else(|| panic!("{file}:{}: no code {code}", i + 1));
        let (wrong, fixed) = (lines[i + 1], lines[i + 2]);
        assert!(
            wrong.ends_with(';') && fixed.ends_with(';'),
            "{file}:{}: one query per line",
            i + 1
        );
        out.push(Case {
            class,
            schema: words[1].to_owned(),
            verdict: words[2].to_owned(),
            wrong: wrong.to_owned(),
            fixed: fixed.to_owned(),
            line: i + 1,
            file: file.to_owned(),
        });
    }
    out
}

fn schema(name: &str) -> Schema {
    compile(&[SourceFile::read(root().join("schemas").join(format!("{name}.rs"))).unwrap()]).unwrap()
}

async fn database(name: &str) -> Db {
    let output = builder(name).no_agent().generate().unwrap();
    let seed = read(root().join("schemas").join(format!("{name}.seed.surql")));
    loaded(&[&output.schema_surql, &seed]).await
}

/// The validator's report with the data checks, as the runner makes them: in an end user's
/// session when the case names one (`store@user`), else for the team's agent; for the
/// application's profile (`store@app`) as `check-query --profile app` makes it (no data checks).
async fn checked(schema: &Schema, db: &Db, query: &str, mode: &str) -> validate::Report {
    if mode == "app" {
        return validate::validate_with(schema, query, &validate::Options::for_app());
    }
    let options = validate::Options::for_session(schema, mode == "user");
    let mut report = validate::validate_with(schema, query, &options);
    if !report.has_errors() {
        validate::data::check(db, schema, &mut report).await.unwrap();
    }
    report
}

/// A database of the case's own for the application's profile (`@app`: a write changes the data),
/// else `None` (the schema's shared one).
async fn own_database(name: &str, mode: &str) -> Option<Db> {
    if mode == "app" {
        Some(database(name).await)
    } else {
        None
    }
}

/// Runs `query` with each of its `$parameters` bound to a string: `Err` when the engine refuses.
async fn run_bound(db: &Db, query: &str) -> Result<serde_json::Value, String> {
    let mut q = db.query(query);
    for t in surqlc::surql::scan::code(query) {
        if t.kind == surqlc::surql::scan::Kind::Param {
            q = q.bind((t.text.clone(), "x"));
        }
    }
    let mut response = q.await.and_then(|r| r.check()).map_err(|e| e.to_string())?;
    let value: surrealdb::types::Value = response.take(0).map_err(|e| e.to_string())?;
    Ok(value.into_json_value())
}

/// A `binds` case: the engine refuses the wrong query with its parameters bound, and runs the fixed one.
async fn binds(db: &Db, case: &Case, at: &str) -> Vec<String> {
    let mut failures = Vec::new();
    if let Err(e) = run_bound(db, &case.fixed).await {
        failures.push(format!("{at}: the engine refuses the fixed query bound: {e}"));
    }
    if let Ok(rows) = run_bound(db, &case.wrong).await {
        failures.push(format!("{at}: the engine binds the wrong query's parameters: {rows}"));
    }
    failures
}

#[test]
fn every_code_is_caught_and_proven_on_the_engine() {
    let cases = cases();
    assert!(cases.len() >= 60, "{} wrong queries", cases.len());
    block_on(async {
        let mut schemas = BTreeMap::new();
        let mut dbs = BTreeMap::new();
        for case in &cases {
            let name = case.schema.split('@').next().unwrap_or(&case.schema);
            if !schemas.contains_key(name) {
                schemas.insert(name.to_owned(), schema(name));
                dbs.insert(name.to_owned(), database(name).await);
            }
        }
        let mut failures = Vec::new();
        for case in &cases {
            let (name, mode) = case.schema.split_once('@').unwrap_or((&case.schema, ""));
            // A write changes the data: each of the application's cases gets a database of its own.
            let fresh = own_database(name, mode).await;
            let (schema, db) = (&schemas[name], fresh.as_ref().unwrap_or(&dbs[name]));
            let at = format!("{}:{} ({})", case.file, case.line, case.class.code());
            let wrong = checked(schema, db, &case.wrong, mode).await;
            if case.class == Class::EngineError {
                // What the validator cannot see: it passes, the engine refuses.
                if wrong.has_errors() {
                    failures.push(format!(
                        "{at}: the validator already refuses it:\n{}",
                        wrong.render(&case.wrong)
                    ));
                }
            } else if !wrong.has(case.class) {
                failures.push(format!(
                    "{at}: no {} for\n{}\n{}",
                    case.class,
                    case.wrong,
                    wrong.render(&case.wrong)
                ));
            }
            let fixed = checked(schema, db, &case.fixed, mode).await;
            if !fixed.diagnostics.is_empty() {
                failures.push(format!(
                    "{at}: the fixed query is flagged:\n{}\n{}",
                    case.fixed,
                    fixed.render(&case.fixed)
                ));
            }
            if case.verdict == "binds" {
                failures.extend(binds(db, case, &at).await);
                continue;
            }
            // The wrong query first: a fixed write would change what the wrong one finds.
            let wrong_rows = surqlc::db::query_json(db, &case.wrong).await;
            let fixed_db = own_database(name, mode).await;
            let fixed_rows = surqlc::db::query_json(fixed_db.as_ref().unwrap_or(db), &case.fixed).await;
            if let Err(e) = &fixed_rows {
                failures.push(format!("{at}: the engine refuses the fixed query {}: {e}", case.fixed));
                continue;
            }
            match case.verdict.as_str() {
                "fails" => {
                    if let Ok(rows) = wrong_rows {
                        failures.push(format!("{at}: the engine answers {rows} to {}", case.wrong));
                    }
                }
                "differs" => match wrong_rows {
                    Ok(rows) if Some(&rows) == fixed_rows.as_ref().ok() => {
                        failures.push(format!("{at}: the same answer as the fixed query: {rows}"))
                    }
                    Ok(_) => {}
                    Err(e) => failures.push(format!("{at}: expected an answer, the engine fails: {e}")),
                },
                // A clause that does nothing: the engine answers exactly as without it.
                "same" => match wrong_rows {
                    Ok(rows) if Some(&rows) == fixed_rows.as_ref().ok() => {}
                    Ok(rows) => failures.push(format!("{at}: a different answer from the fixed query: {rows}")),
                    Err(e) => failures.push(format!("{at}: expected an answer, the engine fails: {e}")),
                },
                // The runner's policy (one read-only SELECT, a row cap) or the data: the
                // validator's verdict is the proof; the engine may answer.
                "refused" | "data" => {
                    if !matches!(case.class.engine(), validate::Engine::Refused) && case.verdict == "refused" {
                        failures.push(format!("{at}: `refused` for a class the runner does not refuse"));
                    }
                }
                other => failures.push(format!("{at}: unknown verdict {other}")),
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    });
    // Every code has its cases.
    let covered: std::collections::BTreeSet<Class> = cases.iter().map(|c| c.class).collect();
    let missing: Vec<&str> = Class::ALL
        .iter()
        .filter(|c| !covered.contains(c))
        .map(|c| c.code())
        .collect();
    assert!(missing.is_empty(), "no catalogue case for {missing:?}");
}

#[test]
fn the_document_is_the_registrys_page() {
    // docs/diagnostics.md is written from `surqlc::codes` (the registry); SURQLC_BLESS=1 rewrites it.
    let path = root().join("docs/diagnostics.md");
    let page = surqlc::codes::page();
    if std::env::var_os("SURQLC_BLESS").is_some() {
        std::fs::write(&path, &page).unwrap();
    }
    assert!(
        read(&path) == page,
        "docs/diagnostics.md differs from the registry's page (compiler/src/codes/registry.rs): \
         run SURQLC_BLESS=1 cargo test -p surqlc-tests --test suite catalogue::"
    );
    // Every code's page entry has its two examples, and each example's schema exists.
    for class in Class::ALL {
        let ex = class.examples();
        assert!(!ex.wrong.is_empty() && !ex.fixed.is_empty(), "{class}");
        assert!(root().join(format!("schemas/{}.rs", ex.schema)).exists(), "{class}");
    }
}

#[test]
fn lint_levels_drop_demote_or_raise_a_code() {
    let mut store = schema("store");
    let query = "SELECT name FROM product WHERE price LIMIT 5";
    let report = validate::validate(&store, query);
    assert!(report
        .diagnostics
        .iter()
        .any(|d| d.class == Class::ConditionNotBool && d.severity == Severity::Warning));
    store.settings.lints.deny.push("SQ0204".into());
    assert!(validate::validate(&store, query).has_errors());
    store.settings.lints = Default::default();
    store.settings.lints.allow.push("SQ0204".into());
    assert!(validate::validate(&store, query).diagnostics.is_empty());
    // An error where the engine answers wrongly may be made a warning; the query then passes.
    store.settings.lints = Default::default();
    store.settings.lints.warn.push("SQ0501".into());
    let report = validate::validate(&store, "SELECT count() AS n FROM customer LIMIT 5");
    assert!(!report.has_errors() && report.has(Class::CountWithoutGroup));
    // Where the engine fails, the rule refuses to relax the level.
    assert!(surqlc::codes::lint_rule("SQ0502", true).is_err());
    assert!(surqlc::codes::lint_rule("SQ0502", false).is_ok());
    assert!(surqlc::codes::lint_rule("SQ0999", false)
        .unwrap_err()
        .contains("unknown lint code"));
}

#[test]
fn lints_in_the_schema_are_checked_at_their_position() {
    let path = schema_file(
        "lint_levels",
        r#"
use surqlc_macros::{Schema, Table};
#[derive(Schema)]
#[surqlc(expose(Shop), lints(allow(SQ0204), deny(SQ0902), warn(SQ0502)))]
pub struct Towns;
#[derive(Table)]
pub struct Shop {
    pub name: String,
}
"#,
    );
    let err = compile(&[SourceFile::read(&path).unwrap()]).unwrap_err().to_string();
    assert!(
        err.contains("SQ0502") && err.contains("cannot be allowed or made a warning"),
        "{err}"
    );
    assert!(err.contains(":4:"), "at the attribute's line: {err}");
    let fine = std::fs::read_to_string(&path).unwrap().replace(", warn(SQ0502)", "");
    std::fs::write(&path, fine).unwrap();
    let schema = compile(&[SourceFile::read(&path).unwrap()]).unwrap();
    assert_eq!(schema.settings.lints.allow, ["SQ0204"]);
    assert_eq!(schema.settings.lints.deny, ["SQ0902"]);
}

#[test]
fn a_named_query_file_takes_the_same_suppression() {
    // `tier = 'gold'` is ValueNotInUnion (an error the engine answers wrongly, so it may be allowed).
    let query = "-- name: golden :many\n-- surqlc: allow(SQ0201) reason=\"gold is the next tier\"\nSELECT name FROM customer WHERE tier = 'gold';\n";
    let build = |text: &str| {
        let dir = scratch_dir("suppressed_queries");
        std::fs::write(dir.join("q.surql"), text).unwrap();
        builder("store")
            .no_agent()
            .queries(&dir)
            .generate()
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    build(query).unwrap();
    let trailing = query
        .replace("-- surqlc: allow(SQ0201) reason=\"gold is the next tier\"\n", "")
        .replace(
            "'gold';",
            "'gold'; -- surqlc: allow(SQ0201) reason=\"gold is the next tier\"",
        );
    build(&trailing).unwrap();
    // Without the directive, the build is refused at the literal.
    let bare = query.replace("-- surqlc: allow(SQ0201) reason=\"gold is the next tier\"\n", "");
    let err = build(&bare).unwrap_err();
    assert!(err.contains("q.surql:2:") && err.contains("'gold'"), "{err}");
    // A directive without a reason is an error at its own line.
    let err = build(&query.replace(" reason=\"gold is the next tier\"", "")).unwrap_err();
    assert!(err.contains("q.surql:2:1") && err.contains("has no reason"), "{err}");
}

#[test]
fn a_suppression_drops_only_its_code_for_its_query() {
    let store = schema("store");
    let query = "SELECT name FROM product WHERE price AND category = 'Audio' LIMIT 5";
    let plain = validate::validate(&store, query);
    assert!(plain.has(Class::ConditionNotBool) && plain.has(Class::ValueNotInUnion));
    let allowed = validate::validate(
        &store,
        &format!("-- surqlc: allow(SQ0204) reason=\"set means listed\"\n{query}"),
    );
    assert!(!allowed.has(Class::ConditionNotBool), "{}", allowed.render(query));
    assert!(allowed.has(Class::ValueNotInUnion), "only the allowed code is dropped");
    // An error the engine fails on cannot be allowed: the directive is the finding.
    let refused = validate::validate(
        &store,
        "SELECT name FROM products LIMIT 5 -- surqlc: allow(SQ0101) reason=\"x\"",
    );
    assert!(refused.has(Class::UnknownTable) && refused.has(Class::BadSuppression));
}

/// Every machine-applicable fix of the catalogue's wrong queries, applied: the repaired query
/// passes the validator and answers like the case's fixed query on the engine.
#[test]
fn every_fix_of_the_catalogue_repairs_its_query() {
    let cases = cases();
    block_on(async {
        let mut schemas = BTreeMap::new();
        let mut dbs = BTreeMap::new();
        let (mut failures, mut repaired) = (Vec::new(), 0);
        for case in &cases {
            let name = case.schema.split('@').next().unwrap_or(&case.schema);
            if !schemas.contains_key(name) {
                schemas.insert(name.to_owned(), schema(name));
                dbs.insert(name.to_owned(), database(name).await);
            }
            let mode = case.schema.split_once('@').map_or("", |(_, m)| m);
            let fresh = own_database(name, mode).await;
            let (schema, db) = (&schemas[name], fresh.as_ref().unwrap_or(&dbs[name]));
            let wrong = checked(schema, db, &case.wrong, mode).await;
            let edits: Vec<&validate::Edit> = wrong.diagnostics.iter().flat_map(|d| &d.fixes).collect();
            if edits.is_empty()
                || !wrong
                    .diagnostics
                    .iter()
                    .filter(|d| d.class == case.class)
                    .all(|d| !d.fixes.is_empty())
            {
                continue;
            }
            let fixed = validate::apply_edits(&case.wrong, &edits);
            let at = format!("{}:{} ({})", case.file, case.line, case.class.code());
            let again = checked(schema, db, &fixed, mode).await;
            if again.has_errors() {
                failures.push(format!(
                    "{at}: the repaired query {fixed} still has\n{}",
                    again.render(&fixed)
                ));
                continue;
            }
            let got = surqlc::db::query_json(db, &fixed).await;
            // A write answers with the records it made (new ids): each on a database of its own,
            // and the repair holds when both run.
            let other = own_database(name, mode).await;
            let want = surqlc::db::query_json(other.as_ref().unwrap_or(db), &case.fixed).await;
            let (got, want) = match (got, want) {
                (Ok(_), Ok(_)) if mode == "app" => (Ok(serde_json::Value::Null), Ok(serde_json::Value::Null)),
                pair => pair,
            };
            match (got, want) {
                (Ok(got), Ok(want)) if got == want => repaired += 1,
                (got, want) => failures.push(format!("{at}: {fixed} answers {got:?}, the fixed query {want:?}")),
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
        assert!(repaired >= 15, "{repaired} queries repaired by their fixes");
    });
}

/// docs/grounding.md's table of SurrealDB's analyzer: its 58 SELECT-relevant diagnostics, each
/// against codes the registry has, or with why there is none.
#[test]
fn the_analyzer_table_names_registered_codes_or_says_why() {
    let doc = read(root().join("docs/grounding.md"));
    let section = doc
        .split("## SurrealDB's analyzer, code by code")
        .nth(1)
        .expect("the section")
        .split("\n## ")
        .next()
        .unwrap();
    let rows: Vec<Vec<&str>> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| analyzer"))
        // `\|` is a pipe inside a cell.
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), 58, "58 SELECT-relevant analyzer diagnostics");
    let mut covered = std::collections::BTreeSet::new();
    for row in &rows {
        let (analyzer, surqlc, how) = (row[0], row[2], row.get(3).copied().unwrap_or(""));
        if surqlc == "none" || surqlc == "moot" {
            assert!(how.len() > 10, "{analyzer}: no code, and no reason");
            continue;
        }
        for code in surqlc.split(", ") {
            let class = Class::from_code(code).unwrap_or_else(|| panic!("{analyzer}: {code} is not registered"));
            covered.insert(class);
        }
    }
    // Each code that says which analyzer diagnostic it answers is in that row.
    for class in Class::ALL {
        for (i, _) in class.about().match_indices("(analyzer ") {
            let number: String = class.about()[i + 10..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let row = rows.iter().find(|r| r[0] == number);
            let row = row.unwrap_or_else(|| panic!("{}: analyzer {number} is not in the table", class.code()));
            assert!(row[2].contains(class.code()), "{} in the row of {number}", class.code());
        }
    }
    assert!(
        covered.len() >= 30,
        "{} codes answer an analyzer diagnostic",
        covered.len()
    );
}
