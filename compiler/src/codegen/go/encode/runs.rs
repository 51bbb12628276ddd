//! Runs on the encoding side: the scalars of a run (fields of the struct and of
//! fixed-width structs nested in it) checked in stream order, then written as one
//! word. The integer and enum checks of a struct's run are one branch-free overflow
//! word and one test; the error itself is found by a `//go:noinline`
//! `writeRangeError` that repeats the checks in stream order, so the hot path stays
//! small. Single-run types also get `AppendTo`'s top-level fast path, which appends
//! the word without a writer.

use super::super::expr::{atom, bin, call, join, paren, E};
use super::super::printer::Printer;
use super::super::scalars::{encode_error, overflow_term, quantizer_input, violation, wire_bits};
use super::super::{f64_lit, naming, Ctx, Gen, Locals};
use crate::ir::TypeId;
use crate::plan::{EncodeCheck, Run, Scalar, ScalarKind};

/// A scalar being written, alone or in a run.
pub struct Member<'p> {
    /// The value (a Go expression).
    pub val: String,
    pub scalar: &'p Scalar,
    /// Bit offset in the run's word.
    pub offset: u32,
    /// Name hint for the local of a quantized integer.
    pub hint: String,
    /// The path of the scalar's errors.
    pub ctx: Ctx,
}

/// The members of a run of struct `id`, with their places under `m`
/// (`m.Buttons.Fire`) and their paths.
pub fn members<'p>(g: &Gen, id: TypeId, run: &'p Run) -> Vec<Member<'p>> {
    run.leaves
        .iter()
        .map(|leaf| Member {
            val: g.leaf_place(id, &leaf.path),
            scalar: &leaf.scalar,
            offset: leaf.offset,
            hint: naming::local(&leaf.names.join("_")),
            ctx: leaf.names.iter().fold(Ctx::default(), |c, n| c.field(n)),
        })
        .collect()
}

/// Where a run is written: through the `BitWriter` (`WritePacked`), or straight into
/// the caller's slice by `AppendTo`'s fast path for single-run types, which has no
/// writer, starts at bit 0 and returns `(dst, err)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sink {
    Writer,
    Top,
}

impl Sink {
    /// A `return` of error expression `e`.
    fn ret(self, e: &str) -> String {
        match self {
            Sink::Writer => format!("return {e}"),
            Sink::Top => format!("return dst, {e}"),
        }
    }

    /// The stream bit of the value at `offset` bits into the run.
    fn bit(self, offset: u32) -> E {
        match (self, offset) {
            (Sink::Writer, 0) => atom("w.BitPos()"),
            (Sink::Writer, o) => bin(atom("w.BitPos()"), "+", atom(o.to_string())),
            (Sink::Top, o) => atom(o.to_string()),
        }
    }
}

/// Prints the check of a member at its offset from the run's start. For a quantized
/// float, also quantizes into a fresh local and returns its name. In a struct's run
/// (`checks` given) a failed check calls the cold `writeRangeError`, which builds the
/// error with the value and its limit: building it inline (a float value and bounds
/// as arguments) measurably slowed the hot path of `Entity` (perf, bench/go).
fn check_member<'p>(
    p: &mut Printer,
    loc: &mut Locals,
    m: &Member<'p>,
    sink: Sink,
    checks: Option<&mut Vec<Check<'p>>>,
) -> Option<String> {
    let quantized = quantized_range(m.scalar);
    let cond = match &quantized {
        Some((lo, hi, _)) => {
            // The range check inline (NaN fails both comparisons), so that the
            // quantizer inlines with constant bounds.
            let x = quantizer_input(float_repr(m.scalar), &m.val);
            Some(format!("!({lo} <= {x} && {x} <= {hi})"))
        }
        None => violation(m.scalar, atom(&m.val)).map(|c| c.text()),
    };
    if let Some(cond) = cond {
        p.open(format!("if {cond} {{"));
        match checks {
            Some(checks) => {
                checks.push(Check::of(m));
                p.line(sink.ret(&format!("m.writeRangeError({})", sink.bit(0).text())));
            }
            None => p.line(
                sink.ret(
                    &m.ctx
                        .wrap(&check_error(m.scalar, &m.val, sink.bit(m.offset))),
                ),
            ),
        }
        p.close("}");
    }
    let (lo, hi, steps) = quantized?;
    let q = loc.fresh(&m.hint);
    let x = quantizer_input(float_repr(m.scalar), &m.val);
    p.line(format!("{q} := bitwire.Quantize({x}, {lo}, {hi}, {steps})"));
    Some(q)
}

