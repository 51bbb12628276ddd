//! The operations of a codec plan: what the packed wire holds for every value, in
//! stream order, with every width, check, error kind, path segment and allocation
//! charge already decided (docs/spec.md §3–§7, §11). Backends walk these and print;
//! they never look at an IR type to decide how a value is encoded.

use serde::Serialize;

use crate::ir::{FloatRepr, IntRepr, PackedLayout, Type, TypeId};

/// An error kind of spec §7.1, as the plan names it for a check. Backends print the
/// name in their runtime's spelling; the list is closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Kind {
    Truncated,
    OutOfRange,
    InvalidEnum,
    InvalidLength,
    InvalidUtf8,
    NonCanonical,
    LimitExceeded,
}

impl Kind {
    /// The kind's name in spec §7.1 (and in every runtime).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Truncated => "Truncated",
            Kind::OutOfRange => "OutOfRange",
            Kind::InvalidEnum => "InvalidEnum",
            Kind::InvalidLength => "InvalidLength",
            Kind::InvalidUtf8 => "InvalidUtf8",
            Kind::NonCanonical => "NonCanonical",
            Kind::LimitExceeded => "LimitExceeded",
        }
    }
}

/// One value of any type: the node of its wire operations, its size in bits, and the
/// IR type it came from (backends print language types from it, nothing else).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Node {
    pub op: Op,
    /// Packed size bounds (spec §6.1).
    pub bits: PackedLayout,
    /// The IR type, for printing the value's type in the target language.
    #[serde(skip)]
    pub ty: Type,
}

impl Node {
    /// Whether the value takes no bits at all: decoding reads nothing and produces the
    /// type's one value, encoding writes nothing.
    pub fn is_zero_width(&self) -> bool {
        self.bits.max_bits == Some(0)
    }

    /// Whether decoding the value uses the reader: anything with bits, and — when the
    /// decoder builds values (`building`) — a zero-width struct or union, whose own read
    /// function is called, or an array of them.
    pub fn needs_reader(&self, building: bool) -> bool {
        if !self.is_zero_width() {
            return true;
        }
        match &self.op {
            Op::Named(_) => building,
            Op::Array(a) => a.elem.needs_reader(building),
            _ => false,
        }
    }
}

/// The wire operation of a value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "op", content = "of", rename_all = "snake_case")]
pub enum Op {
    /// A fixed-width scalar of at most 64 bits (§3, §4).
    Scalar(Scalar),
    /// A prefix varint (§5.4).
    Varint(Varint),
    /// A presence bit, then the value if present (§5.3).
    Optional(Box<Node>),
    /// `[T; N]`: N elements, no length (§5.5).
    Array(Array),
    /// `list<T>`: a length, then the elements (§5.6).
    List(List),
    /// `string`: a length in bytes, then UTF-8 (§5.6).
    String(Length),
    /// `bytes`: a length, then the bytes (§5.6).
    Bytes(Length),
    /// A named struct or union: its own `read`/`write`/`check` (an enum is a [`Scalar`]).
    Named(TypeId),
}

/// A fixed-width scalar: its width, what it holds, and the checks each side runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scalar {
    /// Width on the wire (0 for a value with a single possible encoding).
    pub bits: u32,
    pub kind: ScalarKind,
    /// What a decoder rejects once the bits are read (§3, §4), at the value's first bit.
    pub decode: DecodeCheck,
    /// What an encoder rejects before writing (§3.1, §4), at the value's first bit.
    pub encode: EncodeCheck,
    /// Whether the JSON mapping writes it as a decimal string (docs/json-mapping.md §2).
    pub json_wide: bool,
}

/// What a scalar holds and how its bits map to the value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScalarKind {
    /// One bit: 1 = true.
    Bool,
    /// `uN`: the value's bits.
    UInt { repr: IntRepr },
    /// `iN`: the low `bits` of the two's complement, sign-extended on decode.
    SInt { repr: IntRepr },
    /// IEEE 754 bits of `f32` (32) or `f64` (64).
    Float { repr: FloatRepr },
    /// `v - min` in `bits` bits (§4.2).
    Bounded { repr: IntRepr, min: i128, max: i128 },
    /// `q` in `0..=steps` (§4.3). `scale` is `1 / steps` where multiplying by it gives
    /// the same value as dividing by `steps` at every grid point (see [`super::quant`]).
    Quantized {
        repr: FloatRepr,
        min: f64,
        max: f64,
        steps: u64,
        scale: Option<f64>,
    },
    /// A named enum's tag.
    Enum { id: TypeId, repr: IntRepr },
}

/// The check a decoder runs on a scalar's bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "check", rename_all = "snake_case")]
pub enum DecodeCheck {
    /// Every bit pattern is a valid value: only truncation can fail.
    None,
    /// The stored integer must be at most `max` (bounded `MAX - MIN`, quantized
    /// `STEPS`), else `kind` ([`Kind::OutOfRange`]).
    AtMost { max: u64, kind: Kind },
    /// The stored tag must be a declared enum value, else [`Kind::InvalidEnum`].
    Declared { kind: Kind },
    /// A NaN must be the canonical quiet NaN, else [`Kind::NonCanonical`] (§3.2).
    CanonicalNan { kind: Kind },
}

