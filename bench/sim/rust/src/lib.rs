//! The game-server simulator (issue 15, bench/sim/README.md): an authoritative 60 Hz
//! server ([`server`], [`world`]), N simulated clients in another process ([`client`]),
//! five codecs carrying the same fields ([`codec`]), and the orchestrator that runs them
//! per codec and client count and writes the report ([`run`], [`report`]).

bitwire::include_schema!(
    /// Code generated from `bench/sim/sim.bw` by `bitwire-build` (build.rs).
    pub mod sim
);

pub mod client;
pub mod codec;
pub mod report;
pub mod results;
pub mod rules;
pub mod run;
pub mod server;
pub mod world;
