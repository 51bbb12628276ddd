//! The bincode encoding in TypeScript (docs/spec.md §13): with `TsOptions.bincode`,
//! every named type also gets `encodeBincodeX` / `decodeBincodeX` / `verifyBincodeX`
//! and the functions they call (`writeBincodeX`, `readBincodeX`, `skipBincodeX`),
//! printed from the bincode plan ([`crate::plan::bincode`]) alone: every width,
//! range, length check and error kind comes from it. The TypeScript types are the
//! packed codec's (`bigint` exactly where the range leaves ±(2^53 − 1), ADR 0006);
//! values go through `bw.ByteWriter` / `bw.ByteReader`, which check each JavaScript
//! value before writing it and each input byte before building anything.

mod read;
#[cfg(test)]
mod tests;
mod write;

use std::collections::HashSet;

use super::naming;
use super::printer::Printer;
use super::{Gen, MAX_SAFE};
use crate::ir::{IntRepr, TypeId};
use crate::plan::bincode::{BinBody, BinNode, BinOp, BincodePlan, Range};
use crate::plan::scalar::repr_range;
use crate::plan::{Form, Lane};

/// The bincode plan and the names of its functions, next to the packed codec's.
pub(crate) struct Bincode {
    pub plan: BincodePlan,
    /// By [`TypeId`].
    pub names: Vec<BinNames>,
}

/// The bincode functions and constants of one named type.
pub(crate) struct BinNames {
    pub encode: String,
    pub decode: String,
    pub verify: String,
    pub write: String,
    pub read: String,
    pub skip: String,
    /// `PACKET64_BINCODE_MIN_BYTES` / `..._MAX_BYTES`.
    pub min_bytes: String,
    pub max_bytes: String,
}

impl Bincode {
    /// Plans the schema's bincode encoding and names its functions, avoiding every
    /// module-level name of `g` (a collision appends `_` to the type's stem, as the
    /// delta functions' names do).
    pub fn new(g: &mut Gen) -> Bincode {
        let plan = BincodePlan::build(g.schema);
        let mut consts: HashSet<String> = g.names.constants.iter().cloned().collect();
        for t in &g.names.types {
            consts.insert(t.constant.clone());
            consts.extend(t.member_constants.iter().cloned());
        }
        let names = g
            .names
            .types
            .iter()
            .map(|t| {
                let mut stem = t.ident.clone();
                let fns = loop {
                    let fns = ["encode", "decode", "verify", "write", "read", "skip"]
                        .map(|verb| format!("{verb}Bincode{stem}"));
                    if fns.iter().all(|f| !g.globals.contains(f)) {
                        g.globals.extend(fns.iter().cloned());
                        break fns;
                    }
                    stem.push('_');
                };
                let [encode, decode, verify, write, read, skip] = fns;
                let mut constant = |suffix: &str| {
                    let base = format!("{}_BINCODE_{suffix}", t.constant);
                    crate::codegen::words::unique(base, &mut consts, "_")
                };
                BinNames {
                    min_bytes: constant("MIN_BYTES"),
                    max_bytes: constant("MAX_BYTES"),
                    encode,
                    decode,
                    verify,
                    write,
                    read,
                    skip,
                }
            })
            .collect();
        g.globals.insert("bincodeCodecs".into());
        Bincode { plan, names }
    }
}

/// Prints the bincode constants and functions of the named type `id`.
pub fn emit(g: &Gen, b: &Bincode, p: &mut Printer, id: TypeId) {
    constants(g, b, p, id);
    p.blank();
    top_level(g, b, p, id);
    p.blank();
    write::write_fn(g, b, p, id);
    p.blank();
    read::read_fn(g, b, p, id, read::Mode::Read);
    p.blank();
    read::read_fn(g, b, p, id, read::Mode::Skip);
}

fn constants(g: &Gen, b: &Bincode, p: &mut Printer, id: TypeId) {
    let name = &g.schema.types[id].name;
    let size = b.plan.get(id).size;
    let n = &b.names[id];
    p.line(format!(
        "/** Fewest bytes a `{name}` takes in the bincode encoding (spec §13.3). */"
    ));
    p.line(format!(
        "export const {} = {};",
        n.min_bytes,
        super::int_lit(i128::from(size.min), false)
    ));
    if let Some(max) = size.max {
        p.line(format!(
            "/** Most bytes a `{name}` takes in the bincode encoding. */"
        ));
        p.line(format!(
            "export const {} = {};",
            n.max_bytes,
            super::int_lit(i128::from(max), false)
        ));
    }
}

