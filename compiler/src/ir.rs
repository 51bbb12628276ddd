//! The plain-data intermediate representation: the boundary between the front end
//! (parse → resolve → check → layout) and everything that consumes a schema
//! (code generators, the reference codec, later tooling).
//!
//! The IR describes *logical* types. Numbers that only the packed encoding needs
//! (storage widths of bounded integers, tag widths, length-prefix widths, bit
//! offsets, size bounds) are kept in fields named `packed_*` or in [`PackedLayout`],
//! so a second encoding (bincode) or a delta mode can be added as a backend over the
//! same IR and simply ignore them. Backends print these numbers; they never compute
//! layout themselves.
//!
//! Every named type also carries its in-memory [`MemoryLayout`] (`docs/spec.md` §11),
//! the allocation model decoders charge against a decode budget, and every
//! declaration, field, variant and constant its source [`Spans`], so tools (`bitwire
//! compat`) can point at the schema without parsing it again.
//!
//! Everything here is `Serialize`, so `bitwire ir` can dump it as JSON. The IR is
//! deterministic: declaration order is preserved and no absolute paths are stored.
//! Spans are left out of the dump (they change with formatting and only mean
//! something next to the sources).

use serde::Serialize;

pub use crate::diag::Span;

/// Index into [`Schema::types`].
pub type TypeId = usize;

/// A compiled schema: the root file plus everything it imports, flattened.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Schema {
    /// Name of the root schema file (file name only, no directory).
    pub root_file: String,
    /// Constants in declaration order (imports first, in import order).
    pub constants: Vec<Constant>,
    /// Every named type (struct, enum, union, message) in declaration order,
    /// imported files first. Type references point into this list.
    pub types: Vec<TypeDef>,
}

impl Schema {
    /// Finds a named type by its schema name.
    pub fn type_by_name(&self, name: &str) -> Option<TypeId> {
        self.types.iter().position(|t| t.name == name)
    }

    /// The types that are top-level messages (carry a numeric id), in declaration order.
    pub fn messages(&self) -> impl Iterator<Item = (TypeId, &TypeDef)> {
        self.types
            .iter()
            .enumerate()
            .filter(|(_, t)| t.message_id.is_some())
    }
}

/// Where a declaration came from, for generated comments and diagnostics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Origin {
    /// File name relative to the root schema's directory, with `/` separators.
    pub file: String,
    /// 1-based line of the declaration's name.
    pub line: u32,
}

/// Where a declaration, field, variant or constant is written: the span of its name
/// and, where a type is written next to it, of that type (a field's type, a union
/// variant's payload, a constant's type, an enum's or union's declared tag type).
///
/// Spans index into the files of the compilation's [`crate::diag::SourceMap`] (the
/// `sources` of the [`crate::Diagnostics`] that [`crate::sema::compile`] returns with
/// the schema). They are not part of the JSON dump.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Spans {
    /// The name as written in the declaration.
    pub name: Span,
    /// The type written with it, if any.
    pub ty: Option<Span>,
}

/// A named constant.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Constant {
    pub name: String,
    pub doc: Vec<String>,
    pub origin: Origin,
    pub value: ConstValue,
    /// The constant's name and type in the source.
    #[serde(skip)]
    pub spans: Spans,
}

/// The value (and therefore the type) of a constant.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConstValue {
    /// An integer constant with its declared integer type (`u32`, `i64`, ...).
    Int {
        ty: IntRepr,
        value: i128,
    },
    /// A float constant with its declared float type.
    Float {
        ty: FloatRepr,
        value: f64,
    },
    Bool {
        value: bool,
    },
    String {
        value: String,
    },
}

/// A named type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TypeDef {
    pub name: String,
    /// Doc comment lines (`///`), without the leading `///` and one space.
    pub doc: Vec<String>,
    pub origin: Origin,
    /// `Some(id)` for a top-level `message` (dispatch id on a connection).
    pub message_id: Option<u32>,
    /// `delta message`: the message also has a delta encoding (spec §12).
    #[serde(skip_serializing_if = "is_false")]
    pub delta: bool,
    pub kind: TypeDefKind,
    /// Packed-encoding size of a value of this type, not counting top-level padding.
    pub packed: PackedLayout,
    /// In-memory size of a decoded value (spec §11), computed by the layout pass.
    pub memory: MemoryLayout,
    /// The type's name (and declared tag type of an enum or union) in the source.
    #[serde(skip)]
    pub spans: Spans,
}

