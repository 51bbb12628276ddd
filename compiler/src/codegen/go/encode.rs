//! `WritePacked`: the packed encoder of each named type (spec §3–§5).
//!
//! Structs follow the shared chunk plan: each run of fixed-width scalar fields is
//! range checked and then written as one word built with constant shifts; other
//! fields are written one by one. Every check returns the error at the bit where the
//! value would start, with the field path added while the error unwinds. The range
//! checks of a run are one branch-free overflow word and one test; the error itself
//! is found by a `//go:noinline` `writeRangeError` that repeats the checks in field
//! order, so the hot path stays small. Go can hold values Rust's types rule out, so
//! the Go encoder also checks enum values and union tags (`InvalidEnum`) and that
//! strings are UTF-8 (`InvalidUtf8`).

use super::expr::{atom, bin, call, join, paren, unary, E};
use super::printer::Printer;
use super::{int_type, types, Ctx, EnumCheck, Gen, Locals};
use crate::codegen::plan::{self, Step};
use crate::ir::{FloatRepr, IntRepr, LengthEncoding, Type, TypeDefKind, TypeId};

/// Prints the `WritePacked` method of a named type (and `writeRangeError`).
pub fn write_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let names = &g.names.types[id];
    let (recv, r) = types::receiver(g, id);
    p.blank();
    p.line(format!(
        "// WritePacked writes {r}'s bit stream (no padding) at w's position."
    ));
    p.open(format!(
        "func ({recv}) WritePacked(w *bitwire.BitWriter) error {{"
    ));
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            let mut loc = Locals::new(&["m", "w"]);
            let mut checks = Vec::new();
            for step in plan::struct_plan(g.schema, fields) {
                match step {
                    Step::Run(run) => {
                        let members: Vec<Member> = run
                            .fields
                            .iter()
                            .map(|rf| Member {
                                val: format!("m.{}", names.members[rf.index]),
                                ty: &fields[rf.index].ty,
                                offset: rf.offset,
                                bits: rf.bits,
                                hint: names.locals[rf.index].clone(),
                            })
                            .collect();
                        let ctxs: Vec<Ctx> = run
                            .fields
                            .iter()
                            .map(|rf| Ctx::default().field(&fields[rf.index].name))
                            .collect();
                        let sink = Sink::Writer;
                        write_run(
                            g,
                            p,
                            &mut loc,
                            &members,
                            &ctxs,
                            run.bits,
                            Some(&mut checks),
                            sink,
                        );
                    }
                    Step::Field(i) => {
                        let f = &fields[i];
                        let v = format!("m.{}", names.members[i]);
                        write_value(g, p, &mut loc, &Ctx::default().field(&f.name), &f.ty, &v);
                    }
                }
            }
            p.line("return nil");
            p.close("}");
            if !checks.is_empty() {
                range_error_fn(g, p, id, &checks);
            }
        }
        TypeDefKind::Enum {
            packed_tag_bits, ..
        } => {
            if g.enum_check(id) != EnumCheck::Always {
                p.open("if !v.Valid() {");
                p.line("return w.Error(bitwire.InvalidEnum, 0)");
                p.close("}");
            }
            if *packed_tag_bits > 0 {
                p.line(format!("w.WriteBits(uint64(v), {packed_tag_bits})"));
            }
            p.line("return nil");
            p.close("}");
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            let mut loc = Locals::new(&["m", "w"]);
            p.open("switch m.Tag {");
            for ((v, field), tag) in variants.iter().zip(&names.members).zip(&names.tags) {
                p.middle(format!("case {tag}:"));
                if *packed_tag_bits > 0 {
                    p.line(format!("w.WriteBits({}, {packed_tag_bits})", v.tag));
                }
                if let Some(ty) = &v.payload {
                    let ctx = Ctx::default().field(&v.name);
                    write_value(g, p, &mut loc, &ctx, ty, &format!("m.{field}"));
                }
            }
            p.middle("default:");
            p.line("return w.Error(bitwire.InvalidEnum, 0)");
            p.close("}");
            p.line("return nil");
            p.close("}");
        }
    }
}

