//! The settings of a connection (docs/framing.md §6.3): its frames', and the limits
//! that bound its memory and time.

use std::time::Duration;

use bitwire::frame::FrameSettings;

/// How a [`Connection`](crate::Connection) reads and writes: the frame settings and
/// the limits that bound its memory and time, whatever the peer does.
///
/// - `idle_timeout`: the peer sent nothing for this long (default 60 s);
/// - `frame_timeout`: a frame (or WebSocket message) the peer started did not
///   complete in this long, a slow-loris sender (default 10 s); also the time a
///   WebSocket handshake and a graceful close may take;
/// - `max_send_queue`: bytes of frames queued for a peer that does not read them fast
///   enough; a send that would go over closes the connection with
///   [`ConnError::SendQueueFull`](crate::ConnError::SendQueueFull) (default 4 MiB).
///
/// A connection holds at most about `max_frame + 3` bytes of a frame being read (plus
/// one read buffer), `max_data` bytes of an inflated body and `max_send_queue` bytes of
/// frames to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnConfig {
    frame: FrameSettings,
    idle_timeout: Option<Duration>,
    frame_timeout: Option<Duration>,
    max_send_queue: usize,
}

impl ConnConfig {
    /// The defaults: [`FrameSettings::DEFAULT`], idle 60 s, frame 10 s, 4 MiB queue.
    pub const fn new() -> ConnConfig {
        ConnConfig {
            frame: FrameSettings::DEFAULT,
            idle_timeout: Some(Duration::from_secs(60)),
            frame_timeout: Some(Duration::from_secs(10)),
            max_send_queue: 4 << 20,
        }
    }

    /// The frames' settings (threshold, max_frame, max_data, decode limits).
    pub const fn with_frame(mut self, frame: FrameSettings) -> ConnConfig {
        self.frame = frame;
        self
    }

    /// Closes a connection whose peer sends nothing for this long (`None`: never).
    pub const fn with_idle_timeout(mut self, timeout: Option<Duration>) -> ConnConfig {
        self.idle_timeout = timeout;
        self
    }

    /// Closes a connection whose peer takes longer than this to complete a frame it
    /// started (`None`: never).
    pub const fn with_frame_timeout(mut self, timeout: Option<Duration>) -> ConnConfig {
        self.frame_timeout = timeout;
        self
    }

    /// The most bytes of frames queued for sending.
    pub const fn with_max_send_queue(mut self, bytes: usize) -> ConnConfig {
        self.max_send_queue = bytes;
        self
    }

    /// The frames' settings.
    pub const fn frame(&self) -> &FrameSettings {
        &self.frame
    }

    /// The idle timeout.
    pub const fn idle_timeout(&self) -> Option<Duration> {
        self.idle_timeout
    }

    /// The frame timeout.
    pub const fn frame_timeout(&self) -> Option<Duration> {
        self.frame_timeout
    }

    /// The send queue's limit in bytes.
    pub const fn max_send_queue(&self) -> usize {
        self.max_send_queue
    }

    /// How long a handshake or a graceful close may take: the frame timeout, or 10 s.
    pub(crate) fn grace(&self) -> std::time::Duration {
        self.frame_timeout.unwrap_or(Duration::from_secs(10))
    }
}

impl Default for ConnConfig {
    fn default() -> Self {
        ConnConfig::new()
    }
}
