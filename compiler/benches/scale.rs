//! Times `surqlc build` (front end, schema.surql, schema.rs) and the audit at 10 to 10,000 synthetic tables, and the cached against the live `fn::schema_context()` at 100.
//!
//! `cargo bench -p surqlc --features tokens[,db] --bench scale [-- build|context|rustc|all] [SIZES...]`, or
//! `-- rustc-schemas [NAMES...]` for `schemas/NAME.rs` (store and enterprise by default)
//! (`context` needs `db`, the embedded engine).
//! (`all`, the default, is build and context; sizes default to 10 100 1000 10000, for `rustc` to 100 1000). Median of several runs each;
//! the synthetic schemas are `support/synthetic.rs`'s, in the style of `schemas/store.rs`.

#[path = "../../cli/src/allocator.rs"]
mod allocator;

#[path = "support/synthetic.rs"]
mod synthetic;

use std::path::PathBuf;
use std::time::{Duration, Instant};
use surqlc::tokens::{self, Encoding};

/// CPU time of the whole process (every thread, finished ones included): what the work costs,
/// whatever else shares the machine.
fn cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// One step's timing: medians of wall-clock and of CPU time over the runs.
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Duration,
}

/// The medians of `runs` timings of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> Timing {
    let mut wall = Vec::with_capacity(runs);
    let mut cpu = Vec::with_capacity(runs);
    for _ in 0..runs {
        let (start, start_cpu) = (Instant::now(), cpu_time());
        f();
        wall.push(start.elapsed());
        cpu.push(cpu_time().saturating_sub(start_cpu));
    }
    wall.sort();
    cpu.sort();
    Timing {
        wall: wall[runs / 2],
        cpu: cpu[runs / 2],
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Writes the synthetic schema of `tables` tables to a temporary file and returns its path.
fn schema_file(tables: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surqlc-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("synthetic_{tables}.rs"));
    std::fs::write(&path, synthetic::source(tables)).expect("schema written");
    path
}

fn builder(path: &PathBuf) -> surqlc::Builder {
    let mut b = surqlc::Builder::new();
    b.schema(path).cargo_metadata(false);
    b
}

fn bench_build(sizes: &[usize]) {
    // The BPE loads once per process; the audit is timed after it.
    let load = Instant::now();
    Encoding::O200kBase.count("warm up");
    println!("o200k_base BPE load: {:.0} ms", ms(load.elapsed()));
    println!("milliseconds, CPU time (wall-clock in brackets)");
    println!(
        "{:>7} {:>16} {:>16} {:>16} {:>16} {:>14} {:>16} {:>14} {:>12}",
        "tables", "front", "schema.surql", "schema.rs", "build", "build/table", "audit", "audit/table", "block tokens"
    );
    for &n in sizes {
        let path = schema_file(n);
        let b = builder(&path);
        let runs = if n >= 10_000 {
            3
        } else if n >= 1_000 {
            5
        } else {
            11
        };
        let schema = b.load().expect("the synthetic schema compiles");
        assert_eq!(schema.tables.len(), n);
        let front = median(runs, || {
            std::hint::black_box(b.load().unwrap());
        });
        let surql = median(runs, || {
            std::hint::black_box(surqlc::codegen::emit::render_schema_surql(&schema, &Default::default()).unwrap());
        });
        // schema.rs has no public entry of its own: generate (front end, both files) less the rest.
        let generate = median(runs, || {
            std::hint::black_box(b.generate().unwrap());
        });
        let rust = Timing {
            wall: generate.wall.saturating_sub(front.wall + surql.wall),
            cpu: generate.cpu.saturating_sub(front.cpu + surql.cpu),
        };
        let out = std::env::temp_dir().join(format!("surqlc-scale-{}-out-{n}", std::process::id()));
        let mut writer = builder(&path);
        writer.out_dir(&out);
        let build = median(runs, || {
            // What `surqlc build` does: front end, both files, written if changed.
            let _ = std::fs::remove_dir_all(&out);
            std::hint::black_box(writer.compile().unwrap());
        });
        let mut block_tokens = 0;
        let audit = median(runs, || {
            // What `surqlc audit` computes: both renderings' costs and the savings hints.
            let (cost, other) = tokens::both_costs(&schema, Encoding::O200kBase);
            let savings = tokens::savings(&schema, Encoding::O200kBase);
            block_tokens = cost.block_tokens;
            std::hint::black_box((other, savings));
        });
        let _ = std::fs::remove_dir_all(&out);
        let both = |t: Timing| format!("{:.1} ({:.1})", ms(t.cpu), ms(t.wall));
        println!(
            "{n:>7} {:>16} {:>16} {:>16} {:>16} {:>14} {:>16} {:>14} {:>12}",
            both(front),
            both(surql),
            both(rust),
            both(build),
            format!("{:.3} ({:.3})", ms(build.cpu) / n as f64, ms(build.wall) / n as f64),
            both(audit),
            format!("{:.3} ({:.3})", ms(audit.cpu) / n as f64, ms(audit.wall) / n as f64),
            block_tokens
        );
    }
}