/// Whether writing a value of `ty` can fail (loops only number their elements when
/// it can, for the path).
fn can_fail(g: &Gen, ty: &Type) -> bool {
    match ty {
        Type::Bool | Type::Float { .. } | Type::VarUInt { .. } | Type::VarSInt { .. } => false,
        Type::UInt { .. } | Type::SInt { .. } | Type::Bounded { .. } => {
            violation(g, ty, atom("x")).is_some()
        }
        Type::Quantized { .. } | Type::String { .. } => true,
        Type::Optional { inner } => can_fail(g, inner),
        Type::Array { elem, .. } => can_fail(g, elem),
        Type::List { elem, max, .. } => max.is_some() || can_fail(g, elem),
        Type::Bytes { max, .. } => max.is_some(),
        Type::Named { id, .. } => match g.enum_of(ty) {
            Some(_) => g.enum_check(*id) != EnumCheck::Always,
            None => true,
        },
    }
}

/// `uint64(x)` (or `x` when it already is one).
fn to_u64(x: E, repr: IntRepr) -> E {
    if repr == IntRepr::U64 {
        x
    } else {
        call("uint64", vec![x])
    }
}

/// `int64(x)` (or `x` when it already is one).
fn to_i64(x: E, repr: IntRepr) -> E {
    if repr == IntRepr::I64 {
        x
    } else {
        call("int64", vec![x])
    }
}

/// The range of a Go integer type.
fn repr_range(repr: IntRepr) -> (i128, i128) {
    let bits = repr.bits();
    if repr.signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// `x - min` as a `uint64` computed modulo 2^64 (Go's integer arithmetic wraps): the
/// offset of a value in its range, and more than `max - min` for any value outside
/// it, whatever the types.
fn offset_expr(x: E, repr: IntRepr, min: i128) -> E {
    let u = to_u64(x, repr);
    match min {
        0 => u,
        m if m > 0 => bin(u, "-", atom(m.to_string())),
        m => bin(u, "+", atom((-m).to_string())),
    }
}

/// The condition under which a scalar is not encodable, and the error kind, if it
/// can be: out of range for integers, undeclared for enums.
fn violation(g: &Gen, ty: &Type, x: E) -> Option<(E, &'static str)> {
    let range = |lo: i128, hi: i128, repr: IntRepr| -> Option<E> {
        let (rlo, rhi) = repr_range(repr);
        match (lo <= rlo, hi >= rhi) {
            _ if lo == hi => Some(bin(x.clone(), "!=", atom(lo.to_string()))),
            (true, true) => None,
            (true, false) => Some(bin(x.clone(), ">", atom(hi.to_string()))),
            (false, true) => Some(bin(x.clone(), "<", atom(lo.to_string()))),
            (false, false) => Some(bin(
                bin(x.clone(), "<", atom(lo.to_string())),
                "||",
                bin(x.clone(), ">", atom(hi.to_string())),
            )),
        }
    };
    match ty {
        Type::UInt { bits, repr } if *bits < repr.bits() => {
            range(0, (1i128 << bits) - 1, *repr).map(|c| (c, "OutOfRange"))
        }
        Type::SInt { bits, repr } if *bits < repr.bits() => {
            let half = 1i128 << (bits - 1);
            range(-half, half - 1, *repr).map(|c| (c, "OutOfRange"))
        }
        Type::Bounded { repr, min, max, .. } => range(*min, *max, *repr).map(|c| (c, "OutOfRange")),
        Type::Named { id, .. } if g.enum_of(ty).is_some() => {
            if g.enum_check(*id) == EnumCheck::Always {
                return None;
            }
            let valid = call(format!("{}.Valid", x.text()), vec![]);
            Some((unary("!", valid), "InvalidEnum"))
        }
        _ => None,
    }
}

/// A `uint64` that is zero exactly when the scalar `x` is encodable, for the types
/// that [`violation`] checks (`None` for the others): the bits of `x`'s offset in its
/// range above the range's width, or a comparison as 0 / 1 when the range is not a
/// power of two wide. Branch-free, so that the terms of a run can be ORed into one
/// word and tested once.
fn overflow_term(g: &Gen, ty: &Type, x: E) -> Option<E> {
    let bit = |c: E| call("bitwire.Bit", vec![c]);
    match ty {
        Type::UInt { bits, repr } if *bits < repr.bits() => {
            Some(bin(to_u64(x, *repr), ">>", atom(bits.to_string())))
        }
        Type::SInt { bits, repr } if *bits < repr.bits() => {
            // x + 2^(N-1) is in 0..2^N exactly when x is in range; computed modulo
            // 2^64 it is at least 2^N otherwise.
            let half = atom((1i128 << (bits - 1)).to_string());
            let shifted = call("uint64", vec![bin(to_i64(x, *repr), "+", half)]);
            Some(bin(shifted, ">>", atom(bits.to_string())))
        }
        Type::Bounded { repr, min, max, .. } => {
            let (lo, hi) = repr_range(*repr);
            if min == max {
                return Some(bit(bin(x, "!=", atom(min.to_string()))));
            }
            if *min <= lo && *max >= hi {
                return None;
            }
            let span = max - min;
            if (span + 1).count_ones() == 1 {
                let off = offset_expr(x, *repr, *min);
                let off = if off.is_operand() { off } else { paren(off) };
                return Some(bin(
                    off,
                    ">>",
                    atom((span + 1).trailing_zeros().to_string()),
                ));
            }
            Some(bit(match (*min <= lo, *max >= hi) {
                (true, _) => bin(x, ">", atom(max.to_string())),
                (_, true) => bin(x, "<", atom(min.to_string())),
                _ => bin(offset_expr(x, *repr, *min), ">", atom(span.to_string())),
            }))
        }
        Type::Named { id, .. } if g.enum_of(ty).is_some() => match g.enum_check(*id) {
            EnumCheck::Always => None,
            EnumCheck::Bits(0) => Some(call("uint64", vec![x])),
            EnumCheck::Bits(b) => Some(bin(call("uint64", vec![x]), ">>", atom(b.to_string()))),
            EnumCheck::AtMost(max) => Some(bit(bin(x, ">", atom(max.to_string())))),
            EnumCheck::Sparse => Some(bit(unary("!", call(format!("{}.Valid", x.text()), vec![])))),
        },
        _ => None,
    }
}

/// A scalar in a run.
struct Member<'t> {
    /// The value (a Go expression).
    val: String,
    ty: &'t Type,
    /// Bit offset in the run's word.
    offset: u32,
    bits: u32,
    /// Name hint for the local of a quantized integer.
    hint: String,
}

