//! `VerifyX` and `VerifyXPacked`: checking an encoding completely without decoding
//! it (spec §2.2, §3–§5, error order §7.2).
//!
//! The functions mirror the decoder of [`super::decode`] step for step — the same
//! runs loaded as one chunk, the same checks in the same order, the same run tables
//! for Truncated errors, the same single-run fast path — but keep no values: plain
//! fields are skipped, validated ones are read into locals and checked, strings are
//! checked for UTF-8 in place. So every input gets exactly the error `Decode` gives
//! (kind, bit and path), and nothing is allocated on success.
//!
//! They are package-level functions rather than methods: they need no value, and a
//! method would need a receiver that callers would have to invent.

use super::decode::is_plain;
use super::encode::is_byte;
use super::printer::Printer;
use super::types::a;
use super::{Ctx, EnumCheck, Gen, Locals};
use crate::codegen::plan::{self, Step};
use crate::ir::{FloatRepr, LengthEncoding, Type, TypeDefKind, TypeId};

/// Prints `VerifyX` (top level) and `VerifyXPacked` (at a reader's position).
pub fn verify_fns(g: &Gen, p: &mut Printer, id: TypeId, fast: Option<&plan::Run>) {
    let ident = g.ident(id);
    let (top, packed) = (&g.consts[id].verify, &g.consts[id].verify_packed);
    p.blank();
    p.line(format!(
        "// {top} checks that b is exactly one valid top-level encoding of {} and",
        a(ident)
    ));
    p.line("// returns the error Decode would return for b (same kind, bit and path), without");
    p.line("// building the value and without allocating unless b is invalid.");
    p.open(format!("func {top}(b []byte) error {{"));
    let fast = fast.zip(g.consts[id].max_size.as_ref());
    if let Some((_, size)) = fast {
        p.open(format!("if len(b) != {size} {{"));
        p.line("// Not one encoding long: the general path says why (spec §2.2).");
    }
    p.line("r := bitwire.NewBitReader(b)");
    p.open(format!("if err := {packed}(&r); err != nil {{"));
    p.line("return err");
    p.close("}");
    p.line("return r.Finish()");
    if let Some((run, _)) = fast {
        p.close("}");
        verify_fast(g, p, id, run);
    }
    p.close("}");

    let def = &g.schema.types[id];
    let names = &g.names.types[id];
    p.blank();
    p.line(format!(
        "// {packed} checks the {ident} at r's position as ReadPacked reads it, with the"
    ));
    p.line("// same errors, and advances past it without building it.");
    p.open(format!("func {packed}(r *bitwire.BitReader) error {{"));
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            let mut loc = Locals::new(&["r"]);
            let mut tables = 0;
            for step in plan::struct_plan(g.schema, fields) {
                match step {
                    Step::Run(run) if run.fields.len() > 1 => {
                        // The decoder's table, named as read_fn names it.
                        let name = format!("{}Run{}", names.lower, tables + 1);
                        let chunk = format!("r.ReadChunk({})", run.bits);
                        // Uses the table only where the decoder has one.
                        let used = verify_run(g, p, &mut loc, &run, id, &name, &chunk);
                        debug_assert!(!used || super::decode::run_has_table(&run, fields));
                        if super::decode::run_has_table(&run, fields) {
                            tables += 1;
                        }
                    }
                    Step::Run(run) => {
                        let i = run.fields[0].index;
                        let ctx = Ctx::default().field(&fields[i].name);
                        verify_into(g, p, &mut loc, &ctx, &fields[i].ty, &names.locals[i]);
                    }
                    Step::Field(i) => {
                        let ctx = Ctx::default().field(&fields[i].name);
                        verify_into(g, p, &mut loc, &ctx, &fields[i].ty, &names.locals[i]);
                    }
                }
            }
            p.line("return nil");
        }
        TypeDefKind::Enum {
            packed_tag_bits, ..
        } => {
            if *packed_tag_bits > 0 {
                p.line(format!("c := r.ReadChunk({packed_tag_bits})"));
                if matches!(g.enum_check(id), EnumCheck::Always | EnumCheck::Bits(_)) {
                    p.open(format!(
                        "if _, err := c.Get(0, {packed_tag_bits}); err != nil {{"
                    ));
                    p.line("return err");
                    p.close("}");
                } else {
                    p.line(format!("tag, err := c.Get(0, {packed_tag_bits})"));
                    p.if_err("err");
                    p.open(format!("if !{ident}(tag).Valid() {{"));
                    p.line("return c.Error(bitwire.InvalidEnum, 0)");
                    p.close("}");
                }
            }
            p.line("return nil");
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            let mut loc = Locals::new(&["r", "c", "tag"]);
            let arm = |p: &mut Printer, loc: &mut Locals, k: usize| {
                let v = &variants[k];
                if let Some(ty) = &v.payload {
                    let ctx = Ctx::default().field(&v.name);
                    verify_into(g, p, loc, &ctx, ty, "v");
                }
            };
            if *packed_tag_bits == 0 {
                arm(p, &mut loc, 0);
            } else {
                p.line(format!("c := r.ReadChunk({packed_tag_bits})"));
                p.line(format!("tag, err := c.Get(0, {packed_tag_bits})"));
                p.if_err("err");
                p.open(format!("switch {}(tag) {{", names.tag_type));
                for k in 0..variants.len() {
                    p.middle(format!("case {}:", names.tags[k]));
                    arm(p, &mut loc, k);
                }
                p.middle("default:");
                p.line("return c.Error(bitwire.InvalidEnum, 0)");
                p.close("}");
            }
            p.line("return nil");
        }
    }
    p.close("}");
}

