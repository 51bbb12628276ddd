//! The incremental reader: bytes in, in any chunks; whole frames out (§2, §3), with
//! the byte offset of each frame in the stream. It buffers at most one frame
//! (`max_frame + 3` bytes), and only once its length has passed the checks of §2.2.

use alloc::vec::Vec;

use super::error::{FrameDetail, FrameError, FrameErrorKind};
use super::parse::{open_body, read_head, Fault, Head};
use super::zlib::Inflater;
use super::{FrameSettings, MessageSet};

/// A buffer that grew past this for one large frame is given back afterwards, so an
/// idle connection holds little memory.
const KEEP_CAPACITY: usize = 64 * 1024;

/// What [`FrameReader::frame_at`] finds at the front of a caller-owned buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peeked<T> {
    /// A whole frame (or its message) and the bytes it took.
    Item(T, usize),
    /// Less than a frame; its size when the Length is known.
    Incomplete(Option<usize>),
}

/// One frame: its PacketID, the message's bytes (inflated if the frame was compressed)
/// and where the frame starts in the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame<'a> {
    /// The PacketID: the message id (§4).
    pub id: u32,
    /// The message's packed bytes.
    pub data: &'a [u8],
    /// Byte offset of the frame's first byte in the stream.
    pub offset: u64,
}

/// The frame [`open_body`] opened, starting at stream offset `start`, or its error at
/// that offset, remembered in `failed` (a reader returns it again from then on).
pub(crate) fn opened<'a>(
    result: Result<(u32, &'a [u8]), Fault>,
    start: u64,
    failed: &mut Option<FrameError>,
) -> Result<Option<Frame<'a>>, FrameError> {
    match result {
        Ok((id, data)) => Ok(Some(Frame {
            id,
            data,
            offset: start,
        })),
        Err(fault) => {
            let e = FrameError::from_parts(fault, start);
            *failed = Some(e.clone());
            Err(e)
        }
    }
}

impl Frame<'_> {
    /// Decodes the frame as a message of the schema `M` (§4.1): an id no message has
    /// is `UnknownMessage`, bytes that do not decode are `Message`.
    pub fn message<M: MessageSet>(&self, settings: &FrameSettings) -> Result<M, FrameError> {
        M::from_frame(self, settings.limits())
    }
}

/// Reads frames from a byte stream that arrives in chunks (docs/framing.md).
///
/// Pass each chunk to [`next_frame`](FrameReader::next_frame) until it returns
/// `Ok(None)` (it has taken the whole chunk), and call [`finish`](FrameReader::finish)
/// when the stream ends. A frame that lies whole inside a chunk is returned without
/// copying; one split across chunks is assembled in a buffer of at most
/// `max_frame + 3` bytes. The first error ends the stream (§6.2): every later call
/// returns it again.
///
/// ```
/// use bitwire::frame::{FrameErrorKind, FrameReader, FrameSettings};
///
/// let mut reader = FrameReader::new(FrameSettings::new());
/// let mut input: &[u8] = &[0x01, 0x00, 0x03, 0xac, 0x02, 0x07, 0x00];
/// let mut ids = Vec::new();
/// let end = loop {
///     match reader.next_frame(&mut input) {
///         Ok(Some(frame)) => ids.push(frame.id),
///         Ok(None) => break reader.finish(), // all of `input` taken
///         Err(e) => break Err(e),
///     }
/// };
/// assert_eq!(ids, [0, 300]);
/// let e = end.unwrap_err(); // the `00` frame
/// assert_eq!((e.kind(), e.offset()), (FrameErrorKind::ZeroLength, 6));
/// ```
pub struct FrameReader {
    settings: FrameSettings,
    /// The frame being assembled: its first bytes, or all of it once `ready`.
    buf: Vec<u8>,
    /// The frame's Length VarInt bytes and its total bytes, once its length is known.
    head: Option<(usize, usize)>,
    /// `buf` holds a frame that was returned; it is dropped at the next call.
    returned: bool,
    /// Stream offset of the frame being read.
    offset: u64,
    inflater: Inflater,
    inflated: Vec<u8>,
    failed: Option<FrameError>,
}

