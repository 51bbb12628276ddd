//! Bulk reads and writes of whole-byte-width numbers (spec §1.2, §3, §5.5, §5.6): the
//! elements of a `list<T>` or `[T; N]` of `u16`…`u64`, `i8`…`i64`, `f32` or `f64`
//! move 64 bits at a time however the stream is aligned, instead of one bounds-checked
//! read or write per element. The bytes and the errors (kind, bit, path) are exactly
//! those of the element-by-element calls.

use alloc::vec::Vec;

use crate::{BitReader, BitWriter, Error, Result, CANONICAL_NAN_F32, CANONICAL_NAN_F64};

/// An element type whose wire width (`BITS`: 8, 16, 32 or 64) is its whole in-memory
/// width, so that `64 / BITS` elements make one 64-bit word of the stream.
pub(crate) trait Lane: Copy + Default {
    /// Wire width in bits.
    const BITS: u32;
    /// Whether some bit patterns are rejected on decode (non-canonical NaNs).
    const CHECKED: bool = false;
    /// The `BITS` bits to write (floats: NaN made canonical, §3.2).
    fn to_wire(self) -> u64;
    /// The value of the low `BITS` bits of `bits` (higher bits are ignored).
    fn from_wire(bits: u64) -> Self;
    /// Whether the decoded value is a non-canonical NaN (§3.2).
    #[inline(always)]
    fn non_canonical(self) -> bool {
        false
    }
    /// The value's own bits, NaN payloads kept (for error messages).
    #[inline(always)]
    fn raw_bits(self) -> u64 {
        self.to_wire()
    }
    /// The canonical NaN's bits (floats only).
    const CANONICAL_NAN: u64 = 0;
    /// The 64-bit stream word of `64 / BITS` consecutive values, the first in the low
    /// bits.
    #[inline(always)]
    fn pack(values: &[Self]) -> u64 {
        values
            .iter()
            .enumerate()
            .fold(0, |w, (j, v)| w | v.to_wire() << (j as u32 * Self::BITS))
    }
    /// The inverse of [`Lane::pack`].
    #[inline(always)]
    fn unpack(out: &mut [Self], word: u64) {
        for (j, d) in out.iter_mut().enumerate() {
            *d = Self::from_wire(word >> (j as u32 * Self::BITS));
        }
    }
}

macro_rules! int_lane {
    ($($t:ty => $u:ty),*) => {$(
        impl Lane for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn to_wire(self) -> u64 {
                u64::from(self as $u)
            }
            #[inline(always)]
            fn from_wire(bits: u64) -> Self {
                bits as $t
            }
        }
    )*};
}

