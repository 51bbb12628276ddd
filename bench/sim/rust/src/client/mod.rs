//! The Rust load client (`simclient`, bench/sim/README.md): N simulated clients in one
//! process on one tokio current-thread runtime, each on its own TCP connection with raw
//! bitwire frames ([`bitwire_net::FrameCodec`]): it sends an `Input` every 1/60 s
//! ([`behaviour`]), decodes every snapshot with its codec, measures the round-trip time
//! (input sent → the first snapshot whose `input_seq` reflects it) and checks every
//! snapshot ([`validate`]). The counts of all clients make one [`ClientResults`].

pub mod behaviour;
mod conn;
pub mod validate;

use std::time::Duration;

use bitwire_netbench::stats::summarize;
use futures_util::future::join_all;
use tokio::time::Instant;

pub use conn::{frame_bytes, Client, Stats};

use crate::codec::CodecKind;
use crate::results::ClientResults;

/// Error messages a run keeps.
const KEEP_ERRORS: usize = 5;

/// A run of clients.
#[derive(Debug, Clone)]
pub struct Config {
    /// The server's game port, `HOST:PORT`.
    pub connect: String,
    /// The codec every client speaks.
    pub codec: CodecKind,
    /// How many clients.
    pub clients: usize,
    /// The whole run's limit; reaching it is an error.
    pub timeout: Duration,
}

/// Runs `config`'s clients on a new current-thread runtime (on the calling thread) and
/// returns their results.
pub fn run(config: &Config) -> std::io::Result<ClientResults> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(rt.block_on(run_clients(config)))
}

/// Runs `config`'s clients, all connecting at once, until each has ended.
pub async fn run_clients(config: &Config) -> ClientResults {
    let start = Instant::now();
    let deadline = start + config.timeout;
    let mut clients: Vec<Client> = (0..config.clients)
        .map(|i| Client::new(i, config.codec))
        .collect();
    join_all(clients.iter_mut().map(|c| c.run(&config.connect, deadline))).await;
    let seconds = start.elapsed().as_secs_f64();
    let stats: Vec<Stats> = clients.into_iter().map(Client::into_stats).collect();
    results(config, &stats, seconds)
}

/// The results of a run whose clients counted `stats`.
pub fn results(config: &Config, stats: &[Stats], seconds: f64) -> ClientResults {
    let sum = |f: fn(&Stats) -> u64| stats.iter().map(f).sum::<u64>();
    let mut rtt_ns: Vec<u64> = stats
        .iter()
        .flat_map(|s| s.rtt_ns.iter().copied())
        .collect();
    let mut errors: Vec<&(Instant, String)> = stats.iter().flat_map(|s| &s.errors).collect();
    errors.sort_by_key(|(at, _)| *at);
    ClientResults {
        runtime: "rust".into(),
        codec: config.codec.name().into(),
        clients: config.clients,
        connected: stats.iter().filter(|s| s.connected).count(),
        inputs_sent: sum(|s| s.inputs_sent),
        bytes_out: sum(|s| s.bytes_out),
        snapshots: sum(|s| s.snapshots),
        bytes_in: sum(|s| s.bytes_in),
        dropped: sum(|s| s.dropped),
        rtt_reports: sum(|s| s.rtt_reports),
        rtt_report_sum_us: sum(|s| s.rtt_report_sum_us),
        rtt_us: summarize(&mut rtt_ns),
        invalid: sum(|s| s.invalid),
        decode_errors: sum(|s| s.decode_errors),
        errors: errors
            .into_iter()
            .take(KEEP_ERRORS)
            .map(|(_, m)| m.clone())
            .collect(),
        seconds,
    }
}

/// Whether a run passed (exit status 0): every client connected, got a snapshot and
/// ended when the server closed its connection, and no snapshot was invalid or failed
/// to decode. Every failure of a client leaves an error message, so a run without
/// messages had none.
pub fn passed(r: &ClientResults) -> bool {
    r.connected == r.clients && r.invalid == 0 && r.decode_errors == 0 && r.errors.is_empty()
}
