//! The reader and writer against bytes `bincode::serialize` 1.3.3 wrote (the table
//! of /work/notes/bincode-research.md §1.2, reproduced in the shared vectors), and
//! the checks of spec §13 with their kinds, bits and paths.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::{Error, ErrorKind, ResultExt};

fn written(f: impl FnOnce(&mut ByteWriter<'_>) -> Result<()>) -> Vec<u8> {
    let mut out = Vec::new();
    f(&mut ByteWriter::new(&mut out)).expect("writes");
    out
}

fn kind_bit(e: Error) -> (ErrorKind, u64) {
    (e.kind(), e.bit())
}

#[test]
fn scalars_are_bincodes_bytes() {
    let out = written(|w| {
        w.write_u8(0xAB);
        w.write_u16(0x1234);
        w.write_u32(0x1234_5678);
        w.write_u64(300);
        w.write_i8(-1);
        w.write_i16(-2);
        w.write_i64(-2);
        w.write_bool(true);
        w.write_f32(1.5);
        w.write_f64(f64::NEG_INFINITY);
        w.write_option_tag(false);
        w.write_index(2);
        Ok(())
    });
    let want = [
        &[0xab][..],
        &[0x34, 0x12],
        &[0x78, 0x56, 0x34, 0x12],
        &[0x2c, 0x01, 0, 0, 0, 0, 0, 0],
        &[0xff],
        &[0xfe, 0xff],
        &[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0x01],
        &[0x00, 0x00, 0xc0, 0x3f],
        &[0, 0, 0, 0, 0, 0, 0xf0, 0xff],
        &[0x00],
        &[0x02, 0, 0, 0],
    ]
    .concat();
    assert_eq!(out, want);
    let mut r = ByteReader::new(&out);
    assert_eq!(r.read_u8().unwrap(), 0xAB);
    assert_eq!(r.read_u16().unwrap(), 0x1234);
    assert_eq!(r.read_u32().unwrap(), 0x1234_5678);
    assert_eq!(r.read_u64().unwrap(), 300);
    assert_eq!(r.read_i8().unwrap(), -1);
    assert_eq!(r.read_i16().unwrap(), -2);
    assert_eq!(r.read_i64().unwrap(), -2);
    assert!(r.read_bool().unwrap());
    assert_eq!(r.read_f32().unwrap(), 1.5);
    assert_eq!(r.read_f64().unwrap(), f64::NEG_INFINITY);
    assert!(!r.read_option_tag().unwrap());
    assert_eq!(r.read_index(3).unwrap(), 2);
    r.finish().unwrap();
}

#[test]
fn nan_payloads_pass_through() {
    let nan = f32::from_bits(0x7fc0_0001);
    let out = written(|w| {
        w.write_f32(nan);
        Ok(())
    });
    assert_eq!(out, [0x01, 0x00, 0xc0, 0x7f]);
    let back = ByteReader::new(&out).read_f32().unwrap();
    assert_eq!(back.to_bits(), 0x7fc0_0001);
}

#[test]
fn ranges_are_checked_on_both_sides_at_the_value() {
    let mut out = vec![0xEE];
    let mut w = ByteWriter::new(&mut out);
    w.write_u8(1);
    let e = w.write_u16_in(1001, 0, 1000).unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::OutOfRange, 8));
    w.write_i16_in(-100, -100, 100).unwrap();
    let e = w.write_f32_in(f32::NAN, -1.0, 1.0).unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::OutOfRange, 24));
    w.write_f64_in(0.25, 0.0, 1.0).unwrap();
    assert_eq!(out.len(), 1 + 1 + 2 + 8, "failed writes write nothing");

    let mut r = ByteReader::new(&[0x00, 0xe9, 0x03]);
    r.read_u8().unwrap();
    let e = r.read_u16_in(0, 1000).unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::OutOfRange, 8));
    let e = ByteReader::new(&[0x10]).read_u8_in(0, 15).unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::OutOfRange, 0));
    // i12: -2048..=2047 in an i16.
    assert_eq!(
        ByteReader::new(&[0x00, 0xf8]).read_i16_in(-2048, 2047),
        Ok(-2048)
    );
    let e = ByteReader::new(&[0xff, 0xf7])
        .read_i16_in(-2048, 2047)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfRange);
    let nan = f64::NAN.to_le_bytes();
    let e = ByteReader::new(&nan).read_f64_in(0.0, 1.0).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfRange);
    let e = ByteReader::new(&2.0f32.to_le_bytes())
        .read_f32_in(0.0, 1.0)
        .unwrap_err();
    assert_eq!(e.to_string(), "OutOfRange at bit 0: 2.0 not in 0.0..=1.0");
}