impl Lane for u8 {
    const BITS: u32 = 8;
    #[inline(always)]
    fn to_wire(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn from_wire(bits: u64) -> Self {
        bits as u8
    }
    #[inline(always)]
    fn pack(values: &[Self]) -> u64 {
        crate::writer::le_word(values)
    }
    #[inline(always)]
    fn unpack(out: &mut [Self], word: u64) {
        out.copy_from_slice(&word.to_le_bytes());
    }
}

int_lane!(i8 => u8, u16 => u16, i16 => u16, u32 => u32, i32 => u32, u64 => u64, i64 => u64);

impl Lane for f32 {
    const BITS: u32 = 32;
    const CHECKED: bool = true;
    const CANONICAL_NAN: u64 = CANONICAL_NAN_F32 as u64;
    #[inline(always)]
    fn raw_bits(self) -> u64 {
        u64::from(self.to_bits())
    }
    #[inline(always)]
    fn to_wire(self) -> u64 {
        // `f32_to_wire` on the integer bits, which vectorises better than `is_nan`.
        let b = self.to_bits();
        u64::from(if b & 0x7FFF_FFFF > 0x7F80_0000 {
            CANONICAL_NAN_F32
        } else {
            b
        })
    }
    #[inline(always)]
    fn from_wire(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
    #[inline(always)]
    fn non_canonical(self) -> bool {
        // A NaN (exponent all ones, mantissa not zero) other than the canonical one.
        let b = self.to_bits();
        (b & 0x7FFF_FFFF) > 0x7F80_0000 && b != CANONICAL_NAN_F32
    }
}

impl Lane for f64 {
    const BITS: u32 = 64;
    const CHECKED: bool = true;
    const CANONICAL_NAN: u64 = CANONICAL_NAN_F64;
    #[inline(always)]
    fn raw_bits(self) -> u64 {
        self.to_bits()
    }
    #[inline(always)]
    fn to_wire(self) -> u64 {
        let b = self.to_bits();
        if b & 0x7FFF_FFFF_FFFF_FFFF > 0x7FF0_0000_0000_0000 {
            CANONICAL_NAN_F64
        } else {
            b
        }
    }
    #[inline(always)]
    fn from_wire(bits: u64) -> Self {
        f64::from_bits(bits)
    }
    #[inline(always)]
    fn non_canonical(self) -> bool {
        let b = self.to_bits();
        (b & 0x7FFF_FFFF_FFFF_FFFF) > 0x7FF0_0000_0000_0000 && b != CANONICAL_NAN_F64
    }
}

/// The index of the first non-canonical value, found by a branch-free pass over all of
/// them (which vectorises) and located only when that pass finds one.
#[inline]
fn first_non_canonical<T: Lane>(values: &[T]) -> Option<usize> {
    if !T::CHECKED || !values.iter().fold(false, |any, v| any | v.non_canonical()) {
        return None;
    }
    values.iter().position(|v| v.non_canonical())
}

impl BitWriter<'_> {
    /// Writes `values` one after the other, each in `T::BITS` bits: the bits of one
    /// `write_bits(v, T::BITS)` per value, with the whole words built as described at
    /// [`BitWriter::write_words`] and the last few values (less than a word) written
    /// one by one.
    #[inline]
    pub(crate) fn write_lanes<T: Lane>(&mut self, values: &[T]) {
        let per = (64 / T::BITS) as usize;
        let whole = values.len() / per * per;
        self.write_words(&values[..whole], per, T::pack);
        for v in &values[whole..] {
            self.write_bits(v.to_wire(), T::BITS);
        }
    }

    /// Writes `u16` values (the elements of a `list<u16>` or `[u16; N]`), 16 bits each:
    /// the same bits as one `write_bits(v, 16)` per value, several times faster.
    #[inline]
    pub fn write_u16s(&mut self, values: &[u16]) {
        self.write_lanes(values);
    }

    /// Writes `i16` values, 16 bits of two's complement each (see [`Self::write_u16s`]).
    #[inline]
    pub fn write_i16s(&mut self, values: &[i16]) {
        self.write_lanes(values);
    }

    /// Writes `u32` values, 32 bits each (see [`Self::write_u16s`]).
    #[inline]
    pub fn write_u32s(&mut self, values: &[u32]) {
        self.write_lanes(values);
    }

    /// Writes `i32` values, 32 bits of two's complement each (see [`Self::write_u16s`]).
    #[inline]
    pub fn write_i32s(&mut self, values: &[i32]) {
        self.write_lanes(values);
    }

    /// Writes `u64` values, 64 bits each (see [`Self::write_u16s`]).
    #[inline]
    pub fn write_u64s(&mut self, values: &[u64]) {
        self.write_lanes(values);
    }

    /// Writes `i64` values, 64 bits of two's complement each (see [`Self::write_u16s`]).
    #[inline]
    pub fn write_i64s(&mut self, values: &[i64]) {
        self.write_lanes(values);
    }

    /// Writes `i8` values, 8 bits of two's complement each (see [`Self::write_u16s`];
    /// `u8` values are [`Self::write_bytes`]).
    #[inline]
    pub fn write_i8s(&mut self, values: &[i8]) {
        self.write_lanes(values);
    }

    /// Writes `f32` values, 32 bits each, every NaN as the canonical NaN (§3.2): the
    /// same bits as one [`Self::write_f32`] per value.
    #[inline]
    pub fn write_f32s(&mut self, values: &[f32]) {
        self.write_lanes(values);
    }

