//! The server's Prometheus metrics (bench/sim/README.md, "Metrics"): every name, type
//! and bucket of the README's table, in a `prometheus-client` registry, and the
//! exposition `/metrics` serves.

use std::sync::Arc;
use std::time::Duration;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

use crate::codec::CodecKind;

/// The OpenMetrics content type of [`Metrics::encode`]'s OpenMetrics text.
pub const OPENMETRICS_CONTENT_TYPE: &str =
    "application/openmetrics-text; version=1.0.0; charset=utf-8";
/// The Prometheus text format's (0.0.4).
pub const PROMETHEUS_CONTENT_TYPE: &str =
    prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// Duration buckets, seconds: 10 µs to 100 ms, ten per decade (the R10 series). With
/// 1-2-5 steps a p99 interpolated inside a bucket was off by up to 2× (a 4.4 ms p99
/// read as 8.5 ms); ten per decade bounds that at 26 %.
pub fn duration_buckets() -> Vec<f64> {
    renard_r10(1e-5, 1e-1)
}

/// RTT buckets, seconds: 0.5 ms to 1 s, ten per decade.
pub fn rtt_buckets() -> Vec<f64> {
    renard_r10(5e-4, 1.0)
}

/// Byte buckets: 8 to 16384, powers of two.
pub fn byte_buckets() -> Vec<f64> {
    (3..=14).map(|p| f64::from(1u32 << p)).collect()
}

/// The R10 preferred numbers (1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8 per decade,
/// IEC 60063's rounding) from `lo` to `hi` (both of that form), without float drift.
fn renard_r10(lo: f64, hi: f64) -> Vec<f64> {
    const R10: [&str; 10] = ["1", "1.25", "1.6", "2", "2.5", "3.15", "4", "5", "6.3", "8"];
    let mut out = Vec::new();
    for exp in -6..=1 {
        for m in R10 {
            let v: f64 = format!("{m}e{exp}").parse().expect("a float literal");
            if v >= lo * 0.999 && v <= hi * 1.001 {
                out.push(v);
            }
        }
    }
    out
}

/// Every metric of the server. Cheap handles (atomics behind `Arc`s): the tick loop,
/// the connections and the HTTP handler share one `Arc<Metrics>`.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    /// Ticks run.
    pub ticks: Counter,
    /// Ticks that ended after the next one's scheduled start.
    pub overruns: Counter,
    /// Ticks skipped because the server was a whole period late.
    pub skipped: Counter,
    /// A tick's work (inputs, simulate, sync), seconds.
    pub tick_duration: Histogram,
    /// The sync system per tick, seconds.
    pub sync_duration: Histogram,
    /// Snapshot frame sizes.
    pub snapshot_bytes: Histogram,
    /// Input frame sizes.
    pub input_bytes: Histogram,
    /// Snapshot frames queued.
    pub snapshots_sent: Counter,
    /// Their bytes.
    pub bytes_out: Counter,
    /// Input frames read.
    pub inputs_received: Counter,
    /// Their bytes.
    pub bytes_in: Counter,
    /// The RTTs the clients reported, seconds.
    pub rtt: Histogram,
    /// Game connections open.
    pub connected: Gauge,
    /// Game connections accepted.
    pub joined: Counter,
    /// Clients disconnected for a full queue.
    pub dropped: Counter,
    /// Connections closed for a bad frame or message.
    pub decode_errors: Counter,
    /// 1 during the measured window.
    pub window_active: Gauge,
    /// Inputs that carried `rtt_us` (`sim_rtt_seconds_count`; kept here too, since a
    /// histogram's count is not readable).
    pub rtt_reports: Counter,
}

