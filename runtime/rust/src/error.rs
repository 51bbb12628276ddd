//! The error type shared by every generated codec (spec §7).
//!
//! Kinds are the contract: the same closed list exists in every bitwire runtime and in
//! the reference codec, and the shared vector suites name them. Messages are not.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// What went wrong. The list is closed on the wire (spec §7); the enum is
/// `#[non_exhaustive]` so that adding a kind in a later format version is not a
/// breaking change for Rust callers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before the value was complete.
    Truncated,
    /// Bytes remain after the end of a top-level message.
    TrailingData,
    /// The padding bits after the last field of a message are not all zero.
    InvalidPadding,
    /// A value does not fit its declared width, bound or quantization range.
    OutOfRange,
    /// An enum value or union tag that the schema does not declare.
    InvalidEnum,
    /// A length above the declared `max`, or an array of the wrong length (encode).
    InvalidLength,
    /// A `string` whose bytes are not valid UTF-8.
    InvalidUtf8,
    /// A value written in a form the encoder never produces (non-minimal varint, a NaN
    /// other than the canonical quiet NaN).
    NonCanonical,
    /// A decoder resource limit was hit (a length that cannot fit in memory).
    LimitExceeded,
    /// A keyed list whose keys are not strictly ascending, or a delta's added element
    /// whose key is out of order or already in the baseline (spec §12.7).
    InvalidKey,
}

impl ErrorKind {
    /// Every kind, in spec order.
    pub const ALL: [ErrorKind; 10] = [
        ErrorKind::Truncated,
        ErrorKind::TrailingData,
        ErrorKind::InvalidPadding,
        ErrorKind::OutOfRange,
        ErrorKind::InvalidEnum,
        ErrorKind::InvalidLength,
        ErrorKind::InvalidUtf8,
        ErrorKind::NonCanonical,
        ErrorKind::LimitExceeded,
        ErrorKind::InvalidKey,
    ];

    /// The kind's stable name, as used in vector files and by every runtime.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::Truncated => "Truncated",
            ErrorKind::TrailingData => "TrailingData",
            ErrorKind::InvalidPadding => "InvalidPadding",
            ErrorKind::OutOfRange => "OutOfRange",
            ErrorKind::InvalidEnum => "InvalidEnum",
            ErrorKind::InvalidLength => "InvalidLength",
            ErrorKind::InvalidUtf8 => "InvalidUtf8",
            ErrorKind::NonCanonical => "NonCanonical",
            ErrorKind::LimitExceeded => "LimitExceeded",
            ErrorKind::InvalidKey => "InvalidKey",
        }
    }

    /// Parses a stable kind name.
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// A struct field or union variant name.
    Field(&'static str),
    /// An array or list index.
    Index(usize),
}

/// A codec error: kind, the bit offset where the offending value starts, and the path
/// of the field from the top-level value (`snapshot.entities[3].health`).
///
/// Boxed so that `Result<T, Error>` stays one word wide on the happy path.
///
/// Two errors are equal when their kind, bit and path are: those are the contract every
/// bitwire codec agrees on. The [`Detail`] is for messages and not compared.
#[derive(Clone)]
pub struct Error(Box<Inner>);

impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        self.0.kind == other.0.kind
            && self.0.bit == other.0.bit
            && self.0.rev_path == other.0.rev_path
    }
}

impl Eq for Error {}

#[derive(Clone)]
struct Inner {
    kind: ErrorKind,
    bit: u64,
    /// Innermost segment first: generated code appends while the error unwinds.
    rev_path: Vec<PathSegment>,
    detail: Detail,
}

