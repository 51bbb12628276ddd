//! Interop with a real peer, go-mc v1.20.2 (`github.com/Tnze/go-mc`, the Go module
//! proxy), over 127.0.0.1 sockets in both directions: a Go program (`gomc/`) writes
//! packets with go-mc's framing and reads them back; bitwire's blocking `FrameRead` /
//! `FrameWrite` read its frames and write the echo. Without compression the bytes are
//! compared exactly; with compression after inflating (the zlib streams differ; go-mc
//! sends DataLength 0 for a body of at least the threshold whose data alone is below it,
//! framing.md §3.2).
//!
//! One go-mc quirk is left out: its reader fails (`EOF`) on a compressed frame whose
//! body is the PacketID alone (an empty message, compressed only when T ≤ 5) when the
//! inflater returns that byte together with the end of the stream, as it does for
//! streams without Go's trailing empty block (framing.md §9). bitwire still sends the
//! frame (it is valid); the echo to go-mc skips it.

use std::io::Read;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bitwire::frame::{FrameEncoder, FrameRead, FrameSettings, FrameWrite};

/// Builds the Go peer once.
fn gomc() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("gomc");
    let bin = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gomc");
    let status = Command::new("go")
        .args(["build", "-o"])
        .arg(&bin)
        .arg(".")
        .current_dir(&dir)
        .status()
        .expect("go runs (Go is required, as for ./run test)");
    assert!(status.success(), "go build of conformance/net/gomc");
    bin
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn packets() -> Vec<(u32, Vec<u8>)> {
    let chat: Vec<u8> = (0..300u32)
        .map(|i| b"the quick brown fox "[i as usize % 20])
        .collect();
    vec![
        (1, vec![0xa5, 0x2b, 0xca, 0x0e, 0x4b, 0x40, 0xe2, 0x04]),
        (0, vec![]),
        (300, vec![7]),
        (2, chat),
        // len(Data) 3 < T = 4 <= len(ID + Data) 5: go-mc sends it uncompressed.
        (300, vec![1, 2, 3]),
    ]
}

fn exchange(bin: &PathBuf, threshold: Option<u32>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let t = threshold.map_or("-1".to_string(), |t| t.to_string());
    let args: Vec<String> = packets()
        .iter()
        .map(|(id, d)| format!("{id}:{}", hex(d)))
        .collect();
    let echo: Vec<(u32, Vec<u8>)> = packets()
        .into_iter()
        .filter(|(_, data)| !(threshold.is_some_and(|t| t <= 5) && data.is_empty()))
        .collect();
    let child = Command::new(bin)
        .arg(addr.to_string())
        .arg(&t)
        .arg(echo.len().to_string())
        .args(&args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the Go peer starts");
    listener.set_nonblocking(true).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let tcp = loop {
        match listener.accept() {
            Ok((tcp, _)) => break tcp,
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => panic!("the Go peer did not connect: {e}"),
        }
    };
    tcp.set_nonblocking(false).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let settings = FrameSettings::new().with_threshold(threshold);
    let mut read_side = tcp.try_clone().unwrap();
    if threshold.is_none() {
        // Byte for byte what bitwire writes.
        let mut want = Vec::new();
        let mut encoder = FrameEncoder::new(settings);
        for (id, data) in packets() {
            encoder.write_frame(id, &data, &mut want).unwrap();
        }
        let mut got = vec![0; want.len()];
        read_side.read_exact(&mut got).unwrap();
        assert_eq!(hex(&got), hex(&want), "go-mc's frames without compression");
        let mut frames = FrameRead::new(&got[..], settings);
        for (id, data) in packets() {
            let f = frames.read_frame().unwrap().expect("a frame");
            assert_eq!((f.id, f.data), (id, &data[..]));
        }
    } else {
        let mut frames = FrameRead::new(read_side, settings);
        for (id, data) in packets() {
            let f = frames.read_frame().unwrap().expect("a frame");
            assert_eq!((f.id, hex(f.data)), (id, hex(&data)), "threshold {t}");
        }
    }
    let mut out = FrameWrite::new(tcp, settings);
    for (id, data) in &echo {
        out.write_frame(*id, data).unwrap();
    }
    out.flush().unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "the Go peer failed (threshold {t})"
    );
    let lines: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let want: Vec<String> = echo
        .iter()
        .map(|(id, d)| format!("{id} {}", hex(d)))
        .collect();
    assert_eq!(lines, want, "what go-mc read from bitwire (threshold {t})");
}

#[test]
fn go_mc_and_bitwire_read_each_others_frames() {
    let bin = gomc();
    for threshold in [None, Some(0), Some(4), Some(256)] {
        exchange(&bin, threshold);
    }
}