impl Metrics {
    /// The metrics of a server running `codec`, all zero.
    pub fn new(codec: CodecKind) -> Metrics {
        let mut r = Registry::default();
        let counter = |r: &mut Registry, name: &str, help: &str| {
            let c = Counter::default();
            r.register(name, help, c.clone());
            c
        };
        let histogram = |r: &mut Registry, name: &str, help: &str, unit: Unit, b: Vec<f64>| {
            let h = Histogram::new(b);
            r.register_with_unit(name, help, unit, h.clone());
            h
        };
        let gauge = |r: &mut Registry, name: &str, help: &str| {
            let g = Gauge::default();
            r.register(name, help, g.clone());
            g
        };
        let ticks = counter(&mut r, "sim_ticks", "Ticks run");
        let overruns = counter(
            &mut r,
            "sim_tick_overruns",
            "Ticks that ended after the next one's scheduled start",
        );
        let skipped = counter(
            &mut r,
            "sim_ticks_skipped",
            "Ticks skipped because the server was a whole period late",
        );
        let tick_duration = histogram(
            &mut r,
            "sim_tick_duration",
            "A tick's work (inputs, simulate, sync)",
            Unit::Seconds,
            duration_buckets(),
        );
        let sync_duration = histogram(
            &mut r,
            "sim_sync_duration",
            "The sync system per tick",
            Unit::Seconds,
            duration_buckets(),
        );
        let snapshot_bytes = histogram(
            &mut r,
            "sim_snapshot",
            "Snapshot frame size (per client per tick)",
            Unit::Bytes,
            byte_buckets(),
        );
        let input_bytes = histogram(
            &mut r,
            "sim_input",
            "Input frame size",
            Unit::Bytes,
            byte_buckets(),
        );
        let snapshots_sent = counter(&mut r, "sim_snapshots_sent", "Snapshot frames queued");
        let bytes_out = counter(
            &mut r,
            "sim_bytes_out",
            "Bytes of the snapshot frames queued",
        );
        let inputs_received = counter(&mut r, "sim_inputs_received", "Input frames read");
        let bytes_in = counter(&mut r, "sim_bytes_in", "Bytes of the input frames read");
        let rtt = histogram(
            &mut r,
            "sim_rtt",
            "The RTTs the clients reported (Input.rtt_us)",
            Unit::Seconds,
            rtt_buckets(),
        );
        let connected = gauge(&mut r, "sim_connected_clients", "Game connections open");
        let joined = counter(&mut r, "sim_clients_joined", "Game connections accepted");
        let dropped = counter(
            &mut r,
            "sim_clients_dropped",
            "Clients disconnected for a full queue",
        );
        let decode_errors = counter(
            &mut r,
            "sim_decode_errors",
            "Connections closed for a bad frame or message",
        );
        let window_active = gauge(&mut r, "sim_window_active", "1 during the measured window");
        let info = Family::<Vec<(String, String)>, Gauge>::default();
        r.register("sim_info", "The codec under test", info.clone());
        info.get_or_create(&vec![("codec".to_string(), codec.name().to_string())])
            .set(1);
        r.register_collector(Box::new(ProcessCpu));
        Metrics {
            registry: r,
            ticks,
            overruns,
            skipped,
            tick_duration,
            sync_duration,
            snapshot_bytes,
            input_bytes,
            snapshots_sent,
            bytes_out,
            inputs_received,
            bytes_in,
            rtt,
            connected,
            joined,
            dropped,
            decode_errors,
            window_active,
            rtt_reports: Counter::default(),
        }
    }

    /// The exposition: OpenMetrics text when `openmetrics`, else the Prometheus text
    /// format 0.0.4; with its content type.
    pub fn encode(&self, openmetrics: bool) -> (String, &'static str) {
        let mut out = String::with_capacity(8192);
        // Writing into a String cannot fail.
        if openmetrics {
            let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
            (out, OPENMETRICS_CONTENT_TYPE)
        } else {
            let _ = prometheus_client::encoding::prometheus_text::encode(&mut out, &self.registry);
            (out, PROMETHEUS_CONTENT_TYPE)
        }
    }

