//! The README's crate is this crate: every Rust block of README.md and of the guide's page on it
//! (`docs/your-crate.md`) is one of its files, byte for byte (`SURQLC_BLESS=1` rewrites the files
//! from them), the README's SurrealQL block is what surqlc generates, and its `main.rs` runs end to
//! end on the embedded engine.

use std::path::{Path, PathBuf};
use std::process::Command;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The pages that show this crate: the README (the schema, `src/store.rs`, and what it becomes)
/// and the guide's page on a crate of one's own (Cargo.toml, build.rs, `src/main.rs`), one after
/// the other.
fn readme() -> String {
    ["../../README.md", "../../docs/your-crate.md"]
        .map(|page| {
            let path = crate_dir().join(page);
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .join("\n")
}

/// The fenced blocks of a Markdown text: (info string, body), the body with its final newline.
fn fenced_blocks(markdown: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in markdown.lines() {
        match &mut open {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    open = Some((info.trim().to_owned(), String::new()));
                }
            }
            Some((_, body)) => {
                if line.trim_end() == "```" {
                    blocks.push(open.take().expect("open block"));
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    assert!(
        open.is_none(),
        "README.md or docs/your-crate.md has an unclosed code fence"
    );
    blocks
}

/// The README's Rust blocks by the file their first line names (`// src/main.rs`).
fn rust_blocks() -> Vec<(String, String)> {
    fenced_blocks(&readme())
        .into_iter()
        .filter(|(info, _)| info.split(',').next() == Some("rust"))
        .map(|(_, body)| {
            let first = body.lines().next().unwrap_or_default();
            let path = first
                .strip_prefix("// ")
                .filter(|p| !p.contains(' '))
                .unwrap_or_else(|| {
                    panic!("every Rust block in README.md and docs/your-crate.md starts with `// PATH`, the file of examples/readme it is; this one starts with {first:?}")
                });
            (path.to_owned(), body)
        })
        .collect()
}

#[test]
fn every_rust_block_of_the_readme_is_a_file_of_this_crate() {
    let blocks = rust_blocks();
    let bless = std::env::var_os("SURQLC_BLESS").is_some();
    let mut stale = Vec::new();
    for (path, body) in &blocks {
        let file = crate_dir().join(path);
        if bless {
            std::fs::write(&file, body).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            continue;
        }
        let on_disk = std::fs::read_to_string(&file).unwrap_or_default();
        if &on_disk != body {
            stale.push(path.clone());
        }
    }
    assert!(
        stale.is_empty(),
        "examples/readme differs from README.md or docs/your-crate.md in {stale:?}: edit the page, then run SURQLC_BLESS=1 cargo test -p readme-example"
    );
    let mut paths: Vec<&str> = blocks.iter().map(|(p, _)| p.as_str()).collect();
    paths.sort();
    assert_eq!(
        paths,
        ["build.rs", "src/main.rs", "src/store.rs"],
        "README.md and docs/your-crate.md show the whole crate, each file once"
    );
}

/// `[section]` -> dependency names, from a Cargo.toml text.
fn dependencies(toml: &str) -> Vec<(String, String)> {
    let mut section = String::new();
    let mut out = Vec::new();
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.trim_matches(['[', ']']).to_owned();
        } else if section.ends_with("dependencies") && !line.starts_with('#') {
            if let Some((name, _)) = line.split_once(['=', '.']) {
                if !name.trim().is_empty() {
                    out.push((section.clone(), name.trim().to_owned()));
                }
            }
        }
    }
    out
}

#[test]
fn the_readme_cargo_toml_names_this_crates_dependencies() {
    let block = fenced_blocks(&readme())
        .into_iter()
        .find(|(info, body)| info == "toml" && body.starts_with("# Cargo.toml"))
        .expect("the README shows the Cargo.toml")
        .1;
    let ours = std::fs::read_to_string(crate_dir().join("Cargo.toml")).unwrap();
    let ours: Vec<(String, String)> = dependencies(&ours)
        .into_iter()
        .filter(|(section, _)| section != "dev-dependencies")
        .collect();
    let mut readme = dependencies(&block);
    let mut ours = ours;
    readme.sort();
    ours.sort();
    assert_eq!(readme, ours);
}

#[test]
fn the_readme_surql_block_is_what_surqlc_generates() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/schema.surql"));
    let block = fenced_blocks(&readme())
        .into_iter()
        .find(|(info, _)| info == "surql")
        .expect("the README shows the generated SurrealQL")
        .1;
    for line in block.lines() {
        assert!(
            generated.lines().any(|g| g == line),
            "README line not in the generated schema.surql:\n{line}\n\n{generated}"
        );
    }
}

fn run(binary: &Path) -> String {
    let out = Command::new(binary).output().expect("the README's main runs");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    stdout
}

#[test]
fn the_readme_main_runs_end_to_end() {
    let stdout = run(Path::new(env!("CARGO_BIN_EXE_readme-example")));
    // Rows and edges written with the derived types, read back with the typed helpers.
    assert!(
        stdout.starts_with("customer:ada has 1 order(s); purchase:p1 has 1 line(s)\n"),
        "{stdout}"
    );
    // The prompt: the live schema, the values present, and the remembered example.
    assert!(stdout.contains("\nSCHEMA\nDEFINE TABLE customer"), "{stdout}");
    assert!(stdout.contains("customer.tier: pro"), "{stdout}");
    let examples = stdout
        .split_once("\nEXAMPLES\n")
        .and_then(|(_, rest)| rest.split_once("\n\nQUESTION\n"))
        .map(|(examples, _)| examples)
        .unwrap_or_else(|| panic!("no EXAMPLES section:\n{stdout}"));
    assert_eq!(
        examples,
        "-- How many customers are on each tier?\nSELECT tier, count() AS customers FROM customer GROUP BY tier LIMIT 50;"
    );
    assert!(stdout.contains("QUESTION\nWhich tier has placed the most orders?\nSURQL\n"));
    // The agent's query ran: one order, placed by a pro customer.
    let last = stdout.lines().last().unwrap_or_default();
    let row: serde_json::Value = serde_json::from_str(last).expect("a JSON row last");
    assert_eq!(row, serde_json::json!({ "tier": "pro", "orders": 1 }));
}
