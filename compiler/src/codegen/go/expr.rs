//! Go expressions printed exactly as gofmt prints them.
//!
//! gofmt decides the spaces around a binary operator from the shape of the whole
//! expression (`a | b<<1`, `f(a+b, c)`, `h(a + b)`): the algorithm of `go/printer`'s
//! `binaryExpr`, `cutoff`, `walkBinary` and `diffPrec`, with the depth that call
//! arguments and parentheses change. Generated code builds every expression that
//! holds an operator as an [`E`] tree and prints it with [`E::text`], so the output
//! is already formatted; the golden tests check it against gofmt itself.

/// A Go expression.
#[derive(Debug, Clone, PartialEq)]
pub enum E {
    /// An operand with no operator outside brackets: a name, selector, literal,
    /// index or call written as text.
    Atom(String),
    /// `x op y`.
    Bin(Box<E>, &'static str, Box<E>),
    /// `(x)`.
    Paren(Box<E>),
    /// `fun(args)`; `fun` is a name or selector.
    Call(String, Vec<E>),
    /// `op x` (`!`, `-`, `^`).
    Unary(&'static str, Box<E>),
    /// A function literal `sig { return body }`: `sig` is its signature
    /// (`func(x, y *T) bool`), `body` the expression it returns.
    Func(String, Box<E>),
}

/// A name, selector or literal.
pub fn atom(s: impl Into<String>) -> E {
    E::Atom(s.into())
}

/// `x op y`.
pub fn bin(x: E, op: &'static str, y: E) -> E {
    E::Bin(Box::new(x), op, Box::new(y))
}

/// `(x)`.
pub fn paren(x: E) -> E {
    E::Paren(Box::new(x))
}

/// `fun(args)`.
pub fn call(fun: impl Into<String>, args: Vec<E>) -> E {
    E::Call(fun.into(), args)
}

/// `op x`.
pub fn unary(op: &'static str, x: E) -> E {
    E::Unary(op, Box::new(x))
}

/// The function literal `sig { return body }`.
pub fn func(sig: impl Into<String>, body: E) -> E {
    E::Func(sig.into(), Box::new(body))
}

/// gofmt keeps a function literal's body on the line of its signature when the
/// signature and the body's statements fit in this many columns (go/printer's
/// `funcBody`: the signature from `func` to its end, plus the statement printed on one
/// line, which cannot hold a line break).
const FUNC_ONE_LINE: usize = 100;

/// Operands joined left to right with `op` (`a | b | c` is `(a | b) | c`).
pub fn join(items: Vec<E>, op: &'static str) -> E {
    let mut it = items.into_iter();
    let first = it.next().expect("at least one operand");
    it.fold(first, |acc, x| bin(acc, op, x))
}

/// Go's binary operator precedence (`token.Token.Precedence`).
fn precedence(op: &str) -> i32 {
    match op {
        "||" => 1,
        "&&" => 2,
        "==" | "!=" | "<" | "<=" | ">" | ">=" => 3,
        "+" | "-" | "|" | "^" => 4,
        "*" | "/" | "%" | "<<" | ">>" | "&" | "&^" => 5,
        other => panic!("not a Go binary operator: {other}"),
    }
}

/// `token.UnaryPrec`.
const UNARY_PREC: i32 = 6;
/// `token.LowestPrec`.
const LOWEST_PREC: i32 = 0;

impl E {
    /// The expression as gofmt prints it at the top level of a statement
    /// (assignment right-hand side, condition, return value, call statement).
    pub fn text(&self) -> String {
        let mut out = String::new();
        expr1(&mut out, self, LOWEST_PREC, 1);
        out
    }

    /// Whether the expression is a single operand (no operator outside brackets).
    pub fn is_operand(&self) -> bool {
        matches!(self, E::Atom(_) | E::Call(..) | E::Paren(_) | E::Func(..))
    }
}

/// `walkBinary`: which precedence levels occur in the binary expression tree rooted
/// at `x op y` (not looking inside parentheses), and the cutoff a `*/`, `&&` or `--`
/// style token clash forces.
fn walk_binary(x: &E, op: &str, y: &E) -> (bool, bool, i32) {
    let prec = precedence(op);
    let mut has4 = prec == 4;
    let mut has5 = prec == 5;
    let mut max_problem = 0;
    if let E::Bin(lx, lop, ly) = x {
        if precedence(lop) >= prec {
            let (h4, h5, mp) = walk_binary(lx, lop, ly);
            has4 |= h4;
            has5 |= h5;
            max_problem = max_problem.max(mp);
        }
    }
    match y {
        E::Bin(rx, rop, ry) if precedence(rop) > prec => {
            let (h4, h5, mp) = walk_binary(rx, rop, ry);
            has4 |= h4;
            has5 |= h5;
            max_problem = max_problem.max(mp);
        }
        E::Unary(uop, _) => match format!("{op}{uop}").as_str() {
            "/*" | "&&" | "&^" => max_problem = 5,
            "++" | "--" => max_problem = max_problem.max(4),
            _ => {}
        },
        _ => {}
    }
    (has4, has5, max_problem)
}

/// `cutoff`: operators of a precedence below it get spaces around them.
fn cutoff(x: &E, op: &str, y: &E, depth: i32) -> i32 {
    let (has4, has5, max_problem) = walk_binary(x, op, y);
    if max_problem > 0 {
        return max_problem + 1;
    }
    if has4 && has5 {
        if depth == 1 {
            return 5;
        }
        return 4;
    }
    if depth == 1 {
        6
    } else {
        4
    }
}

/// `diffPrec`: 0 when `e` is a binary expression of precedence `prec`, else 1.
fn diff_prec(e: &E, prec: i32) -> i32 {
    match e {
        E::Bin(_, op, _) if precedence(op) == prec => 0,
        _ => 1,
    }
}

/// `reduceDepth`: parentheses undo one level of depth.
fn reduce_depth(depth: i32) -> i32 {
    (depth - 1).max(1)
}

/// `expr1`.
fn expr1(out: &mut String, e: &E, prec1: i32, depth: i32) {
    match e {
        E::Atom(s) => out.push_str(s),
        E::Bin(x, op, y) => {
            let cut = cutoff(x, op, y, depth);
            binary(out, x, op, y, prec1, cut, depth);
        }
        E::Paren(inner) => {
            if let E::Paren(_) = **inner {
                expr1(out, inner, LOWEST_PREC, depth);
            } else {
                out.push('(');
                expr1(out, inner, LOWEST_PREC, reduce_depth(depth));
                out.push(')');
            }
        }
        E::Call(fun, args) => {
            let depth = if args.len() > 1 { depth + 1 } else { depth };
            out.push_str(fun);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                expr1(out, a, LOWEST_PREC, depth);
            }
            out.push(')');
        }
        E::Func(sig, body) => func_lit(out, sig, body),
        E::Unary(op, x) => {
            if UNARY_PREC < prec1 {
                out.push('(');
                expr1(out, e, LOWEST_PREC, reduce_depth(depth));
                out.push(')');
            } else {
                out.push_str(op);
                expr1(out, x, UNARY_PREC, depth);
            }
        }
    }
}

/// A function literal as gofmt prints it: on one line when it fits (gofmt would
/// break a longer one), else with its `return` statement on a line of its own,
/// indented one tab beyond the line the literal starts on, and the `}` back at that
/// line's indentation. Lines after the first are relative to it: the printer indents
/// them with the statement ([`super::printer::Printer::line`]).
fn func_lit(out: &mut String, sig: &str, body: &E) {
    let stmt = format!("return {}", body.text());
    if !stmt.contains('\n') && sig.len() + stmt.len() <= FUNC_ONE_LINE {
        out.push_str(&format!("{sig} {{ {stmt} }}"));
    } else {
        out.push_str(&format!("{sig} {{\n\t{}\n}}", stmt.replace('\n', "\n\t")));
    }
}

/// `binaryExpr`.
fn binary(out: &mut String, x: &E, op: &str, y: &E, prec1: i32, cut: i32, depth: i32) {
    let prec = precedence(op);
    if prec < prec1 {
        // The tree needs parentheses here that it does not have; print them.
        out.push('(');
        let e = E::Bin(Box::new(x.clone()), leak(op), Box::new(y.clone()));
        expr1(out, &e, LOWEST_PREC, reduce_depth(depth));
        out.push(')');
        return;
    }
    let blank = prec < cut;
    expr1(out, x, prec, depth + diff_prec(x, prec));
    if blank {
        out.push(' ');
    }
    out.push_str(op);
    if blank {
        out.push(' ');
    }
    expr1(out, y, prec + 1, depth + 1);
}

/// The `'static` operator of an operator string (they are all in [`precedence`]).
fn leak(op: &str) -> &'static str {
    const OPS: [&str; 19] = [
        "||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "|", "^", "*", "/", "%", "<<",
        ">>", "&", "&^",
    ];
    OPS.iter().find(|o| **o == op).expect("a Go operator")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> E {
        atom(s)
    }

