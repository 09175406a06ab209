//! What each built-in tool does: `schema` reads the prompt functions, `check_query` and `run_query` go through the validator, the data checks and the agent's runner, `remember_example` stores an example as an EDITOR.

use super::caps;
use super::state::{text, State};
use super::untrusted;
use crate::runtime::{self, Outcome};
use crate::validate;
use rmcp::model::CallToolResult;

pub const SCHEMA: &str = "schema";
pub const CHECK_QUERY: &str = "check_query";
pub const RUN_QUERY: &str = "run_query";
pub const REMEMBER_EXAMPLE: &str = "remember_example";

/// An argument missing or of the wrong type: a tool error, so the model can call again.
pub(super) fn bad_argument(name: &str, what: &str) -> CallToolResult {
    text(false, format!("the argument `{name}` must be {what}"))
}

/// The engine's error, without the connection's internals.
fn failed(what: &str, e: &surrealdb::Error) -> CallToolResult {
    text(false, format!("{what} failed: {}", e.message()))
}

/// `schema {question?}`: the prompt's SCHEMA, VALUES and EXAMPLES sections for the question.
///
/// With `prune(...)` and a question, the schema block and the value hints are the pruned ones
/// (`fn::pruned_schema_context`, `fn::pruned_value_hints`); the examples are the pool's by the
/// question's words, fused with the nearest to its embedding when an embedder is configured.
pub(super) async fn schema(state: &State, question: Option<&str>) -> CallToolResult {
    let settings = &state.schema.settings;
    let question = question.map(str::trim).filter(|q| !q.is_empty());
    let qvec = match question {
        Some(q) => match state.embed(q).await {
            Some(Ok(v)) => Some(v),
            Some(Err(e)) => return text(false, format!("embedding the question failed: {e}")),
            None => None,
        },
        None => None,
    };
    let db = &state.reader();
    let (block, values) = match (&settings.prune, question) {
        (Some(prune), Some(q)) => {
            // Tables are ranked by vector too only when the schema asks for it and a vector exists.
            let by_vector = (prune.mix == crate::ir::RetrievalMix::FullTextVector)
                .then(|| qvec.clone())
                .flatten();
            if let Some(pruner) = state.pruner.as_ref().filter(|p| !p.fits_whole(prune.budget)) {
                match pruned_sections(pruner, db, q, by_vector.as_deref(), prune.budget).await {
                    Ok(pair) => pair,
                    Err(e) => return failed("reading the pruned schema", &e),
                }
            } else {
                let pair = pruned_in_database(db, q, prune, by_vector).await;
                match pair {
                    Ok(pair) => pair,
                    Err(e) => return failed("reading the pruned schema", &e),
                }
            }
        }
        (Some(prune), None) if crate::prune::cost::full_block_cost(&state.schema) > prune.budget as usize => {
            return text(
                true,
                format!(
                    "This schema is larger than its {}-token prompt budget: call `schema` with the user's question to get the tables it needs.",
                    prune.budget
                ),
            );
        }
        _ => {
            let block = match crate::db::query_string(db, "RETURN fn::schema_context()").await {
                Ok(b) => b,
                Err(e) => return failed("reading the schema", &e),
            };
            let values = if settings.value_hints.is_empty() {
                String::new()
            } else {
                match crate::db::query_string(db, "RETURN fn::value_hints()").await {
                    Ok(v) => v,
                    Err(e) => return failed("reading the value hints", &e),
                }
            };
            (block, values)
        }
    };
    let examples = match examples_section(db, qvec, question).await {
        Ok(examples) => examples,
        Err(e) => return failed("reading the examples", &e),
    };
    // In an end user's session the model is told whom it answers for, as the prompt tells it.
    let mut out = match state.end_user_rules() {
        Some(rules) => format!("USER\n{}\n\n", rules.trim_end()),
        None => String::new(),
    };
    out.push_str(&format!("SCHEMA\n{block}\n\n"));
    if !values.is_empty() {
        out.push_str(&format!("VALUES\n{values}\n\n"));
    }
    out.push_str(&format!("EXAMPLES\n{examples}\n"));
    text(true, out)
}

/// The pruned schema block and value hints when the database chooses the tables (no `Pruner`
/// loaded, or the whole schema fits): `fn::pruned_select` and the blocks of its choice.
async fn pruned_in_database(
    db: &surrealdb::Surreal<surrealdb::engine::any::Any>,
    q: &str,
    prune: &crate::ir::Prune,
    by_vector: Option<Vec<f64>>,
) -> Result<(String, String), surrealdb::Error> {
    let asked = db
        .query(
            "LET $choice = fn::pruned_select($question, $qvec, $budget, true, $fields, true);
         RETURN fn::pruned_choice_block($choice, $budget);
         RETURN fn::pruned_value_hints($choice.tables);",
        )
        .bind(("question", q.to_owned()))
        .bind(("fields", prune.fields))
        .bind(("qvec", by_vector))
        .bind(("budget", i64::from(prune.budget)))
        .await
        .and_then(|r| r.check());
    asked.and_then(|mut r| {
        let block: Option<String> = r.take(1)?;
        let values: Option<String> = r.take(2)?;
        Ok((block.unwrap_or_default(), values.unwrap_or_default()))
    })
}

/// The EXAMPLES section: the pool's by the question's words (BM25), fused with the nearest to its
/// embedding when an embedder is configured; without a question, why there are none.
async fn examples_section(
    db: &surrealdb::Surreal<surrealdb::engine::any::Any>,
    qvec: Option<Vec<f64>>,
    question: Option<&str>,
) -> Result<String, surrealdb::Error> {
    if question.is_none() && qvec.is_none() {
        return Ok("(examples omitted: give a question to get the examples for it)".into());
    }
    runtime::module::examples_for(db, question, qvec.as_deref()).await
}

