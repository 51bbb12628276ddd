//! The sender's and receiver's rules (docs/framing.md §10) on a one-byte test codec.
//! The shared vectors (testdata/vectors/envelope) run in tests/envelope.rs.

use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::{BitReader, BitWriter, ErrorKind, Packed, Result};

/// Test codec: one byte; the delta is the byte's difference, and a delta body of
/// 0xff is refused on encode (to test encoder errors).
#[derive(Debug, Clone, PartialEq)]
struct Byte(u8);

impl Packed for Byte {
    const MIN_BITS: u64 = 8;
    const MAX_BITS: Option<u64> = Some(8);
    fn write(&self, w: &mut BitWriter<'_>) -> Result<()> {
        w.write_bits(self.0.into(), 8);
        Ok(())
    }
    fn read(r: &mut BitReader<'_>) -> Result<Self> {
        Ok(Byte(r.read_bits(8)? as u8))
    }
}

impl Delta for Byte {
    fn write_delta(&self, baseline: &Byte, w: &mut BitWriter<'_>) -> Result<()> {
        let d = self.0.wrapping_sub(baseline.0);
        if d == 0xff {
            return Err(crate::Error::new(ErrorKind::OutOfRange, 0));
        }
        w.write_bits(d.into(), 8);
        Ok(())
    }
    fn read_delta(baseline: &Byte, r: &mut BitReader<'_>) -> Result<Byte> {
        Ok(Byte(baseline.0.wrapping_add(r.read_bits(8)? as u8)))
    }
}

fn send(s: &mut SnapshotSender<Byte>, v: u8) -> Vec<u8> {
    let mut out = Vec::new();
    s.encode(Byte(v), &mut out).expect("encodes");
    out
}

fn kind<T>(r: core::result::Result<T, SnapshotError>) -> SnapshotErrorKind {
    r.err().expect("an error").kind()
}

#[test]
fn header_bytes_and_truncation() {
    let h = SnapshotHeader {
        seq: 0x1234,
        back: 3,
    };
    assert_eq!(h.to_bytes(), [0x34, 0x12, 3]);
    assert_eq!(h.base(), Some(0x1231));
    assert_eq!(SnapshotHeader { seq: 1, back: 3 }.base(), Some(0xfffe));
    assert_eq!(SnapshotHeader { seq: 1, back: 0 }.base(), None);
    let (read, body) = SnapshotHeader::read(&[0x34, 0x12, 3, 9]).unwrap();
    assert_eq!((read, body), (h, &[9u8][..]));
    for short in [&[][..], &[1], &[1, 2]] {
        assert_eq!(
            kind(SnapshotHeader::read(short)),
            SnapshotErrorKind::Truncated
        );
    }
}

#[test]
fn serial_arithmetic() {
    assert!(seq_newer(1, 0));
    assert!(seq_newer(0, 0xffff));
    assert!(seq_newer(0x7fff, 0));
    assert!(!seq_newer(0x8000, 0), "half the circle away is older");
    assert!(!seq_newer(5, 5));
    assert!(!seq_newer(0xffff, 0));
}

#[test]
fn sender_picks_the_newest_acked_baseline_in_the_ring() {
    let mut s = SnapshotSender::<Byte>::new(4);
    assert_eq!(send(&mut s, 10), [0, 0, 0, 10], "nothing acked: full");
    assert_eq!(send(&mut s, 11), [1, 0, 0, 11], "still nothing acked");
    s.ack(0).unwrap();
    assert_eq!(send(&mut s, 15), [2, 0, 2, 5], "against seq 0");
    s.ack(2).unwrap();
    s.ack(1).unwrap(); // older than the acked one: ignored
    assert_eq!(s.acked(), Some(2));
    assert_eq!(send(&mut s, 16), [3, 0, 1, 1]);
    // The acked seq 2 stays the baseline until it leaves the ring (4 snapshots).
    assert_eq!(send(&mut s, 17), [4, 0, 2, 2]);
    assert_eq!(send(&mut s, 18), [5, 0, 3, 3]);
    assert_eq!(send(&mut s, 19), [6, 0, 4, 4], "back = N: the oldest slot");
    assert_eq!(send(&mut s, 20), [7, 0, 0, 20], "seq 2 rolled out: full");
    s.ack(2).unwrap(); // not in the ring any more: ignored
    assert_eq!(send(&mut s, 21), [8, 0, 0, 21]);
    s.ack(7).unwrap();
    s.request_full();
    assert_eq!(send(&mut s, 22), [9, 0, 0, 22], "a full one was requested");
    assert_eq!(send(&mut s, 23), [10, 0, 3, 3], "once");
}

