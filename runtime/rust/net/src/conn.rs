//! A connection carrying a schema's messages in frames, over TCP or WebSocket: `recv`
//! in one task, `send` from any (through cloneable [`Sender`]s) into a bounded queue
//! that a writer task drains. Memory and time are bounded by [`ConnConfig`].

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use bitwire::frame::FrameEncoder;
use bitwire::MessageSet;
use bytes::Bytes;
use tokio::net::{TcpStream, ToSocketAddrs};
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::tcp::TcpInbound;
use crate::{ConnConfig, ConnError};

/// WebSocket close codes (RFC 6455 §7.4.1) a connection closes with.
#[cfg(feature = "websocket")]
pub(crate) const CLOSE_PROTOCOL: u16 = 1002;
#[cfg(feature = "websocket")]
pub(crate) const CLOSE_UNSUPPORTED: u16 = 1003;
#[cfg(feature = "websocket")]
pub(crate) const CLOSE_TOO_BIG: u16 = 1009;

/// The state a connection's halves share.
pub(crate) struct Shared {
    state: Mutex<State>,
    /// Wakes the writer: frames queued, or closing.
    wake: Notify,
    /// Cancelled when the connection ends at once (an error, a full queue).
    pub(crate) cancel: CancellationToken,
    /// The server's shutdown (a token of its own for a client): `recv` ends, the
    /// writer sends what is queued and closes.
    shutdown: CancellationToken,
    encoder: Mutex<FrameEncoder>,
    error: Mutex<Option<ConnError>>,
    pub(crate) config: ConnConfig,
}

#[derive(Default)]
struct State {
    frames: VecDeque<Bytes>,
    /// Bytes queued or being written.
    queued: usize,
    closing: bool,
    close_code: Option<u16>,
}

/// What the writer does next.
pub(crate) enum Next {
    /// Write these frames, then call [`Shared::written`].
    Frames(Vec<Bytes>),
    /// Everything is written: close (with [`Shared::close_code`] over WebSocket).
    Close,
    /// The connection was cancelled: stop now.
    Stop,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves plain data that is still consistent.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    pub(crate) fn new(config: ConnConfig, shutdown: CancellationToken) -> Arc<Shared> {
        Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Notify::new(),
            cancel: CancellationToken::new(),
            shutdown,
            encoder: Mutex::new(FrameEncoder::new(*config.frame())),
            error: Mutex::new(None),
            config,
        })
    }

    /// Ends the connection at once with `e` (reported by the next `recv`).
    pub(crate) fn fail(&self, e: ConnError) {
        let mut error = lock(&self.error);
        if error.is_none() {
            *error = Some(e);
        }
        self.cancel.cancel();
        self.wake.notify_one();
    }

    /// Why the connection ended: the first error, or `Shutdown` / `Closed`.
    pub(crate) fn take_error(&self) -> ConnError {
        lock(&self.error)
            .take()
            .unwrap_or(if self.shutdown.is_cancelled() {
                ConnError::Shutdown
            } else {
                ConnError::Closed
            })
    }

    /// Resolves when the connection ended (an error) or the server shuts down.
    pub(crate) async fn ended(&self) {
        tokio::select! {
            _ = self.cancel.cancelled() => {}
            _ = self.shutdown.cancelled() => {}
        }
    }

    /// Lets the writer send what is queued, then close.
    pub(crate) fn close(&self, code: Option<u16>) {
        let mut st = lock(&self.state);
        if !st.closing {
            st.closing = true;
            st.close_code = code;
        }
        drop(st);
        self.wake.notify_one();
    }

    fn push(&self, frame: Bytes) -> Result<(), ConnError> {
        let mut st = lock(&self.state);
        if st.closing || self.cancel.is_cancelled() {
            return Err(ConnError::Closed);
        }
        let max = self.config.max_send_queue();
        if st.queued + frame.len() > max {
            let (queued, frame) = (st.queued, frame.len());
            drop(st);
            self.fail(ConnError::SendQueueFull { queued, frame, max });
            return Err(ConnError::SendQueueFull { queued, frame, max });
        }
        st.queued += frame.len();
        st.frames.push_back(frame);
        drop(st);
        self.wake.notify_one();
        Ok(())
    }

    /// The writer's next step, waiting for one.
    pub(crate) async fn next(&self) -> Next {
        loop {
            {
                let mut st = lock(&self.state);
                if self.cancel.is_cancelled() {
                    return Next::Stop;
                }
                if !st.frames.is_empty() {
                    return Next::Frames(st.frames.drain(..).collect());
                }
                if st.closing || self.shutdown.is_cancelled() {
                    return Next::Close;
                }
            }
            tokio::select! {
                _ = self.wake.notified() => {}
                _ = self.cancel.cancelled() => return Next::Stop,
                _ = self.shutdown.cancelled() => {}
            }
        }
    }

    /// `n` bytes of frames left the queue.
    pub(crate) fn written(&self, n: usize) {
        let mut st = lock(&self.state);
        st.queued -= n;
    }

    /// The WebSocket close code to close with.
    #[cfg(feature = "websocket")]
    pub(crate) fn close_code(&self) -> Option<u16> {
        lock(&self.state).close_code
    }

    /// Whether the connection is closing (after what is queued).
    pub(crate) fn is_closing(&self) -> bool {
        lock(&self.state).closing
    }

    /// Bytes queued or being written.
    pub(crate) fn queued(&self) -> usize {
        lock(&self.state).queued
    }
}

