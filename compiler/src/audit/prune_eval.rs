//! Measures question-specific pruning on a loaded database: for labelled questions, whether each strategy's schema block holds every table the answer needs, what it costs in tokens, and how long the database takes.
//!
//! Shared by `compiler/benches/pruning.rs` and the tests, so the figures in `docs/pruning.md`
//! and the asserted rates come from the same code.

use crate::db::{self, Db, Error};
use crate::prune::{hashed_embedding, DOC_TABLE};
use crate::runtime::{Mechanisms, Pruner};
use crate::tokens::Encoding;
use std::time::{Duration, Instant};

/// One benchmark question and the tables its answer needs.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Question {
    pub question: String,
    pub tables: Vec<String>,
}

/// Reads a questions file: a JSON array of `{"question": "...", "tables": ["...", ...]}`.
pub fn read_questions(text: &str) -> Result<Vec<Question>, serde_json::Error> {
    serde_json::from_str(text)
}

/// How the schema block is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Every exposed table: `fn::schema_context()`.
    All,
    /// BM25 ranking filled to the budget, no relation closure.
    FullText,
    /// BM25 ranking with relation closure and link fill (`fn::pruned_tables(.., NONE, .., true)`).
    FullTextClosure,
    /// As `FullTextClosure`, fused with vector similarity of stored table embeddings.
    FullTextVector,
}

impl Strategy {
    pub const ALL: [Strategy; 4] = [
        Strategy::All,
        Strategy::FullText,
        Strategy::FullTextClosure,
        Strategy::FullTextVector,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::All => "all tables",
            Strategy::FullText => "full-text only",
            Strategy::FullTextClosure => "full-text + relation closure",
            Strategy::FullTextVector => "full-text + closure + vectors",
        }
    }
}

/// The per-call mechanisms of `fn::pruned_select`, measured one by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Knobs {
    /// Field-level pruning: compact blocks with the question's fields.
    pub fields: bool,
    /// Value linking: the tables holding the question's named things (after `fn::pruned_index_values()`).
    pub values: bool,
}

impl Knobs {
    /// Whole blocks, no value linking: the choice `fn::pruned_tables` made before either existed.
    pub const NONE: Knobs = Knobs {
        fields: false,
        values: false,
    };
    /// What `fn::nl2surql_prompt_pruned` does with the default `prune(...)`.
    pub const BUILT: Knobs = Knobs {
        fields: true,
        values: true,
    };
}

/// What one strategy did for one question.
#[derive(Debug, Clone)]
pub struct PrunedQuestion {
    pub tables: Vec<String>,
    pub block: String,
    /// Gold tables the block lacks.
    pub missing: Vec<String>,
    pub tokens: usize,
    pub elapsed: Duration,
}

/// One strategy over all questions.
#[derive(Debug, Clone)]
pub struct StrategyRecall {
    pub strategy: Strategy,
    pub outcomes: Vec<PrunedQuestion>,
}

impl StrategyRecall {
    /// Share of questions whose block holds every table they need.
    pub fn recall(&self) -> f64 {
        let hits = self.outcomes.iter().filter(|o| o.missing.is_empty()).count();
        hits as f64 / self.outcomes.len().max(1) as f64
    }

    /// Share of all needed tables (over all questions) that the blocks hold.
    pub fn table_recall(&self, questions: &[Question]) -> f64 {
        let needed: usize = questions.iter().map(|q| q.tables.len()).sum();
        let missed: usize = self.outcomes.iter().map(|o| o.missing.len()).sum();
        1.0 - missed as f64 / needed.max(1) as f64
    }

    pub fn mean_tokens(&self) -> f64 {
        self.outcomes.iter().map(|o| o.tokens as f64).sum::<f64>() / self.outcomes.len().max(1) as f64
    }

    pub fn max_tokens(&self) -> usize {
        self.outcomes.iter().map(|o| o.tokens).max().unwrap_or(0)
    }

