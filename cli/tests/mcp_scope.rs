//! `surqlc mcp` for one end user of the store's `scope(end_user = Customer)`, as an MCP host sees
//! it through rmcp's client: `--as customer:mei` on stdio, and `--per-user` over HTTP, where each
//! request's bearer token (signed by `surqlc token` with the scope key) chooses the user.

use serde_json::{json, Value};

mod support;
use support::mcp_client::*;
use support::surqlc;

/// The ids a `run_query` answer holds, sorted.
fn ids(answer: &Value) -> Vec<String> {
    let mut ids: Vec<String> = answer["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("rows in {answer}"))
        .iter()
        .map(|row| row["id"].as_str().unwrap_or_default().to_owned())
        .collect();
    ids.sort();
    ids
}

async fn ids_of(client: &Client, query: &str) -> Vec<String> {
    ids(&rows(
        &call(client, "run_query", json!({ "query": query })).await,
    ))
}

/// What mei sees: her purchases, their lines and edges, herself, and every product.
async fn assert_meis_rows(client: &Client) {
    assert_eq!(
        ids_of(client, "SELECT id FROM purchase").await,
        ["purchase:p1", "purchase:p6"]
    );
    assert_eq!(
        ids_of(client, "SELECT id FROM customer").await,
        ["customer:mei"]
    );
    assert_eq!(ids_of(client, "SELECT id, in FROM placed").await.len(), 2);
    let lines = rows(
        &call(
            client,
            "run_query",
            json!({ "query": "SELECT in, out FROM contains" }),
        )
        .await,
    );
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
    assert!(
        schema.contains("signed-in customer") || !schema.contains("Omar"),
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
        let client = stdio(&[
            "mcp",
            "schemas/store.rs",
            "--seed",
            "schemas/store.seed.surql",
            "--as",
            "customer:mei",
        ])
        .await;
        assert_meis_rows(&client).await;
        // Another customer's order does not exist for mei: the data check says so, naming only hers.
        let refused = call(
            &client,
            "run_query",
            json!({ "query": "SELECT * FROM purchase:p2 LIMIT 1" }),
        )
        .await;
        assert!(is_error(&refused));
        let said = text(&refused);
        assert!(
            said.contains("look like purchase:p1, purchase:p6"),
            "{said}"
        );
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
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
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
    runtime().block_on(async {
        let mei = http_client(&url, &token("customer:mei")).await;
        assert_meis_rows(&mei).await;
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
