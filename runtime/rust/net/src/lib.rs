//! bitwire frames (docs/framing.md) over tokio: the tokio-util codecs, a
//! [`Connection`] that sends and receives a schema's messages with bounded memory and
//! timeouts over TCP or WebSocket, and a [`Server`] that accepts connections and runs
//! one task per connection until it is shut down.
//!
//! Every byte of framing goes through the one framer of the `bitwire` crate
//! ([`bitwire::frame`]); this crate adds transports. The `bitwire` crate stays `no_std`;
//! this one needs std and tokio (docs/adr/0011-rust-networking-crate.md says why it is a
//! separate crate).
//!
//! With `arena` the module generated from `examples/net/arena.bw` (the complete
//! program is `examples/net/rust`):
//!
//! ```ignore
//! use bitwire_net::{ConnConfig, Connection, Server};
//! use tokio::net::TcpListener;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let server = Server::new(ConnConfig::new());
//! let listener = TcpListener::bind("127.0.0.1:0").await?;
//! let addr = listener.local_addr()?;
//! // An echo server: every message goes back to its sender.
//! let serve = server.serve_tcp(listener, |mut conn: Connection<arena::Message>| async move {
//!     while let Ok(Some(message)) = conn.recv().await {
//!         if conn.send(&message).is_err() {
//!             break;
//!         }
//!     }
//! });
//! tokio::spawn(serve);
//!
//! let mut client = Connection::<arena::Message>::connect_tcp(addr, ConnConfig::new()).await?;
//! client.send(&arena::Say { text: "hi".into() }.into())?;
//! let echo = client.recv().await?; // Some(Message::Say(..))
//! # Ok(())
//! # }
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod codec;
mod config;
mod conn;
mod error;
mod server;
mod tcp;
#[cfg(feature = "websocket")]
mod ws;

pub use bitwire::frame::{FrameError, FrameErrorKind, FrameSettings};
pub use bytes::Bytes;
pub use codec::{FrameCodec, MessageCodec, RawFrame};
pub use config::ConnConfig;
pub use conn::{Connection, Sender};
pub use error::ConnError;
pub use server::Server;
#[cfg(feature = "websocket")]
pub use tokio_tungstenite;
