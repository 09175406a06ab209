//! surqlc from a user's `build.rs`, in a throwaway crate built by cargo: an unchanged schema does not rerun the build script, a changed one does, and a schema error fails the build naming file, line and column.

use std::path::{Path, PathBuf};
use std::process::Command;
use surqlc_tests::root;

const SCHEMA: &str = "use surqlc_macros::Table;

/// A note.
#[derive(Table)]
pub struct Note {
    /// The text.
    pub body: String,
}
";

const BUILD_RS: &str = r#"
fn main() {
    // Count the runs, outside OUT_DIR so the test can read them.
    let runs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("runs.log");
    let mut log = std::fs::read_to_string(&runs).unwrap_or_default();
    log.push_str("run\n");
    std::fs::write(&runs, log).unwrap();
    if let Err(e) = surqlc::Builder::new().schema("schema.rs").compile() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
"#;

const MAIN_RS: &str = r#"
const SCHEMA_SURQL: &str = include_str!(concat!(env!("OUT_DIR"), "/schema.surql"));
fn main() {
    print!("{}", SCHEMA_SURQL.len());
}
"#;

fn probe_crate() -> PathBuf {
    probe_crate_with("rerun", BUILD_RS)
}

/// A throwaway crate named `NAME-probe` whose build script is `build_rs`.
fn probe_crate_with(name: &str, build_rs: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surqlc-{name}-probe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let compiler = root().join("compiler");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}-probe\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [workspace]\n\n[build-dependencies]\nsurqlc = {{ path = {:?} }}\n",
            compiler.display().to_string()
        ),
    )
    .unwrap();
    // The workspace's lock pins the same versions; cargo drops what the probe does not use.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("build.rs"), build_rs).unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN_RS).unwrap();
    std::fs::write(dir.join("schema.rs"), SCHEMA).unwrap();
    dir
}

/// Builds the probe (not `--quiet`, which would hide the build script's warnings); returns success and stderr.
fn cargo_build(dir: &Path) -> (bool, String) {
    // A target directory of its own: the workspace's is locked by the running `cargo test`.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
        .join("rerun-probe");
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build"])
        .arg("--target-dir")
        .arg(&target)
        .current_dir(dir)
        .env_remove("SURQLC_AGENT_PASSWORD")
        .output()
        .expect("cargo runs");
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn runs(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("runs.log"))
        .unwrap_or_default()
        .lines()
        .count()
}

