//! One server through a run: started, driven cell by cell, stopped and its `served`
//! line checked. The orchestrator ([`crate::matrix`]) runs the servers one after the
//! other, or all at once with their cells interleaved.

use std::path::Path;
use std::time::Duration;

use crate::driver::{CellSpec, Driver, Mode, Outcome};
use crate::results::{CellRecord, Server};
use crate::servers::{self, Running, ServerDef};
use crate::stats;

/// Consecutive timed-out cells after which a server's remaining cells are not run.
const TIMEOUTS_TO_GIVE_UP: u32 = 2;

/// The cell parameters every server of a run shares.
#[derive(Debug, Clone, Copy)]
pub struct CellPlan {
    /// Closed loop or pipelined.
    pub mode: Mode,
    /// Concurrent connections.
    pub connections: usize,
    /// Packet size.
    pub size: usize,
    /// Warm-up packets per connection.
    pub warmup: u32,
    /// Measured packets per connection.
    pub packets: u32,
    /// Pipeline window.
    pub window: u32,
    /// The cell's time limit.
    pub timeout: Duration,
}

/// A server of the run and what it has measured so far.
#[derive(Debug)]
pub struct ServerRun<'a> {
    def: &'a ServerDef,
    running: Option<Running>,
    /// Its record in results.json (`served` and `error` complete after [`ServerRun::stop`]).
    pub server: Server,
    /// Its cells so far.
    pub cells: Vec<CellRecord>,
    /// Packets of the cells that passed (warm-up included): what it must have served.
    expected: u64,
    /// Why its remaining cells are not run, once that is decided.
    skip: Option<String>,
    /// Timed-out cells in a row.
    timeouts: u32,
}

impl<'a> ServerRun<'a> {
    /// Starts `def` (pinned when `pin`), logging to `logs/<id>.log`; a server that does
    /// not start has every cell recorded as an error.
    pub fn start(def: &'a ServerDef, root: &Path, logs: &Path, pin: bool) -> ServerRun<'a> {
        let mut server = Server {
            id: def.id,
            runtime: def.runtime,
            kind: def.kind.name(),
            baseline: def.baseline,
            label: def.label,
            command: def.command.clone(),
            served: None,
            error: None,
        };
        let log = logs.join(format!("{}.log", def.id));
        let running = match servers::start(def, root, pin, &log) {
            Ok(r) => Some(r),
            Err(e) => {
                let e = format!("the server did not start: {e}");
                eprintln!("{}: {e}", def.id);
                server.error = Some(e);
                None
            }
        };
        ServerRun {
            def,
            running,
            skip: server.error.clone(),
            server,
            cells: Vec::new(),
            expected: 0,
            timeouts: 0,
        }
    }

    /// Runs the untimed priming cells (not recorded; their packets count in the `served`
    /// check). A failure gives up on the server: its cells are then recorded as not run.
    pub fn prime(&mut self, plans: &[CellPlan], driver: &Driver) {
        for plan in plans {
            if self.skip.is_some() {
                return;
            }
            let outcome = driver.run(&self.spec(plan));
            match outcome.error {
                None => self.expected += plan.connections as u64 * u64::from(plan.packets),
                Some(e) => {
                    let e = format!("not run: priming ({} B) failed: {e}", plan.size);
                    eprintln!("{}: {e}", self.def.id);
                    self.skip = Some(e);
                }
            }
        }
    }

    fn spec(&self, plan: &CellPlan) -> CellSpec {
        CellSpec {
            addr: self
                .running
                .as_ref()
                .map_or(([127, 0, 0, 1], 0).into(), |r| r.addr),
            mode: plan.mode,
            connections: plan.connections,
            size: plan.size,
            warmup: plan.warmup,
            packets: plan.packets,
            window: plan.window,
            reply_id: self.def.kind.reply_id(),
            timeout: plan.timeout,
            server_pid: self.running.as_ref().map(|r| r.pid),
        }
    }

    /// Runs one cell (or records why it is not run) and returns its record.
    pub fn run_cell(&mut self, plan: &CellPlan, driver: &Driver) -> &CellRecord {
        let spec = self.spec(plan);
        let outcome = match &self.skip {
            None => driver.run(&spec),
            Some(reason) => Outcome {
                error: Some(reason.clone()),
                ..Outcome::default()
            },
        };
        match &outcome.error {
            None => {
                let per_connection = u64::from(plan.warmup + plan.packets);
                self.expected += plan.connections as u64 * per_connection;
                self.timeouts = 0;
            }
            Some(e) if self.skip.is_none() => self.failed(e),
            Some(_) => {}
        }
        self.cells.push(record(self.def, &spec, outcome));
        &self.cells[self.cells.len() - 1]
    }

    /// After a failed cell: gives up on a server that exited or keeps timing out.
    fn failed(&mut self, error: &str) {
        if error.starts_with("timed out") {
            self.timeouts += 1;
        } else {
            self.timeouts = 0;
        }
        if let Some(status) = self.running.as_mut().and_then(|r| r.exited()) {
            self.skip = Some(format!("not run: the server exited ({status})"));
        } else if self.timeouts >= TIMEOUTS_TO_GIVE_UP {
            let n = self.timeouts;
            self.skip = Some(format!(
                "not run: the server timed out in {n} cells in a row"
            ));
        }
    }

    /// Stops the server and checks its `served` line: 0 errors, and every packet sent
    /// answered when every cell passed.
    pub fn stop(&mut self) {
        let Some(running) = self.running.take() else {
            return;
        };
        let all_ok = self.cells.iter().all(|c| c.errors == 0);
        let server = &mut self.server;
        match running.stop() {
            Ok(s) => {
                server.served = Some(format!("served {} packets, {} errors", s.packets, s.errors));
                if s.errors != 0 {
                    server.error = Some(format!("the server counted {} errors", s.errors));
                } else if all_ok && s.packets != self.expected {
                    let expected = self.expected;
                    let e = format!("served {} packets, the driver sent {expected}", s.packets);
                    server.error = Some(e);
                }
            }
            Err(e) => server.error = Some(format!("the server did not stop cleanly: {e}")),
        }
        if let Some(e) = &server.error {
            eprintln!("{}: {e}", self.def.id);
        }
    }

    /// Whether the server and every cell so far passed.
    pub fn ok(&self) -> bool {
        self.server.error.is_none() && self.cells.iter().all(|c| c.errors == 0)
    }
}

/// The record of a cell from what the driver measured.
fn record(def: &ServerDef, spec: &CellSpec, mut o: Outcome) -> CellRecord {
    let ok = o.error.is_none();
    let per_packet = |d: Duration| {
        let us = d.as_secs_f64() * 1e6 / o.packets.max(1) as f64;
        (us * 1000.0).round() / 1000.0
    };
    CellRecord {
        server: def.id,
        mode: spec.mode.name(),
        connections: spec.connections,
        size: spec.size,
        frame_bytes: o.frame_bytes,
        packets: o.packets,
        seconds: (o.seconds * 1e6).round() / 1e6,
        pps: if ok && o.seconds > 0.0 {
            (o.packets as f64 / o.seconds * 10.0).round() / 10.0
        } else {
            0.0
        },
        latency_us: if ok {
            stats::summarize(&mut o.latencies_ns)
        } else {
            None
        },
        server_cpu_us_per_packet: o.server_cpu.filter(|_| ok).map(per_packet),
        driver_cpu_us_per_packet: Some(o.driver_cpu).filter(|_| ok).map(per_packet),
        bytes_sent: o.bytes_sent,
        bytes_received: o.bytes_received,
        errors: u32::from(!ok),
        error: o.error,
    }
}
