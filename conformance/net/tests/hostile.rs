//! Memory under attack, measured by a counting allocator (every task runs on the test's
//! thread: a current-thread runtime): a peer that never reads is disconnected once its
//! send queue is full, and 50 hostile connections sending garbage, zlib bombs and
//! stalled frames do not disturb 10 good clients, which lose and reorder nothing,
//! while the whole process stays within a bound computed from the settings.

use std::time::{Duration, Instant};

use bitwire::frame::FrameSettings;
use bitwire_count_alloc::{peak_during, Counting};
use bitwire_net::{ConnConfig, ConnError, Connection, Server};
use bitwire_net_tests::echo;
use bitwire_net_tests::frames::{self, Message};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::timeout;

#[global_allocator]
static ALLOC: Counting = Counting;

const BOUND: Duration = Duration::from_secs(20);

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

#[test]
fn a_peer_that_never_reads_is_disconnected_and_memory_stays_bounded() {
    const MAX_QUEUE: usize = 256 * 1024;
    let rt = runtime();
    let ((sends, frame_len, error), peak) = peak_during(|| {
        rt.block_on(async {
            let config = ConnConfig::new().with_max_send_queue(MAX_QUEUE);
            let server = Server::new(config);
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let (tx, rx) = tokio::sync::oneshot::channel();
            let tx = std::sync::Mutex::new(Some(tx));
            let chat = Message::from(frames::Chat {
                from: 1,
                text: "x".repeat(4000),
            });
            let frame_len = bitwire::MessageSet::encode_frame_to_vec(&chat, &FrameSettings::new())
                .unwrap()
                .len();
            let handler = move |conn: Connection<Message>| {
                let (chat, tx) = (chat.clone(), tx.lock().unwrap().take());
                async move {
                    let mut sends = 0usize;
                    let error = loop {
                        assert!(conn.sender().queued() <= MAX_QUEUE);
                        match conn.send(&chat) {
                            Ok(()) => sends += 1,
                            Err(e) => break e,
                        }
                        tokio::task::yield_now().await;
                    };
                    if let Some(tx) = tx {
                        let _ = tx.send((sends, error));
                    }
                }
            };
            tokio::spawn({
                let server = server.clone();
                async move { server.serve_tcp(listener, handler).await }
            });
            let client = TcpStream::connect(addr).await.unwrap();
            let (sends, error) = timeout(BOUND, rx).await.expect("the flood ends").unwrap();
            drop(client);
            server.shutdown(BOUND).await;
            (sends, frame_len, error)
        })
    });
    assert!(
        matches!(error, ConnError::SendQueueFull { max: MAX_QUEUE, .. }),
        "{error}"
    );
    // The kernel took what it could, the queue the rest, then the connection closed.
    assert!(
        sends * frame_len > MAX_QUEUE,
        "{sends} sends of {frame_len} bytes"
    );
    let bound = MAX_QUEUE + (1 << 20);
    assert!(peak < bound, "peak {peak} bytes, bound {bound}");
    println!(
        "never reads: {sends} frames of {frame_len} bytes sent, peak {peak} bytes (bound {bound})"
    );
}

/// A xorshift generator: the garbage is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// One hostile connection's opening: random bytes, a zlib bomb, a stalled large
/// frame, an endless Length, or a good frame followed by garbage.
fn garbage(rng: &mut Rng, settings: &FrameSettings, bomb: &[u8]) -> Vec<u8> {
    match rng.next() % 5 {
        0 => {
            let n = 1 + (rng.next() % 2000) as usize;
            rng.bytes(n)
        }
        1 => bomb.to_vec(),
        2 => {
            // The largest frame, then nothing: held until the frame timeout.
            let mut out = Vec::new();
            bitwire::frame::write_varint(&mut out, settings.max_frame());
            out.extend_from_slice(&[0; 100]);
            out
        }
        3 => vec![0xff, 0xff, 0xff, 0xff],
        _ => {
            let mut out = vec![0x03, 0x00, 0xac, 0x02];
            out.extend(rng.bytes(50));
            out
        }
    }
}

/// A frame claiming DataLength max_data whose zlib stream inflates to 4 MiB of zeros.
fn bomb(settings: &FrameSettings) -> Vec<u8> {
    let mut out = Vec::new();
    let mut body = Vec::new();
    bitwire::frame::write_varint(&mut body, settings.max_data());
    body.extend_from_slice(&deflate(&vec![0u8; 4 << 20]));
    bitwire::frame::write_varint(&mut out, body.len() as u32);
    out.extend_from_slice(&body);
    out
}

/// A zlib stream of `data` (through the runtime's encoder: a threshold-0 frame).
fn deflate(data: &[u8]) -> Vec<u8> {
    let mut encoder = bitwire::frame::FrameEncoder::new(
        FrameSettings::new()
            .with_threshold(Some(0))
            .with_max_data(bitwire::frame::VARINT_MAX),
    );
    let mut frame = Vec::new();
    encoder.write_frame(0, data, &mut frame).unwrap();
    // Length, DataLength, then the stream.
    let skip = |b: &[u8]| b.iter().position(|x| x & 0x80 == 0).unwrap() + 1;
    let after_length = skip(&frame);
    let after_data_length = after_length + skip(&frame[after_length..]);
    frame[after_data_length..].to_vec()
}

