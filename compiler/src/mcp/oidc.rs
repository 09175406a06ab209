//! `--per-user` with the team's own identity provider: a JWT verified here against the provider's JWKS (fetched over HTTPS, cached, fetched again for an unknown `kid`), its `exp`/`nbf`/`iss`/`aud` checked, its user claim mapped to the end-user record; the engine session is then opened with a scope token surqlc signs, so the engine's PERMISSIONS still decide the rows.
//!
//! Why not the engine's own `DEFINE ACCESS ... WITH JWT URL`: the engine routes a token by
//! SurrealDB's `NS`/`DB`/`AC` claims, which a provider's ordinary token lacks, and the engine
//! surqlc links is built without its `jwks` feature (`tests/oidc_engine.rs` proves both).

use crate::ir::Oidc;
use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use std::time::{Duration, Instant};

/// How long a fetched key set is used before it is fetched again.
const KEYS_FRESH: Duration = Duration::from_secs(600);
/// The shortest time between two fetches an unknown `kid` causes (so a stream of made-up `kid`s
/// cannot make the server hammer the provider).
const REFETCH_COOLDOWN: Duration = Duration::from_secs(10);
/// How long a fetch may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest key set read.
const KEYS_LIMIT: usize = 1 << 20;
/// Clock skew allowed on `exp` and `nbf`, in seconds.
const LEEWAY: u64 = 30;

/// The identity provider, and what opening a session for its users needs.
pub(super) struct Idp {
    pub provider: Provider,
    /// The schema's scope: the access and token duration of the scope tokens signed for its users.
    pub scope: crate::ir::Scope,
    /// The scope key those tokens are signed with.
    pub key: String,
    /// `--public-url`: the protected resource's URL, when not `http://ADDR/mcp`.
    pub public_url: Option<String>,
    /// `--scope`: what every token must grant.
    pub scopes: Vec<String>,
}

/// Why a provider's token was refused: the audit log's code, and what the 401 says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Refusal {
    Expired,
    NotYetValid,
    WrongIssuer,
    WrongAudience,
    /// No key of the JWKS has the token's `kid` (or it names none and the set has several).
    UnknownKey,
    /// The key the token names did not sign it.
    BadSignature,
    /// Not a JWT the provider could have signed (its algorithm, a missing claim, bad encoding).
    Malformed(String),
    /// The user claim is missing or not a string or integer.
    NoUserClaim(String),
    /// The key set could not be fetched: the server's problem, not the caller's.
    KeysUnavailable(String),
}

impl Refusal {
    /// The code the audit log and the metrics give this refusal.
    pub(super) fn code(&self) -> &'static str {
        match self {
            Refusal::Expired => "token_expired",
            Refusal::NotYetValid => "token_not_yet_valid",
            Refusal::WrongIssuer => "wrong_issuer",
            Refusal::WrongAudience => "wrong_audience",
            Refusal::UnknownKey => "unknown_key",
            Refusal::BadSignature => "bad_signature",
            Refusal::Malformed(_) => "bad_token",
            Refusal::NoUserClaim(_) => "no_user_claim",
            Refusal::KeysUnavailable(_) => "jwks_unavailable",
        }
    }

    /// What the caller is told (never a claim's value, never the token).
    pub(super) fn message(&self) -> String {
        match self {
            Refusal::Expired => "the identity provider's token has expired".into(),
            Refusal::NotYetValid => "the identity provider's token is not valid yet (nbf)".into(),
            Refusal::WrongIssuer => "the token's issuer (iss) is not this server's identity provider".into(),
            Refusal::WrongAudience => "the token's audience (aud) is not this server's".into(),
            Refusal::UnknownKey => "the token's key (kid) is not in the identity provider's JWKS".into(),
            Refusal::BadSignature => "the token's signature does not verify with the identity provider's key".into(),
            Refusal::Malformed(why) => format!("not a token of the identity provider: {why}"),
            Refusal::NoUserClaim(claim) => format!("the token has no `{claim}` claim naming the end user"),
            Refusal::KeysUnavailable(why) => format!("the identity provider's JWKS cannot be fetched: {why}"),
        }
    }
}

