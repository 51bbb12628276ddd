//! Generates `sim.rs` from `bench/sim/sim.bw` into `OUT_DIR` with `bitwire-build`
//! (docs/rust.md), so no generated bitwire code is committed here.

fn main() {
    if let Err(e) = bitwire_build::compile(&["../sim.bw"]) {
        panic!("{e}");
    }
}
