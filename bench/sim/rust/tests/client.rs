//! The Rust load client against a small in-test server with the simulator's framing and
//! codecs (`client_support`): every codec's run counts exactly what the server counted,
//! measures RTT and passes; a snapshot that breaks a rule is `invalid`, a frame that does
//! not decode a `decode_error`, a server that never closes a timeout — and the
//! `simclient` binary exits 1 for each, 0 for a good run.

mod client_support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bitwire_sim::client::{self, Config};
use bitwire_sim::codec::CodecKind;
use bitwire_sim::results::ClientResults;
use client_support::{listen, serve, Counts, Plan, Spoil};

/// Runs `clients` in-process clients against the test server following `plan`, both on
/// one current-thread runtime; the clients' results and the server's counts.
fn run(plan: Plan, timeout: Duration) -> (ClientResults, Counts) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (listener, addr) = listen().await;
        let config = Config {
            connect: addr,
            codec: plan.codec,
            clients: plan.clients,
            timeout,
        };
        let (results, counts) = tokio::join!(client::run_clients(&config), serve(listener, plan));
        (results, counts)
    })
}

fn plan(codec: CodecKind, spoil: Option<Spoil>) -> Plan {
    Plan {
        codec,
        clients: 3,
        ticks: 40,
        min_seq: 31,
        spoil,
    }
}

/// The client's counts are the server's, as the README requires of the real server's
/// totals.
fn assert_same_counts(r: &ClientResults, c: &Counts) {
    assert_eq!(r.snapshots, c.snapshots, "snapshots");
    assert_eq!(r.bytes_in, c.bytes_out, "snapshot bytes");
    assert_eq!(r.inputs_sent, c.inputs, "inputs");
    assert_eq!(r.bytes_out, c.bytes_in, "input bytes");
    assert_eq!(r.rtt_reports, c.rtt_reports, "RTT reports");
    assert_eq!(r.rtt_report_sum_us, c.rtt_sum_us, "RTT report sum");
}

#[test]
fn every_codec_runs_counts_what_the_server_counts_and_measures_rtt() {
    for codec in CodecKind::ALL {
        let (r, c) = run(plan(codec, None), Duration::from_secs(30));
        assert!(client::passed(&r), "{codec}: {r:#?}");
        assert_eq!(
            (r.runtime.as_str(), r.codec.as_str()),
            ("rust", codec.name())
        );
        assert_eq!((r.clients, r.connected), (3, 3));
        assert_eq!((r.invalid, r.decode_errors, r.dropped), (0, 0, 0));
        assert_eq!(c.decode_errors, 0);
        assert!(r.snapshots >= 3 * 40, "{codec}");
        assert_same_counts(&r, &c);
        // Each client sent inputs 1 to 31 or more: an RTT report in input 30.
        assert!(r.inputs_sent >= 3 * 31, "{codec}: {} inputs", r.inputs_sent);
        assert!(r.rtt_reports >= 3, "{codec}: {} reports", r.rtt_reports);
        let rtt = r.rtt_us.as_ref().expect("RTT samples");
        assert!(rtt.p50 > 0.0 && rtt.max >= rtt.p50, "{rtt:?}");
        assert!(r.rtt_report_sum_us > 0);
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert!(r.seconds > 0.5, "{}", r.seconds);
    }
}

#[test]
fn a_teleport_is_invalid() {
    let (r, c) = run(
        plan(CodecKind::Bitwire, Some(Spoil::Teleport(1010))),
        Duration::from_secs(30),
    );
    // The NPC jumps at tick 1010 and back at 1011: two snapshots break continuity on
    // each of the 3 clients.
    assert_eq!(r.invalid, 6, "{r:#?}");
    assert!(!client::passed(&r));
    assert!(r.errors[0].contains("Continuity"), "{:?}", r.errors);
    assert_eq!(r.errors.len(), 5, "the first 5 kept");
    assert_same_counts(&r, &c);
}

#[test]
fn a_repeated_tick_is_invalid() {
    let (r, c) = run(
        plan(CodecKind::BitwireDelta, Some(Spoil::SameTick(1020))),
        Duration::from_secs(30),
    );
    assert_eq!(r.invalid, 3, "{r:#?}");
    assert!(r.errors[0].contains("TickIncreases"), "{:?}", r.errors);
    assert!(!client::passed(&r));
    assert_same_counts(&r, &c);
}

#[test]
fn a_snapshot_that_does_not_decode_is_a_decode_error_for_every_codec() {
    for codec in CodecKind::ALL {
        let (r, c) = run(
            plan(codec, Some(Spoil::Garbage(1005))),
            Duration::from_secs(30),
        );
        assert_eq!(r.decode_errors, 3, "{codec}: {r:#?}");
        assert_eq!(r.invalid, 0, "{codec}: {:?}", r.errors);
        assert!(!client::passed(&r));
        // The framing held: every client read on to the end of its stream.
        assert!(r.snapshots >= 3 * 40, "{codec}");
        assert_same_counts(&r, &c);
    }
}

