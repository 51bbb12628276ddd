//! Frames (docs/framing.md): Minecraft's `Length VarInt | PacketID VarInt | Data`, with
//! optional zlib above a threshold, and bitwire's strict limits. This module is the one
//! framer of the Rust side: the incremental [`FrameReader`], the [`FrameEncoder`], the
//! blocking `std::io` adapters ([`FrameRead`], [`FrameWrite`], feature `std`), the
//! generated dispatch enums' [`MessageSet`] methods, the `bitwire-net` crate's tokio
//! codecs and WebSocket transport, and the `bitwire frame` CLI all call it. It is
//! `no_std` + `alloc` (zlib is miniz_oxide's, which is too) and has no `unsafe`.
//!
//! ```
//! use bitwire::frame::{FrameEncoder, FrameReader, FrameSettings};
//!
//! let settings = FrameSettings::new().with_threshold(Some(256));
//! let mut out = Vec::new();
//! FrameEncoder::new(settings).write_frame(1, &[0xa5, 0x2b], &mut out)?;
//! assert_eq!(out, [0x04, 0x00, 0x01, 0xa5, 0x2b]); // PacketLength 4, DataLength 0 (below T)
//!
//! // Bytes arrive in any chunks; frames come out whole.
//! let mut reader = FrameReader::new(settings);
//! let (mut first, mut second) = (&out[..2], &out[2..]);
//! assert!(reader.next_frame(&mut first)?.is_none());
//! let frame = reader.next_frame(&mut second)?.expect("a whole frame");
//! assert_eq!((frame.id, frame.data, frame.offset), (1, &[0xa5, 0x2b][..], 0));
//! reader.finish()?; // the stream ended at a frame boundary
//! # Ok::<(), bitwire::frame::FrameError>(())
//! ```

mod error;
#[cfg(feature = "std")]
mod io;
mod message;
mod parse;
mod reader;
mod varint;
mod writer;
mod zlib;

pub use error::{FrameDetail, FrameError, FrameErrorKind};
#[cfg(feature = "std")]
pub use io::{FrameRead, FrameWrite, StreamError};
pub use message::MessageSet;
pub use parse::{read_head, Head, LENGTH_MAX_BYTES};
pub use reader::{Frame, FrameReader, Peeked};
pub use varint::{read_varint, varint_len, write_varint, VarInt, VARINT_MAX, VARINT_MAX_BYTES};
pub use writer::FrameEncoder;

use crate::Limits;

/// The largest `max_frame`, and its default: 2^21 − 1, the most a 3-byte Length holds
/// (§2.2).
pub const MAX_FRAME: u32 = 2_097_151;

/// The default `max_data`: 8,388,608 = 2^23, vanilla's limit on an inflated body (§3.2).
pub const DEFAULT_MAX_DATA: u32 = 8_388_608;

/// What every reader and writer of frames is configured with: the compression
/// `threshold` (none: frames without compression, §2), `max_frame` (§2.2), `max_data`
/// (§3.2) and the decode [`Limits`] of the messages inside (spec §11). Memory per
/// reader is bounded by them: at most `max_frame + 3` bytes of a frame being read and
/// `max_data` bytes of an inflated body.
///
/// Both ends must use the same threshold (agreeing on it is the application's
/// protocol, as in Minecraft's Set Compression packet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameSettings {
    threshold: Option<u32>,
    max_frame: u32,
    max_data: u32,
    limits: Limits,
}

impl FrameSettings {
    /// No compression, `max_frame` 2,097,151, `max_data` 8,388,608, the default
    /// decode limits.
    pub const DEFAULT: FrameSettings = FrameSettings {
        threshold: None,
        max_frame: MAX_FRAME,
        max_data: DEFAULT_MAX_DATA,
        limits: Limits::DEFAULT,
    };

    /// [`FrameSettings::DEFAULT`].
    pub const fn new() -> FrameSettings {
        FrameSettings::DEFAULT
    }

    /// Compression above `threshold` bytes (§3), or none.
    pub const fn with_threshold(mut self, threshold: Option<u32>) -> FrameSettings {
        self.threshold = threshold;
        self
    }

    /// The largest Length (PacketLength) read or written.
    ///
    /// # Panics
    ///
    /// If `max_frame` is 0 or above [`MAX_FRAME`] (a 3-byte Length cannot hold it).
    pub const fn with_max_frame(mut self, max_frame: u32) -> FrameSettings {
        assert!(
            max_frame >= 1 && max_frame <= MAX_FRAME,
            "max_frame must be in 1..=2097151"
        );
        self.max_frame = max_frame;
        self
    }

    /// The largest DataLength (inflated body) read or written.
    ///
    /// # Panics
    ///
    /// If `max_data` is above [`VARINT_MAX`].
    pub const fn with_max_data(mut self, max_data: u32) -> FrameSettings {
        assert!(max_data <= VARINT_MAX, "max_data must be below 2^31");
        self.max_data = max_data;
        self
    }

    /// The decode budget of the messages inside frames (spec §11).
    pub const fn with_limits(mut self, limits: Limits) -> FrameSettings {
        self.limits = limits;
        self
    }

    /// The compression threshold, if compression is on.
    pub const fn threshold(&self) -> Option<u32> {
        self.threshold
    }

    /// The largest Length.
    pub const fn max_frame(&self) -> u32 {
        self.max_frame
    }

    /// The largest DataLength.
    pub const fn max_data(&self) -> u32 {
        self.max_data
    }

    /// The messages' decode limits.
    pub const fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The most bytes one frame takes on the wire: `max_frame` plus its Length VarInt
    /// (a WebSocket transport's message size limit, §5).
    pub const fn max_frame_bytes(&self) -> usize {
        self.max_frame as usize + varint_len(self.max_frame)
    }
}

impl Default for FrameSettings {
    fn default() -> Self {
        FrameSettings::DEFAULT
    }
}
