//! What a person reads: every error kind's `Display` through generated code names the
//! kind, the bit offset, the field path, the offending value and the limit where
//! there is one (`docs/rust.md`, Errors). Kind, bit and path are the cross-language
//! contract; the text after the path is not, but it must be there.

use bitwire::{BitWriter, ErrorKind, Limits, Packed};
use bitwire_conformance::suites::{
    bounded, enums_unions, floats, game, limits, messages, quantized, sequences, varints,
};

/// The bytes of a bit stream given as `(value, bits)` pairs, padded to a byte.
fn bits(fields: &[(u64, u32)]) -> Vec<u8> {
    stream(|w| {
        for &(v, n) in fields {
            w.write_bits(v, n);
        }
    })
}

/// The bytes `write` writes, padded to a byte.
fn stream(write: impl FnOnce(&mut BitWriter<'_>)) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = BitWriter::new(&mut out);
    write(&mut w);
    w.finish();
    out
}

/// The message of decoding `bytes` as a `T`, checking that `verify` agrees, and the
/// kind.
fn decode_err<T: Packed + std::fmt::Debug>(bytes: &[u8], kind: ErrorKind) -> String {
    let e = T::decode(bytes).expect_err("the input is invalid");
    assert_eq!(
        T::verify(bytes),
        Err(e.clone()),
        "verify gives decode's error"
    );
    assert_eq!(e.kind(), kind, "{e}");
    e.to_string()
}

#[test]
fn truncated_names_the_bits_needed_and_left() {
    // The run of Packet64 ends inside `score` (bits 48..64): 8 of its 16 bits are there.
    let m = decode_err::<game::Packet64>(&[0; 7], ErrorKind::Truncated);
    assert_eq!(m, "Truncated at bit 48, score: needs 16 bits, 8 left");
    // A varint with no input at all: the shortest varint is 5 bits.
    let m = decode_err::<varints::VarU32>(&[], ErrorKind::Truncated);
    assert_eq!(m, "Truncated at bit 0, v: needs 5 bits, 0 left");
    // A string of 5 bytes (a 4-bit length) with 1 byte of text and 4 padding bits.
    let m = decode_err::<sequences::ShortText>(&bits(&[(5, 4), (0x61, 8)]), ErrorKind::Truncated);
    assert_eq!(m, "Truncated at bit 0, s: needs 40 bits, 12 left");
    // A byte array whose third byte is cut: at that byte, path `a[2]`.
    let m = decode_err::<sequences::ByteArray>(&[1, 2], ErrorKind::Truncated);
    assert_eq!(m, "Truncated at bit 16, a[2]: needs 8 bits, 0 left");
    // Bulk-read elements: the second of three `f32` of an array after a 1-bit flag
    // and 3 u32 + 2 f64 + 5 i16 (bits 1..=304), cut 8 bits into it.
    let mut short = vec![0u8; 1 + (304 + 32 + 8) / 8];
    short.truncate((304 + 32 + 8) / 8);
    let m = decode_err::<sequences::WideArrays>(&short, ErrorKind::Truncated);
    assert_eq!(m, "Truncated at bit 337, f[1]: needs 32 bits, 7 left");
}

#[test]
fn the_end_of_a_message() {
    let m = decode_err::<messages::Byte>(&[1, 2, 3], ErrorKind::TrailingData);
    assert_eq!(m, "TrailingData at bit 8: 2 bytes after the end");
    let m = decode_err::<messages::Byte>(&[1, 2], ErrorKind::TrailingData);
    assert_eq!(m, "TrailingData at bit 8: 1 byte after the end");
    // `flag` is bit 0; the 7 padding bits hold 0b10.
    let m = decode_err::<messages::OneBit>(&[0b101], ErrorKind::InvalidPadding);
    assert_eq!(
        m,
        "InvalidPadding at bit 1: padding 0b10 in 7 bits, must be zero"
    );
}

#[test]
fn out_of_range_names_the_value_and_the_range() {
    let e = bounded::Health { v: 1001 }.encode_to_vec().unwrap_err();
    assert_eq!(
        e.to_string(),
        "OutOfRange at bit 0, v: 1001 not in 0..=1000"
    );
    // Decoded: the stored offset 1001 in 10 bits.
    let m = decode_err::<bounded::Health>(&bits(&[(1001, 10)]), ErrorKind::OutOfRange);
    assert_eq!(m, "OutOfRange at bit 0, v: 1001 not in 0..=1000");
    let e = bounded::Negative { v: 0 }.encode_to_vec().unwrap_err();
    assert_eq!(e.to_string(), "OutOfRange at bit 0, v: 0 not in -1000..=-1");
    // A quantized float: 0..=100 step 0.5 is 200 steps in 8 bits.
    let m = decode_err::<quantized::Speed>(&[201], ErrorKind::OutOfRange);
    assert_eq!(
        m,
        "OutOfRange at bit 0, v: stored 201 above the last step 200"
    );
    let e = quantized::Coord { v: 2000.5 }.encode_to_vec().unwrap_err();
    assert_eq!(
        e.to_string(),
        "OutOfRange at bit 0, v: 2000.5 not in -1000.0..=1000.0"
    );
    let e = quantized::Speed { v: f32::NAN }
        .encode_to_vec()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "OutOfRange at bit 0, v: NaN not in 0.0..=100.0"
    );
    // A narrowed integer of a run, found by the cold path after the combined check.
    let p = game::Packet64 {
        is_alive: true,
        weapon_id: 16,
        team_id: 0,
        health: 0,
        pos_x: 0,
        pos_y: 0,
        rotation: 0,
        score: 0,
    };
    let e = p.encode_to_vec().unwrap_err();
    assert_eq!(
        e.to_string(),
        "OutOfRange at bit 1, weapon_id: 16 not in 0..=15"
    );
}

