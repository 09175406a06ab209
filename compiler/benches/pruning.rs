//! Question-specific pruning on the committed benchmark (`schemas/enterprise.rs`, its questions and data): per strategy, the share of questions whose schema block holds every table they need, the block's tokens, and the database's time per call.
//!
//! Run with `cargo bench -p surqlc --features codegen,tokens,db --bench pruning [-- BUDGET]`
//! (`--profile dev` to skip the release build of SurrealDB). Figures are in `docs/pruning.md`.

use std::time::Instant;
use surqlc::db::{self, Target};
use surqlc::prune_eval::{self, Strategy};

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let budget: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2000);
    let mut builder = surqlc::Builder::new();
    builder
        .schema(root.join("schemas/enterprise.rs"))
        .cargo_metadata(false);
    let output = builder.generate().unwrap_or_else(|e| panic!("{e}"));
    let schema = output.schema;
    let dimension = schema.settings.examples.dimension as usize;
    let questions = prune_eval::read_questions(
        &std::fs::read_to_string(root.join("schemas/enterprise.questions.json")).unwrap(),
    )
    .unwrap();
    let seed = std::fs::read_to_string(root.join("schemas/enterprise.seed.surql")).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let conn = db::connect(&Target::default()).await.unwrap();
        let started = Instant::now();
        db::execute(&conn, &output.schema_surql).await.unwrap();
        let load = started.elapsed();
        db::execute(&conn, &seed).await.unwrap();
        let started = Instant::now();
        prune_eval::store_hashed_embeddings(&conn, dimension)
            .await
            .unwrap();
        let embed = started.elapsed();
        let full = surqlc::tokens::Encoding::O200kBase.count(&surqlc::surql::info::schema_block(&schema));
        println!(
            "enterprise: {} tables, {} exposed, schema block {full} o200k tokens; {} questions; budget {budget}",
            schema.tables.len(),
            schema.settings.exposed.len(),
            questions.len()
        );
        println!("schema.surql loaded in {load:.2?}; hashed table embeddings stored in {embed:.2?}\n");
        println!("| strategy | questions with every needed table | needed tables found | tables shown (mean) | block tokens (mean / max) | time per call (mean / max) |");
        println!("| --- | --- | --- | --- | --- | --- |");
        let only = std::env::var("PRUNING_ONLY").unwrap_or_default();
        for strategy in Strategy::ALL.into_iter().filter(|s| s.name().contains(&only)) {
            // One warm-up call so the first question does not pay for cold caches.
            prune_eval::run(&conn, strategy, &questions[0], budget, dimension)
                .await
                .unwrap();
            let report = prune_eval::evaluate(&conn, strategy, &questions, budget, dimension)
                .await
                .unwrap();
            let (mean, max) = report.times();
            println!(
                "| {} | {:.1}% ({}/{}) | {:.1}% | {:.1} | {:.0} / {} | {:.1?} / {:.1?} |",
                strategy.name(),
                100.0 * report.recall(),
                report.outcomes.iter().filter(|o| o.missing.is_empty()).count(),
                questions.len(),
                100.0 * report.table_recall(&questions),
                report.mean_tables(),
                report.mean_tokens(),
                report.max_tokens(),
                mean,
                max
            );
            if std::env::var_os("PRUNING_MISSES").is_some() {
                for (q, o) in questions.iter().zip(&report.outcomes) {
                    if !o.missing.is_empty() {
                        eprintln!("  {}: {:?} misses {:?}", strategy.name(), q.question, o.missing);
                    }
                }
            }
        }
        // Whole prompts: the unpruned one against the one the schema's settings select, on a few questions.
        for (name, f) in [
            ("fn::nl2surql_prompt", "fn::nl2surql_prompt"),
            ("fn::nl2surql_prompt_pruned", "fn::nl2surql_prompt_pruned"),
        ] {
            let mut total = std::time::Duration::ZERO;
            let mut tokens = 0;
            let sample = &questions[..prune_eval::ALL_SAMPLES.min(questions.len())];
            for q in sample {
                let started = Instant::now();
                let mut r = conn
                    .query(format!("RETURN {f}($q, $v)"))
                    .bind(("q", q.question.clone()))
                    .bind(("v", surqlc::prune::hashed_embedding(&q.question, dimension)))
                    .await
                    .unwrap()
                    .check()
                    .unwrap();
                let text: Option<String> = r.take(0).unwrap();
                total += started.elapsed();
                tokens += surqlc::tokens::Encoding::O200kBase.count(&text.unwrap_or_default());
            }
            println!(
                "\n{name}: {:.1?} per prompt, {} o200k tokens per prompt (mean)",
                total / sample.len() as u32,
                tokens / sample.len()
            );
        }
    });
}
