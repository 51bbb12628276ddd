//! `readX` / `decodeX`: the packed decoder of each named type (spec §3–§5, error order
//! §7.2).
//!
//! A run of fixed-width scalar fields is loaded once (`r.loadChunk`, two 32-bit halves)
//! and each field is extracted at its constant offset and validated in field order.
//! Fields that need no validation are taken unchecked, and one comparison of the bits
//! the input held, before the next validated field and at the end of the run, reports
//! `Truncated` at the first incomplete field. Lengths are checked against their bound
//! and against the remaining input before anything is allocated (§5.6).

use super::bits::{self, Raw};
use super::encode::enum_big;
use super::printer::Printer;
use super::{f64_lit, int_lit, is_big, naming, round_to, wrapped, Ctx, Gen, Locals};
use crate::codegen::plan::{self, Step};
use crate::ir::{FloatRepr, LengthEncoding, Type, TypeDefKind, TypeId};

/// Prints `decodeX`: a top-level value from a whole input.
pub fn top_level(g: &Gen, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    p.doc(&[vec![
        format!(
            "Decodes a whole input as a `{ident}` (spec §2.2): the padding must be zero and no"
        ),
        "bytes may follow. Throws {@link bw.BitwireError} for input an encoder never writes."
            .into(),
    ]]);
    p.open(format!(
        "export function decode{ident}(bytes: Uint8Array): {ident} {{"
    ));
    p.line("const r = bw.sharedReader(bytes);");
    p.line(format!("const value = read{ident}(r);"));
    p.line("r.finish();");
    p.line("return value;");
    p.close("}");
}

/// The tables of a struct's runs (offset, width and name of each field, for the
/// `Truncated` error), printed before `readX` as module-level constants.
fn run_tables(g: &Gen, p: &mut Printer, id: TypeId, fields: &[crate::ir::Field]) -> Vec<String> {
    let prefix = &g.names.types[id].constant;
    let runs: Vec<plan::Run> = plan::struct_plan(g.schema, fields)
        .into_iter()
        .filter_map(|s| match s {
            Step::Run(r) if r.bits > 0 => Some(r),
            _ => None,
        })
        .collect();
    let mut names = Vec::new();
    for (n, run) in runs.iter().enumerate() {
        let name = if runs.len() == 1 {
            format!("{prefix}_RUN")
        } else {
            format!("{prefix}_RUN{}", n + 1)
        };
        p.line(format!(
            "// The fields of a {}-bit run of `{}`: offset, width and name, for `Truncated`.",
            run.bits, g.schema.types[id].name
        ));
        p.open(format!("const {name} = ["));
        for rf in &run.fields {
            let fname = naming::str_lit(&fields[rf.index].name);
            p.line(format!("{}, {}, {fname},", rf.offset, rf.bits));
        }
        p.close("] as const;");
        p.blank();
        names.push(name);
    }
    names
}

