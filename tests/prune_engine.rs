//! The engine behaviours the database's pruned prompt relies on (issue 41, item 5), proven on the embedded engine: a regex cast in `string::replace` with Unicode classes, the question's words less English function words (and a question of only those matching no table, field or example), `array::intersect` keeping its first array's order, closures reading the function's `LET`s and `DEFINE PARAM`s, and `array::transpose` of nothing.

use surqlc::db;
use surqlc_tests::*;

async fn json(db: &db::Db, query: &str) -> serde_json::Value {
    db::query_json(db, query).await.expect(query)
}

/// The plain-engine facts, on an empty database.
#[test]
fn the_functions_the_pruned_prompt_is_written_with_behave_as_it_assumes() {
    block_on(async {
        let db = loaded(&[]).await;
        // A regex cast: Unicode letters and digits kept, everything else a space.
        assert_eq!(
            json(
                &db,
                r#"RETURN string::replace("Café, 2024's top-10?", <regex> "[^\\p{L}\\p{N}]+", " ")"#
            )
            .await,
            serde_json::json!("Café 2024 s top 10 ")
        );
        // array::intersect: the first array's order, its elements the second holds.
        assert_eq!(
            json(
                &db,
                "RETURN array::intersect(['a', 'b', 'c', 'd', 'e'], ['e', 'b', 'x', 'd'])"
            )
            .await,
            serde_json::json!(["b", "d", "e"])
        );
        // A closure reads the enclosing LETs and the database's parameters when called.
        db::execute(&db, "DEFINE PARAM OVERWRITE $probe_costs VALUE { a: 2, b: 3 }")
            .await
            .unwrap();
        assert_eq!(
            json(
                &db,
                "LET $extra = 10; LET $f = |$s: int, $t: string| $s + $probe_costs[$t] + $extra; RETURN ['a', 'b'].fold(0, $f)"
            )
            .await,
            serde_json::json!(25)
        );
        // array::transpose of no rows is no columns: its third column is NONE, so `?? []`.
        assert_eq!(
            json(&db, "RETURN array::transpose([])[2] ?? []").await,
            serde_json::json!([])
        );
        assert_eq!(
            json(&db, "RETURN array::transpose([[1, 'a', 'x'], [2, 'b', 'y']])[2]").await,
            serde_json::json!(["x", "y"])
        );
    });
}

/// On the pruned store: the words searched are the question's less function words, and a
/// question made only of function words shares a word with no table, field or example, where a
/// search of its raw words would match every table holding "the" or "of".
#[test]
fn a_question_of_function_words_matches_nothing_and_content_words_still_match() {
    block_on(async {
        let path = schema_file(
            "pruned_store_words",
            &crate::pruning::pruned_store("prune(budget = 100)"),
        );
        let mut b = surqlc::Builder::new();
        b.schema(&path).cargo_metadata(false);
        let output = b.generate().unwrap();
        let seed = read(root().join("schemas/store.seed.surql"));
        let db = loaded(&[&output.schema_surql, &seed]).await;
        let stop = "Which of them do we have?";
        let raw = json(
            &db,
            &format!("RETURN (SELECT VALUE name FROM schema_doc WHERE doc @1,OR@ '{stop}').len()"),
        )
        .await;
        assert!(
            raw.as_u64().is_some_and(|n| n > 0),
            "the raw words match some table: {raw}"
        );
        let stop_words: serde_json::Value = json(&db, "RETURN $question_stop_words").await;
        assert!(stop_words
            .as_array()
            .is_some_and(|w| w.contains(&serde_json::json!("which"))));
        for query in [
            format!("RETURN fn::pruned_matches('{stop}')"),
            format!("RETURN fn::pruned_rank('{stop}', NONE).matches"),
        ] {
            assert_eq!(
                json(&db, &query).await,
                serde_json::json!(false),
                "{query} (raw words matched {raw})"
            );
        }
        assert_eq!(
            json(&db, &format!("RETURN fn::pruned_field_matches('{stop}')")).await,
            serde_json::json!([])
        );
        assert_eq!(
            json(&db, &format!("RETURN fn::similar_examples(NONE, '{stop}')")).await,
            serde_json::json!([])
        );
        // "who" is a function word for the examples but not for the tables: the documents of the
        // tables that hold people carry it (person hubs), so it still leads there.
        assert_eq!(
            json(&db, "RETURN fn::pruned_rank('Who are they?', NONE).ranked").await,
            serde_json::json!(["customer"])
        );
        // Content words still find their table, punctuation and case aside.
        assert_eq!(
            json(&db, "RETURN fn::pruned_matches('Which PRODUCTS, exactly?')").await,
            serde_json::json!(true)
        );
        let ranked = json(&db, "RETURN fn::pruned_rank('Which products?', NONE).ranked").await;
        assert!(
            ranked
                .as_array()
                .is_some_and(|r| r.contains(&serde_json::json!("product"))),
            "{ranked}"
        );
    });
}
