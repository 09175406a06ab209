//! `surqlc ask` and `surqlc eval` as users run them: exit statuses 0/1/2, the JSON keys, the committed golden sets judged against candidate files. The model is a local stand-in (a tiny HTTP server on 127.0.0.1 speaking the OpenAI wire format with fixed replies), never a real one.

use std::process::Output;

mod support;
use support::{assert_status, model, stderr, stdout, surqlc, Reply};

/// The binary with no model configured unless `env` says so.
fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    surqlc()
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("the surqlc binary runs")
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("stdout is one JSON object ({e}):\n{}", stdout(o)))
}

fn model_env(url: &str) -> Vec<(&'static str, String)> {
    vec![
        ("SURQLC_MODEL_URL", url.to_owned()),
        ("SURQLC_MODEL", "standin".to_owned()),
    ]
}

/// The scope key `--as` needs (the per-user access is defined with it).
const SCOPE_KEY: (&str, &str) = ("SURQLC_SCOPE_KEY", "agent-cli-scope-key");

fn with<'a>(env: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    env.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

const STORE_ASK: [&str; 5] = [
    "ask",
    "schemas/store.rs",
    "--seed",
    "schemas/store.seed.surql",
    "--question",
];

#[test]
fn ask_prints_the_query_the_rows_and_the_attempts() {
    // The stand-in's first reply is silently wrong (a field customer does not have), its second the repair.
    let url = model(vec![
        Reply::chat("SELECT name FROM customer WHERE level = 'pro' LIMIT 50"),
        Reply::chat("SELECT name, country FROM customer WHERE tier = 'pro' ORDER BY name LIMIT 50"),
    ]);
    let env = model_env(&url);
    let mut args = STORE_ASK.to_vec();
    args.extend(["Which customers are on the pro tier?", "--format", "json"]);
    let o = run(&args, &with(&env));
    assert_status(&o, 0);
    let answer = json(&o);
    assert_eq!(
        answer["query"],
        "SELECT name, country FROM customer WHERE tier = 'pro' ORDER BY name LIMIT 50"
    );
    assert_eq!(
        answer["rows"],
        serde_json::json!([{"country": "GB", "name": "Mei Tanaka"}, {"country": "US", "name": "Sam Carter"}])
    );
    let attempts = answer["attempts"].as_array().expect("attempts");
    assert_eq!(attempts.len(), 2);
    assert!(attempts[0]["reply"].as_str().unwrap().contains("level"));
    assert!(
        attempts[0]["problems"][0].as_str().unwrap().contains("`level`"),
        "{answer}"
    );
    assert_eq!(attempts[1]["problems"], serde_json::json!([]));
    assert_eq!(answer["examples"], "words");
    assert!(answer["prompt_tokens"].as_u64().unwrap() > 100);

    // The text form: each attempt, then the query and the rows as a table.
    let url = model(vec![
        Reply::chat("SELECT name FROM customer WHERE level = 'pro' LIMIT 50"),
        Reply::chat("SELECT name, country FROM customer WHERE tier = 'pro' ORDER BY name LIMIT 50"),
    ]);
    let env = model_env(&url);
    let mut args = STORE_ASK.to_vec();
    args.push("Which customers are on the pro tier?");
    let o = run(&args, &with(&env));
    assert_status(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("-- reply 1 of at most 3: refused"), "{text}");
    assert!(text.contains("-- reply 2 of at most 3: accepted"), "{text}");
    assert!(text.contains("country | name"), "{text}");
    assert!(text.contains("GB      | Mei Tanaka"), "{text}");
    assert!(text.contains("(2 rows)"), "{text}");
    assert!(text.contains("no --vector"), "{text}");
}

