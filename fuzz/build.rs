//! Generates into `OUT_DIR`: `delta.rs` from the delta vector schema
//! (`testdata/vectors/delta/delta.bw`) for the `delta_world` target, and
//! `kitchen_sink.rs` (every type expression, `testdata/codegen/kitchen_sink.bw`) and
//! `bulk.rs` (bulk number lists, `conformance/rust/schemas/bulk.bw`) with the bincode
//! encoding for the `decode_bincode` target.

fn main() {
    if let Err(e) = bitwire_build::compile(&["../testdata/vectors/delta/delta.bw"]) {
        panic!("{e}");
    }
    let bincode = bitwire_build::Config::new().bincode(true).compile(&[
        "../testdata/codegen/kitchen_sink.bw",
        "../conformance/rust/schemas/bulk.bw",
    ]);
    if let Err(e) = bincode {
        panic!("{e}");
    }
}