#[cfg(feature = "db")]
fn bench_context(tables: usize) {
    let path = schema_file(tables);
    let output = builder(&path).generate().expect("compiles");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let conn = surqlc::db::connect(&surqlc::db::Target::default())
            .await
            .expect("embedded engine");
        let apply = Instant::now();
        surqlc::db::execute(&conn, &output.schema_surql)
            .await
            .expect("schema loads");
        let apply = apply.elapsed();
        let call = |statement: &'static str| {
            let conn = conn.clone();
            async move { surqlc::db::query_string(&conn, statement).await.expect(statement) }
        };
        let cached = call("RETURN fn::schema_context()").await;
        let live = call("RETURN fn::schema_context_live()").await;
        assert_eq!(cached, live, "the cached block is the live walk");
        let time = |statement: &'static str, runs: usize| {
            let mut times = Vec::with_capacity(runs);
            let conn = conn.clone();
            async move {
                for _ in 0..runs {
                    let start = Instant::now();
                    std::hint::black_box(surqlc::db::query_string(&conn, statement).await.unwrap());
                    times.push(start.elapsed());
                }
                times.sort();
                times[times.len() / 2]
            }
        };
        let cached_t = time("RETURN fn::schema_context()", 101).await;
        let live_t = time("RETURN fn::schema_context_live()", 21).await;
        println!(
            "fn::schema_context() at {tables} exposed tables ({} bytes, same bytes both ways; schema applied in {:.0} ms):\n  cached {:.3} ms, live walk {:.3} ms: {:.0}x",
            cached.len(),
            ms(apply),
            ms(cached_t),
            ms(live_t),
            live_t.as_secs_f64() / cached_t.as_secs_f64()
        );
    });
}

/// How long cargo takes to rebuild a crate holding the synthetic types, with and without the generated
/// `schema.rs`, at each size (dev profile, dependencies already built; the first build is not timed).
fn bench_rustc(sizes: &[usize]) {
    let cases = sizes
        .iter()
        .map(|&n| (n.to_string(), synthetic::source(n), schema_file(n)))
        .collect();
    rustc_probe(cases);
}

/// [`bench_rustc`] on the example schemas `schemas/NAME.rs` (the store and the enterprise by default).
fn bench_rustc_schemas(names: &[String]) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_owned();
    let cases = names
        .iter()
        .map(|name| {
            let path = root.join("schemas").join(format!("{name}.rs"));
            let source = std::fs::read_to_string(&path).expect("schema file");
            (name.clone(), source, path)
        })
        .collect();
    rustc_probe(cases);
}

