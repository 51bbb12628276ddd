//! `bincode_scalars`: bool, every integer width class, bounded integers, varints.

use serde::{Deserialize, Serialize};
use wincode::{SchemaRead, SchemaWrite};

use super::{cut, extra, put, RANGE};
use crate::suite::{at, Suite};

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug, Default)]
struct Unsigned {
    b: bool,
    n1: u8,
    n3: u8,
    n7: u8,
    n8: u8,
    n9: u16,
    n15: u16,
    n16: u16,
    n17: u32,
    n31: u32,
    n32: u32,
    n33: u64,
    n53: u64,
    n54: u64,
    n63: u64,
    n64: u64,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug, Default)]
struct Signed {
    s1: i8,
    s4: i8,
    s8: i8,
    s12: i16,
    s16: i16,
    s17: i32,
    s32: i32,
    s33: i64,
    s53: i64,
    s54: i64,
    s64: i64,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Bounded {
    pct: u8,
    hp: u16,
    odd: u16,
    one: u8,
    temp: i16,
    neg: i8,
    big: u64,
    low: i64,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug, Default)]
struct Vars {
    a: u16,
    b: u32,
    c: u64,
    d: i16,
    e: i32,
    f: i64,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug, Default)]
struct Flag {
    v: bool,
}

const U: &str = "Unsigned";
const S: &str = "Signed";
const B: &str = "Bounded";

pub fn suite() -> Suite {
    let mut s = Suite::new(
        "bincode_scalars",
        "Scalars in the bincode encoding (spec §13.2): bool as one byte; uN/iN in the narrowest Rust integer, little-endian, at every width class and edge; bounded integers as the value itself; varints at fixed width. Decoders check the schema's widths and bounds, which bincode and wincode do not (each note says what strict bincode and wincode::deserialize_exact do with the bytes).",
    );
    flag(&mut s);
    unsigned(&mut s);
    signed(&mut s);
    bounded(&mut s);
    vars(&mut s);
    s
}

fn flag(s: &mut Suite) {
    let t = Flag { v: true };
    s.valid("bincode_scalars.flag.false", "Flag", &Flag { v: false }, "");
    s.valid("bincode_scalars.flag.true", "Flag", &t, "");
    for (id, byte) in [("two", 2u8), ("ff", 0xff)] {
        s.bad_bytes(
            &format!("bincode_scalars.flag.byte_{id}"),
            "Flag",
            &t,
            put(0, &[byte]),
            at("OutOfRange", "v", 0),
            "A bool byte other than 00 or 01.",
        );
    }
    s.bad_bytes(
        "bincode_scalars.flag.empty",
        "Flag",
        &t,
        cut(0),
        at("Truncated", "v", 0),
        "Empty input.",
    );
    s.bad_bytes(
        "bincode_scalars.flag.trailing_byte",
        "Flag",
        &t,
        extra(0),
        at("TrailingData", "", 1),
        "A byte after the value (bincode::deserialize would ignore it; the strict options do not).",
    );
}

fn unsigned_max() -> Unsigned {
    Unsigned {
        b: true,
        n1: 1,
        n3: 7,
        n7: 127,
        n8: 255,
        n9: 511,
        n15: 32767,
        n16: 65535,
        n17: (1 << 17) - 1,
        n31: (1 << 31) - 1,
        n32: u32::MAX,
        n33: (1 << 33) - 1,
        n53: (1 << 53) - 1,
        n54: (1 << 54) - 1,
        n63: (1 << 63) - 1,
        n64: u64::MAX,
    }
}

