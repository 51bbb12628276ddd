//! The bincode encoding (docs/spec.md §13) of every named type, printed when
//! [`GoOptions::bincode`](super::GoOptions) is set: the size constants, the
//! top-level `AppendBincode`, `EncodeBincode`, `DecodeBincode`,
//! `DecodeBincodeWithLimits`, `VerifyBincodeX` and `VerifyBincodeXWithLimits`, and
//! (in [`super::bincode_encode`] and [`super::bincode_decode`]) `WriteBincode`,
//! `ReadBincode` and `VerifyXBincode`, which they call.
//!
//! The names mirror the packed codec's: methods add `Bincode` to the verb
//! (`Decode` → `DecodeBincode`), the reader-level verifier adds it where the packed
//! one adds `Packed` (`VerifyXPacked` → `VerifyXBincode`), and the top-level
//! verifier is `VerifyBincodeX`, as TypeScript's `verifyBincodeX`. Every width,
//! check, error kind, byte size and bulk form comes from
//! [`BincodePlan`](crate::plan::bincode::BincodePlan); nothing here reads the packed
//! plan.

use super::bincode_decode::decode_fn;
use super::bincode_encode::write_fn;
use super::decode::Mode;
use super::printer::Printer;
use super::types::{a, mut_receiver, receiver};
use super::{float_type, int_type, naming::Names, Gen};
use crate::ir::{Schema, Type, TypeId};
use crate::plan::bincode::{BincodePlan, Size};

/// The methods a struct or union gets with `--encoding bincode`; a field may not
/// share their names.
pub const METHODS: &[&str] = &[
    "AppendBincode",
    "DecodeBincode",
    "DecodeBincodeWithLimits",
    "EncodeBincode",
    "ReadBincode",
    "WriteBincode",
];

/// The bincode plan of a schema and the package-level names of its functions.
pub(crate) struct BinGen {
    pub plan: BincodePlan,
    pub consts: Vec<BinConsts>,
}

/// The package-level names of one named type's bincode codec.
#[derive(Debug, Clone)]
pub(crate) struct BinConsts {
    /// `Packet64MinBincodeSize`, `Packet64MaxBincodeSize` (when bounded).
    pub min_size: String,
    pub max_size: Option<String>,
    /// `VerifyBincodePacket64` and `VerifyBincodePacket64WithLimits`.
    pub verify: String,
    pub verify_limits: String,
    /// `VerifyPacket64Bincode`, the reader-level verifier.
    pub verify_at: String,
}

impl BinGen {
    /// Plans the schema and names its functions, after every other package-level
    /// name (so that they never rename an older one).
    pub fn new(schema: &Schema, names: &mut Names) -> BinGen {
        let plan = BincodePlan::build(schema);
        let mut consts = Vec::new();
        for (id, t) in plan.types.iter().enumerate() {
            let ident = names.types[id].ident.clone();
            let min_size = names.type_const(&ident, "MinBincodeSize");
            let max_size = t
                .size
                .max
                .map(|_| names.type_const(&ident, "MaxBincodeSize"));
            let verify = names.type_const("VerifyBincode", &ident);
            let verify_limits = names.type_const(&verify, "WithLimits");
            let verify_at = names.type_const(&format!("Verify{ident}"), "Bincode");
            consts.push(BinConsts {
                min_size,
                max_size,
                verify,
                verify_limits,
                verify_at,
            });
        }
        BinGen { plan, consts }
    }
}

impl Gen<'_> {
    /// The bincode plan and names (only called with `--encoding bincode`).
    pub(crate) fn bin(&self) -> &BinGen {
        self.bincode
            .as_ref()
            .expect("generating the bincode encoding")
    }

    /// The Go type of a value of IR type `ty`: the same as [`Gen::go_type`] gives
    /// for its packed node (the value is one Go value in both encodings).
    pub(crate) fn go_type_of(&self, ty: &Type) -> String {
        match ty {
            Type::Bool => "bool".into(),
            Type::UInt { repr, .. }
            | Type::SInt { repr, .. }
            | Type::Bounded { repr, .. }
            | Type::VarUInt { repr, .. }
            | Type::VarSInt { repr, .. } => int_type(*repr).into(),
            Type::Float { repr } | Type::Quantized { repr, .. } => float_type(*repr).into(),
            Type::Optional { inner } => format!("bitwire.Optional[{}]", self.go_type_of(inner)),
            Type::Array { elem, len } => format!("[{len}]{}", self.go_type_of(elem)),
            Type::List { elem, .. } => format!("[]{}", self.go_type_of(elem)),
            Type::String { .. } => "string".into(),
            Type::Bytes { .. } => "[]byte".into(),
            Type::Named { id, .. } => self.ident(*id).into(),
        }
    }
}

/// Prints the bincode constants and functions of a named type.
pub fn methods(g: &Gen, p: &mut Printer, id: TypeId) {
    size_constants(g, p, id);
    top_level(g, p, id);
    verify_fns(g, p, id);
    write_fn(g, p, id);
    decode_fn(g, p, id, Mode::Read);
    decode_fn(g, p, id, Mode::Check);
}

