//! The agent loop: a question becomes the database's prompt, the model's reply is validated, checked against the data and run as the agent, and each problem goes back to the model as the next turn, within a bound.
//!
//! The model and the embedder are traits ([`Model`], [`Embedder`]) so any client plugs in; the
//! `model` feature adds one for OpenAI-compatible endpoints (`surqlc::runtime::openai`). Nothing here
//! prints: [`Answer`] holds the final query, the rows, the warnings and every attempt, and
//! serialises with serde for a command line, a server or a log.

use super::{run_validated, to_json, Agent, Outcome, Pruner};
use crate::ir;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::future::Future;
use std::time::Duration;
use surrealdb::{Connection, Surreal};

/// How many replies the loop asks for by default: the first and two repairs.
pub const DEFAULT_ATTEMPTS: u32 = 3;

/// Who wrote a turn of the conversation, as chat APIs name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions from the application (the loop itself sends none).
    System,
    /// The application's side: the prompt, then each repair request.
    User,
    /// The model's replies.
    Assistant,
}

/// One turn of the conversation with the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// Its text.
    pub content: String,
}

impl Message {
    /// A turn of the application's: the prompt, or a repair request.
    pub fn user(content: impl Into<String>) -> Self {
        Message {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A turn of the model's: one of its replies.
    pub fn assistant(content: impl Into<String>) -> Self {
        Message {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// What went wrong talking to a model or an embedder, in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError {
    /// What failed, for a caller that retries or reports differently.
    pub kind: ModelErrorKind,
    /// The cause, one line, naming what to check.
    pub message: String,
}

/// The kinds of [`ModelError`], for a caller that reacts differently to each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelErrorKind {
    /// Nothing answers at the endpoint (refused connection, unknown host).
    Unreachable,
    /// The endpoint answered with an HTTP error status.
    Status(u16),
    /// No answer within the client's timeout.
    Timeout,
    /// An answer that is not what the API promises (not JSON, no choice, no embedding).
    Reply,
    /// An embedding whose length is not the schema's `examples(dimension)`.
    Dimension,
    /// The client is not configured (no model, no embedding model).
    Configuration,
}

impl ModelError {
    /// An error of `kind`; `message` is folded onto one line.
    pub fn new(kind: ModelErrorKind, message: impl Into<String>) -> Self {
        // One line whatever the server sent: a cause is read in a terminal or a log.
        let message: String = message.into();
        let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
        ModelError { kind, message }
    }
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ModelError {}

/// A chat model: the conversation so far in, the next reply's text out.
pub trait Model: Sync {
    /// The model's reply to the conversation `messages` (oldest first), as text.
    fn complete(&self, messages: &[Message]) -> impl Future<Output = Result<String, ModelError>> + Send;
}

/// An embedding model: text in, its vector out (in the space of the few-shot pool's embeddings).
pub trait Embedder: Sync {
    /// The vector of `text`; its length must be the schema's `examples(dimension)`.
    fn embed(&self, text: &str) -> impl Future<Output = Result<Vec<f64>, ModelError>> + Send;
}

impl<M: Model> Model for &M {
    fn complete(&self, messages: &[Message]) -> impl Future<Output = Result<String, ModelError>> + Send {
        (**self).complete(messages)
    }
}

impl<E: Embedder> Embedder for &E {
    fn embed(&self, text: &str) -> impl Future<Output = Result<Vec<f64>, ModelError>> + Send {
        (**self).embed(text)
    }
}

/// The embedder of an [`Asker`] that has none: never called.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoEmbedder;

impl Embedder for NoEmbedder {
    async fn embed(&self, _text: &str) -> Result<Vec<f64>, ModelError> {
        Err(ModelError::new(
            ModelErrorKind::Configuration,
            "no embedding model is configured",
        ))
    }
}

/// Where the question's vector, and so the prompt's examples, came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Examples {
    /// The embedder embedded the question.
    Embedded,
    /// The caller gave the vector.
    Given,
    /// No embedder and no vector: the examples are the pool's by the question's words (BM25).
    Words,
}

/// How the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A query passed the checks and ran: `query` and `rows` hold it.
    Answered,
    /// The model replied `-- cannot answer: <reason>`.
    CannotAnswer,
    /// Every attempt was refused.
    NoValidQuery,
}

/// One reply of the model and what the checks found in it (empty when it was accepted).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// The model's reply as it wrote it.
    pub reply: String,
    /// One line each: the validator's diagnostics with their fixes, the engine's error, or the
    /// warnings that explain an empty result.
    pub problems: Vec<String>,
}

/// What [`Asker::ask`] came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The question asked.
    pub question: String,
    /// How the loop ended: answered, a refusal, or no valid query within the attempts.
    pub status: Status,
    /// The accepted query as the model wrote it (fence removed); `None` unless answered.
    pub query: Option<String>,
    /// The rows as JSON (empty unless answered).
    pub rows: Vec<serde_json::Value>,
    /// The validator's warnings on the accepted query (a LIMIT the runner added, a value not in the data).
    pub warnings: Vec<String>,
    /// The model's reason when it could not answer.
    pub reason: Option<String>,
    /// Every reply, in order, with its problems.
    pub attempts: Vec<Attempt>,
    /// Where the prompt's few-shot examples came from (embedded question, given vector, or none).
    pub examples: Examples,
    /// The prompt the conversation began with.
    pub prompt: String,
}

