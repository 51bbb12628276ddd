//! Plain-text rendering in the style of rustc: a header, a `-->` location, source
//! snippets with `^^^` (primary) and `---` (secondary) underlines, then notes and
//! help. No colours, so the output can be compared byte for byte in tests.
//!
//! A source line longer than [`MAX_LINE`] bytes is shown as a window of at most
//! [`WINDOW`] bytes around its labels, with `...` where text is left out: every
//! rendered diagnostic has a bounded size, so rendering a file with an error at
//! every character of a megabyte-long line takes memory and time linear in the
//! file, not in the number of errors times the line length.

use std::fmt::Write;

use super::{Diagnostic, Diagnostics, FileId, Label, Severity, SourceMap};

/// Tabs are expanded so that underlines line up regardless of the terminal.
const TAB: &str = "    ";
/// Source lines up to this many bytes are shown whole.
pub(crate) const MAX_LINE: usize = 160;
/// The most bytes of a longer line that are shown.
const WINDOW: usize = 120;
/// Bytes shown before the first label of a longer line.
const CONTEXT: usize = 40;
/// Marks left-out text of a long line.
const ELLIPSIS: &str = "...";

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

/// One label prepared for printing: the 0-based line and the bytes of it that it
/// covers (offsets into the line's text, on character boundaries).
struct Mark<'a> {
    line: usize,
    start: usize,
    end: usize,
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
        marks.sort_by_key(|m| (m.line, m.start, !m.primary));
        let mut previous_line: Option<usize> = None;
        let mut i = 0;
        while i < marks.len() {
            let line = marks[i].line;
            if let Some(prev) = previous_line {
                if line == prev + 2 {
                    let text = src.line_text(prev + 1);
                    let shown = Shown::new(text, 0);
                    print_source_line(out, width, prev + 1, &shown.text(text));
                } else if line > prev + 2 {
                    out.push_str("...\n");
                }
            }
            let on_line = marks[i..].iter().take_while(|m| m.line == line).count();
            let text = src.line_text(line);
            // Marks are sorted: the first on the line starts first.
            let shown = Shown::new(text, marks[i].start);
            print_source_line(out, width, line, &shown.text(text));
            for m in &marks[i..i + on_line] {
                let ch = if m.primary { "^" } else { "-" };
                let (col_start, col_end) = (shown.column(text, m.start), shown.column(text, m.end));
                let underline = ch.repeat((col_end - col_start).max(1));
                let mut row = format!("{pad} | {}{underline}", " ".repeat(col_start));
                if !m.message.is_empty() {
                    row.push(' ');
                    row.push_str(m.message);
                }
                let _ = writeln!(out, "{}", row.trim_end());
            }
            i += on_line;
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

/// The part of a source line that is printed: all of it, or for a long line a
/// window starting a little before its first labelled byte.
struct Shown {
    start: usize,
    end: usize,
    /// Whether text before `start` / after `end` is left out.
    cut_before: bool,
    cut_after: bool,
}

impl Shown {
    /// What to show of line `text` whose first label starts at byte `lo`.
    fn new(text: &str, lo: usize) -> Shown {
        if text.len() <= MAX_LINE {
            return Shown {
                start: 0,
                end: text.len(),
                cut_before: false,
                cut_after: false,
            };
        }
        // The window starts a little before the first label; a label running past
        // its end is underlined to the end.
        let start = floor_boundary(text, lo.saturating_sub(CONTEXT));
        let end = floor_boundary(text, start + WINDOW);
        Shown {
            start,
            end,
            cut_before: start > 0,
            cut_after: end < text.len(),
        }
    }

    /// The printed text.
    fn text(&self, line: &str) -> String {
        let mut out = String::new();
        if self.cut_before {
            out.push_str(ELLIPSIS);
        }
        out.push_str(&line[self.start..self.end]);
        if self.cut_after {
            out.push_str(ELLIPSIS);
        }
        out
    }

    /// The display column of byte `offset` of the line (clamped to the window).
    fn column(&self, line: &str, offset: usize) -> usize {
        let offset = offset.clamp(self.start, self.end);
        let prefix = if self.cut_before { ELLIPSIS.len() } else { 0 };
        prefix + display_width(&line[self.start..offset])
    }
}

/// The largest character boundary of `text` at or below `i`.
fn floor_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Converts a label's byte span into byte offsets on its first line. Spans that
/// run over several lines are underlined to the end of their first line.
fn mark<'a>(sources: &SourceMap, label: &'a Label, primary: bool) -> Mark<'a> {
    let src = sources.get(label.span.file);
    let start = label.span.start as usize;
    let line = src.line_index(start);
    let line_start = src.line_start(line);
    let text = src.line_text(line);
    // Offsets are clamped to the visible line: a span may start on the `\r` of a
    // CRLF ending or run over several lines.
    let visible = |offset: usize| floor_boundary(text, offset.saturating_sub(line_start));
    let (s, e) = (visible(start), visible(label.span.end as usize));
    Mark {
        line,
        start: s,
        end: e.max(s),
        primary,
        message: &label.message,
    }
}

fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| if c == '\t' { TAB.len() } else { 1 })
        .sum()
}