fn unsigned(s: &mut Suite) {
    let max = unsigned_max();
    s.valid(
        "bincode_scalars.unsigned.zero",
        U,
        &Unsigned::default(),
        "63 bytes: every field in its Rust type's width.",
    );
    s.valid(
        "bincode_scalars.unsigned.max",
        U,
        &max,
        "u53 is the widest JSON number; u54 and up are decimal strings.",
    );
    let order = Unsigned {
        n9: 0x0102,
        n16: 0x1234,
        n32: 0x1234_5678,
        n64: 0x0123_4567_89ab_cdef,
        ..Unsigned::default()
    };
    s.valid(
        "bincode_scalars.unsigned.byte_order",
        U,
        &order,
        "Little-endian: 0x1234 is 34 12.",
    );
    // Values one past each width, in the Rust type's bytes: (field, offset, bytes).
    let past: [(&str, usize, Vec<u8>); 11] = [
        ("n1", 1, vec![2]),
        ("n3", 2, vec![8]),
        ("n7", 3, vec![0x80]),
        ("n9", 5, 512u16.to_le_bytes().to_vec()),
        ("n15", 7, 0x8000u16.to_le_bytes().to_vec()),
        ("n17", 11, (1u32 << 17).to_le_bytes().to_vec()),
        ("n31", 15, (1u32 << 31).to_le_bytes().to_vec()),
        ("n33", 23, (1u64 << 33).to_le_bytes().to_vec()),
        ("n53", 31, (1u64 << 53).to_le_bytes().to_vec()),
        ("n54", 39, (1u64 << 54).to_le_bytes().to_vec()),
        ("n63", 47, (1u64 << 63).to_le_bytes().to_vec()),
    ];
    for (field, off, bytes) in &past {
        s.bad_bytes(
            &format!("bincode_scalars.unsigned.{field}_too_big"),
            U,
            &max,
            put(*off, bytes),
            at("OutOfRange", field, *off as u64).accepted(RANGE),
            &format!("{field} = 2^{}.", &field[1..]),
        );
    }
    unsigned_invalid(s);
}

fn unsigned_invalid(s: &mut Suite) {
    let max = unsigned_max();
    let enc = |n1, n9, n33, n54, n63| Unsigned {
        n1,
        n9,
        n33,
        n54,
        n63,
        ..Unsigned::default()
    };
    let too_big = [
        ("n1", 1, enc(2, 0, 0, 0, 0)),
        ("n9", 5, enc(0, 512, 0, 0, 0)),
        ("n33", 23, enc(0, 0, 1 << 33, 0, 0)),
        ("n54", 39, enc(0, 0, 0, u64::MAX, 0)),
        ("n63", 47, enc(0, 0, 0, 0, 1 << 63)),
    ];
    for (field, off, value) in &too_big {
        s.bad_value(
            &format!("bincode_scalars.unsigned.encode_{field}_too_big"),
            U,
            value,
            at("OutOfRange", field, *off),
            "",
        );
    }
    for (what, n, field, off) in [
        ("empty", 0, "b", 0),
        ("in_n9", 6, "n9", 5),
        ("in_n32", 21, "n32", 19),
        ("in_n64", 62, "n64", 55),
    ] {
        s.bad_bytes(
            &format!("bincode_scalars.unsigned.truncated_{what}"),
            U,
            &max,
            cut(n),
            at("Truncated", field, off),
            &format!("{n} of 63 bytes: {field} runs out."),
        );
    }
    s.bad_bytes(
        "bincode_scalars.unsigned.trailing_byte",
        U,
        &max,
        extra(0),
        at("TrailingData", "", 63),
        "",
    );
}

fn signed(s: &mut Suite) {
    let min = Signed {
        s1: -1,
        s4: -8,
        s8: -128,
        s12: -2048,
        s16: -32768,
        s17: -65536,
        s32: i32::MIN,
        s33: -(1 << 32),
        s53: -(1 << 52),
        s54: -(1 << 53),
        s64: i64::MIN,
    };
    let max = Signed {
        s1: 0,
        s4: 7,
        s8: 127,
        s12: 2047,
        s16: 32767,
        s17: 65535,
        s32: i32::MAX,
        s33: (1 << 32) - 1,
        s53: (1 << 52) - 1,
        s54: (1 << 53) - 1,
        s64: i64::MAX,
    };
    let minus = Signed {
        s1: -1,
        s4: -1,
        s8: -1,
        s12: -5,
        s16: -1,
        s17: -1,
        s32: -1,
        s33: -1,
        s53: -1,
        s54: -1,
        s64: -1,
    };
    s.valid("bincode_scalars.signed.zero", S, &Signed::default(), "");
    s.valid(
        "bincode_scalars.signed.min",
        S,
        &min,
        "Two's complement, sign-extended to the Rust type.",
    );
    s.valid("bincode_scalars.signed.max", S, &max, "");
    s.valid(
        "bincode_scalars.signed.minus_one",
        S,
        &minus,
        "i12 −5 is fb ff.",
    );
    signed_invalid(s, &min, &max);
}

