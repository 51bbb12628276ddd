//! Random valid bitwire schemas and the differential driver that runs them through
//! every codec (the reference codec and the generated Rust, Go and TypeScript).
//!
//! - [`gen`]: the seeded schema generator, over the [`model`] that [`render`] prints;
//! - `bin/schemagen.rs`: the driver (see README.md).

pub mod coverage;
pub mod driver;
pub mod gen;
pub mod minimize;
pub mod model;
pub mod render;
pub mod visit;

pub use gen::generate;
