//! `simserver` (bench/sim/README.md, "simserver"): the authoritative 60 Hz game
//! server, on a tokio current-thread runtime (one core at most, pinned with `--cpu`).
//!
//! - Game connections: TCP, raw bitwire frames ([`conn`]); each connection's reader
//!   decodes Input frames with its own [`ServerCodec`](crate::codec::ServerCodec), its
//!   writer drains a bounded queue (64 frames / 1 MiB; over that, the client is
//!   dropped).
//! - The tick ([`tick`]): inputs → simulate ([`crate::world`]) → the sync system,
//!   timed in `tracing` spans that [`spans::SpanTimer`] records into the histograms.
//! - The measured window ([`window`]), then the end of the run: flush, half-close,
//!   `done` once every client closed; `/metrics` goes on until stdin ends (or
//!   SIGTERM), then the summary and exit 0.
//! - `/metrics`, `/live.json`, `--static` files ([`http`]); the live view's WebSocket
//!   ([`live`]).
//!
//! Before it starts it round-trips sample snapshots and inputs through its codec
//! ([`check`]) and refuses to start if they do not.

pub mod check;
pub mod config;
pub mod conn;
pub mod game;
pub mod http;
pub mod live;
pub mod metrics;
pub mod spans;
pub mod tick;
pub mod window;

use std::rc::Rc;
use std::sync::{Arc, Mutex};

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::results::{ServerSummary, Totals};
use config::Config;
use game::Game;
use metrics::Metrics;
use spans::SpanClock;

/// Runs the server of `config` until its stdin ends (or SIGTERM): pins the process,
/// checks the codec, installs the span timer, serves. Returns the summary (also
/// written to `--summary`).
pub fn run(config: Config) -> Result<ServerSummary, String> {
    // Before any thread starts: the runtime's and the stdin reader inherit the pin.
    if let Some(core) = config.cpu {
        bitwire_netbench::sys::pin_to_core(core)?;
    }
    check::roundtrip(config.codec).map_err(|e| {
        format!(
            "codec {} does not round-trip, not starting: {e}",
            config.codec
        )
    })?;
    let metrics = Arc::new(Metrics::new(config.codec));
    let clock = Arc::new(SpanClock::default());
    spans::install(metrics.clone(), clock.clone())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let local = tokio::task::LocalSet::new();
    let summary = local.block_on(&runtime, serve(&config, metrics, clock))?;
    if let Some(path) = &config.summary {
        let json = serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?;
        std::fs::write(path, json + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(summary)
}

/// The listen backlog: every client of the largest run (1000) may connect at once.
/// `TcpListener::bind` asks for 128, and a full accept queue makes the kernel drop
/// handshakes (SYN cookies, then resets) while the tick keeps the one core busy.
const BACKLOG: u32 = 4096;

async fn bind(what: &str, addr: &str) -> Result<(TcpListener, std::net::SocketAddr), String> {
    let fail = |e: std::io::Error| format!("cannot listen on {addr} ({what}): {e}");
    let parsed = tokio::net::lookup_host(addr)
        .await
        .map_err(fail)?
        .next()
        .ok_or_else(|| format!("cannot listen on {addr} ({what}): no address"))?;
    let socket = if parsed.is_ipv4() {
        tokio::net::TcpSocket::new_v4()
    } else {
        tokio::net::TcpSocket::new_v6()
    }
    .map_err(fail)?;
    socket.set_reuseaddr(true).map_err(fail)?;
    socket.bind(parsed).map_err(fail)?;
    let listener = socket.listen(BACKLOG).map_err(fail)?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    Ok((listener, local))
}

/// The `listening` line: where the game connections, HTTP and the live view are.
pub fn listening_line(
    tcp: std::net::SocketAddr,
    http: std::net::SocketAddr,
    ws: std::net::SocketAddr,
) -> String {
    format!("listening tcp={tcp} http=http://{http} ws={}", ws_url(ws))
}

fn ws_url(ws: std::net::SocketAddr) -> String {
    format!("ws://{ws}/")
}

async fn serve(
    config: &Config,
    metrics: Arc<Metrics>,
    clock: Arc<SpanClock>,
) -> Result<ServerSummary, String> {
    // Watching stdin and SIGTERM starts before `listening`: a stop right after it is
    // clean.
    let stop = bitwire_netbench::sys::stopped()?;
    let (tcp, tcp_addr) = bind("game connections", &config.tcp).await?;
    let (http_listener, http_addr) = bind("HTTP", &config.http).await?;
    let (ws_listener, ws_addr) = bind("live view", &config.ws).await?;
    let game = Rc::new(Game::new(config.codec, metrics.clone()));
    let accepting = CancellationToken::new();
    tokio::task::spawn_local(conn::accept(game.clone(), tcp, accepting.clone()));
    let router = http::router(metrics.clone(), &ws_url(ws_addr), config.static_dir.clone());
    tokio::task::spawn_local(http::serve(http_listener, router));
    let watchers: live::Watchers = Arc::new(Mutex::new(Vec::new()));
    tokio::task::spawn_local(live::serve(ws_listener, watchers.clone()));
    println!("{}", listening_line(tcp_addr, http_addr, ws_addr));

    let mut ticker = tick::Ticker::new(
        game.clone(),
        clock,
        window::WindowClock::new(config.window),
        live::LiveFeed::new(watchers),
    );
    tokio::pin!(stop);
    {
        let run = async {
            ticker.run().await;
            accepting.cancel();
            conn::finish(&game).await;
            println!("done");
        };
        tokio::select! {
            _ = &mut stop => {}
            _ = run => (&mut stop).await,
        }
    }
    // Stopped during the window: it covers what it measured.
    ticker.window.close(&metrics, std::time::Instant::now());
    Ok(ServerSummary {
        codec: config.codec.name().to_string(),
        clients: config.window.map_or(0, |w| w.clients),
        window: ticker.window.window(),
        totals: totals(&metrics),
        roundtrip_checked: true,
    })
}

fn totals(m: &Metrics) -> Totals {
    Totals {
        ticks: m.ticks.get(),
        overruns: m.overruns.get(),
        snapshots: m.snapshots_sent.get(),
        bytes_out: m.bytes_out.get(),
        inputs: m.inputs_received.get(),
        bytes_in: m.bytes_in.get(),
        rtt_reports: m.rtt_reports.get(),
        decode_errors: m.decode_errors.get(),
        dropped_clients: m.dropped.get(),
        joined: m.joined.get(),
    }
}