impl Answer {
    /// Replies after the first: how many repairs the answer took.
    pub fn repairs(&self) -> usize {
        self.attempts.len().saturating_sub(1)
    }
}

/// Why the loop stopped without an [`Answer`].
#[derive(Debug)]
pub enum AskError {
    /// The model or the embedder failed.
    Model(ModelError),
    /// The database connection failed.
    Database(surrealdb::Error),
    /// The input cannot be used (a vector of the wrong length, no attempts allowed).
    Input(String),
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::Model(e) => write!(f, "{e}"),
            AskError::Database(e) => write!(f, "the database failed: {e}"),
            AskError::Input(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for AskError {}

impl From<ModelError> for AskError {
    fn from(e: ModelError) -> Self {
        AskError::Model(e)
    }
}

impl From<surrealdb::Error> for AskError {
    fn from(e: surrealdb::Error) -> Self {
        AskError::Database(e)
    }
}

/// The loop's parts: the application's connection (it calls the prompt functions), the agent's
/// session (the query runs there, as in [`run_validated`]), the schema, the model and, optionally,
/// an embedder.
pub struct Asker<'a, C: Connection, M, E = NoEmbedder> {
    db: &'a Surreal<C>,
    agent: &'a Agent<C>,
    schema: &'a ir::Schema,
    model: &'a M,
    embedder: Option<&'a E>,
    vector: Option<Vec<f64>>,
    pruner: Option<&'a Pruner>,
    attempts: u32,
    timeout: Duration,
}

impl<'a, C: Connection, M: Model> Asker<'a, C, M> {
    /// [`DEFAULT_ATTEMPTS`] attempts, [`super::QUERY_TIMEOUT`], no embedder and no vector.
    pub fn new(db: &'a Surreal<C>, agent: &'a Agent<C>, schema: &'a ir::Schema, model: &'a M) -> Self {
        Asker {
            db,
            agent,
            schema,
            model,
            embedder: None,
            vector: None,
            pruner: None,
            attempts: DEFAULT_ATTEMPTS,
            timeout: super::QUERY_TIMEOUT,
        }
    }
}

impl<'a, C: Connection, M: Model, E: Embedder> Asker<'a, C, M, E> {
    /// Embeds each question with `embedder` to pick the prompt's examples.
    pub fn embedder<E2: Embedder>(self, embedder: &'a E2) -> Asker<'a, C, M, E2> {
        Asker {
            db: self.db,
            agent: self.agent,
            schema: self.schema,
            model: self.model,
            embedder: Some(embedder),
            vector: self.vector,
            pruner: self.pruner,
            attempts: self.attempts,
            timeout: self.timeout,
        }
    }

    /// The question's embedding, when there is no embedder (its length must be the schema's dimension).
    pub fn vector(mut self, vector: Option<Vec<f64>>) -> Self {
        self.vector = vector;
        self
    }

    /// Makes the pruned prompt's choice of tables with `pruner` (read once with [`Pruner::load`] on
    /// this database) instead of the database's `fn::nl2surql_prompt_pruned`: the same prompt, in
    /// a fraction of the time. Ignored when the schema has no `prune(...)`.
    pub fn pruner(mut self, pruner: Option<&'a Pruner>) -> Self {
        self.pruner = pruner;
        self
    }

    /// At most `attempts` replies (at least 1).
    pub fn attempts(mut self, attempts: u32) -> Self {
        self.attempts = attempts;
        self
    }

    /// The accepted query's `TIMEOUT`.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The question's vector and where it came from, checked against the schema's dimension.
    pub async fn question_vector(&self, question: &str) -> Result<(Option<Vec<f64>>, Examples), AskError> {
        let dimension = self.schema.settings.examples.dimension as usize;
        let (vector, source) = match (self.embedder, &self.vector) {
            (Some(embedder), _) => (embedder.embed(question).await?, Examples::Embedded),
            (None, Some(vector)) => (vector.clone(), Examples::Given),
            (None, None) => return Ok((None, Examples::Words)),
        };
        if vector.len() != dimension {
            let what = match source {
                Examples::Embedded => "the embedding model returned",
                _ => "the question's vector has",
            };
            let message = format!(
                "{what} {} values, but the schema's few-shot pool has examples(dimension = {dimension})",
                vector.len()
            );
            return Err(match source {
                Examples::Embedded => AskError::Model(ModelError::new(ModelErrorKind::Dimension, message)),
                _ => AskError::Input(message),
            });
        }
        Ok((Some(vector), source))
    }

    /// Asks `question`: builds the prompt, then at most `attempts` replies, each validated,
    /// checked against the data and run as the agent; a refused reply's problems go back to the
    /// model as the next user turn. Stops early on `-- cannot answer`.
    ///
    /// Traced as `surqlc.ask` (`question`, `end_user`, `repairs`, `rows`, `outcome`,
    /// `duration_ms`), with `surqlc.prompt` and one `surqlc.attempt` per reply inside it.
    pub async fn ask(&self, question: &str) -> Result<Answer, AskError> {
        use tracing::field::Empty;
        use tracing::Instrument;
        let span = tracing::info_span!(
            "surqlc.ask",
            question,
            end_user = self.agent.is_end_user(),
            repairs = Empty,
            rows = Empty,
            outcome = Empty,
            duration_ms = Empty
        );
        let started = std::time::Instant::now();
        let answered = self.ask_traced(question).instrument(span.clone()).await;
        match &answered {
            Ok(answer) => {
                span.record("repairs", answer.repairs());
                span.record("rows", answer.rows.len());
                let outcome = match answer.status {
                    Status::Answered => "answered",
                    Status::CannotAnswer => "cannot_answer",
                    Status::NoValidQuery => "no_valid_query",
                };
                super::spans::finish(&span, started, outcome);
            }
            Err(_) => super::spans::finish(&span, started, "error"),
        }
        answered
    }

    /// The prompt for `question`, traced as `surqlc.prompt` (`prompt_tokens`, `duration_ms`).
    async fn traced_prompt(&self, question: &str, vector: Option<&[f64]>) -> Result<String, AskError> {
        use tracing::field::Empty;
        use tracing::Instrument;
        let span = tracing::info_span!(
            "surqlc.prompt",
            pruned = self.pruner.is_some(),
            prompt_tokens = Empty,
            outcome = Empty,
            duration_ms = Empty
        );
        let started = std::time::Instant::now();
        let made = async {
            match self.pruner {
                Some(pruner) => prompt_pruned(self.db, self.schema, pruner, question, vector).await,
                None => prompt(self.db, self.schema, question, vector).await,
            }
        }
        .instrument(span.clone())
        .await;
        if let Ok(prompt) = &made {
            span.record("prompt_tokens", prompt.chars().count().div_ceil(4));
        }
        super::spans::finish(&span, started, if made.is_ok() { "ok" } else { "error" });
        Ok(made?)
    }

    /// Reply `n`: the model's completion and its run, traced as `surqlc.attempt` (`query`,
    /// `codes`, `rows`, `outcome`), with `surqlc.validate` and `surqlc.run` inside it.
    async fn traced_attempt(&self, n: u32, messages: &[Message]) -> Result<(String, Outcome), AskError> {
        use tracing::field::Empty;
        use tracing::Instrument;
        let span = tracing::info_span!(
            "surqlc.attempt",
            n,
            query = Empty,
            codes = Empty,
            rows = Empty,
            outcome = Empty,
            duration_ms = Empty
        );
        let started = std::time::Instant::now();
        let reply = self.model.complete(messages).instrument(span.clone()).await?;
        span.record("query", query_text(&reply).as_str());
        let outcome = run_validated(self.agent, &reply, self.timeout, self.schema)
            .instrument(span.clone())
            .await?;
        super::spans::record_outcome(&span, started, &outcome);
        Ok((reply, outcome))
    }

    async fn ask_traced(&self, question: &str) -> Result<Answer, AskError> {
        if self.attempts == 0 {
            return Err(AskError::Input("the loop needs at least 1 attempt".to_owned()));
        }
        let (vector, examples) = self.question_vector(question).await?;
        let prompt = self.traced_prompt(question, vector.as_deref()).await?;
        let mut answer = Answer {
            question: question.to_owned(),
            status: Status::NoValidQuery,
            query: None,
            rows: Vec::new(),
            warnings: Vec::new(),
            reason: None,
            attempts: Vec::new(),
            examples,
            prompt: prompt.clone(),
        };
        let mut messages = vec![Message::user(prompt)];
        // An empty result explained by warnings is sent back for a repair, but kept: if no later
        // reply does better, it is still a valid query's answer.
        let mut fallback: Option<(String, Vec<serde_json::Value>, Vec<String>)> = None;
        for n in 0..self.attempts {
            let (reply, outcome) = self.traced_attempt(n, &messages).await?;
            let last = n + 1 == self.attempts;
            let (problems, repair) = match outcome {
                Outcome::CannotAnswer(reason) => {
                    answer.attempts.push(Attempt {
                        reply,
                        problems: Vec::new(),
                    });
                    answer.status = Status::CannotAnswer;
                    answer.reason = Some(reason);
                    return Ok(answer);
                }
                Outcome::Rows { rows, warnings } => {
                    let rows: Vec<serde_json::Value> = rows.into_iter().map(to_json).collect();
                    if rows.is_empty() && !warnings.is_empty() && !last {
                        fallback = Some((query_text(&reply), rows, warnings.clone()));
                        let repair = format!(
                            "The query ran but returned no rows, and the checks say why:\n{}\n{}",
                            warnings.join("\n"),
                            REPLY_RULE
                        );
                        (warnings, repair)
                    } else {
                        answer.attempts.push(Attempt {
                            reply: reply.clone(),
                            problems: Vec::new(),
                        });
                        answer.status = Status::Answered;
                        answer.query = Some(query_text(&reply));
                        answer.rows = rows;
                        answer.warnings = warnings;
                        return Ok(answer);
                    }
                }
                Outcome::Rejected(text) => {
                    let problems: Vec<String> = text
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(str::to_owned)
                        .collect();
                    let repair = format!("The query was refused:\n{}\n{}", text.trim(), REPLY_RULE);
                    (problems, repair)
                }
            };
            answer.attempts.push(Attempt {
                reply: reply.clone(),
                problems,
            });
            messages.push(Message::assistant(reply));
            messages.push(Message::user(repair));
        }
        if let Some((query, rows, warnings)) = fallback {
            answer.status = Status::Answered;
            answer.query = Some(query);
            answer.rows = rows;
            answer.warnings = warnings;
        }
        Ok(answer)
    }
}

/// The instruction that ends every repair turn.
const REPLY_RULE: &str = "Reply with the corrected SurrealQL query only, or `-- cannot answer: <reason>` if the schema cannot answer the question.";

/// A reply as the query it holds: the fence removed, trimmed.
fn query_text(reply: &str) -> String {
    crate::validate::reply::strip_fence(reply).trim().to_owned()
}

/// The prompt for `question` from the database's own prompt functions on `db`:
/// `fn::nl2surql_prompt_pruned` when the schema has `prune(...)`, else `fn::nl2surql_prompt`.
///
/// Without a vector the EXAMPLES are the pool's by the question's words (BM25 over the pool's
/// questions, `fn::similar_examples(NONE, question)`); with one, both rankings fused by reciprocal rank.
pub async fn prompt<C: Connection>(
    db: &Surreal<C>,
    schema: &ir::Schema,
    question: &str,
    vector: Option<&[f64]>,
) -> Result<String, surrealdb::Error> {
    let function = if schema.settings.prune.is_some() {
        "fn::nl2surql_prompt_pruned"
    } else {
        "fn::nl2surql_prompt"
    };
    prompt_from(db, schema, function, question, vector).await
}

/// [`prompt`] from a named prompt function (`fn::nl2surql_prompt` or `fn::nl2surql_prompt_pruned`),
/// whatever the schema's `prune` setting.
pub async fn prompt_from<C: Connection>(
    db: &Surreal<C>,
    schema: &ir::Schema,
    function: &str,
    question: &str,
    vector: Option<&[f64]>,
) -> Result<String, surrealdb::Error> {
    let _ = schema; // the choice of function is the caller's
    Source::Function(function).prompt(db, question, vector).await
}

/// `fn::nl2surql_prompt_pruned`'s prompt, the same bytes, with the choice of tables made by
/// `pruner` (facts read once per connection; per question the searches in the database, the fill
/// in Rust, then `fn::pruned_prompt_for`) instead of the database's closures: what
/// [`Asker::pruner`] uses. Without a vector, as [`prompt`]; when the schema has no `prune(...)`,
/// [`prompt`] itself (the pruner is not asked).
pub async fn prompt_pruned<C: Connection>(
    db: &Surreal<C>,
    schema: &ir::Schema,
    pruner: &Pruner,
    question: &str,
    vector: Option<&[f64]>,
) -> Result<String, surrealdb::Error> {
    if schema.settings.prune.is_none() {
        return prompt(db, schema, question, vector).await;
    }
    Source::Pruner(pruner).prompt(db, question, vector).await
}

/// Where a prompt comes from: a prompt function of the database, or the application's pruner.
#[derive(Clone, Copy)]
enum Source<'p> {
    Function(&'p str),
    Pruner(&'p Pruner),
}

impl Source<'_> {
    async fn prompt<C: Connection>(
        self,
        db: &Surreal<C>,
        question: &str,
        qvec: Option<&[f64]>,
    ) -> Result<String, surrealdb::Error> {
        match self {
            Source::Pruner(pruner) => pruner.prompt_with(db, question, qvec).await,
            Source::Function(function) => super::module::prompt_function(db, function, question, qvec).await,
        }
    }
}