/// Prints `readX`: a value at the reader's position.
pub fn read_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let ident = g.ident(id);
    let names = &g.names.types[id];
    let mut locals = Locals::default();
    locals.reserve("r");
    let tables = match &def.kind {
        TypeDefKind::Struct { fields } => run_tables(g, p, id, fields),
        _ => Vec::new(),
    };
    p.doc(&[vec!["Reads a value at the reader's position.".into()]]);
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            let reads = fields.iter().any(|f| !zero_width_scalar(g, &f.ty));
            let r = if reads { "r" } else { "_r" };
            p.open(format!(
                "export function read{ident}({r}: bw.BitReader): {ident} {{"
            ));
            let field_locals: Vec<String> = names.members.iter().map(|m| g.local(m)).collect();
            for l in &field_locals {
                locals.reserve(l);
            }
            let mut tables = tables.iter();
            for step in plan::struct_plan(g.schema, fields) {
                match step {
                    Step::Run(run) => {
                        let table = if run.bits > 0 { tables.next() } else { None };
                        read_run(g, p, &mut locals, &run, fields, &field_locals, table);
                    }
                    Step::Field(i) => {
                        let f = &fields[i];
                        let l = &field_locals[i];
                        if plan::type_layout(g.schema, &f.ty).max_bits == Some(0) {
                            let e = read_expr(g, p, &mut locals, &f.ty);
                            p.line(format!("const {l} = {e};"));
                            continue;
                        }
                        p.line(format!("let {l}: {};", g.ts_type(&f.ty)));
                        wrapped(p, "inField", &naming::str_lit(&f.name), |p| {
                            let e = read_expr(g, p, &mut locals, &f.ty);
                            p.line(format!("{l} = {e};"));
                        });
                    }
                }
            }
            let items: Vec<String> = names
                .members
                .iter()
                .zip(&field_locals)
                .map(|(m, l)| {
                    if m == l {
                        m.clone()
                    } else {
                        format!("{m}: {l}")
                    }
                })
                .collect();
            if items.is_empty() {
                p.line("return {};");
            } else {
                p.list("return { ", &items, " };");
            }
            p.close("}");
        }
        TypeDefKind::Enum {
            packed_tag_bits,
            variants,
            ..
        } => {
            if *packed_tag_bits == 0 {
                p.open(format!(
                    "export function read{ident}(_r: bw.BitReader): {ident} {{"
                ));
                let only = variants
                    .iter()
                    .find(|v| v.value == 0)
                    .expect("a 0-bit enum has value 0");
                p.line(format!("return {};", naming::str_lit(&only.name)));
            } else {
                p.open(format!(
                    "export function read{ident}(r: bw.BitReader): {ident} {{"
                ));
                let e = read_expr(
                    g,
                    p,
                    &mut locals,
                    &Type::Named {
                        id,
                        name: def.name.clone(),
                    },
                );
                p.line(format!("return {e};"));
            }
            p.close("}");
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            let reads = *packed_tag_bits > 0
                || variants.iter().any(|v| {
                    v.payload
                        .as_ref()
                        .is_some_and(|t| plan::type_layout(g.schema, t).max_bits != Some(0))
                });
            let r = if reads { "r" } else { "_r" };
            p.open(format!(
                "export function read{ident}({r}: bw.BitReader): {ident} {{"
            ));
            if *packed_tag_bits == 0 {
                // One variant, tag 0 in zero bits: nothing to dispatch on.
                variant_arm(g, p, &mut locals, &variants[0]);
            } else {
                p.line("const at = r.bitPos;");
                let read = read_uint(*packed_tag_bits);
                p.line(format!("const tag = {read};"));
                p.open("switch (tag) {");
                for v in variants {
                    p.open(format!(
                        "case {}: {{",
                        int_lit(
                            i128::from(v.tag),
                            bits::Raw::of(*packed_tag_bits) == Raw::Big
                        )
                    ));
                    variant_arm(g, p, &mut locals, v);
                    p.close("}");
                }
                p.open("default:");
                p.line("throw bw.error(\"InvalidEnum\", at);");
                p.dedent();
                p.close("}");
            }
            p.close("}");
        }
    }
}

/// The body of a union variant's `case`: read the payload, return the value.
fn variant_arm(g: &Gen, p: &mut Printer, locals: &mut Locals, v: &crate::ir::UnionVariant) {
    let kind = naming::str_lit(&v.name);
    let Some(ty) = &v.payload else {
        p.line(format!("return {{ kind: {kind} }};"));
        return;
    };
    let value = locals.fresh("value");
    if plan::type_layout(g.schema, ty).max_bits == Some(0) {
        let e = read_expr(g, p, locals, ty);
        p.line(format!("return {{ kind: {kind}, value: {e} }};"));
        return;
    }
    p.line(format!("let {value}: {};", g.ts_type(ty)));
    wrapped(p, "inField", &kind, |p| {
        let e = read_expr(g, p, locals, ty);
        p.line(format!("{value} = {e};"));
    });
    p.line(format!("return {{ kind: {kind}, value: {value} }};"));
}

/// Whether a field is a scalar of zero bits (a value the reader never touches).
fn zero_width_scalar(g: &Gen, ty: &Type) -> bool {
    plan::scalar_bits(g.schema, ty) == Some(0)
}

/// Whether a run scalar needs no validation: any bit pattern is a valid value.
fn is_plain(ty: &Type) -> bool {
    match ty {
        Type::Bool | Type::UInt { .. } | Type::SInt { .. } => true,
        Type::Bounded {
            min,
            max,
            packed_bits,
            ..
        } => *packed_bits > 0 && (max - min) as u128 == (1u128 << packed_bits) - 1,
        // Every stored integer is a grid point: nothing to reject.
        Type::Quantized {
            steps, packed_bits, ..
        } => *packed_bits > 0 && u128::from(*steps) == (1u128 << packed_bits) - 1,
        _ => false,
    }
}

/// The call that loads a run's chunk: `loadChunk32` for runs that fit one 32-bit half
/// (a smaller function, which engines inline more readily), else `loadChunk`.
fn load_chunk(bits: u32) -> String {
    if bits <= 32 {
        format!("r.loadChunk32({bits});")
    } else {
        format!("r.loadChunk({bits});")
    }
}

