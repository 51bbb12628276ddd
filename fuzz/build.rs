//! Generates `delta.rs` from the delta vector schema (`testdata/vectors/delta/delta.bw`)
//! into `OUT_DIR` for the `delta_world` target.

fn main() {
    if let Err(e) = bitwire_build::compile(&["../testdata/vectors/delta/delta.bw"]) {
        panic!("{e}");
    }
}