#[test]
fn sender_refuses_acks_of_what_it_never_sent() {
    let mut s = SnapshotSender::<Byte>::new(4);
    assert_eq!(
        kind(s.ack(0)),
        SnapshotErrorKind::AckNotSent,
        "nothing sent"
    );
    send(&mut s, 1);
    send(&mut s, 2);
    assert_eq!(kind(s.ack(2)), SnapshotErrorKind::AckNotSent, "the future");
    assert_eq!(
        kind(s.ack(0xffff)),
        SnapshotErrorKind::AckNotSent,
        "before 0"
    );
    assert_eq!(s.acked(), None);
    s.ack(1).unwrap();
    assert_eq!(s.acked(), Some(1));
}

#[test]
fn sender_encode_error_changes_nothing() {
    let mut s = SnapshotSender::<Byte>::new(4);
    send(&mut s, 1);
    s.ack(0).unwrap();
    let mut out = vec![0xaa];
    let e = s.encode(Byte(0), &mut out).unwrap_err(); // difference 0xff: refused
    assert_eq!(e.kind(), SnapshotErrorKind::Message);
    assert_eq!(
        e.message_error().map(|e| e.kind()),
        Some(ErrorKind::OutOfRange)
    );
    assert_eq!(out, [0xaa]);
    assert_eq!(s.last_seq(), Some(0));
    assert_eq!(send(&mut s, 3), [1, 0, 1, 2]);
}

#[test]
fn sequence_numbers_wrap() {
    let mut s = SnapshotSender::<Byte>::new(8);
    let mut r = SnapshotReceiver::<Byte>::new(8);
    for i in 0..70_000u32 {
        let v = (i % 251) as u8;
        let packet = send(&mut s, v);
        let got = r.decode(&packet).unwrap().expect("in order");
        assert_eq!((got.seq, got.value), (i as u16, &Byte(v)));
        if i % 3 == 0 {
            s.ack(r.ack().unwrap()).unwrap();
        }
        if i > 0 {
            assert_eq!(packet[2], 1 + ((i - 1) % 3) as u8, "at {i}");
        }
    }
}

#[test]
fn receiver_errors_come_before_the_body_and_set_need_full() {
    let mut r = SnapshotReceiver::<Byte>::new(4);
    assert_eq!(kind(r.decode(&[0, 0])), SnapshotErrorKind::Truncated);
    assert!(r.need_full());
    assert_eq!(
        kind(r.decode(&[0, 0, 1])),
        SnapshotErrorKind::BaselineMissing,
        "nothing decoded yet; no body either"
    );
    assert_eq!(r.ack(), None);
    let got = r.decode(&[5, 0, 0, 50]).unwrap().unwrap();
    assert_eq!((got.seq, got.full, got.value), (5, true, &Byte(50)));
    assert!(!r.need_full());
    assert_eq!(kind(r.decode(&[6, 0, 5])), SnapshotErrorKind::BaselineStale);
    assert_eq!(
        kind(r.decode(&[6, 0, 2])),
        SnapshotErrorKind::BaselineMissing
    );
    let e = r.decode(&[6, 0, 1]).unwrap_err();
    assert_eq!(e.kind(), SnapshotErrorKind::Message);
    assert_eq!(
        e.message_error().map(|e| e.kind()),
        Some(ErrorKind::Truncated)
    );
    assert!(r.need_full());
    assert_eq!(
        r.decode(&[6, 0, 1, 2]).unwrap().map(|s| s.value),
        Some(&Byte(52))
    );
    assert!(!r.need_full(), "a decoded delta clears it too");
    assert_eq!(r.ack(), Some(6));
    assert_eq!(r.latest(), Some((6, &Byte(52))));
}

#[test]
fn receiver_drops_duplicates_and_late_packets() {
    let mut r = SnapshotReceiver::<Byte>::new(4);
    r.decode(&[10, 0, 0, 1]).unwrap().unwrap();
    r.decode(&[12, 0, 2, 1]).unwrap().unwrap(); // seq 11 lost
    assert_eq!(r.decode(&[12, 0, 0, 9]).unwrap(), None, "duplicate");
    assert_eq!(r.decode(&[11, 0, 1, 1]).unwrap(), None, "late");
    assert_eq!(
        r.decode(&[0xff, 0xff, 0]).unwrap(),
        None,
        "late, unread body"
    );
    assert_eq!(r.ack(), Some(12));
    assert_eq!(
        kind(r.decode(&[13, 0, 2])),
        SnapshotErrorKind::BaselineMissing
    );
    // Half the circle ahead counts as behind: dropped.
    assert_eq!(r.decode(&[12, 0x80, 0, 1]).unwrap(), None);
    assert_eq!(
        r.decode(&[11, 0x80, 0, 7]).unwrap().map(|s| s.seq),
        Some(0x800b)
    );
}

