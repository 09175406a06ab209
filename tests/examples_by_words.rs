//! Examples chosen by the question's words (issue 41, item 1), proven on the embedded engine: the pool's BM25 index (`@1,OR@` and `search::score` on its questions, the analyzer's stemming), `fn::similar_examples` by words alone, by the embedding alone (as before), both fused by reciprocal rank, and the prompt functions and `Pruner` without a vector.

use surqlc_tests::*;

const QUESTION: &str = "Which category earns us the most money?";

async fn store() -> surqlc::db::Db {
    let output = builder("store").generate().expect("the store compiles");
    let seed = read(root().join("schemas/store.seed.surql"));
    loaded(&[&output.schema_surql, &seed]).await
}

async fn strings(db: &surqlc::db::Db, query: &str) -> Vec<String> {
    let mut response = db.query(query).await.and_then(|r| r.check()).expect(query);
    response.take(0).expect(query)
}

/// The engine: the pool's full-text index answers `@1,OR@` with BM25 scores, best first, matching
/// any of the words (stemmed: "earns" finds "earn", "revenue" finds "revenue"), and nothing for
/// words no question holds.
#[test]
fn the_pools_questions_are_ranked_by_bm25_on_the_engine() {
    block_on(async {
        let db = store().await;
        let query = "SELECT VALUE question FROM (SELECT question, search::score(1) AS s FROM query_example \
            WHERE question @1,OR@ 'category revenue month' ORDER BY s DESC)";
        let found = strings(&db, query).await;
        assert_eq!(
            found[0],
            "Which product category brings in the most revenue from shipped orders?"
        );
        assert!(
            found.contains(&"How many orders were placed each month?".to_owned()),
            "{found:?}"
        );
        let scores: Vec<f64> = {
            let mut r = db
                .query(
                    "SELECT VALUE search::score(1) FROM query_example WHERE question @1,OR@ 'category revenue month'",
                )
                .await
                .unwrap();
            r.take(0).unwrap()
        };
        assert!(scores.iter().all(|s| *s > 0.0), "{scores:?}");
        // Stemming: "placing" finds "placed".
        let stemmed = strings(
            &db,
            "SELECT VALUE question FROM query_example WHERE question @1,OR@ 'placing'",
        )
        .await;
        assert_eq!(stemmed.len(), 2, "{stemmed:?}");
        let none = strings(
            &db,
            "SELECT VALUE question FROM query_example WHERE question @1,OR@ 'zebra'",
        )
        .await;
        assert!(none.is_empty());
    });
}

/// Without a vector, `fn::similar_examples(NONE, question)` ranks by words, less the function
/// words; with only a vector it is the nearest, as before; with both, reciprocal-rank fusion
/// puts the example both rankings agree on first and keeps the vector's nearest.
#[test]
fn similar_examples_by_words_by_vector_and_fused() {
    block_on(async {
        let db = store().await;
        let by_words = strings(
            &db,
            &format!("RETURN fn::similar_examples(NONE, '{QUESTION}').question"),
        )
        .await;
        assert_eq!(
            by_words[0],
            "Which product category brings in the most revenue from shipped orders?"
        );
        assert!(by_words.len() <= 3, "k = 3: {by_words:?}");
        // Only function words: no example is "about" them.
        let stop = strings(
            &db,
            "RETURN fn::similar_examples(NONE, 'Which of them is ours?').question",
        )
        .await;
        assert!(stop.is_empty(), "{stop:?}");
        // The vector alone (one argument, as before): the nearest three, nearest first.
        let near = [0.1, 0.0, 0.0, 1.0]; // ex_orders_per_month's neighbourhood
        let by_vector = strings(&db, &format!("RETURN fn::similar_examples({near:?}).question")).await;
        assert_eq!(by_vector[0], "How many orders were placed each month?");
        // Both: the question's best by words (not among the vector's nearest three) joins the
        // vector's nearest.
        assert!(!by_vector.contains(&by_words[0]), "{by_vector:?}");
        let fused = strings(
            &db,
            &format!("RETURN fn::similar_examples({near:?}, '{QUESTION}').question"),
        )
        .await;
        assert_eq!(fused.len(), 3, "{fused:?}");
        assert!(fused.contains(&by_words[0]), "{fused:?}");
        assert!(fused.contains(&by_vector[0]), "{fused:?}");
        // Agreement wins: the example first in both rankings is first.
        let agree = [0.9, 0.0, 0.45, 0.0]; // ex_category_revenue's own embedding
        let fused = strings(
            &db,
            &format!("RETURN fn::similar_examples({agree:?}, '{QUESTION}').question"),
        )
        .await;
        assert_eq!(fused[0], by_words[0]);
    });
}

/// The prompt without a vector has examples chosen by its words, through the database's prompt
/// function and through `runtime::ask::prompt` (what `surqlc prompt`, `ask` and `eval` use).
#[test]
fn the_prompt_without_a_vector_shows_the_examples_its_words_choose() {
    block_on(async {
        let db = store().await;
        let output = builder("store").generate().unwrap();
        let prompt = surqlc::runtime::ask::prompt(&db, &output.schema, QUESTION, None)
            .await
            .unwrap();
        let examples = prompt
            .split_once("EXAMPLES\n")
            .and_then(|(_, rest)| rest.split_once("\n\nQUESTION"))
            .map(|(e, _)| e)
            .expect("an EXAMPLES section");
        assert!(
            examples.starts_with("-- Which product category brings in the most revenue from shipped orders?\n"),
            "{examples}"
        );
        let direct = strings(&db, &format!("RETURN [fn::nl2surql_prompt('{QUESTION}', NONE)]")).await;
        assert_eq!(direct[0], prompt);
    });
}