    /// Whether an `Accept` header asks for OpenMetrics (as Prometheus's scraper does).
    pub fn wants_openmetrics(accept: &str) -> bool {
        accept.contains("application/openmetrics-text")
    }
}

/// The process's CPU time (user + system, all threads), read at each scrape.
#[derive(Debug)]
struct ProcessCpu;

impl Collector for ProcessCpu {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let counter = ConstCounter::new(process_cpu().as_secs_f64());
        let metric = encoder.encode_descriptor(
            "process_cpu",
            "The server's CPU time (user + system)",
            Some(&Unit::Seconds),
            counter.metric_type(),
        )?;
        counter.encode(metric)
    }
}

/// The CPU time (user + system) of this process, every thread, from the kernel's
/// accounting (`getrusage(RUSAGE_SELF)`: what `/proc/self/stat` shows, in µs).
pub fn process_cpu() -> Duration {
    // SAFETY: rusage is plain data; getrusage fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: RUSAGE_SELF with a valid pointer to an rusage.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// A shared handle.
pub type SharedMetrics = Arc<Metrics>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_as_the_readme_says() {
        let d = duration_buckets();
        assert_eq!(d.first(), Some(&1e-5));
        assert_eq!(d.last(), Some(&0.1));
        assert_eq!(d.len(), 41);
        assert_eq!(d[1..4], [1.25e-5, 1.6e-5, 2e-5]);
        let r = rtt_buckets();
        assert_eq!(
            (r[0], r[1], r[r.len() - 1], r.len()),
            (5e-4, 6.3e-4, 1.0, 34)
        );
        let b = byte_buckets();
        assert_eq!((b[0], b[b.len() - 1], b.len()), (8.0, 16384.0, 12));
    }

    #[test]
    fn every_name_of_the_table_in_both_formats() {
        let m = Metrics::new(CodecKind::Bitwire);
        m.ticks.inc();
        m.sync_duration.observe(0.0003);
        let (prom, ct) = m.encode(false);
        assert_eq!(ct, PROMETHEUS_CONTENT_TYPE);
        for line in [
            "# TYPE sim_ticks_total counter",
            "sim_ticks_total 1",
            "# TYPE sim_tick_overruns_total counter",
            "# TYPE sim_ticks_skipped_total counter",
            "# TYPE sim_tick_duration_seconds histogram",
            "sim_sync_duration_seconds_bucket{le=\"0.0004\"} 1",
            "sim_sync_duration_seconds_count 1",
            "# TYPE sim_snapshot_bytes histogram",
            "sim_snapshot_bytes_bucket{le=\"16384\"} 0",
            "# TYPE sim_input_bytes histogram",
            "# TYPE sim_snapshots_sent_total counter",
            "# TYPE sim_bytes_out_total counter",
            "# TYPE sim_inputs_received_total counter",
            "# TYPE sim_bytes_in_total counter",
            "# TYPE sim_rtt_seconds histogram",
            "# TYPE sim_connected_clients gauge",
            "# TYPE sim_clients_joined_total counter",
            "# TYPE sim_clients_dropped_total counter",
            "# TYPE sim_decode_errors_total counter",
            "# TYPE sim_window_active gauge",
            "# TYPE process_cpu_seconds_total counter",
            "sim_info{codec=\"bitwire\"} 1",
        ] {
            assert!(prom.lines().any(|l| l == line), "{line:?} in\n{prom}");
        }
        let (open, ct) = m.encode(true);
        assert_eq!(ct, OPENMETRICS_CONTENT_TYPE);
        assert!(open.ends_with("# EOF\n"));
        assert!(open.contains("# TYPE sim_ticks counter\nsim_ticks_total 1\n"));
        assert!(Metrics::wants_openmetrics(
            "application/openmetrics-text;version=1.0.0;q=0.5,text/plain;q=0.1"
        ));
        assert!(!Metrics::wants_openmetrics("*/*"));
        assert!(process_cpu() > Duration::ZERO);
    }
}
