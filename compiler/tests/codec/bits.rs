//! Exact bits of every type (spec §3–§5, §9) and varints (§5.4).

use super::support::*;

#[test]
fn nibble_examples_of_spec_section_9() {
    let (s, t) = single(vec![Type::Bool, u(4), u(2), u(9)]);
    check_bytes(
        &s,
        t,
        &rec(vec![Value::Bool(true), int(5), int(2), int(300)]),
        "4b 96",
    );
    check_bytes(
        &s,
        t,
        &rec(vec![Value::Bool(true), int(7), int(2), int(420)]),
        "4f d2",
    );
    let (s, t) = single(vec![i(4), i(5)]);
    check_bytes(&s, t, &rec(vec![int(-3), int(-16)]), "0d 01");
    let (s, t) = single(vec![u(12), u(20)]);
    check_bytes(&s, t, &rec(vec![int(0xABC), int(0x12345)]), "bc 5a 34 12");
    let (s, t) = single(vec![Type::Bool, u(64)]);
    let v = rec(vec![Value::Bool(true), int(0x0102030405060708)]);
    check_bytes(&s, t, &v, "11 0e 0c 0a 08 06 04 02 00");
}

#[test]
fn scalar_bits() {
    let (s, t) = single(vec![u(64), i(64), i(1)]);
    let v = rec(vec![int(u64::MAX.into()), int(i64::MIN.into()), int(-1)]);
    check_bytes(
        &s,
        t,
        &v,
        "ff ff ff ff ff ff ff ff 00 00 00 00 00 00 00 80 01",
    );
    // 1.0f32 = 0x3f800000, -0.0f64 = 0x8000000000000000, both little-endian here.
    let (s, t) = single(vec![f32t(), f64t()]);
    check_bytes(
        &s,
        t,
        &rec(vec![Value::Float(1.0), Value::Float(-0.0)]),
        "00 00 80 3f 00 00 00 00 00 00 00 80",
    );
    // Any NaN is written canonically; f32 values round to nearest-even.
    let nan = f64::from_bits(0xFFF0_0000_0000_0001);
    let bytes = encode(&s, t, &rec(vec![Value::Float(nan), Value::Float(nan)])).unwrap();
    assert_eq!(hex(&bytes), "00 00 c0 7f 00 00 00 00 00 00 f8 7f");
    let bytes = encode(&s, t, &rec(vec![Value::Float(0.1), Value::Float(0.1)])).unwrap();
    assert_eq!(bytes[..4], 0.1f32.to_bits().to_le_bytes());
    let (s, t) = single(vec![f32t()]);
    let tiny = f64::from(f32::from_bits(1)); // the smallest subnormal survives
    check_bytes(&s, t, &rec(vec![Value::Float(tiny)]), "01 00 00 00");
    check_bytes(
        &s,
        t,
        &rec(vec![Value::Float(f64::NEG_INFINITY)]),
        "00 00 80 ff",
    );
}

#[test]
fn bounded_and_quantized_bits() {
    // u16 in 1000..=1003 stores v - 1000 in 2 bits; i8 in -5..=5 stores v + 5 in 4 bits;
    // a one-value range takes no bits at all.
    let (s, t) = single(vec![
        bounded(16, 1000, 1003),
        bounded(8, -5, 5),
        bounded(8, 7, 7),
    ]);
    check_bytes(&s, t, &rec(vec![int(1002), int(-5), int(7)]), "02");
    check_bytes(&s, t, &rec(vec![int(1003), int(5), int(7)]), "2b");
    // i64 over its whole range: v - MIN = v + 2^63 in 64 bits.
    let (s, t) = single(vec![bounded(64, i64::MIN.into(), i64::MAX.into())]);
    check_bytes(&s, t, &rec(vec![int(0)]), "00 00 00 00 00 00 00 80");

    // f32 in -1..=1 bits 8: 0.5 → t = 0.75, q = floor(191.25 + 0.5) = 191 = 0xbf;
    // decodes to -1 + (2 * 191) / 255, rounded to f32.
    let (s, t) = single(vec![quant(FloatRepr::F32, -1.0, 1.0, 255)]);
    let bytes = encode(&s, t, &rec(vec![Value::Float(0.5)])).unwrap();
    assert_eq!(hex(&bytes), "bf");
    let back = f64::from((-1.0 + (2.0 * 191.0) / 255.0) as f32);
    assert_eq!(
        decode(&s, t, &bytes).unwrap(),
        rec(vec![Value::Float(back)])
    );
    // f64 in 0..=10 step 0.5 (20 steps, 5 bits): 2.25 is exactly between two grid
    // points and rounds up by `floor(x + 0.5)`.
    let (s, t) = single(vec![quant(FloatRepr::F64, 0.0, 10.0, 20)]);
    assert_eq!(
        hex(&encode(&s, t, &rec(vec![Value::Float(2.25)])).unwrap()),
        "05"
    );
    check_bytes(&s, t, &rec(vec![Value::Float(10.0)]), "14");
    check_bytes(&s, t, &rec(vec![Value::Float(-0.0 + 0.0)]), "00");
}

