//! The `rust-version` the crates declare is true: no dependency of a published crate (any of its features) declares a newer one, and the default-feature library (what a build script compiles) builds on it with every package as locked.

use std::collections::BTreeMap;
use std::process::Command;
use surqlc_tests::root;

fn cargo(args: &[&str]) -> String {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .current_dir(root())
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `1.88`, `1.88.0` as comparable numbers.
fn version(v: &str) -> Vec<u64> {
    let mut parts: Vec<u64> = v.split('.').map(|p| p.parse().unwrap_or(0)).collect();
    parts.resize(3, 0);
    parts
}

#[test]
fn the_declared_rust_version_covers_every_dependency() {
    let metadata: serde_json::Value = serde_json::from_str(&cargo(&["metadata", "--locked", "--format-version", "1"]))
        .expect("cargo metadata is JSON");
    let packages: BTreeMap<&str, &serde_json::Value> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p))
        .collect();
    let rust_version = |p: &serde_json::Value| p["rust_version"].as_str().map(str::to_owned);
    let mut checked = 0;
    for node in metadata["resolve"]["nodes"].as_array().unwrap() {
        let package = packages[node["id"].as_str().unwrap()];
        let is_member = metadata["workspace_members"].as_array().unwrap().contains(&node["id"]);
        let Some(declared) = rust_version(package).filter(|_| is_member) else {
            continue;
        };
        for dep in node["deps"].as_array().unwrap() {
            // What a user's build compiles: normal and build dependencies (every optional one).
            let used = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].as_str() != Some("dev"));
            let dependency = packages[dep["pkg"].as_str().unwrap()];
            if let (true, Some(needs)) = (used, rust_version(dependency)) {
                assert!(
                    version(&needs) <= version(&declared),
                    "{} declares rust-version {declared}, but its dependency {} {} needs {needs}",
                    package["name"],
                    dependency["name"],
                    dependency["version"]
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10, "only {checked} dependencies checked");

    // The default-feature library, every package as locked.
    let surqlc = packages.values().find(|p| p["name"] == "surqlc").expect("surqlc");
    let declared = rust_version(surqlc).expect("surqlc declares a rust-version");
    let tree = cargo(&[
        "tree",
        "--locked",
        "-p",
        "surqlc",
        "-e",
        "normal,build",
        "--prefix",
        "none",
        "--target",
        "all",
    ]);
    for line in tree.lines() {
        let mut words = line.split_whitespace();
        let (Some(name), Some(v)) = (words.next(), words.next()) else {
            continue;
        };
        let v = v.trim_start_matches('v');
        let Some(p) = packages.values().find(|p| p["name"] == name && p["version"] == v) else {
            continue;
        };
        if let Some(needs) = rust_version(p) {
            assert!(
                version(&needs) <= version(&declared),
                "the default-feature surqlc declares {declared}, but {name} {v} (as locked) needs {needs}"
            );
        }
    }
}

/// A test that runs cargo `--offline` passes only where an earlier command happened to fill the
/// cache (`cargo metadata` reads every platform's packages): on a fresh machine it fails. Cargo
/// fetches what it needs from the registries instead.
#[test]
fn no_test_asks_cargo_to_stay_offline() {
    let flag = ["--", "offline"].concat();
    let mut found = Vec::new();
    let mut stack = vec![
        root().join("tests"),
        root().join("cli/tests"),
        root().join("cli/benches"),
        root().join("compiler/benches"),
        root().join(".ci"),
    ];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.ends_with("tests/rust_version.rs") {
                // This file names the flag to look for it.
            } else if std::fs::read_to_string(&path).is_ok_and(|text| text.contains(&flag)) {
                found.push(path.display().to_string());
            }
        }
    }
    assert!(found.is_empty(), "{flag} in {found:?}");
}