#[test]
fn invalid_enum_names_the_value() {
    // `Frame { seq: u8, event: Event }`: Event's tags are 0, 4..=7 and 9 in 4 bits.
    let m = decode_err::<enums_unions::Frame>(&bits(&[(0, 8), (8, 4)]), ErrorKind::InvalidEnum);
    assert_eq!(m, "InvalidEnum at bit 8, event: 8 is not declared");
    // Color (Red, Green, Blue) in 2 bits, as the payload of `Shape::Tinted` (tag 6 of
    // 3 bits) inside `Event::Draw` (tag 6).
    let m = decode_err::<enums_unions::Frame>(
        &bits(&[(0, 8), (6, 4), (6, 3), (3, 2)]),
        ErrorKind::InvalidEnum,
    );
    assert_eq!(
        m,
        "InvalidEnum at bit 15, event.Draw.Tinted: 3 is not declared"
    );
    // A message id the schema does not declare.
    let e = game::Message::decode(99, &[]).unwrap_err();
    assert_eq!(e.to_string(), "InvalidEnum at bit 0: 99 is not declared");
}

#[test]
fn invalid_length_names_the_length_and_the_bound() {
    let e = sequences::ShortText {
        s: "123456789".into(),
    }
    .encode_to_vec()
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "InvalidLength at bit 0, s: length 9, at most 8"
    );
    let m = decode_err::<sequences::ShortText>(&[9], ErrorKind::InvalidLength);
    assert_eq!(m, "InvalidLength at bit 0, s: length 9, at most 8");
}

#[test]
fn invalid_utf8_names_the_byte() {
    // "a", then 0xff, at bit 4 (after the 4-bit length).
    let bytes = bits(&[(2, 4), (0x61, 8), (0xff, 8)]);
    let m = decode_err::<sequences::ShortText>(&bytes, ErrorKind::InvalidUtf8);
    assert_eq!(
        m,
        "InvalidUtf8 at bit 0, s: byte 1 (0xff) is not valid UTF-8"
    );
    // A long unaligned string (checked in blocks by `verify`): byte 70 is bad.
    let bytes = stream(|w| {
        w.write_bits(1, 1);
        w.write_varint(100, 64);
        for i in 0..100 {
            w.write_bits(if i == 70 { 0xC0 } else { 0x41 }, 8);
        }
    });
    let m = decode_err::<TextAfterFlag>(&bytes, ErrorKind::InvalidUtf8);
    assert_eq!(
        m,
        "InvalidUtf8 at bit 1, s: byte 70 (0xc0) is not valid UTF-8"
    );
}

