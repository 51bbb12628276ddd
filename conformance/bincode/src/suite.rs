//! A suite of bincode vectors being written: every case goes through the real crates
//! before it is recorded.
//!
//! - valid: `bincode::serialize` and `wincode::serialize` (default configuration) give the
//!   same bytes, both crates' strict decoders read them back to the same bytes, the serde
//!   value mirrors the schema type ([`crate::mirror`]), and its JSON maps back onto the
//!   schema to the same value;
//! - decode-invalid: what strict bincode (`DefaultOptions::new().with_fixint_encoding()`)
//!   and `wincode::deserialize_exact` do with the bytes is asserted and written in the
//!   note; the error's path and byte are checked to be a value of the model the bytes
//!   were made from;
//! - encode-invalid: both crates write the value (they do not know the schema's bounds).

use std::collections::BTreeSet;
use std::path::PathBuf;

use bincode::Options;
use bitwire_compiler::codec::{self, Value};
use bitwire_compiler::ir::{Schema, TypeId};
use serde::{de::DeserializeOwned, Serialize};
use serde_json::{json, Map, Value as Json};
use wincode::config::DefaultConfig;
use wincode::{SchemaRead, SchemaWrite};

use crate::mirror::{self, Places};
use crate::shape;

/// A serde type that also has wincode's derives: a mirror of a schema type.
pub trait Peer:
    Serialize
    + DeserializeOwned
    + SchemaWrite<DefaultConfig, Src = Self>
    + for<'de> SchemaRead<'de, DefaultConfig, Dst = Self>
{
}

impl<T> Peer for T where
    T: Serialize
        + DeserializeOwned
        + SchemaWrite<DefaultConfig, Src = T>
        + for<'de> SchemaRead<'de, DefaultConfig, Dst = T>
{
}

/// What the crates' strict decoders do with a decode-invalid case's bytes.
#[derive(Debug, Clone, Copy)]
pub enum Peers {
    /// Both reject it.
    Reject,
    /// Both accept it; the reason bitwire does not (a schema bound, a max, the budget).
    Accept(&'static str),
}

/// The error a case expects: kind, path, and the byte where the failing value starts
/// (the vector holds `bit = 8 × byte`, docs/spec.md §13.1); for a decode-invalid case,
/// also what the crates' strict decoders do with the bytes.
#[derive(Debug, Clone)]
pub struct Expect {
    pub kind: &'static str,
    pub path: String,
    pub byte: u64,
    pub peers: Peers,
}

/// An [`Expect`] whose bytes the crates reject too.
pub fn at(kind: &'static str, path: &str, byte: u64) -> Expect {
    Expect {
        kind,
        path: path.to_string(),
        byte,
        peers: Peers::Reject,
    }
}

impl Expect {
    /// The crates accept the bytes, for the reason `why`.
    pub fn accepted(self, why: &'static str) -> Expect {
        Expect {
            peers: Peers::Accept(why),
            ..self
        }
    }
}

/// Folder of the bincode vectors.
pub fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/vectors/bincode")
}

pub struct Suite {
    pub name: &'static str,
    description: String,
    schema: Schema,
    cases: Vec<Json>,
    ids: BTreeSet<String>,
}

/// Strict bincode: fixed-width integers, trailing bytes rejected (docs/spec.md §13.5).
fn strict_bincode<T: Peer>(bytes: &[u8]) -> Result<T, bincode::Error> {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .deserialize(bytes)
}

impl Suite {
    /// A suite named `name`, its schema read from `<name>.bw`.
    pub fn new(name: &'static str, description: &str) -> Suite {
        let path = vectors_dir().join(format!("{name}.bw"));
        let schema = bitwire_compiler::compile_file(&path)
            .unwrap_or_else(|d| panic!("{}: {d:?}", path.display()));
        Suite {
            name,
            description: description.to_string(),
            schema,
            cases: Vec::new(),
            ids: BTreeSet::new(),
        }
    }

    fn type_id(&self, ty: &str) -> TypeId {
        self.schema
            .type_by_name(ty)
            .unwrap_or_else(|| panic!("{}: no type {ty}", self.name))
    }

