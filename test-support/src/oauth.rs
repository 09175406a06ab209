//! A stand-in OAuth 2.1 authorization server on loopback, not a real one: its metadata (RFC 8414, `/.well-known/oauth-authorization-server` and `/.well-known/openid-configuration`), dynamic client registration (RFC 7591), the authorization-code grant with PKCE (S256 only) for one user who "signs in" by being named at start, access tokens (EdDSA JWTs of an [`idp::Key`](crate::idp::Key)) whose `aud` is the requested `resource` (RFC 8707), and its JWKS.

use crate::idp::{now, Key};
use crate::model_standin::{Reply, Request, StandIn};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{json, Value};
use sha2::Digest as _;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The audience of a token asked for without `resource`: not any MCP server's.
pub const NO_RESOURCE_AUDIENCE: &str = "no-resource-asked";

/// The server on loopback: `issuer` (`http://127.0.0.1:PORT`) and what it was asked.
pub struct AuthServer {
    pub issuer: String,
    pub jwks: String,
    pub server: StandIn,
}

/// A code handed out and what it was for.
#[derive(Clone)]
struct Grant {
    client_id: String,
    redirect_uri: String,
    challenge: String,
    resource: Option<String>,
    scope: String,
}

#[derive(Default)]
struct Memory {
    clients: HashMap<String, Vec<String>>,
    codes: HashMap<String, Grant>,
    issued: usize,
}

impl AuthServer {
    /// Signs tokens with `key`; whoever is sent to `/authorize` signs in as `user` (the `sub`).
    pub fn start(key: &Key, user: &str) -> AuthServer {
        let issuer: Arc<OnceLock<String>> = Arc::default();
        let memory: Arc<Mutex<Memory>> = Arc::default();
        let (seen, key, user) = (issuer.clone(), key.clone(), user.to_owned());
        let server = StandIn::start(move |_, request| {
            let issuer = seen.get().cloned().unwrap_or_default();
            let mut memory = memory.lock().expect("lock");
            answer(&issuer, &key, &user, &mut memory, request)
        });
        let origin = server.url.trim_end_matches("/v1").to_owned();
        issuer.set(origin.clone()).expect("set once");
        AuthServer {
            jwks: format!("{origin}/jwks.json"),
            issuer: origin,
            server,
        }
    }
}

/// A PKCE pair (RFC 7636): a fresh verifier and its S256 challenge.
pub fn pkce_pair() -> (String, String) {
    use std::hash::{BuildHasher, Hasher};
    let word = || std::collections::hash_map::RandomState::new().build_hasher().finish();
    let verifier = format!("{:016x}{:016x}{:016x}", word(), word(), word());
    let challenge = s256(&verifier);
    (verifier, challenge)
}

fn s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier.as_bytes()))
}

/// `a=1&b=x%20y` (a query or a form) as pairs, percent- and `+`-decoded.
pub fn form(text: &str) -> HashMap<String, String> {
    text.split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect()
}

/// `value` percent-encoded for a query or a form.
pub fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn error(status: u16, code: &str) -> Reply {
    Reply::status(status, &json!({"error": code}).to_string())
}

fn answer(issuer: &str, key: &Key, user: &str, memory: &mut Memory, request: &Request) -> Reply {
    let (path, query) = request.path.split_once('?').unwrap_or((&request.path, ""));
    match (request.method.as_str(), path) {
        ("GET", "/.well-known/oauth-authorization-server" | "/.well-known/openid-configuration") => Reply::ok(json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{issuer}/authorize"),
            "token_endpoint": format!("{issuer}/token"),
            "registration_endpoint": format!("{issuer}/register"),
            "jwks_uri": format!("{issuer}/jwks.json"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "scopes_supported": ["mcp:tools"],
        })),
        ("GET", "/jwks.json") => Reply::ok(json!({ "keys": [key.jwk()] })),
        ("POST", "/register") => register(memory, &request.body),
        ("GET", "/authorize") => authorize(memory, user, &form(query)),
        ("POST", "/token") => token(issuer, key, user, memory, &form(&request.text)),
        _ => error(404, "not_found"),
    }
}

