//! Helpers shared by the end-to-end tests: paths, compiling a schema, a loaded embedded database; the root, the model stand-in and the `surreal` server are the workspace's (`test-support/`).

use std::path::PathBuf;
use surqlc::db::{self, Db, Target};
pub use surqlc_test_support::model_standin::{Reply, Request, StandIn};
pub use surqlc_test_support::root;
pub use surqlc_test_support::surreal::SurrealServer;

/// `../shared/fixtures/store` beside the repository.
pub fn store_fixtures() -> PathBuf {
    root().join("../shared/fixtures/store")
}

pub fn read(path: impl Into<PathBuf>) -> String {
    let path = path.into();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every example schema, `schemas/*.rs`, in name order.
pub fn schema_files() -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(root().join("schemas"))
        .expect("schemas/ exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    files
}

/// A fresh directory for one test's files, unique to this process.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surqlc-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `text` as `NAME.rs` in its own scratch directory and returns the path.
pub fn schema_file(name: &str, text: &str) -> PathBuf {
    let path = scratch_dir(name).join(format!("{name}.rs"));
    std::fs::write(&path, text).expect("schema file written");
    path
}

/// A builder for `schemas/NAME.rs` with the given agent password.
pub fn builder(schema: &str) -> surqlc::Builder {
    let mut b = surqlc::Builder::new();
    b.schema(root().join("schemas").join(format!("{schema}.rs")))
        .cargo_metadata(false);
    // Its named queries, as tests/build.rs compiles them.
    let queries = root().join("schemas").join(format!("{schema}.queries"));
    if queries.is_dir() {
        b.queries(queries);
    }
    b
}

/// A fresh embedded database with `script`s loaded in order.
pub async fn loaded(scripts: &[&str]) -> Db {
    let conn = db::connect(&Target::default()).await.expect("embedded engine starts");
    for script in scripts {
        db::execute(&conn, script).await.expect("script loads");
    }
    conn
}

/// Current-thread runtime for tests that need the engine.
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(f)
}
