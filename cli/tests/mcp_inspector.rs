//! Issue 53, item 3: the MCP Inspector's CLI (npm's `@modelcontextprotocol/inspector`, an independent client on the TypeScript SDK) lists and calls every tool `surqlc mcp` serves, the named-query tools, `ask` and `remember_example` included, over stdio and over HTTP with a provider's bearer token, in the legacy era (2025-11, `initialize` and sessions) and the stateless 2026-07-28 one, and gets an error answer back as one.

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use surqlc_test_support::idp::{now, Jwks, Key};

mod support;
use support::mcp_client::*;
use support::{root, surqlc, surqlc_bin, unconfigured, Reply, StandIn};

const SCOPE_KEY: &str = "inspector-interop-key";
const ISSUER: &str = "https://idp.example.test";
const AUDIENCE: &str = "store-agent";
/// What the stand-in model answers every `ask` with: the signed-in user's purchases.
const ASKED: &str = "SELECT id FROM purchase ORDER BY id LIMIT 10";
/// The Inspector CLI runs at once in each test (each a process of its own; over stdio, each
/// starting a surqlc of its own).
const WORKERS: usize = 3;

/// The two protocol eras, as the Inspector's `--protocol-era` names them: `legacy` (the
/// `initialize` handshake) and `modern` (pinned to 2026-07-28, no fallback in pin mode).
#[derive(Clone, Copy, Debug)]
enum Era {
    Legacy,
    Modern,
}

impl Era {
    fn flag(self) -> &'static str {
        match self {
            Era::Legacy => "legacy",
            Era::Modern => "modern",
        }
    }
}

/// How the Inspector reaches surqlc: it starts `surqlc mcp` itself (stdio), or it is given the
/// URL of a running `surqlc mcp --http --per-user` and a bearer token.
enum Transport {
    /// The server's environment, as `-e KEY=VALUE` pairs.
    Stdio(Vec<(String, String)>),
    Http {
        url: String,
        token: Option<String>,
    },
}

/// The Inspector CLI: npm's node and the package's launcher, with a `HOME` of its own (it keeps
/// a catalog and secrets there).
struct Inspector {
    node: PathBuf,
    launcher: PathBuf,
    home: PathBuf,
}

/// One run: its exit code, what it printed as JSON (`--format json`: the result on stdout, or the
/// error envelope on stderr; null when neither is JSON), its stdout as text, and its stderr.
struct Said {
    code: Option<i32>,
    json: Value,
    stdout: String,
    stderr: String,
}

impl Said {
    /// The `result` the Inspector printed, or the test fails saying what it printed instead.
    fn result(&self) -> &Value {
        let result = &self.json["result"];
        assert!(!result.is_null(), "no result: {}", self.said());
        result
    }

    /// All the run said, for a failure's message.
    fn said(&self) -> String {
        format!(
            "(exit {:?}) {}\n  stderr: {}",
            self.code,
            self.stdout.trim(),
            self.stderr.trim()
        )
    }
}

/// The surqlc arguments both transports share: the store, its seed, its named queries, and
/// `--allow-remember` (so `remember_example` is served too).
fn served() -> Vec<String> {
    let args = ["mcp", "schemas/store.rs", "--seed", "schemas/store.seed.surql"];
    let more = ["--queries", "schemas/store.queries", "--allow-remember"];
    args.iter().chain(&more).map(|s| s.to_string()).collect()
}

/// The stand-in model: every chat answered with [`ASKED`], every embedding with four numbers
/// (the store's pool is four-dimensional); `ask` and `remember_example` need both.
fn model() -> StandIn {
    StandIn::start(|_, request| {
        if request.path.ends_with("/embeddings") {
            Reply::embedding(&[0.5, 0.1, 0.4, 0.0])
        } else {
            Reply::chat(ASKED)
        }
    })
}

