//! `writeX` / `encodeX`: the packed encoder of each named type (spec §3–§5).
//!
//! Structs follow the chunk plan: each run of fixed-width scalar fields is range
//! checked field by field (spec §7.2 order) and then written as one or two 32-bit words
//! built with constant shifts ([`bits`](super::bits)); other fields are written one by
//! one inside a `try` that adds the field to the path of any error. Values are never
//! truncated to fit: a `number` that is not an integer of the field's range is
//! `OutOfRange` at the bit where the value would start.

use super::bits::{self, Piece, Raw};
use super::printer::Printer;
use super::{big_bits, f64_lit, int_lit, is_big, naming, round_to, wrapped, Ctx, Gen, Locals};
use crate::codegen::plan::{self, Step};
use crate::ir::{FloatRepr, LengthEncoding, Type, TypeDefKind, TypeId};

/// Prints `encodeX`: the top-level encoding of a value.
pub fn top_level(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let ident = g.ident(id);
    // A reused writer keeps its buffer; a fresh one starts at the largest size (or 64).
    let capacity = def.packed.max_bytes().map_or(64, |b| b.clamp(8, 1024));
    p.doc(&[
        vec![format!(
            "Encodes a `{ident}` at the top level (spec §2.1), padded with zero bits to a byte."
        )],
        vec![
            "Returns a view of the writer's buffer, valid until the writer is used again;".into(),
            "pass a writer to reuse its buffer across messages (no allocation once grown),".into(),
            "copy the result (`.slice()`) to keep it. Throws {@link bw.BitwireError} for a".into(),
            "value the schema cannot hold (`OutOfRange`, `InvalidLength`, `InvalidEnum`).".into(),
        ],
    ]);
    p.list_open(
        &format!("export function encode{ident}("),
        &[
            format!("value: {ident}"),
            format!("w: bw.BitWriter = new bw.BitWriter({capacity})"),
        ],
        "): Uint8Array {",
    );
    p.line("w.reset();");
    p.line(format!("write{ident}(w, value);"));
    p.line("return w.finish();");
    p.close("}");
}

/// Prints `writeX`: the value's bit stream at the writer's position.
pub fn write_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let ident = g.ident(id);
    p.doc(&[vec![
        "Writes the value's bit stream (no padding) at the writer's position.".into(),
    ]]);
    let mut locals = Locals::default();
    locals.reserve("w");
    locals.reserve("v");
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            let (w, v) = if fields.is_empty() {
                ("_w", "_v")
            } else {
                ("w", "v")
            };
            let mut checks = Checks {
                owner: g.names.types[id].lower.clone(),
                list: Vec::new(),
            };
            p.open(format!(
                "export function write{ident}({w}: bw.BitWriter, {v}: {ident}): void {{"
            ));
            for step in plan::struct_plan(g.schema, fields) {
                match step {
                    Step::Run(run) => {
                        let members: Vec<Member> = run
                            .fields
                            .iter()
                            .map(|rf| {
                                let f = &fields[rf.index];
                                let prop = &g.names.types[id].members[rf.index];
                                Member {
                                    value: format!("v.{prop}"),
                                    local: Some(g.local(prop)),
                                    ty: &f.ty,
                                    offset: rf.offset,
                                    bits: rf.bits,
                                    ctx: Ctx::field(&f.name),
                                }
                            })
                            .collect();
                        write_run(g, p, &mut locals, &members, run.bits, Some(&mut checks));
                    }
                    Step::Field(i) => {
                        let f = &fields[i];
                        let value = format!("v.{}", g.names.types[id].members[i]);
                        if can_fail(g, &f.ty) {
                            let seg = naming::str_lit(&f.name);
                            wrapped(p, "inField", &seg, |p| {
                                write_value(g, p, &mut locals, &f.ty, &value);
                            });
                        } else {
                            write_value(g, p, &mut locals, &f.ty, &value);
                        }
                    }
                }
            }
            p.close("}");
            if !checks.list.is_empty() {
                p.blank();
                range_error_fn(g, p, id, &checks.list);
            }
        }
        TypeDefKind::Enum {
            packed_tag_bits, ..
        } => {
            p.open(format!(
                "export function write{ident}(w: bw.BitWriter, v: {ident}): void {{"
            ));
            let m = Member {
                value: "v".into(),
                local: None,
                ty: &Type::Named {
                    id,
                    name: def.name.clone(),
                },
                offset: 0,
                bits: *packed_tag_bits,
                ctx: Ctx::default(),
            };
            write_run(g, p, &mut locals, &[m], *packed_tag_bits, None);
            p.close("}");
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            p.open(format!(
                "export function write{ident}(w: bw.BitWriter, v: {ident}): void {{"
            ));
            p.open("switch (v.kind) {");
            for var in variants {
                p.open(format!("case {}: {{", naming::str_lit(&var.name)));
                if *packed_tag_bits > 0 {
                    write_tag(p, var.tag, *packed_tag_bits);
                }
                if let Some(ty) = &var.payload {
                    let seg = naming::str_lit(&var.name);
                    if can_fail(g, ty) {
                        wrapped(p, "inField", &seg, |p| {
                            write_value(g, p, &mut locals, ty, "v.value");
                        });
                    } else {
                        write_value(g, p, &mut locals, ty, "v.value");
                    }
                }
                p.line("return;");
                p.close("}");
            }
            p.close("}");
            p.line("// Only reachable from untyped JavaScript: a kind the union does not declare.");
            p.line("throw bw.error(\"InvalidEnum\", w.bitPos);");
            p.close("}");
        }
    }
}

