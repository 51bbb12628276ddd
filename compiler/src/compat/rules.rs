//! The rules of spec §9.3 for one type expression against another, where no
//! named type is involved: bounds, length prefixes; and the short spelling of a
//! type used in labels.

use crate::ir::{bits_for, FloatRepr, Type};

/// A difference inside a type expression, before it is placed.
pub(super) struct Diff {
    pub code: &'static str,
    pub message: String,
    pub notes: Vec<String>,
}

pub(super) fn diff(code: &'static str, message: String, notes: Vec<String>) -> Option<Diff> {
    Some(Diff {
        code,
        message,
        notes,
    })
}

/// Compares two bounded integers (spec §9.3: C0305, C0306, C0203, C0106).
pub(super) fn bounds(o: &Type, n: &Type) -> Option<Diff> {
    let (
        Type::Bounded {
            repr: orepr,
            base_bits: obase,
            min: omin,
            max: omax,
            packed_bits: ob,
        },
        Type::Bounded {
            repr: nrepr,
            base_bits: nbase,
            min: nmin,
            max: nmax,
            packed_bits: nb,
        },
    ) = (o, n)
    else {
        unreachable!("called with two bounded integers")
    };
    let range = format!("{omin}..={omax} to {nmin}..={nmax}");
    if omin != nmin || ob != nb {
        diff(
                        "C0305",
                        format!("bound changed from {range}"),
                        vec![format!(
                            "stored as value - min: {ob} bits from {omin} before, {nb} bits from {nmin} now; every value reads differently"
                        )],
                    )
    } else if nmax < omax {
        diff(
            "C0306",
            format!("bound narrowed from {range}"),
            vec![format!(
                "new decoders reject old values above {nmax} with `OutOfRange`"
            )],
        )
    } else if nmax > omax {
        diff(
                        "C0203",
                        format!("bound widened from {range}"),
                        vec![format!(
                            "same {nb}-bit storage and minimum; old decoders reject values above {omax} with `OutOfRange`, so send them only once every peer is upgraded"
                        )],
                    )
    } else if orepr != nrepr || obase != nbase {
        diff(
            "C0106",
            "base type changed; the wire is unchanged".to_string(),
            vec!["generated code holds the value in a different integer type".into()],
        )
    } else {
        None
    }
}

/// Whether `MIN..=MAX` is the whole range of `uBITS`: such a bound stores
/// `v - 0` in `bits_for(2^BITS - 1) = BITS` bits, exactly the plain integer's wire.
/// (A full signed range is not: `iN` is two's complement, the bound `v + 2^(N-1)`.)
pub(super) fn full_range(bits: u32, min: i128, max: i128) -> bool {
    min == 0 && max == (1i128 << bits) - 1
}

/// Compares the max lengths of a list, string or bytes.
pub(super) fn length(a: Option<u64>, b: Option<u64>) -> Option<Diff> {
    let show = |m: Option<u64>| m.map_or("unbounded".to_string(), |m| format!("max {m}"));
    let range = format!("from {} to {}", show(a), show(b));
    match (a, b) {
        (None, None) => None,
        (Some(a), Some(b)) if a == b => None,
        (Some(a), Some(b)) if bits_for(a.into()) == bits_for(b.into()) => {
            let k = bits_for(b.into());
            let lo = if k == 0 { 0 } else { 1u128 << (k - 1) };
            let hi = (1u128 << k) - 1;
            let span =
                format!("the {k}-bit prefix allows any max in {lo}..={hi} without a wire change");
            if b > a {
                diff(
                    "C0204",
                    format!("max length raised {range}"),
                    vec![
                        span,
                        format!("old decoders reject lengths above {a} with `InvalidLength`, so send them only once every peer is upgraded"),
                    ],
                )
            } else {
                diff(
                    "C0308",
                    format!("max length lowered {range}"),
                    vec![
                        span,
                        format!("new decoders reject old lengths above {b} with `InvalidLength`"),
                    ],
                )
            }
        }
        _ => diff(
            "C0307",
            format!("length prefix changed {range}"),
            vec![format!(
                "the length is written as {} before and {} now",
                prefix(a),
                prefix(b)
            )],
        ),
    }
}

fn prefix(m: Option<u64>) -> String {
    match m {
        Some(m) => format!("{} bits", bits_for(m.into())),
        None => "a varu64".to_string(),
    }
}

/// A short spelling of a type for labels.
pub(super) fn show(t: &Type) -> String {
    let max = |m: &Option<u64>| m.map(|m| format!("max {m}"));
    match t {
        Type::Bool => "bool".into(),
        Type::UInt { bits, .. } => format!("u{bits}"),
        Type::SInt { bits, .. } => format!("i{bits}"),
        Type::Float { repr } => float(*repr).into(),
        Type::Bounded {
            repr,
            base_bits,
            min,
            max,
            ..
        } => {
            let sign = if repr.signed() { "i" } else { "u" };
            format!("{sign}{base_bits} in {min}..={max}")
        }
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            ..
        } => format!("{} in {min}..={max}, {steps} steps", float(*repr)),
        Type::VarUInt { bits, .. } => format!("varu{bits}"),
        Type::VarSInt { bits, .. } => format!("vari{bits}"),
        Type::Optional { inner } => format!("optional<{}>", show(inner)),
        Type::Array { elem, len } => format!("[{}; {len}]", show(elem)),
        Type::List { elem, max: m, .. } => match max(m) {
            Some(m) => format!("list<{}, {m}>", show(elem)),
            None => format!("list<{}>", show(elem)),
        },
        Type::String { max: m, .. } => match max(m) {
            Some(m) => format!("string<{m}>"),
            None => "string".into(),
        },
        Type::Bytes { max: m, .. } => match max(m) {
            Some(m) => format!("bytes<{m}>"),
            None => "bytes".into(),
        },
        Type::Named { name, .. } => name.clone(),
    }
}

fn float(r: FloatRepr) -> &'static str {
    match r {
        FloatRepr::F32 => "f32",
        FloatRepr::F64 => "f64",
    }
}
