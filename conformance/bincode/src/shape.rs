//! A serde serializer that records the *shape* of a value instead of its bytes: every
//! value as a [`Node`] with its kind and the byte offset and length it takes in the
//! bincode encoding (fixint: a `u64` length before sequences, a `u8` option tag, a `u32`
//! variant index). The mirror check (`crate::mirror`) walks it next to the schema's IR,
//! and the error offsets of the vectors are looked up in it.

use std::fmt;

use serde::ser::{self, Serialize};

/// One value of the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Byte offset of the value's first byte in the bincode encoding.
    pub offset: u64,
    /// Bytes the value takes.
    pub len: u64,
    pub kind: Kind,
}

/// What serde was given.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Bool(bool),
    /// An integer of a Rust type `bits` wide (8, 16, 32, 64).
    Int {
        bits: u32,
        signed: bool,
        value: i128,
    },
    F32(f32),
    F64(f64),
    Str(String),
    None,
    Some(Box<Node>),
    /// A sequence: with a `u64` length (`Vec`, `serialize_seq`) or without (a fixed array,
    /// `serialize_tuple`).
    Seq {
        prefixed: bool,
        items: Vec<Node>,
    },
    /// A struct with named fields.
    Struct {
        name: &'static str,
        fields: Vec<(&'static str, Node)>,
    },
    /// An enum variant: unit (`payload: None`) or newtype.
    Variant {
        enum_name: &'static str,
        index: u32,
        name: &'static str,
        payload: Option<Box<Node>>,
    },
}

/// A serde shape the mirror types never use (chars, maps, tuple variants, …).
#[derive(Debug)]
pub struct Unsupported(String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unsupported serde shape: {}", self.0)
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Unsupported(msg.to_string())
    }
}

/// The shape of `value`, its first byte at offset 0.
pub fn shape<T: Serialize + ?Sized>(value: &T) -> Result<Node, Unsupported> {
    let mut pos = 0;
    value.serialize(Shaper { pos: &mut pos })
}

/// The serializer: `pos` is the running byte offset.
pub struct Shaper<'a> {
    pos: &'a mut u64,
}

impl Shaper<'_> {
    fn leaf(self, bytes: u64, kind: Kind) -> Result<Node, Unsupported> {
        let offset = *self.pos;
        *self.pos += bytes;
        Ok(Node {
            offset,
            len: bytes,
            kind,
        })
    }

    fn int(self, bits: u32, signed: bool, value: i128) -> Result<Node, Unsupported> {
        self.leaf(
            u64::from(bits / 8),
            Kind::Int {
                bits,
                signed,
                value,
            },
        )
    }
}

/// A compound value being built: its start, and the bytes before its first member.
pub struct Compound<'a> {
    pos: &'a mut u64,
    start: u64,
    build: Build,
}

enum Build {
    Seq(bool, Vec<Node>),
    Struct(&'static str, Vec<(&'static str, Node)>),
}

impl Compound<'_> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        let node = value.serialize(Shaper { pos: self.pos })?;
        match &mut self.build {
            Build::Seq(_, items) => items.push(node),
            Build::Struct(..) => return Err(Unsupported("unnamed struct member".into())),
        }
        Ok(())
    }

    fn finish(self) -> Result<Node, Unsupported> {
        let kind = match self.build {
            Build::Seq(prefixed, items) => Kind::Seq { prefixed, items },
            Build::Struct(name, fields) => Kind::Struct { name, fields },
        };
        Ok(Node {
            offset: self.start,
            len: *self.pos - self.start,
            kind,
        })
    }
}

fn unsupported<T>(what: &str) -> Result<T, Unsupported> {
    Err(Unsupported(what.to_string()))
}

impl<'a> ser::Serializer for Shaper<'a> {
    type Ok = Node;
    type Error = Unsupported;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = ser::Impossible<Node, Unsupported>;
    type SerializeTupleVariant = ser::Impossible<Node, Unsupported>;
    type SerializeMap = ser::Impossible<Node, Unsupported>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = ser::Impossible<Node, Unsupported>;