/// Sends messages on a connection from any task: encodes the frame and queues it
/// without waiting (a game server's tick never blocks on a slow client). Clone it
/// freely; it does not keep the connection open.
pub struct Sender<M> {
    shared: Arc<Shared>,
    _messages: PhantomData<fn(&M)>,
}

impl<M> Clone for Sender<M> {
    fn clone(&self) -> Self {
        Sender {
            shared: self.shared.clone(),
            _messages: PhantomData,
        }
    }
}

impl<M> std::fmt::Debug for Sender<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sender")
            .field("queued", &self.shared.queued())
            .finish()
    }
}

impl<M: MessageSet> Sender<M> {
    /// Queues the frame of `message`. Fails with `Encode` when the message cannot be
    /// framed (the connection stays open), with `SendQueueFull` when the queue would
    /// go over `max_send_queue` (the connection is then closed: the peer does not
    /// read), and with `Closed` after the connection ended.
    pub fn send(&self, message: &M) -> Result<(), ConnError> {
        let mut frame = Vec::new();
        lock(&self.shared.encoder)
            .write_message(message, &mut frame)
            .map_err(ConnError::Encode)?;
        self.shared.push(Bytes::from(frame))
    }

    /// Queues a frame encoded beforehand with the connection's frame settings (a
    /// [`FrameEncoder`] or `encode_frame`): to broadcast one message to many
    /// connections, encode it once.
    pub fn send_frame(&self, frame: Bytes) -> Result<(), ConnError> {
        self.shared.push(frame)
    }

    /// Bytes queued and not yet written to the socket.
    pub fn queued(&self) -> usize {
        self.shared.queued()
    }

    /// Whether the connection has ended or is closing.
    pub fn is_closed(&self) -> bool {
        self.shared.cancel.is_cancelled() || lock(&self.shared.state).closing
    }

    /// Closes the connection after what is queued is written.
    pub fn close(&self) {
        self.shared.close(None);
    }
}

/// The receiving side of the transport.
pub(crate) enum Inbound<M> {
    Tcp(TcpInbound<M>),
    #[cfg(feature = "websocket")]
    Ws(crate::ws::WsInbound<M>),
}

/// A connection that exchanges the messages of a schema (`M`, the generated `Message`
/// enum) in frames over TCP or WebSocket.
///
/// [`recv`](Connection::recv) returns the next message, `Ok(None)` when the peer
/// closed the connection cleanly, or the error that closed it: a malformed frame
/// (with its kind and byte offset), a timeout, a full send queue, an I/O error.
/// [`send`](Connection::send) queues a message; a writer task writes the queue.
/// Dropping the connection (or [`close`](Connection::close)) writes what is queued and
/// closes it.
pub struct Connection<M> {
    inbound: Inbound<M>,
    sender: Sender<M>,
    writer: Option<JoinHandle<()>>,
    peer: SocketAddr,
    /// `recv` returned the end or an error.
    done: Option<bool>,
}

