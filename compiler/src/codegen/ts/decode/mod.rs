//! `readX` and `skipX`: the packed decoder of each named type and its validating half,
//! printed by one walk over the codec plan (spec §3–§5, error order §7.2, budget §11);
//! `decodeX` and `verifyX` run them on a whole input with a reader of their own.
//!
//! Both halves print the same reads, checks and errors in the same order; `readX` also
//! builds the value, `skipX` builds nothing. So `verifyX(bytes)` fails exactly when
//! `decodeX(bytes)` does, with the same error, by construction: there is one walk, not
//! two kept in step by hand.

mod runs;
mod values;

use super::printer::Printer;
use super::{int_lit, naming, wrapped, Gen, Locals};
use crate::codegen::ts::bits::Raw;
use crate::codegen::ts::exprs::{enum_tag, enum_zero, read_uint};
use crate::ir::TypeId;
use crate::plan::{Arm, Body, EnumPlan, Step, StructPlan, UnionPlan};
pub(crate) use runs::run_tables;
pub(crate) use values::{decode_value, Mode};

/// Prints `decodeX`: a top-level value from a whole input, with a reader of its own.
pub fn top_level(g: &Gen, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    p.doc(&[vec![
        format!("Decodes a whole input as a `{ident}` (spec §2.2): the padding must be zero"),
        "and no bytes may follow. Allocations are charged against the decode budget of".into(),
        "`limits` (spec §11; by default 1 MiB plus 64 bytes per input byte). Throws".into(),
        "{@link bw.BitwireError} for input an encoder never writes.".into(),
    ]]);
    p.open(format!(
        "export function decode{ident}(bytes: Uint8Array, limits?: bw.Limits): {ident} {{"
    ));
    if let Some(run) = g.plan.struct_plan(id).and_then(|s| s.single_run()) {
        let mode = Mode::Read;
        runs::fast_path(g, p, runs::RunAt { id, run, mode });
    }
    p.line("const r = new bw.BitReader(bytes, limits);");
    p.line(format!("const value = read{ident}(r);"));
    p.line("r.finish();");
    p.line("return value;");
    p.close("}");
}

/// Prints `verifyX`: the checks of `decodeX` on a whole input, building nothing.
pub fn verify_top_level(g: &Gen, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    p.doc(&[vec![
        format!("Checks a whole input as `decode{ident}` does, in the same order, with the"),
        "same budget and the same {@link bw.BitwireError}, but builds no value.".into(),
    ]]);
    p.open(format!(
        "export function verify{ident}(bytes: Uint8Array, limits?: bw.Limits): void {{"
    ));
    if let Some(run) = g.plan.struct_plan(id).and_then(|s| s.single_run()) {
        let mode = Mode::Skip;
        runs::fast_path(g, p, runs::RunAt { id, run, mode });
    }
    p.line("const r = new bw.BitReader(bytes, limits);");
    p.line(format!("skip{ident}(r);"));
    p.line("r.finish();");
    p.close("}");
}

/// Prints `readX` (with the run tables it shares with `skipX` before it) or `skipX`.
pub fn decode_fn(g: &Gen, p: &mut Printer, id: TypeId, mode: Mode) {
    let plan = g.plan.get(id);
    let ident = g.ident(id);
    if let (Body::Struct(s), Mode::Read) = (&plan.body, mode) {
        run_tables(g, p, id, s);
    }
    let r = if plan.needs_reader(mode == Mode::Read) {
        "r"
    } else {
        "_r"
    };
    match mode {
        Mode::Read => {
            p.doc(&[vec!["Reads a value at the reader's position.".into()]]);
            p.open(format!(
                "export function read{ident}({r}: bw.BitReader): {ident} {{"
            ));
        }
        Mode::Skip => {
            p.doc(&[vec![
                "Moves past a value at the reader's position, checking it as the read does.".into(),
            ]]);
            p.open(format!(
                "export function skip{ident}({r}: bw.BitReader): void {{"
            ));
            if plan.is_zero_width() {
                p.line("// Every value encodes to zero bits: nothing to read or check.");
                p.close("}");
                return;
            }
        }
    }
    match &plan.body {
        Body::Struct(s) => decode_struct(g, p, id, s, mode),
        Body::Enum(e) => decode_enum(g, p, id, e, mode),
        Body::Union(u) => decode_union(g, p, u, mode),
    }
    p.close("}");
}

