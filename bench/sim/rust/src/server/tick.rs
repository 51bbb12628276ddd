//! The fixed 60 Hz tick: inputs → simulate → sync system, in a `tick` span, the sync
//! system in a `sync` span (bench/sim/README.md, "The world").
//!
//! An overrun is a tick that ends after the next tick's scheduled start; the next tick
//! then starts at once. A tick that starts more than a whole period late skips the
//! missed ticks (counted, not simulated).

use std::rc::Rc;
use std::time::Duration;

use bitwire::frame::FrameEncoder;
use tokio::time::Instant;

use super::game::{Conn, ConnEnd, Game, QUEUE_BYTES, QUEUE_FRAMES};
use super::live::LiveFeed;
use super::spans::SpanClock;
use super::window::{Next, WindowClock};
use crate::codec::SNAPSHOT_ID;
use crate::rules::tick_seconds;
use crate::sim;
use crate::world::view::ViewScratch;

/// The sync system's reusable buffers: nothing is allocated per client per tick but
/// the Snapshot the codec takes.
#[derive(Debug, Default)]
struct SyncBuffers {
    view: ViewScratch,
    /// A snapshot's frame Data.
    data: Vec<u8>,
    /// This tick's snapshot frame sizes.
    sizes: Vec<u32>,
    /// Entities in this tick's snapshots.
    entities: u64,
    /// Connections to end after the tick.
    failed: Vec<(Rc<Conn>, ConnEnd)>,
}

/// The tick loop.
pub struct Ticker {
    game: Rc<Game>,
    clock: std::sync::Arc<SpanClock>,
    /// The window.
    pub window: WindowClock,
    live: LiveFeed,
    encoder: FrameEncoder,
    bufs: SyncBuffers,
}

impl Ticker {
    /// A ticker for `game`, reading the span times from `clock`.
    pub fn new(
        game: Rc<Game>,
        clock: std::sync::Arc<SpanClock>,
        window: WindowClock,
        live: LiveFeed,
    ) -> Ticker {
        let encoder = FrameEncoder::new(game.settings.with_max_frame(bitwire::frame::MAX_FRAME));
        Ticker {
            game,
            clock,
            window,
            live,
            encoder,
            bufs: SyncBuffers::default(),
        }
    }

    /// Ticks until the window is over (never without one).
    pub async fn run(&mut self) {
        let period = Duration::from_secs_f64(tick_seconds());
        let m = self.game.metrics.clone();
        let mut next = Instant::now() + period;
        loop {
            tokio::time::sleep_until(next).await;
            let now = Instant::now();
            let late = now - next;
            if late > period {
                let missed = (late.as_nanos() / period.as_nanos()) as u32;
                m.skipped.inc_by(u64::from(missed));
                next += period * missed;
            }
            let connected = self.game.connected();
            if self
                .window
                .before_tick(&m, next.into_std(), now.into_std(), connected)
                == Next::Stop
            {
                return;
            }
            self.tick();
            let end = Instant::now();
            next += period;
            if end > next {
                m.overruns.inc();
            }
            self.after_tick();
        }
    }

    /// One tick: inputs, simulate, sync; then its metrics, outside the spans.
    fn tick(&mut self) {
        let game = &*self.game;
        let span = tracing::info_span!("tick");
        let entered = span.enter();
        {
            let conns = game.conns.borrow();
            let mut world = game.world.borrow_mut();
            for conn in conns.iter() {
                let mut st = conn.state.borrow_mut();
                if let Some(input) = st.input.take() {
                    st.input_seq = input.seq;
                    world.control(conn.player, &input);
                }
            }
            world.step();
            let _sync = tracing::info_span!("sync").entered();
            sync(&mut world, &conns, &mut self.bufs, &mut self.encoder);
        }
        drop(entered);
        for (conn, why) in self.bufs.failed.drain(..) {
            game.end(&conn, why);
        }
    }

    /// The tick's metrics, the window's samples and the live view.
    fn after_tick(&mut self) {
        let m = &self.game.metrics;
        m.ticks.inc();
        let mut bytes = 0u64;
        for &size in &self.bufs.sizes {
            m.snapshot_bytes.observe(f64::from(size));
            bytes += u64::from(size);
        }
        m.snapshots_sent.inc_by(self.bufs.sizes.len() as u64);
        m.bytes_out.inc_by(bytes);
        let (sync_ns, tick_ns) = (self.clock.sync_ns(), self.clock.tick_ns());
        self.window.after_tick(sync_ns, tick_ns, self.bufs.entities);
        self.live.after_tick(&self.game, sync_ns, tick_ns);
    }
}

