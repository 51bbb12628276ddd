//! Rust expressions for plan scalars: the bits an encoder writes for a value, the
//! value a decoder builds from bits, range conditions and literals. Everything here
//! turns a decision of the plan into text; nothing decides.

use super::{f64_lit, int_type};
use crate::ir::{FloatRepr, IntRepr};
use crate::plan::{EncodeCheck, Scalar, ScalarKind};

/// An `i64` literal; `i64::MIN` cannot be written as a negated literal in every position.
pub(crate) fn i64_lit(v: i128) -> String {
    if v == i128::from(i64::MIN) {
        "i64::MIN".into()
    } else {
        v.to_string()
    }
}

/// An integer literal of a representation (`i64::MIN` spelled out).
pub(crate) fn lit(v: i128, repr: IntRepr) -> String {
    if repr == IntRepr::I64 {
        i64_lit(v)
    } else {
        v.to_string()
    }
}

/// `x` as `i64` (for `write_int` and two's complement).
pub(crate) fn to_i64(x: &str, repr: IntRepr) -> String {
    if repr == IntRepr::I64 {
        x.to_string()
    } else {
        format!("i64::from({x})")
    }
}

/// `x` as `u64` for an unsigned representation.
pub(crate) fn to_u64(x: &str, repr: IntRepr) -> String {
    if repr == IntRepr::U64 {
        x.to_string()
    } else {
        format!("u64::from({x})")
    }
}

/// Appends ` as T` unless the value already has the representation's type.
pub(crate) fn cast(expr: String, from_u64: bool, repr: IntRepr) -> String {
    match (from_u64, repr) {
        (true, IntRepr::U64) | (false, IntRepr::I64) => expr,
        _ => format!("{expr} as {}", int_type(repr)),
    }
}

/// `v - min` as `u64` for a bounded value already checked to be in range.
pub(crate) fn bounded_offset(x: &str, repr: IntRepr, min: i128) -> String {
    match (
        repr.signed(),
        repr == IntRepr::U64 || repr == IntRepr::I64,
        min,
    ) {
        (false, true, 0) => x.to_string(),
        (false, true, m) => format!("{x} - {m}"),
        (false, false, 0) => format!("u64::from({x})"),
        (false, false, m) => format!("u64::from({x}) - {m}"),
        // i64: the difference can exceed i64::MAX, but wraps to the right u64.
        (true, true, 0) => format!("{x} as u64"),
        (true, true, m) => format!("{}.wrapping_sub({}) as u64", receiver(x), i64_lit(m)),
        // Narrower signed types cannot overflow in i64.
        (true, false, 0) => format!("i64::from({x}) as u64"),
        (true, false, m) if m < 0 => format!("(i64::from({x}) + {}) as u64", -m),
        (true, false, m) => format!("(i64::from({x}) - {m}) as u64"),
    }
}

/// `x` as the receiver of a method call: a dereference (`*item`) needs brackets, or
/// the call would bind to `item`.
fn receiver(x: &str) -> String {
    if x.starts_with('*') {
        format!("({x})")
    } else {
        x.to_string()
    }
}

/// `x - min` as `u64`, wrapping: the offset of a value in its range, and more than
/// `max - min` for any value outside it (below `min` included), whatever the types.
fn wrapping_offset(x: &str, repr: IntRepr, min: i128) -> String {
    match (repr.signed(), repr == IntRepr::U64, min) {
        (false, true, m) if m != 0 => format!("{}.wrapping_sub({m})", receiver(x)),
        (false, false, m) if m != 0 => format!("u64::from({x}).wrapping_sub({m})"),
        // The others cannot overflow (or already wrap).
        _ => bounded_offset(x, repr, min),
    }
}

