//! The shape of `compiler/src` that ARCHITECTURE.md promises: no two modules import each other
//! (directly or round a loop), no module over 800 lines, and each file opens with a `//!` contract.
//!
//! The same holds for the command line, `cli/src` (the `surqlc-cli` crate, whose `crate::` is its
//! `main.rs`); each crate is checked on its own, and the boundary between them: the library never
//! depends on the command line, and parses no arguments.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use surqlc_tests::root;

const MAX_LINES: usize = 800;

/// Every module file of one crate under `dir` (its root file `lib.rs` or `main.rs`), by module
/// path (`validate::resolve::expr`), with its text; folders named in `skip` are other crates.
fn modules_in(dir: &Path, skip: &[&str]) -> BTreeMap<String, String> {
    fn walk(dir: &Path, prefix: &[String], skip: &[&str], out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("a source folder") {
            let path = entry.expect("entry").path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if prefix.is_empty() && skip.contains(&name.as_str()) {
                    continue;
                }
                let mut p = prefix.to_vec();
                p.push(name);
                walk(&path, &p, skip, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut p = prefix.to_vec();
                let root = prefix.is_empty() && (name == "lib" || name == "main");
                if name != "mod" && !root {
                    p.push(name);
                }
                out.insert(p.join("::"), std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, &[], skip, &mut out);
    out
}

/// The library's modules: `compiler/src`.
fn modules() -> BTreeMap<String, String> {
    modules_in(&root().join("compiler/src"), &[])
}

/// The `surqlc` binary's modules (`cli/src`, the `surqlc-cli` crate): its `crate::` is
/// `main.rs`, and it reaches the library as `surqlc::`.
fn binary_modules() -> BTreeMap<String, String> {
    modules_in(&root().join("cli/src"), &[])
}

/// The module paths `text` (the file of module `at`) names: `crate::a::b`, `super::c`, `use super::{d, e}`.
fn references(at: &str, text: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let here: Vec<&str> = if at.is_empty() {
        vec![]
    } else {
        at.split("::").collect()
    };
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        let bytes = code.as_bytes();
        let mut i = 0;
        while i < code.len() {
            let rest = &code[i..];
            let (base, len): (Vec<&str>, usize) = if rest.starts_with("crate::")
                && (i == 0 || !(bytes[i - 1] as char).is_alphanumeric() && bytes[i - 1] != b'_')
            {
                (vec![], "crate::".len())
            } else if rest.starts_with("super::")
                && (i == 0 || !(bytes[i - 1] as char).is_alphanumeric() && bytes[i - 1] != b'_' && bytes[i - 1] != b':')
            {
                let mut up = 0;
                let mut len = 0;
                while rest[len..].starts_with("super::") {
                    up += 1;
                    len += "super::".len();
                }
                // In `a/b.rs` (module a::b) `super` is `a`; the same in `a/b/mod.rs`.
                let keep = here.len().saturating_sub(up);
                (here[..keep].to_vec(), len)
            } else {
                i += rest.chars().next().map_or(1, char::len_utf8);
                continue;
            };
            let tail = &rest[len..];
            // `a::b::{c, d::e}` or `a::b::c`
            let path_end = tail
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            let path = tail[..path_end].trim_end_matches(':');
            let mut candidates = vec![path.to_owned()];
            if tail[path_end..].starts_with('{') {
                let close = tail[path_end..].find('}').map_or(tail.len(), |c| path_end + c);
                for item in tail[path_end + 1..close].split(',') {
                    let item = item.trim().split(" as ").next().unwrap_or("").trim();
                    if !item.is_empty() && item != "self" {
                        candidates.push(format!("{path}::{item}").trim_start_matches("::").to_owned());
                    }
                }
            }
            for c in candidates {
                let mut parts: Vec<String> = base.iter().map(|s| s.to_string()).collect();
                parts.extend(c.split("::").filter(|s| !s.is_empty()).map(str::to_owned));
                // The longest prefix that is a module.
                while !parts.is_empty() && !known.contains(&parts.join("::")) {
                    parts.pop();
                }
                out.insert(parts.join("::"));
            }
            i += len;
        }
    }
    out
}

/// `a` and `b` as the two children of their nearest common ancestor they lie under, or `None`
/// when one contains the other (a parent declares its children; a child may use its parent).
fn siblings(a: &str, b: &str) -> Option<(String, String)> {
    let a: Vec<&str> = a.split("::").filter(|s| !s.is_empty()).collect();
    let b: Vec<&str> = b.split("::").filter(|s| !s.is_empty()).collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == a.len() || common == b.len() {
        return None;
    }
    Some((a[..=common].join("::"), b[..=common].join("::")))
}

/// Import edges between sibling modules of one crate.
fn edges_in(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (at, text) in modules {
        for target in references(at, text, &known) {
            if let Some((from, to)) = siblings(at, &target) {
                edges.entry(from).or_default().insert(to);
            }
        }
    }
    edges
}

/// Every import loop among `edges`, each as `a -> b -> a`.
fn loops(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    // A loop of any length: a module that reaches itself.
    let mut loops = Vec::new();
    for start in edges.keys() {
        let mut stack: Vec<(String, Vec<String>)> = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, path)) = stack.pop() {
            for next in edges.get(&at).into_iter().flatten() {
                if next == start {
                    loops.push(path.join(" -> ") + " -> " + start);
                } else if seen.insert(next.clone()) {
                    let mut p = path.clone();
                    p.push(next.clone());
                    stack.push((next.clone(), p));
                }
            }
        }
    }
    loops
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let edges = edges_in(&modules());
    let library_loops = loops(&edges);
    assert!(
        library_loops.is_empty(),
        "import cycles in compiler/src:\n{}",
        library_loops.join("\n")
    );
    // The binary is a crate of its own: its `crate::` is main.rs, its loops are its own.
    let binary = edges_in(&binary_modules());
    let binary_loops = loops(&binary);
    assert!(
        binary_loops.is_empty(),
        "import cycles in cli/src:\n{}",
        binary_loops.join("\n")
    );
    assert!(binary["prune"].contains("stdio"), "{binary:?}");
    // The reader sees real edges (a checker that finds none would pass anything).
    assert!(edges["front::read"].contains("front::definitions"), "{edges:?}");
    assert!(
        edges["validate"].contains("surql") || edges["runtime"].contains("validate"),
        "{edges:?}"
    );
    // The two generated files are siblings: `rustgen` takes what it shares with `emit` from
    // `generated`, not from `emit`.
    let rustgen = &edges["codegen::rustgen"];
    assert!(
        rustgen.contains("codegen::generated") && !rustgen.contains("codegen::emit"),
        "{rustgen:?}"
    );
}