fn decode_struct(g: &Gen, p: &mut Printer, id: TypeId, s: &StructPlan, mode: Mode) {
    let mut locals = Locals::default();
    locals.reserve("r");
    let mut leaves = LeafLocals::new(g, id, &mut locals);
    let mut tables = runs::Tables::new(g, id, s);
    for step in &s.steps {
        match step {
            Step::Run(run) => {
                let at = runs::RunAt { id, run, mode };
                runs::decode_run(g, p, at, &mut locals, &mut leaves, &mut tables);
            }
            Step::Field(i) => {
                let f = &s.fields[*i];
                let l = leaves.get(g, &[*i], &mut locals);
                let seg = naming::str_lit(&f.name);
                match mode {
                    Mode::Read if f.node.is_zero_width() => {
                        let e = values::decode_value(g, p, &mut locals, &f.node, mode);
                        p.line(format!("const {l} = {};", e.expect("a value")));
                    }
                    Mode::Read => {
                        p.line(format!("let {l}: {};", g.ts_type(&f.node)));
                        wrapped(p, "inField", &seg, |p| {
                            let e = values::decode_value(g, p, &mut locals, &f.node, mode);
                            p.line(format!("{l} = {};", e.expect("a value")));
                        });
                    }
                    Mode::Skip if f.node.is_zero_width() => {}
                    Mode::Skip => wrapped(p, "inField", &seg, |p| {
                        values::decode_value(g, p, &mut locals, &f.node, mode);
                    }),
                }
            }
        }
    }
    if mode == Mode::Skip {
        return;
    }
    let names = &g.names.types[id];
    let items: Vec<String> = (0..s.fields.len())
        .map(|i| field_init(&names.members[i], &leaves.get(g, &[i], &mut locals)))
        .collect();
    if items.is_empty() {
        p.line("return {};");
    } else {
        p.list("return { ", &items, " };");
    }
}

/// `member: local`, or `member` when they are the same name.
pub(crate) fn field_init(member: &str, local: &str) -> String {
    if member == local {
        member.to_string()
    } else {
        format!("{member}: {local}")
    }
}

fn decode_enum(g: &Gen, p: &mut Printer, id: TypeId, e: &EnumPlan, mode: Mode) {
    let bits = e.tag_bits;
    let ident = g.ident(id);
    let lower = &g.names.types[id].lower;
    if bits == 0 {
        if mode == Mode::Read {
            p.line(format!("return {};", enum_zero(g, id)));
        }
        return;
    }
    let tag = enum_tag(g, id, &read_uint(bits), Raw::of(bits));
    if e.all_patterns_declared() {
        // Every pattern is a value: only truncation can fail.
        match mode {
            Mode::Read => p.line(format!("return {lower}FromTag({tag}) as {ident};")),
            Mode::Skip => p.line(format!("r.skip({bits});")),
        }
        return;
    }
    p.line("const at = r.bitPos;");
    p.line(format!("const tag = {};", read_uint(bits)));
    let tag = enum_tag(g, id, "tag", Raw::of(bits));
    match mode {
        Mode::Read => {
            p.line(format!("const value = {lower}FromTag({tag});"));
            p.open("if (value === undefined) {");
            p.line("throw bw.enumError(at, tag);");
            p.close("}");
            p.line("return value;");
        }
        Mode::Skip => {
            p.open(format!("if ({lower}FromTag({tag}) === undefined) {{"));
            p.line("throw bw.enumError(at, tag);");
            p.close("}");
        }
    }
}

