//! The command line's commands, one function each (`run` in `main.rs` dispatches to them).

use super::{
    builder, print_warnings, stdio, tables, DiffTarget, Format, Input, LintArgs, McpArgs, RunArgs, ServerArgs,
};
use crate::exit::Exit;
use std::path::PathBuf;
use surqlc::audit;
use surqlc::drift::diff;
use surqlc::exit::Failure;
use surqlc::schema_db;
use surqlc::tokens::Encoding;
use surqlc::Builder;

/// `surqlc build`: writes `schema.surql` and `schema.rs`, and says how to load the schema.
pub(super) fn build(
    input: &Input,
    out: PathBuf,
    types_path: String,
    ns: String,
    db: Option<String>,
    queries: Vec<PathBuf>,
) -> Result<(), Failure> {
    let mut b = builder(&input);
    for q in &queries {
        b.queries(q);
    }
    let output = b.out_dir(&out).types_path(types_path).compile()?;
    print_warnings(&output.warnings);
    let surql = out.join("schema.surql");
    note!(
        "wrote {} and {} ({}, {} exposed)",
        surql.display(),
        out.join("schema.rs").display(),
        tables(output.schema.tables.len()),
        output.schema.settings.exposed.len()
    );
    let db = db.unwrap_or_else(|| output.schema.name.clone());
    note!(
        "for namespace `{ns}`, database `{db}` (what `surqlc prompt`, `diff` and `check-query` use \
         unless given --ns/--db), load it with:\n  surreal import --endpoint http://localhost:8000 \
         --user root --pass <root password> --ns {ns} --db {db} {}",
        surql.display()
    );
    if !output.agent_defined {
        note!(
            "note: {} is not set, so no agent user is defined; set it and rebuild to add `{}`",
            surqlc::builder::AGENT_PASSWORD_ENV,
            output.schema.settings.agent.user
        );
    }
    if let (Some(scope), false) = (&output.schema.settings.scope, output.scope_access_defined) {
        note!(
            "note: {} is not set, so the per-user access `{}` is not defined and no `{}` can sign in; \
             set it to the key your application signs end users' tokens with and rebuild",
            surqlc::runtime::SCOPE_KEY_VAR,
            scope.access,
            scope.end_user
        );
    }
    Ok(())
}

/// `surqlc check`: the schema compiles and loads into the embedded engine.
pub(super) async fn check(input: &Input) -> Result<(), Failure> {
    let output = builder(&input).generate()?;
    print_warnings(&output.warnings);
    schema_db::open_embedded(&output).await?;
    note!("ok: {} compile and load", tables(output.schema.tables.len()));
    Ok(())
}

/// `surqlc prompt`: the prompt for a question on the embedded engine or a server (read, or applied with `--apply`), its token costs on stderr.
pub(super) async fn prompt(input: &Input, run: RunArgs, apply: bool, pruned: bool) -> Result<(), Failure> {
    let output = builder(&input).generate()?;
    if !run.vector.is_empty() {
        schema_db::check_dimension(&output.schema, &run.vector)?;
    }
    if pruned {
        // Before connecting to anything.
        schema_db::check_pruned(&output)?;
    }
    // The embedded engine starts empty, so it is always loaded; a server is only read unless --apply.
    let server = !surqlc::db::is_embedded(&run.endpoint);
    let target = run.server.target(run.endpoint, &output.schema);
    let place = format!(
        "namespace `{}`, database `{}` at {}",
        target.namespace, target.database, target.endpoint
    );
    let conn = if server {
        let conn = schema_db::connect(&target).await?;
        if apply {
            // The plan as `surqlc apply` runs it: one transaction, refused when it breaks rows or loses data.
            let plan = surqlc::evolve::apply(&conn, &output, Default::default(), false).await?;
            note!(
                "{}",
                crate::evolve_cmd::after_apply(&conn, &output, &plan, &place).await
            );
        } else {
            let said = diff::read_or_apply(&conn, &output, false, &place).await?;
            if !said.is_empty() {
                note!("{said}");
            }
        }
        conn
    } else {
        schema_db::open(&output, &target).await?
    };
    if let Some(seed) = &run.seed {
        schema_db::load_file(&conn, seed).await?;
        if server {
            note!("loaded {} into {place}", seed.display());
        }
    }
    // Without --vector the examples are the pool's by the question's words (BM25).
    let vector = (!run.vector.is_empty()).then_some(run.vector.as_slice());
    let prompt = schema_db::prompt_for(&conn, &output, &run.question, vector, pruned).await;
    let prompt = prompt.map_err(|failure| match failure {
        Failure::Failed(m) if server && !apply => {
            Failure::Failed(format!("{m}\n(was the schema applied to {place}? --apply applies it)"))
        }
        other => other,
    })?;
    // The token report goes to stderr so stdout stays the prompt, ready to pipe to a model.
    let encoding = Encoding::default();
    let (cost, alternative) = audit::block_costs(&output, encoding);
    note!("{}", audit::cost_table(&cost, &alternative, &[], &[]).trim_end());
    note!("prompt: {} tokens ({})\n", encoding.count(&prompt), encoding.name());
    out!("{prompt}");
    Ok(())
}