async fn hostile(
    addr: std::net::SocketAddr,
    seed: u64,
    until: Instant,
    settings: FrameSettings,
    bomb: std::sync::Arc<Vec<u8>>,
) -> usize {
    let mut rng = Rng(seed);
    let mut connections = 0;
    while Instant::now() < until {
        let Ok(mut tcp) = TcpStream::connect(addr).await else {
            continue;
        };
        connections += 1;
        let _ = tcp.write_all(&garbage(&mut rng, &settings, &bomb)).await;
        let mut buf = [0u8; 1024];
        // The server closes the connection (or the attacker gives up on it).
        let _ = timeout(Duration::from_secs(1), async {
            while let Ok(n) = tcp.read(&mut buf).await {
                if n == 0 {
                    break;
                }
            }
        })
        .await;
    }
    connections
}

async fn good(
    client: u16,
    tcp: std::net::SocketAddr,
    ws: std::net::SocketAddr,
    config: ConnConfig,
) -> usize {
    let mut conn = if client % 2 == 0 {
        Connection::<Message>::connect_tcp(tcp, config)
            .await
            .unwrap()
    } else {
        Connection::<Message>::connect_ws(&format!("ws://{ws}/ws"), config)
            .await
            .unwrap()
    };
    let mut received = 0;
    for i in 0..200u32 {
        let text = format!(
            "client {client} message {i}: {}",
            "the quick brown fox ".repeat(1 + i as usize % 8)
        );
        let sent = Message::from(frames::Chat { from: client, text });
        conn.send(&sent).unwrap();
        // Every tenth message, wait for the echoes so far, in order.
        if i % 10 == 9 {
            while received <= i {
                let back = timeout(BOUND, conn.recv())
                    .await
                    .expect("an echo")
                    .unwrap()
                    .expect("open");
                let Message::Chat(c) = back else {
                    panic!("not a Chat")
                };
                assert_eq!(c.from, client);
                assert!(
                    c.text
                        .starts_with(&format!("client {client} message {received}:")),
                    "{} out of order",
                    c.text
                );
                received += 1;
            }
        }
    }
    conn.close().await;
    received as usize
}

#[test]
fn fifty_hostile_connections_do_not_disturb_ten_good_clients() {
    let settings = FrameSettings::new()
        .with_threshold(Some(64))
        .with_max_frame(16 * 1024)
        .with_max_data(64 * 1024);
    let config = ConnConfig::new()
        .with_frame(settings)
        .with_idle_timeout(Some(Duration::from_secs(2)))
        .with_frame_timeout(Some(Duration::from_millis(300)))
        .with_max_send_queue(256 * 1024);
    let bomb = std::sync::Arc::new(bomb(&settings));
    assert!(
        bomb.len() < settings.max_frame_bytes(),
        "the bomb fits in a frame"
    );
    let rt = runtime();
    let ((attacks, echoed), peak) = peak_during(|| {
        rt.block_on(async {
            let echo = echo::start::<Message>(config).await;
            let until = Instant::now() + Duration::from_millis(1500);
            let hostiles: Vec<_> = (0..50u64)
                .map(|i| {
                    tokio::spawn(hostile(
                        echo.tcp,
                        0x9e37_79b9_7f4a_7c15 ^ (i + 1),
                        until,
                        settings,
                        bomb.clone(),
                    ))
                })
                .collect();
            let goods: Vec<_> = (0..10u16)
                .map(|c| tokio::spawn(good(c, echo.tcp, echo.ws, config)))
                .collect();
            let mut echoed = 0;
            for g in goods {
                echoed += timeout(BOUND, g)
                    .await
                    .expect("good clients finish")
                    .unwrap();
            }
            let mut attacks = 0;
            for h in hostiles {
                attacks += timeout(BOUND, h).await.expect("attackers finish").unwrap();
            }
            echo.server.shutdown(BOUND).await;
            (attacks, echoed)
        })
    });
    assert_eq!(echoed, 10 * 200, "every message echoed, in order");
    assert!(attacks >= 50, "{attacks} hostile connections");
    // Per connection (60, and the good clients' own 10): a frame being read, an
    // inflated body and a read buffer; a deflater (about 300 KB) for each of the 20
    // good ends that compress; the good clients' queues; and 2 MiB for the rest.
    let per_conn = settings.max_frame_bytes() + settings.max_data() as usize + 16 * 1024;
    let bound = 70 * per_conn + 20 * 300 * 1024 + 10 * 256 * 1024 + (2 << 20);
    assert!(peak < bound, "peak {peak} bytes, bound {bound}");
    println!("hostile: {attacks} hostile connections, {echoed} messages echoed, peak {peak} bytes (bound {bound})");
}