/// RFC 7591: a public client (no secret) with its redirect URIs.
fn register(memory: &mut Memory, body: &Value) -> Reply {
    let uris: Vec<String> = body["redirect_uris"]
        .as_array()
        .map(|a| a.iter().filter_map(|u| u.as_str().map(str::to_owned)).collect())
        .unwrap_or_default();
    if uris.is_empty() {
        return error(400, "invalid_redirect_uri");
    }
    memory.issued += 1;
    let client_id = format!("client-{}", memory.issued);
    memory.clients.insert(client_id.clone(), uris.clone());
    let mut client = body.clone();
    client["client_id"] = json!(client_id);
    client["client_id_issued_at"] = json!(now());
    client["token_endpoint_auth_method"] = json!("none");
    client["grant_types"] = json!(["authorization_code"]);
    client["response_types"] = json!(["code"]);
    Reply {
        status: 201,
        ..Reply::ok(client)
    }
}

/// The user approves at once: a redirect to the client's URI with a code (or the error).
fn authorize(memory: &mut Memory, _user: &str, q: &HashMap<String, String>) -> Reply {
    let get = |k: &str| q.get(k).cloned().unwrap_or_default();
    let (client_id, redirect_uri) = (get("client_id"), get("redirect_uri"));
    let known = memory
        .clients
        .get(&client_id)
        .is_some_and(|uris| uris.contains(&redirect_uri));
    if !known {
        // Never redirect to a URI the client did not register.
        return error(400, "invalid_client");
    }
    let redirect = |params: String| Reply {
        status: 302,
        location: Some(format!("{redirect_uri}?{params}&state={}", encode(&get("state")))),
        ..Reply::ok(json!({}))
    };
    if get("response_type") != "code" || get("code_challenge_method") != "S256" || get("code_challenge").is_empty() {
        return redirect("error=invalid_request".into());
    }
    memory.issued += 1;
    let code = format!("code-{}-{}", memory.issued, pkce_pair().0);
    memory.codes.insert(
        code.clone(),
        Grant {
            client_id,
            redirect_uri: redirect_uri.clone(),
            challenge: get("code_challenge"),
            resource: q.get("resource").cloned(),
            scope: get("scope"),
        },
    );
    redirect(format!("code={}", encode(&code)))
}

/// The code for a token, once, by the client it was for, with the verifier of its challenge.
fn token(issuer: &str, key: &Key, user: &str, memory: &mut Memory, f: &HashMap<String, String>) -> Reply {
    let get = |k: &str| f.get(k).cloned().unwrap_or_default();
    if get("grant_type") != "authorization_code" {
        return error(400, "unsupported_grant_type");
    }
    let Some(grant) = memory.codes.remove(&get("code")) else {
        return error(400, "invalid_grant");
    };
    let verified = s256(&get("code_verifier")) == grant.challenge;
    if grant.client_id != get("client_id") || grant.redirect_uri != get("redirect_uri") || !verified {
        return error(400, "invalid_grant");
    }
    let resource = f.get("resource").cloned().or(grant.resource);
    let claims = json!({
        "iss": issuer,
        "sub": user,
        "aud": resource.as_deref().unwrap_or(NO_RESOURCE_AUDIENCE),
        "client_id": grant.client_id,
        "scope": grant.scope,
        "iat": now(),
        "exp": now() + 600,
    });
    Reply::ok(json!({
        "access_token": key.sign(&claims),
        "token_type": "Bearer",
        "expires_in": 600,
        "scope": grant.scope,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_decode_and_encode() {
        let f = form("a=1&b=x%20y+z&c=http%3A%2F%2Fh%2Fp");
        assert_eq!(f["b"], "x y z");
        assert_eq!(f["c"], "http://h/p");
        assert_eq!(decode(&encode("http://h/p?q=1 2")), "http://h/p?q=1 2");
        assert_eq!(
            s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }
}