    /// Writes `f64` values, 64 bits each, every NaN as the canonical NaN (§3.2): the
    /// same bits as one [`Self::write_f64`] per value.
    #[inline]
    pub fn write_f64s(&mut self, values: &[f64]) {
        self.write_lanes(values);
    }
}

impl BitReader<'_> {
    /// Fills `out`, reporting the error of the element-by-element read: for the first
    /// failing element `i`, a non-canonical NaN (`NonCanonical`) or an element the
    /// input ends inside (`Truncated`), at the element's first bit, with path `[i]`.
    #[inline]
    fn read_lanes_checked<T: Lane>(&mut self, out: &mut [T]) -> Result<()> {
        let start = self.bit_pos();
        let got = self.read_lanes(out);
        if let Some(i) = first_non_canonical(&out[..got]) {
            return Err(nan_error(start, i, out[i]));
        }
        if got < out.len() {
            let left = self.remaining_bits();
            return Err(truncated_element(start, got, T::BITS, left));
        }
        Ok(())
    }

    /// Reads `out.len()` `u16` values (the elements of a `list<u16>`, its length
    /// checked, or a `[u16; N]`). Fails as one `read_bits(16)` per element would: with
    /// `Truncated` at the first element the input ends inside, path `[i]`; the error
    /// gets the field's path from the caller.
    #[inline]
    pub fn read_u16s(&mut self, out: &mut [u16]) -> Result<()> {
        self.read_lanes_checked(out)
    }

    /// Reads `i16` values (see [`Self::read_u16s`]).
    #[inline]
    pub fn read_i16s(&mut self, out: &mut [i16]) -> Result<()> {
        self.read_lanes_checked(out)
    }

    /// Reads `u32` values (see [`Self::read_u16s`]).
    #[inline]
    pub fn read_u32s(&mut self, out: &mut [u32]) -> Result<()> {
        self.read_lanes_checked(out)
    }

    /// Reads `i32` values (see [`Self::read_u16s`]).
    #[inline]
    pub fn read_i32s(&mut self, out: &mut [i32]) -> Result<()> {
        self.read_lanes_checked(out)
    }

    /// Reads `u64` values (see [`Self::read_u16s`]).
    #[inline]
    pub fn read_u64s(&mut self, out: &mut [u64]) -> Result<()> {
        self.read_lanes_checked(out)
    }

    /// Reads `i64` values (see [`Self::read_u16s`]).
    #[inline]
    pub fn read_i64s(&mut self, out: &mut [i64]) -> Result<()> {
        self.read_lanes_checked(out)
    }

    /// Reads `i8` values (see [`Self::read_u16s`]).
    #[inline]
    pub fn read_i8s(&mut self, out: &mut [i8]) -> Result<()> {
        self.read_lanes_checked(out)
    }

    /// Reads `f32` values. Fails as one [`Self::read_f32`] per element would: at the
    /// first element that is a non-canonical NaN (`NonCanonical`) or that the input
    /// ends inside (`Truncated`), whichever comes first, at its first bit with path
    /// `[i]`. The NaN check is a separate pass over the values read.
    #[inline]
    pub fn read_f32s(&mut self, out: &mut [f32]) -> Result<()> {
        self.read_lanes_checked(out)
    }

    /// Reads `f64` values (see [`Self::read_f32s`]).
    #[inline]
    pub fn read_f64s(&mut self, out: &mut [f64]) -> Result<()> {
        self.read_lanes_checked(out)
    }

    /// A vector of `len` values (a list's length, checked with
    /// [`Self::check_len`]), allocated zeroed at its final size and filled in bulk.
    #[inline]
    fn read_lanes_vec<T: Lane>(&mut self, len: usize) -> Result<Vec<T>> {
        let mut out = alloc::vec![T::default(); len];
        self.read_lanes_checked(&mut out)?;
        Ok(out)
    }

