//! `surqlc audit --html` and `surqlc eval --html` as users run them: one self-contained page each (no address, every exposed table, no hidden one, the map's rectangles sized by tokens inside it), and the same pages rendered by a real headless Chromium (`#[ignore]`d without it; `.ci/run` runs it when `/usr/bin/chromium` exists).

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::{assert_status, root, surqlc};

fn run(args: &[&str]) -> Output {
    surqlc().args(args).output().expect("the surqlc binary runs")
}

fn assert_ok(o: &Output) {
    assert_status(o, 0);
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surqlc-html-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The schema's exposed tables and the ones it hides.
fn tables(schema: &str) -> (Vec<String>, Vec<String>) {
    let schema = surqlc::Builder::new()
        .schema(root().join(schema))
        .load()
        .expect("the schema compiles");
    let exposed = schema.settings.exposed.clone();
    let hidden = schema
        .tables
        .iter()
        .map(|t| t.name.clone())
        .filter(|t| !exposed.contains(t))
        .collect();
    (exposed, hidden)
}

/// Five of the enterprise benchmark's questions, one per line.
fn enterprise_questions(dir: &Path) -> PathBuf {
    let all: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(root().join("schemas/enterprise.questions.json")).unwrap())
            .unwrap();
    let path = dir.join("questions.txt");
    let lines: Vec<&str> = all.iter().take(5).map(|q| q["question"].as_str().unwrap()).collect();
    std::fs::write(&path, lines.join("\n")).unwrap();
    path
}

/// `surqlc audit SCHEMA --html FILE [extra]`, the page it wrote (also when over budget, exit 1).
fn audit_html(schema: &str, dir: &Path, extra: &[&str]) -> String {
    let path = dir.join("map.html");
    let mut args = vec!["audit", schema, "--html", path.to_str().unwrap()];
    args.extend(extra);
    let o = run(&args);
    let over = extra.iter().any(|a| a.contains("budget"));
    assert_status(&o, if over { 1 } else { 0 });
    assert!(String::from_utf8_lossy(&o.stderr).contains("wrote "));
    // The text report still goes to stdout.
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("schema block"));
    std::fs::read_to_string(&path).expect("the page was written")
}

/// No address anywhere, nothing loaded from anywhere, a policy that forbids loading.
fn assert_self_contained(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"));
    for banned in ["http://", "https://", "//cdn", " src=", " href=", "url(", "@import"] {
        assert!(!html.contains(banned), "the page has {banned:?}");
    }
    assert!(html.contains("default-src 'none'"));
    let script: usize = html
        .split("<script>")
        .skip(1)
        .map(|s| s.split("</script>").next().unwrap().len())
        .sum();
    assert!(script <= 4096, "{script} bytes of script");
}

/// Each table's `(name, tokens, x, y, width, height)` on the map, as the SVG draws it.
fn boxes(html: &str) -> Vec<(String, f64, [f64; 4])> {
    let attr = |s: &str, name: &str| -> String {
        let start = s.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
        s[start..][..s[start..].find('"').unwrap()].to_owned()
    };
    html.split("<g class=\"t")
        .skip(1)
        .map(|g| {
            let rect = &g[g.find("<rect class=\"box\"").unwrap()..];
            let num = |n: &str| attr(rect, n).parse::<f64>().unwrap();
            (
                attr(g, "data-table"),
                attr(g, "data-tokens").parse().unwrap(),
                [num("x"), num("y"), num("width"), num("height")],
            )
        })
        .collect()
}

