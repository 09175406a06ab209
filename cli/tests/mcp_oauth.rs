//! Issue 53, item 2: the whole MCP authorization flow as a hosted client runs it, against `surqlc mcp --per-user` and `test-support`'s stand-in authorization server: the first 401, the protected-resource metadata it points at, the authorization server's metadata, dynamic client registration, the authorization code with PKCE, the token for the resource (RFC 8707), and the signed-in user's rows only.

use serde_json::{json, Value};
use surqlc_test_support::idp::Key;
use surqlc_test_support::oauth::{encode, form, pkce_pair, AuthServer};

mod support;
use support::mcp_client::*;

const SCOPE_KEY: &str = "oauth-flow-test-key";
const REDIRECT: &str = "http://127.0.0.1:9/callback";

/// One HTTP exchange on loopback: the status, the head (lowercased names kept as sent) and the body.
fn exchange(url: &str, method: &str, headers: &[(&str, &str)], body: &str) -> (u16, String, String) {
    use std::io::{Read, Write};
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let mut stream = std::net::TcpStream::connect(host).expect("connects");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        request += &format!("{name}: {value}\r\n");
    }
    request += "\r\n";
    request += body;
    stream.write_all(request.as_bytes()).unwrap();
    let mut all = Vec::new();
    let _ = stream.read_to_end(&mut all);
    let all = String::from_utf8_lossy(&all).into_owned();
    let (head, body) = all.split_once("\r\n\r\n").unwrap_or((&all, ""));
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, head.to_owned(), body.to_owned())
}

/// A header's value in `head`.
fn header(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
    })
}

/// A JSON body, or the test fails saying what came.
fn json_of(status: u16, head: &str, body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {status} {head}\n{body}"))
}