    /// The value's JSON (through the reference codec's mapping) and its places, after
    /// checking that the serde value mirrors the schema type.
    fn mirror<T: Peer>(&self, id: &str, ty: &str, value: &T) -> (Json, Value, Places) {
        let node = shape::shape(value).unwrap_or_else(|e| panic!("{id}: {e}"));
        let tid = self.type_id(ty);
        let mut places = Places::new();
        let v = mirror::named_value(&self.schema, tid, &node, &mut places)
            .unwrap_or_else(|e| panic!("{id}: the serde value does not mirror {ty}: {e}"));
        let written = bincode::serialize(value).expect("bincode writes every mirror value");
        assert_eq!(
            node.len,
            written.len() as u64,
            "{id}: shape and bincode sizes"
        );
        (codec::value_to_json(&self.schema, tid, &v), v, places)
    }

    /// The bytes both crates write for `value`, asserted equal.
    fn peer_bytes<T: Peer>(id: &str, value: &T) -> Vec<u8> {
        let b = bincode::serialize(value).unwrap_or_else(|e| panic!("{id}: bincode: {e}"));
        let w = wincode::serialize(value).unwrap_or_else(|e| panic!("{id}: wincode: {e}"));
        assert_eq!(hex(&b), hex(&w), "{id}: bincode and wincode bytes differ");
        b
    }

    fn case(&mut self, id: &str, ty: &str) -> Map<String, Json> {
        assert!(
            id.starts_with(&format!("{}.", self.name)) && id.split('.').count() == 3,
            "{id}: ids are <suite>.<group>.<case>"
        );
        assert!(self.ids.insert(id.to_string()), "{id}: duplicate id");
        let mut c = Map::new();
        c.insert("id".into(), json!(id));
        c.insert("type".into(), json!(ty));
        c
    }

    fn push(&mut self, mut c: Map<String, Json>, note: String) {
        if !note.is_empty() {
            c.insert("note".into(), json!(note));
        }
        self.cases.push(Json::Object(c));
    }

    /// Both crates round-trip `bytes` (decode, then encode back to the same bytes).
    fn round_trips<T: Peer>(id: &str, bytes: &[u8]) {
        let b: T = strict_bincode(bytes).unwrap_or_else(|e| panic!("{id}: bincode reads: {e}"));
        let w: T = wincode::deserialize_exact(bytes)
            .unwrap_or_else(|e| panic!("{id}: wincode reads: {e}"));
        assert_eq!(
            bincode::serialize(&b).unwrap(),
            bytes,
            "{id}: bincode again"
        );
        assert_eq!(
            wincode::serialize(&w).unwrap(),
            bytes,
            "{id}: wincode again"
        );
    }

    /// A valid case: `value` encodes to the crates' bytes and decodes back. Returns them.
    pub fn valid<T: Peer>(&mut self, id: &str, ty: &str, value: &T, note: &str) -> Vec<u8> {
        let bytes = Self::peer_bytes(id, value);
        Self::round_trips::<T>(id, &bytes);
        let (j, v, _) = self.mirror(id, ty, value);
        let back = codec::value_from_json(&self.schema, self.type_id(ty), &j)
            .unwrap_or_else(|e| panic!("{id}: the JSON does not map back: {e}"));
        assert_eq!(back, v, "{id}: the JSON maps back to another value");
        let mut c = self.case(id, ty);
        c.insert("value".into(), j);
        c.insert("bytes".into(), json!(hex(&bytes)));
        c.insert("result".into(), json!("valid"));
        self.push(c, note.to_string());
        bytes
    }

    /// A one-way case (`"result": "decodes"`): the bytes decode to `value`'s JSON, which
    /// cannot hold the value exactly (a NaN's payload), so encoding the JSON gives other
    /// bytes; the decoded value itself encodes back to the same bytes.
    pub fn decodes<T: Peer>(&mut self, id: &str, ty: &str, value: &T, note: &str) {
        let bytes = Self::peer_bytes(id, value);
        Self::round_trips::<T>(id, &bytes);
        let (j, _, _) = self.mirror(id, ty, value);
        let mut c = self.case(id, ty);
        c.insert("value".into(), j);
        c.insert("bytes".into(), json!(hex(&bytes)));
        c.insert("result".into(), json!("decodes"));
        self.push(c, note.to_string());
    }

