//! `surqlc audit --html`: the token map as one self-contained page: a squarified treemap of the schema block in inline SVG (a rectangle per exposed table, sized by its tokens, split into its parts and coloured by kind), the budgets, and each question's pruned tables highlighted without script.

use super::page::{escape, page, thousands};
use super::token_map::{PartKind, TableArea, TokenMap};
use super::treemap::{squarify, Rect};
use std::fmt::Write;

/// The map's width in SVG units (it scales to the page's width).
pub const WIDTH: f64 = 1200.0;
/// Room for a table's name above its parts.
const STRIP: f64 = 15.0;
/// The label's font size and the width one character takes, about.
const FONT: f64 = 11.0;
const CHAR: f64 = 6.4;

/// The map's height for `tables` tables: more tables, more room, so small ones stay visible.
pub fn height(tables: usize) -> f64 {
    (640.0 + 5.0 * tables.saturating_sub(40) as f64).min(1500.0)
}

/// The page.
pub fn render(map: &TokenMap) -> String {
    let mut body = String::new();
    header(&mut body, map);
    let questions = !map.questions.is_empty();
    body.push_str("<section class=\"mapbox\">\n");
    if questions {
        body.push_str("<input type=\"radio\" name=\"q\" id=\"q0\" class=\"vh\" checked>\n");
        for i in 1..=map.questions.len() {
            let _ = writeln!(body, "<input type=\"radio\" name=\"q\" id=\"q{i}\" class=\"vh\">");
        }
    }
    legend(&mut body, map);
    if questions {
        question_list(&mut body, map);
    }
    svg(&mut body, map);
    body.push_str("</section>\n");
    table_list(&mut body, map);
    let title = format!("{}: token map of the schema block", map.schema);
    page(&title, &css(map), &body, SCRIPT)
}

/// The hovered or focused element's `<title>`, shown in the info line (the map works without it).
const SCRIPT: &str = "(function(){var i=document.getElementById('info');if(!i)return;\
function f(e){for(var n=e.target;n&&n.nodeType===1;n=n.parentNode){var t=n.firstElementChild;\
if(t&&t.tagName.toLowerCase()==='title'){i.textContent=t.textContent;return}}}\
var m=document.querySelector('.map');m.addEventListener('mouseover',f);m.addEventListener('focusin',f);})();";

fn css(map: &TokenMap) -> String {
    let mut css = String::from(
        ".vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}\
.map svg{display:block;width:100%;height:auto;background:#f4f6f8;border:1px solid #d5dbe1}\
.box{fill:#dfe5eb;stroke:#fff;stroke-width:1.5}\
.p{stroke:#fff;stroke-width:.5}\
.head{fill:#4e79a7}.field{fill:#59a14f}.comment{fill:#edc948}.enumdoc{fill:#b07aa1}\
.t text{font:11px system-ui,sans-serif;fill:#111;pointer-events:none}\
.t text.pl{font-size:10px;fill:#fff}\
.t text.on{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}\
.hl{fill:none;stroke:none;pointer-events:none}\
.t.over>.hl{stroke:#d62728;stroke-width:3;stroke-dasharray:6 3}\
.t:focus{outline:none}.t:focus>.hl,.t:hover>.hl{stroke:#111;stroke-width:2.5}\
.p:hover{opacity:.75}\
.legend span{display:inline-block;margin-right:16px}\
.legend i{display:inline-block;width:12px;height:12px;margin-right:5px;vertical-align:-1px;border-radius:2px}\
#info{min-height:1.5em;margin:6px 0;font-size:13px;color:#1d2329}\
.qs{max-height:260px;overflow:auto;border:1px solid #e3e7eb;padding:4px 0;margin:8px 0}\
.qs label{display:block;padding:3px 10px;cursor:pointer}\
.qs label:hover{background:#f0f4f8}\
.qs .meter{width:110px;margin:0 6px}\
",
    );
    for i in 1..=map.questions.len() {
        let _ = write!(
            css,
            "#q{i}:checked~.map .t:not(.q{i}){{opacity:.18}}\
#q{i}:checked~.map .q{i}>.hl{{stroke:#111;stroke-width:3}}\
#q{i}:checked~.qs label[for=q{i}]{{background:#fff4c2}}"
        );
    }
    css.push_str("#q0:checked~.qs label[for=q0]{background:#fff4c2}");
    css.push_str(".vh:focus-visible~.qs{outline:2px solid #4e79a7}");
    css
}

/// A percentage of `budget` as a meter.
fn meter(tokens: usize, budget: u32) -> String {
    let pct = if budget == 0 {
        100.0
    } else {
        (tokens as f64 * 100.0 / f64::from(budget)).min(100.0)
    };
    let over = tokens > budget as usize;
    format!(
        "<span class=\"meter{}\"><i style=\"width:{pct:.1}%\"></i></span>",
        if over { " over" } else { "" }
    )
}

