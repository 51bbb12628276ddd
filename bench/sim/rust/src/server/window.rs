//! The measured window (bench/sim/README.md, "simserver"): it starts `--warmup`
//! seconds after `--clients` clients are connected and covers the ticks scheduled in
//! the next `--seconds`; its figures are the counters' differences over it and every
//! tick's sync and tick time.

use std::time::{Duration, Instant};

use bitwire_netbench::stats::summarize;

use super::config::WindowPlan;
use super::metrics::{process_cpu, Metrics};
use crate::results::Window;

/// The counters at the window's start.
#[derive(Debug, Clone, Copy)]
struct Baseline {
    /// When its first tick was scheduled, and when it started.
    scheduled: Instant,
    started: Instant,
    cpu: Duration,
    ticks: u64,
    overruns: u64,
    skipped: u64,
    snapshots: u64,
    bytes_out: u64,
    inputs: u64,
    bytes_in: u64,
}

impl Baseline {
    fn read(m: &Metrics, scheduled: Instant, started: Instant) -> Baseline {
        Baseline {
            scheduled,
            started,
            cpu: process_cpu(),
            ticks: m.ticks.get(),
            overruns: m.overruns.get(),
            skipped: m.skipped.get(),
            snapshots: m.snapshots_sent.get(),
            bytes_out: m.bytes_out.get(),
            inputs: m.inputs_received.get(),
            bytes_in: m.bytes_in.get(),
        }
    }
}

#[derive(Debug)]
enum State {
    /// No window (interactive), or waiting for the clients.
    Waiting,
    Warmup(Instant),
    Measuring(Baseline),
    Done(Window),
}

/// Whether the tick loop goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Run the tick.
    Tick,
    /// The window is over: stop ticking.
    Stop,
}

/// The window's state and per-tick samples.
#[derive(Debug)]
pub struct WindowClock {
    plan: Option<WindowPlan>,
    state: State,
    sync_ns: Vec<u64>,
    tick_ns: Vec<u64>,
    entities: u64,
}

impl WindowClock {
    /// A clock for `plan` (`None`: no window, tick until stopped).
    pub fn new(plan: Option<WindowPlan>) -> WindowClock {
        WindowClock {
            plan,
            state: State::Waiting,
            sync_ns: Vec::new(),
            tick_ns: Vec::new(),
            entities: 0,
        }
    }

    /// Whether the window is being measured.
    pub fn is_measuring(&self) -> bool {
        matches!(self.state, State::Measuring(_))
    }

    /// Before the tick scheduled at `scheduled` (now `now`, `connected` clients):
    /// starts or ends the window.
    pub fn before_tick(
        &mut self,
        m: &Metrics,
        scheduled: Instant,
        now: Instant,
        connected: usize,
    ) -> Next {
        let Some(plan) = self.plan else {
            return Next::Tick;
        };
        if let State::Waiting = self.state {
            if connected >= plan.clients {
                self.state = State::Warmup(now + plan.warmup);
            }
        }
        if let State::Warmup(until) = self.state {
            if scheduled >= until {
                self.state = State::Measuring(Baseline::read(m, scheduled, now));
                m.window_active.set(1);
                let ticks = (plan.seconds.as_secs_f64() * 60.0).ceil() as usize + 1;
                self.sync_ns.reserve(ticks);
                self.tick_ns.reserve(ticks);
            }
        }
        if let State::Measuring(b) = self.state {
            if scheduled >= b.scheduled + plan.seconds {
                self.close(m, now);
                return Next::Stop;
            }
        }
        if let State::Done(_) = self.state {
            return Next::Stop;
        }
        Next::Tick
    }

    /// After a tick: its sync and tick time and the entities its snapshots carried.
    pub fn after_tick(&mut self, sync_ns: u64, tick_ns: u64, entities: u64) {
        if self.is_measuring() {
            self.sync_ns.push(sync_ns);
            self.tick_ns.push(tick_ns);
            self.entities += entities;
        }
    }

