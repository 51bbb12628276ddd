//! The bit writer (spec §1): an LSB-first bit stream built a 64-bit word at a time.

use alloc::vec::Vec;

use crate::{Error, ErrorKind};

/// Appends an LSB-first bit stream to a caller's `Vec<u8>`.
///
/// Bits collect in a 64-bit accumulator; every time it fills, its eight bytes are
/// appended little-endian, which is exactly the byte order §1.1 prescribes. Reusing
/// the same `Vec` across messages (after `clear()`) makes encoding allocation-free
/// once the vector has grown to the largest message.
pub struct BitWriter<'a> {
    buf: &'a mut Vec<u8>,
    /// Pending bits, the oldest in bit 0.
    acc: u64,
    /// Number of pending bits in `acc`, always `< 64`.
    pending: u32,
    /// `buf.len()` when the writer was created; bit offsets count from here.
    start: usize,
}

impl<'a> BitWriter<'a> {
    /// A writer that appends to `buf` (existing contents are kept).
    #[inline]
    pub fn new(buf: &'a mut Vec<u8>) -> Self {
        let start = buf.len();
        BitWriter {
            buf,
            acc: 0,
            pending: 0,
            start,
        }
    }

    /// Bits written so far by this writer.
    #[inline]
    pub fn bit_pos(&self) -> u64 {
        (self.buf.len() - self.start) as u64 * 8 + u64::from(self.pending)
    }

    /// An error of `kind` for a value starting `offset` bits after the current position.
    #[inline(always)]
    pub fn error(&self, kind: ErrorKind, offset: u32) -> Error {
        // The position is computed inline and only the constructor is out of line
        // (and cold): taking `&self` in a cold call would make every encoder spill
        // the writer to memory on its hot path.
        Error::new(kind, self.bit_pos() + u64::from(offset))
    }

    /// `OutOfRange` for the integer `value` outside `min..=max`, for a value starting
    /// `offset` bits after the current position.
    #[inline(always)]
    pub fn range_error(&self, offset: u32, value: i128, min: i128, max: i128) -> Error {
        Error::out_of_range(self.bit_pos() + u64::from(offset), value, min, max)
    }

    /// `InvalidLength` for a sequence of `len` elements whose bound (or fixed length)
    /// is `max`, starting `offset` bits after the current position.
    #[inline(always)]
    pub fn length_error(&self, offset: u32, len: usize, max: u64) -> Error {
        length_error(self.bit_pos() + u64::from(offset), len as u64, max)
    }

    /// Writes the low `bits` bits of `value` (§1.2). `bits` is at most 64 and `value`
    /// must not have bits set at or above `bits`; generated code checks ranges before
    /// calling, so this is only a debug assertion.
    #[inline(always)]
    pub fn write_bits(&mut self, value: u64, bits: u32) {
        debug_assert!(bits <= 64);
        debug_assert!(
            bits == 64 || value >> bits == 0,
            "value wider than {bits} bits"
        );
        // `pending < 64`, so the shift is defined; bits shifted out are carried below.
        self.acc |= value << self.pending;
        let total = self.pending + bits;
        if total >= 64 {
            self.buf.extend_from_slice(&self.acc.to_le_bytes());
            // The bits of `value` that did not fit. Shifting in two steps keeps the
            // amount below 64 when `pending == 0` (then nothing is carried).
            self.acc = (value >> 1) >> (63 - self.pending);
            self.pending = total - 64;
        } else {
            self.pending = total;
        }
    }

    /// Writes one bit.
    #[inline(always)]
    pub fn write_bool(&mut self, value: bool) {
        self.write_bits(u64::from(value), 1);
    }

    /// Whether the writer is on a byte boundary with nothing pending.
    #[inline(always)]
    pub(crate) fn is_aligned(&self) -> bool {
        self.pending == 0
    }

    /// Appends `bytes` as they are; only when [`Self::is_aligned`].
    #[inline]
    pub(crate) fn append_aligned(&mut self, bytes: &[u8]) {
        debug_assert_eq!(self.pending, 0);
        self.buf.extend_from_slice(bytes);
    }