/// Reads a run of a struct's scalar fields from one chunk (spec §7.2 order kept).
fn read_run(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    run: &plan::Run,
    fields: &[crate::ir::Field],
    field_locals: &[String],
    table: Option<&String>,
) {
    let (lo, hi) = if run.bits > 0 {
        p.line(load_chunk(run.bits));
        let lo = locals.fresh("lo");
        p.line(format!("const {lo} = r.chunkLo;"));
        let hi = if run.bits > 32 {
            let hi = locals.fresh("hi");
            p.line(format!("const {hi} = r.chunkHi;"));
            hi
        } else {
            String::new()
        };
        (lo, hi)
    } else {
        (String::new(), String::new())
    };
    // The end of the plain fields read since the last check.
    let mut pending: Option<u32> = None;
    let check = |p: &mut Printer, end: u32| {
        let table = table.expect("a run with bits has a table");
        p.open(format!("if (r.chunkAvail < {end}) {{"));
        p.line(format!("throw r.chunkTruncated({table});"));
        p.close("}");
    };
    for rf in &run.fields {
        let f = &fields[rf.index];
        let l = &field_locals[rf.index];
        if rf.bits > 0 && is_plain(&f.ty) {
            let value = plain_value(p, locals, &f.ty, &lo, &hi, rf.offset, rf.bits);
            p.line(format!("const {l} = {value};"));
            pending = Some(rf.offset + rf.bits);
            continue;
        }
        if rf.bits > 0 {
            // Covers the plain fields before and this field's own bits.
            check(p, rf.offset + rf.bits);
            pending = None;
        }
        let ctx = Ctx::field(&f.name);
        let at = match rf.offset {
            0 => "r.chunkStart".to_string(),
            o => format!("r.chunkStart + {o}"),
        };
        let (raw, kind) = bits::extract(&lo, &hi, rf.offset, rf.bits);
        let value = validated_value(
            g,
            p,
            locals,
            &f.ty,
            &ctx,
            &at,
            &raw,
            kind,
            &lo,
            &hi,
            Some(l),
        );
        if value != *l {
            p.line(format!("const {l} = {value};"));
        }
    }
    if let Some(end) = pending {
        check(p, end);
    }
}

/// The value of a plain run field (no validation) from the chunk halves.
fn plain_value(
    p: &mut Printer,
    locals: &mut Locals,
    ty: &Type,
    lo: &str,
    hi: &str,
    o: u32,
    w: u32,
) -> String {
    match ty {
        Type::Bool => format!("({}) !== 0", bits::extract32(lo, hi, o, 1)),
        Type::UInt { .. } => bits::extract(lo, hi, o, w).0,
        Type::SInt { .. } => match Raw::of(w) {
            Raw::N32 => bits::extract_signed32(lo, hi, o, w),
            Raw::N53 => {
                let raw = locals.fresh("raw");
                p.line(format!("const {raw} = {};", bits::extract(lo, hi, o, w).0));
                sign_extend53(&raw, w)
            }
            Raw::Big => format!("BigInt.asIntN({w}, {})", bits::extract(lo, hi, o, w).0),
        },
        Type::Bounded { min, .. } => {
            let (raw, kind) = bits::extract(lo, hi, o, w);
            bounded_value(&raw, kind, *min, is_big(ty))
        }
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            ..
        } => {
            let (raw, kind) = bits::extract(lo, hi, o, w);
            let q = if kind == Raw::Big || (bits::is_simple(&raw) && !raw.contains('(')) {
                raw
            } else {
                let q = locals.fresh("q");
                p.line(format!("const {q} = {raw};"));
                q
            };
            dequantized(*repr, &q, *min, *max, *steps, kind == Raw::Big)
        }
        other => unreachable!("not plain: {other:?}"),
    }
}

/// The grid value (binary64) of the stored integer in `q`, a local or a literal (spec
/// §4.3). For `number` integers this is `bw.dequantize` written out, the same operations
/// in the same order (`max - min` folded here, as binary64 subtraction gives the same
/// result), so that no call or `number | bigint` test is left in the decoder; `bigint`
/// integers (grids over 2^53 steps) call the runtime.
fn dequantized(repr: FloatRepr, q: &str, min: f64, max: f64, steps: u64, big: bool) -> String {
    let x = dequantize(q, min, max, steps, big);
    match repr {
        FloatRepr::F32 => round_to(repr, &x),
        FloatRepr::F64 if big => x,
        FloatRepr::F64 => format!("({x})"),
    }
}

