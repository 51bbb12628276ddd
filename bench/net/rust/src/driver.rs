//! The load generator (bench/net/README.md, "The load generator"): every connection of a
//! cell on one thread (a tokio current-thread runtime), Ping frames copied from a
//! [`Template`] with `seq` patched in, replies read with bitwire's [`FrameReader`] and
//! checked (id, `seq`, length and every byte of Data).
//!
//! A cell runs in two phases over the same connections: the warm-up (not measured),
//! then — once every connection has finished it — the measured phase, around which the
//! server's and the driver's CPU times are read. A round trip is timed from just before
//! the write of its Ping to the return of the read that brought its reply.

use std::cell::Cell;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::ops::Range;
use std::time::{Duration, Instant};

use bitwire::frame::{FrameReader, FrameSettings};
use futures_util::future::try_join_all;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::packet::Template;
use crate::sys;

/// Bytes the driver reads at once per connection: more than a whole window of the
/// largest frames (32 × 1027), so one read takes everything that arrived.
const READ_BUFFER: usize = 64 * 1024;

/// How a connection sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// One packet in flight per connection (closed loop): latency.
    PingPong,
    /// A window of packets in flight per connection: throughput.
    Pipeline,
}

impl Mode {
    /// Both modes, in the order of the matrix.
    pub const ALL: [Mode; 2] = [Mode::PingPong, Mode::Pipeline];

    /// The name in results.json and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mode::PingPong => "pingpong",
            Mode::Pipeline => "pipeline",
        }
    }
}

impl std::str::FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Mode, String> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("no mode {s:?} (pingpong, pipeline)"))
    }
}

/// One cell of the matrix against a running server.
#[derive(Debug, Clone)]
pub struct CellSpec {
    /// The server's address.
    pub addr: SocketAddr,
    /// Closed loop or pipelined.
    pub mode: Mode,
    /// Concurrent connections.
    pub connections: usize,
    /// Packet size: bytes of the frame's Data.
    pub size: usize,
    /// Packets per connection before the measured phase.
    pub warmup: u32,
    /// Measured packets per connection.
    pub packets: u32,
    /// Packets in flight per connection in [`Mode::Pipeline`].
    pub window: u32,
    /// The reply's message id: 2 (Pong) from a bitwire server, 1 from a raw echo.
    pub reply_id: u32,
    /// The whole cell's time limit; reaching it is an error, not a hang.
    pub timeout: Duration,
    /// The server's process, for its CPU time (none: not measured).
    pub server_pid: Option<u32>,
}

/// What a cell measured.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Bytes of one Ping frame (Length, PacketID, Data).
    pub frame_bytes: usize,
    /// Round trips of the measured phase.
    pub packets: u64,
    /// Wall time of the measured phase.
    pub seconds: f64,
    /// Every measured round trip, in ns.
    pub latencies_ns: Vec<u64>,
    /// Bytes written in the measured phase.
    pub bytes_sent: u64,
    /// Bytes read in the measured phase.
    pub bytes_received: u64,
    /// The server's CPU time in the measured phase, when its process is known.
    pub server_cpu: Option<Duration>,
    /// The driver thread's CPU time in the measured phase.
    pub driver_cpu: Duration,
    /// Replies received in both phases.
    pub replies: u64,
    /// Why the cell failed (`None`: it did not).
    pub error: Option<String>,
}

/// Runs cells, one at a time, on the calling thread.
#[derive(Debug)]
pub struct Driver {
    rt: tokio::runtime::Runtime,
}

impl Driver {
    /// A driver with its own current-thread runtime.
    pub fn new() -> std::io::Result<Driver> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        Ok(Driver { rt })
    }

    /// Runs one cell to its end, its first error or its timeout.
    pub fn run(&self, spec: &CellSpec) -> Outcome {
        let template = match Template::new(spec.size) {
            Ok(t) => t,
            Err(e) => {
                return Outcome {
                    error: Some(e),
                    ..Outcome::default()
                }
            }
        };
        let replies = Cell::new(0);
        let cell = run_cell(spec, &template, &replies);
        let result = self
            .rt
            .block_on(async { tokio::time::timeout(spec.timeout, cell).await });
        let mut outcome = match result {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(e)) => Outcome {
                error: Some(e),
                ..Outcome::default()
            },
            Err(_) => {
                let wanted = spec.connections as u64 * u64::from(spec.warmup + spec.packets);
                let error = format!(
                    "timed out after {:?} with {} of {wanted} replies",
                    spec.timeout,
                    replies.get()
                );
                Outcome {
                    error: Some(error),
                    ..Outcome::default()
                }
            }
        };
        outcome.frame_bytes = template.frame_len();
        outcome.replies = replies.get();
        outcome
    }
}

