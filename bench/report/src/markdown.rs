//! `summary.md`: the document as GitHub Markdown (charts are left to the HTML page).

use crate::doc::{Block, Doc, Table};
use crate::format::markdown as esc;
use crate::goals::{Goal, Status};
use std::fmt::Write;

/// Renders the whole summary.
pub fn render(doc: &Doc) -> String {
    let mut out = format!("# {}\n\n{}\n\n", esc(&doc.title), doc.source);
    blocks(&mut out, &doc.intro);
    goals(&mut out, &doc.goals, &doc.notes_path);
    blocks(&mut out, &doc.body);
    if !doc.footnotes.is_empty() {
        let _ = writeln!(out, "## {}\n", esc(&doc.footnotes_title));
        for (i, n) in doc.footnotes.iter().enumerate() {
            let _ = writeln!(out, "[^{}]: {}", i + 1, esc(n));
        }
        out.push('\n');
    }
    out
}

fn status(s: Status) -> String {
    match s {
        Status::NotMet => "**NOT met**".into(),
        other => other.label().into(),
    }
}

fn goals(out: &mut String, goals: &[Goal], notes_path: &str) {
    out.push_str("## Goals\n\n| goal | id | status |\n|---|---|---|\n");
    for g in goals {
        let _ = writeln!(
            out,
            "| {} | `{}` | {} |",
            esc(g.title),
            g.id,
            status(g.status)
        );
    }
    out.push('\n');
    for g in goals {
        let _ = writeln!(out, "### {}: {}\n", esc(g.title), status(g.status));
        for c in &g.checks {
            let _ = writeln!(
                out,
                "- {}: {} — {}",
                esc(&c.what),
                esc(&c.detail),
                status(c.status)
            );
        }
        if let Some(remark) = crate::goals::remark(g.id) {
            let _ = writeln!(out, "\n{}", esc(remark));
        }
        match (&g.why, g.status) {
            (Some(why), _) => {
                let _ = writeln!(out, "\nWhy: {}", esc(why));
            }
            (None, Status::NotMet | Status::MetWhereMeasured | Status::NotMeasured) => {
                let _ = writeln!(
                    out,
                    "\nWhy: no explanation yet (write one under `## {}` in `{}`).",
                    g.id, notes_path
                );
            }
            (None, Status::Met) => {}
        }
        out.push('\n');
    }
}

fn blocks(out: &mut String, list: &[Block]) {
    for b in list {
        match b {
            Block::Heading(level, text) => {
                let _ = writeln!(out, "{} {}\n", "#".repeat(usize::from(*level)), esc(text));
            }
            Block::Para(text) => {
                let _ = writeln!(out, "{}\n", esc(text));
            }
            Block::Warning(text) => {
                let _ = writeln!(out, "> **{}**\n", esc(text));
            }
            Block::Table(t) => table(out, t),
            Block::Chart(_) => {}
            Block::Details(summary, inner) => {
                let _ = writeln!(out, "**{}**\n", esc(summary));
                blocks(out, inner);
            }
            Block::Verbatim(text) => {
                let _ = writeln!(out, "{}\n", text.trim_end());
            }
        }
    }
}

fn table(out: &mut String, t: &Table) {
    let header: Vec<String> = t.headers.iter().map(|h| esc(h)).collect();
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let align: Vec<&str> = (0..t.headers.len())
        .map(|i| if i < t.label_columns { "---" } else { "---:" })
        .collect();
    let _ = writeln!(out, "|{}|", align.join("|"));
    for row in &t.rows {
        let cells: Vec<String> = row
            .iter()
            .map(|c| {
                let mut s = esc(&c.text);
                if c.best || c.error {
                    s = format!("**{s}**");
                }
                for n in &c.notes {
                    let _ = write!(s, "[^{n}]");
                }
                s
            })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}
