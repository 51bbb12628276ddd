//! What the delta encoding (spec §12) needs of every struct and union a `delta
//! message` reaches: `checkWire` (the full encoder's checks, §12.7: the encoder checks
//! both the baseline's and the value's field before comparing them), `wireEqual` (two
//! values have the same full encoding, §12.2: scalars compared by wire value, so
//! `-0.0` and `0.0` differ and two floats quantizing to the same step are equal) and
//! `copyFrom` (a deep copy sharing no memory: how the decoder keeps the unchanged
//! parts of the baseline).

use super::expr::{atom, bin, call, func, paren, unary, E};
use super::printer::Printer;
use super::scalars::{encode_error, quantizer_input, violation, wire_bits};
use super::{f64_lit, Ctx, Gen, Locals};
use crate::ir::TypeId;
use crate::plan::{Body, EncodeCheck, Form, Lang, Node, Op, Scalar, ScalarKind};

/// A Go place: a value (`m.Pos`, `v[i]`) or a pointer to one (`x`, in the element
/// functions given to `bitwire.EqualSlices`).
#[derive(Debug, Clone)]
pub enum Place {
    Val(String),
    Ptr(String),
}

impl Place {
    /// The value: `m.Pos`, `*x`.
    fn val(&self) -> String {
        match self {
            Place::Val(v) => v.clone(),
            Place::Ptr(p) => format!("*{p}"),
        }
    }

    /// The address: `&m.Pos`, `x`.
    fn addr(&self) -> String {
        match self {
            Place::Val(v) => format!("&{v}"),
            Place::Ptr(p) => p.clone(),
        }
    }

    /// A field or selector of the value: `m.Pos.Set`, `x.Set`.
    fn sel(&self, name: &str) -> String {
        match self {
            Place::Val(v) | Place::Ptr(v) => format!("{v}.{name}"),
        }
    }

    /// The value as a slice (an array sliced whole): `m.Path[:]`, `x[:]`.
    fn slice(&self) -> String {
        match self {
            Place::Val(v) | Place::Ptr(v) => format!("{v}[:]"),
        }
    }
}

/// The negation of a condition, printed as a person would: `a != b` for `a == b`.
pub fn not(e: E) -> E {
    match e {
        E::Bin(x, "==", y) => E::Bin(x, "!=", y),
        E::Unary("!", x) => *x,
        e if e.is_operand() => unary("!", e),
        e => unary("!", paren(e)),
    }
}

/// The integer `q` of a quantized float `x` (no range check: garbage for a value
/// outside the range, which only an invalid baseline holds).
pub fn quantize(s: &Scalar, x: &str) -> E {
    let ScalarKind::Quantized {
        repr,
        min,
        max,
        steps,
        ..
    } = s.kind
    else {
        unreachable!("not quantized")
    };
    call(
        "bitwire.Quantize",
        vec![
            atom(quantizer_input(repr, x)),
            atom(f64_lit(min)),
            atom(f64_lit(max)),
            atom(steps.to_string()),
        ],
    )
}

/// The wire value (a `uint64`) of a scalar `x` whose checks are not made: the
/// baseline's, on the decoding side.
pub fn raw_wire(s: &Scalar, x: &str) -> E {
    match s.kind {
        ScalarKind::Quantized { .. } => quantize(s, x),
        _ => wire_bits(s, atom(x), None),
    }
}

/// Whether two values of a scalar have the same wire value.
fn scalar_eq(s: &Scalar, a: &str, b: &str) -> E {
    match s.kind {
        _ if s.bits == 0 => atom("true"),
        ScalarKind::Float { .. } => bin(raw_wire(s, a), "==", raw_wire(s, b)),
        // Equal floats (-0.0 and 0.0 included) have the same q: quantize only when
        // they differ.
        ScalarKind::Quantized { .. } => bin(
            bin(atom(a), "==", atom(b)),
            "||",
            bin(raw_wire(s, a), "==", raw_wire(s, b)),
        ),
        _ => bin(atom(a), "==", atom(b)),
    }
}