#[test]
fn bools_tags_and_indexes_are_checked() {
    let e = ByteReader::new(&[0x02]).read_bool().unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::OutOfRange, 0));
    let mut r = ByteReader::new(&[0x01, 0x02]);
    assert!(r.read_option_tag().unwrap());
    let e = r.read_option_tag().unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::InvalidEnum, 8));
    let e = ByteReader::new(&[3, 0, 0, 0]).read_index(3).unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::InvalidEnum, 0));
    assert_eq!(ByteReader::new(&[2, 0, 0, 0]).read_index(3), Ok(2));
}

#[test]
fn truncation_is_at_the_value_that_runs_out() {
    let mut r = ByteReader::new(&[1, 2, 3, 4, 5]);
    r.read_u16().unwrap();
    let e = r.read_u32().unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::Truncated, 16));
    assert_eq!(r.pos(), 2, "a failed read does not move");
    assert_eq!(r.read_u16(), Ok(0x0403));
    let e = ByteReader::new(&[]).read_bool().unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::Truncated, 0));
}

/// A length prefix followed by `tail`.
fn with_len(len: u64, tail: &[u8]) -> Vec<u8> {
    [&len.to_le_bytes()[..], tail].concat()
}

#[test]
fn lengths_are_checked_in_the_order_of_the_spec() {
    // Over the bound first, even when the input is short too.
    let bytes = with_len(21, &[]);
    let mut r = ByteReader::new(&bytes);
    let e = r.read_len(20, 2, 2).unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::InvalidLength, 0));
    // Then the elements that cannot fit in the input: a hostile `Vec<u64>` length.
    let bytes = [&[9][..], &with_len((1 << 48) - 1, &[1, 2, 3])].concat();
    let mut r = ByteReader::new(&bytes);
    r.read_u8().unwrap();
    let e = r.read_len(u64::MAX, 8, 8).unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::Truncated, 8));
    let e = ByteReader::new(&with_len(u64::MAX, &[]))
        .read_len(u64::MAX, 1, 1)
        .unwrap_err();
    assert_eq!(
        e.kind(),
        ErrorKind::Truncated,
        "L × size overflowing is Truncated"
    );
    // Then the budget: 10 elements of 8 bytes cost 112.
    let bytes = with_len(10, &[0; 80]);
    let e = ByteReader::with_limits(&bytes, &Limits::fixed(111))
        .read_len(u64::MAX, 8, 8)
        .unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::LimitExceeded, 0));
    let mut r = ByteReader::with_limits(&bytes, &Limits::fixed(112));
    assert_eq!(r.read_len(u64::MAX, 8, 8), Ok(10));
    assert_eq!(r.budget_left(), 0);
    // An empty list costs nothing.
    let empty = with_len(0, &[]);
    let mut r = ByteReader::with_limits(&empty, &Limits::fixed(0));
    assert_eq!(r.read_len(u64::MAX, 8, 8), Ok(0));
    // A truncated length is Truncated at the length.
    let e = ByteReader::new(&[5, 0, 0]).read_len(9, 1, 1).unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::Truncated, 0));
}

