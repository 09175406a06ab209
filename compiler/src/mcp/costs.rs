//! What `surqlc mcp` costs a model in tokens before any row: each tool's entry in `tools/list`, the list as sent, the server's instructions, and the wrapper around every answer that carries rows (`surqlc audit`'s MCP section).

use super::server::{builtin_tools, instructions_for};
use super::untrusted;
use crate::tokens::Encoding;
use rmcp::model::{ListToolsResult, Tool};
use serde_json::{json, Value};
use std::fmt::Write;

/// One tool's entry in `tools/list` (name, description, input schema, annotations) in tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCost {
    pub name: String,
    pub tokens: usize,
    /// When it is listed, if not always: `--allow-remember`, or a model configured.
    pub when: Option<&'static str>,
}

/// The fixed costs of the MCP server's answers, in one encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Costs {
    pub encoding: Encoding,
    pub tools: Vec<ToolCost>,
    /// The whole `tools/list` answer as sent, with the tools listed always.
    pub list_tokens: usize,
    /// The server's instructions (sent once, at `initialize`), for the team's agent.
    pub instructions_tokens: usize,
    /// What `run_query` and `ask` add around their JSON in every answer: the two markers.
    pub wrapper_tokens: usize,
    /// The named queries' tools (`--queries`), all of them: `None` without any.
    pub query_tools_tokens: Option<usize>,
}

impl Costs {
    /// The costs in `encoding`.
    pub fn of(encoding: Encoding) -> Costs {
        let count = |tool: &Tool| encoding.count(&serde_json::to_string(tool).unwrap_or_default());
        #[cfg_attr(not(feature = "model"), allow(unused_mut))] // `ask` is pushed with `model`
        let mut tools: Vec<ToolCost> = builtin_tools(true)
            .iter()
            .map(|t| ToolCost {
                name: t.name.to_string(),
                tokens: count(t),
                when: (t.name == super::tools::REMEMBER_EXAMPLE).then_some("--allow-remember"),
            })
            .collect();
        #[cfg(feature = "model")]
        tools.push(ToolCost {
            name: "ask".into(),
            tokens: count(&super::ask_tool::definition()),
            when: Some("a model configured"),
        });
        let list = ListToolsResult::with_all_items(builtin_tools(false));
        let payload = r#"{"rows":[]}"#;
        Costs {
            encoding,
            tools,
            list_tokens: encoding.count(&serde_json::to_string(&list).unwrap_or_default()),
            instructions_tokens: encoding.count(&instructions_for(None)),
            wrapper_tokens: encoding.count(&untrusted::wrap(payload)) - encoding.count(payload),
            query_tools_tokens: None,
        }
    }

    /// These costs with the named queries' tools (`surqlc mcp --queries`): each tool's entry, their
    /// total, and `tools/list` as sent with them (those bound to an end user's session are listed
    /// only when the server serves end users, `--as`/`--per-user`, and are left out of it).
    pub fn with_query_tools(mut self, tools: &[super::QueryTool]) -> Costs {
        if tools.is_empty() {
            return self;
        }
        let count = |tool: &Tool| self.encoding.count(&serde_json::to_string(tool).unwrap_or_default());
        let mut total = 0;
        for t in tools {
            let tokens = count(t.definition());
            total += tokens;
            self.tools.push(ToolCost {
                name: t.name().to_owned(),
                tokens,
                when: Some(if t.needs_end_user() {
                    "--queries and --as/--per-user"
                } else {
                    "--queries"
                }),
            });
        }
        let mut listed = builtin_tools(false);
        listed.extend(
            tools
                .iter()
                .filter(|t| !t.needs_end_user())
                .map(|t| t.definition().clone()),
        );
        let list = ListToolsResult::with_all_items(listed);
        self.list_tokens = self.encoding.count(&serde_json::to_string(&list).unwrap_or_default());
        self.query_tools_tokens = Some(total);
        self
    }

    /// One line for `surqlc mcp`'s start: the named queries' tools, each one's tokens and their
    /// total, those shown when `end_users` (the server serves end users) or not.
    pub fn query_tools_line(&self, end_users: bool) -> String {
        let named: Vec<&ToolCost> = self
            .tools
            .iter()
            .filter(|t| t.when.is_some_and(|w| w.starts_with("--queries")))
            .collect();
        let each: Vec<String> = named
            .iter()
            .map(|t| {
                let hidden = !end_users && t.when != Some("--queries");
                format!(
                    "{} {}{}",
                    t.name,
                    t.tokens,
                    if hidden { " (not listed: no end user)" } else { "" }
                )
            })
            .collect();
        format!(
            "named-query tools: {} ({} tokens in {}): {}",
            named.len(),
            self.query_tools_tokens.unwrap_or_default(),
            self.encoding,
            each.join(", ")
        )
    }

    /// The section of `surqlc audit`'s text report.
    pub fn text(&self) -> String {
        let mut out = format!("\nMCP (surqlc mcp), {} tokens\n", self.encoding);
        for t in &self.tools {
            let when = t.when.map(|w| format!("  (with {w})")).unwrap_or_default();
            let _ = writeln!(out, "  tool {:<18} {:>5}{when}", t.name, t.tokens);
        }
        if let Some(total) = self.query_tools_tokens {
            let _ = writeln!(out, "  named-query tools    {total:>5}  (--queries, all of them)");
        }
        let _ = writeln!(out, "  tools/list           {:>5}", self.list_tokens);
        let _ = writeln!(
            out,
            "  instructions         {:>5}  (once per session)",
            self.instructions_tokens
        );
        let _ = writeln!(
            out,
            "  wrapper per answer   {:>5}  (run_query, ask: the untrusted-data markers around the rows)",
            self.wrapper_tokens
        );
        out
    }

    /// The same for a program: `{"encoding", "tools": [{"name", "tokens", "when"}], "tools_list",
    /// "instructions", "wrapper_per_answer", "query_tools"}` (`query_tools`: the named queries'
    /// tools' total, `null` without `--queries`).
    pub fn json(&self) -> Value {
        json!({
            "encoding": self.encoding.name(),
            "tools": self.tools.iter().map(|t| json!({"name": t.name, "tokens": t.tokens, "when": t.when})).collect::<Vec<_>>(),
            "tools_list": self.list_tokens,
            "instructions": self.instructions_tokens,
            "wrapper_per_answer": self.wrapper_tokens,
            "query_tools": self.query_tools_tokens,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wrapper_is_the_markers_and_the_tools_are_each_counted() {
        for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
            let costs = Costs::of(encoding);
            assert!(costs.wrapper_tokens <= 40, "{costs:?}");
            let names: Vec<&str> = costs.tools.iter().map(|t| t.name.as_str()).collect();
            assert_eq!(&names[..4], ["schema", "check_query", "run_query", "remember_example"]);
            let always: usize = costs.tools.iter().filter(|t| t.when.is_none()).map(|t| t.tokens).sum();
            assert!(costs.list_tokens >= always, "{costs:?}");
            let text = costs.text();
            assert!(text.contains("wrapper per answer"), "{text}");
            assert_eq!(costs.json()["wrapper_per_answer"], costs.wrapper_tokens);
        }
    }
}