/// A Go boolean expression: whether the values at `a` and `b` of `node` have the
/// same full encoding.
pub fn eq_expr(g: &Gen, node: &Node, a: &Place, b: &Place) -> E {
    if node.is_zero_width() {
        return atom("true");
    }
    match &node.op {
        Op::Scalar(s) => scalar_eq(s, &a.val(), &b.val()),
        Op::Varint(_) | Op::String(_) => bin(atom(a.val()), "==", atom(b.val())),
        Op::Bytes(_) => bin(
            call("string", vec![atom(a.val())]),
            "==",
            call("string", vec![atom(b.val())]),
        ),
        Op::Optional(inner) => {
            let (sa, sb) = (a.sel("Set"), b.sel("Set"));
            let inner = eq_expr(
                g,
                inner,
                &Place::Val(a.sel("Value")),
                &Place::Val(b.sel("Value")),
            );
            let set = bin(atom(&sa), "==", atom(sb));
            let body = bin(unary("!", atom(sa)), "||", inner);
            bin(set, "&&", paren(body))
        }
        Op::Array(arr) => match arr.form {
            Form::Bytes => bin(atom(a.val()), "==", atom(b.val())),
            _ => slices_eq(g, &arr.elem, atom(a.slice()), atom(b.slice())),
        },
        Op::List(l) => match l.form {
            Form::Bytes => bin(
                call("string", vec![atom(a.val())]),
                "==",
                call("string", vec![atom(b.val())]),
            ),
            _ => slices_eq(g, &l.elem, atom(a.val()), atom(b.val())),
        },
        Op::Named(_) => call(a.sel("wireEqual"), vec![atom(b.addr())]),
    }
}

/// `bitwire.EqualSlices(a, b, f)` with the element function `f`: a named type's
/// `wireEqual` method, or a function literal.
fn slices_eq(g: &Gen, elem: &Node, a: E, b: E) -> E {
    let f = match &elem.op {
        Op::Named(id) => atom(format!("(*{}).wireEqual", g.ident(*id))),
        _ => {
            let ty = g.go_type(elem);
            let (x, y) = (Place::Ptr("x".into()), Place::Ptr("y".into()));
            func(format!("func(x, y *{ty}) bool"), eq_expr(g, elem, &x, &y))
        }
    };
    call("bitwire.EqualSlices", vec![a, b, f])
}

/// Prints `checkWire` and `wireEqual` (when the delta code checks the type; no
/// `wireEqual` for a zero-width type, which is never compared) and `copyFrom` of
/// struct or union `id`.
pub fn eq_and_copy(g: &Gen, p: &mut Printer, id: TypeId) {
    if g.delta_referred[id] {
        check_fn(g, p, id);
        if !g.plan.get(id).is_zero_width() {
            eq_fn(g, p, id);
        }
    }
    copy_fn(g, p, id);
}

/// Prints `wireEqual` of struct or union `id`.
fn eq_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    p.blank();
    p.line("// wireEqual reports whether m and o have the same full encoding (spec §12.2),");
    p.line("// comparing wire values: the delta encoder's test for an unchanged value.");
    p.open(format!("func (m *{ident}) wireEqual(o *{ident}) bool {{"));
    match &g.plan.get(id).body {
        Body::Struct(s) => {
            let tests: Vec<E> = s
                .fields
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let member = &g.names.types[id].members[i];
                    let (a, b) = (format!("m.{member}"), format!("o.{member}"));
                    eq_expr(g, &f.node, &Place::Val(a), &Place::Val(b))
                })
                .filter(|e| *e != atom("true"))
                .collect();
            // One test is returned as it is (staticcheck's S1008 asks for that).
            if let [only] = tests.as_slice() {
                p.line(format!("return {}", only.text()));
            } else {
                for e in tests {
                    p.open(format!("if {} {{", not(e).text()));
                    p.line("return false");
                    p.close("}");
                }
                p.line("return true");
            }
        }
        Body::Union(u) => {
            p.open("if m.Tag != o.Tag {");
            p.line("return false");
            p.close("}");
            let names = &g.names.types[id];
            let arms: Vec<_> = u
                .arms
                .iter()
                .enumerate()
                .filter_map(|(k, a)| a.payload.as_ref().map(|n| (k, n)))
                .filter(|(_, n)| !n.is_zero_width())
                .collect();
            if arms.is_empty() {
                p.line("return true");
            } else {
                p.open("switch m.Tag {");
                for (k, node) in arms {
                    let field = &names.members[k];
                    p.middle(format!("case {}:", names.tags[k]));
                    let (a, b) = (format!("m.{field}"), format!("o.{field}"));
                    let e = eq_expr(g, node, &Place::Val(a), &Place::Val(b));
                    p.line(format!("return {}", e.text()));
                }
                p.close("}");
                p.line("return true");
            }
        }
        Body::Enum(_) => unreachable!("enums are scalars"),
    }
    p.close("}");
}