#[test]
fn composite_bits() {
    let mut b = Builder::new();
    let e = b.enumeration("E", 2, &[("A", 0), ("B", 1), ("D", 3)]);
    let one = b.enumeration("One", 0, &[("Only", 0)]);
    let un = b.union("U", 2, vec![("Unit", 0, None), ("Num", 2, Some(u(3)))]);
    let t = b.structure(
        "T",
        vec![
            ("e", e),
            ("one", one),
            ("u", un),
            ("o", opt(u(3))),
            ("a", arr(i(2), 2)),
        ],
    );
    let (s, t) = (b.schema, Builder::id(&t));
    // Stream bits, LSB of each value first: e=D: 1 1 | One: none | u=Num(5): tag 2 = 0 1,
    // payload 1 0 1 | o=Some(6): 1, 0 1 1 | a=[-1, 1]: 1 1, 1 0
    // → 11011011 | 0111110 → db 3e
    let v = Value::record([
        ("e", Value::Enum("D".into())),
        ("one", Value::Enum("Only".into())),
        ("u", Value::variant("Num", int(5))),
        ("o", Value::some(int(6))),
        ("a", Value::Array(vec![int(-1), int(1)])),
    ]);
    check_bytes(&s, t, &v, "db 3e");
    let v = Value::record([
        ("e", Value::Enum("A".into())),
        ("one", Value::Enum("Only".into())),
        ("u", Value::unit("Unit")),
        ("o", Value::none()),
        ("a", Value::Array(vec![int(0), int(0)])),
    ]);
    check_bytes(&s, t, &v, "00 00");
}

#[test]
fn lists_strings_bytes_bits() {
    let (s, t) = single(vec![list(u(3), Some(5)), string(Some(3)), bytes(None)]);
    // list: len 2 in 3 bits (010), 7 (111), 1 (100) | string "é" = c3 a9: len 2 in 2 bits
    // (01), then the bytes LSB first | bytes [ab]: varu64 1 = 0 + 1000, then ab.
    let v = rec(vec![
        Value::Array(vec![int(7), int(1)]),
        Value::String("é".into()),
        Value::Bytes(vec![0xab]),
    ]);
    let bytes_ = encode(&s, t, &v).unwrap();
    let mut bits = String::new();
    for p in 0..bytes_.len() * 8 {
        bits.push(if bytes_[p / 8] >> (p % 8) & 1 == 1 {
            '1'
        } else {
            '0'
        });
    }
    let expect = [
        "010", "111", "100", // list
        "01", "11000011", "10010101", // string: len 2, c3, a9
        "0", "1000", "11010101", // bytes: varint 1, ab
    ]
    .concat();
    assert_eq!(&bits[..expect.len()], expect);
    assert!(bits[expect.len()..].chars().all(|c| c == '0'));
    assert_eq!(decode(&s, t, &bytes_).unwrap(), v);
    // Empty containers: only the lengths (3 + 2 + 5 bits).
    let v = rec(vec![
        Value::Array(vec![]),
        Value::String(String::new()),
        Value::Bytes(vec![]),
    ]);
    check_bytes(&s, t, &v, "00 00");
}

#[test]
fn empty_struct_encodes_to_zero_bytes() {
    let (s, t) = single(vec![]);
    check_bytes(&s, t, &rec(vec![]), "");
    assert_eq!(wire(decode(&s, t, &[0])), w(ErrorKind::TrailingData, 0, ""));
}

// ---------------------------------------------------------------------------------------
// Varints (§5.4)
// ---------------------------------------------------------------------------------------

