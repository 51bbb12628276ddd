//! One cell of a run: a codec at a client count (or a mixed-runtime cell). Starts
//! `simserver` pinned to the server core, the client processes on the clients' core,
//! waits for the window and the clean close (`done`), scrapes `/metrics`, reads the
//! server's figures from Prometheus (with `--prometheus`), stops the server, reads every
//! summary and results file, and checks the scrape against them with `simprom check`.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use super::http;
use super::options::Options;
use super::proc::Proc;
use super::programs::Programs;
use super::prom::Prometheus;
use crate::codec::CodecKind;
use crate::report::model::{CellRecord, MetricsCheck, Share};
use crate::results::{ClientResults, ServerSummary};

/// How long a server may take to print `listening`.
const LISTEN_TIMEOUT: Duration = Duration::from_secs(30);
/// Slack beyond warm-up and window for connecting, flushing and closing.
const DONE_SLACK: Duration = Duration::from_secs(60);
/// How long clients and server may take to exit after the end.
const EXIT_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a scrape may take.
const SCRAPE_TIMEOUT: Duration = Duration::from_secs(10);

/// What a run shares with each of its cells.
#[derive(Debug)]
pub struct Ctx<'a> {
    /// The run's options.
    pub opts: &'a Options,
    /// The programs.
    pub programs: &'a Programs,
    /// The Prometheus server, with `--prometheus`.
    pub prometheus: Option<&'a Prometheus>,
}

/// A cell to run.
#[derive(Debug, Clone, PartialEq)]
pub struct CellSpec {
    /// The codec.
    pub codec: CodecKind,
    /// All its clients.
    pub clients: usize,
    /// The client processes: runtime and clients, in start order (`rust` first).
    pub shares: Vec<Share>,
    /// A mixed-runtime cell.
    pub mixed: bool,
}

impl CellSpec {
    /// Rust clients only.
    pub fn rust(codec: CodecKind, clients: usize) -> CellSpec {
        CellSpec {
            codec,
            clients,
            shares: vec![Share {
                runtime: "rust".into(),
                clients,
            }],
            mixed: false,
        }
    }

    /// `clients` split evenly between `runtimes` (the first ones get the remainder).
    pub fn mixed(codec: CodecKind, clients: usize, runtimes: &[&str]) -> CellSpec {
        let k = runtimes.len().max(1);
        let shares = runtimes
            .iter()
            .enumerate()
            .map(|(i, r)| Share {
                runtime: r.to_string(),
                clients: clients / k + usize::from(i < clients % k),
            })
            .filter(|s| s.clients > 0)
            .collect();
        CellSpec {
            codec,
            clients,
            shares,
            mixed: true,
        }
    }

    /// `<codec>-<clients>`, `-mixed` for a mixed cell.
    pub fn id(&self) -> String {
        let mixed = if self.mixed { "-mixed" } else { "" };
        format!("{}-{}{mixed}", self.codec.name(), self.clients)
    }
}

/// The addresses of a server's `listening` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listening {
    /// The game port.
    pub tcp: SocketAddr,
    /// HTTP (`/metrics`, the page).
    pub http: SocketAddr,
}

/// Parses `listening tcp=127.0.0.1:P1 http=http://127.0.0.1:P2 ws=ws://127.0.0.1:P3/`.
pub fn parse_listening(line: &str) -> Result<Listening, String> {
    let mut tcp = None;
    let mut http = None;
    for word in line
        .strip_prefix("listening ")
        .ok_or("not a listening line")?
        .split_whitespace()
    {
        if let Some(v) = word.strip_prefix("tcp=") {
            tcp = Some(v.parse().map_err(|_| format!("tcp={v}: not an address"))?);
        } else if let Some(v) = word.strip_prefix("http=") {
            let host = v.strip_prefix("http://").unwrap_or(v).trim_end_matches('/');
            http = Some(
                host.parse()
                    .map_err(|_| format!("http={v}: not an address"))?,
            );
        }
    }
    match (tcp, http) {
        (Some(tcp), Some(http)) => Ok(Listening { tcp, http }),
        _ => Err(format!("{line:?}: want tcp= and http=")),
    }
}

