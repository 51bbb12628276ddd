//! Keyed lists in the delta encoding (spec §12.5): per keyed list of a delta
//! message, its `bitwire.Keyed` value (key, wire equality, copy, bounds) and the
//! functions that write and read its delta. The runtime walks the lists
//! (`Keyed.Events`, `Keyed.Merge`); these functions read and write the bits and call
//! the element's methods directly, so that the writer and reader never escape to the
//! heap (a call through a function value would make them).

use super::delta::{desc_name, field_node, keyed_of, site_name};
use super::printer::Printer;
use super::Gen;
use crate::ir::TypeId;
use crate::plan::delta::KeyedDelta;

/// Prints the `bitwire.Keyed` value of every keyed list field of struct `id`.
pub fn keyed_descs(g: &Gen, p: &mut Printer, id: TypeId) {
    let mut done: Vec<usize> = Vec::new();
    for s in g.delta.structs.iter().filter(|s| s.id == id) {
        for f in &s.fields {
            let Some(k) = keyed_of(&f.delta) else {
                continue;
            };
            if done.contains(&f.index) {
                continue;
            }
            done.push(f.index);
            keyed_desc(g, p, id, f.index, &f.name, k);
        }
    }
}

/// Prints the `bitwire.Keyed` value of one keyed list and the functions that
/// write and read its delta.
fn keyed_desc(g: &Gen, p: &mut Printer, id: TypeId, index: usize, name: &str, k: &KeyedDelta) {
    let elem = g.ident(k.elem);
    let key_member = &g.names.types[k.elem].members[k.key];
    let key_ty = g.go_type(field_node(g, k.elem, k.key));
    let desc = desc_name(g, id, index);
    p.blank();
    p.doc(format!(
        "{desc} describes the keyed list {}.{name} (elements {elem}, key {}) to the delta \
         codecs (spec §12.5).",
        g.schema.types[id].name, k.key_name
    ));
    p.open(format!("var {desc} = bitwire.Keyed[{elem}, {key_ty}]{{"));
    let field = |p: &mut Printer, doc: &str, line: String| {
        p.line(format!("// {doc}"));
        p.line(line);
    };
    field(
        p,
        "The key.",
        format!("Key: func(v *{elem}) {key_ty} {{ return v.{key_member} }},"),
    );
    field(
        p,
        "Whether an element changed.",
        format!("Equal: (*{elem}).wireEqual,"),
    );
    field(
        p,
        "Kept elements, decoded.",
        format!("Copy: (*{elem}).copyFrom,"),
    );
    if let Some(m) = k.max {
        field(p, "The bound.", format!("Max: {m},"));
        field(p, "The list has a bound.", "HasMax: true,".into());
    }
    field(
        p,
        "Fewest bits of an element, and its decode budget charge.",
        format!("MinBits: {},", k.elem_min_bits),
    );
    p.line(format!("PerElem: {},", k.charge_per_elem));
    p.close("}");
    let site = site_name(g, id, index);
    keyed_write_fn(p, &site, &desc, elem, key_member);
    keyed_read_fn(p, &site, &desc, elem, key_member);
}

