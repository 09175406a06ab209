//! Compiles every schema in `schemas/` as a user's build.rs would, so the tests can include the generated modules.

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("run by cargo"));
    for name in ["store", "library", "memory", "meetings"] {
        let mut builder = surqlc::Builder::new();
        // A schema's named queries (`schemas/NAME.queries/*.surql`), checked against it at build time.
        let queries = format!("../schemas/{name}.queries");
        if std::path::Path::new(&queries).is_dir() {
            builder.queries(queries);
        }
        builder
            .schema(format!("../schemas/{name}.rs"))
            .out_dir(out.join(name))
            .types_path(format!("crate::{name}"))
            .agent_password("test-agent-password")
            .compile()
            .unwrap_or_else(|e| panic!("{e}"));
    }
    // A schema included with the default types_path (`super`), from inside the schema's own module.
    surqlc::Builder::new()
        .schema("fixtures/escape_hatches.rs")
        .out_dir(out.join("escape_hatches"))
        .agent_password("test-agent-password")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    // A relation with several tables at one end (`#[derive(Ends)]`), its module compiled by tests/ends.rs.
    surqlc::Builder::new()
        .schema("fixtures/ends.rs")
        .out_dir(out.join("ends"))
        .types_path("crate::ends::fixture")
        .agent_password("test-agent-password")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    // The store again without an agent password: the module must say so instead of failing to sign in.
    std::env::remove_var(surqlc::builder::AGENT_PASSWORD_ENV);
    surqlc::Builder::new()
        .schema("../schemas/store.rs")
        .out_dir(out.join("store_without_agent"))
        .types_path("crate::store")
        // The same inputs as above; no `cargo:warning` about the missing password it is meant to lack.
        .cargo_metadata(false)
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