/// `encodeBincodeX`, `decodeBincodeX` and `verifyBincodeX`: a whole value.
fn top_level(g: &Gen, b: &Bincode, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    let n = &b.names[id];
    // A reused writer keeps its buffer; a fresh one starts at the largest size (or 64).
    let capacity = b.plan.get(id).size.max.map_or(64, |m| m.clamp(8, 1024));
    p.doc(&[
        vec![
            format!("Encodes a `{ident}` in the bincode encoding (spec §13): the bytes that"),
            "`bincode::serialize` (1.3) and wincode write for the equivalent Rust type.".into(),
        ],
        vec![
            "Returns a view of the writer's buffer, valid until the writer is used again;".into(),
            "pass a writer to reuse its buffer across messages (no allocation once grown),".into(),
            "copy the result (`.slice()`) to keep it. Throws {@link bw.BitwireError} for a".into(),
            "value the schema cannot hold, including values of the wrong JavaScript type.".into(),
        ],
    ]);
    p.list_open(
        &format!("export function {}(", n.encode),
        &[
            format!("value: {ident}"),
            format!("w: bw.ByteWriter = new bw.ByteWriter({capacity})"),
        ],
        "): Uint8Array {",
    );
    p.line("w.reset();");
    p.line(format!("{}(w, value);", n.write));
    p.line("return w.finish();");
    p.close("}");
    p.blank();
    p.doc(&[vec![
        format!("Decodes a whole input as a `{ident}` in the bincode encoding (spec §13):"),
        "no bytes may follow. Allocations are charged against the decode budget of".into(),
        "`limits` (spec §11.5; by default 1 MiB plus 64 bytes per input byte). Throws".into(),
        "{@link bw.BitwireError} for input spec §13 rejects.".into(),
    ]]);
    p.open(format!(
        "export function {}(bytes: Uint8Array, limits?: bw.Limits): {ident} {{",
        n.decode
    ));
    p.line("const r = new bw.ByteReader(bytes, limits);");
    p.line(format!("const value = {}(r);", n.read));
    p.line("r.finish();");
    p.line("return value;");
    p.close("}");
    p.blank();
    p.doc(&[vec![
        format!(
            "Checks a whole input as `{}` does, in the same order, with the",
            n.decode
        ),
        "same budget and the same {@link bw.BitwireError}, but builds no value.".into(),
    ]]);
    p.open(format!(
        "export function {}(bytes: Uint8Array, limits?: bw.Limits): void {{",
        n.verify
    ));
    p.line("const r = new bw.ByteReader(bytes, limits);");
    p.line(format!("{}(r);", n.skip));
    p.line("r.finish();");
    p.close("}");
}

/// `bincodeCodecs`: every named type's bincode functions by schema name (with `--json`).
pub fn codecs_table(g: &Gen, b: &Bincode, p: &mut Printer) {
    p.doc(&[vec![
        "Every named type's bincode functions (spec §13) by schema name, for code that".into(),
        "picks a type at run time (tools, test runners).".into(),
    ]]);
    p.open(
        "export const bincodeCodecs: Readonly<Record<string, bw.BincodeTypeCodec<unknown>>> = {",
    );
    for (id, def) in g.schema.types.iter().enumerate() {
        let lower = &g.names.types[id].lower;
        let n = &b.names[id];
        p.open(format!("{}: {{", naming::prop_key(&def.name)));
        p.line(format!("name: {},", naming::str_lit(&def.name)));
        p.line(format!("encode: {},", n.encode));
        p.line(format!("decode: {},", n.decode));
        p.line(format!("verify: {},", n.verify));
        p.line(format!("toJson: {lower}ToJson,"));
        p.line(format!("fromJson: {lower}FromJson,"));
        p.close("},");
    }
    p.close("};");
}

// What the plan's operations look like in TypeScript.

/// Whether an integer's TypeScript value is a `bigint`: its range (the schema's, or
/// its representation's) leaves ±(2^53 − 1), as for the packed codec's types.
pub(crate) fn wide(repr: IntRepr, range: Option<Range>) -> bool {
    let (min, max) = range.map_or_else(|| repr_range(repr), |r| (r.min, r.max));
    min.unsigned_abs() > MAX_SAFE || max.unsigned_abs() > MAX_SAFE
}

