//! The networking example (examples/net/README.md): the arena protocol's generated
//! code, and what the Rust server and client share.

use std::process::ExitCode;

bitwire::include_schema!(
    /// Code generated from `examples/net/arena.bw` by `bitwire-build` (build.rs).
    pub mod arena
);

use bitwire::frame::FrameSettings;
use bitwire_net::ConnConfig;

/// The connection settings of both programs: compression above `--threshold` when
/// given, the defaults otherwise.
pub fn config(threshold: Option<u32>) -> ConnConfig {
    ConnConfig::new().with_frame(FrameSettings::new().with_threshold(threshold))
}

/// The command line as `--flag value` pairs; a flag without a value or an unknown one
/// is an error.
pub struct Args(Vec<(String, String)>);

impl Args {
    /// Parses `std::env::args()`, accepting the flags in `known`.
    pub fn parse(known: &[&str]) -> Result<Args, String> {
        let mut pairs = Vec::new();
        let mut args = std::env::args().skip(1);
        while let Some(flag) = args.next() {
            let name = flag
                .strip_prefix("--")
                .filter(|n| known.contains(n))
                .ok_or_else(|| format!("unknown argument {flag}"))?;
            let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
            pairs.push((name.to_string(), value));
        }
        Ok(Args(pairs))
    }

    /// The value of `--name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `--name` parsed, if given.
    pub fn parsed<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        self.get(name)
            .map(|v| {
                v.parse()
                    .map_err(|_| format!("--{name}: cannot parse {v:?}"))
            })
            .transpose()
    }
}

/// Prints `error` to stderr and returns exit code 1.
pub fn fail(error: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {error}");
    ExitCode::from(1)
}
