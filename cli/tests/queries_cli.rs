//! `surqlc build --queries`: each way a named query can be wrong is exit status 2 and one line at the query file's `FILE:LINE:COL` with what to do, and nothing is written.

mod support;

use std::path::PathBuf;
use std::process::Output;
use support::surqlc;

/// Builds the store with `queries` as its only query file; the status and stderr.
fn build(name: &str, queries: &str) -> (Output, PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("surqlc-queries-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("q.surql");
    std::fs::write(&file, queries).unwrap();
    let out = dir.join("out");
    let o = surqlc()
        .args(["build", "schemas/store.rs", "--queries"])
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    (o, out, format!("{}:", file.display()) + &stderr)
}

/// The build fails with status 2, `message` as the error and `--> FILE:at` under it (as rustc
/// prints, and as schema errors are printed), and writes nothing.
fn refused(name: &str, queries: &str, at: &str, message: &str) {
    let (o, out, text) = build(name, queries);
    let (file, stderr) = text.split_once(".surql:").unwrap();
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    let want = format!("--> {file}.surql:{at}");
    let k = lines
        .iter()
        .position(|l| l.trim_start() == want)
        .unwrap_or_else(|| panic!("no `{want}` in:\n{stderr}"));
    assert!(k > 0 && lines[k - 1].starts_with("error: "), "{stderr}");
    assert!(lines[k - 1].contains(message), "{}", lines[k - 1]);
    assert!(!out.join("schema.rs").exists(), "nothing written");
}

#[test]
fn an_unknown_field_is_refused_at_its_position() {
    refused(
        "field",
        "-- name: where_they_live :many\nSELECT name,\n       city FROM customer LIMIT 5;\n",
        "3:8",
        "in query `where_they_live`: `customer` has no field `city`",
    );
}

#[test]
fn an_untyped_parameter_is_refused_with_the_cast_that_types_it() {
    refused(
        "untyped",
        "-- name: named :many\nSELECT name FROM customer WHERE $flag LIMIT 5;\n",
        "2:33",
        "parameter `$flag` has no type: compare it with a field, use it as LIMIT, or cast it to the bool a condition needs: `<bool> $flag`",
    );
}

#[test]
fn a_declared_parameter_the_query_never_uses_is_refused() {
    refused(
        "unused",
        "-- name: by_tier :many\n-- param: $tier, $country\nSELECT name FROM customer WHERE tier = $tier LIMIT 5;\n",
        "2:18",
        "parameter `$country` is declared but the query never uses it",
    );
}

#[test]
fn an_expression_without_a_type_is_refused_with_a_cast() {
    refused(
        "cast",
        "-- name: noisy :many\nSELECT name, rand() * 2 AS noise FROM customer LIMIT 5;\n",
        "2:14",
        "`rand() * 2` has no type the schema gives it; cast it to the type it holds: `<TYPE> rand() * 2`",
    );
}

#[test]
fn a_parameter_used_as_two_types_is_refused() {
    refused(
        "conflict",
        "-- name: odd :many\nSELECT name FROM customer WHERE joined > $x LIMIT $x;\n",
        "2:51",
        "parameter `$x` is used as datetime and as int",
    );
}

#[test]
fn a_value_query_must_select_a_value_and_a_row_needs_names() {
    refused(
        "value",
        "-- name: names :value\nSELECT name FROM customer LIMIT 5;\n",
        "2:1",
        "`:value` returns one value: write `SELECT VALUE expr ...`",
    );
    refused(
        "unnamed",
        "-- name: upper :many\nSELECT string::uppercase(name) FROM customer LIMIT 5;\n",
        "2:8",
        "give it one, `string::uppercase(name) AS name`",
    );
}

#[test]
fn declared_parameters_come_first_in_the_function() {
    let (o, out, text) = build(
        "order",
        "-- name: by_tier :many\n-- param: $n\nSELECT name FROM customer WHERE tier = $tier LIMIT $n;\n",
    );
    assert_eq!(o.status.code(), Some(0), "{text}");
    let module = std::fs::read_to_string(out.join("schema.rs")).unwrap();
    let signature = module
        .split("pub async fn by_tier")
        .nth(1)
        .and_then(|s| s.split("->").next())
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(signature.contains("n: i64, tier: super::super::Tier"), "{signature}");
}
