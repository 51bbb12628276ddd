//! The server's timing: the tick loop runs each tick in a `tracing` span named `tick`
//! and its sync system in one named `sync`; [`SpanTimer`], a `tracing_subscriber`
//! layer, measures them (from entering to leaving) into the duration histograms and
//! keeps the latest of each for the tick loop (summary, live view). With the `tracy`
//! feature the same spans also go to Tracy.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use tracing::span;
use tracing::Subscriber;
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

use super::metrics::Metrics;

/// The span around the sync system.
pub const SYNC: &str = "sync";
/// The span around a whole tick.
pub const TICK: &str = "tick";

/// The latest measured durations, nanoseconds.
#[derive(Debug, Default)]
pub struct SpanClock {
    sync_ns: AtomicU64,
    tick_ns: AtomicU64,
}

impl SpanClock {
    /// The latest `sync` span's duration, ns (0 before any).
    pub fn sync_ns(&self) -> u64 {
        self.sync_ns.load(Ordering::Relaxed)
    }

    /// The latest `tick` span's duration, ns.
    pub fn tick_ns(&self) -> u64 {
        self.tick_ns.load(Ordering::Relaxed)
    }
}

/// When a timed span was entered.
struct Entered(Instant);

/// The layer that times the `tick` and `sync` spans of this crate.
pub struct SpanTimer {
    metrics: Arc<Metrics>,
    clock: Arc<SpanClock>,
}

impl SpanTimer {
    /// A layer recording into `metrics`' histograms and `clock`.
    pub fn new(metrics: Arc<Metrics>, clock: Arc<SpanClock>) -> SpanTimer {
        SpanTimer { metrics, clock }
    }
}

fn timed(meta: &tracing::Metadata<'_>) -> bool {
    meta.target().starts_with("bitwire_sim") && (meta.name() == SYNC || meta.name() == TICK)
}

impl<S> Layer<S> for SpanTimer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_enter(&self, id: &span::Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id).filter(|s| timed(s.metadata())) {
            span.extensions_mut().replace(Entered(Instant::now()));
        }
    }

    fn on_exit(&self, id: &span::Id, ctx: Context<'_, S>) {
        let now = Instant::now();
        let Some(span) = ctx.span(id).filter(|s| timed(s.metadata())) else {
            return;
        };
        let Some(Entered(at)) = span.extensions_mut().remove::<Entered>() else {
            return;
        };
        let took = now - at;
        let ns = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        if span.name() == SYNC {
            self.clock.sync_ns.store(ns, Ordering::Relaxed);
            self.metrics.sync_duration.observe(took.as_secs_f64());
        } else {
            self.clock.tick_ns.store(ns, Ordering::Relaxed);
            self.metrics.tick_duration.observe(took.as_secs_f64());
        }
    }
}

/// Installs the process's subscriber: the span timer, and Tracy's layer with the
/// `tracy` feature. Fails if a subscriber was installed before.
pub fn install(metrics: Arc<Metrics>, clock: Arc<SpanClock>) -> Result<(), String> {
    let subscriber = tracing_subscriber::registry().with(SpanTimer::new(metrics, clock));
    #[cfg(feature = "tracy")]
    let subscriber = subscriber.with(tracing_tracy::TracyLayer::default());
    tracing::subscriber::set_global_default(subscriber)
        .map_err(|e| format!("cannot install the tracing subscriber: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::CodecKind;

    #[test]
    fn the_layer_times_sync_and_tick_spans_only() {
        let metrics = Arc::new(Metrics::new(CodecKind::Bitwire));
        let clock = Arc::new(SpanClock::default());
        let subscriber =
            tracing_subscriber::registry().with(SpanTimer::new(metrics.clone(), clock.clone()));
        tracing::subscriber::with_default(subscriber, || {
            let tick = tracing::info_span!("tick");
            let _t = tick.enter();
            {
                let _s = tracing::info_span!("sync").entered();
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            let _other = tracing::info_span!("other").entered();
        });
        assert!(clock.sync_ns() >= 2_000_000);
        assert!(clock.tick_ns() >= clock.sync_ns());
        let (text, _) = metrics.encode(false);
        assert!(text.contains("sim_sync_duration_seconds_count 1\n"));
        assert!(text.contains("sim_tick_duration_seconds_count 1\n"));
        assert!(text.contains("sim_sync_duration_seconds_bucket{le=\"0.001\"} 0\n"));
    }
}