fn decode_union(g: &Gen, p: &mut Printer, u: &UnionPlan, mode: Mode) {
    let mut locals = Locals::default();
    locals.reserve("r");
    if u.tag_bits == 0 {
        // One variant, tag 0 in zero bits: nothing to dispatch on.
        union_arm(g, p, &mut locals, &u.arms[0], mode);
        return;
    }
    locals.reserve("at");
    locals.reserve("tag");
    p.line("const at = r.bitPos;");
    p.line(format!("const tag = {};", read_uint(u.tag_bits)));
    p.open("switch (tag) {");
    for arm in &u.arms {
        let tag = int_lit(i128::from(arm.tag), Raw::of(u.tag_bits) == Raw::Big);
        p.open(format!("case {tag}: {{"));
        union_arm(g, p, &mut locals, arm, mode);
        if mode == Mode::Skip {
            p.line("return;");
        }
        p.close("}");
    }
    p.open("default:");
    p.line("throw bw.enumError(at, tag);");
    p.dedent();
    p.close("}");
}

/// The body of a union variant: read the payload and return the value, or check it.
fn union_arm(g: &Gen, p: &mut Printer, locals: &mut Locals, arm: &Arm, mode: Mode) {
    let kind = naming::str_lit(&arm.name);
    let Some(node) = &arm.payload else {
        if mode == Mode::Read {
            p.line(format!("return {{ kind: {kind} }};"));
        }
        return;
    };
    match mode {
        Mode::Read if node.is_zero_width() => {
            let e = values::decode_value(g, p, locals, node, mode).expect("a value");
            p.line(format!("return {{ kind: {kind}, value: {e} }};"));
        }
        Mode::Read => {
            let value = locals.fresh("value");
            p.line(format!("let {value}: {};", g.ts_type(node)));
            wrapped(p, "inField", &kind, |p| {
                let e = values::decode_value(g, p, locals, node, mode);
                p.line(format!("{value} = {};", e.expect("a value")));
            });
            let value = field_init("value", &value);
            p.line(format!("return {{ kind: {kind}, {value} }};"));
        }
        Mode::Skip if node.is_zero_width() => {}
        Mode::Skip => wrapped(p, "inField", &kind, |p| {
            values::decode_value(g, p, locals, node, mode);
        }),
    }
}

/// The locals that hold the values of a struct's fields while it is decoded, and of
/// the fields of structs nested in a run: the struct's own fields get their property's
/// local, a nested field `{parent}{Field}` (`buttonsFire`), made unique.
pub(crate) struct LeafLocals {
    /// The struct being decoded.
    id: TypeId,
    by_path: std::collections::HashMap<Vec<usize>, String>,
}

impl LeafLocals {
    /// The locals of struct `id`'s fields, reserved in `locals`.
    pub(crate) fn new(g: &Gen, id: TypeId, locals: &mut Locals) -> LeafLocals {
        let by_path = g.names.types[id]
            .members
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let l = g.local(m);
                locals.reserve(&l);
                (vec![i], l)
            })
            .collect();
        LeafLocals { id, by_path }
    }

    /// The local of the value at field-index `path` inside struct `id`'s value.
    pub(crate) fn get(&mut self, g: &Gen, path: &[usize], locals: &mut Locals) -> String {
        if let Some(l) = self.by_path.get(path) {
            return l.clone();
        }
        let parent = self.get(g, &path[..path.len() - 1], locals);
        let props = crate::codegen::ts::leaf_props(g, self.id, path);
        let member = props.last().expect("a member");
        let mut cs = member.trim_end_matches('_').chars();
        let upper: String = match cs.next() {
            Some(c) => c.to_uppercase().chain(cs).collect(),
            None => String::new(),
        };
        let l = locals.fresh(&g.local(&format!("{parent}{upper}")));
        self.by_path.insert(path.to_vec(), l.clone());
        l
    }
}