/// [`dequantized`] before any rounding to `f32`.
fn dequantize(q: &str, min: f64, max: f64, steps: u64, big: bool) -> String {
    if big {
        return format!(
            "bw.dequantize({q}, {}, {}, {})",
            f64_lit(min),
            f64_lit(max),
            int_lit(i128::from(steps), true)
        );
    }
    format!(
        "{q} === {steps} ? {} : {} + ({} * {q}) / {steps}",
        f64_lit(max),
        f64_lit(min),
        f64_lit(max - min)
    )
}

/// A 33..53-bit two's-complement value from its unsigned bits in local `raw`.
fn sign_extend53(raw: &str, w: u32) -> String {
    format!(
        "{raw} >= {} ? {raw} - {} : {raw}",
        1u64 << (w - 1),
        1u64 << w
    )
}

/// The value of a bounded integer from its stored offset `raw` (checked ≤ the span).
fn bounded_value(raw: &str, kind: Raw, min: i128, big: bool) -> String {
    let add = |m: String| {
        if min == 0 {
            raw.to_string()
        } else if min < 0 {
            format!("{} - {}", bits::paren(raw), m.trim_start_matches('-'))
        } else {
            format!("{} + {m}", bits::paren(raw))
        }
    };
    match (big, kind == Raw::Big) {
        (false, false) => add(min.to_string()),
        (false, true) => format!("Number({})", add(format!("{min}n"))),
        (true, true) => add(format!("{min}n")),
        (true, false) => {
            let b = format!("BigInt({raw})");
            if min == 0 {
                b
            } else if min < 0 {
                format!("{b} - {}n", -min)
            } else {
                format!("{b} + {min}n")
            }
        }
    }
}

/// Prints the validation of a scalar whose stored bits are `raw` (starting at stream
/// bit `at`) and returns the expression of its value. `lo` / `hi` are the chunk halves
/// (for `f64`, which fills a whole run).
#[allow(clippy::too_many_arguments)]
fn validated_value(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    ty: &Type,
    ctx: &Ctx,
    at: &str,
    raw: &str,
    kind: Raw,
    lo: &str,
    hi: &str,
    dest: Option<&str>,
) -> String {
    let fail = |p: &mut Printer, cond: &str, err: &str| {
        p.open(format!("if ({cond}) {{"));
        p.line(format!("throw {};", ctx.error(err, at)));
        p.close("}");
    };
    let bind = |p: &mut Printer, locals: &mut Locals, base: &str| {
        if bits::is_simple(raw) && !raw.contains('(') {
            return raw.to_string();
        }
        let l = locals.fresh(base);
        p.line(format!("const {l} = {raw};"));
        l
    };
    match ty {
        Type::Float {
            repr: FloatRepr::F32,
        } => {
            let b = bind(p, locals, "raw");
            fail(p, &format!("bw.isNonCanonicalF32({b})"), "NonCanonical");
            format!("bw.f32FromBits({b})")
        }
        Type::Float {
            repr: FloatRepr::F64,
        } => {
            fail(
                p,
                &format!("bw.isNonCanonicalF64({lo}, {hi})"),
                "NonCanonical",
            );
            format!("bw.f64FromBits({lo}, {hi})")
        }
        Type::Bounded {
            min,
            max,
            packed_bits,
            ..
        } => {
            if *packed_bits == 0 {
                return int_lit(*min, is_big(ty));
            }
            let b = bind(p, locals, "raw");
            let span = max - min;
            if span < (1i128 << packed_bits) - 1 {
                fail(
                    p,
                    &format!("{b} > {}", int_lit(span, kind == Raw::Big)),
                    "OutOfRange",
                );
            }
            bounded_value(&b, kind, *min, is_big(ty))
        }
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            packed_bits,
        } => {
            let big = kind == Raw::Big;
            let q = if *packed_bits == 0 {
                "0".to_string()
            } else {
                bind(p, locals, "q")
            };
            if *packed_bits > 0 && u128::from(*steps) < (1u128 << packed_bits) - 1 {
                fail(
                    p,
                    &format!("{q} > {}", int_lit(i128::from(*steps), big)),
                    "OutOfRange",
                );
            }
            dequantized(*repr, &q, *min, *max, *steps, big)
        }
        Type::Named { id, .. } => {
            let TypeDefKind::Enum {
                variants,
                packed_tag_bits,
                ..
            } = &g.schema.types[*id].kind
            else {
                unreachable!("only enums are run scalars")
            };
            if *packed_tag_bits == 0 {
                let only = variants.iter().find(|v| v.value == 0).expect("value 0");
                return naming::str_lit(&only.name);
            }
            let tag = match (enum_big(variants), kind == Raw::Big) {
                (false, true) => format!("Number({raw})"),
                (true, false) => format!("BigInt({raw})"),
                _ => raw.to_string(),
            };
            let v = match dest {
                Some(d) => d.to_string(),
                None => locals.fresh("value"),
            };
            p.line(format!(
                "const {v} = {}FromTag({tag});",
                g.names.types[*id].lower
            ));
            fail(p, &format!("{v} === undefined"), "InvalidEnum");
            v
        }
        other => unreachable!("not a validated scalar: {other:?}"),
    }
}