#[test]
fn the_build_script_reruns_only_when_the_schema_changes() {
    let dir = probe_crate();
    let (ok, stderr) = cargo_build(&dir);
    assert!(ok, "{stderr}");
    assert_eq!(runs(&dir), 1);

    let (ok, stderr) = cargo_build(&dir);
    assert!(ok, "{stderr}");
    assert_eq!(
        runs(&dir),
        1,
        "a second build with no change must not rerun the build script"
    );

    std::fs::write(dir.join("schema.rs"), SCHEMA.replace("The text.", "The note's text.")).unwrap();
    let (ok, stderr) = cargo_build(&dir);
    assert!(ok, "{stderr}");
    assert_eq!(runs(&dir), 2, "a changed schema reruns it");

    // A schema error fails the build and names the schema file, line and column.
    std::fs::write(
        dir.join("schema.rs"),
        SCHEMA.replace(
            "pub body: String,",
            "pub body: String,\n    pub tags: std::collections::HashSet<String>,",
        ),
    )
    .unwrap();
    let (ok, stderr) = cargo_build(&dir);
    assert!(!ok, "the build must fail");
    assert!(
        stderr.contains("error: unsupported field type `std::collections::HashSet<String>`"),
        "{stderr}"
    );
    assert!(stderr.contains("schema.rs:8:15"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

const REPORTING_BUILD_RS: &str = r#"
fn main() {
    let runs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("runs.log");
    let mut log = std::fs::read_to_string(&runs).unwrap_or_default();
    log.push_str("run\n");
    std::fs::write(&runs, log).unwrap();
    let mut builder = surqlc::Builder::new();
    builder.schema("schema.rs");
    // NO_AGENT
    builder.compile_in_build_script();
}
"#;

#[test]
fn schema_errors_reach_cargo_as_its_own_errors_and_the_password_warning_can_be_silenced() {
    let dir = probe_crate_with("errors", REPORTING_BUILD_RS);
    let (ok, stderr) = cargo_build(&dir);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("warning: errors-probe@0.0.0: surqlc: SURQLC_AGENT_PASSWORD is not set"),
        "{stderr}"
    );
    // Cargo shows a build script's warnings again when it reuses its output: the script does not rerun.
    let (ok, stderr) = cargo_build(&dir);
    assert!(ok, "{stderr}");
    assert_eq!(runs(&dir), 1, "an unchanged crate does not rerun the build script");
    assert!(stderr.contains("SURQLC_AGENT_PASSWORD is not set"), "{stderr}");

    // A schema error: cargo prints surqlc's message with file, line and column, and the source
    // line, as the build's own errors, without dumping the build script's output.
    std::fs::write(
        dir.join("schema.rs"),
        SCHEMA.replace(
            "pub body: String,",
            "pub body: String,\n    pub tags: std::collections::HashSet<String>,",
        ),
    )
    .unwrap();
    let (ok, stderr) = cargo_build(&dir);
    assert!(!ok, "the build must fail");
    assert!(
        stderr.contains(
            "error: errors-probe@0.0.0: schema.rs:8:15: unsupported field type `std::collections::HashSet<String>`"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: errors-probe@0.0.0:     8 |     pub tags: std::collections::HashSet<String>,"),
        "{stderr}"
    );
    assert!(!stderr.contains("failed to run custom build command"), "{stderr}");

    // `Builder::no_agent()`: the crate wants no agent, so there is nothing to warn about.
    std::fs::write(dir.join("schema.rs"), SCHEMA).unwrap();
    std::fs::write(
        dir.join("build.rs"),
        REPORTING_BUILD_RS.replace("// NO_AGENT", "builder.no_agent();"),
    )
    .unwrap();
    let (ok, stderr) = cargo_build(&dir);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("SURQLC_AGENT_PASSWORD"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A schema with `prune(...)`: its costs must be exact o200k_base counts wherever it compiles.
const PRUNING_SCHEMA: &str = "use surqlc::runtime::Link;
use surqlc_macros::{Schema, Table};

/// The clinic's prompt settings.
#[derive(Schema)]
#[surqlc(expose(Owner, Pet, Visit), prune(budget = 120))]
pub struct Clinic;

/// A person who brings animals to the clinic.
#[derive(Table)]
pub struct Owner {
    /// Full name of the owner.
    pub name: String,
    /// The city they live in, e.g. 'Uppsala'.
    pub city: String,
}

/// An animal the clinic treats. Its owner: pet.owner.
#[derive(Table)]
pub struct Pet {
    /// The pet's name.
    pub name: String,
    /// Kind of animal, e.g. 'cat'.
    pub species: String,
    /// Who owns it.
    pub owner: Link<Owner>,
}

/// One appointment of a pet with the vet.
#[derive(Table)]
pub struct Visit {
    /// The animal seen.
    pub pet: Link<Pet>,
    /// Why it came, in the owner's words.
    pub reason: String,
}
";

/// A build script that writes into `gen/` beside the crate, where the test can read it.
const GEN_BUILD_RS: &str = r#"
fn main() {
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("gen");
    surqlc::Builder::new().schema("schema.rs").out_dir(out).compile_in_build_script();
}
"#;

#[test]
fn a_build_script_writes_the_clis_schema_surql_for_a_pruning_schema_or_refuses_it() {
    // Without `tokens` (the default features): refused at `prune`, naming the feature, instead
    // of a schema.surql whose budget is filled from byte counts (a fraction of the tables).
    let dir = probe_crate_with("prune", GEN_BUILD_RS);
    std::fs::write(dir.join("schema.rs"), PRUNING_SCHEMA).unwrap();
    let (ok, stderr) = cargo_build(&dir);
    assert!(!ok, "prune(...) without `tokens` must fail the build:\n{stderr}");
    let line = PRUNING_SCHEMA.lines().position(|l| l.contains("prune(")).unwrap() + 1;
    let column = PRUNING_SCHEMA.lines().nth(line - 1).unwrap().find("prune").unwrap() + 1;
    assert!(
        stderr.contains(&format!(
            "schema.rs:{line}:{column}: prune(...) fills its budget with exact o200k_base token counts"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("\"tokens\""), "the error names the feature: {stderr}");
    assert!(!dir.join("gen/schema.surql").exists(), "nothing is written");

    // With `tokens`: the very bytes `surqlc build` writes (the CLI's code path, with its features).
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let manifest = manifest.replace("surqlc = { path = ", "surqlc = { features = [\"tokens\"], path = ");
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The build script writes to gen/, not OUT_DIR: the binary needs nothing from it.
    std::fs::write(dir.join("src/main.rs"), "fn main() {}\n").unwrap();
    let (ok, stderr) = cargo_build(&dir);
    assert!(ok, "{stderr}");
    let from_build_rs = std::fs::read_to_string(dir.join("gen/schema.surql")).unwrap();
    let cli_out = dir.join("cli");
    let mut cli = surqlc::Builder::new();
    cli.cargo_metadata(false)
        .schema(dir.join("schema.rs"))
        .out_dir(&cli_out)
        .types_path("super")
        // The build script runs without SURQLC_AGENT_PASSWORD (`cargo_build`): no agent either way.
        .no_agent();
    cli.compile().expect("the CLI compiles it");
    let from_cli = std::fs::read_to_string(cli_out.join("schema.surql")).unwrap();
    assert!(from_build_rs.contains("fn::nl2surql_prompt_pruned"));
    assert!(
        from_build_rs == from_cli,
        "build.rs and the CLI wrote different schema.surql files"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
