//! One simulated client on its connection: an input every 1/60 s (at the client's own
//! seeded phase of the period), every snapshot decoded, validated and timed
//! (bench/sim/README.md, "simclient").

use std::collections::VecDeque;
use std::time::Duration;

use bitwire::frame::{varint_len, FrameSettings};
use bitwire_net::{FrameCodec, RawFrame};
use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, MissedTickBehavior};
use tokio_util::codec::{FramedRead, FramedWrite};

use super::behaviour::Behaviour;
use super::validate::{validate, Known};
use crate::codec::{ClientCodec, CodecKind, INPUT_ID, SNAPSHOT_ID};
use crate::rules::{tick_seconds, RTT_EVERY};
use crate::sim;

/// Errors each client keeps (the run keeps the first 5 of all).
const KEEP_ERRORS: usize = 5;
/// Send times kept for inputs no snapshot has reflected yet: 17 s at 60 Hz. Older ones
/// are forgotten (a server that far behind gives no RTT sample for them).
const PENDING_MAX: usize = 1024;

/// Bytes of a whole frame (Length, PacketID, Data) without compression.
pub fn frame_bytes(id: u32, data: usize) -> u64 {
    let body = varint_len(id) + data;
    (varint_len(u32::try_from(body).unwrap_or(u32::MAX)) + body) as u64
}

/// One client's counts (bench/sim/README.md, `--results`).
#[derive(Debug, Default)]
pub struct Stats {
    /// It connected.
    pub connected: bool,
    /// Input frames sent and their bytes.
    pub inputs_sent: u64,
    /// See `inputs_sent`.
    pub bytes_out: u64,
    /// Snapshot frames received and their bytes.
    pub snapshots: u64,
    /// See `snapshots`.
    pub bytes_in: u64,
    /// Snapshots decoded (neither dropped nor failed).
    pub decoded: u64,
    /// Snapshots the codec dropped as late.
    pub dropped: u64,
    /// Inputs that carried `rtt_us`, and the sum of what they carried.
    pub rtt_reports: u64,
    /// See `rtt_reports`.
    pub rtt_report_sum_us: u64,
    /// Every RTT sample, nanoseconds.
    pub rtt_ns: Vec<u64>,
    /// Snapshots that failed validation.
    pub invalid: u64,
    /// Frames that did not decode.
    pub decode_errors: u64,
    /// This client's first errors, with when they happened.
    pub errors: Vec<(Instant, String)>,
}

/// One client: its codec, behaviour and what it knows of its snapshots.
pub struct Client {
    i: usize,
    codec: Box<dyn ClientCodec>,
    behaviour: Behaviour,
    stats: Stats,
    known: Known,
    /// The previous decoded snapshot.
    prev: Option<sim::Snapshot>,
    /// Its player's position in the newest snapshot.
    at: Option<(f32, f32)>,
    /// The next input's `ack`.
    ack: u16,
    /// The newest `input_seq` a snapshot carried.
    newest_seen: u32,
    /// Send times of the inputs no snapshot reflected yet, oldest first.
    pending: VecDeque<(u32, Instant)>,
    /// The latest RTT sample, microseconds (what the next report carries).
    latest_rtt_us: Option<u32>,
    scratch: Vec<u8>,
}

impl Client {
    /// Client `i` (seed `SEED + i`) speaking `codec`.
    pub fn new(i: usize, codec: CodecKind) -> Client {
        Client {
            i,
            codec: codec.client(),
            behaviour: Behaviour::new(i),
            stats: Stats::default(),
            known: Known::default(),
            prev: None,
            at: None,
            ack: 0,
            newest_seen: 0,
            pending: VecDeque::new(),
            latest_rtt_us: None,
            scratch: Vec::new(),
        }
    }

    /// Its counts, taken.
    pub fn into_stats(self) -> Stats {
        self.stats
    }

    /// Runs the client on `addr` until the server closes the connection, an error, or
    /// `deadline`; each ends it, the last two with an error kept in its stats.
    pub async fn run(&mut self, addr: &str, deadline: Instant) {
        let start = Instant::now();
        match tokio::time::timeout_at(deadline, self.session(addr)).await {
            Ok(Ok(())) => {
                if self.stats.decoded == 0 {
                    self.error("the server closed the connection before any snapshot".into());
                }
            }
            Ok(Err(e)) => self.error(e),
            Err(_) => {
                let s = deadline.saturating_duration_since(start).as_secs_f64();
                self.error(format!("timed out after {s:.1} s"));
            }
        }
    }

    /// Keeps `message` among the first errors.
    fn error(&mut self, message: String) {
        if self.stats.errors.len() < KEEP_ERRORS {
            let message = format!("client {}: {message}", self.i);
            self.stats.errors.push((Instant::now(), message));
        }
    }

