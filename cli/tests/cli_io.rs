//! What the binary reads and says: `check-query`'s schema files, query and data checks, a closed stdout, `build`'s import command, `prompt --pruned`.

mod support;

use std::io::Read;
use std::path::PathBuf;
use std::process::{Output, Stdio};
use support::{assert_status, root, surqlc};

fn run(args: &[&str]) -> Output {
    surqlc().args(args).output().expect("the surqlc binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surqlc-cli-io-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn check_query_takes_several_schema_files_and_the_query_anywhere() {
    let dir = scratch("files");
    let a = dir.join("alpha.rs");
    let b = dir.join("beta.rs");
    std::fs::write(
        &a,
        "/// A.\n#[derive(Table)]\npub struct Alpha {\n    /// Its name.\n    pub name: String,\n}\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "/// B.\n#[derive(Table)]\npub struct Beta {\n    /// Its title.\n    pub title: String,\n}\n",
    )
    .unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let query = "SELECT title FROM beta LIMIT 5";
    for args in [
        vec!["check-query", a, b, query],
        vec!["check-query", a, query, b],
        vec!["check-query", a, b, "--query", query],
    ] {
        let o = run(&args);
        assert_status(&o, 0);
        assert!(text(&o.stderr).contains("0 with errors"), "{args:?}");
    }
    // One file alone does not have the other's table.
    let o = run(&["check-query", a, query]);
    assert_status(&o, 1);
    assert!(text(&o.stdout).contains("beta"), "{}", text(&o.stdout));
    // The README's spellings still work.
    assert_status(
        &run(&["check-query", "schemas/store.rs", "SELECT name FROM customer LIMIT 5"]),
        0,
    );
    let file = dir.join("queries.surql");
    std::fs::write(
        &file,
        "SELECT title FROM beta LIMIT 5;\n\nSELECT name FROM alpha LIMIT 5\n",
    )
    .unwrap();
    let o = run(&["check-query", a, b, "--file", file.to_str().unwrap()]);
    assert_status(&o, 0);
    assert!(text(&o.stderr).contains("checked 2 queries"));
    // Bad input: no schema file, two queries, a query and a file.
    for args in [
        vec!["check-query", query],
        vec!["check-query", a, query, "SELECT name FROM alpha LIMIT 5"],
        vec!["check-query", a, query, "--file", file.to_str().unwrap()],
    ] {
        let o = run(&args);
        assert_status(&o, 2);
        assert!(text(&o.stderr).starts_with("error: "), "{}", text(&o.stderr));
    }
}

#[test]
fn check_query_runs_the_data_checks_on_a_seed() {
    // The people's ids are full names: a guessed id parses and resolves, and matches nothing.
    let guessed = "SELECT record::id(out) AS meeting FROM attended WHERE in = person:alice LIMIT 50";
    let o = run(&["check-query", "schemas/meetings.rs", guessed]);
    assert_status(&o, 0);
    let o = run(&[
        "check-query",
        "schemas/meetings.rs",
        guessed,
        "--seed",
        "schemas/meetings.seed.surql",
    ]);
    assert_status(&o, 1);
    let out = text(&o.stdout);
    assert!(out.contains("person:alice"), "{out}");
    assert!(
        out.contains("there is no record `person:alice`") && out.contains("Alice Chen"),
        "the fix names the real ids: {out}"
    );
    let right = "SELECT record::id(out) AS meeting FROM attended WHERE in = person:⟨Alice Chen⟩ LIMIT 50";
    let o = run(&[
        "check-query",
        "schemas/meetings.rs",
        right,
        "--seed",
        "schemas/meetings.seed.surql",
    ]);
    assert_status(&o, 0);
    // JSON carries the data check's diagnostic too.
    let o = run(&[
        "check-query",
        "schemas/meetings.rs",
        guessed,
        "--seed",
        "schemas/meetings.seed.surql",
        "--format",
        "json",
    ]);
    assert_status(&o, 1);
    let doc: serde_json::Value = serde_json::from_str(&text(&o.stdout)).expect("JSON");
    assert_eq!(doc["errors"], 1);
    let missing_seed = run(&[
        "check-query",
        "schemas/meetings.rs",
        guessed,
        "--seed",
        "schemas/no-such.surql",
    ]);
    assert_status(&missing_seed, 2);
}

/// `check-query`'s statuses and output, as the audit's: 0 clean, 1 an error found (each at the
/// query's line:col, or one JSON object per query), 2 bad input (a missing schema or file).
#[test]
fn check_query_exits_as_audit_does() {
    let store = "schemas/store.rs";
    let clean = run(&["check-query", store, "SELECT name FROM customer LIMIT 5"]);
    assert_status(&clean, 0);
    assert_eq!(text(&clean.stdout), "");
    let wrong = run(&["check-query", store, "SELECT name, email FROM customer LIMIT 5"]);
    assert_status(&wrong, 1);
    assert!(
        text(&wrong.stdout)
            .starts_with("query:1:14: error[SQ0102 UnknownField] `email`: `customer` has no field `email`"),
        "{}",
        text(&wrong.stdout)
    );
    let file = run(&[
        "check-query",
        store,
        "--file",
        "tests/corpus/store_wrong.surql",
        "--format",
        "json",
    ]);
    assert_status(&file, 1);
    let json: serde_json::Value = serde_json::from_slice(&file.stdout).unwrap();
    let first = &json["queries"][0];
    assert_eq!(first["line"], 5);
    assert_eq!(first["diagnostics"][0]["class"], "UnknownField");
    assert_eq!(first["diagnostics"][0]["text"], "email");
    let right = run(&["check-query", store, "--file", "tests/corpus/store_right.surql"]);
    assert_status(&right, 0);
    assert_status(&run(&["check-query", "schemas/nope.rs", "SELECT 1"]), 2);
    assert_status(&run(&["check-query", store, "--file", "nope.surql"]), 2);
}

/// Runs `args` with stdout closed before the binary writes anything: no panic, the command's own status.
fn with_closed_stdout(args: &[&str], status: i32) {
    let mut child = surqlc()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    drop(child.stdout.take());
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let exit = child.wait().expect("exits");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(exit.code(), Some(status), "{args:?}: {err}");
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    let dir = scratch("pipe");
    let dump = dir.join("other.surql");
    std::fs::write(&dump, "DEFINE TABLE stray SCHEMALESS;\n").unwrap();
    with_closed_stdout(&["diff", "schemas/store.rs", "--dump", dump.to_str().unwrap()], 1);
    with_closed_stdout(&["audit", "schemas/store.rs"], 0);
    with_closed_stdout(&["--help"], 0);
    with_closed_stdout(&["diff", "--help"], 0);
    with_closed_stdout(
        &["check-query", "schemas/store.rs", "SELECT nme FROM customer LIMIT 5"],
        1,
    );
    with_closed_stdout(
        &[
            "prompt",
            "schemas/store.rs",
            "--question",
            "Which category earns us the most money?",
            "--vector",
            "0.92,0,0.4,0",
        ],
        0,
    );
}

#[test]
fn build_says_where_the_file_goes() {
    let out = scratch("build");
    let o = run(&["build", "schemas/store.rs", "--out", out.to_str().unwrap()]);
    assert_status(&o, 0);
    let err = text(&o.stderr);
    let surql = out.join("schema.surql");
    assert!(
        err.contains(&format!(
            "surreal import --endpoint http://localhost:8000 --user root --pass <root password> --ns ai --db store {}",
            surql.display()
        )),
        "{err}"
    );
    assert!(err.contains("for namespace `ai`, database `store`"), "{err}");
    let o = run(&[
        "build",
        "schemas/store.rs",
        "--out",
        out.to_str().unwrap(),
        "--ns",
        "shop",
        "--db",
        "live",
    ]);
    assert_status(&o, 0);
    assert!(text(&o.stderr).contains("--ns shop --db live"));
}

#[test]
fn prompt_pruned_prints_the_pruned_prompt() {
    let dir = scratch("pruned");
    let schema = dir.join("store.rs");
    let text_of_store = std::fs::read_to_string(root().join("schemas/store.rs")).unwrap();
    let pruned = text_of_store.replace(
        "    examples(dimension = 4, k = 3, ef = 40),\n",
        "    examples(dimension = 4, k = 3, ef = 40),\n    prune(budget = 150),\n",
    );
    assert_ne!(pruned, text_of_store, "the store's settings moved");
    std::fs::write(&schema, pruned).unwrap();
    let question = "Which customers are on the pro tier?";
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "prompt",
            schema.to_str().unwrap(),
            "--seed",
            "schemas/store.seed.surql",
            "--question",
            question,
            "--vector",
            "0.92,0,0.4,0",
        ];
        a.extend_from_slice(extra);
        a.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let prompt = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        run(&a)
    };
    let whole = prompt(args(&[]));
    assert_status(&whole, 0);
    let cut = prompt(args(&["--pruned"]));
    assert_status(&cut, 0);
    let (whole, cut) = (text(&whole.stdout), text(&cut.stdout));
    let tables = |p: &str| p.matches("DEFINE TABLE ").count();
    assert!(cut.contains("QUESTION\nWhich customers are on the pro tier?"), "{cut}");
    assert!(cut.contains("DEFINE TABLE customer"), "{cut}");
    assert!(
        tables(&cut) < tables(&whole),
        "pruned {} tables of {}:\n{cut}",
        tables(&cut),
        tables(&whole)
    );
    // A schema without prune(...) has no pruned prompt: said, status 2.
    let o = run(&[
        "prompt",
        "schemas/store.rs",
        "--question",
        question,
        "--vector",
        "0.92,0,0.4,0",
        "--pruned",
    ]);
    assert_status(&o, 2);
    assert!(text(&o.stderr).contains("prune("), "{}", text(&o.stderr));
}
