//! Generates `netbench.rs` from `bench/net/netbench.bw` into `OUT_DIR` (docs/rust.md:
//! `bitwire-build`), so no generated code is committed here.

fn main() {
    if let Err(e) = bitwire_build::compile(&["../netbench.bw"]) {
        panic!("{e}");
    }
}
