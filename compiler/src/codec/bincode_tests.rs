//! Unit tests of the reference bincode codec: the bytes of spec §13 for every type
//! (the rows of bincode 1.3.3's own output where one exists), every check with its
//! kind, bit and path, in the spec's order, and the lossless `f32` NaN.

use super::rules::{f32_bits_of, f64_of_f32_bits, MinBytes};
use super::*;
use crate::codec::trace::{Leaf, TraceItem};
use crate::codec::ErrorKind;
use serde_json::json;

fn schema(src: &str) -> Schema {
    crate::compile_source("t.bw", src).unwrap_or_else(|d| panic!("{}", d.render()))
}

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// `json` as `ty` encodes to `bytes` and decodes back to the same JSON.
#[track_caller]
fn round_trip(s: &Schema, ty: &str, value: serde_json::Value, bytes: &str) {
    let id = s.type_by_name(ty).expect("type");
    let encoded = encode_json(s, id, &value).expect("encodes");
    assert_eq!(crate::codec::to_hex(&encoded), bytes.replace(' ', ""));
    let decoded = decode_to_json(s, id, &encoded).expect("decodes");
    let want = value_to_json(s, id, &value_from_json(s, id, &value).expect("maps"));
    assert_eq!(decoded, want);
}

/// Decoding `bytes` as `ty` fails with `kind` at `bit` in `path`.
#[track_caller]
fn rejects(s: &Schema, ty: &str, bytes: &str, kind: ErrorKind, bit: u64, path: &str) {
    let id = s.type_by_name(ty).expect("type");
    let got = decode(s, id, &hex(bytes)).expect_err("rejects");
    assert_eq!(
        got,
        CodecError::Wire {
            kind,
            bit,
            path: path.into()
        }
    );
}

/// Encoding `value` as `ty` fails with `kind` at `bit` in `path`.
#[track_caller]
fn refuses(s: &Schema, ty: &str, value: serde_json::Value, kind: ErrorKind, bit: u64, path: &str) {
    let id = s.type_by_name(ty).expect("type");
    let got = encode_json(s, id, &value).expect_err("refuses");
    assert_eq!(
        got,
        CodecError::Wire {
            kind,
            bit,
            path: path.into()
        }
    );
}

#[test]
fn integers_are_little_endian_in_their_rust_width() {
    let s = schema(
        "struct U { a: u8, b: u16, c: u32, d: u64 }
         struct I { a: i8, b: i16, c: i32, d: i64 }
         struct N { a: u4, b: i12, c: u9, d: i33 }
         struct V { a: varu16, b: vari32, c: varu64 }",
    );
    round_trip(
        &s,
        "U",
        json!({"a": 171, "b": 4660, "c": 305419896, "d": 300}),
        "ab 3412 78563412 2c01000000000000",
    );
    round_trip(
        &s,
        "I",
        json!({"a": -1, "b": -2, "c": -2, "d": -2}),
        "ff feff feffffff feffffffffffffff",
    );
    // i12 −5 is sign-extended to an i16; i33 takes an i64.
    round_trip(
        &s,
        "N",
        json!({"a": 15, "b": -5, "c": 511, "d": -4294967296i64}),
        "0f fbff ff01 00000000ffffffff",
    );
    round_trip(
        &s,
        "V",
        json!({"a": 65535, "b": -1, "c": "18446744073709551615"}),
        "ffff ffffffff ffffffffffffffff",
    );
}

#[test]
fn narrow_integers_are_range_checked_at_the_value() {
    let s = schema("struct N { a: u8, b: u4, c: i12, d: u9 }");
    rejects(&s, "N", "00 10 0000 0000", ErrorKind::OutOfRange, 8, "b");
    rejects(&s, "N", "00 0f 0008 0000", ErrorKind::OutOfRange, 16, "c");
    rejects(&s, "N", "00 0f ff07 0002", ErrorKind::OutOfRange, 32, "d");
    // The largest and smallest i12 pass.
    let id = s.type_by_name("N").unwrap();
    assert!(decode(&s, id, &hex("00 0f ff07 ff01")).is_ok());
    assert!(decode(&s, id, &hex("00 0f 00f8 ff01")).is_ok());
    rejects(&s, "N", "00 0f fff7 ff01", ErrorKind::OutOfRange, 16, "c");
    refuses(
        &s,
        "N",
        json!({"a": 0, "b": 16, "c": 0, "d": 0}),
        ErrorKind::OutOfRange,
        8,
        "b",
    );
}

