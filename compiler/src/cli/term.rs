//! Colour for reports printed to a terminal, in rustc's palette.
//!
//! The compiler renders every report as plain text (`diag::render`), which the tests compare
//! byte for byte. When the stream is a terminal, this module paints that text line by line,
//! recognizing the layout the renderer prints (headers, `-->` locations, the `|` gutter,
//! `^^^`/`---` underlines, `= note:` and `= help:` lines); it changes no character.
//!
//! Colour is on when the stream is a terminal, unless `NO_COLOR` is set to a non-empty value
//! (<https://no-color.org>) or `TERM` is `dumb`; `CLICOLOR_FORCE` set to anything but `0` turns
//! it on for pipes too. clap applies the same variables to `--help` and usage errors.

use std::io::{IsTerminal, Write};

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const BLUE: &str = "\x1b[1;34m";
const CYAN: &str = "\x1b[1;36m";
const GREEN: &str = "\x1b[1;32m";

/// Whether to colour a stream, from the environment and whether it is a terminal.
pub(crate) fn wanted(is_terminal: bool, var: impl Fn(&str) -> Option<String>) -> bool {
    if var("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    if var("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") {
        return true;
    }
    is_terminal && var("TERM").as_deref() != Some("dumb")
}

fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Prints a rendered report to standard error, coloured when wanted.
pub(crate) fn eprint_report(text: &str) {
    let mut err = std::io::stderr().lock();
    let text = if wanted(err.is_terminal(), env_var) {
        paint(text)
    } else {
        text.to_owned()
    };
    let _ = err.write_all(text.as_bytes());
}

/// Prints a rendered report to standard output, coloured when wanted.
pub(crate) fn print_report(text: &str) {
    let mut out = std::io::stdout().lock();
    let text = if wanted(out.is_terminal(), env_var) {
        paint(text)
    } else {
        text.to_owned()
    };
    let _ = out.write_all(text.as_bytes());
}

/// The report with ANSI colours added; removing them gives back `text` exactly.
pub(crate) fn paint(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        paint_line(&mut out, body);
        out.push_str(end);
    }
    out
}

/// The colour of a header's level word (`error`, `warning`, a compat verdict, ...).
fn level_colour(word: &str) -> Option<&'static str> {
    match word {
        "error" | "breaking" => Some(RED),
        "warning" | "forward-risky" => Some(YELLOW),
        "compatible" => Some(GREEN),
        _ => None,
    }
}

fn paint_line(out: &mut String, line: &str) {
    // A header: `error[E0101]: message`, `error: message`, `compatible[C0107]: ...`.
    let word_end = line.find(['[', ':']).unwrap_or(0);
    if let Some(colour) = level_colour(&line[..word_end]) {
        let head_end = match line[word_end..].find(": ") {
            Some(i) => word_end + i + 1,
            None => line.len(),
        };
        out.push_str(colour);
        out.push_str(&line[..head_end]);
        out.push_str(RESET);
        if head_end < line.len() {
            out.push_str(BOLD);
            out.push_str(&line[head_end..]);
            out.push_str(RESET);
        }
        return;
    }
    paint_gutter_line(out, line);
}

/// Lines below a header: locations, the gutter, underlines, notes and help.
fn paint_gutter_line(out: &mut String, line: &str) {
    let trimmed = line.trim_start();
    let indent = &line[..line.len() - trimmed.len()];
    for arrow in ["--> ", "::: "] {
        if let Some(rest) = trimmed.strip_prefix(arrow) {
            out.push_str(indent);
            push_painted(out, BLUE, arrow.trim_end());
            out.push(' ');
            out.push_str(rest);
            return;
        }
    }
    for (label, colour) in [("= note:", BOLD), ("= help:", CYAN)] {
        if let Some(rest) = trimmed.strip_prefix(label) {
            out.push_str(indent);
            push_painted(out, BLUE, "=");
            out.push(' ');
            push_painted(out, colour, &label[2..]);
            out.push_str(rest);
            return;
        }
    }
    // The gutter: `12 | source` (a line number) or `   | ^^^ label` (underlines).
    let Some(bar) = line.find('|') else {
        out.push_str(line);
        return;
    };
    let (gutter, after) = line.split_at(bar);
    let numbered = gutter.trim().chars().all(|c| c.is_ascii_digit());
    if !numbered {
        out.push_str(line);
        return;
    }
    push_painted(out, BLUE, &format!("{gutter}|"));
    let after = &after[1..];
    if !gutter.trim().is_empty() {
        out.push_str(after);
        return;
    }
    paint_underline(out, after);
}

/// ` ^^^^ primary label` in red, ` ---- secondary label` in blue.
fn paint_underline(out: &mut String, row: &str) {
    let marks = row.trim_start();
    let lead = &row[..row.len() - marks.len()];
    let colour = match marks.chars().next() {
        Some('^') => RED,
        Some('-') => BLUE,
        _ => {
            out.push_str(row);
            return;
        }
    };
    out.push_str(lead);
    push_painted(out, colour, marks);
}

fn push_painted(out: &mut String, colour: &str, text: &str) {
    out.push_str(colour);
    out.push_str(text);
    out.push_str(RESET);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(s: &str) -> String {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    const REPORT: &str = "error[E0201]: unknown type `Vec3`\n --> a.bw:2:8\n  |\n2 |     p: Vec3,\n  |        ^^^^ not found\n  |        ---- other\n  |\n  = note: n\n  = help: did you mean `Vec2`?\n\nerror: could not compile `a.bw` due to 1 previous error\n";

    #[test]
    fn painting_changes_no_character() {
        let painted = paint(REPORT);
        assert_ne!(painted, REPORT);
        assert_eq!(strip(&painted), REPORT);
    }

    #[test]
    fn headers_underlines_and_help_are_coloured() {
        let painted = paint(REPORT);
        assert!(painted.starts_with(&format!("{RED}error[E0201]:{RESET}{BOLD} unknown")));
        assert!(painted.contains(&format!("{RED}^^^^ not found{RESET}")));
        assert!(painted.contains(&format!("{BLUE}---- other{RESET}")));
        assert!(painted.contains(&format!("{CYAN}help:{RESET} did you mean")));
        // A source line keeps its text uncoloured after the gutter.
        assert!(painted.contains(&format!("{BLUE}2 |{RESET}     p: Vec3,")));
    }

    #[test]
    fn no_color_wins_and_clicolor_force_forces() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(wanted(true, env(&[])));
        assert!(!wanted(false, env(&[])));
        assert!(!wanted(true, env(&[("NO_COLOR", "1")])));
        assert!(wanted(true, env(&[("NO_COLOR", "")])));
        assert!(!wanted(true, env(&[("TERM", "dumb")])));
        assert!(wanted(false, env(&[("CLICOLOR_FORCE", "1")])));
        assert!(!wanted(false, env(&[("CLICOLOR_FORCE", "0")])));
        assert!(!wanted(
            true,
            env(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")])
        ));
    }
}
