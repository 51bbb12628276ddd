//! The WebSocket transport (docs/framing.md §5): one frame per binary message, a text
//! message closes the connection (1003), a message above `max_frame + 3` bytes too
//! (1009, tungstenite's limit, set before it buffers a message). The idle and frame
//! timeouts are measured on the TCP bytes under the WebSocket, through [`Activity`].

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bitwire::frame::FrameReader;
use bitwire::MessageSet;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio::time::{sleep_until, timeout, timeout_at, Instant};
use tokio_tungstenite::tungstenite::error::Error as WsError;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;
use tokio_util::sync::CancellationToken;

use crate::conn::{Next, Shared, CLOSE_PROTOCOL, CLOSE_TOO_BIG, CLOSE_UNSUPPORTED};
use crate::tcp::deadline;
use crate::{ConnConfig, ConnError, Connection};

type Ws = WebSocketStream<Activity>;

/// When bytes last arrived, and since when a message has been arriving.
struct Times {
    last: Instant,
    started: Option<Instant>,
}

/// The TCP stream under a WebSocket, recording when bytes arrive: the idle and frame
/// timeouts need what tungstenite does not tell (a message that has started).
pub(crate) struct Activity {
    inner: TcpStream,
    times: Arc<Mutex<Times>>,
    started: Arc<Notify>,
}

impl AsyncRead for Activity {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(poll, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            let now = Instant::now();
            let mut t = self.times.lock().unwrap_or_else(|p| p.into_inner());
            t.last = now;
            if t.started.is_none() {
                t.started = Some(now);
                self.started.notify_one();
            }
        }
        poll
    }
}

impl AsyncWrite for Activity {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// tungstenite's limits: a message or frame of at most one bitwire frame; read and
/// write buffers of 16 KiB instead of 128 KiB each (a server holds one pair per
/// connection; the send queue is bitwire's own).
fn ws_config(config: &ConnConfig) -> WebSocketConfig {
    let max = config.frame().max_frame_bytes();
    WebSocketConfig::default()
        .max_message_size(Some(max))
        .max_frame_size(Some(max))
        .read_buffer_size(16 * 1024)
        .write_buffer_size(16 * 1024)
}

pub(crate) struct WsInbound<M> {
    stream: SplitStream<Ws>,
    reader: FrameReader,
    times: Arc<Mutex<Times>>,
    started: Arc<Notify>,
    /// Index of the next message.
    index: u64,
    /// Bytes after the frame of the last message (reported after its frame).
    pending: Option<bitwire::frame::FrameError>,
    /// The peer sent a message above the limit (close code 1009) or a text message
    /// (1003).
    oversized: bool,
    text: bool,
    _messages: std::marker::PhantomData<fn() -> M>,
}

impl<M: MessageSet> WsInbound<M> {
    /// The next message; a protocol violation also tells the writer which close code
    /// to send (framing.md §5).
    pub(crate) async fn recv(&mut self, shared: &Shared) -> Result<Option<M>, ConnError> {
        let result = self.next_message(shared).await;
        if let Err(e) = &result {
            let code = match e {
                ConnError::Frame { .. } => Some(CLOSE_PROTOCOL),
                ConnError::WebSocket(_) if self.oversized => Some(CLOSE_TOO_BIG),
                ConnError::WebSocket(_) if self.text => Some(CLOSE_UNSUPPORTED),
                ConnError::WebSocket(_) => Some(CLOSE_PROTOCOL),
                _ => None,
            };
            if code.is_some() {
                shared.close(code);
            }
        }
        result
    }

    async fn next_message(&mut self, shared: &Shared) -> Result<Option<M>, ConnError> {
        if let Some(error) = self.pending.take() {
            return Err(ConnError::Frame {
                error,
                ws_message: Some(self.index - 1),
            });
        }
        loop {
            let (last, started) = {
                let t = self.times.lock().unwrap_or_else(|p| p.into_inner());
                (t.last, t.started)
            };
            let deadline = deadline(&shared.config, last, started);
            let at = deadline.as_ref().map(|d| d.0);
            let message = tokio::select! {
                biased;
                _ = shared.ended() => return Err(shared.take_error()),
                m = self.stream.next() => m,
                // A message started: its frame timeout now applies.
                _ = self.started.notified() => continue,
                _ = sleep_until(at.unwrap_or_else(Instant::now)), if at.is_some() => {
                    return Err(deadline.expect("a deadline").1);
                }
            };
            match message {
                None | Some(Err(WsError::ConnectionClosed | WsError::AlreadyClosed)) => {
                    return Ok(None)
                }
                Some(Err(WsError::Capacity(e))) => {
                    return Err(ConnError::WebSocket(format!("message too big: {e}")))
                }
                Some(Err(WsError::Io(e))) => return Err(ConnError::Io(e)),
                Some(Err(e)) => return Err(ConnError::WebSocket(e.to_string())),
                Some(Ok(Message::Binary(bytes))) => {
                    self.times.lock().unwrap_or_else(|p| p.into_inner()).started = None;
                    return self.decode(&bytes, shared).map(Some);
                }
                Some(Ok(Message::Text(_))) => {
                    self.text = true;
                    return Err(ConnError::WebSocket(
                        "a text message (frames travel in binary messages)".into(),
                    ));
                }
                Some(Ok(Message::Close(_))) => return Ok(None),
                // Pings are answered by tungstenite.
                Some(Ok(_)) => {
                    self.times.lock().unwrap_or_else(|p| p.into_inner()).started = None;
                }
            }
        }
    }

