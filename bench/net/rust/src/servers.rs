//! The servers of the matrix (bench/net/README.md, "Servers") and how one is run: started
//! (pinned to core 0 with `taskset` when asked), waited for until it prints `listening
//! HOST:PORT`, and stopped by closing its stdin, after which it must print `served P
//! packets, E errors` and exit 0.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::packet::{PING_ID, PONG_ID};

/// What a server's replies are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// bitwire framing and dispatch: replies are Pongs.
    Bitwire,
    /// An echo with no framing: replies are the requests.
    Raw,
    /// minecraft-protocol's framer: replies are Pongs (the body sent back under id 2).
    Mcproto,
}

impl Kind {
    /// The name in results.json.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bitwire => "bitwire",
            Kind::Raw => "raw",
            Kind::Mcproto => "mcproto",
        }
    }

    /// The message id of a reply.
    pub fn reply_id(self) -> u32 {
        match self {
            Kind::Raw => PING_ID,
            Kind::Bitwire | Kind::Mcproto => PONG_ID,
        }
    }
}

/// One server of the matrix.
#[derive(Debug, Clone)]
pub struct ServerDef {
    /// Its id (`rust-mt`, `go-raw`, ...).
    pub id: &'static str,
    /// `rust`, `go`, `node`, `bun` or `deno`.
    pub runtime: &'static str,
    /// What its replies are.
    pub kind: Kind,
    /// The raw echo of the same runtime.
    pub baseline: &'static str,
    /// A human name for the report.
    pub label: &'static str,
    /// Program and arguments, without `--addr`.
    pub argv: Vec<String>,
    /// The command as shown in results.json (paths relative to the repository).
    pub command: String,
}

/// Where the programs are: the repository root (relative paths of the table), the
/// `netserver` binary, and the environment's overrides.
#[derive(Debug, Clone)]
pub struct Programs {
    /// The `netserver` binary (next to `netbench` in the same target directory).
    pub netserver: PathBuf,
    /// The Go server (env `NETBENCH_GO`, default `target/netbench/go-netserver`).
    pub go: String,
    /// Node (env `NODE`, default `node` on the PATH).
    pub node: String,
    /// Bun (env `BUN`, default `conformance/ts/node_modules/.bin/bun`).
    pub bun: String,
    /// Deno (env `DENO`, default `conformance/ts/node_modules/@deno/linux-x64-glibc/deno`).
    pub deno: String,
}

impl Programs {
    /// The programs from the environment, with `netserver` beside the running binary.
    pub fn from_env() -> Programs {
        let var = |name: &str, default: &str| std::env::var(name).unwrap_or(default.to_string());
        let netserver = std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(|d| d.join("netserver")))
            .unwrap_or_else(|| PathBuf::from("netserver"));
        Programs {
            netserver,
            go: var("NETBENCH_GO", "target/netbench/go-netserver"),
            node: var("NODE", "node"),
            bun: var("BUN", "conformance/ts/node_modules/.bin/bun"),
            deno: var(
                "DENO",
                "conformance/ts/node_modules/@deno/linux-x64-glibc/deno",
            ),
        }
    }
}

