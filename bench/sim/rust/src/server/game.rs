//! The state the server's tasks share on its one thread: the world, the game
//! connections (each with its codec, newest input and send queue), the metrics; and
//! how a connection ends.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::io;
use std::rc::Rc;
use std::sync::Arc;

use bitwire::frame::{FrameError, FrameSettings};
use tokio::sync::Notify;
use tokio::task::AbortHandle;

use super::metrics::Metrics;
use crate::codec::{CodecError, CodecKind, ServerCodec};
use crate::sim;
use crate::world::World;

/// A client whose queue would hold more than this many frames is disconnected ...
pub const QUEUE_FRAMES: usize = 64;
/// ... or more than this many bytes.
pub const QUEUE_BYTES: usize = 1 << 20;
/// RTT reports kept for the live view's median (the last second's, at most this many).
const RECENT_RTTS: usize = 8192;

/// Why a game connection ended.
#[derive(Debug)]
pub enum ConnEnd {
    /// The client closed it at a frame boundary.
    Closed,
    /// The client sent a malformed frame.
    Frame(FrameError),
    /// The client sent a frame whose PacketID is not `Input`'s.
    Unexpected(u32),
    /// An input frame's Data did not decode.
    Codec(CodecError),
    /// The socket failed.
    Io(io::Error),
    /// The client does not read: its queue would go over [`QUEUE_FRAMES`] frames or
    /// [`QUEUE_BYTES`] bytes.
    QueueFull {
        /// Frames queued.
        frames: usize,
        /// Bytes queued.
        bytes: usize,
    },
    /// The server could not encode or frame the client's snapshot.
    Encode(String),
    /// After the window the client did not close its side in time.
    Abandoned,
}

impl ConnEnd {
    /// A bad frame or message from the client (`sim_decode_errors_total`).
    pub fn is_decode_error(&self) -> bool {
        matches!(
            self,
            ConnEnd::Frame(_) | ConnEnd::Unexpected(_) | ConnEnd::Codec(_)
        )
    }
}

impl fmt::Display for ConnEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConnEnd::Closed => f.write_str("closed by the client"),
            ConnEnd::Frame(e) => write!(f, "malformed frame: {e}"),
            ConnEnd::Unexpected(id) => write!(
                f,
                "unexpected frame: PacketID {id} (a client sends only Input, {})",
                crate::codec::INPUT_ID
            ),
            ConnEnd::Codec(e) => write!(f, "bad input: {e}"),
            ConnEnd::Io(e) => write!(f, "I/O error: {e}"),
            ConnEnd::QueueFull { frames, bytes } => write!(
                f,
                "dropped: its send queue would hold {frames} frames, {bytes} bytes \
                 (limits {QUEUE_FRAMES} frames, {QUEUE_BYTES} bytes)"
            ),
            ConnEnd::Encode(e) => write!(f, "cannot send its snapshot: {e}"),
            ConnEnd::Abandoned => f.write_str("did not close its side after the window"),
        }
    }
}

/// One game connection: a player.
#[derive(Debug)]
pub struct Conn {
    /// The player's entity id.
    pub player: u16,
    /// What the reader, the tick and the writer share.
    pub state: RefCell<ConnState>,
    /// Wakes the writer: frames queued, or closing.
    pub wake: Notify,
    tasks: RefCell<Vec<AbortHandle>>,
    ended: Cell<bool>,
}

/// A connection's mutable state.
pub struct ConnState {
    /// The connection's codec.
    pub codec: Box<dyn ServerCodec>,
    /// The newest input since the previous tick.
    pub input: Option<sim::Input>,
    /// The newest input applied (the snapshots' `input_seq`).
    pub input_seq: u32,
    /// Frames queued for the writer.
    pub outbox: Vec<u8>,
    /// Frames in `outbox`.
    pub frames: usize,
    /// Frames and bytes the writer is writing.
    pub in_flight: (usize, usize),
    /// After the window: the writer writes what is queued, then half-closes.
    pub closing: bool,
}

impl fmt::Debug for ConnState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConnState")
            .field("input_seq", &self.input_seq)
            .field("queued", &self.queued())
            .field("closing", &self.closing)
            .finish()
    }
}

