//! Go expressions for plan scalars: the bits an encoder writes for a value and the
//! conditions under which it cannot, the value a decoder builds from bits, and the
//! errors both return with the value and the limit for the message. Everything here
//! turns a decision of the plan into text; nothing decides.

use super::expr::{atom, bin, call, paren, unary, E};
use super::{f64_lit, int_type, Gen};
use crate::ir::{FloatRepr, IntRepr};
use crate::plan::{scalar::repr_range, EncodeCheck, Scalar, ScalarKind};

/// `uint64(x)` (or `x` when it already is one).
pub fn to_u64(x: E, repr: IntRepr) -> E {
    if repr == IntRepr::U64 {
        x
    } else {
        call("uint64", vec![x])
    }
}

/// `int64(x)` (or `x` when it already is one).
pub fn to_i64(x: E, repr: IntRepr) -> E {
    if repr == IntRepr::I64 {
        x
    } else {
        call("int64", vec![x])
    }
}

/// `T(x)` for a `uint64` `x` (nothing for `uint64`).
pub fn from_u64(x: E, repr: IntRepr) -> E {
    if repr == IntRepr::U64 {
        x
    } else {
        call(int_type(repr), vec![x])
    }
}

/// `T(x)` for an `int64` `x` (nothing for `int64`).
pub fn from_i64(x: E, repr: IntRepr) -> E {
    if repr == IntRepr::I64 {
        x
    } else {
        call(int_type(repr), vec![x])
    }
}

