//! A [`Model`] and [`Embedder`] for OpenAI-compatible endpoints (OpenAI, Ollama, vLLM, llama.cpp's server): chat completions and embeddings over reqwest, configured from the environment, every failure a one-line cause.

use super::ask::{Embedder, Message, Model, ModelError, ModelErrorKind};
use serde::Deserialize;
use std::time::Duration;

/// The API base, e.g. `http://localhost:11434/v1` (Ollama) or `https://api.openai.com/v1`.
pub const URL_ENV: &str = "SURQLC_MODEL_URL";
/// The chat model's name.
pub const MODEL_ENV: &str = "SURQLC_MODEL";
/// The embedding model's name (optional).
pub const EMBED_MODEL_ENV: &str = "SURQLC_EMBED_MODEL";
/// The API key, sent as a bearer token.
pub const API_KEY_ENV: &str = "SURQLC_API_KEY";
/// Also accepted for the API key.
pub const OPENAI_API_KEY_ENV: &str = "OPENAI_API_KEY";
/// Seconds to wait for one answer (default 120).
pub const TIMEOUT_ENV: &str = "SURQLC_MODEL_TIMEOUT";

/// How to reach the endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The API base; `/chat/completions` and `/embeddings` are appended.
    pub url: String,
    /// The chat model's name as the endpoint knows it (`gpt-4o-mini`, a local model's tag).
    pub model: String,
    /// The embedding model's name; `None`: no embedder, so the prompt's examples are not chosen by the question.
    pub embed_model: Option<String>,
    /// Sent as `Authorization: Bearer ...`; `None` for an endpoint that needs no key.
    pub api_key: Option<String>,
    /// How long one request may take, connecting included.
    pub timeout: Duration,
    /// The length embeddings must have (the schema's `examples(dimension)`), when known.
    pub dimension: Option<usize>,
}

impl Config {
    /// A configuration for `model` at `url`, no key, no embedding model, a 120 s timeout.
    pub fn new(url: impl Into<String>, model: impl Into<String>) -> Self {
        Config {
            url: url.into(),
            model: model.into(),
            embed_model: None,
            api_key: None,
            timeout: Duration::from_secs(120),
            dimension: None,
        }
    }

    /// The configuration the environment holds: `None` when `SURQLC_MODEL_URL` is not set; an
    /// error when it is but `SURQLC_MODEL` is not, or the timeout is not a number.
    pub fn from_env() -> Result<Option<Config>, ModelError> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let Some(url) = var(URL_ENV) else {
            return Ok(None);
        };
        let model = var(MODEL_ENV).ok_or_else(|| {
            ModelError::new(
                ModelErrorKind::Configuration,
                format!("{URL_ENV} is set but {MODEL_ENV} is not: set it to the chat model's name (e.g. llama3.1, gpt-4o-mini)"),
            )
        })?;
        let mut config = Config::new(url.trim(), model.trim());
        config.embed_model = var(EMBED_MODEL_ENV).map(|m| m.trim().to_owned());
        config.api_key = var(API_KEY_ENV).or_else(|| var(OPENAI_API_KEY_ENV));
        if let Some(seconds) = var(TIMEOUT_ENV) {
            let seconds: f64 = seconds.trim().parse().ok().filter(|s| *s > 0.0).ok_or_else(|| {
                ModelError::new(
                    ModelErrorKind::Configuration,
                    format!("{TIMEOUT_ENV} is `{seconds}`, not a number of seconds"),
                )
            })?;
            config.timeout = Duration::from_secs_f64(seconds);
        }
        Ok(Some(config))
    }

    /// How to configure a model, for a message when none is.
    pub fn how_to_configure() -> String {
        format!(
            "no model is configured: set {URL_ENV} to an OpenAI-compatible API base (e.g. \
                http://localhost:11434/v1 for Ollama) and {MODEL_ENV} to the chat model; optionally \
                {EMBED_MODEL_ENV} (embeddings of the schema's examples(dimension)) and {API_KEY_ENV} (or \
                {OPENAI_API_KEY_ENV})"
        )
    }
}

/// The client: one `reqwest` connection pool for both APIs.
#[derive(Debug, Clone)]
pub struct OpenAi {
    http: reqwest::Client,
    config: Config,
}

impl OpenAi {
    /// A client for `config`; an error only when the HTTP client cannot start.
    pub fn new(config: Config) -> Result<Self, ModelError> {
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            .build()
            .map_err(|e| {
                ModelError::new(
                    ModelErrorKind::Configuration,
                    format!("cannot start the HTTP client: {e}"),
                )
            })?;
        Ok(OpenAi { http, config })
    }

    /// The configuration it was built with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Whether an embedding model is configured.
    pub fn embeds(&self) -> bool {
        self.config.embed_model.is_some()
    }

    fn endpoint(&self, path: &str) -> String {
        format!("{}/{path}", self.config.url.trim_end_matches('/'))
    }