    /// Writes the 64-bit words `pack(chunk)` of the chunks of `per` values of `values`
    /// (a whole number of chunks), each as 64 bits (§1.2): the bits of one
    /// `write_bits(w, 64)` per word without its per-word capacity check. For the
    /// writer's bit offset `s`, output word `i` is `(w[i] << s) | (w[i - 1] >> (64 - s))`.
    /// Blocks of words are packed into one stack array and shifted from it (two passes
    /// without a loop-carried value, which vectorise), then appended with one copy; the
    /// buffer grows once.
    #[inline]
    pub(crate) fn write_words<T>(&mut self, values: &[T], per: usize, pack: impl Fn(&[T]) -> u64) {
        const BLOCK: usize = 64;
        /// Below this many words the block buffers (1 KiB to zero) cost more than they
        /// save: a short string is one or two words (measured on Snapshot's names).
        const SHORT: usize = 8;
        debug_assert_eq!(values.len() % per, 0);
        if values.len() < SHORT * per {
            for c in values.chunks_exact(per) {
                self.write_bits(pack(c), 64);
            }
            return;
        }
        let s = self.pending;
        // The bits of a word that spill into the next one; the two-step shift keeps the
        // amount below 64 (when `s == 0` nothing spills).
        let spill = |w: u64| (w >> 1) >> (63 - s);
        let mut words = [0u64; BLOCK];
        let mut bytes = [0u8; BLOCK * 8];
        self.buf.reserve(values.len() / per * 8);
        for part in values.chunks(BLOCK * per) {
            let n = part.len() / per;
            for (w, c) in words.iter_mut().zip(part.chunks_exact(per)) {
                *w = pack(c);
            }
            let (first, rest) = bytes[..n * 8].split_at_mut(8);
            first.copy_from_slice(&(self.acc | (words[0] << s)).to_le_bytes());
            let pairs = words[1..n].iter().zip(&words[..n - 1]);
            for (dst, (&w, &prev)) in rest.chunks_exact_mut(8).zip(pairs) {
                dst.copy_from_slice(&((w << s) | spill(prev)).to_le_bytes());
            }
            self.acc = spill(words[n - 1]);
            self.buf.extend_from_slice(&bytes[..n * 8]);
        }
    }

    /// The writer's current position, to [`rewind`](BitWriter::rewind) to or to
    /// compare what was written since ([`same_bits`](BitWriter::same_bits)). The delta
    /// encoder (spec §12) writes a changed part, and takes it back when it turns out
    /// unchanged.
    #[inline(always)]
    pub fn mark(&self) -> Mark {
        Mark {
            len: self.buf.len(),
            acc: self.acc,
            pending: self.pending,
        }
    }

    /// Forgets everything written after `mark`, a mark of this writer taken at or
    /// before the current position.
    #[inline(always)]
    pub fn rewind(&mut self, mark: Mark) {
        debug_assert!(mark.len >= self.start && mark.len <= self.buf.len());
        self.buf.truncate(mark.len);
        self.acc = mark.acc;
        self.pending = mark.pending;
    }

    /// Whether the bits written from `a` to `b` are the bits written from `b` to the
    /// current position (`a` and `b` marks of this writer, `a` first): two values
    /// written one after the other have the same encoding (spec §12.2).
    pub fn same_bits(&self, a: Mark, b: Mark) -> bool {
        let (pa, pb, end) = (self.mark_pos(a), self.mark_pos(b), self.bit_pos());
        debug_assert!(pa <= pb && pb <= end);
        let len = pb - pa;
        if end - pb != len {
            return false;
        }
        let mut done = 0;
        while done < len {
            let n = (len - done).min(64) as u32;
            if self.bits_at(pa + done, n) != self.bits_at(pb + done, n) {
                return false;
            }
            done += u64::from(n);
        }
        true
    }

    /// The writer-relative bit position of `mark`.
    #[inline(always)]
    fn mark_pos(&self, mark: Mark) -> u64 {
        (mark.len - self.start) as u64 * 8 + u64::from(mark.pending)
    }

    /// The `n` (1 to 64) bits written at writer-relative bit `pos`, which lie before
    /// the current position: in the flushed bytes, in the accumulator, or across both.
    fn bits_at(&self, pos: u64, n: u32) -> u64 {
        let flushed = (self.buf.len() - self.start) as u64 * 8;
        let mask = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        if pos >= flushed {
            // `pos - flushed + n <= pending < 64`.
            return (self.acc >> (pos - flushed)) & mask;
        }
        let byte = self.start + (pos >> 3) as usize;
        let shift = (pos & 7) as u32;
        let mut word = [0u8; 8];
        let avail = &self.buf[byte..self.buf.len().min(byte + 8)];
        word[..avail.len()].copy_from_slice(avail);
        let mut v = u64::from_le_bytes(word) >> shift;
        if shift != 0 {
            if let Some(&next) = self.buf.get(byte + 8) {
                v |= u64::from(next) << (64 - shift);
            }
        }
        let from_buf = flushed - pos;
        if from_buf < u64::from(n) {
            // The rest comes from the accumulator.
            v = (v & ((1u64 << from_buf) - 1)) | (self.acc << from_buf);
        }
        v & mask
    }

