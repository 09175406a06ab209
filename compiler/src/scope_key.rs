//! The per-user agent's key pair, derived from the application's scope key: the Ed25519 public key `schema.surql` gives the engine, and the short-lived tokens the application signs for its end users.
//!
//! The engine's record access (`TYPE RECORD WITH JWT ALGORITHM EDDSA KEY '...'`) holds only the
//! public key, so `schema.surql` carries nothing that can sign a token; the application derives the
//! private key from `SURQLC_SCOPE_KEY` whenever it signs one. Derivation is deterministic (the
//! SHA-256 of the key is the Ed25519 seed): re-applying the schema, or applying it to another
//! database, keeps every issued token valid, and two processes with the same key agree.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use ed25519_dalek::{Signer, SigningKey};
use sha2::{Digest, Sha256};

/// The DER prefix of an Ed25519 `SubjectPublicKeyInfo` (RFC 8410), before the 32 key bytes.
const SPKI_PREFIX: [u8; 12] = [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00];

fn signing_key(scope_key: &str) -> SigningKey {
    let seed: [u8; 32] = Sha256::new()
        .chain_update(b"surqlc-scope-key\0")
        .chain_update(scope_key)
        .finalize()
        .into();
    SigningKey::from_bytes(&seed)
}

/// The public key as the PEM text the engine's `KEY` takes.
#[cfg_attr(not(feature = "codegen"), allow(dead_code))] // schema.surql's half: codegen's
pub fn public_key_pem(scope_key: &str) -> String {
    let mut der = SPKI_PREFIX.to_vec();
    der.extend_from_slice(signing_key(scope_key).verifying_key().as_bytes());
    format!(
        "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----",
        STANDARD.encode(der)
    )
}

/// The `iss` of every token surqlc signs: how `--per-user` tells its own tokens from an identity provider's.
pub const ISSUER: &str = "surqlc";

/// What a token says: who, where, through which access, until when (seconds since the epoch).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "runtime"), allow(dead_code))] // tokens are the runtime's
pub struct Claims<'a> {
    pub namespace: &'a str,
    pub database: &'a str,
    pub access: &'a str,
    /// The end user's record id (`customer:mei`), `$auth` in the session.
    pub user: &'a str,
    pub issued_at: u64,
    pub expires_at: u64,
}

/// A JWT (EdDSA) for `claims`, signed with the key derived from `scope_key`.
#[cfg_attr(not(feature = "runtime"), allow(dead_code))] // tokens are the runtime's
pub fn token(scope_key: &str, claims: &Claims<'_>) -> String {
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"EdDSA","typ":"JWT"}"#);
    let body = serde_json::json!({
        "iss": ISSUER,
        "iat": claims.issued_at,
        "nbf": claims.issued_at,
        "exp": claims.expires_at,
        "NS": claims.namespace,
        "DB": claims.database,
        "AC": claims.access,
        "ID": claims.user,
    });
    let body = URL_SAFE_NO_PAD.encode(body.to_string());
    let signed = format!("{header}.{body}");
    let signature = signing_key(scope_key).sign(signed.as_bytes());
    format!("{signed}.{}", URL_SAFE_NO_PAD.encode(signature.to_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_pair_follows_the_scope_key_alone() {
        assert_eq!(public_key_pem("a"), public_key_pem("a"));
        assert_ne!(public_key_pem("a"), public_key_pem("b"));
        let pem = public_key_pem("a");
        assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA"), "{pem}");
        let claims = Claims {
            namespace: "ai",
            database: "store",
            access: "customer_agent",
            user: "customer:mei",
            issued_at: 1,
            expires_at: 2,
        };
        let t = token("a", &claims);
        assert_eq!(t.split('.').count(), 3);
        assert_ne!(t, token("b", &claims));
    }
}