/// What the offending value was and what it had to be, for messages
/// (`OutOfRange at bit 37, Entity.health: 1200 not in 0..=1000`). Not part of the
/// contract: vectors and tests compare kind, bit and path only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Detail {
    /// Nothing more is known.
    None,
    /// An integer outside `min..=max`.
    Range {
        /// The value.
        value: i128,
        /// Smallest allowed value.
        min: i128,
        /// Largest allowed value.
        max: i128,
    },
    /// A float outside `min..=max`, or NaN (the fields hold `f64` bit patterns).
    FloatRange {
        /// The value's bits.
        value: u64,
        /// The smallest allowed value's bits.
        min: u64,
        /// The largest allowed value's bits.
        max: u64,
    },
    /// A quantized integer above the number of steps.
    Steps {
        /// The stored integer.
        q: u64,
        /// The largest valid one.
        steps: u64,
    },
    /// An enum value or union tag the schema does not declare.
    Undeclared {
        /// The value.
        value: u64,
    },
    /// A length above its bound, or a sequence of the wrong length.
    Length {
        /// The length.
        len: u64,
        /// The bound (or the required length of a fixed array).
        max: u64,
    },
    /// More input needed than there is.
    Bits {
        /// Bits the value needs at least.
        need: u64,
        /// Bits left in the input.
        left: u64,
    },
    /// A decode budget exceeded (spec §11).
    Budget {
        /// Bytes the allocation is charged.
        need: u64,
        /// Bytes left in the budget.
        left: u64,
    },
    /// Padding bits after a top-level value that are not zero (spec §2.2).
    Padding {
        /// The padding bits, the first one in bit 0.
        value: u64,
        /// How many padding bits there are (1 to 7).
        bits: u32,
    },
    /// Bytes after the end of a top-level value (spec §2.2).
    Trailing {
        /// How many bytes follow the value.
        bytes: u64,
    },
    /// A NaN other than the canonical one (spec §3.2).
    Nan {
        /// The NaN's bits (`f32` NaNs in the low 32 bits).
        bits: u64,
        /// The canonical NaN's bits, the only NaN the wire carries.
        canonical: u64,
    },
    /// A varint in more groups than its value needs (spec §5.4).
    Varint {
        /// The value.
        value: u64,
        /// Groups it was written in.
        groups: u32,
        /// Groups its minimal form takes.
        minimal: u32,
    },
    /// A string whose bytes are not UTF-8 (spec §5.6).
    Utf8 {
        /// Index in the string of the first byte that is not valid UTF-8.
        index: u64,
        /// That byte.
        byte: u8,
    },
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Detail::None => Ok(()),
            Detail::Range { value, min, max } => write!(f, "{value} not in {min}..={max}"),
            Detail::FloatRange { value, min, max } => write!(
                f,
                "{:?} not in {:?}..={:?}",
                f64::from_bits(value),
                f64::from_bits(min),
                f64::from_bits(max)
            ),
            Detail::Steps { q, steps } => write!(f, "stored {q} above the last step {steps}"),
            Detail::Undeclared { value } => write!(f, "{value} is not declared"),
            Detail::Length { len, max } => write!(f, "length {len}, at most {max}"),
            Detail::Bits { need, left } => write!(f, "needs {need} bits, {left} left"),
            Detail::Budget { need, left } => {
                write!(f, "needs {need} bytes, {left} left in the decode budget")
            }
            Detail::Padding { value, bits } => {
                write!(f, "padding {value:#b} in {bits} bits, must be zero")
            }
            Detail::Trailing { bytes: 1 } => f.write_str("1 byte after the end"),
            Detail::Trailing { bytes } => write!(f, "{bytes} bytes after the end"),
            Detail::Nan { bits, canonical } => {
                write!(f, "NaN {bits:#x}, the canonical NaN is {canonical:#x}")
            }
            Detail::Varint {
                value,
                groups,
                minimal,
            } => write!(f, "{value} in {groups} groups, minimal is {minimal}"),
            Detail::Utf8 { index, byte } => {
                write!(f, "byte {index} ({byte:#04x}) is not valid UTF-8")
            }
        }
    }
}

impl Error {
    /// A new error of `kind` at stream bit `bit`, with an empty path.
    #[cold]
    pub fn new(kind: ErrorKind, bit: u64) -> Error {
        Error(Box::new(Inner {
            kind,
            bit,
            rev_path: Vec::new(),
            detail: Detail::None,
        }))
    }

