//! Compiles the store schema into `$OUT_DIR/schema.surql` and the typed helpers `$OUT_DIR/schema.rs`.

fn main() {
    // The agent's password is hashed into schema.surql at build time from SURQLC_AGENT_PASSWORD.
    // So that `cargo run -p store-agent` works out of the box on the throwaway embedded database,
    // a *debug* build falls back to a development password (src/dev_password.txt) and says so;
    // a release build without the variable defines no agent at all.
    let mut builder = surqlc::Builder::new();
    builder.schema("../../schemas/store.rs").types_path("crate::store");
    let from_env = std::env::var("SURQLC_AGENT_PASSWORD").is_ok_and(|p| !p.is_empty());
    if !from_env && std::env::var("PROFILE").as_deref() == Ok("debug") {
        println!("cargo:warning=store-agent: SURQLC_AGENT_PASSWORD is not set; this debug build uses the development password in src/dev_password.txt");
        println!("cargo:rerun-if-changed=src/dev_password.txt");
        builder.agent_password(include_str!("src/dev_password.txt").trim());
    }
    // A schema error fails the build with cargo printing file:line:col and the message.
    builder.compile_in_build_script();
}
