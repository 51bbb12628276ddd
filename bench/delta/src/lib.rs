//! The benchmark lab's delta part (issue 14, bench/delta/README.md): two fixed-seed
//! scenarios ([`world`], [`cubes`]) written as wire values ([`wire`], [`scenario`]), the
//! bytes per tick of bitwire (full and [`delta_sizes`]) and the peer libraries encoding them
//! ([`peers`], [`measure`]), the measurement behind the delta format's codes ([`codes`]), and the
//! report ([`report`]).
//!
//! The schema's code is generated from `bench/delta/delta.bw` by `bitwire-build`.

pub mod codes;
pub mod cubes;
pub mod delta_sizes;
pub mod delta_timing;
pub mod math;
pub mod measure;
pub mod peers;
pub mod raw;
pub mod report;
pub mod scenario;
pub mod stats;
pub mod wire;
pub mod world;

bitwire::include_schema!(
    /// Code generated from `bench/delta/delta.bw` by `bitwire-build` (build.rs).
    pub mod delta
);

pub use delta as gen;