    /// The error with `detail` attached (what the value was, what it had to be).
    #[cold]
    pub fn with_detail(mut self, detail: Detail) -> Error {
        self.0.detail = detail;
        self
    }

    /// An `OutOfRange` error at `bit` for the integer `value` outside `min..=max`.
    #[cold]
    #[inline(never)]
    pub fn out_of_range(bit: u64, value: i128, min: i128, max: i128) -> Error {
        Error::new(ErrorKind::OutOfRange, bit).with_detail(Detail::Range { value, min, max })
    }

    /// An `InvalidLength` error at `bit` for a length `len` above its bound `max`.
    #[cold]
    #[inline(never)]
    pub fn invalid_length(bit: u64, len: u64, max: u64) -> Error {
        Error::new(ErrorKind::InvalidLength, bit).with_detail(Detail::Length { len, max })
    }

    /// A `Truncated` error at `bit` for a value that needs at least `need` bits when
    /// `left` bits of input are left.
    #[cold]
    #[inline(never)]
    pub fn truncated(bit: u64, need: u64, left: u64) -> Error {
        Error::new(ErrorKind::Truncated, bit).with_detail(Detail::Bits { need, left })
    }

    /// An `InvalidEnum` error at `bit` for the undeclared enum value, union tag or
    /// message id `value`.
    #[cold]
    #[inline(never)]
    pub fn undeclared(bit: u64, value: u64) -> Error {
        Error::new(ErrorKind::InvalidEnum, bit).with_detail(Detail::Undeclared { value })
    }

    /// A `NonCanonical` error at `bit` for a NaN of bits `bits` whose canonical form
    /// is `canonical`.
    #[cold]
    #[inline(never)]
    pub fn non_canonical_nan(bit: u64, bits: u64, canonical: u64) -> Error {
        Error::new(ErrorKind::NonCanonical, bit).with_detail(Detail::Nan { bits, canonical })
    }

    /// The error moved to stream bit `bit`, kind, path and detail kept. A delta
    /// encoder's errors name no bit (spec §12.7): it reports them at bit 0.
    #[cold]
    pub fn with_bit(mut self, bit: u64) -> Error {
        self.0.bit = bit;
        self
    }

    /// What the offending value was, if known.
    pub fn detail(&self) -> Detail {
        self.0.detail
    }

    /// The error kind.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The bit offset in the stream where the offending value starts.
    pub fn bit(&self) -> u64 {
        self.0.bit
    }

    /// The field path, outermost segment first.
    pub fn path(&self) -> impl Iterator<Item = &PathSegment> {
        self.0.rev_path.iter().rev()
    }

    /// The field path rendered as `a.b[3].c` (empty at the top level).
    pub fn path_string(&self) -> String {
        let mut s = String::new();
        for seg in self.path() {
            match seg {
                PathSegment::Field(name) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(name);
                }
                PathSegment::Index(i) => {
                    use core::fmt::Write;
                    let _ = write!(s, "[{i}]");
                }
            }
        }
        s
    }

    /// Prepends a field name to the path (called by generated code while unwinding).
    #[cold]
    pub fn in_field(mut self, name: &'static str) -> Error {
        self.0.rev_path.push(PathSegment::Field(name));
        self
    }

    /// Prepends an element index to the path (called by generated code while unwinding).
    #[cold]
    pub fn at_index(mut self, index: usize) -> Error {
        self.0.rev_path.push(PathSegment::Index(index));
        self
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.kind())
            .field("bit", &self.bit())
            .field("path", &self.path_string())
            .field("detail", &self.0.detail)
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at bit {}", self.kind(), self.bit())?;
        let path = self.path_string();
        if !path.is_empty() {
            write!(f, ", {path}")?;
        }
        if self.0.detail != Detail::None {
            write!(f, ": {}", self.0.detail)?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// Shorthand for results of codec operations.
pub type Result<T, E = Error> = core::result::Result<T, E>;
