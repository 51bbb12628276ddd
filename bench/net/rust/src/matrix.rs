//! The orchestrator: the command line of `netbench`, and the run of the matrix — every
//! selected server started in turn, every cell (mode × connections × size) driven
//! against it, its `served` line checked, `results.json` rewritten after each server.
//! With `--interleave` every server is started first and each cell is run against every
//! server in turn, so that the figures compared in the report (a server against its raw
//! baseline) are measured seconds apart even when the machine's load drifts.

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::cli::Args;
use crate::driver::{Driver, Mode};
use crate::packet::SIZES;
use crate::results::{self, Results, Settings};
use crate::serverrun::{CellPlan, ServerRun};
use crate::servers::{self, Programs, ServerDef};
use crate::{machine, sys};

/// `netbench`'s usage.
pub const USAGE: &str = "usage: netbench [--quick | --tiny] [--servers a,b,...] [--sizes 8,64,...]
       [--connections 1,4,...] [--modes pingpong,pipeline] [--packets N] [--warmup N]
       [--window N] [--timeout SECONDS] [--interleave] [--out DIR] [--root DIR]
  full matrix: sizes 8..1024, connections 1,4,32,128, both modes, 5000 packets
    (+ 500 warm-up) per connection -> bench/results/<date>/net/
  --quick: sizes 8,256, connections 1,4,32, 1000 packets -> target/netbench/quick/
  --tiny (CI): size 64, connections 1,4, 200 packets -> target/netbench/tiny/
  --interleave: start every server first, run each cell against each server in turn
  servers: rust-mt rust-ct rust-raw go go-raw node node-raw bun bun-raw deno deno-raw mcproto
  env: NETBENCH_GO, NODE, BUN, DENO (the programs; see bench/net/README.md)";

/// Fewest packets per second a cell may average before its default timeout.
const SLOWEST_PPS: u64 = 5_000;

/// What to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Server ids, in order.
    pub servers: Vec<String>,
    /// Packet sizes.
    pub sizes: Vec<usize>,
    /// Connection counts.
    pub connections: Vec<usize>,
    /// Modes.
    pub modes: Vec<Mode>,
    /// Measured packets per connection.
    pub packets: u32,
    /// Warm-up packets per connection.
    pub warmup: u32,
    /// Pipeline window.
    pub window: u32,
    /// A fixed per-cell timeout (default: 60 s, or longer for big cells).
    pub timeout: Option<Duration>,
    /// Where results.json and the logs go.
    pub out: PathBuf,
    /// The repository (the servers' relative paths start there).
    pub root: PathBuf,
    /// A smaller matrix than the full one.
    pub quick: bool,
    /// All servers at once, each cell against each server in turn.
    pub interleave: bool,
}

impl Options {
    /// Parses `netbench`'s arguments (without the program name).
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let valued = [
            "servers",
            "sizes",
            "connections",
            "modes",
            "packets",
            "warmup",
            "window",
            "timeout",
            "out",
            "root",
        ];
        let a = Args::parse(args, &valued, &["quick", "tiny", "interleave"])?;
        let (quick, tiny) = (a.has("quick"), a.has("tiny"));
        if quick && tiny {
            return Err("--quick and --tiny exclude each other".into());
        }
        let (sizes, connections, packets) = if tiny {
            (vec![64], vec![1, 4], 200)
        } else if quick {
            (vec![8, 256], vec![1, 4, 32], 1000)
        } else {
            (SIZES.to_vec(), vec![1, 4, 32, 128], 5000)
        };
        let all: Vec<String> = servers::table(&Programs::from_env())
            .iter()
            .map(|s| s.id.to_string())
            .collect();
        let packets = a.parsed("packets")?.unwrap_or(packets);
        let root = match a.get("root") {
            Some(r) => PathBuf::from(r),
            None => find_root()?,
        };
        let date = &results::rfc3339(SystemTime::now())[..10];
        let out = match (a.get("out"), tiny, quick) {
            (Some(o), _, _) => PathBuf::from(o),
            (None, true, _) => root.join("target/netbench/tiny"),
            (None, _, true) => root.join("target/netbench/quick"),
            (None, _, _) => root.join(format!("bench/results/{date}/net")),
        };
        let options = Options {
            servers: a.list("servers")?.unwrap_or(all.clone()),
            sizes: a.list("sizes")?.unwrap_or(sizes),
            connections: a.list("connections")?.unwrap_or(connections),
            modes: a.list("modes")?.unwrap_or(Mode::ALL.to_vec()),
            packets,
            warmup: a.parsed("warmup")?.unwrap_or(packets / 10),
            window: a.parsed("window")?.unwrap_or(32),
            timeout: a.parsed::<f64>("timeout")?.map(Duration::from_secs_f64),
            out,
            root,
            quick: quick || tiny,
            interleave: a.has("interleave"),
        };
        if let Some(bad) = options.servers.iter().find(|s| !all.contains(s)) {
            return Err(format!("no server {bad:?} (servers: {})", all.join(", ")));
        }
        for &size in &options.sizes {
            crate::packet::data_len(size)?;
        }
        if options.connections.contains(&0) || options.packets == 0 || options.window == 0 {
            return Err("connections, packets and window must be at least 1".into());
        }
        Ok(options)
    }

    /// The cells of the matrix, modes outermost, sizes innermost.
    fn cells(&self) -> Vec<CellPlan> {
        let mut cells = Vec::new();
        for &mode in &self.modes {
            for &connections in &self.connections {
                for &size in &self.sizes {
                    cells.push(CellPlan {
                        mode,
                        connections,
                        size,
                        warmup: self.warmup,
                        packets: self.packets,
                        window: self.window,
                        timeout: self.timeout(connections),
                    });
                }
            }
        }
        cells
    }

    /// The untimed cells a server answers before its first measured one: every size,
    /// pipelined over 4 connections, `packets` packets each. A cell's own warm-up is too
    /// short for a JIT compiler (V8, JavaScriptCore) to reach its steady state: Node
    /// answered one connection's ping-pong at 20k packets/s after 500 warm-up packets and
    /// at 34k after 20,000.
    fn primer(&self) -> Vec<CellPlan> {
        self.sizes
            .iter()
            .map(|&size| CellPlan {
                mode: Mode::Pipeline,
                connections: PRIME_CONNECTIONS,
                size,
                warmup: 0,
                packets: self.packets,
                window: self.window,
                timeout: self.timeout(PRIME_CONNECTIONS),
            })
            .collect()
    }

    /// Packets (warm-up included) of a cell with `connections`.
    fn cell_packets(&self, connections: usize) -> u64 {
        connections as u64 * u64::from(self.warmup + self.packets)
    }

    fn timeout(&self, connections: usize) -> Duration {
        let slow = Duration::from_secs(self.cell_packets(connections) / SLOWEST_PPS);
        self.timeout
            .unwrap_or_else(|| slow.max(Duration::from_secs(60)))
    }
}