    /// Pads with zero bits to the next byte boundary and flushes (§2.1). Returns the
    /// number of bytes this writer appended.
    #[inline]
    pub fn finish(self) -> usize {
        if self.pending != 0 {
            let tail = self.pending.div_ceil(8) as usize;
            self.buf.extend_from_slice(&self.acc.to_le_bytes()[..tail]);
        }
        self.buf.len() - self.start
    }
}

/// A position of a [`BitWriter`] ([`BitWriter::mark`]), to rewind to or compare from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    len: usize,
    acc: u64,
    pending: u32,
}

/// See [`BitWriter::length_error`].
#[cold]
#[inline(never)]
fn length_error(at: u64, len: u64, max: u64) -> Error {
    Error::new(ErrorKind::InvalidLength, at).with_detail(crate::Detail::Length { len, max })
}

/// The little-endian `u64` of an 8-byte chunk.
#[inline(always)]
pub(crate) fn le_word(chunk: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(chunk);
    u64::from_le_bytes(word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn nibble_case() {
        let mut buf = Vec::new();
        let mut w = BitWriter::new(&mut buf);
        w.write_bool(true);
        w.write_bits(5, 4);
        w.write_bits(2, 2);
        w.write_bits(300, 9);
        assert_eq!(w.bit_pos(), 16);
        assert_eq!(w.finish(), 2);
        assert_eq!(buf, vec![0x4b, 0x96]);
    }

    #[test]
    fn words_straddle_the_accumulator() {
        let mut buf = vec![0xAA];
        let mut w = BitWriter::new(&mut buf);
        w.write_bool(true);
        w.write_bits(0x0102_0304_0506_0708, 64);
        w.write_bits(u64::MAX, 64);
        w.write_bits(0, 0);
        assert_eq!(w.bit_pos(), 129);
        assert_eq!(w.finish(), 17);
        assert_eq!(buf[0], 0xAA, "existing contents kept");
        assert_eq!(
            &buf[1..10],
            &[0x11, 0x0e, 0x0c, 0x0a, 0x08, 0x06, 0x04, 0x02, 0xfe]
        );
        assert_eq!(
            &buf[10..],
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        );
    }

    #[test]
    fn rewind_and_compare_across_flushed_words() {
        for lead in [0u32, 3, 61] {
            let mut buf = vec![7u8];
            let mut w = BitWriter::new(&mut buf);
            w.write_bits(0, lead);
            let a = w.mark();
            w.write_bits(0x1234_5678_9abc_def0, 64);
            w.write_bits(5, 3);
            let b = w.mark();
            w.write_bits(0x1234_5678_9abc_def0, 64);
            w.write_bits(5, 3);
            assert!(w.same_bits(a, b), "lead {lead}");
            w.rewind(b);
            w.write_bits(0x1234_5678_9abc_def0, 64);
            w.write_bits(4, 3);
            assert!(!w.same_bits(a, b), "lead {lead}: last bit differs");
            w.rewind(b);
            w.write_bits(0x1234_5678_9abc_def0, 64);
            assert!(!w.same_bits(a, b), "lead {lead}: shorter");
            w.rewind(a);
            assert_eq!(w.bit_pos(), u64::from(lead));
            w.write_bits(1, 1);
            w.finish();
            let mut want = vec![7u8];
            let mut w2 = BitWriter::new(&mut want);
            w2.write_bits(0, lead);
            w2.write_bits(1, 1);
            w2.finish();
            assert_eq!(buf, want, "lead {lead}");
        }
    }

    #[test]
    fn bytes_aligned_and_unaligned() {
        let data: Vec<u8> = (0..19).collect();
        for lead in 0..9 {
            let mut buf = Vec::new();
            let mut w = BitWriter::new(&mut buf);
            w.write_bits(0, lead);
            w.write_bytes(&data);
            w.finish();
            // Reassemble bit by bit as the spec describes.
            let bit = |p: usize| (buf[p >> 3] >> (p & 7)) & 1;
            for (i, &b) in data.iter().enumerate() {
                let got = (0..8).fold(0u8, |acc, k| acc | bit(lead as usize + i * 8 + k) << k);
                assert_eq!(got, b, "lead {lead} byte {i}");
            }
        }
    }
}
