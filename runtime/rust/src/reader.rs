//! The bit reader (spec §1, §2.2, §5.6): reads an LSB-first bit stream from a slice
//! with one unaligned 64-bit load per read.

use crate::bulk::Lane;
use crate::bytes::utf8_error;
use crate::error::Detail;
use crate::limits::{charge, Limits};
use crate::writer::le_word;
use crate::{Error, ErrorKind, Result};

/// Reads an LSB-first bit stream from a byte slice.
///
/// Every read is bounds-checked against the input; running past the end is a
/// [`ErrorKind::Truncated`] error at the start of the value being read (spec §7.2).
#[derive(Debug, Clone)]
pub struct BitReader<'a> {
    data: &'a [u8],
    /// Bit position of the next read.
    pos: u64,
    /// Bytes of the decode budget left (spec §11): lengths are charged against it
    /// before anything is allocated.
    budget: u64,
}

/// Up to 64 bits read in one load, from which generated code extracts several
/// fixed-offset fields (the fields of a fixed-width run in a struct).
///
/// When the input ends inside the chunk, `avail` says how many bits are real, and
/// [`Chunk::get`] reports `Truncated` at the first field that reaches past them — the
/// same field a field-by-field decoder would stop at.
#[derive(Debug, Clone, Copy)]
pub struct Chunk {
    word: u64,
    avail: u32,
    start: u64,
}

impl Chunk {
    /// A chunk of `avail` bits holding `word`, whose first bit was stream bit `start`
    /// (a delta's difference code yields one: the scalar's wire bits, its errors at the
    /// code, spec §12.4).
    #[inline(always)]
    pub(crate) fn new(word: u64, avail: u32, start: u64) -> Chunk {
        Chunk { word, avail, start }
    }

    /// The `bits`-bit field at `offset` bits into the chunk.
    #[inline(always)]
    pub fn get(&self, offset: u32, bits: u32) -> Result<u64> {
        debug_assert!(offset + bits <= 64);
        if offset + bits > self.avail {
            return Err(Error::truncated(
                self.start + u64::from(offset),
                u64::from(bits),
                u64::from(self.avail.saturating_sub(offset)),
            ));
        }
        let v = self.word >> offset;
        Ok(if bits == 64 {
            v
        } else {
            v & ((1u64 << bits) - 1)
        })
    }

    /// The `bits`-bit field at `offset` bits into the chunk, without the truncation
    /// check: bits past the end of the input read as zero. Generated code uses it for
    /// fields that need no validation and checks [`Chunk::avail`] once per run, before
    /// the first validated field and at the run's end ([`Chunk::truncated`]).
    #[inline(always)]
    pub fn bits(&self, offset: u32, bits: u32) -> u64 {
        debug_assert!(offset + bits <= 64);
        let v = self.word >> offset;
        if bits == 64 {
            v
        } else {
            v & ((1u64 << bits) - 1)
        }
    }

    /// How many bits of the chunk the input held (less than requested only when the
    /// input ended inside it).
    #[inline(always)]
    pub fn avail(&self) -> u32 {
        self.avail
    }