/// Encoded bit length of `u` in a varint of width `w`, by the spec's formula.
fn varint_len(u: u128, w: u32) -> u64 {
    let n = u64::from(bits_for(u).div_ceil(4).max(1));
    let gmax = u64::from(w / 4);
    (n - 1) + u64::from(n < gmax) + 4 * n
}

#[test]
fn varint_boundaries_round_trip_at_the_spec_length() {
    for w in [16u32, 32, 64] {
        // Each group boundary: 2^(4k) - 1 and 2^(4k), plus the type's max.
        let mut values: Vec<u128> = vec![0, 1];
        for k in 1..=w / 4 {
            values.push((1u128 << (4 * k)) - 1);
            if 4 * k < w {
                values.push(1u128 << (4 * k));
            }
        }
        for &uv in &values {
            // Unsigned; a trailing marker bit shows where the varint ended.
            let (s, t) = single(vec![varu(w), Type::Bool]);
            let v = rec(vec![int(uv as i128), Value::Bool(true)]);
            let bytes = encode(&s, t, &v).unwrap();
            let end = varint_len(uv, w);
            assert_eq!(bytes.len() as u64, (end + 1).div_ceil(8), "w={w} u={uv}");
            assert_eq!(
                bytes[(end / 8) as usize] >> (end % 8) & 1,
                1,
                "w={w} u={uv}"
            );
            assert_eq!(decode(&s, t, &bytes).unwrap(), v);
        }
        // Signed: zigzag then the same shape.
        let half = 1i128 << (w - 1);
        for sv in [0, -1, 1, -2, 7, -8, 8, -9, half - 1, -half] {
            let (s, t) = single(vec![vari(w)]);
            let zz = if sv >= 0 { 2 * sv } else { -2 * sv - 1 } as u128;
            let v = rec(vec![int(sv)]);
            let bytes = encode(&s, t, &v).unwrap();
            assert_eq!(
                bytes.len() as u64,
                varint_len(zz, w).div_ceil(8),
                "w={w} v={sv}"
            );
            assert_eq!(decode(&s, t, &bytes).unwrap(), v);
        }
    }
    // Exact bytes: varu16 16 = "1 0" + 00001000 → 41 00; varu16 max = 19 one bits.
    let (s, t) = single(vec![varu(16)]);
    check_bytes(&s, t, &rec(vec![int(16)]), "41 00");
    check_bytes(&s, t, &rec(vec![int(65535)]), "ff ff 07");
    check_bytes(&s, t, &rec(vec![int(5)]), "0a");
    // vari16 -1 → zigzag 1 → "0" + 1000.
    let (s, t) = single(vec![vari(16)]);
    check_bytes(&s, t, &rec(vec![int(-1)]), "02");
}

#[test]
fn non_minimal_varints_are_rejected() {
    let (s, t) = single(vec![u(3), varu(16)]);
    // At bit 3: prefix "1 0" (two groups), payload 5 in 8 bits: a shorter form exists.
    // bits: 000 | 1 0 | 10100000 → byte0 = 0b00101000 | ..., built bit by bit below.
    let mut bits = vec![0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0];
    let pack = |bits: &Vec<u8>| {
        let mut out = vec![0u8; bits.len().div_ceil(8)];
        for (p, b) in bits.iter().enumerate() {
            out[p / 8] |= b << (p % 8);
        }
        out
    };
    assert_eq!(
        wire(decode(&s, t, &pack(&bits))),
        w(ErrorKind::NonCanonical, 3, "f1")
    );
    // The same with payload 16 is minimal.
    bits[5..13].copy_from_slice(&[0, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(
        decode(&s, t, &pack(&bits)).unwrap(),
        rec(vec![int(0), int(16)])
    );
    // varu64 with all 16 groups (15 ones, no terminator) holding 1.
    let (s, t) = single(vec![varu(64)]);
    let mut bits = vec![1u8; 15];
    bits.extend([1]);
    bits.extend([0; 63]);
    assert_eq!(
        wire(decode(&s, t, &pack(&bits))),
        w(ErrorKind::NonCanonical, 0, "f0")
    );
    // And a zero written in two groups.
    assert_eq!(
        wire(decode(&s, t, &[0b01])),
        w(ErrorKind::Truncated, 0, "f0")
    );
    assert_eq!(
        wire(decode(&s, t, &[0b01, 0])),
        w(ErrorKind::NonCanonical, 0, "f0")
    );
}
