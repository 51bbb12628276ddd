//! Where schema text comes from, and the path arithmetic for imports.
//!
//! Files are identified by normalized `/`-separated names: the root's name as the
//! caller gave it, and for an import, the importing file's directory joined with
//! the import path. Names are never made absolute, so diagnostics and the IR show
//! the same relative names on every machine.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The largest schema file the compiler reads: 16 MiB. Schema files are small;
/// the limit keeps a mistaken path (a log, a disk image) from exhausting memory.
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Reads a schema file: only a regular file (not a directory, device or pipe,
/// which could block or never end) of at most [`MAX_SOURCE_BYTES`], as UTF-8.
///
/// The file type is checked before the file is opened, because opening a pipe
/// blocks until someone writes to it; the opened file is checked again and read
/// with the size cap, in case it changed in between.
pub fn read_source(path: &Path) -> io::Result<String> {
    check_source(&std::fs::metadata(path)?)?;
    let file = std::fs::File::open(path)?;
    check_source(&file.metadata()?)?;
    let mut bytes = Vec::new();
    file.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8"))
}

fn check_source(meta: &std::fs::Metadata) -> io::Result<()> {
    if meta.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a directory",
        ));
    }
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a device, pipe or socket)",
        ));
    }
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(too_large());
    }
    Ok(())
}

fn too_large() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "larger than {} MiB, the limit for schema files",
            MAX_SOURCE_BYTES >> 20
        ),
    )
}

/// Provides the text of schema files by name.
pub trait SourceLoader {
    /// Reads the file `name` (normalized, `/`-separated, as produced by the compiler
    /// from the root name and import paths).
    fn load(&self, name: &str) -> io::Result<String>;
}

/// Reads files from the file system, relative to a base directory.
#[derive(Debug, Clone, Default)]
pub struct FsLoader {
    base: PathBuf,
}

impl FsLoader {
    /// A loader that resolves names relative to `base` (an empty path means the
    /// current directory).
    pub fn new(base: impl Into<PathBuf>) -> FsLoader {
        FsLoader { base: base.into() }
    }
}

impl SourceLoader for FsLoader {
    /// Reads the file with [`read_source`]: regular files of bounded size only.
    fn load(&self, name: &str) -> io::Result<String> {
        read_source(&self.base.join(name))
    }
}

/// Serves files from memory (for tests and tools that hold schemas as strings).
#[derive(Debug, Clone, Default)]
pub struct MemLoader {
    files: BTreeMap<String, String>,
}

impl MemLoader {
    /// An empty set of files.
    pub fn new() -> MemLoader {
        MemLoader::default()
    }

    /// Adds (or replaces) a file; `name` is normalized like import paths are.
    pub fn with(mut self, name: &str, text: &str) -> MemLoader {
        self.insert(name, text);
        self
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, name: &str, text: &str) {
        self.files.insert(normalize(name), text.to_string());
    }
}

impl SourceLoader for MemLoader {
    fn load(&self, name: &str) -> io::Result<String> {
        self.files
            .get(name)
            .cloned()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such file"))
    }
}

/// Removes `.` components and folds `dir/..`; keeps a leading `/` and leading `..`
/// components (nothing is resolved against the real file system).
pub fn normalize(path: &str) -> String {
    let path = path.replace('\\', "/");
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if matches!(parts.last(), Some(p) if *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// The directory part of a normalized name (`""` for a bare file name).
pub fn dir_of(name: &str) -> &str {
    match name.rfind('/') {
        Some(0) => "/",
        Some(i) => &name[..i],
        None => "",
    }
}

/// The name of the file that `import "path";` in file `importer` refers to.
pub fn join(importer: &str, path: &str) -> String {
    let dir = dir_of(importer);
    if dir.is_empty() {
        normalize(path)
    } else {
        normalize(&format!("{dir}/{path}"))
    }
}

/// `name` relative to directory `dir` (both normalized), with `..` where needed.
pub fn relative_to(dir: &str, name: &str) -> String {
    let dir_parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    let name_parts: Vec<&str> = name.split('/').filter(|p| !p.is_empty()).collect();
    let common = dir_parts
        .iter()
        .zip(&name_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out: Vec<&str> = vec![".."; dir_parts.len() - common];
    out.extend(&name_parts[common..]);
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(normalize("./a/../b/./c.bw"), "b/c.bw");
        assert_eq!(normalize("../x.bw"), "../x.bw");
        assert_eq!(join("schemas/game.bw", "common.bw"), "schemas/common.bw");
        assert_eq!(join("game.bw", "sub/c.bw"), "sub/c.bw");
        assert_eq!(join("a/b/game.bw", "../c.bw"), "a/c.bw");
        assert_eq!(relative_to("schemas", "schemas/sub/c.bw"), "sub/c.bw");
        assert_eq!(relative_to("schemas", "other/c.bw"), "../other/c.bw");
        assert_eq!(relative_to("", "c.bw"), "c.bw");
    }
}
