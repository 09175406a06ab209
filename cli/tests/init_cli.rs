//! `surqlc init` through the binary: a hand-written schema (exit 1 with what was left out listed on stderr and at the top of the file, 0 with `--allow-partial`), an example schema then `build` and `prompt` (the README's two commands), a database read with `--endpoint`, and bad input (exit 2).

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::{assert_status, stderr, stdout, surqlc, SurrealServer};

/// This checkout (the shared target directory may hold another checkout's `test-support`).
fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ has a parent")
        .to_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surqlc-init-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn init(args: &[&std::ffi::OsStr]) -> Output {
    surqlc().arg("init").args(args).output().expect("surqlc runs")
}

fn os(p: &Path) -> &std::ffi::OsStr {
    p.as_os_str()
}

#[test]
fn a_hand_written_schema_is_written_with_what_was_left_out_listed() {
    let dir = scratch("blog");
    let source = here().join("tests/fixtures/init/blog.surql");
    let out = dir.join("blog.rs");
    let o = init(&[os(&source), "--out".as_ref(), os(&out)]);
    assert_status(&o, 1);
    let (err, rust) = (
        stderr(&o),
        std::fs::read_to_string(&out).expect("the file is written even so"),
    );
    for left_out in [
        "blog.surql:50: DEFINE EVENT post_published",
        "blog.surql:71: DEFINE PARAM",
        "blog.surql:75: CREATE user:alice",
    ] {
        assert!(
            err.contains(&format!("warning: left out: ")) && err.contains(left_out),
            "{err}"
        );
        assert!(rust.contains(left_out), "{rust}");
    }
    assert!(err.contains("--allow-partial"), "{err}");
    assert!(err.contains("difference: table audit"), "{err}");
    assert!(stdout(&o).contains("6 table(s)"), "{}", stdout(&o));
    let functions = std::fs::read_to_string(dir.join("blog.functions.surql")).expect("the functions file");
    assert!(functions.contains("fn::reading_minutes"), "{functions}");

    let o = init(&[os(&source), "--out".as_ref(), os(&out), "--allow-partial".as_ref()]);
    assert_status(&o, 0);
    // What it wrote builds.
    let o = surqlc()
        .arg("build")
        .arg(&out)
        .arg("--out")
        .arg(dir.join("built"))
        .output()
        .unwrap();
    assert_status(&o, 0);
}

#[test]
fn an_example_schema_then_prompt_the_readmes_two_commands() {
    let dir = scratch("store");
    let out = dir.join("store.rs");
    let o = init(&[
        os(&here().join("tests/golden/store.schema.surql")),
        "--out".as_ref(),
        os(&out),
    ]);
    assert_status(&o, 0);
    assert!(stdout(&o).contains("0 left out"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("surqlc's own definitions skipped"),
        "{}",
        stdout(&o)
    );
    // The few-shot pool's dimension is recovered, so the store's seed (4-dimension examples) loads.
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("examples(dimension = 4)"));
    let o = surqlc()
        .arg("prompt")
        .arg(&out)
        .arg("--seed")
        .arg(here().join("schemas/store.seed.surql"))
        .args(["--question", "Which category earns us the most money?"])
        .output()
        .unwrap();
    assert_status(&o, 0);
    assert!(stdout(&o).contains("DEFINE TABLE customer"), "{}", stdout(&o));
}

#[test]
fn a_database_is_read_with_endpoint() {
    let dir = scratch("endpoint");
    let out = dir.join("shop.rs");
    let seed = here().join("tests/golden/marketplace.schema.surql");
    let o = init(&[
        "--endpoint".as_ref(),
        "mem://".as_ref(),
        "--seed".as_ref(),
        os(&seed),
        "--out".as_ref(),
        os(&out),
    ]);
    assert_status(&o, 0);
    let rust = std::fs::read_to_string(&out).unwrap();
    assert!(
        rust.contains("pub struct Shop;") && rust.contains("pub images: Vec<Images>,"),
        "{rust}"
    );
    assert!(dir.join("shop.functions.surql").is_file());
}

#[test]
fn bad_input_is_status_2_with_its_place() {
    let dir = scratch("bad");
    let source = dir.join("bad.surql");
    std::fs::write(
        &source,
        "DEFINE TABLE a SCHEMAFULL;\nDEFINE FIELD x ON a TYPE strin g;\n",
    )
    .unwrap();
    let o = init(&[os(&source), "--out".as_ref(), os(&dir.join("bad.rs"))]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("bad.surql:2:"), "{}", stderr(&o));
    assert!(!dir.join("bad.rs").exists());
    let o = init(&[os(&dir.join("missing.surql")), "--out".as_ref(), os(&dir.join("m.rs"))]);
    assert_status(&o, 2);
}

#[test]
#[ignore = "needs a surreal 3.3 server binary in SURREAL_BIN (bash .ci/build-surreal); .ci/run runs it when set"]
fn a_server_is_read_with_endpoint() {
    let server = SurrealServer::start();
    server.import("shop", &here().join("tests/golden/marketplace.schema.surql"));
    let dir = scratch("server");
    let out = dir.join("shop.rs");
    let o = surqlc()
        .arg("init")
        .args([
            "--endpoint",
            &server.ws(),
            "--ns",
            "ai",
            "--db",
            "shop",
            "--user",
            "root",
            "--pass",
            "root",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_status(&o, 0);
    assert!(std::fs::read_to_string(&out).unwrap().contains("pub struct Seller"));
}
