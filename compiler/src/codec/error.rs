//! Errors of the reference codec, and the field-path builder they carry.
//!
//! Wire errors name a kind of the closed list of spec §7.1 ([`ErrorKind`]), so that the
//! reference codec and every generated codec name the same kind at the same bit offset
//! and path for the same input. The list is the reference codec's own copy: the codec
//! shares no code with the runtimes it is the oracle for, and the conformance tests
//! compare kinds by name. JSON errors have their own closed list, [`JsonErrorKind`],
//! documented in `docs/json-mapping.md`.

use std::fmt;

/// What a packed encoding or decoding problem is (spec §7.1), by its stable name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The input ends inside a value.
    Truncated,
    /// Bytes after the top-level value.
    TrailingData,
    /// A one bit in the final byte's padding.
    InvalidPadding,
    /// A value outside its width, bound or quantization range.
    OutOfRange,
    /// An enum value or union tag the schema does not declare.
    InvalidEnum,
    /// A length above its `max`, or an array of the wrong length.
    InvalidLength,
    /// A string that is not UTF-8.
    InvalidUtf8,
    /// A non-minimal varint or a non-canonical NaN.
    NonCanonical,
    /// A length the platform cannot allocate.
    LimitExceeded,
    /// A keyed list out of key order, or an added key already present (§12.7).
    InvalidKey,
}

impl ErrorKind {
    /// Every kind, in the order of spec §7.1.
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

    /// The kind's stable name, as the spec and the vector files write it.
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
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What went wrong while turning JSON into a [`Value`](super::Value).
///
/// The list is closed and documented in `docs/json-mapping.md`. Range problems of
/// well-typed JSON (300 for a `u8`, a list longer than its `max`) are deliberately *not*
/// here: they reach the encoder and become [`CodecError::Wire`] errors, so that the
/// reference codec and generated codecs report the same wire kind for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonErrorKind {
    /// The input is not valid JSON text (RFC 8259).
    Syntax,
    /// The text is not UTF-8, or a `\u` escape is a lone surrogate.
    InvalidUnicode,
    /// An object names the same member twice.
    DuplicateKey,
    /// Arrays and objects nest deeper than 512 levels.
    TooDeep,
    /// A JSON value of the wrong type for the schema type (a string for a `bool`, a
    /// fraction for an integer, a malformed hex string for `bytes`, an object with
    /// more than one key for a union).
    TypeMismatch,
    /// A struct object lacks a field that is not `optional<T>`.
    MissingField,
    /// A struct object has a key that is not a field of the struct.
    UnknownField,
    /// An enum or union variant name that the schema does not declare.
    UnknownVariant,
    /// A number beyond the binary64 range (for an `f32`, the binary32 range), or a
    /// string that should hold a number (a decimal string for a wide integer, or
    /// `"NaN"`/`"Infinity"`/`"-Infinity"` for a float) and does not parse.
    InvalidNumber,
}

impl JsonErrorKind {
    /// Every kind, in documentation order.
    pub const ALL: [JsonErrorKind; 9] = [
        JsonErrorKind::Syntax,
        JsonErrorKind::InvalidUnicode,
        JsonErrorKind::DuplicateKey,
        JsonErrorKind::TooDeep,
        JsonErrorKind::TypeMismatch,
        JsonErrorKind::MissingField,
        JsonErrorKind::UnknownField,
        JsonErrorKind::UnknownVariant,
        JsonErrorKind::InvalidNumber,
    ];

    /// The kind's stable name.
    pub const fn name(self) -> &'static str {
        match self {
            JsonErrorKind::Syntax => "Syntax",
            JsonErrorKind::InvalidUnicode => "InvalidUnicode",
            JsonErrorKind::DuplicateKey => "DuplicateKey",
            JsonErrorKind::TooDeep => "TooDeep",
            JsonErrorKind::TypeMismatch => "TypeMismatch",
            JsonErrorKind::MissingField => "MissingField",
            JsonErrorKind::UnknownField => "UnknownField",
            JsonErrorKind::UnknownVariant => "UnknownVariant",
            JsonErrorKind::InvalidNumber => "InvalidNumber",
        }
    }
}

impl fmt::Display for JsonErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error of the reference codec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodecError {
    /// The packed encoding rejected a value (encoder) or an input (decoder), exactly as
    /// the spec says: `bit` is the stream offset of the first bit of the failing value
    /// (for the encoder: where the value would have started), `path` its field path
    /// (§7.3), empty at the top level and for §2.2 errors.
    Wire {
        /// The error kind (spec §7.1).
        kind: ErrorKind,
        /// Bit offset in the stream.
        bit: u64,
        /// Field path such as `entities[3].pos.x`.
        path: String,
    },
    /// JSON input could not be mapped onto the schema type (`docs/json-mapping.md`).
    Json {
        /// The error kind.
        kind: JsonErrorKind,
        /// Field path of the offending JSON value, in the same syntax as wire paths.
        path: String,
        /// A human-readable explanation (not part of any contract).
        message: String,
    },
    /// A [`Value`](super::Value) given to [`encode`](super::encode) or
    /// [`value_to_json`](super::value_to_json)-style APIs does not have the shape of
    /// the schema type (a `Bool` where a struct is expected, struct fields out of
    /// order). This is a caller bug: values built by [`value_from_json`](super::value_from_json)
    /// or [`decode`](super::decode) always have the right shape.
    Shape {
        /// Field path of the mismatching value.
        path: String,
        /// What was expected.
        message: String,
    },
}

