//! The build-script directives `bitwire-build` prints on stdout for cargo
//! (<https://doc.rust-lang.org/cargo/reference/build-scripts.html>).

use std::io::Write;

use crate::Error;

/// Writes cargo directives to a build script's stdout (or, in tests, a buffer).
pub(crate) struct Directives<'a> {
    out: &'a mut dyn Write,
    /// Whether `cargo::error=` may be used; else errors are printed as warnings.
    error_directive: bool,
}

impl<'a> Directives<'a> {
    /// Directives for the package whose build script is running: `cargo::error=`
    /// unless the package declares a `rust-version` older than 1.77, whose cargo
    /// rejects the `cargo::` syntax (cargo 1.84 added `error`; bitwire-build itself
    /// needs 1.85, so the cargo running it has it).
    pub fn new(out: &'a mut dyn Write) -> Directives<'a> {
        let msrv = std::env::var("CARGO_PKG_RUST_VERSION").unwrap_or_default();
        Directives {
            out,
            error_directive: !older_than_1_77(&msrv),
        }
    }

    /// Directives with a given choice of error syntax (tests).
    #[cfg(test)]
    pub fn with_error_directive(out: &'a mut dyn Write, error_directive: bool) -> Directives<'a> {
        Directives {
            out,
            error_directive,
        }
    }

    /// `cargo:rerun-if-changed=FILE`.
    pub fn rerun_if_changed(&mut self, file: &str) -> Result<(), Error> {
        self.line("cargo:rerun-if-changed=", file)
    }

    /// Every line of `text` as a cargo warning, shown under the package's name.
    pub fn warnings(&mut self, text: &str) -> Result<(), Error> {
        for line in text.lines() {
            self.line("cargo:warning=", line)?;
        }
        Ok(())
    }

    /// Every line of `text` as a cargo error (a warning with older `rust-version`s):
    /// shown first, before cargo's dump of the build script's output.
    pub fn errors(&mut self, text: &str) -> Result<(), Error> {
        let prefix = if self.error_directive {
            "cargo::error="
        } else {
            "cargo:warning="
        };
        for line in text.lines() {
            self.line(prefix, line)?;
        }
        Ok(())
    }

    fn line(&mut self, prefix: &str, text: &str) -> Result<(), Error> {
        writeln!(self.out, "{prefix}{text}").map_err(|source| Error::Io {
            path: Default::default(),
            source,
        })
    }
}

/// Whether a `rust-version` value (`1.70`, `1.70.1`, or empty when not declared)
/// is older than 1.77.
fn older_than_1_77(version: &str) -> bool {
    let mut parts = version.split('.').map(|p| p.parse::<u64>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(major), Some(minor)) => (major, minor) < (1, 77),
        (Some(major), None) => major < 1,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_versions() {
        assert!(!older_than_1_77(""));
        assert!(!older_than_1_77("1.77"));
        assert!(!older_than_1_77("1.85.0"));
        assert!(!older_than_1_77("2"));
        assert!(older_than_1_77("1.76.1"));
        assert!(older_than_1_77("1.56"));
    }

    #[test]
    fn every_line_is_a_directive() {
        let mut buf = Vec::new();
        let mut d = Directives::with_error_directive(&mut buf, true);
        d.rerun_if_changed("a/b.bw").unwrap();
        d.errors("error[E0201]: x\n  --> a.bw:1:2\n").unwrap();
        d.warnings("warning: y\n").unwrap();
        let mut old = Directives::with_error_directive(&mut buf, false);
        old.errors("error: z").unwrap();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "cargo:rerun-if-changed=a/b.bw\n\
             cargo::error=error[E0201]: x\n\
             cargo::error=  --> a.bw:1:2\n\
             cargo:warning=warning: y\n\
             cargo:warning=error: z\n"
        );
    }
}
