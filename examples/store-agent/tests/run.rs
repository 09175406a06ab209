//! Runs the example binary as a user would and checks what it prints.

use std::process::Command;
use surqlc_test_support::model_standin::{Reply, StandIn};
use surqlc_test_support::{root, unconfigured};

fn run(args: &[&str]) -> (String, String) {
    run_with(args, &[])
}

/// Runs the example with no model configured unless `env` configures one.
fn run_with(args: &[&str], env: &[(&str, &str)]) -> (String, String) {
    let out = unconfigured(&mut Command::new(env!("CARGO_BIN_EXE_store-agent")))
        .args(args)
        .envs(env.iter().copied())
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

#[test]
fn on_the_lessons_data_the_agent_gets_the_lessons_revenue_rows() {
    let fixtures = root().join("../shared/fixtures/store");
    let seed = fixtures.join("seed.surql");
    let (stdout, _) = run(&[seed.to_str().unwrap()]);
    let want: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures.join("expected/revenue.json")).unwrap()).unwrap();
    assert_eq!(rows(&stdout), want);
    // wearables 1155, audio 913, home 340
    assert_eq!(want[0]["revenue"], 1155);
    assert!(stdout.contains("QUESTION\nWhich category earns us the most money?\nSURQL\n"));
}

#[test]
fn by_default_it_runs_on_the_projects_own_data() {
    let (stdout, stderr) = run(&[]);
    assert!(stdout.starts_with("You translate questions into SurrealQL"), "{stdout}");
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("schemas/store.seed.expected.json")).unwrap())
            .unwrap();
    // The seed's own revenue example, worked out by hand: wearables 399, home 266, audio 259.
    assert_eq!(rows(&stdout), expected["ex_category_revenue"]);
    assert!(stderr.contains("typed helpers: 7 purchases"), "{stderr}");
    // No model configured: it says how to configure one.
    assert!(stderr.contains("SURQLC_MODEL_URL"), "{stderr}");
}

/// The workspace's model stand-in answering every chat request with `reply`; its API base.
fn stand_in(reply: &str) -> String {
    StandIn::replies(vec![Reply::chat(reply)]).url
}

#[test]
fn with_a_model_configured_it_asks_through_the_agent_loop() {
    // The stand-in replies with a query on a field `contains` does not have, every time: the loop
    // sends the validator's message back and gives up after its 3 attempts.
    let url = stand_in(
        "SELECT out.category AS category, math::sum(price) AS revenue FROM contains GROUP BY category LIMIT 50",
    );
    let (stdout, _) = run_with(&[], &[("SURQLC_MODEL_URL", &url), ("SURQLC_MODEL", "standin")]);
    assert!(stdout.contains("-- attempt 3: SELECT"), "{stdout}");
    assert!(stdout.contains("`price`"), "the validator's message: {stdout}");
    assert!(stdout.contains("-- no valid query in 3 attempts"), "{stdout}");
    // And with the lesson's query it gets the rows.
    let url = stand_in("SELECT out.category AS category, math::sum(qty * unit_price) AS revenue FROM contains WHERE in.status = 'shipped' GROUP BY category ORDER BY revenue DESC LIMIT 50;");
    let (stdout, _) = run_with(&[], &[("SURQLC_MODEL_URL", &url), ("SURQLC_MODEL", "standin")]);
    assert!(stdout.contains("-- attempt 1: SELECT"), "{stdout}");
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("schemas/store.seed.expected.json")).unwrap())
            .unwrap();
    assert_eq!(rows(&stdout), expected["ex_category_revenue"]);
}

#[test]
fn a_missing_data_file_is_a_clear_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_store-agent"))
        .arg("no/such/file.surql")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: cannot read no/such/file.surql"), "{stderr}");
}
