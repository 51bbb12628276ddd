//! The machine a run measured and the versions of its runtimes.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::results::Machine;
use crate::servers::Programs;

/// How long `--version` of a runtime may take.
const VERSION_TIMEOUT: Duration = Duration::from_secs(20);

/// The machine, with the versions of the runtimes in `runtimes` (`rust`, `go`,
/// `node`, `bun`, `deno`; rustc is always asked).
pub fn describe(root: &Path, programs: &Programs, runtimes: &[&str], pinning: &str) -> Machine {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split_once(':'))
        .map_or("unknown".to_string(), |(_, v)| v.trim().to_string());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map_or("unknown".to_string(), |k| k.trim().to_string());
    let os = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME="))
                .map(|v| v.trim_matches('"').to_string())
        })
        .unwrap_or_else(|| "Linux".to_string());
    let mut versions = BTreeMap::new();
    versions.insert(
        "rustc".to_string(),
        version(root, &["rustc", "--version"], 1),
    );
    let asks: [(&str, Vec<&str>, usize); 4] = [
        ("go", vec!["go", "version"], 2),
        ("node", vec![programs.node.as_str(), "--version"], 0),
        ("bun", vec![programs.bun.as_str(), "--version"], 0),
        ("deno", vec![programs.deno.as_str(), "--version"], 1),
    ];
    for (name, argv, word) in asks {
        if runtimes.contains(&name) {
            versions.insert(name.to_string(), version(root, &argv, word));
        }
    }
    Machine {
        cpu,
        cores: crate::sys::cores(),
        kernel,
        os,
        pinning: pinning.to_string(),
        runtimes: versions,
    }
}

/// Word `word` of the first line `argv` prints (`rustc 1.95.0 (…)` → word 1), or why
/// there is none.
fn version(root: &Path, argv: &[&str], word: usize) -> String {
    match run(root, argv) {
        Ok(out) => {
            let first = out.lines().next().unwrap_or("");
            first
                .split_whitespace()
                .nth(word)
                .unwrap_or(first)
                .to_string()
        }
        Err(e) => format!("unavailable ({e})"),
    }
}

/// The stdout of `argv` run in `root`, killed after [`VERSION_TIMEOUT`].
fn run(root: &Path, argv: &[&str]) -> Result<String, String> {
    let mut child = Command::new(argv[0])
        .args(&argv[1..])
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", argv[0]))?;
    let deadline = Instant::now() + VERSION_TIMEOUT;
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(Some(status)) => return Err(format!("{}: {status}", argv[0])),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{}: no answer in {VERSION_TIMEOUT:?}", argv[0]));
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        stdout.read_to_string(&mut out).map_err(|e| e.to_string())?;
    }
    Ok(out)
}