/// The repository root: the nearest directory upwards holding `bench/net/README.md`.
fn find_root() -> Result<PathBuf, String> {
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    cwd.ancestors()
        .find(|d| d.join("bench/net/README.md").is_file())
        .map(Path::to_path_buf)
        .ok_or_else(|| "not inside the bitwire repository: give --root".to_string())
}

/// Progress and the time left, on stderr and in `logs/progress.log`. The time left is
/// the packets of each cell still to run at the rate (wall seconds per packet) of the
/// cells run so far with the same mode and connection count — their costs differ by
/// 20× — or of all cells when none has run yet.
struct Progress {
    start: Instant,
    /// When the previous cell ended.
    last: Instant,
    cells: usize,
    done: usize,
    /// The cells still to run: mode, connections, packets.
    left: VecDeque<(Mode, usize, u64)>,
    /// Wall seconds and packets of the cells that ran, by mode and connections.
    seen: HashMap<(Mode, usize), (f64, u64)>,
    log: Option<std::fs::File>,
}

impl Progress {
    fn new(opts: &Options, servers: usize, log: Option<std::fs::File>) -> Progress {
        let cell = |c: CellPlan| (c.mode, c.connections, opts.cell_packets(c.connections));
        let left: VecDeque<_> = if opts.interleave {
            let cells = opts.cells().into_iter();
            cells
                .flat_map(|c| (0..servers).map(move |_| cell(c)))
                .collect()
        } else {
            let cells = opts.cells();
            (0..servers)
                .flat_map(|_| cells.iter().map(|&c| cell(c)))
                .collect()
        };
        Progress {
            start: Instant::now(),
            last: Instant::now(),
            cells: left.len(),
            done: 0,
            left,
            seen: HashMap::new(),
            log,
        }
    }

    /// Reports the cell that just ended (`ran`: it ran to its end, so its time counts).
    fn line(&mut self, ran: bool, what: &str) {
        let now = Instant::now();
        let took = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.done += 1;
        if let Some((mode, connections, packets)) = self.left.pop_front() {
            if ran {
                let seen = self.seen.entry((mode, connections)).or_default();
                *seen = (seen.0 + took, seen.1 + packets);
            }
        }
        let all = self
            .seen
            .values()
            .fold((0.0, 0), |(s, p), &(s2, p2)| (s + s2, p + p2));
        let rate = |key| {
            let (secs, packets) = self.seen.get(&key).copied().unwrap_or(all);
            secs / packets.max(1) as f64
        };
        let left: f64 = self
            .left
            .iter()
            .map(|&(m, c, packets)| rate((m, c)) * packets as f64)
            .sum();
        let elapsed = self.start.elapsed().as_secs_f64();
        let (done, cells) = (self.done, self.cells);
        let line = format!(
            "[{done}/{cells} {}] {what} (~{} left)",
            mmss(elapsed),
            mmss(left)
        );
        eprintln!("{line}");
        if let Some(log) = &mut self.log {
            let _ = writeln!(log, "{line}");
        }
    }
}