/// `surqlc check-query`: the queries checked against the schema, with data from a seed or a server when given.
pub(super) async fn check_query(
    args: &[String],
    (query, file): (Option<String>, Option<PathBuf>),
    format: Format,
    profile: surqlc::validate::Profile,
    data: (Option<PathBuf>, Option<String>, Option<String>),
    server: ServerArgs,
    lints: LintArgs,
) -> Result<(), Failure> {
    use super::check_query::{check_query_linted, split_arguments, Queries};
    // Data from a seed file or a server endpoint, if any, read as an end user or the owner.
    let (seed, endpoint, as_user) = data;
    if as_user.is_some() && seed.is_none() && endpoint.is_none() {
        return Err(Failure::BadInput(
            "error: --as checks the data as an end user: give --seed FILE or --endpoint too".into(),
        ));
    }
    if profile == surqlc::validate::Profile::App && (seed.is_some() || endpoint.is_some()) {
        return Err(Failure::BadInput(
            "error: the data checks are the agent's runner's (record ids exist, compared values are present): \
            --seed and --endpoint go with --profile agent"
                .into(),
        ));
    }
    let (schemas, positional) = split_arguments(&args).map_err(Failure::BadInput)?;
    let queries = match (positional.or(query), file) {
        (Some(_), Some(_)) => return Err(Failure::BadInput("error: give a QUERY or --file FILE, not both".into())),
        (None, Some(file)) => Queries::File(file),
        (Some(query), None) => Queries::Inline(query),
        (None, None) => return Err(Failure::BadInput("error: give a QUERY or --file FILE".into())),
    };
    let json = format == Format::Json;
    let source = match (seed, endpoint) {
        (Some(seed), _) => Some(Ok(seed)),
        (None, Some(endpoint)) => Some(Err(endpoint)),
        (None, None) => None,
    };
    let outcome = match source {
        None => {
            let mut levels = surqlc::ir::Lints::default();
            lints.apply(&mut levels)?;
            check_query_linted(&schemas, &queries, json, &levels, profile)
        }
        Some(source) => {
            let mut b = Builder::new();
            b.cargo_metadata(false).no_agent();
            for s in &schemas {
                b.schema(s);
            }
            let endpoint = match &source {
                Ok(_) => surqlc::db::EMBEDDED.to_owned(),
                Err(endpoint) => endpoint.clone(),
            };
            let key = scope_key_for(
                &mut b,
                as_user.is_some(),
                &endpoint,
                "the data checks sign the end user in with it",
            )?;
            let mut output = b.generate()?;
            lints.apply(&mut output.schema.settings.lints)?;
            let target = server.target(endpoint, &output.schema);
            if let Some(user) = &as_user {
                schema_db::scope_for(&output.schema, &target, user)?;
            }
            let source = match source {
                Ok(seed) => super::check_query::DataSource::Seed(seed),
                Err(_) => super::check_query::DataSource::Server(target.clone()),
            };
            let as_user = as_user.zip(key);
            super::check_query::with_data(&output, &queries, json, &source, as_user.as_ref()).await
        }
    };
    out!("{}", outcome.stdout);
    match outcome.status {
        Exit::Ok => {}
        Exit::Failed => return Err(Failure::Failed(outcome.stderr)),
        Exit::BadInput => return Err(Failure::BadInput(outcome.stderr)),
    }
    note!("{}", outcome.stderr);
    Ok(())
}

