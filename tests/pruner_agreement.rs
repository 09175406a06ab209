//! `surqlc::runtime::Pruner` makes the database's choice on every example schema and fixture, not only the benchmark: for questions made from each table's own words, at budgets from one table to most of the block, with and without closure, field-level pruning and value linking, its tables and block are `fn::pruned_select`'s and `fn::pruned_choice_block`'s.

use surqlc::audit::prune_eval::{self, Knobs, Question, Strategy};
use surqlc::runtime::Pruner;
use surqlc_tests::*;

/// Schemas of other shapes than the benchmark's: relations with several ends, a relation from a
/// table to itself, hidden tables and fields, enums with docs, computed fields, data to link.
const SCHEMAS: [(&str, Option<&str>); 7] = [
    ("schemas/store.rs", Some("schemas/store.seed.surql")),
    ("schemas/library.rs", None),
    ("schemas/memory.rs", Some("schemas/memory.seed.surql")),
    ("schemas/meetings.rs", Some("schemas/meetings.seed.surql")),
    ("tests/fixtures/ends.rs", None),
    ("tests/fixtures/visibility.rs", None),
    ("tests/fixtures/enum_docs.rs", None),
];

/// Relation closure, and the per-call mechanisms (field-level pruning, value linking).
const MECHANISMS: [(bool, Knobs); 4] = [
    (true, Knobs::BUILT),
    (
        true,
        Knobs {
            fields: false,
            values: true,
        },
    ),
    (
        false,
        Knobs {
            fields: true,
            values: false,
        },
    ),
    (true, Knobs::NONE),
];

#[test]
fn the_pruner_chooses_as_the_database_does_on_every_schema() {
    block_on(async {
        let mut compared = 0;
        for (schema, seed) in SCHEMAS {
            let run = surqlc::audit::prune_run::PruneRun::open(
                &[root().join(schema)],
                None,
                seed.map(|s| root().join(s)).as_deref(),
                None,
                None,
            )
            .await
            .unwrap_or_else(|e| panic!("{schema}: {e:?}"));
            let pruner = Pruner::load(&run.db)
                .await
                .unwrap()
                .expect("prune run loads the pruning section");
            let docs = surqlc::prune::table_docs(&run.schema);
            let full: usize = docs.iter().map(|d| d.tokens).sum();
            let least = docs.iter().map(|d| d.tokens).min().unwrap_or(1);
            let budgets = [least as u32 + 1, (full / 2) as u32];
            // Each table's words as a question (the start of its search document: its name,
            // comment and field names), every other table's name asked plainly, and a question no
            // table shares a word with.
            let mut questions: Vec<String> = docs
                .iter()
                .map(|d| d.doc.split_whitespace().take(8).collect::<Vec<_>>().join(" "))
                .collect();
            questions.extend(
                docs.iter()
                    .step_by(2)
                    .map(|d| format!("Which {} are there?", d.name.replace('_', " "))),
            );
            questions.push("?!".to_owned());
            for question in &questions {
                for budget in budgets {
                    for (closure, knobs) in MECHANISMS {
                        let q = Question {
                            question: question.clone(),
                            tables: Vec::new(),
                        };
                        let strategy = if closure {
                            Strategy::FullTextClosure
                        } else {
                            Strategy::FullText
                        };
                        let theirs = prune_eval::run_with(&run.db, strategy, knobs, &q, budget, 0)
                            .await
                            .unwrap();
                        let mine = prune_eval::run_by(&run.db, Some(&pruner), strategy, knobs, &q, budget, 0)
                            .await
                            .unwrap();
                        let context = format!("{schema}, {question:?}, {budget} tokens, closure {closure}, {knobs:?}");
                        assert_eq!(mine.tables, theirs.tables, "{context}");
                        assert_eq!(mine.block, theirs.block, "{context}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 300, "{compared} choices compared");
    });
}