fn s(v: impl ToString) -> String {
    v.to_string()
}

/// Everything a cell's run leaves behind, and where.
struct Files {
    dir: PathBuf,
    /// `metrics/<id>.prom`, relative to the output directory.
    metrics_rel: String,
    metrics: PathBuf,
}

impl Files {
    fn new(out: &Path, id: &str) -> Result<Files, String> {
        let dir = out.join("cells").join(id);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        std::fs::create_dir_all(out.join("metrics")).map_err(|e| e.to_string())?;
        let metrics_rel = format!("metrics/{id}.prom");
        Ok(Files {
            metrics: out.join(&metrics_rel),
            metrics_rel,
            dir,
        })
    }

    fn results(&self, runtime: &str) -> PathBuf {
        self.dir.join(format!("{runtime}.json"))
    }
}

/// Starts the client processes of `spec` against `tcp`.
fn start_clients(
    ctx: &Ctx,
    spec: &CellSpec,
    files: &Files,
    tcp: SocketAddr,
) -> Result<Vec<Proc>, String> {
    let o = ctx.opts;
    let timeout = (o.warmup + o.seconds + DONE_SLACK.as_secs_f64() + 30.0).ceil();
    let mut procs = Vec::new();
    for share in &spec.shares {
        let mut argv = if share.runtime == "rust" {
            vec![
                s(ctx.programs.client.display()),
                s("--cpu"),
                s(super::CLIENT_CPU),
            ]
        } else {
            let mut a = vec![s("taskset"), s("-c"), s(super::CLIENT_CPU)];
            a.extend(ctx.programs.ts_client(&share.runtime)?);
            a
        };
        argv.extend([
            s("--connect"),
            s(tcp),
            s("--codec"),
            s(spec.codec.name()),
            s("--clients"),
            s(share.clients),
            s("--results"),
            s(files.results(&share.runtime).display()),
            s("--timeout"),
            s(timeout),
        ]);
        let log = files.dir.join(format!("{}.log", share.runtime));
        let name = format!("{} clients", share.runtime);
        procs.push(Proc::start(&name, &argv, &o.root, &log)?);
    }
    Ok(procs)
}