#[test]
fn strings_check_utf8_at_the_value_and_reuse_capacity() {
    let out = written(|w| w.write_string("hi", u64::MAX));
    assert_eq!(out, with_len(2, b"hi"));
    let e = ByteWriter::new(&mut Vec::new())
        .write_string("toolong", 3)
        .unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::InvalidLength, 0));

    let mut s = String::with_capacity(64);
    let ptr = s.as_ptr();
    let mut r = ByteReader::new(&out);
    let len = r.read_len(u64::MAX, 1, 1).unwrap();
    r.read_string_into(&mut s, len, 0).unwrap();
    assert_eq!((s.as_str(), s.as_ptr()), ("hi", ptr));

    let bad = [&[7][..], &with_len(2, &[b'a', 0xff])].concat();
    let mut r = ByteReader::new(&bad);
    r.read_u8().unwrap();
    let start = r.pos();
    let len = r.read_len(u64::MAX, 1, 1).unwrap();
    let mut check = ByteReader::new(&bad);
    check.read_u8().unwrap();
    check.read_len(u64::MAX, 1, 1).unwrap();
    let e = r.read_string(len, start).unwrap_err();
    assert_eq!(kind_bit(e.clone()), (ErrorKind::InvalidUtf8, 8));
    assert_eq!(check.skip_string(len, start), Err(e));
}

#[test]
fn lanes_move_in_bulk_and_reuse_capacity() {
    let values: Vec<u64> = (0..100).map(|i| i * 0x0101_0101).collect();
    let out = written(|w| w.write_lane_list(&values, u64::MAX));
    assert_eq!(&out[..8], &100u64.to_le_bytes());
    assert_eq!(&out[16..24], &0x0101_0101u64.to_le_bytes());
    let mut r = ByteReader::new(&out);
    let len = r.read_len(u64::MAX, 8, 8).unwrap();
    let back: Vec<u64> = r.read_lanes(len).unwrap();
    assert_eq!(back, values);

    let mut reused: Vec<u64> = Vec::with_capacity(200);
    reused.push(5);
    let ptr = reused.as_ptr();
    let mut r = ByteReader::new(&out);
    let len = r.read_len(u64::MAX, 8, 8).unwrap();
    r.read_lanes_into(&mut reused, len).unwrap();
    assert_eq!((&reused, reused.as_ptr()), (&values, ptr));

    let bytes = written(|w| w.write_bytes(&[1, 2, 3], 3));
    assert_eq!(bytes, with_len(3, &[1, 2, 3]));
    let e = ByteWriter::new(&mut Vec::new())
        .write_lane_list(&[1u16, 2, 3], 2)
        .unwrap_err();
    assert_eq!(kind_bit(e), (ErrorKind::InvalidLength, 0));
}

#[test]
fn truncated_arrays_name_the_first_incomplete_element() {
    // [u32; 3] with 9 bytes: element 2 has one byte.
    let bytes = [0u8; 10];
    let mut r = ByteReader::new(&bytes);
    r.read_u8().unwrap();
    let mut arr = [7u32; 3];
    let e = r.fill_lanes(&mut arr).unwrap_err();
    assert_eq!(kind_bit(e.clone()), (ErrorKind::Truncated, 8 + 64));
    assert_eq!(e.path_string(), "[2]");
    assert_eq!(arr, [7; 3], "unchanged on error");
    let mut check = ByteReader::new(&bytes);
    check.read_u8().unwrap();
    assert_eq!(check.skip_lanes::<u32>(3), Err(e));
    let mut r = ByteReader::new(&bytes[..9]);
    r.read_u8().unwrap();
    r.fill_lanes(&mut arr[..2]).unwrap();
    assert_eq!(arr, [0, 0, 7]);
}

/// A hand-written `{ id: u4, tags: list<u16, max 4>, name: string }` with every method.
#[derive(Debug, Default, PartialEq)]
struct Item {
    id: u8,
    tags: Vec<u16>,
    name: String,
}

impl Bincode for Item {
    const MIN_BYTES: u64 = 17;
    const MAX_BYTES: Option<u64> = None;

    fn write_bincode(&self, w: &mut ByteWriter<'_>) -> Result<()> {
        w.write_u8_in(self.id, 0, 15).in_field("id")?;
        w.write_lane_list(&self.tags, 4).in_field("tags")?;
        w.write_string(&self.name, u64::MAX).in_field("name")
    }

    fn read_bincode(r: &mut ByteReader<'_>) -> Result<Self> {
        let mut v = Item::default();
        v.read_bincode_into(r)?;
        Ok(v)
    }

