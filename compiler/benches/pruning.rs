//! Question-specific pruning on the committed benchmark (`schemas/enterprise.rs`, its two question sets and data): per strategy and budget, the share of questions whose schema block holds every table they need and the share of needed tables found, and whether `runtime::Pruner` made every choice the database made; then the time per call of the pruned prompt, the database's and the pruner's.
//!
//! Run with `cargo bench -p surqlc --features mcp,model,check-expr --bench pruning` (the feature set the release
//! build of SurrealDB is shared with; `--profile dev` skips it, and times are then not comparable).
//! Figures are in `docs/pruning.md`. `PRUNING_MISSES=1` lists each miss of the built strategy
//! at 2,000 tokens; `PRUNING_ONLY=text` runs only the strategies whose name contains `text`;
//! `PRUNING_PARTS=1` also times each database statement of `Pruner::prompt` alone.
//! `PRUNING_SCRATCH=FILE` only times the statements of FILE (`scratch` below) and exits.

use std::time::{Duration, Instant};
use surqlc::audit::prune_eval::{self, Knobs, Question, Strategy};
use surqlc::db::{self, Target};
use surqlc::prune::DocOptions;

const BUDGETS: [u32; 4] = [1000, 2000, 3000, 4000];

/// A strategy of the table: how tables are ranked and closed, what their documents hold, and
/// the per-call mechanisms.
struct Row {
    name: &'static str,
    strategy: Strategy,
    docs: DocOptions,
    knobs: Knobs,
}

fn rows() -> Vec<Row> {
    let plain = DocOptions::PLAIN;
    let closure = |name, docs, knobs| Row {
        name,
        strategy: Strategy::FullTextClosure,
        docs,
        knobs,
    };
    vec![
        Row {
            name: "full-text only",
            strategy: Strategy::FullText,
            docs: plain,
            knobs: Knobs::NONE,
        },
        closure("full-text + relation closure", plain, Knobs::NONE),
        closure(
            "closure + schema synonyms (aka)",
            DocOptions { aka: true, ..plain },
            Knobs::NONE,
        ),
        closure(
            "closure + built-in thesaurus",
            DocOptions {
                thesaurus: true,
                ..plain
            },
            Knobs::NONE,
        ),
        closure(
            "closure + person hubs (who/whom)",
            DocOptions { hubs: true, ..plain },
            Knobs::NONE,
        ),
        closure(
            "closure + field-level pruning",
            plain,
            Knobs {
                fields: true,
                values: false,
            },
        ),
        closure(
            "closure + value linking",
            plain,
            Knobs {
                fields: false,
                values: true,
            },
        ),
        closure(
            "closure + aka + thesaurus + hubs (whole blocks)",
            DocOptions::BUILT,
            Knobs::NONE,
        ),
        closure("built: all of the above", DocOptions::BUILT, Knobs::BUILT),
        closure(
            "built without field-level pruning",
            DocOptions::BUILT,
            Knobs {
                fields: false,
                values: true,
            },
        ),
        closure(
            "built without value linking",
            DocOptions::BUILT,
            Knobs {
                fields: true,
                values: false,
            },
        ),
        Row {
            name: "built + hashed vectors",
            strategy: Strategy::FullTextVector,
            docs: DocOptions::BUILT,
            knobs: Knobs::BUILT,
        },
    ]
}