    /// Connects, then sends inputs and reads snapshots until the server's end of the
    /// stream; then closes its own side.
    async fn session(&mut self, addr: &str) -> Result<(), String> {
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        self.stats.connected = true;
        let (r, w) = stream.into_split();
        let settings = FrameSettings::DEFAULT;
        let mut reader = FramedRead::new(r, FrameCodec::new(settings));
        let mut writer = FramedWrite::new(w, FrameCodec::new(settings));
        let period = Duration::from_secs_f64(tick_seconds());
        let first = Instant::now() + period.mul_f64(self.behaviour.phase());
        let mut interval = tokio::time::interval_at(first, period);
        interval.set_missed_tick_behavior(MissedTickBehavior::Skip);
        loop {
            tokio::select! {
                // Snapshots first: an RTT sample is taken when its frame is handled.
                biased;
                frame = reader.next() => match frame {
                    None => break,
                    Some(Ok(frame)) => self.on_frame(&frame),
                    // A malformed frame is a decode error; a failed socket is not. Either
                    // way nothing after it can be read.
                    Some(Err(e)) if e.frame_error().is_some() => {
                        self.stats.decode_errors += 1;
                        return Err(format!("bad frame: {e}"));
                    }
                    Some(Err(e)) => return Err(format!("connection lost: {e}")),
                },
                _ = interval.tick() => {
                    let frame = self.next_input()?;
                    let bytes = frame_bytes(frame.id, frame.data.len());
                    writer.send(frame).await.map_err(|e| format!("cannot send: {e}"))?;
                    self.stats.inputs_sent += 1;
                    self.stats.bytes_out += bytes;
                }
            }
        }
        writer
            .close()
            .await
            .map_err(|e| format!("cannot close: {e}"))
    }

    /// The next input's frame; remembers when it was sent.
    fn next_input(&mut self) -> Result<RawFrame, String> {
        let seq = self.known.newest_sent + 1;
        let controls = self.behaviour.next(self.at);
        let rtt_us = if seq % RTT_EVERY == 0 {
            self.latest_rtt_us
        } else {
            None
        };
        let input = sim::Input {
            seq,
            ack: self.ack,
            move_x: controls.move_x,
            move_y: controls.move_y,
            aim: controls.aim,
            fire: controls.fire,
            rtt_us,
        };
        self.scratch.clear();
        self.codec
            .encode_input(&input, &mut self.scratch)
            .map_err(|e| format!("cannot encode input {seq}: {e}"))?;
        if let Some(us) = rtt_us {
            self.stats.rtt_reports += 1;
            self.stats.rtt_report_sum_us += u64::from(us);
        }
        self.known.newest_sent = seq;
        if self.pending.len() == PENDING_MAX {
            self.pending.pop_front();
        }
        self.pending.push_back((seq, Instant::now()));
        Ok(RawFrame {
            id: INPUT_ID,
            data: Bytes::copy_from_slice(&self.scratch),
            offset: 0,
        })
    }

    /// A frame from the server: a snapshot decoded, timed and validated.
    fn on_frame(&mut self, frame: &RawFrame) {
        let now = Instant::now();
        if frame.id != SNAPSHOT_ID {
            self.stats.decode_errors += 1;
            self.error(format!("a frame of id {} (not a snapshot)", frame.id));
            return;
        }
        self.stats.snapshots += 1;
        self.stats.bytes_in += frame_bytes(frame.id, frame.data.len());
        let decoded = match self.codec.decode_snapshot(&frame.data) {
            Ok(Some(d)) => d,
            Ok(None) => {
                self.stats.dropped += 1;
                return;
            }
            Err(e) => {
                self.stats.decode_errors += 1;
                let message = format!("snapshot {}: {e}", self.stats.snapshots);
                self.error(message);
                return;
            }
        };
        self.stats.decoded += 1;
        self.ack = decoded.ack;
        let s = decoded.snapshot;
        let verdict = validate(self.prev.as_ref(), s, &self.known);
        if s.input_seq > self.newest_seen {
            self.newest_seen = s.input_seq;
            while self
                .pending
                .front()
                .is_some_and(|&(seq, _)| seq < s.input_seq)
            {
                self.pending.pop_front();
            }
            if let Some(&(seq, sent)) = self.pending.front() {
                if seq == s.input_seq {
                    let rtt = now.saturating_duration_since(sent);
                    self.stats.rtt_ns.push(rtt.as_nanos() as u64);
                    self.latest_rtt_us = Some(u32::try_from(rtt.as_micros()).unwrap_or(u32::MAX));
                }
            }
        }
        self.known.you.get_or_insert(s.you);
        self.at = s
            .entities
            .binary_search_by_key(&s.you, |e| e.id)
            .ok()
            .map(|at| (s.entities[at].x, s.entities[at].y));
        match &mut self.prev {
            Some(p) => p.clone_from(s),
            None => self.prev = Some(s.clone()),
        }
        if let Err(invalid) = verdict {
            self.stats.invalid += 1;
            let message = format!("snapshot of tick {}: {invalid}", s.tick);
            self.error(message);
        }
    }
}
