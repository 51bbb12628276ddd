//! Breaking a statement that is too wide, the way people wrap Go by hand and in forms
//! gofmt keeps as they are: after a `|`, `||` or `&&` of the statement's top-level
//! expression; else after a comma between call arguments; else, as a last resort,
//! after a call's `(`.
//!
//! gofmt keeps such breaks but decides the indentation of the lines after them:
//! the continuation of a broken top-level expression is indented once, and every
//! call whose argument list holds a break indents the lines after its first break
//! once more, until its `)` (go/printer's `binaryExpr` and `exprList`). So breaks at
//! growing depth indent further and further, and [`split_code`] computes the
//! indentation of each line as gofmt will, which `compiler/tests/codegen_golden_go.rs`
//! and the random schemas of `conformance/schemagen` check with `gofmt -l`.

use super::printer::{width, MAX_WIDTH, TAB};

/// A place where a long statement may be broken.
#[derive(Debug, Clone, Copy)]
struct Break {
    /// The byte offset just after the operator, comma or parenthesis.
    at: usize,
    /// How many brackets enclose it.
    depth: usize,
    /// The innermost parenthesis around it (an index into [`Statement::parens`]).
    paren: Option<usize>,
    /// Whether it is in the statement's top-level expression or case list (after an
    /// operator, or a comma of the list), whose continuation lines gofmt indents
    /// once, all of them.
    top: bool,
    /// Whether it is just after a call's `(` (a last resort).
    opening: bool,
}

/// The break points of a statement and where each parenthesis closes.
struct Statement {
    breaks: Vec<Break>,
    /// Per parenthesis, in opening order: the byte offset of its `)`.
    parens: Vec<usize>,
}

/// Whether `text` is a statement this module breaks: returns, conditions, case lists
/// and assignments. Declarations, signatures and composite literal rows are left
/// alone (breaking them would change gofmt's alignment of the rows around them).
fn breakable(text: &str) -> bool {
    let kind = text.starts_with("return ")
        || (text.starts_with("if ") && text.ends_with(" {"))
        || (text.starts_with("case ") && text.ends_with(':'))
        || (!text.ends_with('{') && (text.contains(" := ") || text.contains(" = ")));
    kind && !text.starts_with("var ") && !text.starts_with("func ")
}

/// The places in `text` where gofmt keeps a line break: after `|`, `||` and `&&`
/// outside brackets, after commas whose innermost bracket is a `(` (and, in a case
/// list, outside brackets), and after a call's `(` when arguments follow. Nothing
/// inside string literals, nor inside a function literal (its parameters or its
/// one-line body: gofmt keeps a body on one line only when the literal is on one).
/// Where the top-level expression has an operator to break at, only those places.
fn scan(text: &str) -> Statement {
    let bytes = text.as_bytes();
    let mut breaks = Vec::new();
    let mut parens: Vec<usize> = Vec::new();
    // Open brackets: the bracket, and for a parenthesis its index in `parens`; a
    // function literal's parameters and body are pushed as `f`.
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let in_func = |stack: &[(u8, usize)]| stack.iter().any(|(c, _)| *c == b'f');
    let innermost_paren = |stack: &[(u8, usize)]| match stack.last() {
        Some((b'(', p)) => Some(*p),
        _ => None,
    };
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
            b'(' if text[..i].ends_with("func") || in_func(&stack) => {
                stack.push((b'f', 0));
            }
            b'{' if in_func(&stack) || text[..i].ends_with(") bool ") => {
                stack.push((b'f', 0));
            }
            b'(' => {
                parens.push(text.len());
                stack.push((b'(', parens.len() - 1));
                // A call's arguments (a name or type arguments before it), not empty.
                let call = i > 0
                    && (bytes[i - 1].is_ascii_alphanumeric()
                        || matches!(bytes[i - 1], b'_' | b']'));
                if call && bytes.get(i + 1) != Some(&b')') {
                    breaks.push(Break {
                        at: i + 1,
                        depth: stack.len(),
                        paren: innermost_paren(&stack),
                        top: false,
                        opening: true,
                    });
                }
            }
            c @ (b'[' | b'{') => stack.push((c, 0)),
            b')' | b']' | b'}' => {
                if let Some((b'(', p)) = stack.pop() {
                    parens[p] = i;
                }
            }
            b',' if bytes.get(i + 1) == Some(&b' ') => {
                let paren = innermost_paren(&stack);
                let in_case = stack.is_empty() && text.starts_with("case ");
                if paren.is_some() || in_case {
                    breaks.push(Break {
                        at: i + 1,
                        depth: stack.len(),
                        paren,
                        top: in_case,
                        opening: false,
                    });
                }
            }
            b' ' if stack.is_empty() => {
                if let Some(op) = [" || ", " && ", " | "]
                    .iter()
                    .find(|op| text[i..].starts_with(**op))
                {
                    breaks.push(Break {
                        at: i + op.len() - 1,
                        depth: 0,
                        paren: None,
                        top: true,
                        opening: false,
                    });
                }
            }
            _ => {}
        }
        i += 1;
    }
    if breaks.iter().any(|b| b.top) {
        breaks.retain(|b| b.top);
    }
    Statement { breaks, parens }
}

