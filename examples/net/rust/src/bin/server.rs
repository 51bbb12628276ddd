//! The arena server (examples/net/README.md): TCP and WebSocket, players join, move
//! and chat; everyone's positions go to everyone 20 times a second.
//!
//! `server --tcp 127.0.0.1:0 --ws 127.0.0.1:0 [--players N] [--seconds S] [--threshold T]`

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bitwire::MessageSet;
use bitwire_net::{Connection, Sender, Server};
use bitwire_net_example::arena::{self, Message};
use bitwire_net_example::{config, fail, Args};
use tokio::net::TcpListener;
use tokio::sync::Notify;

/// A joined player.
struct Player {
    sender: Sender<Message>,
    pose: arena::Pose,
}

#[derive(Default)]
struct World {
    tick: u32,
    next_id: u16,
    players: BTreeMap<u16, Player>,
    /// Runtimes of the players that said `Bye`, in order.
    served: Vec<String>,
}

impl World {
    /// A free player id in 0..=1023.
    fn new_id(&mut self) -> u16 {
        loop {
            let id = self.next_id;
            self.next_id = (self.next_id + 1) % (arena::Welcome::PLAYER_MAX + 1);
            if !self.players.contains_key(&id) {
                return id;
            }
        }
    }
}

type Shared = Arc<(Mutex<World>, Notify)>;

fn world(shared: &Shared) -> std::sync::MutexGuard<'_, World> {
    shared.0.lock().unwrap_or_else(|p| p.into_inner())
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match Args::parse(&["tcp", "ws", "static", "players", "seconds", "threshold"]) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    if args.get("static").is_some() {
        return fail("the Rust server serves no files (--static is the Go server's)");
    }
    let (players, seconds, threshold) = match (
        args.parsed::<usize>("players"),
        args.parsed::<u64>("seconds"),
        args.parsed::<u32>("threshold"),
    ) {
        (Ok(p), Ok(s), Ok(t)) => (p, s, t),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return fail(e),
    };
    let tcp_addr = args.get("tcp").unwrap_or("127.0.0.1:0");
    let ws_addr = args.get("ws").unwrap_or("127.0.0.1:0");
    let (tcp, ws) = match (
        TcpListener::bind(tcp_addr).await,
        TcpListener::bind(ws_addr).await,
    ) {
        (Ok(t), Ok(w)) => (t, w),
        (Err(e), _) | (_, Err(e)) => return fail(format!("cannot listen: {e}")),
    };
    let (Ok(tcp_local), Ok(ws_local)) = (tcp.local_addr(), ws.local_addr()) else {
        return fail("no local address");
    };
    println!("listening tcp={tcp_local} ws=ws://{ws_local}/ws");

    let shared: Shared = Arc::new((Mutex::new(World::default()), Notify::new()));
    let server = Server::new(config(threshold));
    let handler = {
        let shared = shared.clone();
        move |conn: Connection<Message>| serve(conn, shared.clone())
    };
    tokio::spawn({
        let (server, handler) = (server.clone(), handler.clone());
        async move { server.serve_tcp(tcp, handler).await }
    });
    tokio::spawn({
        let server = server.clone();
        async move { server.serve_ws(ws, handler).await }
    });
    let ticker = tokio::spawn(tick(shared.clone(), threshold));

    let done = async {
        loop {
            let notified = shared.1.notified();
            if players.is_some_and(|n| world(&shared).served.len() >= n) {
                return;
            }
            notified.await;
        }
    };
    let limit = seconds.map_or(Duration::MAX, Duration::from_secs);
    let _ = tokio::time::timeout(limit, done).await;
    ticker.abort();
    server.shutdown(Duration::from_secs(2)).await;
    let served = world(&shared).served.clone();
    println!("served {} players ({})", served.len(), served.join(", "));
    ExitCode::SUCCESS
}

/// One connection: `Hello` → `Welcome`, `Move`, `Say` → `Chat` to everyone, `Bye`.
async fn serve(mut conn: Connection<Message>, shared: Shared) {
    let peer = conn.peer_addr();
    let mut me: Option<(u16, String)> = None;
    let mut said_bye = false;
    loop {
        let message = match conn.recv().await {
            Ok(Some(m)) => m,
            Ok(None) => break,
            Err(e) => {
                eprintln!("{peer}: closed: {e}");
                break;
            }
        };
        match (message, &me) {
            (Message::Hello(hello), None) => {
                let mut w = world(&shared);
                let id = w.new_id();
                let pose = arena::Pose::default();
                w.players.insert(
                    id,
                    Player {
                        sender: conn.sender(),
                        pose,
                    },
                );
                let welcome = arena::Welcome {
                    player: id,
                    tick: w.tick,
                };
                drop(w);
                if conn.send(&welcome.into()).is_err() {
                    break;
                }
                me = Some((id, hello.runtime));
            }
            (Message::Move(m), Some((id, _))) => {
                if let Some(p) = world(&shared).players.get_mut(id) {
                    p.pose = m.pose;
                }
            }
            (Message::Say(say), Some((id, _))) => {
                let chat = Message::from(arena::Chat {
                    from: *id,
                    text: say.text,
                });
                for p in world(&shared).players.values() {
                    let _ = p.sender.send(&chat);
                }
            }
            (Message::Bye(_), Some(_)) => {
                said_bye = true;
                break;
            }
            (other, _) => {
                eprintln!("{peer}: unexpected {} message; closing", type_name(&other));
                break;
            }
        }
    }
    if let Some((id, _)) = &me {
        world(&shared).players.remove(id);
    }
    conn.close().await;
    // Counted once closed: the last Bye ends the server, which must not cut this
    // connection's close short.
    if let (true, Some((_, runtime))) = (said_bye, me) {
        world(&shared).served.push(runtime);
        shared.1.notify_one();
    }
}

fn type_name(m: &Message) -> &'static str {
    match m {
        Message::Hello(_) => "Hello",
        Message::Welcome(_) => "Welcome",
        Message::Move(_) => "Move",
        Message::Say(_) => "Say",
        Message::Chat(_) => "Chat",
        Message::Positions(_) => "Positions",
        Message::Bye(_) => "Bye",
    }
}

/// 20 times a second: everyone's `Positions` to everyone, framed once.
async fn tick(shared: Shared, threshold: Option<u32>) {
    let settings = *config(threshold).frame();
    let mut interval = tokio::time::interval(Duration::from_millis(50));
    loop {
        interval.tick().await;
        let mut w = world(&shared);
        w.tick = w.tick.wrapping_add(1);
        let players = w
            .players
            .iter()
            .take(arena::MAX_PLAYERS as usize)
            .map(|(&player, p)| arena::PlayerPose {
                player,
                pose: p.pose,
            })
            .collect();
        let positions = Message::from(arena::Positions {
            tick: w.tick,
            players,
        });
        let frame = match positions.encode_frame_to_vec(&settings) {
            Ok(f) => bitwire_net::Bytes::from(f),
            Err(e) => {
                eprintln!("cannot frame Positions: {e}");
                continue;
            }
        };
        for p in w.players.values() {
            let _ = p.sender.send_frame(frame.clone());
        }
    }
}