/// Builds a probe crate holding each case's types (with the derives), with and without its
/// generated `schema.rs`, and prints the rebuild times.
fn rustc_probe(cases: Vec<(String, String, PathBuf)>) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_owned();
    let dir = std::env::temp_dir().join("surqlc-rustc-probe");
    std::fs::create_dir_all(dir.join("src")).expect("probe dir");
    let compiler = root.join("compiler");
    let macros = root.join("macros");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"rustc-probe\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n\
             [dependencies]\nsurqlc = {{ path = {:?}, default-features = false, features = [\"runtime\"] }}\n\
             surqlc-macros = {{ path = {:?} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\n\n\
             [profile.dev.package.\"*\"]\ndebug = false\n\n[profile.dev]\ndebug = \"line-tables-only\"\n",
            compiler.display().to_string(),
            macros.display().to_string()
        ),
    )
    .expect("Cargo.toml");
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("Cargo.lock");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("rustc-probe");
    let cargo = |what: &str| {
        let start = Instant::now();
        let out = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args([what, "--quiet", "--lib"])
            .arg("--target-dir")
            .arg(&target)
            .current_dir(&dir)
            .output()
            .expect("cargo runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        start.elapsed()
    };
    println!(
        "{:>7} {:>22} {:>22} {:>18}",
        "schema", "types only: build s", "types + schema.rs: s", "schema.rs lines"
    );
    for (n, source, path) in cases {
        std::fs::write(dir.join("src/model.rs"), source).expect("model.rs");
        let mut b = builder(&path);
        b.types_path("crate::model").agent_password("probe");
        let output = b.generate().expect("compiles");
        std::fs::write(dir.join("src/schema.surql"), &output.schema_surql).expect("schema.surql");
        std::fs::write(dir.join("src/schema_gen.rs"), &output.rust_module).expect("schema.rs");
        let mut times = Vec::new();
        for with_module in [false, true] {
            let lib = format!(
                "#![allow(dead_code)]\npub mod model;\n{}",
                if with_module {
                    "pub mod schema {\n    include!(\"schema_gen.rs\");\n}\n"
                } else {
                    ""
                }
            );
            std::fs::write(dir.join("src/lib.rs"), &lib).expect("lib.rs");
            cargo("build"); // dependencies, and the crate once
            std::fs::write(dir.join("src/lib.rs"), &lib).expect("lib.rs touched");
            times.push(cargo("build"));
        }
        println!(
            "{n:>7} {:>22.1} {:>22.1} {:>18}",
            times[0].as_secs_f64(),
            times[1].as_secs_f64(),
            output.rust_module.lines().count()
        );
    }
}

fn main() {
    allocator::keep_freed_memory();
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let mode = args
        .iter()
        .find(|a| matches!(a.as_str(), "build" | "context" | "rustc" | "rustc-schemas" | "all"))
        .cloned()
        .unwrap_or_else(|| "all".into());
    let mut sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![10, 100, 1_000, 10_000];
    }
    println!(
        "machine: {} cores available, {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        if cfg!(debug_assertions) {
            "debug build"
        } else {
            "release build"
        }
    );
    if mode == "build" || mode == "all" {
        bench_build(&sizes);
    }
    if mode == "context" || mode == "all" {
        #[cfg(feature = "db")]
        bench_context(100);
        #[cfg(not(feature = "db"))]
        println!("fn::schema_context(): needs the engine; run with --features tokens,db");
    }
    // Minutes, the first time (it builds the surrealdb client): only on request.
    if mode == "rustc-schemas" {
        let mut names: Vec<String> = args
            .iter()
            .filter(|a| *a != &mode && a.parse::<usize>().is_err())
            .cloned()
            .collect();
        if names.is_empty() {
            names = vec!["store".into(), "enterprise".into()];
        }
        bench_rustc_schemas(&names);
        return;
    }
    if mode == "rustc" {
        let sizes: Vec<usize> = if args.iter().any(|a| a.parse::<usize>().is_ok()) {
            sizes
        } else {
            vec![100, 1_000]
        };
        bench_rustc(&sizes);
    }
}