#[test]
fn bounded_integers_are_the_value_itself() {
    let s = schema(
        "struct B { a: u16 in 0..=1000, b: u8 in 7..=7, c: i8 in -5..=5, d: u12 in 100..=200 }",
    );
    round_trip(
        &s,
        "B",
        json!({"a": 1000, "b": 7, "c": -5, "d": 150}),
        "e803 07 fb 9600",
    );
    rejects(&s, "B", "e903 07 fb 9600", ErrorKind::OutOfRange, 0, "a");
    rejects(&s, "B", "e803 06 fb 9600", ErrorKind::OutOfRange, 16, "b");
    rejects(&s, "B", "e803 07 fa 9600", ErrorKind::OutOfRange, 24, "c");
    rejects(&s, "B", "e803 07 05 6300", ErrorKind::OutOfRange, 32, "d");
    refuses(
        &s,
        "B",
        json!({"a": 1000, "b": 8, "c": 0, "d": 150}),
        ErrorKind::OutOfRange,
        16,
        "b",
    );
}

#[test]
fn bools_are_one_byte_and_other_bytes_are_out_of_range() {
    let s = schema("struct F { a: bool, b: bool }");
    round_trip(&s, "F", json!({"a": false, "b": true}), "0001");
    rejects(&s, "F", "0102", ErrorKind::OutOfRange, 8, "b");
    rejects(&s, "F", "ff01", ErrorKind::OutOfRange, 0, "a");
}

#[test]
fn floats_pass_every_bit_pattern_through() {
    let s = schema("struct F { a: f32, b: f64 }");
    round_trip(
        &s,
        "F",
        json!({"a": 1.5, "b": "-Infinity"}),
        "0000c03f 000000000000f0ff",
    );
    round_trip(
        &s,
        "F",
        json!({"a": -0.0, "b": 1.5}),
        "00000080 000000000000f83f",
    );
    let id = s.type_by_name("F").unwrap();
    // NaNs with payloads, a signalling f32 NaN among them: decode → encode is exact.
    for bytes in [
        "0100c07f 010000000000f87f",
        "0100807f 0100000000000080",
        "ffffffff ffffffffffffffff",
        "000080ff 000000000000f0ff",
    ] {
        let b = hex(bytes);
        let v = decode(&s, id, &b).expect("any bits decode");
        assert_eq!(encode(&s, id, &v).expect("encodes"), b, "{bytes}");
    }
}

#[test]
fn f32_nan_payloads_survive_the_f64_that_holds_them() {
    for bits in [
        0x7FC0_0000u32,
        0x7FC0_0001,
        0x7F80_0001,
        0xFF80_0001,
        0x7FFF_FFFF,
        0xFFFF_FFFF,
        0x7FA0_0000,
    ] {
        let v = f64_of_f32_bits(bits);
        assert!(v.is_nan(), "{bits:#x}");
        assert_eq!(f32_bits_of(v), bits, "{bits:#x}");
    }
    for bits in [0u32, 0x8000_0000, 1, 0x7F7F_FFFF, 0x7F80_0000, 0x3DCC_CCCD] {
        let v = f64_of_f32_bits(bits);
        assert_eq!(v, f64::from(f32::from_bits(bits)));
        assert_eq!(f32_bits_of(v), bits);
    }
    // The JSON "NaN" is the canonical quiet NaN; an f64 NaN whose payload lies below
    // the f32's 23 bits becomes the quiet NaN of its sign.
    assert_eq!(f32_bits_of(f64::NAN), 0x7FC0_0000);
    assert_eq!(
        f32_bits_of(f64::from_bits(0xFFF0_0000_0000_0001)),
        0xFFC0_0000
    );
}

#[test]
fn quantized_floats_are_the_float_and_range_checked() {
    let s = schema("struct Q { a: f32 in -1.0..=1.0 bits 8, b: f64 in 0.0..=10.0 step 0.5 }");
    // Off-grid values are written as they are (no snapping).
    round_trip(
        &s,
        "Q",
        json!({"a": 0.3, "b": 1.25}),
        "9a99993e 000000000000f43f",
    );
    rejects(
        &s,
        "Q",
        "0000c03f 0000000000000000",
        ErrorKind::OutOfRange,
        0,
        "a",
    );
    rejects(
        &s,
        "Q",
        "0000c07f 0000000000000000",
        ErrorKind::OutOfRange,
        0,
        "a",
    );
    rejects(
        &s,
        "Q",
        "0000803f 0000000000002640",
        ErrorKind::OutOfRange,
        32,
        "b",
    );
    rejects(
        &s,
        "Q",
        "0000803f 000000000000f8ff",
        ErrorKind::OutOfRange,
        32,
        "b",
    );
    refuses(
        &s,
        "Q",
        json!({"a": 0.0, "b": "NaN"}),
        ErrorKind::OutOfRange,
        32,
        "b",
    );
    refuses(
        &s,
        "Q",
        json!({"a": -1.5, "b": 0.0}),
        ErrorKind::OutOfRange,
        0,
        "a",
    );
}

