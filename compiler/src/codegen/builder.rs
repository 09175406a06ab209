//! The `Builder`: schema files in, `schema.surql` out, for `build.rs` and the CLI alike.
//!
//! ```rust
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = std::env::temp_dir().join(format!("surqlc-doc-builder-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("shop.rs");
//! # std::fs::write(&path, "#[derive(Schema)]\n#[surqlc(expose(Customer))]\npub struct Shop;\n\n\
//! #     /// A person who buys from the shop.\n#[derive(Table)]\npub struct Customer {\n    \
//! #     /// Full name.\n    pub name: String,\n}\n")?;
//! // In build.rs, `compile_in_build_script()` writes into `OUT_DIR`; here, into a directory of our own.
//! let output = surqlc::Builder::new()
//!     .schema(&path)
//!     .out_dir(&dir)
//!     .no_agent() // no agent user (it needs SURQLC_AGENT_PASSWORD)
//!     .compile()?;
//! assert!(output.schema_surql.contains("DEFINE TABLE OVERWRITE customer"));
//! assert!(dir.join("schema.surql").exists() && dir.join("schema.rs").exists());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```

use crate::codegen::emit::{self, EmitError, EmitOptions};
use crate::diagnostic::Diagnostics;
use crate::front::{self, SourceFile};
use crate::ir;
use std::path::{Path, PathBuf};

pub use crate::codegen::password::AGENT_PASSWORD_ENV;

/// Configures and runs a compilation, in the style of `prost_build::Config`.
///
/// ```no_run
/// // build.rs, in `fn main`:
/// surqlc::Builder::new()
///     .schema("src/store.rs")
///     .compile_in_build_script(); // $OUT_DIR/schema.surql and $OUT_DIR/schema.rs, or cargo::error lines
/// ```
#[derive(Debug, Clone, Default)]
pub struct Builder {
    schemas: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    prompt_template: Option<PathBuf>,
    agent_password: Option<String>,
    scope_key: Option<String>,
    cargo_metadata: Option<bool>,
    types_path: Option<String>,
    file_stem: Option<String>,
    no_agent: bool,
    budget: ir::Budget,
    deny_over_budget: bool,
    helper_tables: Option<Vec<String>>,
    no_write_helpers: bool,
    queries: Vec<PathBuf>,
    #[cfg(feature = "tokens")]
    encoding: crate::tokens::Encoding,
}

/// What a compilation produced, written or not.
#[derive(Debug, Clone)]
pub struct Output {
    pub schema: ir::Schema,
    pub schema_surql: String,
    /// The typed Rust helper module (`schema.rs`).
    pub rust_module: String,
    /// Every file the output depends on.
    pub inputs: Vec<PathBuf>,
    /// How the schema block exceeds its token budget, one line each (filled by `compile`).
    pub over_budget: Vec<String>,
    /// Lints: known traps in the schema, each with its position and why (printed by `compile`).
    pub warnings: Vec<crate::diagnostic::Diagnostic>,
    /// The named queries of [`Builder::queries`], read and checked against the schema.
    pub queries: Vec<crate::codegen::queries::Query>,
    /// Whether `schema_surql` defines the agent user (a password was given).
    pub agent_defined: bool,
    /// Whether `schema_surql` defines the per-user agent's access (the schema declares a
    /// `scope(...)` and a scope key was given): without it no end user can sign in.
    pub scope_access_defined: bool,
    /// The prompt's rules: the text `fn::nl2surql_prompt` puts before `SCHEMA`.
    pub preamble: String,
    /// Where each table and field was declared (for reports; not part of any generated file).
    pub positions: front::positions::Positions,
}

#[derive(Debug)]
pub enum Error {
    /// The schema has errors; each names its file, line and column.
    Schema(Diagnostics),
    Emit(EmitError),
    Io(PathBuf, std::io::Error),
    /// `compile` was called without `out_dir` and `OUT_DIR` is not set.
    NoOutDir,
    /// Over the token budget, with `deny_over_budget(true)`: one line per table or block over it.
    OverBudget(Vec<String>),
    /// A budget must be enforced but the `tokens` feature (the tokenizer) is off.
    BudgetUnchecked,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Schema(d) => write!(f, "{d}"),
            Error::Emit(e) => write!(f, "error: {e}"),
            Error::Io(p, e) => write!(f, "error: {}: {e}", p.display()),
            Error::OverBudget(over) => {
                write!(f, "error: the schema is over its token budget:")?;
                for line in over {
                    write!(f, "\n  {line}")?;
                }
                Ok(())
            }
            Error::BudgetUnchecked => write!(
                f,
                "error: a token budget is set but surqlc was built without its `tokens` feature; add `features \
                    = [\"tokens\"]` to surqlc in [build-dependencies]"
            ),
            Error::NoOutDir => write!(
                f,
                "error: no output directory: call Builder::out_dir or run from build.rs (OUT_DIR)"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<Diagnostics> for Error {
    fn from(d: Diagnostics) -> Self {
        Error::Schema(d)
    }
}

impl From<EmitError> for Error {
    fn from(e: EmitError) -> Self {
        Error::Emit(e)
    }
}

impl Builder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds named queries: a directory's `*.surql` files, or one file, each query preceded by
    /// `-- name: NAME :many|:one|:opt|:value|:exec` (and optional `-- question:` lines). Each is checked
    /// against the schema (with surqlc's `validate` feature); a query the schema breaks fails the
    /// build at its file:line:col.
    pub fn queries(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.queries.push(path.as_ref().to_owned());
        self
    }

    /// Adds a schema file; several files form one schema.
    pub fn schema(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.schemas.push(path.as_ref().to_owned());
        self
    }

    /// Where `compile` writes `schema.surql`. Defaults to `$OUT_DIR`.
    pub fn out_dir(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.out_dir = Some(path.as_ref().to_owned());
        self
    }

    /// A Tera template that replaces the built-in prompt rules (everything before `SCHEMA`).
    pub fn prompt_template(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.prompt_template = Some(path.as_ref().to_owned());
        self
    }

    /// The agent's password; by default it is read from `SURQLC_AGENT_PASSWORD`.
    pub fn agent_password(&mut self, password: impl Into<String>) -> &mut Self {
        self.agent_password = Some(password.into());
        self
    }

    /// The key the application signs its end users in with under `scope(...)` (only its Argon2id
    /// hash goes into `schema.surql`); by default it is read from `SURQLC_SCOPE_KEY`.
    pub fn scope_key(&mut self, key: impl Into<String>) -> &mut Self {
        self.scope_key = Some(key.into());
        self
    }

    /// Defines no agent user, on purpose: no password is read and no warning printed
    /// (the generated `agent_signin` says the build defines no agent).
    pub fn no_agent(&mut self) -> &mut Self {
        self.no_agent = true;
        self
    }

    /// Where the domain types live, as a Rust path seen from the module the generated file is
    /// included in: `super` (the default) when that module is a child of the one holding the types
    /// (`pub mod db { include!(...) }` inside `store.rs`), `crate::store` from anywhere.
    /// Relative paths are adjusted for the table modules nested inside the generated file.
    pub fn types_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.types_path = Some(path.into());
        self
    }

    /// The output files' name without extension: `NAME.surql` and `NAME.rs`. Defaults to `schema`;
    /// set it when one build script compiles several schemas into one directory.
    pub fn file_stem(&mut self, stem: impl Into<String>) -> &mut Self {
        self.file_stem = Some(stem.into());
        self
    }

    /// Which tables get a helper module (`get`, `select`, traversals) in `schema.rs`, by table or
    /// Rust type name; by default every table. The schema file and the prompt keep every table: this
    /// only trims the Rust rustc compiles, which grows with the schema (figures in docs/scale.md).
    pub fn helper_tables<I, S>(&mut self, tables: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.helper_tables = Some(tables.into_iter().map(Into::into).collect());
        self
    }

    /// Whether the table modules get their typed inputs and write helpers (`Input`, `Patch`,
    /// `create`, `insert`, `update`, `merge`, `delete`, `relate`); on by default. They are most of
    /// a big schema's module (the enterprise schema's 26,378 lines are 4,613 without them): an
    /// application that writes through named queries or its own SurrealQL can leave them out.
    pub fn write_helpers(&mut self, enabled: bool) -> &mut Self {
        self.no_write_helpers = !enabled;
        self
    }

    fn stem(&self) -> &str {
        self.file_stem.as_deref().unwrap_or("schema")
    }

    /// Whether to print `cargo:` lines; by default, when run by Cargo as a build script.
    pub fn cargo_metadata(&mut self, enabled: bool) -> &mut Self {
        self.cargo_metadata = Some(enabled);
        self
    }

    /// The most tokens the schema block may cost; overrides the schema's `budget(block = N)`.
    pub fn token_budget(&mut self, tokens: u32) -> &mut Self {
        self.budget.block = Some(tokens);
        self
    }

    /// The most tokens any one table may cost; overrides the schema's `budget(table = N)`.
    pub fn table_token_budget(&mut self, tokens: u32) -> &mut Self {
        self.budget.table = Some(tokens);
        self
    }

    /// Whether going over a budget fails `compile` (by default it prints a `cargo:warning`).
    /// Checking a budget needs surqlc's `tokens` feature.
    pub fn deny_over_budget(&mut self, deny: bool) -> &mut Self {
        self.deny_over_budget = deny;
        self
    }

    /// The tokenizer budgets are counted in; `o200k_base` by default.
    #[cfg(feature = "tokens")]
    pub fn token_encoding(&mut self, encoding: crate::tokens::Encoding) -> &mut Self {
        self.encoding = encoding;
        self
    }

    /// The budget in force: the builder's settings over the schema's own.
    fn budget_for(&self, schema: &ir::Schema) -> ir::Budget {
        self.budget.or(&schema.settings.budget)
    }

    /// Lines saying how `schema` exceeds `budget`; `None` when it cannot be counted (no `tokens` feature).
    fn check_budget(&self, schema: &ir::Schema, budget: &ir::Budget) -> Option<Vec<String>> {
        #[cfg(feature = "tokens")]
        {
            let rendering = crate::surql::info::Rendering::of(schema);
            Some(crate::tokens::block_cost(schema, rendering, self.encoding).over_budget(budget))
        }
        #[cfg(not(feature = "tokens"))]
        {
            let _ = (schema, budget);
            None
        }
    }

    fn emits_cargo_metadata(&self) -> bool {
        self.cargo_metadata.unwrap_or_else(|| {
            std::env::var_os("OUT_DIR").is_some() && std::env::var_os("CARGO_MANIFEST_DIR").is_some()
        })
    }

    /// Runs the front end only.
    pub fn load(&self) -> Result<ir::Schema, Error> {
        self.load_with_warnings().map(|(schema, _)| schema)
    }

    /// Runs the front end only, keeping its lints.
    pub fn load_with_warnings(&self) -> Result<(ir::Schema, Vec<crate::diagnostic::Diagnostic>), Error> {
        self.load_with_positions()
            .map(|(schema, warnings, _)| (schema, warnings))
    }

    /// [`Builder::load_with_warnings`], also keeping where each table and field was declared.
    fn load_with_positions(
        &self,
    ) -> Result<
        (
            ir::Schema,
            Vec<crate::diagnostic::Diagnostic>,
            front::positions::Positions,
        ),
        Error,
    > {
        let files = self
            .schemas
            .iter()
            .map(SourceFile::read)
            .collect::<Result<Vec<_>, _>>()?;
        let (schema, warnings, positions) = front::compile_with_positions(&files)?;
        // A view's SELECT needs the whole schema (and the validator), so it is checked here.
        let views = crate::codegen::views::check(&schema, &positions);
        if !views.is_empty() {
            return Err(Error::Schema(crate::diagnostic::Diagnostics(views)));
        }
        Ok((schema, warnings, positions))
    }

    /// Compiles without writing anything.
    pub fn generate(&self) -> Result<Output, Error> {
        let (schema, mut warnings, positions) = self.load_with_positions()?;
        // Pruning's rows, once: for its section of schema.surql and for its warnings.
        let prune_docs = schema
            .settings
            .prune
            .as_ref()
            .map(|_| crate::prune::table_docs(&schema));
        // What prune(...) cannot do at its budget is said at build time (and by `audit`).
        let prune_warnings = crate::prune::warnings_for(&schema, prune_docs.as_deref());
        warnings.extend(prune_warnings.into_iter().map(|message| {
            let path = self.schemas.first().cloned().unwrap_or_default();
            crate::diagnostic::Diagnostic {
                severity: crate::codes::Severity::Warning,
                ..crate::diagnostic::Diagnostic::whole_file(&path, message)
            }
        }));
        let agent_password =
            crate::codegen::password::agent_password(self.agent_password.as_deref()).filter(|_| !self.no_agent);
        // A key given to the builder is used even with `no_agent` (`check-query --as` needs the
        // per-user access only); the environment's only when the build defines agents.
        let scope_key = match self.scope_key.as_deref().filter(|k| !k.is_empty()) {
            Some(key) => Some(key.to_owned()),
            None if self.no_agent => None,
            None => crate::codegen::password::scope_key(None),
        }
        .filter(|_| schema.settings.scope.is_some());
        let scope_access_defined = scope_key.is_some();
        let options = EmitOptions {
            prompt_template: self.prompt_template.clone(),
            agent_password,
            scope_key,
            sources: self.schemas.clone(),
        };
        let preamble = emit::render_preamble(&schema, &options)?;
        let schema_surql = emit::render_schema_surql_docs(&schema, &options, &preamble, prune_docs.as_deref())?;
        let query_files =
            crate::codegen::queries::check::files(&self.queries).map_err(|(path, e)| Error::Io(path, e))?;
        let queries =
            crate::codegen::queries::check::read_and_check(&schema, &query_files).map_err(|refused| match refused {
                crate::codegen::queries::check::Refused::Io(path, e) => Error::Io(path, e),
                crate::codegen::queries::check::Refused::Invalid(d) => Error::Schema(d),
            })?;
        let module_options = crate::codegen::rustgen::ModuleOptions {
            types_path: self.types_path.clone().unwrap_or_else(|| "super".into()),
            sources: emit::source_names(&self.schemas),
            agent_defined: options.agent_password.is_some(),
            surql_file: format!("{}.surql", self.stem()),
            file_stem: self.stem().to_owned(),
            helper_tables: self.helper_tables.clone(),
            write_helpers: !self.no_write_helpers,
            queries: queries.clone(),
        };
        let rust_module = crate::codegen::rustgen::render_module(&schema, &module_options)?;
        let mut inputs = self.schemas.clone();
        inputs.extend(self.prompt_template.clone());
        inputs.extend(query_files);
        Ok(Output {
            schema,
            schema_surql,
            rust_module,
            inputs,
            over_budget: Vec::new(),
            warnings,
            queries,
            agent_defined: module_options.agent_defined,
            scope_access_defined,
            preamble,
            positions,
        })
    }

    /// Compiles and writes `schema.surql` and `schema.rs` (see [`Builder::file_stem`]) into the output directory, touching it only when its content changed.
    pub fn compile(&self) -> Result<Output, Error> {
        let cargo = self.emits_cargo_metadata();
        if cargo {
            for path in self.schemas.iter().chain(&self.prompt_template) {
                println!("cargo:rerun-if-changed={}", path.display());
            }
            // A directory: cargo reruns when a file is added, removed or changed in it.
            for path in &self.queries {
                println!("cargo:rerun-if-changed={}", path.display());
            }
            if let Ok(files) = crate::codegen::queries::check::files(&self.queries) {
                for file in files {
                    println!("cargo:rerun-if-changed={}", file.display());
                }
            }
            if !self.no_agent {
                println!("cargo:rerun-if-env-changed={AGENT_PASSWORD_ENV}");
                println!("cargo:rerun-if-env-changed={}", crate::codegen::password::SCOPE_KEY_ENV);
            }
        }
        let mut output = self.generate()?;
        if cargo {
            for w in &output.warnings {
                // A warning about the whole schema (line 0) names the file alone, as rustc does.
                let at = if w.line == 0 {
                    w.path.display().to_string()
                } else {
                    format!("{}:{}:{}", w.path.display(), w.line, w.column)
                };
                println!("cargo:warning=surqlc: {at}: {}", w.message);
            }
        }
        let budget = self.budget_for(&output.schema);
        if budget != ir::Budget::default() {
            match self.check_budget(&output.schema, &budget) {
                Some(over) if over.is_empty() => {}
                Some(over) if self.deny_over_budget => return Err(Error::OverBudget(over)),
                Some(over) => {
                    if cargo {
                        for line in &over {
                            println!("cargo:warning=surqlc: {line}");
                        }
                    }
                    output.over_budget = over;
                }
                None if self.deny_over_budget => return Err(Error::BudgetUnchecked),
                None => {
                    if cargo {
                        println!("cargo:warning=surqlc: the token budget is not checked: enable surqlc's `tokens` feature in [build-dependencies]");
                    }
                }
            }
        }
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or(Error::NoOutDir)?,
        };
        std::fs::create_dir_all(&out_dir).map_err(|e| Error::Io(out_dir.clone(), e))?;
        write_if_changed(&out_dir.join(format!("{}.surql", self.stem())), &output.schema_surql)?;
        write_if_changed(&out_dir.join(format!("{}.rs", self.stem())), &output.rust_module)?;
        if cargo && !self.no_agent && !output.agent_defined {
            // Cargo shows a build script's warnings again on every build that reuses its output,
            // so this stays until it is acted on: set the password, or say no agent is wanted.
            println!(
                "cargo:warning=surqlc: {AGENT_PASSWORD_ENV} is not set, so schema.surql defines no agent \
                user (set it, e.g. under [env] in .cargo/config.toml for development, or call \
                Builder::no_agent())"
            );
        }
        if let (true, false, Some(scope)) = (
            cargo && !self.no_agent,
            output.scope_access_defined,
            &output.schema.settings.scope,
        ) {
            println!("cargo:warning=surqlc: {} is not set, so schema.surql defines no per-user access `{}` and no end user can sign in (set it to the key the application signs end users' tokens with)", crate::codegen::password::SCOPE_KEY_ENV, scope.access);
        }
        Ok(output)
    }

    /// [`Builder::compile`] for `build.rs`: on failure, each problem becomes a `cargo::error=` line
    /// (file:line:col, the message, the source line), which cargo prints as the build's errors
    /// without its "failed to run custom build command" dump, and the build fails.
    /// Needs cargo 1.84 or later (surqlc's `rust-version` is 1.88).
    pub fn compile_in_build_script(&self) -> Option<Output> {
        match self.compile() {
            Ok(output) => Some(output),
            Err(e) => {
                for line in e.cargo_error_lines() {
                    println!("cargo::error={line}");
                }
                None
            }
        }
    }
}

impl Error {
    /// The error as lines for `cargo::error=`: one headline per problem (`file:line:col: message`),
    /// followed by the source line and a marker under the problem when known.
    pub fn cargo_error_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        match self {
            Error::Schema(d) => {
                for diagnostic in &d.0 {
                    lines.extend(diagnostic_lines(diagnostic));
                }
            }
            other => {
                let text = other.to_string();
                for line in text.lines() {
                    lines.push(line.strip_prefix("error: ").unwrap_or(line).to_owned());
                }
            }
        }
        lines
    }
}

