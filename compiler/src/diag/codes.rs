//! The closed list of diagnostic codes. Codes are stable: a code is never reused
//! for a different problem, and `docs/diagnostics.md` has a row for every one
//! (a test checks that). Groups: E01xx lexing and syntax, E02xx names, imports
//! and cycles, E03xx type checks, E04xx layout.

macro_rules! codes {
    ($( $(#[doc = $doc:literal])* $name:ident = $code:literal, $title:literal; )*) => {
        /// A stable diagnostic code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $(#[doc = $doc])* $name, )*
        }

        impl Code {
            /// Every code, in numeric order.
            pub const ALL: &'static [Code] = &[$(Code::$name),*];

            /// The code as written in diagnostics, e.g. `E0201`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$name => $code,)* }
            }

            /// A short description of the problem class (used in docs/diagnostics.md).
            pub fn title(self) -> &'static str {
                match self { $(Code::$name => $title,)* }
            }
        }
    };
}

codes! {
    /// A character that cannot start any token.
    UnexpectedChar = "E0101", "unexpected character";
    /// A string literal without its closing quote on the same line.
    UnterminatedString = "E0102", "unterminated string literal";
    /// An unknown escape sequence in a string literal.
    InvalidEscape = "E0103", "invalid escape in string literal";
    /// A malformed or out-of-range number literal.
    InvalidNumber = "E0104", "invalid number literal";
    /// The parser expected something else here.
    UnexpectedToken = "E0105", "unexpected token";
    /// `a..b` instead of `a..=b`.
    HalfOpenRange = "E0106", "half-open range";
    /// A doc comment that is not followed by a documentable item.
    DanglingDocComment = "E0107", "doc comment documents nothing";
    /// A type expression nested more than 64 levels deep.
    TypeNestingTooDeep = "E0108", "type expression nested too deeply";
    /// More than 1,000 lexing or syntax errors in one file: the rest is skipped.
    TooManyErrors = "E0109", "too many errors";

    /// A type name that is not declared or not in scope.
    UnknownType = "E0201", "unknown type";
    /// A constant name that is not declared or not in scope.
    UnknownConst = "E0202", "unknown constant";
    /// Two declarations with the same name.
    DuplicateDecl = "E0203", "duplicate declaration";
    /// Two fields of a struct with the same name.
    DuplicateField = "E0204", "duplicate field";
    /// Two variants of an enum or union with the same name.
    DuplicateVariant = "E0205", "duplicate variant";
    /// An imported file that cannot be read.
    ImportNotFound = "E0206", "import not found";
    /// Files that import each other, directly or not.
    ImportCycle = "E0207", "import cycle";
    /// A type that contains itself.
    RecursiveType = "E0208", "recursive type";
    /// Constants whose values depend on each other.
    ConstCycle = "E0209", "cyclic constant";
    /// A declaration named like a built-in type.
    ReservedName = "E0210", "reserved name";
    /// A constant used as a type, or a type used as a value.
    WrongNameKind = "E0211", "wrong kind of name";
    /// An import path that is empty, absolute or not a `.bw` file.
    InvalidImportPath = "E0212", "invalid import path";

    /// An integer width outside 1..=64, or an unsupported float or varint width.
    InvalidWidth = "E0301", "invalid width";
    /// A constant of a type constants cannot have.
    InvalidConstType = "E0302", "invalid constant type";
    /// A value of the wrong kind (a float where an integer is needed, ...).
    TypeMismatch = "E0303", "mismatched value";
    /// A value outside the range of its type or context.
    ValueOutOfRange = "E0304", "value out of range";
    /// A range whose minimum is above its maximum.
    EmptyRange = "E0305", "empty range";
    /// `in`, `bits` or `step` on a type that does not take them.
    InvalidRefinement = "E0306", "invalid range or quantization";
    /// A quantization bit count outside the float type's range.
    InvalidQuantBits = "E0307", "invalid quantization bits";
    /// A quantization step that is not positive or does not divide the range.
    InvalidQuantStep = "E0308", "invalid quantization step";
    /// A quantization grid finer than the float type can represent.
    QuantTooFine = "E0309", "quantization finer than float precision";
    /// A list whose element type can encode to zero bits.
    ZeroWidthListElement = "E0310", "list of zero-width elements";
    /// An array length or `max` bound of 0 or too large.
    InvalidLength = "E0311", "invalid length";
    /// Two enum values or union tags that are equal.
    DuplicateTag = "E0312", "duplicate tag value";
    /// An enum value or union tag that does not fit the declared tag width.
    TagTooWide = "E0313", "tag does not fit";
    /// A declared tag type that is not `uN`.
    InvalidTagType = "E0314", "invalid tag type";
    /// An enum or union without variants.
    NoVariants = "E0315", "no variants";
    /// A message id outside `0..2^31`.
    MessageIdOutOfRange = "E0316", "message id out of range";
    /// Two messages with the same id.
    DuplicateMessageId = "E0317", "duplicate message id";
    /// `optional<optional<T>>`: absent and present-but-absent would both be JSON `null`.
    NestedOptional = "E0318", "nested optional";
    /// A list key that is not an integer or enum field of the element struct (spec §12.1).
    InvalidListKey = "E0319", "invalid list key";

    /// A type whose encoded size in bits does not fit in 64 bits.
    SizeOverflow = "E0401", "size overflow";
    /// A type nested more than 64 levels deep (spec §11).
    TypeTooDeep = "E0402", "type nested too deeply";
    /// A type whose values take more than 64 MiB in memory (spec §11).
    FootprintTooLarge = "E0403", "value too large in memory";
    /// A type whose values are more than 256 KiB inline (spec §11).
    InlineSizeTooLarge = "E0404", "inline size too large";
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
