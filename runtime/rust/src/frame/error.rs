//! Frame errors (docs/framing.md §7): a kind from the closed list every bitwire framer
//! shares, the byte offset of the frame in the stream, and a detail for messages.

use core::fmt;

/// What is wrong with a frame (docs/framing.md §7). The names are the contract every
/// bitwire framer (Rust, Go, TypeScript, the CLI) shares; `#[non_exhaustive]` so that a
/// later format version can add one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FrameErrorKind {
    /// The stream (or WebSocket message) ended inside a frame.
    Truncated,
    /// A Length or PacketLength VarInt with a continuation bit on its third byte.
    LengthTooWide,
    /// A Length or PacketLength of 0.
    ZeroLength,
    /// A Length or PacketLength above `max_frame`; or, when writing, a frame that would be.
    FrameTooLarge,
    /// A DataLength or PacketID VarInt of more than 5 bytes or of a value ≥ 2^31.
    VarIntTooLong,
    /// A VarInt written longer than needed.
    NonMinimalVarInt,
    /// A compressed frame whose DataLength is below the threshold.
    BelowThreshold,
    /// A DataLength above `max_data` (also, when writing, a body above it).
    DataTooLarge,
    /// Rest is not a valid zlib stream (header, deflate data, checksum, early end).
    BadZlib,
    /// The zlib stream inflates to more or fewer bytes than DataLength.
    SizeMismatch,
    /// Bytes after the zlib stream inside the frame, or after the frame inside a
    /// WebSocket message.
    TrailingBytes,
    /// A PacketID that is not a message id of the schema.
    UnknownMessage,
    /// The message's packed bytes do not decode (or, when writing, do not encode): the
    /// packed error is in [`FrameError::message_error`].
    Message,
}

impl FrameErrorKind {
    /// Every kind, in the order of docs/framing.md §7.
    pub const ALL: [FrameErrorKind; 13] = [
        FrameErrorKind::Truncated,
        FrameErrorKind::LengthTooWide,
        FrameErrorKind::ZeroLength,
        FrameErrorKind::FrameTooLarge,
        FrameErrorKind::VarIntTooLong,
        FrameErrorKind::NonMinimalVarInt,
        FrameErrorKind::BelowThreshold,
        FrameErrorKind::DataTooLarge,
        FrameErrorKind::BadZlib,
        FrameErrorKind::SizeMismatch,
        FrameErrorKind::TrailingBytes,
        FrameErrorKind::UnknownMessage,
        FrameErrorKind::Message,
    ];