/// Writes a union tag (a constant).
fn write_tag(p: &mut Printer, tag: u64, bits: u32) {
    match Raw::of(bits) {
        Raw::N32 => p.line(format!("w.writeBits({tag}, {bits});")),
        Raw::N53 => p.line(format!("w.writeUint({tag}, {bits});")),
        Raw::Big => p.line(format!("w.writeBig({tag}n, {bits});")),
    }
}

/// Whether writing a value of `ty` can throw (a range or length check, or a nested
/// value with one); fields that cannot need no `try`.
fn can_fail(g: &Gen, ty: &Type) -> bool {
    match ty {
        Type::Bool | Type::Float { .. } => false,
        Type::Optional { inner } => can_fail(g, inner),
        Type::Named { id, .. } => match &g.schema.types[*id].kind {
            TypeDefKind::Struct { fields } => fields.iter().any(|f| can_fail(g, &f.ty)),
            _ => true,
        },
        _ => true,
    }
}

/// A scalar in a run: how to reach its value, where it goes, and how errors name it.
pub(crate) struct Member<'t> {
    /// An expression of the value (`v.health`, `item`).
    pub value: String,
    /// The local to bind the value to first, if `value` is not a local already.
    pub local: Option<String>,
    pub ty: &'t Type,
    /// Bit offset in the run.
    pub offset: u32,
    /// Packed width.
    pub bits: u32,
    pub ctx: Ctx,
}