/// `text` (a line at `indent` columns) as the lines it is printed in, each with the
/// number of tabs it is indented beyond the first: itself when it fits in
/// [`MAX_WIDTH`], else broken greedily at the places [`scan`] finds. Each line ends
/// at the outermost break that keeps it within the width, the last such one, so that
/// arguments stay together; after a call's `(` only when no other break fits; at the
/// first break when none fits, once.
pub fn split_code(text: &str, indent: usize) -> Vec<(usize, String)> {
    if text.starts_with("//") || indent + width(text) <= MAX_WIDTH || !breakable(text) {
        return vec![(0, text.to_string())];
    }
    let Statement { breaks, parens } = scan(text);
    let mut lines = Vec::new();
    let (mut start, mut extra) = (0, 0);
    // The parentheses whose arguments hold a break, and whether the top-level
    // expression or list does.
    let mut broken: Vec<usize> = Vec::new();
    let mut top = false;
    let mut forced_once = false;
    loop {
        let room = MAX_WIDTH.saturating_sub(indent + extra * TAB);
        if width(&text[start..]) <= room {
            break;
        }
        let candidates: Vec<&Break> = breaks.iter().filter(|b| b.at > start).collect();
        let fitting = || {
            candidates
                .iter()
                .filter(|b| width(&text[start..b.at]) <= room)
        };
        let chosen = fitting()
            .filter(|b| !b.opening)
            .min_by_key(|b| (b.depth, std::cmp::Reverse(b.at)))
            .or_else(|| fitting().filter(|b| b.opening).max_by_key(|b| b.at));
        // Where nothing fits (a long name, or deep indentation), one break at the
        // first place still helps; more would only add gofmt's indentation.
        let forced = chosen.is_none() && !forced_once;
        forced_once |= forced;
        let Some(b) = chosen.or(candidates.first().filter(|_| forced)) else {
            break;
        };
        lines.push((extra, text[start..b.at].to_string()));
        // The space after an operator or comma goes; nothing follows a parenthesis.
        start = if b.opening { b.at } else { b.at + 1 };
        top |= b.top;
        if let Some(p) = b.paren.filter(|p| !broken.contains(p)) {
            broken.push(p);
        }
        extra = usize::from(top) + broken.iter().filter(|&&p| parens[p] >= start).count();
    }
    lines.push((extra, text[start..].to_string()));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &str, indent_tabs: usize) -> Vec<String> {
        split_code(text, indent_tabs * TAB)
            .into_iter()
            .map(|(extra, l)| format!("{}{l}", "\t".repeat(indent_tabs + extra)))
            .collect()
    }

    #[test]
    fn long_statements_break_where_gofmt_keeps_the_break() {
        let word = format!("word := {}", ["uint64(m.SomeLongField)<<12"; 6].join(" | "));
        let lines = render(&word, 1);
        assert!(lines
            .iter()
            .all(|l| width(&l.replace('\t', "    ")) <= MAX_WIDTH));
        assert!(lines[0].ends_with(" |") && lines[1].starts_with("\t\tuint64"));
        assert_eq!(lines[2], "\t\tuint64(m.SomeLongField)<<12");
        let ret = format!("return f(\"a, b | c\", {})", ["g(x, y)"; 14].join(", "));
        let lines = render(&ret, 1);
        // Not inside the string literal, nor inside g's arguments.
        assert!(lines[0].starts_with("\treturn f(\"a, b | c\", g(x, y), g(x, y),"));
        assert!(lines[0].ends_with("g(x, y),") && lines[1].starts_with("\t\tg(x, y),"));
        assert_eq!(render("var short = 1", 1), ["\tvar short = 1"]);
        let case = format!("case {}:", ["SomeEnumVariantName"; 6].join(", "));
        assert_eq!(
            render(&case, 1)[1],
            "\t\tSomeEnumVariantName, SomeEnumVariantName:"
        );
    }

    #[test]
    fn function_literals_are_never_broken() {
        // Breaking inside the parameters or the one-line body would make gofmt print
        // the body on lines of its own.
        let lit =
            "func(x, y *[2]SomeLongTypeName) bool { return bitwire.EqualSlices(x[:], y[:], g) }";
        let text =
            format!("if bitwire.EqualSlices(m.SomeLongField[:], base.SomeLongField[:], {lit}) {{");
        let lines = render(&text, 2);
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert_eq!(lines[1], format!("\t\t\t{lit}) {{"));
    }

    #[test]
    fn breaks_in_deeper_calls_indent_further_as_gofmt_does() {
        let mut e = "err".to_string();
        for k in 0..12 {
            e = format!("bitwire.AtIndex({e}, i{k})");
        }
        let lines = render(&format!("return bitwire.InField({e}, \"lists\")"), 5);
        // Each line is indented once more than the line before it while the calls
        // broken so far are still open.
        let tabs: Vec<usize> = lines
            .iter()
            .map(|l| l.chars().take_while(|c| *c == '\t').count())
            .collect();
        assert!(tabs.len() > 2 && tabs[1] == 6 && tabs[2] == 7, "{lines:#?}");
        // Nothing but the spaces after the commas is lost.
        let one = format!("return bitwire.InField({e}, \"lists\")");
        assert_eq!(
            lines.concat().replace(['\t', ' '], ""),
            one.replace(' ', "")
        );
    }
}
