//! `surqlc mcp` for one end user of the store's `scope(end_user = Customer)`, as an MCP host sees
//! it through rmcp's client: `--as customer:mei` on stdio, and `--per-user` over HTTP, where each
//! request's bearer token (signed by `surqlc token` with the scope key) chooses the user.

use serde_json::json;

mod support;
use support::mcp_client::*;
use support::surqlc;

async fn ids_of(client: &Client, query: &str) -> Vec<String> {
    row_ids(&rows(&call(client, "run_query", json!({ "query": query })).await))
}

/// What mei sees: her purchases, their lines and edges, herself, and every product.
async fn assert_meis_rows(client: &Client) {
    assert_eq!(
        ids_of(client, "SELECT id FROM purchase").await,
        ["purchase:p1", "purchase:p6"]
    );
    assert_eq!(ids_of(client, "SELECT id FROM customer").await, ["customer:mei"]);
    assert_eq!(ids_of(client, "SELECT id, in FROM placed").await.len(), 2);
    let lines = rows(&call(client, "run_query", json!({ "query": "SELECT in, out FROM contains" })).await);
    let mut purchases: Vec<&str> = lines["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["in"].as_str().unwrap())
        .collect();
    purchases.sort();
    assert_eq!(purchases, ["purchase:p1", "purchase:p1", "purchase:p6"]);
    assert_eq!(ids_of(client, "SELECT id FROM product").await.len(), 6);
    let schema = text(&call(client, "schema", json!({ "question": "what did I order?" })).await);
    // The `schema` tool says whom the answers are for, before the schema block.
    assert!(
        schema.starts_with("USER\nYou answer for one signed-in customer: $auth is their record"),
        "{schema}"
    );
    assert!(
        !schema.contains("Omar Haddad") && !schema.contains("customer.country: DE"),
        "{schema}"
    );
}

#[test]
fn as_a_customer_on_stdio_run_query_returns_only_their_rows() {
    runtime().block_on(async {
        let client = stdio_with(
            &[
                "mcp",
                "schemas/store.rs",
                "--seed",
                "schemas/store.seed.surql",
                "--as",
                "customer:mei",
            ],
            &[("SURQLC_SCOPE_KEY", "mcp-scope-test")],
        )
        .await;
        assert_meis_rows(&client).await;
        // The server's instructions say whom the answers are for, and `$auth` is her record.
        let instructions = client
            .peer_info()
            .and_then(|info| info.instructions.clone())
            .unwrap_or_default();
        assert!(
            instructions.contains("You answer for one signed-in customer: $auth is their record"),
            "{instructions}"
        );
        assert_eq!(ids_of(&client, "SELECT id FROM $auth LIMIT 1").await, ["customer:mei"]);
        let explained = call(
            &client,
            "check_query",
            json!({ "query": "SELECT * FROM purchase LIMIT 5 EXPLAIN" }),
        )
        .await;
        assert!(text(&explained).contains("SQ1001"), "{}", text(&explained));
        // Another customer's order does not exist for mei: the data check says so, naming only hers.
        let refused = call(
            &client,
            "run_query",
            json!({ "query": "SELECT * FROM purchase:p2 LIMIT 1" }),
        )
        .await;
        assert!(is_error(&refused));
        let said = text(&refused);
        assert!(said.contains("look like purchase:p1, purchase:p6"), "{said}");
        client.cancel().await.ok();
    });
}

#[test]
fn per_user_over_http_each_token_is_its_user_and_no_token_no_tools() {
    let key = [("SURQLC_SCOPE_KEY", "mcp-scope-test")];
    let (mut child, url, _log) = http_server_with(&["--http", "127.0.0.1:0", "--per-user"], &key);
    let token = |user: &str| {
        let out = surqlc()
            .args(["token", "schemas/store.rs", "--as", user])
            .envs(key)
            .output()
            .expect("surqlc token runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    assert_eq!(http_exchange(&url, "POST", &headers, body).0, 401);
    let forged = format!("Bearer {}x", token("customer:mei"));
    let with_forged = [headers[0], headers[1], ("Authorization", forged.as_str())];
    assert_eq!(http_exchange(&url, "POST", &with_forged, body).0, 401);
    // The scheme is case-insensitive (RFC 9110): a lowercase `bearer` is the same credential.
    let lowercase = format!("bearer {}", token("customer:mei"));
    let with_lowercase = [headers[0], headers[1], ("Authorization", lowercase.as_str())];
    assert_eq!(http_exchange(&url, "POST", &with_lowercase, body).0, 200);
    runtime().block_on(async {
        let mei = http_client(&url, &token("customer:mei")).await;
        assert_meis_rows(&mei).await;
        let instructions = mei
            .peer_info()
            .and_then(|info| info.instructions.clone())
            .unwrap_or_default();
        assert!(instructions.contains("signed-in customer"), "{instructions}");
        let sam = http_client(&url, &token("customer:sam")).await;
        assert_eq!(
            ids_of(&sam, "SELECT id FROM purchase").await,
            ["purchase:p2", "purchase:p7"]
        );
        mei.cancel().await.ok();
        sam.cancel().await.ok();
    });
    child.kill().ok();
    child.wait().ok();
}

/// Serving end users without the scope key they were built with would answer every token 401
/// (`--per-user`) or hide the missing setting (`--as`): both refuse to start, naming the variable.
#[test]
fn serving_end_users_without_the_scope_key_refuses_to_start() {
    for extra in [
        &["--as", "customer:mei"][..],
        &["--http", "127.0.0.1:0", "--per-user"][..],
    ] {
        let out = surqlc()
            .args(["mcp", "schemas/store.rs", "--seed", "schemas/store.seed.surql"])
            .args(extra)
            .output()
            .expect("surqlc runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains("set SURQLC_SCOPE_KEY"), "{extra:?}: {stderr}");
    }
}

/// `surqlc token --as` checks the user exists when it can, and says so when it cannot.
#[test]
fn a_token_is_printed_only_for_a_user_that_exists_when_checked() {
    let token = |extra: &[&str]| {
        surqlc()
            .args(["token", "schemas/store.rs"])
            .args(extra)
            .env("SURQLC_SCOPE_KEY", "token-check-key")
            .output()
            .expect("surqlc token runs")
    };
    let seed = ["--seed", "schemas/store.seed.surql"];
    let nobody = token(&[&["--as", "customer:nobody"][..], &seed].concat());
    let stderr = String::from_utf8_lossy(&nobody.stderr);
    assert_eq!(nobody.status.code(), Some(2), "{stderr}");
    assert!(nobody.stdout.is_empty());
    assert!(stderr.contains("is `customer:nobody` a row of `customer`"), "{stderr}");
    assert!(!stderr.contains("AGENT_PASSWORD"), "{stderr}");
    let mei = token(&[&["--as", "customer:mei"][..], &seed].concat());
    assert!(mei.status.success(), "{}", String::from_utf8_lossy(&mei.stderr));
    assert!(String::from_utf8_lossy(&mei.stderr).trim().is_empty());
    let unchecked = token(&["--as", "customer:nobody"]);
    assert!(unchecked.status.success());
    assert!(
        String::from_utf8_lossy(&unchecked.stderr).contains("`customer:nobody` was not checked"),
        "{}",
        String::from_utf8_lossy(&unchecked.stderr)
    );
}