/// The bounds (as literals) and step count of a quantized float's encoder check.
fn quantized_range(s: &Scalar) -> Option<(String, String, u64)> {
    match (s.encode, &s.kind) {
        (EncodeCheck::FloatRange { min, max, .. }, ScalarKind::Quantized { steps, .. }) => {
            Some((f64_lit(min), f64_lit(max), *steps))
        }
        _ => None,
    }
}

fn float_repr(s: &Scalar) -> crate::ir::FloatRepr {
    match s.kind {
        ScalarKind::Quantized { repr, .. } | ScalarKind::Float { repr } => repr,
        ref other => unreachable!("not a float: {other:?}"),
    }
}

/// The error of a member `x` that failed its check, at the stream bit `at`: the
/// value and its limit in the detail.
fn check_error(s: &Scalar, x: &str, at: E) -> String {
    match quantized_range(s) {
        Some((lo, hi, _)) => {
            let v = quantizer_input(float_repr(s), x);
            call(
                "bitwire.FloatRangeError",
                vec![at, atom(v), atom(lo), atom(hi)],
            )
            .text()
        }
        None => encode_error(s, atom(x), at).text(),
    }
}

/// Prints a run: the members' checks in stream order, then one write of the word
/// that holds them all (at the top level: the word appended to `dst`). Checks of a
/// struct's run are combined when `checks` is given; it collects the combined
/// members for `writeRangeError`.
pub fn write_run<'p>(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    members: &[Member<'p>],
    bits: u32,
    mut checks: Option<&mut Vec<Check<'p>>>,
    sink: Sink,
) {
    let mut operands = Vec::new();
    let mut checked_upto = 0;
    for (k, m) in members.iter().enumerate() {
        if k >= checked_upto {
            if let Some(checks) = checks.as_deref_mut() {
                checked_upto = combined_checks(g, p, loc, &members[k..], checks, sink) + k;
            }
        }
        let q = if k < checked_upto && !is_quantized(m.scalar) {
            None
        } else {
            check_member(p, loc, m, sink, checks.as_deref_mut())
        };
        if m.scalar.bits == 0 {
            continue;
        }
        let x = wire_bits(m.scalar, atom(&m.val), q.as_deref());
        operands.push(match m.offset {
            0 => x,
            o => {
                let x = if x.is_operand() { x } else { paren(x) };
                bin(x, "<<", atom(o.to_string()))
            }
        });
    }
    if sink == Sink::Top {
        let word = loc.fresh("word");
        p.line(format!("{word} := {}", join(operands, "|").text()));
        match bits.div_ceil(8) {
            8 => p.line(format!("return bitwire.AppendUint64(dst, {word}), nil")),
            n => p.line(format!("return bitwire.AppendWord(dst, {word}, {n}), nil")),
        }
        return;
    }
    match operands.len() {
        0 => {}
        1 if members.len() == 1 => write_single(p, &members[0], operands.remove(0), bits),
        _ => {
            let word = loc.fresh("word");
            p.line(format!("{word} := {}", join(operands, "|").text()));
            if bits == 64 {
                p.line(format!("w.WriteWord({word})"));
            } else {
                p.line(format!("w.WriteBits({word}, {bits})"));
            }
        }
    }
}

fn is_quantized(s: &Scalar) -> bool {
    matches!(s.kind, ScalarKind::Quantized { .. })
}

/// A checked member of a struct's run, checked again by `writeRangeError`.
pub struct Check<'p> {
    val: String,
    scalar: &'p Scalar,
    ctx: Ctx,
    offset: u32,
}

