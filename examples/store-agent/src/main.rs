//! The store's text-to-SurrealQL agent, end to end on the embedded engine.
//!
//! `cargo run -p store-agent [DATA.surql]` applies the compiled schema, loads the data
//! (the project's own `schemas/store.seed.surql` unless a file is given) and prints the
//! prompt for the lesson's question. With a model configured (`SURQLC_MODEL_URL`,
//! `SURQLC_MODEL`, see `surqlc::runtime::openai`) it asks the question through the agent
//! loop (`surqlc::runtime::ask`): the model's reply is validated, repaired and run as the
//! read-only agent. Without one it says how to configure one and runs the lesson's revenue
//! query as the agent, as a model would have replied.

// The domain types: the very file build.rs compiles, with the derives on it.
#[path = "../../../schemas/store.rs"]
mod store;

/// The typed helpers build.rs generated for `schemas/store.rs`.
mod store_db {
    include!(concat!(env!("OUT_DIR"), "/schema.rs"));
}

use std::process::ExitCode;
use surqlc::runtime::Outcome;

const QUESTION: &str = "Which category earns us the most money?";
/// The lesson's embedding of `QUESTION`.
const QUESTION_VECTOR: [f64; store_db::EMBEDDING_DIMENSION] = [0.92, 0.0, 0.4, 0.0];
/// What a model answers to the prompt (the lesson's revenue query), run when no model is configured.
const MODEL_REPLY: &str = "SELECT out.category AS category, math::sum(qty * unit_price) AS revenue FROM contains WHERE in.status = 'shipped' GROUP BY category ORDER BY revenue DESC LIMIT 50;";
const DEFAULT_DATA: &str = include_str!("../../../schemas/store.seed.surql");

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), String> {
    let arg = std::env::args_os().nth(1);
    if arg.as_deref().is_some_and(|a| a == "-h" || a == "--help") {
        println!("usage: store-agent [DATA.surql]\n\nApplies the compiled store schema to an embedded database, loads DATA.surql\n(default: schemas/store.seed.surql, built in), prints the prompt for the lesson's\nquestion and runs the lesson's revenue query as the read-only agent.");
        return Ok(());
    }
    let (data_name, data) = match arg {
        Some(path) => {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.to_string_lossy()))?;
            (path.to_string_lossy().into_owned(), text)
        }
        None => ("schemas/store.seed.surql".to_owned(), DEFAULT_DATA.to_owned()),
    };

    let db = surrealdb::engine::any::connect("mem://")
        .await
        .map_err(|e| format!("cannot start the embedded engine: {e}"))?;
    db.use_ns("ai").use_db("store").await.map_err(|e| e.to_string())?;
    store_db::apply_schema(&db)
        .await
        .map_err(|e| format!("the engine rejected schema.surql: {e}"))?;
    db.query(data.as_str())
        .await
        .and_then(|r| r.check())
        .map_err(|e| format!("cannot load {data_name}: {e}"))?;

    let prompt = store_db::nl2surql_prompt(&db, QUESTION, &QUESTION_VECTOR)
        .await
        .map_err(|e| e.to_string())?;
    println!("{prompt}");

    // The password build.rs hashed: the variable's, or in a debug build the development one.
    let password = match std::env::var("SURQLC_AGENT_PASSWORD") {
        Ok(p) if !p.is_empty() => p,
        _ if cfg!(debug_assertions) => include_str!("dev_password.txt").trim().to_owned(),
        _ => return Err("set SURQLC_AGENT_PASSWORD (at build time and at run time) for the agent".into()),
    };
    let agent = store_db::agent_signin(&db, "ai", "store", &password)
        .await
        .map_err(|e| format!("the agent cannot sign in: {e}"))?;
    use surqlc::runtime::openai::{Config, OpenAi};
    match Config::from_env().map_err(|e| e.to_string())? {
        Some(mut config) => {
            config.dimension = Some(store_db::EMBEDDING_DIMENSION);
            let client = OpenAi::new(config).map_err(|e| e.to_string())?;
            ask(&db, &agent, &client).await?;
        }
        None => {
            eprintln!(
                "note: {}; running the lesson's reply instead",
                Config::how_to_configure()
            );
            run_lesson_reply(&agent).await?;
        }
    }

    // The typed helpers, for the application's own code: the biggest order's lines.
    typed_helpers(&db).await
}

/// Asks `QUESTION` through the agent loop with the configured model: the attempts, then the rows.
async fn ask<C: surrealdb::Connection>(
    db: &surrealdb::Surreal<C>,
    agent: &surqlc::runtime::Agent<C>,
    client: &surqlc::runtime::openai::OpenAi,
) -> Result<(), String> {
    use surqlc::runtime::ask::{Asker, Status};
    let asker = Asker::new(db, agent, store_db::schema_ir(), client)
        .timeout(store_db::QUERY_TIMEOUT)
        .vector(Some(QUESTION_VECTOR.to_vec()));
    // The configured embedding model embeds the question; else the lesson's vector is used.
    let answer = if client.embeds() {
        asker.embedder(client).ask(QUESTION).await
    } else {
        asker.ask(QUESTION).await
    }
    .map_err(|e| e.to_string())?;
    for (n, attempt) in answer.attempts.iter().enumerate() {
        println!("-- attempt {}: {}", n + 1, attempt.reply.trim());
        for problem in &attempt.problems {
            println!("--   {problem}");
        }
    }
    match answer.status {
        Status::Answered => {
            for warning in &answer.warnings {
                println!("-- warning: {warning}");
            }
            println!("-- rows, run as `{}` (VIEWER)", store_db::AGENT_USER);
            for row in &answer.rows {
                println!("{row}");
            }
        }
        Status::CannotAnswer => println!("-- the model cannot answer: {}", answer.reason.unwrap_or_default()),
        Status::NoValidQuery => println!("-- no valid query in {} attempts", answer.attempts.len()),
    }
    Ok(())
}

/// Runs the lesson's revenue query as the agent, as a model would have replied.
async fn run_lesson_reply<C: surrealdb::Connection>(agent: &surqlc::runtime::Agent<C>) -> Result<(), String> {
    println!("{MODEL_REPLY}\n");
    match store_db::run_readonly(agent, MODEL_REPLY)
        .await
        .map_err(|e| e.to_string())?
    {
        Outcome::Rows { rows, warnings } => {
            for warning in warnings {
                println!("-- warning: {warning}");
            }
            println!("-- rows, run as `{}` (VIEWER)", store_db::AGENT_USER);
            for row in rows {
                println!("{}", surqlc::runtime::to_json(row));
            }
        }
        Outcome::Rejected(reason) => println!("-- rejected, to send back to the model: {reason}"),
        Outcome::CannotAnswer(reason) => println!("-- the model cannot answer: {reason}"),
    }
    Ok(())
}

/// The typed helpers, for the application's own code: the biggest order's lines.
async fn typed_helpers<C: surrealdb::Connection>(db: &surrealdb::Surreal<C>) -> Result<(), String> {
    let purchases = store_db::purchase::select(db, 100).await.map_err(|e| e.to_string())?;
    let mut largest: Option<(usize, String)> = None;
    for purchase in &purchases {
        let lines = store_db::purchase::contains_edges_from(db, &purchase.id)
            .await
            .map_err(|e| e.to_string())?;
        if largest.as_ref().is_none_or(|(n, _)| lines.len() > *n) {
            largest = Some((lines.len(), purchase.id.to_string()));
        }
    }
    if let Some((lines, id)) = largest {
        eprintln!(
            "(typed helpers: {} purchases; {id} has the most lines, {lines})",
            purchases.len()
        );
    }
    Ok(())
}