/// The fast path of a single-run type whose input is exactly one encoding long:
/// the validated fields and the padding of the one chunk (plain fields need
/// nothing), as `decode::decode_fast` checks them.
fn verify_fast(g: &Gen, p: &mut Printer, id: TypeId, run: &plan::Run) {
    let TypeDefKind::Struct { fields } = &g.schema.types[id].kind else {
        unreachable!()
    };
    let bytes = run.bits.div_ceil(8);
    let padded = run.bits < bytes * 8;
    let checked = run.fields.iter().any(|rf| !is_plain(&fields[rf.index].ty));
    if checked || padded {
        let load = match bytes {
            8 => "bitwire.Chunk64(b)",
            _ => "bitwire.ChunkOf(b)",
        };
        let mut loc = Locals::new(&["b"]);
        verify_run(g, p, &mut loc, run, id, "", load);
        if padded {
            p.open(format!("if c.Word>>{} != 0 {{", run.bits));
            p.line(format!(
                "return bitwire.NewError(bitwire.InvalidPadding, {})",
                run.bits
            ));
            p.close("}");
        }
    }
    p.line("return nil");
}

/// Checks a run of two or more scalar fields loaded as one chunk, with the
/// decoder's truncation checks at the same places. Returns whether the run table
/// `table` is used (as the decoder's `read_run` does).
fn verify_run(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    run: &plan::Run,
    id: TypeId,
    table: &str,
    chunk: &str,
) -> bool {
    let TypeDefKind::Struct { fields } = &g.schema.types[id].kind else {
        unreachable!()
    };
    let c = loc.fresh("c");
    p.line(format!("{c} := {chunk}"));
    let exact = table.is_empty();
    let (mut pending, mut used, mut end) = (false, false, 0);
    let check = |p: &mut Printer, pending: &mut bool, used: &mut bool, end: u32| {
        if *pending && !exact {
            p.open(format!("if {c}.Avail < {end} {{"));
            p.line(format!("return {c}.Truncated({table})"));
            p.close("}");
            *pending = false;
            *used = true;
        }
    };
    for rf in &run.fields {
        let f = &fields[rf.index];
        if is_plain(&f.ty) {
            pending = true;
            end = rf.offset + rf.bits;
        } else {
            check(p, &mut pending, &mut used, end);
            let ctx = Ctx::default().field(&f.name);
            let hint = &g.names.types[id].locals[rf.index];
            verify_scalar(g, p, loc, &ctx, &f.ty, &c, rf.offset, hint);
        }
    }
    check(p, &mut pending, &mut used, end);
    used
}

/// Checks a validated fixed-width scalar at `offset` bits into chunk `c`.
#[allow(clippy::too_many_arguments)]
fn verify_scalar(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    ty: &Type,
    c: &str,
    offset: u32,
    hint: &str,
) {
    let bits = plan::scalar_bits(g.schema, ty).expect("a scalar");
    let only = |p: &mut Printer, call: String| {
        p.open(format!("if _, err := {c}.{call}; err != nil {{"));
        p.line(format!("return {}", ctx.wrap("err")));
        p.close("}");
    };
    let get = |p: &mut Printer, loc: &mut Locals| -> String {
        let x = loc.fresh(hint);
        p.line(format!("{x}, err := {c}.Get({offset}, {bits})"));
        p.if_err(&ctx.wrap("err"));
        x
    };
    let fail = |p: &mut Printer, cond: String, kind: &str| {
        p.open(format!("if {cond} {{"));
        let e = format!("{c}.Error(bitwire.{kind}, {offset})");
        p.line(format!("return {}", ctx.wrap(&e)));
        p.close("}");
    };
    match ty {
        Type::Float { repr } => {
            let f = match repr {
                FloatRepr::F32 => "GetF32",
                FloatRepr::F64 => "GetF64",
            };
            only(p, format!("{f}({offset})"));
        }
        Type::Quantized { steps, .. } => {
            if u128::from(*steps) < (1u128 << bits) - 1 {
                let x = get(p, loc);
                fail(p, format!("{x} > {steps}"), "OutOfRange");
            } else {
                // Every stored integer is a step: only truncation can fail.
                only(p, format!("Get({offset}, {bits})"));
            }
        }
        Type::Bounded { min, max, .. } => {
            if bits == 0 {
                return;
            }
            let span = (max - min) as u128;
            if span < (1u128 << bits) - 1 {
                let x = get(p, loc);
                fail(p, format!("{x} > {span}"), "OutOfRange");
            } else {
                only(p, format!("Get({offset}, {bits})"));
            }
        }
        Type::Named { id, .. } => {
            if bits == 0 {
                return;
            }
            if matches!(g.enum_check(*id), EnumCheck::Always | EnumCheck::Bits(_)) {
                only(p, format!("Get({offset}, {bits})"));
            } else {
                let x = get(p, loc);
                fail(p, format!("!{}({x}).Valid()", g.ident(*id)), "InvalidEnum");
            }
        }
        other => unreachable!("not a validated scalar: {other:?}"),
    }
}