/// Prints a run: each member's check in order, then its bits placed into one or two
/// 32-bit words written with `writeBits`.
pub(crate) fn write_run<'t>(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    members: &[Member<'t>],
    bits: u32,
    mut checks: Option<&mut Checks<'t>>,
) {
    if let [Member {
        ty: Type::Float {
            repr: FloatRepr::F64,
        },
        value,
        ..
    }] = members
    {
        // An f64 fills a 64-bit run alone.
        p.line(format!("w.writeF64({value});"));
        return;
    }
    let xs: Vec<String> = members
        .iter()
        .map(|m| match &m.local {
            Some(l) if needs_binding(m.ty) && m.value.contains('.') => {
                p.line(format!("const {l} = {};", m.value));
                l.clone()
            }
            _ => m.value.clone(),
        })
        .collect();
    let mut pieces = Vec::new();
    let mut covered = 0;
    for (k, (m, x)) in members.iter().zip(&xs).enumerate() {
        if k >= covered {
            if let Some(checks) = checks.as_deref_mut() {
                covered = combined_check(g, p, &members[k..], &xs[k..], checks) + k;
            }
        }
        if let Some((expr, raw, clean)) = checked_raw(g, p, locals, m, x, k < covered) {
            pieces.extend(split(p, locals, &expr, raw, clean, m.offset, m.bits));
        }
    }
    if bits == 0 {
        return;
    }
    let (lo, hi) = bits::words(&pieces);
    if bits <= 32 {
        let lo = word_expr(p, locals, lo, "word");
        p.line(format!("w.writeBits({lo}, {bits});"));
    } else {
        let lo = word_expr(p, locals, lo, "lo");
        let hi = word_expr(p, locals, hi, "hi");
        let one = format!("w.writeWord({lo}, {hi}, {bits});");
        if p.fits(&one) {
            p.line(one);
        } else {
            let (l, h) = (locals.fresh("lo"), locals.fresh("hi"));
            p.line(format!("const {l} = {lo};"));
            p.line(format!("const {h} = {hi};"));
            p.line(format!("w.writeWord({l}, {h}, {bits});"));
        }
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

/// Whether a run member is used more than once (checked, then written).
fn needs_binding(ty: &Type) -> bool {
    !matches!(ty, Type::Bool | Type::Float { .. } | Type::Quantized { .. })
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

/// Prints the checks of a run member whose value is in `x` and returns its raw bits:
/// the expression, how it is held and whether it has no bits above its width. `None`
/// for zero-width members.
fn checked_raw(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    m: &Member,
    x: &str,
    range_checked: bool,
) -> Option<(String, Raw, bool)> {
    let fail = |p: &mut Printer, cond: &str, kind: &str| {
        if range_checked && kind == "OutOfRange" && range_violation(m.ty, "x").is_some() {
            // Part of the run's combined check.
            return;
        }
        let bit = match m.offset {
            0 => "w.bitPos".to_string(),
            o => format!("w.bitPos + {o}"),
        };
        p.open(format!("if ({cond}) {{"));
        p.line(format!("throw {};", m.ctx.error(kind, &bit)));
        p.close("}");
    };
    let w = m.bits;
    match m.ty {
        Type::Bool => Some((format!("{x} ? 1 : 0"), Raw::N32, true)),
        Type::UInt { bits, .. } => {
            fail(p, &uint_violation(x, *bits), "OutOfRange");
            Some((x.to_string(), Raw::of(w), true))
        }
        Type::SInt { bits, .. } => {
            fail(p, &sint_violation(x, *bits), "OutOfRange");
            Some(match Raw::of(w) {
                Raw::N32 => (x.to_string(), Raw::N32, *bits == 32),
                Raw::N53 => (
                    format!("{x} < 0 ? {x} + {} : {x}", 1u64 << bits),
                    Raw::N53,
                    true,
                ),
                Raw::Big => (format!("BigInt.asUintN({bits}, {x})"), Raw::Big, true),
            })
        }
        Type::Float {
            repr: FloatRepr::F32,
        } => Some((format!("bw.f32ToBits({x})"), Raw::N32, true)),
        Type::Float { .. } => unreachable!("f64 is written on its own"),
        Type::Bounded { min, max, .. } => {
            fail(
                p,
                &bounded_violation(x, *min, *max, is_big(m.ty)),
                "OutOfRange",
            );
            if w == 0 {
                return None;
            }
            Some((bounded_raw(x, *min, w, is_big(m.ty)), Raw::of(w), true))
        }
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            ..
        } => {
            let q = locals.fresh("q");
            let v = round_to(*repr, x);
            if !big_bits(w) {
                // `bw.quantize` written out (the same binary64 operations, `max - min`
                // folded here): no call, and a smaller write function, which the
                // engines then inline whole (V8 inlines within a bytecode budget).
                let qv = locals.fresh("qv");
                p.line(format!("const {qv} = {v};"));
                let (lo, hi, span) = (f64_lit(*min), f64_lit(*max), f64_lit(max - min));
                let expr = format!(
                    "{lo} <= {qv} && {qv} <= {hi} ? Math.floor((({qv} - {lo}) / {span}) * {steps} + 0.5) : -1;"
                );
                let one = format!("const {q} = {expr}");
                if p.fits(&one) {
                    p.line(one);
                } else {
                    p.line(format!("const {q} ="));
                    p.line(format!("  {expr}"));
                }
                fail(p, &format!("{q} < 0"), "OutOfRange");
                if w == 0 {
                    return None;
                }
                return Some((q, Raw::of(w), true));
            }
            let args = if big_bits(w) {
                format!("{v}, {}, {}, {steps}n", f64_lit(*min), f64_lit(*max))
            } else {
                format!("{v}, {}, {}, {steps}", f64_lit(*min), f64_lit(*max))
            };
            let f = if big_bits(w) {
                "quantizeBig"
            } else {
                "quantize"
            };
            p.line(format!("const {q} = bw.{f}({args});"));
            fail(
                p,
                &format!("{q} < {}", int_lit(0, big_bits(w))),
                "OutOfRange",
            );
            if w == 0 {
                return None;
            }
            Some((q, Raw::of(w), true))
        }
        Type::Named { id, .. } => {
            let lower = &g.names.types[*id].lower;
            let t = locals.fresh("tag");
            let TypeDefKind::Enum { variants, .. } = &g.schema.types[*id].kind else {
                unreachable!("only enums are run scalars")
            };
            let big = enum_big(variants);
            p.line(format!("const {t} = {lower}Tag({x});"));
            fail(p, &format!("{t} < {}", int_lit(0, big)), "InvalidEnum");
            if w == 0 {
                return None;
            }
            let expr = if big && !big_bits(w) {
                format!("Number({t})")
            } else {
                t
            };
            Some((expr, Raw::of(w), true))
        }
        other => unreachable!("not a run scalar: {other:?}"),
    }
}

/// The condition under which an integer value `x` (`uN`, `iN`, bounded) is out of
/// range; `None` for the other scalars, whose checks are not plain comparisons.
fn range_violation(ty: &Type, x: &str) -> Option<String> {
    match ty {
        Type::UInt { bits, .. } => Some(uint_violation(x, *bits)),
        Type::SInt { bits, .. } => Some(sint_violation(x, *bits)),
        Type::Bounded { min, max, .. } => Some(bounded_violation(x, *min, *max, is_big(ty))),
        _ => None,
    }
}

/// A struct field in a combined range check, checked again by the cold `xRangeError`.
pub(crate) struct RangeCheck<'t> {
    /// The field as a property of the value (`v.health`).
    value: String,
    ty: &'t Type,
    /// The field's schema name.
    name: String,
    /// Bit offset in its run.
    offset: u32,
}

/// For two or more range-checked fields at the start of `members` (up to the first
/// quantized float or enum, whose checks keep their place in field order), prints one
/// test of all of them and one well-predicted branch to the cold `xRangeError`, which
/// finds the first failing field. One branch instead of one per field keeps the write
/// function small enough for the engines to inline it (measured: a 64-bit packet encodes
/// about 30% faster on Node). Returns how many members it covered (0 if it printed
/// nothing) and adds the checked ones to `checks`.
fn combined_check<'t>(
    g: &Gen,
    p: &mut Printer,
    members: &[Member<'t>],
    xs: &[String],
    checks: &mut Checks<'t>,
) -> usize {
    let group = members
        .iter()
        .position(|m| matches!(m.ty, Type::Quantized { .. }) || g.is_enum(m.ty))
        .unwrap_or(members.len());
    let checked: Vec<usize> = (0..group)
        .filter(|&i| range_violation(members[i].ty, "x").is_some())
        .collect();
    if checked.len() < 2 {
        return 0;
    }
    let conds: Vec<String> = checked
        .iter()
        .map(|&i| range_violation(members[i].ty, &xs[i]).expect("a checked member"))
        .collect();
    p.open_if_any(&conds, "||");
    p.line(format!("throw {}RangeError(v, w.bitPos);", checks.owner));
    p.close("}");
    checks.list.extend(checked.iter().map(|&i| RangeCheck {
        value: members[i].value.clone(),
        ty: members[i].ty,
        name: members[i].ctx.field.clone().unwrap_or_default(),
        offset: members[i].offset,
    }));
    group
}

/// The combined range checks of one struct's write function.
pub(crate) struct Checks<'t> {
    /// The struct's lower-camel name (`packet64`), which names `packet64RangeError`.
    owner: String,
    list: Vec<RangeCheck<'t>>,
}