/// The reader call for a `bits`-wide unsigned value.
fn read_uint(bits: u32) -> String {
    match Raw::of(bits) {
        Raw::N32 => format!("r.readBits({bits})"),
        Raw::N53 => format!("r.readUint({bits})"),
        Raw::Big => format!("r.readBig({bits})"),
    }
}

/// Prints the reading of one value of any type outside a run (errors carry no path of
/// their own: the enclosing `try` adds it) and returns the expression of the value.
pub(crate) fn read_expr(g: &Gen, p: &mut Printer, locals: &mut Locals, ty: &Type) -> String {
    match ty {
        Type::Bool => "r.readBool()".into(),
        Type::UInt { bits, .. } => read_uint(*bits),
        Type::SInt { bits, .. } => match Raw::of(*bits) {
            Raw::N32 => format!("r.readInt({bits})"),
            Raw::N53 => format!("r.readInt53({bits})"),
            Raw::Big => format!("r.readBigInt({bits})"),
        },
        Type::Float {
            repr: FloatRepr::F32,
        } => "r.readF32()".into(),
        Type::Float {
            repr: FloatRepr::F64,
        } => "r.readF64()".into(),
        Type::Bounded { packed_bits: 0, .. } | Type::Quantized { packed_bits: 0, .. } => {
            validated_value(
                g,
                p,
                locals,
                ty,
                &Ctx::default(),
                "r.bitPos",
                "0",
                Raw::N32,
                "",
                "",
                None,
            )
        }
        Type::Named { id, .. } if zero_width_scalar(g, ty) => {
            let _ = id;
            validated_value(
                g,
                p,
                locals,
                ty,
                &Ctx::default(),
                "r.bitPos",
                "0",
                Raw::N32,
                "",
                "",
                None,
            )
        }
        Type::Bounded { packed_bits, .. } | Type::Quantized { packed_bits, .. } => {
            scalar_at(g, p, locals, ty, *packed_bits)
        }
        Type::Named { id, .. } if g.is_enum(ty) => {
            let bits = plan::scalar_bits(g.schema, ty).expect("an enum is a scalar");
            let _ = id;
            scalar_at(g, p, locals, ty, bits)
        }
        Type::VarUInt { bits: 64, .. } => "r.readVaru64()".into(),
        Type::VarUInt { bits, .. } => format!("r.readVaruint({bits})"),
        Type::VarSInt { bits: 64, .. } => "bw.unzigzag64(r.readVaru64())".into(),
        Type::VarSInt { bits, .. } => format!("bw.unzigzag32(r.readVaruint({bits}))"),
        Type::Optional { inner } => {
            let o = locals.fresh("o");
            p.line(format!("let {o}: {} | null = null;", g.ts_type(inner)));
            p.open("if (r.readBool()) {");
            let e = read_expr(g, p, locals, inner);
            p.line(format!("{o} = {e};"));
            p.close("}");
            o
        }
        Type::Array { elem, len } => read_elements(g, p, locals, elem, &len.to_string()),
        Type::List {
            elem,
            max,
            packed_len,
        } => {
            let (len, _) = read_length(g, p, locals, ty, *max, *packed_len);
            read_elements(g, p, locals, elem, &len)
        }
        Type::String { max, packed_len } => {
            let (len, start) = read_length(g, p, locals, ty, *max, *packed_len);
            format!("r.readString({len}, {start})")
        }
        Type::Bytes { max, packed_len } => {
            let (len, _) = read_length(g, p, locals, ty, *max, *packed_len);
            format!("r.readBytes({len})")
        }
        Type::Named { id, .. } => format!("read{}(r)", g.ident(*id)),
    }
}

