//! `report.html`: one self-contained page (inline CSS and SVG, no scripts, no fonts, no
//! network) with the goals, the tables and the charts. Every string is escaped.

use crate::doc::{Block, Doc, Table};
use crate::format::html as esc;
use crate::goals::{Goal, Status};
use std::fmt::Write;

const STYLE: &str = "\
body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#fff}\
main{max-width:1000px;margin:0 auto;padding:16px 24px 48px}\
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc;padding-bottom:4px}\
table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}\
th,td{border:1px solid #ddd;padding:3px 8px}th{background:#f3f3f3}\
td.n{text-align:right;font-variant-numeric:tabular-nums}\
td.best{font-weight:bold;background:#e8f4e8}\
td.err{font-weight:bold;color:#8a1c10;background:#f6d5d0}\
details{margin:8px 0 16px}summary{cursor:pointer;font-weight:bold}\
pre.verbatim{white-space:pre-wrap;background:#f7f7f7;border:1px solid #ddd;padding:8px 12px;font-size:13px}\
.st{padding:1px 6px;border-radius:3px;font-size:0.85em;font-weight:normal}\
.met{background:#d8f0d8}.notmet{background:#f6d5d0}.partial{background:#f6ecc8}.none{background:#e6e6e6}\
.goal{margin:10px 0;padding:4px 12px;border-left:4px solid #ccc}\
.goal ul{margin:4px 0}.why{color:#444}\
svg.chart{display:block;margin:8px 0 20px;max-width:100%;height:auto}\
.quick{background:#fff4d0;padding:8px;border:1px solid #e6cf7a}";

/// Renders the whole page.
pub fn render(doc: &Doc) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{t}</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n<main>\n<h1>{t}</h1>\n",
        t = esc(&doc.title)
    );
    blocks(&mut out, &doc.intro);
    goals(&mut out, &doc.goals, &doc.notes_path);
    blocks(&mut out, &doc.body);
    if !doc.footnotes.is_empty() {
        let _ = writeln!(out, "<h2>{}</h2>\n<ol>", esc(&doc.footnotes_title));
        for (i, n) in doc.footnotes.iter().enumerate() {
            let _ = writeln!(out, "<li id=\"note-{}\">{}</li>", i + 1, esc(n));
        }
        out.push_str("</ol>\n");
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

fn status(s: Status) -> String {
    let class = match s {
        Status::Met => "met",
        Status::NotMet => "notmet",
        Status::MetWhereMeasured => "partial",
        Status::NotMeasured => "none",
    };
    format!("<span class=\"st {class}\">{}</span>", esc(s.label()))
}

fn goals(out: &mut String, goals: &[Goal], notes_path: &str) {
    out.push_str("<h2>Goals</h2>\n");
    for g in goals {
        let _ = write!(
            out,
            "<div class=\"goal\">\n<h3>{} {}</h3>\n<p><code>{}</code></p>\n<ul>\n",
            esc(g.title),
            status(g.status),
            esc(g.id)
        );
        for c in &g.checks {
            let _ = writeln!(
                out,
                "<li>{}: {} {}</li>",
                esc(&c.what),
                esc(&c.detail),
                status(c.status)
            );
        }
        out.push_str("</ul>\n");
        if let Some(remark) = crate::goals::remark(g.id) {
            let _ = writeln!(out, "<p>{}</p>", esc(remark));
        }
        match (&g.why, g.status) {
            (Some(why), _) => {
                let _ = writeln!(out, "<p class=\"why\">Why: {}</p>", esc(why));
            }
            (None, Status::Met) => {}
            (None, _) => {
                let _ = writeln!(
                    out,
                    "<p class=\"why\">Why: no explanation yet (write one under <code>## {}</code> in <code>{}</code>).</p>",
                    esc(g.id),
                    esc(notes_path)
                );
            }
        }
        out.push_str("</div>\n");
    }
}

fn blocks(out: &mut String, list: &[Block]) {
    for b in list {
        match b {
            Block::Heading(level, text) => {
                let _ = writeln!(out, "<h{level}>{}</h{level}>", esc(text));
            }
            Block::Warning(text) => {
                let _ = writeln!(out, "<p class=\"quick\">{}</p>", esc(text));
            }
            Block::Para(text) => {
                let _ = writeln!(out, "<p>{}</p>", esc(text));
            }
            Block::Table(t) => table(out, t),
            Block::Chart(c) => {
                out.push_str(&c.render());
                out.push('\n');
            }
            Block::Details(summary, inner) => {
                let _ = writeln!(out, "<details>\n<summary>{}</summary>", esc(summary));
                blocks(out, inner);
                out.push_str("</details>\n");
            }
            Block::Verbatim(text) => {
                let _ = writeln!(
                    out,
                    "<pre class=\"verbatim\">{}</pre>",
                    esc(text.trim_end())
                );
            }
        }
    }
}

fn table(out: &mut String, t: &Table) {
    out.push_str("<table>\n<thead><tr>");
    for h in &t.headers {
        let _ = write!(out, "<th>{}</th>", esc(h));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &t.rows {
        out.push_str("<tr>");
        for (i, c) in row.iter().enumerate() {
            let mut class = Vec::new();
            if i >= t.label_columns {
                class.push("n");
            }
            if c.best {
                class.push("best");
            }
            if c.error {
                class.push("err");
            }
            let attr = if class.is_empty() {
                String::new()
            } else {
                format!(" class=\"{}\"", class.join(" "))
            };
            let _ = write!(out, "<td{attr}>{}", esc(&c.text));
            for n in &c.notes {
                let _ = write!(out, "<sup><a href=\"#note-{n}\">[{n}]</a></sup>");
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
}
