//! `surqlc init`: an existing schema (`.surql` files, a `surreal export` dump, or a live database) written as the annotated Rust schema file, what was left out listed on stderr, the file built and checked on the embedded engine.

use super::stdio;
use clap::Args;
use std::path::{Path, PathBuf};
use surqlc::db::{self, Target};
use surqlc::exit::{failed, read_input, Failure};
use surqlc::init::{self, Init, Options, Source};

/// `surqlc init`'s arguments.
#[derive(Args)]
pub(super) struct InitArgs {
    /// The schema file(s) or `surreal export` dump(s) to read, in order (their data statements are skipped and listed).
    #[arg(
        value_name = "SCHEMA.surql",
        required_unless_present = "endpoint",
        conflicts_with = "endpoint"
    )]
    sources: Vec<PathBuf>,
    /// Read a database's definitions (INFO FOR DB / INFO FOR TABLE) instead: ws://host:port, or mem:// with --seed.
    #[arg(long)]
    endpoint: Option<String>,
    /// With --endpoint mem://: a SurrealQL file loaded into the embedded database first.
    #[arg(long, value_name = "FILE", requires = "endpoint")]
    seed: Option<PathBuf>,
    /// Namespace to read (with --endpoint).
    #[arg(long, default_value = "ai")]
    ns: String,
    /// Database to read (with --endpoint) [default: the --out file's stem].
    #[arg(long)]
    db: Option<String>,
    /// Root user for a server endpoint.
    #[arg(long, requires = "pass")]
    user: Option<String>,
    /// Root password for a server endpoint.
    #[arg(long, requires = "user", env = "SURQLC_ROOT_PASSWORD", hide_env_values = true)]
    pass: Option<String>,
    /// The Rust schema file to write (FILE.functions.surql is written beside it when the source defines functions).
    #[arg(long, value_name = "FILE.rs")]
    out: PathBuf,
    /// Exit 0 even when something was left out (the file is written either way).
    #[arg(long)]
    allow_partial: bool,
}

/// `surqlc init`: read, write, build and check; exit 1 when anything was left out unless `--allow-partial`.
pub(super) async fn init(args: InitArgs) -> Result<(), Failure> {
    let stem = args
        .out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| Failure::BadInput(format!("error: --out {} names no file", args.out.display())))?;
    let sources = sources(&args, &stem).await?;
    let options = Options {
        schema_type: init::schema_type_for(&stem),
        functions_file: format!("{stem}.functions.surql"),
        from: sources.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", "),
    };
    let written = init::init(&sources, &options).map_err(|e| Failure::BadInput(e.to_string()))?;
    write(&args.out, &written, &options)?;
    for n in &written.left_out {
        note!("warning: left out: {n}");
    }
    for n in &written.choices {
        note!("note: {n}");
    }
    let checked = init::live::round_trip(&sources, &args.out, &written)
        .await
        .map_err(|e| {
            Failure::Failed(format!(
                "error: {} was written but surqlc cannot build it as it is; fix these and run `surqlc build`:\n{e}",
                args.out.display()
            ))
        })?;
    for r in &checked.refused {
        note!("warning: source: {r}");
    }
    let differences = checked.differences;
    for d in &differences {
        note!("difference: {d}");
    }
    summary(&args.out, &written, &differences)?;
    let missing = written.left_out.len() + differences.len();
    if missing > 0 && !args.allow_partial {
        return Err(Failure::Failed(format!(
            "error: {missing} definition(s) or difference(s) not carried over (listed above, and at the top of {}); \
             pass --allow-partial to accept the file as it is",
            args.out.display()
        )));
    }
    Ok(())
}

/// The sources: the files as given, or the database's definitions.
async fn sources(args: &InitArgs, stem: &str) -> Result<Vec<Source>, Failure> {
    let Some(endpoint) = &args.endpoint else {
        return args
            .sources
            .iter()
            .map(|p| {
                Ok(Source {
                    name: p.display().to_string(),
                    text: read_input(p)?,
                })
            })
            .collect();
    };
    let target = Target {
        endpoint: endpoint.clone(),
        namespace: args.ns.clone(),
        database: args.db.clone().unwrap_or_else(|| stem.to_owned()),
        root: args.user.clone().zip(args.pass.clone()),
    };
    let conn = db::connect(&target)
        .await
        .map_err(failed(&format!("cannot connect to {endpoint}")))?;
    if let Some(seed) = &args.seed {
        let script = read_input(seed)?;
        db::execute(&conn, &script)
            .await
            .map_err(|e| Failure::BadInput(format!("error: {} does not load: {e}", seed.display())))?;
    }
    let name = format!("{endpoint} {}/{}", target.namespace, target.database);
    let source = init::live::source(&conn, &name)
        .await
        .map_err(failed(&format!("cannot read the definitions of {name}")))?;
    Ok(vec![source])
}

fn write(out: &Path, written: &Init, options: &Options) -> Result<(), Failure> {
    let write = |path: &Path, text: &str| {
        // The folder too, as `surqlc build --out DIR` makes its own.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| Failure::Failed(format!("error: cannot create {}: {e}", dir.display())))?;
        }
        std::fs::write(path, text).map_err(|e| Failure::Failed(format!("error: cannot write {}: {e}", path.display())))
    };
    write(out, &written.rust)?;
    if let Some(functions) = &written.functions {
        write(&out.with_file_name(&options.functions_file), functions)?;
    }
    Ok(())
}

fn summary(out: &Path, written: &Init, differences: &[String]) -> Result<(), Failure> {
    let functions = if written.functions.is_some() {
        format!(
            " and {}",
            out.with_file_name(format!("{}", functions_name(out))).display()
        )
    } else {
        String::new()
    };
    out!(
        "wrote {}{functions}: {} table(s), {} left out, {} choice(s), {} difference(s) on the engine{}\n",
        out.display(),
        written.table_names.len(),
        written.left_out.len(),
        written.choices.len(),
        differences.len(),
        if written.own > 0 {
            format!(", {} of surqlc's own definitions skipped", written.own)
        } else {
            String::new()
        }
    );
    out!("next: surqlc prompt {} --question \"...\"\n", out.display());
    Ok(())
}

fn functions_name(out: &Path) -> String {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{stem}.functions.surql")
}