/// A validated scalar of `bits` bits read on its own: its start, its stored bits, then
/// [`validated_value`].
fn scalar_at(g: &Gen, p: &mut Printer, locals: &mut Locals, ty: &Type, bits: u32) -> String {
    if is_plain(ty) {
        // Nothing to reject: the value straight from the stored bits.
        let raw = locals.fresh("raw");
        p.line(format!("const {raw} = {};", read_uint(bits)));
        return match ty {
            Type::Bounded { min, .. } => bounded_value(&raw, Raw::of(bits), *min, is_big(ty)),
            _ => validated_value(
                g,
                p,
                locals,
                ty,
                &Ctx::default(),
                "",
                &raw,
                Raw::of(bits),
                "",
                "",
                None,
            ),
        };
    }
    let at = locals.fresh("at");
    p.line(format!("const {at} = r.bitPos;"));
    let raw = locals.fresh("raw");
    p.line(format!("const {raw} = {};", read_uint(bits)));
    validated_value(
        g,
        p,
        locals,
        ty,
        &Ctx::default(),
        &at,
        &raw,
        Raw::of(bits),
        "",
        "",
        None,
    )
}

/// Reads a length prefix and validates it (spec §5.6): the bound first, then that the
/// elements can fit in what is left of the input. Returns the locals holding the
/// checked length and the value's start bit.
fn read_length(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    ty: &Type,
    max: Option<u64>,
    encoding: LengthEncoding,
) -> (String, String) {
    let start = locals.fresh("start");
    let len = locals.fresh("len");
    p.line(format!("const {start} = r.bitPos;"));
    let (read, fixed_max) = match encoding {
        LengthEncoding::Fixed { bits } if bits < 64 => (read_uint(bits), (1u64 << bits) - 1),
        LengthEncoding::Fixed { .. } => ("Number(r.readBig(64))".into(), u64::MAX),
        LengthEncoding::Varint => ("r.readLength()".into(), u64::MAX),
    };
    p.line(format!("let {len} = {read};"));
    if let Some(m) = max.filter(|&m| m < fixed_max) {
        p.open(format!("if ({len} > {m}) {{"));
        p.line(format!("throw bw.error(\"InvalidLength\", {start});"));
        p.close("}");
    }
    let min_bits = plan::element_min_bits(g.schema, ty);
    p.line(format!("{len} = r.checkLen({len}, {min_bits}, {start});"));
    (len, start)
}

/// Reads `count` elements into a new array, adding the index to errors' paths.
fn read_elements(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    elem: &Type,
    count: &str,
) -> String {
    let items = locals.fresh("items");
    let i = locals.fresh("i");
    p.line(format!("const {items}: {}[] = [];", elem_type(g, elem)));
    p.open(format!("for (let {i} = 0; {i} < {count}; {i}++) {{"));
    let seg = i.clone();
    wrapped(p, "atIndex", &seg, |p| {
        let e = read_expr(g, p, locals, elem);
        p.line(format!("{items}.push({e});"));
    });
    p.close("}");
    items
}

/// An element type, bracketed when it is a union (`(number | null)[]`).
fn elem_type(g: &Gen, elem: &Type) -> String {
    let t = g.ts_type(elem);
    if t.contains(' ') {
        format!("({t})")
    } else {
        t
    }
}

/// Prints `verifyX`: the checks of `decodeX` on a whole input, building nothing.
pub fn verify_top_level(g: &Gen, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    p.doc(&[vec![
        format!("Checks a whole input as `decode{ident}` does, in the same order and with"),
        "the same {@link bw.BitwireError}, but builds no value (docs/typescript.md).".into(),
    ]]);
    p.open(format!(
        "export function verify{ident}(bytes: Uint8Array): void {{"
    ));
    p.line("const r = bw.sharedReader(bytes);");
    p.line(format!("skip{ident}(r);"));
    p.line("r.finish();");
    p.close("}");
}

