//! `surqlc mcp --queries schemas/store.queries` as an MCP host sees it through rmcp's client (issue
//! 41, item 4): one read-only tool per `-- name:` query whose input schema is its typed parameters,
//! answering rows as `run_query` does (markers, audit line under the tool's name), refusing bad
//! arguments, and `my_orders`' `$customer` filled from `--as customer:mei`'s session, never by the caller.

use serde_json::{json, Value};
use std::path::PathBuf;

mod support;
use support::mcp_client::*;
use support::{assert_status, root, stderr, stdout, surqlc};

const QUERIES: &str = "schemas/store.queries";

/// A fresh directory under the temporary directory for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surqlc-mcp-queries-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The store's named queries as the build reads and types them: what each tool must take.
fn typed_queries() -> Vec<surqlc::queries::Query> {
    surqlc::Builder::new()
        .schema(root().join("schemas/store.rs"))
        .queries(root().join(QUERIES))
        .cargo_metadata(false)
        .generate()
        .expect("the store and its queries compile")
        .queries
}

/// `tools/list`, by name.
async fn listed(client: &Client) -> Vec<rmcp::model::Tool> {
    client.list_all_tools().await.expect("tools/list answers")
}

fn property_names(tool: &rmcp::model::Tool) -> Vec<String> {
    let mut names: Vec<String> = tool.input_schema["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// Every query but the one bound to an end user (none is served) is a read-only tool whose
/// properties are the parameters the build typed; two schemas compared whole.
async fn assert_each_query_is_listed_as_typed(client: &Client, queries: &[surqlc::queries::Query]) {
    let tools = listed(client).await;
    for q in queries {
        let shape = q.shape.as_ref().expect("typed");
        let tool = tools.iter().find(|t| t.name == q.name.as_str());
        if q.name == "my_orders" {
            assert!(
                tool.is_none(),
                "a session-bound query is not listed without an end user"
            );
            continue;
        }
        let tool = tool.unwrap_or_else(|| panic!("a tool for `{}`", q.name));
        let mut want: Vec<String> = shape.params.iter().map(|p| p.name.clone()).collect();
        want.sort();
        assert_eq!(property_names(tool), want, "{}", q.name);
        let annotations = tool.annotations.as_ref().expect("annotated");
        assert_eq!(
            (
                annotations.read_only_hint,
                annotations.idempotent_hint,
                annotations.open_world_hint
            ),
            (Some(true), Some(true), Some(false))
        );
        for question in &q.questions {
            assert!(tool
                .description
                .as_deref()
                .unwrap_or_default()
                .contains(question.as_str()));
        }
    }
    let recent = tools.iter().find(|t| t.name == "recent_purchases").unwrap();
    assert_eq!(
        Value::Object((*recent.input_schema).clone()),
        json!({
            "type": "object",
            "properties": {"since": {"type": "string", "format": "date-time"}, "n": {"type": "integer"}},
            "required": ["since", "n"],
            "additionalProperties": false,
        })
    );
    let tiers = tools.iter().find(|t| t.name == "customers_of_tiers").unwrap();
    assert_eq!(
        tiers.input_schema["properties"]["tiers"],
        json!({"type": "array", "items": {"type": "string", "enum": ["free", "plus", "pro"]}})
    );
}

#[test]
fn each_named_query_is_a_read_only_tool_typed_by_its_parameters_answering_rows() {
    let dir = scratch("list");
    let log = dir.join("audit.jsonl");
    let args = [STORE, &["--queries", QUERIES, "--audit-log", log.to_str().unwrap()]].concat();
    let queries = typed_queries();
    runtime().block_on(async {
        let client = stdio(&args).await;
        assert_each_query_is_listed_as_typed(&client, &queries).await;
        // The rows, as run_query gives them (between the untrusted-data markers).
        let answer = rows(&call(&client, "customers_of_tiers", json!({"tiers": ["plus"]})).await);
        assert_eq!(answer, json!({"rows": [{"name": "Omar Haddad", "tier": "plus"}]}));
        let recent = rows(
            &call(
                &client,
                "recent_purchases",
                json!({"since": "2025-08-01T00:00:00Z", "n": 3}),
            )
            .await,
        );
        let ids: Vec<&str> = recent["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        // Four purchases since August; `$n` bound to 3 keeps the newest three.
        assert_eq!(ids, ["purchase:p7", "purchase:p6", "purchase:p5"]);
        // Bad arguments are tool errors that say what to send; nothing runs with a NONE.
        for (arguments, said) in [
            (json!({"n": 5}), "the argument `since` is missing"),
            (
                json!({"since": "2025-08-01T00:00:00Z", "n": 5, "limit": 3}),
                "has no argument `limit`",
            ),
            (json!({"since": "last month", "n": 5}), "must be a date-time string"),
            (
                json!({"since": "2025-08-01T00:00:00Z", "n": "5"}),
                "must be a whole number",
            ),
        ] {
            let refused = call(&client, "recent_purchases", arguments.clone()).await;
            assert!(is_error(&refused), "{arguments}");
            assert!(text(&refused).contains(said), "{arguments}: {}", text(&refused));
        }
        let wrong = call(&client, "customers_of_tiers", json!({"tiers": ["gold"]})).await;
        assert!(text(&wrong).contains("one of free, plus, pro"), "{}", text(&wrong));
        // Called by name anyway, the session-bound query says what it needs.
        let mine = call(&client, "my_orders", json!({"statuses": ["shipped"], "n": 5})).await;
        assert!(
            is_error(&mine) && text(&mine).contains("--as USER or --per-user"),
            "{}",
            text(&mine)
        );
        client.cancel().await.ok();
    });
    let lines: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        (&lines[0]["tool"], &lines[0]["verdict"], &lines[0]["rows"]),
        (&json!("customers_of_tiers"), &json!("ok"), &json!(1))
    );
    assert_eq!(lines[1]["tool"], "recent_purchases");
    assert_eq!(
        (&lines[2]["tool"], &lines[2]["verdict"]),
        (&json!("recent_purchases"), &json!("error"))
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn as_a_customer_the_session_fills_the_bound_parameter_and_the_caller_cannot() {
    let args = [STORE, &["--queries", QUERIES, "--as", "customer:mei"]].concat();
    runtime().block_on(async {
        let client = stdio_with(&args, &[("SURQLC_SCOPE_KEY", "mcp-queries-test")]).await;
        let tools = listed(&client).await;
        let mine = tools
            .iter()
            .find(|t| t.name == "my_orders")
            .expect("listed for an end user");
        // `$customer` is the session's: not an argument.
        assert_eq!(property_names(mine), ["n", "statuses"]);
        let all = json!({"statuses": ["shipped", "pending", "cancelled"], "n": 10});
        let answer = rows(&call(&client, "my_orders", all).await);
        let ids: Vec<&str> = answer["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        // Mei's orders, newest first: `$customer` was bound to customer:mei (NONE would match none).
        assert_eq!(ids, ["purchase:p6", "purchase:p1"]);
        let forged = json!({"statuses": ["shipped"], "n": 10, "customer": "customer:sam"});
        let refused = call(&client, "my_orders", forged).await;
        assert!(is_error(&refused));
        assert!(text(&refused).contains("filled by their session"), "{}", text(&refused));
        client.cancel().await.ok();
    });
}

#[test]
fn a_query_named_like_a_built_in_tool_is_an_error_at_its_name() {
    let dir = scratch("clash");
    let file = dir.join("clash.surql");
    std::fs::write(&file, "-- name: run_query :many\nSELECT name FROM customer LIMIT 5;\n").unwrap();
    let o = surqlc()
        .args(["mcp", "schemas/store.rs", "--queries", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_status(&o, 2);
    let want = format!(
        "error: {}:1:10: query `run_query` has the name of a built-in tool of surqlc mcp",
        file.display()
    );
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn audit_reports_what_the_named_query_tools_cost() {
    let o = surqlc()
        .args(["audit", "schemas/store.rs", "--format", "json", "--queries", QUERIES])
        .output()
        .unwrap();
    assert_status(&o, 0);
    let report: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let mcp = &report["mcp"];
    let named: Vec<&Value> = mcp["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["when"].as_str().is_some_and(|w| w.starts_with("--queries")))
        .collect();
    assert_eq!(named.len(), typed_queries().len());
    let total: u64 = named.iter().map(|t| t["tokens"].as_u64().unwrap()).sum();
    assert!(total > 0);
    assert_eq!(mcp["query_tools"], json!(total));
    // Without --queries there are none.
    let plain = surqlc()
        .args(["audit", "schemas/store.rs", "--format", "json"])
        .output()
        .unwrap();
    let plain: Value = serde_json::from_str(&stdout(&plain)).unwrap();
    assert_eq!(plain["mcp"]["query_tools"], Value::Null);
    assert!(plain["mcp"]["tools_list"].as_u64().unwrap() < mcp["tools_list"].as_u64().unwrap());
}
