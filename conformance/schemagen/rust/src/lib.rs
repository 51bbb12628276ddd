//! The Rust code generated for the random schemas of `$BITWIRE_SUITES_DIR` (see
//! `build.rs`), as a library so that its public items are what a user crate would
//! see: clippy judges the generated code as it would in a user's library.

// Generated code names them as `crate::TypeCodec` and `crate::Vector`.
pub use bitwire_conformance::{TypeCodec, Vector};

/// The generated suites, one module per schema, and [`suites::registry`].
#[allow(missing_docs)]
pub mod suites {
    include!(concat!(env!("OUT_DIR"), "/suites.rs"));
}