/// `{ flag: bool, s: string }` with an unbounded length: `Text` after one bit, built
/// from the generated `Text` so that the string is unaligned.
#[derive(Debug)]
struct TextAfterFlag;

impl Packed for TextAfterFlag {
    const MIN_BITS: u64 = 1 + sequences::Text::MIN_ENCODED_BITS;
    const MAX_BITS: Option<u64> = None;

    fn write(&self, _: &mut BitWriter<'_>) -> bitwire::Result<()> {
        unreachable!("decode only")
    }

    fn read(r: &mut bitwire::BitReader<'_>) -> bitwire::Result<Self> {
        r.read_bits(1)?;
        sequences::Text::read(r)?;
        Ok(TextAfterFlag)
    }

    fn check(r: &mut bitwire::BitReader<'_>) -> bitwire::Result<()> {
        r.read_bits(1)?;
        sequences::Text::check(r)
    }
}

#[test]
fn non_canonical_names_the_form() {
    // 5 in two 4-bit groups: prefix 1, 0, then 0b0000_0101.
    let m = decode_err::<varints::VarU32>(&bits(&[(0b01, 2), (5, 8)]), ErrorKind::NonCanonical);
    assert_eq!(m, "NonCanonical at bit 0, v: 5 in 2 groups, minimal is 1");
    let m = decode_err::<floats::F32>(&0x7FC0_0001u32.to_le_bytes(), ErrorKind::NonCanonical);
    assert_eq!(
        m,
        "NonCanonical at bit 0, v: NaN 0x7fc00001, the canonical NaN is 0x7fc00000"
    );
    let m = decode_err::<floats::F64>(
        &0xFFF8_0000_0000_0000u64.to_le_bytes(),
        ErrorKind::NonCanonical,
    );
    assert_eq!(
        m,
        "NonCanonical at bit 0, v: NaN 0xfff8000000000000, the canonical NaN is 0x7ff8000000000000"
    );
    // In a bulk-read list: `Wide { flag, u: list<u64, max 7>, f: list<f32>, .. }`
    // with no `u`, then two `f32`, the second a negative NaN.
    let bytes = stream(|w| {
        w.write_bits(0, 1 + 3);
        w.write_varint(2, 64);
        w.write_bits(1.5f32.to_bits().into(), 32);
        w.write_bits(0xFFC0_0000, 32);
        w.write_bits(0, 2 + 5);
    });
    let m = decode_err::<sequences::Wide>(&bytes, ErrorKind::NonCanonical);
    assert_eq!(
        m,
        "NonCanonical at bit 41, f[1]: NaN 0xffc00000, the canonical NaN is 0x7fc00000"
    );
}

#[test]
fn limit_exceeded_names_the_charge_and_the_budget() {
    // 100 absent `optional<Big>` against a 64 KiB budget.
    let value = limits::Absent { l: vec![None; 100] };
    let bytes = value.encode_to_vec().unwrap();
    let e = limits::Absent::decode_with(&bytes, &Limits::fixed(64 << 10)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded);
    assert_eq!(
        limits::Absent::verify_with(&bytes, &Limits::fixed(64 << 10)),
        Err(e.clone())
    );
    // The charge: 100 elements of `optional<Big>`, whose footprint in the memory
    // model (`bitwire ir`) is 4152 bytes, plus 32 for the allocation (spec §11).
    assert_eq!(
        e.to_string(),
        "LimitExceeded at bit 0, l: needs 415232 bytes, 65536 left in the decode budget"
    );
}
