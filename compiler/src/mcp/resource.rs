//! `--per-user` with an identity provider, as an OAuth 2.1 protected resource for hosted clients: its metadata (RFC 9728) at `/.well-known/oauth-protected-resource` (and the path-suffixed form), the `WWW-Authenticate` challenge every 401 carries to point at it, the resource URL a token's `aud` may name (RFC 8707), and `--scope`'s check.

use super::audit_log::{rfc3339, Record};
use super::state::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Where the protected-resource metadata is served, before the resource's path is appended.
pub(super) const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// What the metadata says and where it is: worked out once when the listener is bound.
#[derive(Debug, Clone)]
pub(super) struct Resource {
    /// The MCP endpoint's public URL (`--public-url`, else `http://ADDR/mcp`): the metadata's
    /// `resource`, and an audience a provider's token may carry.
    pub url: String,
    /// Where its metadata is: the URL's origin, [`WELL_KNOWN`], then the URL's path (RFC 9728 §3.1).
    pub metadata_url: String,
    /// The paths this server answers the metadata at.
    pub paths: Vec<String>,
    /// The provider's issuer: the one authorization server.
    issuer: String,
    /// `--scope`: each one a provider's token must hold.
    pub scopes: Vec<String>,
    /// The metadata's `resource_name`.
    name: String,
}

impl Resource {
    /// The resource at `public_url` (else `http://BOUND/mcp`), its tokens from `issuer`. A
    /// public URL that is not an absolute `http(s)://` URL without query or fragment is bad input.
    pub(super) fn new(
        public_url: Option<&str>,
        bound: std::net::SocketAddr,
        issuer: &str,
        scopes: &[String],
        schema: &str,
    ) -> Result<Resource, String> {
        let url = match public_url {
            Some(url) => url.to_owned(),
            None => format!("http://{bound}/mcp"),
        };
        let (origin, path) = split(&url)?;
        let path = path.trim_end_matches('/');
        let mut paths = vec![WELL_KNOWN.to_owned(), format!("{WELL_KNOWN}/mcp")];
        if !path.is_empty() && path != "/mcp" {
            paths.push(format!("{WELL_KNOWN}{path}"));
        }
        Ok(Resource {
            metadata_url: format!("{origin}{WELL_KNOWN}{path}"),
            url,
            paths,
            issuer: issuer.to_owned(),
            scopes: scopes.to_vec(),
            name: format!("surqlc MCP: {schema}"),
        })
    }

    /// The metadata document (RFC 9728 §2).
    pub(super) fn metadata(&self) -> serde_json::Value {
        let mut doc = serde_json::json!({
            "resource": self.url,
            "authorization_servers": [self.issuer],
            "bearer_methods_supported": ["header"],
            "resource_name": self.name,
        });
        if !self.scopes.is_empty() {
            doc["scopes_supported"] = serde_json::json!(self.scopes);
        }
        doc
    }