/// A struct field in a combined range check, checked again by `writeRangeError`.
struct Check<'t> {
    val: String,
    ty: &'t Type,
    ctx: Ctx,
    offset: u32,
}

/// Where a run is written: through the `BitWriter` (`WritePacked`), or straight
/// into the caller's slice by `AppendTo`'s fast path for single-run types, which
/// has no writer and returns `(dst, err)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sink {
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

    /// An error of `kind` for the value at `offset` bits into the run.
    fn error(self, kind: &str, offset: u32) -> String {
        match self {
            Sink::Writer => format!("w.Error(bitwire.{kind}, {offset})"),
            Sink::Top => format!("bitwire.NewError(bitwire.{kind}, {offset})"),
        }
    }
}

/// Prints the body of `AppendTo` for a single-run type: the run's checks and word,
/// appended to `dst` with no writer (see the runtime's word.go). At the top level
/// the run starts at bit 0, so bit offsets are the run's own.
pub fn append_fast(g: &Gen, p: &mut Printer, id: TypeId, run: &plan::Run) {
    let TypeDefKind::Struct { fields } = &g.schema.types[id].kind else {
        unreachable!("a single-run type is a struct")
    };
    let names = &g.names.types[id];
    let mut loc = Locals::new(&["m", "dst"]);
    let members: Vec<Member> = run
        .fields
        .iter()
        .map(|rf| Member {
            val: format!("m.{}", names.members[rf.index]),
            ty: &fields[rf.index].ty,
            offset: rf.offset,
            bits: rf.bits,
            hint: names.locals[rf.index].clone(),
        })
        .collect();
    let ctxs: Vec<Ctx> = run
        .fields
        .iter()
        .map(|rf| Ctx::default().field(&fields[rf.index].name))
        .collect();
    let mut checks = Vec::new();
    write_run(
        g,
        p,
        &mut loc,
        &members,
        &ctxs,
        run.bits,
        Some(&mut checks),
        Sink::Top,
    );
}

