//! `surqlc mcp --per-user` with the team's own identity provider (issue 40, item 7): a stand-in
//! provider (not a real one: no provider is reachable from the test machines) publishes its
//! Ed25519 key as a JWKS on loopback and the test signs its tokens; each token opens its user's
//! session, and every bad one is answered 401 with an audit line that holds no token.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use surqlc_test_support::idp::{now, Jwks, Key};

mod support;
use support::mcp_client::*;
use support::surqlc;

const ISSUER: &str = "https://idp.example.test";
const AUDIENCE: &str = "store-agent";
const SCOPE_KEY: &str = "oidc-cli-test-key";

/// A fresh path under the temporary directory for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surqlc-oidc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What the provider says of `sub`: its issuer, this server's audience, ten minutes to live.
fn claims(sub: &str) -> Value {
    json!({"iss": ISSUER, "aud": AUDIENCE, "sub": sub, "iat": now(), "exp": now() + 600})
}

/// `claims(sub)` with `key` set to `value`.
fn claims_with(sub: &str, key: &str, value: Value) -> Value {
    let mut c = claims(sub);
    c[key] = value;
    c
}

/// Every line of the audit log, parsed.
fn audit_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// The purchases a client's user sees, sorted.
async fn purchases(client: &Client) -> Vec<String> {
    row_ids(&rows(
        &call(client, "run_query", json!({ "query": "SELECT id FROM purchase" })).await,
    ))
}

/// A raw `initialize` with `token` as the bearer: the status.
fn initialize_with(url: &str, token: &str) -> u16 {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let bearer = format!("Bearer {token}");
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("Authorization", bearer.as_str()),
    ];
    http_exchange(url, "POST", &headers, body).0
}

/// `surqlc mcp --http --per-user` trusting the provider whose keys `jwks` serves, with `more` flags.
fn per_user_server(
    jwks: &str,
    more: &[&str],
) -> (std::process::Child, String, std::sync::Arc<std::sync::Mutex<String>>) {
    let flags = [
        "--http",
        "127.0.0.1:0",
        "--per-user",
        "--jwks",
        jwks,
        "--issuer",
        ISSUER,
        "--audience",
        AUDIENCE,
    ];
    http_server_with(&[&flags[..], more].concat(), &[("SURQLC_SCOPE_KEY", SCOPE_KEY)])
}

#[test]
fn the_providers_tokens_open_their_users_sessions_and_bad_ones_get_401_and_an_audit_line() {
    let key = Key::new("k1", 1);
    let jwks = Jwks::serve(&[&key]);
    let log = scratch("refusals").join("audit.jsonl");
    let (mut child, url, stderr) = per_user_server(&jwks.url, &["--audit-log", log.to_str().unwrap()]);
    let (mei_token, sam_token) = (key.sign(&claims("mei")), key.sign(&claims("sam")));
    runtime().block_on(async {
        // Two users of one provider: each reads their own rows only, as the engine's PERMISSIONS say.
        let mei = http_client(&url, &mei_token).await;
        let sam = http_client(&url, &sam_token).await;
        assert_eq!(purchases(&mei).await, ["purchase:p1", "purchase:p6"]);
        assert_eq!(purchases(&sam).await, ["purchase:p2", "purchase:p7"]);
        mei.cancel().await.ok();
        sam.cancel().await.ok();
    });
    // surqlc's own scope tokens keep working beside the provider's.
    let own = surqlc()
        .args(["token", "schemas/store.rs", "--as", "customer:mei"])
        .env("SURQLC_SCOPE_KEY", SCOPE_KEY)
        .output()
        .expect("surqlc token runs");
    let own = String::from_utf8(own.stdout).unwrap().trim().to_owned();
    assert_eq!(initialize_with(&url, &own), 200);
    let refused = [
        (
            "token_expired",
            key.sign(&claims_with("mei", "exp", json!(now() - 3600))),
        ),
        (
            "wrong_issuer",
            key.sign(&claims_with("mei", "iss", json!("https://other-idp.test"))),
        ),
        (
            "wrong_audience",
            key.sign(&claims_with("mei", "aud", json!("another-app"))),
        ),
        ("unknown_key", Key::new("k9", 9).sign(&claims("mei"))),
        ("bad_signature", Key::new("k1", 2).sign(&claims("mei"))),
        ("unknown_user", key.sign(&claims("nobody"))),
        (
            "no_user_claim",
            key.sign(&json!({"iss": ISSUER, "aud": AUDIENCE, "exp": now() + 600})),
        ),
    ];
    for (code, token) in &refused {
        assert_eq!(initialize_with(&url, token), 401, "{code}");
    }
    child.kill().ok();
    child.wait().ok();
    let lines = audit_lines(&log);
    let text = std::fs::read_to_string(&log).unwrap();
    for (code, token) in &refused {
        let line = lines
            .iter()
            .find(|l| l["codes"] == json!([code]))
            .unwrap_or_else(|| panic!("an audit line for {code} in {text}"));
        assert_eq!(line["verdict"], "refused", "{line}");
        assert_eq!(line["subject"], "unauthenticated", "{line}");
        assert_eq!(line["tool"], "initialize", "{line}");
        assert!(
            line["error"].as_str().unwrap().starts_with("401 Unauthorized: "),
            "{line}"
        );
        // Neither the token nor its signature is written anywhere.
        let signature = token.rsplit('.').next().unwrap();
        assert!(!text.contains(signature), "{code}: the token is in the audit log");
        assert!(
            !stderr.lock().unwrap().contains(signature),
            "{code}: the token is on stderr"
        );
    }
    // The users' calls are audited under their records.
    let subjects: Vec<&str> = lines
        .iter()
        .filter(|l| l["tool"] == "run_query")
        .map(|l| l["subject"].as_str().unwrap())
        .collect();
    assert_eq!(subjects, ["customer:mei", "customer:sam"], "{text}");
    assert!(!text.contains(&mei_token) && !text.contains(&sam_token));
}

