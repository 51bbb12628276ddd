//! Compiles bitwire schemas to Rust from a build script, the way `prost-build` does
//! for protobuf: the schema is compiled by `cargo build` itself, and the generated
//! code never goes stale.
//!
//! ```toml
//! [dependencies]
//! bitwire = "0.1"
//!
//! [build-dependencies]
//! bitwire-build = "0.1"
//! ```
//!
//! `build.rs`:
//!
//! ```no_run
//! fn main() -> Result<(), bitwire_build::Error> {
//!     bitwire_build::Config::new().compile(&["lobby.bw"])
//! }
//! ```
//!
//! `src/main.rs`:
//!
//! ```ignore
//! bitwire::include_schema!(mod lobby); // $OUT_DIR/lobby.rs
//!
//! use bitwire::Packed; // encode, decode, verify
//! ```
//!
//! For each schema, [`Config::compile`] writes `$OUT_DIR/<stem>.rs` (`lobby.bw` →
//! `lobby.rs`, `game-state.bw` → `game_state.rs`), prints `cargo:rerun-if-changed`
//! for the schema and every file it imports (so editing any of them rebuilds), and
//! shows the compiler's warnings, if any, as cargo warnings. A schema with errors is not
//! written: every diagnostic line goes to cargo as an error (`cargo::error=`), shown
//! at the top of cargo's output, and `compile` returns [`Error::Schema`] for the `?`
//! (or `unwrap`) that fails the build script.
//!
//! Paths are relative to the build script's working directory, the package root.
//! `docs/rust.md` of the bitwire repository describes the generated code.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod cargo;
mod error;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use bitwire_compiler::codegen::{file_stem, generate_rust, RustOptions};
use bitwire_compiler::{sema, FsLoader, SourceLoader};

pub use error::Error;

/// What to generate, and where. `Config::new()` gives the defaults: write to
/// `$OUT_DIR`, no JSON conversions, print `cargo:rerun-if-changed` lines.
#[derive(Debug, Clone)]
pub struct Config {
    out_dir: Option<PathBuf>,
    json: bool,
    bincode: bool,
    rerun_if_changed: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config::new()
    }
}

impl Config {
    /// The defaults.
    pub fn new() -> Config {
        Config {
            out_dir: None,
            json: false,
            bincode: false,
            rerun_if_changed: true,
        }
    }

