//! `bitwire`: the generated packed codec, a full snapshot every tick.

use super::{tick_ack, ClientCodec, CodecError, CodecKind, Decoded, ServerCodec};
use crate::sim;
use bitwire::Packed;

const KIND: CodecKind = CodecKind::Bitwire;

/// The server side (no state).
#[derive(Debug, Default)]
pub struct Server;

impl ServerCodec for Server {
    fn encode_snapshot(
        &mut self,
        snapshot: sim::Snapshot,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        snapshot
            .encode(out)
            .map(drop)
            .map_err(|e| CodecError::new(KIND, e))
    }

    fn decode_input(&mut self, data: &[u8]) -> Result<sim::Input, CodecError> {
        decode_input(KIND, data)
    }
}

/// The client side: the last decoded snapshot.
#[derive(Debug, Default)]
pub struct Client {
    last: sim::Snapshot,
}

impl ClientCodec for Client {
    fn encode_input(&mut self, input: &sim::Input, out: &mut Vec<u8>) -> Result<(), CodecError> {
        encode_input(KIND, input, out)
    }

    fn decode_snapshot(&mut self, data: &[u8]) -> Result<Option<Decoded<'_>>, CodecError> {
        self.last = sim::Snapshot::decode(data).map_err(|e| CodecError::new(KIND, e))?;
        Ok(Some(Decoded {
            snapshot: &self.last,
            ack: tick_ack(&self.last),
        }))
    }
}

/// The packed `Input` into `out`, for `kind` (`bitwire-delta` sends its inputs packed too).
pub(super) fn encode_input(
    kind: CodecKind,
    input: &sim::Input,
    out: &mut Vec<u8>,
) -> Result<(), CodecError> {
    input
        .encode(out)
        .map(drop)
        .map_err(|e| CodecError::new(kind, e))
}

/// A packed `Input`, for `kind`.
pub(super) fn decode_input(kind: CodecKind, data: &[u8]) -> Result<sim::Input, CodecError> {
    sim::Input::decode(data).map_err(|e| CodecError::new(kind, e))
}
