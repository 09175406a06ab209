//! The store's text-to-SurrealQL agent, end to end on the embedded engine.
//!
//! `cargo run -p store-agent [DATA.surql]` applies the compiled schema, loads the data
//! (the project's own `schemas/store.seed.surql` unless a file is given), prints the
//! prompt for the lesson's question, and runs the lesson's revenue query as the
//! read-only agent. A real agent would send the prompt to a model and run its reply.

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
/// What a model answers to the prompt (the lesson's revenue query).
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
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.to_string_lossy()))?;
            (path.to_string_lossy().into_owned(), text)
        }
        None => (
            "schemas/store.seed.surql".to_owned(),
            DEFAULT_DATA.to_owned(),
        ),
    };

    let db = surrealdb::engine::any::connect("mem://")
        .await
        .map_err(|e| format!("cannot start the embedded engine: {e}"))?;
    db.use_ns("ai")
        .use_db("store")
        .await
        .map_err(|e| e.to_string())?;
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
        _ => {
            return Err(
                "set SURQLC_AGENT_PASSWORD (at build time and at run time) for the agent".into(),
            )
        }
    };
    let agent = store_db::agent_signin(&db, "ai", "store", &password)
        .await
        .map_err(|e| format!("the agent cannot sign in: {e}"))?;
    println!("{MODEL_REPLY}\n");
    match store_db::run_readonly(&agent, MODEL_REPLY)
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

    // The typed helpers, for the application's own code: the biggest order's lines.
    let purchases = store_db::purchase::select(&db, 100)
        .await
        .map_err(|e| e.to_string())?;
    let mut largest: Option<(usize, String)> = None;
    for purchase in &purchases {
        let lines = store_db::purchase::contains_edges_from(&db, &purchase.id)
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