/// The server's environment: the scope key and the stand-in model.
fn server_env(model: &StandIn) -> Vec<(String, String)> {
    [
        ("SURQLC_SCOPE_KEY", SCOPE_KEY),
        ("SURQLC_MODEL_URL", model.url.as_str()),
        ("SURQLC_MODEL", "standin"),
        ("SURQLC_EMBED_MODEL", "standin-embed"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

impl Drop for Inspector {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.home);
    }
}

impl Inspector {
    /// From `SURQLC_INSPECTOR_DIR` (a node_modules holding the package) and `SURQLC_NODE`.
    fn from_env() -> Inspector {
        let modules =
            std::env::var("SURQLC_INSPECTOR_DIR").expect("SURQLC_INSPECTOR_DIR: a node_modules with the Inspector");
        let launcher = PathBuf::from(modules).join("@modelcontextprotocol/inspector/clients/launcher/build/index.js");
        assert!(launcher.exists(), "the Inspector's launcher at {}", launcher.display());
        let node = PathBuf::from(std::env::var("SURQLC_NODE").unwrap_or_else(|_| "node".into()));
        // One home per Inspector (the tests run side by side), removed when it is dropped.
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let home = std::env::temp_dir().join(format!("surqlc-inspector-home-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&home).unwrap();
        Inspector { node, launcher, home }
    }

    /// `mcp-inspector --cli --format json --protocol-era ERA METHOD...` against `transport`.
    fn run(&self, transport: &Transport, era: Era, method: &[String]) -> Said {
        let mut command = Command::new(&self.node);
        unconfigured(&mut command);
        command
            .current_dir(root())
            .env("HOME", &self.home)
            .arg(&self.launcher)
            .args(["--cli", "--quiet", "--format", "json", "--protocol-era", era.flag()])
            // Not the 15 s default: a debug build's stdio start on a loaded CI machine can take longer.
            .args(["--connect-timeout", "120000"])
            .args(method);
        match transport {
            Transport::Stdio(env) => {
                for (key, value) in env {
                    command.arg("-e").arg(format!("{key}={value}"));
                }
                command.arg(surqlc_bin()).args(served()).args(["--as", "customer:mei"]);
            }
            Transport::Http { url, token } => {
                // Never the interactive OAuth flow: a 401 ends the run (exit 3, `auth_required`).
                command.args(["--transport", "http", "--server-url", url, "--stored-auth-only"]);
                if let Some(token) = token {
                    command.arg("--header").arg(format!("Authorization: Bearer {token}"));
                }
            }
        }
        let out = command
            .output()
            .unwrap_or_else(|e| panic!("{} runs: {e}", self.node.display()));
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        Said {
            code: out.status.code(),
            // `--quiet` prints a failed run's error envelope on stderr instead.
            json: serde_json::from_str(stdout.trim())
                .or_else(|_| serde_json::from_str(String::from_utf8_lossy(&out.stderr).trim()))
                .unwrap_or(Value::Null),
            stdout,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// What a call must answer.
enum Expect {
    /// These rows, between the untrusted-data markers and as `structuredContent` with its note.
    Rows(Value),
    /// [`Expect::Rows`] where the order within a row's lists is the graph's edge order, which
    /// nothing defines (`->placed->purchase`): every list compared sorted.
    RowsAnyOrder(Value),
    /// Text (no rows) holding this.
    Text(&'static str),
    /// This text, all of it.
    TextIs(&'static str),
    /// `ask`'s answer: the stand-in's query, run, with these rows.
    Asked(Value),
    /// A tool error (`isError`, the Inspector's exit 5) whose text holds this.
    Refused(&'static str),
}

/// One `tools/call`.
struct Call {
    tool: &'static str,
    arguments: Value,
    expect: Expect,
}

fn call(tool: &'static str, arguments: Value, expect: Expect) -> Call {
    Call {
        tool,
        arguments,
        expect,
    }
}

/// A call on every tool surqlc serves here, with valid arguments, and what each answers for mei
/// (`--as customer:mei` on stdio, her provider token with `--per-user` over HTTP): her rows only
/// (two of seven purchases, one of five customers), from schemas/store.seed.surql. Then two
/// error answers: a query the validator refuses, and an argument outside its enum.
fn calls() -> Vec<Call> {
    use Expect::Refused;
    let mut calls = builtin_calls();
    calls.extend(query_calls());
    calls.extend(more_query_calls());
    // The error answers: they reach the client as tool errors, with the repair text.
    calls.push(call(
        "run_query",
        json!({"query": "SELECT nme FROM customer LIMIT 5"}),
        Refused("nme"),
    ));
    calls.push(call("customers_of_tiers", json!({"tiers": ["gold"]}), Refused("tiers")));
    calls
}

/// The built-in tools, `ask` and `remember_example`.
fn builtin_calls() -> Vec<Call> {
    use Expect::*;
    let mei = json!([{"id": "purchase:p1"}, {"id": "purchase:p6"}]);
    vec![
        call(
            "schema",
            json!({"question": "Which category earns the most?"}),
            Text("DEFINE TABLE purchase"),
        ),
        call(
            "check_query",
            json!({"query": "SELECT name FROM customer LIMIT 5"}),
            TextIs("ok"),
        ),
        call("run_query", json!({"query": ASKED}), Rows(mei.clone())),
        call(
            "ask",
            json!({"question": "Which purchases are mine?"}),
            Asked(mei.clone()),
        ),
        call(
            "remember_example",
            json!({"question": "Which purchases are pending?", "query": "SELECT id FROM purchase WHERE status = 'pending' LIMIT 10"}),
            Text("stored as query_example:"),
        ),
    ]
}

/// The named queries of schemas/store.queries, in its order: the first ten.
fn query_calls() -> Vec<Call> {
    use Expect::*;
    vec![
        call(
            "revenue_by_category",
            json!({"status": "shipped"}),
            Rows(json!([{"category": "audio", "revenue": 259}, {"category": "home", "revenue": 119}])),
        ),
        call(
            "customer_by_name",
            json!({"name": "Mei Tanaka"}),
            Rows(
                json!([{"country": "GB", "id": "customer:mei", "joined": "2024-01-15T09:00:00Z", "name": "Mei Tanaka", "tier": "pro"}]),
            ),
        ),
        call(
            "recent_purchases",
            json!({"since": "2025-08-01T00:00:00Z", "n": 3}),
            Rows(json!([{"id": "purchase:p6", "placed_at": "2025-08-28T07:20:00Z", "status": "shipped"}])),
        ),
        call("purchase_count", json!({"status": "shipped"}), Rows(json!([2]))),
        call(
            "customers_of_tier",
            json!({"tier": "pro"}),
            RowsAnyOrder(json!([{"bought": ["Burr Grinder", "Sport Buds", "Compact Soundbar"], "name": "Mei Tanaka"}])),
        ),
        call("customer_stats", json!({}), Rows(json!([{"customers": 1}]))),
        call(
            "order_lines",
            json!({"status": "shipped", "n": 2}),
            Rows(json!([
                {"item": {"category": "audio", "id": "product:soundbar", "name": "Compact Soundbar", "price": 149}, "line_total": 149,
                 "product": "product:soundbar", "purchase": "purchase:p1", "qty": 1, "unit_price": 149},
                {"item": {"category": "home", "id": "product:grinder", "name": "Burr Grinder", "price": 129}, "line_total": 119,
                 "product": "product:grinder", "purchase": "purchase:p6", "qty": 1, "unit_price": 119}
            ])),
        ),
        call(
            "customer_orders",
            json!({"country": "GB"}),
            RowsAnyOrder(
                json!([{"id": "customer:mei", "last_order": "2025-08-28T07:20:00Z", "name": "Mei Tanaka",
                "order_rows": [{"id": "purchase:p1", "placed_at": "2025-07-01T10:00:00Z", "status": "shipped"},
                               {"id": "purchase:p6", "placed_at": "2025-08-28T07:20:00Z", "status": "shipped"}],
                "orders": ["purchase:p1", "purchase:p6"], "tier": "pro"}]),
            ),
        ),
        call(
            "category_prices",
            json!({}),
            Rows(json!([
                {"category": "audio", "cheapest": 59, "dearest": 149, "mean_price": 104, "products": 2, "total": 208},
                {"category": "home", "cheapest": 39, "dearest": 129, "mean_price": 84, "products": 2, "total": 168},
                {"category": "wearables", "cheapest": 89, "dearest": 229, "mean_price": 159, "products": 2, "total": 318}
            ])),
        ),
        call(
            "product_names",
            json!({"category": "audio"}),
            Rows(json!(["Compact Soundbar", "Sport Buds"])),
        ),
    ]
}

/// The rest of the named queries, `my_orders` (the one bound to the end user) last.
fn more_query_calls() -> Vec<Call> {
    use Expect::*;
    let mei_row = json!({"name": "Mei Tanaka"});
    vec![
        call(
            "customer_accounts",
            json!({"category": "audio"}),
            Rows(
                json!([{"account": {"since": "2024-01-15T09:00:00Z", "tier": "pro"}, "name": "Mei Tanaka",
                "picks": [{"name": "Compact Soundbar", "price": 149}, {"name": "Sport Buds", "price": 59}]}]),
            ),
        ),
        call(
            "customers_with_order_status",
            json!({"status": "shipped"}),
            Rows(json!([mei_row])),
        ),
        call(
            "customers_with_order_status_in",
            json!({"status": "shipped"}),
            Rows(json!([mei_row])),
        ),
        call(
            "customers_of_tiers",
            json!({"tiers": ["pro", "plus"]}),
            Rows(json!([{"name": "Mei Tanaka", "tier": "pro"}])),
        ),
        call(
            "customers_buying_any",
            json!({"categories": ["audio"]}),
            Rows(json!([mei_row])),
        ),
        call(
            "my_orders",
            json!({"statuses": ["shipped", "pending"], "n": 5}),
            Rows(
                json!([{"id": "purchase:p6", "placed_at": "2025-08-28T07:20:00Z", "status": "shipped"},
                        {"id": "purchase:p1", "placed_at": "2025-07-01T10:00:00Z", "status": "shipped"}]),
            ),
        ),
    ]
}

/// Why `said`, the Inspector's answer to `call`, is not what it must be (`None` when it is).
fn wrong(call: &Call, said: &Said) -> Option<String> {
    let result = &said.json["result"];
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    let is_error = result["isError"] == json!(true);
    let fail = |why: String| {
        Some(format!(
            "{} {}: {why}\n  answer {}",
            call.tool,
            call.arguments,
            said.said()
        ))
    };
    match &call.expect {
        Expect::Refused(needle) => {
            if !is_error || said.code != Some(5) || !text.contains(needle) {
                return fail(format!("a tool error (isError, exit 5) whose text holds `{needle}`"));
            }
        }
        _ if is_error || said.code != Some(0) => return fail("an answer, not an error".into()),
        Expect::Text(needle) => {
            if !text.contains(needle) {
                return fail(format!("text holding `{needle}`"));
            }
        }
        Expect::TextIs(whole) => {
            if text != *whole {
                return fail(format!("the text `{whole}`"));
            }
        }
        Expect::Rows(rows) => match data(result) {
            Err(why) => return fail(why),
            Ok(data) if data["rows"] != numbers(rows) => return fail(format!("rows {rows}")),
            Ok(_) => {}
        },
        Expect::RowsAnyOrder(rows) => match data(result) {
            Err(why) => return fail(why),
            Ok(data) if sorted(&data["rows"]) != sorted(&numbers(rows)) => {
                return fail(format!("rows {rows}, in any order"))
            }
            Ok(_) => {}
        },
        Expect::Asked(rows) => match data(result) {
            Err(why) => return fail(why),
            Ok(data) if data["query"] != ASKED || data["result"]["rows"] != numbers(rows) => {
                return fail(format!("the stand-in's query `{ASKED}`, run, with rows {rows}"))
            }
            Ok(_) => {}
        },
    }
    None
}

/// The data of an answer that carries rows: the JSON between its untrusted-data markers, which
/// must be its `structuredContent` too, under the note that says it is data.
fn data(result: &Value) -> Result<Value, String> {
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    let (_, inner) = surqlc::mcp::untrusted_data(text).ok_or("rows between untrusted-data markers")?;
    let parsed: Value = serde_json::from_str(inner).map_err(|e| format!("JSON between the markers: {e}"))?;
    let parsed = numbers(&parsed);
    let (note, structured) = surqlc::mcp::untrusted_structured(&result["structuredContent"]);
    if (note, numbers(&structured)) != (Some(surqlc::mcp::UNTRUSTED_NOTE), parsed.clone()) {
        return Err("structuredContent: the same JSON as the text, with the untrusted-data note".into());
    }
    Ok(parsed)
}

/// `value` with every number a float: JavaScript has one number type, so the Inspector prints the
/// `104.0` surqlc sent in `structuredContent` as `104` (the same number to any JSON reader).
fn numbers(value: &Value) -> Value {
    match value {
        Value::Number(n) => json!(n.as_f64()),
        Value::Array(items) => Value::Array(items.iter().map(numbers).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), numbers(v))).collect()),
        other => other.clone(),
    }
}

/// `value` with every list sorted (by its items' JSON), at every depth.
fn sorted(value: &Value) -> Value {
    match value {
        Value::Array(items) => {
            let mut items: Vec<Value> = items.iter().map(sorted).collect();
            items.sort_by_key(|v| v.to_string());
            Value::Array(items)
        }
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), sorted(v))).collect()),
        other => other.clone(),
    }
}

/// What surqlc serves here, as rmcp's own client lists it over stdio: the reference the
/// Inspector's lists are compared with, after checking it holds every tool it must: the three
/// built-in ones, `ask` (a model is configured), `remember_example` (`--allow-remember`), and
/// one per query the build reads from schemas/store.queries (`my_orders` too: it has an end user).
fn reference_tools(env: &[(String, String)]) -> Vec<Value> {
    let args: Vec<String> = [served(), vec!["--as".into(), "customer:mei".into()]].concat();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let tools = runtime().block_on(async {
        let client = stdio_with(&args, &env).await;
        let tools = client.list_all_tools().await.expect("tools/list answers");
        client.cancel().await.ok();
        tools
    });
    let tools: Vec<Value> = tools.iter().map(|t| serde_json::to_value(t).unwrap()).collect();
    let queries = surqlc::Builder::new()
        .schema(root().join("schemas/store.rs"))
        .queries(root().join("schemas/store.queries"))
        .cargo_metadata(false)
        .generate()
        .expect("the store and its queries compile")
        .queries;
    let mut want: Vec<String> = ["schema", "check_query", "run_query", "ask", "remember_example"]
        .iter()
        .map(|s| s.to_string())
        .chain(queries.iter().map(|q| q.name.clone()))
        .collect();
    let mut names: Vec<String> = tools.iter().map(|t| t["name"].as_str().unwrap().to_owned()).collect();
    want.sort();
    names.sort();
    assert_eq!(names, want, "surqlc serves every tool");
    tools
}

/// Why the Inspector's `tools/list` answer is not `reference` (each tool's name, title,
/// description, input and output schemas and annotations as surqlc serves them), if it is not.
fn list_wrong(said: &Said, reference: &[Value]) -> Vec<String> {
    let listed = said.result()["tools"].as_array().cloned().unwrap_or_default();
    let mut wrong = Vec::new();
    for want in reference {
        let name = &want["name"];
        let Some(got) = listed.iter().find(|t| &t["name"] == name) else {
            wrong.push(format!("tools/list: {name} is missing"));
            continue;
        };
        for key in ["title", "description", "inputSchema", "outputSchema", "annotations"] {
            if got.get(key) != want.get(key) {
                wrong.push(format!(
                    "tools/list: {name}'s {key} is {:?}, served {:?}",
                    got.get(key),
                    want.get(key)
                ));
            }
        }
    }
    if listed.len() != reference.len() {
        wrong.push(format!(
            "tools/list: {} tools, served {}",
            listed.len(),
            reference.len()
        ));
    }
    wrong
}

/// One Inspector run: the era and the method's arguments.
type Job = (Era, Vec<String>);

/// Runs `jobs` against `transport`, [`WORKERS`] at once: each one's answer, in order.
fn run_all(inspector: &Inspector, transport: &Transport, jobs: &[Job]) -> Vec<Said> {
    let next = AtomicUsize::new(0);
    let answers: Mutex<Vec<Option<Said>>> = Mutex::new(jobs.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((era, method)) = jobs.get(i) else { break };
                let said = inspector.run(transport, *era, method);
                answers.lock().unwrap()[i] = Some(said);
            });
        }
    });
    answers
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|s| s.expect("every job ran"))
        .collect()
}