async fn run_cell(
    spec: &CellSpec,
    template: &Template,
    replies: &Cell<u64>,
) -> Result<Outcome, String> {
    let mut conns = Vec::with_capacity(spec.connections);
    for i in 0..spec.connections {
        let conn = Conn::connect(spec.addr)
            .await
            .map_err(|e| format!("connection {i}: cannot connect to {}: {e}", spec.addr))?;
        conns.push(conn);
    }
    let window = match spec.mode {
        Mode::PingPong => 1,
        Mode::Pipeline => spec.window.max(1),
    };
    let run = Run {
        template,
        window,
        reply_id: spec.reply_id,
        replies,
    };
    let warmup = 0..spec.warmup;
    try_join_all(conns.iter_mut().enumerate().map(|(i, c)| {
        let run = &run;
        let seqs = warmup.clone();
        async move {
            c.exchange(run, seqs, None)
                .await
                .map_err(|e| format!("connection {i}: {e}"))
        }
    }))
    .await?;
    for c in &mut conns {
        (c.bytes_sent, c.bytes_received) = (0, 0);
    }

    let measured = spec.warmup..spec.warmup + spec.packets;
    let mut latencies: Vec<Vec<u64>> = (0..spec.connections)
        .map(|_| Vec::with_capacity(spec.packets as usize))
        .collect();
    let server_before = spec.server_pid.map(sys::process_cpu).transpose()?;
    let driver_before = sys::thread_cpu();
    let start = Instant::now();
    try_join_all(
        conns
            .iter_mut()
            .zip(&mut latencies)
            .enumerate()
            .map(|(i, (c, l))| {
                let run = &run;
                let seqs = measured.clone();
                async move {
                    c.exchange(run, seqs, Some(l))
                        .await
                        .map_err(|e| format!("connection {i}: {e}"))
                }
            }),
    )
    .await?;
    let seconds = start.elapsed().as_secs_f64();
    let driver_cpu = sys::thread_cpu().saturating_sub(driver_before);
    let server_cpu = match (server_before, spec.server_pid) {
        (Some(before), Some(pid)) => Some(sys::cpu_between(&before, &sys::process_cpu(pid)?)),
        _ => None,
    };
    Ok(Outcome {
        packets: spec.connections as u64 * u64::from(spec.packets),
        seconds,
        latencies_ns: latencies.concat(),
        bytes_sent: conns.iter().map(|c| c.bytes_sent).sum(),
        bytes_received: conns.iter().map(|c| c.bytes_received).sum(),
        server_cpu,
        driver_cpu,
        ..Outcome::default()
    })
}

/// What every connection of a cell shares.
struct Run<'a> {
    template: &'a Template,
    /// Packets in flight per connection (1: ping-pong).
    window: u32,
    reply_id: u32,
    /// Replies of all connections so far, for the timeout's message.
    replies: &'a Cell<u64>,
}

/// One connection of the driver.
struct Conn {
    stream: TcpStream,
    reader: FrameReader,
    input: Box<[u8]>,
    out: Vec<u8>,
    /// When each packet in flight was written, oldest first.
    sent: VecDeque<Instant>,
    bytes_sent: u64,
    bytes_received: u64,
}

impl Conn {
    async fn connect(addr: SocketAddr) -> std::io::Result<Conn> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(Conn {
            stream,
            reader: FrameReader::new(FrameSettings::new()),
            input: vec![0; READ_BUFFER].into_boxed_slice(),
            out: Vec::new(),
            sent: VecDeque::new(),
            bytes_sent: 0,
            bytes_received: 0,
        })
    }

    /// Sends the Pings `seqs`, keeping `run.window` in flight, and reads and checks
    /// their replies; records each round trip in `latencies` if given.
    async fn exchange(
        &mut self,
        run: &Run<'_>,
        seqs: Range<u32>,
        mut latencies: Option<&mut Vec<u64>>,
    ) -> Result<(), String> {
        let (first, end) = (seqs.start, seqs.end);
        let (mut next, mut expected) = (first, first);
        self.out.clear();
        while next < end && next - expected < run.window {
            run.template.write(next, &mut self.out);
            next += 1;
        }
        self.send(next - first).await?;
        while expected < end {
            let n = match self.stream.read(&mut self.input).await {
                Ok(0) => {
                    return Err(format!(
                        "the server closed the connection after {} of {} replies",
                        expected - first,
                        end - first
                    ))
                }
                Ok(n) => n,
                Err(e) => return Err(format!("read: {e}")),
            };
            let now = Instant::now();
            self.bytes_received += n as u64;
            let mut input = &self.input[..n];
            let before = next;
            self.out.clear();
            while let Some(frame) = self
                .reader
                .next_frame(&mut input)
                .map_err(|e| format!("bad reply: {e}"))?
            {
                if expected >= end {
                    return Err(format!("a reply (id {}) to no request", frame.id));
                }
                run.template
                    .check_reply(expected, run.reply_id, frame.id, frame.data)?;
                let sent = self.sent.pop_front().ok_or("a reply before its request")?;
                if let Some(l) = latencies.as_deref_mut() {
                    l.push(now.duration_since(sent).as_nanos() as u64);
                }
                expected += 1;
                run.replies.set(run.replies.get() + 1);
                if next < end {
                    run.template.write(next, &mut self.out);
                    next += 1;
                }
            }
            self.send(next - before).await?;
        }
        Ok(())
    }

    /// Writes `self.out`, which holds `count` Pings.
    async fn send(&mut self, count: u32) -> Result<(), String> {
        if count == 0 {
            return Ok(());
        }
        let now = Instant::now();
        self.sent.extend(std::iter::repeat_n(now, count as usize));
        self.stream
            .write_all(&self.out)
            .await
            .map_err(|e| format!("write: {e}"))?;
        self.bytes_sent += self.out.len() as u64;
        Ok(())
    }
}