/// Areas proportional to tokens (each within `tol` of the mean ratio, or of one unit of area),
/// inside `page`, and no two overlapping.
fn assert_proportional(boxes: &[(String, f64, [f64; 4])], page: [f64; 4], tol: f64) {
    let area: f64 = boxes.iter().map(|(_, _, r)| r[2] * r[3]).sum();
    let tokens: f64 = boxes.iter().map(|(_, t, _)| t).sum();
    let per_token = area / tokens;
    for (name, t, r) in boxes {
        let want = t * per_token;
        let got = r[2] * r[3];
        assert!(
            (got - want).abs() <= (tol * want).max(1.5 * (r[2] + r[3]) * 0.01 + 1.0),
            "{name}: {t} tokens drawn as {got:.1}, want {want:.1}"
        );
        let eps = 0.5;
        assert!(
            r[0] >= page[0] - eps
                && r[1] >= page[1] - eps
                && r[0] + r[2] <= page[0] + page[2] + eps
                && r[1] + r[3] <= page[1] + page[3] + eps,
            "{name} at {r:?} is outside {page:?}"
        );
    }
    for (i, (a, _, p)) in boxes.iter().enumerate() {
        for (b, _, q) in &boxes[i + 1..] {
            let w = (p[0] + p[2]).min(q[0] + q[2]) - p[0].max(q[0]);
            let h = (p[1] + p[3]).min(q[1] + q[3]) - p[1].max(q[1]);
            assert!(w <= 0.05 || h <= 0.05, "{a} overlaps {b}");
        }
    }
}

/// The map's viewBox.
fn view_box(html: &str) -> [f64; 4] {
    let start = html.find("viewBox=\"").unwrap() + 9;
    let v: Vec<f64> = html[start..][..html[start..].find('"').unwrap()]
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    [v[0], v[1], v[2], v[3]]
}

fn check_map(html: &str, schema: &str) {
    assert_self_contained(html);
    let (exposed, hidden) = tables(schema);
    for t in &exposed {
        assert!(html.contains(&format!("data-table=\"{t}\"")), "{schema}: no {t}");
    }
    for t in &hidden {
        assert!(!html.contains(t.as_str()), "{schema}: hidden {t} is on the page");
    }
    let boxes = boxes(html);
    assert_eq!(boxes.len(), exposed.len());
    assert_proportional(&boxes, view_box(html), 0.01);
}

#[test]
fn audit_html_maps_the_store_schema() {
    let dir = scratch("store");
    let html = audit_html("schemas/store.rs", &dir, &[]);
    check_map(&html, "schemas/store.rs");
    // Where each table was declared, from the front end's spans.
    assert!(html.contains("schemas/store.rs:25"), "customer's line");
    assert!(html.contains("class=\"p field\""));
    assert!(html.contains("class=\"p comment\""));
}

#[test]
fn audit_html_shows_what_literal_enum_docs_cost() {
    let dir = scratch("enum-docs");
    let html = audit_html("tests/fixtures/enum_docs.rs", &dir, &[]);
    check_map(&html, "tests/fixtures/enum_docs.rs");
    assert!(html.contains("class=\"p enumdoc\""), "an enum doc part");
    assert!(html.contains("enum doc (60 tokens)"), "as the audit counts them");
}

#[test]
fn audit_html_leaves_hidden_tables_and_fields_out() {
    let dir = scratch("library");
    let html = audit_html("schemas/library.rs", &dir, &["--table-budget", "60"]);
    check_map(&html, "schemas/library.rs");
    assert!(!html.contains("phone"), "a hidden field is on the page");
    // Tables over the table budget are outlined.
    assert!(html.contains("class=\"t over"));
}

#[test]
fn audit_html_maps_the_enterprise_schema_with_questions() {
    let dir = scratch("enterprise");
    let questions = enterprise_questions(&dir);
    let html = audit_html(
        "schemas/enterprise.rs",
        &dir,
        &[
            "--seed",
            "schemas/enterprise.seed.surql",
            "--questions",
            questions.to_str().unwrap(),
            "--budget",
            "12000",
        ],
    );
    check_map(&html, "schemas/enterprise.rs");
    assert!(html.contains(" over</span>"), "the block over its budget");
    assert_eq!(html.matches("<label for=\"q").count(), 6, "5 questions and none");
    assert!(html.contains(" q5"), "a table the fifth question shows");
    assert!(html.contains("of 2000 tokens"), "each question against prune's budget");
    assert!(html.contains("budget(block = 12000)"));
}

