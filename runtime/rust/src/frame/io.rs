//! Blocking `std::io` adapters (feature `std`): frames from any [`Read`], frames to
//! any [`Write`], with the same rules and limits as [`FrameReader`](super::FrameReader).

use std::io::{self, Read, Write};
use std::vec::Vec;

use super::error::{FrameDetail, FrameError, FrameErrorKind};
use super::parse::{open_body, read_head, Head};
use super::reader::opened;
use super::zlib::Inflater;
use super::{Frame, FrameEncoder, FrameSettings, MessageSet};

/// Bytes asked of the reader at a time.
const READ_CHUNK: usize = 8 * 1024;

/// Why reading or writing a stream of frames stopped.
#[derive(Debug)]
#[non_exhaustive]
pub enum StreamError {
    /// A malformed frame (or, when writing, a message that cannot be framed).
    Frame(FrameError),
    /// The underlying reader or writer failed.
    Io(io::Error),
}

impl From<FrameError> for StreamError {
    fn from(e: FrameError) -> Self {
        StreamError::Frame(e)
    }
}

impl From<io::Error> for StreamError {
    fn from(e: io::Error) -> Self {
        StreamError::Io(e)
    }
}

impl core::fmt::Display for StreamError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StreamError::Frame(e) => e.fmt(f),
            StreamError::Io(e) => write!(f, "I/O error: {e}"),
        }
    }
}

impl std::error::Error for StreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StreamError::Frame(e) => Some(e),
            StreamError::Io(e) => Some(e),
        }
    }
}

/// Reads frames from a blocking reader (a `TcpStream`, a file, stdin).
///
/// ```
/// use bitwire::frame::{FrameRead, FrameSettings};
///
/// let stream: &[u8] = &[0x01, 0x00, 0x03, 0xac, 0x02, 0x07];
/// let mut frames = FrameRead::new(stream, FrameSettings::new());
/// assert_eq!(frames.read_frame()?.map(|f| f.id), Some(0));
/// assert_eq!(frames.read_frame()?.map(|f| (f.id, f.data.to_vec())), Some((300, vec![7])));
/// assert!(frames.read_frame()?.is_none()); // the stream ended between frames
/// # Ok::<(), bitwire::frame::StreamError>(())
/// ```
pub struct FrameRead<R> {
    inner: R,
    settings: FrameSettings,
    /// Bytes read and not yet consumed: `buf[pos..]`.
    buf: Vec<u8>,
    pos: usize,
    /// Stream offset of `buf[pos]`.
    offset: u64,
    inflater: Inflater,
    inflated: Vec<u8>,
    failed: Option<FrameError>,
}

impl<R: Read> FrameRead<R> {
    /// Frames from `inner`.
    pub fn new(inner: R, settings: FrameSettings) -> FrameRead<R> {
        FrameRead {
            inner,
            settings,
            buf: Vec::new(),
            pos: 0,
            offset: 0,
            inflater: Inflater::default(),
            inflated: Vec::new(),
            failed: None,
        }
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The next frame, or `None` when the stream ends between frames. The stream
    /// ending inside a frame is `Truncated`; after a frame error every call returns it.
    pub fn read_frame(&mut self) -> Result<Option<Frame<'_>>, StreamError> {
        if let Some(e) = &self.failed {
            return Err(e.clone().into());
        }
        // The Length, then the whole frame, in the buffer.
        let (header, total) = loop {
            match read_head(&self.buf[self.pos..], self.settings.max_frame()) {
                Err(fault) => return Err(self.fail(FrameError::from_parts(fault, self.offset))),
                Ok(Head::Frame { header, length }) => break (header, header + length),
                Ok(Head::Incomplete) => {
                    if !self.fill(1)? {
                        return self.end(None).map(|()| None);
                    }
                }
            }
        };
        while self.buf.len() - self.pos < total {
            if !self.fill(total)? {
                return self.end(Some(total)).map(|()| None);
            }
        }
        let start = self.offset;
        let body = self.pos + header..self.pos + total;
        self.pos += total;
        self.offset += total as u64;
        let body = open_body(
            &self.buf[body],
            &self.settings,
            &mut self.inflater,
            &mut self.inflated,
        );
        opened(body, start, &mut self.failed).map_err(Into::into)
    }

    /// The next frame decoded as a message of `M`, or `None` at the end of the stream.
    pub fn read_message<M: MessageSet>(&mut self) -> Result<Option<M>, StreamError> {
        let limits = *self.settings.limits();
        let result = match self.read_frame()? {
            None => return Ok(None),
            Some(frame) => M::from_frame(&frame, &limits),
        };
        result.map(Some).map_err(|e| self.fail(e))
    }

    fn fail(&mut self, e: FrameError) -> StreamError {
        self.failed = Some(e.clone());
        e.into()
    }

    /// The reader reached its end with `buf[pos..]` unconsumed.
    fn end(&mut self, need: Option<usize>) -> Result<(), StreamError> {
        let have = self.buf.len() - self.pos;
        if have == 0 {
            return Ok(());
        }
        let e = FrameError::new(FrameErrorKind::Truncated, self.offset).with_detail(
            FrameDetail::Truncated {
                have: have as u64,
                need: need.map(|n| n as u64),
            },
        );
        Err(self.fail(e))
    }

    /// Reads more bytes, keeping at most `want` (≥ the unconsumed bytes) plus one
    /// chunk buffered; false at the end of the stream.
    fn fill(&mut self, want: usize) -> Result<bool, StreamError> {
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        let have = self.buf.len();
        // The rest of the frame being read (whose length passed its checks), or one
        // chunk: at most max_frame + 3 + READ_CHUNK bytes are ever buffered.
        let room = want.saturating_sub(have).max(READ_CHUNK);
        self.buf.resize(have + room, 0);
        let n = loop {
            match self.inner.read(&mut self.buf[have..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(have);
                    return Err(e.into());
                }
            }
        };
        self.buf.truncate(have + n);
        Ok(n > 0)
    }
}

/// Writes frames to a blocking writer, one `write_all` per frame. Wrap a `TcpStream`
/// in a `BufWriter` to batch small frames, and flush.
///
/// ```
/// use bitwire::frame::{FrameSettings, FrameWrite};
///
/// let mut out = FrameWrite::new(Vec::new(), FrameSettings::new());
/// out.write_frame(300, &[7])?;
/// assert_eq!(out.get_ref(), &[0x03, 0xac, 0x02, 0x07]);
/// # Ok::<(), bitwire::frame::StreamError>(())
/// ```
pub struct FrameWrite<W> {
    inner: W,
    encoder: FrameEncoder,
    buf: Vec<u8>,
}

impl<W: Write> FrameWrite<W> {
    /// Frames to `inner`.
    pub fn new(inner: W, settings: FrameSettings) -> FrameWrite<W> {
        FrameWrite {
            inner,
            encoder: FrameEncoder::new(settings),
            buf: Vec::new(),
        }
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The underlying writer, mutably.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// Writes the frame of PacketID `id` and bytes `data`.
    pub fn write_frame(&mut self, id: u32, data: &[u8]) -> Result<(), StreamError> {
        self.buf.clear();
        self.encoder.write_frame(id, data, &mut self.buf)?;
        Ok(self.inner.write_all(&self.buf)?)
    }

    /// Writes the frame of `message`.
    pub fn write_message<M: MessageSet>(&mut self, message: &M) -> Result<(), StreamError> {
        self.buf.clear();
        self.encoder.write_message(message, &mut self.buf)?;
        Ok(self.inner.write_all(&self.buf)?)
    }

    /// Flushes the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
