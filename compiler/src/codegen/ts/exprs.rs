//! TypeScript expressions for plan scalars: the value a decoder builds from stored bits,
//! the stored bits an encoder writes for a value, the conditions under which a value
//! cannot be written, and the runtime calls that build the errors. Everything here
//! turns a decision of the plan into text, in TypeScript's representation of it
//! (`number` or `bigint`, ADR 0006); nothing decides.

use super::bits::{self, Raw};
use super::{f64_lit, int_lit, path_args, round_to, Gen};
use crate::ir::FloatRepr;
use crate::plan::{EncodeCheck, Kind, Scalar, ScalarKind, Varint};

/// The reader call for a `bits`-wide unsigned value.
pub fn read_uint(bits: u32) -> String {
    match Raw::of(bits) {
        Raw::N32 => format!("r.readBits({bits})"),
        Raw::N53 => format!("r.readUint({bits})"),
        Raw::Big => format!("r.readBig({bits})"),
    }
}

/// A 33..53-bit two's-complement value from its unsigned bits in local `raw`.
pub fn sign_extend53(raw: &str, w: u32) -> String {
    format!(
        "{raw} >= {} ? {raw} - {} : {raw}",
        1u64 << (w - 1),
        1u64 << w
    )
}

/// The value of a bounded integer (`bigint` when `wide`) from its stored offset `raw`,
/// held as `kind` and checked to be at most the span (§4.2).
pub fn bounded_value(raw: &str, kind: Raw, min: i128, wide: bool) -> String {
    let add = |m: String| {
        if min == 0 {
            raw.to_string()
        } else if min < 0 {
            format!("{} - {}", bits::paren(raw), m.trim_start_matches('-'))
        } else {
            format!("{} + {m}", bits::paren(raw))
        }
    };
    match (wide, kind == Raw::Big) {
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

/// The grid value of the stored integer in `q`, a local or a literal (spec §4.3):
/// `max` at the last step, else `min + ((max - min) * q) / steps` in binary64 — or
/// `* scale` where the plan proved multiplying by `1 / steps` exact. `max - min` is
/// folded here (binary64 subtraction gives the value the runtime would compute), so no
/// call is left in the decoder. `big`: `q` is a `bigint` (grids over 2^53 steps).
pub fn dequantized(s: &Scalar, q: &str, big: bool) -> String {
    let ScalarKind::Quantized {
        repr,
        min,
        max,
        steps,
        scale,
    } = s.kind
    else {
        unreachable!("not quantized")
    };
    let (last, qn) = if big {
        (format!("{steps}n"), format!("Number({q})"))
    } else {
        (int_lit(i128::from(steps), false), q.to_string())
    };
    let tail = match scale {
        Some(scale) => format!("* {}", f64_lit(scale)),
        None => format!("/ {}", int_lit(i128::from(steps), false)),
    };
    let x = format!(
        "{q} === {last} ? {} : {} + ({} * {qn}) {tail}",
        f64_lit(max),
        f64_lit(min),
        f64_lit(max - min)
    );
    match repr {
        FloatRepr::F32 => round_to(repr, &x),
        FloatRepr::F64 => format!("({x})"),
    }
}

/// The value of a scalar any stored bits of which are valid, from `raw` (held as
/// `kind`). Signed integers come sign-extended from their own extraction, and enums
/// from their tag table, elsewhere.
pub fn plain_value(s: &Scalar, raw: &str, kind: Raw) -> String {
    match s.kind {
        ScalarKind::Bool => format!("{} !== 0", bits::paren(raw)),
        ScalarKind::UInt { .. } => raw.to_string(),
        ScalarKind::Bounded { min, .. } => bounded_value(raw, kind, min, s.json_wide),
        ScalarKind::Quantized { .. } => dequantized(s, raw, kind == Raw::Big),
        ref other => unreachable!("not a plain scalar: {other:?}"),
    }
}

/// The one value of a zero-width scalar (spec §4: nothing is stored).
pub fn constant(g: &Gen, s: &Scalar) -> String {
    match s.kind {
        ScalarKind::Bounded { min, .. } => int_lit(min, s.json_wide),
        ScalarKind::Enum { id, .. } => enum_zero(g, id),
        ScalarKind::Quantized { max, .. } => f64_lit(max),
        ref other => unreachable!("not a zero-width scalar: {other:?}"),
    }
}

/// The variant of enum `id` whose value is 0, the one value of a zero-bit tag (§4.1).
pub fn enum_zero(g: &Gen, id: usize) -> String {
    let crate::plan::Body::Enum(e) = &g.plan.get(id).body else {
        unreachable!("an enum")
    };
    let i = e.values.iter().position(|&v| v == 0).expect("value 0");
    let crate::ir::TypeDefKind::Enum { variants, .. } = &g.schema.types[id].kind else {
        unreachable!("an enum")
    };
    super::naming::str_lit(&variants[i].name)
}

/// The tag of an enum as its table takes it, from stored bits held as `kind`.
pub fn enum_tag(g: &Gen, id: usize, raw: &str, kind: Raw) -> String {
    match (g.enum_big(id), kind == Raw::Big) {
        (false, true) => format!("Number({raw})"),
        (true, false) => format!("BigInt({raw})"),
        _ => raw.to_string(),
    }
}

/// An integer check's range, for printing: `(min, max, wide)` of `EncodeCheck::Range`.
fn int_range(s: &Scalar) -> Option<(i128, i128, bool)> {
    match s.encode {
        EncodeCheck::Range { min, max, .. } => Some((min, max, s.json_wide)),
        _ => None,
    }
}

/// The condition under which the value `x` cannot be written as the scalar `s`, for
/// scalars whose check is a plain condition: a `bool` that is not a `boolean`, an
/// `f32` / `f64` that is not a `number`, an integer that is not an integer of its
/// range (`EncodeCheck::Range`, which also rejects non-numbers). `None` for quantized
/// floats and enums, whose checks compute something.
pub fn violation(s: &Scalar, x: &str) -> Option<String> {
    match s.kind {
        ScalarKind::Bool => Some(format!("typeof {x} !== \"boolean\"")),
        ScalarKind::Float { .. } => Some(format!("typeof {x} !== \"number\"")),
        ScalarKind::Quantized { .. } | ScalarKind::Enum { .. } => None,
        _ => {
            let (min, max, wide) = int_range(s).expect("an integer check");
            Some(range_violation(x, min, max, wide))
        }
    }
}

/// The condition under which `x` is not an integer in `min..=max`: bit tricks for the
/// ranges of `uN` / `iN` up to 32 bits, comparisons otherwise. JavaScript's bitwise
/// operators convert what they are given (`"5" & 15` is 5, which fails the test), but
/// throw a `TypeError` for a `bigint`, so those forms check the type first; a `bigint`
/// range checks its type likewise.
pub fn range_violation(x: &str, min: i128, max: i128, wide: bool) -> String {
    if wide {
        let full = |bits: u32| {
            if min == 0 && max == (1i128 << bits) - 1 {
                Some(format!("BigInt.asUintN({bits}, {x}) !== {x}"))
            } else if min == -(1i128 << (bits - 1)) && max == (1i128 << (bits - 1)) - 1 {
                Some(format!("BigInt.asIntN({bits}, {x}) !== {x}"))
            } else {
                None
            }
        };
        let cmp = (54..=64)
            .find_map(full)
            .unwrap_or_else(|| format!("{x} < {min}n || {x} > {max}n"));
        return format!("typeof {x} !== \"bigint\" || {cmp}");
    }
    if min == max {
        return format!("{x} !== {}", int_lit(min, false));
    }
    let number = format!("typeof {x} !== \"number\"");
    let span = max - min;
    let bits_of = |n: i128| 128 - n.leading_zeros();
    if min == 0 && (span + 1).count_ones() == 1 && bits_of(span) <= 32 {
        let b = bits_of(span);
        return if b == 32 {
            format!("{number} || {x} >>> 0 !== {x}")
        } else {
            format!("{number} || ({x} & {}) !== {x}", bits::mask(b))
        };
    }
    if min < 0 && -min == max + 1 && (span + 1).count_ones() == 1 && bits_of(span) <= 32 {
        let b = bits_of(span);
        return if b == 32 {
            format!("{number} || ({x} | 0) !== {x}")
        } else {
            format!("{number} || (({x} << {s}) >> {s}) !== {x}", s = 32 - b)
        };
    }
    let int32 = i128::from(i32::MIN)..=i128::from(i32::MAX);
    if int32.contains(&min) && int32.contains(&max) {
        format!("{number} || ({x} | 0) !== {x} || {x} < {min} || {x} > {max}")
    } else {
        // `Number.isInteger` is false for anything but an integral `number`.
        format!("!Number.isInteger({x}) || {x} < {min} || {x} > {max}")
    }
}

/// The range of a varint's type (§5.4: the encoder rejects values outside it).
pub fn varint_range(v: &Varint) -> (i128, i128) {
    if v.signed {
        let half = 1i128 << (v.bits - 1);
        (-half, half - 1)
    } else {
        (0, (1i128 << v.bits) - 1)
    }
}

/// The error for a value `x` of the scalar `s` that failed its [`violation`]
/// condition, at stream bit `at`, with the path `names` (empty when the enclosing
/// `try` adds it). `kind` is the plan's kind for a value of the wrong type.
pub fn violation_error(s: &Scalar, x: &str, at: &str, names: &[String], kind: Kind) -> String {
    let path = path_args(names);
    let type_error = |expected: &str| {
        format!(
            "bw.typeError(\"{}\", {at}, {x}, \"{expected}\"{path})",
            kind.name()
        )
    };
    match s.kind {
        ScalarKind::Bool => type_error("a boolean"),
        ScalarKind::Float { .. } => type_error("a number"),
        _ => {
            let (min, max, wide) = int_range(s).expect("an integer check");
            format!(
                "bw.rangeError({at}, {x}, {}, {}{path})",
                int_lit(min, wide),
                int_lit(max, wide)
            )
        }
    }
}

/// The stored bits an encoder writes for the value `x` of a scalar whose check passed,
/// with how they are held and whether no bits are set above the scalar's width
/// (`clean`; else they are masked where they would land on a neighbour). `q` holds the
/// quantized integer of a quantized float, or the tag of an enum.
pub fn wire_raw(s: &Scalar, x: &str, q: Option<&str>) -> (String, Raw, bool) {
    let w = s.bits;
    match s.kind {
        ScalarKind::Bool => (format!("{x} ? 1 : 0"), Raw::N32, true),
        ScalarKind::UInt { .. } => (x.to_string(), Raw::of(w), true),
        ScalarKind::SInt { .. } => match Raw::of(w) {
            Raw::N32 => (x.to_string(), Raw::N32, w == 32),
            Raw::N53 => (
                format!("{x} < 0 ? {x} + {} : {x}", 1u64 << w),
                Raw::N53,
                true,
            ),
            Raw::Big => (format!("BigInt.asUintN({w}, {x})"), Raw::Big, true),
        },
        ScalarKind::Float {
            repr: FloatRepr::F32,
        } => (format!("bw.f32ToBits({x})"), Raw::N32, true),
        ScalarKind::Float {
            repr: FloatRepr::F64,
        } => unreachable!("an f64 is written as its two halves"),
        ScalarKind::Bounded { min, .. } => (bounded_raw(x, min, w, s.json_wide), Raw::of(w), true),
        ScalarKind::Quantized { .. } | ScalarKind::Enum { .. } => (
            q.expect("a quantized or tag local").to_string(),
            Raw::of(w),
            true,
        ),
    }
}

/// `x - min` (already checked to be in range) held as a `w`-bit raw value.
fn bounded_raw(x: &str, min: i128, w: u32, wide: bool) -> String {
    let sub = |m: String| {
        if min == 0 {
            x.to_string()
        } else if min < 0 {
            format!("{x} + {}", m.trim_start_matches('-'))
        } else {
            format!("{x} - {m}")
        }
    };
    match (wide, super::big_bits(w)) {
        (false, false) => sub(min.to_string()),
        // A narrow value with a span above 2^53: the difference needs a bigint.
        (false, true) => format!("BigInt({x}) - {min}n"),
        (true, true) => sub(format!("{min}n")),
        (true, false) => format!("Number({})", sub(format!("{min}n"))),
    }
}
