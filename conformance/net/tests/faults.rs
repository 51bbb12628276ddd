//! The faults of docs/framing.md §6 against the tokio server over real 127.0.0.1
//! sockets: every malformed class of the vectors, a connection cut mid-frame, a silent
//! peer (idle timeout), slow-loris senders over TCP and WebSocket (frame timeout),
//! WebSocket text and oversized messages, and shutdown. Each closes its one
//! connection with a typed error; the server goes on serving.

use std::time::{Duration, Instant};

use bitwire_net::{ConnConfig, ConnError, Connection, FrameSettings};
use bitwire_net_tests::echo::{self, Echo};
use bitwire_net_tests::frames::{self, Message};
use bitwire_net_tests::{all_typed, cases, end, hex, settings};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::Message as WsMessage;

const BOUND: Duration = Duration::from_secs(10);

/// Reads until the server closes the connection (EOF or reset).
async fn until_closed(tcp: &mut TcpStream) {
    let mut buf = [0u8; 4096];
    let closed = timeout(BOUND, async {
        loop {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    });
    closed.await.expect("the server closes the connection");
}

async fn next_end(echo: &mut Echo) -> Result<(), ConnError> {
    timeout(BOUND, echo.ends.recv())
        .await
        .expect("a connection ends")
        .expect("the server runs")
}

/// A good client exchanges a message, so the server is still serving.
async fn still_serves(echo: &Echo, config: ConnConfig) {
    let mut conn = Connection::<Message>::connect_tcp(echo.tcp, config)
        .await
        .unwrap();
    let ping = Message::from(frames::Wide { v: 42 });
    conn.send(&ping).unwrap();
    assert_eq!(
        timeout(BOUND, conn.recv()).await.unwrap().unwrap(),
        Some(ping)
    );
}

#[tokio::test]
async fn every_malformed_class_closes_its_connection_and_nothing_else() {
    let mut runs = 0;
    for case in cases() {
        let (Some(stream), Some((kind, offset))) = (case.get("stream"), end(&case)) else {
            continue;
        };
        if !all_typed(&case) {
            continue;
        }
        let config = ConnConfig::new().with_frame(settings(&case));
        let mut echo = echo::start::<Message>(config).await;
        let mut tcp = TcpStream::connect(echo.tcp).await.unwrap();
        tcp.write_all(&hex(stream.as_str().unwrap())).await.unwrap();
        if kind == "Truncated" {
            // The stream ends inside the frame: the peer closes its side.
            tcp.shutdown().await.unwrap();
        }
        until_closed(&mut tcp).await;
        let e = next_end(&mut echo)
            .await
            .expect_err("the connection ends in an error");
        let f = e
            .frame_error()
            .unwrap_or_else(|| panic!("{}: {e}", case["id"]));
        assert_eq!(
            (f.kind().name(), f.offset()),
            (kind.as_str(), offset),
            "{}",
            case["id"]
        );
        still_serves(&echo, config).await;
        echo.server.shutdown(BOUND).await;
        runs += 1;
    }
    assert!(runs >= 35, "{runs} malformed classes");
}

#[tokio::test]
async fn a_connection_cut_mid_frame_is_truncated_at_its_frame() {
    let mut echo = echo::start::<Message>(ConnConfig::new()).await;
    // A Ping, then half of a Packet64 frame, then the peer's side closes.
    let mut tcp = TcpStream::connect(echo.tcp).await.unwrap();
    tcp.write_all(&[0x01, 0x00, 0x09, 0x01, 0xa5, 0x2b])
        .await
        .unwrap();
    let mut echoed = [0u8; 2];
    tcp.read_exact(&mut echoed).await.unwrap();
    assert_eq!(echoed, [0x01, 0x00], "the Ping comes back");
    tcp.shutdown().await.unwrap();
    until_closed(&mut tcp).await;
    let e = next_end(&mut echo).await.unwrap_err();
    let f = e.frame_error().expect("a frame error");
    assert_eq!((f.kind().name(), f.offset()), ("Truncated", 2));
    // Cut inside the Length.
    let mut tcp = TcpStream::connect(echo.tcp).await.unwrap();
    tcp.write_all(&[0x80]).await.unwrap();
    drop(tcp);
    let e = next_end(&mut echo).await.unwrap_err();
    assert_eq!(
        e.frame_error().map(|f| (f.kind().name(), f.offset())),
        Some(("Truncated", 0))
    );
    still_serves(&echo, ConnConfig::new()).await;
}

#[tokio::test]
async fn a_silent_peer_hits_the_idle_timeout() {
    let config = ConnConfig::new().with_idle_timeout(Some(Duration::from_millis(200)));
    let mut echo = echo::start::<Message>(config).await;
    let start = Instant::now();
    let mut tcp = TcpStream::connect(echo.tcp).await.unwrap();
    until_closed(&mut tcp).await;
    let e = next_end(&mut echo).await.unwrap_err();
    assert!(matches!(e, ConnError::IdleTimeout(_)), "{e}");
    assert!(
        start.elapsed() >= Duration::from_millis(190),
        "{:?}",
        start.elapsed()
    );
}

/// Sends `bytes` one at a time, every 100 ms, until the server closes.
async fn trickle(tcp: &mut TcpStream, bytes: &[u8]) {
    for &b in bytes {
        if tcp.write_all(&[b]).await.is_err() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_slow_loris_over_tcp_hits_the_frame_timeout() {
    // Each byte keeps the connection from being idle; the frame never completes.
    let config = ConnConfig::new()
        .with_idle_timeout(Some(Duration::from_secs(2)))
        .with_frame_timeout(Some(Duration::from_millis(400)));
    let mut echo = echo::start::<Message>(config).await;
    let mut tcp = TcpStream::connect(echo.tcp).await.unwrap();
    let start = Instant::now();
    trickle(
        &mut tcp,
        &[0x09, 0x01, 0xa5, 0x2b, 0xca, 0x0e, 0x4b, 0x40, 0xe2, 0x04],
    )
    .await;
    let e = next_end(&mut echo).await.unwrap_err();
    assert!(matches!(e, ConnError::FrameTimeout(_)), "{e}");
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "{:?}",
        start.elapsed()
    );
}

#[tokio::test]
async fn a_slow_loris_over_websocket_hits_the_frame_timeout() {
    let config = ConnConfig::new()
        .with_idle_timeout(Some(Duration::from_secs(2)))
        .with_frame_timeout(Some(Duration::from_millis(400)));
    let mut echo = echo::start::<Message>(config).await;
    let mut tcp = TcpStream::connect(echo.ws).await.unwrap();
    let request = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        echo.ws
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    while !response.ends_with(b"\r\n\r\n") {
        let mut b = [0u8; 1];
        tcp.read_exact(&mut b).await.unwrap();
        response.push(b[0]);
    }
    assert!(response.starts_with(b"HTTP/1.1 101"));
    let start = Instant::now();
    // A masked binary message of 10 bytes, one byte every 100 ms.
    trickle(
        &mut tcp,
        &[
            0x82, 0x8a, 1, 2, 3, 4, 8, 3, 0xa6, 0x2f, 0xcb, 0x0c, 0x4a, 0x46, 0xe3, 0x06,
        ],
    )
    .await;
    let e = next_end(&mut echo).await.unwrap_err();
    assert!(matches!(e, ConnError::FrameTimeout(_)), "{e}");
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "{:?}",
        start.elapsed()
    );
}

/// A raw WebSocket client of the echo server.
async fn ws_client(echo: &Echo) -> tokio_tungstenite::WebSocketStream<TcpStream> {
    let tcp = TcpStream::connect(echo.ws).await.unwrap();
    tokio_tungstenite::client_async(format!("ws://{}/ws", echo.ws), tcp)
        .await
        .unwrap()
        .0
}

/// The close code the server sends, if any.
async fn close_code(ws: &mut tokio_tungstenite::WebSocketStream<TcpStream>) -> Option<u16> {
    let wait = async {
        while let Some(Ok(m)) = ws.next().await {
            if let WsMessage::Close(frame) = m {
                return frame.map(|f| u16::from(f.code));
            }
        }
        None
    };
    timeout(BOUND, wait).await.expect("the server closes")
}

#[tokio::test]
async fn websocket_text_and_oversized_messages_close_the_connection() {
    let config = ConnConfig::new().with_frame(FrameSettings::new().with_max_frame(64));
    let mut echo = echo::start::<Message>(config).await;
    // One frame per binary message works, and comes back.
    let mut ws = ws_client(&echo).await;
    ws.send(WsMessage::Binary(vec![0x03, 0xac, 0x02, 0x07].into()))
        .await
        .unwrap();
    let back = timeout(BOUND, ws.next()).await.unwrap().unwrap().unwrap();
    assert_eq!(back, WsMessage::Binary(vec![0x03, 0xac, 0x02, 0x07].into()));
    ws.send(WsMessage::Text("hello".into())).await.unwrap();
    assert_eq!(close_code(&mut ws).await, Some(1003));
    let e = next_end(&mut echo).await.unwrap_err();
    assert!(matches!(e, ConnError::WebSocket(_)), "{e}");
    // Above max_frame + 1 bytes of Length: refused before it is buffered.
    let mut ws = ws_client(&echo).await;
    let _ = ws.send(WsMessage::Binary(vec![0x41; 100].into())).await;
    let _ = close_code(&mut ws).await;
    let e = next_end(&mut echo).await.unwrap_err();
    assert!(
        matches!(e, ConnError::WebSocket(ref why) if why.contains("too big")),
        "{e}"
    );
    // A malformed frame: close code 1002 and the typed error.
    let mut ws = ws_client(&echo).await;
    ws.send(WsMessage::Binary(vec![0x00].into())).await.unwrap();
    assert_eq!(close_code(&mut ws).await, Some(1002));
    let e = next_end(&mut echo).await.unwrap_err();
    assert_eq!(e.frame_error().map(|f| f.kind().name()), Some("ZeroLength"));
}

#[tokio::test]
async fn shutdown_ends_every_connection() {
    let mut echo = echo::start::<Message>(ConnConfig::new()).await;
    let mut clients = Vec::new();
    for _ in 0..3 {
        let mut c = Connection::<Message>::connect_tcp(echo.tcp, ConnConfig::new())
            .await
            .unwrap();
        c.send(&frames::Ping {}.into()).unwrap();
        assert!(timeout(BOUND, c.recv()).await.unwrap().unwrap().is_some());
        clients.push(c);
    }
    assert_eq!(echo.server.connections(), 3);
    assert!(
        echo.server.shutdown(BOUND).await,
        "every connection task ended"
    );
    for _ in 0..3 {
        assert!(matches!(
            next_end(&mut echo).await,
            Err(ConnError::Shutdown)
        ));
    }
    for mut c in clients {
        assert!(matches!(timeout(BOUND, c.recv()).await.unwrap(), Ok(None)));
    }
    assert_eq!(echo.server.connections(), 0);
}