/// Prints `xRangeError`, the error path of every combined range check of a struct: out
/// of line, and given the writer's position rather than the writer.
fn range_error_fn(g: &Gen, p: &mut Printer, id: TypeId, checks: &[RangeCheck]) {
    let ident = g.ident(id);
    let lower = &g.names.types[id].lower;
    p.doc(&[vec![
        format!("The error of the first field out of range (spec §7.2), for `write{ident}` when"),
        "the combined range check of a run failed; `at` is the writer's position at the".into(),
        "start of that run. The fields of earlier runs passed their checks already.".into(),
    ]]);
    p.open(format!(
        "function {lower}RangeError(v: {ident}, at: number): bw.BitwireError {{"
    ));
    let (last, rest) = checks.split_last().expect("at least two checks");
    let at = |o: u32| {
        if o == 0 {
            "at".to_string()
        } else {
            format!("at + {o}")
        }
    };
    for c in rest {
        let cond = range_violation(c.ty, &c.value).expect("a checked field");
        p.open(format!("if ({cond}) {{"));
        p.line(format!(
            "return bw.error(\"OutOfRange\", {}, {});",
            at(c.offset),
            naming::str_lit(&c.name)
        ));
        p.close("}");
    }
    p.line("// The last check: the combined test failed and every check above passed.");
    p.line(format!(
        "return bw.error(\"OutOfRange\", {}, {});",
        at(last.offset),
        naming::str_lit(&last.name)
    ));
    p.close("}");
}

