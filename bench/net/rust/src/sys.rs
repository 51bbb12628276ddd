//! Linux: the core count, pinning the driver to a core, and CPU time of the driver's
//! thread and of a server's processes.

use std::path::Path;
use std::time::Duration;

/// Online cores of the machine (not of this thread's affinity, which pinning narrows).
pub fn cores() -> usize {
    // SAFETY: sysconf only reads a system value.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    usize::try_from(n).unwrap_or(1).max(1)
}

/// Pins the calling thread (and the threads it starts afterwards) to `core`.
pub fn pin_to_core(core: usize) -> Result<(), String> {
    // SAFETY: cpu_set_t is plain data; zeroed is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: CPU_SET bounds-checks `core` against the set's size.
    unsafe { libc::CPU_SET(core, &mut set) };
    // SAFETY: pid 0 is the calling thread; `set` is a valid cpu_set_t of the size given.
    let r = unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
    if r == 0 {
        Ok(())
    } else {
        Err(format!(
            "cannot pin to core {core}: {}",
            std::io::Error::last_os_error()
        ))
    }
}

/// CPU time (user + system) of the calling thread.
pub fn thread_cpu() -> Duration {
    // SAFETY: rusage is plain data; getrusage fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: RUSAGE_THREAD with a valid pointer to an rusage.
    let r = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
    if r != 0 {
        return Duration::ZERO;
    }
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// A reading of a server's CPU time: the process and its descendants (a launcher that
/// starts the real server as a child is counted with it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuSample {
    /// `(pid, tid)` of every thread read.
    threads: Vec<(u32, u32)>,
    /// Sum of the threads' run time from `/proc/PID/task/TID/schedstat`, in ns.
    sched_ns: u64,
    /// Sum of utime + stime from `/proc/PID/stat`, in clock ticks.
    ticks: u64,
}

/// Reads the CPU time of `pid` and its descendants.
pub fn process_cpu(pid: u32) -> Result<CpuSample, String> {
    let mut sample = CpuSample {
        threads: Vec::new(),
        sched_ns: 0,
        ticks: 0,
    };
    let mut pids = vec![pid];
    while let Some(p) = pids.pop() {
        let stat = std::fs::read_to_string(format!("/proc/{p}/stat"))
            .map_err(|e| format!("cannot read /proc/{p}/stat: {e}"))?;
        sample.ticks += stat_ticks(&stat).ok_or_else(|| format!("bad /proc/{p}/stat"))?;
        let tasks = std::fs::read_dir(format!("/proc/{p}/task"))
            .map_err(|e| format!("cannot list /proc/{p}/task: {e}"))?;
        for task in tasks.flatten() {
            let Some(tid) = task.file_name().to_str().and_then(|t| t.parse().ok()) else {
                continue;
            };
            let dir = task.path();
            if let Some(ns) = read_first_u64(&dir.join("schedstat")) {
                sample.sched_ns += ns;
                sample.threads.push((p, tid));
            }
            if let Ok(children) = std::fs::read_to_string(dir.join("children")) {
                pids.extend(
                    children
                        .split_whitespace()
                        .filter_map(|c| c.parse::<u32>().ok()),
                );
            }
        }
    }
    sample.threads.sort_unstable();
    Ok(sample)
}

/// utime + stime (fields 14 and 15) of a `/proc/PID/stat` line; the command name in
/// field 2 may hold spaces and parentheses, so fields are counted after its last `)`.
fn stat_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11); // field 3 is the first after ')'
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

fn read_first_u64(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path)
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// CPU time between two readings: from the threads' scheduler run times (ns) when
/// the same threads ran throughout, else from `/proc/PID/stat` (clock ticks, 10 ms
/// at the usual 100 Hz), which also counts threads that ended in between.
pub fn cpu_between(before: &CpuSample, after: &CpuSample) -> Duration {
    if before.threads == after.threads && !after.threads.is_empty() {
        return Duration::from_nanos(after.sched_ns.saturating_sub(before.sched_ns));
    }
    // SAFETY: sysconf only reads a system value.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    let ticks = after.ticks.saturating_sub(before.ticks);
    Duration::from_nanos(ticks * 1_000_000_000 / hz)
}

/// Resolves when stdin reaches end of file (read on a thread of its own) or on SIGTERM:
/// how the benchmark servers (netserver, simserver) are told to stop. Call it inside a
/// tokio runtime.
pub fn stopped() -> Result<impl std::future::Future<Output = ()>, String> {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| format!("cannot watch SIGTERM: {e}"))?;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
        let _ = tx.send(());
    });
    Ok(async move {
        tokio::select! {
            _ = rx => {}
            _ = term.recv() => {}
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_after_the_command_name() {
        let line = "42 (a (weird) name) S 1 42 42 0 -1 4194560 100 0 0 0 250 30 0 0 20 0 1 0";
        assert_eq!(stat_ticks(line), Some(280));
        assert_eq!(stat_ticks("garbage"), None);
    }

    #[test]
    fn own_process_is_read() {
        let pid = std::process::id();
        let sample = process_cpu(pid).unwrap();
        assert!(sample.threads.contains(&(pid, pid)));
        assert!(sample.sched_ns > 0);
        assert!(thread_cpu() > Duration::ZERO);
        assert!(cores() >= 1);
        assert!(process_cpu(u32::MAX).is_err());
    }

    #[test]
    fn scheduler_time_unless_threads_changed() {
        let before = CpuSample {
            threads: vec![(1, 1), (1, 2)],
            sched_ns: 1_000,
            ticks: 10,
        };
        let after = CpuSample {
            sched_ns: 5_000,
            ticks: 12,
            ..before.clone()
        };
        assert_eq!(cpu_between(&before, &after), Duration::from_nanos(4_000));
        let fewer = CpuSample {
            threads: vec![(1, 1)],
            ..after
        };
        // SAFETY: sysconf only reads a system value.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
        assert_eq!(
            cpu_between(&before, &fewer),
            Duration::from_nanos(2 * 1_000_000_000 / hz)
        );
    }
}
