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
}

impl ErrorKind {
    /// Every kind, in spec order.
    pub const ALL: [ErrorKind; 9] = [
        ErrorKind::Truncated,
        ErrorKind::TrailingData,
        ErrorKind::InvalidPadding,
        ErrorKind::OutOfRange,
        ErrorKind::InvalidEnum,
        ErrorKind::InvalidLength,
        ErrorKind::InvalidUtf8,
        ErrorKind::NonCanonical,
        ErrorKind::LimitExceeded,
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
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    bit: u64,
    /// Innermost segment first: generated code appends while the error unwinds.
    rev_path: Vec<PathSegment>,
}

impl Error {
    /// A new error of `kind` at stream bit `bit`, with an empty path.
    #[cold]
    pub fn new(kind: ErrorKind, bit: u64) -> Error {
        Error(Box::new(Inner {
            kind,
            bit,
            rev_path: Vec::new(),
        }))
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
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at bit {}", self.kind(), self.bit())?;
        let path = self.path_string();
        if !path.is_empty() {
            write!(f, " in `{path}`")?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// Shorthand for results of codec operations.
pub type Result<T, E = Error> = core::result::Result<T, E>;
