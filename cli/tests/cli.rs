//! The `surqlc` binary as users run it: every subcommand, exit statuses 0/1/2, the JSON report's shape, `--help`, and the README's main job itself.
//!
//! Built only with the `cli` feature; `cargo test --workspace` has it, since the test crate enables it.

mod support;

use std::path::PathBuf;
use std::process::{Command, Output};
use support::{assert_status, root, stderr, stdout, surqlc};

fn run(args: &[&str]) -> Output {
    surqlc().args(args).output().expect("the surqlc binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surqlc-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The README's main-job command, as its arguments (the line after `cargo surqlc`).
fn readme_main_job() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let line = readme
        .lines()
        .find(|l| l.starts_with("cargo surqlc prompt "))
        .expect("the README shows the main job as `cargo surqlc prompt ...`");
    split_shell_words(line.trim_start_matches("cargo surqlc "))
}

/// Words as a POSIX shell splits a line with double-quoted strings and no escapes (the README's style).
fn split_shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

#[test]
fn help_describes_every_subcommand() {
    let o = run(&["--help"]);
    assert_status(&o, 0);
    for sub in ["build", "check", "prompt", "audit", "mcp", "plan", "apply"] {
        assert!(stdout(&o).contains(sub), "--help lists {sub}: {}", stdout(&o));
        let o = run(&[sub, "--help"]);
        assert_status(&o, 0);
        assert!(stdout(&o).contains("SCHEMA.rs"), "{sub} --help: {}", stdout(&o));
    }
    let o = run(&["frobnicate"]);
    assert_status(&o, 2);
}

#[test]
fn the_readme_main_job_prints_the_prompt() {
    let args = readme_main_job();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&args);
    assert_status(&o, 0);
    let prompt = stdout(&o);
    let fixtures = root().join("../shared/fixtures/store");
    let block = std::fs::read_to_string(fixtures.join("expected/schema_context.txt")).expect("block");
    // The built-in rules (templates/prompt_rules.tera), then the lesson's schema block.
    assert!(prompt.starts_with("You translate questions into SurrealQL"), "{prompt}");
    assert!(
        prompt.contains(&format!("SCHEMA\n{}\n\n", block.trim_end())),
        "{prompt}"
    );
    assert!(prompt.ends_with("QUESTION\nWhich category earns us the most money?\nSURQL\n"));
    let examples = prompt
        .split_once("EXAMPLES\n")
        .and_then(|(_, rest)| rest.split_once("\n\nQUESTION"))
        .map(|(examples, _)| examples)
        .expect("an EXAMPLES section");
    assert!(examples.starts_with("-- "), "examples from the seed: {examples:?}");
    // The token report goes to stderr, so stdout stays the prompt.
    assert!(stderr(&o).contains("schema block"), "{}", stderr(&o));
    assert!(stderr(&o).contains("prompt: "), "{}", stderr(&o));
}

#[test]
fn the_readme_main_job_on_the_lessons_data_is_the_lessons_prompt() {
    let mut args = readme_main_job();
    let seed = args.iter().position(|a| a == "--seed").expect("--seed") + 1;
    args[seed] = "../shared/fixtures/store/seed.surql".into();
    // The lesson's prompt was made with this embedding of the question, and predates the datetime
    // fields' spans among the value hints (issue 41): the store as the lesson configured it.
    args.extend(["--vector".to_owned(), "0.92,0,0.4,0".to_owned()]);
    let store = std::fs::read_to_string(root().join("schemas/store.rs")).expect("the store");
    let hints = "Product::category, Purchase::status)";
    assert_eq!(store.matches(hints).count(), 1);
    let lesson = scratch("lesson-store").join("store.rs");
    std::fs::write(
        &lesson,
        store.replace(hints, "Product::category, Purchase::status, time_spans = false)"),
    )
    .expect("the lesson's store");
    let at = args.iter().position(|a| a == "schemas/store.rs").expect("the store");
    args[at] = lesson.to_str().unwrap().to_owned();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&args);
    assert_status(&o, 0);
    let want = std::fs::read_to_string(root().join("../shared/fixtures/store/expected/nl2surql_prompt.txt"))
        .expect("expected prompt");
    // The lesson's prompt, byte for byte, after its preamble (surqlc's built-in rules are longer
    // than the lesson's; tests/store_lesson.rs checks the lesson's preamble through --prompt-template).
    let after_rules = |p: &str| p.split_once("\n\nSCHEMA\n").map(|(_, rest)| rest.to_owned());
    assert_eq!(after_rules(&stdout(&o)), after_rules(&want));
    assert!(after_rules(&want).is_some());
    let o = run(&[
        &args[..],
        &["--prompt-template", "../shared/fixtures/store/lesson-preamble.txt"],
    ]
    .concat());
    assert_status(&o, 0);
    assert_eq!(stdout(&o), want, "with the lesson's preamble as the template");
}

