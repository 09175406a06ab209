//! `docs/diagnostics.md` written from the registry: the introduction, then each code's level, engine behaviour, what it catches and its two examples.

use super::registry::ENTRIES;

/// The catalogue page, as committed in `docs/diagnostics.md` (a test regenerates and compares it).
pub fn page() -> String {
    let mut out = String::from(INTRODUCTION);
    for e in ENTRIES {
        let on = if e.schema == "store" {
            String::new()
        } else {
            format!(" (on `schemas/{}.rs`)", e.schema)
        };
        let level = match e.level {
            super::Severity::Error => "error",
            super::Severity::Warning => "warning",
        };
        out.push_str(&format!(
            "\n## {} {}\n\n- level: {level}\n- engine: {}\n\n{}\n\nWrong{on}:\n\n```surql\n{}\n```\n\nFixed:\n\n```surql\n{}\n```\n",
            e.code,
            e.name,
            e.engine.describe(),
            e.about,
            e.wrong,
            e.fixed
        ));
    }
    out
}

/// The catalogue page's opening, before the codes (`docs/diagnostics.md`).
const INTRODUCTION: &str = r#"# Diagnostics: the validator's catalogue

Every problem `surqlc check-query`, MCP's `check_query`/`run_query`, `ask` and the generated
`validate` report carries a stable code: in text `error[SQ0102 UnknownField] 1:14 `email`: ...`, in
JSON `"code": "SQ0102"` beside `"class"`. A code never changes meaning. Each entry says what it
catches, what SurrealDB 3.3 does with such a query (`fails`, `answers wrongly`: an answer without
an error, `suspicious`, or `refused by the runner`: the agent's policy), its default level, and a
wrong and a fixed example (on `schemas/store.rs` unless it says otherwise).
Where the validator knows the right text (a did-you-mean on a table, field, method or literal value,
`= NULL` as `= NONE`, a missing or too large LIMIT, `<>`, an index written as a filter, a FROM
traversal from a table), the finding carries a machine-applicable repair: in text a line
`  help: replace `customers` with `customer`` under it, in JSON `"fixes": [{"span": {"line",
"column", "end_line", "end_column"}, "replacement": "..."}]`; `ask`'s repair turn sends the model
the same lines, and `surqlc::validate::apply_edits` applies them.
`tests/corpus/catalogue.surql` holds at least two cases per code, each run on the embedded engine
by `tests/catalogue.rs` (which also holds this page to `surqlc::codes`).

## Lint levels

`#[surqlc(lints(allow(SQ0204), warn(SQ0501), deny(SQ0902)))]` on the `Schema` item, or `--allow
CODE`, `--warn CODE`, `--deny CODE` on `check-query`, `ask`, `eval` and `mcp` (the flags win):
`allow` drops a code's diagnostics, `warn` reports them as warnings (the query runs), `deny` as
errors (the query is refused). Any code may be denied; an error's code may be allowed or made a
warning only where the engine does not fail (its entry says `answers wrongly`); the others are
refused at the attribute's position or as bad input (exit 2).

## Suppression in the query

`-- surqlc: allow(SQ0204) reason="price is a flag column here"` on the line before a query or at
the end of its line drops that code's findings for that query alone; several codes go in one list
(`allow(SQ0204, SQ0902)`). The reason is required. What a lint level may not relax may not be
allowed here either; a directive that is wrong is itself a finding (SQ0003). Named query files
(`-- name:` queries) take the same directive.
"#;