/// `check_query {query}`: the validator, then the data checks on the agent's session (so a value
/// list never shows what the agent cannot read), then the runner's own gate. "ok" or the problems.
pub(super) async fn check_query(state: &State, query: &str) -> CallToolResult {
    let schema = &state.schema;
    // As the runner checks: a missing LIMIT is a warning, since run_query adds the schema's.
    let agent = state.agent();
    let options = validate::Options::for_session(schema, agent.is_end_user());
    let mut report = validate::validate_with(schema, query, &options);
    if let Some(reason) = report.cannot_answer.take() {
        return text(
            true,
            format!("a `-- cannot answer` reply ({reason}): no query to check"),
        );
    }
    if !report.has_errors() {
        if let Err(e) = validate::data::check(agent.session(), schema, &mut report).await {
            return failed("checking the data", &e);
        }
    }
    if report.has_errors() {
        let rendered = report.render(query);
        super::observe::refused(&rendered);
        return text(true, rendered.trim_end().to_owned());
    }
    if let Err(message) = runtime::prepare_select(query, state.timeout) {
        super::observe::refused(&message);
        return text(true, message);
    }
    if report.warnings().next().is_some() {
        return text(true, format!("ok, with warnings:\n{}", report.render(query).trim_end()));
    }
    text(true, "ok")
}

/// `run_query {query}`: `runtime::run_validated_capped` on the agent's session (one probe row
/// past the row cap, so a cut is said only when rows were left out); the rows capped and wrapped
/// as untrusted data, or the refusal as a tool error.
pub(super) async fn run_query(state: &State, query: &str) -> CallToolResult {
    let outcome =
        runtime::run_validated_capped(&state.agent(), query, state.timeout, &state.schema, state.caps.rows).await;
    rows_answer(state, outcome, |reason| {
        format!("nothing ran: the query is a `-- cannot answer` reply ({reason})")
    })
}

/// What `run_query` and a named query's tool answer: the rows capped and wrapped as untrusted
/// data, or the refusal (counted) as a tool error; `cannot` words a reply that ran nothing.
pub(super) fn rows_answer(
    state: &State,
    outcome: Result<(Outcome, bool), surrealdb::Error>,
    cannot: impl FnOnce(String) -> String,
) -> CallToolResult {
    match outcome {
        Ok((Outcome::Rows { rows, warnings }, more)) => {
            let rows: Vec<serde_json::Value> = rows.into_iter().map(runtime::to_json).collect();
            let json = caps::render(&rows, &warnings, state.caps, more);
            let value = serde_json::from_str(&json).unwrap_or_default();
            super::observe::answered(&value);
            untrusted::answer(true, &json, value)
        }
        Ok((Outcome::Rejected(message), _)) => {
            super::observe::refused(&message);
            text(false, message)
        }
        Ok((Outcome::CannotAnswer(reason), _)) => text(false, cannot(reason)),
        Err(e) => failed("running the query", &e),
    }
}

/// `remember_example {question, query}`: only a query that validates and runs as the agent is
/// stored, by `fn::remember_example` on the EDITOR/OWNER session (which checks the role itself).
pub(super) async fn remember_example(state: &State, question: &str, query: &str) -> CallToolResult {
    let Some(editor) = &state.editor else {
        return text(false, "remember_example is off: start surqlc mcp with --allow-remember");
    };
    if question.trim().is_empty() {
        return bad_argument("question", "a non-empty string");
    }
    let qvec = match state.embed(question).await {
        Some(Ok(v)) => v,
        Some(Err(e)) => return text(false, format!("not stored: embedding the question failed: {e}")),
        None => {
            return text(
                false,
                "not stored: an example is found by its question's embedding, and no embedding model is configured",
            )
        }
    };
    match runtime::run_validated(&state.agent(), query, state.timeout, &state.schema).await {
        Ok(Outcome::Rows { .. }) => {}
        Ok(Outcome::Rejected(message)) => return text(false, format!("not stored: {message}")),
        Ok(Outcome::CannotAnswer(_)) => return text(false, "not stored: a `-- cannot answer` reply is not an example"),
        Err(e) => return failed("running the query", &e),
    }
    let stored = editor
        .query("RETURN <string> fn::remember_example($question, $surql, $qvec).id")
        .bind(("question", question.trim().to_owned()))
        .bind(("surql", query.trim().to_owned()))
        .bind(("qvec", qvec))
        .await
        .and_then(|r| r.check());
    let id: Result<Option<String>, _> = stored.and_then(|mut r| r.take(0));
    match id {
        Ok(id) => text(true, format!("stored as {}", id.unwrap_or_default())),
        Err(e) => failed("storing the example", &e),
    }
}

/// The pruned schema block and its tables' value hints, the choice made by `pruner`: what
/// `fn::pruned_choice_block` and `fn::pruned_value_hints` of `fn::pruned_select` give.
async fn pruned_sections(
    pruner: &runtime::Pruner,
    db: &crate::db::Db,
    question: &str,
    qvec: Option<&[f64]>,
    budget: u32,
) -> Result<(String, String), surrealdb::Error> {
    let (choice, _) = pruner.select(db, question, qvec, budget, pruner.built()).await?;
    let block = pruner.block(&choice);
    let values = runtime::module::text(
        db.query("RETURN fn::pruned_value_hints($tables)")
            .bind(("tables", choice.tables)),
    )
    .await?;
    Ok((block, values))
}
