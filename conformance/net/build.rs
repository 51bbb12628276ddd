//! The frame vectors' schema (with JSON conversions, to compare values) and the
//! networking example's, generated into `OUT_DIR`.

fn main() {
    let result = bitwire_build::Config::new().json(true).compile(&[
        "../../testdata/vectors/frames/frames.bw",
        "../../examples/net/arena.bw",
    ]);
    if let Err(e) = result {
        panic!("{e}");
    }
}
