//! Runs: the scalars of a run checked in stream order, then placed into one or two
//! 32-bit words with constant shifts and written at once. The plain checks of a run
//! (types and integer ranges) are one condition with one well-predicted branch to a
//! cold `xRangeError` that finds the first failing scalar; a lone scalar is a run of
//! one.

use crate::codegen::ts::bits::{self, Piece, Raw};
use crate::codegen::ts::exprs::{violation, violation_error, wire_raw};
use crate::codegen::ts::printer::Printer;
use crate::codegen::ts::{f64_lit, int_lit, path_args, round_to, Gen, Locals};
use crate::ir::{FloatRepr, TypeId};
use crate::plan::{Scalar, ScalarKind};

/// A scalar being written, alone or in a run.
pub(crate) struct Member<'p> {
    /// An expression of the value (`v.health`, `v.buttons.fire`, `item`).
    pub value: String,
    /// The local to bind the value to first, when `value` is a property access.
    pub local: Option<String>,
    pub scalar: &'p Scalar,
    /// Bit offset in the run.
    pub offset: u32,
    /// The path errors carry (from the struct; empty when a `try` adds it).
    pub names: Vec<String>,
    /// The stream bit errors are at, before `offset` is added: the writer's position
    /// (`w.bitPos`), or `0` for a value checked on its own (a delta's baseline).
    pub origin: &'static str,
}

impl Member<'_> {
    /// The bit an error of the member is at: its origin plus its offset.
    fn at(&self) -> String {
        match (self.origin, self.offset) {
            (origin, 0) => origin.to_string(),
            ("0", o) => o.to_string(),
            (origin, o) => format!("{origin} + {o}"),
        }
    }
}

/// The combined plain checks of one struct's write function, for its `xRangeError`.
pub(crate) struct Checks<'p> {
    /// The struct's lower-camel name (`packet64`), which names `packet64RangeError`.
    owner: String,
    list: Vec<Check<'p>>,
}

impl<'p> Checks<'p> {
    pub(crate) fn new(owner: &str) -> Checks<'p> {
        Checks {
            owner: owner.to_string(),
            list: Vec::new(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// A scalar in a combined check, checked again by the cold `xRangeError`.
struct Check<'p> {
    /// The scalar as a property of the value (`v.health`).
    value: String,
    scalar: &'p Scalar,
    names: Vec<String>,
    /// Bit offset in its run.
    offset: u32,
}

/// Prints a run: each member's check in stream order, then its bits placed into one
/// or two 32-bit words written with `writeBits` / `writeWord`. Plain checks of struct
/// fields are combined when `checks` is given. With `whole`, the run is a whole message
/// of at most 64 bits written at bit 0 and the words are returned as its encoding
/// (`return w.wordMessage(...)`); returns whether it printed that return.
pub(crate) fn write_run<'p>(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    members: &[Member<'p>],
    bits: u32,
    mut checks: Option<&mut Checks<'p>>,
    whole: bool,
) -> bool {
    let xs: Vec<String> = members
        .iter()
        .map(|m| match &m.local {
            Some(l) if m.value.contains('.') => {
                p.line(format!("const {l} = {};", m.value));
                l.clone()
            }
            _ => m.value.clone(),
        })
        .collect();
    if let [m] = members {
        if m.scalar.kind
            == (ScalarKind::Float {
                repr: FloatRepr::F64,
            })
        {
            // A lone f64: checked, then written as its two halves.
            checked_raw(g, p, locals, m, &xs[0], false);
            p.line(format!("w.writeF64({});", xs[0]));
            return false;
        }
    }
    let mut pieces = Vec::new();
    let mut covered = 0;
    for (k, (m, x)) in members.iter().zip(&xs).enumerate() {
        if k >= covered {
            if let Some(checks) = checks.as_deref_mut() {
                covered = combined_check(p, &members[k..], &xs[k..], checks) + k;
            }
        }
        if let Some((expr, raw, clean)) = checked_raw(g, p, locals, m, x, k < covered) {
            pieces.extend(split(p, locals, &expr, raw, clean, m.offset, m.scalar.bits));
        } else if matches!(
            m.scalar.kind,
            ScalarKind::Float {
                repr: FloatRepr::F64
            }
        ) {
            pieces.push(piece(format!("bw.f64LoBits({x})"), 32, m.offset));
            pieces.push(piece("bw.f64HiBits()".into(), 32, m.offset + 32));
        }
    }
    if bits == 0 {
        return false;
    }
    let (lo, hi) = bits::words(&pieces);
    if bits <= 32 {
        let lo = word_expr(p, locals, lo, "word");
        if whole {
            p.line(format!("return w.wordMessage({lo}, 0, {bits});"));
        } else {
            p.line(format!("w.writeBits({lo}, {bits});"));
        }
    } else {
        let lo = word_expr(p, locals, lo, "lo");
        let hi = word_expr(p, locals, hi, "hi");
        let call = |l: &str, h: &str| match whole {
            true => format!("return w.wordMessage({l}, {h}, {bits});"),
            false => format!("w.writeWord({l}, {h}, {bits});"),
        };
        let one = call(&lo, &hi);
        if p.fits(&one) {
            p.line(one);
        } else {
            let (l, h) = (locals.fresh("lo"), locals.fresh("hi"));
            p.line(format!("const {l} = {lo};"));
            p.line(format!("const {h} = {hi};"));
            p.line(call(&l, &h));
        }
    }
    whole
}

