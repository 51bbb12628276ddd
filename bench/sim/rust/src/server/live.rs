//! The live view (bench/sim/README.md, "simserver"): a WebSocket (bitwire-net's
//! transport, always the bitwire codec) where a client that sends `Watch` gets `Live`
//! every third tick (20 Hz): the whole world's dots and the server's latest figures.
//! Built after the tick, outside the `sync` span: it is not part of any measurement.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use bitwire::frame::{FrameEncoder, FrameSettings};
use bitwire_net::{Bytes, ConnConfig, Connection, Sender, Server};
use tokio::net::TcpListener;

use super::game::Game;
use crate::rules::TICK_HZ;
use crate::sim;

/// `Live` goes out every this many ticks.
pub const EVERY: u64 = 3;

/// The WebSocket clients that asked for the live view.
pub type Watchers = Arc<Mutex<Vec<Sender<sim::Message>>>>;

fn lock(w: &Watchers) -> MutexGuard<'_, Vec<Sender<sim::Message>>> {
    // The list stays consistent whatever panicked while holding it.
    w.lock().unwrap_or_else(|p| p.into_inner())
}

/// Serves the live view's WebSocket on `listener` until the process ends.
pub async fn serve(listener: TcpListener, watchers: Watchers) {
    // The page sends `Watch` once and then only listens: no idle timeout.
    let server = Server::new(ConnConfig::new().with_idle_timeout(None));
    server
        .serve_ws(listener, move |conn| watch(conn, watchers.clone()))
        .await;
}

/// One WebSocket client: `Watch` adds it to the watchers; it ends when the client
/// closes or sends a bad frame.
async fn watch(mut conn: Connection<sim::Message>, watchers: Watchers) {
    let mut watching = false;
    while let Ok(Some(message)) = conn.recv().await {
        if matches!(message, sim::Message::Watch(_)) && !watching {
            watching = true;
            lock(&watchers).push(conn.sender());
        }
    }
}

/// One tick's traffic, for the last second's means.
#[derive(Debug, Clone, Copy, Default)]
struct Traffic {
    snapshots: u64,
    bytes_out: u64,
    inputs: u64,
    bytes_in: u64,
}

/// Builds and sends `Live`.
pub struct LiveFeed {
    watchers: Watchers,
    encoder: FrameEncoder,
    frame: Vec<u8>,
    /// The last second's ticks.
    recent: VecDeque<Traffic>,
    /// The counters at the previous tick.
    seen: Traffic,
    rtts: Vec<u32>,
}

impl LiveFeed {
    /// A feed to `watchers`.
    pub fn new(watchers: Watchers) -> LiveFeed {
        LiveFeed {
            watchers,
            encoder: FrameEncoder::new(FrameSettings::new()),
            frame: Vec::new(),
            recent: VecDeque::with_capacity(TICK_HZ as usize + 1),
            seen: Traffic::default(),
            rtts: Vec::new(),
        }
    }

    /// After each tick: records its traffic; every third tick, sends `Live` to the
    /// watchers (if any).
    pub fn after_tick(&mut self, game: &Game, sync_ns: u64, tick_ns: u64) {
        let m = &game.metrics;
        let now = Traffic {
            snapshots: m.snapshots_sent.get(),
            bytes_out: m.bytes_out.get(),
            inputs: m.inputs_received.get(),
            bytes_in: m.bytes_in.get(),
        };
        if self.recent.len() == TICK_HZ as usize {
            self.recent.pop_front();
        }
        self.recent.push_back(Traffic {
            snapshots: now.snapshots - self.seen.snapshots,
            bytes_out: now.bytes_out - self.seen.bytes_out,
            inputs: now.inputs - self.seen.inputs,
            bytes_in: now.bytes_in - self.seen.bytes_in,
        });
        self.seen = now;
        let tick = game.world.borrow().tick();
        if tick % EVERY != 0 || lock(&self.watchers).is_empty() {
            return;
        }
        let live = self.build(game, tick, sync_ns, tick_ns);
        self.frame.clear();
        if let Err(e) = self
            .encoder
            .write_message(&sim::Message::Live(live), &mut self.frame)
        {
            eprintln!("simserver: cannot frame Live: {e}");
            return;
        }
        let frame = Bytes::copy_from_slice(&self.frame);
        // A watcher that closed (or does not read) is dropped from the list.
        lock(&self.watchers).retain(|w| w.send_frame(frame.clone()).is_ok());
    }

    fn build(&mut self, game: &Game, tick: u64, sync_ns: u64, tick_ns: u64) -> sim::Live {
        let sum = self.recent.iter().fold(Traffic::default(), |a, t| Traffic {
            snapshots: a.snapshots + t.snapshots,
            bytes_out: a.bytes_out + t.bytes_out,
            inputs: a.inputs + t.inputs,
            bytes_in: a.bytes_in + t.bytes_in,
        });
        let mean = |bytes: u64, frames: u64| {
            if frames == 0 {
                0.0
            } else {
                (bytes as f64 / frames as f64) as f32
            }
        };
        let world = game.world.borrow();
        let dots = world
            .entities()
            .iter()
            .map(|e| sim::Dot {
                id: e.id,
                kind: e.kind,
                x: e.x,
                y: e.y,
            })
            .collect();
        sim::Live {
            tick: tick as u32,
            codec: game.codec.name().to_string(),
            clients: game.connected() as u32,
            sync_us: (sync_ns / 1000) as u32,
            tick_us: (tick_ns / 1000) as u32,
            bytes_out: mean(sum.bytes_out, sum.snapshots),
            bytes_in: mean(sum.bytes_in, sum.inputs),
            rtt_us: self.median_rtt(game, tick),
            overruns: game.metrics.overruns.get(),
            dots,
        }
    }

    /// The median RTT reported in the last second (0: none).
    fn median_rtt(&mut self, game: &Game, tick: u64) -> u32 {
        let mut rtts = game.rtts.borrow_mut();
        let since = tick.saturating_sub(u64::from(TICK_HZ));
        while rtts.front().is_some_and(|&(t, _)| t < since) {
            rtts.pop_front();
        }
        self.rtts.clear();
        self.rtts.extend(rtts.iter().map(|&(_, rtt)| rtt));
        if self.rtts.is_empty() {
            return 0;
        }
        let mid = self.rtts.len() / 2;
        *self.rtts.select_nth_unstable(mid).1
    }
}
