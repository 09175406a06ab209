//! Compiles every schema in `schemas/` as a user's build.rs would, so the tests can include the generated modules.

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("run by cargo"));
    for name in ["store", "library"] {
        surqlc::Builder::new()
            .schema(format!("../schemas/{name}.rs"))
            .out_dir(out.join(name))
            .types_path(format!("crate::{name}"))
            .agent_password("test-agent-password")
            .compile()
            .unwrap_or_else(|e| panic!("{e}"));
    }
}
