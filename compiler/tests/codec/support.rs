//! Building IR by hand, and assertion helpers shared by the codec tests.

pub use bitwire_compiler::codec::{
    self, decode, decode_to_json, encode, encode_json, value_from_json, value_to_json, CodecError,
    ErrorKind, JsonErrorKind, Value,
};
pub use bitwire_compiler::ir::{
    bits_for, EnumVariant, Field, FloatRepr, IntRepr, LengthEncoding, Origin, PackedLayout, Schema,
    Spans, Type, TypeDef, TypeDefKind, TypeId, UnionVariant,
};
pub use bitwire_compiler::layout;
pub use serde_json::json;

pub fn u(bits: u32) -> Type {
    Type::UInt {
        bits,
        repr: IntRepr::for_width(false, bits),
    }
}
pub fn i(bits: u32) -> Type {
    Type::SInt {
        bits,
        repr: IntRepr::for_width(true, bits),
    }
}
pub fn f32t() -> Type {
    Type::Float {
        repr: FloatRepr::F32,
    }
}
pub fn f64t() -> Type {
    Type::Float {
        repr: FloatRepr::F64,
    }
}
pub fn bounded(base_bits: u32, min: i128, max: i128) -> Type {
    let repr = IntRepr::for_width(min < 0, base_bits);
    let packed_bits = bits_for((max - min) as u128);
    Type::Bounded {
        repr,
        base_bits,
        min,
        max,
        packed_bits,
    }
}
pub fn quant(repr: FloatRepr, min: f64, max: f64, steps: u64) -> Type {
    Type::Quantized {
        repr,
        min,
        max,
        steps,
        packed_bits: bits_for(steps.into()),
    }
}
pub fn varu(bits: u32) -> Type {
    Type::VarUInt {
        bits,
        repr: IntRepr::for_width(false, bits),
    }
}
pub fn vari(bits: u32) -> Type {
    Type::VarSInt {
        bits,
        repr: IntRepr::for_width(true, bits),
    }
}
pub fn opt(t: Type) -> Type {
    Type::Optional { inner: Box::new(t) }
}
pub fn arr(t: Type, len: u64) -> Type {
    Type::Array {
        elem: Box::new(t),
        len,
    }
}
pub fn len_enc(max: Option<u64>) -> LengthEncoding {
    match max {
        Some(m) => LengthEncoding::Fixed {
            bits: bits_for(m.into()),
        },
        None => LengthEncoding::Varint,
    }
}
pub fn list(t: Type, max: Option<u64>) -> Type {
    Type::List {
        elem: Box::new(t),
        max,
        packed_len: len_enc(max),
        key: None,
    }
}
pub fn string(max: Option<u64>) -> Type {
    Type::String {
        max,
        packed_len: len_enc(max),
    }
}
pub fn bytes(max: Option<u64>) -> Type {
    Type::Bytes {
        max,
        packed_len: len_enc(max),
    }
}

/// A schema under construction; named types get their `packed.min_bits` from the
/// codec's own helper (the codec only reads `min_bits` of named types).
pub struct Builder {
    pub schema: Schema,
}

impl Builder {
    pub fn new() -> Builder {
        let schema = Schema {
            root_file: "test.bw".into(),
            constants: vec![],
            types: vec![],
        };
        Builder { schema }
    }

    pub fn add(&mut self, name: &str, kind: TypeDefKind, min_bits: u64) -> Type {
        self.schema.types.push(TypeDef {
            name: name.into(),
            delta: false,
            doc: vec![],
            origin: Origin {
                file: "test.bw".into(),
                line: 1,
            },
            message_id: None,
            memory: layout::memory_of_def(&kind, &self.schema.types),
            kind,
            packed: PackedLayout {
                min_bits,
                max_bits: None,
            },
            spans: Spans::default(),
        });
        Type::Named {
            id: self.schema.types.len() - 1,
            name: name.into(),
        }
    }

    pub fn layout(&self, ty: &Type) -> PackedLayout {
        PackedLayout {
            min_bits: codec::min_bits(&self.schema, ty),
            max_bits: None,
        }
    }

