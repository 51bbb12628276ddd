//! Snapshots against acknowledged baselines (docs/framing.md §10) over a real
//! 127.0.0.1 socket: a `Server` sends 100 snapshots through a `SnapshotSender`, a client
//! `Connection` decodes them with a `SnapshotReceiver` and acknowledges each in an input
//! message. The client loses a few snapshots, withholds its acks until the baseline
//! leaves the server's ring (full snapshots follow), and restarts its receiver
//! (`BaselineMissing`, then a requested full snapshot).
//!
//! The body codec is the test codec of testdata/vectors/envelope (a list of `u32`), and
//! the two messages are hand-written for this test: `Snapshot` carries the envelope
//! as it is, `Input` an acknowledgement and the "need a full snapshot" flag.

#[path = "../../tests/support/u32_list.rs"]
mod u32_list;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bitwire::baseline::{
    SnapshotErrorKind, SnapshotHeader, SnapshotReceiver, SnapshotSender, DEFAULT_RING,
};
use bitwire::{Error, ErrorKind, Limits, MessageSet};
use bitwire_net::{ConnConfig, Connection, Server};
use tokio::net::TcpListener;
use tokio::time::timeout;
use u32_list::U32List;

const TICKS: u16 = 100;

/// The two messages of this test's protocol.
#[derive(Debug, Clone, PartialEq)]
enum TestMessage {
    /// Id 1: a snapshot envelope (header and body), kept as bytes for the receiver.
    Snapshot(Vec<u8>),
    /// Id 2: the client's input: its newest decoded snapshot and whether it needs a
    /// full one. Body: a flags byte (1: has an ack, 2: full), then the ack (u16 LE).
    Input { ack: Option<u16>, full: bool },
}

impl MessageSet for TestMessage {
    const IDS: &'static [u32] = &[1, 2];

    fn message_id(&self) -> u32 {
        match self {
            TestMessage::Snapshot(_) => 1,
            TestMessage::Input { .. } => 2,
        }
    }

    fn encode_body(&self, out: &mut Vec<u8>) -> bitwire::Result<usize> {
        let start = out.len();
        match self {
            TestMessage::Snapshot(envelope) => out.extend_from_slice(envelope),
            TestMessage::Input { ack, full } => {
                out.push(u8::from(ack.is_some()) | u8::from(*full) << 1);
                out.extend(ack.iter().flat_map(|a| a.to_le_bytes()));
            }
        }
        Ok(out.len() - start)
    }

    fn decode_body(id: u32, data: &[u8], _: &Limits) -> Option<bitwire::Result<Self>> {
        let input = |data: &[u8]| match data {
            [flags @ 0..=3, rest @ ..] => {
                let want = if flags & 1 == 1 { 2 } else { 0 };
                if rest.len() != want {
                    let kind = if rest.len() < want {
                        ErrorKind::Truncated
                    } else {
                        ErrorKind::TrailingData
                    };
                    return Err(Error::new(kind, 8));
                }
                let ack = (want == 2).then(|| u16::from_le_bytes([rest[0], rest[1]]));
                Ok(TestMessage::Input {
                    ack,
                    full: flags & 2 != 0,
                })
            }
            [_, ..] => Err(Error::new(ErrorKind::OutOfRange, 0)),
            [] => Err(Error::new(ErrorKind::Truncated, 0)),
        };
        match id {
            1 => Some(Ok(TestMessage::Snapshot(data.to_vec()))),
            2 => Some(input(data)),
            _ => None,
        }
    }
}

/// The world at tick `t`: 16 entities, a few of which move each tick.
fn world(t: u16) -> U32List {
    let t = u32::from(t);
    U32List(
        (0..16u32)
            .map(|i| if i % 5 == 0 { i * 1000 + t } else { i * 1000 })
            .collect(),
    )
}