    fn read_bincode_into(&mut self, r: &mut ByteReader<'_>) -> Result<()> {
        self.id = r.read_u8_in(0, 15).in_field("id")?;
        let len = r.read_len(4, 2, 2).in_field("tags")?;
        r.read_lanes_into(&mut self.tags, len).in_field("tags")?;
        let start = r.pos();
        let len = r.read_len(u64::MAX, 1, 1).in_field("name")?;
        r.read_string_into(&mut self.name, len, start)
            .in_field("name")
    }

    fn check_bincode(r: &mut ByteReader<'_>) -> Result<()> {
        r.read_u8_in(0, 15).in_field("id")?;
        let len = r.read_len(4, 2, 2).in_field("tags")?;
        r.skip_lanes::<u16>(len).in_field("tags")?;
        let start = r.pos();
        let len = r.read_len(u64::MAX, 1, 1).in_field("name")?;
        r.skip_string(len, start).in_field("name")
    }
}

#[test]
fn top_level_encode_decode_verify_and_decode_into() {
    let item = Item {
        id: 9,
        tags: vec![1, 2],
        name: "ab".into(),
    };
    let mut out = vec![0xEE];
    assert_eq!(item.encode_bincode(&mut out), Ok(1 + 8 + 4 + 8 + 2));
    let bytes = out[1..].to_vec();
    assert_eq!(Item::decode_bincode(&bytes), Ok(Item { ..item }));
    let item = Item::decode_bincode(&bytes).unwrap();
    assert_eq!(Item::verify_bincode(&bytes), Ok(()));

    // A failed encode leaves the buffer as it was, with the error's path.
    let bad = Item {
        tags: vec![0; 5],
        ..Item::default()
    };
    let e = bad.encode_bincode(&mut out).unwrap_err();
    assert_eq!(kind_bit(e.clone()), (ErrorKind::InvalidLength, 8));
    assert_eq!(e.path_string(), "tags");
    assert_eq!(out.len(), 1 + bytes.len());

    // Trailing data: at the first extra byte.
    let longer = [&bytes[..], &[0]].concat();
    let e = Item::decode_bincode(&longer).unwrap_err();
    assert_eq!(
        kind_bit(e.clone()),
        (ErrorKind::TrailingData, 8 * bytes.len() as u64)
    );
    assert_eq!(Item::verify_bincode(&longer), Err(e));

    // decode_into reuses the vectors and agrees with decode.
    let mut reused = Item {
        id: 0,
        tags: Vec::with_capacity(8),
        name: String::with_capacity(8),
    };
    let (tags, name) = (reused.tags.as_ptr(), reused.name.as_ptr());
    reused
        .decode_bincode_into(&bytes, &Limits::DEFAULT)
        .unwrap();
    assert_eq!(reused, item);
    assert_eq!((reused.tags.as_ptr(), reused.name.as_ptr()), (tags, name));

    // Every prefix fails the same way in decode, verify and decode_into.
    for n in 0..bytes.len() {
        let d = Item::decode_bincode(&bytes[..n]).map(drop);
        assert!(d.is_err());
        assert_eq!(Item::verify_bincode(&bytes[..n]), d);
        let mut x = Item::default();
        assert_eq!(x.decode_bincode_into(&bytes[..n], &Limits::DEFAULT), d);
    }
}

#[test]
fn a_hostile_length_allocates_nothing_and_hits_the_budget() {
    // 1 KB claiming 2^40 tags: InvalidLength (bound 4) — and without a bound the
    // bytes-left check stops it; with the bytes there, the budget does.
    let mut bytes = vec![1u8];
    bytes.extend_from_slice(&(1u64 << 40).to_le_bytes());
    bytes.resize(1024, 0);
    let e = Item::decode_bincode(&bytes).unwrap_err();
    assert_eq!(
        (e.kind(), e.path_string().as_str()),
        (ErrorKind::InvalidLength, "tags")
    );
    let mut r = ByteReader::with_limits(&bytes[1..], &Limits::fixed(100));
    let e = r.read_len(u64::MAX, 8, 8).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Truncated);
    let mut r = ByteReader::with_limits(&bytes[1..], &Limits::fixed(100));
    let e = r.read_len(u64::MAX, 0, 8).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded);
}