#[test]
fn a_malformed_frame_is_a_decode_error_and_ends_the_client() {
    let (r, _) = run(
        plan(CodecKind::Bitwire, Some(Spoil::BadFrame(1005))),
        Duration::from_secs(30),
    );
    assert_eq!(r.decode_errors, 3, "{r:#?}");
    assert!(!client::passed(&r));
    // The 4 snapshots before it, then nothing: the stream cannot be read past it.
    assert_eq!(r.snapshots, 3 * 4);
    assert!(
        r.errors.iter().all(|e| e.contains("bad frame")),
        "{:?}",
        r.errors
    );
}

#[test]
fn a_reset_connection_is_an_error_but_no_decode_error() {
    let (r, _) = run(
        plan(CodecKind::Bitcode, Some(Spoil::Reset(1005))),
        Duration::from_secs(30),
    );
    assert_eq!((r.decode_errors, r.invalid), (0, 0), "{r:#?}");
    assert!(!client::passed(&r), "{r:#?}");
    assert_eq!(r.snapshots, 3 * 4);
    assert_eq!(r.errors.len(), 3, "{:?}", r.errors);
    assert!(
        r.errors
            .iter()
            .all(|e| e.contains("connection lost") || e.contains("cannot send")),
        "{:?}",
        r.errors
    );
}

#[test]
fn a_server_that_never_closes_is_a_timeout() {
    let started = Instant::now();
    let mut p = plan(CodecKind::Wincode, None);
    p.ticks = u32::MAX;
    let (r, _) = run(p, Duration::from_millis(700));
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(!client::passed(&r));
    assert_eq!(r.connected, 3);
    assert!(
        r.errors.iter().all(|e| e.contains("timed out")),
        "{:?}",
        r.errors
    );
    assert_eq!(r.errors.len(), 3);
}

#[test]
fn no_server_is_a_connection_error() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // A port that was just free: nothing listens on it.
    let addr = rt.block_on(async { listen().await.1 });
    let config = Config {
        connect: addr,
        codec: CodecKind::Bitcode,
        clients: 2,
        timeout: Duration::from_secs(10),
    };
    let r = client::run(&config).unwrap();
    assert_eq!(r.connected, 0);
    assert!(!client::passed(&r));
    assert!(r.errors[0].contains("cannot connect"), "{:?}", r.errors);
}

/// Runs the `simclient` binary against the test server following `plan` (on another
/// thread); its exit code and results file.
fn run_binary(plan: Plan, extra: &[&str]) -> (Option<i32>, Option<ClientResults>, Counts) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (listener, addr) = rt.block_on(listen());
    let server = std::thread::spawn(move || rt.block_on(serve(listener, plan)));
    let dir = std::env::temp_dir().join(format!("simclient-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join(format!("{}-{:?}.json", plan.codec, plan.spoil));
    let mut child = Command::new(env!("CARGO_BIN_EXE_simclient"))
        .args(["--connect", &addr, "--codec", plan.codec.name()])
        .args(["--clients", &plan.clients.to_string(), "--timeout", "30"])
        .arg("--results")
        .arg(&results)
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let code = wait(&mut child, Duration::from_secs(60));
    let counts = server.join().unwrap();
    let parsed = std::fs::read_to_string(&results)
        .ok()
        .map(|s| serde_json::from_str(&s).unwrap());
    let _ = std::fs::remove_file(&results);
    let _ = std::fs::remove_dir(&dir);
    (code, parsed, counts)
}

/// The child's exit code, killing it after `limit`.
fn wait(child: &mut std::process::Child, limit: Duration) -> Option<i32> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("simclient did not end in {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_binary_exits_0_for_a_good_run_and_1_for_an_invalid_snapshot() {
    let (code, r, c) = run_binary(plan(CodecKind::Flatbuffers, None), &["--cpu", "0"]);
    assert_eq!(code, Some(0));
    let r = r.expect("a results file");
    assert!(client::passed(&r));
    assert_same_counts(&r, &c);

    let spoilt = plan(CodecKind::Bitcode, Some(Spoil::Teleport(1010)));
    let (code, r, _) = run_binary(spoilt, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(r.expect("a results file").invalid, 6);
}

#[test]
fn the_binary_exits_2_for_a_bad_command_line() {
    let bad: [&[&str]; 4] = [
        &[],
        &[
            "--connect",
            "127.0.0.1:1",
            "--codec",
            "json",
            "--clients",
            "1",
        ],
        &[
            "--connect",
            "127.0.0.1:1",
            "--codec",
            "bitwire",
            "--clients",
            "x",
        ],
        &[
            "--connect",
            "127.0.0.1:1",
            "--codec",
            "bitwire",
            "--clients",
            "1",
            "--timeout",
            "0",
        ],
    ];
    for args in bad {
        let out = Command::new(env!("CARGO_BIN_EXE_simclient"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("usage"),
            "{args:?}"
        );
    }
}