/// Prints `copyFrom` of struct or union `id`.
fn copy_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    let names = &g.names.types[id];
    p.blank();
    p.line("// copyFrom sets m to a deep copy of src, reusing m's slices and sharing no");
    p.line("// memory with src: how a delta decoder keeps what did not change.");
    p.open(format!("func (m *{ident}) copyFrom(src *{ident}) {{"));
    let mut loc = Locals::new(&["m", "src"]);
    match &g.plan.get(id).body {
        Body::Struct(s) => {
            for (i, f) in s.fields.iter().enumerate() {
                let member = &names.members[i];
                let (d, s) = (format!("m.{member}"), format!("src.{member}"));
                copy_value(g, p, &mut loc, &f.node, &d, &s);
            }
        }
        Body::Union(u) => {
            p.open("switch src.Tag {");
            for (k, arm) in u.arms.iter().enumerate() {
                let (field, tag) = (&names.members[k], &names.tags[k]);
                p.middle(format!("case {tag}:"));
                match &arm.payload {
                    Some(node) => {
                        // Zero the other variants, keep this one's slices for reuse.
                        p.line(format!("*m = {ident}{{Tag: {tag}, {field}: m.{field}}}"));
                        let (d, s) = (format!("m.{field}"), format!("src.{field}"));
                        copy_value(g, p, &mut loc, node, &d, &s);
                    }
                    None => p.line(format!("*m = {ident}{{Tag: {tag}}}")),
                }
            }
            p.middle("default:");
            p.line(format!("*m = {ident}{{Tag: src.Tag}}"));
            p.close("}");
        }
        Body::Enum(_) => unreachable!("enums are scalars"),
    }
    p.close("}");
}

/// Prints the deep copy of the value at `src` into `dst` (the baseline a decoder
/// holds is a decoded value, so a copy is what decoding its encoding gives).
pub fn copy_value(g: &Gen, p: &mut Printer, loc: &mut Locals, node: &Node, dst: &str, src: &str) {
    match &node.op {
        Op::Scalar(_) | Op::Varint(_) | Op::String(_) => p.line(format!("{dst} = {src}")),
        Op::Bytes(_) => p.line(format!("{dst} = append({dst}[:0], {src}...)")),
        Op::Optional(inner) => {
            p.open(format!("if {src}.Set {{"));
            p.line(format!("{dst}.Set = true"));
            copy_value(
                g,
                p,
                loc,
                inner,
                &format!("{dst}.Value"),
                &format!("{src}.Value"),
            );
            p.middle("} else {");
            p.line(format!("{dst} = {}{{}}", g.go_type(node)));
            p.close("}");
        }
        Op::Array(a) if a.form == Form::Bytes => p.line(format!("{dst} = {src}")),
        Op::Array(a) => {
            let i = loc.fresh("i");
            p.open(format!("for {i} := range {dst} {{"));
            copy_value(
                g,
                p,
                loc,
                &a.elem,
                &format!("{dst}[{i}]"),
                &format!("{src}[{i}]"),
            );
            p.close("}");
        }
        Op::List(l) => match (l.form, &l.elem.op) {
            (Form::Bytes, _) => p.line(format!("{dst} = append({dst}[:0], {src}...)")),
            (Form::Lanes { .. }, _) => p.line(format!("{dst} = append({dst}[:0], {src}...)")),
            _ => {
                p.line(format!("{dst} = bitwire.Resize({dst}, len({src}))"));
                let i = loc.fresh("i");
                p.open(format!("for {i} := range {dst} {{"));
                let (d, s) = (format!("{dst}[{i}]"), format!("{src}[{i}]"));
                copy_value(g, p, loc, &l.elem, &d, &s);
                p.close("}");
            }
        },
        Op::Named(_) => p.line(format!("{dst}.copyFrom(&{src})")),
    }
}