/// The provider's keys are fetched at start and cached: many calls, one fetch. A `kid` the set
/// does not hold fetches it again (the provider rotated its keys), at most once per cooldown
/// (10 s), so made-up `kid`s cannot make the server hammer the provider.
#[test]
fn the_key_set_is_fetched_once_and_again_for_a_rotated_kid() {
    let (old, new) = (Key::new("k1", 1), Key::new("k2", 2));
    let jwks = Jwks::rotating(&[&old], &[&old, &new]);
    let started = std::time::Instant::now();
    let (mut child, url, stderr) = per_user_server(&jwks.url, &[]);
    // The start-up fetch happened after `started` and before `ready`.
    let ready = std::time::Instant::now();
    let said = stderr.lock().unwrap().clone();
    assert!(
        said.contains("identity provider https://idp.example.test: 1 key from its JWKS"),
        "{said}"
    );
    assert_eq!(jwks.fetches(), 1);
    for sub in ["mei", "sam", "mei"] {
        assert_eq!(initialize_with(&url, &old.sign(&claims(sub))), 200);
    }
    assert_eq!(jwks.fetches(), 1, "the cached set answers");
    // Within the cooldown an unknown kid is refused without a fetch.
    if started.elapsed() < std::time::Duration::from_secs(8) {
        assert_eq!(initialize_with(&url, &new.sign(&claims("mei"))), 401);
        assert_eq!(jwks.fetches(), 1, "no fetch within the cooldown");
    }
    let cooldown = std::time::Duration::from_secs(10);
    std::thread::sleep(cooldown.saturating_sub(ready.elapsed()) + std::time::Duration::from_millis(500));
    assert_eq!(
        initialize_with(&url, &new.sign(&claims("mei"))),
        200,
        "the rotated key is fetched"
    );
    assert_eq!(jwks.fetches(), 2);
    assert_eq!(initialize_with(&url, &Key::new("k3", 3).sign(&claims("mei"))), 401);
    assert_eq!(jwks.fetches(), 2, "a made-up kid right after a fetch fetches nothing");
    child.kill().ok();
    child.wait().ok();
}

/// Bad settings are bad input (exit 2) with the rule they break; none of them is a panic.
#[test]
fn bad_identity_provider_flags_are_refused_before_serving() {
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "--jwks",
                "ftp://idp/jwks.json",
                "--issuer",
                ISSUER,
                "--audience",
                AUDIENCE,
            ],
            "https://HOST/PATH",
        ),
        (
            &[
                "--jwks",
                "http://idp.example.test/jwks.json",
                "--issuer",
                ISSUER,
                "--audience",
                AUDIENCE,
            ],
            "use https://",
        ),
        (
            &["--jwks", "https://idp.example.test/jwks.json", "--audience", AUDIENCE],
            "--jwks needs --issuer",
        ),
        (&["--issuer", ISSUER], "give its --jwks URL too"),
    ];
    for (flags, said) in cases {
        let out = surqlc()
            .args([
                "mcp",
                "schemas/store.rs",
                "--seed",
                "schemas/store.seed.surql",
                "--http",
                "127.0.0.1:0",
                "--per-user",
            ])
            .args(flags)
            .env("SURQLC_SCOPE_KEY", SCOPE_KEY)
            .output()
            .expect("surqlc runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {stderr}");
        assert!(stderr.contains(said), "{flags:?}: {stderr}");
    }
}
