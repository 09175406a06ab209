//! Times the audit of a synthetic schema of hundreds of tables: static rendering, BPE load, and token counting.
//!
//! Run with `cargo bench -p surqlc --features tokens --bench audit [-- TABLES]`.

#[path = "../../cli/src/allocator.rs"]
mod allocator;

use std::time::{Duration, Instant};
use surqlc::ir::{Field, Schema, Settings, Table, TableKind, Type};
use surqlc::surql::info::{self as render, Rendering};
use surqlc::tokens::{self, Encoding};

/// `tables` tables of eight commented fields; every fifth is a relation to its two predecessors.
fn synthetic(tables: usize) -> Schema {
    let types = [
        Type::String,
        Type::Int,
        Type::Decimal,
        Type::Datetime,
        Type::Option(Box::new(Type::String)),
        Type::Array(Box::new(Type::String), None),
        Type::Literal(vec!["draft".into(), "live".into(), "retired".into()]),
        Type::Bool,
    ];
    let tables: Vec<Table> = (0..tables)
        .map(|i| Table {
            name: format!("table_{i}"),
            rust_name: format!("Table{i}"),
            comment: Some(format!(
                "Synthetic table {i}: rows of the kind a catalogue keeps. It's linked to table_{}.",
                i.saturating_sub(1)
            )),
            kind: if i % 5 == 4 {
                TableKind::Relation {
                    from: vec![format!("table_{}", i - 2)],
                    to: vec![format!("table_{}", i - 1)],
                }
            } else {
                TableKind::Normal
            },
            fields: types
                .iter()
                .enumerate()
                .map(|(j, ty)| Field {
                    name: format!("field_{j}"),
                    rust_name: format!("field_{j}"),
                    ty: ty.clone(),
                    comment: Some(format!("Field {j} of table {i}, in \"plain\" words.")),
                    clauses: Default::default(),
                    aka: Vec::new(),
                    fields: Vec::new(),
                    renamed_from: None,
                })
                .collect(),
            schemaless: false,
            enforced: false,
            id: None,
            permissions: None,
            indexes: Vec::new(),
            aka: Vec::new(),
            owner: None,
            view: None,
            renamed_from: None,
        })
        .collect();
    Schema {
        name: "synthetic".into(),
        rust_name: None,
        settings: Settings {
            exposed: tables.iter().map(|t| t.name.clone()).collect(),
            ..Default::default()
        },
        tables,
        enums: Vec::new(),
        analyzers: Vec::new(),
        functions: Vec::new(),
    }
}

/// The median of `runs` timings of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn main() {
    allocator::keep_freed_memory();
    let tables = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(500);
    let schema = synthetic(tables);
    let block = render::schema_block(&schema);
    println!(
        "synthetic schema: {tables} tables, {} fields, block {} chars",
        tables * 8,
        block.chars().count()
    );

    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
        let load = Instant::now();
        encoding.count("warm up");
        println!("{encoding}: BPE load {:?}", load.elapsed());
    }
    let render_time = median(21, || {
        std::hint::black_box(render::schema_block_as(&schema, Rendering::Engine));
    });
    println!("render (engine): {render_time:?}");
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
        let mut cost = None;
        let audit_time = median(11, || {
            cost = Some(tokens::block_cost(&schema, Rendering::Engine, encoding));
        });
        let compact_time = median(11, || {
            std::hint::black_box(tokens::block_cost(&schema, Rendering::Compact, encoding));
        });
        let cost = cost.expect("ran");
        println!(
            "{encoding}: audit (per-table + block counts) {audit_time:?}, compact {compact_time:?}; block {} tokens",
            cost.block_tokens
        );
    }
}