impl FrameReader {
    /// A reader at the start of a stream.
    pub fn new(settings: FrameSettings) -> FrameReader {
        FrameReader {
            settings,
            buf: Vec::new(),
            head: None,
            returned: false,
            offset: 0,
            inflater: Inflater::default(),
            inflated: Vec::new(),
            failed: None,
        }
    }

    /// The reader's settings.
    pub fn settings(&self) -> &FrameSettings {
        &self.settings
    }

    /// Bytes of the stream consumed so far: the offset of the frame being read.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether part of a frame has arrived and waits for the rest (a connection's
    /// frame timeout runs while it does).
    pub fn in_frame(&self) -> bool {
        !self.returned && !self.buf.is_empty()
    }

    /// Bytes held for the frame being read (at most `max_frame + 3`).
    pub fn buffered(&self) -> usize {
        if self.returned {
            0
        } else {
            self.buf.len()
        }
    }

    /// The error that ended the stream, if one did.
    pub fn error(&self) -> Option<&FrameError> {
        self.failed.as_ref()
    }

    /// Takes bytes from the front of `input` and returns the next whole frame, or
    /// `Ok(None)` once all of `input` is taken without completing one. Call it again
    /// with the rest of `input` after each frame.
    pub fn next_frame<'f, 'i: 'f>(
        &'f mut self,
        input: &mut &'i [u8],
    ) -> Result<Option<Frame<'f>>, FrameError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.returned {
            self.returned = false;
            self.buf.clear();
            self.buf.shrink_to(KEEP_CAPACITY);
        }
        if self.buf.is_empty() {
            // Zero-copy: a frame that lies whole at the front of `input`.
            let data: &'i [u8] = input;
            match self.head(data)? {
                Head::Frame { header, length } if data.len() >= header + length => {
                    *input = &data[header + length..];
                    return self.open(&data[header..header + length], header + length);
                }
                head => {
                    self.head = match head {
                        Head::Frame { header, length } => Some((header, header + length)),
                        Head::Incomplete => None,
                    };
                    if head == Head::Incomplete {
                        // At most two bytes of a Length: keep them.
                        self.buf.extend_from_slice(data);
                        *input = &[];
                        return Ok(None);
                    }
                }
            }
        }
        if !self.fill(input)? {
            return Ok(None);
        }
        let (header, total) = self.head.take().expect("a complete frame has a length");
        self.returned = true;
        let FrameReader {
            buf,
            settings,
            inflater,
            inflated,
            offset,
            failed,
            ..
        } = self;
        let start = *offset;
        *offset += total as u64;
        let body = open_body(&buf[header..total], settings, inflater, inflated);
        opened(body, start, failed)
    }

    /// Like [`next_frame`](FrameReader::next_frame), and decodes the frame as a
    /// message of `M` (§4.1); an unknown id or bad message bytes end the stream too.
    pub fn next_message<M: MessageSet>(
        &mut self,
        input: &mut &[u8],
    ) -> Result<Option<M>, FrameError> {
        let limits = *self.settings.limits();
        let result = match self.next_frame(input)? {
            None => return Ok(None),
            Some(frame) => M::from_frame(&frame, &limits),
        };
        result
            .map(Some)
            .inspect_err(|e| self.failed = Some(e.clone()))
    }

    /// The stream ended: an error if it ended inside a frame (`Truncated`) or after
    /// an error.
    pub fn finish(&self) -> Result<(), FrameError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.in_frame() {
            let need = self.head.map(|(_, t)| t as u64);
            let have = self.buf.len() as u64;
            return Err(FrameError::new(FrameErrorKind::Truncated, self.offset)
                .with_detail(FrameDetail::Truncated { have, need }));
        }
        Ok(())
    }

    /// Reads the frame at the front of `buf`, a buffer the caller owns and fills (a
    /// tokio codec's `BytesMut`): [`Peeked::Item`] with the frame and the bytes it
    /// took, which the caller removes from `buf` before the next call; or
    /// [`Peeked::Incomplete`] with the frame's size once its length is known, so that
    /// the caller can reserve exactly that. The Length is checked before anything is
    /// reserved (§2.2). Do not mix with [`next_frame`](FrameReader::next_frame) on one
    /// reader: it does its own buffering.
    pub fn frame_at<'f, 'b: 'f>(
        &'f mut self,
        buf: &'b [u8],
    ) -> Result<Peeked<Frame<'f>>, FrameError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        match self.head(buf)? {
            Head::Frame { header, length } if buf.len() >= header + length => {
                let total = header + length;
                let frame = self
                    .open(&buf[header..total], total)?
                    .expect("open yields a frame");
                Ok(Peeked::Item(frame, total))
            }
            head => Ok(Peeked::Incomplete(head.total())),
        }
    }

    /// [`frame_at`](FrameReader::frame_at), and decodes the frame as a message of
    /// `M` (§4.1); an unknown id or bad message bytes end the stream too.
    pub fn message_at<M: MessageSet>(&mut self, buf: &[u8]) -> Result<Peeked<M>, FrameError> {
        let limits = *self.settings.limits();
        let (result, len) = match self.frame_at(buf)? {
            Peeked::Incomplete(total) => return Ok(Peeked::Incomplete(total)),
            Peeked::Item(frame, len) => (M::from_frame(&frame, &limits), len),
        };
        match result {
            Ok(m) => Ok(Peeked::Item(m, len)),
            Err(e) => {
                self.failed = Some(e.clone());
                Err(e)
            }
        }
    }

    /// Records that the stream ended at `buf`, a caller-owned buffer (see
    /// [`frame_at`](FrameReader::frame_at)): `Truncated` when it holds part of a frame.
    pub fn finish_at(&self, buf: &[u8]) -> Result<(), FrameError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if buf.is_empty() {
            return Ok(());
        }
        let need = read_head(buf, self.settings.max_frame())
            .ok()
            .and_then(|h| h.total())
            .map(|t| t as u64);
        Err(
            FrameError::new(FrameErrorKind::Truncated, self.offset).with_detail(
                FrameDetail::Truncated {
                    have: buf.len() as u64,
                    need,
                },
            ),
        )
    }

    /// Reads the frame of one WebSocket message (§5), which must hold exactly one:
    /// less is `Err(Truncated)` at offset 0. More gives the frame *and* the
    /// `TrailingBytes` error (at the offset of the extra bytes) that the transport
    /// reports after delivering it, as a stream reader would; [`MessageSet::decode_frame`]
    /// turns both into one error. Offsets are within the message; the reader's stream
    /// state is not touched.
    pub fn message_frame<'f, 'i: 'f>(
        &'f mut self,
        message: &'i [u8],
    ) -> Result<(Frame<'f>, Result<(), FrameError>), FrameError> {
        let truncated = || {
            FrameError::new(FrameErrorKind::Truncated, 0).with_detail(FrameDetail::Truncated {
                have: message.len() as u64,
                need: None,
            })
        };
        let (header, length) = match read_head(message, self.settings.max_frame()) {
            Err(fault) => return Err(FrameError::from_parts(fault, 0)),
            Ok(Head::Incomplete) => return Err(truncated()),
            Ok(Head::Frame { header, length }) => (header, length),
        };
        let total = header + length;
        if message.len() < total {
            return Err(truncated());
        }
        let (id, data) = open_body(
            &message[header..total],
            &self.settings,
            &mut self.inflater,
            &mut self.inflated,
        )
        .map_err(|fault| FrameError::from_parts(fault, 0))?;
        let rest = if message.len() > total {
            Err(
                FrameError::new(FrameErrorKind::TrailingBytes, total as u64).with_detail(
                    FrameDetail::Trailing {
                        count: (message.len() - total) as u64,
                    },
                ),
            )
        } else {
            Ok(())
        };
        Ok((
            Frame {
                id,
                data,
                offset: 0,
            },
            rest,
        ))
    }

    /// Checks the Length at the front of `bytes`.
    fn head(&mut self, bytes: &[u8]) -> Result<Head, FrameError> {
        read_head(bytes, self.settings.max_frame()).map_err(|fault| self.fail(fault))
    }

    /// Opens the body of a frame of `total` bytes that lies whole in the caller's input.
    fn open<'f, 'i: 'f>(
        &'f mut self,
        body: &'i [u8],
        total: usize,
    ) -> Result<Option<Frame<'f>>, FrameError> {
        let start = self.offset;
        self.offset += total as u64;
        let body = open_body(body, &self.settings, &mut self.inflater, &mut self.inflated);
        opened(body, start, &mut self.failed)
    }

    /// Records the error that ends the stream, at the current frame's offset.
    fn fail(&mut self, fault: super::parse::Fault) -> FrameError {
        let e = FrameError::from_parts(fault, self.offset);
        self.failed = Some(e.clone());
        e
    }

    /// Moves bytes from `input` into `buf`: the Length one byte at a time (so that no
    /// byte of the next frame is taken), then the body up to the frame's end. True
    /// when the frame is complete.
    fn fill(&mut self, input: &mut &[u8]) -> Result<bool, FrameError> {
        while self.head.is_none() {
            let Some((&b, rest)) = input.split_first() else {
                return Ok(false);
            };
            self.buf.push(b);
            *input = rest;
            match read_head(&self.buf, self.settings.max_frame()) {
                Err(fault) => return Err(self.fail(fault)),
                Ok(Head::Incomplete) => {}
                Ok(Head::Frame { header, length }) => self.head = Some((header, header + length)),
            }
        }
        let (_, total) = self.head.expect("the length is known");
        let take = (total - self.buf.len()).min(input.len());
        if self.buf.capacity() < self.buf.len() + take {
            // Grow geometrically but never past the frame: its length passed the
            // checks, so the buffer stays within max_frame + 3 bytes.
            let want = (self.buf.len() + take)
                .max(self.buf.capacity().max(2048) * 2)
                .min(total);
            self.buf.reserve_exact(want - self.buf.len());
        }
        self.buf.extend_from_slice(&input[..take]);
        *input = &input[take..];
        Ok(self.buf.len() == total)
    }
}

