//! The trait of a schema's dispatch enum (the generated `Message`): frames in and out
//! by message id (§4).

use alloc::vec::Vec;

use super::error::{FrameDetail, FrameError, FrameErrorKind};
use super::reader::{Frame, FrameReader};
use super::writer::FrameEncoder;
use super::FrameSettings;
use crate::{Limits, Result};

/// The messages of a schema, dispatched by id: generated code implements it for the
/// `Message` enum (one variant per `message Name = ID`) with the id table and the
/// three building blocks; the frame methods are provided here, once, on top of them.
/// Bring it into scope with `use bitwire::MessageSet;`.
///
/// ```
/// use bitwire::frame::{FrameErrorKind, FrameSettings};
/// use bitwire::{Limits, MessageSet, Result};
///
/// /// A hand-written set of one message, `Ping = 0`, which has no fields.
/// #[derive(Debug, PartialEq)]
/// struct Ping;
///
/// impl MessageSet for Ping {
///     const IDS: &'static [u32] = &[0];
///     fn message_id(&self) -> u32 {
///         0
///     }
///     fn encode_body(&self, _out: &mut Vec<u8>) -> Result<usize> {
///         Ok(0)
///     }
///     fn decode_body(id: u32, data: &[u8], _limits: &Limits) -> Option<Result<Ping>> {
///         let trailing = || bitwire::Error::new(bitwire::ErrorKind::TrailingData, 0);
///         (id == 0).then(|| if data.is_empty() { Ok(Ping) } else { Err(trailing()) })
///     }
/// }
///
/// let settings = FrameSettings::new();
/// let frame = Ping.encode_frame_to_vec(&settings)?;
/// assert_eq!(frame, [0x01, 0x00]);
/// assert_eq!(Ping::decode_frame(&frame, &settings)?, Ping);
/// let e = Ping::decode_frame(&[0x01, 0x07], &settings).unwrap_err();
/// assert_eq!(e.kind(), FrameErrorKind::UnknownMessage);
/// # Ok::<(), bitwire::frame::FrameError>(())
/// ```
pub trait MessageSet: Sized {
    /// Every message id of the schema, ascending.
    const IDS: &'static [u32];

    /// The message's id (`Name::MESSAGE_ID`).
    fn message_id(&self) -> u32;

    /// Appends the message's packed encoding (without the id) to `out`; returns the
    /// bytes written.
    fn encode_body(&self, out: &mut Vec<u8>) -> Result<usize>;

    /// Decodes the message with id `id` from the whole of `data` within `limits`, or
    /// `None` when no message has that id.
    fn decode_body(id: u32, data: &[u8], limits: &Limits) -> Option<Result<Self>>;

    /// Decodes a frame read by a [`FrameReader`] (or any transport): an id no
    /// message has is `UnknownMessage`, bytes that do not decode are `Message` (the
    /// packed error inside); both at the frame's offset.
    fn from_frame(frame: &Frame<'_>, limits: &Limits) -> core::result::Result<Self, FrameError> {
        match Self::decode_body(frame.id, frame.data, limits) {
            Some(Ok(message)) => Ok(message),
            Some(Err(e)) => Err(FrameError::message(e, frame.offset)),
            None => Err(
                FrameError::new(FrameErrorKind::UnknownMessage, frame.offset)
                    .with_detail(FrameDetail::MessageId(frame.id)),
            ),
        }
    }

    /// Appends the message's frame to `out` and returns the bytes written (§4.2). To
    /// write many frames, keep a [`FrameEncoder`]: it reuses its deflater.
    fn encode_frame(
        &self,
        settings: &FrameSettings,
        out: &mut Vec<u8>,
    ) -> core::result::Result<usize, FrameError> {
        FrameEncoder::new(*settings).write_message(self, out)
    }

    /// The message's frame in a new vector.
    fn encode_frame_to_vec(
        &self,
        settings: &FrameSettings,
    ) -> core::result::Result<Vec<u8>, FrameError> {
        let mut out = Vec::new();
        self.encode_frame(settings, &mut out)?;
        Ok(out)
    }

    /// Decodes the one frame that `bytes` holds, whole (a WebSocket message, §5): less
    /// than a frame is `Truncated`, more is `TrailingBytes`. The message is decoded from
    /// `bytes` in place unless the frame is compressed.
    fn decode_frame(
        bytes: &[u8],
        settings: &FrameSettings,
    ) -> core::result::Result<Self, FrameError> {
        let mut reader = FrameReader::new(*settings);
        let (frame, rest) = reader.message_frame(bytes)?;
        let message = Self::from_frame(&frame, settings.limits())?;
        rest.map(|()| message)
    }
}