/// Whether an enum's tags need `bigint` (a value above 2^53 − 1).
pub(crate) fn enum_big(variants: &[crate::ir::EnumVariant]) -> bool {
    variants.iter().any(|v| v.value > (1u64 << 53) - 1)
}

/// The condition under which a `uN` value `x` is out of range (or not an integer).
fn uint_violation(x: &str, bits: u32) -> String {
    match Raw::of(bits) {
        Raw::N32 if bits == 32 => format!("{x} >>> 0 !== {x}"),
        Raw::N32 => format!("({x} & {}) !== {x}", bits::mask(bits)),
        Raw::N53 => format!(
            "!Number.isInteger({x}) || {x} < 0 || {x} > {}",
            (1u64 << bits) - 1
        ),
        Raw::Big => format!("BigInt.asUintN({bits}, {x}) !== {x}"),
    }
}

/// The condition under which an `iN` value `x` is out of range (or not an integer).
fn sint_violation(x: &str, bits: u32) -> String {
    match Raw::of(bits) {
        Raw::N32 if bits == 32 => format!("({x} | 0) !== {x}"),
        Raw::N32 => format!("(({x} << {s}) >> {s}) !== {x}", s = 32 - bits),
        Raw::N53 => {
            let half = 1i64 << (bits - 1);
            format!(
                "!Number.isInteger({x}) || {x} < {} || {x} > {}",
                -half,
                half - 1
            )
        }
        Raw::Big => format!("BigInt.asIntN({bits}, {x}) !== {x}"),
    }
}

/// The condition under which a bounded value `x` is outside `min..=max`.
fn bounded_violation(x: &str, min: i128, max: i128, big: bool) -> String {
    if big {
        return if min == max {
            format!("{x} !== {min}n")
        } else {
            format!("{x} < {min}n || {x} > {max}n")
        };
    }
    if min == max {
        return format!("{x} !== {min}");
    }
    let int32 = i128::from(i32::MIN)..=i128::from(i32::MAX);
    if int32.contains(&min) && int32.contains(&max) {
        format!("({x} | 0) !== {x} || {x} < {min} || {x} > {max}")
    } else {
        format!("!Number.isInteger({x}) || {x} < {min} || {x} > {max}")
    }
}

/// `x - min` (already checked to be in range) held as a `w`-bit raw value.
fn bounded_raw(x: &str, min: i128, w: u32, big: bool) -> String {
    let sub = |m: String| {
        if min == 0 {
            x.to_string()
        } else if min < 0 {
            format!("{x} + {}", m.trim_start_matches('-'))
        } else {
            format!("{x} - {m}")
        }
    };
    match (big, big_bits(w)) {
        (false, false) => sub(min.to_string()),
        // A narrow value with a span above 2^53: the difference needs a bigint.
        (false, true) => format!("BigInt({x}) - {min}n"),
        (true, true) => sub(format!("{min}n")),
        (true, false) => format!("Number({})", sub(format!("{min}n"))),
    }
}

