//! The checked, resolved schema: what semantic analysis hands to the layout pass.
//!
//! It holds exactly what the schema says, with every name resolved, every value
//! evaluated and every rule of the language checked — and no number the compiler
//! derives. Packed widths (of bounded and quantized values, tags and length
//! prefixes), in-memory representations, sizes and offsets are decided by
//! [`crate::layout`], which turns a `Model` into the [`crate::ir::Schema`] in one
//! go (ADR 0009).

use crate::diag::Span;
use crate::ir::{Constant, EnumVariant, FloatRepr, Origin, Spans, TypeId};

/// A resolved schema: the root file plus everything it imports, flattened, in IR
/// order (imported files first).
#[derive(Debug, Clone)]
pub struct Model {
    /// Name of the root schema file (file name only).
    pub root_file: String,
    /// Constants with their evaluated values (they have no derived numbers).
    pub constants: Vec<Constant>,
    /// Every named type; [`Ty::Named`] indexes into this list.
    pub types: Vec<Def>,
}

/// A named type as declared.
#[derive(Debug, Clone)]
pub struct Def {
    pub name: String,
    pub doc: Vec<String>,
    pub origin: Origin,
    /// `Some(id)` for a `message`.
    pub message_id: Option<u32>,
    /// `delta message`: the message has a delta encoding (spec §12).
    pub delta: bool,
    pub spans: Spans,
    pub kind: DefKind,
}

/// The shape of a named type.
#[derive(Debug, Clone)]
pub enum DefKind {
    /// A struct or message: fields in declaration order.
    Struct { fields: Vec<Field> },
    /// An enum with its variant values.
    Enum {
        /// The width of the declared tag type (`enum E: u4` → 4), if there is one.
        declared_tag_bits: Option<u32>,
        variants: Vec<EnumVariant>,
    },
    /// A union with its variant tags and payloads.
    Union {
        /// The width of the declared tag type, if there is one.
        declared_tag_bits: Option<u32>,
        variants: Vec<Variant>,
    },
}

/// A struct field.
#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub doc: Vec<String>,
    /// 1-based line of the field's name.
    pub line: u32,
    pub spans: Spans,
    pub ty: Ty,
}

/// A union variant.
#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    pub doc: Vec<String>,
    /// The tag value (explicit, or previous + 1 from 0).
    pub tag: u64,
    pub spans: Spans,
    /// `None` for a unit variant.
    pub payload: Option<Ty>,
}

/// A type expression as written, resolved and checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    Bool,
    /// `uN`.
    UInt {
        bits: u32,
    },
    /// `iN`.
    SInt {
        bits: u32,
    },
    /// `f32` / `f64`.
    Float(FloatRepr),
    /// `uN in MIN..=MAX` / `iN in MIN..=MAX` (`base_bits` = N).
    Bounded {
        signed: bool,
        base_bits: u32,
        min: i128,
        max: i128,
    },
    /// `fW in MIN..=MAX bits B | step S`, with the bounds rounded to the float type
    /// and the number of steps (largest stored integer) worked out.
    Quantized {
        repr: FloatRepr,
        min: f64,
        max: f64,
        steps: u64,
    },
    /// `varuW`.
    VarUInt {
        bits: u32,
    },
    /// `variW`.
    VarSInt {
        bits: u32,
    },
    /// `optional<T>`.
    Optional(Box<Ty>),
    /// `[T; N]`.
    Array(Box<Ty>, u64),
    /// `list<T>` / `list<T, max M>`, with its key (`key F`, spec §12.1) if it has one.
    List(Box<Ty>, Option<u64>, Option<ListKey>),
    /// `string` / `string<max M>`.
    String(Option<u64>),
    /// `bytes` / `bytes<max M>`.
    Bytes(Option<u64>),
    /// A declared type.
    Named(TypeId, String),
}

/// The `key F` of a keyed list (spec §12.1): the field's name as written and, once
/// `sema::keys` has checked it, its index among the element struct's fields.
#[derive(Debug, Clone, PartialEq)]
pub struct ListKey {
    pub name: String,
    pub span: Span,
    /// Index of the key field in the element struct (`usize::MAX` until checked).
    pub field: usize,
}

impl Ty {
    /// The named types this type expression mentions, in order.
    pub fn named(&self, out: &mut Vec<TypeId>) {
        let mut ty = self;
        loop {
            match ty {
                Ty::Named(id, _) => out.push(*id),
                Ty::Optional(inner) | Ty::Array(inner, _) | Ty::List(inner, ..) => {
                    ty = inner;
                    continue;
                }
                _ => {}
            }
            return;
        }
    }
}

impl Def {
    /// The types of the members (fields, or union variants; `None` for a unit
    /// variant), in declaration order. Enums have none.
    pub fn member_types(&self) -> Vec<Option<&Ty>> {
        match &self.kind {
            DefKind::Struct { fields } => fields.iter().map(|f| Some(&f.ty)).collect(),
            DefKind::Union { variants, .. } => {
                variants.iter().map(|v| v.payload.as_ref()).collect()
            }
            DefKind::Enum { .. } => Vec::new(),
        }
    }

    /// Name and spans of member `index` (field or variant).
    pub fn member(&self, index: usize) -> (&str, Spans) {
        match &self.kind {
            DefKind::Struct { fields } => (&fields[index].name, fields[index].spans),
            DefKind::Enum { variants, .. } => (&variants[index].name, variants[index].spans),
            DefKind::Union { variants, .. } => (&variants[index].name, variants[index].spans),
        }
    }
}

impl Model {
    /// The type graph: per type, `(member index, referenced type)` for every named
    /// type its members mention.
    pub fn edges(&self) -> Vec<Vec<(usize, TypeId)>> {
        self.types
            .iter()
            .map(|def| {
                let mut edges = Vec::new();
                let mut named = Vec::new();
                for (member, ty) in def.member_types().into_iter().enumerate() {
                    named.clear();
                    if let Some(ty) = ty {
                        ty.named(&mut named);
                    }
                    edges.extend(named.iter().map(|&to| (member, to)));
                }
                edges
            })
            .collect()
    }
}
