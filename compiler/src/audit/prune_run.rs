//! `surqlc prune` (`PruneRun`): which tables the pruned prompt shows for each question, and what their block costs, on any schema (its pruning section loaded into an embedded database, so the choice is the database's own).
//!
//! A schema without `prune(...)` gets the default settings for this run only: the same
//! `schema_doc` rows and `fn::pruned_select` its `schema.surql` would carry with `prune`, so
//! what this prints is what `fn::nl2surql_prompt_pruned` would show.

use crate::codegen::builder::Builder;
use crate::codegen::emit::{self, EmitOptions};
use crate::db::{self, Db, Target};
use crate::exit::Failure;
use crate::ir::{Prune, RetrievalMix, Schema};
use crate::tokens::Encoding;
use std::path::{Path, PathBuf};

/// The budget when neither the command line nor the schema gives one.
pub const DEFAULT_BUDGET: u32 = 2000;

/// What the pruned prompt shows for one question.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PrunedTables {
    pub question: String,
    /// The tables shown, in prompt order.
    pub tables: Vec<String>,
    /// o200k_base tokens of the schema block those tables make.
    pub tokens: usize,
    /// No table shares a word with the question: the tables are pruning's fallback (the `always`
    /// tables, those value hints describe, the most connected), as the prompt says.
    #[serde(skip)]
    pub fallback: bool,
}

/// A loaded schema, ready to answer questions.
pub struct PruneRun {
    pub db: Db,
    pub schema: Schema,
    pub budget: u32,
    /// Whether `--vector` is passed on to the ranking (the schema fuses vectors).
    vector: Option<Vec<f64>>,
    /// Field-level pruning (`prune(fields = ...)`).
    fields: bool,
    pub warnings: Vec<crate::diagnostic::Diagnostic>,
}

/// The settings this run prunes with: the schema's own, with `budget` (the flag) over its budget;
/// default settings when the schema has none (fused with vectors when a vector is given, so
/// table embeddings a seed file stores are used).
pub fn settings(schema: &Schema, budget: Option<u32>, vector: bool) -> Prune {
    let mut prune = schema.settings.prune.clone().unwrap_or_else(|| Prune {
        mix: if vector {
            RetrievalMix::FullTextVector
        } else {
            RetrievalMix::FullText
        },
        ..Prune::default()
    });
    if let Some(b) = budget {
        prune.budget = b;
    }
    prune
}

impl PruneRun {
    /// Compiles `schemas`, loads them with pruning on into a fresh embedded database, then `seed`.
    pub async fn open(
        schemas: &[PathBuf],
        prompt_template: Option<&Path>,
        seed: Option<&Path>,
        budget: Option<u32>,
        vector: Option<Vec<f64>>,
    ) -> Result<PruneRun, Failure> {
        let mut builder = Builder::new();
        builder.cargo_metadata(false);
        for s in schemas {
            builder.schema(s);
        }
        let (mut schema, warnings) = builder.load_with_warnings()?;
        if let Some(t) = schema
            .tables
            .iter()
            .find(|t| t.name == crate::prune::DOC_TABLE)
            .filter(|_| schema.settings.prune.is_none())
        {
            return Err(Failure::BadInput(format!(
                "error: the table `{}` is where pruning keeps its per-table rows; rename this table to use `surqlc prune`",
                t.name
            )));
        }
        let prune = settings(&schema, budget, vector.is_some());
        if prune.budget == 0 {
            return Err(Failure::BadInput("error: --budget must be at least 1".into()));
        }
        let budget = prune.budget;
        let fields = prune.fields;
        let fuses = prune.mix == RetrievalMix::FullTextVector;
        schema.settings.prune = Some(prune);
        if let Some(v) = &vector {
            crate::schema_db::check_dimension(&schema, v)?;
        }
        let options = EmitOptions {
            prompt_template: prompt_template.map(Path::to_path_buf),
            agent_password: None,
            scope_key: None,
            sources: schemas.to_vec(),
        };
        let surql =
            emit::render_schema_surql(&schema, &options).map_err(|e| Failure::BadInput(format!("error: {e}")))?;
        let target = Target {
            database: schema.name.clone(),
            ..Target::default()
        };
        let db = db::connect(&target)
            .await
            .map_err(|e| Failure::Failed(format!("error: cannot open the embedded database: {e}")))?;
        db::execute(&db, &surql)
            .await
            .map_err(|e| Failure::Failed(format!("error: the database rejected the generated schema: {e}")))?;
        if let Some(seed) = seed {
            crate::schema_db::load_file(&db, seed).await?;
            // Value linking reads the values of the loaded data.
            db::execute(&db, "RETURN fn::pruned_index_values()")
                .await
                .map_err(|e| Failure::Failed(format!("error: fn::pruned_index_values failed: {e}")))?;
        }
        Ok(PruneRun {
            db,
            schema,
            budget,
            fields,
            vector: vector.filter(|_| fuses),
            warnings,
        })
    }