    /// Checks `len` values of `T` without keeping them: the error of
    /// [`Self::read_lanes_checked`], through a stack buffer (a small one for the short
    /// arrays of a struct, so that they do not pay for clearing a large one).
    #[inline]
    fn skip_lanes_checked<T: Lane>(&mut self, len: usize) -> Result<()> {
        if len <= 8 {
            self.skip_lanes_in_blocks::<T, 8>(len)
        } else {
            self.skip_lanes_in_blocks::<T, 256>(len)
        }
    }

    /// [`Self::skip_lanes_checked`] with a buffer of `BLOCK` values.
    #[inline]
    fn skip_lanes_in_blocks<T: Lane, const BLOCK: usize>(&mut self, len: usize) -> Result<()> {
        let start = self.bit_pos();
        let mut buf = [T::default(); BLOCK];
        let mut done = 0;
        while done < len {
            let want = (len - done).min(BLOCK);
            let got = self.read_lanes(&mut buf[..want]);
            if let Some(i) = first_non_canonical(&buf[..got]) {
                return Err(nan_error(start, done + i, buf[i]));
            }
            done += got;
            if got < want {
                let left = self.remaining_bits();
                return Err(truncated_element(start, done, T::BITS, left));
            }
        }
        Ok(())
    }

    /// Checks `len` `f32` values without building them (`verify`): the error
    /// [`Self::read_f32s`] gives for the same input, nothing allocated.
    #[inline]
    pub fn skip_f32s(&mut self, len: usize) -> Result<()> {
        self.skip_lanes_checked::<f32>(len)
    }

    /// Checks `len` `f64` values without building them (`verify`): the error
    /// [`Self::read_f64s`] gives for the same input, nothing allocated.
    #[inline]
    pub fn skip_f64s(&mut self, len: usize) -> Result<()> {
        self.skip_lanes_checked::<f64>(len)
    }

    /// Skips `len` elements of `bits` bits each (`bits > 0`) that need no validation
    /// (the integers of a `[T; N]`): `Truncated` at the first element the input ends
    /// inside, path `[i]`, as element-by-element skips would report it.
    #[inline]
    pub fn skip_elements(&mut self, len: usize, bits: u32) -> Result<()> {
        debug_assert!(bits > 0);
        let left = self.remaining_bits();
        let have = left / u64::from(bits);
        if len as u64 > have {
            let start = self.bit_pos();
            let left = left % u64::from(bits);
            return Err(truncated_element(start, have as usize, bits, left));
        }
        self.skip_bits(len as u64 * u64::from(bits))
    }
}

macro_rules! read_vec {
    ($($name:ident: $t:ty),*) => {
        impl BitReader<'_> {$(
            #[doc = concat!("Reads the `", stringify!($t), "` elements of a `list<", stringify!($t),
                ">` whose length `len` was checked with [`Self::check_len`], into a vector allocated once (zeroed) at its final size. The errors are those of [`Self::read_", stringify!($t), "s`].")]
            #[inline]
            pub fn $name(&mut self, len: usize) -> Result<Vec<$t>> {
                self.read_lanes_vec(len)
            }
        )*}
    };
}

read_vec!(
    read_u16_vec: u16,
    read_i16_vec: i16,
    read_u32_vec: u32,
    read_i32_vec: i32,
    read_u64_vec: u64,
    read_i64_vec: i64,
    read_i8_vec: i8,
    read_f32_vec: f32,
    read_f64_vec: f64
);

/// `Truncated` for element `index` of a sequence of `bits`-bit elements starting at
/// bit `start`, with `left` bits of input left where it starts; path `[index]`.
#[cold]
#[inline(never)]
fn truncated_element(start: u64, index: usize, bits: u32, left: u64) -> Error {
    let at = start + index as u64 * u64::from(bits);
    Error::truncated(at, u64::from(bits), left).at_index(index)
}

