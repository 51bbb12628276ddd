//! Running the tools: each step is a child process in its own process group, with
//! its output captured and a time limit (a runner that hangs is killed and reported,
//! not waited for).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The repository root (this crate is `conformance/schemagen`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// Cargo's target directory: `$CARGO_TARGET_DIR`, else `target/` at the root.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target"))
}

/// What a finished (or killed) step printed, and how it ended.
#[derive(Debug)]
pub struct Output {
    pub ok: bool,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
    pub seconds: f64,
}

impl Output {
    /// The last `n` lines of stdout and stderr, for a report.
    pub fn tail(&self, n: usize) -> String {
        let all = format!("{}{}", self.stdout, self.stderr);
        let lines: Vec<&str> = all.lines().collect();
        lines[lines.len().saturating_sub(n)..].join("\n")
    }
}

/// A command to run in `dir` with extra environment variables.
pub struct Step<'a> {
    pub program: String,
    pub args: Vec<String>,
    pub dir: PathBuf,
    pub env: Vec<(&'a str, String)>,
    pub limit: Duration,
}

impl<'a> Step<'a> {
    /// `program args…` in `dir`, with a ten-minute limit.
    pub fn new(program: &str, args: &[&str], dir: &Path) -> Step<'a> {
        Step {
            program: program.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
            dir: dir.to_path_buf(),
            env: Vec::new(),
            limit: Duration::from_secs(600),
        }
    }

    /// Adds an environment variable.
    pub fn env(mut self, key: &'a str, value: impl Into<String>) -> Step<'a> {
        self.env.push((key, value.into()));
        self
    }

    /// Runs the step to completion or its limit. Output goes through files in
    /// `logs` (named after `name`), so a large output cannot block the child.
    pub fn run(&self, logs: &Path, name: &str) -> Output {
        use std::os::unix::process::CommandExt as _;
        let started = Instant::now();
        let (out_path, err_path) = (
            logs.join(format!("{name}.out")),
            logs.join(format!("{name}.err")),
        );
        let spawned = Command::new(&self.program)
            .args(&self.args)
            .current_dir(&self.dir)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out_path).expect("create a log file"))
            .stderr(std::fs::File::create(&err_path).expect("create a log file"))
            .process_group(0)
            .spawn();
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) => {
                return Output {
                    ok: false,
                    timed_out: false,
                    stdout: String::new(),
                    stderr: format!("cannot run {}: {e}", self.program),
                    seconds: 0.0,
                }
            }
        };
        let (status, timed_out) = loop {
            if let Some(status) = child.try_wait().expect("wait for a child") {
                break (Some(status), false);
            }
            if started.elapsed() > self.limit {
                // The whole process group: `go test` and `cargo` start children.
                let _ = Command::new("kill")
                    .arg("-KILL")
                    .arg("--")
                    .arg(format!("-{}", child.id()))
                    .status();
                let _ = child.wait();
                break (None, true);
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let read =
            |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
        Output {
            ok: status.is_some_and(|s| s.success()),
            timed_out,
            stdout: read(&out_path),
            stderr: read(&err_path),
            seconds: started.elapsed().as_secs_f64(),
        }
    }
}

/// The first candidate that runs `--version`, if any (Bun and Deno come from npm
/// as platform packages that may be missing on this machine).
pub fn find_bin(candidates: &[PathBuf]) -> Option<PathBuf> {
    candidates.iter().find_map(|c| {
        let ok = Command::new(c)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| c.clone())
    })
}