#[test]
fn the_ring_never_holds_more_than_n_values() {
    let mut r = SnapshotReceiver::<Byte>::new(3);
    for seq in 0u8..10 {
        r.decode(&[seq, 0, 0, seq]).unwrap();
    }
    assert_eq!(
        kind(r.decode(&[10, 0, 4])),
        SnapshotErrorKind::BaselineStale
    );
    assert_eq!(
        r.decode(&[10, 0, 3, 1]).unwrap().map(|s| s.value),
        Some(&Byte(8))
    );
    assert_eq!(r.latest(), Some((10, &Byte(8))));
}

#[test]
fn random_packets_give_typed_results_and_keep_the_invariants() {
    let mut x = 0x2545_f491u32;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    let mut r = SnapshotReceiver::<Byte>::new(4);
    let (mut decoded, mut failed, mut dropped) = (0, 0, 0);
    for i in 0..50_000u32 {
        let len = (next() % 6) as usize;
        let mut packet: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if len >= 3 {
            // Numbers around a counter and small backs, so that every outcome happens.
            let seq = (i + next() % 4) as u16;
            packet[..2].copy_from_slice(&seq.to_le_bytes());
            packet[2] %= 6;
        }
        let before = r.ack();
        match r.decode(&packet) {
            Ok(Some(got)) => {
                let seq = got.seq;
                decoded += 1;
                assert_eq!(r.ack(), Some(seq));
                assert!(!r.need_full());
                assert!(before.is_none_or(|b| seq_newer(seq, b)));
            }
            Ok(None) => {
                dropped += 1;
                assert_eq!(r.ack(), before);
            }
            Err(_) => {
                failed += 1;
                assert!(r.need_full());
                assert_eq!(r.ack(), before);
            }
        }
    }
    assert!(
        decoded > 100 && failed > 100 && dropped > 100,
        "{decoded} {failed} {dropped}"
    );
}

#[test]
fn envelopes_hold_a_header() {
    let mut server = SnapshotSender::<Byte>::new(4);
    let mut client = SnapshotReceiver::<Byte>::new(4);
    let full = server.encode_envelope(Byte(10)).unwrap();
    assert_eq!(full.header(), SnapshotHeader { seq: 0, back: 0 });
    assert_eq!((full.bytes(), full.body()), (&[0, 0, 0, 10][..], &[10][..]));
    assert_eq!(
        client.decode(full.bytes()).unwrap().unwrap().value,
        &Byte(10)
    );
    server.ack(0).unwrap();
    let delta = server.encode_envelope(Byte(13)).unwrap();
    assert_eq!(delta.header(), SnapshotHeader { seq: 1, back: 1 });
    assert_eq!(Envelope::from_data(delta.bytes()).unwrap(), delta);
    let mut out = vec![0xee];
    assert_eq!(delta.encode(&mut out), 4);
    assert_eq!(out, [0xee, 1, 0, 1, 3]);
    assert_eq!(delta.clone().into_bytes(), Vec::from(delta));

    // An encoding error makes no envelope and changes nothing: seq 2 is next.
    assert_eq!(
        server.encode_envelope(Byte(9)).unwrap_err().kind(),
        SnapshotErrorKind::Message
    );
    assert_eq!(server.encode_envelope(Byte(14)).unwrap().header().seq, 2);
}

#[test]
fn an_envelope_shorter_than_a_header_is_truncated() {
    for len in 0..HEADER_BYTES {
        let data = vec![7; len];
        let e = Envelope::from_data(&data).unwrap_err();
        assert_eq!(
            (e.kind(), e.bit(), e.path_string()),
            (ErrorKind::Truncated, 0, "".into())
        );
        let e = Envelope::try_from(data).unwrap_err();
        assert_eq!(e.kind(), SnapshotErrorKind::Truncated);
    }
    let header_only = Envelope::from_data(&[5, 0, 0]).unwrap();
    assert_eq!((header_only.header().seq, header_only.body()), (5, &[][..]));
}
