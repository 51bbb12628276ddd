//! An optional trace of the packed decoder: which bits became which value.
//!
//! The decoder ([`decode_with`](super::decode_with)) reports every value it reads to an
//! [`Observer`] in stream order: leaves ([`Leaf`]: a scalar, a union tag, a presence
//! bit, a length prefix, a string's bytes) and the composites around them
//! ([`Group`]: structs, unions, arrays, lists, present optionals). Nothing is reported
//! for the value that fails; the error itself is the decoder's result.
//!
//! [`decode`](super::decode) uses the unit observer `()`, whose
//! [`ENABLED`](Observer::ENABLED) is `false`: every report is behind that constant, so
//! the untraced decoder compiles to what it was without the hooks.
//!
//! [`Trace`] is the ready-made sink: a flat `Vec<TraceEntry>` with nesting depths, used
//! by `bitwire explain`.

use super::Value;
use crate::ir::FloatRepr;

/// A value read from the stream that has no parts of its own.
#[derive(Debug, Clone, PartialEq)]
pub enum Leaf {
    /// A `bool`.
    Bool(bool),
    /// A fixed-width `uN` / `iN`; `raw` is the stored bits.
    Int { raw: u64, value: i128 },
    /// A bounded integer: `stored` is `v - MIN` (spec §4.2).
    Bounded { stored: u64, value: i128 },
    /// A varint (spec §5.4); `prefix_end` is the stream offset where the group-count
    /// prefix ends and the `4n`-bit payload `raw` starts. For signed varints `value` is
    /// the zigzag-decoded `raw`.
    Varint {
        prefix_end: u64,
        raw: u64,
        value: i128,
        signed: bool,
    },
    /// An IEEE float (spec §3.2).
    Float { repr: FloatRepr, value: f64 },
    /// A quantized float: grid index `q` and the value it stands for (spec §4.3).
    Quantized { repr: FloatRepr, q: u64, value: f64 },
    /// An enum value's tag and variant name.
    Enum { tag: u64, name: String },
    /// A union's tag and variant name (the payload follows, one level deeper).
    Tag { tag: u64, variant: String },
    /// An optional's presence bit (spec §5.3).
    Presence(bool),
    /// A list, string or bytes length prefix (spec §5.6); `prefix_end` as for
    /// [`Leaf::Varint`] when the length is a varint.
    Length { len: u64, prefix_end: Option<u64> },
    /// A string's bytes, after the length prefix.
    Str(String),
    /// A `bytes` value's bytes, after the length prefix.
    Bytes(Vec<u8>),
}

/// A composite value; everything reported until the matching
/// [`exit`](Observer::exit) is part of it.
#[derive(Debug, Clone, PartialEq)]
pub enum Group {
    /// A struct or message (its type name).
    Struct(String),
    /// A union (its type name); the tag comes first.
    Union(String),
    /// A fixed-length array of `len` elements.
    Array(u64),
    /// A list; the length prefix comes first.
    List,
    /// The value inside a present optional (after its presence bit).
    Some,
}

/// Receives the decoder's reports, in stream order. Paths are spec §7.3 field paths.
pub trait Observer {
    /// `false` only for observers that ignore everything: the decoder then skips
    /// building reports at all.
    const ENABLED: bool = true;

    /// A leaf value occupying stream bits `start..end`.
    fn leaf(&mut self, path: &str, start: u64, end: u64, leaf: Leaf) {
        let _ = (path, start, end, leaf);
    }

    /// A composite value starting at bit `start`.
    fn enter(&mut self, path: &str, start: u64, group: Group) {
        let _ = (path, start, group);
    }

    /// The innermost open composite ended at bit `end` (not called when it failed).
    fn exit(&mut self, end: u64) {
        let _ = end;
    }

    /// The top-level value ended at bit `end`; padding (spec §2.2) is checked next.
    fn data_end(&mut self, end: u64) {
        let _ = end;
    }
}

/// The observer that ignores everything: plain [`decode`](super::decode).
impl Observer for () {
    const ENABLED: bool = false;
}

/// What a [`TraceEntry`] records.
#[derive(Debug, Clone, PartialEq)]
pub enum TraceItem {
    Leaf(Leaf),
    Group(Group),
}

/// One reported value.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceEntry {
    /// Nesting depth: 0 for the top-level value.
    pub depth: usize,
    /// Field path (spec §7.3), empty at the top level.
    pub path: String,
    /// First stream bit.
    pub start: u64,
    /// One past the last stream bit; for a group, `None` while it is open (and for
    /// ever if decoding failed inside it).
    pub end: Option<u64>,
    pub item: TraceItem,
}

/// A flat trace of a decode: every value with its depth, in stream order.
#[derive(Debug, Default, Clone)]
pub struct Trace {
    pub entries: Vec<TraceEntry>,
    /// Where the top-level value ended, if it decoded completely.
    pub data_end: Option<u64>,
    /// Indices of the open groups.
    open: Vec<usize>,
}

impl Observer for Trace {
    fn leaf(&mut self, path: &str, start: u64, end: u64, leaf: Leaf) {
        self.entries.push(TraceEntry {
            depth: self.open.len(),
            path: path.to_string(),
            start,
            end: Some(end),
            item: TraceItem::Leaf(leaf),
        });
    }

    fn enter(&mut self, path: &str, start: u64, group: Group) {
        self.open.push(self.entries.len());
        self.entries.push(TraceEntry {
            depth: self.open.len() - 1,
            path: path.to_string(),
            start,
            end: None,
            item: TraceItem::Group(group),
        });
    }

    fn exit(&mut self, end: u64) {
        let i = self.open.pop().expect("Observer::exit without enter");
        self.entries[i].end = Some(end);
    }

    fn data_end(&mut self, end: u64) {
        self.data_end = Some(end);
    }
}

/// Decodes like [`decode`](super::decode) and also returns the trace of everything
/// read up to the end or the error.
pub fn trace(
    schema: &crate::ir::Schema,
    ty: crate::ir::TypeId,
    bytes: &[u8],
) -> (Trace, Result<Value, super::CodecError>) {
    let mut t = Trace::default();
    let result = super::decode::decode_with(schema, ty, bytes, &mut t);
    (t, result)
}
