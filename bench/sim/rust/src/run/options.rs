//! `sim`'s command line: the presets (full, `--quick`, `--smoke`), the overrides, and
//! where the programs and the output are.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use bitwire_netbench::cli::Args;

use crate::codec::CodecKind;

/// `sim`'s usage.
pub const USAGE: &str = "usage: sim [--quick | --smoke] [--clients 10,50,...] [--codec a,b,...]
           [--seconds S] [--warmup S] [--prometheus] [--mixed] [--out DIR] [--root DIR]
       sim --report DIR     (rewrite DIR/report.md and report.html from DIR/results.json)
  full: every codec at 10, 50, 100, 250, 1000, 2000 clients, 10 s windows -> bench/results/<date>/sim/
  --quick: 10 and 100 clients, 3 s windows -> target/sim/quick/
  --smoke: 10 clients, 3 s windows (CI: the pipeline and the metrics check) -> target/sim/smoke/
  other --clients/--codec/--seconds without a preset -> target/sim/custom/
  --prometheus: a Prometheus server scrapes every cell; server-side figures from its API
  --mixed: adds, for bitwire and bitwire-delta, cells of Rust, Node, Bun and Deno clients
           (up to 250 clients: all client processes share one core)
  codecs: bitwire bitwire-delta bitcode flatbuffers wincode
  env: SIM_SERVER, SIM_CLIENT, SIMPROM, NODE, BUN, DENO (the programs; bench/sim/README.md)";

/// The full run's client counts.
/// 2000 is past the issue's counts: on the 2-core machine it is where the server's one
/// core runs out (bitwire at 2000 clients: 99.8 % CPU, the first overruns), so the report
/// can say where it breaks.
pub const FULL_CLIENTS: [usize; 6] = [10, 50, 100, 250, 1000, 2000];

/// What to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// `full`, `quick`, `smoke` or `custom`.
    pub mode: String,
    /// Codecs, in order.
    pub codecs: Vec<CodecKind>,
    /// Client counts, in order.
    pub clients: Vec<usize>,
    /// The measured window, seconds.
    pub seconds: f64,
    /// Seconds between the last connect and the window.
    pub warmup: f64,
    /// Scrape every cell with a real Prometheus server and take its figures.
    pub prometheus: bool,
    /// Add the mixed-runtime cells.
    pub mixed: bool,
    /// Where results go.
    pub out: PathBuf,
    /// The repository.
    pub root: PathBuf,
}

impl Options {
    /// Parses `sim`'s arguments (without the program name and without `--report`).
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let valued = ["clients", "codec", "seconds", "warmup", "out", "root"];
        let switches = ["quick", "smoke", "prometheus", "mixed"];
        let a = Args::parse(args, &valued, &switches)?;
        let (quick, smoke) = (a.has("quick"), a.has("smoke"));
        if quick && smoke {
            return Err("--quick and --smoke exclude each other".into());
        }
        let custom = ["clients", "codec", "seconds"]
            .iter()
            .any(|f| a.get(f).is_some());
        let (mode, clients, seconds) = match (quick, smoke, custom) {
            (true, _, _) => ("quick", vec![10, 100], 3.0),
            (_, true, _) => ("smoke", vec![10], 3.0),
            (_, _, true) => ("custom", FULL_CLIENTS.to_vec(), 10.0),
            _ => ("full", FULL_CLIENTS.to_vec(), 10.0),
        };
        let codecs = match a.list::<String>("codec")? {
            Some(names) => names
                .iter()
                .map(|n| CodecKind::parse(n))
                .collect::<Result<Vec<_>, _>>()?,
            None => CodecKind::ALL.to_vec(),
        };
        let root = match a.get("root") {
            Some(r) => PathBuf::from(r),
            None => find_root()?,
        };
        let date = &bitwire_netbench::results::rfc3339(SystemTime::now())[..10];
        let out = match (a.get("out"), mode) {
            (Some(o), _) => PathBuf::from(o),
            (None, "full") => root.join(format!("bench/results/{date}/sim")),
            (None, m) => root.join(format!("target/sim/{m}")),
        };
        let o = Options {
            mode: mode.to_string(),
            codecs,
            clients: a.list("clients")?.unwrap_or(clients),
            seconds: a.parsed("seconds")?.unwrap_or(seconds),
            warmup: a.parsed("warmup")?.unwrap_or(1.0),
            prometheus: a.has("prometheus"),
            mixed: a.has("mixed"),
            out,
            root,
        };
        o.validate()?;
        Ok(o)
    }

    fn validate(&self) -> Result<(), String> {
        if self.codecs.is_empty() || self.clients.is_empty() {
            return Err("--codec and --clients need at least one value".into());
        }
        if let Some(n) = self.clients.iter().find(|&&n| n == 0 || n >= 2047) {
            return Err(format!(
                "--clients {n}: want 1 to 2046 (player ids stay below the NPCs')"
            ));
        }
        if !(self.seconds > 0.0 && self.seconds <= 3600.0) {
            return Err(format!(
                "--seconds {}: want more than 0, at most 3600",
                self.seconds
            ));
        }
        if !(self.warmup >= 0.0 && self.warmup <= 600.0) {
            return Err(format!("--warmup {}: want 0 to 600", self.warmup));
        }
        for (i, c) in self.codecs.iter().enumerate() {
            if self.codecs[..i].contains(c) {
                return Err(format!("--codec {c} given twice"));
            }
        }
        for (i, n) in self.clients.iter().enumerate() {
            if self.clients[..i].contains(n) {
                return Err(format!("--clients {n} given twice"));
            }
        }
        Ok(())
    }
}

