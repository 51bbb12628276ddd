//! A line printer for Go source laid out as gofmt lays it out: tabs for
//! indentation, no blank line after an opening brace or before a closing one, and
//! `//` comments. gofmt never breaks long lines, so the only other layout rules the
//! backend must follow are operator spacing ([`super::expr`]) and column alignment,
//! which the emitters avoid by giving every struct field and constant its own
//! comment line (a comment line ends an alignment block).
//!
//! Lines are kept readable the way people wrap Go by hand: comment sentences are
//! wrapped at [`COMMENT_WIDTH`] ([`Printer::doc`]), and a statement wider than
//! [`MAX_WIDTH`] is broken where gofmt keeps a break ([`super::wrap`]). Widths count
//! a tab as four columns.

use super::wrap::split_code;

/// Accumulates indented lines.
#[derive(Debug, Default)]
pub struct Printer {
    buf: String,
    indent: usize,
}

impl Printer {
    /// An empty printer at indentation level 0.
    pub fn new() -> Printer {
        Printer::default()
    }

    /// The text printed so far.
    pub fn finish(self) -> String {
        self.buf
    }

    /// Prints one line at the current indentation; a statement wider than
    /// [`MAX_WIDTH`] is broken where gofmt keeps a break, and its continuation lines
    /// indented as gofmt indents them ([`super::wrap::split_code`]).
    ///
    /// A statement of several lines (one holding a function literal that gofmt prints
    /// on lines of its own, [`super::expr::E::Func`]) is printed as it is, each line
    /// indented as the first plus the tabs it starts with.
    pub fn line(&mut self, text: impl AsRef<str>) {
        let text = text.as_ref();
        if text.is_empty() {
            self.buf.push('\n');
            return;
        }
        if text.contains('\n') {
            for piece in text.lines() {
                for _ in 0..self.indent {
                    self.buf.push('\t');
                }
                self.buf.push_str(piece);
                self.buf.push('\n');
            }
            return;
        }
        for (extra, piece) in split_code(text, self.indent * TAB) {
            for _ in 0..self.indent + extra {
                self.buf.push('\t');
            }
            self.buf.push_str(&piece);
            self.buf.push('\n');
        }
    }

    /// Prints `{open}a, b, c{close}` (a composite literal of `items`) on one line if it
    /// fits in [`MAX_WIDTH`], else with the items wrapped on lines of their own
    /// between `open` and `close`, as gofmt keeps them (with a trailing comma).
    pub fn list(&mut self, open: &str, items: &[String], close: &str) {
        let one = format!("{open}{}{close}", items.join(", "));
        if items.is_empty() || self.indent * TAB + width(&one) <= MAX_WIDTH {
            return self.line(one);
        }
        self.open(open);
        let room = MAX_WIDTH.saturating_sub(self.indent * TAB);
        let mut line = String::new();
        for item in items {
            if !line.is_empty() && width(&line) + 1 + width(item) + 1 > room {
                self.line(line.trim_end());
                line.clear();
            }
            line.push_str(item);
            line.push_str(", ");
        }
        self.line(line.trim_end());
        self.close(close);
    }

    /// Prints `text` as `//` comment lines, its words wrapped at [`COMMENT_WIDTH`].
    pub fn doc(&mut self, text: impl AsRef<str>) {
        let room = COMMENT_WIDTH.saturating_sub(self.indent * TAB + 3).max(40);
        let mut line = String::new();
        for word in text.as_ref().split_whitespace() {
            if !line.is_empty() && width(&line) + 1 + width(word) > room {
                self.line(format!("// {line}"));
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            self.line(format!("// {line}"));
        }
    }

    /// Prints an empty line, unless the previous line is empty or opens a block
    /// (gofmt removes those).
    pub fn blank(&mut self) {
        if self.buf.is_empty()
            || self.buf.ends_with("\n\n")
            || self.buf.ends_with("{\n")
            || self.buf.ends_with("(\n")
        {
            return;
        }
        self.buf.push('\n');
    }

    /// Prints a line that opens a block and indents what follows.
    pub fn open(&mut self, text: impl AsRef<str>) {
        self.line(text);
        self.indent += 1;
    }

    /// Dedents and prints the line that closes a block.
    pub fn close(&mut self, text: impl AsRef<str>) {
        while self.buf.ends_with("\n\n") {
            self.buf.pop();
        }
        self.indent -= 1;
        self.line(text);
    }

    /// Dedents for a line like `} else {` or `case 1:` and indents again after it.
    pub fn middle(&mut self, text: impl AsRef<str>) {
        self.close(text);
        self.indent += 1;
    }

    /// Prints `//` comment lines; empty lines become `//`.
    pub fn comment(&mut self, lines: &[String]) {
        for l in lines {
            let l = l.trim_end();
            if l.is_empty() {
                self.line("//");
            } else {
                self.line(format!("// {l}"));
            }
        }
    }

    /// Prints the doc comment of a top-level declaration in the form gofmt keeps (it
    /// reformats those, go/doc/comment): no blank line first or last, no two blank
    /// lines in a row, and no indented line, which gofmt would turn into a code
    /// block or a list with blank lines and indentation of its own.
    pub fn doc_comment(&mut self, lines: &[String]) {
        let mut kept: Vec<String> = Vec::new();
        for l in lines.iter().map(|l| l.trim()) {
            if !l.is_empty() || kept.last().is_some_and(|k| !k.is_empty()) {
                kept.push(l.to_string());
            }
        }
        while kept.last().is_some_and(|k| k.is_empty()) {
            kept.pop();
        }
        self.comment(&kept);
    }

    /// Prints `if {init}; err != nil {`, the `return {ret}` line and `}` (`init`
    /// declares `err`: `err := r.Skip(3)`, `_, err := r.ReadF32()`).
    pub fn if_init_err(&mut self, init: &str, ret: &str) {
        self.open(format!("if {init}; err != nil {{"));
        self.line(format!("return {ret}"));
        self.close("}");
    }

    /// Prints `if err != nil {`, the `return …` line and `}`.
    pub fn if_err(&mut self, ret: &str) {
        self.open("if err != nil {");
        self.line(format!("return {ret}"));
        self.close("}");
    }
}

/// The widest line the printer aims for (rustfmt's width, which the Rust backend
/// keeps too).
pub const MAX_WIDTH: usize = 100;

/// Where comment sentences are wrapped.
pub const COMMENT_WIDTH: usize = 80;

/// Columns of a tab.
pub const TAB: usize = 4;

/// Display columns of a line without indentation.
pub fn width(s: &str) -> usize {
    s.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_wraps_words() {
        let mut p = Printer::new();
        p.open("func f() {");
        p.doc(["word"; 40].join(" "));
        p.close("}");
        let out = p.finish();
        assert_eq!(out.lines().count(), 5);
        assert!(out.lines().all(|l| l.len() <= COMMENT_WIDTH));
    }

    #[test]
    fn blocks_indent_with_tabs_and_drop_edge_blank_lines() {
        let mut p = Printer::new();
        p.open("func f() {");
        p.blank();
        p.line("x := 1");
        p.blank();
        p.close("}");
        assert_eq!(p.finish(), "func f() {\n\tx := 1\n}\n");
    }
}
