//! Unit tests of the delta codes (spec §12.4, §12.5) and the keyed list walk.

use super::*;
use alloc::vec;

/// Writes with `f`, returns the bytes and the bits written.
fn written(f: impl FnOnce(&mut BitWriter<'_>)) -> (Vec<u8>, u64) {
    let mut buf = Vec::new();
    let mut w = BitWriter::new(&mut buf);
    f(&mut w);
    let bits = w.bit_pos();
    w.finish();
    (buf, bits)
}

fn prefix(width: u32) -> u32 {
    bits_for(u64::from(width) - 1)
}

/// Values near the edges of a `width`-bit field.
fn edges(width: u32) -> Vec<u64> {
    let max = low_mask(width);
    let half = max >> 1;
    let mut v = vec![
        0,
        1,
        2,
        3,
        max,
        max - 1,
        half,
        half + 1,
        half.wrapping_sub(1) & max,
    ];
    v.retain(|&x| x <= max);
    v
}

#[test]
fn difference_code_round_trips_at_every_width() {
    for width in 1..=64 {
        for &b in &edges(width) {
            for &v in &edges(width) {
                if b == v {
                    continue;
                }
                let (bytes, bits) = written(|w| w.write_diff(b, v, width, prefix(width)));
                assert!(
                    bits <= u64::from(width + prefix(width) - 1),
                    "{width}: {b} → {v}"
                );
                let mut r = BitReader::new(&bytes);
                let c = r.read_diff(b, width, prefix(width)).unwrap();
                assert_eq!(c.bits(0, width), v, "{width}: {b} → {v}");
                assert_eq!(r.bit_pos(), bits);
            }
        }
    }
}

#[test]
fn difference_code_sizes_follow_the_spec() {
    // A bool flips in zero bits; a u32 tick that advanced by one costs 6 bits.
    assert_eq!(written(|w| w.write_diff(0, 1, 1, 0)).1, 0);
    assert_eq!(written(|w| w.write_diff(1, 0, 1, 0)).1, 0);
    assert_eq!(written(|w| w.write_diff(41, 42, 32, 5)).1, 6);
    // -1 is z = 1: only the length prefix.
    assert_eq!(written(|w| w.write_diff(42, 41, 32, 5)).1, 5);
    // The most negative difference in 64 bits: z = 2^64 - 1, n = 64.
    let (_, bits) = written(|w| w.write_diff(1 << 63, 0, 64, 6));
    assert_eq!(bits, 6 + 63);
    // Changed bit first: 0 when equal.
    let (bytes, bits) = written(|w| {
        assert!(!w.write_scalar_delta(7, 7, 8, 3));
        assert!(w.write_scalar_delta(7, 8, 8, 3));
    });
    assert_eq!(bits, 1 + 1 + 3 + 1);
    // 0, then 1, then m = 1 (z = 2) in 3 bits, then z's low bit 0.
    assert_eq!(bytes, [0b0000_0110]);
}

#[test]
fn difference_code_rejects_long_prefixes_and_truncation_at_the_code() {
    // u3: prefix 2 bits, m = 3 is not below the width.
    let mut r = BitReader::new(&[0b0000_0111 << 1]);
    r.read_bits(1).unwrap();
    let e = r.read_diff(0, 3, 2).unwrap_err();
    assert_eq!((e.kind(), e.bit()), (ErrorKind::OutOfRange, 1));
    // u32: m = 9 needs nine more bits than the byte holds.
    let mut r = BitReader::new(&[0b0000_1001]);
    let e = r.read_diff(0, 32, 5).unwrap_err();
    assert_eq!((e.kind(), e.bit()), (ErrorKind::Truncated, 0));
    let mut r = BitReader::new(&[]);
    let e = r.read_diff(0, 8, 3).unwrap_err();
    assert_eq!((e.kind(), e.bit()), (ErrorKind::Truncated, 0));
}

#[test]
fn golomb_sizes_and_round_trip() {
    for (x, bits) in [(0, 1), (1, 3), (2, 3), (3, 5), (6, 5), (7, 7)] {
        assert_eq!(written(|w| w.write_golomb(x)).1, bits, "{x}");
    }
    let values: Vec<u64> = (0..300)
        .chain((0..63).map(|s| (1u64 << s) - 1))
        .chain([u64::MAX - 1])
        .collect();
    for &x in &values {
        let (bytes, bits) = written(|w| w.write_golomb(x));
        let mut r = BitReader::new(&bytes);
        assert_eq!(r.read_golomb(MAX_COUNT_ZEROS).unwrap(), x);
        assert_eq!(r.bit_pos(), bits);
    }
}

#[test]
fn golomb_zero_caps_and_truncation() {
    // Three zeros then a one: x = 7 + rest; with a cap of 2 zeros, OutOfRange.
    let (bytes, _) = written(|w| w.write_golomb(9));
    let mut r = BitReader::new(&bytes);
    let e = r.read_golomb(2).unwrap_err();
    assert_eq!((e.kind(), e.bit()), (ErrorKind::OutOfRange, 0));
    assert_eq!(BitReader::new(&bytes).read_golomb(3).unwrap(), 9);
    // All zeros: OutOfRange once the cap is passed inside the input, else Truncated.
    let e = BitReader::new(&[0]).read_golomb(6).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfRange);
    let e = BitReader::new(&[0]).read_golomb(8).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Truncated);
    // The 64th zero bit is the first one past the cap of 63.
    let e = BitReader::new(&[0; 8]).read_golomb(63).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfRange);
    let e = BitReader::new(&[0; 7]).read_golomb(63).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Truncated);
    // The one bit is there, the payload is not.
    let e = BitReader::new(&[0b1000_0000]).read_golomb(63).unwrap_err();
    assert_eq!((e.kind(), e.bit()), (ErrorKind::Truncated, 0));
}