/// A token the provider signed, checked: the end user's record id and when the token expires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Verified {
    /// `customer:mei`: `type::record('<end_user>', <claim>)` as SurrealQL writes it.
    pub user: String,
    /// The token's `exp`, seconds since the epoch: the session is not used after it.
    pub expires_at: u64,
    /// The scopes its `scope` and `scp` claims grant.
    pub scopes: Vec<String>,
}

/// The provider: its settings, the end-user table, and the key set as last fetched.
pub(super) struct Provider {
    config: Oidc,
    end_user: String,
    client: reqwest::Client,
    keys: tokio::sync::Mutex<Keys>,
}

#[derive(Default)]
struct Keys {
    set: Option<JwkSet>,
    fetched: Option<Instant>,
}

impl Provider {
    /// The provider of `config`, whose user claim names rows of `end_user`.
    pub(super) fn new(config: Oidc, end_user: &str) -> Result<Provider, String> {
        config.check()?;
        let client = reqwest::Client::builder()
            .timeout(FETCH_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| format!("cannot make the JWKS client: {e}"))?;
        Ok(Provider {
            config,
            end_user: end_user.to_owned(),
            client,
            keys: tokio::sync::Mutex::default(),
        })
    }

    /// The `iss` its tokens carry: the authorization server.
    pub(super) fn issuer(&self) -> &str {
        &self.config.issuer
    }

    /// Whether `token` is for this provider to verify: every token but surqlc's own scope
    /// tokens (`iss: "surqlc"`), which the engine verifies.
    pub(super) fn claims(token: &str) -> bool {
        unverified_issuer(token).as_deref() != Some(crate::scope_key::ISSUER)
    }

    /// Fetches the key set now (at start, so a wrong address is said at once).
    pub(super) async fn prefetch(&self) -> Result<usize, String> {
        let mut keys = self.keys.lock().await;
        self.fetch(&mut keys).await.map(|set| set.keys.len())
    }

