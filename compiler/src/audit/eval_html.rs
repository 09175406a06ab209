//! `surqlc eval --html`: the run as one self-contained page: accuracy at the top, then a row per question (wrong first) with the reason, gold and candidate side by side, the model's attempts with the validator's problems, and the prompt's tokens. Every question and query is untrusted text, escaped.

use super::page::{escape, page, thousands};
use crate::runtime::ask::Attempt;
use crate::runtime::eval::{AccuracyReport, QuestionResult};
use std::fmt::Write;

const CSS: &str = "\
.acc{font-size:30px;font-weight:600;margin:4px 0}\
.q{border:1px solid #d5dbe1;border-left-width:6px;border-radius:4px;margin:12px 0;padding:10px 12px}\
.q.ok{border-left-color:#2ca02c}.q.miss{border-left-color:#d62728}\
.q h3{font-size:15px;margin:0 0 6px;font-weight:600}\
.tag{display:inline-block;font-size:12px;font-weight:700;padding:1px 7px;border-radius:9px;margin-right:8px;vertical-align:1px}\
.ok .tag{background:#dff3e2;color:#1e7b34}.miss .tag{background:#fbe3e1;color:#b3261e}\
.side{display:grid;grid-template-columns:1fr 1fr;gap:10px;margin:8px 0}\
.side>div{background:#f6f8fa;border-radius:4px;padding:6px 8px;min-width:0}\
.side b,.att b{display:block;font-size:12px;color:#5b6570;margin-bottom:2px}\
.att{background:#fafbfc;border:1px dashed #d5dbe1;border-radius:4px;padding:6px 8px;margin:6px 0}\
.att ul{margin:4px 0 0;padding-left:20px;color:#b3261e}\
.facts{font-size:13px;color:#5b6570}\
@media (max-width:700px){.side{grid-template-columns:1fr}}\
";

/// The page for `report` on the golden file `golden`; `attempts[i]` are question `i`'s model
/// replies (empty for a candidates file), `encoding` names the prompt tokens' encoding.
pub fn render(report: &AccuracyReport, attempts: &[Vec<Attempt>], golden: &str, encoding: &str) -> String {
    let mut body = String::new();
    let _ = writeln!(body, "<h1>Execution accuracy on {}</h1>", escape(golden));
    let _ = writeln!(
        body,
        "<p class=\"acc {}\">{}/{} ({:.1}%)</p>",
        if report.correct == report.total { "good" } else { "bad" },
        report.correct,
        report.total,
        report.accuracy * 100.0
    );
    let tokens: Vec<usize> = report.questions.iter().filter_map(|q| q.prompt_tokens).collect();
    let _ = write!(
        body,
        "<p class=\"facts\">{} wrong, repairs used: {}",
        report.total - report.correct,
        report.repairs
    );
    if let (Some(min), Some(max)) = (tokens.iter().min(), tokens.iter().max()) {
        let _ = write!(
            body,
            "; prompt tokens per question ({encoding}): mean {}, min {}, max {}",
            thousands(tokens.iter().sum::<usize>() / tokens.len()),
            thousands(*min),
            thousands(*max)
        );
    }
    body.push_str(".</p>\n");
    let mut order: Vec<usize> = (0..report.questions.len()).collect();
    // Wrong first, each group in the golden file's order.
    order.sort_by_key(|&i| report.questions[i].correct);
    for i in order {
        let none = Vec::new();
        question(
            &mut body,
            &report.questions[i],
            attempts.get(i).unwrap_or(&none),
            encoding,
        );
    }
    let title = format!("eval: {}/{} on {golden}", report.correct, report.total);
    page(&title, CSS, &body, "")
}

fn question(body: &mut String, q: &QuestionResult, attempts: &[Attempt], encoding: &str) {
    let (class, tag) = if q.correct { ("ok", "right") } else { ("miss", "wrong") };
    let _ = writeln!(
        body,
        "<section class=\"q {class}\"><h3><span class=\"tag\">{tag}</span>{}</h3>",
        escape(&q.question)
    );
    if let Some(reason) = &q.reason {
        let _ = writeln!(body, "<p class=\"bad\">{}</p>", escape(reason));
    }
    let rows = |n: Option<usize>| match n {
        Some(1) => "1 row".to_owned(),
        Some(n) => format!("{n} rows"),
        None => "not run".to_owned(),
    };
    let _ = writeln!(
        body,
        "<div class=\"side\"><div><b>gold ({})</b><pre>{}</pre></div><div><b>candidate ({})</b><pre>{}</pre></div></div>",
        rows(Some(q.gold_rows)),
        escape(&q.gold),
        rows(q.candidate_rows),
        match &q.candidate {
            Some(c) => escape(c),
            None => "<i>none</i>".to_owned(),
        }
    );
    for (n, attempt) in attempts.iter().enumerate() {
        let _ = write!(
            body,
            "<div class=\"att\"><b>reply {} of {}{}</b><pre>{}</pre>",
            n + 1,
            attempts.len(),
            if attempt.problems.is_empty() {
                ""
            } else {
                ": refused, sent back with the validator's problems"
            },
            escape(attempt.reply.trim())
        );
        if !attempt.problems.is_empty() {
            body.push_str("<ul>");
            for p in &attempt.problems {
                let _ = write!(body, "<li><pre>{}</pre></li>", escape(p));
            }
            body.push_str("</ul>");
        }
        body.push_str("</div>\n");
    }
    let _ = writeln!(
        body,
        "<p class=\"facts\">{} attempt{}{}</p></section>",
        q.attempts,
        if q.attempts == 1 { "" } else { "s" },
        match q.prompt_tokens {
            Some(t) => format!(", prompt {} {encoding} tokens", thousands(t)),
            None => String::new(),
        }
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(question: &str, correct: bool) -> QuestionResult {
        QuestionResult {
            question: question.into(),
            correct,
            gold: "SELECT * FROM a WHERE x < 1".into(),
            candidate: Some("SELECT '<img src=x onerror=alert(1)>' FROM a".into()),
            reason: (!correct).then(|| "wrong result: <b>".into()),
            attempts: 2,
            gold_rows: 1,
            candidate_rows: Some(3),
            prompt_tokens: Some(1234),
        }
    }

    #[test]
    fn wrong_first_and_everything_escaped() {
        let report = AccuracyReport::new(vec![result("right one", true), result("<i>wrong</i>", false)]);
        let attempts = vec![
            vec![],
            vec![Attempt {
                reply: "SELECT nope FROM <x>".into(),
                problems: vec!["SQ0101 unknown table `<x>`".into()],
            }],
        ];
        let html = render(&report, &attempts, "golden<>.jsonl", "o200k_base");
        let wrong = html.find("&lt;i&gt;wrong&lt;/i&gt;").expect("the wrong question");
        let right = html.find("right one").expect("the right question");
        assert!(wrong < right, "wrong first");
        assert!(html.contains("1/2 (50.0%)"));
        assert!(!html.contains("<img") && !html.contains("<x>"));
        assert!(html.contains("wrong result: &lt;b&gt;") && !html.contains("result: <b>"));
        assert!(html.contains("SQ0101 unknown table `&lt;x&gt;`"));
        assert!(html.contains("1,234 o200k_base tokens"));
    }
}