/// `NonCanonical` for element `index`, the NaN `value`, of a sequence of floats
/// starting at bit `start`; path `[index]`.
#[cold]
#[inline(never)]
fn nan_error<T: Lane>(start: u64, index: usize, value: T) -> Error {
    let at = start + index as u64 * u64::from(T::BITS);
    Error::non_canonical_nan(at, value.raw_bits(), T::CANONICAL_NAN).at_index(index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use crate::ResultExt;
    use alloc::vec;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Raw wire words for `n` elements of `bits` bits: random, with (for floats) NaN
    /// patterns mixed in, canonical and not.
    fn raw_values(rng: &mut Rng, n: usize, bits: u32, floats: bool) -> Vec<u64> {
        let mask = u64::MAX >> (64 - bits);
        let nans: &[u64] = match (floats, bits) {
            (true, 32) => &[
                0x7FC0_0000,
                0x7FC0_0001,
                0xFFC0_0000,
                0x7F80_0001,
                0x7F80_0000,
            ],
            (true, _) => &[
                0x7FF8_0000_0000_0000,
                0x7FF8_0000_0000_0001,
                0xFFF8_0000_0000_0000,
                0x7FF0_0000_0000_0001,
                0x7FF0_0000_0000_0000,
            ],
            _ => &[],
        };
        (0..n)
            .map(|_| {
                let r = rng.next();
                if !nans.is_empty() && r % 5 == 0 {
                    nans[(r >> 8) as usize % nans.len()]
                } else {
                    r & mask
                }
            })
            .collect()
    }

    /// The element-by-element read of `n` values, as generated code did it.
    fn read_each<T: Lane>(r: &mut BitReader<'_>, n: usize) -> Result<Vec<T>> {
        let mut out = Vec::new();
        for i in 0..n {
            let at = r.bit_pos();
            let raw = r.read_bits(T::BITS).at_index(i)?;
            let v = T::from_wire(raw);
            if v.non_canonical() {
                return Err(Error::new(ErrorKind::NonCanonical, at).at_index(i));
            }
            out.push(v);
        }
        Ok(out)
    }

    fn same_bits<T: Lane>(a: &[T], b: &[T]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_wire() == y.to_wire())
    }

    fn check_lane<T: Lane + core::fmt::Debug>(
        floats: bool,
        write: fn(&mut BitWriter<'_>, &[T]),
        read: fn(&mut BitReader<'_>, &mut [T]) -> Result<()>,
    ) {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ u64::from(T::BITS));
        for lead in 0..=8u32 {
            for n in 0..=20usize {
                let raw = raw_values(&mut rng, n, T::BITS, floats);
                let values: Vec<T> = raw.iter().map(|&b| T::from_wire(b)).collect();

                // Encode: the same bytes as one write per element (NaN made canonical).
                let mut want = Vec::new();
                let mut w = BitWriter::new(&mut want);
                w.write_bits(0x15 & ((1 << lead) - 1), lead);
                for v in &values {
                    w.write_bits(v.to_wire(), T::BITS);
                }
                w.write_bits(1, 3);
                w.finish();
                let mut got = vec![0xEE];
                let mut w = BitWriter::new(&mut got);
                w.write_bits(0x15 & ((1 << lead) - 1), lead);
                write(&mut w, &values);
                assert_eq!(w.bit_pos(), u64::from(lead) + n as u64 * u64::from(T::BITS));
                w.write_bits(1, 3);
                w.finish();
                assert_eq!(&got[1..], &want[..], "encode, lead {lead}, n {n}");

                // Decode the raw patterns (non-canonical NaNs included), whole and cut
                // short at every byte: the same values or the same error.
                let mut input = Vec::new();
                let mut w = BitWriter::new(&mut input);
                w.write_bits(0, lead);
                for &b in &raw {
                    w.write_bits(b, T::BITS);
                }
                w.finish();
                for cut in (0..=input.len()).rev() {
                    let data = &input[..cut];
                    let mut r = BitReader::new(data);
                    if r.skip_bits(u64::from(lead)).is_err() {
                        continue;
                    }
                    let mut r2 = r.clone();
                    let want = read_each::<T>(&mut r2, n);
                    let mut out = vec![T::default(); n];
                    let got = read(&mut r, &mut out).map(|()| out);
                    match (&got, &want) {
                        (Ok(a), Ok(b)) => {
                            assert!(same_bits(a, b), "lead {lead} n {n} cut {cut}");
                            assert_eq!(r.bit_pos(), r2.bit_pos());
                        }
                        _ => assert_eq!(
                            got.as_ref().map(drop),
                            want.as_ref().map(drop),
                            "lead {lead} n {n} cut {cut}"
                        ),
                    }
                }
            }
        }
    }

    #[test]
    fn integers_match_element_by_element() {
        check_lane::<u16>(false, |w, v| w.write_u16s(v), |r, o| r.read_u16s(o));
        check_lane::<i16>(false, |w, v| w.write_i16s(v), |r, o| r.read_i16s(o));
        check_lane::<u32>(false, |w, v| w.write_u32s(v), |r, o| r.read_u32s(o));
        check_lane::<i32>(false, |w, v| w.write_i32s(v), |r, o| r.read_i32s(o));
        check_lane::<u64>(false, |w, v| w.write_u64s(v), |r, o| r.read_u64s(o));
        check_lane::<i64>(false, |w, v| w.write_i64s(v), |r, o| r.read_i64s(o));
        check_lane::<i8>(false, |w, v| w.write_i8s(v), |r, o| r.read_i8s(o));
        check_lane::<u8>(
            false,
            |w, v| w.write_bytes(v),
            |r, o| r.read_lanes_checked(o),
        );
    }

    #[test]
    fn floats_match_element_by_element() {
        check_lane::<f32>(true, |w, v| w.write_f32s(v), |r, o| r.read_f32s(o));
        check_lane::<f64>(true, |w, v| w.write_f64s(v), |r, o| r.read_f64s(o));
    }

    #[test]
    fn float_writes_match_write_f32_and_write_f64() {
        let f: Vec<f32> = [
            0.0,
            -0.0,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7F80_0001),
            1.5,
        ]
        .repeat(5);
        let d: Vec<f64> = f.iter().map(|&x| f64::from(x)).collect();
        for lead in 0..=8 {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut w = BitWriter::new(&mut a);
            w.write_bits(0, lead);
            w.write_f32s(&f);
            w.write_f64s(&d);
            w.finish();
            let mut w = BitWriter::new(&mut b);
            w.write_bits(0, lead);
            f.iter().for_each(|&x| w.write_f32(x));
            d.iter().for_each(|&x| w.write_f64(x));
            w.finish();
            assert_eq!(a, b, "lead {lead}");
        }
    }

    #[test]
    fn skips_report_the_errors_of_reads() {
        let mut rng = Rng(7);
        for lead in 0..=8u32 {
            for n in [0usize, 1, 3, 8, 9, 255, 256, 257, 600] {
                for floats in [false, true] {
                    let raw = raw_values(&mut rng, n, 32, floats);
                    let mut input = Vec::new();
                    let mut w = BitWriter::new(&mut input);
                    w.write_bits(0, lead);
                    raw.iter().for_each(|&b| w.write_bits(b, 32));
                    w.finish();
                    for cut in [input.len(), input.len().saturating_sub(1), input.len() / 2] {
                        let mut r = BitReader::new(&input[..cut]);
                        if r.skip_bits(u64::from(lead)).is_err() {
                            continue;
                        }
                        let mut r2 = r.clone();
                        let mut r3 = r.clone();
                        let mut out = vec![0f32; n];
                        let want = r2.read_f32s(&mut out);
                        assert_eq!(r.skip_f32s(n), want, "lead {lead} n {n} cut {cut}");
                        if want.is_ok() {
                            assert_eq!(r.bit_pos(), r2.bit_pos());
                        }
                        let mut ints = vec![0u32; n];
                        let want = r3.clone().read_u32s(&mut ints);
                        assert_eq!(r3.skip_elements(n, 32), want, "lead {lead} n {n}");
                    }
                }
            }
        }
    }
}