    /// Writes the generated files to `dir` instead of `$OUT_DIR` (created if it does
    /// not exist). `bitwire::include_schema!` reads `$OUT_DIR`; with another
    /// directory, `include!` the file yourself or use the `bitwire` CLI.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Config {
        self.out_dir = Some(dir.into());
        self
    }

    /// Also generates `to_json` / `from_json` / `from_json_text` for every type. The
    /// code then needs the runtime's `json` feature:
    /// `bitwire = { version = "0.1", features = ["json"] }`.
    pub fn json(&mut self, on: bool) -> &mut Config {
        self.json = on;
        self
    }

    /// Also generates the bincode encoding (docs/spec.md §13) for every type: an
    /// `impl bitwire::Bincode` next to the packed codec (`encode_bincode`,
    /// `decode_bincode`, …), byte-identical with `bincode::serialize` 1.3 and wincode.
    pub fn bincode(&mut self, on: bool) -> &mut Config {
        self.bincode = on;
        self
    }

    /// Whether to print `cargo:rerun-if-changed` for every schema and every file it
    /// imports (on by default). Off, cargo falls back to rerunning the build script
    /// when any file of the package changes, unless the build script says otherwise.
    pub fn emit_rerun_if_changed(&mut self, on: bool) -> &mut Config {
        self.rerun_if_changed = on;
        self
    }

    /// Compiles each schema and writes its Rust code to `<out dir>/<stem>.rs`,
    /// printing the cargo directives described in the [crate docs](crate). Every
    /// schema is compiled, so one build reports the errors of all of them; the first
    /// error is returned.
    pub fn compile(&self, schemas: &[impl AsRef<Path>]) -> Result<(), Error> {
        let mut stdout = io::stdout().lock();
        let mut out = cargo::Directives::new(&mut stdout);
        let env_out_dir = std::env::var_os("OUT_DIR").map(PathBuf::from);
        self.compile_to(schemas, env_out_dir, &mut out)
    }

    /// [`Config::compile`] with `$OUT_DIR` given, printing the cargo directives to
    /// `out`.
    fn compile_to(
        &self,
        schemas: &[impl AsRef<Path>],
        env_out_dir: Option<PathBuf>,
        out: &mut cargo::Directives<'_>,
    ) -> Result<(), Error> {
        let out_dir = self
            .out_dir
            .clone()
            .or(env_out_dir)
            .ok_or(Error::NoOutDir)?;
        // Two schemas whose files would overwrite each other are a mistake that
        // would otherwise show up as a confusing missing type.
        let mut stems: BTreeMap<String, PathBuf> = BTreeMap::new();
        for schema in schemas {
            let path = schema.as_ref();
            if let Some(first) = stems.insert(file_stem(path), path.to_path_buf()) {
                return Err(Error::SameOutput {
                    first,
                    second: path.to_path_buf(),
                    file: format!("{}.rs", file_stem(path)),
                });
            }
        }
        let mut first_error = None;
        for schema in schemas {
            let result = self.compile_one(schema.as_ref(), &out_dir, out);
            if let Err(e) = result {
                first_error.get_or_insert(e);
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Compiles one schema into `out_dir`.
    fn compile_one(
        &self,
        path: &Path,
        out_dir: &Path,
        out: &mut cargo::Directives<'_>,
    ) -> Result<(), Error> {
        let loader = Recording::new(FsLoader::new(""));
        let (schema, diags) = sema::compile(&path.to_string_lossy(), &loader);
        if self.rerun_if_changed {
            for file in loader.files() {
                out.rerun_if_changed(&file)?;
            }
        }
        let rendered = diags.render();
        let schema = match schema {
            Some(schema) if !diags.has_errors() => schema,
            _ => {
                out.errors(&rendered)?;
                return Err(Error::Schema {
                    schema: path.to_path_buf(),
                    errors: diags.error_count(),
                    rendered,
                });
            }
        };
        if !diags.items.is_empty() {
            out.warnings(&rendered)?;
        }
        let opts = RustOptions {
            json: self.json,
            bincode: self.bincode,
            source_name: schema.root_file.clone(),
            module_file: false,
        };
        let code = generate_rust(&schema, &opts);
        let file = out_dir.join(format!("{}.rs", file_stem(path)));
        write_if_changed(&file, &code).map_err(|source| Error::Io { path: file, source })
    }
}

/// Compiles `schemas` with the default [`Config`]: `bitwire_build::compile(&["lobby.bw"])`.
pub fn compile(schemas: &[impl AsRef<Path>]) -> Result<(), Error> {
    Config::new().compile(schemas)
}

/// Writes `text` to `path` unless the file already holds it, so that an unchanged
/// schema leaves the file's modification time alone.
fn write_if_changed(path: &Path, text: &str) -> io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}

/// A file-system loader that remembers every file the compiler asked for: the schema
/// and its imports, including ones that could not be read (creating a missing import
/// must rerun the build script too).
struct Recording {
    inner: FsLoader,
    files: RefCell<Vec<String>>,
}

impl Recording {
    fn new(inner: FsLoader) -> Recording {
        Recording {
            inner,
            files: RefCell::new(Vec::new()),
        }
    }

    /// The files asked for, in the order first asked, each once.
    fn files(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        let files = self.files.borrow();
        files.iter().filter(|f| seen.insert(*f)).cloned().collect()
    }
}

impl SourceLoader for Recording {
    fn load(&self, name: &str) -> io::Result<String> {
        self.files.borrow_mut().push(name.to_string());
        self.inner.load(name)
    }
}

#[cfg(test)]
mod tests;
