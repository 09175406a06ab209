//! `--per-user` over HTTP: each request's bearer token opens its end user's session (a surqlc scope token, verified by the engine; or the team's identity provider's JWT, verified by `oidc` and mapped to the user), and a request whose token opens none is answered 401 after its audit line.

use super::audit_log::{rfc3339, Record};
use super::oidc::{Idp, Provider, Refusal};
use super::resource::Resource;
use super::state::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// An end user's session, opened by [`require_user`] from the request's bearer token.
#[derive(Clone)]
pub(super) struct UserSession(pub crate::runtime::Agent<surrealdb::engine::any::Any>);

/// A session opened from a token, who it is, and until when it may be used (an identity
/// provider's token: its `exp`; the engine ends a scope token's session itself).
#[derive(Clone)]
struct Seen {
    session: UserSession,
    subject: String,
    until: Option<u64>,
}

/// Where `--per-user` sessions are opened, and the sessions of the tokens seen lately (a client
/// sends its token with every request; authenticating each again would open a session each).
#[derive(Clone)]
pub(super) struct Users {
    state: Arc<State>,
    idp: Option<Arc<Idp>>,
    /// With the identity provider: the protected resource its tokens are for (`resource`).
    resource: Option<Arc<Resource>>,
    seen: Arc<Mutex<HashMap<String, Seen>>>,
}

/// How many tokens' sessions are kept; past it the oldest are forgotten all at once.
const USERS_KEPT: usize = 1024;

/// Why no session was opened: a code for the audit log, what the caller is told, the status.
struct Refused {
    code: &'static str,
    message: String,
    status: StatusCode,
}

impl Refused {
    fn unauthorized(code: &'static str, message: impl Into<String>) -> Refused {
        Refused {
            code,
            message: message.into(),
            status: StatusCode::UNAUTHORIZED,
        }
    }
}