/// The twelve servers of the contract, in the order of its table.
pub fn table(p: &Programs) -> Vec<ServerDef> {
    let ts = "bench/net/ts/build/src";
    let rust = |shape: &str| {
        vec![
            p.netserver.display().to_string(),
            "--shape".into(),
            shape.into(),
        ]
    };
    let go = |shape: &str| vec![p.go.clone(), "--shape".into(), shape.into()];
    let js = |pre: &[&str], file: &str, shape: Option<&str>| {
        let mut argv: Vec<String> = pre.iter().map(|s| s.to_string()).collect();
        argv.push(format!("{ts}/{file}"));
        if let Some(shape) = shape {
            argv.extend(["--shape".to_string(), shape.to_string()]);
        }
        argv
    };
    let (node, bun, deno) = (p.node.as_str(), p.bun.as_str(), p.deno.as_str());
    let deno_run = [deno, "run", "--allow-net"];
    let def = |id, runtime, kind, baseline, label, argv: Vec<String>| {
        let mut shown = argv.clone();
        if runtime == "rust" {
            shown[0] = "netserver".into();
        }
        ServerDef {
            id,
            runtime,
            kind,
            baseline,
            label,
            command: shown.join(" "),
            argv,
        }
    };
    use Kind::{Bitwire, Mcproto, Raw};
    vec![
        def(
            "rust-mt",
            "rust",
            Bitwire,
            "rust-raw",
            "Rust tokio multi-thread",
            rust("mt"),
        ),
        def(
            "rust-ct",
            "rust",
            Bitwire,
            "rust-raw",
            "Rust tokio current-thread",
            rust("ct"),
        ),
        def(
            "rust-raw",
            "rust",
            Raw,
            "rust-raw",
            "Rust raw echo (tokio)",
            rust("raw"),
        ),
        def("go", "go", Bitwire, "go-raw", "Go bwnet", go("bitwire")),
        def("go-raw", "go", Raw, "go-raw", "Go raw echo", go("raw")),
        def(
            "node",
            "node",
            Bitwire,
            "node-raw",
            "Node",
            js(&[node], "node.js", Some("bitwire")),
        ),
        def(
            "node-raw",
            "node",
            Raw,
            "node-raw",
            "Node raw echo",
            js(&[node], "node.js", Some("raw")),
        ),
        def(
            "bun",
            "bun",
            Bitwire,
            "bun-raw",
            "Bun",
            js(&[bun], "bun.js", Some("bitwire")),
        ),
        def(
            "bun-raw",
            "bun",
            Raw,
            "bun-raw",
            "Bun raw echo",
            js(&[bun], "bun.js", Some("raw")),
        ),
        def(
            "deno",
            "deno",
            Bitwire,
            "deno-raw",
            "Deno",
            js(&deno_run, "deno.js", Some("bitwire")),
        ),
        def(
            "deno-raw",
            "deno",
            Raw,
            "deno-raw",
            "Deno raw echo",
            js(&deno_run, "deno.js", Some("raw")),
        ),
        def(
            "mcproto",
            "node",
            Mcproto,
            "node-raw",
            "minecraft-protocol framer on Node",
            js(&[node], "mcproto.js", None),
        ),
    ]
}

/// What a server said when it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Served {
    /// Packets it answered.
    pub packets: u64,
    /// Connections it closed on an error.
    pub errors: u64,
}

/// Parses `served P packets, E errors`.
pub fn parse_served(line: &str) -> Option<Served> {
    let rest = line.trim().strip_prefix("served ")?;
    let (packets, rest) = rest.split_once(" packets, ")?;
    let errors = rest.strip_suffix(" errors")?;
    Some(Served {
        packets: packets.parse().ok()?,
        errors: errors.parse().ok()?,
    })
}

/// A server process that printed `listening`.
#[derive(Debug)]
pub struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its process id (`taskset` execs the server, so this is the server's).
    pub pid: u32,
    log: PathBuf,
}