// A benchmark script: one loaded database for every table it prints, in the order printed.
#[allow(clippy::too_many_lines)]
fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut builder = surqlc::Builder::new();
    builder.schema(root.join("schemas/enterprise.rs")).cargo_metadata(false);
    let output = builder.generate().unwrap_or_else(|e| panic!("{e}"));
    let schema = &output.schema;
    let dimension = schema.settings.examples.dimension as usize;
    let read = |name: &str| {
        prune_eval::read_questions(&std::fs::read_to_string(root.join("schemas").join(name)).unwrap()).unwrap()
    };
    let sets: Vec<(&str, Vec<Question>)> = vec![
        ("original", read("enterprise.questions.json")),
        ("paraphrased", read("enterprise.paraphrased.json")),
    ];
    let seed = std::fs::read_to_string(root.join("schemas/enterprise.seed.surql")).unwrap();
    let only = std::env::var("PRUNING_ONLY").unwrap_or_default();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let conn = db::connect(&Target::default()).await.unwrap();
        let started = Instant::now();
        db::execute(&conn, &output.schema_surql).await.unwrap();
        let load = started.elapsed();
        db::execute(&conn, &seed).await.unwrap();
        let values = db::query_json(&conn, "RETURN fn::pruned_index_values()").await.unwrap();
        let full = surqlc::tokens::Encoding::O200kBase.count(&surqlc::surql::info::schema_block(schema));
        println!(
            "enterprise: {} tables, {} exposed, schema block {full} o200k tokens; {} + {} questions",
            schema.tables.len(),
            schema.settings.exposed.len(),
            sets[0].1.len(),
            sets[1].1.len(),
        );
        println!("schema.surql loaded in {load:.2?}; {values} values indexed for value linking\n");
        println!("Each cell: questions with every needed table (needed tables found); tables shown (mean).\n");
        println!("| strategy | questions | 1,000 | 2,000 | 3,000 | 4,000 |");
        println!("| --- | --- | --- | --- | --- | --- |");
        if let Some(file) = std::env::var_os("PRUNING_SCRATCH") {
            let all: Vec<&Question> = sets.iter().flat_map(|(_, q)| q.iter()).collect();
            return scratch(&conn, &std::fs::read_to_string(file).unwrap(), &all, dimension).await;
        }
        let pruner = surqlc::runtime::Pruner::load(&conn).await.unwrap().expect("enterprise prunes");
        // Every choice is also made by the application's Pruner; they must agree choice for choice.
        let (mut compared, mut differ) = (0usize, Vec::new());
        for row in rows().iter().filter(|r| r.name.contains(&only)) {
            prune_eval::set_docs(&conn, schema, row.docs).await.unwrap();
            if row.strategy == Strategy::FullTextVector {
                prune_eval::store_hashed_embeddings(&conn, dimension).await.unwrap();
            }
            for (set, questions) in &sets {
                let mut cells = Vec::new();
                for budget in BUDGETS {
                    let report = prune_eval::evaluate_with(&conn, row.strategy, row.knobs, questions, budget, dimension)
                        .await
                        .unwrap();
                    for (q, o) in questions.iter().zip(&report.outcomes) {
                        let mine = prune_eval::run_by(&conn, Some(&pruner), row.strategy, row.knobs, q, budget, dimension)
                            .await
                            .unwrap();
                        compared += 1;
                        if mine.tables != o.tables || mine.block != o.block {
                            differ.push(format!("{} / {set} / {budget}: {:?}", row.name, q.question));
                        }
                    }
                    cells.push(format!(
                        "{:.1}% ({:.1}%); {:.1}",
                        100.0 * report.recall(),
                        100.0 * report.table_recall(questions),
                        report.mean_tables()
                    ));
                    if budget == 2000 && std::env::var_os("PRUNING_MISSES").is_some() && row.docs == DocOptions::BUILT && row.knobs == Knobs::BUILT {
                        for (q, o) in questions.iter().zip(&report.outcomes) {
                            if !o.missing.is_empty() {
                                eprintln!("  {} / {set}: {:?} misses {:?}", row.name, q.question, o.missing);
                            }
                        }
                    }
                }
                println!("| {} | {set} ({}) | {} |", row.name, questions.len(), cells.join(" | "));
            }
        }
        println!(
            "\nsurqlc::runtime::Pruner made the same choice and block as fn::pruned_select + fn::pruned_choice_block for {} of {compared} choices",
            compared - differ.len()
        );
        for d in &differ {
            eprintln!("  differs: {d}");
        }
        // Leave the database as schema.surql built it (the built documents, no embeddings).
        prune_eval::set_docs(&conn, schema, DocOptions::BUILT).await.unwrap();
        db::execute(&conn, "UPDATE schema_doc SET embedding = NONE").await.unwrap();

        // Time per call, on every question of both sets: fn::pruned_tables and the whole pruned prompt.
        let all: Vec<&Question> = sets.iter().flat_map(|(_, q)| q.iter()).collect();
        for (name, statement) in [
            ("fn::pruned_tables (2,000 tokens)", "RETURN fn::pruned_tables($q, NONE, 2000, true)"),
            ("fn::pruned_select, fields + values (2,000 tokens)", "RETURN fn::pruned_select($q, NONE, 2000, true, true, true)"),
            ("fn::pruned_schema_context (2,000 tokens)", "RETURN fn::pruned_schema_context($q, NONE, 2000)"),
            ("fn::nl2surql_prompt_pruned", "RETURN fn::nl2surql_prompt_pruned($q, $v)"),
            ("fn::nl2surql_prompt (whole block)", "RETURN fn::nl2surql_prompt($q, $v)"),
        ] {
            let mut times: Vec<Duration> = Vec::new();
            for q in std::iter::once(all[0]).chain(all.iter().copied()) {
                let started = Instant::now();
                conn.query(statement)
                    .bind(("q", q.question.clone()))
                    .bind(("v", surqlc::prune::hashed_embedding(&q.question, dimension)))
                    .await
                    .unwrap()
                    .check()
                    .unwrap();
                times.push(started.elapsed());
            }
            print_times(name, times);
        }
        // The application's path: the choice made by surqlc::runtime::Pruner (facts read once per
        // connection, one fn::pruned_search per call), the prompt's text around it from the database.
        let mut same = 0;
        for (name, whole) in [("Pruner::select + Pruner::block, fields + values (2,000 tokens)", false), ("Pruner::prompt (= fn::nl2surql_prompt_pruned)", true)] {
            let mut times: Vec<Duration> = Vec::new();
            for q in std::iter::once(all[0]).chain(all.iter().copied()) {
                let v: Vec<f64> = surqlc::prune::hashed_embedding(&q.question, dimension).into_iter().map(f64::from).collect();
                let started = Instant::now();
                if whole {
                    let text = pruner.prompt(&conn, &q.question, &v).await.unwrap();
                    times.push(started.elapsed());
                    let theirs: Option<String> = conn
                        .query("RETURN fn::nl2surql_prompt_pruned($q, $v)")
                        .bind(("q", q.question.clone()))
                        .bind(("v", v.clone()))
                        .await
                        .unwrap()
                        .take(0)
                        .unwrap();
                    same += usize::from(theirs.as_deref() == Some(text.as_str()));
                } else {
                    let (choice, _) = pruner.select(&conn, &q.question, None, 2000, pruner.built()).await.unwrap();
                    let _ = pruner.block(&choice);
                    times.push(started.elapsed());
                }
            }
            print_times(name, times);
        }
        println!("Pruner::prompt gave fn::nl2surql_prompt_pruned's bytes for {same} of {} questions", all.len() + 1);
        // Where Pruner::prompt's time goes: each database statement it runs, alone.
        if std::env::var_os("PRUNING_PARTS").is_some() {
            let tables: Vec<String> = pruner.select(&conn, &all[0].question, None, 2000, pruner.built()).await.unwrap().0.tables;
            for (name, statement) in [
                ("tables by BM25", "SELECT name, search::score(1) AS score, position FROM schema_doc WHERE doc @1,OR@ $q ORDER BY score DESC, position ASC LIMIT 60"),
                ("fields by BM25", "SELECT id, search::score(2) AS score FROM schema_doc_field WHERE doc @2,OR@ $q ORDER BY score DESC LIMIT 10"),
                ("fn::pruned_value_links", "RETURN fn::pruned_value_links($q)"),
                ("fields nested, bare", "RETURN (SELECT VALUE record::id(id) FROM (SELECT id, search::score(2) AS score FROM schema_doc_field WHERE doc @2,OR@ $q ORDER BY score DESC LIMIT 10))"),
                ("fields ids, bare", "RETURN (SELECT id, search::score(2) AS score FROM schema_doc_field WHERE doc @2,OR@ $q ORDER BY score DESC LIMIT 10).id"),
                ("tables names, bare", "RETURN (SELECT name, search::score(1) AS score, position FROM schema_doc WHERE doc @1,OR@ $q ORDER BY score DESC, position ASC LIMIT 60).name"),
                ("fn::pruned_rank", "RETURN fn::pruned_rank($q, NONE)"),
                ("fn::pruned_field_matches", "RETURN fn::pruned_field_matches($q)"),
                ("fn::pruned_search", "RETURN fn::pruned_search($q, NONE, true, true)"),
                ("fn::pruned_value_hints (one choice's tables)", "RETURN fn::pruned_value_hints($t)"),
                ("fn::example_context", "RETURN fn::example_context($v)"),
                ("fn::pruned_prompt_for (one choice's tables)", "RETURN fn::pruned_prompt_for($q, $v, $t, 'x')"),
                ("RETURN 1", "RETURN 1"),
                ("100 closure calls", "RETURN array::repeat(0, 100).map(|$i| $i + 1)"),
                ("100 reads of a graph parameter", "RETURN array::repeat(0, 100).map(|$i| $schema_doc_b['customer'])"),
                ("100 reads of a LET copy of it", "LET $b = $schema_doc_b; RETURN array::repeat(0, 100).map(|$i| $b['customer'])"),
                ("100 record reads", "RETURN array::repeat(0, 100).map(|$i| schema_doc:customer.position)"),
            ] {
                let mut times: Vec<Duration> = Vec::new();
                for q in std::iter::once(all[0]).chain(all.iter().copied()) {
                    let v: Vec<f64> = surqlc::prune::hashed_embedding(&q.question, dimension).into_iter().map(f64::from).collect();
                    let started = Instant::now();
                    conn.query(statement).bind(("q", q.question.clone())).bind(("v", v)).bind(("t", tables.clone())).await.unwrap().check().unwrap();
                    times.push(started.elapsed());
                }
                times.remove(0);
                times.sort();
                println!("  part {name}: median {:.2?}, p95 {:.2?}", times[times.len() / 2], times[times.len() * 95 / 100]);
            }
        }
        if std::env::var_os("PRUNING_PARTS").is_some() {
            let t = "SELECT name, search::score(1) AS score, position FROM schema_doc WHERE doc @1,OR@ $q ORDER BY score DESC, position ASC LIMIT 60";
            let f = "SELECT id, search::score(2) AS score FROM schema_doc_field WHERE doc @2,OR@ $q ORDER BY score DESC LIMIT 10";
            let mut times: Vec<Duration> = Vec::new();
            for q in std::iter::once(all[0]).chain(all.iter().copied()) {
                let started = Instant::now();
                let a = conn.query(t).bind(("q", q.question.clone()));
                let b = conn.query(f).bind(("q", q.question.clone()));
                let (a, b) = tokio::join!(a, b);
                a.unwrap().check().unwrap();
                b.unwrap().check().unwrap();
                times.push(started.elapsed());
            }
            times.remove(0);
            times.sort();
            println!("  part both BM25 at once: median {:.2?}, p95 {:.2?}", times[times.len() / 2], times[times.len() * 95 / 100]);
        }
        let started = Instant::now();
        let loaded = surqlc::runtime::Pruner::load(&conn).await.unwrap();
        println!("Pruner::load (once per connection): {:.2?}", started.elapsed());
        drop(loaded);
        let catalog = db::query_string(&conn, "RETURN fn::table_catalog()").await.unwrap();
        println!(
            "\nfn::table_catalog(): {} lines, {} o200k tokens",
            catalog.lines().count(),
            surqlc::tokens::Encoding::O200kBase.count(&catalog)
        );
    });
}

