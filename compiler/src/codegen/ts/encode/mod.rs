//! `writeX` / `encodeX`: the packed encoder of each named type, printed from its codec
//! plan (spec §3–§5).
//!
//! A run is checked and then written as one or two 32-bit words built with constant
//! shifts ([`bits`](super::bits)); other fields are written one by one inside a `try`
//! that adds the field to the path of any error. TypeScript values can be anything, so
//! every value is checked, not only the ones the schema narrows: a `number` that is not
//! an integer of the field's range, a `boolean` field given a string, a list that is
//! not an array are errors with the plan's kind, at the bit where the value would
//! start, never truncated or coerced to fit.

mod runs;
mod values;

use super::printer::Printer;
use super::{int_lit, naming, wrapped, Gen, Locals};
use crate::codegen::ts::bits::Raw;
use crate::ir::TypeId;
use crate::plan::{Body, EnumPlan, Kind, Lang, Run, StructPlan, UnionPlan};
pub(crate) use runs::{checked_raw, Member};
use runs::{range_error_fn, write_run, Checks};
pub(crate) use values::write_value;

/// Prints `encodeX`: the top-level encoding of a value.
pub fn top_level(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let ident = g.ident(id);
    // A reused writer keeps its buffer; a fresh one starts at the largest size (or 64).
    let capacity = def.packed.max_bytes().map_or(64, |b| b.clamp(8, 1024));
    p.doc(&[
        vec![format!(
            "Encodes a `{ident}` at the top level (spec §2.1), padded with zero bits to a byte."
        )],
        vec![
            "Returns a view of the writer's buffer, valid until the writer is used again;".into(),
            "pass a writer to reuse its buffer across messages (no allocation once grown),".into(),
            "copy the result (`.slice()`) to keep it. Throws {@link bw.BitwireError} for a".into(),
            "value the schema cannot hold (`OutOfRange`, `InvalidLength`, `InvalidEnum`,".into(),
            "`InvalidUtf8`), including values of the wrong JavaScript type.".into(),
        ],
    ]);
    p.list_open(
        &format!("export function encode{ident}("),
        &[
            format!("value: {ident}"),
            format!("w: bw.BitWriter = new bw.BitWriter({capacity})"),
        ],
        "): Uint8Array {",
    );
    p.line("w.reset();");
    if let Some(s) = whole_run(g, id) {
        // One run of at most 64 bits: the write function's checks, then the message's
        // bytes in one call instead of a write and a finish (the errors' positions
        // count from the reset writer's bit 0, as in the write function).
        p.line("const v = value;");
        let mut locals = Locals::default();
        locals.reserve("w");
        locals.reserve("v");
        locals.reserve("value");
        let (returned, _) = struct_body(g, p, id, s, &mut locals, true);
        debug_assert!(returned, "a whole run returns its encoding");
        p.close("}");
        return;
    }
    p.line(format!("write{ident}(w, value);"));
    p.line("return w.finish();");
    p.close("}");
}

/// The plan of a struct that is one run of 1 to 64 bits, not a lone `f64` (the cases
/// `write_run` can return as a whole message).
fn whole_run<'g>(g: &'g Gen, id: TypeId) -> Option<&'g StructPlan> {
    let Body::Struct(s) = &g.plan.get(id).body else {
        return None;
    };
    let [crate::plan::Step::Run(run)] = s.steps.as_slice() else {
        return None;
    };
    let lone_f64 = matches!(run.leaves.as_slice(), [leaf] if leaf.scalar.kind
        == crate::plan::ScalarKind::Float { repr: crate::ir::FloatRepr::F64 });
    (1..=64)
        .contains(&run.bits)
        .then_some(s)
        .filter(|_| !lone_f64)
}