impl core::fmt::Debug for FrameReader {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameReader")
            .field("settings", &self.settings)
            .field("offset", &self.offset)
            .field("buffered", &self.buffered())
            .field("failed", &self.failed)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::FrameEncoder;

    /// A frame trickled in one byte at a time is assembled in a buffer that never holds
    /// more than the frame, and is given back once a large one is done.
    #[test]
    fn the_buffer_holds_at_most_one_frame() {
        let settings = FrameSettings::new().with_max_frame(100_000);
        let mut stream = Vec::new();
        let mut encoder = FrameEncoder::new(settings);
        encoder
            .write_frame(7, &[0x55; 99_000], &mut stream)
            .unwrap();
        encoder.write_frame(8, &[1, 2], &mut stream).unwrap();
        let mut reader = FrameReader::new(settings);
        let mut ids = Vec::new();
        for b in stream.chunks(1) {
            let mut input = b;
            while let Some(f) = reader.next_frame(&mut input).unwrap() {
                ids.push(f.id);
            }
            assert!(
                reader.buf.capacity() <= 99_000 + 1 + 3,
                "{}",
                reader.buf.capacity()
            );
        }
        assert_eq!(ids, [7, 8]);
        assert!(reader.buf.capacity() <= KEEP_CAPACITY);
        reader.finish().unwrap();
    }

    /// A Length above max_frame is refused before any of the body is buffered.
    #[test]
    fn a_large_length_is_refused_before_buffering() {
        let mut reader = FrameReader::new(FrameSettings::new().with_max_frame(1024));
        let mut input: &[u8] = &[0xff, 0xff, 0x7f];
        let e = reader.next_frame(&mut input).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (FrameErrorKind::FrameTooLarge, 0));
        assert_eq!(reader.buf.capacity(), 0);
    }
}