fn header(body: &mut String, map: &TokenMap) {
    let _ = writeln!(body, "<h1>{}: the schema block in tokens</h1>", escape(&map.schema));
    let _ = write!(
        body,
        "<p><b>{}</b> {} tokens in the {} rendering, {} exposed table{}. ",
        thousands(map.block_tokens),
        map.encoding.name(),
        map.rendering,
        map.tables.len(),
        if map.tables.len() == 1 { "" } else { "s" }
    );
    match map.budget.block {
        Some(limit) => {
            let over = map.block_tokens > limit as usize;
            let _ = write!(
                body,
                "Budget <code>budget(block = {limit})</code>: {} {}",
                meter(map.block_tokens, limit),
                if over {
                    format!(
                        "<span class=\"bad\">{} over</span>",
                        thousands(map.block_tokens - limit as usize)
                    )
                } else {
                    format!(
                        "<span class=\"good\">{} to spare</span>",
                        thousands(limit as usize - map.block_tokens)
                    )
                }
            );
        }
        None => body.push_str(
            "<span class=\"muted\">No block budget (<code>budget(block = N)</code> or <code>--budget N</code>).</span>",
        ),
    }
    match map.budget.table {
        Some(limit) => {
            let over = map.tables.iter().filter(|t| t.over_budget).count();
            let _ = write!(
                body,
                " Table budget <code>budget(table = {limit})</code>: {over} table{} over it, outlined in red dashes.",
                if over == 1 { "" } else { "s" }
            );
        }
        None => body.push_str(" <span class=\"muted\">No table budget.</span>"),
    }
    body.push_str("</p>\n");
    if !map.over_budget.is_empty() {
        body.push_str("<ul class=\"bad\">");
        for line in &map.over_budget {
            let _ = write!(body, "<li>{}</li>", escape(line));
        }
        body.push_str("</ul>\n");
    }
    body.push_str(
        "<p class=\"muted\">Each rectangle is an exposed table, its area its tokens; inside, its \
        parts. Hover over or focus (Tab) a table for its tokens, share and the line it is declared on; the \
        list below the map has every table.</p>\n",
    );
}

fn legend(body: &mut String, map: &TokenMap) {
    body.push_str("<p class=\"legend\">");
    for kind in PartKind::ALL {
        let tokens: usize = map
            .tables
            .iter()
            .flat_map(|t| &t.parts)
            .filter(|p| p.kind == kind)
            .map(|p| p.tokens)
            .sum();
        let _ = write!(
            body,
            "<span><i class=\"{}\" style=\"background:{}\"></i>{} ({} tokens)</span>",
            kind.class(),
            colour(kind),
            kind.name(),
            thousands(tokens)
        );
    }
    body.push_str("</p>\n<div id=\"info\" aria-live=\"polite\"></div>\n");
}

fn colour(kind: PartKind) -> &'static str {
    match kind {
        PartKind::Head => "#4e79a7",
        PartKind::Field => "#59a14f",
        PartKind::Comment => "#edc948",
        PartKind::EnumDoc => "#b07aa1",
    }
}

fn question_list(body: &mut String, map: &TokenMap) {
    let budget = map.prune_budget.unwrap_or(0);
    let _ = writeln!(
        body,
        "<h2>Questions: what each pruned prompt shows (pruning budget {budget} tokens)</h2>\n<div \
            class=\"qs\">\n<label for=\"q0\">All tables (no question)</label>"
    );
    for (i, q) in map.questions.iter().enumerate() {
        let _ = writeln!(
            body,
            "<label for=\"q{}\">{} {} of {budget} tokens, {} table{}{}: {}</label>",
            i + 1,
            meter(q.tokens, budget),
            thousands(q.tokens),
            q.tables.len(),
            if q.tables.len() == 1 { "" } else { "s" },
            if q.fallback { " (fallback)" } else { "" },
            escape(&q.question)
        );
    }
    body.push_str("</div>\n");
}

/// What a hover says about a table.
fn table_title(t: &TableArea) -> String {
    let mut title = format!(
        "{}: {} tokens, {:.1}% of the block",
        t.name,
        thousands(t.tokens),
        t.share
    );
    if let Some(source) = &t.source {
        let _ = write!(title, ", {source}");
    }
    if t.over_budget {
        title.push_str(" (over the table budget)");
    }
    title
}

fn svg(body: &mut String, map: &TokenMap) {
    let height = height(map.tables.len());
    let bounds = Rect::new(0.0, 0.0, WIDTH, height);
    let weights: Vec<f64> = map.tables.iter().map(|t| t.tokens as f64).collect();
    let rects = squarify(&weights, bounds);
    let _ = writeln!(
        body,
        "<div class=\"map\"><svg viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"token map of {}\">",
        escape(&map.schema)
    );
    for (t, r) in map.tables.iter().zip(&rects) {
        table_group(body, map, t, r);
    }
    body.push_str("</svg></div>\n");
}