impl From<Refusal> for Refused {
    fn from(refusal: Refusal) -> Refused {
        let status = match refusal {
            Refusal::KeysUnavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::UNAUTHORIZED,
        };
        Refused {
            code: refusal.code(),
            message: refusal.message(),
            status,
        }
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Users {
    pub(super) fn new(state: Arc<State>, idp: Option<Arc<Idp>>, resource: Option<Arc<Resource>>) -> Users {
        Users {
            state,
            idp,
            resource,
            seen: Arc::default(),
        }
    }

    /// The session `token` opens and its subject, or why none (bad signature, expired, not a user
    /// of the scope's end-user table, or an identity provider's refusal).
    async fn session(&self, token: &str) -> Result<(UserSession, String), Refused> {
        let known = self.seen.lock().ok().and_then(|seen| seen.get(token).cloned());
        if let Some(seen) = known.filter(|s| s.until.is_none_or(|until| now() < until)) {
            // The engine ends a session at its `DURATION FOR SESSION`: then authenticate again.
            if seen.session.0.session().query("RETURN $auth").await.is_ok() {
                return Ok((seen.session, seen.subject));
            }
        }
        let seen = match &self.idp {
            Some(idp) if Provider::claims(token) => self.from_provider(idp, token).await?,
            _ => self.from_scope_token(token).await?,
        };
        if let Ok(mut kept) = self.seen.lock() {
            if kept.len() >= USERS_KEPT {
                kept.clear();
            }
            kept.insert(token.to_owned(), seen.clone());
        }
        Ok((seen.session, seen.subject))
    }

    /// A surqlc scope token: the engine verifies it and admits only an existing end user.
    async fn from_scope_token(&self, token: &str) -> Result<Seen, Refused> {
        let (namespace, database) = self.state.per_user_target().unwrap_or_default();
        let session = crate::runtime::scope::authenticate(&self.state.reader(), namespace, database, token)
            .await
            .map_err(|_| {
                Refused::unauthorized(
                    "invalid_token",
                    "send an end user's token (signed by the application with its scope key, or by the identity provider) \
                     as `Authorization: Bearer <token>`",
                )
            })?;
        Ok(Seen {
            session: UserSession(session),
            subject: super::observe::token_subject(token).unwrap_or_default(),
            until: None,
        })
    }

    /// The identity provider's token, verified here; the user's session is then opened with a
    /// scope token signed for them, so the engine admits only an existing end user and its
    /// PERMISSIONS decide the rows.
    async fn from_provider(&self, idp: &Idp, token: &str) -> Result<Seen, Refused> {
        let resource = self.resource.as_deref();
        let verified = idp.provider.verify(token, resource.map(|r| r.url.as_str())).await?;
        let missing = resource.map(|r| r.missing_scopes(&verified.scopes)).unwrap_or_default();
        if !missing.is_empty() {
            return Err(Refused {
                code: "insufficient_scope",
                message: format!(
                    "the identity provider's token does not grant the scope {}",
                    missing.join(" ")
                ),
                status: StatusCode::FORBIDDEN,
            });
        }
        let (namespace, database) = self.state.per_user_target().unwrap_or_default();
        let scope = crate::runtime::Scope::from_ir(&idp.scope, namespace, database, &verified.user);
        let session =
            crate::runtime::scope::authenticate(&self.state.reader(), namespace, database, &scope.token(&idp.key))
                .await
                .map_err(|_| {
                    Refused::unauthorized(
                        "unknown_user",
                        format!(
                            "the identity provider's token names no {} this server knows",
                            idp.scope.end_user
                        ),
                    )
                })?;
        Ok(Seen {
            session: UserSession(session),
            subject: verified.user,
            until: Some(verified.expires_at),
        })
    }
}

/// `--per-user`: `401 Unauthorized` (503 when the provider's keys cannot be fetched, 403 when its
/// token lacks a `--scope`) unless the request's bearer token opens an end user's session, which
/// then goes with the request to the tools. A refused request gets its audit line first (subject
/// `unauthenticated`; the token is never written); with the identity provider, its
/// `WWW-Authenticate` points at the protected-resource metadata.
pub(super) async fn require_user(
    axum::extract::State(users): axum::extract::State<Users>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let offered = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| super::auth::bearer(v.as_bytes()))
        .and_then(|t| std::str::from_utf8(t).ok())
        .map(str::to_owned);
    let opened = match &offered {
        Some(token) => users.session(token).await,
        None => Err(Refused::unauthorized(
            "no_token",
            "send an end user's token as `Authorization: Bearer <token>`",
        )),
    };
    match opened {
        Ok((user, subject)) => {
            request.extensions_mut().insert(super::observe::Subject(subject));
            request.extensions_mut().insert(user);
            next.run(request).await
        }
        Err(refused) => {
            let challenge = match (refused.status, offered.is_some()) {
                (StatusCode::FORBIDDEN, _) => Some("insufficient_scope"),
                (_, true) => Some("invalid_token"),
                (_, false) => None,
            };
            let challenge = match &users.resource {
                Some(resource) => resource.challenge(challenge),
                None => challenge.map_or("Bearer".into(), |e| format!(r#"Bearer error="{e}""#)),
            };
            refuse(&users.state, request, challenge, refused).await
        }
    }
}

/// The refusal's audit line (the tool and its arguments when the request is a `tools/call`, else
/// the request's method), then its answer.
async fn refuse(state: &State, request: axum::extract::Request, challenge: String, refused: Refused) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, super::ops::BODY_LIMIT)
        .await
        .unwrap_or_default();
    let call: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    let params = &call["params"];
    let argument = |key: &str| params["arguments"][key].as_str().map(str::to_owned);
    let tool = refused_tool(state, &call, &parts.method);
    let message = format!(
        "{} {}: {}",
        refused.status.as_u16(),
        reason(refused.status),
        refused.message
    );
    let record = Record {
        ts: rfc3339(std::time::SystemTime::now()),
        subject: "unauthenticated".into(),
        session: parts
            .headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        tool,
        question: argument("question"),
        query: argument("query"),
        verdict: if refused.status.is_client_error() {
            "refused"
        } else {
            "error"
        },
        codes: vec![refused.code.into()],
        rows: None,
        truncated: false,
        duration_ms: 0.0,
        error: Some(message.clone()),
    };
    // Refused either way; an audit log that is down is said on stderr by the log itself.
    let _ = state.observer.refused_unstarted(record);
    (
        refused.status,
        [(header::WWW_AUTHENTICATE, challenge)],
        format!("{message}\n"),
    )
        .into_response()
}

/// What the audit line and the metrics call a refused request, from a bounded set (the caller,
/// unauthenticated, chooses the request, and every name becomes a metrics label): a tool of this
/// server, `unknown_tool`, one of MCP's methods, or `other` (`GET`, `DELETE`, anything else).
fn refused_tool(state: &State, call: &serde_json::Value, method: &axum::http::Method) -> String {
    const METHODS: [&str; 5] = [
        "initialize",
        "notifications/initialized",
        "tools/list",
        "ping",
        "resources/list",
    ];
    match call["method"].as_str() {
        Some("tools/call") => {
            let name = call["params"]["name"].as_str().unwrap_or_default();
            let builtin = [super::tools::SCHEMA, super::tools::CHECK_QUERY, super::tools::RUN_QUERY];
            let remember = state.editor.is_some() && name == super::tools::REMEMBER_EXAMPLE;
            let known = builtin.contains(&name) || remember || state.extra.iter().any(|t| t.tool().name == name);
            if known {
                name.to_owned()
            } else {
                "unknown_tool".into()
            }
        }
        Some(m) if METHODS.contains(&m) => m.to_owned(),
        _ if method == axum::http::Method::GET => "GET".into(),
        _ => "other".into(),
    }
}

fn reason(status: StatusCode) -> &'static str {
    status.canonical_reason().unwrap_or("Refused")
}