/// The shape of a named type.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TypeDefKind {
    /// A struct or a message: fields in declaration (= wire) order.
    Struct { fields: Vec<Field> },
    /// A C-like enum.
    Enum {
        /// The declared tag type, or the narrowest unsigned type that holds every value.
        repr: IntRepr,
        /// Packed width of the tag in bits (declared, or the fewest bits that hold the largest value).
        packed_tag_bits: u32,
        variants: Vec<EnumVariant>,
    },
    /// A tagged union: a tag, then the selected variant's payload (if any).
    Union {
        /// Packed width of the tag in bits.
        packed_tag_bits: u32,
        variants: Vec<UnionVariant>,
    },
}

/// A struct field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Field {
    pub name: String,
    pub doc: Vec<String>,
    /// 1-based line of the field's name in its file.
    pub line: u32,
    pub ty: Type,
    /// Bit offset of the field from the start of its struct, when every field
    /// before it has a fixed width; `None` after the first variable-width field.
    pub packed_offset: Option<u64>,
    /// Packed size of the field's value.
    pub packed: PackedLayout,
    /// The field's name and type in the source.
    #[serde(skip)]
    pub spans: Spans,
}

/// An enum variant.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EnumVariant {
    pub name: String,
    pub doc: Vec<String>,
    /// The tag value (explicit `= N`, or previous + 1, starting at 0).
    pub value: u64,
    /// The variant's name in the source.
    #[serde(skip)]
    pub spans: Spans,
}

/// A union variant.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnionVariant {
    pub name: String,
    pub doc: Vec<String>,
    /// The tag value (explicit `= N`, or previous + 1, starting at 0).
    pub tag: u64,
    /// `None` for a unit variant.
    pub payload: Option<Type>,
    /// Packed size of the payload (zero for a unit variant).
    pub packed: PackedLayout,
    /// The variant's name and payload type in the source.
    #[serde(skip)]
    pub spans: Spans,
}

/// Integer in-memory representations (what a language stores the value in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IntRepr {
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
}

impl IntRepr {
    pub fn signed(self) -> bool {
        matches!(
            self,
            IntRepr::I8 | IntRepr::I16 | IntRepr::I32 | IntRepr::I64
        )
    }

    /// Width of the representation in bits (8, 16, 32 or 64).
    pub fn bits(self) -> u32 {
        match self {
            IntRepr::U8 | IntRepr::I8 => 8,
            IntRepr::U16 | IntRepr::I16 => 16,
            IntRepr::U32 | IntRepr::I32 => 32,
            IntRepr::U64 | IntRepr::I64 => 64,
        }
    }

    /// The narrowest representation for a `bits`-wide integer of the given signedness.
    pub fn for_width(signed: bool, bits: u32) -> IntRepr {
        match (signed, bits) {
            (false, 0..=8) => IntRepr::U8,
            (false, 9..=16) => IntRepr::U16,
            (false, 17..=32) => IntRepr::U32,
            (false, _) => IntRepr::U64,
            (true, 0..=8) => IntRepr::I8,
            (true, 9..=16) => IntRepr::I16,
            (true, 17..=32) => IntRepr::I32,
            (true, _) => IntRepr::I64,
        }
    }
}

/// Float representations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FloatRepr {
    F32,
    F64,
}

