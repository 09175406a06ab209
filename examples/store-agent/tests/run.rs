//! Runs the example binary as a user would and checks what it prints.

use std::path::Path;
use std::process::Command;

fn run(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_store-agent"))
        .args(args)
        .env_remove("SURQLC_AGENT_PASSWORD")
        .output()
        .expect("store-agent runs");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let stderr = String::from_utf8(out.stderr).expect("utf-8");
    assert!(out.status.success(), "{stdout}\n{stderr}");
    (stdout, stderr)
}

/// The JSON rows printed after the `-- rows` line.
fn rows(stdout: &str) -> serde_json::Value {
    let after = stdout
        .split_once("-- rows, run as `agent` (VIEWER)\n")
        .unwrap_or_else(|| panic!("no rows in:\n{stdout}"))
        .1;
    serde_json::Value::Array(
        after
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON row"))
            .collect(),
    )
}

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn on_the_lessons_data_the_agent_gets_the_lessons_revenue_rows() {
    let fixtures = repo().join("../shared/fixtures/store");
    let seed = fixtures.join("seed.surql");
    let (stdout, _) = run(&[seed.to_str().unwrap()]);
    let want: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures.join("expected/revenue.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(rows(&stdout), want);
    // wearables 1155, audio 913, home 340
    assert_eq!(want[0]["revenue"], 1155);
    assert!(stdout.contains("QUESTION\nWhich category earns us the most money?\nSURQL\n"));
}

#[test]
fn by_default_it_runs_on_the_projects_own_data() {
    let (stdout, stderr) = run(&[]);
    assert!(
        stdout.starts_with("You translate questions into SurrealQL"),
        "{stdout}"
    );
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("schemas/store.seed.expected.json")).unwrap(),
    )
    .unwrap();
    // The seed's own revenue example, worked out by hand: wearables 399, home 266, audio 259.
    assert_eq!(rows(&stdout), expected["ex_category_revenue"]);
    assert!(stderr.contains("typed helpers: 7 purchases"), "{stderr}");
}

#[test]
fn a_missing_data_file_is_a_clear_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_store-agent"))
        .arg("no/such/file.surql")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: cannot read no/such/file.surql"),
        "{stderr}"
    );
}
