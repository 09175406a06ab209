//! The end-to-end suite: one test binary, so the engine is linked once, with a module per area.

// The example schemas, compiled as an application compiles its domain types; the generated
// modules name them as `crate::store`, `crate::library`, `crate::memory`, `crate::meetings` and `crate::enterprise` (tests/build.rs).
#[path = "../schemas/store.rs"]
#[allow(dead_code)]
mod store;

#[path = "../schemas/library.rs"]
#[allow(dead_code)] // `unread_notices` is a UI-only field the tests never read.
mod library;

#[path = "../schemas/memory.rs"]
mod memory;

#[path = "../schemas/meetings.rs"]
mod meetings;

#[path = "../schemas/marketplace.rs"]
mod marketplace;

#[path = "../schemas/clinic.rs"]
#[allow(dead_code)] // The per-user agent's second schema; its types are read by the generated module.
mod clinic;

#[path = "../schemas/enterprise.rs"]
#[allow(dead_code)] // Many of its fields are never read by a test.
mod enterprise;

mod agent_tokens;
mod analyzer_kinds;
mod app_corpus;
mod app_engine;
mod app_idioms;
mod app_queries;
mod ask;
mod audit;
mod bad_input;
mod build_script;
mod catalogue;
mod dependency_weight;
mod derive;
mod did_you_mean;
mod document_engine;
mod document_schemas;
mod drift;
mod ends;
mod enum_docs;
mod escape_hatches;
mod every_helper;
mod evolve;
mod evolve_engine;
mod examples_by_words;
mod flexible_paths;
mod functions;
mod golden;
mod golden_sets;
mod helpers;
mod hostile_docs;
mod house;
mod init_roundtrip;
mod legacy;
mod marketplace_e2e;
mod methods;
mod model_client;
mod named_queries;
mod objects;
mod oidc_attribute;
mod oidc_engine;
mod operands;
mod prune_engine;
mod pruner_agreement;
mod pruning;
mod raw_types;
mod real_schemas;
mod rust_version;
mod scale;
mod schema_cache;
mod scope;
mod scope_clinic;
mod select_engine;
mod server_reads;
mod store_lesson;
mod store_seed;
mod surreal_server;
mod validate;
mod value_hints_engine;
mod visibility;
mod writes;
