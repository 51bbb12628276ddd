//! The sending end (docs/framing.md §10.3): one per peer.

use alloc::vec::Vec;

use super::ring::{unwrap_seq, Ring};
use super::{Delta, Envelope, SnapshotError, SnapshotHeader};

/// The snapshots sent to one peer: a ring of the last N, the newest one the peer
/// acknowledged, and whether it asked for a full snapshot (docs/framing.md §10.3).
///
/// [`encode`](SnapshotSender::encode) numbers each snapshot (0, 1, 2, … modulo 2^16),
/// encodes it against the newest acknowledged snapshot still in the ring — or in full
/// when there is none, or a full one was requested — and keeps it (moved in) for later
/// deltas. Memory: at most N values.
pub struct SnapshotSender<T> {
    ring: Ring<T>,
    /// The last snapshot encoded, unwrapped to 64 bits.
    last: Option<u64>,
    /// The newest acknowledged snapshot, unwrapped.
    acked: Option<u64>,
    full_requested: bool,
}

impl<T> core::fmt::Debug for SnapshotSender<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SnapshotSender")
            .field("ring", &self.ring.size())
            .field("last", &self.last_seq())
            .field("acked", &self.acked())
            .field("full_requested", &self.full_requested)
            .finish()
    }
}

impl<T> SnapshotSender<T> {
    /// A sender keeping the last `ring` snapshots ([`DEFAULT_RING`](super::DEFAULT_RING)
    /// is 32). The receiver's ring must be at least as large: a delta further back than
    /// it reaches is `BaselineStale` there.
    ///
    /// # Panics
    ///
    /// If `ring` is 0.
    pub fn new(ring: u8) -> SnapshotSender<T> {
        assert!(ring >= 1, "a snapshot ring holds at least one snapshot");
        SnapshotSender {
            ring: Ring::new(ring),
            last: None,
            acked: None,
            full_requested: false,
        }
    }

    /// The peer decoded snapshot `seq` (the acknowledgement in its input message).
    /// Acknowledgements older than the newest one so far, or of a snapshot no longer in
    /// the ring, change nothing; one of a snapshot never sent (newer than the last one
    /// sent, in serial-number arithmetic, or before the first) is `AckNotSent` and
    /// changes nothing either.
    pub fn ack(&mut self, seq: u16) -> Result<(), SnapshotError> {
        let last = self.last;
        let ext = match last.and_then(|last| unwrap_seq(last, seq)) {
            Some(ext) if Some(ext) <= last => ext,
            _ => return Err(SnapshotError::ack_not_sent(seq, self.last_seq())),
        };
        if self.acked.is_none_or(|acked| ext > acked) && self.ring.get(ext).is_some() {
            self.acked = Some(ext);
        }
        Ok(())
    }

    /// The peer asked for a full snapshot (Quake 3's `clc_moveNoDelta`: its
    /// [`SnapshotReceiver::need_full`](super::SnapshotReceiver::need_full)): the next
    /// [`encode`](SnapshotSender::encode) sends one.
    pub fn request_full(&mut self) {
        self.full_requested = true;
    }

    /// The sequence number of the last snapshot encoded.
    pub fn last_seq(&self) -> Option<u16> {
        self.last.map(|e| e as u16)
    }

    /// The newest acknowledged snapshot: the next delta's baseline while it is in the
    /// ring.
    pub fn acked(&self) -> Option<u16> {
        self.acked.map(|e| e as u16)
    }

    /// The ring's size, N.
    pub fn ring_size(&self) -> u8 {
        self.ring.size()
    }
}

impl<T: Delta> SnapshotSender<T> {
    /// Appends the envelope of the next snapshot to `out`: its header, then `current`
    /// encoded against the newest acknowledged snapshot still in the ring, or in full
    /// (`back` 0) when there is none or a full snapshot was requested. Then keeps
    /// `current` under its sequence number and returns the header.
    ///
    /// An encoding error (kind `Message`, the packed error inside) leaves `out` and the
    /// sender as they were; `current` is dropped.
    pub fn encode(
        &mut self,
        current: T,
        out: &mut Vec<u8>,
    ) -> Result<SnapshotHeader, SnapshotError> {
        let ext = self.last.map_or(0, |last| last + 1);
        let baseline = match self.acked {
            Some(acked) if !self.full_requested => self.ring.get(acked).map(|b| (acked, b)),
            _ => None,
        };
        let header = SnapshotHeader {
            seq: ext as u16,
            // The acknowledged snapshot is in the ring, so at most N back.
            back: baseline.map_or(0, |(acked, _)| (ext - acked) as u8),
        };
        let start = out.len();
        header.write(out);
        let body = match baseline {
            Some((_, b)) => current.encode_delta(b, out),
            None => current.encode(out),
        };
        if let Err(e) = body {
            out.truncate(start);
            return Err(SnapshotError::message(e));
        }
        self.ring.put(ext, current);
        self.last = Some(ext);
        self.full_requested = false;
        Ok(header)
    }

    /// [`encode`](SnapshotSender::encode) into a new [`Envelope`]: what the generated
    /// `Message` enum's variant of the snapshot's `delta message` carries, to send on a
    /// typed connection (`conn.send(&Message::World(envelope))`). The header is
    /// [`Envelope::header`].
    pub fn encode_envelope(&mut self, current: T) -> Result<Envelope, SnapshotError> {
        let mut bytes = Vec::new();
        self.encode(current, &mut bytes)?;
        Envelope::try_from(bytes)
    }
}
