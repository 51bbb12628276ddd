//! Byte runs at any bit offset (spec §5.6): `bytes` and `string` values and `[u8; N]`.
//!
//! Most strings in game messages are short (names, tags, chat lines) and start at an
//! arbitrary bit offset. Short runs take an inline path of whole 64-bit words: one
//! `write_bits` or one shifted load per eight bytes, and the last one to seven bytes as
//! one more word (built from two overlapping loads, no per-byte loop and no `memcpy`
//! call). Long runs go through the block paths of `bulk.rs`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Detail;
use crate::writer::le_word;
use crate::{BitReader, BitWriter, Error, ErrorKind, Result};

/// Byte runs up to this long take the inline word path (a string longer than that
/// is rare in game messages, and its block path amortizes its set-up).
const SHORT: usize = 64;

/// The little-endian `u64` of `b`, one to seven bytes, zero-extended: two overlapping
/// loads of two or four bytes (the bytes they share are the same, so OR-ing is exact).
#[inline(always)]
fn tail_word(b: &[u8]) -> u64 {
    let n = b.len();
    debug_assert!((1..8).contains(&n));
    if n >= 4 {
        let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let hi = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]);
        u64::from(lo) | (u64::from(hi) << (8 * (n - 4)))
    } else if n >= 2 {
        let lo = u16::from_le_bytes([b[0], b[1]]);
        let hi = u16::from_le_bytes([b[n - 2], b[n - 1]]);
        u64::from(lo) | (u64::from(hi) << (8 * (n - 2)))
    } else {
        u64::from(b[0])
    }
}

impl BitWriter<'_> {
    /// Writes bytes as consecutive `u8` values (§5.6). Unaligned: no padding first.
    #[inline]
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        if bytes.len() <= SHORT {
            let mut words = bytes.chunks_exact(8);
            for word in &mut words {
                self.write_bits(le_word(word), 64);
            }
            let rest = words.remainder();
            if !rest.is_empty() {
                self.write_bits(tail_word(rest), rest.len() as u32 * 8);
            }
        } else if self.is_aligned() {
            // The accumulator is empty, so the bytes go straight in.
            self.append_aligned(bytes);
        } else {
            self.write_lanes(bytes);
        }
    }
}

impl BitWriter<'_> {
    /// Writes the length of `bytes` in `len_bits` bits (at most 8; the caller has
    /// checked that the length fits) and then the bytes: the bits of
    /// `write_bits(len, len_bits)` followed by `write_bytes(bytes)`, with a run shorter
    /// than eight bytes written together with its length as one word.
    #[inline]
    pub fn write_prefixed_bytes(&mut self, bytes: &[u8], len_bits: u32) {
        debug_assert!(len_bits <= 8);
        let len = bytes.len();
        if len < 8 {
            let word = if len == 0 { 0 } else { tail_word(bytes) };
            // At most 8 + 56 bits.
            self.write_bits(len as u64 | (word << len_bits), len_bits + 8 * len as u32);
        } else {
            self.write_bits(len as u64, len_bits);
            self.write_bytes(bytes);
        }
    }
}

/// `InvalidUtf8` for a string that started at bit `start` whose byte `index`, `byte`,
/// is where its UTF-8 goes wrong.
#[cold]
#[inline(never)]
fn invalid_utf8(start: u64, index: u64, byte: u8) -> Error {
    Error::new(ErrorKind::InvalidUtf8, start).with_detail(Detail::Utf8 { index, byte })
}

/// `InvalidUtf8` for a string that started at bit `start`, whose bytes from index `at`
/// on are `bytes`, in which `from_utf8` found `e`.
#[cold]
pub(crate) fn utf8_error(start: u64, at: usize, bytes: &[u8], e: core::str::Utf8Error) -> Error {
    let i = e.valid_up_to();
    invalid_utf8(start, (at + i) as u64, bytes[i])
}

