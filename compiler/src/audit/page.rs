//! The shell every HTML report shares: one self-contained page (inline CSS, at most a small inline script, a policy that lets it load nothing) and the escaping of untrusted text.

/// `text` safe in HTML text and attribute values (`&`, `<`, `>`, quotes); a `://` in it is
/// written `:&#47;&#47;`, so no address in a schema's comment or a question reads as a link.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out.replace("://", ":&#47;&#47;")
}

/// A number with a thin grouping of thousands (`12,345`).
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The style every report shares.
const BASE_CSS: &str = "\
*{box-sizing:border-box}\
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d2329;background:#fff;margin:0 auto;padding:16px 20px 40px;max-width:1240px}\
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:22px 0 8px}\
.muted{color:#5b6570}\
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}\
pre{white-space:pre-wrap;word-break:break-word;margin:0}\
table.list{border-collapse:collapse;width:100%}\
table.list th,table.list td{border-bottom:1px solid #e3e7eb;padding:4px 8px;text-align:left;vertical-align:top}\
table.list td.n,table.list th.n{text-align:right;font-variant-numeric:tabular-nums}\
.meter{display:inline-block;width:180px;height:10px;background:#e9edf1;border-radius:5px;overflow:hidden;vertical-align:middle}\
.meter>i{display:block;height:100%;background:#4e79a7}\
.meter.over>i{background:#d62728}\
.bad{color:#b3261e}.good{color:#1e7b34}\
";

/// A whole page: `title`, the page's own `css` after the shared style, `body`, and `script` (empty
/// for none). The content security policy lets the page load nothing: no request leaves it.
pub fn page(title: &str, css: &str, body: &str, script: &str) -> String {
    let mut out = String::with_capacity(body.len() + 8192);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src \
        'unsafe-inline'; script-src 'unsafe-inline'\">\n",
    );
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!("<title>{}</title>\n", escape(title)));
    out.push_str("<style>");
    out.push_str(BASE_CSS);
    out.push_str(css);
    out.push_str("</style>\n</head>\n<body>\n");
    out.push_str(body);
    if !script.is_empty() {
        out.push_str("<script>");
        out.push_str(script);
        out.push_str("</script>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_addresses() {
        assert_eq!(
            escape("<script>alert('x&y')</script> \"q\""),
            "&lt;script&gt;alert(&#39;x&amp;y&#39;)&lt;/script&gt; &quot;q&quot;"
        );
        assert_eq!(escape("see https://x.y"), "see https:&#47;&#47;x.y");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(12), "12");
        let p = page("a<b", "", "<p>hi</p>", "");
        assert!(p.contains("<title>a&lt;b</title>") && !p.contains("<script>"));
        assert!(!p.contains("http:") && !p.contains("https:"));
    }
}