impl<M> std::fmt::Debug for Connection<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("peer", &self.peer)
            .field("queued", &self.sender.shared.queued())
            .finish()
    }
}

impl<M: MessageSet + Send + 'static> Connection<M> {
    /// Connects over TCP.
    pub async fn connect_tcp(
        addr: impl ToSocketAddrs,
        config: ConnConfig,
    ) -> Result<Self, ConnError> {
        let stream = TcpStream::connect(addr).await?;
        Connection::from_tcp(stream, config, CancellationToken::new())
    }

    /// A connection over an accepted or connected TCP stream; `shutdown` ends it (as
    /// a server's shutdown does).
    pub fn from_tcp(
        stream: TcpStream,
        config: ConnConfig,
        shutdown: CancellationToken,
    ) -> Result<Self, ConnError> {
        let peer = stream.peer_addr()?;
        stream.set_nodelay(true)?;
        let shared = Shared::new(config, shutdown);
        let (read, write) = stream.into_split();
        let writer = tokio::spawn(crate::tcp::write(shared.clone(), write));
        Ok(Connection::assemble(
            Inbound::Tcp(TcpInbound::new(read, &config)),
            shared,
            writer,
            peer,
        ))
    }

    pub(crate) fn assemble(
        inbound: Inbound<M>,
        shared: Arc<Shared>,
        writer: JoinHandle<()>,
        peer: SocketAddr,
    ) -> Self {
        Connection {
            inbound,
            sender: Sender {
                shared,
                _messages: PhantomData,
            },
            writer: Some(writer),
            peer,
            done: None,
        }
    }

    /// The next message; `Ok(None)` once the peer has closed the connection. After an
    /// error the connection is closed and every later call returns `Err(Closed)`.
    pub async fn recv(&mut self) -> Result<Option<M>, ConnError> {
        match self.done {
            Some(true) => return Ok(None),
            Some(false) => return Err(ConnError::Closed),
            None => {}
        }
        let shared = &self.sender.shared;
        let result = match &mut self.inbound {
            Inbound::Tcp(t) => t.recv(shared).await,
            #[cfg(feature = "websocket")]
            Inbound::Ws(w) => w.recv(shared).await,
        };
        match &result {
            Ok(Some(_)) => {}
            Ok(None) => {
                self.done = Some(true);
                shared.close(None);
            }
            Err(e) => {
                self.done = Some(false);
                match e {
                    // The writer sends what is queued and closes (over WebSocket with
                    // the close code the transport chose, if any).
                    ConnError::Shutdown | ConnError::Closed => shared.close(None),
                    #[cfg(feature = "websocket")]
                    ConnError::Frame { .. } | ConnError::WebSocket(_) if self.is_ws() => {
                        shared.close(None)
                    }
                    _ => shared.cancel.cancel(),
                }
            }
        }
        result
    }

    #[cfg(feature = "websocket")]
    fn is_ws(&self) -> bool {
        matches!(self.inbound, Inbound::Ws(_))
    }

    /// Queues `message` (see [`Sender::send`]).
    pub fn send(&self, message: &M) -> Result<(), ConnError> {
        self.sender.send(message)
    }

    /// A handle that sends on this connection from other tasks.
    pub fn sender(&self) -> Sender<M> {
        self.sender.clone()
    }

    /// The peer's address.
    pub fn peer_addr(&self) -> SocketAddr {
        self.peer
    }

    /// Writes what is queued, closes the connection (TCP: shuts down the write side;
    /// WebSocket: a close frame) and waits for that, at most the frame timeout.
    pub async fn close(mut self) {
        self.sender.shared.close(None);
        if let Some(writer) = self.writer.take() {
            let grace = self.sender.shared.config.grace() + Duration::from_millis(100);
            let _ = tokio::time::timeout(grace, writer).await;
        }
    }
}

#[cfg(feature = "websocket")]
impl<M> Connection<M> {
    pub(crate) fn ws_inbound(inbound: crate::ws::WsInbound<M>) -> Inbound<M> {
        Inbound::Ws(inbound)
    }
}

impl<M> Drop for Connection<M> {
    fn drop(&mut self) {
        // The writer finishes the queue and closes, within the frame timeout.
        self.sender.shared.close(None);
    }
}