#[test]
fn ask_exits_1_without_a_valid_query_and_on_cannot_answer() {
    let url = model(vec![Reply::chat("SELECT * FROM stock LIMIT 5")]);
    let env = model_env(&url);
    let mut args = STORE_ASK.to_vec();
    args.extend(["What is in stock?", "--attempts", "2", "--format", "json"]);
    let o = run(&args, &with(&env));
    assert_status(&o, 1);
    let answer = json(&o);
    assert_eq!(answer["attempts"].as_array().unwrap().len(), 2);
    assert_eq!(answer["query"], serde_json::Value::Null);
    assert_eq!(answer["status"], "no_valid_query");
    assert!(stderr(&o).contains("no valid query in 2 attempts"), "{}", stderr(&o));

    let url = model(vec![Reply::chat("-- cannot answer: no stock levels in the schema")]);
    let env = model_env(&url);
    let mut args = STORE_ASK.to_vec();
    args.extend(["What is in stock?", "--format", "json"]);
    let o = run(&args, &with(&env));
    assert_status(&o, 1);
    assert_eq!(json(&o)["attempts"].as_array().unwrap().len(), 1);
    assert!(stderr(&o).contains("no stock levels"));
    // As text, the verdict is said once, on stdout; nothing repeats it on stderr.
    let url = model(vec![Reply::chat("-- cannot answer: no stock levels in the schema")]);
    let env = model_env(&url);
    let mut args = STORE_ASK.to_vec();
    args.push("What is in stock?");
    let o = run(&args, &with(&env));
    assert_status(&o, 1);
    let both = format!("{}{}", stdout(&o), stderr(&o));
    assert_eq!(both.matches("no stock levels").count(), 1, "{both}");
    assert!(
        stdout(&o).contains("-- reply 1 of at most 3: the model declined"),
        "{both}"
    );
}

