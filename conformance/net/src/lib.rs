//! Helpers of the network tests: the generated code of the frame vectors' schema and
//! of the arena, the vector file, and small socket utilities.

use serde_json::Value;

bitwire::include_schema!(
    /// `testdata/vectors/frames/frames.bw`.
    pub mod frames
);
bitwire::include_schema!(
    /// `examples/net/arena.bw`.
    pub mod arena
);

use bitwire::frame::FrameSettings;
use frames::Message;

/// The cases of `testdata/vectors/frames/frames.json`.
pub fn cases() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/vectors/frames/frames.json"
    );
    let text = std::fs::read_to_string(path).expect("frames.json");
    let suite: Value = serde_json::from_str(&text).expect("frames.json is JSON");
    suite["cases"].as_array().expect("cases").clone()
}

/// A case's frame settings.
pub fn settings(case: &Value) -> FrameSettings {
    FrameSettings::new()
        .with_threshold(case["threshold"].as_u64().map(|t| t as u32))
        .with_max_frame(case["max_frame"].as_u64().expect("max_frame") as u32)
        .with_max_data(case["max_data"].as_u64().expect("max_data") as u32)
}

/// Lowercase hex to bytes.
pub fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The frames a case lists: id and data.
pub fn listed(case: &Value) -> Vec<(u32, Vec<u8>)> {
    case["frames"]
        .as_array()
        .map(|frames| {
            frames
                .iter()
                .map(|f| {
                    (
                        f["id"].as_u64().unwrap() as u32,
                        hex(f["data"].as_str().unwrap()),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Whether every listed frame decodes as a message of `frames.bw` (Minecraft's
/// handshake does not).
pub fn all_typed(case: &Value) -> bool {
    case["frames"]
        .as_array()
        .is_none_or(|frames| frames.iter().all(|f| f.get("type").is_some()))
}

/// The vector's error (`kind`, `offset`), or `None` for a clean end.
pub fn end(case: &Value) -> Option<(String, u64)> {
    let end = &case["end"];
    end.get("kind").map(|k| {
        (
            k.as_str().unwrap().to_string(),
            end["offset"].as_u64().unwrap(),
        )
    })
}

/// The message a listed frame decodes to.
pub fn message_of(id: u32, data: &[u8]) -> Message {
    let frame = bitwire::frame::Frame {
        id,
        data,
        offset: 0,
    };
    frame
        .message(&FrameSettings::new())
        .expect("a listed frame decodes")
}

/// A server for fault tests: every message is echoed back to its sender, and how
/// each connection ended (`Ok(())` for a clean end) goes to the returned channel.
pub mod echo {
    use std::net::SocketAddr;

    use bitwire::MessageSet;
    use bitwire_net::{ConnConfig, ConnError, Connection, Server};
    use tokio::net::TcpListener;
    use tokio::sync::mpsc;

    /// A running echo server.
    pub struct Echo {
        /// The server (shut it down with `server.shutdown`).
        pub server: Server,
        /// Its TCP address.
        pub tcp: SocketAddr,
        /// Its WebSocket address.
        pub ws: SocketAddr,
        /// How each connection ended.
        pub ends: mpsc::UnboundedReceiver<Result<(), ConnError>>,
    }

    /// Starts an echo server for messages of `M` with `config`.
    pub async fn start<M: MessageSet + Send + 'static>(config: ConnConfig) -> Echo {
        let server = Server::new(config);
        let (tx, ends) = mpsc::unbounded_channel();
        let (tcp, ws) = (
            TcpListener::bind("127.0.0.1:0").await.unwrap(),
            TcpListener::bind("127.0.0.1:0").await.unwrap(),
        );
        let (tcp_addr, ws_addr) = (tcp.local_addr().unwrap(), ws.local_addr().unwrap());
        let handler = move |mut conn: Connection<M>| {
            let tx = tx.clone();
            async move {
                let end = loop {
                    match conn.recv().await {
                        Ok(Some(m)) => {
                            if let Err(e) = conn.send(&m) {
                                break Err(e);
                            }
                        }
                        Ok(None) => break Ok(()),
                        Err(e) => break Err(e),
                    }
                };
                let _ = tx.send(end);
            }
        };
        tokio::spawn({
            let (server, handler) = (server.clone(), handler.clone());
            async move { server.serve_tcp(tcp, handler).await }
        });
        tokio::spawn({
            let server = server.clone();
            async move { server.serve_ws(ws, handler).await }
        });
        Echo {
            server,
            tcp: tcp_addr,
            ws: ws_addr,
            ends,
        }
    }
}
