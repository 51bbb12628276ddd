//! Snapshots against acknowledged baselines (docs/framing.md §10) on typed connections
//! over real 127.0.0.1 sockets, TCP and WebSocket: a `Server` sends 100 snapshots of
//! frames.bw's `delta message World` through a `SnapshotSender`, as
//! `Message::World(envelope)`; a client `Connection<Message>` hands each envelope to a
//! `SnapshotReceiver` and acknowledges it in an `Input` message. The client loses a few
//! snapshots, withholds its acks until the baseline leaves the server's ring (full
//! snapshots follow), and restarts its receiver (`BaselineMissing`, then a requested full
//! snapshot). The generated code is all there is: no hand-written message set.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bitwire::baseline::{SnapshotErrorKind, SnapshotHeader, SnapshotReceiver, SnapshotSender};
use bitwire::baseline::{DEFAULT_RING, HEADER_BYTES};
use bitwire_net::{ConnConfig, Connection, Server};
use bitwire_net_tests::frames::{Entity, Input, Message, World};
use tokio::net::TcpListener;
use tokio::time::timeout;

const TICKS: u16 = 100;

/// The world at tick `t`: 16 entities, every fifth of which moves each tick.
fn world(t: u16) -> World {
    let entities = (0..16u16)
        .map(|i| Entity {
            id: i * 100,
            x: i as i16 * 10 + if i % 5 == 0 { t as i16 } else { 0 },
            y: -(i as i16),
        })
        .collect();
    World {
        tick: u32::from(t),
        entities,
    }
}

/// What the client does with the snapshot of tick `t`: (lose, withhold, restart).
fn client_plan(t: u16) -> (bool, bool, bool) {
    let lose = (20..24).contains(&t); // dropped before decoding: the network lost it
    let withhold = (40..76).contains(&t); // decoded, but the acks stay at 39
    let restart = t == 80; // a new receiver: every baseline is gone
    (lose, withhold, restart)
}

#[derive(Debug, Clone, Copy)]
enum Transport {
    Tcp,
    WebSocket,
}

#[tokio::test]
async fn snapshots_with_acks_over_tcp() {
    snapshots_with_acks(Transport::Tcp).await;
}

#[tokio::test]
async fn snapshots_with_acks_over_websocket() {
    snapshots_with_acks(Transport::WebSocket).await;
}

async fn snapshots_with_acks(transport: Transport) {
    let sent: Arc<Mutex<Vec<(SnapshotHeader, usize)>>> = Arc::default();
    let server = Server::new(ConnConfig::new());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn({
        let (server, sent) = (server.clone(), sent.clone());
        async move {
            let handler = move |conn| serve_snapshots(conn, sent.clone());
            match transport {
                Transport::Tcp => server.serve_tcp(listener, handler).await,
                Transport::WebSocket => server.serve_ws(listener, handler).await,
            }
        }
    });

    let client = timeout(Duration::from_secs(30), run_client(addr, transport));
    let (decoded, missing) = client.await.expect("the client finishes in time");
    server.shutdown(Duration::from_secs(5)).await;

    let sent = sent.lock().unwrap().clone();
    assert_eq!(sent.len(), usize::from(TICKS));
    let back = |t: u16| sent[usize::from(t)].0.back;
    assert_eq!(back(0), 0, "nothing acknowledged yet");
    assert_eq!(back(1), 1);
    // Snapshots 20..24 were lost; the acks stayed at 19, the baseline too.
    assert_eq!((back(20), back(23), back(24)), (1, 4, 5));
    // Acks withheld at 39 from tick 40: deltas against 39 while it is in the ring (32),
    // then full snapshots until acks resume (the input of tick 76).
    assert_eq!(back(71), DEFAULT_RING, "39 is the oldest in the ring");
    assert!((72..=76).all(|t| back(t) == 0), "39 left the ring: full");
    assert_eq!(back(77), 1);
    // The restart: 80 is a delta the new receiver cannot decode; it asks for a full one.
    assert_eq!((back(80), back(81), back(82)), (1, 0, 1));
    assert_eq!(missing, vec![80]);
    assert_eq!(decoded, usize::from(TICKS) - 4 - 1);
    // A delta of a world where three entities moved is far smaller than the world.
    let size = |t: u16| sent[usize::from(t)].1;
    assert!(
        size(2) * 4 < size(0),
        "delta {} B, full {} B",
        size(2),
        size(0)
    );
}

/// The server's side of one connection: a snapshot per tick, each after the client's
/// input for the previous one (lock-step, so the test does not depend on timing).
async fn serve_snapshots(
    mut conn: Connection<Message>,
    sent: Arc<Mutex<Vec<(SnapshotHeader, usize)>>>,
) {
    let mut snapshots = SnapshotSender::<World>::new(DEFAULT_RING);
    for t in 0..TICKS {
        let envelope = snapshots.encode_envelope(world(t)).unwrap();
        assert_eq!(envelope.header().seq, t);
        let entry = (envelope.header(), envelope.bytes().len());
        sent.lock().unwrap().push(entry);
        conn.send(&Message::World(envelope)).unwrap();
        match conn.recv().await.unwrap() {
            Some(Message::Input(Input { ack, full })) => {
                if let Some(ack) = ack {
                    snapshots.ack(ack).unwrap();
                }
                if full {
                    snapshots.request_full();
                }
            }
            other => panic!("expected an input message, got {other:?}"),
        }
    }
    conn.close().await;
}

/// The client: decodes each snapshot, checks it against the world, answers with its
/// input. Returns how many snapshots it decoded and the ticks that were
/// `BaselineMissing`.
async fn run_client(addr: SocketAddr, transport: Transport) -> (usize, Vec<u16>) {
    let config = ConnConfig::new();
    let mut conn = match transport {
        Transport::Tcp => Connection::<Message>::connect_tcp(addr, config).await,
        Transport::WebSocket => Connection::connect_ws(&format!("ws://{addr}"), config).await,
    }
    .unwrap();
    let mut receiver = SnapshotReceiver::<World>::new(DEFAULT_RING);
    let (mut decoded, mut missing, mut frozen_ack) = (0, Vec::new(), None);
    for t in 0..TICKS {
        let Some(Message::World(envelope)) = conn.recv().await.unwrap() else {
            panic!("expected a snapshot at tick {t}");
        };
        assert_eq!(envelope.header().seq, t);
        assert_eq!(envelope.body().len() + HEADER_BYTES, envelope.bytes().len());
        let (lose, withhold, restart) = client_plan(t);
        if restart {
            receiver = SnapshotReceiver::new(DEFAULT_RING);
        }
        if !lose {
            match receiver.decode(envelope.bytes()) {
                Ok(Some(got)) => {
                    assert_eq!((got.seq, got.value), (t, &world(t)), "tick {t}");
                    decoded += 1;
                }
                Ok(None) => panic!("tick {t}: dropped as old"),
                Err(e) if e.kind() == SnapshotErrorKind::BaselineMissing => missing.push(t),
                Err(e) => panic!("tick {t}: {e}"),
            }
        }
        if !withhold {
            frozen_ack = receiver.ack();
        }
        let input = Input {
            ack: if withhold { frozen_ack } else { receiver.ack() },
            full: receiver.need_full(),
        };
        conn.send(&Message::Input(input)).unwrap();
    }
    assert_eq!(conn.recv().await.unwrap(), None, "the server closes");
    (decoded, missing)
}
