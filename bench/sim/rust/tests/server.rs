//! `simserver` end to end: the real binary on 127.0.0.1, raw-frame TCP clients with
//! the `bitwire` codec, `/metrics`, `/live.json`, the live view's WebSocket, the end
//! of a run and its summary. Every wait is bounded; no timing is asserted.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bitwire::frame::{FrameEncoder, FrameReader, FrameSettings, Peeked};
use bitwire_sim::codec::{ClientCodec, CodecKind, INPUT_ID, SNAPSHOT_ID};
use bitwire_sim::results::ServerSummary;
use bitwire_sim::rules::{NPCS, NPC_BASE, RTT_EVERY, VIEW_CAP};
use bitwire_sim::sim;

const WAIT: Duration = Duration::from_secs(30);

/// A running `simserver`: its stdout lines, its addresses.
struct Sim {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    tcp: SocketAddr,
    http: SocketAddr,
    ws: String,
}

impl Sim {
    fn start(extra: &[&str]) -> Sim {
        let mut child = Command::new(env!("CARGO_BIN_EXE_simserver"))
            .args(["--codec", "bitwire"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("simserver starts");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        let first = lines.recv_timeout(WAIT).expect("a listening line");
        // listening tcp=A http=http://B ws=ws://C/
        let field = |name: &str| {
            first
                .split_whitespace()
                .find_map(|f| f.strip_prefix(name))
                .unwrap_or_else(|| panic!("{name} in {first:?}"))
                .to_string()
        };
        assert!(first.starts_with("listening "), "{first:?}");
        let tcp = field("tcp=").parse().expect("tcp address");
        let http = field("http=http://").parse().expect("http address");
        let ws = field("ws=");
        assert!(
            ws.starts_with("ws://127.0.0.1:") && ws.ends_with('/'),
            "{ws}"
        );
        Sim {
            child,
            stdin,
            lines,
            tcp,
            http,
            ws,
        }
    }

    /// The next stdout line.
    fn line(&self) -> String {
        self.lines
            .recv_timeout(WAIT)
            .expect("a line from simserver")
    }

    /// Closes stdin and waits for the exit.
    fn stop(mut self) -> ExitStatus {
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "simserver did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Input frames of one client: its codec's client side, sequence numbers from 1.
struct Inputs {
    codec: Box<dyn ClientCodec>,
    encoder: FrameEncoder,
    seq: u32,
}

impl Inputs {
    fn new() -> Inputs {
        Inputs {
            codec: CodecKind::Bitwire.client(),
            encoder: FrameEncoder::new(FrameSettings::new()),
            seq: 0,
        }
    }

    /// The frame of the next input (moving along `move_x`), and whether it reports
    /// an RTT.
    fn frame(&mut self, move_x: f32, ack: u16) -> (Vec<u8>, bool) {
        self.seq += 1;
        let report = self.seq % RTT_EVERY == 0;
        let input = sim::Input {
            seq: self.seq,
            ack,
            move_x,
            move_y: -1.0,
            aim: 360.0,
            fire: self.seq % 7 == 0,
            rtt_us: report.then_some(1000 + self.seq),
        };
        let mut data = Vec::new();
        self.codec.encode_input(&input, &mut data).unwrap();
        let mut frame = Vec::new();
        self.encoder
            .write_frame(INPUT_ID, &data, &mut frame)
            .unwrap();
        (frame, report)
    }
}

/// A minimal game client: raw frames over a blocking socket, the `bitwire` codec.
struct Client {
    stream: TcpStream,
    codec: Box<dyn ClientCodec>,
    reader: FrameReader,
    buf: Vec<u8>,
    inputs: Inputs,
    ack: u16,
    /// Snapshot frames and their bytes.
    snapshots: u64,
    bytes_in: u64,
}

impl Client {
    fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).expect("connects");
        stream.set_read_timeout(Some(WAIT)).unwrap();
        stream.set_nodelay(true).unwrap();
        Client {
            stream,
            codec: CodecKind::Bitwire.client(),
            reader: FrameReader::new(FrameSettings::new()),
            buf: Vec::new(),
            inputs: Inputs::new(),
            ack: 0,
            snapshots: 0,
            bytes_in: 0,
        }
    }

    fn send_input(&mut self, move_x: f32) {
        let (frame, _) = self.inputs.frame(move_x, self.ack);
        self.stream.write_all(&frame).unwrap();
    }

    /// The next snapshot; `None` when the server closed the connection.
    fn snapshot(&mut self) -> Option<sim::Snapshot> {
        loop {
            let found = match self.reader.frame_at(&self.buf).expect("well-formed frames") {
                Peeked::Item(frame, len) => {
                    assert_eq!(frame.id, SNAPSHOT_ID);
                    let decoded = self.codec.decode_snapshot(frame.data).unwrap().unwrap();
                    self.ack = decoded.ack;
                    Some((decoded.snapshot.clone(), len))
                }
                Peeked::Incomplete(_) => None,
            };
            if let Some((snapshot, len)) = found {
                self.buf.drain(..len);
                self.snapshots += 1;
                self.bytes_in += len as u64;
                return Some(snapshot);
            }
            let mut chunk = [0u8; 16384];
            match self.stream.read(&mut chunk) {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
        }
    }
}

/// GET `path`: status (`200 OK`, without the HTTP version), headers, body.
fn http_get(addr: SocketAddr, path: &str, accept: Option<&str>) -> (String, String, String) {
    let r = bitwire_sim::run::http::request(addr, path, accept, WAIT).expect("a response");
    let status = r.status.split_once(' ').map_or("", |(_, s)| s).to_string();
    (status, r.headers, r.body)
}

/// The value of the sample `name` (no labels) in a Prometheus text exposition.
fn sample(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("{name} in /metrics"))
}

fn metrics(sim: &Sim) -> String {
    let (status, headers, body) = http_get(sim.http, "/metrics", None);
    assert_eq!(status, "200 OK");
    assert!(
        headers.contains("content-type: text/plain; version=0.0.4"),
        "{headers}"
    );
    body
}

#[test]
fn snapshots_name_the_player_and_a_bad_frame_closes_only_its_connection() {
    let sim = Sim::start(&[]);
    let mut clients: Vec<Client> = (0..3).map(|_| Client::connect(sim.tcp)).collect();
    for (i, c) in clients.iter_mut().enumerate() {
        let s = c.snapshot().expect("a snapshot");
        assert_eq!(
            s.you,
            i as u16 + 1,
            "players are 1, 2, 3 in connection order"
        );
        let me = s
            .entities
            .iter()
            .find(|e| e.id == s.you)
            .expect("itself in view");
        assert_eq!(me.kind, sim::Kind::Player);
        assert!(s.entities.len() <= VIEW_CAP);
        assert!(s.entities.windows(2).all(|w| w[0].id < w[1].id));
        assert!(
            s.entities.iter().any(|e| e.id >= NPC_BASE),
            "NPCs around the hot spots"
        );
        assert_eq!(s.input_seq, 0);
    }
    // Inputs drive the player, and snapshots acknowledge them.
    clients[0].send_input(1.0);
    let applied = (0..120)
        .filter_map(|_| clients[0].snapshot())
        .find(|s| s.input_seq == 1)
        .expect("input 1 applied");
    let me = applied.entities.iter().find(|e| e.id == 1).unwrap();
    assert_eq!((me.vx, me.vy), (6.0, -6.0));

    // Client 2 sends a frame that is not an Input, client 3 an Input that does not
    // decode; a fourth client a malformed frame (Length 0).
    clients[1].stream.write_all(&[0x02, 0x02, 0x00]).unwrap();
    clients[2].stream.write_all(&[0x02, 0x01, 0xff]).unwrap();
    let mut fourth = Client::connect(sim.tcp);
    assert_eq!(fourth.snapshot().unwrap().you, 4);
    fourth.stream.write_all(&[0x00]).unwrap();
    let (first, rest) = clients.split_at_mut(1);
    for c in rest.iter_mut().chain([&mut fourth]) {
        while c.snapshot().is_some() {} // closed by the server
    }
    // The first client goes on.
    let tick = first[0].snapshot().unwrap().tick;
    assert!(first[0].snapshot().unwrap().tick > tick);
    let text = metrics(&sim);
    assert_eq!(sample(&text, "sim_decode_errors_total"), 3.0);
    assert_eq!(sample(&text, "sim_clients_joined_total"), 4.0);
    assert_eq!(sample(&text, "sim_connected_clients"), 1.0);
    assert_eq!(sample(&text, "sim_clients_dropped_total"), 0.0);
    assert!(sample(&text, "sim_inputs_received_total") >= 1.0);
    assert!(sim.stop().success());
}

/// Clients that send an input every tick until the server closes, then close.
fn play(addr: SocketAddr, stop: Arc<AtomicBool>) -> (Client, u64, u64, u64) {
    let mut client = Client::connect(addr);
    let mut writer = client.stream.try_clone().unwrap();
    let mut inputs = Inputs::new();
    let sent = Arc::new(AtomicU64::new(0));
    let handle = {
        let (stop, sent) = (stop.clone(), sent.clone());
        std::thread::spawn(move || {
            let (mut bytes, mut reports) = (0u64, 0u64);
            while !stop.load(Ordering::SeqCst) {
                let (frame, report) = inputs.frame(if reports % 2 == 0 { 1.0 } else { -1.0 }, 0);
                if writer.write_all(&frame).is_err() {
                    break;
                }
                sent.fetch_add(1, Ordering::SeqCst);
                bytes += frame.len() as u64;
                reports += u64::from(report);
                std::thread::sleep(Duration::from_millis(16));
            }
            (bytes, reports)
        })
    };
    while client.snapshot().is_some() {}
    stop.store(true, Ordering::SeqCst);
    let (bytes, reports) = handle.join().unwrap();
    client.stream.shutdown(Shutdown::Both).unwrap();
    (client, sent.load(Ordering::SeqCst), bytes, reports)
}

#[test]
fn a_run_ends_with_done_then_the_summary_matches_the_clients() {
    let dir = std::env::temp_dir().join(format!("simserver-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let summary_path = dir.join("summary.json");
    let summary_arg = summary_path.to_str().unwrap();
    let sim = Sim::start(&[
        "--clients",
        "2",
        "--warmup",
        "0.2",
        "--seconds",
        "1",
        "--summary",
        summary_arg,
    ]);
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = (0..2)
        .map(|_| {
            let (addr, stop) = (sim.tcp, stop.clone());
            std::thread::spawn(move || play(addr, stop))
        })
        .collect();
    let results: Vec<(Client, u64, u64, u64)> =
        players.into_iter().map(|p| p.join().unwrap()).collect();
    assert_eq!(sim.line(), "done");
    let text = metrics(&sim);
    let snapshots: u64 = results.iter().map(|r| r.0.snapshots).sum();
    let bytes_in: u64 = results.iter().map(|r| r.0.bytes_in).sum();
    let inputs: u64 = results.iter().map(|r| r.1).sum();
    let input_bytes: u64 = results.iter().map(|r| r.2).sum();
    let reports: u64 = results.iter().map(|r| r.3).sum();
    assert!(
        results.iter().all(|r| r.0.snapshots > 0),
        "every client got snapshots"
    );
    assert_eq!(sample(&text, "sim_snapshots_sent_total"), snapshots as f64);
    assert_eq!(sample(&text, "sim_bytes_out_total"), bytes_in as f64);
    assert_eq!(sample(&text, "sim_inputs_received_total"), inputs as f64);
    assert_eq!(sample(&text, "sim_bytes_in_total"), input_bytes as f64);
    assert_eq!(sample(&text, "sim_rtt_seconds_count"), reports as f64);
    assert_eq!(sample(&text, "sim_connected_clients"), 0.0);
    assert_eq!(sample(&text, "sim_window_active"), 0.0);
    assert!(sim.stop().success());

    let summary: ServerSummary =
        serde_json::from_str(&std::fs::read_to_string(&summary_path).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!((summary.codec.as_str(), summary.clients), ("bitwire", 2));
    assert!(summary.roundtrip_checked);
    let t = &summary.totals;
    assert_eq!((t.snapshots, t.bytes_out), (snapshots, bytes_in));
    assert_eq!(
        (t.inputs, t.bytes_in, t.rtt_reports),
        (inputs, input_bytes, reports)
    );
    assert_eq!((t.joined, t.decode_errors, t.dropped_clients), (2, 0, 0));
    let w = &summary.window;
    assert!(w.ticks > 0 && w.ticks <= t.ticks);
    assert!(w.snapshots > 0 && w.snapshots <= t.snapshots);
    assert!(w.views_entities_mean >= 1.0);
    assert!(w.sync_us.is_some() && w.tick_us.is_some());
    assert!(w.seconds > 0.0 && w.cpu_seconds >= 0.0);
}

#[test]
fn metrics_live_json_static_files_and_the_live_view() {
    let dir = std::env::temp_dir().join(format!("simserver-static-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>live</title>").unwrap();
    let sim = Sim::start(&["--static", dir.to_str().unwrap()]);
    let mut player = Client::connect(sim.tcp);
    assert!(player.snapshot().is_some());

    let text = metrics(&sim);
    for (name, kind) in [
        ("sim_ticks_total", "counter"),
        ("sim_tick_overruns_total", "counter"),
        ("sim_ticks_skipped_total", "counter"),
        ("sim_tick_duration_seconds", "histogram"),
        ("sim_sync_duration_seconds", "histogram"),
        ("sim_snapshot_bytes", "histogram"),
        ("sim_input_bytes", "histogram"),
        ("sim_snapshots_sent_total", "counter"),
        ("sim_bytes_out_total", "counter"),
        ("sim_inputs_received_total", "counter"),
        ("sim_bytes_in_total", "counter"),
        ("sim_rtt_seconds", "histogram"),
        ("sim_connected_clients", "gauge"),
        ("sim_clients_joined_total", "counter"),
        ("sim_clients_dropped_total", "counter"),
        ("sim_decode_errors_total", "counter"),
        ("sim_window_active", "gauge"),
        ("process_cpu_seconds_total", "counter"),
        ("sim_info", "gauge"),
    ] {
        let line = format!("# TYPE {name} {kind}");
        assert!(text.lines().any(|l| l == line), "{line}");
    }
    assert!(text.contains("sim_info{codec=\"bitwire\"} 1\n"));
    assert!(sample(&text, "sim_ticks_total") >= 1.0);
    assert!(sample(&text, "sim_sync_duration_seconds_count") >= 1.0);
    assert_eq!(sample(&text, "sim_connected_clients"), 1.0);
    assert!(sample(&text, "process_cpu_seconds_total") > 0.0);
    let accept = "application/openmetrics-text;version=1.0.0;q=0.9,text/plain;q=0.1";
    let (_, headers, open) = http_get(sim.http, "/metrics", Some(accept));
    assert!(headers.contains("content-type: application/openmetrics-text; version=1.0.0"));
    assert!(open.ends_with("# EOF\n"));

    let (status, headers, body) = http_get(sim.http, "/live.json", None);
    assert_eq!(status, "200 OK");
    assert!(headers.contains("content-type: application/json"));
    let live: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(live["ws"], sim.ws.as_str());
    let (status, _, page) = http_get(sim.http, "/", None);
    assert_eq!(
        (status.as_str(), page.as_str()),
        ("200 OK", "<!doctype html><title>live</title>")
    );
    assert_eq!(http_get(sim.http, "/nothing.js", None).0, "404 Not Found");
    std::fs::remove_dir_all(&dir).unwrap();

    let live = watch(&sim.ws);
    assert_eq!((live.codec.as_str(), live.clients), ("bitwire", 1));
    assert_eq!(live.dots.len(), NPCS + 1);
    assert!(live
        .dots
        .iter()
        .any(|d| d.id == 1 && d.kind == sim::Kind::Player));
    assert_eq!(live.tick % 3, 0, "every third tick");
    assert!(live.bytes_out > 0.0);
    assert!(sim.stop().success());
}

/// Sends `Watch` on the live view's WebSocket and returns the first `Live`.
fn watch(url: &str) -> sim::Live {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let config = bitwire_net::ConnConfig::new();
        let mut conn = bitwire_net::Connection::<sim::Message>::connect_ws(url, config)
            .await
            .expect("the live view's WebSocket");
        conn.send(&sim::Watch {}.into()).unwrap();
        let message = tokio::time::timeout(WAIT, conn.recv())
            .await
            .expect("Live within the wait")
            .expect("no error");
        match message {
            Some(sim::Message::Live(live)) => live,
            other => panic!("expected Live, got {other:?}"),
        }
    })
}

#[test]
fn bad_command_lines_and_busy_addresses_fail() {
    let out = Command::new(env!("CARGO_BIN_EXE_simserver"))
        .args(["--codec", "nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown codec"));
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = busy.local_addr().unwrap().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_simserver"))
        .args(["--codec", "bitwire", "--tcp", &addr])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot listen"));
    let rules = Command::new(env!("CARGO_BIN_EXE_simserver"))
        .arg("--rules")
        .output()
        .unwrap();
    let rules: serde_json::Value = serde_json::from_slice(&rules.stdout).unwrap();
    assert_eq!(rules["view_cap"], VIEW_CAP);
}