/// Mean, median, p95 and largest of `times`, the first (a warm-up call) left out.
fn print_times(name: &str, mut times: Vec<Duration>) {
    times.remove(0);
    times.sort();
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    println!(
        "\n{name}: mean {mean:.2?}, median {:.2?}, p95 {:.2?}, max {:.2?} over {} calls",
        times[times.len() / 2],
        times[times.len() * 95 / 100],
        times[times.len() - 1],
        times.len()
    );
}

/// Times SurrealQL on the loaded database, for trying a change to the prompt functions without a
/// rebuild: the text before the first `-- time: NAME` line runs once (say, `DEFINE FUNCTION
/// OVERWRITE ...`), then each `-- time: NAME` statement runs for every question (`$q`, `$v` its
/// hashed embedding) and prints its median and p95, and how many of its answers equal the
/// previous timed statement's.
async fn scratch(conn: &surqlc::db::Db, text: &str, all: &[&Question], dimension: usize) {
    let mut parts = text.split("-- time: ");
    let setup = parts.next().unwrap_or_default();
    if !setup.trim().is_empty() {
        surqlc::db::execute(conn, setup).await.unwrap();
    }
    let mut first: Option<Vec<String>> = None;
    for part in parts {
        let (name, statement) = part.split_once('\n').unwrap_or((part, ""));
        let mut times: Vec<Duration> = Vec::new();
        let mut answers = Vec::new();
        for q in std::iter::once(all[0]).chain(all.iter().copied()) {
            let v: Vec<f64> = surqlc::prune::hashed_embedding(&q.question, dimension)
                .into_iter()
                .map(f64::from)
                .collect();
            let started = Instant::now();
            let mut response = conn
                .query(statement)
                .bind(("q", q.question.clone()))
                .bind(("v", v))
                .await
                .unwrap()
                .check()
                .unwrap();
            times.push(started.elapsed());
            let last = response.num_statements() - 1;
            let value: surrealdb::types::Value = response.take(last).unwrap();
            answers.push(format!("{value:?}"));
        }
        answers.remove(0);
        // PRUNING_SCRATCH_PRINT=N prints the first N answers of each statement.
        let print: usize = std::env::var("PRUNING_SCRATCH_PRINT")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        for answer in answers.iter().take(print) {
            println!("  {answer}");
        }
        let agree = first
            .as_ref()
            .unwrap_or(&answers)
            .iter()
            .zip(&answers)
            .filter(|(a, b)| a == b)
            .count();
        first = Some(answers.clone());
        times.remove(0);
        times.sort();
        println!(
            "{name}: median {:.2?}, p95 {:.2?}, mean {:.2?}; {agree} of {} answers equal the previous statement's",
            times[times.len() / 2],
            times[times.len() * 95 / 100],
            times.iter().sum::<Duration>() / times.len() as u32,
            answers.len()
        );
    }
}
