//! The codecs under test, behind one interface: each turns the simulator's messages
//! ([`sim::Snapshot`], [`sim::Input`]) into a frame's Data and back. Every codec carries
//! the same fields; the peers carry the quantized fields as the integers bitwire puts on
//! the wire (bench/sim/README.md, "Codecs").
//!
//! A [`ServerCodec`] and a [`ClientCodec`] are per connection: `bitwire-delta` keeps
//! each client's snapshot ring in them.

use crate::sim;
use std::fmt;

mod bitcode;
mod delta;
mod flatbuffers;
mod packed;
mod wincode;
pub mod wire;

/// A codec the simulator can run, by its flag name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodecKind {
    /// bitwire's packed encoding, a full snapshot every tick.
    Bitwire,
    /// bitwire's delta encoding in snapshot envelopes (docs/framing.md §10).
    BitwireDelta,
    /// bitcode 0.6 (`Encode`/`Decode` derives, a reused `Buffer`).
    Bitcode,
    /// FlatBuffers 25.12.19 on flatc-generated code (a reused builder).
    Flatbuffers,
    /// wincode's default configuration (bincode 1.x's bytes).
    Wincode,
}

impl CodecKind {
    /// Every codec, in the report's order.
    pub const ALL: [CodecKind; 5] = [
        CodecKind::Bitwire,
        CodecKind::BitwireDelta,
        CodecKind::Bitcode,
        CodecKind::Flatbuffers,
        CodecKind::Wincode,
    ];

    /// The flag name (`--codec NAME`), also the name in results and metrics.
    pub fn name(self) -> &'static str {
        match self {
            CodecKind::Bitwire => "bitwire",
            CodecKind::BitwireDelta => "bitwire-delta",
            CodecKind::Bitcode => "bitcode",
            CodecKind::Flatbuffers => "flatbuffers",
            CodecKind::Wincode => "wincode",
        }
    }

    /// The codec named `name`.
    pub fn parse(name: &str) -> Result<CodecKind, String> {
        CodecKind::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = CodecKind::ALL.iter().map(|c| c.name()).collect();
                format!("unknown codec {name:?} (one of {})", names.join(", "))
            })
    }

    /// A new server side, for one connection.
    pub fn server(self) -> Box<dyn ServerCodec> {
        match self {
            CodecKind::Bitwire => Box::new(packed::Server),
            CodecKind::BitwireDelta => Box::<delta::Server>::default(),
            CodecKind::Bitcode => Box::<bitcode::Server>::default(),
            CodecKind::Flatbuffers => Box::<flatbuffers::Server>::default(),
            CodecKind::Wincode => Box::<wincode::Server>::default(),
        }
    }

    /// A new client side, for one connection.
    pub fn client(self) -> Box<dyn ClientCodec> {
        match self {
            CodecKind::Bitwire => Box::<packed::Client>::default(),
            CodecKind::BitwireDelta => Box::<delta::Client>::default(),
            CodecKind::Bitcode => Box::<bitcode::Client>::default(),
            CodecKind::Flatbuffers => Box::<flatbuffers::Client>::default(),
            CodecKind::Wincode => Box::<wincode::Client>::default(),
        }
    }
}

impl fmt::Display for CodecKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A message a codec could not encode or decode: which codec, and its own error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodecError {
    /// The codec's flag name.
    pub codec: &'static str,
    /// The library's error, as it prints it.
    pub message: String,
}

impl CodecError {
    /// `codec`'s error `e`.
    pub fn new(codec: CodecKind, e: impl fmt::Display) -> CodecError {
        CodecError {
            codec: codec.name(),
            message: e.to_string(),
        }
    }
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.codec, self.message)
    }
}

impl std::error::Error for CodecError {}

/// The frame PacketIDs (the messages' ids in `sim.bw`), the same for every codec.
pub const INPUT_ID: u32 = 1;
/// See [`INPUT_ID`].
pub const SNAPSHOT_ID: u32 = 2;

/// One connection's codec on the server: encodes its client's snapshots, decodes its
/// inputs.
pub trait ServerCodec: Send {
    /// Appends the Data of the frame carrying `snapshot` to `out`. Takes the snapshot by
    /// value: `bitwire-delta` keeps it as a future baseline.
    fn encode_snapshot(
        &mut self,
        snapshot: sim::Snapshot,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError>;

    /// Decodes the Data of an input frame.
    fn decode_input(&mut self, data: &[u8]) -> Result<sim::Input, CodecError>;

    /// The client reports (in [`sim::Input::ack`]) the newest snapshot it decoded;
    /// `bitwire-delta` encodes against it from now on. The others ignore it.
    fn acknowledge(&mut self, ack: u16) {
        let _ = ack;
    }
}

/// A decoded snapshot and the value the client acknowledges it with
/// ([`sim::Input::ack`]).
#[derive(Debug)]
pub struct Decoded<'a> {
    /// The snapshot.
    pub snapshot: &'a sim::Snapshot,
    /// What the next input's `ack` is.
    pub ack: u16,
}

/// One connection's codec on a client: encodes its inputs, decodes its snapshots.
pub trait ClientCodec: Send {
    /// Appends the Data of the frame carrying `input` to `out`.
    fn encode_input(&mut self, input: &sim::Input, out: &mut Vec<u8>) -> Result<(), CodecError>;

    /// Decodes the Data of a snapshot frame: `None` when the codec drops it (a
    /// `bitwire-delta` envelope older than the newest decoded, docs/framing.md §10.4).
    fn decode_snapshot(&mut self, data: &[u8]) -> Result<Option<Decoded<'_>>, CodecError>;
}

/// The acknowledgement of a snapshot for the codecs without a ring: its tick's low 16
/// bits.
pub fn tick_ack(snapshot: &sim::Snapshot) -> u16 {
    snapshot.tick as u16
}