    /// A decode-invalid case: `model`'s bytes after `edit` fail with `expect`, which must
    /// name a value of `model` (or, for `TrailingData`, the byte after it).
    pub fn bad_bytes<T: Peer>(
        &mut self,
        id: &str,
        ty: &str,
        model: &T,
        edit: impl FnOnce(&mut Vec<u8>),
        expect: Expect,
        note: &str,
    ) {
        let mut bytes = Self::peer_bytes(id, model);
        let (_, _, places) = self.mirror(id, ty, model);
        let len = bytes.len() as u64;
        edit(&mut bytes);
        let named = places
            .iter()
            .any(|(p, o)| *p == expect.path && *o == expect.byte);
        let trailing =
            expect.kind == "TrailingData" && expect.path.is_empty() && expect.byte == len;
        assert!(named || trailing, "{id}: no value {expect:?} in the model");
        assert!(
            expect.byte <= bytes.len() as u64,
            "{id}: error past the input"
        );
        let b = strict_bincode::<T>(&bytes);
        let w = wincode::deserialize_exact::<T>(&bytes);
        let note = match expect.peers {
            Peers::Reject => {
                assert!(b.is_err(), "{id}: strict bincode accepts it");
                assert!(w.is_err(), "{id}: wincode accepts it");
                format!("{note} Strict bincode and wincode reject it too.")
            }
            Peers::Accept(why) => {
                assert!(b.is_ok(), "{id}: strict bincode rejects it: {:?}", b.err());
                assert!(w.is_ok(), "{id}: wincode rejects it: {:?}", w.err());
                format!("{note} Strict bincode and wincode accept it: {why}.")
            }
        };
        let mut c = self.case(id, ty);
        c.insert("bytes".into(), json!(hex(&bytes)));
        c.insert("result".into(), json!("invalid"));
        c.insert("error".into(), error_json(&expect));
        self.push(c, note.trim_start().to_string());
    }

    /// An encode-invalid case: `value` (which the crates write, not knowing the schema's
    /// bounds) fails to encode with `expect`, at a value of it.
    pub fn bad_value<T: Peer>(
        &mut self,
        id: &str,
        ty: &str,
        value: &T,
        expect: Expect,
        note: &str,
    ) {
        let bytes = Self::peer_bytes(id, value);
        Self::round_trips::<T>(id, &bytes);
        let (j, _, places) = self.mirror(id, ty, value);
        assert!(
            places
                .iter()
                .any(|(p, o)| *p == expect.path && *o == expect.byte),
            "{id}: no value {expect:?}"
        );
        let mut c = self.case(id, ty);
        c.insert("value".into(), j);
        c.insert("result".into(), json!("invalid"));
        c.insert("error".into(), error_json(&expect));
        let written = if bytes.len() <= 24 {
            hex(&bytes)
        } else {
            format!("{} bytes", bytes.len())
        };
        let note = format!("{note} bincode::serialize and wincode write it ({written}).");
        self.push(c, note.trim_start().to_string());
    }

    /// The case file's text.
    pub fn render(&self) -> String {
        let mut out = String::from("{\n");
        out += &format!("  \"suite\": {},\n", json!(self.name));
        out += &format!("  \"schema\": {},\n", json!(format!("{}.bw", self.name)));
        out += "  \"encoding\": \"bincode\",\n";
        out += &format!("  \"description\": {},\n", json!(self.description));
        out += "  \"cases\": [\n";
        let mut group = "";
        for (i, c) in self.cases.iter().enumerate() {
            let id = c["id"].as_str().unwrap_or_default();
            let g = id.split('.').nth(1).unwrap_or_default();
            if i > 0 {
                out += if g != group { ",\n\n" } else { ",\n" };
            }
            group = g;
            out += "    ";
            out += &inline(c);
        }
        out += "\n  ]\n}\n";
        out
    }

    pub fn len(&self) -> usize {
        self.cases.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cases.is_empty()
    }
}

fn error_json(e: &Expect) -> Json {
    json!({"kind": e.kind, "bit": e.byte * 8, "path": e.path})
}

/// Lowercase hex, two digits per byte.
pub fn hex(bytes: &[u8]) -> String {
    codec::to_hex(bytes)
}

/// JSON on one line with a space after `:` and `,` (the other vector files' style).
fn inline(v: &Json) -> String {
    match v {
        Json::Array(items) => {
            let inner: Vec<String> = items.iter().map(inline).collect();
            format!("[{}]", inner.join(", "))
        }
        Json::Object(m) => {
            let inner: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", json!(k), inline(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        other => other.to_string(),
    }
}