impl ConnState {
    /// Frames and bytes queued or being written.
    pub fn queued(&self) -> (usize, usize) {
        (
            self.frames + self.in_flight.0,
            self.outbox.len() + self.in_flight.1,
        )
    }
}

impl Conn {
    /// A connection for `player` with its own `codec`.
    pub fn new(player: u16, codec: Box<dyn ServerCodec>) -> Conn {
        Conn {
            player,
            state: RefCell::new(ConnState {
                codec,
                input: None,
                input_seq: 0,
                outbox: Vec::new(),
                frames: 0,
                in_flight: (0, 0),
                closing: false,
            }),
            wake: Notify::new(),
            tasks: RefCell::new(Vec::new()),
            ended: Cell::new(false),
        }
    }

    /// The connection's tasks, aborted when it ends.
    pub fn set_tasks(&self, tasks: Vec<AbortHandle>) {
        *self.tasks.borrow_mut() = tasks;
    }

    /// Whether it has ended.
    pub fn is_ended(&self) -> bool {
        self.ended.get()
    }
}

/// Everything the server's tasks share (on one thread).
pub struct Game {
    /// The codec of every game connection.
    pub codec: CodecKind,
    /// The frames' settings (inputs are small: a low `max_frame`).
    pub settings: FrameSettings,
    /// The world.
    pub world: RefCell<World>,
    /// Open game connections, in join (so id) order.
    pub conns: RefCell<Vec<Rc<Conn>>>,
    /// The metrics.
    pub metrics: Arc<Metrics>,
    /// Notified when a connection ends.
    pub ended: Notify,
    /// `(tick, rtt_us)` of the recent RTT reports.
    pub rtts: RefCell<VecDeque<(u64, u32)>>,
}

impl Game {
    /// A game with an empty world (NPCs only).
    pub fn new(codec: CodecKind, metrics: Arc<Metrics>) -> Game {
        Game {
            codec,
            settings: FrameSettings::new().with_max_frame(4096),
            world: RefCell::new(World::new()),
            conns: RefCell::new(Vec::new()),
            metrics,
            ended: Notify::new(),
            rtts: RefCell::new(VecDeque::new()),
        }
    }

    /// An input frame of `bytes` bytes was read and decoded on `conn`.
    pub fn input(&self, conn: &Conn, input: sim::Input, bytes: usize) {
        let m = &self.metrics;
        m.inputs_received.inc();
        m.bytes_in.inc_by(bytes as u64);
        m.input_bytes.observe(bytes as f64);
        if let Some(rtt) = input.rtt_us {
            m.rtt.observe(f64::from(rtt) / 1e6);
            m.rtt_reports.inc();
            let mut rtts = self.rtts.borrow_mut();
            if rtts.len() == RECENT_RTTS {
                rtts.pop_front();
            }
            rtts.push_back((self.world.borrow().tick(), rtt));
        }
        let mut st = conn.state.borrow_mut();
        st.codec.acknowledge(input.ack);
        st.input = Some(input);
    }

    /// Ends `conn` (once): its tasks stop, its socket closes, its player leaves; a
    /// decode error or a drop is counted, and anything but a clean close is logged.
    pub fn end(&self, conn: &Rc<Conn>, why: ConnEnd) {
        if conn.ended.replace(true) {
            return;
        }
        for task in conn.tasks.borrow_mut().drain(..) {
            task.abort();
        }
        self.conns.borrow_mut().retain(|c| !Rc::ptr_eq(c, conn));
        self.world.borrow_mut().leave(conn.player);
        self.metrics.connected.dec();
        if why.is_decode_error() {
            self.metrics.decode_errors.inc();
        }
        if matches!(why, ConnEnd::QueueFull { .. }) {
            self.metrics.dropped.inc();
        }
        if !matches!(why, ConnEnd::Closed) {
            eprintln!("simserver: player {}: {why}", conn.player);
        }
        self.ended.notify_waiters();
    }

    /// Game connections open.
    pub fn connected(&self) -> usize {
        self.conns.borrow().len()
    }
}