    /// `token` verified: signed by a key of the provider's JWKS, unexpired, its issuer and
    /// audience this server's (the configured one, or `resource`: the MCP endpoint's URL, RFC
    /// 8707), its user claim mapped to the end-user record.
    pub(super) async fn verify(&self, token: &str, resource: Option<&str>) -> Result<Verified, Refusal> {
        let header = jsonwebtoken::decode_header(token).map_err(|e| Refusal::Malformed(e.to_string()))?;
        let jwk = self.key(header.kid.as_deref()).await?;
        let alg = algorithm_for(&jwk, header.alg)?;
        let key = DecodingKey::from_jwk(&jwk).map_err(|_| Refusal::UnknownKey)?;
        let mut validation = Validation::new(alg);
        validation.set_issuer(&[&self.config.issuer]);
        let mut audiences = vec![self.config.audience.as_str()];
        audiences.extend(resource);
        validation.set_audience(&audiences);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.leeway = LEEWAY;
        validation.validate_nbf = true;
        let data = jsonwebtoken::decode::<serde_json::Map<String, serde_json::Value>>(token, &key, &validation)
            .map_err(refusal)?;
        let claim = &self.config.user_claim;
        let key = match data.claims.get(claim) {
            Some(serde_json::Value::String(s)) if !s.is_empty() => s.clone(),
            Some(serde_json::Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
            _ => return Err(Refusal::NoUserClaim(claim.clone())),
        };
        let expires_at = data.claims.get("exp").and_then(serde_json::Value::as_u64).unwrap_or(0);
        Ok(Verified {
            user: crate::surql::lex::record_id(&self.end_user, &key),
            expires_at,
            scopes: granted(&data.claims),
        })
    }

    /// The JWK `kid` names (the only one, when it names none and the set has one): from the
    /// cached set while it is fresh, else fetched again; an unknown `kid` fetches again at most
    /// once per cooldown (the provider may have rotated its keys).
    async fn key(&self, kid: Option<&str>) -> Result<Jwk, Refusal> {
        let mut keys = self.keys.lock().await;
        let since = keys.fetched.map(|at| at.elapsed());
        if since.is_some_and(|d| d < KEYS_FRESH) {
            if let Some(jwk) = keys.set.as_ref().and_then(|set| find(set, kid)) {
                return Ok(jwk);
            }
        }
        if since.is_some_and(|d| d < REFETCH_COOLDOWN) {
            return Err(match keys.set {
                Some(_) => Refusal::UnknownKey,
                None => Refusal::KeysUnavailable("the last fetch, seconds ago, failed".into()),
            });
        }
        let set = self.fetch(&mut keys).await.map_err(Refusal::KeysUnavailable)?;
        find(set, kid).ok_or(Refusal::UnknownKey)
    }

    /// Fetches the key set into `keys`.
    async fn fetch<'k>(&self, keys: &'k mut Keys) -> Result<&'k JwkSet, String> {
        keys.fetched = Some(Instant::now());
        let response = self
            .client
            .get(&self.config.jwks)
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| format!("{}: {}", self.config.jwks, e.without_url()))?;
        if !response.status().is_success() {
            return Err(format!("{} answered {}", self.config.jwks, response.status()));
        }
        let body = response
            .bytes()
            .await
            .map_err(|e| format!("{}: {}", self.config.jwks, e.without_url()))?;
        if body.len() > KEYS_LIMIT {
            return Err(format!("{} sent more than {KEYS_LIMIT} bytes", self.config.jwks));
        }
        let set: JwkSet = serde_json::from_slice(&body)
            .map_err(|e| format!("{} is not a JWK Set ({{\"keys\": [...]}}): {e}", self.config.jwks))?;
        Ok(keys.set.insert(set))
    }
}

/// The scopes a token's claims grant (`scope` and `scp`, each a space-separated string or an array).
fn granted(claims: &serde_json::Map<String, serde_json::Value>) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["scope", "scp"] {
        match claims.get(key) {
            Some(serde_json::Value::String(s)) => out.extend(s.split_whitespace().map(str::to_owned)),
            Some(serde_json::Value::Array(items)) => {
                out.extend(items.iter().filter_map(|v| v.as_str()).map(str::to_owned));
            }
            _ => {}
        }
    }
    out
}

fn find(set: &JwkSet, kid: Option<&str>) -> Option<Jwk> {
    match kid {
        Some(kid) => set.find(kid).cloned(),
        None if set.keys.len() == 1 => set.keys.first().cloned(),
        None => None,
    }
}

/// The algorithm `token_alg` if `jwk` may verify it: an asymmetric one of the key's family, and
/// the key's own `alg` when it states one (a token cannot choose HMAC with a public key as secret).
fn algorithm_for(jwk: &Jwk, token_alg: Algorithm) -> Result<Algorithm, Refusal> {
    use Algorithm::*;
    let family_ok = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => matches!(token_alg, RS256 | RS384 | RS512 | PS256 | PS384 | PS512),
        AlgorithmParameters::EllipticCurve(_) => matches!(token_alg, ES256 | ES384),
        AlgorithmParameters::OctetKeyPair(_) => token_alg == EdDSA,
        AlgorithmParameters::OctetKey(_) => false,
    };
    let stated_ok = jwk
        .common
        .key_algorithm
        .is_none_or(|stated| stated.to_string() == format!("{token_alg:?}"));
    if family_ok && stated_ok {
        Ok(token_alg)
    } else {
        Err(Refusal::Malformed(format!(
            "its algorithm {token_alg:?} is not the one its key (kid) is for"
        )))
    }
}

