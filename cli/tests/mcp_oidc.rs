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

/// `GET url` on loopback with `headers`: the status, the head and the body.
fn get_with(url: &str, headers: &[(&str, &str)]) -> (u16, String, String) {
    let (code, head) = http_exchange(url, "GET", headers, "");
    (code, head, String::new())
}

/// The `WWW-Authenticate` header of an answer's head.
fn challenge(head: &str) -> String {
    head.lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .starts_with("www-authenticate:")
                .then(|| l[17..].trim().to_owned())
        })
        .unwrap_or_else(|| panic!("a WWW-Authenticate header in {head}"))
}

/// A raw `initialize` with `bearer` (or none): the status and the head.
fn initialize_head(url: &str, bearer: Option<&str>) -> (u16, String) {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let auth = bearer.map(|t| format!("Bearer {t}"));
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    if let Some(auth) = &auth {
        headers.push(("Authorization", auth.as_str()));
    }
    http_exchange(url, "POST", &headers, body)
}

/// Issue 53, item 1: hosted clients find the authorization server in the protected-resource
/// metadata (RFC 9728) that every 401 points at, and ask it for a token whose audience is the
/// resource (RFC 8707); `--scope` is required of every provider token (403 without it).
#[test]
fn the_protected_resource_metadata_is_served_and_every_401_points_at_it() {
    let key = Key::new("k1", 1);
    let jwks = Jwks::serve(&[&key]);
    let (mut child, url, _stderr) = per_user_server(&jwks.url, &["--scope", "mcp:tools"]);
    let origin = url.strip_suffix("/mcp").unwrap().to_owned();
    let metadata_url = format!("{origin}/.well-known/oauth-protected-resource/mcp");
    for at in [
        format!("{origin}/.well-known/oauth-protected-resource"),
        metadata_url.clone(),
    ] {
        let (status, head, body) = http_get(&at);
        assert_eq!(status, 200, "{at}: {head}");
        assert!(
            head.to_ascii_lowercase().contains("content-type: application/json"),
            "{head}"
        );
        let doc: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            doc,
            json!({
                "resource": url,
                "authorization_servers": [ISSUER],
                "bearer_methods_supported": ["header"],
                "scopes_supported": ["mcp:tools"],
                "resource_name": "surqlc MCP: store",
            }),
            "{at}"
        );
    }
    // No token: the challenge names the metadata; a refused token: `invalid_token` too.
    let (status, head) = initialize_head(&url, None);
    assert_eq!(status, 401);
    assert_eq!(
        challenge(&head),
        format!(r#"Bearer resource_metadata="{metadata_url}""#)
    );
    let (status, head) = initialize_head(&url, Some("not-a-token"));
    assert_eq!(status, 401);
    assert_eq!(
        challenge(&head),
        format!(r#"Bearer resource_metadata="{metadata_url}", error="invalid_token""#)
    );
    let with_scope = |aud: &str, scope: Option<&str>| {
        let mut c = claims_with("mei", "aud", json!(aud));
        if let Some(scope) = scope {
            c["scope"] = json!(scope);
        }
        key.sign(&c)
    };
    // The resource URL is an audience as good as --audience; another is still refused.
    assert_eq!(
        initialize_head(&url, Some(&with_scope(&url, Some("openid mcp:tools")))).0,
        200
    );
    assert_eq!(
        initialize_head(&url, Some(&with_scope(AUDIENCE, Some("mcp:tools")))).0,
        200
    );
    assert_eq!(
        initialize_head(&url, Some(&with_scope("https://elsewhere/mcp", Some("mcp:tools")))).0,
        401
    );
    // Entra ID and Okta put scopes in `scp`.
    let scp = key.sign(&claims_with("sam", "scp", json!(["mcp:tools"])));
    assert_eq!(initialize_head(&url, Some(&scp)).0, 200);
    // Without the scope: 403 insufficient_scope, saying which.
    let (status, head) = initialize_head(&url, Some(&with_scope(&url, Some("openid"))));
    assert_eq!(status, 403, "{head}");
    assert_eq!(
        challenge(&head),
        format!(r#"Bearer resource_metadata="{metadata_url}", error="insufficient_scope", scope="mcp:tools""#)
    );
    // A user's call with the resource-audience token answers their rows only.
    runtime().block_on(async {
        let mei = http_client(&url, &with_scope(&url, Some("mcp:tools"))).await;
        assert_eq!(purchases(&mei).await, ["purchase:p1", "purchase:p6"]);
        mei.cancel().await.ok();
    });
    child.kill().ok();
    child.wait().ok();
}

/// `--public-url` names the resource as clients reach it (behind a proxy): the metadata's
/// `resource`, the challenge's metadata URL (RFC 9728 §3.1: the well-known path between origin
/// and path), and an accepted audience. Metadata requests are counted and rate-limited per address.
#[test]
fn the_public_url_is_the_resource_and_metadata_requests_are_counted_and_limited() {
    let key = Key::new("k1", 1);
    let jwks = Jwks::serve(&[&key]);
    let log = scratch("metadata").join("audit.jsonl");
    let public = "https://mcp.example.test/tools/mcp";
    let (mut child, url, stderr) = per_user_server(
        &jwks.url,
        &[
            "--public-url",
            public,
            "--rate-limit",
            "1/s",
            "--rate-burst",
            "2",
            "--metrics",
            "127.0.0.1:0",
            "--audit-log",
            log.to_str().unwrap(),
        ],
    );
    let origin = url.strip_suffix("/mcp").unwrap().to_owned();
    let metadata_url = "https://mcp.example.test/.well-known/oauth-protected-resource/tools/mcp";
    let (status, head) = initialize_head(&url, None);
    assert_eq!(status, 401);
    assert_eq!(
        challenge(&head),
        format!(r#"Bearer resource_metadata="{metadata_url}""#)
    );
    let (status, _, body) = http_get(&format!("{origin}/.well-known/oauth-protected-resource/tools/mcp"));
    assert_eq!(status, 200);
    let doc: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(doc["resource"], public);
    assert!(
        doc.get("scopes_supported").is_none(),
        "no --scope, no scopes_supported: {doc}"
    );
    // The burst of two is spent: the third request within the second is refused, with its wait.
    let (status, head, _) = get_with(&format!("{origin}/.well-known/oauth-protected-resource"), &[]);
    let third = if status == 200 {
        get_with(&format!("{origin}/.well-known/oauth-protected-resource"), &[])
    } else {
        (status, head, String::new())
    };
    assert_eq!(third.0, 429, "{}", third.1);
    assert!(third.1.to_ascii_lowercase().contains("retry-after:"), "{}", third.1);
    assert_eq!(
        initialize_head(&url, Some(&key.sign(&claims_with("mei", "aud", json!(public))))).0,
        200
    );
    let metrics = stderr
        .lock()
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("serving metrics at ").map(str::to_owned))
        .expect("the metrics address on stderr");
    let (_, _, page) = http_get(&metrics);
    assert!(
        page.contains(r#"surqlc_tool_calls_total{tool="oauth-protected-resource",outcome="ok"}"#),
        "{page}"
    );
    assert!(
        page.contains(r#"surqlc_tool_calls_total{tool="oauth-protected-resource",outcome="refused"} 1"#),
        "{page}"
    );
    child.kill().ok();
    child.wait().ok();
    let lines = audit_lines(&log);
    assert!(
        lines
            .iter()
            .any(|l| l["tool"] == "oauth-protected-resource" && l["codes"] == json!(["rate_limited"])),
        "{lines:?}"
    );
}