/// Prints `writeX`: the value's bit stream at the writer's position.
pub fn write_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    p.doc(&[vec![
        "Writes the value's bit stream (no padding) at the writer's position.".into(),
    ]]);
    let mut locals = Locals::default();
    locals.reserve("w");
    locals.reserve("v");
    match &g.plan.get(id).body {
        Body::Struct(s) => write_struct(g, p, id, s, &mut locals),
        Body::Enum(e) => write_enum(g, p, id, e, &mut locals),
        Body::Union(u) => write_union(g, p, id, u, &mut locals),
    }
}

fn write_struct(g: &Gen, p: &mut Printer, id: TypeId, s: &StructPlan, locals: &mut Locals) {
    let ident = g.ident(id);
    p.open(format!(
        "export function write{ident}(w: bw.BitWriter, v: {ident}): void {{"
    ));
    let checks = struct_body(g, p, id, s, locals, false).1;
    p.close("}");
    if !checks.is_empty() {
        p.blank();
        range_error_fn(g, p, id, &checks);
    }
}

/// The body of `writeX` for a struct (`v` the value, `w` the writer); with `whole` (see
/// [`whole_run`]) the run returns the message's encoding. Returns whether the body ends
/// in a return, and the combined checks its `xRangeError` finds the failing one of.
fn struct_body<'g>(
    g: &'g Gen,
    p: &mut Printer,
    id: TypeId,
    s: &'g StructPlan,
    locals: &mut Locals,
    whole: bool,
) -> (bool, Checks<'g>) {
    let kind = g.plan.get(id).body.wrong_type_kind();
    object_check(
        p,
        "v",
        "w.bitPos",
        kind,
        &g.schema.types[id].name,
        "struct",
        &[],
    );
    let mut checks = Checks::new(&g.names.types[id].lower);
    let mut leaves = super::decode::LeafLocals::new(g, id, locals);
    let mut checked: Vec<Vec<usize>> = Vec::new();
    let mut returned = false;
    for step in &s.steps {
        match step {
            crate::plan::Step::Run(run) => {
                nested_object_checks(g, p, id, run, &mut checked);
                let members: Vec<Member> = run
                    .leaves
                    .iter()
                    .map(|leaf| Member {
                        value: format!("v.{}", super::leaf_props(g, id, &leaf.path).join(".")),
                        local: Some(leaves.get(g, &leaf.path, locals)),
                        scalar: &leaf.scalar,
                        offset: leaf.offset,
                        names: leaf.names.clone(),
                        origin: "w.bitPos",
                    })
                    .collect();
                returned = write_run(g, p, locals, &members, run.bits, Some(&mut checks), whole);
            }
            crate::plan::Step::Field(i) => {
                let f = &s.fields[*i];
                let value = format!("v.{}", g.names.types[id].members[*i]);
                if f.node.encode_can_fail(Lang::TS) {
                    let seg = naming::str_lit(&f.name);
                    wrapped(p, "inField", &seg, |p| {
                        write_value(g, p, locals, &f.node, &value);
                    });
                } else {
                    write_value(g, p, locals, &f.node, &value);
                }
            }
        }
    }
    (returned, checks)
}

fn write_enum(g: &Gen, p: &mut Printer, id: TypeId, e: &EnumPlan, locals: &mut Locals) {
    let ident = g.ident(id);
    let lower = &g.names.types[id].lower;
    p.open(format!(
        "export function write{ident}(w: bw.BitWriter, v: {ident}): void {{"
    ));
    let tag = locals.fresh("tag");
    p.line(format!("const {tag} = {lower}Tag(v);"));
    p.open(format!("if ({tag} < {}) {{", int_lit(0, g.enum_big(id))));
    p.line("throw bw.enumError(w.bitPos, v);");
    p.close("}");
    if e.tag_bits > 0 {
        let raw = match (g.enum_big(id), Raw::of(e.tag_bits)) {
            (true, Raw::N32 | Raw::N53) => format!("Number({tag})"),
            _ => tag,
        };
        write_tag(p, &raw, e.tag_bits);
    }
    p.close("}");
}

