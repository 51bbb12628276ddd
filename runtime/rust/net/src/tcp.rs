//! The TCP transport: frames straight on the stream, read into a buffer that holds at
//! most one frame (plus one read), with the idle and frame timeouts.

use std::sync::Arc;

use bitwire::MessageSet;
use bytes::BytesMut;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::time::{sleep_until, timeout, timeout_at, Instant};
use tokio_util::codec::Decoder;

use crate::conn::{Next, Shared};
use crate::{ConnConfig, ConnError, MessageCodec};

/// Bytes read at a time while no frame's length says how many are needed.
const READ: usize = 4096;
/// A buffer that grew for a large frame is given back above this once empty.
const KEEP: usize = 64 * 1024;

/// The deadline of the next read, and the error it gives: the frame timeout while a
/// frame is incomplete, else the idle timeout.
pub(crate) fn deadline(
    config: &ConnConfig,
    last_read: Instant,
    frame_started: Option<Instant>,
) -> Option<(Instant, ConnError)> {
    let idle = config
        .idle_timeout()
        .map(|d| (last_read + d, ConnError::IdleTimeout(d)));
    let frame = frame_started
        .zip(config.frame_timeout())
        .map(|(start, d)| (start + d, ConnError::FrameTimeout(d)));
    match (idle, frame) {
        (Some(i), Some(f)) => Some(if f.0 <= i.0 { f } else { i }),
        (i, f) => i.or(f),
    }
}

pub(crate) struct TcpInbound<M> {
    half: OwnedReadHalf,
    buf: BytesMut,
    codec: MessageCodec<M>,
    last_read: Instant,
    frame_started: Option<Instant>,
}

impl<M: MessageSet> TcpInbound<M> {
    pub(crate) fn new(half: OwnedReadHalf, config: &ConnConfig) -> Self {
        TcpInbound {
            half,
            buf: BytesMut::with_capacity(READ),
            codec: MessageCodec::new(*config.frame()),
            last_read: Instant::now(),
            frame_started: None,
        }
    }

    pub(crate) async fn recv(&mut self, shared: &Shared) -> Result<Option<M>, ConnError> {
        loop {
            if let Some(message) = self.codec.decode(&mut self.buf)? {
                // Bytes after the frame are the start of the next one.
                self.frame_started = (!self.buf.is_empty()).then_some(self.last_read);
                return Ok(Some(message));
            }
            if self.buf.is_empty() {
                self.frame_started = None;
                if self.buf.capacity() > KEEP {
                    self.buf = BytesMut::with_capacity(READ);
                }
            } else if self.frame_started.is_none() {
                self.frame_started = Some(self.last_read);
            }
            // Once a frame's length is known the codec made room for exactly that
            // frame; before, the buffer holds at most two bytes of a Length.
            if self.buf.len() == self.buf.capacity() {
                self.buf.reserve(READ);
            }
            let deadline = deadline(&shared.config, self.last_read, self.frame_started);
            let at = deadline.as_ref().map(|d| d.0);
            tokio::select! {
                biased;
                _ = shared.ended() => return Err(shared.take_error()),
                read = self.half.read_buf(&mut self.buf) => match read {
                    Ok(0) => return self.codec.decode_eof(&mut self.buf),
                    Ok(_) => self.last_read = Instant::now(),
                    Err(e) => return Err(e.into()),
                },
                _ = sleep_until(at.unwrap_or_else(Instant::now)), if at.is_some() => {
                    return Err(deadline.expect("a deadline").1);
                }
            }
        }
    }
}

/// The writer task: drains the queue into the socket; each write may take at most the
/// idle timeout (a peer that accepts no bytes for that long is gone), and closing at
/// most the frame timeout.
pub(crate) async fn write(shared: Arc<Shared>, mut half: OwnedWriteHalf) {
    let config = shared.config;
    let mut closing_by: Option<Instant> = None;
    loop {
        match shared.next().await {
            Next::Stop => return,
            Next::Close => {
                let _ = timeout(config.grace(), half.shutdown()).await;
                return;
            }
            Next::Frames(frames) => {
                for frame in frames {
                    let limit = match (closing_by, config.idle_timeout()) {
                        (Some(by), _) => Some(by),
                        (None, Some(idle)) => Some(Instant::now() + idle),
                        (None, None) => None,
                    };
                    let written = tokio::select! {
                        _ = shared.cancel.cancelled() => return,
                        r = write_by(&mut half, &frame, limit) => r,
                    };
                    if let Err(e) = written {
                        shared.fail(ConnError::Io(e));
                        return;
                    }
                    shared.written(frame.len());
                }
                if closing_by.is_none() && shared.is_closing() {
                    closing_by = Some(Instant::now() + config.grace());
                }
            }
        }
    }
}

async fn write_by(
    half: &mut OwnedWriteHalf,
    frame: &[u8],
    by: Option<Instant>,
) -> std::io::Result<()> {
    match by {
        None => half.write_all(frame).await,
        Some(by) => timeout_at(by, half.write_all(frame))
            .await
            .unwrap_or_else(|_| {
                Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the peer reads nothing",
                ))
            }),
    }
}