/// Prints `skipX`: `readX`'s reads and checks, in its order, without the value.
pub fn skip_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let ident = g.ident(id);
    let mut locals = Locals::default();
    locals.reserve("r");
    p.doc(&[vec![
        "Moves past a value at the reader's position, checking it as the read does.".into(),
    ]]);
    let reads = plan::type_layout(
        g.schema,
        &Type::Named {
            id,
            name: def.name.clone(),
        },
    )
    .max_bits
        != Some(0);
    let r = if reads { "r" } else { "_r" };
    p.open(format!(
        "export function skip{ident}({r}: bw.BitReader): void {{"
    ));
    if !reads {
        p.line("// Every value encodes to zero bits: nothing to read or check.");
        p.close("}");
        return;
    }
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            let prefix = &g.names.types[id].constant;
            let runs = plan::struct_plan(g.schema, fields)
                .iter()
                .filter(|s| matches!(s, Step::Run(r) if r.bits > 0))
                .count();
            let mut n = 0;
            for step in plan::struct_plan(g.schema, fields) {
                match step {
                    Step::Run(run) => {
                        let table = (run.bits > 0).then(|| {
                            n += 1;
                            if runs == 1 {
                                format!("{prefix}_RUN")
                            } else {
                                format!("{prefix}_RUN{n}")
                            }
                        });
                        skip_run(g, p, &mut locals, &run, fields, table.as_ref());
                    }
                    Step::Field(i) => {
                        let f = &fields[i];
                        if plan::type_layout(g.schema, &f.ty).max_bits == Some(0) {
                            continue;
                        }
                        wrapped(p, "inField", &naming::str_lit(&f.name), |p| {
                            skip_expr(g, p, &mut locals, &f.ty);
                        });
                    }
                }
            }
        }
        TypeDefKind::Enum { .. } => {
            let ty = Type::Named {
                id,
                name: def.name.clone(),
            };
            skip_expr(g, p, &mut locals, &ty);
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            let arm = |p: &mut Printer, locals: &mut Locals, v: &crate::ir::UnionVariant| {
                if let Some(ty) = &v.payload {
                    if plan::type_layout(g.schema, ty).max_bits != Some(0) {
                        wrapped(p, "inField", &naming::str_lit(&v.name), |p| {
                            skip_expr(g, p, locals, ty);
                        });
                    }
                }
            };
            if *packed_tag_bits == 0 {
                arm(p, &mut locals, &variants[0]);
            } else {
                p.line("const at = r.bitPos;");
                let read = read_uint(*packed_tag_bits);
                p.line(format!("const tag = {read};"));
                p.open("switch (tag) {");
                for v in variants {
                    p.open(format!(
                        "case {}: {{",
                        int_lit(
                            i128::from(v.tag),
                            bits::Raw::of(*packed_tag_bits) == Raw::Big
                        )
                    ));
                    arm(p, &mut locals, v);
                    p.line("return;");
                    p.close("}");
                }
                p.open("default:");
                p.line("throw bw.error(\"InvalidEnum\", at);");
                p.dedent();
                p.close("}");
            }
        }
    }
    p.close("}");
}

/// Skips a run of a struct's scalar fields: one chunk load, the checks of the fields
/// that have any, and the run's `Truncated` checks where [`read_run`] has them.
fn skip_run(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    run: &plan::Run,
    fields: &[crate::ir::Field],
    table: Option<&String>,
) {
    if run.bits == 0 {
        // Zero-width fields: constants, nothing to read or check.
        return;
    }
    // Which chunk halves the checked fields read.
    let (mut use_lo, mut use_hi) = (false, false);
    for rf in &run.fields {
        let ty = &fields[rf.index].ty;
        if rf.bits == 0 || is_plain(ty) {
            continue;
        }
        if matches!(
            ty,
            Type::Float {
                repr: FloatRepr::F64
            }
        ) {
            (use_lo, use_hi) = (true, true);
            continue;
        }
        use_lo |= rf.offset < 32;
        use_hi |= rf.offset + rf.bits > 32;
    }
    p.line(load_chunk(run.bits));
    let lo = if use_lo {
        let lo = locals.fresh("lo");
        p.line(format!("const {lo} = r.chunkLo;"));
        lo
    } else {
        "lo".to_string()
    };
    let hi = if use_hi {
        let hi = locals.fresh("hi");
        p.line(format!("const {hi} = r.chunkHi;"));
        hi
    } else {
        "hi".to_string()
    };
    let table = table.expect("a run with bits has a table");
    let check = |p: &mut Printer, end: u32| {
        p.open(format!("if (r.chunkAvail < {end}) {{"));
        p.line(format!("throw r.chunkTruncated({table});"));
        p.close("}");
    };
    let mut pending: Option<u32> = None;
    for rf in &run.fields {
        let f = &fields[rf.index];
        if rf.bits > 0 && is_plain(&f.ty) {
            pending = Some(rf.offset + rf.bits);
            continue;
        }
        if rf.bits > 0 {
            check(p, rf.offset + rf.bits);
            pending = None;
        }
        let ctx = Ctx::field(&f.name);
        let at = match rf.offset {
            0 => "r.chunkStart".to_string(),
            o => format!("r.chunkStart + {o}"),
        };
        let (raw, kind) = bits::extract(&lo, &hi, rf.offset, rf.bits);
        validated_value(g, p, locals, &f.ty, &ctx, &at, &raw, kind, &lo, &hi, None);
    }
    if let Some(end) = pending {
        check(p, end);
    }
}

