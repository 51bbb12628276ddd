//! The Rust server and client of examples/net/README.md, as the demo runs them: the
//! server prints where it listens, clients over TCP and WebSocket (with and without
//! compression) each print their line and exit 0, and the server exits 0 after they
//! said `Bye`, naming their runtimes.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};

fn server(extra: &[&str]) -> (Child, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_server"))
        .args([
            "--tcp",
            "127.0.0.1:0",
            "--ws",
            "127.0.0.1:0",
            "--seconds",
            "20",
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().expect("stdout"))
        .read_line(&mut line)
        .expect("the listening line");
    // listening tcp=127.0.0.1:PORT ws=ws://127.0.0.1:PORT/ws
    let mut words = line.split_whitespace().skip(1);
    let tcp = words
        .next()
        .and_then(|w| w.strip_prefix("tcp="))
        .expect("tcp=")
        .to_string();
    let ws = words
        .next()
        .and_then(|w| w.strip_prefix("ws="))
        .expect("ws=")
        .to_string();
    (child, tcp, ws)
}

fn client(transport: &str, addr: &str, name: &str, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_client"))
        .args([transport, addr, "--name", name])
        .args(extra)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the client starts")
}

fn finish(child: Child) -> String {
    let out = child.wait_with_output().expect("the program ends");
    assert!(out.status.success(), "exit {:?}", out.status);
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn run(extra: &[&str]) {
    let (mut srv, tcp, ws) = server(&[&["--players", "4"], extra].concat());
    let clients = [
        client("--tcp", &tcp, "ann", extra),
        client("--ws", &ws, "bob", extra),
        client("--tcp", &tcp, "cy", extra),
        client("--ws", &ws, "di", extra),
    ];
    for c in clients {
        let line = finish(c);
        let line = line.trim_end();
        assert!(
            line.starts_with("rust client: player ")
                && line.contains(", chat echoed, pose seen among ")
                && line.ends_with(" players, bye"),
            "{line}"
        );
    }
    let status = srv.wait().expect("the server ends");
    assert!(status.success());
    let mut rest = String::new();
    srv.stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut rest)
        .unwrap();
    assert_eq!(rest.trim(), "served 4 players (rust, rust, rust, rust)");
}

#[test]
fn clients_over_tcp_and_websocket() {
    run(&[]);
}

#[test]
fn clients_with_compression() {
    run(&["--threshold", "16"]);
}
