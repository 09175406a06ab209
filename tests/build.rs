//! Compiles every schema in `schemas/` as a user's build.rs would, so the tests can include the generated modules.

#[path = "build/helper_calls.rs"]
mod helper_calls;

/// The example schemas, in the order `tests/every_helper.rs` runs their helpers.
const SCHEMAS: [&str; 7] = [
    "store",
    "library",
    "memory",
    "meetings",
    "enterprise",
    "marketplace",
    "clinic",
];

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("run by cargo"));
    // `enterprise` is the one with prune(...).
    for name in SCHEMAS {
        let mut builder = surqlc::Builder::new();
        // A schema's named queries (`schemas/NAME.queries/*.surql`), checked against it at build time.
        let queries = format!("../schemas/{name}.queries");
        if std::path::Path::new(&queries).is_dir() {
            builder.queries(queries);
        }
        let output = builder
            .schema(format!("../schemas/{name}.rs"))
            .out_dir(out.join(name))
            .types_path(format!("crate::{name}"))
            .agent_password("test-agent-password")
            // The scoped schemas (store, clinic) define their per-user access, as an application's do.
            .scope_key("test-scope-key")
            .compile()
            .unwrap_or_else(|e| panic!("{e}"));
        write_calls(name, &out.join(name), &output);
    }
    corpus_as_named_queries(&out);
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
    // Documents inside rows (`#[derive(Object)]`), with named queries over nested paths: tests/objects.rs.
    surqlc::Builder::new()
        .schema("fixtures/objects.rs")
        .queries("fixtures/objects.queries")
        .out_dir(out.join("objects"))
        .types_path("crate::objects::fixture")
        .agent_password("test-agent-password")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    // Indexes on paths inside FLEXIBLE objects, an `id` inside an object: tests/every_helper.rs.
    surqlc::Builder::new()
        .schema("fixtures/flexible.rs")
        .out_dir(out.join("flexible"))
        .types_path("crate::every_helper::fixture")
        .agent_password("test-agent-password")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    every_helper_calls(&out);
    // The store with named writes (`:exec`, `CONTENT $x`, `MERGE $x`, `SET f = $x`): tests/writes.rs.
    surqlc::Builder::new()
        .schema("../schemas/store.rs")
        .queries("fixtures/writes.queries")
        .out_dir(out.join("store_writes"))
        .types_path("crate::store")
        .agent_password("test-agent-password")
        .cargo_metadata(false)
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    println!("cargo:rerun-if-changed=fixtures/writes.queries");
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

/// The validator's correct corpus and the store's seed examples as named queries (`corpus_N`,
/// `seed_N`), compiled into `store_corpus/`, and `corpus_calls.rs`: one `check!(function, CONSTANT)`
/// per query, for tests/named_queries.rs to run each on the engine.
fn corpus_as_named_queries(out: &std::path::Path) {
    let mut named = String::new();
    let mut calls = String::from("{\n");
    let corpus = std::fs::read_to_string("corpus/store_right.surql").expect("the corpus");
    println!("cargo:rerun-if-changed=corpus/store_right.surql");
    for (i, piece) in surqlc::validate::split_queries(&corpus, false).into_iter().enumerate() {
        let code = piece
            .text
            .lines()
            .any(|l| !l.trim().is_empty() && !l.trim().starts_with("--"));
        if !code {
            continue;
        }
        let name = format!("corpus_{}", i + 1);
        named.push_str(&format!(
            "-- name: {name} :many\n{};\n\n",
            piece.text.trim().trim_end_matches(';')
        ));
        calls.push_str(&format!("check!({name}, {});\n", name.to_uppercase()));
    }
    // Every few-shot example of the seed: `question = "..."` then `surql = "..."`.
    let seed = std::fs::read_to_string("../schemas/store.seed.surql").expect("the seed");
    println!("cargo:rerun-if-changed=../schemas/store.seed.surql");
    let value = |line: &str, key: &str| -> Option<String> {
        let rest = line.trim().strip_prefix(key)?.trim().strip_prefix('=')?.trim();
        Some(rest.strip_prefix('"')?.rsplit_once('"')?.0.to_owned())
    };
    let mut question = None;
    let mut n = 0;
    for line in seed.lines() {
        if let Some(q) = value(line, "question") {
            question = Some(q);
        } else if let Some(surql) = value(line, "surql") {
            n += 1;
            let name = format!("seed_{n}");
            named.push_str(&format!(
                "-- name: {name} :many\n-- question: {}\n{};\n\n",
                question.take().unwrap_or_default(),
                surql.trim_end_matches(';')
            ));
            calls.push_str(&format!("check!({name}, {});\n", name.to_uppercase()));
        }
    }
    assert!(n > 0, "the seed has examples");
    calls.push_str("}\n");
    let dir = out.join("corpus.queries");
    std::fs::create_dir_all(&dir).unwrap();
    surqlc::builder::write_if_changed(&dir.join("corpus.surql"), &named).unwrap();
    surqlc::builder::write_if_changed(&out.join("corpus_calls.rs"), &calls).unwrap();
    surqlc::Builder::new()
        .schema("../schemas/store.rs")
        .queries(&dir)
        .out_dir(out.join("store_corpus"))
        .types_path("crate::store")
        .agent_password("test-agent-password")
        // Its inputs are written by this script: rerun on the corpus and the seed only.
        .cargo_metadata(false)
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// `helper_calls.rs`: a typed call of every table helper of every example schema and of the
/// fixtures with indexes, for tests/every_helper.rs (which includes each module at `path`).
fn every_helper_calls(out: &std::path::Path) {
    let mut modules: Vec<helper_calls::Module> = SCHEMAS
        .iter()
        .map(|name| helper_calls::Module {
            name,
            file: out.join(name).join("schema.rs"),
            path: format!("{name}_db"),
        })
        .collect();
    for name in ["objects", "flexible"] {
        modules.push(helper_calls::Module {
            name,
            file: out.join(name).join("schema.rs"),
            path: format!("{name}_db"),
        });
    }
    helper_calls::write(out, &modules);
}

/// `writes_calls.rs` beside a schema's module: `edge!(db, tally, NAME_db, relation);` for each
/// relation, then `table!(db, tally, NAME_db, table);` for each other table but views, for tests/writes.rs to round-trip each
/// table's rows through its write helpers (edges first: deleting a row deletes its edges).
fn write_calls(schema: &str, dir: &std::path::Path, output: &surqlc::builder::Output) {
    let mut calls = String::from("{\n");
    let tables = &output.schema.tables;
    let relation = |t: &&surqlc::ir::Table| matches!(t.kind, surqlc::ir::TableKind::Relation { .. });
    let edges = tables.iter().filter(relation).map(|t| ("edge", t));
    let rows = tables
        .iter()
        .filter(|t| !relation(t) && t.view.is_none())
        .map(|t| ("table", t));
    for (kind, t) in edges.chain(rows) {
        // The examples' tables are snake_case: each module is named as its table.
        assert!(
            output.rust_module.contains(&format!("pub mod {} {{", t.name)),
            "{}",
            t.name
        );
        calls.push_str(&format!("{kind}!(db, tally, {schema}_db, {});\n", t.name));
    }
    calls.push_str("}\n");
    surqlc::builder::write_if_changed(&dir.join("writes_calls.rs"), &calls).unwrap();
}