    /// Ends a window being measured at `now` (the run was stopped early: the window
    /// then covers what it measured).
    pub fn close(&mut self, m: &Metrics, now: Instant) {
        let State::Measuring(b) = self.state else {
            return;
        };
        m.window_active.set(0);
        let seconds = (now - b.started).as_secs_f64();
        let cpu = process_cpu().saturating_sub(b.cpu).as_secs_f64();
        let snapshots = m.snapshots_sent.get() - b.snapshots;
        let window = Window {
            seconds,
            ticks: m.ticks.get() - b.ticks,
            overruns: m.overruns.get() - b.overruns,
            skipped: m.skipped.get() - b.skipped,
            sync_us: summarize(&mut self.sync_ns),
            tick_us: summarize(&mut self.tick_ns),
            cpu_seconds: cpu,
            cpu_percent: if seconds > 0.0 {
                cpu / seconds * 100.0
            } else {
                0.0
            },
            snapshots,
            bytes_out: m.bytes_out.get() - b.bytes_out,
            inputs: m.inputs_received.get() - b.inputs,
            bytes_in: m.bytes_in.get() - b.bytes_in,
            views_entities_mean: if snapshots > 0 {
                self.entities as f64 / snapshots as f64
            } else {
                0.0
            },
        };
        self.state = State::Done(window);
    }

    /// The window measured (all zero if none was).
    pub fn window(&self) -> Window {
        match &self.state {
            State::Done(w) => w.clone(),
            _ => Window {
                seconds: 0.0,
                ticks: 0,
                overruns: 0,
                skipped: 0,
                sync_us: None,
                tick_us: None,
                cpu_seconds: 0.0,
                cpu_percent: 0.0,
                snapshots: 0,
                bytes_out: 0,
                inputs: 0,
                bytes_in: 0,
                views_entities_mean: 0.0,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::CodecKind;

    #[test]
    fn waits_for_the_clients_then_the_warmup_then_measures() {
        let m = Metrics::new(CodecKind::Bitwire);
        let plan = WindowPlan {
            clients: 2,
            warmup: Duration::from_secs(1),
            seconds: Duration::from_secs(2),
        };
        let mut clock = WindowClock::new(Some(plan));
        let t0 = Instant::now();
        let at = |s: f64| t0 + Duration::from_secs_f64(s);
        assert_eq!(clock.before_tick(&m, at(0.0), at(0.0), 1), Next::Tick);
        assert_eq!(clock.before_tick(&m, at(0.5), at(0.5), 2), Next::Tick); // warmup to 1.5
        assert!(!clock.is_measuring());
        assert_eq!(clock.before_tick(&m, at(1.5), at(1.5), 2), Next::Tick);
        assert!(clock.is_measuring());
        assert_eq!(m.window_active.get(), 1);
        m.ticks.inc_by(3);
        m.snapshots_sent.inc_by(4);
        clock.after_tick(100_000, 200_000, 40);
        clock.after_tick(300_000, 400_000, 60);
        assert_eq!(clock.before_tick(&m, at(3.49), at(3.49), 2), Next::Tick);
        assert_eq!(clock.before_tick(&m, at(3.5), at(3.5), 0), Next::Stop);
        assert_eq!(m.window_active.get(), 0);
        let w = clock.window();
        assert_eq!((w.ticks, w.snapshots, w.views_entities_mean), (3, 4, 25.0));
        assert!((w.seconds - 2.0).abs() < 1e-9);
        assert_eq!(w.sync_us.unwrap().max, 300.0);
        assert_eq!(w.tick_us.unwrap().mean, 300.0);
        assert_eq!(clock.before_tick(&m, at(4.0), at(4.0), 2), Next::Stop);
    }

    #[test]
    fn no_plan_ticks_forever_and_measures_nothing() {
        let m = Metrics::new(CodecKind::Bitwire);
        let mut clock = WindowClock::new(None);
        let now = Instant::now();
        assert_eq!(clock.before_tick(&m, now, now, 0), Next::Tick);
        clock.close(&m, now);
        assert_eq!(clock.window().ticks, 0);
        assert!(clock.window().sync_us.is_none());
    }
}