fn piece(expr: String, bits: u32, offset: u32) -> Piece {
    Piece {
        expr,
        bits,
        offset,
        clean: true,
    }
}

/// The expression of a run word from its operands: inline when short, else bound to
/// a local printed one operand per line.
fn word_expr(p: &mut Printer, locals: &mut Locals, operands: Vec<String>, base: &str) -> String {
    let mut operands = if operands.is_empty() {
        vec!["0".to_string()]
    } else {
        operands
    };
    if operands.len() == 1 {
        operands[0] = bits::unparen(&operands[0]);
    }
    let joined = operands.join(" | ");
    if joined.len() <= 60 {
        return joined;
    }
    let word = locals.fresh(base);
    p.binary_assign(&format!("const {word} ="), &operands, "|");
    word
}

/// Splits a member's raw bits into 32-bit pieces, binding wide values to a local.
fn split(
    p: &mut Printer,
    locals: &mut Locals,
    expr: &str,
    raw: Raw,
    clean: bool,
    offset: u32,
    bits: u32,
) -> Vec<Piece> {
    if bits == 0 {
        return Vec::new();
    }
    let piece = |expr: String, bits, offset| Piece {
        expr,
        bits,
        offset,
        clean,
    };
    match raw {
        Raw::N32 => vec![piece(expr.to_string(), bits, offset)],
        Raw::N53 | Raw::Big => {
            let l = if bits::is_simple(expr) && !expr.contains('(') {
                expr.to_string()
            } else {
                let l = locals.fresh("raw");
                p.line(format!("const {l} = {expr};"));
                l
            };
            let (low, high) = if raw == Raw::N53 {
                (
                    format!("{l} >>> 0"),
                    format!("Math.floor({l} / 4294967296)"),
                )
            } else {
                (
                    format!("Number({l} & 0xffffffffn)"),
                    format!("Number({l} >> 32n)"),
                )
            };
            vec![piece(low, 32, offset), piece(high, bits - 32, offset + 32)]
        }
    }
}

/// Prints `if (cond) { throw err; }`.
fn fail(p: &mut Printer, cond: &str, err: &str) {
    p.open_if(cond);
    p.line(format!("throw {err};"));
    p.close("}");
}

/// Prints the checks of a run member whose value is in `x` (its plain check only when
/// not `in_combined`) and returns its raw bits: the expression, how it is held and
/// whether it has no bits above its width. `None` for zero-width members and for an
/// `f64`, which is written as its two halves.
pub(crate) fn checked_raw(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    m: &Member,
    x: &str,
    in_combined: bool,
) -> Option<(String, Raw, bool)> {
    let s = m.scalar;
    let kind = s.wrong_type_kind();
    if let Some(cond) = violation(s, x) {
        if !in_combined {
            fail(p, &cond, &violation_error(s, x, &m.at(), &m.names, kind));
        }
        let f64 = matches!(
            s.kind,
            ScalarKind::Float {
                repr: FloatRepr::F64
            }
        );
        return (s.bits > 0 && !f64).then(|| wire_raw(s, x, None));
    }
    let q = match s.kind {
        ScalarKind::Quantized { .. } => quantized(p, locals, m, x),
        ScalarKind::Enum { id, .. } => {
            let t = locals.fresh("tag");
            let big = g.enum_big(id);
            p.line(format!("const {t} = {}Tag({x});", g.names.types[id].lower));
            let err = format!("bw.enumError({}, {x}{})", m.at(), path_args(&m.names));
            fail(p, &format!("{t} < {}", int_lit(0, big)), &err);
            if big && !crate::codegen::ts::big_bits(s.bits) {
                format!("Number({t})")
            } else {
                t
            }
        }
        ref other => unreachable!("a scalar without a plain check: {other:?}"),
    };
    (s.bits > 0).then(|| wire_raw(s, x, Some(&q)))
}

/// Prints `head cond ? then : other;` as Prettier lays it out: on one line, else the
/// expression on the next, else one branch per line.
fn ternary(p: &mut Printer, head: &str, cond: &str, then: &str, other: &str) {
    let expr = format!("{cond} ? {then} : {other};");
    if p.fits(&format!("{head} {expr}")) {
        p.line(format!("{head} {expr}"));
        return;
    }
    p.line(head);
    if p.fits(&format!("  {expr}")) {
        p.line(format!("  {expr}"));
        return;
    }
    p.line(format!("  {cond}"));
    p.line(format!("    ? {then}"));
    p.line(format!("    : {other};"));
}

