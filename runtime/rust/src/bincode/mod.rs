//! The bincode encoding (spec §13): the bytes `bincode::serialize` (1.3) and wincode
//! (0.6, default configuration) write for the Rust types generated code declares —
//! fixed-width little-endian integers, `u64` lengths, a `u8` option tag, `u32` variant
//! indexes, nothing between values — with the schema's checks on both sides and the
//! decode budget of §11.5 instead of a hidden size limit.
//!
//! Generated code implements [`Bincode`] (with `bitwire gen --encoding bincode`, or
//! `bitwire_build::Config::bincode(true)`) over a [`ByteWriter`] and a [`ByteReader`];
//! callers use the trait's provided methods:
//!
//! ```ignore
//! use bitwire::Bincode;
//! let mut buf = Vec::new();
//! snapshot.encode_bincode(&mut buf)?;                  // appends; reuse buf
//! let back = Snapshot::decode_bincode(&buf)?;          // default budget
//! let mut reused = Snapshot::default();
//! reused.decode_bincode_into(&buf, &Limits::DEFAULT)?; // reuses reused's Vecs
//! Snapshot::verify_bincode(&buf)?;                     // checks, allocates nothing
//! ```
//!
//! Lists and arrays of numbers whose schema type is their whole Rust type move in bulk
//! ([`Lane`], §13.8).

mod lanes;
mod reader;
mod writer;

use alloc::vec::Vec;

pub use lanes::Lane;
pub use reader::ByteReader;
pub use writer::ByteWriter;

use crate::{Limits, Result};

/// A type with a bincode encoding (spec §13). Generated code implements it for every
/// named type when asked for the bincode encoding: the two constants and the
/// building blocks [`write_bincode`](Bincode::write_bincode),
/// [`read_bincode`](Bincode::read_bincode), and usually
/// [`read_bincode_into`](Bincode::read_bincode_into) and
/// [`check_bincode`](Bincode::check_bincode). Callers use the provided methods; bring
/// the trait into scope (`use bitwire::Bincode;`).
///
/// ```
/// use bitwire::bincode::{ByteReader, ByteWriter};
/// use bitwire::{Bincode, ErrorKind, Result};
///
/// /// A hand-written `{ level: u16 in 0..=1000, name: string }`.
/// #[derive(Debug, PartialEq)]
/// struct Player {
///     level: u16,
///     name: String,
/// }
///
/// impl Bincode for Player {
///     const MIN_BYTES: u64 = 10;
///     const MAX_BYTES: Option<u64> = None;
///
///     fn write_bincode(&self, w: &mut ByteWriter<'_>) -> Result<()> {
///         w.write_u16_in(self.level, 0, 1000)?;
///         w.write_string(&self.name, u64::MAX)
///     }
///
///     fn read_bincode(r: &mut ByteReader<'_>) -> Result<Self> {
///         let level = r.read_u16_in(0, 1000)?;
///         let start = r.pos();
///         let len = r.read_len(u64::MAX, 1, 1)?;
///         let name = r.read_string(len, start)?;
///         Ok(Player { level, name })
///     }
/// }
///
/// let p = Player { level: 300, name: "hi".into() };
/// let bytes = p.encode_bincode_to_vec()?;
/// assert_eq!(bytes, [0x2c, 0x01, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i']);
/// assert_eq!(Player::decode_bincode(&bytes)?, p);
/// let e = Player::decode_bincode(&[0xe9, 0x03]).unwrap_err(); // 1001
/// assert_eq!((e.kind(), e.bit()), (ErrorKind::OutOfRange, 0));
/// # Ok::<(), bitwire::Error>(())
/// ```
pub trait Bincode: Sized {
    /// Fewest bytes any value encodes to.
    const MIN_BYTES: u64;
    /// Most bytes any value encodes to, or `None` when the type holds a list, string
    /// or bytes value without a bound.
    const MAX_BYTES: Option<u64>;