impl<'p> Check<'p> {
    fn of(m: &Member<'p>) -> Check<'p> {
        Check {
            val: m.val.clone(),
            scalar: m.scalar,
            ctx: m.ctx.clone(),
            offset: m.offset,
        }
    }
}

/// For two or more checked members at the start of `members` (up to the first
/// quantized float, whose check keeps its place in stream order; members that cannot
/// fail are skipped), prints one branch-free test of all of them: an overflow word
/// that is zero exactly when every member is encodable ([`overflow_term`]) and one
/// well-predicted branch to `writeRangeError`, which finds the first failing member.
/// Returns how many members it covered (0 when it printed nothing) and adds the
/// checked ones to `checks`.
fn combined_checks<'p>(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    members: &[Member<'p>],
    checks: &mut Vec<Check<'p>>,
    sink: Sink,
) -> usize {
    let group = members
        .iter()
        .position(|m| is_quantized(m.scalar))
        .unwrap_or(members.len());
    let checked: Vec<usize> = (0..group)
        .filter(|&i| overflow_term(g, members[i].scalar, atom("x")).is_some())
        .collect();
    if checked.len() < 2 {
        return 0;
    }
    let terms: Vec<E> = checked
        .iter()
        .map(|&i| {
            let m = &members[i];
            let t = overflow_term(g, m.scalar, atom(&m.val)).expect("a checked member");
            if t.is_operand() || matches!(t, E::Bin(_, ">>", _)) {
                t
            } else {
                paren(t)
            }
        })
        .collect();
    let over = loc.fresh("over");
    p.line("// Every check of the run in one word: a field is encodable iff its term is 0.");
    p.line(format!("{over} := {}", join(terms, "|").text()));
    p.open(format!("if {over} != 0 {{"));
    match sink {
        Sink::Writer => p.line("return m.writeRangeError(w.BitPos())"),
        Sink::Top => p.line("return dst, m.writeRangeError(0)"),
    }
    p.close("}");
    checks.extend(checked.iter().map(|&i| Check::of(&members[i])));
    group
}

/// Prints `writeRangeError`, the error path of every check of a struct's runs: out
/// of line, and given the writer's position rather than the writer, so that
/// `WritePacked` stays small. It repeats the checks in stream order and returns the
/// first failure's error, with the value and its limit.
pub fn range_error_fn(g: &Gen, p: &mut Printer, id: TypeId, checks: &[Check]) {
    let ident = g.ident(id);
    p.blank();
    p.line("// writeRangeError returns the error of the first field that cannot be encoded");
    p.line("// (spec §7.2), for WritePacked when a check of a run failed; at is the");
    p.line("// writer's position at the start of that run. The fields of earlier runs passed");
    p.line("// their checks already.");
    p.line("//");
    p.line("//go:noinline");
    p.open(format!(
        "func (m *{ident}) writeRangeError(at uint64) error {{"
    ));
    let error = |c: &Check| {
        let at = match c.offset {
            0 => atom("at"),
            o => bin(atom("at"), "+", atom(o.to_string())),
        };
        c.ctx.wrap(&check_error(c.scalar, &c.val, at))
    };
    let (last, rest) = checks.split_last().expect("a check");
    for c in rest {
        let cond = match quantized_range(c.scalar) {
            Some((lo, hi, _)) => {
                let x = quantizer_input(float_repr(c.scalar), &c.val);
                format!("!({lo} <= {x} && {x} <= {hi})")
            }
            None => violation(c.scalar, atom(&c.val))
                .expect("a checked member")
                .text(),
        };
        p.open(format!("if {cond} {{"));
        p.line(format!("return {}", error(c)));
        p.close("}");
    }
    p.line("// The last check: a check failed and every check above passed.");
    p.line(format!("return {}", error(last)));
    p.close("}");
}

/// Writes a lone scalar with the most readable runtime call.
fn write_single(p: &mut Printer, m: &Member, bits_expr: E, bits: u32) {
    use crate::ir::FloatRepr;
    match m.scalar.kind {
        ScalarKind::Bool => p.line(format!("w.WriteBool({})", m.val)),
        ScalarKind::SInt { repr } => {
            let x = super::super::scalars::to_i64(atom(&m.val), repr).text();
            p.line(format!("w.WriteInt({x}, {bits})"));
        }
        ScalarKind::Float {
            repr: FloatRepr::F32,
        } => p.line(format!("w.WriteF32({})", m.val)),
        ScalarKind::Float {
            repr: FloatRepr::F64,
        } => p.line(format!("w.WriteF64({})", m.val)),
        _ => {
            let c = call("w.WriteBits", vec![bits_expr, atom(bits.to_string())]);
            p.line(c.text());
        }
    }
}

/// Prints the body of `AppendTo` for a single-run type: the run's checks and word,
/// appended to `dst` with no writer (see the runtime's word.go). At the top level
/// the run starts at bit 0, so bit offsets are the run's own.
pub fn append_fast(g: &Gen, p: &mut Printer, id: TypeId, run: &Run) {
    let mut loc = Locals::new(&["m", "dst"]);
    let members = members(g, id, run);
    let mut checks = Vec::new();
    write_run(
        g,
        p,
        &mut loc,
        &members,
        run.bits,
        Some(&mut checks),
        Sink::Top,
    );
}