/// The `uint64` bits of a scalar, after its checks passed. `q` holds the local with
/// the quantized integer, for quantized floats.
fn scalar_bits_expr(g: &Gen, ty: &Type, x: E, q: Option<&str>) -> E {
    match ty {
        Type::Bool => call("bitwire.Bit", vec![x]),
        Type::UInt { repr, .. } => to_u64(x, *repr),
        Type::SInt { bits, repr } if *bits == repr.bits() => match repr {
            IntRepr::I64 => call("uint64", vec![x]),
            r => {
                let unsigned = int_type(*r).replacen("int", "uint", 1);
                call("uint64", vec![call(unsigned, vec![x])])
            }
        },
        Type::SInt { bits, .. } => {
            let mask = format!("{:#x}", (1u128 << bits) - 1);
            bin(call("uint64", vec![x]), "&", atom(mask))
        }
        Type::Float {
            repr: FloatRepr::F32,
        } => call("bitwire.F32ToWire", vec![x]),
        Type::Float {
            repr: FloatRepr::F64,
        } => call("bitwire.F64ToWire", vec![x]),
        Type::Bounded { repr, min, .. } => offset_expr(x, *repr, *min),
        Type::Quantized { .. } => atom(q.expect("quantized local")),
        Type::Named { .. } if g.enum_of(ty).is_some() => call("uint64", vec![x]),
        other => unreachable!("not a run scalar: {other:?}"),
    }
}

/// Prints the check of a scalar at `offset` bits from the writer's position. For a
/// quantized float, also quantizes into a fresh local and returns its name.
fn check_scalar(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    m: &Member,
    sink: Sink,
) -> Option<String> {
    if let Type::Quantized {
        repr,
        min,
        max,
        steps,
        ..
    } = m.ty
    {
        let q = loc.fresh(&m.hint);
        let x = match repr {
            FloatRepr::F32 => format!("float64({})", m.val),
            FloatRepr::F64 => m.val.clone(),
        };
        // The range check inline (NaN fails both comparisons), so that the
        // quantizer inlines with constant bounds, as bitwire.Quantize does it.
        let (lo, hi) = (super::f64_lit(*min), super::f64_lit(*max));
        p.open(format!("if !({lo} <= {x} && {x} <= {hi}) {{"));
        p.line(sink.ret(&ctx.wrap(&sink.error("OutOfRange", m.offset))));
        p.close("}");
        p.line(format!("{q} := bitwire.Quantize({x}, {lo}, {hi}, {steps})"));
        return Some(q);
    }
    if let Some((cond, kind)) = violation(g, m.ty, atom(&m.val)) {
        p.open(format!("if {} {{", cond.text()));
        p.line(sink.ret(&ctx.wrap(&sink.error(kind, m.offset))));
        p.close("}");
    }
    None
}