    #[test]
    fn spaces_follow_gofmt() {
        // a>>4 | b>>2 | uint64(int64(d)+2048)>>12
        let over = join(
            vec![
                bin(a("a"), ">>", a("4")),
                bin(a("b"), ">>", a("2")),
                bin(
                    call(
                        "uint64",
                        vec![bin(call("int64", vec![a("d")]), "+", a("2048"))],
                    ),
                    ">>",
                    a("12"),
                ),
            ],
            "|",
        );
        assert_eq!(over.text(), "a>>4 | b>>2 | uint64(int64(d)+2048)>>12");
        let word = join(
            vec![
                a("a"),
                bin(a("b"), "<<", a("1")),
                bin(paren(bin(a("c"), "&", a("0xf"))), "<<", a("5")),
            ],
            "|",
        );
        assert_eq!(word.text(), "a | b<<1 | (c&0xf)<<5");
        assert_eq!(
            call("g", vec![bin(a("a"), "+", a("b")), a("c")]).text(),
            "g(a+b, c)"
        );
        assert_eq!(call("h", vec![bin(a("a"), "+", a("b"))]).text(), "h(a + b)");
        let cond = bin(
            bin(a("a"), ">", a("5")),
            "||",
            bin(bin(a("b"), "<", a("3")), "&&", bin(a("c"), "==", a("2"))),
        );
        assert_eq!(cond.text(), "a > 5 || b < 3 && c == 2");
        assert_eq!(bin(a("x"), "<<", a("16")).text(), "x << 16");
        assert_eq!(
            bin(paren(bin(a("x"), "&", a("0xfff"))), "<<", a("16")).text(),
            "(x & 0xfff) << 16"
        );
        assert_eq!(unary("!", call("m.V.Valid", vec![])).text(), "!m.V.Valid()");
    }