/// The integer representation of a scalar that has one.
fn int_repr(s: &Scalar) -> Option<IntRepr> {
    match s.kind {
        ScalarKind::UInt { repr }
        | ScalarKind::SInt { repr }
        | ScalarKind::Bounded { repr, .. }
        | ScalarKind::Enum { repr, .. } => Some(repr),
        _ => None,
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

/// The integer range an encoder checks, when a Go value can leave it (the plan's
/// `Range` check whose range is not the whole Go type).
fn checked_range(s: &Scalar) -> Option<(i128, i128, IntRepr)> {
    match s.encode {
        EncodeCheck::Range {
            min,
            max,
            repr_covers: false,
            ..
        } => Some((min, max, int_repr(s).expect("an integer scalar"))),
        _ => None,
    }
}

/// The condition under which a run scalar `x` cannot be encoded, for the checks the
/// plan gives a Go encoder other than a quantized float's (which quantizes too):
/// outside its integer range, or an undeclared enum value. `None` when a Go value
/// always passes.
pub fn violation(s: &Scalar, x: E) -> Option<E> {
    if let EncodeCheck::Declared { .. } = s.encode {
        return Some(unary("!", call(format!("{}.Valid", x.text()), vec![])));
    }
    let (lo, hi, repr) = checked_range(s)?;
    let (rlo, rhi) = repr_range(repr);
    Some(match (lo <= rlo, hi >= rhi) {
        _ if lo == hi => bin(x, "!=", atom(lo.to_string())),
        (true, _) => bin(x, ">", atom(hi.to_string())),
        (false, true) => bin(x, "<", atom(lo.to_string())),
        (false, false) => bin(
            bin(x.clone(), "<", atom(lo.to_string())),
            "||",
            bin(x, ">", atom(hi.to_string())),
        ),
    })
}

/// A `uint64` that is zero exactly when the scalar `x` passes its [`violation`]
/// check (`None` when there is none): the bits of `x`'s offset in its range above
/// the range's width, or a comparison as 0 / 1 when the range is not a power of two
/// wide. Branch-free, so that the terms of a run can be ORed into one word and
/// tested once.
pub fn overflow_term(g: &Gen, s: &Scalar, x: E) -> Option<E> {
    let bit = |c: E| call("bitwire.Bit", vec![c]);
    if let ScalarKind::Enum { id, .. } = s.kind {
        return Some(match g.enum_plan(id).contiguous_to() {
            Some(last) if (last + 1).is_power_of_two() => {
                let u = call("uint64", vec![x]);
                match (last + 1).trailing_zeros() {
                    0 => u,
                    b => bin(u, ">>", atom(b.to_string())),
                }
            }
            Some(last) => bit(bin(x, ">", atom(last.to_string()))),
            None => bit(unary("!", call(format!("{}.Valid", x.text()), vec![]))),
        });
    }
    let (min, max, repr) = checked_range(s)?;
    if min == max {
        return Some(bit(bin(x, "!=", atom(min.to_string()))));
    }
    let (lo, hi) = repr_range(repr);
    let span = max - min;
    if (span + 1).count_ones() == 1 {
        let off = offset_expr(x, repr, min);
        let off = if off.is_operand() { off } else { paren(off) };
        return Some(bin(
            off,
            ">>",
            atom((span + 1).trailing_zeros().to_string()),
        ));
    }
    Some(bit(match (min <= lo, max >= hi) {
        (true, _) => bin(x, ">", atom(max.to_string())),
        (_, true) => bin(x, "<", atom(min.to_string())),
        _ => bin(offset_expr(x, repr, min), ">", atom(span.to_string())),
    }))
}

/// The error an encoder returns when `x` fails its [`violation`] check, at the
/// stream bit `at`: the value and its range (or the undeclared value) in the detail.
pub fn encode_error(s: &Scalar, x: E, at: E) -> E {
    if let EncodeCheck::Declared { .. } = s.encode {
        return call("bitwire.EnumError", vec![at, call("uint64", vec![x])]);
    }
    let (min, max, repr) = checked_range(s).expect("a range check");
    if repr.signed() {
        call(
            "bitwire.IntRangeError",
            vec![
                at,
                to_i64(x, repr),
                atom(min.to_string()),
                atom(max.to_string()),
            ],
        )
    } else {
        call(
            "bitwire.UintRangeError",
            vec![
                at,
                to_u64(x, repr),
                atom(min.to_string()),
                atom(max.to_string()),
            ],
        )
    }
}

/// A quantized float's value as the `float64` the quantizer computes with.
pub fn quantizer_input(repr: FloatRepr, x: &str) -> String {
    match repr {
        FloatRepr::F32 => format!("float64({x})"),
        FloatRepr::F64 => x.to_string(),
    }
}

/// The `uint64` bits an encoder writes for a scalar whose checks passed. `q` holds
/// the local with the quantized integer, for quantized floats.
pub fn wire_bits(s: &Scalar, x: E, q: Option<&str>) -> E {
    match s.kind {
        ScalarKind::Bool => call("bitwire.Bit", vec![x]),
        ScalarKind::UInt { repr } => to_u64(x, repr),
        ScalarKind::SInt { repr } if s.bits == repr.bits() => match repr {
            IntRepr::I64 => call("uint64", vec![x]),
            r => {
                let unsigned = int_type(r).replacen("int", "uint", 1);
                call("uint64", vec![call(unsigned, vec![x])])
            }
        },
        ScalarKind::SInt { .. } => {
            let mask = format!("{:#x}", (1u128 << s.bits) - 1);
            bin(call("uint64", vec![x]), "&", atom(mask))
        }
        ScalarKind::Float {
            repr: FloatRepr::F32,
        } => call("bitwire.F32ToWire", vec![x]),
        ScalarKind::Float {
            repr: FloatRepr::F64,
        } => call("bitwire.F64ToWire", vec![x]),
        ScalarKind::Bounded { repr, min, .. } => offset_expr(x, repr, min),
        ScalarKind::Quantized { .. } => atom(q.expect("a quantized local")),
        ScalarKind::Enum { .. } => call("uint64", vec![x]),
    }
}

/// The value of a scalar from its `uint64` bits `raw`, once any decode check passed
/// (a bounded offset at most `max - min`, a quantized integer at most `steps`).
pub fn value_from_bits(g: &Gen, s: &Scalar, raw: E) -> E {
    match s.kind {
        ScalarKind::Bool => bin(raw, "!=", atom("0")),
        ScalarKind::UInt { repr } => from_u64(raw, repr),
        ScalarKind::SInt { repr } => {
            let x = call("bitwire.SignExtend", vec![raw, atom(s.bits.to_string())]);
            from_i64(x, repr)
        }
        ScalarKind::Bounded { repr, min, .. } => bounded_from_raw(raw, repr, min),
        ScalarKind::Quantized { repr, .. } => {
            let x = dequantize(s, raw);
            match repr {
                FloatRepr::F32 => call("float32", vec![x]),
                FloatRepr::F64 => x,
            }
        }
        ScalarKind::Enum { id, .. } => call(g.ident(id), vec![raw]),
        ScalarKind::Float { .. } => unreachable!("floats are read with their NaN check"),
    }
}

/// The one value of a zero-width scalar.
pub fn constant(g: &Gen, s: &Scalar) -> String {
    match s.kind {
        ScalarKind::Bounded { min, .. } => min.to_string(),
        ScalarKind::Enum { id, .. } => zero_variant(g, id),
        ref other => unreachable!("not a zero-width scalar: {other:?}"),
    }
}

/// The constant of the variant of enum `id` with value 0 (a zero-width enum's only
/// value).
pub fn zero_variant(g: &Gen, id: crate::ir::TypeId) -> String {
    let k = g
        .enum_plan(id)
        .values
        .iter()
        .position(|&v| v == 0)
        .expect("a zero-width enum declares 0");
    g.names.types[id].members[k].clone()
}

/// `raw + min` in the representation, for a stored offset `raw` (a `uint64`) already
/// checked to be at most `max - min`. Go's integer arithmetic wraps, so the sum is
/// right even where `raw` alone exceeds the signed range.
fn bounded_from_raw(raw: E, repr: IntRepr, min: i128) -> E {
    if !repr.signed() {
        let x = match min {
            0 => raw,
            m => bin(raw, "+", atom(m.to_string())),
        };
        return from_u64(x, repr);
    }
    let x = match min {
        0 => call("int64", vec![raw]),
        m if m == i128::from(i64::MIN) => {
            call("int64", vec![bin(raw, "+", atom("9223372036854775808"))])
        }
        m if m < 0 => bin(call("int64", vec![raw]), "-", atom((-m).to_string())),
        m => bin(call("int64", vec![raw]), "+", atom(m.to_string())),
    };
    from_i64(x, repr)
}

/// The dequantized `float64` of the stored integer `q` (checked to be at most
/// `steps`), §4.3, multiplying by `1 / steps` where the plan proved it exact.
fn dequantize(s: &Scalar, q: E) -> E {
    let ScalarKind::Quantized {
        min,
        max,
        steps,
        scale,
        ..
    } = s.kind
    else {
        unreachable!("not quantized")
    };
    let mut args = vec![
        q,
        atom(f64_lit(min)),
        atom(f64_lit(max)),
        atom(steps.to_string()),
    ];
    match scale {
        Some(scale) => {
            args.push(atom(f64_lit(scale)));
            call("bitwire.DequantizeScaled", args)
        }
        None => call("bitwire.Dequantize", args),
    }
}

/// The error a decoder returns for a scalar at `offset` bits into chunk `c` whose
/// bits `raw` fail its `AtMost` check: the value (or stored integer) and the limit.
pub fn at_most_error(s: &Scalar, c: &str, offset: u32, raw: &str) -> String {
    match s.kind {
        ScalarKind::Bounded { repr, min, max } => {
            let f = if repr.signed() {
                "BoundedError"
            } else {
                "BoundedUintError"
            };
            format!("{c}.{f}({offset}, {raw}, {min}, {max})")
        }
        ScalarKind::Quantized { steps, .. } => {
            format!("{c}.StepsError({offset}, {raw}, {steps})")
        }
        ref other => unreachable!("no AtMost check: {other:?}"),
    }
}