fn write_union(g: &Gen, p: &mut Printer, id: TypeId, u: &UnionPlan, locals: &mut Locals) {
    let ident = g.ident(id);
    p.open(format!(
        "export function write{ident}(w: bw.BitWriter, v: {ident}): void {{"
    ));
    let name = &g.schema.types[id].name;
    let kind = g.plan.get(id).body.wrong_type_kind();
    object_check(p, "v", "w.bitPos", kind, name, "union", &[]);
    p.open("switch (v.kind) {");
    for arm in &u.arms {
        p.open(format!("case {}: {{", naming::str_lit(&arm.name)));
        if u.tag_bits > 0 {
            let tag = int_lit(i128::from(arm.tag), Raw::of(u.tag_bits) == Raw::Big);
            write_tag(p, &tag, u.tag_bits);
        }
        if let Some(node) = &arm.payload {
            let seg = naming::str_lit(&arm.name);
            if node.encode_can_fail(Lang::TS) {
                wrapped(p, "inField", &seg, |p| {
                    write_value(g, p, locals, node, "v.value");
                });
            } else {
                write_value(g, p, locals, node, "v.value");
            }
        }
        p.line("return;");
        p.close("}");
    }
    p.close("}");
    p.line("// Only reachable from untyped JavaScript: a kind the union does not declare.");
    p.line("throw bw.enumError(w.bitPos, (v as { kind: unknown }).kind);");
    p.close("}");
}

/// Prints the check that `x` is an object, before any property of it is read: from
/// untyped JavaScript, `null`, `undefined` or a primitive where a struct or union
/// must be fails with the plan's kind for the type (`Node::wrong_type_kind`) at the
/// bit where the value would start, not with the engine's `TypeError`.
pub(crate) fn object_check(
    p: &mut Printer,
    x: &str,
    at: &str,
    kind: Kind,
    name: &str,
    what: &str,
    path: &[String],
) {
    p.open_if(&format!("typeof {x} !== \"object\" || {x} === null"));
    let mut args = vec![
        format!("\"{}\"", kind.name()),
        at.to_string(),
        x.to_string(),
        format!("\"an object ({what} {name})\""),
    ];
    args.extend(path.iter().map(|n| naming::str_lit(n)));
    p.list("throw bw.typeError(", &args, ");");
    p.close("}");
}

/// The object checks of the nested structs a run reaches into (`v.buttons` before
/// `v.buttons.fire` is read), outermost first, each once per write function, at the
/// bit of the struct's first scalar.
fn nested_object_checks(
    g: &Gen,
    p: &mut Printer,
    id: TypeId,
    run: &Run,
    checked: &mut Vec<Vec<usize>>,
) {
    for prefix in run.nested_structs() {
        if checked.contains(&prefix) {
            continue;
        }
        let first = run
            .leaves
            .iter()
            .find(|l| l.path.starts_with(&prefix))
            .expect("a nested struct has a scalar in the run");
        let inner = g.plan.nested_struct(id, &prefix);
        let value = format!("v.{}", super::leaf_props(g, id, &prefix).join("."));
        let at = match first.offset {
            0 => "w.bitPos".to_string(),
            o => format!("w.bitPos + {o}"),
        };
        let names = &first.names[..prefix.len()];
        let name = &g.schema.types[inner].name;
        let kind = g.plan.get(inner).body.wrong_type_kind();
        object_check(p, &value, &at, kind, name, "struct", names);
        checked.push(prefix);
    }
}

/// Writes a tag (a literal or a checked local) of `bits` bits.
fn write_tag(p: &mut Printer, tag: &str, bits: u32) {
    match Raw::of(bits) {
        Raw::N32 => p.line(format!("w.writeBits({tag}, {bits});")),
        Raw::N53 => p.line(format!("w.writeUint({tag}, {bits});")),
        Raw::Big => p.line(format!("w.writeBig({tag}, {bits});")),
    }
}