    #[test]
    fn function_literals_break_where_gofmt_breaks_them() {
        let eq = |ty: &str, body: E| func(format!("func(x, y *{ty}) bool"), body);
        let inner = eq("uint8", bin(a("*x"), "==", a("*y")));
        let short = call("f", vec![a("x[:]"), a("y[:]"), inner.clone()]);
        assert_eq!(
            short.text(),
            "f(x[:], y[:], func(x, y *uint8) bool { return *x == *y })"
        );
        // Signature and statement wider than 100 columns: the body goes on its own
        // line, one tab in, relative to the line the literal starts on.
        let long = "bitwire.EqualSlices";
        let outer = eq("[2]uint8", call(long, vec![a("x[:]"), a("y[:]"), inner]));
        let text = call(long, vec![a("m.A[:]"), a("o.A[:]"), outer.clone()]).text();
        assert_eq!(
            text,
            "bitwire.EqualSlices(m.A[:], o.A[:], func(x, y *[2]uint8) bool {\n\
             \treturn bitwire.EqualSlices(x[:], y[:], func(x, y *uint8) bool { return *x == *y })\n\
             })"
        );
        // A body holding a literal of several lines is never on one line; its lines
        // go one tab further in.
        let text = eq("[2][2]uint8", call(long, vec![a("x[:]"), a("y[:]"), outer])).text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert!(lines[1].starts_with("\treturn ") && lines[2].starts_with("\t\treturn "));
        assert_eq!(lines[3..], ["\t})", "}"]);
    }
}