/// Prints `writeXDelta`: the keyed list delta of cur against base, which differ
/// (§12.5): the events over base, then the added elements.
fn keyed_write_fn(p: &mut Printer, site: &str, desc: &str, elem: &str, key_member: &str) {
    p.blank();
    p.doc(format!(
        "write{site}Delta writes the keyed list delta of cur against base, which differ \
         (spec §12.5): both must be strictly ascending by key (else InvalidKey, base \
         first); errors inside a changed element carry its index in base, inside an added \
         one its index among the added elements."
    ));
    p.open(format!(
        "func write{site}Delta(w *bitwire.BitWriter, cur, base []{elem}) error {{"
    ));
    p.if_init_err(&format!("err := {desc}.CheckOrder(base, 0)"), "err");
    p.if_init_err(&format!("err := {desc}.CheckOrder(cur, 0)"), "err");
    p.line(format!("ev := {desc}.Events(cur, base)"));
    p.open("for ev.Next() {");
    p.line("w.WriteExpGolomb(ev.Gap)");
    p.open("if ev.Removed {");
    p.line("w.WriteBits(1, 1)");
    p.line("continue");
    p.close("}");
    p.line("w.WriteBits(0, 1)");
    p.open(format!(
        "if err := cur[ev.Cur].writeDeltaWithout{key_member}(w, &base[ev.Base]); err != nil {{"
    ));
    p.line("return bitwire.AtIndex(err, ev.Base)");
    p.close("}");
    p.close("}");
    p.open("if ev.Gap > 0 {");
    p.line("w.WriteExpGolomb(ev.Gap)");
    p.close("}");
    p.line("w.WriteExpGolomb(uint64(len(cur) - ev.Kept))");
    p.open("for ev.NextAdded() {");
    p.open("if err := cur[ev.Cur].WritePacked(w); err != nil {");
    p.line("return bitwire.AtIndex(err, ev.Added)");
    p.close("}");
    p.close("}");
    p.line("return nil");
    p.close("}");
}

/// Prints `readXDelta`: a keyed list delta against base decoded into dst (its
/// capacity reused), with every check of §12.5 and §12.8.
fn keyed_read_fn(p: &mut Printer, site: &str, desc: &str, elem: &str, key_member: &str) {
    p.blank();
    p.doc(format!(
        "read{site}Delta decodes a keyed list delta against base into dst, reusing its \
         capacity, and returns it (spec §12.5): the kept elements of base, copied or \
         changed, merged by key with the added ones. A base that is not strictly \
         ascending by key is InvalidKey at bit 0. A dst that shares base's array is not \
         reused; on error the list holds a partly decoded value."
    ));
    p.open(format!(
        "func read{site}Delta(r *bitwire.BitReader, dst, base []{elem}) ([]{elem}, error) {{"
    ));
    p.if_init_err(&format!("err := {desc}.CheckOrder(base, 0)"), "dst, err");
    p.line("dst = bitwire.Resize(bitwire.Unshare(dst, base), len(base))");
    p.line("kept, p, events := 0, 0, false");
    p.open("for p < len(base) {");
    p.line("g, err := r.ReadGap(len(base) - p)");
    p.if_err("dst, err");
    p.open("for end := p + g; p < end; p++ {");
    p.line("dst[kept].copyFrom(&base[p])");
    p.line("kept++");
    p.close("}");
    p.open("if p == len(base) {");
    p.line("break");
    p.close("}");
    p.line("events = true");
    p.line("removed, err := r.ReadBool()");
    p.if_err("dst, bitwire.AtIndex(err, p)");
    p.open("if !removed {");
    p.open(format!(
        "if err := dst[kept].readDeltaWithout{key_member}(r, &base[p], true); err != nil {{"
    ));
    p.line("return dst, bitwire.AtIndex(err, p)");
    p.close("}");
    p.line("kept++");
    p.close("}");
    p.line("p++");
    p.close("}");
    p.line(format!(
        "a, err := r.ReadAdded(kept, {desc}.Max, {desc}.HasMax, {desc}.MinBits, {desc}.PerElem)"
    ));
    p.if_err("dst, err");
    p.open("if !events && a == 0 {");
    p.line("return dst, bitwire.UnchangedError(r.BitPos(), \"keyed list\")");
    p.close("}");
    p.line(format!("merge := {desc}.Merge(dst, base, kept, a)"));
    p.open("for i := 0; i < a; i++ {");
    p.line("start := r.BitPos()");
    p.open("if err := merge.Slot().ReadPacked(r); err != nil {");
    p.line("return merge.List(), bitwire.AtIndex(err, i)");
    p.close("}");
    p.open("if err := merge.Place(start); err != nil {");
    p.line("return merge.List(), bitwire.AtIndex(err, i)");
    p.close("}");
    p.close("}");
    p.line("return merge.List(), nil");
    p.close("}");
}
