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
        }
    }

    /// The section of `surqlc audit`'s text report.
    pub fn text(&self) -> String {
        let mut out = format!("\nMCP (surqlc mcp), {} tokens\n", self.encoding);
        for t in &self.tools {
            let when = t.when.map(|w| format!("  (with {w})")).unwrap_or_default();
            let _ = writeln!(out, "  tool {:<18} {:>5}{when}", t.name, t.tokens);
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
    /// "instructions", "wrapper_per_answer"}`.
    pub fn json(&self) -> Value {
        json!({
            "encoding": self.encoding.name(),
            "tools": self.tools.iter().map(|t| json!({"name": t.name, "tokens": t.tokens, "when": t.when})).collect::<Vec<_>>(),
            "tools_list": self.list_tokens,
            "instructions": self.instructions_tokens,
            "wrapper_per_answer": self.wrapper_tokens,
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
