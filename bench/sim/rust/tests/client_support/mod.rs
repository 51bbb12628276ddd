//! A small game server for the client tests, with the simulator's framing and codecs: it
//! accepts the clients, gives each a player that its inputs move and a few NPCs around
//! it, sends a snapshot every 1/60 s for a number of ticks (and until its client sent a
//! number of inputs), then half-closes each
//! connection and reads it to its end. It counts what it sends and reads independently
//! of the client (bytes as the socket carried them) and can send a snapshot that breaks
//! a rule or a frame that does not decode.
//!
//! The real server (`simserver`, src/server/) replaces it in end-to-end runs.

#![allow(dead_code)] // Each test crate uses a part.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bitwire::frame::{FrameEncoder, FrameSettings};
use bitwire_net::FrameCodec;
use bitwire_sim::codec::{wire, CodecKind, ServerCodec, INPUT_ID, SNAPSHOT_ID};
use bitwire_sim::rules::{INTEREST_RADIUS, PLAYER_SPEED, TICK_HZ};
use bitwire_sim::sim;
use futures_util::future::join_all;
use futures_util::StreamExt;
use tokio::io::{AsyncRead, AsyncWriteExt, ReadBuf};
use tokio::net::TcpListener;
use tokio::time::MissedTickBehavior;
use tokio_util::codec::FramedRead;

/// A snapshot or frame the server sends instead of a good one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Spoil {
    /// The NPC nearest the player jumps 5 m at this tick (a teleport).
    Teleport(u32),
    /// The snapshot of this tick repeats the previous tick's number.
    SameTick(u32),
    /// The Data of this tick's frame is garbage for every codec.
    Garbage(u32),
    /// Instead of this tick's frame, bytes that are no frame (a Length VarInt longer
    /// than 3 bytes).
    BadFrame(u32),
    /// The connection is reset (closed with SO_LINGER 0) instead of this tick's frame.
    Reset(u32),
}

/// What the server does.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// The codec.
    pub codec: CodecKind,
    /// Connections to accept.
    pub clients: usize,
    /// Snapshots to send on each before half-closing it (`u32::MAX`: never close) ...
    pub ticks: u32,
    /// ... and the input `seq` its client must have reached (more snapshots go until it
    /// has: a test can count on what a client does by then, however slow the machine).
    pub min_seq: u32,
    /// A bad snapshot or frame, on every connection.
    pub spoil: Option<Spoil>,
}

/// What the server counted, all connections.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Counts {
    pub snapshots: u64,
    pub bytes_out: u64,
    pub inputs: u64,
    pub bytes_in: u64,
    pub rtt_reports: u64,
    pub rtt_sum_us: u64,
    pub decode_errors: u64,
}

/// A listener on a free port of 127.0.0.1 and its `HOST:PORT`.
pub async fn listen() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    (listener, addr)
}

/// Serves `plan` on `listener` until every connection has ended.
pub async fn serve(listener: TcpListener, plan: Plan) -> Counts {
    let mut streams = Vec::new();
    for _ in 0..plan.clients {
        let (stream, _) = listener.accept().await.unwrap();
        stream.set_nodelay(true).unwrap();
        if matches!(plan.spoil, Some(Spoil::Reset(_))) {
            // Closing sends RST rather than FIN.
            stream.set_zero_linger().unwrap();
        }
        streams.push(stream);
    }
    let counts = join_all(
        streams
            .into_iter()
            .enumerate()
            .map(|(i, s)| connection(s, i as u16 + 1, plan)),
    )
    .await;
    let mut all = Counts::default();
    for c in counts {
        all.snapshots += c.snapshots;
        all.bytes_out += c.bytes_out;
        all.inputs += c.inputs;
        all.bytes_in += c.bytes_in;
        all.rtt_reports += c.rtt_reports;
        all.rtt_sum_us += c.rtt_sum_us;
        all.decode_errors += c.decode_errors;
    }
    all
}

/// A reader that counts the bytes it reads.
struct Counted<R> {
    inner: R,
    bytes: u64,
}

impl<R: AsyncRead + Unpin> AsyncRead for Counted<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        self.bytes += (buf.filled().len() - before) as u64;
        r
    }
}

/// One player's world: itself and four NPCs around its spawn point.
struct World {
    you: u16,
    tick: u32,
    input: sim::Input,
    player: sim::Entity,
    npcs: Vec<sim::Entity>,
}

impl World {
    fn new(you: u16) -> World {
        let x = wire::X.snap(f32::from(you) * 3.0).unwrap();
        let npc = |n: u16, dx: f32, dy: f32| sim::Entity {
            id: 2048 + n,
            kind: sim::Kind::Npc,
            x: wire::X.snap(x + dx).unwrap(),
            y: wire::Y.snap(dy).unwrap(),
            health: 80,
            ..sim::Entity::default()
        };
        World {
            you,
            tick: 1000,
            input: sim::Input::default(),
            player: sim::Entity {
                id: you,
                kind: sim::Kind::Player,
                x,
                health: 100,
                ..sim::Entity::default()
            },
            npcs: vec![
                npc(0, 10.0, 0.0),
                npc(1, -20.0, 5.0),
                npc(2, 0.0, 40.0),
                npc(3, 50.0, -50.0),
            ],
        }
    }

