//! The error [`crate::Config::compile`] returns.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why a schema could not be compiled into Rust.
///
/// `Debug` prints the same text as `Display`, so that a build script's `unwrap()`
/// or `fn main() -> Result<(), bitwire_build::Error>` shows a sentence, not an
/// escaped string. The compiler's diagnostics are not repeated in the message: they
/// went to cargo as errors already (and are in [`Error::Schema`]'s `rendered`).
#[non_exhaustive]
pub enum Error {
    /// The schema (or a file it imports) has errors, which were printed as cargo
    /// errors.
    Schema {
        /// The schema as passed to `compile`.
        schema: PathBuf,
        /// How many errors.
        errors: usize,
        /// Every diagnostic, rendered as the `bitwire` CLI prints them.
        rendered: String,
    },
    /// `$OUT_DIR` is not set: not running in a build script, and no
    /// [`crate::Config::out_dir`] was given.
    NoOutDir,
    /// Two schemas would be written to the same file (`a/lobby.bw`, `b/lobby.bw`).
    SameOutput {
        /// The first schema.
        first: PathBuf,
        /// The second schema.
        second: PathBuf,
        /// The file both would be written to.
        file: String,
    },
    /// Writing the generated file (or the cargo directives) failed.
    Io {
        /// The file (empty for the directives on stdout).
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Schema { schema, errors, .. } => {
                // The diagnostics themselves went to cargo already, as errors.
                let s = if *errors == 1 { "" } else { "s" };
                write!(
                    f,
                    "bitwire-build: {} has {errors} error{s} (shown above), no code was generated",
                    schema.display(),
                )
            }
            Error::NoOutDir => f.write_str(
                "bitwire-build: OUT_DIR is not set; call it from a build script (build.rs) \
                 or set Config::out_dir",
            ),
            Error::SameOutput {
                first,
                second,
                file,
            } => write!(
                f,
                "bitwire-build: {} and {} would both be written to {file}; compile them in \
                 separate calls with different out_dir",
                first.display(),
                second.display()
            ),
            Error::Io { path, source } if path.as_os_str().is_empty() => {
                write!(f, "bitwire-build: cannot print cargo directives: {source}")
            }
            Error::Io { path, source } => {
                write!(
                    f,
                    "bitwire-build: cannot write {}: {source}",
                    path.display()
                )
            }
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
