//! A line printer that emits code the way rustfmt (default configuration) lays it
//! out, for the handful of shapes the Rust backend prints. Generated code is never
//! run through a formatter; instead every construct that could grow long has a
//! one-line form and the broken form rustfmt would choose, and the golden tests
//! check the output against rustfmt itself.

/// rustfmt's `max_width`.
pub const MAX_WIDTH: usize = 100;
/// rustfmt's `fn_call_width` (also used for array literals, `array_width`).
pub const SHORT_WIDTH: usize = 60;
/// rustfmt's `short_array_element_width_threshold`: arrays whose elements are all at
/// most this wide are filled line by line instead of one element per line.
const SHORT_ELEMENT: usize = 10;

/// Accumulates indented lines.
#[derive(Debug, Default)]
pub struct Printer {
    buf: String,
    indent: usize,
    /// Whether the text calls `in_field` / `at_index` on a `Result`, which needs the
    /// runtime's `ResultExt` in scope.
    uses_result_ext: bool,
    /// Whether the text calls a `Packed` method outside a `Packed` impl
    /// (`m.encode(out)` in the dispatch enum), which needs the trait in scope. Inside
    /// `impl Packed for T`, the trait is in scope already (`Vec2::read(r)`).
    uses_packed: bool,
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

    /// An empty printer `extra` levels deeper than this one, for text that is printed
    /// only once it is known whether it is empty (see [`Printer::append`]).
    pub fn child(&self, extra: usize) -> Printer {
        Printer {
            buf: String::new(),
            indent: self.indent + extra,
            uses_result_ext: false,
            uses_packed: false,
        }
    }

    /// Whether nothing has been printed.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Appends the text of a [`Printer::child`].
    pub fn append(&mut self, child: Printer) {
        self.buf.push_str(&child.buf);
        self.uses_result_ext |= child.uses_result_ext;
        self.uses_packed |= child.uses_packed;
    }

    /// Records that the text calls a `ResultExt` method on a `Result`.
    pub fn use_result_ext(&mut self) {
        self.uses_result_ext = true;
    }

    /// Whether the text calls a `ResultExt` method on a `Result`.
    pub fn uses_result_ext(&self) -> bool {
        self.uses_result_ext
    }

    /// Records that the text calls a `Packed` method through the trait.
    pub fn use_packed(&mut self) {
        self.uses_packed = true;
    }

    /// Whether the text calls a `Packed` method through the trait.
    pub fn uses_packed(&self) -> bool {
        self.uses_packed
    }

    /// Columns taken by the current indentation.
    pub fn indent_width(&self) -> usize {
        self.indent * 4
    }

    /// Whether `text` fits on one line at the current indentation.
    pub fn fits(&self, text: &str) -> bool {
        self.indent_width() + text.len() <= MAX_WIDTH
    }

    /// Prints one line at the current indentation.
    pub fn line(&mut self, text: impl AsRef<str>) {
        let text = text.as_ref();
        for _ in 0..self.indent {
            self.buf.push_str("    ");
        }
        self.buf.push_str(text);
        self.buf.push('\n');
    }

