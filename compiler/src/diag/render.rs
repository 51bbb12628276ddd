//! Plain-text rendering in the style of rustc: a header, a `-->` location, source
//! snippets with `^^^` (primary) and `---` (secondary) underlines, then notes and
//! help. No colours, so the output can be compared byte for byte in tests.

use std::fmt::Write;

use super::{Diagnostic, Diagnostics, FileId, Label, Severity, SourceMap};

/// Tabs are expanded so that underlines line up regardless of the terminal.
const TAB: &str = "    ";

pub(super) fn render_all(diags: &Diagnostics) -> String {
    let mut out = String::new();
    for d in &diags.items {
        render_one(&mut out, &diags.sources, d);
        out.push('\n');
    }
    let errors = diags.error_count();
    let warnings = diags.warning_count();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if errors > 0 {
        let _ = write!(
            out,
            "error: could not compile `{}` due to {}",
            diags.root,
            plural(errors, "previous error")
        );
        if warnings > 0 {
            let _ = write!(out, "; {} emitted", plural(warnings, "warning"));
        }
        out.push('\n');
    } else if warnings > 0 {
        let _ = writeln!(
            out,
            "warning: `{}` generated {}",
            diags.root,
            plural(warnings, "warning")
        );
    }
    out
}

/// One label prepared for printing: the 0-based line and the display columns it covers.
struct Mark<'a> {
    line: usize,
    col_start: usize,
    col_end: usize,
    primary: bool,
    message: &'a str,
}

fn render_one(out: &mut String, sources: &SourceMap, d: &Diagnostic) {
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let header = format!("{severity}[{}]: {}", d.code, d.message);
    let body = Body {
        primary: d.primary.as_ref(),
        secondary: &d.secondary,
        notes: &d.notes,
        help: d.help.as_deref(),
    };
    render_labeled(out, sources, &header, &body);
}

/// The parts of a rendered report below its header line.
pub(crate) struct Body<'a> {
    pub(crate) primary: Option<&'a Label>,
    pub(crate) secondary: &'a [Label],
    pub(crate) notes: &'a [String],
    pub(crate) help: Option<&'a str>,
}

/// Renders a header line and labelled snippets in the diagnostic layout; shared by
/// diagnostics and other reports that point into sources (`bitwire compat`).
pub(crate) fn render_labeled(out: &mut String, sources: &SourceMap, header: &str, d: &Body) {
    let _ = writeln!(out, "{header}");

    // Labels grouped per file: the primary's file first, then others in order of appearance.
    let mut groups: Vec<(FileId, Vec<(&Label, bool)>)> = Vec::new();
    for (label, primary) in d
        .primary
        .iter()
        .map(|l| (*l, true))
        .chain(d.secondary.iter().map(|l| (l, false)))
    {
        match groups.iter_mut().find(|(f, _)| *f == label.span.file) {
            Some((_, v)) => v.push((label, primary)),
            None => groups.push((label.span.file, vec![(label, primary)])),
        }
    }
    let width = groups
        .iter()
        .flat_map(|(_, v)| v.iter())
        .map(|(l, _)| sources.line_of(l.span).to_string().len())
        .max()
        .unwrap_or(1);
    let pad = " ".repeat(width);

    for (index, (file, labels)) in groups.iter().enumerate() {
        let src = sources.get(*file);
        // The location shown is the group's first label as listed (the primary for the first group).
        let first = labels[0].0.span;
        let (line, col) = src.line_col(first.start as usize);
        let arrow = if index == 0 { "-->" } else { ":::" };
        let _ = writeln!(out, "{pad}{arrow} {}:{line}:{col}", src.name);
        let _ = writeln!(out, "{pad} |");

        let mut marks: Vec<Mark> = labels
            .iter()
            .map(|(l, primary)| mark(sources, l, *primary))
            .collect();
        marks.sort_by_key(|m| (m.line, m.col_start, !m.primary));
        let mut previous_line: Option<usize> = None;
        let mut i = 0;
        while i < marks.len() {
            let line = marks[i].line;
            if let Some(prev) = previous_line {
                if line == prev + 2 {
                    print_source_line(out, width, prev + 1, src.line_text(prev + 1));
                } else if line > prev + 2 {
                    out.push_str("...\n");
                }
            }
            print_source_line(out, width, line, src.line_text(line));
            while i < marks.len() && marks[i].line == line {
                let m = &marks[i];
                let ch = if m.primary { "^" } else { "-" };
                let underline = ch.repeat((m.col_end - m.col_start).max(1));
                let mut row = format!("{pad} | {}{underline}", " ".repeat(m.col_start));
                if !m.message.is_empty() {
                    row.push(' ');
                    row.push_str(m.message);
                }
                let _ = writeln!(out, "{}", row.trim_end());
                i += 1;
            }
            previous_line = Some(line);
        }
        if index + 1 < groups.len() || !d.notes.is_empty() || d.help.is_some() {
            let _ = writeln!(out, "{pad} |");
        }
    }
    for note in d.notes {
        let _ = writeln!(out, "{pad} = note: {note}");
    }
    if let Some(help) = d.help {
        let _ = writeln!(out, "{pad} = help: {help}");
    }
}

fn print_source_line(out: &mut String, width: usize, line: usize, text: &str) {
    let text = text.replace('\t', TAB);
    let number = format!("{:>width$}", line + 1);
    if text.is_empty() {
        let _ = writeln!(out, "{number} |");
    } else {
        let _ = writeln!(out, "{number} | {text}");
    }
}

/// Converts a label's byte span into display columns on its first line. Spans that
/// run over several lines are underlined to the end of their first line.
fn mark<'a>(sources: &SourceMap, label: &'a Label, primary: bool) -> Mark<'a> {
    let src = sources.get(label.span.file);
    let start = label.span.start as usize;
    let line = src.line_index(start);
    let line_start = src.line_start(line);
    let text = src.line_text(line);
    // Offsets are clamped to the visible line: a span may start on the `\r` of a
    // CRLF ending or run over several lines.
    let visible = |offset: usize| {
        let mut i = offset.saturating_sub(line_start).min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (s, e) = (visible(start), visible(label.span.end as usize));
    Mark {
        line,
        col_start: display_width(&text[..s]),
        col_end: display_width(&text[..e.max(s)]),
        primary,
        message: &label.message,
    }
}

fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| if c == '\t' { TAB.len() } else { 1 })
        .sum()
}
