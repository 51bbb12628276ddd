//! The byte reader of the bincode encoding (spec §13): little-endian values from a
//! slice, the decoder's checks in the order §13.3 fixes, and the decode budget of
//! §11.5. Every error is at the failing value's first byte (bit = 8 × byte offset).

use alloc::string::String;
use alloc::vec::Vec;

use super::lanes::set_len;
use super::Lane;
use crate::limits::charge;
use crate::{Detail, Error, ErrorKind, Limits, Result};

/// Reads bincode values from a byte slice, with a decode budget (spec §11.5).
///
/// Every read is bounds-checked; running out of input is `Truncated` at the first
/// byte of the value that ran out. A failed read leaves the reader where the value
/// started.
pub struct ByteReader<'a> {
    data: &'a [u8],
    pos: usize,
    /// Bytes of the decode budget left.
    budget: u64,
}

/// `Truncated` at byte `at` for a value of `need` bytes with `left` left.
#[cold]
#[inline(never)]
fn truncated(at: usize, need: u64, left: usize) -> Error {
    let (need, left) = (need.saturating_mul(8), left as u64 * 8);
    Error::truncated(at as u64 * 8, need, left)
}

/// `OutOfRange` at byte `at` for the float `value` outside `min..=max` or NaN.
#[cold]
#[inline(never)]
fn float_out_of_range(at: usize, value: f64, min: f64, max: f64) -> Error {
    let detail = Detail::FloatRange {
        value: value.to_bits(),
        min: min.to_bits(),
        max: max.to_bits(),
    };
    Error::new(ErrorKind::OutOfRange, at as u64 * 8).with_detail(detail)
}

/// `InvalidUtf8` for the string at byte `start` whose byte `index`, `byte`, is where
/// its UTF-8 goes wrong.
#[cold]
#[inline(never)]
fn invalid_utf8(start: usize, e: core::str::Utf8Error, bytes: &[u8]) -> Error {
    let index = e.valid_up_to();
    let detail = Detail::Utf8 {
        index: index as u64,
        byte: bytes[index],
    };
    Error::new(ErrorKind::InvalidUtf8, start as u64 * 8).with_detail(detail)
}

macro_rules! read_ints {
    ($($read:ident, $read_in:ident: $t:ty),*) => {$(
        #[doc = concat!("Reads a `", stringify!($t), "`, little-endian.")]
        #[inline(always)]
        pub fn $read(&mut self) -> Result<$t> {
            Ok(<$t>::from_le_bytes(self.take()?))
        }

        #[doc = concat!("Reads a `", stringify!($t), "` that the schema allows only in \
            `min..=max` (`u4`, `i12`, bounded integers, §13.2); any other value is \
            `OutOfRange` at its first byte.")]
        #[inline(always)]
        pub fn $read_in(&mut self, min: $t, max: $t) -> Result<$t> {
            let v = <$t>::from_le_bytes(self.take()?);
            if !(min..=max).contains(&v) {
                let at = (self.pos - core::mem::size_of::<$t>()) as u64 * 8;
                return Err(Error::out_of_range(at, v.into(), min.into(), max.into()));
            }
            Ok(v)
        }
    )*};
}

macro_rules! read_floats {
    ($($read:ident, $read_in:ident: $t:ty),*) => {$(
        #[doc = concat!("Reads an `", stringify!($t), "`: any bits, a NaN's payload kept (§13.2).")]
        #[inline(always)]
        pub fn $read(&mut self) -> Result<$t> {
            Ok(<$t>::from_le_bytes(self.take()?))
        }

        #[doc = concat!("Reads a quantized `", stringify!($t), "`, which must lie in \
            `min..=max` (NaN does not): otherwise `OutOfRange` at its first byte. Values \
            off the quantization grid are accepted (§13.2).")]
        #[inline(always)]
        pub fn $read_in(&mut self, min: f64, max: f64) -> Result<$t> {
            let v = <$t>::from_le_bytes(self.take()?);
            if !(min..=max).contains(&f64::from(v)) {
                let at = self.pos - core::mem::size_of::<$t>();
                return Err(float_out_of_range(at, v.into(), min, max));
            }
            Ok(v)
        }
    )*};
}