#[test]
fn enums_and_unions_write_the_declaration_index() {
    let s = schema(
        "enum Team { Red, Blue, Spectator = 7 }
         struct Kill { killer: u32, victim: u32 }
         struct Pair { a: u8, b: u16 }
         union Event { Chat(string), Kill(Kill) = 4, Ping, Pair(Pair) }
         struct T { t: Team }
         struct E { e: Event }",
    );
    round_trip(&s, "T", json!({"t": "Spectator"}), "02000000");
    round_trip(
        &s,
        "E",
        json!({"e": {"Chat": "yo"}}),
        "00000000 0200000000000000 796f",
    );
    round_trip(
        &s,
        "E",
        json!({"e": {"Kill": {"killer": 1, "victim": 2}}}),
        "01000000 01000000 02000000",
    );
    round_trip(&s, "E", json!({"e": "Ping"}), "02000000");
    round_trip(
        &s,
        "E",
        json!({"e": {"Pair": {"a": 1, "b": 2}}}),
        "03000000 01 0200",
    );
    // The index, not the declared value: 7 is out of range for three variants.
    rejects(&s, "T", "07000000", ErrorKind::InvalidEnum, 0, "t");
    rejects(&s, "T", "03000000", ErrorKind::InvalidEnum, 0, "t");
    rejects(&s, "T", "00000001", ErrorKind::InvalidEnum, 0, "t");
    rejects(&s, "E", "04000000", ErrorKind::InvalidEnum, 0, "e");
    rejects(
        &s,
        "E",
        "01000000 01000000 0200",
        ErrorKind::Truncated,
        64,
        "e.Kill.victim",
    );
    rejects(
        &s,
        "E",
        "01000000 0100",
        ErrorKind::Truncated,
        32,
        "e.Kill.killer",
    );
    rejects(&s, "T", "020000", ErrorKind::Truncated, 0, "t");
}

#[test]
fn optionals_take_a_tag_byte() {
    let s = schema("struct In { x: optional<u8> } struct O { a: optional<u16>, b: optional<In> }");
    round_trip(&s, "O", json!({"a": null, "b": null}), "00 00");
    round_trip(&s, "O", json!({"a": 7, "b": {"x": null}}), "010700 0100");
    rejects(&s, "O", "02 00", ErrorKind::InvalidEnum, 0, "a");
    rejects(&s, "O", "00 0102", ErrorKind::InvalidEnum, 16, "b.x");
    rejects(&s, "O", "0107", ErrorKind::Truncated, 8, "a");
}

#[test]
fn sequences_carry_u64_lengths_and_arrays_none() {
    let s = schema(
        "struct A { a: [u16; 3] }
         struct L { a: list<u8>, b: list<list<u8>>, c: string, d: bytes<max 4> }",
    );
    round_trip(&s, "A", json!({"a": [1, 2, 3]}), "010002000300");
    round_trip(
        &s,
        "L",
        json!({"a": [1, 2, 3], "b": [[1], []], "c": "hi", "d": "00ff"}),
        "0300000000000000 010203 \
         0200000000000000 0100000000000000 01 0000000000000000 \
         0200000000000000 6869 0200000000000000 00ff",
    );
    round_trip(
        &s,
        "L",
        json!({"a": [], "b": [], "c": "", "d": ""}),
        "0000000000000000 0000000000000000 0000000000000000 0000000000000000",
    );
    rejects(&s, "A", "01000200", ErrorKind::Truncated, 32, "a[2]");
    refuses(
        &s,
        "A",
        json!({"a": [1, 2]}),
        ErrorKind::InvalidLength,
        0,
        "a",
    );
    refuses(
        &s,
        "L",
        json!({"a": [], "b": [], "c": "", "d": "0102030405"}),
        ErrorKind::InvalidLength,
        192,
        "d",
    );
}

