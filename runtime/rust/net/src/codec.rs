//! tokio-util codecs: raw frames ([`FrameCodec`]) and a schema's messages
//! ([`MessageCodec`]), both over the `bitwire` crate's [`FrameReader`] and
//! [`FrameEncoder`]. Use them with `tokio_util::codec::Framed` / `FramedRead` /
//! `FramedWrite`; [`Connection`](crate::Connection) uses `MessageCodec` on its own
//! buffer to add timeouts and a bounded send queue.

use std::marker::PhantomData;

use bitwire::frame::{FrameEncoder, FrameReader, FrameSettings, Peeked};
use bitwire::MessageSet;
use bytes::{Buf, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::ConnError;

/// A frame read by [`FrameCodec`]: its PacketID, the message's bytes (inflated if the
/// frame was compressed) and its offset in the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawFrame {
    /// The PacketID.
    pub id: u32,
    /// The message's packed bytes.
    pub data: Bytes,
    /// Byte offset of the frame in the stream (0 for frames to write).
    pub offset: u64,
}

/// Makes room in `src` for the whole frame once its length is known — exactly that
/// much, never more: the length passed the checks of docs/framing.md §2.2, so this
/// stays within `max_frame + 3` bytes.
fn reserve_frame(src: &mut BytesMut, total: Option<usize>) {
    if let Some(total) = total {
        if src.capacity() < total {
            let mut bigger = BytesMut::with_capacity(total);
            bigger.extend_from_slice(src);
            *src = bigger;
        }
    }
}

/// Frames in and out as [`RawFrame`]s (no message dispatch): for proxies, captures,
/// and peers whose ids are not a bitwire schema's (Minecraft's).
#[derive(Debug)]
pub struct FrameCodec {
    reader: FrameReader,
    encoder: FrameEncoder,
    scratch: Vec<u8>,
}

impl FrameCodec {
    /// A codec with `settings`.
    pub fn new(settings: FrameSettings) -> FrameCodec {
        FrameCodec {
            reader: FrameReader::new(settings),
            encoder: FrameEncoder::new(settings),
            scratch: Vec::new(),
        }
    }
}

impl Decoder for FrameCodec {
    type Item = RawFrame;
    type Error = ConnError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<RawFrame>, ConnError> {
        let (frame, len) = match self.reader.frame_at(src)? {
            Peeked::Incomplete(total) => {
                reserve_frame(src, total);
                return Ok(None);
            }
            Peeked::Item(f, len) => (
                RawFrame {
                    id: f.id,
                    data: Bytes::copy_from_slice(f.data),
                    offset: f.offset,
                },
                len,
            ),
        };
        src.advance(len);
        Ok(Some(frame))
    }

    /// The stream ended: a partial frame is `Truncated` (not tokio-util's untyped
    /// "bytes remaining on stream").
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<RawFrame>, ConnError> {
        match self.decode(src)? {
            Some(frame) => Ok(Some(frame)),
            None => {
                self.reader.finish_at(src)?;
                Ok(None)
            }
        }
    }
}

impl Encoder<RawFrame> for FrameCodec {
    type Error = ConnError;

    fn encode(&mut self, frame: RawFrame, dst: &mut BytesMut) -> Result<(), ConnError> {
        self.scratch.clear();
        self.encoder
            .write_frame(frame.id, &frame.data, &mut self.scratch)
            .map_err(ConnError::Encode)?;
        dst.extend_from_slice(&self.scratch);
        Ok(())
    }
}

/// A schema's messages in and out: `M` is the generated dispatch enum (`Message`),
/// which implements [`MessageSet`]. Decoding reads the message from the frame's bytes
/// in the read buffer (zero-copy unless the frame is compressed).
///
/// ```ignore
/// let mut framed = Framed::new(tcp_stream, MessageCodec::<arena::Message>::new(settings));
/// framed.send(arena::Say { text: "hi".into() }.into()).await?;
/// while let Some(message) = framed.next().await { /* Ok(Message) or Err(ConnError) */ }
/// ```
pub struct MessageCodec<M> {
    reader: FrameReader,
    encoder: FrameEncoder,
    scratch: Vec<u8>,
    _messages: PhantomData<fn() -> M>,
}

impl<M> std::fmt::Debug for MessageCodec<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MessageCodec")
            .field("reader", &self.reader)
            .finish()
    }
}

impl<M: MessageSet> MessageCodec<M> {
    /// A codec with `settings`.
    pub fn new(settings: FrameSettings) -> MessageCodec<M> {
        MessageCodec {
            reader: FrameReader::new(settings),
            encoder: FrameEncoder::new(settings),
            scratch: Vec::new(),
            _messages: PhantomData,
        }
    }

    /// Bytes of the stream consumed so far.
    pub fn offset(&self) -> u64 {
        self.reader.offset()
    }
}

impl<M: MessageSet> Decoder for MessageCodec<M> {
    type Item = M;
    type Error = ConnError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<M>, ConnError> {
        match self.reader.message_at::<M>(src)? {
            Peeked::Item(message, len) => {
                src.advance(len);
                Ok(Some(message))
            }
            Peeked::Incomplete(total) => {
                reserve_frame(src, total);
                Ok(None)
            }
        }
    }

    /// The stream ended: a partial frame is `Truncated`.
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<M>, ConnError> {
        match self.decode(src)? {
            Some(message) => Ok(Some(message)),
            None => {
                self.reader.finish_at(src)?;
                Ok(None)
            }
        }
    }
}

impl<M: MessageSet> Encoder<&M> for MessageCodec<M> {
    type Error = ConnError;

    fn encode(&mut self, message: &M, dst: &mut BytesMut) -> Result<(), ConnError> {
        self.scratch.clear();
        self.encoder
            .write_message(message, &mut self.scratch)
            .map_err(ConnError::Encode)?;
        dst.extend_from_slice(&self.scratch);
        Ok(())
    }
}

impl<M: MessageSet> Encoder<M> for MessageCodec<M> {
    type Error = ConnError;

    fn encode(&mut self, message: M, dst: &mut BytesMut) -> Result<(), ConnError> {
        <Self as Encoder<&M>>::encode(self, &message, dst)
    }
}
