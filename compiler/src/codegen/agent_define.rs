//! The agent's `DEFINE ACCESS` / `DEFINE USER` in `schema.surql`, applied only when the definition changes, so re-applying an unchanged schema keeps the agent's issued tokens valid.
//!
//! SurrealDB 3.3 signs a record user's tokens with the access's JWT key and a database user's with
//! the user's `code`, and every `DEFINE ACCESS`/`DEFINE USER` draws a new random one (the key
//! defaults to 128 random characters; `OVERWRITE` does not keep the old one). Redefining the agent
//! on every load would therefore log out every running agent. A key written into the file would
//! survive reloads, but it would be a token-signing secret in a generated file the engine itself
//! redacts from `INFO` and exports; so instead the statement carries a fingerprint of its own text
//! in its `COMMENT`, and an `IF` re-runs it only when the database's definition lacks that
//! fingerprint (first load, or a build that changed the agent: durations, password, sign-in).

use crate::surql::quote_string;
use sha2::{Digest, Sha256};

/// Which definition the agent gets (see [`crate::access::Mechanism`]).
#[derive(Debug, Clone, Copy)]
pub enum AgentKind<'a> {
    /// `DEFINE ACCESS ... TYPE RECORD` signing in against the identity table.
    RecordAccess { identity: &'a str },
    /// `DEFINE USER ... ROLES VIEWER` with this Argon2id hash.
    Viewer { passhash: &'a str },
}

/// The `COMMENT` text of an agent definition with this fingerprint.
pub fn comment(fingerprint: &str) -> String {
    format!(
        "{}{fingerprint}: defined again only when this changes, so issued tokens stay valid",
        crate::access::FINGERPRINT_MARK
    )
}

/// The first 16 hex digits of the SHA-256 of `statement`.
pub fn fingerprint(statement: &str) -> String {
    let digest = Sha256::new()
        .chain_update(b"surqlc-agent-definition\0")
        .chain_update(statement)
        .finalize();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The guarded definition of the agent `user`, ending in `;`.
pub fn statement(user: &str, token: &str, session: &str, kind: AgentKind<'_>) -> String {
    let (group, define) = match kind {
        AgentKind::RecordAccess { identity } => {
            let table = quote_string(identity);
            (
                "accesses",
                format!(
                    "DEFINE ACCESS OVERWRITE {user} ON DATABASE TYPE RECORD\n    \
                     SIGNIN (SELECT * FROM {identity} WHERE id = type::record({table}, $user) AND crypto::argon2::compare(passhash, $pass))\n    \
                     DURATION FOR TOKEN {token}, FOR SESSION {session}"
                ),
            )
        }
        AgentKind::Viewer { passhash } => (
            "users",
            format!(
                "DEFINE USER OVERWRITE {user} ON DATABASE PASSHASH {} ROLES VIEWER DURATION FOR TOKEN {token}, FOR SESSION {session}",
                quote_string(passhash)
            ),
        ),
    };
    let fingerprint = fingerprint(&define);
    let body = format!("{define}\n    COMMENT {};", quote_string(&comment(&fingerprint))).replace('\n', "\n    ");
    format!(
        "IF !string::contains((INFO FOR DB).{group}[{}] ?? \"\", {}) {{\n    {body}\n}};",
        quote_string(user),
        quote_string(&fingerprint)
    )
}

/// The per-user agent's record access: tokens signed with the key pair derived from the scope key
/// (the engine holds only the public key, `public_key_pem`), whose `ID` must be a row of
/// `end_user` that exists. Nothing in it is random, so it is simply defined again on every load:
/// the key does not change, and issued tokens stay valid.
pub fn scope_statement(scope: &crate::ir::Scope, public_key_pem: &str) -> String {
    let end_user = quote_string(&scope.end_user);
    format!(
        "DEFINE ACCESS OVERWRITE {access} ON DATABASE TYPE RECORD\n    \
         WITH JWT ALGORITHM EDDSA KEY {key}\n    \
         AUTHENTICATE {{\n        \
         IF record::tb($auth) != {end_user} OR !record::exists($auth) {{ THROW {refusal}; }};\n        \
         RETURN $auth;\n    \
         }}\n    \
         DURATION FOR TOKEN {token}, FOR SESSION {session}\n    \
         COMMENT {comment};",
        access = scope.access,
        key = quote_string(public_key_pem),
        refusal = quote_string(&format!(
            "a {} token must name an existing {} row",
            scope.access, scope.end_user
        )),
        token = scope.token_duration,
        session = scope.session_duration,
        comment = quote_string(&format!(
            "surqlc's per-user agent: one {} per session, by tokens the application signs with its scope key",
            scope.end_user
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_follows_the_definition() {
        let a = statement(
            "agent",
            "1h",
            "12h",
            AgentKind::Viewer {
                passhash: "$argon2id$x",
            },
        );
        assert_eq!(
            a,
            statement(
                "agent",
                "1h",
                "12h",
                AgentKind::Viewer {
                    passhash: "$argon2id$x"
                }
            )
        );
        for other in [
            statement(
                "agent",
                "2h",
                "12h",
                AgentKind::Viewer {
                    passhash: "$argon2id$x",
                },
            ),
            statement(
                "agent",
                "1h",
                "12h",
                AgentKind::Viewer {
                    passhash: "$argon2id$y",
                },
            ),
        ] {
            assert_ne!(a, other);
        }
        let r = statement(
            "agent",
            "1h",
            "12h",
            AgentKind::RecordAccess {
                identity: "surqlc_agent",
            },
        );
        assert!(
            r.starts_with("IF !string::contains((INFO FOR DB).accesses[\"agent\"] ?? \"\", \""),
            "{r}"
        );
        assert!(r.contains("\n    DEFINE ACCESS OVERWRITE agent ON DATABASE TYPE RECORD\n        SIGNIN"));
        assert!(r.ends_with("so issued tokens stay valid\";\n};"), "{r}");
    }
}