impl BitReader<'_> {
    /// Reads `len` bytes (length already checked) as a new `Vec`, allocated once at its
    /// final size.
    #[inline]
    pub fn read_bytes(&mut self, len: usize) -> Result<Vec<u8>> {
        self.check_bytes(len)?;
        if let Some(bytes) = self.aligned_bytes(len) {
            return Ok(bytes.to_vec());
        }
        if len > SHORT {
            let mut out = alloc::vec![0; len];
            self.fill_bytes(&mut out);
            return Ok(out);
        }
        let mut buf = [0u8; SHORT + 8];
        self.take_short(len, &mut buf);
        Ok(buf[..len].to_vec())
    }

    /// Copies the next `len` bytes (at most [`SHORT`], checked to be there; the reader
    /// is not on a byte boundary) to the front of `buf` and moves past them: one
    /// shifted word per eight bytes, without per-word bounds checks when the input
    /// holds a byte past the last word (as it does except at its very end).
    #[inline(always)]
    fn take_short(&mut self, len: usize, buf: &mut [u8; SHORT + 8]) {
        debug_assert!(len <= SHORT);
        let pos = self.bit_pos();
        if len <= 16 {
            // Names and tags: one or two windows, no loop.
            buf[..8].copy_from_slice(&self.peek_at(pos).to_le_bytes());
            if len > 8 {
                buf[8..16].copy_from_slice(&self.peek_at(pos + 64).to_le_bytes());
            }
            self.advance(len as u64 * 8);
            return;
        }
        let words = len.div_ceil(8);
        let byte = (pos >> 3) as usize;
        // Not on a byte boundary, so the shift is 1..=7.
        let s = (pos & 7) as u32;
        match self.data_from(byte).get(..words * 8 + 1) {
            Some(src) => {
                for (k, dst) in buf.chunks_exact_mut(8).take(words).enumerate() {
                    let lo = le_word(&src[8 * k..8 * k + 8]) >> s;
                    let hi = u64::from(src[8 * k + 8]) << (64 - s);
                    dst.copy_from_slice(&(lo | hi).to_le_bytes());
                }
            }
            None => {
                for (k, dst) in buf.chunks_exact_mut(8).take(words).enumerate() {
                    dst.copy_from_slice(&self.peek_at(pos + 64 * k as u64).to_le_bytes());
                }
            }
        }
        self.advance(len as u64 * 8);
    }

    /// Reads `len` bytes of UTF-8 (length already checked) for a string value that
    /// started at bit `start`; invalid UTF-8 is `InvalidUtf8` at `start` (§5.6). The
    /// bytes are validated where they are (in the input, or in a stack buffer for a
    /// short unaligned string) and then copied once into the new `String`.
    #[inline]
    pub fn read_string(&mut self, len: usize, start: u64) -> Result<String> {
        self.check_bytes(len)?;
        let utf8 = |bytes: &[u8]| match core::str::from_utf8(bytes) {
            Ok(text) => Ok(String::from(text)),
            Err(e) => Err(utf8_error(start, 0, bytes, e)),
        };
        if let Some(bytes) = self.aligned_bytes(len) {
            return utf8(bytes);
        }
        if len > SHORT {
            let mut out = alloc::vec![0; len];
            self.fill_bytes(&mut out);
            return String::from_utf8(out)
                .map_err(|e| utf8_error(start, 0, e.as_bytes(), e.utf8_error()));
        }
        let mut buf = [0u8; SHORT + 8];
        self.take_short(len, &mut buf);
        utf8(&buf[..len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_words_of_every_length() {
        let data: Vec<u8> = (1..8).collect();
        for n in 1..8 {
            let mut want = [0u8; 8];
            want[..n].copy_from_slice(&data[..n]);
            assert_eq!(tail_word(&data[..n]), u64::from_le_bytes(want), "{n} bytes");
        }
    }

    #[test]
    fn byte_runs_of_every_length_at_every_offset() {
        let data: Vec<u8> = (0..80u8).map(|i| i.wrapping_mul(37) ^ 0xa5).collect();
        for lead in 0..9 {
            for len in [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 80] {
                let mut buf = Vec::new();
                let mut w = BitWriter::new(&mut buf);
                w.write_bits(0, lead);
                w.write_bytes(&data[..len]);
                w.write_bits(1, 1);
                w.finish();
                // The bytes bit by bit, as the spec describes.
                let bit = |p: usize| (buf[p >> 3] >> (p & 7)) & 1;
                for (i, &b) in data[..len].iter().enumerate() {
                    let got = (0..8).fold(0u8, |a, k| a | bit(lead as usize + i * 8 + k) << k);
                    assert_eq!(got, b, "lead {lead} len {len} byte {i}");
                }
                assert_eq!(bit(lead as usize + len * 8), 1, "lead {lead} len {len}");
                let mut r = BitReader::new(&buf);
                r.read_bits(lead).unwrap();
                let got = r.read_bytes(len).unwrap();
                assert_eq!(got, data[..len], "lead {lead} len {len}");
                assert_eq!(got.capacity(), len, "one allocation of the final size");
                assert_eq!(r.read_bits(1).unwrap(), 1, "lead {lead} len {len}");
            }
        }
    }

    #[test]
    fn prefixed_runs_are_the_length_then_the_bytes() {
        let data: Vec<u8> = (0..20u8).map(|i| i.wrapping_mul(71) ^ 0x3c).collect();
        for lead in 0..9 {
            for len_bits in [3u32, 5, 8] {
                for len in [0usize, 1, 3, 4, 7, 8, 9, 16] {
                    if len >= 1 << len_bits {
                        continue;
                    }
                    let mut a = Vec::new();
                    let mut w = BitWriter::new(&mut a);
                    w.write_bits(0x55 & ((1 << lead) - 1), lead);
                    w.write_prefixed_bytes(&data[..len], len_bits);
                    w.write_bits(1, 1);
                    w.finish();
                    let mut b = Vec::new();
                    let mut w = BitWriter::new(&mut b);
                    w.write_bits(0x55 & ((1 << lead) - 1), lead);
                    w.write_bits(len as u64, len_bits);
                    w.write_bytes(&data[..len]);
                    w.write_bits(1, 1);
                    w.finish();
                    assert_eq!(a, b, "lead {lead} len_bits {len_bits} len {len}");
                }
            }
        }
    }

    #[test]
    fn short_strings_check_utf8_at_every_offset() {
        for lead in 0..8 {
            let mut buf = Vec::new();
            let mut w = BitWriter::new(&mut buf);
            w.write_bits(0, lead);
            w.write_bytes("ñame".as_bytes());
            w.write_bytes(&[0x61, 0xc3]);
            w.finish();
            let mut r = BitReader::new(&buf);
            r.read_bits(lead).unwrap();
            assert_eq!(r.read_string(5, 0).unwrap(), "ñame");
            let e = r.read_string(2, 7).unwrap_err();
            assert_eq!((e.kind(), e.bit()), (ErrorKind::InvalidUtf8, 7));
            assert_eq!(
                e.detail(),
                Detail::Utf8 {
                    index: 1,
                    byte: 0xc3
                }
            );
        }
        let e = BitReader::new(&[0x61]).read_string(2, 0).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::Truncated, 0));
        assert_eq!(BitReader::new(&[]).read_bytes(0).unwrap(), Vec::<u8>::new());
    }
}