    /// Writes the value at the writer's position. On error the writer may hold part of
    /// the value; [`Bincode::encode_bincode`] removes it.
    fn write_bincode(&self, w: &mut ByteWriter<'_>) -> Result<()>;

    /// Reads a value at the reader's position.
    fn read_bincode(r: &mut ByteReader<'_>) -> Result<Self>;

    /// Reads a value at the reader's position into `self`, reusing the capacity of its
    /// vectors and strings where generated code can. The errors are those of
    /// [`Bincode::read_bincode`]; after an error `self` holds some valid value (part
    /// old, part new). The default reads a new value and assigns it.
    #[inline]
    fn read_bincode_into(&mut self, r: &mut ByteReader<'_>) -> Result<()> {
        *self = Self::read_bincode(r)?;
        Ok(())
    }

    /// Checks a value at the reader's position without building it, leaving the reader
    /// where [`Bincode::read_bincode`] would and failing exactly as it would. Generated
    /// code implements it without allocating; the default reads the value and drops it.
    #[inline]
    fn check_bincode(r: &mut ByteReader<'_>) -> Result<()> {
        Self::read_bincode(r).map(drop)
    }

    /// Appends the value's bincode bytes to `out` and returns how many were written.
    /// Reuse `out` (`out.clear()`) and encoding allocates nothing once it has grown.
    /// On error `out` is left as it was.
    #[inline]
    fn encode_bincode(&self, out: &mut Vec<u8>) -> Result<usize> {
        let len = out.len();
        let mut w = ByteWriter::new(out);
        match self.write_bincode(&mut w) {
            Ok(()) => Ok(w.pos()),
            Err(e) => {
                out.truncate(len);
                Err(e)
            }
        }
    }

    /// The value's bincode bytes in a new vector.
    #[inline]
    fn encode_bincode_to_vec(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.encode_bincode(&mut out)?;
        Ok(out)
    }

    /// Decodes a value from the whole of `bytes` with the default decode budget
    /// (§11.5); bytes after the value are `TrailingData` (§13.5).
    #[inline]
    fn decode_bincode(bytes: &[u8]) -> Result<Self> {
        Self::decode_bincode_with(bytes, &Limits::DEFAULT)
    }

    /// [`Bincode::decode_bincode`] with the decode budget of `limits`.
    #[inline]
    fn decode_bincode_with(bytes: &[u8], limits: &Limits) -> Result<Self> {
        let mut r = ByteReader::with_limits(bytes, limits);
        let value = Self::read_bincode(&mut r)?;
        r.finish()?;
        Ok(value)
    }

    /// Decodes the whole of `bytes` into `self`, reusing its vectors' and strings'
    /// capacity (see [`Bincode::read_bincode_into`]): decoding a stream of messages into
    /// one value allocates nothing once its vectors have grown. Fails exactly when
    /// [`Bincode::decode_bincode_with`] does.
    #[inline]
    fn decode_bincode_into(&mut self, bytes: &[u8], limits: &Limits) -> Result<()> {
        let mut r = ByteReader::with_limits(bytes, limits);
        self.read_bincode_into(&mut r)?;
        r.finish()
    }

    /// Checks that `bytes` is a value's whole bincode encoding without building it
    /// (for generated types, without allocating): `Ok(())` exactly when
    /// [`Bincode::decode_bincode`] succeeds, else the same error.
    #[inline]
    fn verify_bincode(bytes: &[u8]) -> Result<()> {
        Self::verify_bincode_with(bytes, &Limits::DEFAULT)
    }

    /// [`Bincode::verify_bincode`] with the decode budget of `limits`: it fails exactly
    /// when [`Bincode::decode_bincode_with`] does with the same limits.
    #[inline]
    fn verify_bincode_with(bytes: &[u8], limits: &Limits) -> Result<()> {
        let mut r = ByteReader::with_limits(bytes, limits);
        Self::check_bincode(&mut r)?;
        r.finish()
    }
}

#[cfg(test)]
mod tests;