/// A keyed element: key, one u8 field.
type Elem = (u8, u8);

const LIST: KeyedList = KeyedList {
    max: Some(8),
    elem_min_bits: 16,
    charge_per_elem: 2,
};

fn row_w(b: &Elem, c: &Elem, w: &mut BitWriter<'_>) -> Result<bool> {
    Ok(w.write_scalar_delta(b.1.into(), c.1.into(), 8, 3))
}

fn full_w(c: &Elem, w: &mut BitWriter<'_>) -> Result<()> {
    w.write_bits(u64::from(c.0) | u64::from(c.1) << 8, 16);
    Ok(())
}

fn row_r(b: &Elem, r: &mut BitReader<'_>) -> Result<(Elem, bool)> {
    if !r.read_bool()? {
        return Ok((*b, false));
    }
    let c = r.read_diff(b.1.into(), 8, 3)?;
    Ok(((b.0, c.bits(0, 8) as u8), true))
}

fn full_r(r: &mut BitReader<'_>) -> Result<Elem> {
    let v = r.read_bits(16)?;
    Ok((v as u8, (v >> 8) as u8))
}

fn encode(base: &[Elem], cur: &[Elem]) -> Result<(Vec<u8>, bool)> {
    let mut buf = Vec::new();
    let mut w = BitWriter::new(&mut buf);
    let changed = write_keyed_delta(&mut w, base, cur, &LIST, |e| e.0, row_w, full_w)?;
    w.finish();
    Ok((buf, changed))
}

fn decode(base: &[Elem], bytes: &[u8]) -> Result<Vec<Elem>> {
    let mut r = BitReader::new(bytes);
    let v = read_keyed_delta(&mut r, base, &LIST, |e| e.0, row_r, full_r)?;
    r.finish()?;
    Ok(v)
}

