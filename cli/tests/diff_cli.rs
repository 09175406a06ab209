//! `surqlc diff --dump`: status 0 and "in sync" on stderr in sync, status 1 listing each change (an agent the schema does not define among them), status 2 on bad input.

mod support;

use std::path::Path;
use std::process::Output;
use support::{root, surqlc};

/// A dropped field, an extra table, a changed comment and a changed index, then the cache re-rendered.
const CHANGES: &str = "
REMOVE FIELD joined ON customer;
DEFINE TABLE audit_log SCHEMALESS COMMENT 'Who changed what.';
DEFINE TABLE OVERWRITE product TYPE NORMAL SCHEMAFULL COMMENT 'Something we sell.' PERMISSIONS FOR select FULL, FOR create, update, delete NONE;
DEFINE INDEX OVERWRITE query_example_vec ON query_example FIELDS embedding HNSW DIMENSION 4 DIST EUCLIDEAN;
RETURN fn::refresh_schema_context();
";

fn diff(dump: &Path, password: Option<&str>) -> Output {
    diff_with(dump, password, &[])
}

fn diff_with(dump: &Path, password: Option<&str>, flags: &[&str]) -> Output {
    let mut cmd = surqlc();
    cmd.arg("diff")
        .arg(root().join("schemas/store.rs"))
        .arg("--dump")
        .arg(dump)
        .args(flags);
    if let Some(p) = password {
        cmd.env("SURQLC_AGENT_PASSWORD", p);
    }
    cmd.output().expect("surqlc runs")
}

/// `surqlc build` of the store into `out` (with the agent's password, if any): its `schema.surql`.
fn built_store(out: &std::path::Path, password: Option<&str>) -> String {
    let mut cmd = surqlc();
    cmd.args(["build", "--out"])
        .arg(out)
        .arg(root().join("schemas/store.rs"));
    if let Some(p) = password {
        cmd.env("SURQLC_AGENT_PASSWORD", p);
    }
    let built = cmd.output().unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    std::fs::read_to_string(out.join("schema.surql")).unwrap()
}

/// A dump with `CHANGES` applied: each change on a line of its own, status 1.
fn drift_is_listed(drifted: &std::path::Path) {
    let out = diff(drifted, Some("diff-test"));
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let headlines: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("    ")).collect();
    assert_eq!(
        headlines,
        [
            "+ extra table audit_log",
            "~ changed comment on table product: schema 'An item in the catalogue. Orders containing it: product<-contains<-purchase.' database 'Something we sell.'",
            "- missing field joined ON customer",
            "~ changed index query_example_vec ON query_example:",
            "~ changed param $schema_context_cache: the cached schema block differs from the one the schema renders (apply the schema again; after a manual change, fn::refresh_schema_context() re-renders it)",
        ],
        "{stdout}"
    );
    assert!(
        stdout.contains("DIST COSINE") && stdout.contains("DIST EUCLIDEAN"),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("5 differences"));
}

#[test]
fn diff_against_a_dump() {
    let dir = std::env::temp_dir().join(format!("surqlc-diff-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let surql = built_store(&dir, Some("diff-test"));
    let in_sync = dir.join("in_sync.surql");
    std::fs::write(&in_sync, &surql).unwrap();
    let drifted = dir.join("drifted.surql");
    std::fs::write(&drifted, format!("{surql}\n{CHANGES}")).unwrap();

    let ok = diff(&in_sync, Some("diff-test"));
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stdout));
    assert!(ok.stdout.is_empty());
    let said = String::from_utf8_lossy(&ok.stderr);
    assert!(said.contains("in sync: ") && said.contains("in_sync.surql"), "{said}");
    // Without the agent's password the schema defines no agent, as `surqlc build` would write it:
    // the database's agent is extra, and the note says why.
    let extra = diff(&in_sync, None);
    assert_eq!(extra.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&extra.stdout), "+ extra user agent\n");
    let said = String::from_utf8_lossy(&extra.stderr);
    assert!(
        said.contains("SURQLC_AGENT_PASSWORD") && said.contains("--expect-agent"),
        "{said}"
    );
    // Expected without the password, the user is compared without its hash: in sync.
    let ok = diff_with(&in_sync, None, &["--expect-agent"]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stdout));
    // A database loaded from a build without the password has no agent: in sync without it,
    // missing when the password says there should be one.
    let no_agent = dir.join("no_agent.surql");
    std::fs::write(&no_agent, built_store(&dir.join("no_agent"), None)).unwrap();
    assert_eq!(diff(&no_agent, None).status.code(), Some(0));
    let missing = diff(&no_agent, Some("diff-test"));
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&missing.stdout), "- missing user agent\n");
    // INFO redacts a user's hash, but the fingerprint in the agent's COMMENT covers it: another
    // password is a change (applying the schema would define the agent again).
    let other = diff(&in_sync, Some("another"));
    assert_eq!(other.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&other.stdout)
            .starts_with("~ changed user agent: defined by another build of the agent"),
        "{}",
        String::from_utf8_lossy(&other.stdout)
    );

    drift_is_listed(&drifted);

    // Bad input: status 2.
    assert_eq!(diff(&dir.join("missing.surql"), None).status.code(), Some(2));
    let no_target = surqlc()
        .arg("diff")
        .arg(root().join("schemas/store.rs"))
        .output()
        .unwrap();
    assert_eq!(no_target.status.code(), Some(2));
    let bad_schema = dir.join("bad.rs");
    std::fs::write(&bad_schema, "#[derive(Table)] pub struct T { pub x: HashMap<u8, u8> }").unwrap();
    let bad = surqlc()
        .arg("diff")
        .arg(&bad_schema)
        .arg("--dump")
        .arg(&in_sync)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2), "{}", String::from_utf8_lossy(&bad.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