fn signed_invalid(s: &mut Suite, min: &Signed, max: &Signed) {
    let past: [(&str, &str, usize, Vec<u8>); 10] = [
        ("s1_one", "s1", 0, vec![1]),
        ("s1_minus_two", "s1", 0, vec![0xfe]),
        ("s4_eight", "s4", 1, vec![8]),
        ("s4_minus_nine", "s4", 1, (-9i8).to_le_bytes().to_vec()),
        ("s12_2048", "s12", 3, 2048i16.to_le_bytes().to_vec()),
        (
            "s12_minus_2049",
            "s12",
            3,
            (-2049i16).to_le_bytes().to_vec(),
        ),
        ("s17_65536", "s17", 7, 65536i32.to_le_bytes().to_vec()),
        ("s33_2_32", "s33", 15, (1i64 << 32).to_le_bytes().to_vec()),
        (
            "s53_below",
            "s53",
            23,
            (-(1i64 << 52) - 1).to_le_bytes().to_vec(),
        ),
        ("s54_2_53", "s54", 31, (1i64 << 53).to_le_bytes().to_vec()),
    ];
    for (name, field, off, bytes) in &past {
        s.bad_bytes(
            &format!("bincode_scalars.signed.{name}"),
            S,
            max,
            put(*off, bytes),
            at("OutOfRange", field, *off as u64).accepted(RANGE),
            "",
        );
    }
    signed_encode(s);
    s.bad_bytes(
        "bincode_scalars.signed.truncated_in_s64",
        S,
        min,
        cut(46),
        at("Truncated", "s64", 39),
        "46 of 47 bytes.",
    );
}

fn signed_encode(s: &mut Suite) {
    let values = [
        (
            "s1_one",
            "s1",
            0,
            Signed {
                s1: 1,
                ..Signed::default()
            },
        ),
        (
            "s4_minus_nine",
            "s4",
            1,
            Signed {
                s4: -9,
                ..Signed::default()
            },
        ),
        (
            "s12_2048",
            "s12",
            3,
            Signed {
                s12: 2048,
                ..Signed::default()
            },
        ),
        (
            "s33_below",
            "s33",
            15,
            Signed {
                s33: -(1 << 32) - 1,
                ..Signed::default()
            },
        ),
        (
            "s54_2_53",
            "s54",
            31,
            Signed {
                s54: 1 << 53,
                ..Signed::default()
            },
        ),
    ];
    for (name, field, off, value) in &values {
        s.bad_value(
            &format!("bincode_scalars.signed.encode_{name}"),
            S,
            value,
            at("OutOfRange", field, *off),
            "",
        );
    }
}

fn bounded(s: &mut Suite) {
    let min = Bounded {
        pct: 0,
        hp: 0,
        odd: 100,
        one: 7,
        temp: -1000,
        neg: -100,
        big: 1 << 60,
        low: i64::MIN,
    };
    let max = Bounded {
        pct: 100,
        hp: 1000,
        odd: 200,
        one: 7,
        temp: 1000,
        neg: -10,
        big: u64::MAX,
        low: -1,
    };
    s.valid(
        "bincode_scalars.bounded.min",
        B,
        &min,
        "The value itself, not value − min: odd = 100 is 64 00; one (u8 in 7..=7) is one byte, 07.",
    );
    s.valid("bincode_scalars.bounded.max", B, &max, "");
    bounded_invalid(s, &min, &max);
}