impl CodecError {
    /// The wire error kind, if this is a wire error.
    pub fn wire_kind(&self) -> Option<ErrorKind> {
        match self {
            CodecError::Wire { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    /// The JSON error kind, if this is a JSON error.
    pub fn json_kind(&self) -> Option<JsonErrorKind> {
        match self {
            CodecError::Json { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    /// The field path of the error.
    pub fn path(&self) -> &str {
        match self {
            CodecError::Wire { path, .. }
            | CodecError::Json { path, .. }
            | CodecError::Shape { path, .. } => path,
        }
    }
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Same shape as the runtime's `bitwire::Error` display, so messages from the
            // reference codec and generated codecs read alike.
            CodecError::Wire { kind, bit, path } => {
                write!(f, "{kind} at bit {bit}")?;
                if !path.is_empty() {
                    write!(f, " in `{path}`")?;
                }
                Ok(())
            }
            CodecError::Json {
                kind,
                path,
                message,
            } => {
                write!(f, "{kind}")?;
                if !path.is_empty() {
                    write!(f, " in `{path}`")?;
                }
                write!(f, ": {message}")
            }
            CodecError::Shape { path, message } => {
                write!(f, "value does not match the schema")?;
                if !path.is_empty() {
                    write!(f, " in `{path}`")?;
                }
                write!(f, ": {message}")
            }
        }
    }
}

impl std::error::Error for CodecError {}

/// A field path under construction (spec §7.3): names joined by `.`, indices as `[i]`.
///
/// Kept as rendered text plus a stack of lengths so that leaving a segment is a plain
/// truncate; errors copy the text as it is at the failing value.
#[derive(Debug, Default, Clone)]
pub(crate) struct Path {
    text: String,
    marks: Vec<usize>,
}

impl Path {
    /// Enters a struct field or union variant.
    pub(crate) fn push_name(&mut self, name: &str) {
        self.marks.push(self.text.len());
        if !self.text.is_empty() {
            self.text.push('.');
        }
        self.text.push_str(name);
    }

    /// Enters an array or list element.
    pub(crate) fn push_index(&mut self, index: usize) {
        self.marks.push(self.text.len());
        self.text.push('[');
        self.text.push_str(&index.to_string());
        self.text.push(']');
    }

    /// Leaves the innermost segment.
    pub(crate) fn pop(&mut self) {
        let mark = self.marks.pop().expect("Path::pop without a matching push");
        self.text.truncate(mark);
    }

    /// The path as text.
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// A wire error at `bit` for the value at this path.
    pub(crate) fn wire(&self, kind: ErrorKind, bit: u64) -> CodecError {
        CodecError::Wire {
            kind,
            bit,
            path: self.text.clone(),
        }
    }

    /// A JSON error for the value at this path.
    pub(crate) fn json(&self, kind: JsonErrorKind, message: impl Into<String>) -> CodecError {
        CodecError::Json {
            kind,
            path: self.text.clone(),
            message: message.into(),
        }
    }

    /// A shape error for the value at this path.
    pub(crate) fn shape(&self, message: impl Into<String>) -> CodecError {
        CodecError::Shape {
            path: self.text.clone(),
            message: message.into(),
        }
    }

    /// A shape error: `value` is not a value of `expected`.
    pub(crate) fn mismatch(&self, expected: &str, value: &super::Value) -> CodecError {
        self.shape(format!(
            "expected {expected}, found a {} value",
            value.shape_name()
        ))
    }

    /// The field values of `value`, a value of the struct `name` with `fields` (in
    /// declaration order), or the shape error an encoder reports when it is not one:
    /// not a struct, or another number of fields. Each field's name is checked by
    /// [`Path::field_name`] as the encoder reaches it.
    pub(crate) fn struct_values<'v>(
        &self,
        name: &str,
        fields: &[crate::ir::Field],
        value: &'v super::Value,
    ) -> Result<&'v [(String, super::Value)], CodecError> {
        let super::Value::Struct(values) = value else {
            return Err(self.mismatch(&format!("struct `{name}`"), value));
        };
        if values.len() != fields.len() {
            return Err(self.shape(format!(
                "struct `{name}` has {} fields, the value has {}",
                fields.len(),
                values.len()
            )));
        }
        Ok(values)
    }

    /// The shape error for a struct value whose field `found` stands where the
    /// struct `owner` declares `field`, or nothing when the names agree.
    pub(crate) fn field_name(
        &self,
        field: &str,
        owner: &str,
        found: &str,
    ) -> Result<(), CodecError> {
        if field == found {
            return Ok(());
        }
        Err(self.shape(format!(
            "expected field `{field}` of `{owner}`, found `{found}`"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_renders_like_the_spec() {
        let mut p = Path::default();
        p.push_name("entities");
        p.push_index(3);
        p.push_name("pos");
        p.push_name("x");
        assert_eq!(p.as_str(), "entities[3].pos.x");
        p.pop();
        p.pop();
        p.pop();
        p.push_index(4);
        assert_eq!(p.as_str(), "entities[4]");
        p.pop();
        p.pop();
        assert_eq!(p.as_str(), "");
        p.push_index(0);
        p.push_name("a");
        assert_eq!(p.as_str(), "[0].a");
    }

    #[test]
    fn display_names_kind_bit_and_path() {
        let e = CodecError::Wire {
            kind: ErrorKind::OutOfRange,
            bit: 14,
            path: "entities[3].health".into(),
        };
        assert_eq!(
            e.to_string(),
            "OutOfRange at bit 14 in `entities[3].health`"
        );
        let e = CodecError::Wire {
            kind: ErrorKind::TrailingData,
            bit: 16,
            path: String::new(),
        };
        assert_eq!(e.to_string(), "TrailingData at bit 16");
    }
}