fn eval_html(schema: &str, candidates: &str, dir: &Path) -> (String, serde_json::Value) {
    let path = dir.join("eval.html");
    let o = run(&[
        "eval",
        &format!("schemas/{schema}.rs"),
        "--seed",
        &format!("schemas/{schema}.seed.surql"),
        "--golden",
        &format!("schemas/{schema}.golden.jsonl"),
        "--candidates",
        candidates,
        "--format",
        "json",
        "--html",
        path.to_str().unwrap(),
    ]);
    assert_ok(&o);
    let json = serde_json::from_slice(&o.stdout).expect("--format json is unchanged");
    (std::fs::read_to_string(&path).unwrap(), json)
}

#[test]
fn eval_html_puts_accuracy_first_and_wrong_answers_first() {
    let dir = scratch("eval");
    let (html, json) = eval_html("store", "tests/eval/store.candidates.jsonl", &dir);
    assert_self_contained(&html);
    assert_eq!(json["correct"], 8);
    assert!(html.contains("8/13 (61.5%)"));
    let first_right = html.find("class=\"q ok\"").unwrap();
    let last_wrong = html.rfind("class=\"q miss\"").unwrap();
    assert!(last_wrong < first_right, "wrong answers come first");
    assert_eq!(html.matches("class=\"q miss\"").count(), 5);
    for q in json["questions"].as_array().unwrap() {
        let question = q["question"].as_str().unwrap();
        let escaped = question.replace('&', "&amp;").replace('\'', "&#39;");
        assert!(html.contains(&escaped), "{question}");
    }
    let tokens_said = html
        .match_indices("prompt ")
        .any(|(i, _)| html[i + "prompt ".len()..].starts_with(|c: char| c.is_ascii_digit()));
    assert!(tokens_said, "prompt tokens");
}

#[test]
fn progress_stays_off_stderr_that_is_not_a_terminal() {
    let dir = scratch("progress");
    let file = dir.join("q.txt");
    std::fs::write(&file, "Which customers are gold?\nWhat does a product cost?\n").unwrap();
    let o = run(&["prune", "schemas/store.rs", "--questions", file.to_str().unwrap()]);
    assert_ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("ETA") && !err.contains('\r'), "{err}");
}

/// Headless Chromium's pages and pictures, no request leaving the machine.
mod browser {
    use super::*;

    const CHROMIUM: &str = "/usr/bin/chromium";

    /// Runs Chromium on `page` with `what` (`--dump-dom`, `--screenshot=...`) and a net log; returns stdout and the log.
    fn chromium(page: &Path, dir: &Path, what: &str) -> (String, String) {
        let profile = dir.join(format!("profile-{}", what.len()));
        let net_log = dir.join(format!("net-{}.json", what.len()));
        let o = Command::new(CHROMIUM)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                // Nothing resolves: a request the page made would fail here, and show in the log.
                "--host-resolver-rules=MAP * ~NOTFOUND",
                "--window-size=1280,1000",
                "--virtual-time-budget=3000",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--log-net-log={}", net_log.display()))
            .arg(what)
            .arg(format!("file://{}", page.display()))
            .current_dir(dir)
            .output()
            .expect("chromium runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            std::fs::read_to_string(&net_log).unwrap_or_default(),
        )
    }

    /// Requests the page itself started (Chromium's own background requests are "not an origin").
    fn page_requests(net_log: &str) -> Vec<String> {
        let log = match serde_json::from_str::<serde_json::Value>(net_log) {
            Ok(log) => log,
            // Chromium may leave the log's JSON unclosed: read it up to its last whole event.
            Err(_) => {
                let cut = net_log.rfind("},").expect("a net log with events");
                serde_json::from_str(&format!("{}]}}", &net_log[..=cut])).expect("a net log")
            }
        };
        let events = log["events"].as_array().expect("the net log's events");
        assert!(!events.is_empty(), "an empty net log");
        events
            .iter()
            .filter_map(|e| {
                let p = &e["params"];
                let url = p["url"].as_str()?;
                let initiator = p["initiator"].as_str()?;
                (initiator != "not an origin").then(|| format!("{url} from {initiator}"))
            })
            .collect()
    }