    /// The kind's stable name, as the frame vectors and every runtime spell it.
    pub const fn name(self) -> &'static str {
        match self {
            FrameErrorKind::Truncated => "Truncated",
            FrameErrorKind::LengthTooWide => "LengthTooWide",
            FrameErrorKind::ZeroLength => "ZeroLength",
            FrameErrorKind::FrameTooLarge => "FrameTooLarge",
            FrameErrorKind::VarIntTooLong => "VarIntTooLong",
            FrameErrorKind::NonMinimalVarInt => "NonMinimalVarInt",
            FrameErrorKind::BelowThreshold => "BelowThreshold",
            FrameErrorKind::DataTooLarge => "DataTooLarge",
            FrameErrorKind::BadZlib => "BadZlib",
            FrameErrorKind::SizeMismatch => "SizeMismatch",
            FrameErrorKind::TrailingBytes => "TrailingBytes",
            FrameErrorKind::UnknownMessage => "UnknownMessage",
            FrameErrorKind::Message => "Message",
        }
    }

    /// Parses a stable kind name.
    pub fn from_name(name: &str) -> Option<FrameErrorKind> {
        FrameErrorKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl fmt::Display for FrameErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The values and limits behind a [`FrameError`], for messages. Not part of the
/// contract (the kind and the offset are).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrameDetail {
    /// Nothing more is known.
    None,
    /// The stream ended: `have` bytes of a frame that needs `need` (0 when the length
    /// itself is incomplete).
    Truncated {
        /// Bytes of the frame that arrived.
        have: u64,
        /// Bytes the frame needs, when its length is known.
        need: Option<u64>,
    },
    /// A length above its maximum (`FrameTooLarge`, `DataTooLarge`).
    TooLarge {
        /// The length.
        length: u64,
        /// The maximum.
        max: u64,
    },
    /// A compressed frame's DataLength below the threshold.
    BelowThreshold {
        /// The DataLength.
        data_length: u32,
        /// The threshold.
        threshold: u32,
    },
    /// Why the zlib stream is invalid.
    Zlib(&'static str),
    /// The inflated size: `at_least` when inflating stopped at DataLength + 1.
    Inflated {
        /// The DataLength.
        data_length: u32,
        /// Bytes the stream inflated to.
        inflated: u64,
        /// Inflating stopped at `inflated`; the stream holds more.
        at_least: bool,
    },
    /// Bytes after the end (of the zlib stream, or of the frame in a WebSocket message).
    Trailing {
        /// How many.
        count: u64,
    },
    /// The PacketID no message of the schema has.
    MessageId(u32),
    /// The message's packed error.
    Message(crate::Error),
}

/// A frame error: [`kind`](FrameError::kind), the byte [`offset`](FrameError::offset)
/// in the stream of the first byte of the frame being read (docs/framing.md §7), and a
/// [`detail`](FrameError::detail). Two errors are equal when kind and offset are (and,
/// for `Message`, the packed errors).
#[derive(Clone)]
pub struct FrameError {
    kind: FrameErrorKind,
    offset: u64,
    detail: FrameDetail,
}

impl FrameError {
    /// An error of `kind` at byte `offset`.
    pub const fn new(kind: FrameErrorKind, offset: u64) -> FrameError {
        FrameError {
            kind,
            offset,
            detail: FrameDetail::None,
        }
    }

    /// The same error with `detail`.
    pub fn with_detail(mut self, detail: FrameDetail) -> FrameError {
        self.detail = detail;
        self
    }

    pub(crate) fn from_parts(parts: (FrameErrorKind, FrameDetail), offset: u64) -> FrameError {
        FrameError::new(parts.0, offset).with_detail(parts.1)
    }

    /// A `Message` error wrapping the packed error `e`.
    pub fn message(e: crate::Error, offset: u64) -> FrameError {
        FrameError::new(FrameErrorKind::Message, offset).with_detail(FrameDetail::Message(e))
    }

    /// The same error at `offset` bytes further into the stream (errors of a part of a
    /// stream, moved to the whole stream's offsets).
    pub fn shifted(mut self, by: u64) -> FrameError {
        self.offset += by;
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> FrameErrorKind {
        self.kind
    }

    /// Byte offset of the first byte of the frame being read (for `TrailingBytes` in a
    /// WebSocket message: of the first byte after the frame).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The values and limits involved.
    pub fn detail(&self) -> &FrameDetail {
        &self.detail
    }

    /// For kind `Message`: the packed error (kind, bit offset from the start of the
    /// message's bytes, field path).
    pub fn message_error(&self) -> Option<&crate::Error> {
        match &self.detail {
            FrameDetail::Message(e) => Some(e),
            _ => None,
        }
    }
}

impl PartialEq for FrameError {
    fn eq(&self, other: &FrameError) -> bool {
        self.kind == other.kind
            && self.offset == other.offset
            && self.message_error() == other.message_error()
    }
}

impl Eq for FrameError {}

impl fmt::Debug for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FrameError({self})")
    }
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.offset)?;
        match &self.detail {
            FrameDetail::None => Ok(()),
            FrameDetail::Truncated {
                have,
                need: Some(n),
            } => {
                write!(f, ": {have} of the frame's {n} bytes")
            }
            FrameDetail::Truncated { have, need: None } => {
                write!(f, ": {have} bytes, the length is incomplete")
            }
            FrameDetail::TooLarge { length, max } => write!(f, ": length {length}, at most {max}"),
            FrameDetail::BelowThreshold {
                data_length,
                threshold,
            } => write!(
                f,
                ": DataLength {data_length} is below the threshold {threshold}"
            ),
            FrameDetail::Zlib(why) => write!(f, ": {why}"),
            FrameDetail::Inflated {
                data_length,
                inflated,
                at_least,
            } => {
                let more = if *at_least { "at least " } else { "" };
                write!(
                    f,
                    ": inflates to {more}{inflated} bytes, DataLength is {data_length}"
                )
            }
            FrameDetail::Trailing { count } => write!(f, ": {count} bytes after the end"),
            FrameDetail::MessageId(id) => write!(f, ": no message has id {id}"),
            FrameDetail::Message(e) => write!(f, ": {e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for FrameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.message_error()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}