/// `1.25` as `1.25`, `3.0` as `3`: short coordinates.
fn n(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn table_group(body: &mut String, map: &TokenMap, t: &TableArea, r: &Rect) {
    let mut classes = String::from("t");
    if t.over_budget {
        classes.push_str(" over");
    }
    for (i, q) in map.questions.iter().enumerate() {
        if q.tables.contains(&t.name) {
            let _ = write!(classes, " q{}", i + 1);
        }
    }
    let _ = write!(
        body,
        "<g class=\"{classes}\" tabindex=\"0\" data-table=\"{}\" data-tokens=\"{}\"><title>{}</title>",
        escape(&t.name),
        t.tokens,
        escape(&table_title(t))
    );
    let _ = write!(
        body,
        "<rect class=\"box\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
        n(r.x),
        n(r.y),
        n(r.w),
        n(r.h)
    );
    let inner = r.inset(1.5);
    let name_width = t.name.chars().count() as f64 * CHAR;
    // A strip for the name when the table is tall enough and its name (or most of it) fits.
    let strip = inner.h >= 2.5 * STRIP && inner.w >= 4.0 * CHAR + 6.0;
    let parts_area = if strip {
        Rect::new(inner.x, inner.y + STRIP, inner.w, inner.h - STRIP)
    } else {
        inner
    };
    for (p, pr) in t.parts.iter().zip(part_rects(t, parts_area)) {
        if pr.area() <= 0.0 {
            continue;
        }
        let mut title = format!(
            "{} · {}: {}, {} tokens ({:.1}% of the block)",
            t.name,
            p.label,
            p.kind.name(),
            p.tokens,
            super::share(p.tokens, map.block_tokens)
        );
        if let Some(source) = &p.source {
            let _ = write!(title, ", {source}");
        }
        let _ = write!(
            body,
            "<rect class=\"p {}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{}</title></rect>",
            p.kind.class(),
            n(pr.x),
            n(pr.y),
            n(pr.w),
            n(pr.h),
            escape(&title)
        );
        // A field's name on its line's rectangle, where it fits.
        let fits =
            p.kind == PartKind::Field && pr.h >= FONT + 2.0 && p.label.chars().count() as f64 * CHAR + 4.0 <= pr.w;
        if fits {
            let _ = write!(
                body,
                "<text class=\"pl\" x=\"{}\" y=\"{}\">{}</text>",
                n(pr.x + 2.0),
                n(pr.y + FONT),
                escape(&p.label)
            );
        }
    }
    label(body, t, &inner, strip, name_width);
    let _ = writeln!(
        body,
        "<rect class=\"hl\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></g>",
        n(r.x + 1.0),
        n(r.y + 1.0),
        n((r.w - 2.0).max(0.0)),
        n((r.h - 2.0).max(0.0))
    );
}

/// Each part's rectangle in `area`: the lines of the table's block share it by their tokens, and
/// each line's rectangle is shared by its parts (a field's line, its comment, its enum doc), so a
/// comment stays beside its field.
fn part_rects(t: &TableArea, area: Rect) -> Vec<Rect> {
    let mut lines: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    for (i, p) in t.parts.iter().enumerate() {
        match lines.last_mut() {
            Some((line, range)) if *line == p.line => range.end = i + 1,
            _ => lines.push((p.line, i..i + 1)),
        }
    }
    let weight = |r: &std::ops::Range<usize>| -> f64 { t.parts[r.clone()].iter().map(|p| p.tokens as f64).sum() };
    let weights: Vec<f64> = lines.iter().map(|(_, r)| weight(r)).collect();
    let mut out = Vec::with_capacity(t.parts.len());
    for ((_, range), rect) in lines.iter().zip(squarify(&weights, area)) {
        let inner: Vec<f64> = t.parts[range.clone()].iter().map(|p| p.tokens as f64).collect();
        out.extend(squarify(&inner, rect));
    }
    out
}

/// The table's name (cut with `…` when only part of it fits) and, with room, its tokens; written
/// only inside the table's rectangle: a table too small for four letters is reached by hover
/// and in the list below the map.
fn label(body: &mut String, t: &TableArea, inner: &Rect, strip: bool, name_width: f64) {
    let room = inner.w - 6.0;
    let fits = (room / CHAR).floor() as usize;
    let high_enough = inner.h >= FONT + 3.0;
    if !high_enough || fits < 4 {
        // Maybe upright along a tall narrow table.
        if inner.w >= FONT + 3.0 && inner.h - 6.0 >= name_width {
            let x = inner.x + inner.w / 2.0 + FONT / 2.0 - 2.0;
            let y = inner.y + inner.h - 3.0;
            let _ = write!(
                body,
                "<text class=\"on\" transform=\"translate({},{}) rotate(-90)\">{}</text>",
                n(x),
                n(y),
                escape(&t.name)
            );
        }
        return;
    }
    let chars = t.name.chars().count();
    let name = if chars <= fits {
        t.name.clone()
    } else {
        let cut: String = t.name.chars().take(fits - 1).collect();
        format!("{cut}…")
    };
    let tokens = format!(" {}", thousands(t.tokens));
    let with_tokens = (name.chars().count() + tokens.chars().count()) as f64 * CHAR <= room;
    let _ = write!(
        body,
        "<text class=\"{}\" x=\"{}\" y=\"{}\">{}{}</text>",
        if strip { "" } else { "on" },
        n(inner.x + 3.0),
        n(inner.y + FONT + 1.0),
        escape(&name),
        if with_tokens {
            format!("<tspan fill=\"#5b6570\">{tokens}</tspan>")
        } else {
            String::new()
        }
    );
}

fn table_list(body: &mut String, map: &TokenMap) {
    body.push_str(
        "<h2>Every table</h2>\n<table class=\"list\"><thead><tr><th>table</th><th \
        class=\"n\">tokens</th><th class=\"n\">share</th><th class=\"n\">comments</th><th class=\"n\">enum \
        docs</th>",
    );
    if !map.questions.is_empty() {
        body.push_str("<th class=\"n\">questions</th>");
    }
    body.push_str("<th>declared at</th></tr></thead><tbody>\n");
    let mut order: Vec<&TableArea> = map.tables.iter().collect();
    order.sort_by(|a, b| b.tokens.cmp(&a.tokens).then(a.name.cmp(&b.name)));
    for t in order {
        let sum = |kind: PartKind| -> usize { t.parts.iter().filter(|p| p.kind == kind).map(|p| p.tokens).sum() };
        let _ = write!(
            body,
            "<tr{}><td><code>{}</code>{}</td><td class=\"n\">{}</td><td class=\"n\">{:.1}%</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
            if t.over_budget { " class=\"bad\"" } else { "" },
            escape(&t.name),
            if t.over_budget { " (over budget)" } else { "" },
            thousands(t.tokens),
            t.share,
            sum(PartKind::Comment) + sum(PartKind::EnumDoc),
            sum(PartKind::EnumDoc)
        );
        if !map.questions.is_empty() {
            let shown = map.questions.iter().filter(|q| q.tables.contains(&t.name)).count();
            let _ = write!(body, "<td class=\"n\">{shown}</td>");
        }
        let _ = writeln!(
            body,
            "<td><code>{}</code></td></tr>",
            escape(t.source.as_deref().unwrap_or(""))
        );
    }
    body.push_str("</tbody></table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::token_map::{Part, QuestionArea};
    use crate::ir::Budget;

    fn table(name: &str, tokens: usize) -> TableArea {
        TableArea {
            name: name.into(),
            tokens,
            share: 0.0,
            source: Some("schemas/x.rs:3".into()),
            over_budget: tokens > 100,
            parts: vec![
                Part {
                    kind: PartKind::Head,
                    label: "DEFINE TABLE".into(),
                    tokens: tokens / 2,
                    source: None,
                    line: 0,
                },
                Part {
                    kind: PartKind::Field,
                    label: "a<b".into(),
                    tokens: tokens - tokens / 2,
                    source: None,
                    line: 1,
                },
            ],
        }
    }

    #[test]
    fn draws_every_table_inside_the_map_and_escapes_names() {
        let map = TokenMap {
            schema: "s<&>".into(),
            encoding: Default::default(),
            rendering: "engine",
            block_tokens: 400,
            budget: Budget {
                block: Some(300),
                table: Some(100),
            },
            over_budget: vec!["over <b>".into()],
            tables: vec![table("big", 300), table("small", 100)],
            prune_budget: Some(200),
            questions: vec![QuestionArea {
                question: "who's <script>?".into(),
                tables: vec!["small".into()],
                tokens: 120,
                fallback: false,
            }],
        };
        let html = render(&map);
        assert!(html.contains("data-table=\"big\"") && html.contains("data-table=\"small\""));
        assert!(html.contains("class=\"t over\""));
        assert!(html.contains("class=\"t q1\""));
        assert!(!html.contains("<script>?") && html.contains("who&#39;s &lt;script&gt;?"));
        assert!(html.contains("a&lt;b") && !html.contains("over <b>"));
        assert!(!html.contains("http:") && !html.contains("https:"));
    }

    #[test]
    fn the_map_grows_with_the_tables_but_stays_bounded() {
        assert_eq!(height(8), 640.0);
        assert!(height(168) > height(40));
        assert!(height(10_000) <= 1500.0);
    }
}
