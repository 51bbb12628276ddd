//! Code generators. Backends only print: the IR carries every width, offset and size,
//! [`plan`] groups fields into the word-sized runs all backends share, [`describe`]
//! renders schema text for doc comments, and each language has its own naming table.

pub mod describe;
pub mod go;
pub mod rust;
pub mod ts;
pub mod words;

pub use go::{generate_go, GoOptions};
pub use rust::{generate_rust, RustOptions};
pub use ts::{generate_ts, TsOptions};

use std::path::Path;

/// The name of the file generated from the schema at `path`, without extension: the
/// schema's file name without directory and extension, made a valid Rust module name
/// (`game-state.bw` → `game_state`), since users `mod` or `include!` the file.
pub fn file_stem(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut s: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}
