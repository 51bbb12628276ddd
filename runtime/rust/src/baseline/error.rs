//! What goes wrong with a snapshot envelope or an acknowledgement (docs/framing.md §10.5).

use core::fmt;

/// What went wrong: the closed list of docs/framing.md §10.5, the same in every
/// runtime. `#[non_exhaustive]` so that a later version can add one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SnapshotErrorKind {
    /// The envelope is shorter than its 3-byte header.
    Truncated,
    /// The delta's baseline is not in the receiver's ring: it never decoded that
    /// snapshot (lost, rejected, or from before the receiver started).
    BaselineMissing,
    /// The delta's baseline is further back than the receiver's ring reaches (`back`
    /// above its size): Quake 3's "Delta frame too old".
    BaselineStale,
    /// The body does not encode or decode: the packed error is inside.
    Message,
    /// An acknowledgement of a sequence number the sender never sent.
    AckNotSent,
}

impl SnapshotErrorKind {
    /// Every kind, in docs/framing.md §10.5's order.
    pub const ALL: [SnapshotErrorKind; 5] = [
        SnapshotErrorKind::Truncated,
        SnapshotErrorKind::BaselineMissing,
        SnapshotErrorKind::BaselineStale,
        SnapshotErrorKind::Message,
        SnapshotErrorKind::AckNotSent,
    ];

    /// The kind's stable name, as vector files and every runtime spell it.
    pub const fn name(self) -> &'static str {
        match self {
            SnapshotErrorKind::Truncated => "Truncated",
            SnapshotErrorKind::BaselineMissing => "BaselineMissing",
            SnapshotErrorKind::BaselineStale => "BaselineStale",
            SnapshotErrorKind::Message => "Message",
            SnapshotErrorKind::AckNotSent => "AckNotSent",
        }
    }

    /// Parses a stable kind name.
    pub fn from_name(name: &str) -> Option<SnapshotErrorKind> {
        SnapshotErrorKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
    }
}

impl fmt::Display for SnapshotErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The values behind an error, for messages; not part of the contract (the kind is).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Detail {
    /// `Truncated`: the envelope's length.
    Length(usize),
    /// `BaselineMissing`, `BaselineStale`: the snapshot, its `back` and the ring size.
    Baseline { seq: u16, back: u8, ring: u8 },
    /// `Message`: the packed error.
    Message(crate::Error),
    /// `AckNotSent`: the acknowledged sequence number and the newest one sent.
    Ack { seq: u16, last: Option<u16> },
}

/// A snapshot envelope that cannot be decoded, a body that cannot be encoded, or an
/// acknowledgement of nothing sent. [`kind`](SnapshotError::kind) is the contract.
#[derive(Clone, PartialEq, Eq)]
pub struct SnapshotError {
    kind: SnapshotErrorKind,
    detail: Detail,
}

impl SnapshotError {
    pub(crate) fn truncated(len: usize) -> SnapshotError {
        SnapshotError {
            kind: SnapshotErrorKind::Truncated,
            detail: Detail::Length(len),
        }
    }

    pub(crate) fn baseline(kind: SnapshotErrorKind, seq: u16, back: u8, ring: u8) -> Self {
        SnapshotError {
            kind,
            detail: Detail::Baseline { seq, back, ring },
        }
    }

    pub(crate) fn message(e: crate::Error) -> SnapshotError {
        SnapshotError {
            kind: SnapshotErrorKind::Message,
            detail: Detail::Message(e),
        }
    }

    pub(crate) fn ack_not_sent(seq: u16, last: Option<u16>) -> SnapshotError {
        SnapshotError {
            kind: SnapshotErrorKind::AckNotSent,
            detail: Detail::Ack { seq, last },
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> SnapshotErrorKind {
        self.kind
    }

    /// For kind `Message`: the packed error of the body (kind, bit offset from the
    /// start of the body, field path).
    pub fn message_error(&self) -> Option<&crate::Error> {
        match &self.detail {
            Detail::Message(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Debug for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SnapshotError({self})")
    }
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        match &self.detail {
            Detail::Length(len) => write!(f, ": {len} bytes, the header needs 3"),
            Detail::Baseline { seq, back, ring } => {
                let base = seq.wrapping_sub(u16::from(*back));
                match self.kind {
                    SnapshotErrorKind::BaselineStale => write!(
                        f,
                        ": snapshot {seq} is a delta against {base}, {back} back; the ring holds {ring}"
                    ),
                    _ => write!(
                        f,
                        ": snapshot {seq} is a delta against {base}, which was not decoded"
                    ),
                }
            }
            Detail::Message(e) => write!(f, ": {e}"),
            Detail::Ack {
                seq,
                last: Some(last),
            } => {
                write!(f, ": snapshot {seq} was not sent (the newest is {last})")
            }
            Detail::Ack { seq, last: None } => {
                write!(f, ": snapshot {seq} was not sent (nothing was)")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SnapshotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.message_error()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}
