//! The agent loop (`surqlc::runtime::ask`) with a scripted model: a test double that replies as a model would, so the loop's own behaviour is what is checked (repair turns, the attempt bound, the early stop, the prompt it starts from).

use std::sync::Mutex;
use surqlc::builder::Output;
use surqlc::db::{Db, Target};
use surqlc::runtime::ask::{
    self, Answer, AskError, Asker, Embedder, Examples, Message, Model, ModelError, ModelErrorKind, Role, Status,
};
use surqlc::runtime::Agent;
use surqlc_tests::*;

const PASSWORD: &str = "ask-test-password";

/// `schemas/NAME.rs` applied to a fresh embedded database with `schemas/NAME.seed.surql`, and the agent signed in.
pub async fn opened(schema: &std::path::Path, seed: Option<&str>) -> (Output, Db, Agent<surrealdb::engine::any::Any>) {
    let mut b = surqlc::Builder::new();
    b.schema(schema).cargo_metadata(false).agent_password(PASSWORD);
    let output = b.generate().expect("the schema compiles");
    let target = Target {
        database: output.schema.name.clone(),
        ..Target::default()
    };
    let conn = surqlc::schema_db::open(&output, &target).await.expect("schema applies");
    if let Some(seed) = seed {
        surqlc::db::execute(&conn, seed).await.expect("seed loads");
    }
    let agent = surqlc::schema_db::signin_agent(&conn, &output.schema, &target, PASSWORD)
        .await
        .expect("the agent signs in");
    (output, conn, agent)
}

pub async fn example(name: &str) -> (Output, Db, Agent<surrealdb::engine::any::Any>) {
    let seed = read(root().join(format!("schemas/{name}.seed.surql")));
    opened(&root().join(format!("schemas/{name}.rs")), Some(&seed)).await
}

/// A test double for a model: it answers `repair` once the last turn carries `trigger` (the
/// validator's message), `first` otherwise, and records every conversation it was sent.
struct Scripted {
    first: String,
    repair: String,
    trigger: String,
    seen: Mutex<Vec<Vec<Message>>>,
}

impl Scripted {
    fn new(first: &str, repair: &str, trigger: &str) -> Self {
        Scripted {
            first: first.into(),
            repair: repair.into(),
            trigger: trigger.into(),
            seen: Mutex::new(Vec::new()),
        }
    }

    fn calls(&self) -> Vec<Vec<Message>> {
        self.seen.lock().unwrap().clone()
    }
}

impl Model for Scripted {
    async fn complete(&self, messages: &[Message]) -> Result<String, ModelError> {
        self.seen.lock().unwrap().push(messages.to_vec());
        let last = messages.last().map(|m| m.content.as_str()).unwrap_or_default();
        Ok(if messages.len() > 1 && last.contains(&self.trigger) {
            self.repair.clone()
        } else {
            self.first.clone()
        })
    }
}

/// A test double for an embedding model: always the same vector.
struct FixedEmbedder(Vec<f64>);

impl Embedder for FixedEmbedder {
    async fn embed(&self, _text: &str) -> Result<Vec<f64>, ModelError> {
        Ok(self.0.clone())
    }
}