/// Prints the quantization of the quantized float in `x` (§4.3) and its check, and
/// returns the local holding the stored integer. Grids of up to 2^53 steps have the
/// arithmetic written out (`max - min` folded here): no call, and a smaller write
/// function, which the engines then inline whole (V8 inlines within a bytecode
/// budget). The type check keeps a string out of the comparisons, which would convert
/// it.
fn quantized(p: &mut Printer, locals: &mut Locals, m: &Member, x: &str) -> String {
    let ScalarKind::Quantized {
        repr,
        min,
        max,
        steps,
        ..
    } = m.scalar.kind
    else {
        unreachable!("a quantized float")
    };
    let q = locals.fresh("q");
    let v = round_to(repr, x);
    let (lo, hi) = (f64_lit(min), f64_lit(max));
    let err = format!(
        "bw.floatRangeError({}, {x}, {lo}, {hi}{})",
        m.at(),
        path_args(&m.names)
    );
    if crate::codegen::ts::big_bits(m.scalar.bits) {
        p.line(format!(
            "const {q} = typeof {x} === \"number\" ? bw.quantizeBig({v}, {lo}, {hi}, {steps}n) : -1n;"
        ));
        fail(p, &format!("{q} < 0n"), &err);
        return q;
    }
    let qv = if repr == FloatRepr::F32 {
        let qv = locals.fresh("qv");
        p.line(format!("const {qv} = {v};"));
        qv
    } else {
        x.to_string()
    };
    let span = f64_lit(max - min);
    let cond = format!("typeof {x} === \"number\" && {lo} <= {qv} && {qv} <= {hi}");
    let then = format!(
        "Math.floor((({qv} - {lo}) / {span}) * {} + 0.5)",
        int_lit(i128::from(steps), false)
    );
    ternary(p, &format!("const {q} ="), &cond, &then, "-1");
    fail(p, &format!("{q} < 0"), &err);
    q
}

/// For two or more plainly checked members at the start of `members` (up to the first
/// quantized float or enum, whose checks keep their place in stream order), prints one
/// test of all of them and one well-predicted branch to the cold `xRangeError`, which
/// finds the first failing member. One branch instead of one per field keeps the write
/// function small enough for the engines to inline it (measured: a 64-bit packet
/// encodes about 30% faster on Node). Returns how many members it covered (0 if it
/// printed nothing) and adds the checked ones to `checks`.
fn combined_check<'p>(
    p: &mut Printer,
    members: &[Member<'p>],
    xs: &[String],
    checks: &mut Checks<'p>,
) -> usize {
    let group = members
        .iter()
        .position(|m| violation(m.scalar, "x").is_none())
        .unwrap_or(members.len());
    if group < 2 {
        return 0;
    }
    let conds: Vec<String> = (0..group)
        .map(|i| violation(members[i].scalar, &xs[i]).expect("a plain check"))
        .collect();
    p.open_if_any(&conds, "||");
    p.line(format!("throw {}RangeError(v, w.bitPos);", checks.owner));
    p.close("}");
    checks.list.extend(members[..group].iter().map(|m| Check {
        value: m.value.clone(),
        scalar: m.scalar,
        names: m.names.clone(),
        offset: m.offset,
    }));
    group
}

/// Prints `xRangeError`, the error path of every combined check of a struct: out of
/// line, and given the writer's position rather than the writer.
pub(crate) fn range_error_fn(g: &Gen, p: &mut Printer, id: TypeId, checks: &Checks) {
    let ident = g.ident(id);
    let lower = &g.names.types[id].lower;
    p.doc(&[vec![
        format!("The error of the first field that cannot be written (spec §7.2), for"),
        format!("`write{ident}` (or `encode{ident}`) when the combined check of a run failed;"),
        "`at` is the writer's position at the start of that run. The fields of earlier".into(),
        "runs passed already.".into(),
    ]]);
    p.open(format!(
        "function {lower}RangeError(v: {ident}, at: number): bw.BitwireError {{"
    ));
    let at = |o: u32| match o {
        0 => "at".to_string(),
        o => format!("at + {o}"),
    };
    let (last, rest) = checks.list.split_last().expect("at least two checks");
    let error = |c: &Check| {
        let kind = c.scalar.wrong_type_kind();
        violation_error(c.scalar, &c.value, &at(c.offset), &c.names, kind)
    };
    for c in rest {
        let cond = violation(c.scalar, &c.value).expect("a plain check");
        p.open_if(&cond);
        p.line(format!("return {};", error(c)));
        p.close("}");
    }
    p.line("// The last check: the combined test failed and every check above passed.");
    p.line(format!("return {};", error(last)));
    p.close("}");
}
