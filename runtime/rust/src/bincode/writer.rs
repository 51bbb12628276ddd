//! The byte writer of the bincode encoding (spec §13): little-endian values appended
//! to a caller's `Vec<u8>`, and the encoder's checks (ranges §13.2, bounds §13.3) with
//! their errors at the value's first byte.

use alloc::vec::Vec;

use super::Lane;
use crate::{Detail, Error, ErrorKind, Result};

/// Appends bincode values to a caller's `Vec<u8>` (existing contents kept).
///
/// Reusing the same `Vec` across messages (after `clear()`) makes encoding
/// allocation-free once it has grown to the largest message. Error offsets count from
/// where the writer started, so they are those of the value's own encoding.
pub struct ByteWriter<'a> {
    buf: &'a mut Vec<u8>,
    /// `buf.len()` when the writer was created.
    start: usize,
}

macro_rules! write_ints {
    ($($write:ident, $write_in:ident: $t:ty),*) => {$(
        #[doc = concat!("Writes a `", stringify!($t), "`, little-endian.")]
        #[inline(always)]
        pub fn $write(&mut self, v: $t) {
            self.buf.extend_from_slice(&v.to_le_bytes());
        }

        #[doc = concat!("Writes a `", stringify!($t), "` that the schema allows only in `min..=max` \
            (`u4`, `i12`, bounded integers, §13.2); any other value is `OutOfRange` at this \
            position and nothing is written.")]
        #[inline(always)]
        pub fn $write_in(&mut self, v: $t, min: $t, max: $t) -> Result<()> {
            if !(min..=max).contains(&v) {
                return Err(self.range_error(v.into(), min.into(), max.into()));
            }
            self.$write(v);
            Ok(())
        }
    )*};
}

macro_rules! write_floats {
    ($($write:ident, $write_in:ident: $t:ty),*) => {$(
        #[doc = concat!("Writes an `", stringify!($t), "`: its IEEE 754 bits as they are, \
            little-endian (a NaN keeps its payload, §13.2).")]
        #[inline(always)]
        pub fn $write(&mut self, v: $t) {
            self.buf.extend_from_slice(&v.to_le_bytes());
        }

        #[doc = concat!("Writes a quantized `", stringify!($t), "`, which must lie in \
            `min..=max` (not NaN); otherwise `OutOfRange` at this position and nothing is \
            written. The value is written as it is, not snapped to the grid (§13.2).")]
        #[inline(always)]
        pub fn $write_in(&mut self, v: $t, min: f64, max: f64) -> Result<()> {
            if !(min..=max).contains(&f64::from(v)) {
                return Err(self.float_range_error(v.into(), min, max));
            }
            self.$write(v);
            Ok(())
        }
    )*};
}

impl<'a> ByteWriter<'a> {
    /// A writer that appends to `buf`.
    #[inline]
    pub fn new(buf: &'a mut Vec<u8>) -> Self {
        let start = buf.len();
        ByteWriter { buf, start }
    }

    /// Bytes written so far by this writer.
    #[inline(always)]
    pub fn pos(&self) -> usize {
        self.buf.len() - self.start
    }

    /// [`ByteWriter::pos`] as a bit offset (8 × bytes), the position errors carry.
    #[inline(always)]
    pub fn bit_pos(&self) -> u64 {
        self.pos() as u64 * 8
    }

    write_ints!(
        write_u8, write_u8_in: u8,
        write_u16, write_u16_in: u16,
        write_u32, write_u32_in: u32,
        write_u64, write_u64_in: u64,
        write_i8, write_i8_in: i8,
        write_i16, write_i16_in: i16,
        write_i32, write_i32_in: i32,
        write_i64, write_i64_in: i64
    );

    write_floats!(write_f32, write_f32_in: f32, write_f64, write_f64_in: f64);

    /// Writes a `bool`: one byte, `00` or `01`.
    #[inline(always)]
    pub fn write_bool(&mut self, v: bool) {
        self.buf.push(u8::from(v));
    }

    /// Writes an `optional`'s tag: `00` absent, `01` present (§13.4).
    #[inline(always)]
    pub fn write_option_tag(&mut self, present: bool) {
        self.buf.push(u8::from(present));
    }

    /// Writes an enum's or union's variant index, a `u32` (§13.4).
    #[inline(always)]
    pub fn write_index(&mut self, index: u32) {
        self.write_u32(index);
    }

    /// Writes the `u64` length of a list, string or bytes value (§13.3); `max` is the
    /// schema's bound (`u64::MAX` for none): a longer value is `InvalidLength` at this
    /// position and nothing is written.
    #[inline(always)]
    pub fn write_len(&mut self, len: usize, max: u64) -> Result<()> {
        let len = len as u64;
        if len > max {
            return Err(Error::invalid_length(self.bit_pos(), len, max));
        }
        self.write_u64(len);
        Ok(())
    }

    /// Writes a `string`: its `u64` byte length (at most `max`, see
    /// [`ByteWriter::write_len`]), then its UTF-8.
    #[inline]
    pub fn write_string(&mut self, s: &str, max: u64) -> Result<()> {
        self.write_len(s.len(), max)?;
        self.buf.extend_from_slice(s.as_bytes());
        Ok(())
    }

    /// Writes a `bytes` value: its `u64` length (at most `max`), then the bytes.
    #[inline]
    pub fn write_bytes(&mut self, b: &[u8], max: u64) -> Result<()> {
        self.write_len(b.len(), max)?;
        self.buf.extend_from_slice(b);
        Ok(())
    }

    /// Writes the values of a list or array of numbers without a length, all at once
    /// (one copy on a little-endian host, §13.8).
    #[inline]
    pub fn write_lanes<T: Lane>(&mut self, values: &[T]) {
        T::extend(self.buf, values);
    }

    /// Writes a list of numbers: its `u64` length (at most `max`), then the values in
    /// bulk.
    #[inline]
    pub fn write_lane_list<T: Lane>(&mut self, values: &[T], max: u64) -> Result<()> {
        self.write_len(values.len(), max)?;
        T::extend(self.buf, values);
        Ok(())
    }

    /// `OutOfRange` at this position for the integer `value` outside `min..=max`.
    #[cold]
    #[inline(never)]
    pub fn range_error(&self, value: i128, min: i128, max: i128) -> Error {
        Error::out_of_range(self.bit_pos(), value, min, max)
    }

    /// `OutOfRange` at this position for the float `value` outside `min..=max` or NaN.
    #[cold]
    #[inline(never)]
    pub fn float_range_error(&self, value: f64, min: f64, max: f64) -> Error {
        let detail = Detail::FloatRange {
            value: value.to_bits(),
            min: min.to_bits(),
            max: max.to_bits(),
        };
        Error::new(ErrorKind::OutOfRange, self.bit_pos()).with_detail(detail)
    }
}
