//! `bitwire-delta`: snapshots in envelopes (docs/framing.md §10) from bitwire's snapshot
//! rings — a delta against the newest snapshot the client acknowledged (`Input.ack` = the
//! envelope's Seq), in full when there is none — and inputs packed.

use bitwire::baseline::{SnapshotReceiver, SnapshotSender, DEFAULT_RING};

use super::{packed, ClientCodec, CodecError, CodecKind, Decoded, ServerCodec};
use crate::sim;

const KIND: CodecKind = CodecKind::BitwireDelta;

/// The server side: the ring of the last 32 snapshots sent to this client.
#[derive(Debug)]
pub struct Server {
    sender: SnapshotSender<sim::Snapshot>,
}

impl Default for Server {
    fn default() -> Server {
        Server {
            sender: SnapshotSender::new(DEFAULT_RING),
        }
    }
}

impl ServerCodec for Server {
    fn encode_snapshot(
        &mut self,
        snapshot: sim::Snapshot,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        self.sender
            .encode(snapshot, out)
            .map(drop)
            .map_err(|e| CodecError::new(KIND, e))
    }

    fn decode_input(&mut self, data: &[u8]) -> Result<sim::Input, CodecError> {
        packed::decode_input(KIND, data)
    }

    /// An acknowledgement of a snapshot never sent (`AckNotSent`: the `ack` 0 a client
    /// sends before its first snapshot, or a confused client's) is ignored: it changes
    /// nothing in the ring (§10.3), so the next snapshot goes against the newest
    /// snapshot acknowledged before, or in full. Asking for a full snapshot instead would
    /// gain nothing: a delta is only ever against a snapshot the client did acknowledge.
    fn acknowledge(&mut self, ack: u16) {
        let _ = self.sender.ack(ack);
    }
}

/// The client side: the ring of the last 32 snapshots decoded.
#[derive(Debug)]
pub struct Client {
    receiver: SnapshotReceiver<sim::Snapshot>,
}

impl Default for Client {
    fn default() -> Client {
        Client {
            receiver: SnapshotReceiver::new(DEFAULT_RING),
        }
    }
}

impl ClientCodec for Client {
    fn encode_input(&mut self, input: &sim::Input, out: &mut Vec<u8>) -> Result<(), CodecError> {
        packed::encode_input(KIND, input, out)
    }

    fn decode_snapshot(&mut self, data: &[u8]) -> Result<Option<Decoded<'_>>, CodecError> {
        let received = self
            .receiver
            .decode(data)
            .map_err(|e| CodecError::new(KIND, e))?;
        Ok(received.map(|r| Decoded {
            snapshot: r.value,
            ack: r.seq,
        }))
    }
}