    pub fn structure(&mut self, name: &str, fields: Vec<(&str, Type)>) -> Type {
        let min = fields
            .iter()
            .map(|(_, t)| codec::min_bits(&self.schema, t))
            .sum();
        let fields = fields
            .into_iter()
            .map(|(n, ty)| Field {
                name: n.into(),
                doc: vec![],
                line: 1,
                packed: self.layout(&ty),
                ty,
                packed_offset: None,
                spans: Spans::default(),
            })
            .collect();
        self.add(name, TypeDefKind::Struct { fields }, min)
    }

    pub fn enumeration(&mut self, name: &str, tag_bits: u32, variants: &[(&str, u64)]) -> Type {
        let variants = variants
            .iter()
            .map(|(n, v)| EnumVariant {
                name: (*n).into(),
                doc: vec![],
                value: *v,
                spans: Spans::default(),
            })
            .collect();
        let kind = TypeDefKind::Enum {
            repr: IntRepr::U8,
            packed_tag_bits: tag_bits,
            variants,
        };
        self.add(name, kind, tag_bits.into())
    }

    pub fn union(
        &mut self,
        name: &str,
        tag_bits: u32,
        variants: Vec<(&str, u64, Option<Type>)>,
    ) -> Type {
        let payload_min =
            |t: &Option<Type>| t.as_ref().map_or(0, |t| codec::min_bits(&self.schema, t));
        let min = u64::from(tag_bits) + variants.iter().map(|v| payload_min(&v.2)).min().unwrap();
        let variants = variants
            .into_iter()
            .map(|(n, tag, payload)| UnionVariant {
                name: n.into(),
                doc: vec![],
                tag,
                packed: payload
                    .as_ref()
                    .map_or(PackedLayout::fixed(0), |t| self.layout(t)),
                payload,
                spans: Spans::default(),
            })
            .collect();
        self.add(
            name,
            TypeDefKind::Union {
                packed_tag_bits: tag_bits,
                variants,
            },
            min,
        )
    }

    pub fn id(ty: &Type) -> TypeId {
        match ty {
            Type::Named { id, .. } => *id,
            _ => panic!("not a named type"),
        }
    }
}

/// A one-struct schema `T { f0: t0, f1: t1, ... }`.
pub fn single(types: Vec<Type>) -> (Schema, TypeId) {
    let mut b = Builder::new();
    let names: Vec<String> = (0..types.len()).map(|k| format!("f{k}")).collect();
    let t = b.structure("T", names.iter().map(String::as_str).zip(types).collect());
    (b.schema, Builder::id(&t))
}

pub fn rec(values: Vec<Value>) -> Value {
    Value::Struct(
        values
            .into_iter()
            .enumerate()
            .map(|(k, v)| (format!("f{k}"), v))
            .collect(),
    )
}

pub fn int(v: i128) -> Value {
    Value::Int(v)
}

pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Encodes, checks the bytes, decodes back to the same value.
pub fn check_bytes(schema: &Schema, ty: TypeId, value: &Value, expected: &str) {
    let bytes = encode(schema, ty, value).unwrap();
    assert_eq!(hex(&bytes), expected, "{value:?}");
    assert_eq!(&decode(schema, ty, &bytes).unwrap(), value);
}

pub fn wire(result: Result<impl std::fmt::Debug, CodecError>) -> (ErrorKind, u64, String) {
    match result {
        Err(CodecError::Wire { kind, bit, path }) => (kind, bit, path),
        other => panic!("expected a wire error, got {other:?}"),
    }
}

pub fn json_err(result: Result<impl std::fmt::Debug, CodecError>) -> (JsonErrorKind, String) {
    match result {
        Err(CodecError::Json { kind, path, .. }) => (kind, path),
        other => panic!("expected a JSON error, got {other:?}"),
    }
}

pub fn w(kind: ErrorKind, bit: u64, path: &str) -> (ErrorKind, u64, String) {
    (kind, bit, path.to_string())
}
