//! `wincode`: wincode 0.4's default configuration (bincode 1.x's bytes: fixed-width
//! little-endian integers, u64 lengths, a u8 option tag) on [`wire`]'s structs (derived
//! `SchemaWrite`/`SchemaRead`), the quantized fields as bitwire's integers.
//!
//! `wincode::deserialize` ignores bytes after the value (as bincode 1.x does); the
//! decoders here reject them, as every other codec of the simulator does.

use ::wincode::config::DefaultConfig;
use ::wincode::{SchemaRead, SchemaReadOwned};

use super::wire;
use super::{tick_ack, ClientCodec, CodecError, CodecKind, Decoded, ServerCodec};
use crate::sim;

const KIND: CodecKind = CodecKind::Wincode;

/// `T` from all of `data`: trailing bytes are an error.
fn read_all<T>(data: &[u8]) -> Result<T, CodecError>
where
    T: SchemaReadOwned<DefaultConfig, Dst = T>,
{
    let mut rest = data;
    let value = <T as SchemaRead<'_, DefaultConfig>>::get(&mut rest)
        .map_err(|e| CodecError::new(KIND, e))?;
    if !rest.is_empty() {
        let message = format!("{} bytes after the value", rest.len());
        return Err(CodecError::new(KIND, message));
    }
    Ok(value)
}

/// `value` appended to `out`.
fn write<T>(value: &T, out: &mut Vec<u8>) -> Result<(), CodecError>
where
    T: ::wincode::SchemaWrite<DefaultConfig, Src = T>,
{
    ::wincode::serialize_into(out, value).map_err(|e| CodecError::new(KIND, e))
}

/// The server side: the snapshot's wire integers (their list reused).
#[derive(Debug, Default)]
pub struct Server {
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
        write(&self.wire, out)
    }

    fn decode_input(&mut self, data: &[u8]) -> Result<sim::Input, CodecError> {
        let input: wire::Input = read_all(data)?;
        input.to_sim().map_err(|e| CodecError::new(KIND, e))
    }
}

/// The client side: the last decoded snapshot.
#[derive(Debug, Default)]
pub struct Client {
    last: sim::Snapshot,
}

impl ClientCodec for Client {
    fn encode_input(&mut self, input: &sim::Input, out: &mut Vec<u8>) -> Result<(), CodecError> {
        let input = wire::Input::from_sim(input).map_err(|e| CodecError::new(KIND, e))?;
        write(&input, out)
    }

    fn decode_snapshot(&mut self, data: &[u8]) -> Result<Option<Decoded<'_>>, CodecError> {
        let snapshot: wire::Snapshot = read_all(data)?;
        snapshot
            .fill_sim(&mut self.last)
            .map_err(|e| CodecError::new(KIND, e))?;
        Ok(Some(Decoded {
            snapshot: &self.last,
            ack: tick_ack(&self.last),
        }))
    }
}