/// Prints the writing of one value of any type outside a run: errors carry no path of
/// their own (the enclosing `try` adds it).
pub(crate) fn write_value(g: &Gen, p: &mut Printer, locals: &mut Locals, ty: &Type, x: &str) {
    if let Some(bits) = plan::scalar_bits(g.schema, ty) {
        let m = Member {
            value: x.to_string(),
            local: Some(locals.fresh("value")),
            ty,
            offset: 0,
            bits,
            ctx: Ctx::default(),
        };
        write_run(g, p, locals, &[m], bits, None);
        return;
    }
    let range_fail = |p: &mut Printer, cond: String| {
        p.open(format!("if ({cond}) {{"));
        p.line("throw bw.error(\"OutOfRange\", w.bitPos);");
        p.close("}");
    };
    match ty {
        Type::VarUInt { bits, .. } if *bits == 64 => {
            range_fail(p, format!("BigInt.asUintN(64, {x}) !== {x}"));
            p.line(format!("w.writeVaru64({x});"));
        }
        Type::VarUInt { bits, .. } => {
            range_fail(p, uint_violation(x, *bits));
            p.line(format!("w.writeVaruint({x}, {bits});"));
        }
        Type::VarSInt { bits, .. } if *bits == 64 => {
            range_fail(p, format!("BigInt.asIntN(64, {x}) !== {x}"));
            p.line(format!("w.writeVaru64(bw.zigzag64({x}));"));
        }
        Type::VarSInt { bits, .. } => {
            range_fail(p, sint_violation(x, *bits));
            p.line(format!("w.writeVaruint(bw.zigzag32({x}), {bits});"));
        }
        Type::Optional { inner } => {
            let o = locals.fresh("o");
            p.line(format!("const {o} = {x};"));
            p.open(format!("if ({o} === null) {{"));
            p.line("w.writeBool(false);");
            p.middle("} else {");
            p.line("w.writeBool(true);");
            write_value(g, p, locals, inner, &o);
            p.close("}");
        }
        Type::Array { elem, len } => {
            let list = bind(p, locals, x, "list");
            p.open(format!("if ({list}.length !== {len}) {{"));
            p.line("throw bw.error(\"InvalidLength\", w.bitPos);");
            p.close("}");
            write_elements(g, p, locals, elem, &list);
        }
        Type::List {
            elem,
            max,
            packed_len,
        } => {
            let list = bind(p, locals, x, "list");
            write_length(p, &format!("{list}.length"), *max, *packed_len);
            write_elements(g, p, locals, elem, &list);
        }
        Type::String { max, packed_len } => {
            // The UTF-8 length first (no allocation), then the bytes straight into the
            // writer's buffer.
            let s = bind(p, locals, x, "str");
            let len = locals.fresh("len");
            p.line(format!("const {len} = bw.utf8Length({s});"));
            write_length(p, &len, *max, *packed_len);
            p.line(format!("w.writeUtf8({s}, {len});"));
        }
        Type::Bytes { max, packed_len } => {
            let b = bind(p, locals, x, "blob");
            write_length(p, &format!("{b}.length"), *max, *packed_len);
            p.line(format!("w.writeBytes({b});"));
        }
        Type::Named { id, .. } => p.line(format!("write{}(w, {x});", g.ident(*id))),
        other => unreachable!("scalar handled above: {other:?}"),
    }
}

/// `x` itself when it is a local, else a new local bound to it.
fn bind(p: &mut Printer, locals: &mut Locals, x: &str, base: &str) -> String {
    if !x.contains('.') {
        return x.to_string();
    }
    let l = locals.fresh(base);
    p.line(format!("const {l} = {x};"));
    l
}

/// Checks a length against its bound and writes the length prefix (spec §5.6).
fn write_length(p: &mut Printer, len: &str, max: Option<u64>, encoding: LengthEncoding) {
    if let Some(m) = max {
        p.open(format!("if ({len} > {m}) {{"));
        p.line("throw bw.error(\"InvalidLength\", w.bitPos);");
        p.close("}");
    }
    match encoding {
        LengthEncoding::Fixed { bits } if bits <= 32 => {
            p.line(format!("w.writeBits({len}, {bits});"));
        }
        LengthEncoding::Fixed { bits } => p.line(format!("w.writeUint({len}, {bits});")),
        LengthEncoding::Varint => p.line(format!("w.writeVaruint({len}, 64);")),
    }
}

/// Writes every element of an array or list, adding the index to errors' paths.
fn write_elements(g: &Gen, p: &mut Printer, locals: &mut Locals, elem: &Type, list: &str) {
    let item = locals.fresh("item");
    if !can_fail(g, elem) {
        p.open(format!("for (const {item} of {list}) {{"));
        write_value(g, p, locals, elem, &item);
        p.close("}");
        return;
    }
    let i = locals.fresh("i");
    p.line(format!("let {i} = 0;"));
    p.open(format!("for (const {item} of {list}) {{"));
    let seg = i.clone();
    wrapped(p, "atIndex", &seg, |p| {
        write_value(g, p, locals, elem, &item)
    });
    p.line(format!("{i}++;"));
    p.close("}");
}
