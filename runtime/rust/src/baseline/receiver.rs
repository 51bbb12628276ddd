//! The receiving end (docs/framing.md §10.4).

use super::ring::{unwrap_seq, Ring};
use super::{Delta, SnapshotError, SnapshotErrorKind, SnapshotHeader};
use crate::Limits;

/// A snapshot [`SnapshotReceiver::decode`] decoded: its sequence number and the value,
/// borrowed from the receiver's ring (clone it to keep it past the next decode).
#[derive(Debug, PartialEq)]
pub struct Received<'a, T> {
    /// The snapshot's sequence number.
    pub seq: u16,
    /// Whether it came in full (`back` 0) rather than as a delta.
    pub full: bool,
    /// The snapshot.
    pub value: &'a T,
}

/// The snapshots decoded from one peer: a ring of the last N, the newest one's
/// sequence number (what the client acknowledges) and whether to ask for a full
/// snapshot (docs/framing.md §10.4). Memory: at most N values; a header never makes
/// it allocate.
pub struct SnapshotReceiver<T> {
    ring: Ring<T>,
    /// The newest snapshot decoded, unwrapped to 64 bits.
    newest: Option<u64>,
    need_full: bool,
    limits: Limits,
}

impl<T> core::fmt::Debug for SnapshotReceiver<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SnapshotReceiver")
            .field("ring", &self.ring.size())
            .field("newest", &self.ack())
            .field("need_full", &self.need_full)
            .finish()
    }
}

impl<T> SnapshotReceiver<T> {
    /// A receiver keeping the last `ring` snapshots (at least the sender's ring size;
    /// [`DEFAULT_RING`](super::DEFAULT_RING) is 32), decoding with the default limits.
    ///
    /// # Panics
    ///
    /// If `ring` is 0.
    pub fn new(ring: u8) -> SnapshotReceiver<T> {
        assert!(ring >= 1, "a snapshot ring holds at least one snapshot");
        SnapshotReceiver {
            ring: Ring::new(ring),
            newest: None,
            need_full: false,
            limits: Limits::DEFAULT,
        }
    }

    /// Decodes bodies within the decode budget of `limits` (spec §11).
    pub fn with_limits(mut self, limits: Limits) -> SnapshotReceiver<T> {
        self.limits = limits;
        self
    }

    /// The sequence number of the newest snapshot decoded: what the client puts in its
    /// input messages for [`SnapshotSender::ack`](super::SnapshotSender::ack).
    pub fn ack(&self) -> Option<u16> {
        self.newest.map(|e| e as u16)
    }

    /// Whether to ask for a full snapshot: set when `decode` fails, cleared when it
    /// succeeds. The client sends it in its input messages; the server calls
    /// [`SnapshotSender::request_full`](super::SnapshotSender::request_full).
    pub fn need_full(&self) -> bool {
        self.need_full
    }

    /// The newest snapshot decoded.
    pub fn latest(&self) -> Option<(u16, &T)> {
        let ext = self.newest?;
        self.ring.get(ext).map(|v| (ext as u16, v))
    }

    /// The ring's size, N.
    pub fn ring_size(&self) -> u8 {
        self.ring.size()
    }
}

impl<T: Delta> SnapshotReceiver<T> {
    /// Decodes a snapshot envelope (a frame's Data), in the order of docs/framing.md
    /// §10.4:
    ///
    /// 1. fewer than 3 bytes: `Truncated`;
    /// 2. a sequence number not newer than the newest decoded (a duplicate or a late
    ///    packet): `Ok(None)`, nothing read or changed;
    /// 3. a delta whose `back` is above the ring size: `BaselineStale`; whose baseline
    ///    the ring does not hold: `BaselineMissing` — both before reading the body;
    /// 4. a body that does not decode: `Message`, with the packed error inside.
    ///
    /// Any error sets [`need_full`](SnapshotReceiver::need_full) and changes nothing
    /// else; a decoded snapshot clears it, is stored and becomes the newest.
    pub fn decode(&mut self, packet: &[u8]) -> Result<Option<Received<'_, T>>, SnapshotError> {
        match self.decode_value(packet) {
            Ok(Some((ext, header, value))) => {
                self.newest = Some(ext);
                self.need_full = false;
                let value = self.ring.put(ext, value);
                Ok(Some(Received {
                    seq: header.seq,
                    full: header.back == 0,
                    value,
                }))
            }
            Ok(None) => Ok(None),
            Err(e) => {
                self.need_full = true;
                Err(e)
            }
        }
    }

    /// Steps 1 to 4 of `decode`, without changing the receiver.
    fn decode_value(
        &self,
        packet: &[u8],
    ) -> Result<Option<(u64, SnapshotHeader, T)>, SnapshotError> {
        let (header, body) = SnapshotHeader::read(packet)?;
        let ext = match self.newest {
            None => u64::from(header.seq),
            Some(newest) => match unwrap_seq(newest, header.seq) {
                Some(ext) if ext > newest => ext,
                _ => return Ok(None),
            },
        };
        let value = if header.back == 0 {
            T::decode_with(body, &self.limits)
        } else {
            let baseline = self.baseline(ext, header)?;
            T::decode_delta_with(baseline, body, &self.limits)
        };
        value
            .map(|v| Some((ext, header, v)))
            .map_err(SnapshotError::message)
    }

    /// The baseline of delta `header` (snapshot `ext`), or why there is none.
    fn baseline(&self, ext: u64, header: SnapshotHeader) -> Result<&T, SnapshotError> {
        let ring = self.ring.size();
        if header.back > ring {
            return Err(SnapshotError::baseline(
                SnapshotErrorKind::BaselineStale,
                header.seq,
                header.back,
                ring,
            ));
        }
        ext.checked_sub(header.back.into())
            .and_then(|base| self.ring.get(base))
            .ok_or_else(|| {
                SnapshotError::baseline(
                    SnapshotErrorKind::BaselineMissing,
                    header.seq,
                    header.back,
                    ring,
                )
            })
    }
}