#[test]
fn ask_exits_2_with_one_line_on_bad_input_and_endpoint_errors() {
    let one_line = |o: &Output| {
        let err = stderr(o);
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
        err
    };
    let mut args = STORE_ASK.to_vec();
    args.push("q");
    // No model configured: say how to configure one.
    let o = run(&args, &[]);
    assert_status(&o, 2);
    let err = one_line(&o);
    assert!(
        err.contains("SURQLC_MODEL_URL") && err.contains("SURQLC_MODEL"),
        "{err}"
    );
    // The URL without a model name.
    let o = run(&args, &[("SURQLC_MODEL_URL", "http://127.0.0.1:9/v1")]);
    assert_status(&o, 2);
    assert!(one_line(&o).contains("SURQLC_MODEL is not"));
    // HTTP 401, 404 and 500 from the endpoint.
    for (status, expect) in [(401, "HTTP 401"), (404, "HTTP 404"), (500, "HTTP 500")] {
        let url = model(vec![Reply::status(status, r#"{"error": {"message": "nope"}}"#)]);
        let env = model_env(&url);
        let o = run(&args, &with(&env));
        assert_status(&o, 2);
        let err = one_line(&o);
        assert!(err.contains(expect) && err.contains("nope"), "{err}");
    }
    // Nothing listening.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let env = model_env(&format!("http://127.0.0.1:{port}/v1"));
    let o = run(&args, &with(&env));
    assert_status(&o, 2);
    assert!(one_line(&o).contains("cannot reach"));
    // A timeout: a listener that never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let mut env = model_env(&format!("http://{}/v1", silent.local_addr().unwrap()));
    env.push(("SURQLC_MODEL_TIMEOUT", "0.5".to_owned()));
    let o = run(&args, &with(&env));
    assert_status(&o, 2);
    assert!(one_line(&o).contains("did not answer within"));
    // An embedding of the wrong length for examples(dimension = 4).
    let url = model(vec![Reply::status(
        200,
        r#"{"data": [{"embedding": [0.1, 0.2, 0.3]}]}"#,
    )]);
    let mut env = model_env(&url);
    env.push(("SURQLC_EMBED_MODEL", "standin-embed".to_owned()));
    let o = run(&args, &with(&env));
    assert_status(&o, 2);
    let err = one_line(&o);
    assert!(
        err.contains("returned 3 values") && err.contains("dimension = 4"),
        "{err}"
    );
    // A --vector of the wrong length.
    let url = model(vec![Reply::chat("SELECT 1")]);
    let env = model_env(&url);
    let mut bad = args.clone();
    bad.extend(["--vector", "1,2"]);
    let o = run(&bad, &with(&env));
    assert_status(&o, 2);
    assert!(one_line(&o).contains("dimension = 4"));
}

fn eval_json(schema: &str, candidates: &str) -> serde_json::Value {
    let o = run(
        &[
            "eval",
            &format!("schemas/{schema}.rs"),
            "--seed",
            &format!("schemas/{schema}.seed.surql"),
            "--golden",
            &format!("schemas/{schema}.golden.jsonl"),
            "--candidates",
            candidates,
            "--format",
            "json",
        ],
        &[],
    );
    assert_status(&o, 0);
    json(&o)
}

/// The reason each missed question gave, by question.
fn missed(report: &serde_json::Value) -> Vec<(String, String)> {
    report["questions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| q["correct"] == false)
        .map(|q| {
            (
                q["question"].as_str().unwrap().to_owned(),
                q["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn eval_judges_candidates_by_their_rows() {
    // tests/eval/store.candidates.jsonl: right answers written differently (SELECT VALUE, other
    // names and field order, a fenced reply), two wrong results, an invalid query, a refusal, a gap.
    let report = eval_json("store", "tests/eval/store.candidates.jsonl");
    assert_eq!(report["total"], 13);
    assert_eq!(report["correct"], 8);
    assert_eq!(report["questions"].as_array().unwrap().len(), 13);
    for q in report["questions"].as_array().unwrap() {
        for key in [
            "question",
            "correct",
            "candidate",
            "reason",
            "attempts",
            "prompt_tokens",
        ] {
            assert!(q.get(key).is_some(), "{key} in {q}");
        }
    }
    let misses = missed(&report);
    let reason = |question: &str| {
        misses
            .iter()
            .find(|(q, _)| q == question)
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| panic!("{question} is a miss: {misses:?}"))
    };
    assert!(reason("Which category earns us the most money?").starts_with("wrong result"));
    assert_eq!(
        reason("List the audio products from cheapest to most expensive."),
        "wrong result: the gold rows, in another order"
    );
    assert!(reason("How many orders were cancelled?").starts_with("invalid: error[SQ0101 UnknownTable]"));
    assert!(reason("What did Sam Carter buy?").starts_with("refused: cannot answer"));
    assert_eq!(
        reason("How much revenue did shipped orders bring in each month?"),
        "no candidate for this question"
    );
    assert_eq!(misses.len(), 5);

    let report = eval_json("meetings", "tests/eval/meetings.candidates.jsonl");
    assert_eq!(
        (report["total"].as_u64(), report["correct"].as_u64()),
        (Some(12), Some(9))
    );
    let misses = missed(&report);
    assert!(
        misses
            .iter()
            .any(|(_, r)| r.starts_with("invalid: error[SQ0901 UnknownRecord]")),
        "{misses:?}"
    );
    assert!(misses.iter().any(|(_, r)| r.starts_with("refused")), "{misses:?}");
    assert!(misses.iter().any(|(_, r)| r.starts_with("wrong result")), "{misses:?}");

    // The gold queries as their own candidates: everything right.
    let report = eval_json("memory", "schemas/memory.golden.jsonl");
    assert_eq!(report["correct"], report["total"]);
    assert_eq!(report["accuracy"], 1.0);
}

#[test]
fn eval_text_prints_accuracy_repairs_tokens_and_a_line_per_miss() {
    let o = run(
        &[
            "eval",
            "schemas/store.rs",
            "--seed",
            "schemas/store.seed.surql",
            "--golden",
            "schemas/store.golden.jsonl",
            "--candidates",
            "tests/eval/store.candidates.jsonl",
        ],
        &[],
    );
    assert_status(&o, 0);
    let text = stdout(&o);
    assert!(text.starts_with("execution accuracy: 8/13 (61.5%)"), "{text}");
    assert!(text.contains("repairs used: 0"), "{text}");
    assert!(text.contains("prompt tokens per question (o200k_base)"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("miss: ")).count(), 5, "{text}");
}

#[test]
fn eval_asks_the_model_when_no_candidates_are_given() {
    // Without a model: exit 2, saying how to configure one.
    let args = [
        "eval",
        "schemas/meetings.rs",
        "--seed",
        "schemas/meetings.seed.surql",
        "--golden",
        "schemas/meetings.golden.jsonl",
        "--format",
        "json",
    ];
    let o = run(&args, &[]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("SURQLC_MODEL_URL"), "{}", stderr(&o));
    // A stand-in that answers every question with the same wrong table first, then one query:
    // each question takes 2 attempts (1 repair) and only the questions that query answers are right.
    let url = model(vec![
        Reply::chat("SELECT * FROM meetings LIMIT 5"),
        Reply::chat("SELECT title FROM meeting ORDER BY time DESC LIMIT 1"),
    ]);
    let env = model_env(&url);
    let o = run(&args, &with(&env));
    assert_status(&o, 0);
    let report = json(&o);
    assert_eq!(report["total"], 12);
    let questions = report["questions"].as_array().unwrap();
    assert_eq!(questions[0]["attempts"], 2);
    assert_eq!(
        report["repairs"], 1,
        "the stand-in repairs once, then repeats its last reply"
    );
    let right: Vec<&str> = questions
        .iter()
        .filter(|q| q["correct"] == true)
        .map(|q| q["question"].as_str().unwrap())
        .collect();
    assert_eq!(right, ["What was the title of the most recent meeting?"]);
}

#[test]
fn eval_refuses_a_bad_golden_file_with_its_position() {
    let dir = std::env::temp_dir().join(format!("surqlc-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let golden = dir.join("bad.jsonl");
    std::fs::write(
        &golden,
        "{\"question\": \"q\", \"query\": \"SELECT name FROM customer LIMIT 5\"}\n{\"question\": \"q2\"\n",
    )
    .unwrap();
    let golden_arg = golden.to_string_lossy().into_owned();
    let args = [
        "eval",
        "schemas/store.rs",
        "--golden",
        &golden_arg,
        "--candidates",
        &golden_arg,
    ];
    let o = run(&args, &[]);
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains(&format!("{}:2:", golden.display())),
        "{}",
        stderr(&o)
    );
    // A gold query that does not validate: the golden file is wrong, exit 2 naming its line.
    std::fs::write(
        &golden,
        "{\"question\": \"q\", \"query\": \"SELECT email FROM customer LIMIT 5\"}\n",
    )
    .unwrap();
    let o = run(&args, &[]);
    assert_status(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{}:1:", golden.display())) && err.contains("gold query"),
        "{err}"
    );
    let o = run(&["eval", "schemas/store.rs", "--golden", "missing.jsonl"], &[]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("cannot read missing.jsonl"));
}

#[test]
fn eval_takes_several_gold_answers_and_compares_unsorted_arrays_as_multisets() {
    let dir = std::env::temp_dir().join(format!("surqlc-eval-alt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let golden = dir.join("golden.jsonl");
    let candidates = dir.join("candidates.jsonl");
    let line = |question: &str, query: serde_json::Value| {
        serde_json::json!({"question": question, "query": query}).to_string()
    };
    let pro_names = "SELECT name FROM customer WHERE tier = 'pro' LIMIT 50";
    let pro_tiers = "SELECT name, tier FROM customer WHERE tier = 'pro' LIMIT 50";
    // Every category has two or more products, so a descending array is another order.
    let statuses = "SELECT category, array::group(name) AS names FROM product GROUP BY category LIMIT 50";
    let sorted = "SELECT category, array::sort(array::group(name)) AS names FROM product GROUP BY category LIMIT 50";
    let reversed =
        "SELECT category, array::sort::desc(array::group(name)) AS n FROM product GROUP BY category LIMIT 50";
    std::fs::write(
        &golden,
        [
            line("Who is on the pro tier?", serde_json::json!([pro_names, pro_tiers])),
            line("Who is on the pro tier, again?", serde_json::json!([pro_names])),
            line("Which products are in each category?", serde_json::json!(statuses)),
            line(
                "Which products are in each category, sorted?",
                serde_json::json!(sorted),
            ),
        ]
        .join("\n"),
    )
    .unwrap();
    std::fs::write(
        &candidates,
        [
            line("Who is on the pro tier?", serde_json::json!(pro_tiers)),
            line("Who is on the pro tier, again?", serde_json::json!(pro_tiers)),
            line("Which products are in each category?", serde_json::json!(reversed)),
            line(
                "Which products are in each category, sorted?",
                serde_json::json!(reversed),
            ),
        ]
        .join("\n"),
    )
    .unwrap();
    let (golden_arg, candidates_arg) = (
        golden.to_string_lossy().into_owned(),
        candidates.to_string_lossy().into_owned(),
    );
    let args = [
        "eval",
        "schemas/store.rs",
        "--seed",
        "schemas/store.seed.surql",
        "--golden",
        &golden_arg,
        "--candidates",
        &candidates_arg,
        "--format",
        "json",
    ];
    let o = run(&args, &[]);
    assert_status(&o, 0);
    let report = json(&o);
    let verdicts: Vec<bool> = report["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["correct"].as_bool().unwrap())
        .collect();
    // The second gold answer matches; the same candidate against the first alone does not; a
    // reversed array is right where the gold does not sort it, wrong where it does.
    assert_eq!(verdicts, [true, false, true, false], "{report:#}");
    // A list in a candidates file is refused with its position.
    std::fs::write(&candidates, line("q", serde_json::json!([pro_names, pro_tiers]))).unwrap();
    let o = run(&args, &[]);
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains(&format!("{}:1: a candidate is one query", candidates.display())),
        "{}",
        stderr(&o)
    );
}

/// `--as customer:mei`: the prompt and the query run in mei's session (the store's scope), so the
/// same question and reply give her orders only; the prompt names no other customer. The model is
/// the local stand-in.
#[test]
fn ask_as_a_customer_answers_from_their_rows_only() {
    let url = model(vec![Reply::chat(
        "SELECT id, status FROM purchase ORDER BY id LIMIT 50",
    )]);
    let env = model_env(&url);
    let mut args = STORE_ASK.to_vec();
    args.extend(["Which orders did I place?", "--format", "json", "--as", "customer:mei"]);
    let o = run(&args, &[&with(&env)[..], &[SCOPE_KEY]].concat());
    assert_status(&o, 0);
    let answer = json(&o);
    assert_eq!(
        answer["rows"],
        serde_json::json!([{"id": "purchase:p1", "status": "shipped"}, {"id": "purchase:p6", "status": "shipped"}])
    );
    let prompt = answer["prompt"].as_str().expect("the prompt");
    assert!(prompt.contains("You answer for one signed-in customer"), "{prompt}");
    for other in ["Omar", "Sam Carter", "customer.country: DE"] {
        assert!(!prompt.contains(other), "{other} in mei's prompt:\n{prompt}");
    }
    // A user of another table, or a schema without a scope, is refused before anything runs.
    let mut wrong = STORE_ASK.to_vec();
    wrong.extend(["Which orders did I place?", "--as", "product:buds"]);
    let o = run(&wrong, &[&with(&env)[..], &[SCOPE_KEY]].concat());
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains("name a row of the end-user table `customer`"),
        "{}",
        stderr(&o)
    );
}

/// `eval --as`: gold and candidate both run in the customer's session.
#[test]
fn eval_as_a_customer_runs_gold_and_candidate_as_them() {
    let dir = std::env::temp_dir().join(format!("surqlc-eval-as-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gold = dir.join("gold.jsonl");
    let candidates = dir.join("candidates.jsonl");
    std::fs::write(
        &gold,
        "{\"question\": \"Which orders are mine?\", \"query\": \"SELECT id FROM purchase ORDER BY id LIMIT 50\"}\n",
    )
    .unwrap();
    std::fs::write(&candidates, "{\"question\": \"Which orders are mine?\", \"query\": \"SELECT id FROM purchase WHERE <-placed<-customer CONTAINS $auth ORDER BY id LIMIT 50\"}\n").unwrap();
    let args = |extra: &[&'static str]| {
        let mut a: Vec<String> = [
            "eval",
            "schemas/store.rs",
            "--seed",
            "schemas/store.seed.surql",
            "--format",
            "json",
            "--golden",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.push(gold.display().to_string());
        a.push("--candidates".into());
        a.push(candidates.display().to_string());
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let scoped = args(&["--as", "customer:mei"]);
    let o = run(&scoped.iter().map(String::as_str).collect::<Vec<_>>(), &[SCOPE_KEY]);
    assert_status(&o, 0);
    assert_eq!(json(&o)["correct"], 1, "{}", stdout(&o));
    // As the agent, the gold query reads every order and the candidate none.
    let whole = args(&[]);
    let o = run(&whole.iter().map(String::as_str).collect::<Vec<_>>(), &[]);
    assert_eq!(json(&o)["correct"], 0, "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).ok();
}

/// `check-query --as`: the data checks see what the customer may read.
#[test]
fn check_query_as_a_customer_checks_ids_in_their_session() {
    let query = "SELECT * FROM purchase:p2 LIMIT 5";
    let base = [
        "check-query",
        "schemas/store.rs",
        query,
        "--seed",
        "schemas/store.seed.surql",
    ];
    assert_status(&run(&base, &[]), 0);
    // Without the scope key `--as` does not start.
    let o = run(&[&base[..], &["--as", "customer:mei"]].concat(), &[]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("set SURQLC_SCOPE_KEY"), "{}", stderr(&o));
    let o = run(&[&base[..], &["--as", "customer:mei"]].concat(), &[SCOPE_KEY]);
    assert_status(&o, 1);
    assert!(
        stdout(&o).contains("look like purchase:p1, purchase:p6"),
        "{}",
        stdout(&o)
    );
    let o = run(
        &["check-query", "schemas/store.rs", query, "--as", "customer:mei"],
        &[SCOPE_KEY],
    );
    assert_status(&o, 2);
    // `FROM $auth` is the customer's own row in their session.
    let o = run(
        &[
            "check-query",
            "schemas/store.rs",
            "SELECT ->placed->purchase AS orders FROM $auth LIMIT 5",
            "--seed",
            "schemas/store.seed.surql",
            "--as",
            "customer:mei",
        ],
        &[SCOPE_KEY],
    );
    assert_status(&o, 0);
}

/// `surqlc build` of a scoped schema says when the per-user access is left out for want of a key.
#[test]
fn build_says_when_the_per_user_access_is_not_defined() {
    let out = std::env::temp_dir().join(format!("surqlc-build-scope-{}", std::process::id()));
    let args = ["build", "schemas/clinic.rs", "--out", out.to_str().unwrap()];
    let o = run(&args, &[]);
    assert_status(&o, 0);
    assert!(
        stderr(&o).contains("SURQLC_SCOPE_KEY is not set, so the per-user access `owner_agent` is not defined"),
        "{}",
        stderr(&o)
    );
    assert!(!std::fs::read_to_string(out.join("schema.surql"))
        .unwrap()
        .contains("DEFINE ACCESS OVERWRITE owner_agent"));
    let o = run(&args, &[SCOPE_KEY]);
    assert_status(&o, 0);
    assert!(!stderr(&o).contains("SURQLC_SCOPE_KEY"), "{}", stderr(&o));
    let surql = std::fs::read_to_string(out.join("schema.surql")).unwrap();
    assert!(
        surql.contains("DEFINE ACCESS OVERWRITE owner_agent"),
        "the access is defined"
    );
    std::fs::remove_dir_all(&out).ok();
}
