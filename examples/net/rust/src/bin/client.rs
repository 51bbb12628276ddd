//! The arena client (examples/net/README.md): joins, moves, chats, waits for its chat
//! and its pose to come back, says `Bye`.
//!
//! `client (--tcp 127.0.0.1:PORT | --ws ws://127.0.0.1:PORT/ws) --name NAME [--threshold T]`

use std::process::ExitCode;
use std::time::Duration;

use bitwire::Packed;
use bitwire_net::{ConnError, Connection};
use bitwire_net_example::arena::{self, Message};
use bitwire_net_example::{config, fail, Args};

const RUNTIME: &str = "rust";

#[tokio::main]
async fn main() -> ExitCode {
    let args = match Args::parse(&["tcp", "ws", "name", "threshold"]) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let threshold = match args.parsed::<u32>("threshold") {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let Some(name) = args.get("name") else {
        return fail("--name is required");
    };
    let run = async {
        let config = config(threshold);
        let conn = match (args.get("tcp"), args.get("ws")) {
            (Some(addr), None) => Connection::connect_tcp(addr, config).await?,
            (None, Some(url)) => Connection::connect_ws(url, config).await?,
            _ => return Err(Failure::Usage("give one of --tcp ADDR and --ws URL")),
        };
        play(conn, name).await
    };
    match tokio::time::timeout(Duration::from_secs(10), run).await {
        Ok(Ok(line)) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Ok(Err(e)) => fail(e),
        Err(_) => fail("not finished within 10 seconds"),
    }
}

/// Why the client failed.
#[derive(Debug)]
enum Failure {
    Usage(&'static str),
    Conn(ConnError),
    Protocol(String),
}

impl From<ConnError> for Failure {
    fn from(e: ConnError) -> Self {
        Failure::Conn(e)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Usage(s) => f.write_str(s),
            Failure::Conn(e) => e.fmt(f),
            Failure::Protocol(s) => f.write_str(s),
        }
    }
}

/// The pose a player moves to: derived from its id, on the quantization grid.
fn pose_of(player: u16) -> arena::Pose {
    arena::Pose {
        x: f32::from(player % 64) * 1.5 - 40.0,
        y: 100.0 - f32::from(player % 50) * 2.25,
        heading: f32::from(player * 37 % 360),
    }
}

async fn next(conn: &mut Connection<Message>) -> Result<Message, Failure> {
    conn.recv()
        .await?
        .ok_or_else(|| Failure::Protocol("the server closed the connection".into()))
}

async fn play(mut conn: Connection<Message>, name: &str) -> Result<String, Failure> {
    let hello = arena::Hello {
        name: name.into(),
        runtime: RUNTIME.into(),
    };
    conn.send(&hello.into())?;
    let player = loop {
        match next(&mut conn).await? {
            Message::Welcome(w) => break w.player,
            Message::Positions(_) | Message::Chat(_) => {}
            other => {
                return Err(Failure::Protocol(format!(
                    "expected Welcome, got {other:?}"
                )))
            }
        }
    };
    let pose = pose_of(player);
    // Poses are quantized: compare what the server sends back as encoded bytes.
    let pose_bytes = pose
        .encode_to_vec()
        .map_err(|e| Failure::Protocol(e.to_string()))?;
    let text = format!("hello from {RUNTIME}");
    conn.send(&arena::Move { pose }.into())?;
    conn.send(&arena::Say { text: text.clone() }.into())?;
    let (mut echoed, mut seen_among) = (false, None);
    while !echoed || seen_among.is_none() {
        match next(&mut conn).await? {
            Message::Chat(c) if c.from == player && c.text == text => echoed = true,
            Message::Positions(p) => {
                let mine = p.players.iter().find(|pp| pp.player == player);
                if mine.is_some_and(|pp| pp.pose.encode_to_vec().ok() == Some(pose_bytes.clone())) {
                    seen_among = Some(p.players.len());
                }
            }
            _ => {}
        }
    }
    conn.send(&arena::Bye {}.into())?;
    // The server closes the connection after `Bye`.
    while conn.recv().await?.is_some() {}
    Ok(format!(
        "{RUNTIME} client: player {player}, chat echoed, pose seen among {} players, bye",
        seen_among.unwrap_or(0)
    ))
}