/// The repository root: the nearest directory upwards holding `bench/sim/README.md`.
pub fn find_root() -> Result<PathBuf, String> {
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    cwd.ancestors()
        .find(|d| d.join("bench/sim/README.md").is_file())
        .map(Path::to_path_buf)
        .ok_or_else(|| "not inside the bitwire repository: give --root".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        let mut all = vec!["--root", "/r"];
        all.extend(args);
        Options::parse(all.iter().map(|s| s.to_string()))
    }

    #[test]
    fn presets() {
        let full = parse(&[]).unwrap();
        assert_eq!(
            (full.mode.as_str(), full.clients.clone(), full.seconds),
            ("full", FULL_CLIENTS.to_vec(), 10.0)
        );
        assert_eq!(full.codecs, CodecKind::ALL.to_vec());
        assert!(full.out.starts_with("/r/bench/results/"));
        assert!(full.out.ends_with("sim"));
        let quick = parse(&["--quick"]).unwrap();
        assert_eq!((quick.clients.clone(), quick.seconds), (vec![10, 100], 3.0));
        assert_eq!(quick.out, PathBuf::from("/r/target/sim/quick"));
        let smoke = parse(&["--smoke", "--prometheus"]).unwrap();
        assert_eq!(
            (smoke.clients.clone(), smoke.seconds, smoke.prometheus),
            (vec![10], 3.0, true)
        );
        let custom = parse(&[
            "--clients",
            "10,50",
            "--codec",
            "bitwire,bitcode",
            "--seconds",
            "5",
        ])
        .unwrap();
        assert_eq!(custom.mode, "custom");
        assert_eq!(custom.codecs, vec![CodecKind::Bitwire, CodecKind::Bitcode]);
        assert_eq!((custom.clients, custom.seconds), (vec![10, 50], 5.0));
        assert_eq!(custom.out, PathBuf::from("/r/target/sim/custom"));
        assert_eq!(
            parse(&["--quick", "--out", "x"]).unwrap().out,
            PathBuf::from("x")
        );
    }

    #[test]
    fn bad_arguments_are_errors() {
        for (args, want) in [
            (&["--quick", "--smoke"][..], "exclude"),
            (&["--codec", "protobuf"], "unknown codec"),
            (&["--clients", "0"], "want 1 to 2046"),
            (&["--clients", "10,x"], "cannot parse"),
            (&["--clients", "10,10"], "twice"),
            (&["--seconds", "0"], "--seconds"),
            (&["--warmup", "-1"], "--warmup"),
            (&["--bogus"], "unknown argument"),
        ] {
            let e = parse(args).unwrap_err();
            assert!(e.contains(want), "{args:?}: {e}");
        }
    }
}