fn refusal(e: jsonwebtoken::errors::Error) -> Refusal {
    use jsonwebtoken::errors::ErrorKind;
    match e.kind() {
        ErrorKind::ExpiredSignature => Refusal::Expired,
        ErrorKind::ImmatureSignature => Refusal::NotYetValid,
        ErrorKind::InvalidIssuer => Refusal::WrongIssuer,
        ErrorKind::InvalidAudience => Refusal::WrongAudience,
        ErrorKind::InvalidSignature => Refusal::BadSignature,
        ErrorKind::MissingRequiredClaim(claim) => Refusal::Malformed(format!("it has no `{claim}` claim")),
        other => Refusal::Malformed(format!("{other:?}")),
    }
}

/// A token's `iss` claim, read without verifying anything: only to choose who verifies it.
fn unverified_issuer(token: &str) -> Option<String> {
    use base64::Engine as _;
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    claims.get("iss")?.as_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonwebtoken::jwk::KeyAlgorithm;

    fn okp(alg: Option<KeyAlgorithm>) -> Jwk {
        let mut jwk: Jwk = serde_json::from_value(serde_json::json!({
            "kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "kid": "k1"
        }))
        .unwrap();
        jwk.common.key_algorithm = alg;
        jwk
    }

    #[test]
    fn a_token_may_not_choose_an_algorithm_its_key_is_not_for() {
        assert_eq!(algorithm_for(&okp(None), Algorithm::EdDSA), Ok(Algorithm::EdDSA));
        assert_eq!(
            algorithm_for(&okp(Some(KeyAlgorithm::EdDSA)), Algorithm::EdDSA),
            Ok(Algorithm::EdDSA)
        );
        for wrong in [Algorithm::HS256, Algorithm::RS256, Algorithm::ES256] {
            assert!(algorithm_for(&okp(None), wrong).is_err(), "{wrong:?}");
        }
        let hmac: Jwk = serde_json::from_value(serde_json::json!({"kty": "oct", "k": "c2VjcmV0", "kid": "h"})).unwrap();
        assert!(algorithm_for(&hmac, Algorithm::HS256).is_err());
    }

    #[test]
    fn scopes_come_from_scope_and_scp_as_strings_or_arrays() {
        let claims = |v: serde_json::Value| v.as_object().unwrap().clone();
        assert_eq!(granted(&claims(serde_json::json!({"scope": "a b"}))), ["a", "b"]);
        assert_eq!(granted(&claims(serde_json::json!({"scp": ["c", "d"]}))), ["c", "d"]);
        assert!(granted(&claims(serde_json::json!({"scope": 3}))).is_empty());
    }

    #[test]
    fn only_surqlcs_own_tokens_are_left_to_the_engine() {
        use base64::Engine as _;
        let token = |claims: &str| {
            let b64 = |s: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s);
            format!("{}.{}.sig", b64(r#"{"alg":"EdDSA"}"#), b64(claims))
        };
        assert!(!Provider::claims(&token(r#"{"iss":"surqlc","ID":"customer:mei"}"#)));
        assert!(Provider::claims(&token(r#"{"iss":"https://idp.example.com"}"#)));
        assert!(Provider::claims(&token("{}")));
        assert!(Provider::claims("not a token"));
    }

    #[test]
    fn a_missing_key_set_is_the_servers_problem_and_says_where() {
        let provider = Provider::new(
            Oidc {
                jwks: "http://127.0.0.1:9/jwks.json".into(),
                issuer: "https://idp".into(),
                audience: "app".into(),
                user_claim: "sub".into(),
            },
            "customer",
        )
        .unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let said = runtime.block_on(provider.prefetch()).unwrap_err();
        assert!(said.contains("http://127.0.0.1:9/jwks.json"), "{said}");
        let refused = runtime.block_on(provider.verify("e30.e30.sig", None));
        assert!(
            matches!(refused, Err(Refusal::Malformed(_)) | Err(Refusal::KeysUnavailable(_))),
            "{refused:?}"
        );
    }
}