#[test]
fn length_checks_run_in_the_spec_order() {
    let s = schema(
        "struct S { s: string<max 4> }
         struct W { l: list<u64> }
         struct B { b: bytes }
         struct O { l: list<optional<u64>> }",
    );
    // max first: a length above max is InvalidLength even when the bytes are missing.
    rejects(
        &s,
        "S",
        "0500000000000000",
        ErrorKind::InvalidLength,
        0,
        "s",
    );
    // then the bytes left: 2^48 - 1 u64s in 3 bytes; u64::MAX bytes.
    rejects(
        &s,
        "W",
        "ffffffffffff0000 010203",
        ErrorKind::Truncated,
        0,
        "l",
    );
    rejects(&s, "B", "ffffffffffffffff 00", ErrorKind::Truncated, 0, "b");
    // then UTF-8, at the string.
    rejects(
        &s,
        "S",
        "0100000000000000 ff",
        ErrorKind::InvalidUtf8,
        0,
        "s",
    );
    rejects(
        &s,
        "S",
        "0300000000000000 eda080",
        ErrorKind::InvalidUtf8,
        0,
        "s",
    );
    // a length cut short is Truncated at the list.
    rejects(&s, "W", "01000000", ErrorKind::Truncated, 0, "l");
    // an element cut short is Truncated at the element.
    rejects(
        &s,
        "W",
        "0200000000000000 0100000000000000 02",
        ErrorKind::Truncated,
        0,
        "l",
    );
    rejects(
        &s,
        "O",
        "0200000000000000 00 01 02",
        ErrorKind::Truncated,
        80,
        "l[1]",
    );
}

#[test]
fn lists_are_charged_against_the_budget() {
    // [u64; 600] is 4800 bytes, held out of line: an absent optional costs
    // 16 + 4800 + 32 bytes of the model for one byte of input.
    let s = schema("struct Big { a: [u64; 600] } struct L { l: list<optional<Big>> }");
    let id = s.type_by_name("L").unwrap();
    let mut bytes = 1000u64.to_le_bytes().to_vec();
    bytes.extend(std::iter::repeat_n(0u8, 1000));
    let each = crate::codec::memory::footprint(
        &s,
        &crate::ir::Type::Optional {
            inner: Box::new(crate::ir::Type::Named {
                id: s.type_by_name("Big").unwrap(),
                name: "Big".into(),
            }),
        },
    );
    assert_eq!(each, 4848);
    let exact = 1000 * each + 32;
    assert!(decode_with_budget(&s, id, &bytes, exact).is_ok());
    assert_eq!(
        decode_with_budget(&s, id, &bytes, exact - 1).expect_err("over budget"),
        CodecError::Wire {
            kind: ErrorKind::LimitExceeded,
            bit: 0,
            path: "l".into()
        }
    );
    // The default budget for 1008 bytes is 1 MiB + 64 × 1008: not enough.
    assert_eq!(
        decode(&s, id, &bytes).unwrap_err().wire_kind(),
        Some(ErrorKind::LimitExceeded)
    );
}

#[test]
fn trailing_bytes_are_rejected_with_an_empty_path() {
    let s = schema("struct U { v: u8 }");
    rejects(&s, "U", "0102", ErrorKind::TrailingData, 8, "");
    rejects(&s, "U", "", ErrorKind::Truncated, 0, "v");
}

#[test]
fn min_bytes_follow_the_spec_table() {
    let s = schema(
        "enum E { A, B }
         struct Empty {}
         union U { A(u64), B, C([u8; 3]) }
         struct S { a: bool, b: i12, c: f64, d: E, e: optional<u64>, f: list<u8>,
                    g: string, h: [u16; 5], i: U, j: Empty, k: u8 in 7..=7 }",
    );
    let mut m = MinBytes::new(&s);
    let named = |n: &str| crate::ir::Type::Named {
        id: s.type_by_name(n).unwrap(),
        name: n.into(),
    };
    assert_eq!(m.of(&named("E")), 4);
    assert_eq!(m.of(&named("Empty")), 0);
    assert_eq!(m.of(&named("U")), 4);
    assert_eq!(m.of(&named("S")), 1 + 2 + 8 + 4 + 1 + 8 + 8 + 10 + 4 + 1);
}

#[test]
fn the_trace_reports_byte_offsets_as_bits() {
    let s = schema("struct P { a: u8, s: string, o: optional<u16> }");
    let id = s.type_by_name("P").unwrap();
    let (t, r) = trace(&s, id, &hex("05 0200000000000000 6869 01 0700"));
    assert!(r.is_ok());
    let leaves: Vec<(u64, u64, &Leaf)> = t
        .entries
        .iter()
        .filter_map(|e| match &e.item {
            TraceItem::Leaf(l) => Some((e.start, e.end.unwrap(), l)),
            TraceItem::Group(_) => None,
        })
        .collect();
    assert_eq!(leaves[0], (0, 8, &Leaf::Int { raw: 5, value: 5 }));
    assert_eq!(
        leaves[1],
        (
            8,
            72,
            &Leaf::Length {
                len: 2,
                prefix_end: None
            }
        )
    );
    assert_eq!(leaves[2], (72, 88, &Leaf::Str("hi".into())));
    assert_eq!(leaves[3], (88, 96, &Leaf::Presence(true)));
    assert_eq!(leaves[4], (96, 112, &Leaf::Int { raw: 7, value: 7 }));
    assert_eq!(t.data_end, Some(112));
}