    /// The `Truncated` error of a run whose input ended early: `fields` lists scalars of
    /// the run in order as `(offset, bits, path)` (the path from the struct being read,
    /// `&["buttons", "fire"]` for a field of a nested struct), and the error names the
    /// first one that reaches past the end, as a field-by-field decoder would.
    #[inline(always)]
    pub fn truncated(&self, fields: &[(u32, u32, &[&'static str])]) -> Error {
        // Scalars, not `&self`: the hot path then never spills the chunk to memory.
        run_truncated(self.start, self.avail, fields)
    }

    /// Stream bit offset of the chunk's first bit.
    #[inline]
    pub fn start(&self) -> u64 {
        self.start
    }

    /// An error of `kind` for the field at `offset` bits into the chunk.
    #[cold]
    pub fn error(&self, kind: ErrorKind, offset: u32) -> Error {
        Error::new(kind, self.start + u64::from(offset))
    }

    /// `OutOfRange` for a bounded integer at `offset` whose stored offset `raw` is above
    /// `max - min` (spec §4.2); the message shows the value `min + raw`.
    #[cold]
    #[inline(never)]
    pub fn bounded_error(&self, offset: u32, raw: u64, min: i128, max: i128) -> Error {
        let at = self.start + u64::from(offset);
        Error::out_of_range(at, min + i128::from(raw), min, max)
    }

    /// `OutOfRange` for a quantized float at `offset` whose stored `q` is above `steps`
    /// (spec §4.3).
    #[cold]
    #[inline(never)]
    pub fn steps_error(&self, offset: u32, q: u64, steps: u64) -> Error {
        let at = self.start + u64::from(offset);
        Error::new(ErrorKind::OutOfRange, at).with_detail(Detail::Steps { q, steps })
    }

    /// `InvalidEnum` for the undeclared tag `value` at `offset` (spec §3, §5.2).
    #[cold]
    #[inline(never)]
    pub fn enum_error(&self, offset: u32, value: u64) -> Error {
        Error::undeclared(self.start + u64::from(offset), value)
    }
}

/// The bytes of `data` from `byte` to the end (fewer than eight), zero-filled. A free
/// function taking the slice, so the hot path need not spill the reader to memory.
///
/// Not cold: every value read within the last eight bytes of an input ends here (the
/// last fields of most messages). When the input has at least eight bytes this is one
/// load of its last eight and a shift; copying the tail into a buffer instead took 40%
/// of `Input`'s decode time when `Input` was still read in three chunks (perf, bench/lab).
#[inline(always)]
fn load_tail(data: &[u8], byte: usize) -> u64 {
    let len = data.len();
    match data.get(len.wrapping_sub(8)..) {
        Some(last) if byte < len => {
            let last = u64::from_le_bytes([
                last[0], last[1], last[2], last[3], last[4], last[5], last[6], last[7],
            ]);
            // `byte + 8 > len` (else the caller had eight bytes), so 1..=7 bytes go.
            last >> (8 * (byte + 8 - len))
        }
        _ => load_short(data, byte),
    }
}

/// [`load_tail`] for inputs shorter than eight bytes, or a position at or past the end.
#[cold]
fn load_short(data: &[u8], byte: usize) -> u64 {
    let mut word = [0u8; 8];
    if let Some(tail) = data.get(byte..) {
        word[..tail.len()].copy_from_slice(tail);
    }
    u64::from_le_bytes(word)
}

/// See [`Chunk::truncated`].
#[cold]
#[inline(never)]
fn run_truncated(start: u64, avail: u32, fields: &[(u32, u32, &[&'static str])]) -> Error {
    let (offset, bits, path) = fields
        .iter()
        .copied()
        .find(|&(offset, bits, _)| offset + bits > avail)
        .unwrap_or((avail, 0, &[]));
    let left = u64::from(avail.saturating_sub(offset));
    let e = Error::truncated(start + u64::from(offset), u64::from(bits), left);
    path.iter().rev().fold(e, |e, name| e.in_field(name))
}

/// `Truncated` for a length whose elements cannot fit in the `left` bits.
#[cold]
#[inline(never)]
fn len_truncated(len: u64, min_bits: u64, left: u64, start: u64) -> Error {
    Error::truncated(start, len.saturating_mul(min_bits), left)
}

/// `InvalidPadding` at bit `at` for the `bits` padding bits `value` (spec §2.2).
#[cold]
#[inline(never)]
pub(crate) fn invalid_padding(at: u64, value: u64, bits: u32) -> Error {
    Error::new(ErrorKind::InvalidPadding, at).with_detail(Detail::Padding { value, bits })
}

/// `TrailingData` at bit `end` (a byte boundary) of an input `len` bytes long.
#[cold]
#[inline(never)]
pub(crate) fn trailing_data(end: u64, len: usize) -> Error {
    let bytes = len as u64 - end / 8;
    Error::new(ErrorKind::TrailingData, end).with_detail(Detail::Trailing { bytes })
}

/// `LimitExceeded` for an allocation of `need` bytes with `left` in the budget.
#[cold]
#[inline(never)]
fn over_budget(need: u64, left: u64, start: u64) -> Error {
    Error::new(ErrorKind::LimitExceeded, start).with_detail(Detail::Budget { need, left })
}

impl<'a> BitReader<'a> {
    /// A reader positioned at the first bit of `data`, with the default decode budget
    /// for an input of that length ([`Limits::DEFAULT`]).
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        BitReader::with_limits(data, &Limits::DEFAULT)
    }

    /// A reader positioned at the first bit of `data` whose decode budget is what
    /// `limits` gives for an input of that length.
    #[inline]
    pub fn with_limits(data: &'a [u8], limits: &Limits) -> Self {
        BitReader {
            data,
            pos: 0,
            budget: limits.budget(data.len()),
        }
    }

    /// Bytes left in the decode budget.
    #[inline]
    pub fn budget_left(&self) -> u64 {
        self.budget
    }

    /// Bit position of the next read.
    #[inline]
    pub fn bit_pos(&self) -> u64 {
        self.pos
    }

    /// Bits left in the input.
    #[inline]
    pub fn remaining_bits(&self) -> u64 {
        self.data.len() as u64 * 8 - self.pos
    }

    /// An error of `kind` for a value starting `offset` bits after the current position.
    #[cold]
    pub fn error(&self, kind: ErrorKind, offset: u32) -> Error {
        Error::new(kind, self.pos + u64::from(offset))
    }

    /// `Truncated` at the current position for a value of at least `need` bits.
    #[inline(always)]
    fn truncated(&self, need: u64) -> Error {
        // The position and bits left are computed inline, so that the cold call takes
        // integers and the reader can stay in registers on the hot path.
        Error::truncated(self.pos, need, self.remaining_bits())
    }

    /// Loads the 64 bits starting at bit `pos`, zero-filled past the end of the input.
    #[inline(always)]
    fn peek64(&self, pos: u64) -> u64 {
        let byte = (pos >> 3) as usize;
        let shift = (pos & 7) as u32;
        let word = match self.data.get(byte..byte + 8) {
            Some(b) => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
            None => load_tail(self.data, byte),
        };
        let mut v = word >> shift;
        if shift != 0 {
            // The top `shift` bits come from the ninth byte.
            let next = self.data.get(byte + 8).copied().unwrap_or(0);
            v |= u64::from(next) << (64 - shift);
        }
        v
    }

    /// Reads a `bits`-bit unsigned value (`bits <= 64`).
    #[inline(always)]
    pub fn read_bits(&mut self, bits: u32) -> Result<u64> {
        debug_assert!(bits <= 64);
        if u64::from(bits) > self.remaining_bits() {
            return Err(self.truncated(u64::from(bits)));
        }
        let v = self.peek64(self.pos);
        self.pos += u64::from(bits);
        Ok(if bits == 64 {
            v
        } else {
            v & ((1u64 << bits) - 1)
        })
    }

    /// Reads one bit.
    #[inline(always)]
    pub fn read_bool(&mut self) -> Result<bool> {
        Ok(self.read_bits(1)? != 0)
    }

    /// Reads up to 64 bits as a [`Chunk`] and advances past them (or to the end of the
    /// input, if it is shorter: then the chunk reports `Truncated` for the fields that
    /// reach past the end).
    #[inline(always)]
    pub fn read_chunk(&mut self, bits: u32) -> Chunk {
        debug_assert!(bits <= 64);
        let avail = u64::from(bits).min(self.remaining_bits()) as u32;
        let chunk = Chunk {
            word: self.peek64(self.pos),
            avail,
            start: self.pos,
        };
        self.pos += u64::from(avail);
        chunk
    }

    /// Checks a length `len` just read for a list, string or bytes value that started at
    /// bit `start` (spec §5.6, §11), in this order: `Truncated` when `len` elements of at
    /// least `min_bits` bits each cannot fit in the rest of the input; `LimitExceeded`
    /// when `len` does not fit in `usize`, or when its charge (`len × per_elem` bytes
    /// plus one allocation's overhead) is more than the decode budget left, which it
    /// then takes from. Call before allocating.
    #[inline]
    pub fn check_len(
        &mut self,
        len: u64,
        min_bits: u64,
        per_elem: u64,
        start: u64,
    ) -> Result<usize> {
        let left = self.remaining_bits();
        if len.checked_mul(min_bits).is_none_or(|need| need > left) {
            return Err(len_truncated(len, min_bits, left, start));
        }
        let cost = charge(len, per_elem);
        if cost > self.budget {
            return Err(over_budget(cost, self.budget, start));
        }
        self.budget -= cost;
        usize::try_from(len).map_err(|_| {
            let max = usize::MAX as u64;
            Error::new(ErrorKind::LimitExceeded, start).with_detail(Detail::Length { len, max })
        })
    }

    /// The 64 bits from stream bit `pos`, zero-filled past the end of the input.
    #[inline(always)]
    pub(crate) fn peek_at(&self, pos: u64) -> u64 {
        self.peek64(pos)
    }

    /// Takes `cost` bytes from the decode budget for a value that started at bit
    /// `start`, or fails with `LimitExceeded` there when fewer are left (spec §11.5).
    #[inline]
    pub(crate) fn charge(&mut self, cost: u64, start: u64) -> Result<()> {
        if cost > self.budget {
            return Err(over_budget(cost, self.budget, start));
        }
        self.budget -= cost;
        Ok(())
    }

    /// `Truncated` at the current position unless `len` whole bytes are left.
    #[inline(always)]
    pub(crate) fn check_bytes(&self, len: usize) -> Result<()> {
        let need = (len as u64).saturating_mul(8);
        if need > self.remaining_bits() {
            return Err(self.truncated(need));
        }
        Ok(())
    }

    /// Fills `out` with the next `out.len()` bytes (checked to be there): a copy on a
    /// byte boundary, else two loads and two shifts per eight bytes.
    #[inline]
    pub(crate) fn fill_bytes(&mut self, out: &mut [u8]) {
        if self.pos & 7 == 0 {
            let byte = (self.pos >> 3) as usize;
            out.copy_from_slice(&self.data[byte..byte + out.len()]);
            self.pos += out.len() as u64 * 8;
        } else if out.len() < 64 {
            // Short (names, chat lines): one shifted load per eight bytes, no per-byte
            // tail; `read_lanes` reads the last bytes of a value one at a time.
            let mut pos = self.pos;
            let mut words = out.chunks_exact_mut(8);
            for word in &mut words {
                word.copy_from_slice(&self.peek64(pos).to_le_bytes());
                pos += 64;
            }
            let rest = words.into_remainder();
            if !rest.is_empty() {
                rest.copy_from_slice(&self.peek64(pos).to_le_bytes()[..rest.len()]);
            }
            self.pos += out.len() as u64 * 8;
        } else {
            let got = self.read_lanes(out);
            debug_assert_eq!(got, out.len());
        }
    }

    /// Fills the front of `out` with as many complete `T::BITS`-bit elements (§1.2) as
    /// the rest of the input holds, moves past them and returns how many it read.
    ///
    /// The elements are taken from 64-bit words of the stream: on a byte boundary word
    /// `k` is the little-endian load at byte `b + 8k`, otherwise it is
    /// `(x[k] >> s) | (x[k + 1] << (64 - s))` for the loads `x` and the bit offset `s`
    /// in the byte. No per-element bounds or length checks; the last few elements,
    /// whose next word would run past the input, go through the zero-filling load.
    #[inline]
    pub(crate) fn read_lanes<T: Lane>(&mut self, out: &mut [T]) -> usize {
        let per = (64 / T::BITS) as usize;
        let avail = (self.remaining_bits() / u64::from(T::BITS)).min(out.len() as u64) as usize;
        let out = &mut out[..avail];
        let byte = (self.pos >> 3) as usize;
        let s = (self.pos & 7) as u32;
        let src = self.data.get(byte..).unwrap_or(&[]);
        let unpack = T::unpack;
        let words = if s == 0 {
            let words = (avail / per).min(src.len() / 8);
            let dst = out[..words * per].chunks_exact_mut(per);
            for (d, x) in dst.zip(src.chunks_exact(8)) {
                unpack(d, le_word(x));
            }
            words
        } else {
            // Word `k` also needs the first byte of load `k + 1`.
            let next = src.get(8..).unwrap_or(&[]);
            let words = (avail / per).min(next.len() / 8);
            let dst = out[..words * per].chunks_exact_mut(per);
            for (d, (x, y)) in dst.zip(src.chunks_exact(8).zip(next.chunks_exact(8))) {
                unpack(d, (le_word(x) >> s) | (le_word(y) << (64 - s)));
            }
            words
        };
        let mut pos = self.pos + words as u64 * 64;
        let mask = u64::MAX >> (64 - T::BITS);
        for d in &mut out[words * per..] {
            *d = T::from_wire(self.peek64(pos) & mask);
            pos += u64::from(T::BITS);
        }
        self.pos = pos;
        avail
    }

    /// Skips `bits` bits without reading them (`verify`, which checks a value without
    /// building it): `Truncated` at the current position when fewer are left, the
    /// error [`Self::read_bits`] gives for the same value. On error nothing moves.
    #[inline(always)]
    pub fn skip_bits(&mut self, bits: u64) -> Result<()> {
        if bits > self.remaining_bits() {
            return Err(self.truncated(bits));
        }
        self.pos += bits;
        Ok(())
    }

    /// Skips `len` bytes (a `bytes` value or a `[u8; N]`): the error
    /// [`Self::read_bytes`] and [`Self::read_byte_array`] give for the same input.
    #[inline]
    pub fn skip_bytes(&mut self, len: usize) -> Result<()> {
        self.skip_bits((len as u64).saturating_mul(8))
    }

    /// The next `len` bytes as a slice of the input, moving past them, when the reader
    /// is on a byte boundary and they are all there; `None` (and no move) otherwise.
    #[inline(always)]
    pub(crate) fn aligned_bytes(&mut self, len: usize) -> Option<&'a [u8]> {
        let bytes = self.peek_aligned_bytes(len)?;
        self.pos += len as u64 * 8;
        Some(bytes)
    }

    /// The input from byte `byte` on (empty past its end).
    #[inline(always)]
    pub(crate) fn data_from(&self, byte: usize) -> &'a [u8] {
        self.data.get(byte..).unwrap_or(&[])
    }

    /// Moves `bits` bits on (checked to be there).
    #[inline(always)]
    pub(crate) fn advance(&mut self, bits: u64) {
        self.pos += bits;
    }

    /// The next `len` bytes as a slice of the input, without copying, when the reader
    /// is on a byte boundary and they are all there; `None` otherwise. Does not move.
    #[inline]
    fn peek_aligned_bytes(&self, len: usize) -> Option<&'a [u8]> {
        if self.pos & 7 != 0 {
            return None;
        }
        let byte = (self.pos >> 3) as usize;
        self.data.get(byte..byte.checked_add(len)?)
    }

    /// Skips a string of `len` bytes (length already checked) that started at bit
    /// `start`, validating its UTF-8 without allocating: the error
    /// [`Self::read_string`] gives for the same input (`InvalidUtf8` at `start`).
    /// Aligned strings are validated in place; unaligned ones through a small stack
    /// buffer, carrying an incomplete sequence over from one block to the next.
    #[inline]
    pub fn skip_string(&mut self, len: usize, start: u64) -> Result<()> {
        self.check_bytes(len)?;
        if let Some(bytes) = self.peek_aligned_bytes(len) {
            core::str::from_utf8(bytes).map_err(|e| utf8_error(start, 0, bytes, e))?;
            self.pos += len as u64 * 8;
            return Ok(());
        }
        if len <= 8 {
            // One load for a short string (names, tags): the common case.
            let word = self.peek64(self.pos).to_le_bytes();
            core::str::from_utf8(&word[..len]).map_err(|e| utf8_error(start, 0, &word, e))?;
            self.pos += len as u64 * 8;
            return Ok(());
        }
        const BLOCK: usize = 64;
        // An incomplete sequence (at most three bytes) carried before the next block.
        let mut buf = [0u8; BLOCK + 8];
        let mut carry = 0;
        let mut left = len;
        // Index in the string of `buf[0]`.
        let mut base = 0;
        while left > 0 {
            let n = left.min(BLOCK);
            let mut i = 0;
            while i < n {
                let word = self.peek64(self.pos).to_le_bytes();
                let take = (n - i).min(8);
                buf[carry + i..carry + i + take].copy_from_slice(&word[..take]);
                self.pos += take as u64 * 8;
                i += take;
            }
            left -= n;
            let filled = carry + n;
            match core::str::from_utf8(&buf[..filled]) {
                Ok(_) => carry = 0,
                Err(e) if e.error_len().is_none() && left > 0 => {
                    let valid = e.valid_up_to();
                    buf.copy_within(valid..filled, 0);
                    carry = filled - valid;
                }
                Err(e) => return Err(utf8_error(start, base, &buf, e)),
            }
            base += filled - carry;
        }
        Ok(())
    }

    /// Ends a top-level decode (§2.2): the padding up to the next byte boundary must be
    /// zero, and no bytes may follow it.
    #[inline]
    pub fn finish(self) -> Result<()> {
        let pad = ((8 - (self.pos & 7)) & 7) as u32;
        let value = self.peek64(self.pos) & ((1u64 << pad) - 1);
        if value != 0 {
            return Err(invalid_padding(self.pos, value, pad));
        }
        let end = self.pos + u64::from(pad);
        if end < self.data.len() as u64 * 8 {
            return Err(trailing_data(end, self.data.len()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BitWriter;

    #[test]
    fn nibble_case() {
        let mut r = BitReader::new(&[0x4b, 0x96]);
        assert!(r.read_bool().unwrap());
        assert_eq!(r.read_bits(4).unwrap(), 5);
        assert_eq!(r.read_bits(2).unwrap(), 2);
        assert_eq!(r.read_bits(9).unwrap(), 300);
        r.finish().unwrap();
    }

    #[test]
    fn reads_what_the_writer_wrote_at_every_alignment() {
        let values = [
            (0x1u64, 1u32),
            (0xABC, 12),
            (u64::MAX, 64),
            (0x7F, 7),
            (0, 0),
            (0x1_2345_6789, 37),
        ];
        for lead in 0..8 {
            let mut buf = alloc::vec::Vec::new();
            let mut w = BitWriter::new(&mut buf);
            w.write_bits(0, lead);
            for &(v, b) in &values {
                w.write_bits(v, b);
            }
            w.finish();
            let mut r = BitReader::new(&buf);
            r.read_bits(lead).unwrap();
            for &(v, b) in &values {
                assert_eq!(r.read_bits(b).unwrap(), v, "lead {lead}, {b} bits");
            }
            r.finish().unwrap();
        }
    }

    #[test]
    fn truncation_padding_and_trailing_data() {
        let mut r = BitReader::new(&[0xff]);
        let e = r.read_bits(9).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::Truncated, 0));

        let mut r = BitReader::new(&[0b0000_0011]);
        r.read_bits(1).unwrap();
        let e = r.finish().unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::InvalidPadding, 1));

        let mut r = BitReader::new(&[0b0000_0001, 0]);
        r.read_bits(1).unwrap();
        let e = r.finish().unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::TrailingData, 8));
    }