/// Prints a run: the members' checks in field order, then one write of the word
/// that holds them all. Checks of struct fields are combined when `checks` is given;
/// it collects the combined members for `writeRangeError`.
#[allow(clippy::too_many_arguments)]
fn write_run<'t>(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    members: &[Member<'t>],
    ctxs: &[Ctx],
    bits: u32,
    mut checks: Option<&mut Vec<Check<'t>>>,
    sink: Sink,
) {
    if let [m] = members {
        if g.enum_of(m.ty).is_some() && sink == Sink::Writer {
            // An enum alone: its own WritePacked checks and writes it.
            p.open(format!("if err := {}.WritePacked(w); err != nil {{", m.val));
            p.line(format!("return {}", ctxs[0].wrap("err")));
            p.close("}");
            return;
        }
    }
    let mut operands = Vec::new();
    let mut checked_upto = 0;
    for (k, (m, ctx)) in members.iter().zip(ctxs).enumerate() {
        if k >= checked_upto {
            if let Some(checks) = checks.as_deref_mut() {
                checked_upto =
                    combined_checks(g, p, loc, &members[k..], &ctxs[k..], checks, sink) + k;
            }
        }
        let q = if k < checked_upto && !matches!(m.ty, Type::Quantized { .. }) {
            None
        } else {
            check_scalar(g, p, loc, ctx, m, sink)
        };
        if m.bits == 0 {
            continue;
        }
        let x = scalar_bits_expr(g, m.ty, atom(&m.val), q.as_deref());
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

/// For two or more checked struct fields at the start of `members` (up to the first
/// quantized float, whose check keeps its place in field order; fields that cannot
/// fail are skipped), prints one branch-free test of all of them: an overflow word
/// that is zero exactly when every field is encodable ([`overflow_term`]) and one
/// well-predicted branch to `writeRangeError`, which finds the first failing field.
/// Returns how many members it covered (0 when it printed nothing) and adds the
/// checked ones to `checks`.
fn combined_checks<'t>(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    members: &[Member<'t>],
    ctxs: &[Ctx],
    checks: &mut Vec<Check<'t>>,
    sink: Sink,
) -> usize {
    let group = members
        .iter()
        .position(|m| matches!(m.ty, Type::Quantized { .. }))
        .unwrap_or(members.len());
    let checked: Vec<usize> = (0..group)
        .filter(|&i| overflow_term(g, members[i].ty, atom("x")).is_some())
        .collect();
    if checked.len() < 2 {
        return 0;
    }
    let terms: Vec<E> = checked
        .iter()
        .map(|&i| {
            let t = overflow_term(g, members[i].ty, atom(&members[i].val)).expect("checked");
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
    checks.extend(checked.iter().map(|&i| Check {
        val: members[i].val.clone(),
        ty: members[i].ty,
        ctx: ctxs[i].clone(),
        offset: members[i].offset,
    }));
    group
}

/// Prints `writeRangeError`, the error path of every combined check of a struct:
/// out of line, and given the writer's position rather than the writer, so that
/// `WritePacked` stays small.
fn range_error_fn(g: &Gen, p: &mut Printer, id: TypeId, checks: &[Check]) {
    let ident = g.ident(id);
    p.blank();
    p.line("// writeRangeError returns the error of the first field that cannot be encoded");
    p.line("// (spec §7.2), for WritePacked when the combined check of a run failed; at is");
    p.line("// the writer's position at the start of that run. The fields of earlier runs");
    p.line("// passed their checks already.");
    p.line("//");
    p.line("//go:noinline");
    p.open(format!(
        "func (m *{ident}) writeRangeError(at uint64) error {{"
    ));
    let make = |kind: &str, offset: u32| {
        let at = match offset {
            0 => atom("at"),
            o => bin(atom("at"), "+", atom(o.to_string())),
        };
        call(
            "bitwire.NewError",
            vec![atom(format!("bitwire.{kind}")), at],
        )
        .text()
    };
    let (last, rest) = checks.split_last().expect("at least two checks");
    for c in rest {
        let (cond, kind) = violation(g, c.ty, atom(&c.val)).expect("a checked field");
        p.open(format!("if {} {{", cond.text()));
        p.line(format!("return {}", c.ctx.wrap(&make(kind, c.offset))));
        p.close("}");
    }
    let (_, kind) = violation(g, last.ty, atom(&last.val)).expect("a checked field");
    p.line("// The last check: the combined test failed and every check above passed.");
    p.line(format!(
        "return {}",
        last.ctx.wrap(&make(kind, last.offset))
    ));
    p.close("}");
}

/// Writes a lone scalar with the most readable runtime call.
fn write_single(p: &mut Printer, m: &Member, bits_expr: E, bits: u32) {
    match m.ty {
        Type::Bool => p.line(format!("w.WriteBool({})", m.val)),
        Type::SInt { bits, repr } => {
            let x = to_i64(atom(&m.val), *repr).text();
            p.line(format!("w.WriteInt({x}, {bits})"));
        }
        Type::Float {
            repr: FloatRepr::F32,
        } => p.line(format!("w.WriteF32({})", m.val)),
        Type::Float {
            repr: FloatRepr::F64,
        } => p.line(format!("w.WriteF64({})", m.val)),
        _ => {
            let c = call("w.WriteBits", vec![bits_expr, atom(bits.to_string())]);
            p.line(c.text());
        }
    }
}

/// Prints the writing of one value of any type (not part of a struct's run).
fn write_value(g: &Gen, p: &mut Printer, loc: &mut Locals, ctx: &Ctx, ty: &Type, v: &str) {
    if let Some(bits) = plan::scalar_bits(g.schema, ty) {
        let m = Member {
            val: v.to_string(),
            ty,
            offset: 0,
            bits,
            hint: "q".into(),
        };
        let ctxs = std::slice::from_ref(ctx);
        write_run(g, p, loc, &[m], ctxs, bits, None, Sink::Writer);
        return;
    }
    match ty {
        Type::VarUInt { bits, repr } => {
            let x = to_u64(atom(v), *repr).text();
            p.line(format!("w.WriteVarint({x}, {bits})"));
        }
        Type::VarSInt { bits, repr } => {
            let x = to_i64(atom(v), *repr).text();
            p.line(format!("w.WriteVarint(bitwire.ZigzagEncode({x}), {bits})"));
        }
        Type::Optional { inner } => {
            p.line(format!("w.WriteBool({v}.Set)"));
            p.open(format!("if {v}.Set {{"));
            write_value(g, p, loc, ctx, inner, &format!("{v}.Value"));
            p.close("}");
        }
        Type::Array { elem, .. } => {
            if is_byte(elem) {
                p.line(format!("w.WriteBytes({v}[:])"));
                return;
            }
            write_elements(g, p, loc, ctx, elem, v);
        }
        Type::List {
            elem,
            max,
            packed_len,
        } => {
            write_length(p, ctx, v, *max, *packed_len);
            if is_byte(elem) {
                p.line(format!("w.WriteBytes({v})"));
            } else {
                write_elements(g, p, loc, ctx, elem, v);
            }
        }
        Type::String { max, packed_len } => {
            length_check(p, ctx, v, *max);
            p.open(format!("if err := w.CheckString({v}, 0); err != nil {{"));
            p.line(format!("return {}", ctx.wrap("err")));
            p.close("}");
            write_prefix(p, v, *packed_len);
            p.line(format!("w.WriteString({v})"));
        }
        Type::Bytes { max, packed_len } => {
            write_length(p, ctx, v, *max, *packed_len);
            p.line(format!("w.WriteBytes({v})"));
        }
        Type::Named { .. } => {
            p.open(format!("if err := {v}.WritePacked(w); err != nil {{"));
            p.line(format!("return {}", ctx.wrap("err")));
            p.close("}");
        }
        other => unreachable!("scalar handled above: {other:?}"),
    }
}

/// `u8` elements, written and read as whole bytes.
pub(crate) fn is_byte(ty: &Type) -> bool {
    matches!(ty, Type::UInt { bits: 8, .. })
}

/// Checks a length against its bound (spec §5.6).
fn length_check(p: &mut Printer, ctx: &Ctx, v: &str, max: Option<u64>) {
    if let Some(m) = max {
        p.open(format!("if len({v}) > {m} {{"));
        p.line(format!(
            "return {}",
            ctx.wrap("w.Error(bitwire.InvalidLength, 0)")
        ));
        p.close("}");
    }
}

/// Writes a length prefix (spec §5.6).
fn write_prefix(p: &mut Printer, v: &str, len: LengthEncoding) {
    match len {
        LengthEncoding::Fixed { bits } => p.line(format!("w.WriteBits(uint64(len({v})), {bits})")),
        LengthEncoding::Varint => p.line(format!("w.WriteVarint(uint64(len({v})), 64)")),
    }
}

/// Checks a length against its bound and writes the length prefix.
fn write_length(p: &mut Printer, ctx: &Ctx, v: &str, max: Option<u64>, len: LengthEncoding) {
    length_check(p, ctx, v, max);
    write_prefix(p, v, len);
}

/// Writes every element of an array or list, by index (ranging over an array by
/// value would copy it).
fn write_elements(g: &Gen, p: &mut Printer, loc: &mut Locals, ctx: &Ctx, elem: &Type, v: &str) {
    let i = loc.fresh("i");
    p.open(format!("for {i} := range {v} {{"));
    let inner = if can_fail(g, elem) {
        ctx.index(&i)
    } else {
        ctx.clone()
    };
    write_value(g, p, loc, &inner, elem, &format!("{v}[{i}]"));
    p.close("}");
}
