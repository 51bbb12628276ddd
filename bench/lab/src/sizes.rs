//! Compressed sizes of encodings, as every result file reports them: zstd at
//! [`ZSTD_LEVEL`] and lz4 (block format, `lz4_flex::block::compress`).

/// zstd compression level used for every compressed figure.
pub const ZSTD_LEVEL: i32 = 3;

/// Size of `bytes` after lz4 (block format).
pub fn lz4(bytes: &[u8]) -> usize {
    lz4_flex::block::compress(bytes).len()
}

/// Size of `bytes` after zstd at [`ZSTD_LEVEL`].
pub fn zstd(bytes: &[u8]) -> usize {
    zstd::bulk::compress(bytes, ZSTD_LEVEL)
        .expect("zstd compresses in memory")
        .len()
}