/// `raw + min` in the representation, for a stored offset at most `max - min`.
pub(crate) fn bounded_from_raw(raw: &str, repr: IntRepr, min: i128) -> String {
    match (repr.signed(), repr, min) {
        (false, IntRepr::U64, 0) => raw.to_string(),
        (false, IntRepr::U64, m) => format!("{raw} + {m}"),
        (false, r, 0) => format!("{raw} as {}", int_type(r)),
        (false, r, m) => format!("({raw} + {m}) as {}", int_type(r)),
        // The sum is in range, but `raw` alone may exceed i64::MAX: wrap.
        (true, IntRepr::I64, 0) => format!("{raw} as i64"),
        (true, IntRepr::I64, m) => format!("({raw} as i64).wrapping_add({})", i64_lit(m)),
        (true, r, 0) => format!("{raw} as {}", int_type(r)),
        (true, r, m) if m < 0 => format!("(({raw} as i64) - {}) as {}", -m, int_type(r)),
        (true, r, m) => format!("(({raw} as i64) + {m}) as {}", int_type(r)),
    }
}

/// The integer representation of a scalar that has one.
pub(crate) fn int_repr(s: &Scalar) -> Option<IntRepr> {
    match s.kind {
        ScalarKind::UInt { repr }
        | ScalarKind::SInt { repr }
        | ScalarKind::Bounded { repr, .. }
        | ScalarKind::Enum { repr, .. } => Some(repr),
        _ => None,
    }
}

/// The `u64` bits an encoder writes for a scalar whose checks passed. `quantized`
/// holds the local with the quantized integer, for quantized floats.
pub(crate) fn wire_bits(s: &Scalar, x: &str, quantized: Option<&str>) -> String {
    match s.kind {
        ScalarKind::Bool => format!("u64::from({x})"),
        ScalarKind::UInt { repr } => to_u64(x, repr),
        ScalarKind::SInt { repr } => format!(
            "::bitwire::to_twos_complement({}, {})",
            to_i64(x, repr),
            s.bits
        ),
        ScalarKind::Float {
            repr: FloatRepr::F32,
        } => format!("::bitwire::f32_to_wire({x})"),
        ScalarKind::Float {
            repr: FloatRepr::F64,
        } => format!("::bitwire::f64_to_wire({x})"),
        ScalarKind::Bounded { repr, min, .. } => bounded_offset(x, repr, min),
        ScalarKind::Quantized { .. } => quantized.expect("a quantized local").to_string(),
        ScalarKind::Enum { .. } => format!("{x} as u64"),
    }
}

/// The condition under which an integer scalar is out of range, if a Rust value can
/// be (`x` the value, `xr` a reference to it, for `contains`).
pub(crate) fn range_violation(s: &Scalar, x: &str, xr: &str) -> Option<String> {
    let EncodeCheck::Range {
        min,
        max,
        repr_covers: false,
        ..
    } = s.encode
    else {
        return None;
    };
    let repr = int_repr(s).expect("an integer");
    let (lo, hi) = crate::plan::scalar::repr_range(repr);
    Some(match (min <= lo, max >= hi) {
        _ if min == max => format!("{x} != {}", lit(min, repr)),
        (true, _) => format!("{x} > {}", lit(max, repr)),
        (_, true) => format!("{x} < {}", lit(min, repr)),
        _ => format!("!({}..={}).contains({xr})", lit(min, repr), lit(max, repr)),
    })
}

/// A `u64` that is zero exactly when the integer scalar `x` is in range, for the
/// scalars [`range_violation`] checks (`None` for the others): the bits of `x`'s offset
/// in its range above the range's width, or a comparison as `0` / `1` when the range is
/// not a power of two wide. Branch-free, so that the terms of a run can be ORed into one
/// word and tested once.
pub(crate) fn overflow_term(s: &Scalar, x: &str) -> Option<String> {
    let EncodeCheck::Range {
        min,
        max,
        repr_covers: false,
        ..
    } = s.encode
    else {
        return None;
    };
    let repr = int_repr(s).expect("an integer");
    if min == max {
        return Some(format!("u64::from({x} != {})", lit(min, repr)));
    }
    let (lo, hi) = crate::plan::scalar::repr_range(repr);
    let span = max - min;
    if (span + 1).count_ones() == 1 {
        let off = wrapping_offset(x, repr, min);
        return Some(format!("{off} >> {}", (span + 1).trailing_zeros()));
    }
    Some(match (min <= lo, max >= hi) {
        (true, _) => format!("u64::from({x} > {})", lit(max, repr)),
        (_, true) => format!("u64::from({x} < {})", lit(min, repr)),
        _ => format!("u64::from({} > {span})", wrapping_offset(x, repr, min)),
    })
}

