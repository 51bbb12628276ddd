//! A program the orchestrator runs: started with its stdout read line by line (each line
//! also logged), its stderr into the same log, waited for with a timeout, and killed if
//! it is still running when dropped — no cell leaves a process behind.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running program.
#[derive(Debug)]
pub struct Proc {
    /// Its name in messages (`simserver`, `simclient`, `node`).
    pub name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Proc {
    /// Starts `argv` in `cwd` with stdin piped (closing it is how a server is told to
    /// stop), stdout read as lines and stdout and stderr appended to `log`.
    pub fn start(name: &str, argv: &[String], cwd: &Path, log: &Path) -> Result<Proc, String> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| format!("{name}: empty command"))?;
        let log_file = File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err_file = log_file
            .try_clone()
            .map_err(|e| format!("{}: {e}", log.display()))?;
        let mut child = Command::new(program)
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(err_file))
            .spawn()
            .map_err(|e| format!("{name}: cannot start {program}: {e}"))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut log_file = log_file;
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = writeln!(log_file, "{line}");
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Proc {
            name: name.to_string(),
            stdin: child.stdin.take(),
            child,
            lines,
        })
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits up to `timeout` for a stdout line that `accept` takes, returning it; lines
    /// before it are skipped. Fails when the program ends its output or the time is up.
    pub fn wait_line(
        &self,
        timeout: Duration,
        what: &str,
        accept: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if accept(&line) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{}: no {what} line after {timeout:?}", self.name))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!(
                        "{}: ended its output before a {what} line",
                        self.name
                    ))
                }
            }
        }
    }

    /// Closes its stdin (end of file: a server writes its summary and exits).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits up to `timeout` for it to exit; kills it after that (an error).
    pub fn wait(&mut self, timeout: Duration) -> Result<ExitStatus, String> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Ok(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                Ok(None) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return Err(format!(
                        "{}: still running after {timeout:?}: killed",
                        self.name
                    ));
                }
                Err(e) => return Err(format!("{}: {e}", self.name)),
            }
        }
    }

    /// Waits like [`Proc::wait`] and requires exit status 0.
    pub fn wait_ok(&mut self, timeout: Duration) -> Result<(), String> {
        let status = self.wait(timeout)?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{} exited with {status}", self.name))
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