/// The code and state an authorization server's redirect carries.
fn redirected(head: &str) -> std::collections::HashMap<String, String> {
    let location = header(head, "location").unwrap_or_else(|| panic!("a redirect: {head}"));
    let query = location
        .strip_prefix(&format!("{REDIRECT}?"))
        .unwrap_or_else(|| panic!("to the registered URI: {location}"));
    form(query)
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
const MCP_HEADERS: [(&str, &str); 2] = [
    ("Content-Type", "application/json"),
    ("Accept", "application/json, text/event-stream"),
];

/// `surqlc mcp --http --per-user` trusting `auth`, asking for `mcp:tools`, with an `--audience`
/// no hosted client asks for (so only the resource URL lets their tokens in).
fn server_of(auth: &AuthServer) -> (std::process::Child, String) {
    let (child, url, _) = http_server_with(
        &[
            "--http",
            "127.0.0.1:0",
            "--per-user",
            "--jwks",
            &auth.jwks,
            "--issuer",
            &auth.issuer,
            "--audience",
            "not-what-hosted-clients-ask-for",
            "--scope",
            "mcp:tools",
        ],
        &[("SURQLC_SCOPE_KEY", SCOPE_KEY)],
    );
    (child, url)
}

/// A client that found the authorization server from the MCP server's 401 and registered there.
struct Registered {
    url: String,
    server: Value,
    client_id: String,
}

impl Registered {
    /// Steps 1 to 4: the 401 and its `resource_metadata`, the resource's metadata, the
    /// authorization server's (RFC 8414), dynamic registration (RFC 7591) of a public client.
    fn discover(url: &str, issuer: &str) -> Registered {
        let (status, head, _) = exchange(url, "POST", &MCP_HEADERS, INITIALIZE);
        assert_eq!(status, 401, "{head}");
        let challenge = header(&head, "www-authenticate").expect("a challenge");
        let metadata_url = challenge
            .split("resource_metadata=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_else(|| panic!("resource_metadata in {challenge}"))
            .to_owned();
        let (status, head, body) = exchange(&metadata_url, "GET", &[], "");
        let resource = json_of(status, &head, &body);
        assert_eq!(resource["resource"], url);
        assert_eq!(resource["authorization_servers"], json!([issuer]));
        assert_eq!(resource["scopes_supported"], json!(["mcp:tools"]));
        let well_known = format!("{issuer}/.well-known/oauth-authorization-server");
        let (status, head, body) = exchange(&well_known, "GET", &[], "");
        let server = json_of(status, &head, &body);
        assert_eq!(server["issuer"], issuer);
        assert!(server["code_challenge_methods_supported"]
            .as_array()
            .unwrap()
            .contains(&json!("S256")));
        let registration =
            json!({"client_name": "flow test", "redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none"});
        let endpoint = server["registration_endpoint"].as_str().unwrap();
        let json = [("Content-Type", "application/json")];
        let (status, head, body) = exchange(endpoint, "POST", &json, &registration.to_string());
        assert_eq!(status, 201, "{head}");
        let client_id = json_of(status, &head, &body)["client_id"].as_str().unwrap().to_owned();
        Registered {
            url: url.to_owned(),
            server,
            client_id,
        }
    }

    fn endpoint(&self, name: &str) -> String {
        self.server[name].as_str().unwrap().to_owned()
    }

    /// Step 5: the user signs in and approves (the stand-in at once): the code its redirect carries.
    fn authorize(&self, challenge: &str, state: &str) -> String {
        let query = [
            ("response_type", "code"),
            ("client_id", self.client_id.as_str()),
            ("redirect_uri", REDIRECT),
            ("code_challenge", challenge),
            ("code_challenge_method", "S256"),
            ("scope", "mcp:tools"),
            ("resource", self.url.as_str()),
            ("state", state),
        ];
        let at = format!("{}?{}", self.endpoint("authorization_endpoint"), encoded(&query));
        let (status, head, _) = exchange(&at, "GET", &[], "");
        assert_eq!(status, 302, "{head}");
        let back = redirected(&head);
        assert_eq!(back["state"], state);
        back["code"].clone()
    }

    /// Step 6: the code and its verifier for a token for `resource`.
    fn token(&self, code: &str, verifier: &str, resource: &str) -> (u16, String, String) {
        let form = [
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", REDIRECT),
            ("client_id", self.client_id.as_str()),
            ("code_verifier", verifier),
            ("resource", resource),
        ];
        let headers = [("Content-Type", "application/x-www-form-urlencoded")];
        exchange(&self.endpoint("token_endpoint"), "POST", &headers, &encoded(&form))
    }
}

/// `k=v&...`, each value percent-encoded.
fn encoded(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn access_token(answer: (u16, String, String)) -> String {
    let (status, head, body) = answer;
    assert_eq!(status, 200, "{head}\n{body}");
    json_of(status, &head, &body)["access_token"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn a_client_goes_from_the_first_401_to_its_users_rows_through_the_authorization_server() {
    let key = Key::new("as-1", 7);
    let auth = AuthServer::start(&key, "mei");
    let (mut child, url) = server_of(&auth);
    let client = Registered::discover(&url, &auth.issuer);
    let (verifier, challenge) = pkce_pair();
    let code = client.authorize(&challenge, "s-1");
    // A wrong verifier is refused (PKCE holds), and a code is used once.
    let wrong = client.authorize(&challenge, "s-2");
    assert_eq!(client.token(&wrong, "not-the-verifier", &url).0, 400);
    let token = access_token(client.token(&code, &verifier, &url));
    assert_eq!(client.token(&code, &verifier, &url).0, 400, "a code is used once");
    // Step 7: the token opens mei's session: her rows only.
    runtime().block_on(async {
        let mei = http_client(&url, &token).await;
        let answer = rows(&call(&mei, "run_query", json!({ "query": "SELECT id FROM purchase" })).await);
        assert_eq!(row_ids(&answer), ["purchase:p1", "purchase:p6"]);
        mei.cancel().await.ok();
    });
    // A token the same authorization server issued for another resource is not this server's.
    let (verifier, challenge) = pkce_pair();
    let code = client.authorize(&challenge, "s-3");
    let other = access_token(client.token(&code, &verifier, "https://another.example/mcp"));
    let bearer = format!("Bearer {other}");
    let headers = [MCP_HEADERS[0], MCP_HEADERS[1], ("Authorization", bearer.as_str())];
    let (status, head, _) = exchange(&url, "POST", &headers, INITIALIZE);
    assert_eq!(status, 401, "{head}");
    assert!(header(&head, "www-authenticate")
        .unwrap()
        .contains(r#"error="invalid_token""#));
    child.kill().ok();
    child.wait().ok();
}

/// The same flow driven by an independent client: the MCP TypeScript SDK's own OAuth client (npm's
/// `@modelcontextprotocol/sdk`, `cli/tests/node/oauth_client.cjs`) discovers, registers, signs in
/// with PKCE, asks for a token for the resource and calls `run_query`, answered with mei's rows.
#[test]
#[ignore = "needs Node (18+; npm's node@22 where the machine's is older) and npm's @modelcontextprotocol/sdk: \
            SURQLC_MCP_SDK_DIR=<a node_modules holding it> [SURQLC_NODE=<node>]; .ci/run installs and runs it"]
fn the_typescript_sdks_oauth_client_goes_through_the_flow() {
    let modules = std::env::var("SURQLC_MCP_SDK_DIR").expect("SURQLC_MCP_SDK_DIR: a node_modules with the SDK");
    let node = std::env::var("SURQLC_NODE").unwrap_or_else(|_| "node".into());
    let key = Key::new("as-2", 8);
    let auth = AuthServer::start(&key, "sam");
    let (mut child, url) = server_of(&auth);
    let script = support::root().join("cli/tests/node/oauth_client.cjs");
    let out = std::process::Command::new(&node)
        .arg(&script)
        .args([url.as_str(), "SELECT id FROM purchase ORDER BY id"])
        .env("NODE_PATH", &modules)
        .output()
        .unwrap_or_else(|e| panic!("{node} runs: {e}"));
    child.kill().ok();
    child.wait().ok();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}\n{}", String::from_utf8_lossy(&out.stderr));
    let answer: Value = serde_json::from_str(said.trim()).unwrap_or_else(|e| panic!("{e}: {said}"));
    assert_eq!(row_ids(&answer), ["purchase:p2", "purchase:p7"], "{answer}");
    assert_eq!(answer["resource"], url.as_str(), "the SDK asked for this resource");
    assert!(
        answer["client_id"].as_str().unwrap().starts_with("client-"),
        "registered: {answer}"
    );
    // The stand-in saw the SDK register, authorize and fetch a token.
    let paths: Vec<String> = auth.server.requests().iter().map(|r| r.path.clone()).collect();
    for step in ["/register", "/authorize?", "/token"] {
        assert!(paths.iter().any(|p| p.starts_with(step)), "{step} in {paths:?}");
    }
}