    pub fn mean_tables(&self) -> f64 {
        self.outcomes.iter().map(|o| o.tables.len() as f64).sum::<f64>() / self.outcomes.len().max(1) as f64
    }

    /// Mean and largest time per call.
    pub fn times(&self) -> (Duration, Duration) {
        let total: Duration = self.outcomes.iter().map(|o| o.elapsed).sum();
        let max = self.outcomes.iter().map(|o| o.elapsed).max().unwrap_or_default();
        (total / self.outcomes.len().max(1) as u32, max)
    }
}

/// Stores [`hashed_embedding`]s of every `schema_doc` row's text, as an application stores its own table embeddings.
pub async fn store_hashed_embeddings(db: &Db, dimension: usize) -> Result<(), Error> {
    let rows = db::query_json(db, &format!("SELECT name, doc FROM {DOC_TABLE}")).await?;
    let updates: Vec<(String, Vec<f32>)> = rows
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|row| {
            let name = row["name"].as_str()?.to_owned();
            let vector = hashed_embedding(row["doc"].as_str()?, dimension);
            Some((name, vector))
        })
        .collect();
    // One statement per table: the engine's index builders may conflict with a long write, and a
    // conflicted statement is retried, as SurrealDB asks.
    for (name, vector) in updates {
        let mut attempt = 0;
        loop {
            let result = db
                .query(format!("UPDATE {DOC_TABLE} SET embedding = $v WHERE name = $n"))
                .bind(("v", vector.clone()))
                .bind(("n", name.clone()))
                .await
                .and_then(|r| r.check());
            match result {
                Err(e) if attempt < 10 && e.to_string().contains("can be retried") => attempt += 1,
                other => {
                    other?;
                    break;
                }
            }
        }
    }
    Ok(())
}

/// Rewrites every `schema_doc` row's full-text document as `options` builds it, so one loaded
/// database measures each document mechanism ([`crate::prune::DocOptions`]) in turn.
pub async fn set_docs(db: &Db, schema: &crate::ir::Schema, options: crate::prune::DocOptions) -> Result<(), Error> {
    for d in crate::prune::table_docs_with(schema, options) {
        let mut attempt = 0;
        loop {
            let result = db
                .query(format!("UPDATE {DOC_TABLE} SET doc = $d WHERE name = $n"))
                .bind(("d", d.doc.clone()))
                .bind(("n", d.name.clone()))
                .await
                .and_then(|r| r.check());
            match result {
                Err(e) if attempt < 10 && e.to_string().contains("can be retried") => attempt += 1,
                other => {
                    other?;
                    break;
                }
            }
        }
    }
    Ok(())
}

/// Runs one strategy for `question` within `budget` tokens (the vector strategy embeds the question with [`hashed_embedding`]).
pub async fn run(
    db: &Db,
    strategy: Strategy,
    question: &Question,
    budget: u32,
    dimension: usize,
) -> Result<PrunedQuestion, Error> {
    run_with(db, strategy, Knobs::NONE, question, budget, dimension).await
}

/// [`run`] with the per-call mechanisms `knobs`, chosen by the database's functions.
pub async fn run_with(
    db: &Db,
    strategy: Strategy,
    knobs: Knobs,
    question: &Question,
    budget: u32,
    dimension: usize,
) -> Result<PrunedQuestion, Error> {
    run_by(db, None, strategy, knobs, question, budget, dimension).await
}