/// Prints the skipping of one value of any type outside a run: [`read_expr`]'s reads
/// and checks, in its order, building nothing.
fn skip_expr(g: &Gen, p: &mut Printer, locals: &mut Locals, ty: &Type) {
    match ty {
        Type::Bool => p.line("r.skip(1);"),
        Type::UInt { bits, .. } | Type::SInt { bits, .. } => p.line(format!("r.skip({bits});")),
        Type::Float {
            repr: FloatRepr::F32,
        } => p.line("r.skipF32();"),
        Type::Float {
            repr: FloatRepr::F64,
        } => p.line("r.skipF64();"),
        _ if plan::type_layout(g.schema, ty).max_bits == Some(0) => {}
        Type::Bounded { packed_bits, .. } | Type::Quantized { packed_bits, .. } => {
            skip_scalar(g, p, locals, ty, *packed_bits);
        }
        Type::Named { .. } if g.is_enum(ty) => {
            let bits = plan::scalar_bits(g.schema, ty).expect("an enum is a scalar");
            skip_scalar(g, p, locals, ty, bits);
        }
        Type::VarUInt { bits, .. } | Type::VarSInt { bits, .. } => {
            p.line(format!("r.skipVarint({bits});"));
        }
        Type::Optional { inner } => {
            p.open("if (r.readBool()) {");
            skip_expr(g, p, locals, inner);
            p.close("}");
        }
        Type::Array { elem, len } => match plain_width(g, elem) {
            // One bounds check for the whole array; the error names the first element
            // that does not fit, as the element-by-element read does.
            Some(w) => p.line(format!("r.skipElements({len}, {w});")),
            None => skip_elements(g, p, locals, elem, &len.to_string()),
        },
        Type::List {
            elem,
            max,
            packed_len,
        } => {
            let (len, _) = read_length(g, p, locals, ty, *max, *packed_len);
            match plain_width(g, elem) {
                // The length check made room for every element: one move past them.
                Some(w) if plan::element_min_bits(g.schema, ty) == u64::from(w) => {
                    p.line(format!("r.skip({len} * {w});"));
                }
                _ => skip_elements(g, p, locals, elem, &len),
            }
        }
        Type::String { max, packed_len } => {
            let (len, start) = read_length(g, p, locals, ty, *max, *packed_len);
            p.line(format!("r.skipString({len}, {start});"));
        }
        Type::Bytes { max, packed_len } => {
            let (len, _) = read_length(g, p, locals, ty, *max, *packed_len);
            p.line(format!("r.skip({len} * 8);"));
        }
        Type::Named { id, .. } => p.line(format!("skip{}(r);", g.ident(*id))),
    }
}

/// Skips a scalar of `bits` bits read on its own (see [`scalar_at`]).
fn skip_scalar(g: &Gen, p: &mut Printer, locals: &mut Locals, ty: &Type, bits: u32) {
    if is_plain(ty) {
        p.line(format!("r.skip({bits});"));
        return;
    }
    let at = locals.fresh("at");
    p.line(format!("const {at} = r.bitPos;"));
    let raw = locals.fresh("raw");
    p.line(format!("const {raw} = {};", read_uint(bits)));
    validated_value(
        g,
        p,
        locals,
        ty,
        &Ctx::default(),
        &at,
        &raw,
        Raw::of(bits),
        "",
        "",
        None,
    );
}

/// Skips `count` elements, adding the index to errors' paths.
fn skip_elements(g: &Gen, p: &mut Printer, locals: &mut Locals, elem: &Type, count: &str) {
    if plan::type_layout(g.schema, elem).max_bits == Some(0) {
        return;
    }
    let i = locals.fresh("i");
    p.open(format!("for (let {i} = 0; {i} < {count}; {i}++) {{"));
    wrapped(p, "atIndex", &i.clone(), |p| skip_expr(g, p, locals, elem));
    p.close("}");
}

/// The width of an element any bit pattern of which is valid (nothing to check but the
/// bounds), if it has a fixed one.
fn plain_width(g: &Gen, elem: &Type) -> Option<u32> {
    if !matches!(elem, Type::Bool | Type::UInt { .. } | Type::SInt { .. }) && !is_plain(elem) {
        return None;
    }
    plan::scalar_bits(g.schema, elem).filter(|&w| w > 0)
}
