//! The committed golden sets (`schemas/NAME.golden.jsonl`, for `surqlc eval`) hold at least 10 questions each, and every gold query passes the validator and returns rows on its schema's data, run as the agent.

use surqlc::runtime::eval;
use surqlc::runtime::{run_validated, Outcome};
use surqlc_tests::*;

#[test]
fn every_gold_query_validates_and_returns_rows() {
    block_on(async {
        for name in ["store", "meetings", "memory", "enterprise", "marketplace"] {
            let golden = eval::read_jsonl(&read(root().join(format!("schemas/{name}.golden.jsonl"))))
                .unwrap_or_else(|e| panic!("{name}.golden.jsonl:{e}"));
            assert!(golden.len() >= 10, "{name}: {} questions", golden.len());
            let (output, _db, agent) = crate::ask::example(name).await;
            for item in &golden {
                let at = format!("{name}.golden.jsonl:{}", item.line);
                let report = surqlc::validate::validate(&output.schema, &item.query);
                assert!(report.diagnostics.is_empty(), "{at}: {}", report.render(&item.query));
                match run_validated(&agent, &item.query, surqlc::runtime::QUERY_TIMEOUT, &output.schema)
                    .await
                    .unwrap()
                {
                    Outcome::Rows { rows, warnings } => {
                        assert!(!rows.is_empty(), "{at}: no rows");
                        assert!(warnings.is_empty(), "{at}: {warnings:?}");
                    }
                    other => panic!("{at}: {other:?}"),
                }
            }
        }
    });
}
