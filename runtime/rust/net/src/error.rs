//! Why a connection closed: a malformed frame (the kinds of docs/framing.md §7) or one
//! of the transport's own reasons.

use std::fmt;
use std::io;
use std::time::Duration;

use bitwire::frame::FrameError;

/// Why a [`Connection`](crate::Connection) (or a codec) stopped. After any of these the
/// connection is closed; the next `recv` or `send` returns [`ConnError::Closed`].
#[derive(Debug)]
#[non_exhaustive]
pub enum ConnError {
    /// The peer sent a malformed frame (the kind, the byte offset of the frame in the
    /// stream — for WebSocket, in its message — and the detail).
    Frame {
        /// The frame error.
        error: FrameError,
        /// Over WebSocket: the index of the message that held the frame.
        ws_message: Option<u64>,
    },
    /// A message to send could not be framed (it does not encode, or its frame would
    /// be above `max_frame`); the connection stays open.
    Encode(FrameError),
    /// The socket failed.
    Io(io::Error),
    /// The peer sent nothing for the idle timeout.
    IdleTimeout(Duration),
    /// The peer started a frame and did not complete it within the frame timeout.
    FrameTimeout(Duration),
    /// A send would have queued more than `max_send_queue` bytes for a peer that does
    /// not read: the connection is closed.
    SendQueueFull {
        /// Bytes already queued.
        queued: usize,
        /// Bytes of the frame that did not fit.
        frame: usize,
        /// The limit.
        max: usize,
    },
    /// A WebSocket protocol violation, a text message, or a message above
    /// `max_frame + 3` bytes.
    WebSocket(String),
    /// The connection is closed (by either end, or after an earlier error).
    Closed,
    /// The server is shutting down.
    Shutdown,
}

impl ConnError {
    /// The frame error, when the peer sent a malformed frame.
    pub fn frame_error(&self) -> Option<&FrameError> {
        match self {
            ConnError::Frame { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<io::Error> for ConnError {
    fn from(e: io::Error) -> Self {
        ConnError::Io(e)
    }
}

impl From<FrameError> for ConnError {
    fn from(error: FrameError) -> Self {
        ConnError::Frame {
            error,
            ws_message: None,
        }
    }
}

impl fmt::Display for ConnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConnError::Frame {
                error,
                ws_message: None,
            } => write!(f, "malformed frame: {error}"),
            ConnError::Frame {
                error,
                ws_message: Some(i),
            } => write!(f, "malformed frame in WebSocket message {i}: {error}"),
            ConnError::Encode(e) => write!(f, "cannot frame the message: {e}"),
            ConnError::Io(e) => write!(f, "I/O error: {e}"),
            ConnError::IdleTimeout(d) => write!(f, "idle timeout: nothing received for {d:?}"),
            ConnError::FrameTimeout(d) => {
                write!(
                    f,
                    "frame timeout: a frame started and not completed within {d:?}"
                )
            }
            ConnError::SendQueueFull { queued, frame, max } => write!(
                f,
                "send queue full: {queued} bytes queued, a frame of {frame} does not fit in {max}"
            ),
            ConnError::WebSocket(why) => write!(f, "WebSocket: {why}"),
            ConnError::Closed => f.write_str("the connection is closed"),
            ConnError::Shutdown => f.write_str("the server is shutting down"),
        }
    }
}

impl std::error::Error for ConnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConnError::Frame { error, .. } | ConnError::Encode(error) => Some(error),
            ConnError::Io(e) => Some(e),
            _ => None,
        }
    }
}
