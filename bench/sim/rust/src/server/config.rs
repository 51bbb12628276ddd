//! `simserver`'s command line (bench/sim/README.md, "simserver").

use std::path::PathBuf;
use std::time::Duration;

use bitwire_netbench::cli::Args;

use crate::codec::CodecKind;

/// The usage line.
pub const USAGE: &str = "simserver --codec NAME [--tcp 127.0.0.1:0] [--http 127.0.0.1:0] \
[--ws 127.0.0.1:0] [--clients N] [--warmup S] [--seconds S] [--cpu CORE] [--static DIR] \
[--summary FILE] | simserver --rules";

/// What the server runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The codec of the game connections.
    pub codec: CodecKind,
    /// Where the game connections (TCP) are accepted.
    pub tcp: String,
    /// Where `/metrics`, `/live.json` and the static files are served.
    pub http: String,
    /// Where the live view's WebSocket is accepted.
    pub ws: String,
    /// The measured window, if any (`--clients` or `--seconds` given).
    pub window: Option<WindowPlan>,
    /// The core the process is pinned to.
    pub cpu: Option<usize>,
    /// The live view's files.
    pub static_dir: Option<PathBuf>,
    /// Where the summary (JSON) is written at exit.
    pub summary: Option<PathBuf>,
}

/// When the measured window starts and how long it lasts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WindowPlan {
    /// The window waits for this many connected clients (0: at once) ...
    pub clients: usize,
    /// ... then this long ...
    pub warmup: Duration,
    /// ... and lasts this long.
    pub seconds: Duration,
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Run the server.
    Serve(Config),
    /// Print the rules as JSON (`--rules`).
    Rules,
}

fn seconds(args: &Args, name: &str, default: f64) -> Result<Duration, String> {
    let s: f64 = args.parsed(name)?.unwrap_or(default);
    if !(s.is_finite() && (0.0..=86_400.0).contains(&s)) {
        return Err(format!("--{name} must be 0 to 86400 seconds, not {s}"));
    }
    Ok(Duration::from_secs_f64(s))
}

/// Parses `simserver`'s arguments (without the program name).
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let valued = [
        "codec", "tcp", "http", "ws", "clients", "warmup", "seconds", "cpu", "static", "summary",
    ];
    let args = Args::parse(args, &valued, &["rules"])?;
    if args.has("rules") {
        return Ok(Command::Rules);
    }
    let codec = CodecKind::parse(args.get("codec").ok_or("--codec is required")?)?;
    let window = if args.get("clients").is_some() || args.get("seconds").is_some() {
        Some(WindowPlan {
            clients: args.parsed("clients")?.unwrap_or(0),
            warmup: seconds(&args, "warmup", 1.0)?,
            seconds: seconds(&args, "seconds", 10.0)?,
        })
    } else {
        None
    };
    let addr = |name: &str| args.get(name).unwrap_or("127.0.0.1:0").to_string();
    Ok(Command::Serve(Config {
        codec,
        tcp: addr("tcp"),
        http: addr("http"),
        ws: addr("ws"),
        window,
        cpu: args.parsed("cpu")?,
        static_dir: args.get("static").map(PathBuf::from),
        summary: args.get("summary").map(PathBuf::from),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_list(list: &[&str]) -> Result<Command, String> {
        parse(list.iter().map(|s| s.to_string()))
    }

    #[test]
    fn defaults_and_the_window() {
        let Command::Serve(c) = parse_list(&["--codec", "bitwire"]).unwrap() else {
            panic!("a server")
        };
        assert_eq!(
            (c.codec, c.tcp.as_str(), c.window),
            (CodecKind::Bitwire, "127.0.0.1:0", None)
        );
        let Command::Serve(c) = parse_list(&["--codec", "bitwire", "--clients", "10"]).unwrap()
        else {
            panic!("a server")
        };
        let w = c.window.unwrap();
        assert_eq!(
            (w.clients, w.warmup, w.seconds),
            (10, Duration::from_secs(1), Duration::from_secs(10))
        );
        let Command::Serve(c) = parse_list(&[
            "--codec",
            "bitwire",
            "--seconds",
            "2.5",
            "--warmup",
            "0",
            "--cpu",
            "0",
            "--summary",
            "s.json",
        ])
        .unwrap() else {
            panic!("a server")
        };
        let w = c.window.unwrap();
        assert_eq!(
            (w.clients, w.warmup, w.seconds),
            (0, Duration::ZERO, Duration::from_millis(2500))
        );
        assert_eq!((c.cpu, c.summary), (Some(0), Some(PathBuf::from("s.json"))));
        assert_eq!(parse_list(&["--rules"]), Ok(Command::Rules));
    }

    #[test]
    fn bad_command_lines_are_errors() {
        assert!(parse_list(&[]).unwrap_err().contains("--codec"));
        assert!(parse_list(&["--codec", "gzip"])
            .unwrap_err()
            .contains("unknown codec"));
        assert!(parse_list(&["--codec", "bitwire", "--seconds", "-1"]).is_err());
        assert!(parse_list(&["--codec", "bitwire", "--seconds", "NaN"]).is_err());
        assert!(parse_list(&["--codec", "bitwire", "--clients", "x"]).is_err());
        assert!(parse_list(&["--codec", "bitwire", "--frobnicate"]).is_err());
    }
}