impl DecodeCheck {
    /// Whether the decoder can reject the bits once they were read.
    pub fn is_none(&self) -> bool {
        matches!(self, DecodeCheck::None)
    }
}

/// The check an encoder runs on a scalar's value before writing it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "check", rename_all = "snake_case")]
pub enum EncodeCheck {
    /// Every value of the language type is writable.
    None,
    /// The integer must be in `min..=max`, else `kind`. `repr_covers`: the range is
    /// the whole range of the in-memory integer type, so a language whose integers
    /// cannot leave their type (Rust, Go) has nothing to check; TypeScript still checks
    /// the number it was given.
    Range {
        min: i128,
        max: i128,
        kind: Kind,
        repr_covers: bool,
    },
    /// The float must be in `min..=max` and not NaN, else `kind` (§4.3).
    FloatRange { min: f64, max: f64, kind: Kind },
    /// The enum value must be declared, else `kind` (languages whose enums can hold
    /// other values: Go, TypeScript, JSON input).
    Declared { kind: Kind },
}

impl EncodeCheck {
    /// Whether the encoder can reject the value.
    pub fn is_none(&self) -> bool {
        matches!(self, EncodeCheck::None)
    }
}

/// A prefix varint of `bits` (16, 32, 64) bits, zigzag-mapped when signed (§5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Varint {
    pub bits: u32,
    pub signed: bool,
    pub repr: IntRepr,
    /// A decoder rejects a longer form than needed with this kind (§5.4).
    pub non_minimal: Kind,
    /// Whether the JSON mapping writes it as a decimal string.
    pub json_wide: bool,
}

/// How the elements of an array or list travel (same bytes every way; a backend picks
/// the runtime call the form names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "form", rename_all = "snake_case")]
pub enum Form {
    /// `u8` elements: whole bytes, copied as a block.
    Bytes,
    /// Plain numbers whose wire width is their whole language type (`u16`…`u64`,
    /// `i8`…`i64`, `f32`, `f64`, unbounded, unquantized): moved in bulk.
    Lanes { lane: Lane },
    /// Element by element.
    Items,
}

/// A number type moved in bulk by [`Form::Lanes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Lane {
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
}

impl Lane {
    /// The lane's type name (`u16`, `f64`, …), as Rust spells it.
    pub fn name(self) -> &'static str {
        match self {
            Lane::U16 => "u16",
            Lane::U32 => "u32",
            Lane::U64 => "u64",
            Lane::I8 => "i8",
            Lane::I16 => "i16",
            Lane::I32 => "i32",
            Lane::I64 => "i64",
            Lane::F32 => "f32",
            Lane::F64 => "f64",
        }
    }

    /// Width of one element in bits.
    pub fn bits(self) -> u32 {
        match self {
            Lane::I8 => 8,
            Lane::U16 | Lane::I16 => 16,
            Lane::U32 | Lane::I32 | Lane::F32 => 32,
            Lane::U64 | Lane::I64 | Lane::F64 => 64,
        }
    }

    /// Whether the elements are floats (a decoder checks each NaN, §3.2).
    pub fn is_float(self) -> bool {
        matches!(self, Lane::F32 | Lane::F64)
    }
}

/// `[T; N]`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Array {
    pub len: u64,
    pub elem: Box<Node>,
    pub form: Form,
    /// Whether the array is held out of line (its inline size is above the memory
    /// model's 4 KiB threshold, spec §11): generated Rust boxes it.
    pub out_of_line: bool,
    /// Kind of a sequence of another length given to an encoder (§5.5), in a language
    /// whose arrays do not carry their length in their type (TypeScript, JSON input).
    pub wrong_length: Kind,
}

/// `list<T>`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct List {
    pub length: Length,
    pub elem: Box<Node>,
    pub form: Form,
}

/// A length prefix and everything a decoder checks about it before allocating
/// (spec §5.6, in this order): the bound, the bits left, the decode budget (§11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Length {
    pub prefix: Prefix,
    /// The schema's `max`, if any (the encoder always checks it).
    pub max: Option<u64>,
    /// Whether a decoder must compare the length with `max`: false when the prefix
    /// cannot hold a larger number.
    pub check_max: bool,
    /// Kind of a length above `max`, on either side.
    pub too_long: Kind,
    /// `min_bits(T)` of §5.6 (8 for strings and bytes): `len × elem_min_bits` above the
    /// bits left in the input is [`Length::truncated`].
    pub elem_min_bits: u64,
    pub truncated: Kind,
    /// Budget charge per element (its memory footprint, §11; 1 for string and bytes
    /// bytes); a decoder charges `len × per_elem +` the per-allocation overhead for
    /// `len > 0`, and rejects with [`Length::over_budget`] past the budget.
    pub charge_per_elem: u64,
    pub over_budget: Kind,
}