fn bounded_invalid(s: &mut Suite, min: &Bounded, max: &Bounded) {
    let outside: [(&str, &str, usize, Vec<u8>); 11] = [
        ("pct_101", "pct", 0, vec![101]),
        ("hp_1001", "hp", 1, 1001u16.to_le_bytes().to_vec()),
        ("odd_99", "odd", 3, 99u16.to_le_bytes().to_vec()),
        ("odd_201", "odd", 3, 201u16.to_le_bytes().to_vec()),
        ("one_6", "one", 5, vec![6]),
        ("one_8", "one", 5, vec![8]),
        (
            "temp_minus_1001",
            "temp",
            6,
            (-1001i16).to_le_bytes().to_vec(),
        ),
        ("neg_minus_9", "neg", 8, (-9i8).to_le_bytes().to_vec()),
        ("neg_minus_101", "neg", 8, (-101i8).to_le_bytes().to_vec()),
        (
            "big_below",
            "big",
            9,
            ((1u64 << 60) - 1).to_le_bytes().to_vec(),
        ),
        ("low_zero", "low", 17, 0i64.to_le_bytes().to_vec()),
    ];
    for (name, field, off, bytes) in &outside {
        s.bad_bytes(
            &format!("bincode_scalars.bounded.{name}"),
            B,
            min,
            put(*off, bytes),
            at("OutOfRange", field, *off as u64).accepted(RANGE),
            "",
        );
    }
    bounded_encode(s, min);
    s.bad_bytes(
        "bincode_scalars.bounded.truncated_in_low",
        B,
        max,
        cut(20),
        at("Truncated", "low", 17),
        "",
    );
}

fn vars(s: &mut Suite) {
    let max = Vars {
        a: u16::MAX,
        b: u32::MAX,
        c: u64::MAX,
        d: i16::MAX,
        e: i32::MAX,
        f: i64::MAX,
    };
    let min = Vars {
        d: i16::MIN,
        e: i32::MIN,
        f: i64::MIN,
        ..Vars::default()
    };
    let small = Vars {
        a: 127,
        b: 128,
        c: 300,
        d: -1,
        e: 64,
        f: -65,
    };
    s.valid(
        "bincode_scalars.vars.zero",
        "Vars",
        &Vars::default(),
        "28 bytes: no varints in bincode.",
    );
    s.valid("bincode_scalars.vars.small", "Vars", &small, "Values a varint would hold in one or two bytes take the full width (c = 300 is 2c 01 00 00 00 00 00 00).");
    s.valid("bincode_scalars.vars.max", "Vars", &max, "");
    s.valid("bincode_scalars.vars.min", "Vars", &min, "");
    s.bad_bytes(
        "bincode_scalars.vars.truncated_in_c",
        "Vars",
        &max,
        cut(10),
        at("Truncated", "c", 6),
        "",
    );
}

fn bounded_encode(s: &mut Suite, min: &Bounded) {
    let values = [
        (
            "pct_255",
            "pct",
            0,
            Bounded {
                pct: 255,
                ..min.clone()
            },
        ),
        (
            "odd_0",
            "odd",
            3,
            Bounded {
                odd: 0,
                ..min.clone()
            },
        ),
        (
            "one_0",
            "one",
            5,
            Bounded {
                one: 0,
                ..min.clone()
            },
        ),
        (
            "temp_1001",
            "temp",
            6,
            Bounded {
                temp: 1001,
                ..min.clone()
            },
        ),
        (
            "big_0",
            "big",
            9,
            Bounded {
                big: 0,
                ..min.clone()
            },
        ),
        (
            "low_max",
            "low",
            17,
            Bounded {
                low: i64::MAX,
                ..min.clone()
            },
        ),
    ];
    for (name, field, off, value) in &values {
        s.bad_value(
            &format!("bincode_scalars.bounded.encode_{name}"),
            B,
            value,
            at("OutOfRange", field, *off),
            "",
        );
    }
}
