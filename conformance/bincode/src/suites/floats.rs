//! `bincode_floats`: f32/f64 bits as they are (NaN payloads kept), quantized floats as
//! the float itself with their range checked.

use serde::{Deserialize, Serialize};
use wincode::{SchemaRead, SchemaWrite};

use super::{cut, put};
use crate::suite::{at, Suite};

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct F32 {
    v: f32,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct F64 {
    v: f64,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Pair {
    a: f32,
    b: f64,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Quant {
    unit: f32,
    pos: f32,
    wide: f64,
}

const QUANT_RANGE: &str =
    "an f32 or f64 holds any float; the quantized range is bitwire's check (spec §13.2)";

pub fn suite() -> Suite {
    let mut s = Suite::new(
        "bincode_floats",
        "Floats in the bincode encoding (spec §13.2): IEEE 754 bits, little-endian, as they are — zeros, subnormals, extremes, infinities, the canonical NaN (the JSON \"NaN\"); NaNs with other payloads decode (result \"decodes\": the JSON cannot hold the payload) and the decoded value writes the same bits back. Quantized floats are the float itself with no grid; NaN and values outside the range are OutOfRange.",
    );
    f32s(&mut s);
    f64s(&mut s);
    pair(&mut s);
    quant(&mut s);
    s
}

fn f32s(s: &mut Suite) {
    let valid: [(&str, f32, &str); 11] = [
        ("zero", 0.0, ""),
        ("negative_zero", -0.0, "−0.0 is 00 00 00 80, not zero's bytes."),
        ("one_and_half", 1.5, ""),
        ("tenth", 0.1, "0.1f32 prints as 0.1 (shortest f32 decimal)."),
        ("min_subnormal", f32::from_bits(1), ""),
        ("min_normal", f32::MIN_POSITIVE, ""),
        ("max", f32::MAX, ""),
        ("lowest", f32::MIN, ""),
        ("infinity", f32::INFINITY, ""),
        ("negative_infinity", f32::NEG_INFINITY, ""),
        ("nan", f32::NAN, "The JSON \"NaN\" is the canonical NaN, 7fc00000 (spec §3.2): what every encoder writes for it."),
    ];
    for (name, v, note) in valid {
        s.valid(
            &format!("bincode_floats.f32.{name}"),
            "F32",
            &F32 { v },
            note,
        );
    }
    let nans: [(&str, u32, &str); 4] = [
        ("nan_payload", 0x7fc0_0001, "A quiet NaN with payload 1: bincode keeps the payload, and so must a decoder that re-encodes what it decoded."),
        ("nan_signaling", 0x7f80_0001, "A signaling NaN: passed through, not quieted."),
        ("nan_negative", 0xffc0_0000, "The canonical NaN with the sign bit set."),
        ("nan_all_ones", 0xffff_ffff, ""),
    ];
    for (name, bits, note) in nans {
        let v = f32::from_bits(bits);
        s.decodes(
            &format!("bincode_floats.f32.{name}"),
            "F32",
            &F32 { v },
            note,
        );
    }
    s.bad_bytes(
        "bincode_floats.f32.truncated",
        "F32",
        &F32 { v: 1.5 },
        cut(3),
        at("Truncated", "v", 0),
        "",
    );
}

fn f64s(s: &mut Suite) {
    let valid: [(&str, f64, &str); 10] = [
        ("zero", 0.0, ""),
        ("negative_zero", -0.0, ""),
        ("tenth", 0.1, ""),
        ("min_subnormal", f64::from_bits(1), ""),
        ("min_normal", f64::MIN_POSITIVE, ""),
        ("max", f64::MAX, ""),
        ("lowest", f64::MIN, ""),
        ("infinity", f64::INFINITY, ""),
        ("negative_infinity", f64::NEG_INFINITY, "00 00 00 00 00 00 f0 ff."),
        ("nan", f64::NAN, "The JSON \"NaN\" is the canonical NaN, 7ff8000000000000 (spec §3.2). Go's math.NaN() has payload 1: not this."),
    ];
    for (name, v, note) in valid {
        s.valid(
            &format!("bincode_floats.f64.{name}"),
            "F64",
            &F64 { v },
            note,
        );
    }
    let nans: [(&str, u64, &str); 3] = [
        (
            "nan_payload",
            0x7ff8_0000_0000_0001,
            "Go's math.NaN(): passed through.",
        ),
        ("nan_signaling", 0x7ff0_0000_0000_0001, ""),
        ("nan_negative", 0xfff8_0000_0000_0000, ""),
    ];
    for (name, bits, note) in nans {
        let v = f64::from_bits(bits);
        s.decodes(
            &format!("bincode_floats.f64.{name}"),
            "F64",
            &F64 { v },
            note,
        );
    }
    s.bad_bytes(
        "bincode_floats.f64.truncated",
        "F64",
        &F64 { v: 0.1 },
        cut(7),
        at("Truncated", "v", 0),
        "",
    );
}

fn pair(s: &mut Suite) {
    let p = Pair { a: 1.5, b: -0.0 };
    s.valid(
        "bincode_floats.pair.mixed",
        "Pair",
        &p,
        "12 bytes, no alignment.",
    );
    s.bad_bytes(
        "bincode_floats.pair.truncated_in_b",
        "Pair",
        &p,
        cut(9),
        at("Truncated", "b", 4),
        "",
    );
}

fn quant(s: &mut Suite) {
    let valid = [
        ("min", Quant { unit: 0.0, pos: -512.0, wide: -1.0 }, "The range's ends."),
        ("max", Quant { unit: 1.0, pos: 512.0, wide: 1.0 }, ""),
        ("on_grid", Quant { unit: 0.5, pos: 1.5, wide: 0.5 }, ""),
        ("off_grid", Quant { unit: 0.25, pos: 0.1, wide: 0.3 }, "Off the grid: bincode writes the float as it is (packed would snap 0.25 to 0.25024438)."),
        ("negative_zero", Quant { unit: -0.0, pos: -0.0, wide: -0.0 }, "−0.0 is inside 0..=1 (it equals 0) and is written as it is."),
    ];
    for (name, q, note) in &valid {
        s.valid(&format!("bincode_floats.quant.{name}"), "Quant", q, note);
    }
    quant_invalid(s);
}

fn quant_invalid(s: &mut Suite) {
    let model = Quant {
        unit: 0.5,
        pos: 0.0,
        wide: 0.0,
    };
    let outside: [(&str, &str, usize, Vec<u8>); 8] = [
        (
            "unit_above",
            "unit",
            0,
            f32::from_bits(1.0f32.to_bits() + 1).to_le_bytes().to_vec(),
        ),
        (
            "unit_negative",
            "unit",
            0,
            (-f32::from_bits(1)).to_le_bytes().to_vec(),
        ),
        ("unit_nan", "unit", 0, f32::NAN.to_le_bytes().to_vec()),
        (
            "unit_infinity",
            "unit",
            0,
            f32::INFINITY.to_le_bytes().to_vec(),
        ),
        (
            "pos_above",
            "pos",
            4,
            f32::from_bits(512.0f32.to_bits() + 1)
                .to_le_bytes()
                .to_vec(),
        ),
        ("pos_below", "pos", 4, (-513.0f32).to_le_bytes().to_vec()),
        (
            "wide_below",
            "wide",
            8,
            f64::from_bits((-1.0f64).to_bits() + 1)
                .to_le_bytes()
                .to_vec(),
        ),
        (
            "wide_nan_payload",
            "wide",
            8,
            f64::from_bits(0x7ff8_0000_0000_0001).to_le_bytes().to_vec(),
        ),
    ];
    for (name, field, off, bytes) in &outside {
        s.bad_bytes(
            &format!("bincode_floats.quant.{name}"),
            "Quant",
            &model,
            put(*off, bytes),
            at("OutOfRange", field, *off as u64).accepted(QUANT_RANGE),
            "NaN and values outside the range are OutOfRange.",
        );
    }
    quant_encode(s, &model);
    s.bad_bytes(
        "bincode_floats.quant.truncated_in_wide",
        "Quant",
        &model,
        cut(12),
        at("Truncated", "wide", 8),
        "",
    );
}

fn quant_encode(s: &mut Suite, model: &Quant) {
    let values = [
        (
            "unit_two",
            "unit",
            0,
            Quant {
                unit: 2.0,
                ..model.clone()
            },
        ),
        (
            "unit_nan",
            "unit",
            0,
            Quant {
                unit: f32::NAN,
                ..model.clone()
            },
        ),
        (
            "pos_negative_infinity",
            "pos",
            4,
            Quant {
                pos: f32::NEG_INFINITY,
                ..model.clone()
            },
        ),
        (
            "wide_above",
            "wide",
            8,
            Quant {
                wide: 1.5,
                ..model.clone()
            },
        ),
    ];
    for (name, field, off, q) in &values {
        s.bad_value(
            &format!("bincode_floats.quant.encode_{name}"),
            "Quant",
            q,
            at("OutOfRange", field, *off),
            "",
        );
    }
}
