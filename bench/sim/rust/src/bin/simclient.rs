//! `simclient`: N simulated game clients against a `simserver` (bench/sim/README.md,
//! "simclient").
//!
//! ```text
//! simclient --connect HOST:PORT --codec NAME --clients N [--cpu CORE] [--results FILE]
//!           [--timeout S]
//! ```
//!
//! Exits 0 when every client connected, got at least one snapshot and ended when the
//! server closed its connection, and no snapshot was invalid or failed to decode; 1
//! otherwise; 2 for a bad command line.

use std::process::ExitCode;
use std::time::Duration;

use bitwire_sim::client::{self, Config};
use bitwire_sim::codec::CodecKind;

const USAGE: &str = "usage: simclient --connect HOST:PORT --codec NAME --clients N \
                     [--cpu CORE] [--results FILE] [--timeout S]";

/// The command line.
struct Args {
    config: Config,
    cpu: Option<usize>,
    results: Option<String>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut connect, mut codec, mut clients) = (None, None, None);
    let (mut cpu, mut results, mut timeout) = (None, None, 120.0);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--connect" => connect = Some(value()?),
            "--codec" => codec = Some(CodecKind::parse(&value()?)?),
            "--clients" => clients = Some(number::<usize>(&flag, &value()?)?),
            "--cpu" => cpu = Some(number::<usize>(&flag, &value()?)?),
            "--results" => results = Some(value()?),
            "--timeout" => timeout = number::<f64>(&flag, &value()?)?,
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if !(timeout > 0.0 && timeout <= 86_400.0) {
        return Err(format!("--timeout {timeout}: seconds in (0, 86400]"));
    }
    let config = Config {
        connect: connect.ok_or("--connect HOST:PORT is required")?,
        codec: codec.ok_or("--codec NAME is required")?,
        clients: clients.ok_or("--clients N is required")?,
        timeout: Duration::from_secs_f64(timeout),
    };
    if config.clients == 0 {
        return Err("--clients must be at least 1".into());
    }
    Ok(Args {
        config,
        cpu,
        results,
    })
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{flag} {value:?}: not a number"))
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("simclient: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Some(core) = args.cpu {
        // Before the runtime exists, so every thread it starts is pinned too.
        if let Err(e) = bitwire_netbench::sys::pin_to_core(core) {
            eprintln!("simclient: {e}");
            return ExitCode::FAILURE;
        }
    }
    let results = match client::run(&args.config) {
        Ok(results) => results,
        Err(e) => {
            eprintln!("simclient: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let rtt = results
        .rtt_us
        .as_ref()
        .map_or("no RTT samples".to_string(), |l| {
            format!("RTT p50 {:.0} µs, p99 {:.0} µs", l.p50, l.p99)
        });
    println!(
        "simclient: {} of {} clients connected, {} snapshots ({} B), {} inputs ({} B), {rtt}, \
         {} invalid, {} decode errors, {:.1} s",
        results.connected,
        results.clients,
        results.snapshots,
        results.bytes_in,
        results.inputs_sent,
        results.bytes_out,
        results.invalid,
        results.decode_errors,
        results.seconds
    );
    for e in &results.errors {
        eprintln!("simclient: {e}");
    }
    if let Some(path) = &args.results {
        let json = serde_json::to_string_pretty(&results).expect("results serialize");
        if let Err(e) = std::fs::write(path, json + "\n") {
            eprintln!("simclient: cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
    }
    if client::passed(&results) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