#[test]
fn prompt_without_a_vector_shows_the_examples_its_words_choose() {
    // The README's main job gives no --vector: the examples are the pool's by the question's words.
    let args = readme_main_job();
    assert!(!args.iter().any(|a| a == "--vector"), "{args:?}");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&args);
    assert_status(&o, 0);
    let prompt = stdout(&o);
    assert!(
        prompt.contains("EXAMPLES\n-- Which product category brings in the most revenue from shipped orders?\n"),
        "{prompt}"
    );
    // Everything but the examples is the database's prompt, as with a vector.
    let with: Vec<&str> = [&args[..], &["--vector", "0.92,0,0.4,0"]].concat();
    let full = stdout(&run(&with));
    let head = |p: &str| p.split_once("EXAMPLES\n").map(|(h, _)| h.to_owned());
    assert_eq!(head(&prompt), head(&full));
    assert!(head(&full).is_some());
}

#[test]
fn build_writes_both_files_and_notes_the_missing_agent() {
    let out = scratch("build");
    let o = run(&["build", "schemas/store.rs", "--out", out.to_str().unwrap()]);
    assert_status(&o, 0);
    let surql = std::fs::read_to_string(out.join("schema.surql")).expect("schema.surql");
    assert!(surql.starts_with("OPTION IMPORT;"));
    assert!(out.join("schema.rs").exists());
    assert!(stderr(&o).contains("wrote"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("SURQLC_AGENT_PASSWORD is not set"),
        "{}",
        stderr(&o)
    );
    let o = surqlc()
        .args(["build", "schemas/store.rs", "--out", out.to_str().unwrap()])
        .env("SURQLC_AGENT_PASSWORD", "correct horse")
        .output()
        .expect("runs");
    assert_status(&o, 0);
    assert!(
        !stderr(&o).contains("SURQLC_AGENT_PASSWORD is not set"),
        "{}",
        stderr(&o)
    );
    let surql = std::fs::read_to_string(out.join("schema.surql")).expect("schema.surql");
    assert!(surql.contains("DEFINE USER OVERWRITE agent ON DATABASE PASSHASH"));
}

#[test]
fn check_loads_every_example_schema() {
    for schema in ["schemas/store.rs", "schemas/library.rs"] {
        let o = run(&["check", schema]);
        assert_status(&o, 0);
        assert!(stderr(&o).contains("compile and load"), "{}", stderr(&o));
    }
}

#[test]
fn bad_input_exits_2_with_a_position() {
    let dir = scratch("bad");
    let bad = dir.join("bad.rs");
    std::fs::write(
        &bad,
        "#[derive(Table)]\npub struct Thing {\n    #[surqlc(type = \"strng\")]\n    pub a: String,\n}\n",
    )
    .unwrap();
    for sub in ["build", "check", "audit"] {
        let mut args = vec![sub, bad.to_str().unwrap()];
        if sub == "build" {
            args.extend(["--out", dir.to_str().unwrap()]);
        }
        let o = run(&args);
        assert_status(&o, 2);
        assert!(stderr(&o).contains("bad.rs:3:"), "{sub}: {}", stderr(&o));
        assert!(stderr(&o).contains("`strng` is not a SurrealQL type"), "{}", stderr(&o));
    }
    assert!(!dir.join("schema.surql").exists(), "nothing written");
    let o = run(&["check", "schemas/no-such.rs"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("no-such.rs"), "{}", stderr(&o));
    let o = run(&["audit", "schemas/store.rs", "--encoding", "nope"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("unknown encoding"), "{}", stderr(&o));
    let o = run(&["prompt", "schemas/store.rs", "--question", "q", "--vector", "1,2"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("has 2 values"), "{}", stderr(&o));
}

#[test]
fn audit_counts_what_literal_enum_docs_cost() {
    let o = run(&["audit", "tests/fixtures/enum_docs.rs", "--format", "json"]);
    assert_status(&o, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let ticket = &doc["tables"][0];
    let docs = ticket["enum_doc_tokens"].as_u64().expect("enum_doc_tokens");
    assert!(docs > 0 && docs < ticket["comment_tokens"].as_u64().unwrap());
    let o = run(&["audit", "tests/fixtures/enum_docs.rs"]);
    assert!(
        stdout(&o).contains(&format!(
            "Literal enums' doc comments (in their fields' comments) cost {docs} tokens: ticket {docs}"
        )),
        "{}",
        stdout(&o)
    );
    let o = run(&["audit", "schemas/store.rs"]);
    assert!(!stdout(&o).contains("Literal enums'"), "{}", stdout(&o));
}

#[test]
fn audit_reports_text_and_json_and_fails_over_budget() {
    let o = run(&["audit", "schemas/store.rs"]);
    assert_status(&o, 0);
    assert!(stdout(&o).contains("schema block, engine rendering, o200k_base tokens"));
    assert!(stdout(&o).contains("customer"));
    // What `surqlc mcp` costs before any row: each tool's description, the list, each answer's wrapper.
    assert!(
        stdout(&o).contains("MCP (surqlc mcp), o200k_base tokens"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("  tool run_query"), "{}", stdout(&o));
    assert!(stdout(&o).contains("  wrapper per answer      26"), "{}", stdout(&o));

    let o = run(&["audit", "schemas/store.rs", "--format", "json", "--live"]);
    assert_status(&o, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(doc["encoding"], "o200k_base");
    assert_eq!(doc["rendering"], "engine");
    assert_eq!(doc["live_matches"], true);
    let tables = doc["tables"].as_array().expect("tables");
    assert_eq!(tables.len(), 5);
    for key in [
        "table",
        "tokens",
        "chars",
        "share",
        "comment_tokens",
        "enum_doc_tokens",
        "compact_tokens",
    ] {
        assert!(tables[0].get(key).is_some(), "{key} in {}", tables[0]);
    }
    // The store's enums have no doc comments: they cost nothing and the text says nothing of them.
    assert!(tables.iter().all(|t| t["enum_doc_tokens"] == 0));
    let total: u64 = doc["schema_block_tokens"].as_u64().expect("block tokens");
    assert!(total > 0 && doc["compact_schema_block_tokens"].as_u64() < Some(total));
    assert_eq!(doc["prompt"][0]["section"], "preamble");
    assert_eq!(doc["over_budget"], serde_json::json!([]));
    assert_eq!(doc["mcp"]["wrapper_per_answer"], 26);
    assert_eq!(doc["mcp"]["tools"][2]["name"], "run_query");
    assert!(doc["mcp"]["tools_list"].as_u64() > Some(100), "{}", doc["mcp"]);

    let o = run(&["audit", "schemas/store.rs", "--budget", "10"]);
    assert_status(&o, 1);
    assert!(stderr(&o).contains("over budget"), "{}", stderr(&o));

    let o = run(&[
        "audit",
        "schemas/store.rs",
        "--format",
        "json",
        "--seed",
        "schemas/store.seed.surql",
        "--question",
        "Which category earns us the most money?",
        "--vector",
        "0.92,0,0.4,0",
    ]);
    assert_status(&o, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let sections: Vec<&str> = doc["prompt"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["section"].as_str().unwrap())
        .collect();
    assert_eq!(
        sections,
        ["preamble", "schema", "value hints", "examples", "question", "total"]
    );
}

#[test]
fn shell_words_split_like_the_shell() {
    assert_eq!(
        split_shell_words(r#"prompt a.rs --question "Which one?" --vector 1,2"#),
        ["prompt", "a.rs", "--question", "Which one?", "--vector", "1,2"]
    );
}

#[test]
fn named_query_files_are_checked_by_check_query_and_build() {
    // The store's own queries: `$params`, `LIMIT $n` and aggregates pass as the application's.
    let o = run(&[
        "check-query",
        "schemas/store.rs",
        "--file",
        "schemas/store.queries/store.surql",
    ]);
    assert_status(&o, 0);
    assert!(stderr(&o).contains("checked 15 queries"), "{}", stderr(&o));
    let dir = scratch("named");
    let queries = dir.join("queries");
    std::fs::create_dir_all(&queries).unwrap();
    // A field the schema does not have, on the query's second line, after a `-- question:`.
    let bad = queries.join("bad.surql");
    std::fs::write(
        &bad,
        "-- name: ok :many\nSELECT name FROM customer LIMIT $n;\n\n-- name: broken :many\n-- question: Where do they live?\nSELECT name,\n       city FROM customer;\n",
    )
    .unwrap();
    let o = run(&["check-query", "schemas/store.rs", "--file", bad.to_str().unwrap()]);
    assert_status(&o, 1);
    assert!(stdout(&o).contains("bad.surql:7:8: "), "{}", stdout(&o));
    assert!(stdout(&o).contains("city"), "{}", stdout(&o));
    let out = dir.join("out");
    let o = run(&[
        "build",
        "schemas/store.rs",
        "--queries",
        queries.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("bad.surql:7:8"), "{}", stderr(&o));
    assert!(stderr(&o).contains("in query `broken`"), "{}", stderr(&o));
    assert!(!out.join("schema.surql").exists(), "nothing written");
    // A malformed annotation is bad input at its position.
    std::fs::write(&bad, "-- name: broken :all\nSELECT name FROM customer;\n").unwrap();
    let o = run(&["check-query", "schemas/store.rs", "--file", bad.to_str().unwrap()]);
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains("bad.surql:1:17: `:all` is not :many, :one, :opt, :value or :exec"),
        "{}",
        stderr(&o)
    );
    // The store's queries build.
    let o = run(&[
        "build",
        "schemas/store.rs",
        "--queries",
        "schemas/store.queries",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_status(&o, 0);
}

#[test]
fn dropping_a_field_a_named_query_uses_breaks_the_build() {
    let dir = scratch("dropped");
    let schema = std::fs::read_to_string(root().join("schemas/store.rs")).unwrap();
    let dropped = schema.replace("    pub placed_at: Datetime,\n", "");
    assert_ne!(schema, dropped, "the store has `placed_at`");
    let path = dir.join("store.rs");
    std::fs::write(&path, dropped).unwrap();
    let out = dir.join("out");
    let o = run(&[
        "build",
        path.to_str().unwrap(),
        "--queries",
        "schemas/store.queries",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_status(&o, 2);
    // The query file's position of the first use, and the validator's message naming the field.
    assert!(
        stderr(&o).contains("schemas/store.queries/store.surql:14:12"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("in query `recent_purchases`"), "{}", stderr(&o));
    assert!(stderr(&o).contains("placed_at"), "{}", stderr(&o));
}

#[test]
fn a_parameter_nothing_types_fails_the_build_at_its_position() {
    let dir = scratch("untyped");
    let file = dir.join("q.surql");
    std::fs::write(
        &file,
        "-- name: typed :many\nSELECT name FROM customer WHERE tier = $tier AND joined > <datetime> $since LIMIT $n;\n-- name: untyped :many\nSELECT name, $extra AS extra FROM customer LIMIT 5;\n",
    )
    .unwrap();
    let out = dir.join("out");
    let o = run(&[
        "build",
        "schemas/store.rs",
        "--queries",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_status(&o, 2);
    let err = stderr(&o);
    assert!(err.contains("q.surql:4:14"), "{err}");
    assert!(
        err.contains("in query `untyped`: parameter `$extra` has no type"),
        "{err}"
    );
    assert!(
        err.contains("cast it to the type it stands for: `<string> $extra`"),
        "{err}"
    );
    // The typed query's parameters (a field's type, a cast, LIMIT) are not reported.
    assert!(
        !err.contains("$tier") && !err.contains("$since") && !err.contains("$n`"),
        "{err}"
    );
}

/// `surqlc prune`'s bad input: a clear line, status 2.
#[test]
fn prune_refuses_bad_input() {
    let o = run(&["prune", "schemas/store.rs", "--question", "x", "--budget", "0"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("--budget must be at least 1"), "{}", stderr(&o));
    let o = run(&["prune", "schemas/store.rs", "--questions", "no/such/file.txt"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("cannot read no/such/file.txt"), "{}", stderr(&o));
    let o = run(&["prune", "schemas/store.rs"]);
    assert_status(&o, 2);
}

#[test]
fn prune_prints_the_tables_each_question_gets() {
    let dir = scratch("prune");
    let questions = dir.join("questions.txt");
    std::fs::write(
        &questions,
        "Which category earns us the most money?\n\n  How many units were on each order line?  \n",
    )
    .unwrap();
    let q = questions.to_str().unwrap();
    // The store has no prune(...): the flag's budget applies, one JSON object per question and line.
    let o = run(&[
        "prune",
        "schemas/store.rs",
        "--questions",
        q,
        "--budget",
        "300",
        "--format",
        "json",
    ]);
    assert_status(&o, 0);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 2, "{}", stdout(&o));
    assert_eq!(lines[1]["question"], "How many units were on each order line?");
    for line in &lines {
        let keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["question", "tables", "tokens"]);
        let tokens = line["tokens"].as_u64().unwrap();
        assert!(tokens > 0 && tokens <= 300, "{line}");
        assert!(!line["tables"].as_array().unwrap().is_empty(), "{line}");
    }
    // The whole store block fits the default budget (2,000): every exposed table, in prompt order.
    let o = run(&["prune", "schemas/store.rs", "--question", "Who buys?"]);
    assert_status(&o, 0);
    assert!(
        stdout(&o).starts_with("Who buys?\n  5 tables, ")
            && stdout(&o).contains(": customer, placed, purchase, contains, product\n"),
        "{}",
        stdout(&o)
    );
    // A question no table shares a word with gets the fallback tables, and is told so (at 300
    // tokens all five compact blocks fit: field-level pruning).
    let o = run(&["prune", "schemas/store.rs", "--question", "zzz qqq", "--budget", "150"]);
    assert_status(&o, 0);
    assert!(
        stdout(&o).contains("note: no table shares a word with the question"),
        "{}",
        stdout(&o)
    );
    // A closed stdout ends the output quietly, never with a panic.
    let mut child = surqlc()
        .args(["prune", "schemas/store.rs", "--questions", q, "--budget", "300"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A full disk is not a closed pipe: `prune`'s output failing to be written fails the run (status 1).
#[cfg(target_os = "linux")]
#[test]
fn prune_fails_when_its_output_cannot_be_written() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let o = surqlc()
        .args(["prune", "schemas/store.rs", "--question", "Who buys?"])
        .stdout(full)
        .output()
        .expect("runs");
    assert_status(&o, 1);
    assert!(stderr(&o).contains("cannot write to stdout"), "{}", stderr(&o));
}

/// `SURQLC_TEST_BIN` names the binary every CLI test runs (worktrees sharing one target directory
/// overwrite `debug/surqlc`): this test binary, run again on one test with a stand-in binary that
/// leaves a mark, runs the stand-in.
#[cfg(unix)]
#[test]
fn the_binary_under_test_is_surqlc_test_bin_when_set() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("test-bin");
    let mark = dir.join("ran");
    let standin = dir.join("surqlc");
    std::fs::write(&standin, format!("#!/bin/sh\necho \"$@\" > '{}'\n", mark.display())).unwrap();
    std::fs::set_permissions(&standin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let this = std::env::current_exe().expect("the test binary");
    // The stand-in prints no help, so that test fails: only the mark is looked at.
    let _ = Command::new(this)
        .args(["--exact", "help_describes_every_subcommand", "--quiet"])
        .env("SURQLC_TEST_BIN", &standin)
        .output()
        .expect("the test binary runs");
    let args = std::fs::read_to_string(&mark).expect("the stand-in ran");
    assert!(args.contains("--help"), "{args}");
}

#[test]
fn check_query_gives_machine_applicable_fixes_in_text_and_json() {
    let query = "SELECT nmae FROM customer WHERE tier = 'Pro' LIMIT 5";
    let o = run(&["check-query", "schemas/store.rs", query]);
    assert_status(&o, 1);
    let out = stdout(&o);
    assert!(out.contains("help: replace `'Pro'` with `'pro'`"), "{out}");
    assert!(out.contains("help: replace `nmae` with `name`"), "{out}");
    let o = run(&["check-query", "schemas/store.rs", query, "--format", "json"]);
    assert_status(&o, 1);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let fixes: Vec<&serde_json::Value> = doc["queries"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["fixes"].as_array().unwrap())
        .collect();
    assert_eq!(fixes.len(), 2, "{doc:#}");
    let field = fixes
        .iter()
        .find(|f| f["replacement"] == "name")
        .expect("the field's fix");
    assert_eq!(
        field["span"],
        serde_json::json!({"line": 1, "column": 8, "end_line": 1, "end_column": 12})
    );
}