/// The scope key for a run that serves end users (`wanted`: `--as`, `--per-user`), given to `b`
/// so the schema it builds defines the per-user access with it; `None` when no end user is served.
pub(super) fn scope_key_for(
    b: &mut Builder,
    wanted: bool,
    endpoint: &str,
    why: &str,
) -> Result<Option<String>, Failure> {
    if !wanted {
        return Ok(None);
    }
    let key = schema_db::scope_key(endpoint, why)?;
    b.scope_key(key.clone());
    Ok(Some(key))
}

/// `surqlc mcp`: the MCP server over stdio or streamable HTTP, started before the database loads.
pub(super) async fn mcp(input: &Input, mcp: McpArgs) -> Result<(), Failure> {
    // The exporters start first, so that the whole run is traced, and are flushed however it ends
    // (stdin closed, SIGTERM drained, or an error), so a short run exports its spans too.
    let telemetry = mcp.ops.telemetry()?;
    let served = serve_mcp(input, mcp, telemetry.as_ref()).await;
    if let Some(telemetry) = telemetry {
        telemetry.shutdown().await;
    }
    served
}

async fn serve_mcp(input: &Input, mcp: McpArgs, telemetry: Option<&crate::otel::Telemetry>) -> Result<(), Failure> {
    let endpoint = mcp.endpoint.unwrap_or_else(|| surqlc::db::EMBEDDED.into());
    let password = schema_db::agent_password(&endpoint, &format!("run_query signs in as the agent on {endpoint}"))?;
    let mut b = builder(&input);
    b.agent_password(password.as_str());
    let scope_key = scope_key_for(
        &mut b,
        mcp.as_user.is_some() || mcp.per_user,
        &endpoint,
        "the schema is applied with it and end users' tokens are signed with it",
    )?;
    for q in &mcp.queries {
        b.queries(q);
    }
    let mut output = b.generate()?;
    mcp.lints.apply(&mut output.schema.settings.lints)?;
    print_warnings(&output.warnings);
    let schema = &output.schema;
    let query_tools = surqlc::mcp::query_tools(schema, &output.queries)?;
    // Only HTTP carries the token; on stdio the host that started the process is the client.
    let token = match &mcp.http {
        Some(_) => surqlc::mcp::Token::configured(mcp.token_file.as_deref())?,
        None => None,
    };
    let observe = mcp.ops.options(mcp.token_file.as_deref(), token.is_some(), telemetry)?;
    // `--per-user` also accepts the identity provider's JWTs (the schema's scope(jwks = ...), the flags over it).
    let written = schema.settings.scope.as_ref().and_then(|s| s.oidc.as_ref());
    let identity_provider = match (mcp.per_user, &scope_key) {
        (true, Some(key)) => mcp
            .idp
            .provider(written)?
            .map(|provider| surqlc::mcp::IdentityProvider {
                provider,
                scope_key: key.clone(),
            }),
        _ => None,
    };
    let options = surqlc::mcp::Options {
        target: mcp.server.target(endpoint, schema),
        seed: mcp.seed,
        http: mcp.http,
        allow_remember: mcp.allow_remember,
        caps: surqlc::mcp::Caps {
            rows: mcp.max_rows.unwrap_or(schema.settings.max_rows) as usize,
            bytes: mcp.max_bytes as usize,
        },
        timeout: std::time::Duration::from_secs(u64::from(mcp.timeout)),
        token,
        allowed_hosts: mcp.allow_host,
        as_user: mcp.as_user.zip(scope_key),
        per_user: mcp.per_user,
        observe,
        identity_provider,
    };
    if let Some((user, _)) = &options.as_user {
        schema_db::scope_for(schema, &options.target, user)?;
    }
    // Listen before loading, so that a client connecting early waits rather than being refused.
    let transport = surqlc::mcp::Transport::bind(&options).await?;
    if let Some(url) = transport.url() {
        note!("listening at {url}; loading the database (\"serving MCP at\" follows when ready)");
    }
    let state = surqlc::mcp::start(&output, &password, &options).await?;
    if !query_tools.is_empty() {
        let costs = surqlc::mcp::costs::Costs::of(surqlc::tokens::Encoding::O200kBase).with_query_tools(&query_tools);
        note!("{}", costs.query_tools_line(state.serves_end_users()));
    }
    let state = state.with_query_tools(query_tools);
    note!(
        "surqlc mcp: {} on {}, {}",
        tables(output.schema.settings.exposed.len()),
        options.target.endpoint,
        match &options.http {
            Some(_) => "streamable HTTP",
            None => "stdio",
        }
    );
    surqlc::mcp::serve_on(state, transport).await?;
    Ok(())
}

