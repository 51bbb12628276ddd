//! Delta codecs (spec §12) for every `delta message`: `encodeDeltaX`, `decodeDeltaX`
//! and `verifyDeltaX`, printed from the delta plan ([`crate::plan::delta`]) next to the
//! codec plan, whose nodes give each value's full encoding and checks. Nothing here
//! decides a wire rule: the plan says how each field travels (a difference code, field
//! by field, element by element, a keyed list delta, or its full encoding), the spec
//! how those are written.
//!
//! What this backend decides is how to find out, in JavaScript, whether a value
//! changed before its changed bit is written:
//!
//! - scalars compare their wire values (§12.2: the quantized `q`, `v - MIN`, the IEEE
//!   bits with NaN canonical), computed with the full encoder's checks;
//! - structs, arrays and keyed lists write their delta speculatively after a changed
//!   bit of 1 and rewind the writer when nothing in it changed (for a keyed list's
//!   element: after its gap code and op bit, so unchanged elements cost one pass);
//! - strings compare as strings (equal UTF-8 exactly when equal UTF-16, once both are
//!   checked); other values that travel whole are encoded into scratch writers and
//!   compared bit for bit, which is what §12.2 defines equality as.
//!
//! The encoder's fast path checks exactly the values the reference codec checks, but
//! not in its order; when it fails, `deltaXError` finds the error the reference
//! reports first (§12.7: each field of the baseline, then of the value, in full).

mod decode;
mod encode;
mod equal;
mod keyed;
mod names;
mod wire;

pub(crate) use names::{row_index, DeltaNames};

use super::printer::Printer;
use super::{naming, Gen};
use crate::ir::TypeId;
use crate::plan::delta::StructDelta;

/// Prints every delta function of the schema (nothing without a `delta message`).
pub fn emit(g: &Gen, p: &mut Printer) {
    for &id in &g.delta.messages {
        let row = g.delta_row(id, None);
        p.blank();
        encode::top_level(g, p, id, row);
        p.blank();
        decode::top_level(g, p, id, row);
        p.blank();
        verify_top_level(g, p, id, row);
        p.blank();
        encode::error_fn(g, p, id, row);
        p.blank();
        ring_codec(g, p, id, row);
    }
    let eq = equal::needed(&g.delta);
    for (i, s) in g.delta.structs.iter().enumerate() {
        p.blank();
        encode::row_fn(g, p, i, s);
        if eq[i] {
            p.blank();
            equal::eq_fn(g, p, i, s);
        }
        p.blank();
        decode::row_fn(g, p, i, s);
        if let Some(key) = s.without {
            p.blank();
            key_fn(g, p, i, s, key);
            p.blank();
            keyed::ascending_fn(g, p, i, s, key);
        }
    }
}

/// Prints `verifyDeltaX`, which decodes and drops the result: a delta decoder builds
/// little (the parts that did not change are the baseline's own values), so a second
/// walk that builds nothing would save little and could drift from the decoder.
fn verify_top_level(g: &Gen, p: &mut Printer, id: TypeId, row: usize) {
    let ident = g.ident(id);
    let names = &g.delta_names.rows[row];
    p.doc(&[vec![
        format!(
            "Checks a delta as `{}` does, with the same budget and",
            names.decode
        ),
        "the same {@link bw.BitwireError}, and drops the value.".into(),
    ]]);
    p.list_open(
        &format!("export function {}(", names.verify),
        &[
            format!("baseline: {ident}"),
            "bytes: Uint8Array".into(),
            "limits?: bw.Limits".into(),
        ],
        "): void {",
    );
    p.line(format!("{}(baseline, bytes, limits);", names.decode));
    p.close("}");
}

/// Prints `xDeltaCodec`: the message's full and delta encodings as the snapshot rings
/// of the runtime take them (`new bw.SnapshotSender(worldDeltaCodec)`, docs/framing.md
/// §10).
fn ring_codec(g: &Gen, p: &mut Printer, id: TypeId, row: usize) {
    let ident = g.ident(id);
    let names = &g.delta_names.rows[row];
    p.doc(&[vec![
        format!("`{ident}`'s encodings for the snapshot rings (`bw.SnapshotSender`,"),
        "`bw.SnapshotReceiver`): in full, or as a delta against a baseline.".into(),
    ]]);
    p.open(format!(
        "export const {}: bw.DeltaCodec<{ident}> = {{",
        names.codec
    ));
    p.line(format!("encode: encode{ident},"));
    p.line(format!("encodeDelta: {},", names.encode));
    p.line(format!("decode: decode{ident},"));
    p.line(format!("decodeDelta: {},", names.decode));
    p.close("};");
}

/// Prints `xKey`: the key of a keyed list's element, by which elements are ordered
/// and matched (§12.1): the integer, or an enum's tag (-1 for an undeclared name).
fn key_fn(g: &Gen, p: &mut Printer, row: usize, s: &StructDelta, key: usize) {
    let ident = g.ident(s.id);
    let names = &g.delta_names.rows[row];
    let node = &g.plan.struct_plan(s.id).expect("a struct").fields[key].node;
    let prop = &g.names.types[s.id].members[key];
    let (ty, expr) = wire::key_expr(g, node, &format!("e.{prop}"));
    p.doc(&[vec![format!(
        "The key of an element of a list of `{ident}` keyed by `{}` (spec §12.1).",
        g.plan.struct_plan(s.id).expect("a struct").fields[key].name
    )]]);
    p.open(format!("function {}(e: {ident}): {ty} {{", names.key));
    p.line(format!("return {expr};"));
    p.close("}");
}

/// Prints `deltaCodecs` (with `--json`): each `delta message`'s functions by schema
/// name, for code that picks a message at run time (tools, test runners).
pub fn codecs_table(g: &Gen, p: &mut Printer) {
    if g.delta.messages.is_empty() {
        return;
    }
    p.blank();
    p.doc(&[vec![
        "Every `delta message` of this schema by schema name, with its delta functions".into(),
        "(spec §12), for code that picks a message at run time.".into(),
    ]]);
    p.open("export const deltaCodecs: Readonly<Record<string, bw.DeltaTypeCodec<unknown>>> = {");
    for &id in &g.delta.messages {
        let names = &g.delta_names.rows[g.delta_row(id, None)];
        let name = &g.schema.types[id].name;
        p.open(format!("{}: {{", naming::prop_key(name)));
        p.line(format!("name: {},", naming::str_lit(name)));
        p.line(format!("encodeDelta: {},", names.encode));
        p.line(format!("decodeDelta: {},", names.decode));
        p.line(format!("verifyDelta: {},", names.verify));
        p.close("},");
    }
    p.close("};");
}

/// Prints a block in which `w` is `writer` (a scratch writer: `bw.deltaScratch(0)`, or
/// a local holding one), for the full encoder's printed code, which writes to `w`.
fn scratch_block(p: &mut Printer, writer: &str, body: impl FnOnce(&mut Printer)) {
    p.open("{");
    p.line(format!("const w = {writer};"));
    body(p);
    p.close("}");
}

#[cfg(test)]
mod tests;
