//! How often the few-shot examples shown for a question are over the tables its gold query needs, on every golden set, leave one out: the set's other questions and gold queries are the pool, and `fn::similar_examples` ranks them by the question's words (BM25), by a hashed bag-of-words embedding (`prune::hashed_embedding`, 256 dimensions; no model), and by both fused.
//!
//! `cargo bench -p surqlc --features mcp --bench examples --profile dev` (rankings do not depend
//! on the profile). A query's tables are the schema's table names that appear in it as words. A
//! question counts as a hit when one of the k examples shown (the schema's `examples(k)`) shares a
//! table with its gold query; "same" when one is over exactly the gold query's tables. The
//! figures are in docs/pruning.md.

use std::collections::BTreeSet;
use surqlc::db::Db;

const SCHEMAS: [&str; 5] = ["store", "marketplace", "memory", "meetings", "enterprise"];
const DIMENSION: usize = 256;

struct Gold {
    question: String,
    query: String,
}

fn read_golden(root: &std::path::Path, schema: &str) -> Vec<Gold> {
    let text = std::fs::read_to_string(root.join(format!("schemas/{schema}.golden.jsonl"))).expect("a golden set");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            Gold {
                question: v["question"].as_str().expect("question").to_owned(),
                query: v["query"].as_str().expect("query").to_owned(),
            }
        })
        .collect()
}

/// The schema's table names that appear in `query` as words.
fn tables_in(query: &str, tables: &BTreeSet<String>) -> BTreeSet<String> {
    query
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| tables.contains(*w))
        .map(str::to_owned)
        .collect()
}

fn embedding(text: &str) -> Vec<f64> {
    surqlc::prune::hashed_embedding(text, DIMENSION)
        .into_iter()
        .map(f64::from)
        .collect()
}

/// Hits (a shared table) and sames (exactly the gold tables) per way of ranking: words, vector, fused.
#[derive(Default, Clone, Copy)]
struct Score {
    hit: [usize; 3],
    same: [usize; 3],
    questions: usize,
}

async fn shown(db: &Db, question: &str, qvec: &[f64], way: usize) -> Vec<String> {
    let call = [
        "fn::similar_examples(NONE, $q)",
        "fn::similar_examples($v)",
        "fn::similar_examples($v, $q)",
    ][way];
    let mut r = db
        .query(format!("RETURN {call}.surql"))
        .bind(("q", question.to_owned()))
        .bind(("v", qvec.to_vec()))
        .await
        .and_then(|r| r.check())
        .expect("fn::similar_examples runs");
    r.take::<Vec<String>>(0).expect("queries")
}

async fn score(root: &std::path::Path, schema: &str) -> Score {
    let output = surqlc::Builder::new()
        .schema(root.join(format!("schemas/{schema}.rs")))
        .cargo_metadata(false)
        .generate()
        .expect("the schema compiles");
    let pool = output.schema.settings.examples.table.clone();
    let tables: BTreeSet<String> = output.schema.tables.iter().map(|t| t.name.clone()).collect();
    let db = surqlc::db::connect(&surqlc::db::Target::default())
        .await
        .expect("engine");
    surqlc::db::execute(&db, &output.schema_surql)
        .await
        .expect("schema loads");
    // The pool's embeddings at the hashed embedding's width.
    surqlc::db::execute(
        &db,
        &format!(
            "DEFINE FIELD OVERWRITE embedding ON {pool} TYPE array<float, {DIMENSION}>;
             DEFINE INDEX OVERWRITE {pool}_vec ON {pool} FIELDS embedding HNSW DIMENSION {DIMENSION} DIST COSINE;"
        ),
    )
    .await
    .expect("the pool widened");
    let golden = read_golden(root, schema);
    // A write right after the index work of the one before may meet a transaction conflict: retried.
    let insert = |i: usize, g: &'static Gold| {
        let (db, pool) = (db.clone(), pool.clone());
        async move {
            for _ in 0..20 {
                let done = db
                    .query(format!(
                        "UPSERT {pool}:g{i} SET question = $q, surql = $s, embedding = $v"
                    ))
                    .bind(("q", g.question.clone()))
                    .bind(("s", g.query.clone()))
                    .bind(("v", embedding(&g.question)))
                    .await
                    .and_then(|r| r.check());
                if done.is_ok() {
                    return;
                }
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            panic!("example {i} not stored");
        }
    };
    let golden: &'static [Gold] = Box::leak(golden.into_boxed_slice());
    for (i, g) in golden.iter().enumerate() {
        insert(i, g).await;
    }
    let mut s = Score::default();
    for (i, g) in golden.iter().enumerate() {
        while db
            .query(format!("DELETE {pool}:g{i}"))
            .await
            .and_then(|r| r.check())
            .is_err()
        {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let gold = tables_in(&g.query, &tables);
        let qvec = embedding(&g.question);
        for way in 0..3 {
            let examples = shown(&db, &g.question, &qvec, way).await;
            let sets: Vec<BTreeSet<String>> = examples.iter().map(|e| tables_in(e, &tables)).collect();
            s.hit[way] += usize::from(sets.iter().any(|t| !t.is_disjoint(&gold)));
            s.same[way] += usize::from(sets.iter().any(|t| *t == gold));
        }
        s.questions += 1;
        insert(i, g).await;
    }
    s
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    println!("| golden set | questions | words: shares a table / same tables | vector (hashed): shares / same | fused: shares / same |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    let mut total = Score::default();
    let cell = |s: &Score, way: usize| format!("{} / {}", s.hit[way], s.same[way]);
    for schema in SCHEMAS {
        let s = runtime.block_on(score(&root, schema));
        println!(
            "| {schema} | {} | {} | {} | {} |",
            s.questions,
            cell(&s, 0),
            cell(&s, 1),
            cell(&s, 2)
        );
        for way in 0..3 {
            total.hit[way] += s.hit[way];
            total.same[way] += s.same[way];
        }
        total.questions += s.questions;
    }
    let pct = |n: usize| 100.0 * n as f64 / total.questions.max(1) as f64;
    println!(
        "| all | {} | {:.0}% / {:.0}% | {:.0}% / {:.0}% | {:.0}% / {:.0}% |",
        total.questions,
        pct(total.hit[0]),
        pct(total.same[0]),
        pct(total.hit[1]),
        pct(total.same[1]),
        pct(total.hit[2]),
        pct(total.same[2]),
    );
}