/// [`run_with`], the choice made by `pruner` when given (the application's [`Pruner`]: the
/// searches in the database, the rest in Rust), else by `fn::pruned_select` and
/// `fn::pruned_choice_block`. Both give the same tables and block, which the tests and the
/// benchmark compare choice for choice.
pub async fn run_by(
    db: &Db,
    pruner: Option<&Pruner>,
    strategy: Strategy,
    knobs: Knobs,
    question: &Question,
    budget: u32,
    dimension: usize,
) -> Result<PrunedQuestion, Error> {
    let qvec = (strategy == Strategy::FullTextVector).then(|| hashed_embedding(&question.question, dimension));
    let pruner = pruner.filter(|p| strategy != Strategy::All && !p.fits_whole(budget));
    let started = Instant::now();
    let (tables, block) = match pruner {
        Some(pruner) => {
            let qvec: Option<Vec<f64>> = qvec.map(|v| v.into_iter().map(f64::from).collect());
            let how = Mechanisms {
                closure: strategy != Strategy::FullText,
                fields: knobs.fields,
                values: knobs.values,
            };
            let (choice, _) = pruner
                .select(db, &question.question, qvec.as_deref(), budget, how)
                .await?;
            let block = pruner.block(&choice);
            (choice.tables, block)
        }
        None => {
            let statement = match strategy {
                Strategy::All => "RETURN { tables: fn::exposed_tables(), block: fn::schema_context() }",
                _ => {
                    "LET $t = fn::pruned_select($q, $v, $b, $c, $f, $l);
                      RETURN { tables: $t.tables, block: fn::pruned_choice_block($t, $b) }"
                }
            };
            let mut response = db
                .query(statement)
                .bind(("q", question.question.clone()))
                .bind(("v", qvec))
                .bind(("b", budget))
                .bind(("c", strategy != Strategy::FullText))
                .bind(("f", knobs.fields))
                .bind(("l", knobs.values))
                .await?
                .check()?;
            let last = response.num_statements().saturating_sub(1);
            let value: surrealdb::types::Value = response.take(last)?;
            let value = value.into_json_value();
            let block = value["block"].as_str().unwrap_or_default().to_owned();
            (tables_of(&value), block)
        }
    };
    let elapsed = started.elapsed();
    let missing = question
        .tables
        .iter()
        .filter(|t| !tables.contains(t))
        .cloned()
        .collect();
    Ok(PrunedQuestion {
        tokens: Encoding::O200kBase.count(&block),
        tables,
        block,
        missing,
        elapsed,
    })
}

/// The `tables` of a pruning choice the database returned as `{ tables: [...], ... }`.
pub fn tables_of(choice: &serde_json::Value) -> Vec<String> {
    choice["tables"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str().map(str::to_owned))
        .collect()
}

/// How many questions [`Strategy::All`] is timed on; its block is the same for every question.
pub const ALL_SAMPLES: usize = 5;

/// Runs `strategy` for every question (see [`ALL_SAMPLES`]).
pub async fn evaluate(
    db: &Db,
    strategy: Strategy,
    questions: &[Question],
    budget: u32,
    dimension: usize,
) -> Result<StrategyRecall, Error> {
    evaluate_with(db, strategy, Knobs::NONE, questions, budget, dimension).await
}

/// [`evaluate`] with the per-call mechanisms `knobs`.
pub async fn evaluate_with(
    db: &Db,
    strategy: Strategy,
    knobs: Knobs,
    questions: &[Question],
    budget: u32,
    dimension: usize,
) -> Result<StrategyRecall, Error> {
    let mut outcomes: Vec<PrunedQuestion> = Vec::with_capacity(questions.len());
    for q in questions {
        // The whole block does not depend on the question: after a few timed calls, reuse it.
        if strategy == Strategy::All && outcomes.len() >= ALL_SAMPLES {
            let first = &outcomes[0];
            outcomes.push(PrunedQuestion {
                missing: q.tables.iter().filter(|t| !first.tables.contains(t)).cloned().collect(),
                elapsed: first.elapsed,
                ..first.clone()
            });
            continue;
        }
        outcomes.push(run_with(db, strategy, knobs, q, budget, dimension).await?);
    }
    if strategy == Strategy::All && outcomes.len() > ALL_SAMPLES {
        let timed: Duration = outcomes[..ALL_SAMPLES].iter().map(|o| o.elapsed).sum();
        let mean = timed / ALL_SAMPLES as u32;
        outcomes[ALL_SAMPLES..].iter_mut().for_each(|o| o.elapsed = mean);
    }
    Ok(StrategyRecall { strategy, outcomes })
}