    /// The tables `fn::pruned_select` picks for `question` at the run's budget (the schema's mechanisms), and the cost of their block.
    pub async fn choose(&self, question: &str) -> Result<PrunedTables, Failure> {
        let mut response = self
            .db
            .query(
                "LET $c = fn::pruned_select($q, $v, $b, true, $f, true);
                 RETURN { tables: $c.tables, block: fn::pruned_choice_block($c, $b), matches: fn::pruned_matches($q) }",
            )
            .bind(("q", question.to_owned()))
            .bind(("f", self.fields))
            .bind(("v", self.vector.clone()))
            .bind(("b", self.budget))
            .await
            .and_then(|r| r.check())
            .map_err(|e| Failure::Failed(format!("error: fn::pruned_select failed: {e}")))?;
        let value: surrealdb::types::Value = response
            .take(1)
            .map_err(|e| Failure::Failed(format!("error: fn::pruned_select failed: {e}")))?;
        let value = value.into_json_value();
        let tables = super::prune_eval::tables_of(&value);
        let block = value["block"].as_str().unwrap_or_default();
        Ok(PrunedTables {
            // Not every table shown, and none matched: the fallback chose them.
            fallback: value["matches"] == false && tables.len() < self.schema.settings.exposed.len(),
            question: question.to_owned(),
            tables,
            tokens: Encoding::O200kBase.count(block),
        })
    }
}

/// The questions of a `--questions` file: one per line (blank lines skipped), or a JSON array
/// of `{"question": ...}` objects such as the benchmark files.
pub fn read_questions(path: &Path) -> Result<Vec<String>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::BadInput(format!("error: cannot read {}: {e}", path.display())))?;
    if text.trim_start().starts_with('[') {
        #[derive(serde::Deserialize)]
        struct Q {
            question: String,
        }
        let questions: Vec<Q> = serde_json::from_str(&text).map_err(|e| {
            Failure::BadInput(format!(
                "error: {}:{}:{}: not a JSON array of {{\"question\": ...}} objects: {e}",
                path.display(),
                e.line(),
                e.column()
            ))
        })?;
        return Ok(questions.into_iter().map(|q| q.question).collect());
    }
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect())
}

/// One line of `--format json`: `{"question": ..., "tables": [...], "tokens": N}`.
pub fn json_line(choice: &PrunedTables) -> String {
    serde_json::json!({
        "question": choice.question,
        "tables": choice.tables,
        "tokens": choice.tokens,
    })
    .to_string()
}

/// The text report of one question.
pub fn text(choice: &PrunedTables) -> String {
    format!(
        "{}\n  {} table{}, {} tokens: {}\n{}",
        choice.question,
        choice.tables.len(),
        if choice.tables.len() == 1 { "" } else { "s" },
        choice.tokens,
        choice.tables.join(", "),
        if choice.fallback {
            "  note: no table shares a word with the question; these are the fallback tables (always, value hints, most connected)\n"
        } else {
            ""
        }
    )
}