/// A type expression (the type of a field, element, payload).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Type {
    /// One bit.
    Bool,
    /// `uN` (1..=64): an unsigned integer of exactly `bits` bits, held in `repr`.
    #[serde(rename = "uint")]
    UInt { bits: u32, repr: IntRepr },
    /// `iN` (1..=64): a two's-complement integer of exactly `bits` bits, held in `repr`.
    #[serde(rename = "sint")]
    SInt { bits: u32, repr: IntRepr },
    /// `f32` / `f64`: IEEE 754 bits.
    Float { repr: FloatRepr },
    /// `uN in MIN..=MAX` / `iN in MIN..=MAX`: stored as `value - min` in `packed_bits` bits.
    Bounded {
        /// The written base type's representation (`u16 in 0..=1000` → `u16`).
        repr: IntRepr,
        /// Width of the written base type (`u12 in ...` → 12).
        base_bits: u32,
        min: i128,
        max: i128,
        /// Fewest bits holding `max - min` (0 when `min == max`).
        packed_bits: u32,
    },
    /// `f32 in MIN..=MAX bits N` or `... step S`: `q = floor((v-min)/(max-min) * steps + 0.5)`.
    Quantized {
        repr: FloatRepr,
        min: f64,
        max: f64,
        /// Largest stored integer (`2^bits - 1` for `bits N`, `(max-min)/step` for `step S`).
        steps: u64,
        /// Fewest bits holding `steps`.
        packed_bits: u32,
    },
    /// `varu16` / `varu32` / `varu64`: unsigned variable-length integer of at most `bits` bits.
    #[serde(rename = "varuint")]
    VarUInt { bits: u32, repr: IntRepr },
    /// `vari16` / `vari32` / `vari64`: zigzag-mapped, then as `VarUInt`.
    #[serde(rename = "varsint")]
    VarSInt { bits: u32, repr: IntRepr },
    /// `optional<T>`: a presence bit, then `T` if present.
    Optional { inner: Box<Type> },
    /// `[T; N]`: exactly `len` elements, no length on the wire.
    Array { elem: Box<Type>, len: u64 },
    /// `list<T>` / `list<T, max N>`.
    List {
        elem: Box<Type>,
        max: Option<u64>,
        packed_len: LengthEncoding,
        /// `key F` (spec §12.1): the element struct's key field, for delta encoding.
        #[serde(skip_serializing_if = "Option::is_none")]
        key: Option<ListKey>,
    },
    /// `string` / `string<max N>`: UTF-8, length in bytes.
    String {
        max: Option<u64>,
        packed_len: LengthEncoding,
    },
    /// `bytes` / `bytes<max N>`.
    Bytes {
        max: Option<u64>,
        packed_len: LengthEncoding,
    },
    /// A reference to a named struct, enum, union or message.
    Named { id: TypeId, name: String },
}

/// The key of a keyed list (spec §12.1): a field of the element struct whose values
/// are unique and ascending in every list the delta encoding takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListKey {
    /// Index of the field in the element struct.
    pub field: usize,
    /// The field's name.
    pub name: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// How the packed encoding writes a length prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LengthEncoding {
    /// Bounded: a fixed-width field of `bits` bits (fewest bits holding `max`).
    Fixed { bits: u32 },
    /// Unbounded: an unsigned 64-bit varint.
    Varint,
}

/// Packed-encoding size bounds of a type, in bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PackedLayout {
    /// Fewest bits any value of the type encodes to.
    pub min_bits: u64,
    /// Most bits any value encodes to; `None` when unbounded (an unbounded list,
    /// string or bytes somewhere inside).
    pub max_bits: Option<u64>,
}

impl PackedLayout {
    /// A fixed-width type: every value has the same encoded width.
    pub fn fixed(bits: u64) -> Self {
        PackedLayout {
            min_bits: bits,
            max_bits: Some(bits),
        }
    }

    /// Whether every value of the type encodes to the same number of bits.
    pub fn is_fixed(&self) -> bool {
        self.max_bits == Some(self.min_bits)
    }

    /// Maximum size in bytes of a top-level encoding (padded to a byte), if bounded.
    pub fn max_bytes(&self) -> Option<u64> {
        self.max_bits.map(|b| b.div_ceil(8))
    }
}

/// The in-memory size model of a type (`docs/spec.md` §11): the allocation model
/// every decoder charges against its decode budget. Sizes are in bytes and saturate
/// at `u64::MAX` (the compiler rejects types anywhere near that, `E0403`/`E0404`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MemoryLayout {
    /// Inline bytes of a value, as generated Go lays the type out (an upper bound of
    /// Rust's): fields at offsets rounded up to their alignment, arrays above 4 KiB
    /// held out of line behind an 8-byte pointer, lists, strings and bytes as a
    /// 24-byte header.
    pub size: u64,
    /// Alignment of the inline bytes (1, 2, 4 or 8).
    pub align: u64,
    /// Bytes of one value including its out-of-line arrays; the contents of lists,
    /// strings and bytes are not included (decoders charge them as they read them).
    pub footprint: u64,
    /// Nesting depth: 1 for scalars, enums, strings and bytes; one more than the
    /// deepest member for structs, unions, optionals, arrays and lists.
    pub depth: u32,
}

/// Fewest bits that hold `v` (0 for 0).
pub fn bits_for(v: u128) -> u32 {
    128 - v.leading_zeros()
}