/// Prints `checkWire` of struct or union `id`: the full encoder's checks, in its
/// order, without writing.
fn check_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    let names = &g.names.types[id];
    p.blank();
    p.line("// checkWire returns the error the full encoder would return for m (spec");
    p.line("// §12.7: the delta encoder checks the baseline's and the value's fields before");
    p.line("// comparing them), with bit 0: encoder errors of a delta have no bit offset.");
    p.open(format!("func (m *{ident}) checkWire() error {{"));
    let mut loc = Locals::new(&["m"]);
    match &g.plan.get(id).body {
        Body::Struct(s) => {
            for (i, f) in s.fields.iter().enumerate() {
                let ctx = Ctx::default().field(&f.name);
                check_value(
                    g,
                    p,
                    &mut loc,
                    &ctx,
                    &f.node,
                    &format!("m.{}", names.members[i]),
                );
            }
        }
        Body::Union(u) => {
            p.open("switch m.Tag {");
            for (k, arm) in u.arms.iter().enumerate() {
                p.middle(format!("case {}:", names.tags[k]));
                if let Some(node) = &arm.payload {
                    let ctx = Ctx::default().field(&arm.name);
                    check_value(
                        g,
                        p,
                        &mut loc,
                        &ctx,
                        node,
                        &format!("m.{}", names.members[k]),
                    );
                }
            }
            p.middle("default:");
            p.line("return bitwire.EnumError(0, uint64(m.Tag))");
            p.close("}");
        }
        Body::Enum(_) => unreachable!("enums are scalars"),
    }
    p.line("return nil");
    p.close("}");
}

/// Prints the full encoder's checks of the value at `v` (§3–§5, in the encoder's
/// order), returning its error at bit 0 with the path of `ctx`.
pub fn check_value(g: &Gen, p: &mut Printer, loc: &mut Locals, ctx: &Ctx, node: &Node, v: &str) {
    let fail = |p: &mut Printer, cond: String, err: E| {
        p.open(format!("if {cond} {{"));
        p.line(format!("return {}", ctx.wrap(&err.text())));
        p.close("}");
    };
    let length = |p: &mut Printer, max: Option<u64>| {
        if let Some(m) = max {
            let n = call("uint64", vec![call("len", vec![atom(v)])]);
            let e = call(
                "bitwire.LengthError",
                vec![atom("0"), n, atom(m.to_string())],
            );
            fail(p, format!("uint64(len({v})) > {m}"), e);
        }
    };
    match &node.op {
        Op::Scalar(s) => match (s.encode, &s.kind) {
            (EncodeCheck::FloatRange { min, max, .. }, ScalarKind::Quantized { repr, .. }) => {
                let x = quantizer_input(*repr, v);
                let (lo, hi) = (f64_lit(min), f64_lit(max));
                let e = call(
                    "bitwire.FloatRangeError",
                    vec![atom("0"), atom(&x), atom(&lo), atom(&hi)],
                );
                fail(p, format!("!({lo} <= {x} && {x} <= {hi})"), e);
            }
            _ => {
                if let Some(cond) = violation(s, atom(v)) {
                    fail(p, cond.text(), encode_error(s, atom(v), atom("0")));
                }
            }
        },
        Op::Varint(_) => {}
        Op::Optional(inner) => {
            if inner.encode_can_fail(Lang::GO) {
                p.open(format!("if {v}.Set {{"));
                check_value(g, p, loc, ctx, inner, &format!("{v}.Value"));
                p.close("}");
            }
        }
        Op::Array(a) => check_elements(g, p, loc, ctx, &a.elem, v),
        Op::List(l) => {
            length(p, l.length.max);
            check_elements(g, p, loc, ctx, &l.elem, v);
        }
        Op::String(len) => {
            length(p, len.max);
            p.open(format!(
                "if err := bitwire.CheckUTF8({v}, 0); err != nil {{"
            ));
            p.line(format!("return {}", ctx.wrap("err")));
            p.close("}");
        }
        Op::Bytes(len) => length(p, len.max),
        Op::Named(_) => {
            p.open(format!("if err := {v}.checkWire(); err != nil {{"));
            p.line(format!("return {}", ctx.wrap("err")));
            p.close("}");
        }
    }
}

/// Prints the checks of every element of an array or list that can fail one.
fn check_elements(g: &Gen, p: &mut Printer, loc: &mut Locals, ctx: &Ctx, elem: &Node, v: &str) {
    if !elem.encode_can_fail(Lang::GO) {
        return;
    }
    let i = loc.fresh("i");
    p.open(format!("for {i} := range {v} {{"));
    check_value(g, p, loc, &ctx.index(&i), elem, &format!("{v}[{i}]"));
    p.close("}");
}
