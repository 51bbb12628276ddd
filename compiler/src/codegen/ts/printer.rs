//! A line printer for TypeScript: two-space indentation, braces opened and closed by
//! the emitters, blank lines normalized (never two in a row, never right after an
//! opening brace or before a closing one). The generated code is emitted formatted;
//! no formatter runs over it.

/// Width the emitters keep lines under, breaking long expressions.
pub const MAX_WIDTH: usize = 100;

/// Collects lines of TypeScript.
#[derive(Debug, Default)]
pub struct Printer {
    out: String,
    indent: usize,
    /// A blank line was requested and not yet printed.
    blank: bool,
    /// The last line opened a block.
    opened: bool,
}

impl Printer {
    /// An empty printer at indentation level 0.
    pub fn new() -> Printer {
        Printer::default()
    }

    /// The current indentation in columns.
    pub fn indent_width(&self) -> usize {
        self.indent * 2
    }

    /// Whether `text` fits on one line at the current indentation.
    pub fn fits(&self, text: &str) -> bool {
        self.indent_width() + text.chars().count() <= MAX_WIDTH
    }

    /// Prints one line.
    pub fn line(&mut self, text: impl AsRef<str>) {
        let text = text.as_ref();
        if self.blank && !self.opened && !self.out.is_empty() && !text.starts_with('}') {
            self.out.push('\n');
        }
        self.blank = false;
        self.opened = false;
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// Requests a blank line before the next line (collapsed with other requests).
    pub fn blank(&mut self) {
        self.blank = true;
    }

    /// Prints a line that opens a block and indents.
    pub fn open(&mut self, text: impl AsRef<str>) {
        self.line(text);
        self.indent += 1;
        self.opened = true;
    }

    /// Dedents and prints a line that closes a block.
    pub fn close(&mut self, text: impl AsRef<str>) {
        self.indent -= 1;
        self.blank = false;
        self.line(text);
    }

    /// Dedents for a line like `} else {` and indents again after it.
    pub fn middle(&mut self, text: impl AsRef<str>) {
        self.close(text);
        self.indent += 1;
        self.opened = true;
    }

    /// Dedents without printing (after a `case x:` or a multi-line type).
    pub fn dedent(&mut self) {
        self.indent -= 1;
    }

    /// Prints a TSDoc comment from paragraphs of lines (empty paragraphs are skipped).
    /// A single short line becomes `/** text */`.
    pub fn doc(&mut self, paragraphs: &[Vec<String>]) {
        let paras: Vec<Vec<String>> = paragraphs
            .iter()
            .map(|p| {
                p.iter()
                    .map(|l| escape_doc(l.trim_end()))
                    .collect::<Vec<_>>()
            })
            .filter(|p: &Vec<String>| p.iter().any(|l| !l.is_empty()))
            .collect();
        if paras.is_empty() {
            return;
        }
        if paras.len() == 1 && paras[0].len() == 1 {
            let one = format!("/** {} */", paras[0][0]);
            if self.fits(&one) {
                self.line(one);
                return;
            }
        }
        self.line("/**");
        for (i, p) in paras.iter().enumerate() {
            if i > 0 {
                self.line(" *");
            }
            for l in p {
                if l.is_empty() {
                    self.line(" *");
                } else {
                    self.line(format!(" * {l}"));
                }
            }
        }
        self.line(" */");
    }

    /// Prints `head expr;` where expr is operands joined with a binary operator: on one
    /// line when it fits, else broken after `head` with one operand per line and the
    /// operator at the end of each line (the layout of Prettier and Biome).
    pub fn binary_assign(&mut self, head: &str, operands: &[String], op: &str) {
        let one = format!("{head} {};", operands.join(&format!(" {op} ")));
        if self.fits(&one) {
            self.line(one);
            return;
        }
        self.line(head);
        self.indent += 1;
        let last = operands.len() - 1;
        for (i, o) in operands.iter().enumerate() {
            let end = if i == last {
                ";".to_string()
            } else {
                format!(" {op}")
            };
            self.line(format!("{o}{end}"));
        }
        self.indent -= 1;
    }

    /// Opens `if (cond) {`: on one line when it fits, else broken at the top-level
    /// `||` of `cond` (which is never inside brackets in generated conditions), one
    /// operand per line.
    pub fn open_if(&mut self, cond: &str) {
        let parts: Vec<String> = cond.split(" || ").map(str::to_string).collect();
        self.open_if_any(&parts, "||");
    }

    /// Opens `if (a || b || ...) {`: on one line when it fits, else one condition per
    /// line with the operator at the end (the layout of Prettier and Biome).
    pub fn open_if_any(&mut self, conds: &[String], op: &str) {
        let one = format!("if ({}) {{", conds.join(&format!(" {op} ")));
        if self.fits(&one) {
            self.open(one);
            return;
        }
        self.line("if (");
        self.indent += 1;
        let last = conds.len() - 1;
        for (i, c) in conds.iter().enumerate() {
            let end = if i == last {
                String::new()
            } else {
                format!(" {op}")
            };
            self.line(format!("{c}{end}"));
        }
        self.indent -= 1;
        self.open(") {");
    }

    /// Prints a call or literal `head` + items + `tail` (`f(`, `)`), on one line when it
    /// fits, else one item per line with a trailing comma.
    pub fn list(&mut self, head: &str, items: &[String], tail: &str) {
        let one = format!("{head}{}{tail}", items.join(", "));
        if self.fits(&one) {
            self.line(one);
            return;
        }
        self.open(head.trim_end());
        for item in items {
            self.line(format!("{item},"));
        }
        self.close(tail.trim_start());
    }

    /// Like [`Printer::list`] for a header that opens a block (`function f(a, b) {`):
    /// the body that follows is indented.
    pub fn list_open(&mut self, head: &str, items: &[String], tail: &str) {
        self.list(head, items, tail);
        self.indent += 1;
        self.opened = true;
    }

    /// The printed text.
    pub fn finish(self) -> String {
        self.out
    }
}

/// Keeps doc text from ending the comment early.
fn escape_doc(line: &str) -> String {
    line.replace("*/", "*\\/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_blanks_and_docs() {
        let mut p = Printer::new();
        p.doc(&[vec!["One line.".into()]]);
        p.open("function f(): void {");
        p.blank();
        p.line("g();");
        p.blank();
        p.close("}");
        p.blank();
        p.blank();
        p.doc(&[vec!["First.".into()], vec![], vec!["Second */ end.".into()]]);
        p.line("const x = 1;");
        assert_eq!(
            p.finish(),
            "/** One line. */\nfunction f(): void {\n  g();\n}\n\n/**\n * First.\n *\n * Second *\\/ end.\n */\nconst x = 1;\n"
        );
    }

    #[test]
    fn long_lists_break() {
        let mut p = Printer::new();
        let items: Vec<String> = (0..12).map(|i| format!("item_number_{i}")).collect();
        p.list("f(", &items, ");");
        assert!(p.finish().starts_with("f(\n  item_number_0,\n"));
    }
}
