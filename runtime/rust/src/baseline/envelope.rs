//! The envelope as a value (docs/framing.md §10.8): what the generated `Message` enum's
//! variant of a `delta message` carries on a typed connection.

use alloc::vec::Vec;

use super::{SnapshotError, SnapshotHeader, HEADER_BYTES};

/// A snapshot envelope — a frame's Data for a `delta message` (docs/framing.md §10):
/// the 3-byte [`SnapshotHeader`], then the body, owned. It always holds a whole header.
///
/// The generated `Message` enum carries one in the variant of every `delta message`
/// (`Message::World(Envelope)`), instead of a decoded value: the body is a delta
/// against a snapshot only the peer's [`SnapshotReceiver`](super::SnapshotReceiver)
/// has. [`SnapshotSender::encode_envelope`](super::SnapshotSender::encode_envelope)
/// makes one to send; a received one goes to
/// [`SnapshotReceiver::decode`](super::SnapshotReceiver::decode) as
/// [`bytes`](Envelope::bytes).
///
/// ```
/// use bitwire::baseline::{Envelope, SnapshotErrorKind, SnapshotHeader};
///
/// let envelope = Envelope::try_from(vec![0x2c, 0x01, 0x02, 0x00])?;
/// assert_eq!(envelope.header(), SnapshotHeader { seq: 300, back: 2 });
/// assert_eq!(envelope.body(), [0x00]);
/// let short = Envelope::try_from(vec![0x2c, 0x01]).unwrap_err();
/// assert_eq!(short.kind(), SnapshotErrorKind::Truncated);
/// # Ok::<(), bitwire::baseline::SnapshotError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Envelope {
    /// At least [`HEADER_BYTES`] long.
    bytes: Vec<u8>,
}

impl Envelope {
    /// The envelope a frame's Data holds, copied: how the generated message set decodes
    /// the Data of a `delta message`'s frame. Fewer than 3 bytes is `Truncated` at bit
    /// 0 (a frame error of kind `Message` with this inside, docs/framing.md §4.1); the
    /// body is the receiver's to check.
    pub fn from_data(data: &[u8]) -> crate::Result<Envelope> {
        if data.len() < HEADER_BYTES {
            let left = 8 * data.len() as u64;
            return Err(crate::Error::truncated(0, 8 * HEADER_BYTES as u64, left));
        }
        Ok(Envelope {
            bytes: data.to_vec(),
        })
    }

    /// The header: the snapshot's sequence number and its baseline.
    pub fn header(&self) -> SnapshotHeader {
        SnapshotHeader {
            seq: u16::from_le_bytes([self.bytes[0], self.bytes[1]]),
            back: self.bytes[2],
        }
    }

    /// The body: the snapshot's full encoding when `header().back` is 0, else its delta.
    pub fn body(&self) -> &[u8] {
        &self.bytes[HEADER_BYTES..]
    }

    /// The whole envelope, header and body: a frame's Data, and what
    /// [`SnapshotReceiver::decode`](super::SnapshotReceiver::decode) takes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The whole envelope as a vector.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Appends the envelope to `out` (how the generated message set writes the Data of
    /// a `delta message`'s frame); returns the bytes written.
    pub fn encode(&self, out: &mut Vec<u8>) -> usize {
        out.extend_from_slice(&self.bytes);
        self.bytes.len()
    }
}

impl TryFrom<Vec<u8>> for Envelope {
    type Error = SnapshotError;

    /// An envelope of these bytes; fewer than 3 is `Truncated`.
    fn try_from(bytes: Vec<u8>) -> Result<Envelope, SnapshotError> {
        if bytes.len() < HEADER_BYTES {
            return Err(SnapshotError::truncated(bytes.len()));
        }
        Ok(Envelope { bytes })
    }
}

impl AsRef<[u8]> for Envelope {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl From<Envelope> for Vec<u8> {
    fn from(envelope: Envelope) -> Vec<u8> {
        envelope.bytes
    }
}