#[test]
fn keyed_lists_round_trip() {
    let base = [(1, 10), (3, 30), (5, 50), (7, 70)];
    let cases: [&[Elem]; 6] = [
        &[(1, 10), (3, 31), (5, 50), (7, 70)],
        &[(3, 30), (5, 50)],
        &[(0, 1), (1, 10), (2, 2), (3, 30), (5, 50), (7, 70), (9, 9)],
        &[],
        &[(2, 2)],
        &[(1, 11), (4, 40), (7, 71)],
    ];
    for cur in cases {
        let (bytes, changed) = encode(&base, cur).unwrap();
        assert!(changed);
        assert_eq!(decode(&base, &bytes).unwrap(), cur, "{cur:?}");
    }
    // Unchanged: nothing the receiver needs (the caller takes the bits back).
    assert!(!encode(&base, &base).unwrap().1);
    // One changed element among unchanged ones: gap 1, op 0, row, gap 2, count 0.
    let (_, bits) = written(|w| {
        write_keyed_delta(w, &base, cases[0], &LIST, |e| e.0, row_w, full_w).unwrap();
    });
    assert_eq!(bits, 3 + 1 + (1 + 3 + 1) + 3 + 1);
}

#[test]
fn keyed_lists_check_key_order() {
    let sorted = [(1, 0), (2, 0)];
    let unsorted = [(2, 0), (1, 0)];
    let e = encode(&sorted, &unsorted).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidKey);
    let e = encode(&unsorted, &sorted).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidKey);
    // Equal lists are unchanged, whatever their order (§12.2): no delta, no error.
    assert!(!encode(&unsorted, &unsorted).unwrap().1);
    let e = encode(&[(1, 0); 9], &[]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLength);
    let e = decode(&unsorted, &[0xff]).unwrap_err();
    assert_eq!((e.kind(), e.bit()), (ErrorKind::InvalidKey, 0));
}

#[test]
fn keyed_list_decoder_rejects_what_no_encoder_writes() {
    let base = [(1, 10), (3, 30)];
    let check = |f: &dyn Fn(&mut BitWriter<'_>), kind: ErrorKind, bit: u64, path: &str| {
        let (bytes, _) = written(f);
        let e = decode(&base, &bytes).unwrap_err();
        assert_eq!(
            (e.kind(), e.bit(), e.path_string().as_str()),
            (kind, bit, path)
        );
    };
    // No event, nothing added: the list did not change.
    check(
        &|w| {
            w.write_golomb(2);
            w.write_golomb(0);
        },
        ErrorKind::NonCanonical,
        4,
        "",
    );
    // A gap past the end of the baseline.
    check(&|w| w.write_golomb(3), ErrorKind::OutOfRange, 0, "");
    // A changed element whose row changed nothing.
    check(
        &|w| {
            w.write_golomb(0);
            w.write_bool(false);
            w.write_bool(false);
        },
        ErrorKind::NonCanonical,
        3,
        "[0]",
    );
    // Two kept plus seven added is above max 8.
    check(
        &|w| {
            w.write_golomb(2);
            w.write_golomb(7);
        },
        ErrorKind::InvalidLength,
        3,
        "",
    );
    // An added key already in the baseline, then one out of order.
    check(
        &|w| {
            w.write_golomb(2);
            w.write_golomb(1);
            full_w(&(3, 0), w).unwrap();
        },
        ErrorKind::InvalidKey,
        6,
        "[0]",
    );
    check(
        &|w| {
            w.write_golomb(2);
            w.write_golomb(2);
            full_w(&(5, 0), w).unwrap();
            full_w(&(4, 0), w).unwrap();
        },
        ErrorKind::InvalidKey,
        22,
        "[1]",
    );
    // Added elements that cannot fit in what is left.
    check(
        &|w| {
            w.write_golomb(2);
            w.write_golomb(2);
        },
        ErrorKind::Truncated,
        3,
        "",
    );
}

#[test]
fn keyed_list_charges_the_decoded_list() {
    let base = [(1, 10)];
    let (bytes, _) = encode(&base, &[(1, 10), (2, 20)]).unwrap();
    // Two elements of 2 bytes plus one allocation: 36 bytes.
    for (budget, ok) in [(36, true), (35, false)] {
        let mut r = BitReader::with_limits(&bytes, &Limits::fixed(budget));
        let got = read_keyed_delta(&mut r, &base, &LIST, |e| e.0, row_r, full_r);
        match got {
            Ok(v) => assert!(ok && v == [(1, 10), (2, 20)]),
            Err(e) => assert!(!ok && e.kind() == ErrorKind::LimitExceeded, "{e}"),
        }
    }
}