/// One diagnostic as short lines: cargo prefixes each with `error: PACKAGE@VERSION: `.
fn diagnostic_lines(d: &crate::diagnostic::Diagnostic) -> Vec<String> {
    let at = if d.line == 0 {
        d.path.display().to_string()
    } else {
        format!("{}:{}:{}", d.path.display(), d.line, d.column)
    };
    let mut message = d.message.lines();
    let mut lines = vec![format!("{at}: {}", message.next().unwrap_or_default())];
    lines.extend(message.map(|l| format!("    {l}")));
    if let (Some((source, width)), true) = (&d.snippet, d.line > 0) {
        let gutter = d.line.to_string();
        let pad: String = source
            .chars()
            .take(d.column.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        lines.push(format!("    {gutter} | {source}"));
        lines.push(format!(
            "    {} | {pad}{}",
            " ".repeat(gutter.len()),
            "^".repeat(*width)
        ));
    }
    lines
}

/// Writes `contents` to `path` unless it already holds exactly that; returns whether it wrote.
pub fn write_if_changed(path: &Path, contents: &str) -> Result<bool, Error> {
    if std::fs::read(path).is_ok_and(|existing| existing == contents.as_bytes()) {
        return Ok(false);
    }
    std::fs::write(path, contents).map_err(|e| Error::Io(path.to_owned(), e))?;
    Ok(true)
}
