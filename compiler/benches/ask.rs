//! Times `ask`'s own cost per question, everything but the model: the prompt from the database's
//! functions, validation, the data checks and the run as the agent. The model is a scripted double
//! that answers at once with the golden set's query (and, for the repair figure, a wrong one first).
//!
//! Run with `cargo bench -p surqlc --features mcp,model,check-expr --bench ask` (release).

#[path = "../../cli/src/allocator.rs"]
mod allocator;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use surqlc::runtime::ask::{Asker, Message, Model, ModelError, Status};
use surqlc::runtime::eval;

/// A test double for a model: the gold query for the question in the prompt, after `wrong_first`
/// replies naming a table that does not exist.
struct Scripted<'a> {
    golden: &'a [eval::Item],
    wrong_first: usize,
    calls: AtomicUsize,
}

impl Model for Scripted<'_> {
    async fn complete(&self, messages: &[Message]) -> Result<String, ModelError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        if messages.len() / 2 < self.wrong_first {
            return Ok("SELECT * FROM no_such_table LIMIT 5".to_owned());
        }
        let prompt = &messages[0].content;
        let item = self
            .golden
            .iter()
            .find(|g| prompt.contains(&format!("QUESTION\n{}\n", g.question)))
            .expect("a golden question");
        Ok(item.query.clone())
    }
}

fn main() {
    allocator::keep_freed_memory();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    println!(
        "{:<12} {:>9} {:>13} {:>13} {:>13} {:>13}",
        "schema", "questions", "1 reply ms", "p90 ms", "1 repair ms", "prompt ms"
    );
    for name in ["store", "enterprise"] {
        let mut builder = surqlc::Builder::new();
        builder
            .schema(root.join(format!("schemas/{name}.rs")))
            .cargo_metadata(false)
            .agent_password("bench-password");
        let output = builder.generate().expect("the schema compiles");
        let seed = std::fs::read_to_string(root.join(format!("schemas/{name}.seed.surql"))).expect("seed");
        let golden = eval::read_jsonl(
            &std::fs::read_to_string(root.join(format!("schemas/{name}.golden.jsonl"))).expect("golden"),
        )
        .expect("golden reads");
        let target = surqlc::db::Target {
            database: output.schema.name.clone(),
            ..Default::default()
        };
        runtime.block_on(async {
            let db = surqlc::schema_db::open(&output, &target).await.expect("schema");
            surqlc::db::execute(&db, &seed).await.expect("seed");
            let agent = surqlc::schema_db::signin_agent(&db, &output.schema, &target, "bench-password")
                .await
                .expect("agent");
            let schema = &output.schema;
            let questions = &golden;
            let time = |wrong_first: usize, rounds: usize| {
                let model = Scripted {
                    golden: questions,
                    wrong_first,
                    calls: AtomicUsize::new(0),
                };
                let (db, agent) = (&db, &agent);
                async move {
                    let mut each = Vec::new();
                    for _ in 0..rounds {
                        for item in questions {
                            let start = Instant::now();
                            let answer = Asker::new(db, agent, schema, &model)
                                .ask(&item.question)
                                .await
                                .expect("ask");
                            each.push(start.elapsed().as_secs_f64() * 1e3);
                            assert_eq!(answer.status, Status::Answered, "{}", item.question);
                            assert_eq!(answer.attempts.len(), wrong_first + 1);
                        }
                    }
                    each.sort_by(f64::total_cmp);
                    let mean = each.iter().sum::<f64>() / each.len() as f64;
                    let p90 = each[each.len() * 9 / 10];
                    (mean, p90)
                }
            };
            // Warm up the engine's caches and the allocator.
            time(0, 1).await;
            let (one, p90) = time(0, 5).await;
            let (repair, _) = time(1, 3).await;
            let start = Instant::now();
            let n = 5;
            for _ in 0..n {
                for item in &golden {
                    std::hint::black_box(
                        surqlc::runtime::ask::prompt(&db, schema, &item.question, None)
                            .await
                            .expect("prompt"),
                    );
                }
            }
            let prompt = start.elapsed().as_secs_f64() * 1e3 / (n * golden.len()) as f64;
            println!(
                "{:<12} {:>9} {:>13.2} {:>13.2} {:>13.2} {:>13.2}",
                name,
                golden.len(),
                one,
                p90,
                repair,
                prompt
            );
        });
    }
}