/// `surqlc token`: an end user's token, signed with the scope key the schema was built with; with
/// `--seed` or `--endpoint` the token first opens the user's session there, so a token for a user
/// that does not exist (or a key the database was not built with) is an error, not a 401 later.
pub(super) async fn token(
    input: &Input,
    user: &str,
    ns: String,
    db: Option<String>,
    seed: Option<PathBuf>,
    endpoint: Option<String>,
) -> Result<(), Failure> {
    use super::check_query::DataSource;
    use surqlc::runtime::SCOPE_KEY_VAR;
    let Some(key) = schema_db::configured_scope_key() else {
        return Err(Failure::BadInput(format!(
            "error: set {SCOPE_KEY_VAR} to the scope key the schema was built with: the token is signed with the key derived from it"
        )));
    };
    let mut b = builder(input);
    b.scope_key(key.clone());
    let output = b.generate()?;
    let target = surqlc::db::Target {
        namespace: ns,
        database: db.unwrap_or_else(|| output.schema.name.clone()),
        ..Default::default()
    };
    let scope = schema_db::scope_for(&output.schema, &target, user)?;
    let source = match (seed, endpoint) {
        (Some(seed), _) => Some(DataSource::Seed(seed)),
        (None, Some(endpoint)) => Some(DataSource::Server(surqlc::db::Target {
            endpoint,
            ..target.clone()
        })),
        (None, None) => None,
    };
    let conn = match &source {
        Some(source) => Some(source.open(&output, &target).await?),
        None => {
            note!("note: `{user}` was not checked: pass --seed FILE or --endpoint URL to check that the end user exists\n");
            None
        }
    };
    if let Some(conn) = conn {
        scope
            .signin(&conn, &key)
            .await
            .map_err(|e| Failure::BadInput(format!("error: no token printed: {}", e.message())))?;
    }
    out!("{}\n", scope.token(&key));
    Ok(())
}

/// `surqlc diff`: what the database or dump defines that the schema does not, and the reverse.
pub(super) async fn diff(input: &Input, target: DiffTarget) -> Result<(), Failure> {
    let mut b = builder(&input);
    let agent = diff::agent_for_diff(&mut b, target.expect_agent);
    let output = b.generate()?;
    let source = diff::DiffSource {
        dump: target.dump,
        target: target.server.target(
            target.endpoint.unwrap_or_else(|| surqlc::db::EMBEDDED.into()),
            &output.schema,
        ),
    };
    let found = diff::diff(&output, &source, agent.ignore_passhash).await?;
    if found.is_empty() {
        let place = match &source.dump {
            Some(dump) => dump.display().to_string(),
            None => format!(
                "namespace `{}`, database `{}` at {}",
                source.target.namespace, source.target.database, source.target.endpoint
            ),
        };
        note!("in sync: {place} has every definition the schema makes, and no other");
    } else {
        out!("{found}");
        if let Some(why) = diff::unexpected_agent_note(&output, &found, agent) {
            note!("{why}");
        }
        return Err(Failure::Failed(format!(
            "{} difference{} between the database and the schema",
            found.changes.len(),
            if found.changes.len() == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}