#[test]
fn a_cycle_is_found_where_there_is_one() {
    let known: BTreeSet<String> = ["a", "a::x", "a::y"].map(String::from).into();
    assert!(references("a::x", "use super::y::Thing;", &known).contains("a::y"));
    assert!(references("a::y", "use super::{x, z};", &known).contains("a::x"));
    assert!(references("a::y", "let v = crate::a::x::f();", &known).contains("a::x"));
    assert_eq!(siblings("a::x", "a::y"), Some(("a::x".into(), "a::y".into())));
    assert_eq!(siblings("a::x", "a"), None);
}

#[test]
fn no_module_is_over_800_lines_and_each_says_what_it_is_for() {
    let binary = binary_modules()
        .into_iter()
        .map(|(m, t)| (format!("(bin surqlc) {m}"), t));
    for (module, text) in modules().into_iter().chain(binary) {
        let lines = text.lines().count();
        assert!(lines <= MAX_LINES, "{module} has {lines} lines (at most {MAX_LINES})");
        assert!(text.starts_with("//!"), "{module} does not open with a `//!` contract");
    }
}

#[test]
fn the_library_holds_no_part_of_the_command_line() {
    let modules = modules();
    // The command line's rooms are in cli/src, not among the library's (nor a binary of its own).
    for name in [
        "main",
        "stdio",
        "allocator",
        "progress",
        "commands",
        "agent_cmd",
        "prune_cmd",
        "validate::check",
        "bin",
    ] {
        assert!(
            !modules.keys().any(|m| m == name || m.starts_with(&format!("{name}::"))),
            "compiler/src has `{name}`"
        );
    }
    // Nothing of the library parses arguments: clap is the binary's alone.
    for (module, text) in &modules {
        assert!(!text.contains("clap::"), "{module} uses clap");
    }
    let binary = binary_modules();
    assert!(
        binary.contains_key("") && binary.contains_key("stdio") && binary.contains_key("exit"),
        "{:?}",
        binary.keys()
    );
    // The process's exit statuses are the command line's: the library says why work failed.
    for (module, text) in &modules {
        assert!(!text.contains("ExitCode"), "{module} names a process exit status");
    }
}

/// The `[dependencies]` section (and its `[target.*.dependencies]` twins) of a manifest, by name.
fn dependency_names(manifest: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]" || line.ends_with(".dependencies]");
            continue;
        }
        if in_deps && !line.starts_with('#') {
            if let Some((name, _)) = line.split_once('=') {
                names.insert(name.trim().split('.').next().unwrap_or("").to_owned());
            }
        }
    }
    names.remove("");
    names
}

