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