/// The runtime method of a whole representation (`u16`, `i64`): the writer's and the
/// reader's have the same names.
fn repr_method(repr: IntRepr) -> &'static str {
    crate::codegen::describe::int_repr_name(repr)
}

/// Bytes of an integer representation.
fn repr_bytes(repr: IntRepr) -> u32 {
    repr.bits() / 8
}

/// The runtime's name of a sequence's bulk form (`u8` for bytes, `f64` for lanes), the
/// stem of `w.f64s`, `r.f64s`; `None` for elements one by one.
fn lane_stem(form: Form) -> Option<&'static str> {
    Some(match form {
        Form::Bytes => "u8",
        Form::Lanes { lane } => match lane {
            Lane::U16 => "u16",
            Lane::U32 => "u32",
            Lane::U64 => "u64",
            Lane::I8 => "i8",
            Lane::I16 => "i16",
            Lane::I32 => "i32",
            Lane::I64 => "i64",
            Lane::F32 => "f32",
            Lane::F64 => "f64",
        },
        Form::Items => return None,
    })
}

/// The typed array a bulk form's values may also be given as (`Float64Array`).
fn lane_array(form: Form) -> Option<&'static str> {
    Some(match lane_stem(form)? {
        "u8" => "Uint8Array",
        "u16" => "Uint16Array",
        "u32" => "Uint32Array",
        "u64" => "BigUint64Array",
        "i8" => "Int8Array",
        "i16" => "Int16Array",
        "i32" => "Int32Array",
        "i64" => "BigInt64Array",
        "f32" => "Float32Array",
        _ => "Float64Array",
    })
}

/// Bytes of one element of a bulk form.
fn lane_bytes(form: Form) -> u64 {
    match form {
        Form::Lanes { lane } => u64::from(lane.bits() / 8),
        _ => 1,
    }
}

/// A length bound for the runtime: `Number.POSITIVE_INFINITY` for none, a `bigint`
/// literal above 2^53 − 1 (the reader compares exactly), else a number.
fn max_arg(max: Option<u64>) -> String {
    match max {
        None => "Number.POSITIVE_INFINITY".into(),
        Some(m) if u128::from(m) > MAX_SAFE => format!("{m}n"),
        Some(m) => m.to_string(),
    }
}

/// Whether a value takes no bytes (an empty struct, an array of them): nothing to
/// read, nothing that can fail on decode.
fn zero_size(node: &BinNode) -> bool {
    node.size.max == Some(0)
}

/// The TypeScript type of a value, from the packed codec's declaration of the same
/// field (the types do not depend on the encoding).
fn ts_type(g: &Gen, node: &BinNode) -> String {
    let int = |wide: bool| if wide { "bigint" } else { "number" };
    match &node.op {
        BinOp::Bool { .. } => "boolean".into(),
        BinOp::Int { repr, range } => int(wide(*repr, *range)).into(),
        BinOp::Float { .. } => "number".into(),
        BinOp::Enum { id } | BinOp::Named { id } => g.ident(*id).into(),
        BinOp::Optional { inner, .. } => format!("{} | null", ts_type(g, inner)),
        BinOp::Array { elem, .. } | BinOp::List { elem, .. } => match typed_array(g, elem) {
            Some(t) => t.into(),
            None => format!("{}[]", elem_type(g, elem)),
        },
        BinOp::String { .. } => "string".into(),
        BinOp::Bytes { .. } => "Uint8Array".into(),
    }
}

/// The typed array a sequence of `elem` is held in, with `TsOptions::typed_arrays`:
/// the packed codec's choice (its plan's form of the element), so that the types do
/// not depend on the encoding.
fn typed_array(g: &Gen, elem: &BinNode) -> Option<&'static str> {
    g.typed_form(crate::plan::form(&elem.ty))
}

/// An element type, bracketed when it is a union (`(number | null)[]`).
fn elem_type(g: &Gen, elem: &BinNode) -> String {
    let t = ts_type(g, elem);
    match elem.op {
        BinOp::Optional { .. } => format!("({t})"),
        _ => t,
    }
}

/// The body of a named type's plan.
fn body(b: &Bincode, id: TypeId) -> &BinBody {
    &b.plan.get(id).body
}