    /// The page with a probe: what loaded, what the policy blocked, each table box as laid out.
    fn probed(html: &str, dir: &Path, name: &str) -> PathBuf {
        let watch = "<script>window.__v=[];document.addEventListener('securitypolicyviolation',function(e){window.__v.push(e.blockedURI)});</script>";
        let measure = "<script>window.addEventListener('load',function(){setTimeout(function(){var o={boxes:[],vw:document.documentElement.clientWidth,sw:document.documentElement.scrollWidth,\
resources:performance.getEntriesByType('resource').map(function(e){return e.name}),violations:window.__v,names:[]};\
var s=document.querySelector('.map svg');if(s){var b=s.getBoundingClientRect();o.svg=[b.left,b.top,b.width,b.height];}\
document.querySelectorAll('.map g.t').forEach(function(g){var r=g.querySelector('rect.box').getBoundingClientRect();\
o.boxes.push([g.getAttribute('data-table'),+g.getAttribute('data-tokens'),r.left,r.top,r.width,r.height]);});\
var p=document.createElement('pre');p.id='measured';p.textContent=JSON.stringify(o);document.body.appendChild(p);},100)});</script>";
        let page = html.replacen("<head>\n", &format!("<head>\n{watch}\n"), 1).replacen(
            "</body>",
            &format!("{measure}</body>"),
            1,
        );
        let path = dir.join(name);
        std::fs::write(&path, page).unwrap();
        path
    }

    fn measured(dom: &str) -> serde_json::Value {
        let start = dom.find("<pre id=\"measured\">").expect("the probe ran") + 19;
        let text = &dom[start..][..dom[start..].find("</pre>").unwrap()];
        let text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        serde_json::from_str(&text).unwrap()
    }

