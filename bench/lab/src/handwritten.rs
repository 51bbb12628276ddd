//! The hand-written baseline: what a careful engineer writes by hand for the same wire
//! format as bitwire (docs/spec.md) — a little bit writer and reader with shifts and
//! masks, floats quantized with `((x - min) / step).round()`, and no validation beyond
//! running out of input (and what safe Rust needs to build the values: UTF-8 strings and
//! enum tags). The bytes equal bitwire's for every dataset message (tested).
//!
//! `packet64` reuses `bitwire_bench::handwritten` (on the generated `Packet64` type);
//! snapshot, input and events are here, on the plain types of [`crate::peers::plain`].

pub mod bits;
mod events;
mod input;
mod snapshot;

pub use bitwire_bench::handwritten as packet64;
pub use events::{decode_events, encode_events};
pub use input::{decode_input, encode_input};
pub use snapshot::{decode_snapshot, encode_snapshot};