    /// POSTs `body` as JSON to `path` and reads the answer as `T`.
    async fn post<T: for<'de> Deserialize<'de>>(
        &self,
        path: &str,
        model: &str,
        body: serde_json::Value,
    ) -> Result<T, ModelError> {
        let url = self.endpoint(path);
        // The body is written here rather than by reqwest's `json` feature, which would change
        // the feature set of the reqwest the engine already links (and so rebuild the engine).
        let mut request = self
            .http
            .post(&url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_string());
        if let Some(key) = &self.config.api_key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.map_err(|e| self.transport(&url, e))?;
        let status = response.status();
        let text = response.text().await.map_err(|e| self.transport(&url, e))?;
        if !status.is_success() {
            return Err(status_error(status.as_u16(), &url, model, &text));
        }
        serde_json::from_str(&text).map_err(|e| {
            ModelError::new(
                ModelErrorKind::Reply,
                format!(
                    "{url} answered with something other than the OpenAI API's JSON ({e}): {}",
                    excerpt(&text)
                ),
            )
        })
    }

    fn transport(&self, url: &str, e: reqwest::Error) -> ModelError {
        if e.is_timeout() {
            ModelError::new(
                ModelErrorKind::Timeout,
                format!(
                    "the model endpoint {url} did not answer within {:?} (set {TIMEOUT_ENV} to wait longer)",
                    self.config.timeout
                ),
            )
        } else if e.is_connect() {
            ModelError::new(
                ModelErrorKind::Unreachable,
                format!(
                    "cannot reach the model endpoint {url}: {} (is the server running? {URL_ENV} is the API base, e.g. http://localhost:11434/v1)",
                    root_cause(&e)
                ),
            )
        } else {
            ModelError::new(
                ModelErrorKind::Unreachable,
                format!("the request to the model endpoint {url} failed: {}", root_cause(&e)),
            )
        }
    }
}

/// The innermost error's text: reqwest's own says only "error sending request".
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// At most 200 characters of a server's text, on one line.
fn excerpt(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line,
    }
}

/// An HTTP error status as a cause: the server's own `error.message` when it sent one.
fn status_error(status: u16, url: &str, model: &str, body: &str) -> ModelError {
    let said = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            v.pointer("/error/message")
                .or_else(|| v.get("error"))
                .and_then(|m| m.as_str().map(str::to_owned))
        })
        .unwrap_or_else(|| excerpt(body));
    let said = if said.is_empty() {
        String::new()
    } else {
        format!(": {}", excerpt(&said))
    };
    let advice = match status {
        401 | 403 => format!(" (check the API key: {API_KEY_ENV}, or {OPENAI_API_KEY_ENV}, is sent as a bearer token)"),
        404 => format!(
            " (check {URL_ENV}, the API base such as http://localhost:11434/v1, and that the model `{model}` exists)"
        ),
        429 => " (rate limited: wait, or lower the request rate)".to_owned(),
        500..=599 => " (the model server failed; try again or check its log)".to_owned(),
        _ => String::new(),
    };
    ModelError::new(
        ModelErrorKind::Status(status),
        format!("HTTP {status} from {url}{said}{advice}"),
    )
}

#[derive(Deserialize)]
struct Completion {
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    message: ChoiceMessage,
}

#[derive(Deserialize)]
struct ChoiceMessage {
    content: Option<String>,
}

#[derive(Deserialize)]
struct Embeddings {
    data: Vec<EmbeddingItem>,
}

#[derive(Deserialize)]
struct EmbeddingItem {
    embedding: Vec<f64>,
}

impl Model for OpenAi {
    /// `POST {url}/chat/completions` with the conversation and temperature 0: the first choice's text.
    async fn complete(&self, messages: &[Message]) -> Result<String, ModelError> {
        let model = &self.config.model;
        let body = serde_json::json!({
            "model": model,
            "messages": messages,
            "temperature": 0,
        });
        let completion: Completion = self.post("chat/completions", model, body).await?;
        completion
            .choices
            .into_iter()
            .next()
            .and_then(|c| c.message.content)
            .ok_or_else(|| {
                ModelError::new(
                    ModelErrorKind::Reply,
                    format!("the model `{model}` returned no message (the completion has no choices)"),
                )
            })
    }
}

impl Embedder for OpenAi {
    /// `POST {url}/embeddings` with the text: its vector, checked against [`Config::dimension`].
    async fn embed(&self, text: &str) -> Result<Vec<f64>, ModelError> {
        let Some(model) = &self.config.embed_model else {
            return Err(ModelError::new(
                ModelErrorKind::Configuration,
                format!("no embedding model is configured: set {EMBED_MODEL_ENV}"),
            ));
        };
        let body = serde_json::json!({ "model": model, "input": text });
        let embeddings: Embeddings = self.post("embeddings", model, body).await?;
        let vector = embeddings.data.into_iter().next().map(|d| d.embedding).ok_or_else(|| {
            ModelError::new(
                ModelErrorKind::Reply,
                format!("the embedding model `{model}` returned no embedding"),
            )
        })?;
        if let Some(dimension) = self.config.dimension {
            if vector.len() != dimension {
                return Err(ModelError::new(
                    ModelErrorKind::Dimension,
                    format!(
                        "the embedding model `{model}` returned {} values, but the schema's few-shot pool has \
                            examples(dimension = {dimension}): set {EMBED_MODEL_ENV} to a model of that size, \
                            or change the dimension and re-embed the examples",
                        vector.len()
                    ),
                ));
            }
        }
        Ok(vector)
    }
}