/// How long a server may take to print `listening` (a runtime's cold start can take
/// seconds on a loaded machine).
pub const START_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a server may take to print `served` and exit once its stdin is closed.
pub const STOP_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether `taskset` (util-linux) runs here, to pin the servers.
pub fn taskset_works() -> bool {
    Command::new("taskset")
        .args(["-c", "0", "true"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Starts `def` in `root` with `--addr 127.0.0.1:0`, under `taskset -c 0` when `pin`;
/// its stderr and stdout go to `log`. Returns once it listens.
pub fn start(def: &ServerDef, root: &Path, pin: bool, log: &Path) -> Result<Running, String> {
    let mut argv: Vec<String> = Vec::new();
    if pin {
        argv.extend(["taskset", "-c", "0"].map(String::from));
    }
    argv.extend(def.argv.iter().cloned());
    argv.extend(["--addr".to_string(), "127.0.0.1:0".to_string()]);
    let file = File::create(log).map_err(|e| format!("cannot create {}: {e}", log.display()))?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(err)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", argv.join(" ")))?;
    let stdin = child.stdin.take();
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || forward_lines(stdout, file, tx));
    let mut running = Running {
        pid: child.id(),
        child,
        stdin,
        lines,
        addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        log: log.to_path_buf(),
    };
    running.addr = running.wait_listening(START_TIMEOUT)?;
    Ok(running)
}

/// Copies the server's stdout lines to its log and to the orchestrator.
fn forward_lines(stdout: impl std::io::Read, mut log: File, tx: mpsc::Sender<String>) {
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        let _ = writeln!(log, "{line}");
        if tx.send(line).is_err() {
            break;
        }
    }
}

impl Running {
    fn wait_listening(&mut self, timeout: Duration) -> Result<SocketAddr, String> {
        let line = self.wait_line("listening ", timeout)?;
        let addr: SocketAddr = line["listening ".len()..]
            .trim()
            .parse()
            .map_err(|_| format!("cannot parse {line:?}"))?;
        if addr.ip().is_unspecified() {
            let local = IpAddr::V4(Ipv4Addr::LOCALHOST);
            return Ok(SocketAddr::new(local, addr.port()));
        }
        Ok(addr)
    }

    /// The first stdout line starting with `prefix` (earlier lines are only logged).
    fn wait_line(&mut self, prefix: &str, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no `{}` line within {timeout:?}", prefix.trim()))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.wait_exit(Duration::from_secs(2));
                    return Err(format!(
                        "closed its stdout before a `{}` line ({status}){}",
                        prefix.trim(),
                        self.log_tail()
                    ));
                }
            }
        }
    }

    /// Closes the server's stdin and waits for its `served` line and its exit (status 0).
    pub fn stop(mut self) -> Result<Served, String> {
        drop(self.stdin.take());
        let line = self.wait_line("served ", STOP_TIMEOUT);
        let status = self.wait_exit(STOP_TIMEOUT);
        let line = line?;
        let served = parse_served(&line).ok_or_else(|| format!("cannot parse {line:?}"))?;
        if status != "exit status: 0" {
            return Err(format!("{line}, then {status}{}", self.log_tail()));
        }
        Ok(served)
    }

    /// How the process ended, if it has.
    pub fn exited(&mut self) -> Option<String> {
        self.child.try_wait().ok().flatten().map(|s| s.to_string())
    }

    /// Waits up to `timeout` for the process to exit, then kills it; says how it ended.
    fn wait_exit(&mut self, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                Ok(None) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return format!("still running after {timeout:?}: killed");
                }
                Err(e) => return format!("cannot wait: {e}"),
            }
        }
    }

    /// The last lines of the server's log, for an error message.
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(3)..].join(" | ");
        if tail.is_empty() {
            String::new()
        } else {
            format!(": {tail}")
        }
    }
}

impl Drop for Running {
    /// A server left running (an error path) is killed: it is our child.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Opens `path` for appending (the progress log).
pub fn append(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn served_lines() {
        assert_eq!(
            parse_served("served 1200 packets, 0 errors\n"),
            Some(Served {
                packets: 1200,
                errors: 0
            })
        );
        assert_eq!(parse_served("served 1 packets"), None);
        assert_eq!(parse_served("served x packets, 0 errors"), None);
    }

    #[test]
    fn the_table_has_the_contract_ids() {
        let ids: Vec<&str> = table(&Programs::from_env()).iter().map(|s| s.id).collect();
        assert_eq!(
            ids,
            [
                "rust-mt", "rust-ct", "rust-raw", "go", "go-raw", "node", "node-raw", "bun",
                "bun-raw", "deno", "deno-raw", "mcproto"
            ]
        );
    }
}