    fn serialize_bool(self, v: bool) -> Result<Node, Unsupported> {
        self.leaf(1, Kind::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Node, Unsupported> {
        self.int(8, true, v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<Node, Unsupported> {
        self.int(16, true, v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<Node, Unsupported> {
        self.int(32, true, v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<Node, Unsupported> {
        self.int(64, true, v.into())
    }
    fn serialize_u8(self, v: u8) -> Result<Node, Unsupported> {
        self.int(8, false, v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<Node, Unsupported> {
        self.int(16, false, v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<Node, Unsupported> {
        self.int(32, false, v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<Node, Unsupported> {
        self.int(64, false, v.into())
    }
    fn serialize_f32(self, v: f32) -> Result<Node, Unsupported> {
        self.leaf(4, Kind::F32(v))
    }
    fn serialize_f64(self, v: f64) -> Result<Node, Unsupported> {
        self.leaf(8, Kind::F64(v))
    }
    fn serialize_char(self, _: char) -> Result<Node, Unsupported> {
        unsupported("char")
    }
    fn serialize_str(self, v: &str) -> Result<Node, Unsupported> {
        self.leaf(8 + v.len() as u64, Kind::Str(v.to_string()))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<Node, Unsupported> {
        unsupported("serialize_bytes (the mirror types hold Vec<u8>, a sequence)")
    }
    fn serialize_none(self) -> Result<Node, Unsupported> {
        self.leaf(1, Kind::None)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Node, Unsupported> {
        let offset = *self.pos;
        *self.pos += 1;
        let inner = value.serialize(Shaper { pos: self.pos })?;
        Ok(Node {
            offset,
            len: *self.pos - offset,
            kind: Kind::Some(Box::new(inner)),
        })
    }
    fn serialize_unit(self) -> Result<Node, Unsupported> {
        unsupported("()")
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<Node, Unsupported> {
        unsupported(name)
    }
    fn serialize_unit_variant(
        self,
        enum_name: &'static str,
        index: u32,
        name: &'static str,
    ) -> Result<Node, Unsupported> {
        self.leaf(
            4,
            Kind::Variant {
                enum_name,
                index,
                name,
                payload: None,
            },
        )
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        _: &T,
    ) -> Result<Node, Unsupported> {
        unsupported(name)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        enum_name: &'static str,
        index: u32,
        name: &'static str,
        value: &T,
    ) -> Result<Node, Unsupported> {
        let offset = *self.pos;
        *self.pos += 4;
        let payload = value.serialize(Shaper { pos: self.pos })?;
        Ok(Node {
            offset,
            len: *self.pos - offset,
            kind: Kind::Variant {
                enum_name,
                index,
                name,
                payload: Some(Box::new(payload)),
            },
        })
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        if len.is_none() {
            return unsupported("a sequence of unknown length");
        }
        let start = *self.pos;
        *self.pos += 8;
        Ok(Compound {
            pos: self.pos,
            start,
            build: Build::Seq(true, Vec::new()),
        })
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Unsupported> {
        let start = *self.pos;
        Ok(Compound {
            pos: self.pos,
            start,
            build: Build::Seq(false, Vec::new()),
        })
    }
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Unsupported> {
        unsupported(name)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        name: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Unsupported> {
        unsupported(name)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unsupported> {
        unsupported("a map")
    }
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<'a>, Unsupported> {
        let start = *self.pos;
        Ok(Compound {
            pos: self.pos,
            start,
            build: Build::Struct(name, Vec::new()),
        })
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        name: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Unsupported> {
        unsupported(name)
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = Node;
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.push(value)
    }
    fn end(self) -> Result<Node, Unsupported> {
        self.finish()
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = Node;
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.push(value)
    }
    fn end(self) -> Result<Node, Unsupported> {
        self.finish()
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = Node;
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        let node = value.serialize(Shaper { pos: self.pos })?;
        match &mut self.build {
            Build::Struct(_, fields) => fields.push((key, node)),
            Build::Seq(..) => return unsupported("a named member in a sequence"),
        }
        Ok(())
    }
    fn end(self) -> Result<Node, Unsupported> {
        self.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct S {
        a: u8,
        b: Option<u32>,
        c: Vec<u16>,
        d: [u8; 2],
        e: String,
    }

    #[test]
    fn offsets_follow_bincode() {
        let s = S {
            a: 1,
            b: Some(2),
            c: vec![3, 4],
            d: [5, 6],
            e: "hé".into(),
        };
        let node = shape(&s).unwrap();
        let bytes = bincode::serialize(&s).unwrap();
        assert_eq!(node.len, bytes.len() as u64);
        let Kind::Struct { fields, .. } = node.kind else {
            panic!("not a struct")
        };
        let offsets: Vec<u64> = fields.iter().map(|(_, n)| n.offset).collect();
        // a at 0; b: tag at 1, u32 to 6; c: length at 6, two u16 to 18; d to 20; e.
        assert_eq!(offsets, [0, 1, 6, 18, 20]);
        assert_eq!(fields[4].1.len, 8 + 3);
    }
}
