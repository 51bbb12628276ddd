//! The Prometheus server of `sim --prometheus` (bench/sim/prometheus/prometheus.sh): started
//! once per run, pinned to the clients' core; each cell's server becomes a target (a file
//! of its file-based discovery) with the labels `codec` and `clients`; `simprom` waits for
//! the target to be scraped and reads the cell's figures from the query API.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::report::model::PromFigures;

/// How long a target may take to be discovered and scraped (discovery batches updates
/// every 5 s).
const UP_TIMEOUT_S: u32 = 40;

/// How long the query may wait for a scrape after the window's end.
const QUERY_TIMEOUT_S: u32 = 20;

/// A running Prometheus server; stopped when dropped.
#[derive(Debug)]
pub struct Prometheus {
    script: PathBuf,
    simprom: PathBuf,
    dir: PathBuf,
    /// Its base URL.
    pub url: String,
}

/// The stdout of `cmd`, or an error with its stderr.
fn output(mut cmd: Command, what: &str) -> Result<String, String> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "{what}: {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

impl Prometheus {
    /// Starts Prometheus with its work directory `dir` (config, targets, data, log).
    pub fn start(
        script: &Path,
        simprom: &Path,
        dir: &Path,
        cpu: usize,
    ) -> Result<Prometheus, String> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port for Prometheus: {e}"))?
            .port();
        let mut cmd = Command::new("bash");
        cmd.arg(script)
            .arg("start")
            .arg(dir)
            .arg(port.to_string())
            .arg(cpu.to_string());
        let url = output(cmd, "prometheus.sh start")?.trim().to_string();
        Ok(Prometheus {
            script: script.to_path_buf(),
            simprom: simprom.to_path_buf(),
            dir: dir.to_path_buf(),
            url,
        })
    }

    /// The label matchers of a cell.
    pub fn selector(codec: &str, clients: usize) -> String {
        format!("{{codec=\"{codec}\",clients=\"{clients}\"}}")
    }

    fn target_file(&self, id: &str) -> PathBuf {
        self.dir.join("targets").join(format!("{id}.json"))
    }

    /// Makes the cell's server (`/metrics` at `http`) a target and waits until it is
    /// scraped.
    pub fn add_target(
        &self,
        id: &str,
        http: &str,
        codec: &str,
        clients: usize,
    ) -> Result<(), String> {
        let target = serde_json::json!([{
            "targets": [http],
            "labels": {"codec": codec, "clients": clients.to_string()},
        }]);
        // Written whole and renamed, so discovery never reads half a file.
        let tmp = self.dir.join(format!("{id}.json.tmp"));
        std::fs::write(&tmp, target.to_string()).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, self.target_file(id)).map_err(|e| e.to_string())?;
        let mut cmd = Command::new(&self.simprom);
        cmd.args(["up", "--url", &self.url, "--match"])
            .arg(Self::selector(codec, clients))
            .args(["--timeout", &UP_TIMEOUT_S.to_string()]);
        output(cmd, "simprom up").map(|_| ())
    }

    /// Removes the cell's target.
    pub fn remove_target(&self, id: &str) {
        let _ = std::fs::remove_file(self.target_file(id));
    }

    /// The cell's server-side figures over the `window` seconds before `end`.
    pub fn query(
        &self,
        codec: &str,
        clients: usize,
        end: SystemTime,
        window: f64,
    ) -> Result<PromFigures, String> {
        let at = end
            .duration_since(UNIX_EPOCH)
            .map_err(|e| e.to_string())?
            .as_secs_f64();
        let mut cmd = Command::new(&self.simprom);
        cmd.args(["query", "--url", &self.url, "--match"])
            .arg(Self::selector(codec, clients))
            .args([
                "--at",
                &format!("{at:.3}"),
                "--window",
                &format!("{window}"),
            ])
            .args(["--timeout", &QUERY_TIMEOUT_S.to_string()]);
        let json = output(cmd, "simprom query")?;
        serde_json::from_str(&json).map_err(|e| format!("simprom query: {e}: {json}"))
    }

    /// Stops it (also done when dropped).
    pub fn stop(&mut self) -> Result<(), String> {
        if self.url.is_empty() {
            return Ok(());
        }
        self.url.clear();
        let mut cmd = Command::new("bash");
        cmd.arg(&self.script).arg("stop").arg(&self.dir);
        output(cmd, "prometheus.sh stop").map(|_| ())
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}
