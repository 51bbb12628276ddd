//! `bitcode`: bitcode 0.6 on [`wire`]'s structs (derived `Encode`/`Decode`), the quantized
//! fields as bitwire's integers, one `bitcode::Buffer` reused per connection side.

use super::wire;
use super::{tick_ack, ClientCodec, CodecError, CodecKind, Decoded, ServerCodec};
use crate::sim;

const KIND: CodecKind = CodecKind::Bitcode;

/// The server side: the reused buffer and the snapshot's wire integers (their list
/// reused).
#[derive(Default)]
pub struct Server {
    buffer: ::bitcode::Buffer,
    wire: wire::Snapshot,
}

impl ServerCodec for Server {
    fn encode_snapshot(
        &mut self,
        snapshot: sim::Snapshot,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        self.wire
            .fill_from(&snapshot)
            .map_err(|e| CodecError::new(KIND, e))?;
        out.extend_from_slice(self.buffer.encode(&self.wire));
        Ok(())
    }

    fn decode_input(&mut self, data: &[u8]) -> Result<sim::Input, CodecError> {
        let input: wire::Input = self
            .buffer
            .decode(data)
            .map_err(|e| CodecError::new(KIND, e))?;
        input.to_sim().map_err(|e| CodecError::new(KIND, e))
    }
}

/// The client side: the reused buffer and the last decoded snapshot.
#[derive(Default)]
pub struct Client {
    buffer: ::bitcode::Buffer,
    last: sim::Snapshot,
}

impl ClientCodec for Client {
    fn encode_input(&mut self, input: &sim::Input, out: &mut Vec<u8>) -> Result<(), CodecError> {
        let input = wire::Input::from_sim(input).map_err(|e| CodecError::new(KIND, e))?;
        out.extend_from_slice(self.buffer.encode(&input));
        Ok(())
    }

    fn decode_snapshot(&mut self, data: &[u8]) -> Result<Option<Decoded<'_>>, CodecError> {
        let snapshot: wire::Snapshot = self
            .buffer
            .decode(data)
            .map_err(|e| CodecError::new(KIND, e))?;
        snapshot
            .fill_sim(&mut self.last)
            .map_err(|e| CodecError::new(KIND, e))?;
        Ok(Some(Decoded {
            snapshot: &self.last,
            ack: tick_ack(&self.last),
        }))
    }
}
