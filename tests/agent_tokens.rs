//! Re-applying an unchanged schema keeps the agent's issued tokens valid (a deploy does not log running agents out), under either mechanism; a changed agent definition is applied.

use surqlc::codegen::emit::EmitOptions;
use surqlc::runtime::surrealdb;
use surqlc_tests::*;

const PASSWORD: &str = "agent-tokens-test";

/// The schema compiled with the agent's password, and its `schema.surql` with the agent's token duration changed.
fn outputs(schema: std::path::PathBuf) -> (surqlc::builder::Output, String) {
    let output = surqlc::Builder::new()
        .schema(&schema)
        .cargo_metadata(false)
        .agent_password(PASSWORD)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut changed = output.schema.clone();
    changed.settings.agent.token_duration = "2h".into();
    let changed = surqlc::codegen::emit::render_schema_surql(
        &changed,
        &EmitOptions {
            agent_password: Some(PASSWORD.into()),
            ..EmitOptions::default()
        },
    )
    .expect("renders");
    (output, changed)
}

/// A new session on `db`'s connection authenticated with `token`; the error says why not.
async fn authenticated(db: &surqlc::db::Db, token: &str) -> Result<String, String> {
    let session = db.clone();
    session.authenticate(token).await.map_err(|e| e.to_string())?;
    let mut response = session
        .query("RETURN [<string> $access, <string> $token.ID]")
        .await
        .map_err(|e| e.to_string())?;
    let who: surrealdb::types::Value = response.take(0).map_err(|e| e.to_string())?;
    Ok(who.into_json_value().to_string())
}

#[test]
fn an_issued_token_survives_reapplying_the_schema() {
    // The HR fixture hides fields and a table (record access); the store hides nothing (a VIEWER).
    for (schema, record_access) in [
        (root().join("tests/fixtures/visibility.rs"), true),
        (root().join("schemas/store.rs"), false),
    ] {
        let (output, changed) = outputs(schema.clone());
        let name = schema.display().to_string();
        block_on(async {
            let db = loaded(&[&output.schema_surql]).await;
            let signed_in = db.clone();
            let token = if record_access {
                signed_in
                    .signin(surrealdb::opt::auth::Record {
                        namespace: "ai".into(),
                        database: "store".into(),
                        access: "agent".into(),
                        params: serde_json::json!({ "user": "agent", "pass": PASSWORD }),
                    })
                    .await
            } else {
                signed_in
                    .signin(surqlc::db::database_user("ai", "store", "agent", PASSWORD))
                    .await
            }
            .unwrap_or_else(|e| panic!("{name}: the agent signs in: {e}"))
            .access
            .into_insecure_token();
            let who = authenticated(&db, &token)
                .await
                .unwrap_or_else(|e| panic!("{name}: the fresh token authenticates: {e}"));
            assert!(who.contains("agent"), "{name}: {who}");

            // The deploy: the same file applied again, twice.
            surqlc::db::execute(&db, &output.schema_surql)
                .await
                .expect("re-applies");
            surqlc::db::execute(&db, &output.schema_surql)
                .await
                .expect("re-applies");
            let again = authenticated(&db, &token)
                .await
                .unwrap_or_else(|e| panic!("{name}: the token issued before the re-apply still authenticates: {e}"));
            assert_eq!(again, who, "{name}");

            // A build that changes the agent's definition is applied (and so draws a new key).
            surqlc::db::execute(&db, &changed)
                .await
                .expect("the changed schema applies");
            let info = surqlc::db::query_json(&db, "INFO FOR DB").await.unwrap();
            let group = if record_access { "accesses" } else { "users" };
            let definition = info[group]["agent"].as_str().unwrap_or_default().to_owned();
            assert!(
                definition.contains("FOR TOKEN 2h"),
                "{name}: the changed definition is applied: {definition}"
            );
            assert!(
                authenticated(&db, &token).await.is_err(),
                "{name}: a redefined agent no longer accepts the old token"
            );
        });
    }
}