    /// Prints an empty line, unless the previous line is empty or opens a block
    /// (rustfmt removes those).
    pub fn blank(&mut self) {
        if self.buf.is_empty() || self.buf.ends_with("\n\n") || self.buf.ends_with("{\n") {
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
        // rustfmt removes blank lines before a closing brace.
        while self.buf.ends_with("\n\n") {
            self.buf.pop();
        }
        self.indent -= 1;
        self.line(text);
    }

    /// Prints a continuation line, one level deeper than the current indentation
    /// (rustfmt's layout of a method chain broken before a `.`).
    pub fn continuation(&mut self, text: impl AsRef<str>) {
        self.indent += 1;
        self.line(text);
        self.indent -= 1;
    }

    /// Dedents for a line like `} else {` and indents again after it.
    pub fn middle(&mut self, text: impl AsRef<str>) {
        self.close(text);
        self.indent += 1;
    }

    /// Prints `///` doc lines (trailing blanks trimmed: rustfmt would keep them, but
    /// they would trip whitespace checks).
    pub fn doc(&mut self, lines: &[String]) {
        for l in lines {
            let l = l.trim_end();
            if l.is_empty() {
                self.line("///");
            } else {
                self.line(format!("/// {l}"));
            }
        }
    }

    /// Prints a call statement `head(args)tail`, e.g. head `let q = w.quantize(` and
    /// tail `);`: on one line when it fits and the arguments are short, otherwise one
    /// argument per line with a trailing comma, as rustfmt does.
    pub fn call(&mut self, head: &str, args: &[String], tail: &str) {
        let joined = args.join(", ");
        let one = format!("{head}{joined}{tail}");
        if joined.len() <= SHORT_WIDTH && self.fits(&one) {
            self.line(one);
            return;
        }
        self.open(head);
        for a in args {
            self.line(format!("{a},"));
        }
        self.close(tail);
    }

    /// Prints `head` followed by operands joined with a binary operator, then `tail`:
    /// on one line when it fits; for `let x = ` heads, else on the next line when it
    /// fits there; otherwise broken before each operator with the continuation lines
    /// indented once (rustfmt's layout of long `a | b | c`).
    pub fn binary(&mut self, head: &str, operands: &[String], op: &str, tail: &str) {
        let joined = operands.join(&format!(" {op} "));
        let one = format!("{head}{joined}{tail}");
        if self.fits(&one) {
            self.line(one);
            return;
        }
        if let Some(lhs) = head.strip_suffix(" = ") {
            let rhs = format!("    {joined}{tail}");
            if self.fits(&rhs) {
                self.line(format!("{lhs} ="));
                self.line(rhs);
                return;
            }
        }
        self.line(format!("{head}{}", operands[0]));
        self.indent += 1;
        let last = operands.len() - 1;
        for (i, o) in operands.iter().enumerate().skip(1) {
            let end = if i == last { tail } else { "" };
            self.line(format!("{op} {o}{end}"));
        }
        self.indent -= 1;
    }

    /// Prints an array literal `head[items]tail` the way rustfmt does: one line when
    /// short, filled lines when every element is short, else one element per line.
    pub fn array(&mut self, head: &str, items: &[String], tail: &str) {
        let joined = items.join(", ");
        let one = format!("{head}[{joined}]{tail}");
        // rustfmt's `array_width` bounds the items as joined, brackets excluded.
        if joined.len() <= SHORT_WIDTH && self.fits(&one) {
            self.line(one);
            return;
        }
        // `const X: T = &[...]` whose array fits on its own line: rustfmt breaks after `=`.
        if let Some(lhs) = head.strip_suffix(" = &") {
            let rhs = format!("    &[{joined}]{tail}");
            if joined.len() <= SHORT_WIDTH && self.fits(&rhs) {
                self.line(format!("{lhs} ="));
                self.line(rhs);
                return;
            }
        }
        self.open(format!("{head}["));
        if items.iter().all(|i| i.len() <= SHORT_ELEMENT) {
            let mut cur = String::new();
            for item in items {
                let piece = format!("{item},");
                let candidate = if cur.is_empty() {
                    piece.clone()
                } else {
                    format!("{cur} {piece}")
                };
                if self.fits(&candidate) {
                    cur = candidate;
                } else {
                    self.line(&cur);
                    cur = piece;
                }
            }
            if !cur.is_empty() {
                self.line(cur);
            }
        } else {
            for item in items {
                self.line(format!("{item},"));
            }
        }
        self.close(format!("]{tail}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breaks_like_rustfmt() {
        let mut p = Printer::new();
        p.open("fn f() {");
        p.call("let q = g(", &["a".into(), "b".into()], ");");
        let long: Vec<String> = (0..8).map(|i| format!("argument_number_{i}")).collect();
        p.call("h(", &long[..4], ");");
        p.binary("let word = ", &long[..2], "|", ";");
        p.binary("let word = ", &long, "|", ";");
        p.close("}");
        let text = p.finish();
        assert!(text.contains("    let q = g(a, b);\n"));
        assert!(text.contains("    h(\n        argument_number_0,\n"));
        assert!(text.contains("    let word = argument_number_0 | argument_number_1;\n"));
        assert!(text.contains("        | argument_number_7;\n"));
    }

    #[test]
    fn binary_moves_to_the_next_line_when_it_fits_there() {
        let mut p = Printer::new();
        p.open("fn f() {");
        p.open("if x {");
        let ops: Vec<String> = (0..2)
            .map(|i| format!("(u64::from(self.field_{i:0>12}) >> 4)"))
            .collect();
        p.binary("let over = ", &ops, "|", ";");
        p.close("}");
        p.close("}");
        let text = p.finish();
        assert!(
            text.contains("        let over =\n            (u64::from"),
            "{text}"
        );
    }

    #[test]
    fn blank_lines_never_follow_an_opening_brace() {
        let mut p = Printer::new();
        p.open("impl X {");
        p.blank();
        p.line("const A: u8 = 1;");
        p.blank();
        p.blank();
        p.close("}");
        assert_eq!(p.finish(), "impl X {\n    const A: u8 = 1;\n}\n");
    }
}