/// What the client does with the snapshot of tick `t`.
fn client_plan(t: u16) -> (bool, bool, bool) {
    let lose = (20..24).contains(&t); // dropped before decoding: the network lost it
    let withhold = (40..76).contains(&t); // decoded, but the acks stay at 39
    let restart = t == 80; // a new receiver: every baseline is gone
    (lose, withhold, restart)
}

#[tokio::test]
async fn snapshots_with_acks_over_tcp() {
    let sent: Arc<Mutex<Vec<SnapshotHeader>>> = Arc::default();
    let server = Server::new(ConnConfig::new());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn({
        let (server, sent) = (server.clone(), sent.clone());
        async move {
            let handler = move |conn| serve_snapshots(conn, sent.clone());
            server.serve_tcp(listener, handler).await
        }
    });

    let client = timeout(Duration::from_secs(30), run_client(addr));
    let (decoded, missing) = client.await.expect("the client finishes in time");
    server.shutdown(Duration::from_secs(5)).await;

    let sent = sent.lock().unwrap().clone();
    assert_eq!(sent.len(), usize::from(TICKS));
    let back = |t: u16| sent[usize::from(t)].back;
    assert_eq!(back(0), 0, "nothing acknowledged yet");
    assert_eq!(back(1), 1);
    // Snapshots 20..24 were lost; the acks stayed at 19, the baseline too.
    assert_eq!((back(20), back(23), back(24)), (1, 4, 5));
    // Acks withheld at 39 from tick 40: deltas against 39 while it is in the ring (32),
    // then full snapshots until acks resume (the input of tick 76).
    assert_eq!(
        back(71),
        DEFAULT_RING,
        "39 is the oldest snapshot in the ring"
    );
    assert!((72..=76).all(|t| back(t) == 0), "39 left the ring: full");
    assert_eq!(back(77), 1);
    // The restart: 80 is a delta the new receiver cannot decode; it asks for a full one.
    assert_eq!((back(80), back(81), back(82)), (1, 0, 1));
    assert_eq!(missing, vec![80]);
    assert_eq!(decoded, usize::from(TICKS) - 4 - 1);
}

/// The server's side of one connection: a snapshot per tick, each after the client's
/// input for the previous one (lock-step, so the test does not depend on timing).
async fn serve_snapshots(mut conn: Connection<TestMessage>, sent: Arc<Mutex<Vec<SnapshotHeader>>>) {
    let mut snapshots = SnapshotSender::<U32List>::new(DEFAULT_RING);
    for t in 0..TICKS {
        let mut envelope = Vec::new();
        let header = snapshots.encode(world(t), &mut envelope).unwrap();
        assert_eq!(header.seq, t);
        sent.lock().unwrap().push(header);
        conn.send(&TestMessage::Snapshot(envelope)).unwrap();
        match conn.recv().await.unwrap() {
            Some(TestMessage::Input { ack, full }) => {
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
async fn run_client(addr: std::net::SocketAddr) -> (usize, Vec<u16>) {
    let mut conn = Connection::<TestMessage>::connect_tcp(addr, ConnConfig::new())
        .await
        .unwrap();
    let mut receiver = SnapshotReceiver::<U32List>::new(DEFAULT_RING);
    let (mut decoded, mut missing, mut frozen_ack) = (0, Vec::new(), None);
    for t in 0..TICKS {
        let Some(TestMessage::Snapshot(envelope)) = conn.recv().await.unwrap() else {
            panic!("expected a snapshot at tick {t}");
        };
        let (lose, withhold, restart) = client_plan(t);
        if restart {
            receiver = SnapshotReceiver::new(DEFAULT_RING);
        }
        if !lose {
            match receiver.decode(&envelope) {
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
        let input = TestMessage::Input {
            ack: if withhold { frozen_ack } else { receiver.ack() },
            full: receiver.need_full(),
        };
        conn.send(&input).unwrap();
    }
    assert_eq!(conn.recv().await.unwrap(), None, "the server closes");
    (decoded, missing)
}
