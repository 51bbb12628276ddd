//! zlib (RFC 1950) for compressed frames (docs/framing.md §3), through miniz_oxide's
//! core API: `no_std` + `alloc`, no `unsafe`. Inflating writes into a buffer of exactly
//! DataLength bytes, so a zlib bomb costs at most `max_data` bytes and time linear in
//! it (§3.2); the state of each direction is boxed and kept for reuse.

use alloc::boxed::Box;
use alloc::vec::Vec;

use miniz_oxide::deflate::core::{
    compress, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
};
use miniz_oxide::inflate::core::inflate_flags::{
    TINFL_FLAG_PARSE_ZLIB_HEADER, TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF,
};
use miniz_oxide::inflate::core::{decompress, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

use super::error::{FrameDetail, FrameErrorKind};

/// zlib's default level, which vanilla, `minecraft-protocol` and Go write.
const LEVEL: i32 = 6;

/// An inflater's state (about 10 KB), created on the first compressed frame.
#[derive(Default)]
pub(crate) struct Inflater(Option<Box<DecompressorOxide>>);

impl Inflater {
    /// Inflates `rest` into `out` (cleared first), which must come to exactly
    /// `data_length` bytes with nothing after the stream (§3.2).
    pub(crate) fn inflate_exact(
        &mut self,
        rest: &[u8],
        data_length: u32,
        out: &mut Vec<u8>,
    ) -> Result<(), (FrameErrorKind, FrameDetail)> {
        let state = self.0.get_or_insert_with(Box::default);
        state.init();
        out.clear();
        out.resize(data_length as usize, 0);
        let flags = TINFL_FLAG_PARSE_ZLIB_HEADER | TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
        let (status, used, written) = decompress(state, rest, out, 0, flags);
        let bad = |why| Err((FrameErrorKind::BadZlib, FrameDetail::Zlib(why)));
        let mismatch = |inflated, at_least| {
            Err((
                FrameErrorKind::SizeMismatch,
                FrameDetail::Inflated {
                    data_length,
                    inflated,
                    at_least,
                },
            ))
        };
        match status {
            TINFLStatus::Done if written < out.len() => mismatch(written as u64, false),
            TINFLStatus::Done if used < rest.len() => Err((
                FrameErrorKind::TrailingBytes,
                FrameDetail::Trailing {
                    count: (rest.len() - used) as u64,
                },
            )),
            TINFLStatus::Done => Ok(()),
            // The buffer of DataLength bytes is full and the stream goes on.
            TINFLStatus::HasMoreOutput => mismatch(u64::from(data_length) + 1, true),
            TINFLStatus::NeedsMoreInput | TINFLStatus::FailedCannotMakeProgress => {
                bad("the zlib stream ends early")
            }
            TINFLStatus::Adler32Mismatch => bad("the Adler-32 checksum does not match"),
            _ => bad("invalid zlib header or deflate data"),
        }
    }
}

/// A deflater's state (a few hundred KB of tables), created on the first frame that
/// is compressed.
#[derive(Default)]
pub(crate) struct Deflater(Option<Box<CompressorOxide>>);

impl Deflater {
    /// Appends the zlib stream of `input` to `out`.
    pub(crate) fn deflate(&mut self, mut input: &[u8], out: &mut Vec<u8>) {
        let flags = create_comp_flags_from_zip_params(LEVEL, 1, 0);
        let state = self
            .0
            .get_or_insert_with(|| Box::new(CompressorOxide::new(flags)));
        state.reset();
        let start = out.len();
        // Deflate at worst stores the input: 5 bytes per 64 KiB block, plus the header
        // and the checksum.
        out.resize(start + input.len() + input.len() / 4096 + 64, 0);
        let mut pos = start;
        loop {
            let (status, used, written) =
                compress(state, input, &mut out[pos..], TDEFLFlush::Finish);
            pos += written;
            input = &input[used..];
            match status {
                TDEFLStatus::Done => break,
                TDEFLStatus::Okay => {
                    let grow = out.len().max(64);
                    out.resize(out.len() + grow, 0);
                }
                // Only a bad parameter or a failed output callback give these; neither
                // can happen with a slice.
                TDEFLStatus::BadParam | TDEFLStatus::PutBufFailed => {
                    unreachable!("deflating into a slice cannot fail")
                }
            }
        }
        out.truncate(pos);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_bounds_a_bomb() {
        let data: Vec<u8> = (0..5000u32).map(|i| (i % 7) as u8).collect();
        let mut z = Vec::new();
        Deflater::default().deflate(&data, &mut z);
        assert_eq!(&z[..2], [0x78, 0x9c]);
        let mut inf = Inflater::default();
        let mut out = Vec::new();
        inf.inflate_exact(&z, data.len() as u32, &mut out).unwrap();
        assert_eq!(out, data);
        let e = inf.inflate_exact(&z, 4999, &mut out).unwrap_err();
        assert_eq!(e.0, FrameErrorKind::SizeMismatch);
        let e = inf.inflate_exact(&z, 5001, &mut out).unwrap_err();
        assert_eq!(e.0, FrameErrorKind::SizeMismatch);
        let mut z2 = z.clone();
        z2.push(0);
        let e = inf.inflate_exact(&z2, 5000, &mut out).unwrap_err();
        assert_eq!(e.0, FrameErrorKind::TrailingBytes);
        let e = inf
            .inflate_exact(&z[..z.len() - 1], 5000, &mut out)
            .unwrap_err();
        assert_eq!(e.0, FrameErrorKind::BadZlib);
        // 16 MiB of zeros claimed as 1000 bytes: stops at the buffer.
        let mut bomb = Vec::new();
        Deflater::default().deflate(&alloc::vec![0; 1 << 24], &mut bomb);
        let e = inf.inflate_exact(&bomb, 1000, &mut out).unwrap_err();
        assert_eq!(e.0, FrameErrorKind::SizeMismatch);
        assert!(out.capacity() < 1 << 20);
    }

    #[test]
    fn empty_and_incompressible_inputs() {
        let mut d = Deflater::default();
        for data in [
            Vec::new(),
            (0..100_000u32)
                .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
                .collect(),
        ] {
            let mut z = alloc::vec![0xee];
            d.deflate(&data, &mut z);
            let mut out = Vec::new();
            if !data.is_empty() {
                Inflater::default()
                    .inflate_exact(&z[1..], data.len() as u32, &mut out)
                    .unwrap();
                assert_eq!(out, data);
            }
        }
    }
}
