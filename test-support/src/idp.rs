//! A stand-in for a team's OpenID Connect provider, not a provider: Ed25519 signing keys made in the test (from a seed), the JWK Set that publishes them, served on 127.0.0.1 by the [`StandIn`](crate::model_standin::StandIn) HTTP server, and JWTs (EdDSA) signed with them.

use crate::model_standin::{Reply, StandIn};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use ed25519_dalek::{Signer, SigningKey};
use serde_json::{json, Value};

/// One signing key and the `kid` it is published under.
#[derive(Clone)]
pub struct Key {
    pub kid: String,
    signing: SigningKey,
}

impl Key {
    /// The key made from `seed` (any bytes; the same seed, the same key), published as `kid`.
    pub fn new(kid: &str, seed: u8) -> Key {
        Key {
            kid: kid.to_owned(),
            signing: SigningKey::from_bytes(&[seed; 32]),
        }
    }

    /// The public half as a JWK (RFC 8037: `OKP`, `Ed25519`).
    pub fn jwk(&self) -> Value {
        json!({
            "kty": "OKP",
            "crv": "Ed25519",
            "x": URL_SAFE_NO_PAD.encode(self.signing.verifying_key().as_bytes()),
            "kid": self.kid,
            "alg": "EdDSA",
            "use": "sig",
        })
    }

    /// The public half as the PEM text SurrealDB's `DEFINE ACCESS ... KEY` takes (RFC 8410 SPKI).
    pub fn public_pem(&self) -> String {
        use base64::engine::general_purpose::STANDARD;
        let mut der = vec![0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00];
        der.extend_from_slice(self.signing.verifying_key().as_bytes());
        format!(
            "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----",
            STANDARD.encode(der)
        )
    }

    /// A JWT of `claims`, its header naming this key's `kid`.
    pub fn sign(&self, claims: &Value) -> String {
        self.sign_as(Some(&self.kid), claims)
    }

    /// A JWT of `claims` signed with this key, its header naming `kid` (any key's, or none).
    pub fn sign_as(&self, kid: Option<&str>, claims: &Value) -> String {
        let mut header = json!({"alg": "EdDSA", "typ": "JWT"});
        if let Some(kid) = kid {
            header["kid"] = json!(kid);
        }
        let signed = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let signature = self.signing.sign(signed.as_bytes());
        format!("{signed}.{}", URL_SAFE_NO_PAD.encode(signature.to_bytes()))
    }
}

/// The provider's JWKS endpoint on loopback: `url` serves `{"keys": [...]}` of the keys given.
pub struct Jwks {
    pub url: String,
    pub server: StandIn,
}

impl Jwks {
    /// Serves the public halves of `keys` at `http://127.0.0.1:PORT/v1/jwks.json` (any path answers).
    pub fn serve(keys: &[&Key]) -> Jwks {
        let set = json!({ "keys": keys.iter().map(|k| k.jwk()).collect::<Vec<_>>() });
        let server = StandIn::start(move |_, _| Reply::ok(set.clone()));
        Jwks {
            url: format!("{}/jwks.json", server.url),
            server,
        }
    }

    /// Serves `first`'s keys on the first fetch and `then`'s on every later one (a provider that
    /// rotated its keys after the server fetched them).
    pub fn rotating(first: &[&Key], then: &[&Key]) -> Jwks {
        let set = |keys: &[&Key]| json!({ "keys": keys.iter().map(|k| k.jwk()).collect::<Vec<_>>() });
        let (first, then) = (set(first), set(then));
        let server = StandIn::start(move |n, _| Reply::ok(if n == 0 { first.clone() } else { then.clone() }));
        Jwks {
            url: format!("{}/jwks.json", server.url),
            server,
        }
    }

    /// How many times the key set was fetched.
    pub fn fetches(&self) -> usize {
        self.server.requests().len()
    }
}

/// Seconds since the epoch, now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