impl Progress {
    /// Runs `plan` against `run` and reports it.
    fn cell(&mut self, run: &mut ServerRun, plan: &CellPlan, driver: &Driver) {
        let record = run.run_cell(plan, driver);
        let what = match &record.error {
            None => format!(
                "{:.0} pps, p99 {:.1} µs",
                record.pps,
                record.latency_us.as_ref().map_or(0.0, |l| l.p99)
            ),
            Some(e) => format!("ERROR {e}"),
        };
        let (mode, connections, size) = (record.mode, record.connections, record.size);
        let line = format!("{} {mode} {connections} {size}: {what}", record.server);
        self.line(record.error.is_none(), &line);
    }
}

/// Connections of the untimed priming cells ([`Options::primer`]).
const PRIME_CONNECTIONS: usize = 4;

fn mmss(seconds: f64) -> String {
    let s = seconds.round() as u64;
    format!("{:02}:{:02}", s / 60, s % 60)
}

/// Runs the matrix and writes `results.json`; returns whether every cell and every
/// server's `served` check passed.
pub fn run(opts: &Options) -> Result<bool, String> {
    let started = SystemTime::now();
    let programs = Programs::from_env();
    let table = servers::table(&programs);
    let selected: Vec<&ServerDef> = opts
        .servers
        .iter()
        .filter_map(|id| table.iter().find(|s| s.id == id))
        .collect();
    let (pin, pinning) = pin_driver()?;
    let logs = opts.out.join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let runtimes: Vec<&str> = selected.iter().map(|s| s.runtime).collect();
    let mut results = Results {
        schema: results::SCHEMA,
        quick: opts.quick,
        started: results::rfc3339(started),
        seconds: 0.0,
        machine: machine::describe(&opts.root, &programs, &runtimes, &pinning),
        settings: Settings {
            warmup: opts.warmup,
            packets: opts.packets,
            window: opts.window,
            sizes: opts.sizes.clone(),
            connections: opts.connections.clone(),
            modes: opts.modes.iter().map(|m| m.name()).collect(),
            prime: opts.primer().iter().map(|p| p.packets).sum::<u32>() * PRIME_CONNECTIONS as u32,
        },
        servers: Vec::new(),
        cells: Vec::new(),
    };
    let log = servers::append(&logs.join("progress.log")).ok();
    let mut progress = Progress::new(opts, selected.len(), log);
    let driver = Driver::new().map_err(|e| format!("cannot start the driver's runtime: {e}"))?;
    let mut write = |runs: &[ServerRun]| {
        results.servers = runs.iter().map(|r| r.server.clone()).collect();
        results.cells = runs.iter().flat_map(|r| r.cells.iter().cloned()).collect();
        let seconds = started.elapsed().unwrap_or_default().as_secs_f64();
        results.seconds = (seconds * 10.0).round() / 10.0;
        write_results(&opts.out, &results)
    };
    let primer = opts.primer();
    let start = |def| {
        let mut run = ServerRun::start(def, &opts.root, &logs, pin);
        run.prime(&primer, &driver);
        run
    };
    let mut runs: Vec<ServerRun> = Vec::new();
    if opts.interleave {
        runs = selected.into_iter().map(start).collect();
        for plan in opts.cells() {
            for run in &mut runs {
                progress.cell(run, &plan, &driver);
            }
            write(&runs)?;
        }
        runs.iter_mut().for_each(ServerRun::stop);
    } else {
        for def in selected {
            let mut run = start(def);
            for plan in opts.cells() {
                progress.cell(&mut run, &plan, &driver);
            }
            run.stop();
            runs.push(run);
            write(&runs)?;
        }
    }
    write(&runs)?;
    Ok(runs.iter().all(ServerRun::ok))
}

/// Pins the driver to core 1 when the servers can go on core 0; returns whether they
/// do and the pinning as results.json records it.
fn pin_driver() -> Result<(bool, String), String> {
    let cores = sys::cores();
    if cores >= 2 && servers::taskset_works() {
        sys::pin_to_core(1)?;
        let how = "server: core 0 (taskset -c 0), driver: core 1 (sched_setaffinity)";
        Ok((true, how.to_string()))
    } else if cores >= 2 {
        let how = "none: taskset is missing; the server and the driver share the cores";
        Ok((false, how.to_string()))
    } else {
        Ok((
            false,
            "none: one core, shared by the server and the driver".to_string(),
        ))
    }
}

/// Writes `out/results.json` whole (a temporary file renamed over it).
fn write_results(out: &Path, results: &Results) -> Result<(), String> {
    let json = serde_json::to_string_pretty(results).map_err(|e| e.to_string())?;
    let tmp = out.join("results.json.tmp");
    std::fs::write(&tmp, json + "\n").map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, out.join("results.json")).map_err(|e| e.to_string())
}
