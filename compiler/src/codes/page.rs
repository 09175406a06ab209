//! `docs/diagnostics.md` written from the registry: the introduction, then each code's level, engine behaviour, what it catches and its two examples.

use super::registry::{ENTRIES, INTRODUCTION};

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