/// Prints `if err := r.{call}; err != nil { return … }`.
fn check_call(p: &mut Printer, ctx: &Ctx, call: &str) {
    p.open(format!("if err := r.{call}; err != nil {{"));
    p.line(format!("return {}", ctx.wrap("err")));
    p.close("}");
}

/// Prints `if _, err := r.{call}; err != nil { return … }`.
fn discard_call(p: &mut Printer, ctx: &Ctx, call: &str) {
    p.open(format!("if _, err := r.{call}; err != nil {{"));
    p.line(format!("return {}", ctx.wrap("err")));
    p.close("}");
}

/// Prints `{v}, err := r.{call}` and the error check; returns `v`.
fn read_call(p: &mut Printer, loc: &mut Locals, ctx: &Ctx, hint: &str, call: &str) -> String {
    let v = loc.fresh(hint);
    p.line(format!("{v}, err := r.{call}"));
    p.if_err(&ctx.wrap("err"));
    v
}

/// Prints the check of one value of any type at the reader's position, as
/// `decode::read_into` reads it.
fn verify_into(g: &Gen, p: &mut Printer, loc: &mut Locals, ctx: &Ctx, ty: &Type, hint: &str) {
    match ty {
        Type::Bool => check_call(p, ctx, "Skip(1)"),
        Type::UInt { bits, .. } | Type::SInt { bits, .. } => {
            check_call(p, ctx, &format!("Skip({bits})"))
        }
        Type::Float { repr } => {
            let f = match repr {
                FloatRepr::F32 => "ReadF32()",
                FloatRepr::F64 => "ReadF64()",
            };
            discard_call(p, ctx, f);
        }
        Type::Quantized {
            steps, packed_bits, ..
        } => {
            // ReadQuantized's checks, without the dequantization.
            discard_call(p, ctx, &format!("ReadBounded({packed_bits}, {steps})"));
        }
        Type::Bounded {
            min,
            max,
            packed_bits,
            ..
        } => {
            if *packed_bits > 0 {
                let span = (max - min) as u128;
                discard_call(p, ctx, &format!("ReadBounded({packed_bits}, {span})"));
            }
        }
        Type::VarUInt { bits, .. } | Type::VarSInt { bits, .. } => {
            discard_call(p, ctx, &format!("ReadVarint({bits})"));
        }
        Type::Optional { inner } => {
            let set = read_call(p, loc, ctx, &format!("{hint}Set"), "ReadBool()");
            p.open(format!("if {set} {{"));
            verify_into(g, p, loc, ctx, inner, "v");
            p.close("}");
        }
        Type::Array { elem, len } => {
            if is_byte(elem) {
                check_call(p, ctx, &format!("SkipBytes({len})"));
                return;
            }
            let i = loc.fresh("i");
            p.open(format!("for {i} := 0; {i} < {len}; {i}++ {{"));
            verify_into(g, p, loc, &ctx.index(&i), elem, "item");
            p.close("}");
        }
        Type::List {
            elem,
            max,
            packed_len,
        } => {
            let min_bits = plan::element_min_bits(g.schema, ty);
            let call = match (packed_len, max) {
                (LengthEncoding::Fixed { bits }, Some(m)) => {
                    format!("ReadLen({bits}, {m}, {min_bits})")
                }
                _ => format!("ReadVarLen({min_bits})"),
            };
            let n = read_call(p, loc, ctx, &format!("{hint}Len"), &call);
            if is_byte(elem) {
                check_call(p, ctx, &format!("SkipBytes({n})"));
                return;
            }
            let i = loc.fresh("i");
            p.open(format!("for {i} := 0; {i} < {n}; {i}++ {{"));
            verify_into(g, p, loc, &ctx.index(&i), elem, "item");
            p.close("}");
        }
        Type::String { max, packed_len } => {
            let call = match (packed_len, max) {
                (LengthEncoding::Fixed { bits }, Some(m)) => format!("SkipString({bits}, {m})"),
                _ => "SkipVarString()".to_string(),
            };
            check_call(p, ctx, &call);
        }
        Type::Bytes { max, packed_len } => {
            let call = match (packed_len, max) {
                (LengthEncoding::Fixed { bits }, Some(m)) => format!("ReadLen({bits}, {m}, 8)"),
                _ => "ReadVarLen(8)".to_string(),
            };
            let n = read_call(p, loc, ctx, &format!("{hint}Len"), &call);
            check_call(p, ctx, &format!("SkipBytes({n})"));
        }
        Type::Named { id, .. } => {
            let f = &g.consts[*id].verify_packed;
            p.open(format!("if err := {f}(r); err != nil {{"));
            p.line(format!("return {}", ctx.wrap("err")));
            p.close("}");
        }
    }
}