/// The error an encoder returns for an integer scalar `x` out of range: made by the
/// writer `w` for a value `offset` bits after its position, or at the stream bit `at`.
pub(crate) fn range_error(s: &Scalar, x: &str, at: Result<u32, &str>) -> super::Call {
    let EncodeCheck::Range { min, max, .. } = s.encode else {
        unreachable!("not a range check")
    };
    let value = format!("i128::from({x})");
    match at {
        Ok(offset) => super::Call::new(
            "w.range_error",
            [offset.to_string(), value, min.to_string(), max.to_string()],
        ),
        Err(at) => super::Call::new(
            "::bitwire::Error::out_of_range",
            [at.to_string(), value, min.to_string(), max.to_string()],
        ),
    }
}

/// The value of a scalar taken unchecked from `raw` (its `u64` bits), for scalars any
/// bits are valid for. `first` names an enum's first variant, the fallback of a
/// lookup that cannot fail.
pub(crate) fn plain_value(s: &Scalar, raw: &str, enum_ident: Option<&str>) -> String {
    match s.kind {
        ScalarKind::Bool => format!("{raw} != 0"),
        ScalarKind::UInt { repr } => cast(raw.to_string(), true, repr),
        ScalarKind::SInt { repr } => cast(
            format!("::bitwire::sign_extend({raw}, {})", s.bits),
            false,
            repr,
        ),
        ScalarKind::Bounded { repr, min, .. } => bounded_from_raw(raw, repr, min),
        ScalarKind::Quantized { .. } => {
            let (func, args, tail) = quantized_call(s, raw);
            format!("{func}({}){tail}", args.join(", "))
        }
        ScalarKind::Enum { .. } => {
            let ident = enum_ident.expect("an enum's identifier");
            format!("{ident}::from_bits({raw})")
        }
        ScalarKind::Float { .. } => unreachable!("floats are checked"),
    }
}

/// The dequantization of the stored integer `q` (checked to be at most `steps`) as a
/// call `(function, arguments, tail)`, multiplying by `1 / steps` where the plan proved
/// it exact. The tail (` as f32`) goes on its own statement when printed with
/// [`let_quantized`].
pub(crate) fn quantized_call(s: &Scalar, q: &str) -> (&'static str, Vec<String>, &'static str) {
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
    let mut args = vec![q.to_string(), f64_lit(min), f64_lit(max), steps.to_string()];
    let func = match scale {
        Some(scale) => {
            args.push(f64_lit(scale));
            "::bitwire::dequantize_scaled"
        }
        None => "::bitwire::dequantize",
    };
    let tail = match repr {
        FloatRepr::F32 => " as f32",
        FloatRepr::F64 => "",
    };
    (func, args, tail)
}

/// Whether `x` is a single term (a path, call or method call: no operator outside
/// brackets) that can be shifted without parentheses.
pub(crate) fn is_simple(x: &str) -> bool {
    let mut depth = 0i32;
    for ch in x.chars() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ' ' if depth == 0 => return false,
            _ => {}
        }
    }
    true
}

/// Prints `let {dest} = <the dequantized value of q>;`: the call, then the rounding to
/// `f32` as a statement of its own (a short line whatever the call's length, where a
/// trailing cast would make rustfmt wrap the call a third way).
pub(crate) fn let_quantized(p: &mut super::printer::Printer, dest: &str, s: &Scalar, q: &str) {
    let (func, args, tail) = quantized_call(s, q);
    super::let_call(p, dest, func, &args, "");
    if !tail.is_empty() {
        p.line(format!("let {dest} = {dest}{tail};"));
    }
}
