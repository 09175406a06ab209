//! What the embedded engine (surrealdb 3.3, kv-mem) does with a team's OpenID Connect tokens,
//! which decided how `surqlc mcp --per-user --jwks` verifies them (docs/access.md): the engine
//! routes a token by SurrealDB's own `NS`/`DB`/`AC` claims, which a generic provider's token
//! lacks, and the build surqlc links fetches no JWKS (`WITH JWT URL`). So surqlc verifies the
//! provider's token itself and opens the user's session with a scope token it signs.

use surqlc::runtime::surrealdb;
use surqlc_test_support::idp::{now, Jwks, Key};
use surqlc_tests::*;

const KEY: &str = "oidc-engine-test-key";
const ISSUER: &str = "https://idp.example.test";

/// The store, seeded, with the record access `idp` defined by `verify` (`KEY '...'` or `URL '...'`)
/// and an AUTHENTICATE clause that checks the issuer and maps `sub` to a customer.
async fn store_with_idp_access(verify: &str) -> surqlc::db::Db {
    let output = builder("store")
        .agent_password("oidc-engine-test-password")
        .scope_key(KEY)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let access = format!(
        "DEFINE ACCESS idp ON DATABASE TYPE RECORD WITH JWT {verify}
            AUTHENTICATE {{
                IF $token.iss != '{ISSUER}' {{ THROW 'wrong issuer'; }};
                LET $user = type::record('customer', $token.sub);
                IF !record::exists($user) {{ THROW 'no such customer'; }};
                RETURN $user;
            }}
            DURATION FOR SESSION 1h;"
    );
    loaded(&[
        &output.schema_surql,
        &read(root().join("schemas/store.seed.surql")),
        &access,
    ])
    .await
}

/// The claims a generic provider puts in an ID or access token: no SurrealDB routing claims.
fn generic_claims(sub: &str) -> serde_json::Value {
    serde_json::json!({"iss": ISSUER, "sub": sub, "aud": "store-app", "iat": now(), "exp": now() + 600})
}

/// The same claims with SurrealDB's namespaced routing claims added (what a provider would have to
/// be configured to mint for the engine to route the token itself).
fn routed_claims(sub: &str) -> serde_json::Value {
    let mut claims = generic_claims(sub);
    claims["https://surrealdb.com/ns"] = "ai".into();
    claims["https://surrealdb.com/db"] = "store".into();
    claims["https://surrealdb.com/ac"] = "idp".into();
    claims
}

async fn session_of(
    db: &surqlc::db::Db,
    token: &str,
) -> Result<surqlc::runtime::Agent<surrealdb::engine::any::Any>, String> {
    surqlc::runtime::scope::authenticate(db, "ai", "store", token)
        .await
        .map_err(|e| e.to_string())
}

/// A provider's ordinary token is refused even when the key that signed it is the access's own:
/// without `NS`/`DB`/`AC` the engine cannot tell which access method should verify it. With
/// the namespaced routing claims the same key's token opens the mapped customer's session, and
/// the AUTHENTICATE clause refuses a `sub` that names no customer.
#[test]
fn the_engine_routes_a_token_only_by_surrealdbs_own_claims() {
    block_on(async {
        let key = Key::new("k1", 7);
        let db = store_with_idp_access(&format!("ALGORITHM EDDSA KEY '{}'", key.public_pem())).await;
        let generic = session_of(&db, &key.sign(&generic_claims("mei"))).await;
        assert!(generic.is_err(), "a generic provider token opened a session");
        let mei = session_of(&db, &key.sign(&routed_claims("mei")))
            .await
            .expect("the routed token opens mei's session");
        let purchases = mei
            .session()
            .query("SELECT VALUE id FROM purchase")
            .await
            .unwrap()
            .take::<surrealdb::types::Value>(0)
            .unwrap();
        assert_eq!(
            purchases.into_json_value().to_string(),
            r#"["purchase:p1","purchase:p6"]"#
        );
        assert!(session_of(&db, &key.sign(&routed_claims("nobody"))).await.is_err());
    });
}

/// `WITH JWT URL '<jwks>'`: the engine surqlc links (no `jwks` feature) never fetches the key set,
/// so even a token carrying every routing claim and a `kid` the JWKS publishes is refused.
#[test]
fn the_linked_engine_fetches_no_jwks() {
    block_on(async {
        let key = Key::new("k1", 7);
        let jwks = Jwks::serve(&[&key]);
        let db = store_with_idp_access(&format!("URL '{}'", jwks.url)).await;
        let refused = session_of(&db, &key.sign(&routed_claims("mei"))).await;
        assert!(refused.is_err(), "the engine verified a JWKS token");
        assert_eq!(jwks.fetches(), 0, "the engine fetched the key set");
    });
}

/// The record id surqlc writes for a provider's user claim is the one `type::record('customer',
/// $claim)` makes, for plain keys and for keys that need quoting alike.
#[test]
fn the_user_claim_maps_to_the_record_the_engine_makes() {
    block_on(async {
        let db = loaded(&[]).await;
        for key in [
            "mei",
            "auth0|42",
            "a⟩b",
            "a`b",
            "back\\slash",
            "123",
            "1_2",
            "x y",
            "NONE",
            "NaN",
            "_x9",
            "é",
        ] {
            let written = surqlc::surql::lex::record_id("customer", key);
            let mut answer = db
                .query("RETURN type::record('customer', $key) == <record> $written")
                .bind(("key", key.to_owned()))
                .bind(("written", written.clone()))
                .await
                .unwrap();
            let same: Option<bool> = answer.take(0).unwrap_or_else(|e| panic!("{key:?} as {written}: {e}"));
            assert_eq!(same, Some(true), "{key:?} written {written}");
        }
    });
}
