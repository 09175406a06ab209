//! The `ask` tool and the question embedder, present when an OpenAI-compatible model is configured (`SURQLC_MODEL_URL`, `SURQLC_MODEL`, `SURQLC_EMBED_MODEL`): the agent loop of `runtime::ask` on the server's sessions.

use super::server::{read_only, tool};
use super::state::{text, EmbedFuture, Embedder, ExtraTool, State, ToolFuture};
use crate::runtime::openai::OpenAi;
use crate::runtime::{Asker, Embedder as _};
use rmcp::model::{JsonObject, Tool};
use serde_json::json;
use std::sync::Arc;

/// `ask` `{question}`: the model writes the query, the validator and the data checks repair it,
/// the agent runs it; the answer is the final query, the rows and every attempt.
pub struct AskTool {
    client: Arc<OpenAi>,
}

impl AskTool {
    pub fn new(client: Arc<OpenAi>) -> AskTool {
        AskTool { client }
    }
}

/// `ask`'s entry in `tools/list`.
pub fn definition() -> Tool {
    tool(
        "ask",
        concat!(
            "Answer a question from the database: a SurrealQL query written by the configured model, checked ",
            "and repaired, run read-only; the query, rows and attempts as JSON. ",
            super::untrusted::standing!()
        ),
        json!({"question": {"type": "string"}}),
        &["question"],
        read_only(),
    )
}

impl ExtraTool for AskTool {
    fn tool(&self) -> Tool {
        definition()
    }

    fn call<'a>(&'a self, state: &'a State, arguments: JsonObject) -> ToolFuture<'a> {
        Box::pin(async move {
            let Some(question) = arguments.get("question").and_then(|v| v.as_str()) else {
                return super::tools::bad_argument("question", "a string");
            };
            let client = &*self.client;
            let (reader, agent) = (state.reader(), state.agent());
            let asker = Asker::new(&reader, &agent, &state.schema, client)
                .timeout(state.timeout)
                .pruner(state.pruner.as_ref());
            let answered = if client.embeds() {
                asker.embedder(client).ask(question).await
            } else {
                asker.ask(question).await
            };
            match answered {
                Ok(answer) => {
                    // The rows as `run_query` gives them: capped, with the cut said first.
                    let rows = super::caps::render(&answer.rows, &answer.warnings, state.caps, false);
                    let rows: serde_json::Value = serde_json::from_str(&rows).unwrap_or_default();
                    super::observe::asked(&answer, &rows);
                    let value = json!({
                        "status": answer.status,
                        "query": answer.query,
                        "result": rows,
                        "reason": answer.reason,
                        "attempts": answer.attempts,
                    });
                    // Rows, and queries a model wrote after reading rows: all of it is data.
                    let body = serde_json::to_string(&value).unwrap_or_default();
                    super::untrusted::answer(answer.query.is_some(), &body, value)
                }
                Err(e) => text(false, format!("ask failed: {e}")),
            }
        })
    }
}

/// The configured embedder as the tools' [`Embedder`]: questions then pick the nearest examples.
pub fn embedder(client: Arc<OpenAi>) -> Embedder {
    Arc::new(move |question: String| -> EmbedFuture {
        let client = client.clone();
        Box::pin(async move { client.embed(&question).await.map_err(|e| e.to_string()) })
    })
}
