//! The frame vectors (`testdata/vectors/frames/frames.json`) through bitwire-net: the
//! tokio-util codecs fed in chunks, `FrameCodec` in a `FramedRead` over a real
//! 127.0.0.1 socket, and the WebSocket cases over a real WebSocket connection.

use bitwire_net::{ConnConfig, ConnError, Connection, FrameCodec, MessageCodec};
use bitwire_net_tests::frames::Message;
use bitwire_net_tests::{all_typed, cases, end, hex, listed, message_of, settings};
use bytes::BytesMut;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message as WsMessage;
use tokio_util::codec::{Decoder, FramedRead};

/// Kinds only a message dispatch reports; a raw frame reader yields their frame.
fn dispatch_kind(kind: &str) -> bool {
    kind == "UnknownMessage" || kind == "Message"
}

/// Feeds `stream` in chunks of `k` bytes (0: whole) to a decoder, then `decode_eof`.
fn drive<D: Decoder<Error = ConnError>>(
    mut codec: D,
    stream: &[u8],
    k: usize,
) -> (Vec<D::Item>, Option<ConnError>) {
    let mut buf = BytesMut::new();
    let mut items = Vec::new();
    let k = if k == 0 { stream.len().max(1) } else { k };
    for chunk in stream.chunks(k) {
        buf.extend_from_slice(chunk);
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(item)) => items.push(item),
                Ok(None) => break,
                Err(e) => return (items, Some(e)),
            }
        }
    }
    loop {
        match codec.decode_eof(&mut buf) {
            Ok(Some(item)) => items.push(item),
            Ok(None) => return (items, None),
            Err(e) => return (items, Some(e)),
        }
    }
}

fn check_error(case: &Value, got: Option<&ConnError>, raw: bool) -> Result<(), String> {
    let want = end(case).filter(|(kind, _)| !(raw && dispatch_kind(kind)));
    let got = got.map(|e| match e.frame_error() {
        Some(f) => Ok((f.kind().name().to_string(), f.offset())),
        None => Err(e.to_string()),
    });
    match (want, got) {
        (None, None) => Ok(()),
        (Some(w), Some(Ok(g))) if w == g => Ok(()),
        (w, g) => Err(format!("expected {w:?}, got {g:?}")),
    }
}

fn check_raw(
    case: &Value,
    frames: &[bitwire_net::RawFrame],
    error: Option<&ConnError>,
) -> Result<(), String> {
    let mut want = listed(case);
    if let Some((kind, _)) = end(case).filter(|(k, _)| dispatch_kind(k)) {
        // The raw reader yields the frame whose message the dispatch rejects.
        let _ = kind;
        let extra = frames
            .get(want.len())
            .ok_or("the rejected message's frame is missing")?;
        want.push((extra.id, extra.data.to_vec()));
    }
    let got: Vec<(u32, Vec<u8>)> = frames.iter().map(|f| (f.id, f.data.to_vec())).collect();
    if got != want {
        return Err(format!("frames {got:02x?}, expected {want:02x?}"));
    }
    check_error(case, error, true)
}

#[test]
fn codecs_read_every_stream_vector_in_chunks() {
    let mut checked = 0;
    for case in cases().iter().filter(|c| c.get("stream").is_some()) {
        let stream = hex(case["stream"].as_str().unwrap());
        let s = settings(case);
        for k in [0, 1, 3, 64] {
            let (frames, error) = drive(FrameCodec::new(s), &stream, k);
            check_raw(case, &frames, error.as_ref())
                .unwrap_or_else(|e| panic!("{} FrameCodec, chunks of {k}: {e}", case["id"]));
            if all_typed(case) {
                let (messages, error) = drive(MessageCodec::<Message>::new(s), &stream, k);
                let want: Vec<Message> = listed(case)
                    .iter()
                    .map(|(id, data)| message_of(*id, data))
                    .collect();
                assert_eq!(messages, want, "{} MessageCodec, chunks of {k}", case["id"]);
                check_error(case, error.as_ref(), false)
                    .unwrap_or_else(|e| panic!("{} MessageCodec, chunks of {k}: {e}", case["id"]));
            }
            checked += 1;
        }
    }
    assert!(checked >= 4 * 55, "only {checked} runs");
}

#[tokio::test]
async fn frame_codec_reads_every_stream_vector_from_a_socket() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    for case in cases().iter().filter(|c| c.get("stream").is_some()) {
        let stream = hex(case["stream"].as_str().unwrap());
        let writer = tokio::spawn(async move {
            let mut tcp = TcpStream::connect(addr).await.unwrap();
            tcp.write_all(&stream).await.unwrap();
            tcp.shutdown().await.unwrap();
        });
        let (tcp, _) = listener.accept().await.unwrap();
        let mut framed = FramedRead::new(tcp, FrameCodec::new(settings(case)));
        let (mut frames, mut error) = (Vec::new(), None);
        while let Some(item) = framed.next().await {
            match item {
                Ok(f) => frames.push(f),
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        writer.await.unwrap();
        check_raw(case, &frames, error.as_ref())
            .unwrap_or_else(|e| panic!("{} over TCP: {e}", case["id"]));
    }
}

#[tokio::test]
async fn websocket_vectors_over_a_websocket() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let ws_cases: Vec<Value> = cases()
        .into_iter()
        .filter(|c| c["transport"] == "websocket")
        .collect();
    assert_eq!(ws_cases.len(), 4);
    for case in &ws_cases {
        let messages: Vec<Vec<u8>> = case["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| hex(m.as_str().unwrap()))
            .collect();
        let client = tokio::spawn(async move {
            let tcp = TcpStream::connect(addr).await.unwrap();
            let (mut ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/ws"), tcp)
                .await
                .unwrap();
            for m in messages {
                // The server may close before the last ones.
                if ws.send(WsMessage::Binary(m.into())).await.is_err() {
                    return;
                }
            }
            let _ = ws.close(None).await;
            while let Some(Ok(_)) = ws.next().await {}
        });
        let (tcp, _) = listener.accept().await.unwrap();
        let config = ConnConfig::new().with_frame(settings(case));
        let mut conn = Connection::<Message>::accept_ws(tcp, config, Default::default())
            .await
            .unwrap();
        let (mut got, mut error) = (Vec::new(), None);
        loop {
            match conn.recv().await {
                Ok(Some(m)) => got.push(m),
                Ok(None) => break,
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        drop(conn);
        client.await.unwrap();
        let want: Vec<Message> = listed(case)
            .iter()
            .map(|(id, data)| message_of(*id, data))
            .collect();
        assert_eq!(got, want, "{}", case["id"]);
        check_error(case, error.as_ref(), false).unwrap_or_else(|e| panic!("{}: {e}", case["id"]));
        if let Some(index) = case["end"].get("message") {
            let Some(ConnError::Frame { ws_message, .. }) = &error else {
                panic!("{}: no frame error", case["id"]);
            };
            assert_eq!(*ws_message, index.as_u64(), "{}: message index", case["id"]);
        }
    }
}