    /// `WWW-Authenticate`'s value: `Bearer resource_metadata="..."`, with `error` (RFC 6750 §3)
    /// when a token was sent and refused, and the scopes wanted when it lacked one.
    pub(super) fn challenge(&self, error: Option<&str>) -> String {
        let mut challenge = format!(r#"Bearer resource_metadata="{}""#, self.metadata_url);
        if let Some(error) = error {
            challenge += &format!(r#", error="{error}""#);
            if error == "insufficient_scope" {
                challenge += &format!(r#", scope="{}""#, self.scopes.join(" "));
            }
        }
        challenge
    }

    /// The `--scope`s a verified token's claims do not grant: its `scope` (RFC 8693/9068: one
    /// space-separated string) and `scp` (Entra ID's string, Okta's array) together.
    pub(super) fn missing_scopes(&self, granted: &[String]) -> Vec<String> {
        self.scopes.iter().filter(|s| !granted.contains(s)).cloned().collect()
    }
}

/// `url`'s origin (`https://host:port`) and path; why not, when it is not one a client can use.
fn split(url: &str) -> Result<(&str, &str), String> {
    let bad = |why: &str| format!("--public-url {url:?}: {why} (e.g. https://mcp.example.com/mcp)");
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| bad("write the MCP endpoint's public URL as https://HOST/PATH"))?;
    if url.contains(['?', '#']) || url.chars().any(char::is_whitespace) {
        return Err(bad("a resource URL has no query, fragment or spaces (RFC 8707)"));
    }
    let authority_len = rest.find('/').unwrap_or(rest.len());
    if authority_len == 0 || rest[..authority_len].contains('@') {
        return Err(bad("it needs a host and no user"));
    }
    let at = url.len() - rest.len() + authority_len;
    Ok((&url[..at], &url[at..]))
}

/// `router` with the metadata routes beside it, outside the user's layer (no token needed), each
/// request counted and, under `--rate-limit`, limited per peer address like a tool call.
pub(super) fn with_metadata(router: axum::Router, resource: Arc<Resource>, state: Arc<State>) -> axum::Router {
    let mut routes = axum::Router::new();
    for path in &resource.paths {
        let (resource, state) = (resource.clone(), state.clone());
        routes = routes.route(
            path,
            axum::routing::get(
                move |axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
                      headers: axum::http::HeaderMap| {
                    let (resource, state) = (resource.clone(), state.clone());
                    async move { metadata(&resource, &state, peer, &headers) }
                },
            ),
        );
    }
    routes.merge(router)
}

/// The metadata label in the metrics and the audit log.
const METADATA_TOOL: &str = "oauth-protected-resource";

fn metadata(
    resource: &Resource,
    state: &State,
    peer: std::net::SocketAddr,
    headers: &axum::http::HeaderMap,
) -> Response {
    let started = std::time::Instant::now();
    if let Some(limiter) = &state.observer.limiter {
        let subject = format!("unauthenticated@{}", peer.ip());
        if let Err(wait) = limiter.take(&subject) {
            let retry = wait.as_secs_f64().ceil().max(1.0) as u64;
            let message = format!("429 Too Many Requests: over this server's --rate-limit; retry in {retry} s");
            let record = Record {
                ts: rfc3339(std::time::SystemTime::now()),
                subject: "unauthenticated".into(),
                session: headers
                    .get("mcp-session-id")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned),
                tool: METADATA_TOOL.into(),
                question: None,
                query: None,
                verdict: "refused",
                codes: vec!["rate_limited".into()],
                rows: None,
                truncated: false,
                duration_ms: 0.0,
                error: Some(message.clone()),
            };
            let _ = state.observer.refused_unstarted(record);
            return (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, retry.to_string())],
                format!("{message}\n"),
            )
                .into_response();
        }
    }
    let answer = (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "max-age=300"),
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
        ],
        resource.metadata().to_string(),
    )
        .into_response();
    state
        .observer
        .metrics
        .call(METADATA_TOOL, "ok", &[], started.elapsed().as_secs_f64());
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(url: Option<&str>) -> Result<Resource, String> {
        Resource::new(url, "127.0.0.1:8765".parse().unwrap(), "https://idp", &[], "store")
    }

    #[test]
    fn the_metadata_url_puts_the_well_known_path_between_origin_and_path() {
        let local = at(None).unwrap();
        assert_eq!(local.url, "http://127.0.0.1:8765/mcp");
        assert_eq!(
            local.metadata_url,
            "http://127.0.0.1:8765/.well-known/oauth-protected-resource/mcp"
        );
        let hosted = at(Some("https://mcp.example.com/tools/mcp")).unwrap();
        assert_eq!(
            hosted.metadata_url,
            "https://mcp.example.com/.well-known/oauth-protected-resource/tools/mcp"
        );
        assert!(hosted
            .paths
            .contains(&"/.well-known/oauth-protected-resource/tools/mcp".to_owned()));
        let root = at(Some("https://mcp.example.com")).unwrap();
        assert_eq!(
            root.metadata_url,
            "https://mcp.example.com/.well-known/oauth-protected-resource"
        );
        for bad in [
            "mcp.example.com/mcp",
            "https://mcp.example.com/mcp#x",
            "https:///mcp",
            "https://u@h/mcp",
        ] {
            assert!(at(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_missing_scope_is_said_in_the_challenge() {
        let r = Resource::new(None, "127.0.0.1:1".parse().unwrap(), "i", &["mcp:read".into()], "s").unwrap();
        assert_eq!(r.missing_scopes(&["other".into()]), ["mcp:read"]);
        assert!(r.missing_scopes(&["mcp:read".into()]).is_empty());
        assert_eq!(
            r.challenge(Some("insufficient_scope")),
            r#"Bearer resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp", error="insufficient_scope", scope="mcp:read""#
        );
    }
}
