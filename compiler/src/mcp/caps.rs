//! `run_query`'s answer: the rows as one JSON object, cut to a row cap and a byte cap, with the cut said in the answer itself.

use serde_json::Value;

/// The most rows, and the most bytes of row JSON, one answer carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    pub rows: usize,
    pub bytes: usize,
}

impl Default for Caps {
    /// 50 rows (surqlc's default `max_rows`), 16 KiB of rows: a few thousand tokens at most.
    fn default() -> Self {
        Caps {
            rows: 50,
            bytes: 16 * 1024,
        }
    }
}

/// `{"truncated": "...", "warnings": [...], "rows": [...]}` as compact JSON: `truncated` only
/// when rows were left out (first, so a reader meets it before the rows), `warnings` only when
/// the validator had some. Rows are kept whole, in order, while they fit both caps.
pub fn render(rows: &[Value], warnings: &[String], caps: Caps) -> String {
    let mut kept: Vec<String> = Vec::new();
    let mut used = 0usize;
    let mut cut_by_bytes = false;
    for row in rows.iter().take(caps.rows) {
        let text = serde_json::to_string(row).unwrap_or_else(|_| "null".into());
        // +1 for the comma that joins it to the previous row.
        if used + text.len() + 1 > caps.bytes {
            cut_by_bytes = true;
            break;
        }
        used += text.len() + 1;
        kept.push(text);
    }
    let mut out = String::from("{");
    if kept.len() < rows.len() {
        let why = if cut_by_bytes {
            format!(
                "the next row would pass the byte cap ({} bytes)",
                caps.bytes
            )
        } else {
            format!("the row cap is {}", caps.rows)
        };
        let notice = format!(
            "only the first {} of {} rows are shown: {why}; select fewer fields or add a smaller LIMIT",
            kept.len(),
            rows.len()
        );
        out.push_str(&format!("\"truncated\":{},", Value::String(notice)));
    }
    if !warnings.is_empty() {
        out.push_str(&format!("\"warnings\":{},", Value::from(warnings.to_vec())));
    }
    out.push_str("\"rows\":[");
    out.push_str(&kept.join(","));
    out.push_str("]}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parsed(text: &str) -> Value {
        serde_json::from_str(text).expect("the answer is JSON")
    }

    #[test]
    fn rows_that_fit_come_whole_without_a_notice() {
        let rows = vec![json!({"a": 1}), json!({"a": 2})];
        let out = parsed(&render(&rows, &[], Caps::default()));
        assert_eq!(out, json!({"rows": [{"a": 1}, {"a": 2}]}));
    }

    #[test]
    fn the_row_cap_cuts_and_says_so() {
        let rows: Vec<Value> = (0..10).map(|i| json!({ "i": i })).collect();
        let text = render(
            &rows,
            &["w".into()],
            Caps {
                rows: 3,
                bytes: 1 << 20,
            },
        );
        assert!(text.starts_with("{\"truncated\":"), "{text}");
        let out = parsed(&text);
        assert_eq!(out["rows"].as_array().unwrap().len(), 3);
        assert_eq!(
            out["truncated"],
            "only the first 3 of 10 rows are shown: the row cap is 3; select fewer fields or add a smaller LIMIT"
        );
        assert_eq!(out["warnings"], json!(["w"]));
    }

    #[test]
    fn the_byte_cap_keeps_rows_whole() {
        let rows: Vec<Value> = (0..10).map(|_| json!({ "s": "x".repeat(100) })).collect();
        let text = render(
            &rows,
            &[],
            Caps {
                rows: 50,
                bytes: 350,
            },
        );
        let out = parsed(&text);
        let kept = out["rows"].as_array().unwrap();
        assert_eq!(kept.len(), 3, "{text}");
        assert!(out["truncated"]
            .as_str()
            .unwrap()
            .contains("3 of 10 rows are shown: the next row would pass the byte cap (350 bytes)"));
        // One row larger than the cap: none shown, still valid JSON, still said.
        let big = vec![json!({ "s": "y".repeat(1000) })];
        let out = parsed(&render(
            &big,
            &[],
            Caps {
                rows: 50,
                bytes: 350,
            },
        ));
        assert_eq!(out["rows"], json!([]));
        assert!(out["truncated"].as_str().unwrap().contains("0 of 1 rows"));
    }
}
