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
///
/// `more` says that the query had rows past `rows` (the runner's probe row,
/// `runtime::run_validated_capped`); rows beyond the row cap in `rows` itself are counted.
pub fn render(rows: &[Value], warnings: &[String], caps: Caps, more: bool) -> String {
    let read = rows.len().min(caps.rows);
    let past_row_cap = more || rows.len() > caps.rows;
    let mut kept: Vec<String> = Vec::new();
    let mut used = 0usize;
    for row in &rows[..read] {
        let text = serde_json::to_string(row).unwrap_or_else(|_| "null".into());
        // +1 for the comma that joins it to the previous row.
        if used + text.len() + 1 > caps.bytes {
            break;
        }
        used += text.len() + 1;
        kept.push(text);
    }
    let beyond = |read: usize| {
        if rows.len() > read {
            format!("{} rows, and the row cap is {}", rows.len(), caps.rows)
        } else {
            format!("more than {read} rows, and the row cap is {}", caps.rows)
        }
    };
    let notice = if kept.len() < read {
        let mut notice = format!(
            "only {} of the {read} rows read are shown: the next row would pass the byte cap ({} bytes)",
            kept.len(),
            caps.bytes
        );
        if past_row_cap {
            notice.push_str(&format!("; the query has {}", beyond(read)));
        }
        Some(notice)
    } else if past_row_cap {
        Some(format!(
            "only the first {read} rows are shown: the query has {}",
            beyond(read)
        ))
    } else {
        None
    };
    let mut out = String::from("{");
    if let Some(notice) = notice {
        let notice = format!("{notice}; select fewer fields, filter, or aggregate to see the rest");
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

    fn caps(rows: usize, bytes: usize) -> Caps {
        Caps { rows, bytes }
    }

    #[test]
    fn rows_that_fit_come_whole_without_a_notice() {
        let rows = vec![json!({"a": 1}), json!({"a": 2})];
        let out = parsed(&render(&rows, &[], Caps::default(), false));
        assert_eq!(out, json!({"rows": [{"a": 1}, {"a": 2}]}));
        // Exactly the cap, no probe row: nothing was left out.
        let out = parsed(&render(&rows, &[], caps(2, 1 << 20), false));
        assert_eq!(out, json!({"rows": [{"a": 1}, {"a": 2}]}));
    }

    #[test]
    fn the_probe_row_says_truncated_without_a_count() {
        let rows: Vec<Value> = (0..3).map(|i| json!({ "i": i })).collect();
        let text = render(&rows, &["w".into()], caps(3, 1 << 20), true);
        assert!(text.starts_with("{\"truncated\":"), "{text}");
        let out = parsed(&text);
        assert_eq!(out["rows"].as_array().unwrap().len(), 3);
        assert_eq!(
            out["truncated"],
            "only the first 3 rows are shown: the query has more than 3 rows, and the row cap is 3; select \
                fewer fields, filter, or aggregate to see the rest"
        );
        assert_eq!(out["warnings"], json!(["w"]));
    }

    #[test]
    fn rows_past_the_cap_in_hand_are_counted() {
        let rows: Vec<Value> = (0..10).map(|i| json!({ "i": i })).collect();
        let out = parsed(&render(&rows, &[], caps(3, 1 << 20), false));
        assert_eq!(out["rows"].as_array().unwrap().len(), 3);
        assert!(out["truncated"]
            .as_str()
            .unwrap()
            .starts_with("only the first 3 rows are shown: the query has 10 rows, and the row cap is 3;"));
    }

    #[test]
    fn the_byte_cap_keeps_rows_whole_and_counts_kept_of_read() {
        let rows: Vec<Value> = (0..10).map(|_| json!({ "s": "x".repeat(100) })).collect();
        let out = parsed(&render(&rows, &[], caps(50, 350), false));
        let kept = out["rows"].as_array().unwrap();
        assert_eq!(kept.len(), 3, "{out}");
        assert!(
            out["truncated"].as_str().unwrap().starts_with(
                "only 3 of the 10 rows read are shown: the next row would pass the byte cap (350 bytes); select"
            ),
            "{out}"
        );
        // Both caps: the byte cut among the rows read, and the rows past the row cap said.
        let out = parsed(&render(&rows[..5], &[], caps(5, 350), true));
        assert!(out["truncated"]
            .as_str()
            .unwrap()
            .starts_with("only 3 of the 5 rows read are shown: the next row would pass the byte cap (350 bytes); the query has more than 5 rows, and the row cap is 5;"), "{out}");
        // One row larger than the cap: none shown, still valid JSON, still said.
        let big = vec![json!({ "s": "y".repeat(1000) })];
        let out = parsed(&render(&big, &[], caps(50, 350), false));
        assert_eq!(out["rows"], json!([]));
        assert!(out["truncated"].as_str().unwrap().contains("0 of the 1 rows read"));
    }
}