    /// The next tick: the player moves by its newest input; its snapshot.
    fn step(&mut self, spoil: Option<Spoil>) -> sim::Snapshot {
        self.tick += 1;
        let p = &mut self.player;
        let (vx, vy) = (
            self.input.move_x * PLAYER_SPEED,
            self.input.move_y * PLAYER_SPEED,
        );
        let dt = 1.0 / TICK_HZ as f32;
        p.x = wire::X.snap((p.x + vx * dt).clamp(-500.0, 500.0)).unwrap();
        p.y = wire::Y.snap((p.y + vy * dt).clamp(-500.0, 500.0)).unwrap();
        p.vx = wire::VX.snap(vx).unwrap();
        p.vy = wire::VY.snap(vy).unwrap();
        p.yaw = wire::YAW.snap(self.input.aim).unwrap();
        p.anim = if self.input.fire { 3 } else { 1 };
        let mut tick = self.tick;
        let mut npcs = self.npcs.clone();
        match spoil {
            Some(Spoil::Teleport(t)) if t == self.tick => npcs[0].x += 5.0,
            Some(Spoil::SameTick(t)) if t == self.tick => tick -= 1,
            _ => {}
        }
        let me = *p;
        let mut entities = vec![me];
        let near = |e: &sim::Entity| (e.x - me.x).hypot(e.y - me.y) <= INTEREST_RADIUS;
        entities.extend(npcs.into_iter().filter(near));
        sim::Snapshot {
            tick,
            input_seq: self.input.seq,
            you: self.you,
            entities,
        }
    }
}

/// One connection: snapshots every tick until `plan.ticks`, then a half-close; inputs
/// read until the client closes.
async fn connection(stream: tokio::net::TcpStream, you: u16, plan: Plan) -> Counts {
    let (r, mut w) = stream.into_split();
    let settings = FrameSettings::DEFAULT;
    let mut reader = FramedRead::new(Counted { inner: r, bytes: 0 }, FrameCodec::new(settings));
    let mut encoder = FrameEncoder::new(settings);
    let mut codec = plan.codec.server();
    let mut world = World::new(you);
    let mut counts = Counts::default();
    let mut interval = tokio::time::interval(Duration::from_secs_f64(1.0 / f64::from(TICK_HZ)));
    interval.set_missed_tick_behavior(MissedTickBehavior::Skip);
    let (mut sent, mut open) = (0u32, true);
    loop {
        tokio::select! {
            frame = reader.next() => match frame {
                None => break,
                Some(Ok(f)) if f.id == INPUT_ID => on_input(codec.as_mut(), &f.data, &mut world, &mut counts),
                Some(_) => {
                    counts.decode_errors += 1;
                    break;
                }
            },
            _ = interval.tick(), if open => {
                let snapshot = world.step(plan.spoil);
                let mut data = Vec::new();
                codec.encode_snapshot(snapshot, &mut data).unwrap();
                if plan.spoil == Some(Spoil::Garbage(world.tick)) {
                    data = vec![0xff; 2];
                }
                let mut frame = Vec::new();
                encoder.write_frame(SNAPSHOT_ID, &data, &mut frame).unwrap();
                match plan.spoil {
                    Some(Spoil::BadFrame(t)) if t == world.tick => frame = vec![0xff; 5],
                    Some(Spoil::Reset(t)) if t == world.tick => {
                        // Dropping the write half alone would send FIN first.
                        let stream = reader.into_inner().inner.reunite(w).unwrap();
                        drop(stream);
                        return counts;
                    }
                    _ => {}
                }
                if w.write_all(&frame).await.is_err() {
                    break;
                }
                counts.snapshots += 1;
                counts.bytes_out += frame.len() as u64;
                sent += 1;
                if sent >= plan.ticks && world.input.seq >= plan.min_seq {
                    open = false;
                    w.shutdown().await.unwrap();
                }
            }
        }
    }
    counts.bytes_in = reader.get_ref().bytes;
    counts
}

fn on_input(codec: &mut dyn ServerCodec, data: &[u8], world: &mut World, counts: &mut Counts) {
    counts.inputs += 1;
    let input = codec
        .decode_input(data)
        .expect("the client's input decodes");
    codec.acknowledge(input.ack);
    if let Some(us) = input.rtt_us {
        counts.rtt_reports += 1;
        counts.rtt_sum_us += u64::from(us);
    }
    assert!(
        input.seq > world.input.seq,
        "input seq {} after {}",
        input.seq,
        world.input.seq
    );
    world.input = input;
}
