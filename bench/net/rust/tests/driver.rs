//! The driver against the real Rust servers over 127.0.0.1 (a tiny matrix, every size),
//! and against servers that misbehave: each must end in an error, never a hang.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use bitwire_netbench::driver::{CellSpec, Driver, Mode};
use bitwire_netbench::packet::{PING_ID, PONG_ID, SIZES};
use bitwire_netbench::servers::{self, Kind, Running, ServerDef};

/// Where the servers' logs go: cargo's scratch directory for integration tests.
fn log_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("netbench-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn netserver(shape: &str) -> Running {
    let def = ServerDef {
        id: "test",
        runtime: "rust",
        kind: Kind::Bitwire,
        baseline: "test",
        label: "test",
        argv: vec![
            env!("CARGO_BIN_EXE_netserver").to_string(),
            "--shape".into(),
            shape.into(),
        ],
        command: String::new(),
    };
    let log = log_dir(shape).join("server.log");
    servers::start(&def, &std::env::temp_dir(), false, &log).unwrap()
}

fn spec(addr: SocketAddr, mode: Mode, connections: usize, size: usize, reply_id: u32) -> CellSpec {
    CellSpec {
        addr,
        mode,
        connections,
        size,
        warmup: 5,
        packets: 40,
        window: 8,
        reply_id,
        timeout: Duration::from_secs(30),
        server_pid: None,
    }
}

/// Bytes of a Length VarInt for `n`.
fn varint_len(n: usize) -> usize {
    if n < 128 {
        1
    } else {
        2
    }
}

/// Every mode, 1 and 3 connections, every size; returns the packets sent.
fn run_matrix(server: &Running, reply_id: u32) -> u64 {
    let driver = Driver::new().unwrap();
    let mut sent = 0;
    for mode in Mode::ALL {
        for connections in [1, 3] {
            for size in SIZES {
                let mut s = spec(server.addr, mode, connections, size, reply_id);
                s.server_pid = Some(server.pid);
                let o = driver.run(&s);
                let cell = format!("{mode:?} {connections} {size}");
                assert_eq!(o.error, None, "{cell}");
                let packets = connections as u64 * 40;
                assert_eq!(o.packets, packets, "{cell}");
                assert_eq!(o.replies, connections as u64 * 45, "{cell}");
                assert_eq!(o.latencies_ns.len() as u64, packets, "{cell}");
                // The frame's Data is exactly `size` bytes: Length, PacketID 1, Data.
                assert_eq!(o.frame_bytes, varint_len(size + 1) + 1 + size, "{cell}");
                assert_eq!(o.bytes_sent, packets * o.frame_bytes as u64, "{cell}");
                assert_eq!(o.bytes_received, o.bytes_sent, "{cell}");
                assert!(o.seconds > 0.0 && o.server_cpu.is_some(), "{cell}");
                sent += connections as u64 * 45;
            }
        }
    }
    sent
}

#[test]
fn multi_thread_server_answers_every_ping() {
    let server = netserver("mt");
    let sent = run_matrix(&server, PONG_ID);
    let served = server.stop().unwrap();
    assert_eq!((served.packets, served.errors), (sent, 0));
}

#[test]
fn current_thread_server_answers_every_ping() {
    let server = netserver("ct");
    let sent = run_matrix(&server, PONG_ID);
    let served = server.stop().unwrap();
    assert_eq!((served.packets, served.errors), (sent, 0));
}

#[test]
fn raw_server_echoes() {
    let server = netserver("raw");
    let sent = run_matrix(&server, PING_ID);
    let served = server.stop().unwrap();
    assert_eq!((served.packets, served.errors), (sent, 0));
}

#[test]
fn the_wrong_reply_id_is_an_error() {
    let server = netserver("raw");
    let o = Driver::new()
        .unwrap()
        .run(&spec(server.addr, Mode::PingPong, 1, 8, PONG_ID));
    let e = o.error.unwrap();
    assert!(e.contains("reply to seq 0: expected id 2"), "{e}");
    server.stop().unwrap();
}

#[test]
fn netserver_counts_bad_clients() {
    let server = netserver("mt");
    // A zero Length, then a Pong (id 2, seq 0, empty data) from a client.
    for bytes in [&[0x00][..], &[0x07, 0x02, 0, 0, 0, 0, 0, 0]] {
        let mut s = std::net::TcpStream::connect(server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(bytes).unwrap();
        let mut rest = Vec::new();
        let _ = s.read_to_end(&mut rest); // the server closes the connection
        assert!(rest.is_empty());
    }
    let served = server.stop().unwrap();
    assert_eq!((served.packets, served.errors), (0, 2));
}

/// A server on 127.0.0.1 that treats each connection with `behave`.
fn fake_server(behave: fn(std::net::TcpStream)) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || behave(stream));
        }
    });
    addr
}

/// Runs a ping-pong cell against `addr` with a short timeout; returns its error and
/// how long it took.
fn fails(addr: SocketAddr, timeout: Duration) -> (String, Duration) {
    let mut s = spec(addr, Mode::PingPong, 2, 64, PONG_ID);
    s.timeout = timeout;
    let start = Instant::now();
    let o = Driver::new().unwrap().run(&s);
    (o.error.expect("the cell failed"), start.elapsed())
}

#[test]
fn a_server_that_closes_is_an_error() {
    let addr = fake_server(drop);
    let (e, took) = fails(addr, Duration::from_secs(20));
    assert!(
        e.contains("closed the connection after 0 of 5 replies") || e.contains("read:"),
        "{e}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn garbage_is_an_error() {
    let addr = fake_server(|mut s| {
        let _ = s.read(&mut [0; 64]);
        let _ = s.write_all(&[0xff, 0xff, 0xff, 0xff]);
        std::thread::sleep(Duration::from_secs(5));
    });
    let (e, took) = fails(addr, Duration::from_secs(20));
    assert!(e.contains("bad reply: LengthTooWide at byte 0"), "{e}");
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn a_wrong_pong_is_an_error() {
    let addr = fake_server(|mut s| {
        let _ = s.read(&mut [0; 64]);
        // A Pong with seq 9 and no data: Length 7, id 2, 6 bytes of Data.
        let _ = s.write_all(&[0x07, 0x02, 9, 0, 0, 0, 0, 0]);
        std::thread::sleep(Duration::from_secs(5));
    });
    let (e, _) = fails(addr, Duration::from_secs(20));
    assert!(
        e.contains("reply to seq 0: expected id 2 and 64 bytes of data, got id 2, 6 bytes, seq 9"),
        "{e}"
    );
}

#[test]
fn a_silent_server_times_out() {
    let addr = fake_server(|mut s| {
        let mut sink = Vec::new();
        let _ = s.read_to_end(&mut sink);
    });
    let (e, took) = fails(addr, Duration::from_millis(300));
    assert_eq!(e, "timed out after 300ms with 0 of 90 replies");
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn netserver_stops_on_sigterm() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_netserver"))
        .args(["--shape", "ct", "--addr", "127.0.0.1:0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let listening = lines.next().unwrap().unwrap();
    assert!(listening.starts_with("listening 127.0.0.1:"), "{listening}");
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill with a pid of our own child and a valid signal number.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    assert_eq!(lines.next().unwrap().unwrap(), "served 0 packets, 0 errors");
    assert!(child.wait().unwrap().success());
}
