//! What users compile and link stays light: the proc-macro and an application's run-time graph carry none of the compiler's heavy dependencies.

use std::process::Command;
use surqlc_tests::root;

/// Package names in `cargo tree` for `package` over the given edge kinds.
fn tree(package: &str, edges: &str) -> Vec<String> {
    tree_with(package, edges, &[])
}

/// [`tree`] with extra arguments (`--no-default-features`, `--features ...`).
fn tree_with(package: &str, edges: &str, extra: &[&str]) -> Vec<String> {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["tree", "--locked", "--prefix", "none", "-p", package, "-e", edges])
        .args(extra)
        .current_dir(root())
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect();
    names.sort();
    names.dedup();
    names
}

fn assert_without(names: &[String], heavy: &[&str], what: &str) {
    let found: Vec<&&str> = heavy.iter().filter(|h| names.iter().any(|n| n == **h)).collect();
    assert!(found.is_empty(), "{what} pulls in {found:?}");
}

#[test]
fn the_proc_macro_needs_only_the_front_end() {
    let names = tree("surqlc-macros", "normal");
    assert!(names.iter().any(|n| n == "syn"));
    assert_without(
        &names,
        &[
            "tera",
            "tiktoken-rs",
            "clap",
            "surrealdb",
            "prettyplease",
            "argon2",
            "reqwest",
            "rmcp",
            "axum",
            "opentelemetry",
            "tracing-opentelemetry",
        ],
        "surqlc-macros",
    );
}

#[test]
fn an_application_links_the_runtime_only() {
    // The example's run-time graph: its normal dependencies, without the proc-macro's host side.
    let names = tree("store-agent", "normal,no-proc-macro");
    assert!(names.iter().any(|n| n == "surqlc") && names.iter().any(|n| n == "surrealdb"));
    assert_without(
        &names,
        &[
            "tera",
            "tiktoken-rs",
            "clap",
            "syn",
            "prettyplease",
            "heck",
            "rmcp",
            "axum",
            "opentelemetry",
            "opentelemetry_sdk",
            "tracing-opentelemetry",
            "tracing-subscriber",
        ],
        "store-agent at run time",
    );
}

#[test]
fn the_model_client_is_only_in_the_model_feature() {
    // What build.rs compiles (`codegen`, the default) and what `runtime` alone links at run time
    // (its normal dependencies without the proc-macros' host side): no HTTP client.
    let codegen = tree("surqlc", "normal");
    assert_without(&codegen, &["reqwest", "hyper", "surrealdb"], "surqlc with codegen");
    let runtime = tree_with(
        "surqlc",
        "normal,no-proc-macro",
        &["--no-default-features", "--features", "runtime"],
    );
    assert!(runtime.iter().any(|n| n == "surrealdb"));
    assert_without(
        &runtime,
        &["reqwest", "tera", "tiktoken-rs", "clap", "syn"],
        "surqlc with runtime alone",
    );
    // The `model` feature brings reqwest, and nothing of the compiler.
    let model = tree_with(
        "surqlc",
        "normal,no-proc-macro",
        &["--no-default-features", "--features", "model"],
    );
    assert!(model.iter().any(|n| n == "reqwest"), "{model:?}");
    assert_without(&model, &["tera", "tiktoken-rs", "clap", "syn"], "surqlc with model");
}

#[test]
fn a_build_script_compiles_no_server() {
    // A build.rs compiles the schema with surqlc's default `codegen` feature (as store-agent's
    // does): the MCP server's SDK and HTTP stack are the `mcp` feature's (the CLI's).
    let names = tree("surqlc", "normal");
    assert!(names.iter().any(|n| n == "tera"), "the build graph has codegen");
    assert_without(
        &names,
        &["rmcp", "axum", "hyper", "clap", "surrealdb"],
        "surqlc with its default features (a build script's graph)",
    );
}

#[test]
fn the_command_line_is_a_crate_of_its_own() {
    // The library with every feature the command line enables carries none of the command line's
    // own dependencies; `surqlc-cli` brings them, over the library.
    let library = tree_with("surqlc", "normal", &["--features", "mcp,model,check-expr,tokens"]);
    assert!(library.iter().any(|n| n == "rmcp"), "{library:?}");
    // OpenTelemetry (`surqlc mcp --otlp-endpoint`) is the command line's `otel` feature: the
    // library only offers `mcp::MetricsSink`, and an application brings its own exporter.
    let otel = [
        "opentelemetry",
        "opentelemetry_sdk",
        "opentelemetry-otlp",
        "tracing-opentelemetry",
        "tracing-subscriber",
    ];
    assert_without(
        &library,
        &[&["clap", "indicatif", "mimalloc", "surqlc-cli"][..], &otel[..]].concat(),
        "surqlc with every feature",
    );
    let cli = tree("surqlc-cli", "normal");
    for name in [&["surqlc", "clap", "indicatif", "mimalloc"][..], &otel[..]].concat() {
        assert!(
            cli.iter().any(|n| n == name),
            "surqlc-cli lacks {name} (otel is a default feature)"
        );
    }
    let without = tree_with("surqlc-cli", "normal", &["--no-default-features"]);
    assert_without(&without, &otel, "surqlc-cli --no-default-features");
}
