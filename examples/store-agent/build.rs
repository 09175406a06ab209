//! Compiles the store schema into `$OUT_DIR/schema.surql` and the typed helpers `$OUT_DIR/schema.rs`.

fn main() {
    // The agent's password is hashed into schema.surql at build time. A real deployment sets
    // SURQLC_AGENT_PASSWORD; this demo falls back to a development password so that
    // `cargo run -p store-agent` works out of the box on the throwaway embedded database.
    let password = std::env::var("SURQLC_AGENT_PASSWORD")
        .unwrap_or_else(|_| store_agent_dev_password().to_owned());
    surqlc::Builder::new()
        .schema("../../schemas/store.rs")
        .types_path("crate::store")
        .agent_password(password)
        .compile()
        .unwrap_or_else(|e| {
            // Schema errors already name the file, line and column.
            eprintln!("{e}");
            std::process::exit(1)
        });
}

/// Kept in one place: `src/main.rs` includes this file's constant too.
fn store_agent_dev_password() -> &'static str {
    include_str!("src/dev_password.txt").trim()
}