/// `XMinBincodeSize` and, for a bounded type, `XMaxBincodeSize`.
fn size_constants(g: &Gen, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    let c = &g.bin().consts[id];
    let size = g.bin().plan.get(id).size;
    p.blank();
    p.line(format!("// Bincode sizes (spec §13) of {ident}."));
    p.open("const (");
    p.doc(format!(
        "{} is the fewest bytes the bincode encoding of {} takes.",
        c.min_size,
        a(ident)
    ));
    p.line(format!("{} = {}", c.min_size, size.min));
    if let (Some(name), Some(max)) = (&c.max_size, size.max) {
        p.doc(format!(
            "{name} is the most bytes the bincode encoding of {} takes.",
            a(ident)
        ));
        p.line(format!("{name} = {max}"));
    }
    p.close(")");
}

/// The capacity `EncodeBincode` starts with for a type whose size varies: one small
/// allocation, doubled by `append` as the value needs.
const START_BYTES: u64 = 64;

/// The capacity `EncodeBincode` reserves: the size of a type whose every value has
/// one (as its constant), else what the value needs at least, and at most
/// [`START_BYTES`] more of what it may need.
fn encode_capacity(c: &BinConsts, size: Size) -> String {
    match size.max {
        Some(0) => "nil".into(),
        Some(max) if max == size.min => format!("make([]byte, 0, {})", c.min_size),
        max => {
            let start = max
                .map_or(START_BYTES, |m| m.min(START_BYTES))
                .max(size.min);
            format!("make([]byte, 0, {start})")
        }
    }
}

/// `AppendBincode`, `EncodeBincode`, `DecodeBincode` and `DecodeBincodeWithLimits`.
fn top_level(g: &Gen, p: &mut Printer, id: TypeId) {
    let (recv, r) = receiver(g, id);
    let (mrecv, mr) = mut_receiver(g, id);
    p.blank();
    p.line(format!(
        "// AppendBincode appends the bincode encoding of {r} (spec §13) to dst. On error"
    ));
    p.line("// it returns dst unchanged.");
    p.open(format!(
        "func ({recv}) AppendBincode(dst []byte) ([]byte, error) {{"
    ));
    p.line("w := bitwire.NewByteWriter(dst)");
    p.open(format!("if err := {r}.WriteBincode(&w); err != nil {{"));
    p.line("return dst, err");
    p.close("}");
    p.line("return w.Bytes(), nil");
    p.close("}");
    p.blank();
    p.line(format!(
        "// EncodeBincode returns the bincode encoding of {r} in a new slice."
    ));
    p.open(format!("func ({recv}) EncodeBincode() ([]byte, error) {{"));
    let init = encode_capacity(&g.bin().consts[id], g.bin().plan.get(id).size);
    p.line(format!("b, err := {r}.AppendBincode({init})"));
    p.if_err("nil, err");
    p.line("return b, nil");
    p.close("}");
    p.blank();
    p.line(format!(
        "// DecodeBincode sets {mr} to the bincode value in all of b (spec §13: no bytes"
    ));
    p.line(format!(
        "// may follow it), reusing the capacity of {mr}'s slices, with the default"
    ));
    p.line(format!(
        "// decode budget (spec §11.5). On error {mr} holds a partly decoded value."
    ));
    p.open(format!("func ({mrecv}) DecodeBincode(b []byte) error {{"));
    read_top_level(p, &format!("{mr}.ReadBincode"), "bitwire.NewByteReader(b)");
    p.close("}");
    p.blank();
    p.line("// DecodeBincodeWithLimits is DecodeBincode with the decode budget of limits");
    p.line("// (spec §11.5) instead of the default one.");
    p.open(format!(
        "func ({mrecv}) DecodeBincodeWithLimits(b []byte, limits bitwire.Limits) error {{"
    ));
    read_top_level(
        p,
        &format!("{mr}.ReadBincode"),
        "bitwire.NewByteReaderWithLimits(b, limits)",
    );
    p.close("}");
}

/// `VerifyBincodeX` and `VerifyBincodeXWithLimits`: the reader-level verifier over
/// the whole input, then the top-level check.
fn verify_fns(g: &Gen, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    let c = &g.bin().consts[id];
    p.blank();
    p.doc(format!(
        "{} checks that b is exactly one valid bincode encoding of {} and returns the \
         error DecodeBincode would return for b (same kind, bit, path and detail), \
         without building the value and without allocating unless b is invalid. It \
         charges the default decode budget as DecodeBincode does.",
        c.verify,
        a(ident)
    ));
    p.open(format!("func {}(b []byte) error {{", c.verify));
    read_top_level(p, &c.verify_at, "bitwire.NewByteReader(b)");
    p.close("}");
    p.blank();
    p.doc(format!(
        "{} is {} with the decode budget of limits (spec §11.5) instead of the \
         default one, as DecodeBincodeWithLimits.",
        c.verify_limits, c.verify
    ));
    p.open(format!(
        "func {}(b []byte, limits bitwire.Limits) error {{",
        c.verify_limits
    ));
    read_top_level(
        p,
        &c.verify_at,
        "bitwire.NewByteReaderWithLimits(b, limits)",
    );
    p.close("}");
}

/// The body of a top-level decode or verify: `read(&r)` through a reader made by
/// `reader`, then no trailing bytes.
fn read_top_level(p: &mut Printer, read: &str, reader: &str) {
    p.line(format!("r := {reader}"));
    p.open(format!("if err := {read}(&r); err != nil {{"));
    p.line("return err");
    p.close("}");
    p.line("return r.Finish()");
}

/// Whether an enum's declared values are its indices (0, 1, 2, …): then the value
/// converts to its index and back, with no table.
pub fn values_are_indices(values: &[u64]) -> bool {
    values.iter().enumerate().all(|(i, v)| *v == i as u64)
}

#[cfg(test)]
#[path = "bincode_tests.rs"]
mod tests;