fn method(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// In both eras: `initialize` (the era the Inspector negotiated), `tools/list` (every tool, as
/// served) and a call on each tool (every tool listed has one): all wrongs said at once.
fn exercise(inspector: &Inspector, transport: &Transport, reference: &[Value]) {
    let calls = calls();
    let mut wrongs: Vec<String> = reference
        .iter()
        .filter_map(|t| t["name"].as_str())
        .filter(|name| !calls.iter().any(|c| c.tool == *name))
        .map(|name| format!("no call exercises the tool `{name}`"))
        .collect();
    let mut jobs: Vec<Job> = Vec::new();
    for era in [Era::Legacy, Era::Modern] {
        jobs.push((era, method(&["--method", "initialize"])));
        jobs.push((era, method(&["--method", "tools/list"])));
        for c in &calls {
            let args = c.arguments.to_string();
            jobs.push((
                era,
                method(&[
                    "--method",
                    "tools/call",
                    "--tool-name",
                    c.tool,
                    "--tool-args-json",
                    &args,
                ]),
            ));
        }
    }
    let started = std::time::Instant::now();
    let answers = run_all(inspector, transport, &jobs);
    eprintln!("{} Inspector runs in {:.1?}", jobs.len(), started.elapsed());
    for (era, answers) in [Era::Legacy, Era::Modern]
        .into_iter()
        .zip(answers.chunks(calls.len() + 2))
    {
        let version = answers[0].result()["protocolVersion"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let negotiated = match era {
            Era::Legacy => version.as_str() < "2026-07-28" && !version.is_empty(),
            Era::Modern => version == "2026-07-28",
        };
        if !negotiated {
            wrongs.push(format!(
                "{era:?}: the Inspector negotiated protocol version {version:?}"
            ));
        }
        wrongs.extend(
            list_wrong(&answers[1], reference)
                .into_iter()
                .map(|w| format!("{era:?}: {w}")),
        );
        for (c, said) in calls.iter().zip(&answers[2..]) {
            wrongs.extend(wrong(c, said).map(|w| format!("{era:?}: {w}")));
        }
    }
    assert!(wrongs.is_empty(), "{} wrong:\n{}", wrongs.len(), wrongs.join("\n"));
}

/// Over stdio: the Inspector starts `surqlc mcp ... --as customer:mei` for each run, in both eras.
#[test]
#[ignore = "needs Node 22.19+ (npm's node@22 where the machine's is older) and npm's @modelcontextprotocol/inspector 2.12+: \
            SURQLC_INSPECTOR_DIR=<a node_modules holding it> [SURQLC_NODE=<node>]; .ci/run installs and runs it"]
fn the_inspector_cli_lists_and_calls_every_tool_over_stdio_in_both_eras() {
    let inspector = Inspector::from_env();
    let model = model();
    let env = server_env(&model);
    let reference = reference_tools(&env);
    exercise(&inspector, &Transport::Stdio(env), &reference);
}

/// Over HTTP: one `surqlc mcp --http --per-user` trusting the stand-in provider, the Inspector
/// sending mei's provider token as `Authorization: Bearer`, in both eras (the 2026-07-28 one
/// stateless: no session, the token on every request); without the token, the 401 in both.
#[test]
#[ignore = "needs Node 22.19+ (npm's node@22 where the machine's is older) and npm's @modelcontextprotocol/inspector 2.12+: \
            SURQLC_INSPECTOR_DIR=<a node_modules holding it> [SURQLC_NODE=<node>]; .ci/run installs and runs it"]
fn the_inspector_cli_lists_and_calls_every_tool_over_http_with_a_bearer_token_in_both_eras() {
    let inspector = Inspector::from_env();
    let model = model();
    let env = server_env(&model);
    let reference = reference_tools(&env);
    let key = Key::new("inspector-1", 11);
    let jwks = Jwks::serve(&[&key]);
    let flags = [
        "--http",
        "127.0.0.1:0",
        "--per-user",
        "--jwks",
        &jwks.url,
        "--issuer",
        ISSUER,
        "--audience",
        AUDIENCE,
    ];
    let (child, url, _) = serve(
        surqlc()
            .args(served())
            .args(flags)
            .envs(env.iter().map(|(k, v)| (k, v))),
    );
    let _server = Stopped(child);
    let token = key.sign(&json!({"iss": ISSUER, "aud": AUDIENCE, "sub": "mei", "iat": now(), "exp": now() + 600}));
    let anonymous = Transport::Http {
        url: url.clone(),
        token: None,
    };
    exercise(
        &inspector,
        &Transport::Http {
            url,
            token: Some(token),
        },
        &reference,
    );
    // Without the token, the server's 401 reaches the Inspector in either era: no tool, exit 3.
    for era in [Era::Legacy, Era::Modern] {
        let said = inspector.run(&anonymous, era, &method(&["--method", "tools/list"]));
        assert_eq!(
            (said.code, &said.json["error"]["code"]),
            (Some(3), &json!("auth_required")),
            "{era:?}: {}",
            said.said()
        );
    }
}

/// A server process, killed when the test ends (a failed one too).
struct Stopped(std::process::Child);

impl Drop for Stopped {
    fn drop(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}
