// build.rs
fn main() {
    let mut builder = surqlc::Builder::new();
    // Writes $OUT_DIR/schema.surql and $OUT_DIR/schema.rs.
    builder.schema("src/store.rs");
    // The agent's password is hashed into schema.surql. Debug builds fall back to a development
    // password so `cargo run` works at once; set SURQLC_AGENT_PASSWORD for anything real.
    if std::env::var_os("SURQLC_AGENT_PASSWORD").is_none() && std::env::var("PROFILE").as_deref() == Ok("debug") {
        builder.agent_password("dev-only-password");
    }
    // A schema error fails the build with cargo printing file:line:col and the message.
    builder.compile_in_build_script();
}