    fn decode(&mut self, bytes: &[u8], shared: &Shared) -> Result<M, ConnError> {
        let index = self.index;
        self.index += 1;
        let at = |error| ConnError::Frame {
            error,
            ws_message: Some(index),
        };
        let (frame, rest) = self.reader.message_frame(bytes).map_err(at)?;
        let message = M::from_frame(&frame, shared.config.frame().limits()).map_err(at)?;
        self.pending = rest.err();
        Ok(message)
    }
}

/// The writer task: one binary message per frame.
async fn write(shared: Arc<Shared>, mut sink: SplitSink<Ws, Message>) {
    let config = shared.config;
    loop {
        match shared.next().await {
            Next::Stop => return,
            Next::Close => {
                // A clean close says so (1000): a close frame without a code reads as
                // 1005 "no status", which some peers report as an error.
                let frame = Some(CloseFrame {
                    code: CloseCode::from(shared.close_code().unwrap_or(1000)),
                    reason: "".into(),
                });
                let _ = timeout(config.grace(), async {
                    let _ = sink.send(Message::Close(frame)).await;
                    let _ = sink.close().await;
                })
                .await;
                return;
            }
            Next::Frames(frames) => {
                let by = Instant::now() + config.idle_timeout().unwrap_or(config.grace());
                let bytes: usize = frames.iter().map(|f| f.len()).sum();
                let sent = tokio::select! {
                    _ = shared.cancel.cancelled() => return,
                    r = timeout_at(by, async {
                        for frame in frames {
                            sink.feed(Message::Binary(frame)).await?;
                        }
                        sink.flush().await
                    }) => r,
                };
                match sent {
                    Ok(Ok(())) => shared.written(bytes),
                    Ok(Err(e)) => return shared.fail(ConnError::WebSocket(e.to_string())),
                    Err(_) => return shared.fail(ConnError::Io(io::ErrorKind::TimedOut.into())),
                }
            }
        }
    }
}

impl<M: MessageSet + Send + 'static> Connection<M> {
    /// Connects to a WebSocket server (`ws://host:port/path`).
    pub async fn connect_ws(url: &str, config: ConnConfig) -> Result<Self, ConnError> {
        let uri: tokio_tungstenite::tungstenite::http::Uri = url
            .parse()
            .map_err(|e| ConnError::WebSocket(format!("bad URL {url}: {e}")))?;
        let host = uri
            .host()
            .ok_or_else(|| ConnError::WebSocket(format!("no host in {url}")))?;
        let port = uri.port_u16().unwrap_or(80);
        let tcp = TcpStream::connect((host, port)).await?;
        let (stream, times, started) = activity(tcp)?;
        let handshake =
            tokio_tungstenite::client_async_with_config(url, stream, Some(ws_config(&config)));
        let (ws, _) = timeout(config.grace(), handshake)
            .await
            .map_err(|_| ConnError::FrameTimeout(config.grace()))?
            .map_err(|e| ConnError::WebSocket(e.to_string()))?;
        Ok(Connection::over_ws(
            ws,
            config,
            CancellationToken::new(),
            times,
            started,
        ))
    }

    /// Accepts a WebSocket connection on an accepted TCP stream (the handshake may
    /// take at most the frame timeout); `shutdown` ends it.
    pub async fn accept_ws(
        tcp: TcpStream,
        config: ConnConfig,
        shutdown: CancellationToken,
    ) -> Result<Self, ConnError> {
        let (stream, times, started) = activity(tcp)?;
        let handshake =
            tokio_tungstenite::accept_async_with_config(stream, Some(ws_config(&config)));
        let ws = timeout(config.grace(), handshake)
            .await
            .map_err(|_| ConnError::FrameTimeout(config.grace()))?
            .map_err(|e| ConnError::WebSocket(e.to_string()))?;
        Ok(Connection::over_ws(ws, config, shutdown, times, started))
    }

    fn over_ws(
        ws: Ws,
        config: ConnConfig,
        shutdown: CancellationToken,
        times: Arc<Mutex<Times>>,
        started: Arc<Notify>,
    ) -> Self {
        let peer: SocketAddr = ws
            .get_ref()
            .inner
            .peer_addr()
            .unwrap_or_else(|_| SocketAddr::from(([0, 0, 0, 0], 0)));
        times.lock().unwrap_or_else(|p| p.into_inner()).started = None;
        let shared = Shared::new(config, shutdown);
        let (sink, stream) = ws.split();
        let writer = tokio::spawn(write(shared.clone(), sink));
        let inbound = WsInbound {
            stream,
            reader: FrameReader::new(*config.frame()),
            times,
            started,
            index: 0,
            pending: None,
            oversized: false,
            text: false,
            _messages: std::marker::PhantomData,
        };
        Connection::assemble(Connection::ws_inbound(inbound), shared, writer, peer)
    }
}

type Activated = (Activity, Arc<Mutex<Times>>, Arc<Notify>);

fn activity(tcp: TcpStream) -> Result<Activated, ConnError> {
    tcp.set_nodelay(true)?;
    let times = Arc::new(Mutex::new(Times {
        last: Instant::now(),
        started: None,
    }));
    let started = Arc::new(Notify::new());
    let stream = Activity {
        inner: tcp,
        times: times.clone(),
        started: started.clone(),
    };
    Ok((stream, times, started))
}