#[test]
fn the_library_and_the_command_line_are_two_crates_and_one_way() {
    let library = std::fs::read_to_string(root().join("compiler/Cargo.toml")).unwrap();
    let cli = std::fs::read_to_string(root().join("cli/Cargo.toml")).unwrap();
    let library_deps = dependency_names(&library);
    let cli_deps = dependency_names(&cli);
    // The reader sees real dependencies (one that finds none would pass anything).
    assert!(
        library_deps.contains("syn") && library_deps.contains("rmcp"),
        "{library_deps:?}"
    );
    // The command line is over the library; the library never depends on it, nor on clap.
    assert!(cli_deps.contains("surqlc") && cli_deps.contains("clap"), "{cli_deps:?}");
    for name in ["surqlc-cli", "clap", "indicatif", "mimalloc", "libmimalloc-sys"] {
        assert!(!library_deps.contains(name), "compiler/Cargo.toml depends on {name}");
    }
    assert!(!library.contains("[[bin]]"), "the library builds a binary");
    assert!(
        !library.contains("\ncli = ") && !library.contains("\"cli\""),
        "the library has a `cli` feature"
    );
    assert!(
        cli.contains("name = \"surqlc-cli\"") && cli.contains("name = \"surqlc\""),
        "cli/Cargo.toml: the package surqlc-cli, the binary surqlc"
    );
    // Nothing in the library's sources names the command line's crate.
    for (module, text) in &modules() {
        assert!(!text.contains("surqlc_cli"), "{module} names surqlc_cli");
    }
    // `cargo surqlc` runs the command line's crate.
    let alias = std::fs::read_to_string(root().join(".cargo/config.toml")).unwrap();
    assert!(alias.contains("-p surqlc-cli"), "{alias}");
}

#[test]
fn the_command_line_tests_share_their_helpers() {
    // `stdout`, `stderr` and `assert_status` are `cli/tests/support`'s, defined once.
    let dir = root().join("cli/tests");
    let support = std::fs::read_to_string(dir.join("support/mod.rs")).unwrap();
    let helpers = ["fn stdout(", "fn stderr(", "fn assert_status("];
    for helper in helpers {
        assert!(support.contains(&format!("pub {helper}")), "support lacks {helper}");
    }
    let mut tests = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            tests += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            for helper in helpers {
                assert!(!text.contains(helper), "{} defines its own {helper}", path.display());
            }
        }
    }
    assert!(tests >= 5, "cli/tests has {tests} test files");
}

/// Lines over 150 characters in `compiler/src` (a file's first line, its one-line `//!`
/// contract, aside) when `rustfmt.toml` set 120: they are shortened as their files are next
/// edited, and this number only goes down. `cli/src` has none.
const LONG_LINES_IN_THE_LIBRARY: usize = 33;

#[test]
fn source_lines_stay_under_150_characters() {
    let long = |modules: BTreeMap<String, String>| -> Vec<String> {
        let mut out = Vec::new();
        for (module, text) in modules {
            for (n, line) in text.lines().enumerate().skip(1) {
                if line.chars().count() > 150 {
                    out.push(format!("{module}:{}", n + 1));
                }
            }
        }
        out
    };
    let rustfmt = std::fs::read_to_string(root().join("rustfmt.toml")).unwrap();
    assert!(rustfmt.contains("max_width = 120"), "{rustfmt}");
    let cli = long(binary_modules());
    assert!(cli.is_empty(), "lines over 150 characters in cli/src: {cli:?}");
    let library = long(modules());
    assert!(
        library.len() <= LONG_LINES_IN_THE_LIBRARY,
        "{} lines over 150 characters in compiler/src (at most {LONG_LINES_IN_THE_LIBRARY}): {library:?}",
        library.len()
    );
}

/// The relative link targets of a Markdown text (`[text](target)`), without their `#anchor`.
fn relative_links(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = markdown;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split('#').next().unwrap_or("");
        if !target.is_empty() && !target.contains("://") && !target.contains(' ') {
            out.push(target.to_owned());
        }
    }
    out
}

#[test]
fn the_readme_is_a_front_door_and_the_guide_holds_the_reference() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines (at most 300)");
    let docs = root().join("docs");
    let index = std::fs::read_to_string(docs.join("README.md")).unwrap();
    let mut pages = 0;
    for entry in std::fs::read_dir(&docs).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".md") {
            continue;
        }
        pages += 1;
        if name != "README.md" {
            assert!(
                index.contains(&format!("]({name})")),
                "docs/README.md does not link {name}"
            );
        }
        // Every relative link of the guide resolves, from the page's folder.
        let text = std::fs::read_to_string(&path).unwrap();
        for target in relative_links(&text) {
            assert!(
                docs.join(&target).exists(),
                "docs/{name} links {target}, which is not there"
            );
        }
    }
    assert!(pages >= 10, "docs/ has {pages} pages");
    for target in relative_links(&readme) {
        assert!(
            root().join(&target).exists(),
            "README.md links {target}, which is not there"
        );
    }
    assert!(
        readme.contains("](docs/README.md)"),
        "the README links the guide's index"
    );
}
