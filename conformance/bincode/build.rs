//! With the `generated-rust` feature, generates bitwire's Rust code (packed and bincode)
//! for `bincode_plain.bw` into `$OUT_DIR`, for `tests/generated_rust.rs`.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "generated-rust")]
    bitwire_build::Config::new()
        .bincode(true)
        .compile(&["../../testdata/vectors/bincode/bincode_plain.bw"])
        .expect("bincode_plain.bw compiles");
}
