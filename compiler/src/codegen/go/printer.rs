//! A line printer for Go source laid out as gofmt lays it out: tabs for
//! indentation, no blank line after an opening brace or before a closing one, and
//! `//` comments. gofmt never breaks long lines, so the only other layout rules the
//! backend must follow are operator spacing ([`super::expr`]) and column alignment,
//! which the emitters avoid by giving every struct field and constant its own
//! comment line (a comment line ends an alignment block).
//!
//! Lines are kept readable the way people wrap Go by hand: comment sentences are
//! wrapped at [`COMMENT_WIDTH`] ([`Printer::doc`]), and a statement wider than
//! [`MAX_WIDTH`] is broken after a `|`, `||` or `&&` of its top-level expression, or
//! else after a comma between call arguments, with the continuation indented once
//! more ([`Printer::line`]) — forms gofmt keeps as they are. Widths count a tab as
//! four columns.

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
    /// [`MAX_WIDTH`] is broken where gofmt allows it ([`split_code`]).
    pub fn line(&mut self, text: impl AsRef<str>) {
        let text = text.as_ref();
        if text.is_empty() {
            self.buf.push('\n');
            return;
        }
        let pieces = split_code(text, self.indent * TAB);
        for (k, piece) in pieces.iter().enumerate() {
            for _ in 0..self.indent + usize::from(k > 0) {
                self.buf.push('\t');
            }
            self.buf.push_str(piece);
            self.buf.push('\n');
        }
    }

    /// Prints `{open}a, b, c{close}` (a composite literal of `items`) on one line if it
    /// fits in [`MAX_WIDTH`], else with the items wrapped on lines of their own
    /// between `open` and `close`, as gofmt keeps them (with a trailing comma).
    pub fn list(&mut self, open: &str, items: &[String], close: &str) {
        let one = format!("{open}{}{close}", items.join(", "));
        if self.indent * TAB + width(&one) <= MAX_WIDTH {
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
const TAB: usize = 4;

/// Display columns of a line without indentation.
fn width(s: &str) -> usize {
    s.chars().count()
}

/// A place where a long statement may be broken: the byte offset just after the
/// operator, comma or call parenthesis (the space after an operator or comma is
/// dropped at a break), how many brackets enclose it, whether it is an operator of
/// the top-level expression, and whether it opens a call's arguments (a last resort).
#[derive(Debug, Clone, Copy)]
struct Break {
    at: usize,
    depth: usize,
    operator: bool,
    paren: bool,
}

/// The places where gofmt keeps a line break in the statement `text`: after `|`,
/// `||` and `&&` outside brackets (the statement's top-level expression), after
/// commas whose innermost bracket is a call's `(`, and after a call's `(`. Nothing
/// inside string literals.
/// Only statements, conditions and case lists are broken; declarations, signatures
/// and composite literal rows are left alone.
fn breaks(text: &str) -> Vec<Break> {
    let breakable = text.starts_with("return ")
        || (text.starts_with("if ") && text.ends_with(" {"))
        || (text.starts_with("case ") && text.ends_with(':'))
        || (!text.ends_with('{') && (text.contains(" := ") || text.contains(" = ")));
    if !breakable || text.starts_with("var ") || text.starts_with("func ") {
        return Vec::new();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut stack: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => {
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'`' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'`' {
                    i += 1;
                }
            }
            b'(' => {
                stack.push(b'(');
                // A call's arguments (a name or type arguments before the
                // parenthesis), not empty.
                let call = i > 0
                    && (bytes[i - 1].is_ascii_alphanumeric()
                        || matches!(bytes[i - 1], b'_' | b']'));
                if call && bytes.get(i + 1) != Some(&b')') {
                    out.push(Break {
                        at: i + 1,
                        depth: stack.len(),
                        operator: false,
                        paren: true,
                    });
                }
            }
            c @ (b'[' | b'{') => stack.push(c),
            b')' | b']' | b'}' => {
                stack.pop();
            }
            b',' if bytes.get(i + 1) == Some(&b' ') => {
                let in_call = stack.last() == Some(&b'(');
                let in_case = stack.is_empty() && text.starts_with("case ");
                if in_call || in_case {
                    out.push(Break {
                        at: i + 1,
                        depth: stack.len(),
                        operator: false,
                        paren: false,
                    });
                }
            }
            b' ' if stack.is_empty() => {
                for op in [" || ", " && ", " | "] {
                    if text[i..].starts_with(op) {
                        out.push(Break {
                            at: i + op.len() - 1,
                            depth: 0,
                            operator: true,
                            paren: false,
                        });
                        break;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    // Breaking the top-level expression reads best; commas only where it has no
    // operator to break at.
    if out.iter().any(|b| b.operator) {
        out.retain(|b| b.operator);
    }
    out
}

/// `text` (a line at `indent` columns) as the pieces it is printed in: itself when
/// it fits in [`MAX_WIDTH`], else broken greedily at [`breaks`] (continuations are
/// indented one tab more): each piece ends at the outermost break that keeps it
/// within the width, the last such one, so that arguments stay together; after a
/// call's parenthesis only when no other break fits.
fn split_code(text: &str, indent: usize) -> Vec<String> {
    if text.starts_with("//") || indent + width(text) <= MAX_WIDTH {
        return vec![text.to_string()];
    }
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut room = MAX_WIDTH.saturating_sub(indent);
    let all = breaks(text);
    loop {
        let rest = &text[start..];
        if width(rest) <= room {
            break;
        }
        // The outermost, then last, break that keeps this piece within the room;
        // else the last parenthesis that does; else the first break.
        let candidates: Vec<&Break> = all.iter().filter(|b| b.at > start).collect();
        let fitting = || {
            candidates
                .iter()
                .filter(|b| width(&text[start..b.at]) <= room)
        };
        let fits = fitting()
            .filter(|b| !b.paren)
            .min_by_key(|b| (b.depth, std::cmp::Reverse(b.at)))
            .or_else(|| fitting().filter(|b| b.paren).max_by_key(|b| b.at));
        let Some(b) = fits.or(candidates.first()) else {
            break;
        };
        pieces.push(text[start..b.at].to_string());
        // The space after an operator or comma goes; nothing follows a parenthesis.
        start = if b.paren { b.at } else { b.at + 1 };
        room = MAX_WIDTH.saturating_sub(indent + TAB);
    }
    pieces.push(text[start..].to_string());
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_statements_break_where_gofmt_keeps_the_break() {
        let word = format!("word := {}", ["uint64(m.SomeLongField)<<12"; 6].join(" | "));
        let mut p = Printer::new();
        p.open("func f() {");
        p.line(&word);
        p.line(format!(
            "return f(\"a, b | c\", {})",
            ["g(x, y)"; 14].join(", ")
        ));
        p.line("var short = 1");
        p.close("}");
        let out = p.finish();
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines
            .iter()
            .all(|l| l.replace('\t', "    ").chars().count() <= MAX_WIDTH));
        assert!(lines[1].ends_with(" |") && lines[2].starts_with("\t\tuint64"));
        assert!(lines[3] == "\t\tuint64(m.SomeLongField)<<12");
        // Not inside the string literal, nor inside g's arguments.
        assert!(lines[4].starts_with("\treturn f(\"a, b | c\", g(x, y), g(x, y),"));
        assert!(lines[5].starts_with("\t\tg(x, y),") && lines[6] == "\tvar short = 1");
    }

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
