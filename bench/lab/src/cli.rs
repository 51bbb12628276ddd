//! The command line of the lab's binaries: `--quick` and `--name VALUE` flags.

use std::path::PathBuf;

/// The program's arguments (without the program name).
#[derive(Debug, Clone, Default)]
pub struct Args(Vec<String>);

impl Args {
    /// The arguments of this process.
    pub fn from_env() -> Self {
        Args(std::env::args().skip(1).collect())
    }

    /// Whether the switch `name` (`--quick`) is given.
    pub fn flag(&self, name: &str) -> bool {
        self.0.iter().any(|a| a == name)
    }

    /// The path following `name` (`--out FILE`), if given.
    pub fn path(&self, name: &str) -> Option<PathBuf> {
        self.0
            .iter()
            .position(|a| a == name)
            .and_then(|i| self.0.get(i + 1))
            .map(PathBuf::from)
    }
}