/// The form of a length prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "prefix", rename_all = "snake_case")]
pub enum Prefix {
    /// A fixed-width unsigned integer of `bits` bits (`bits_for(max)`).
    Fixed { bits: u32 },
    /// A `varu64` (§5.4).
    Varint,
}

impl Prefix {
    /// Most bits the prefix takes.
    pub fn max_bits(self) -> u32 {
        match self {
            Prefix::Fixed { bits } => bits,
            // varu64: 15 one bits, no terminator, 64 bits.
            Prefix::Varint => 79,
        }
    }
}

/// What a target language's values can hold, which decides where an encoder check can
/// fail there: a typed language's integers stay inside their type, its enums may or
/// may not hold undeclared values, its strings may or may not hold invalid UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lang {
    /// Values have their schema's language types (integers stay in their type, arrays
    /// have their length). False for TypeScript, where a caller can pass anything.
    pub typed: bool,
    /// Enum values are always declared ones.
    pub closed_enums: bool,
    /// Strings are always valid UTF-8.
    pub valid_strings: bool,
}

impl Lang {
    pub const RUST: Lang = Lang {
        typed: true,
        closed_enums: true,
        valid_strings: true,
    };
    pub const GO: Lang = Lang {
        typed: true,
        closed_enums: false,
        valid_strings: false,
    };
    pub const TS: Lang = Lang {
        typed: false,
        closed_enums: false,
        valid_strings: false,
    };
}

impl Scalar {
    /// The kind an encoder raises for a value that is not of the scalar's type at all
    /// (see [`Node::wrong_type_kind`]): `InvalidEnum` for an enum, else `OutOfRange`,
    /// the kind of the scalar's own check.
    pub fn wrong_type_kind(&self) -> Kind {
        match self.kind {
            ScalarKind::Enum { .. } => Kind::InvalidEnum,
            _ => Kind::OutOfRange,
        }
    }

    /// Whether a `lang` encoder must check this scalar before writing it.
    pub fn encode_can_fail(&self, lang: Lang) -> bool {
        match self.encode {
            EncodeCheck::None => !lang.typed,
            EncodeCheck::Range { repr_covers, .. } => !repr_covers || !lang.typed,
            EncodeCheck::FloatRange { .. } => true,
            EncodeCheck::Declared { .. } => !lang.closed_enums,
        }
    }
}

impl Node {
    /// The kind an encoder raises for a value that is not of the node's type at all, in
    /// a language whose values can be anything (TypeScript: a string for a `u8`,
    /// `undefined` for a list, a number for a `bytes`): the kind of the check the
    /// value could not even be put to. Scalars, varints and structs: `OutOfRange`
    /// (for integers, the range check itself rejects such values); enums and unions:
    /// `InvalidEnum` (no declared name or kind); strings: `InvalidUtf8` (no UTF-8 to
    /// write); arrays, lists and bytes: `InvalidLength` (no length to check). An
    /// optional holds `null` or its payload, so anything else fails as the payload.
    pub fn wrong_type_kind(&self, plan: &super::CodecPlan) -> Kind {
        match &self.op {
            Op::Scalar(s) => s.wrong_type_kind(),
            Op::Varint(_) => Kind::OutOfRange,
            Op::Optional(inner) => inner.wrong_type_kind(plan),
            Op::Array(_) | Op::List(_) | Op::Bytes(_) => Kind::InvalidLength,
            Op::String(_) => Kind::InvalidUtf8,
            Op::Named(id) => plan.get(*id).body.wrong_type_kind(),
        }
    }

    /// Whether a `lang` encoder can reject some value of this node (a check, a length
    /// bound, or a nested struct or union, whose encoder returns a result).
    pub fn encode_can_fail(&self, lang: Lang) -> bool {
        match &self.op {
            Op::Scalar(s) => s.encode_can_fail(lang),
            Op::Varint(_) => !lang.typed,
            Op::Optional(inner) => inner.encode_can_fail(lang),
            Op::Array(a) => !lang.typed || a.elem.encode_can_fail(lang),
            Op::List(l) => l.length.max.is_some() || !lang.typed || l.elem.encode_can_fail(lang),
            Op::String(l) => l.max.is_some() || !lang.valid_strings,
            Op::Bytes(l) => l.max.is_some() || !lang.typed,
            Op::Named(_) => true,
        }
    }
}

impl super::Body {
    /// The kind for a value that is not of the named type at all (see
    /// [`Node::wrong_type_kind`]): `InvalidEnum` for an enum or union (no declared name
    /// or kind), `OutOfRange` for a struct (TypeScript: `null` or a number where an
    /// object must be).
    pub fn wrong_type_kind(&self) -> Kind {
        match self {
            super::Body::Union(_) | super::Body::Enum(_) => Kind::InvalidEnum,
            super::Body::Struct(_) => Kind::OutOfRange,
        }
    }
}