impl<'a> ByteReader<'a> {
    /// A reader at the first byte of `data` with the default decode budget for an
    /// input of that length ([`Limits::DEFAULT`]).
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        ByteReader::with_limits(data, &Limits::DEFAULT)
    }

    /// A reader at the first byte of `data` whose decode budget is what `limits` gives
    /// for an input of that length.
    #[inline]
    pub fn with_limits(data: &'a [u8], limits: &Limits) -> Self {
        ByteReader {
            data,
            pos: 0,
            budget: limits.budget(data.len()),
        }
    }

    /// Bytes read so far.
    #[inline(always)]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// [`ByteReader::pos`] as a bit offset (8 × bytes), the position errors carry.
    #[inline(always)]
    pub fn bit_pos(&self) -> u64 {
        self.pos as u64 * 8
    }

    /// Bytes of input left.
    #[inline(always)]
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Bytes left in the decode budget.
    #[inline]
    pub fn budget_left(&self) -> u64 {
        self.budget
    }

    /// The next `N` bytes, or `Truncated` here.
    #[inline(always)]
    fn take<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.data.get(self.pos..self.pos + N) {
            Some(b) => {
                let mut out = [0u8; N];
                out.copy_from_slice(b);
                self.pos += N;
                Ok(out)
            }
            None => Err(truncated(self.pos, N as u64, self.remaining())),
        }
    }

    /// The next `len` bytes as a slice of the input, or `Truncated` here.
    #[inline(always)]
    fn take_slice(&mut self, len: usize) -> Result<&'a [u8]> {
        let data = self.data;
        match self
            .pos
            .checked_add(len)
            .and_then(|end| data.get(self.pos..end))
        {
            Some(b) => {
                self.pos += len;
                Ok(b)
            }
            None => Err(truncated(self.pos, len as u64, self.remaining())),
        }
    }

    read_ints!(
        read_u8, read_u8_in: u8,
        read_u16, read_u16_in: u16,
        read_u32, read_u32_in: u32,
        read_u64, read_u64_in: u64,
        read_i8, read_i8_in: i8,
        read_i16, read_i16_in: i16,
        read_i32, read_i32_in: i32,
        read_i64, read_i64_in: i64
    );

    read_floats!(read_f32, read_f32_in: f32, read_f64, read_f64_in: f64);

    /// Reads a `bool`: `00` or `01`; any other byte is `OutOfRange` (§13.2).
    #[inline(always)]
    pub fn read_bool(&mut self) -> Result<bool> {
        match self.read_u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(Error::out_of_range(
                (self.pos - 1) as u64 * 8,
                b.into(),
                0,
                1,
            )),
        }
    }

    /// Reads an `optional`'s tag: `00` absent, `01` present; any other byte is
    /// `InvalidEnum` (§13.4).
    #[inline(always)]
    pub fn read_option_tag(&mut self) -> Result<bool> {
        match self.read_u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(Error::undeclared((self.pos - 1) as u64 * 8, b.into())),
        }
    }

    /// Reads an enum's or union's variant index, a `u32` below `count` (the number of
    /// variants); any other is `InvalidEnum` at its first byte (§13.4).
    #[inline(always)]
    pub fn read_index(&mut self, count: u32) -> Result<u32> {
        let index = self.read_u32()?;
        if index >= count {
            return Err(Error::undeclared((self.pos - 4) as u64 * 8, index.into()));
        }
        Ok(index)
    }

    /// Reads the `u64` length `L` of a list, string or bytes value and checks it before
    /// anything is allocated, in the order of §13.3, every error at the length's first
    /// byte: `L > max` (`u64::MAX` for no bound) is `InvalidLength`; `L` values of at
    /// least `elem_min_bytes` each (1 for strings and bytes) not fitting in the input
    /// left is `Truncated`; the charge `L · charge_per_elem + 32` (§11.5) above the
    /// budget left, or `L` above `usize::MAX`, is `LimitExceeded`. The charge is taken
    /// from the budget.
    #[inline]
    pub fn read_len(
        &mut self,
        max: u64,
        elem_min_bytes: u64,
        charge_per_elem: u64,
    ) -> Result<usize> {
        let start = self.pos;
        let len = self.read_u64()?;
        let at = start as u64 * 8;
        if len > max {
            return Err(Error::invalid_length(at, len, max));
        }
        let left = self.remaining();
        if len
            .checked_mul(elem_min_bytes)
            .is_none_or(|need| need > left as u64)
        {
            return Err(truncated(start, len.saturating_mul(elem_min_bytes), left));
        }
        let cost = charge(len, charge_per_elem);
        if cost > self.budget {
            let detail = Detail::Budget {
                need: cost,
                left: self.budget,
            };
            return Err(Error::new(ErrorKind::LimitExceeded, at).with_detail(detail));
        }
        self.budget -= cost;
        usize::try_from(len).map_err(|_| {
            let detail = Detail::Length {
                len,
                max: usize::MAX as u64,
            };
            Error::new(ErrorKind::LimitExceeded, at).with_detail(detail)
        })
    }

    /// Reads the `len` bytes (checked by [`ByteReader::read_len`]) of a string whose
    /// value started at byte `start`: invalid UTF-8 is `InvalidUtf8` there.
    #[inline]
    pub fn read_string(&mut self, len: usize, start: usize) -> Result<String> {
        let mut s = String::new();
        self.read_string_into(&mut s, len, start)?;
        Ok(s)
    }

    /// [`ByteReader::read_string`] into `s`, reusing its capacity (`s` is replaced;
    /// on error it is left as it was).
    #[inline]
    pub fn read_string_into(&mut self, s: &mut String, len: usize, start: usize) -> Result<()> {
        let bytes = self.take_slice(len)?;
        match core::str::from_utf8(bytes) {
            Ok(text) => {
                s.clear();
                // Exactly `len` when it must grow (no doubling): what the budget charged.
                s.reserve_exact(len);
                s.push_str(text);
                Ok(())
            }
            Err(e) => Err(invalid_utf8(start, e, bytes)),
        }
    }

    /// Checks a string of `len` bytes that started at byte `start` without copying it:
    /// the error [`ByteReader::read_string`] gives.
    #[inline]
    pub fn skip_string(&mut self, len: usize, start: usize) -> Result<()> {
        let bytes = self.take_slice(len)?;
        core::str::from_utf8(bytes).map_err(|e| invalid_utf8(start, e, bytes))?;
        Ok(())
    }

    /// Skips `len` bytes (a `bytes` value's contents, a list of numbers in `check`):
    /// `Truncated` here when fewer are left.
    #[inline]
    pub fn skip(&mut self, len: usize) -> Result<()> {
        self.take_slice(len).map(drop)
    }

    /// Reads `len` values of a list of numbers (a length checked by
    /// [`ByteReader::read_len`]) into a new vector, in bulk (§13.8).
    #[inline]
    pub fn read_lanes<T: Lane>(&mut self, len: usize) -> Result<Vec<T>> {
        let bytes = self.take_slice(len.saturating_mul(T::BYTES))?;
        let mut v = alloc::vec![T::default(); len];
        T::fill(&mut v, bytes);
        Ok(v)
    }

    /// [`ByteReader::read_lanes`] into `v`, reusing its capacity (on error `v` is left
    /// as it was).
    #[inline]
    pub fn read_lanes_into<T: Lane>(&mut self, v: &mut Vec<T>, len: usize) -> Result<()> {
        let bytes = self.take_slice(len.saturating_mul(T::BYTES))?;
        set_len(v, len);
        T::fill(v, bytes);
        Ok(())
    }

    /// Fills `out`, an array of numbers, in bulk. When the input ends inside it, the
    /// error is `Truncated` at the first element that is not all there, with its index
    /// as the path (`[i]`), as an element-by-element read would report; `out` is then
    /// unchanged.
    #[inline]
    pub fn fill_lanes<T: Lane>(&mut self, out: &mut [T]) -> Result<()> {
        let bytes = self.take_lanes::<T>(out.len())?;
        T::fill(out, bytes);
        Ok(())
    }

    /// Checks that an array (or checked list) of `n` numbers is all there and moves
    /// past it: the error [`ByteReader::fill_lanes`] gives.
    #[inline]
    pub fn skip_lanes<T: Lane>(&mut self, n: usize) -> Result<()> {
        self.take_lanes::<T>(n).map(drop)
    }

    /// The bytes of `n` values of `T`, or `Truncated` at the first incomplete one.
    #[inline(always)]
    fn take_lanes<T: Lane>(&mut self, n: usize) -> Result<&'a [u8]> {
        let need = n.saturating_mul(T::BYTES);
        let left = self.remaining();
        if need > left {
            let index = left / T::BYTES;
            let at = self.pos + index * T::BYTES;
            let e = truncated(at, T::BYTES as u64, left - index * T::BYTES);
            return Err(e.at_index(index));
        }
        self.take_slice(need)
    }

    /// Ends a top-level decode (§13.5): bytes after the value are `TrailingData` at the
    /// first of them.
    #[inline]
    pub fn finish(&self) -> Result<()> {
        let left = self.remaining();
        if left != 0 {
            let detail = Detail::Trailing { bytes: left as u64 };
            return Err(Error::new(ErrorKind::TrailingData, self.bit_pos()).with_detail(detail));
        }
        Ok(())
    }
}
