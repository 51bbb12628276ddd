//! Baselines for delta snapshots (docs/framing.md §10, spec §12.8): the envelope that
//! carries a snapshot's sequence number and baseline, the sender's ring of the last N
//! snapshots sent to one peer, and the receiver's ring of the last N it decoded.
//!
//! A server keeps one [`SnapshotSender`] per connection. Each tick it hands the
//! snapshot to [`SnapshotSender::encode`], which writes the envelope — a 3-byte
//! [`SnapshotHeader`] (`seq` u16 little-endian, `back` u8) and the body — encoding the
//! snapshot as a delta (spec §12) against the newest snapshot the client acknowledged,
//! or in full (spec §2) when there is none. The client's input messages carry
//! [`SnapshotReceiver::ack`] (the newest snapshot it decoded) and
//! [`SnapshotReceiver::need_full`]; the server passes them to [`SnapshotSender::ack`]
//! and [`SnapshotSender::request_full`]. The envelope is a frame's Data, with the
//! message id of the snapshot's message: on a typed connection the generated `Message`
//! enum's variant of a `delta message` carries it as an [`Envelope`]
//! ([`SnapshotSender::encode_envelope`] makes one; docs/framing.md §10.8).
//!
//! The codec is the message type's: generated code implements [`Delta`] for every
//! `delta message` (on top of [`Packed`](crate::Packed), which gives the full encoding).
//!
//! ```
//! use bitwire::baseline::{Delta, SnapshotReceiver, SnapshotSender};
//! use bitwire::{BitReader, BitWriter, Packed, Result};
//!
//! /// A hand-written one-byte message whose delta is the byte's difference.
//! #[derive(Debug, Clone, PartialEq)]
//! struct Tick(u8);
//!
//! impl Packed for Tick {
//!     const MIN_BITS: u64 = 8;
//!     const MAX_BITS: Option<u64> = Some(8);
//!     fn write(&self, w: &mut BitWriter<'_>) -> Result<()> {
//!         w.write_bits(self.0.into(), 8);
//!         Ok(())
//!     }
//!     fn read(r: &mut BitReader<'_>) -> Result<Self> {
//!         Ok(Tick(r.read_bits(8)? as u8))
//!     }
//! }
//!
//! impl Delta for Tick {
//!     fn write_delta(&self, baseline: &Tick, w: &mut BitWriter<'_>) -> Result<()> {
//!         w.write_bits(self.0.wrapping_sub(baseline.0).into(), 8);
//!         Ok(())
//!     }
//!     fn read_delta(baseline: &Tick, r: &mut BitReader<'_>) -> Result<Tick> {
//!         Ok(Tick(baseline.0.wrapping_add(r.read_bits(8)? as u8)))
//!     }
//! }
//!
//! let mut server = SnapshotSender::<Tick>::new(32);
//! let mut client = SnapshotReceiver::<Tick>::new(32);
//! let mut packet = Vec::new();
//!
//! server.encode(Tick(10), &mut packet)?; // nothing acknowledged: a full snapshot
//! assert_eq!(packet, [0x00, 0x00, 0x00, 10]); // seq 0, back 0, the body
//! let got = client.decode(&packet)?.expect("newer than anything decoded");
//! assert_eq!((got.seq, got.value), (0, &Tick(10)));
//!
//! server.ack(client.ack().expect("seq 0"))?; // through the client's input message
//! packet.clear();
//! server.encode(Tick(13), &mut packet)?; // a delta against seq 0
//! assert_eq!(packet, [0x01, 0x00, 0x01, 3]); // seq 1, back 1, the difference
//! assert_eq!(client.decode(&packet)?.map(|s| s.value.0), Some(13));
//! # Ok::<(), bitwire::baseline::SnapshotError>(())
//! ```

mod envelope;
mod error;
mod receiver;
mod ring;
mod sender;

use alloc::vec::Vec;

pub use envelope::Envelope;
pub use error::{SnapshotError, SnapshotErrorKind};
pub use receiver::{Received, SnapshotReceiver};
pub use sender::SnapshotSender;

/// The codec of a snapshot's message: its full encoding ([`Packed`](crate::Packed)) and its delta
/// encoding ([`Delta`], generated for every `delta message`).
pub use crate::Delta;

/// Ring size by default: the last 32 snapshots (Quake 3's `PACKET_BACKUP`), half a
/// second at 60 Hz.
pub const DEFAULT_RING: u8 = 32;

/// Bytes of a [`SnapshotHeader`] on the wire.
pub const HEADER_BYTES: usize = 3;

/// The header of a snapshot envelope (docs/framing.md §10): the snapshot's sequence
/// number and how many snapshots back its baseline is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SnapshotHeader {
    /// The snapshot's sequence number, modulo 2^16: the sender numbers the snapshots
    /// it sends to one peer 0, 1, 2, …
    pub seq: u16,
    /// 0: the body is the snapshot's full encoding (spec §2); `k`: its delta (spec §12)
    /// against snapshot `seq - k` (modulo 2^16).
    pub back: u8,
}

impl SnapshotHeader {
    /// The baseline's sequence number, or `None` for a full snapshot.
    pub const fn base(&self) -> Option<u16> {
        match self.back {
            0 => None,
            k => Some(self.seq.wrapping_sub(k as u16)),
        }
    }

    /// The header's bytes: `seq` little-endian, then `back`.
    pub const fn to_bytes(&self) -> [u8; HEADER_BYTES] {
        let [lo, hi] = self.seq.to_le_bytes();
        [lo, hi, self.back]
    }

    /// Appends the header's bytes to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_bytes());
    }

    /// Reads the header at the front of an envelope; returns it and the body (the rest).
    /// Fewer than [`HEADER_BYTES`] bytes is `Truncated`; every header value is valid
    /// (whether the baseline is usable is the receiver's question).
    pub fn read(packet: &[u8]) -> core::result::Result<(SnapshotHeader, &[u8]), SnapshotError> {
        match packet {
            [lo, hi, back, body @ ..] => Ok((
                SnapshotHeader {
                    seq: u16::from_le_bytes([*lo, *hi]),
                    back: *back,
                },
                body,
            )),
            _ => Err(SnapshotError::truncated(packet.len())),
        }
    }
}

/// Whether sequence number `a` is newer than `b` in serial-number arithmetic on 16
/// bits (RFC 1982): `a - b` modulo 2^16 is in `1..=32767`.
pub const fn seq_newer(a: u16, b: u16) -> bool {
    let d = a.wrapping_sub(b);
    d != 0 && d < 0x8000
}

#[cfg(test)]
mod tests;