fn names(answer: &Answer, field: &str) -> Vec<String> {
    let mut names: Vec<String> = answer
        .rows
        .iter()
        .map(|r| r[field].as_str().unwrap_or_default().to_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_silent_failure_is_repaired_once_the_model_reads_the_validators_message() {
    block_on(async {
        let (output, db, agent) = example("store").await;
        // The meeting-notes agent's silent failure: a field the table does not have, which the
        // engine would answer with NONE and no error. The double repairs it only when it is sent
        // the validator's diagnostic naming the field.
        let model = Scripted::new(
            "```surql\nSELECT name FROM customer WHERE level = 'pro' LIMIT 50;\n```",
            "SELECT name FROM customer WHERE tier = 'pro' LIMIT 50;",
            "`level`",
        );
        let answer = Asker::new(&db, &agent, &output.schema, &model)
            .ask("Which customers are on the pro tier?")
            .await
            .expect("the loop runs");
        assert_eq!(answer.status, Status::Answered, "{answer:#?}");
        assert_eq!(
            answer.query.as_deref(),
            Some("SELECT name FROM customer WHERE tier = 'pro' LIMIT 50;")
        );
        assert_eq!(names(&answer, "name"), ["Mei Tanaka", "Sam Carter"]);
        assert_eq!(answer.attempts.len(), 2);
        assert_eq!(answer.repairs(), 1);
        assert!(
            answer.attempts[0]
                .problems
                .iter()
                .any(|p| p.contains("`level`") && p.contains("tier")),
            "the first attempt's problems name the field and its fix: {:?}",
            answer.attempts[0].problems
        );
        assert!(answer.attempts[1].problems.is_empty());
        // The repair is the next turn of the same conversation: prompt, reply, the validator's text.
        let calls = model.calls();
        assert_eq!(calls.len(), 2);
        let second = &calls[1];
        assert_eq!(
            second.iter().map(|m| m.role).collect::<Vec<_>>(),
            [Role::User, Role::Assistant, Role::User]
        );
        assert_eq!(second[0].content, answer.prompt);
        assert!(second[0]
            .content
            .contains("QUESTION\nWhich customers are on the pro tier?"));
        assert_eq!(second[1].content, answer.attempts[0].reply);
        for problem in &answer.attempts[0].problems {
            assert!(
                second[2].content.contains(problem),
                "{problem} in {}",
                second[2].content
            );
        }
        // Serialisable for a server or a log, with the names the CLI's JSON uses.
        let json = serde_json::to_value(&answer).unwrap();
        for key in ["query", "rows", "attempts", "warnings", "status"] {
            assert!(json.get(key).is_some(), "{key} in {json}");
        }
        assert_eq!(json["attempts"][0]["reply"], answer.attempts[0].reply.as_str());
    });
}

#[test]
fn the_loop_stops_at_the_first_cannot_answer() {
    block_on(async {
        let (output, db, agent) = example("store").await;
        let model = Scripted::new("-- cannot answer: the schema has no stock levels", "SELECT 1", "never");
        let answer = Asker::new(&db, &agent, &output.schema, &model)
            .attempts(5)
            .ask("How many soundbars are left in the warehouse?")
            .await
            .unwrap();
        assert_eq!(answer.status, Status::CannotAnswer);
        assert_eq!(answer.reason.as_deref(), Some("the schema has no stock levels"));
        assert_eq!(answer.attempts.len(), 1);
        assert_eq!(model.calls().len(), 1, "no second turn after cannot answer");
        assert!(answer.query.is_none() && answer.rows.is_empty());
    });
}

#[test]
fn the_attempts_are_bounded() {
    block_on(async {
        let (output, db, agent) = example("store").await;
        for (bound, expected) in [(None, ask::DEFAULT_ATTEMPTS as usize), (Some(2), 2), (Some(1), 1)] {
            // A double that never repairs: the same unknown table every time.
            let model = Scripted::new("SELECT * FROM stock LIMIT 5", "unused", "never matches");
            let mut asker = Asker::new(&db, &agent, &output.schema, &model);
            if let Some(n) = bound {
                asker = asker.attempts(n);
            }
            let answer = asker.ask("What is in stock?").await.unwrap();
            assert_eq!(answer.status, Status::NoValidQuery);
            assert_eq!(answer.attempts.len(), expected);
            assert_eq!(model.calls().len(), expected);
            assert!(answer.attempts.iter().all(|a| !a.problems.is_empty()));
            // Each repair turn adds the reply and the problems: 1, 3, 5 ... messages.
            let lengths: Vec<usize> = model.calls().iter().map(Vec::len).collect();
            assert_eq!(lengths, (0..expected).map(|n| 1 + 2 * n).collect::<Vec<_>>());
        }
        let model = Scripted::new("SELECT 1", "", "");
        let zero = Asker::new(&db, &agent, &output.schema, &model)
            .attempts(0)
            .ask("q")
            .await;
        assert!(matches!(zero, Err(AskError::Input(_))), "{zero:?}");
    });
}

#[test]
fn an_empty_result_the_data_checks_explain_is_sent_back_for_a_repair() {
    let schema = schema_file(
        "ask_towns",
        r#"
use surqlc_macros::{Schema, Table};
#[derive(Schema)]
#[surqlc(expose(Shop), value_hints(Shop::city), examples(dimension = 2))]
pub struct Towns;
#[derive(Table)]
pub struct Shop {
    pub name: String,
    pub city: String,
}
"#,
    );
    block_on(async {
        let (output, db, agent) = opened(
            &schema,
            Some(
                "CREATE shop:1 SET name = 'Bakery', city = 'Lisbon'; CREATE shop:2 SET name = 'Books', city = 'Porto';",
            ),
        )
        .await;
        // The value is not in the data: the query runs, returns nothing, and the data check's
        // warning lists the values present. The double fixes the spelling once it sees them.
        let model = Scripted::new(
            "SELECT name FROM shop WHERE city = 'lisbon' LIMIT 10",
            "SELECT name FROM shop WHERE city = 'Lisbon' LIMIT 10",
            "'Lisbon'",
        );
        let answer = Asker::new(&db, &agent, &output.schema, &model)
            .ask("Which shops are in Lisbon?")
            .await
            .unwrap();
        assert_eq!(answer.status, Status::Answered);
        assert_eq!(answer.attempts.len(), 2, "{answer:#?}");
        assert!(
            answer.attempts[0].problems[0].contains("ValueNotPresent"),
            "{answer:#?}"
        );
        assert_eq!(names(&answer, "name"), ["Bakery"]);
        // On the last attempt the empty result stands: it is a valid query's answer.
        let model = Scripted::new("SELECT name FROM shop WHERE city = 'lisbon' LIMIT 10", "", "never");
        let answer = Asker::new(&db, &agent, &output.schema, &model)
            .attempts(1)
            .ask("q")
            .await
            .unwrap();
        assert_eq!(answer.status, Status::Answered);
        assert!(answer.rows.is_empty() && !answer.warnings.is_empty());
    });
}

#[test]
fn the_prompt_comes_from_the_databases_functions_with_or_without_examples() {
    block_on(async {
        let (output, db, agent) = example("store").await;
        let question = "Which category earns us the most money?";
        let vector = vec![0.92, 0.0, 0.4, 0.0];
        let model = Scripted::new("-- cannot answer: x", "", "never");
        let expected: Option<String> = db
            .query("RETURN fn::nl2surql_prompt($q, $v)")
            .bind(("q", question))
            .bind(("v", vector.clone()))
            .await
            .unwrap()
            .take(0)
            .unwrap();
        let expected = expected.unwrap();
        assert!(expected.contains("ex_category_revenue") || expected.contains("GROUP BY category"));
        // A given vector: exactly the database's prompt.
        let given = Asker::new(&db, &agent, &output.schema, &model)
            .vector(Some(vector.clone()))
            .ask(question)
            .await
            .unwrap();
        assert_eq!(given.examples, Examples::Given);
        assert_eq!(given.prompt, expected);
        // An embedder's vector: the same.
        let embedder = FixedEmbedder(vector.clone());
        let embedded = Asker::new(&db, &agent, &output.schema, &model)
            .embedder(&embedder)
            .ask(question)
            .await
            .unwrap();
        assert_eq!(embedded.examples, Examples::Embedded);
        assert_eq!(embedded.prompt, expected);
        // Neither: the same prompt with the examples its words choose, and the answer says so.
        let none = Asker::new(&db, &agent, &output.schema, &model)
            .ask(question)
            .await
            .unwrap();
        assert_eq!(none.examples, Examples::Words);
        assert!(!none.prompt.contains("EXAMPLES\n\n\nQUESTION\n"), "{}", none.prompt);
        let head = |p: &str| p.split("EXAMPLES\n").next().unwrap().to_owned();
        assert_eq!(head(&none.prompt), head(&expected));
        // A vector of the wrong length is refused before anything is asked.
        let wrong = Asker::new(&db, &agent, &output.schema, &model)
            .vector(Some(vec![1.0]))
            .ask(question)
            .await;
        assert!(
            matches!(&wrong, Err(AskError::Input(m)) if m.contains("dimension = 4")),
            "{wrong:?}"
        );
        let short = FixedEmbedder(vec![1.0, 0.0]);
        let wrong = Asker::new(&db, &agent, &output.schema, &model)
            .embedder(&short)
            .ask(question)
            .await;
        assert!(
            matches!(&wrong, Err(AskError::Model(e)) if e.kind == ModelErrorKind::Dimension && e.message.contains("returned 2 values")),
            "{wrong:?}"
        );
    });
}

#[test]
fn a_pruned_schema_asks_with_the_pruned_prompt() {
    block_on(async {
        let (output, db, agent) = example("enterprise").await;
        assert!(output.schema.settings.prune.is_some());
        let question = "Which invoices are overdue?";
        let model = Scripted::new(
            "SELECT invoice_number FROM invoice WHERE status = 'overdue' LIMIT 50",
            "",
            "never",
        );
        let answer = Asker::new(&db, &agent, &output.schema, &model)
            .ask(question)
            .await
            .unwrap();
        assert_eq!(answer.status, Status::Answered);
        assert_eq!(answer.rows, [serde_json::json!({"invoice_number": "INV-9002"})]);
        let full = ask::prompt(&db, &output.schema, question, None).await.unwrap();
        assert_eq!(answer.prompt, full);
        let unpruned: Option<String> = db
            .query("RETURN fn::nl2surql_prompt($q, $v)")
            .bind(("q", question))
            .bind(("v", vec![0.0; 256]))
            .await
            .unwrap()
            .take(0)
            .unwrap();
        assert!(
            answer.prompt.len() * 3 < unpruned.unwrap().len(),
            "the pruned prompt is a fraction of the whole"
        );
        assert!(answer.prompt.contains("DEFINE TABLE invoice"));
        assert!(!answer.prompt.contains("DEFINE TABLE payroll_run"));
    });
}

/// An MCP server or a web handler awaits `ask` on a multi-threaded runtime: its future is `Send`.
#[allow(dead_code)]
fn the_ask_future_is_send(asker: &Asker<'_, surrealdb::engine::any::Any, Scripted, FixedEmbedder>) {
    fn send<T: Send>(_: &T) {}
    let future = asker.ask("q");
    send(&future);
}

#[test]
fn the_repair_turn_carries_the_validators_machine_applicable_fix() {
    block_on(async {
        let (output, db, agent) = example("store").await;
        // A typo'd table: the validator knows the replacement, and the repair turn says it as
        // `help: replace ... with ...`; the double repairs only when it reads that line.
        let model = Scripted::new(
            "SELECT name FROM customers WHERE tier = 'pro' LIMIT 50;",
            "SELECT name FROM customer WHERE tier = 'pro' LIMIT 50;",
            "help: replace `customers` with `customer`",
        );
        let answer = Asker::new(&db, &agent, &output.schema, &model)
            .ask("Which customers are on the pro tier?")
            .await
            .expect("the loop runs");
        assert_eq!(answer.status, Status::Answered, "{answer:#?}");
        assert_eq!(answer.repairs(), 1);
        assert!(model.calls()[1][2]
            .content
            .contains("help: replace `customers` with `customer`"));
    });
}

/// A model that writes a date-relative query only when its prompt says what it needs to: today's
/// date (UTC), how SurrealQL writes relative dates, and which dates the data covers.
struct DateAware {
    today: String,
    query: String,
}

impl Model for DateAware {
    async fn complete(&self, messages: &[Message]) -> Result<String, ModelError> {
        let prompt: String = messages.iter().map(|m| m.content.as_str()).collect();
        let told = prompt.contains(&format!("Today is {} (UTC).", self.today))
            && prompt.contains("\"this year\" is >= time::group(time::now(), 'year')")
            && prompt.contains("purchase.placed_at span: 2025-07-01 to 2025-");
        Ok(if told {
            self.query.clone()
        } else {
            "-- cannot answer: the prompt does not say which year it is".into()
        })
    }
}

/// Issue 41, item 2: the golden set's relative-date question runs right with a scripted model,
/// because the prompt states today's date (per call, from the engine's clock), the rule for
/// relative dates and each datetime field's span.
#[test]
fn a_relative_date_question_runs_right_with_todays_date_and_the_spans_in_the_prompt() {
    block_on(async {
        let (output, db, agent) = example("store").await;
        let golden = surqlc::runtime::eval::read_jsonl(&read(root().join("schemas/store.golden.jsonl"))).unwrap();
        let item = golden
            .iter()
            .find(|g| g.question.contains("before this year"))
            .expect("the golden set's relative-date question");
        let today = surqlc::db::query_string(&db, "RETURN time::format(time::now(), '%Y-%m-%d')")
            .await
            .unwrap();
        let model = DateAware {
            today,
            query: item.query.clone(),
        };
        let answer = Asker::new(&db, &agent, &output.schema, &model)
            .ask(&item.question)
            .await
            .unwrap();
        assert_eq!(answer.status, Status::Answered, "{answer:?}");
        assert_eq!(answer.query.as_deref(), Some(item.query.as_str()));
        assert_eq!(answer.rows.len(), 1, "{answer:?}");
        assert!(answer.rows[0]["orders"].as_i64() > Some(0), "{answer:?}");
    });
}

/// The engine behaviour the rule relies on: `time::group(dt, 'month' | 'year')` is the start of
/// the month or year; the month before a January is December; SurrealDB 3.3 has no month
/// duration (`1mo` does not parse); a datetime field with no rows gets no span line.
#[test]
fn relative_dates_on_the_engine_and_spans_only_with_data() {
    block_on(async {
        let db = loaded(&[]).await;
        let at = |q: &str| {
            let db = db.clone();
            let q = q.to_owned();
            async move {
                surqlc::db::query_string(&db, &format!("RETURN time::format({q}, '%Y-%m-%dT%H:%M:%S')"))
                    .await
                    .unwrap()
            }
        };
        assert_eq!(
            at("time::group(d'2026-03-15T10:20:00Z', 'month')").await,
            "2026-03-01T00:00:00"
        );
        assert_eq!(
            at("time::group(d'2026-03-15T10:20:00Z', 'year')").await,
            "2026-01-01T00:00:00"
        );
        let last_month = "time::group(time::group(d'2026-01-10T08:00:00Z', 'month') - 1d, 'month')";
        assert_eq!(at(last_month).await, "2025-12-01T00:00:00");
        assert!(db
            .query("RETURN time::now() - 1mo")
            .await
            .and_then(|r| r.check())
            .is_err());
        // The store's spans: a line per exposed datetime field with data, none for an empty table.
        let (_, store, _) = example("store").await;
        let hints = surqlc::db::query_string(&store, "RETURN fn::value_hints()")
            .await
            .unwrap();
        assert!(
            hints.contains("purchase.placed_at span: 2025-07-01 to 2025-"),
            "{hints}"
        );
        assert!(hints.contains("customer.joined span: "), "{hints}");
        surqlc::db::execute(&store, "DELETE purchase").await.unwrap();
        let hints = surqlc::db::query_string(&store, "RETURN fn::value_hints()")
            .await
            .unwrap();
        assert!(!hints.contains("purchase.placed_at span"), "{hints}");
    });
}