    #[test]
    fn chunk_reports_the_first_field_past_the_end() {
        let mut r = BitReader::new(&[0xff, 0x01]);
        let c = r.read_chunk(24);
        assert_eq!(c.get(0, 8).unwrap(), 0xff);
        assert_eq!(c.get(8, 1).unwrap(), 1);
        assert_eq!(c.get(9, 7).unwrap(), 0);
        let e = c.get(12, 8).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::Truncated, 12));
        assert_eq!(r.bit_pos(), 16);
    }

    #[test]
    fn unchecked_bits_and_run_truncation() {
        let mut r = BitReader::new(&[0xff, 0x01]);
        let c = r.read_chunk(24);
        assert_eq!((c.bits(0, 8), c.bits(8, 1), c.bits(9, 15)), (0xff, 1, 0));
        assert_eq!(c.avail(), 16);
        let e = c.truncated(&[(0, 8, &["a"]), (8, 4, &["b"]), (12, 12, &["n", "c"])]);
        assert_eq!(
            (e.kind(), e.bit(), e.path_string()),
            (ErrorKind::Truncated, 12, "n.c".into())
        );
        assert_eq!(e.detail(), Detail::Bits { need: 12, left: 4 });
    }

    #[test]
    fn length_checks_run_before_allocation() {
        let mut r = BitReader::new(&[0; 4]);
        assert_eq!(r.check_len(4, 8, 1, 0).unwrap(), 4);
        assert_eq!(
            r.check_len(5, 8, 1, 3).unwrap_err().kind(),
            ErrorKind::Truncated
        );
        assert_eq!(
            r.check_len(u64::MAX, 8, 1, 0).unwrap_err().kind(),
            ErrorKind::Truncated
        );
    }

    #[test]
    fn lengths_are_charged_against_the_budget() {
        let data = [0u8; 16];
        // 16 input bytes: a fixed budget of 200 bytes for this test.
        let mut r = BitReader::with_limits(&data, &Limits::fixed(200));
        // 4 elements of 40 bytes: 160 + 32 = 192, which fits.
        assert_eq!(r.check_len(4, 1, 40, 0).unwrap(), 4);
        assert_eq!(r.budget_left(), 8);
        // Empty sequences cost nothing.
        assert_eq!(r.check_len(0, 1, 1000, 0).unwrap(), 0);
        let e = r.check_len(1, 1, 1, 7).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::LimitExceeded, 7));
        assert_eq!(e.detail(), Detail::Budget { need: 33, left: 8 });
        // Truncation is checked first.
        let e = r.check_len(1000, 1, 1, 0).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Truncated);
        // The default budget is 1 MiB plus 64 bytes per input byte.
        assert_eq!(BitReader::new(&data).budget_left(), (1 << 20) + 64 * 16);
    }

    #[test]
    fn skips_check_bounds_like_reads() {
        let mut r = BitReader::new(&[0xff, 0x01]);
        r.skip_bits(3).unwrap();
        assert_eq!(r.bit_pos(), 3);
        let e = r.skip_bits(14).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::Truncated, 3));
        assert_eq!(r.bit_pos(), 3, "a failed skip does not move");
        r.skip_bits(5).unwrap();
        assert_eq!(r.peek_aligned_bytes(1), Some(&[0x01][..]));
        assert_eq!(r.peek_aligned_bytes(2), None);
        let e = r.skip_bytes(2).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::Truncated, 8));
        r.skip_bytes(1).unwrap();
        r.finish().unwrap();
    }

    #[test]
    fn skip_string_validates_utf8_at_every_alignment() {
        // Long enough for several blocks, with multi-byte sequences across block edges.
        let text: alloc::string::String = "aé€😀".repeat(40);
        for lead in 0..8u32 {
            for (bytes, ok) in [
                (text.as_bytes().to_vec(), true),
                ("é€".as_bytes().to_vec(), true),
                (alloc::vec![0x61, 0xff], false),
                ([text.as_bytes(), &[0xe2, 0x82]].concat(), false),
                (
                    [&text.as_bytes()[..100], &[0xff], &text.as_bytes()[100..]].concat(),
                    false,
                ),
            ] {
                let mut buf = alloc::vec::Vec::new();
                let mut w = BitWriter::new(&mut buf);
                w.write_bits(0, lead);
                w.write_bytes(&bytes);
                w.finish();
                let mut r = BitReader::new(&buf);
                r.skip_bits(u64::from(lead)).unwrap();
                let got = r.skip_string(bytes.len(), 1);
                let mut r2 = BitReader::new(&buf);
                r2.read_bits(lead).unwrap();
                let want = r2.read_string(bytes.len(), 1).map(drop);
                assert_eq!(got.is_ok(), ok, "lead {lead}");
                assert_eq!(got, want, "lead {lead}");
                if ok {
                    assert_eq!(r.bit_pos(), u64::from(lead) + bytes.len() as u64 * 8);
                }
            }
        }
        let e = BitReader::new(&[0x61]).skip_string(2, 0).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::Truncated, 0));
    }

    #[test]
    fn unaligned_bytes_and_utf8() {
        let mut buf = alloc::vec::Vec::new();
        let mut w = BitWriter::new(&mut buf);
        w.write_bits(1, 3);
        w.write_bytes("héllo wörld, long enough".as_bytes());
        w.write_bytes(&[0xff]);
        w.finish();
        let mut r = BitReader::new(&buf);
        r.read_bits(3).unwrap();
        assert_eq!(r.read_string(26, 3).unwrap(), "héllo wörld, long enough");
        let e = r.read_string(1, 211).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::InvalidUtf8, 211));
    }
}