/// Starts `simserver` for `spec`; `page`: also serve the live view.
pub fn start_server(
    ctx: &Ctx,
    codec: CodecKind,
    window: Option<(usize, &Path)>,
    log: &Path,
    page: bool,
) -> Result<(Proc, Listening), String> {
    let o = ctx.opts;
    let mut argv = vec![
        s(ctx.programs.server.display()),
        s("--codec"),
        s(codec.name()),
        s("--tcp"),
        s("127.0.0.1:0"),
        s("--http"),
        s("127.0.0.1:0"),
        s("--ws"),
        s("127.0.0.1:0"),
        s("--cpu"),
        s(super::SERVER_CPU),
    ];
    if let Some((clients, summary)) = window {
        argv.extend([
            s("--clients"),
            s(clients),
            s("--warmup"),
            s(o.warmup),
            s("--seconds"),
            s(o.seconds),
            s("--summary"),
            s(summary.display()),
        ]);
    }
    if page {
        argv.extend([s("--static"), s(ctx.programs.live_page.display())]);
    }
    let server = Proc::start("simserver", &argv, &o.root, log)?;
    let line = server.wait_line(LISTEN_TIMEOUT, "listening", |l| l.starts_with("listening "))?;
    let at = parse_listening(&line)?;
    Ok((server, at))
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs `simprom check` on the cell's scrape.
fn check_metrics(ctx: &Ctx, spec: &CellSpec, files: &Files) -> MetricsCheck {
    // Run in the output directory with relative paths, so its lines name the files as
    // the report does (no absolute paths in results.json).
    let rel = |p: &Path| {
        p.strip_prefix(&ctx.opts.out)
            .unwrap_or(p)
            .display()
            .to_string()
    };
    let mut cmd = Command::new(&ctx.programs.simprom);
    cmd.current_dir(&ctx.opts.out)
        .arg("check")
        .arg("--metrics")
        .arg(rel(&files.metrics))
        .arg("--server")
        .arg(rel(&files.dir.join("server.json")))
        .arg("--clients");
    for share in &spec.shares {
        cmd.arg(rel(&files.results(&share.runtime)));
    }
    let (ok, verdict) = match cmd.output() {
        Ok(out) => {
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let _ = std::fs::write(files.dir.join("metrics-check.txt"), &text);
            let last = text
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            let failed: Vec<&str> = text.lines().filter(|l| l.starts_with("FAIL")).collect();
            let verdict = if failed.is_empty() {
                last.to_string()
            } else {
                format!("{} ({})", last, failed.join("; "))
            };
            (out.status.success(), verdict)
        }
        Err(e) => (
            false,
            format!("cannot run {}: {e}", ctx.programs.simprom.display()),
        ),
    };
    MetricsCheck {
        file: files.metrics_rel.clone(),
        ok,
        verdict,
    }
}

/// The value of the sample `name` (no labels) in an exposition, by a plain line scan.
fn sample(scrape: &str, name: &str) -> Option<f64> {
    scrape.lines().find_map(|l| {
        let rest = l.strip_prefix(name)?.strip_prefix(' ')?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

/// What a server that never printed `done` was doing: its counters now (the scrape is
/// saved as the cell's metrics file) and its log's last line.
fn stalled(http: SocketAddr, files: &Files) -> String {
    let mut out = Vec::new();
    match http::get(http, "/metrics", SCRAPE_TIMEOUT) {
        Ok(scrape) => {
            let _ = std::fs::write(&files.metrics, &scrape);
            for (label, name) in [
                ("connected", "sim_connected_clients"),
                ("joined", "sim_clients_joined_total"),
                ("dropped for a full queue", "sim_clients_dropped_total"),
                ("decode errors", "sim_decode_errors_total"),
                ("ticks", "sim_ticks_total"),
                ("overruns", "sim_tick_overruns_total"),
                ("window active", "sim_window_active"),
            ] {
                if let Some(v) = sample(&scrape, name) {
                    out.push(format!("{label} {v}"));
                }
            }
        }
        Err(e) => out.push(format!("no scrape: {e}")),
    }
    let log = files.dir.join("server.log");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    if let Some(last) = text.lines().rev().find(|l| !l.trim().is_empty()) {
        out.push(format!("server.log ends: {last}"));
    }
    format!("then: {}", out.join(", "))
}

/// Runs one cell; its record says what went wrong, if anything.
pub fn run_cell(ctx: &Ctx, spec: &CellSpec) -> CellRecord {
    let started = Instant::now();
    let mut record = CellRecord {
        id: spec.id(),
        codec: spec.codec.name().to_string(),
        clients: spec.clients,
        mixed: spec.mixed,
        shares: spec.shares.clone(),
        seconds: 0.0,
        server: None,
        client_results: Vec::new(),
        metrics_check: None,
        prometheus: None,
        error: None,
    };
    let mut errors = Vec::new();
    if let Err(e) = drive(ctx, spec, &mut record, &mut errors) {
        errors.push(e);
    }
    record.seconds = (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0;
    if !errors.is_empty() {
        record.error = Some(errors.join("; "));
    }
    record
}

/// The cell's steps; a fatal error returns early (the processes are killed when dropped),
/// others are collected in `errors` and the steps go on.
fn drive(
    ctx: &Ctx,
    spec: &CellSpec,
    record: &mut CellRecord,
    errors: &mut Vec<String>,
) -> Result<(), String> {
    let o = ctx.opts;
    let id = spec.id();
    let files = Files::new(&o.out, &id)?;
    let summary_path = files.dir.join("server.json");
    let _ = std::fs::remove_file(&summary_path);
    let (mut server, at) = start_server(
        ctx,
        spec.codec,
        Some((spec.clients, &summary_path)),
        &files.dir.join("server.log"),
        false,
    )?;
    let http_addr = at.http.to_string();
    if let Some(p) = ctx.prometheus {
        p.add_target(&id, &http_addr, spec.codec.name(), spec.clients)?;
    }
    let mut clients = start_clients(ctx, spec, &files, at.tcp)?;
    let window = Duration::from_secs_f64(o.warmup + o.seconds) + DONE_SLACK;
    if let Err(e) = server.wait_line(window, "done", |l| l.trim() == "done") {
        return Err(format!("{e} ({})", stalled(at.http, &files)));
    }
    let end = SystemTime::now();
    for c in &mut clients {
        if let Err(e) = c.wait_ok(EXIT_TIMEOUT) {
            errors.push(e);
        }
    }
    let scrape = http::get(at.http, "/metrics", SCRAPE_TIMEOUT)?;
    std::fs::write(&files.metrics, &scrape)
        .map_err(|e| format!("{}: {e}", files.metrics.display()))?;
    let _ = std::fs::write(o.out.join("metrics.prom"), &scrape);
    if let Some(p) = ctx.prometheus {
        match p.query(spec.codec.name(), spec.clients, end, o.seconds) {
            Ok(f) => record.prometheus = Some(f),
            Err(e) => errors.push(e),
        }
        p.remove_target(&id);
    }
    server.close_stdin();
    if let Err(e) = server.wait_ok(EXIT_TIMEOUT) {
        errors.push(e);
    }
    let summary: ServerSummary = read_json(&summary_path)?;
    if !summary.roundtrip_checked {
        errors.push("the server did not round-trip its codec before the run".into());
    }
    record.server = Some(summary);
    for share in &spec.shares {
        match read_json::<ClientResults>(&files.results(&share.runtime)) {
            Ok(r) => record.client_results.push(r),
            Err(e) => errors.push(e),
        }
    }
    let check = check_metrics(ctx, spec, &files);
    if !check.ok {
        errors.push(format!("simprom check: {}", check.verdict));
    }
    record.metrics_check = Some(check);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listening_lines() {
        let l = parse_listening(
            "listening tcp=127.0.0.1:4000 http=http://127.0.0.1:4001 ws=ws://127.0.0.1:4002/",
        )
        .unwrap();
        assert_eq!(l.tcp, "127.0.0.1:4000".parse().unwrap());
        assert_eq!(l.http, "127.0.0.1:4001".parse().unwrap());
        assert!(parse_listening("listening tcp=127.0.0.1:4000").is_err());
        assert!(parse_listening("listening tcp=x http=http://127.0.0.1:1").is_err());
        assert!(parse_listening("ready").is_err());
    }

    #[test]
    fn samples_by_name() {
        let text = "# TYPE sim_ticks_total counter\nsim_ticks_total 241\nsim_ticks_total_x 1\nsim_window_active 0\n";
        assert_eq!(sample(text, "sim_ticks_total"), Some(241.0));
        assert_eq!(sample(text, "sim_window_active"), Some(0.0));
        assert_eq!(sample(text, "sim_connected_clients"), None);
    }

    #[test]
    fn shares_and_ids() {
        let m = CellSpec::mixed(
            CodecKind::BitwireDelta,
            10,
            &["rust", "node", "bun", "deno"],
        );
        let split: Vec<usize> = m.shares.iter().map(|s| s.clients).collect();
        assert_eq!(split, [3, 3, 2, 2]);
        assert_eq!(m.id(), "bitwire-delta-10-mixed");
        let few = CellSpec::mixed(CodecKind::Bitwire, 2, &["rust", "node", "bun"]);
        assert_eq!(few.shares.len(), 2);
        assert_eq!(CellSpec::rust(CodecKind::Bitcode, 100).id(), "bitcode-100");
    }
}
