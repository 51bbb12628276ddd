//! The server helper: accept loops for TCP and WebSocket, one task per connection,
//! graceful shutdown.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use bitwire::MessageSet;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::{ConnConfig, Connection};

/// Accepts connections and runs a handler for each in its own task, until
/// [`shutdown`](Server::shutdown). Cheap to clone (the clones share the shutdown and
/// the connections).
///
/// Each connection has the server's [`ConnConfig`]; a connection that sends a
/// malformed frame, times out or does not read its messages is closed with a typed
/// error by its own `recv` / `send`, and the others go on. On shutdown, every
/// connection's `recv` returns `Err(ConnError::Shutdown)`.
///
/// ```ignore
/// let server = Server::new(ConnConfig::new());
/// tokio::spawn({
///     let server = server.clone();
///     async move { server.serve_tcp(tcp_listener, handle).await }
/// });
/// tokio::spawn({
///     let server = server.clone();
///     async move { server.serve_ws(ws_listener, handle).await }
/// });
/// tokio::signal::ctrl_c().await?;
/// server.shutdown(Duration::from_secs(5)).await;
///
/// async fn handle(mut conn: Connection<game::Message>) {
///     while let Ok(Some(message)) = conn.recv().await { /* ... */ }
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Server {
    config: ConnConfig,
    shutdown: CancellationToken,
    tracker: TaskTracker,
}

impl Server {
    /// A server whose connections use `config`.
    pub fn new(config: ConnConfig) -> Server {
        Server {
            config,
            shutdown: CancellationToken::new(),
            tracker: TaskTracker::new(),
        }
    }

    /// The token that shuts the server down when cancelled.
    pub fn shutdown_token(&self) -> CancellationToken {
        self.shutdown.clone()
    }

    /// Connections being served.
    pub fn connections(&self) -> usize {
        self.tracker.len()
    }

    /// Accepts TCP connections on `listener` until shutdown, running `handler` for
    /// each in a task of its own.
    pub async fn serve_tcp<M, H, F>(&self, listener: TcpListener, handler: H)
    where
        M: MessageSet + Send + 'static,
        H: Fn(Connection<M>) -> F + Send + Sync + 'static,
        F: Future<Output = ()> + Send + 'static,
    {
        let handler = Arc::new(handler);
        while let Some(stream) = self.accept(&listener).await {
            let (config, shutdown) = (self.config, self.shutdown.clone());
            let handler = handler.clone();
            self.tracker.spawn(async move {
                if let Ok(conn) = Connection::from_tcp(stream, config, shutdown) {
                    handler(conn).await;
                }
            });
        }
    }

    /// Accepts WebSocket connections on `listener` (any path) until shutdown, running
    /// `handler` for each in a task of its own after the handshake.
    #[cfg(feature = "websocket")]
    pub async fn serve_ws<M, H, F>(&self, listener: TcpListener, handler: H)
    where
        M: MessageSet + Send + 'static,
        H: Fn(Connection<M>) -> F + Send + Sync + 'static,
        F: Future<Output = ()> + Send + 'static,
    {
        let handler = Arc::new(handler);
        while let Some(stream) = self.accept(&listener).await {
            let (config, shutdown) = (self.config, self.shutdown.clone());
            let handler = handler.clone();
            self.tracker.spawn(async move {
                if let Ok(conn) = Connection::accept_ws(stream, config, shutdown).await {
                    handler(conn).await;
                }
            });
        }
    }

    /// The next accepted stream, or `None` on shutdown. Accept errors (out of file
    /// descriptors, a connection reset before it was accepted) do not stop the server:
    /// it waits a moment and goes on.
    async fn accept(&self, listener: &TcpListener) -> Option<tokio::net::TcpStream> {
        loop {
            tokio::select! {
                _ = self.shutdown.cancelled() => return None,
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => return Some(stream),
                    Err(e) if is_transient(&e) => continue,
                    Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                },
            }
        }
    }

    /// Stops accepting, ends every connection (`recv` returns `Shutdown`) and waits
    /// up to `grace` for their tasks to finish; true when all did.
    pub async fn shutdown(&self, grace: Duration) -> bool {
        self.shutdown.cancel();
        self.tracker.close();
        tokio::time::timeout(grace, self.tracker.wait())
            .await
            .is_ok()
    }
}

fn is_transient(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
    )
}
