//! The network benchmark's Rust side (bench/net/README.md, the contract between the parts):
//!
//! - `netserver --shape mt|ct|raw --addr HOST:PORT`: the Rust servers `rust-mt`,
//!   `rust-ct` (tokio multi-thread / current-thread, `bitwire-net`'s `MessageCodec`) and
//!   `rust-raw` (a tokio echo with no framing, the cost floor);
//! - `netbench`: the load generator and orchestrator. It starts every server of
//!   [`servers::table`] pinned to core 0, drives it from core 1 over 127.0.0.1 with
//!   pre-encoded Ping frames ([`packet`]) on one thread ([`driver`]), and writes
//!   `results.json` ([`results`]).
//!
//! The protocol's code is generated from `bench/net/netbench.bw` by `bitwire-build`.

pub mod cli;
pub mod driver;
pub mod machine;
pub mod matrix;
pub mod packet;
pub mod results;
pub mod serverrun;
pub mod servers;
pub mod stats;
pub mod sys;

bitwire::include_schema!(
    /// Code generated from `bench/net/netbench.bw` by `bitwire-build` (build.rs).
    pub mod netbench
);