/// The sync system: each client's view, built into a Snapshot, encoded by its codec,
/// framed and queued on its connection (the writer tasks write the sockets).
fn sync(
    world: &mut crate::world::World,
    conns: &[Rc<Conn>],
    bufs: &mut SyncBuffers,
    encoder: &mut FrameEncoder,
) {
    bufs.sizes.clear();
    bufs.entities = 0;
    world.index();
    let tick = world.tick() as u32;
    for conn in conns {
        let mut st = conn.state.borrow_mut();
        if st.closing || !world.view_indexed(conn.player, &mut bufs.view) {
            continue;
        }
        let snapshot = sim::Snapshot {
            tick,
            input_seq: st.input_seq,
            you: conn.player,
            entities: world.collect(&bufs.view),
        };
        bufs.data.clear();
        if let Err(e) = st.codec.encode_snapshot(snapshot, &mut bufs.data) {
            bufs.failed
                .push((conn.clone(), ConnEnd::Encode(e.to_string())));
            continue;
        }
        let start = st.outbox.len();
        let size = match encoder.write_frame(SNAPSHOT_ID, &bufs.data, &mut st.outbox) {
            Ok(n) => n,
            Err(e) => {
                bufs.failed
                    .push((conn.clone(), ConnEnd::Encode(e.to_string())));
                continue;
            }
        };
        let (frames, bytes) = st.queued();
        if frames + 1 > QUEUE_FRAMES || bytes > QUEUE_BYTES {
            st.outbox.truncate(start);
            let full = ConnEnd::QueueFull {
                frames: frames + 1,
                bytes,
            };
            bufs.failed.push((conn.clone(), full));
            continue;
        }
        st.frames += 1;
        conn.wake.notify_one();
        bufs.sizes.push(size as u32);
        bufs.entities += bufs.view.len() as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::CodecKind;
    use crate::server::metrics::Metrics;
    use std::sync::Arc;

    fn game_with(players: usize) -> Rc<Game> {
        let game = Rc::new(Game::new(
            CodecKind::Bitwire,
            Arc::new(Metrics::new(CodecKind::Bitwire)),
        ));
        for _ in 0..players {
            let id = game.world.borrow_mut().join().unwrap();
            game.conns
                .borrow_mut()
                .push(Rc::new(Conn::new(id, CodecKind::Bitwire.server())));
            game.metrics.connected.inc();
        }
        game
    }

    fn sync_once(game: &Game, bufs: &mut SyncBuffers, encoder: &mut FrameEncoder) {
        let conns = game.conns.borrow().clone();
        let mut world = game.world.borrow_mut();
        world.step();
        sync(&mut world, &conns, bufs, encoder);
    }

    /// Nobody drains the queues (no writer tasks): each client is dropped at its 65th
    /// frame, counted, and leaves the world.
    #[test]
    fn a_client_that_does_not_read_is_dropped_at_64_frames() {
        let game = game_with(2);
        let mut bufs = SyncBuffers::default();
        let mut encoder =
            FrameEncoder::new(game.settings.with_max_frame(bitwire::frame::MAX_FRAME));
        for _ in 0..QUEUE_FRAMES {
            sync_once(&game, &mut bufs, &mut encoder);
            assert!(bufs.failed.is_empty());
            assert_eq!(bufs.sizes.len(), 2);
        }
        let conn = game.conns.borrow()[0].clone();
        let (frames, bytes) = conn.state.borrow().queued();
        assert_eq!(frames, QUEUE_FRAMES);
        assert_eq!(bytes, conn.state.borrow().outbox.len());
        sync_once(&game, &mut bufs, &mut encoder);
        assert_eq!(bufs.failed.len(), 2);
        assert!(matches!(
            bufs.failed[0].1,
            ConnEnd::QueueFull { frames: 65, .. }
        ));
        for (conn, why) in bufs.failed.drain(..) {
            game.end(&conn, why);
        }
        assert_eq!(
            conn.state.borrow().queued(),
            (QUEUE_FRAMES, bytes),
            "the 65th not queued"
        );
        assert!(conn.is_ended());
        assert_eq!(game.connected(), 0);
        assert_eq!(game.world.borrow().players(), 0);
        assert_eq!(game.metrics.dropped.get(), 2);
        assert_eq!(game.metrics.connected.get(), 0);
        assert_eq!(game.metrics.decode_errors.get(), 0);
    }

    /// The queue's frames decode to the snapshots of consecutive ticks, each naming
    /// its player, and the in-flight batch counts toward the limit.
    #[test]
    fn queued_frames_are_the_players_snapshots() {
        let game = game_with(1);
        let mut bufs = SyncBuffers::default();
        let mut encoder = FrameEncoder::new(game.settings);
        for _ in 0..3 {
            sync_once(&game, &mut bufs, &mut encoder);
        }
        let conn = game.conns.borrow()[0].clone();
        let outbox = conn.state.borrow().outbox.clone();
        let mut reader = bitwire::frame::FrameReader::new(game.settings);
        let mut input: &[u8] = &outbox;
        let mut client = CodecKind::Bitwire.client();
        let mut ticks = Vec::new();
        while let Some(frame) = reader.next_frame(&mut input).unwrap() {
            assert_eq!(frame.id, SNAPSHOT_ID);
            let decoded = client.decode_snapshot(frame.data).unwrap().unwrap();
            assert_eq!(decoded.snapshot.you, conn.player);
            ticks.push(decoded.snapshot.tick);
        }
        assert_eq!(ticks, [1, 2, 3]);
        let mut st = conn.state.borrow_mut();
        st.in_flight = (QUEUE_FRAMES - 3, 1000);
        assert_eq!(st.queued(), (QUEUE_FRAMES, outbox.len() + 1000));
    }
}