    /// A PNG's pixels as RGBA rows (8-bit RGB or RGBA, not interlaced: what Chromium writes).
    fn png_pixels(png: &[u8]) -> (usize, usize, Vec<[u8; 4]>) {
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
        let (mut at, mut idat) = (8, Vec::new());
        let (mut width, mut height, mut channels) = (0, 0, 0);
        while at + 8 <= png.len() {
            let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
            let kind = &png[at + 4..at + 8];
            let data = &png[at + 8..at + 8 + len];
            match kind {
                b"IHDR" => {
                    width = u32::from_be_bytes(data[0..4].try_into().unwrap()) as usize;
                    height = u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize;
                    assert_eq!(data[8], 8, "8-bit");
                    channels = match data[9] {
                        2 => 3,
                        6 => 4,
                        other => panic!("colour type {other}"),
                    };
                    assert_eq!(data[12], 0, "not interlaced");
                }
                b"IDAT" => idat.extend_from_slice(data),
                _ => {}
            }
            at += 12 + len;
        }
        let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&idat).expect("zlib data");
        let stride = width * channels;
        let mut prev = vec![0u8; stride];
        let mut pixels = Vec::with_capacity(width * height);
        for y in 0..height {
            let line = &raw[y * (stride + 1)..(y + 1) * (stride + 1)];
            let mut cur = line[1..].to_vec();
            for i in 0..stride {
                let a = if i >= channels { cur[i - channels] } else { 0 } as i16;
                let b = prev[i] as i16;
                let c = if i >= channels { prev[i - channels] } else { 0 } as i16;
                let add = match line[0] {
                    0 => 0,
                    1 => a,
                    2 => b,
                    3 => (a + b) / 2,
                    4 => {
                        let p = a + b - c;
                        let (pa, pb, pc) = ((p - a).abs(), (p - b).abs(), (p - c).abs());
                        if pa <= pb && pa <= pc {
                            a
                        } else if pb <= pc {
                            b
                        } else {
                            c
                        }
                    }
                    f => panic!("filter {f}"),
                };
                cur[i] = cur[i].wrapping_add(add as u8);
            }
            for px in cur.chunks(channels) {
                pixels.push([px[0], px[1], px[2], if channels == 4 { px[3] } else { 255 }]);
            }
            prev = cur;
        }
        (width, height, pixels)
    }

    /// Renders `html`: the DOM has `names`, the picture is not blank, the map (if any) is drawn to scale inside the page, and nothing was requested.
    fn render(html: &str, names: &[String], dir: &Path, label: &str) {
        let page = probed(html, dir, &format!("{label}.html"));
        let (dom, log) = chromium(&page, dir, "--dump-dom");
        for name in names {
            assert!(dom.contains(name.as_str()), "{label}: {name} is not in the DOM");
        }
        let m = measured(&dom);
        assert_eq!(m["resources"], serde_json::json!([]), "{label} loaded something");
        assert_eq!(
            m["violations"],
            serde_json::json!([]),
            "{label} tried to load something"
        );
        assert!(page_requests(&log).is_empty(), "{label}: {:?}", page_requests(&log));
        assert!(m["sw"].as_f64() <= m["vw"].as_f64(), "{label}: wider than the window");
        let boxes: Vec<(String, f64, [f64; 4])> = m["boxes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                let f = |i: usize| b[i].as_f64().unwrap();
                (b[0].as_str().unwrap().to_owned(), f(1), [f(2), f(3), f(4), f(5)])
            })
            .collect();
        if let Some(svg) = m["svg"].as_array() {
            let svg: Vec<f64> = svg.iter().map(|v| v.as_f64().unwrap()).collect();
            assert!(svg[0] >= 0.0 && svg[0] + svg[2] <= m["vw"].as_f64().unwrap() + 0.5);
            // Rendered in CSS pixels: proportional within rounding (2%), inside the drawing.
            assert_proportional(&boxes, [svg[0], svg[1], svg[2], svg[3]], 0.02);
            assert_eq!(boxes.len(), names.len());
        }
        let shot = dir.join(format!("{label}.png"));
        chromium(&page, dir, &format!("--screenshot={}", shot.display()));
        let (w, h, pixels) = png_pixels(&std::fs::read(&shot).expect("a screenshot"));
        assert_eq!((w, h), (1280, 1000));
        let inked = pixels.iter().filter(|p| p[..3] != [255, 255, 255]).count();
        let mut colours: Vec<[u8; 4]> = pixels.clone();
        colours.sort_unstable();
        colours.dedup();
        assert!(
            inked * 20 > pixels.len() && colours.len() > 8,
            "{label}: the screenshot is blank ({inked} inked pixels, {} colours)",
            colours.len()
        );
    }

    #[test]
    #[ignore = "needs chromium (apt-get install chromium); .ci/run runs it when /usr/bin/chromium exists"]
    fn chromium_renders_both_reports_for_store_and_enterprise() {
        assert!(Path::new(CHROMIUM).exists(), "{CHROMIUM} is missing");
        let dir = scratch("chromium");
        let questions = enterprise_questions(&dir);
        for (schema, extra) in [
            ("store", vec![]),
            (
                "enterprise",
                vec![
                    "--seed",
                    "schemas/enterprise.seed.surql",
                    "--questions",
                    questions.to_str().unwrap(),
                ],
            ),
        ] {
            let path = format!("schemas/{schema}.rs");
            let map = audit_html(&path, &dir, &extra);
            let (exposed, _) = tables(&path);
            render(&map, &exposed, &dir, &format!("{schema}-map"));
            let candidates = if schema == "store" {
                "tests/eval/store.candidates.jsonl".to_owned()
            } else {
                // The gold answers as candidates: every one right.
                format!("schemas/{schema}.golden.jsonl")
            };
            let (eval, json) = eval_html(schema, &candidates, &dir);
            let questions: Vec<String> = json["questions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|q| q["question"].as_str().unwrap().replace('&', "&amp;"))
                .collect();
            render(&eval, &questions, &dir, &format!("{schema}-eval"));
        }
    }
}
