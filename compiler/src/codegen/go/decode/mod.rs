//! `ReadPacked` and `VerifyXPacked`: the packed decoder of each named type and its
//! validating half, printed by one walk over the codec plan (spec §3–§5, error
//! order §7.2, decode budget §11).
//!
//! Both print the same reads, checks, errors and budget charges in the same order;
//! `ReadPacked` also stores the values (in place, reusing the capacity of the
//! destination's slices), the verifier stores nothing and allocates nothing. So
//! `VerifyX(b)` fails exactly when `Decode(b)` does, with the same error, by
//! construction: there is one walk, not two kept in step by hand. They are
//! package-level functions rather than methods: checking needs no value.

mod runs;
mod values;

use super::printer::Printer;
use super::scalars::zero_variant;
use super::{types, Ctx, Gen, Locals};
use crate::ir::TypeId;
use crate::plan::{Body, EnumPlan, Run, Step, StructPlan, UnionPlan};
pub use runs::Tables;
pub use values::decode_value;

/// Which half of the decoder is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `ReadPacked`: validate and store the value.
    Read,
    /// `VerifyXPacked`: validate only, store and allocate nothing.
    Check,
}

/// Prints `ReadPacked` (with the tables of its runs) or `VerifyXPacked` of a named
/// type.
pub fn decode_fn(g: &Gen, p: &mut Printer, id: TypeId, mode: Mode) {
    let ident = g.ident(id);
    p.blank();
    match mode {
        Mode::Read => {
            let (recv, r) = types::mut_receiver(g, id);
            p.line(format!(
                "// ReadPacked sets {r} to the value at r's position, reusing the capacity of its"
            ));
            p.line("// slices.");
            p.open(format!(
                "func ({recv}) ReadPacked(r *bitwire.BitReader) error {{"
            ));
        }
        Mode::Check => {
            let packed = &g.consts[id].verify_packed;
            p.doc(format!(
                "{packed} checks the {ident} at r's position as ReadPacked reads it, with the \
                 same errors and decode budget charges, and advances past it without \
                 building it."
            ));
            p.open(format!("func {packed}(r *bitwire.BitReader) error {{"));
        }
    }
    let mut tables = Tables::new(g, id);
    match &g.plan.get(id).body {
        Body::Struct(s) => decode_struct(g, p, id, s, &mut tables, mode),
        Body::Enum(e) => decode_enum(g, p, id, e, mode),
        Body::Union(u) => decode_union(g, p, id, u, mode),
    }
    p.line("return nil");
    p.close("}");
    if mode == Mode::Read {
        tables.print(p);
    }
}

fn decode_struct(
    g: &Gen,
    p: &mut Printer,
    id: TypeId,
    s: &StructPlan,
    tables: &mut Tables,
    mode: Mode,
) {
    let mut loc = Locals::new(&["m", "r"]);
    for step in &s.steps {
        match step {
            Step::Run(run) => {
                let c = loc.fresh("c");
                p.line(format!("{c} := r.ReadChunk({})", run.bits));
                runs::decode_run(g, p, &mut loc, id, run, &c, Some(tables), mode);
            }
            Step::Field(i) => {
                let f = &s.fields[*i];
                let ctx = Ctx::default().field(&f.name);
                let dest = format!("m.{}", g.names.types[id].members[*i]);
                let hint = &g.names.types[id].locals[*i];
                values::decode_value(g, p, &mut loc, &ctx, &f.node, &dest, hint, mode);
            }
        }
    }
}

fn decode_enum(g: &Gen, p: &mut Printer, id: TypeId, e: &EnumPlan, mode: Mode) {
    let ident = g.ident(id);
    let bits = e.tag_bits;
    if bits == 0 {
        if mode == Mode::Read {
            p.line(format!("*v = {}", zero_variant(g, id)));
        }
        return;
    }
    if e.all_patterns_declared() {
        // Every pattern is a value: only truncation can fail.
        match mode {
            Mode::Read => {
                p.line(format!("tag, err := r.ReadBits({bits})"));
                p.if_err("err");
                p.line(format!("*v = {ident}(tag)"));
            }
            Mode::Check => p.if_init_err(&format!("err := r.Skip({bits})"), "err"),
        }
        return;
    }
    p.line(format!("c := r.ReadChunk({bits})"));
    p.line(format!("tag, err := c.Get(0, {bits})"));
    p.if_err("err");
    p.open(format!("if !{ident}(tag).Valid() {{"));
    p.line("return c.EnumError(0, tag)");
    p.close("}");
    if mode == Mode::Read {
        p.line(format!("*v = {ident}(tag)"));
    }
}

fn decode_union(g: &Gen, p: &mut Printer, id: TypeId, u: &UnionPlan, mode: Mode) {
    let names = &g.names.types[id];
    let mut loc = Locals::new(&["m", "r", "c", "tag"]);
    let arm = |p: &mut Printer, loc: &mut Locals, k: usize| {
        let a = &u.arms[k];
        let (field, tag) = (&names.members[k], &names.tags[k]);
        match (&a.payload, mode) {
            (Some(node), Mode::Read) => {
                // Zero the other variants, keep this one's slices for reuse.
                p.line(format!(
                    "*m = {}{{Tag: {tag}, {field}: m.{field}}}",
                    names.ident
                ));
                let ctx = Ctx::default().field(&a.name);
                values::decode_value(g, p, loc, &ctx, node, &format!("m.{field}"), "v", mode);
            }
            (Some(node), Mode::Check) => {
                let ctx = Ctx::default().field(&a.name);
                values::decode_value(g, p, loc, &ctx, node, "", "v", mode);
            }
            (None, Mode::Read) => p.line(format!("*m = {}{{Tag: {tag}}}", names.ident)),
            (None, Mode::Check) => {}
        }
    };
    if u.tag_bits == 0 {
        // One variant, tag 0 in zero bits: nothing to dispatch on.
        arm(p, &mut loc, 0);
        return;
    }
    p.line(format!("c := r.ReadChunk({})", u.tag_bits));
    p.line(format!("tag, err := c.Get(0, {})", u.tag_bits));
    p.if_err("err");
    p.open(format!("switch {}(tag) {{", names.tag_type));
    for k in 0..u.arms.len() {
        p.middle(format!("case {}:", names.tags[k]));
        arm(p, &mut loc, k);
    }
    p.middle("default:");
    p.line("return c.EnumError(0, tag)");
    p.close("}");
}

/// Prints the top-level fast path of a single-run type (in `Decode` or `VerifyX`,
/// after the length check): the run's reads from one load of the whole input, which
/// holds every bit (so no truncation check), then the padding check.
pub fn decode_fast(g: &Gen, p: &mut Printer, id: TypeId, run: &Run, mode: Mode) {
    let bytes = run.bits.div_ceil(8);
    let padded = run.bits < bytes * 8;
    let load = match bytes {
        8 => "bitwire.Chunk64(b)",
        _ => "bitwire.ChunkOf(b)",
    };
    if mode == Mode::Read || padded || runs::checks_any(run) {
        let mut loc = Locals::new(&["m", "b", "c"]);
        p.line(format!("c := {load}"));
        runs::decode_run(g, p, &mut loc, id, run, "c", None, mode);
    }
    if padded {
        p.open(format!("if c.Word>>{} != 0 {{", run.bits));
        p.line(format!(
            "return bitwire.PaddingError({bits}, c.Word>>{bits}, {})",
            bytes * 8 - run.bits,
            bits = run.bits
        ));
        p.close("}");
    }
    p.line("return nil");
}
