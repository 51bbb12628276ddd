//! `ReadPacked`: the packed decoder of each named type (spec §3–§5, error order §7.2).
//!
//! Runs of fixed-width scalar fields are loaded as one `bitwire.Chunk`; each field is
//! extracted at its constant offset and validated in field order, so a truncated
//! input fails at the same field as a bit-by-bit decoder would. Decoding writes into
//! the destination in place and reuses the capacity of its slices; lengths are checked
//! against their bound and the remaining input before anything is allocated (§5.6).

use super::encode::is_byte;
use super::expr::{atom, bin, call, E};
use super::printer::Printer;
use super::{f64_lit, int_type, naming, types, Ctx, EnumCheck, Gen, Locals};
use crate::codegen::plan::{self, Step};
use crate::ir::{FloatRepr, IntRepr, LengthEncoding, Type, TypeDefKind, TypeId};

/// Prints the `ReadPacked` method of a named type, and its run tables.
pub fn read_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let names = &g.names.types[id];
    let (recv, r) = types::mut_receiver(g, id);
    p.blank();
    p.line(format!(
        "// ReadPacked sets {r} to the value at r's position, reusing the capacity of its"
    ));
    p.line("// slices.");
    p.open(format!(
        "func ({recv}) ReadPacked(r *bitwire.BitReader) error {{"
    ));
    let mut tables = Vec::new();
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            let mut loc = Locals::new(&["m", "r"]);
            for step in plan::struct_plan(g.schema, fields) {
                match step {
                    Step::Run(run) if run.fields.len() > 1 => {
                        let name = format!("{}Run{}", names.lower, tables.len() + 1);
                        let chunk = format!("r.ReadChunk({})", run.bits);
                        if let Some(items) = read_run(g, p, &mut loc, &run, id, &name, &chunk) {
                            tables.push((name, items));
                        }
                    }
                    Step::Run(run) => {
                        let i = run.fields[0].index;
                        let ctx = Ctx::default().field(&fields[i].name);
                        let dest = format!("m.{}", names.members[i]);
                        read_into(g, p, &mut loc, &ctx, &fields[i].ty, &dest, &names.locals[i]);
                    }
                    Step::Field(i) => {
                        let ctx = Ctx::default().field(&fields[i].name);
                        let dest = format!("m.{}", names.members[i]);
                        read_into(g, p, &mut loc, &ctx, &fields[i].ty, &dest, &names.locals[i]);
                    }
                }
            }
            p.line("return nil");
        }
        TypeDefKind::Enum {
            packed_tag_bits,
            variants,
            ..
        } => {
            if *packed_tag_bits == 0 {
                let zero = variants.iter().position(|v| v.value == 0).expect("value 0");
                p.line(format!("*v = {}", names.members[zero]));
                p.line("return nil");
            } else {
                p.line(format!("c := r.ReadChunk({packed_tag_bits})"));
                p.line(format!("tag, err := c.Get(0, {packed_tag_bits})"));
                p.if_err("err");
                p.line(format!("*v = {}(tag)", names.ident));
                if !matches!(g.enum_check(id), EnumCheck::Always | EnumCheck::Bits(_)) {
                    p.open("if !v.Valid() {");
                    p.line("return c.Error(bitwire.InvalidEnum, 0)");
                    p.close("}");
                }
                p.line("return nil");
            }
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            let mut loc = Locals::new(&["m", "r", "c", "tag"]);
            let ident = &names.ident;
            let arm = |p: &mut Printer, loc: &mut Locals, k: usize| {
                let v = &variants[k];
                let (field, tag) = (&names.members[k], &names.tags[k]);
                match &v.payload {
                    Some(ty) => {
                        // Zero the other variants, keep this one's slices for reuse.
                        p.line(format!("*m = {ident}{{Tag: {tag}, {field}: m.{field}}}"));
                        let ctx = Ctx::default().field(&v.name);
                        read_into(g, p, loc, &ctx, ty, &format!("m.{field}"), "v");
                    }
                    None => p.line(format!("*m = {ident}{{Tag: {tag}}}")),
                }
            };
            if *packed_tag_bits == 0 {
                // One variant with tag 0 in zero bits: nothing to dispatch on.
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
    for (name, items) in tables {
        p.blank();
        p.line(format!(
            "// {name} lists the plain fields of a run of {}, for Truncated errors.",
            names.ident
        ));
        p.open(format!("var {name} = []bitwire.RunField{{"));
        for item in items {
            p.line(format!("{item},"));
        }
        p.close("}");
    }
}

/// Prints the body of `Decode` for a single-run type: when the input is exactly one
/// encoding long, the run is loaded in one go (no reader) and checked for zero
/// padding; any other length goes to the general path, `decode`.
pub fn decode_fast(g: &Gen, p: &mut Printer, id: TypeId, run: &plan::Run, size: &str) {
    let bytes = run.bits.div_ceil(8);
    p.open(format!("if len(b) != {size} {{"));
    p.line("// Not one encoding long: the general path says why (spec §2.2).");
    p.line("return m.decode(b)");
    p.close("}");
    let load = match bytes {
        8 => "bitwire.Chunk64(b)",
        _ => "bitwire.ChunkOf(b)",
    };
    let mut loc = Locals::new(&["m", "b"]);
    read_run(g, p, &mut loc, run, id, "", load);
    if run.bits < bytes * 8 {
        p.open(format!("if c.Word>>{} != 0 {{", run.bits));
        p.line(format!(
            "return bitwire.NewError(bitwire.InvalidPadding, {})",
            run.bits
        ));
        p.close("}");
    }
    p.line("return nil");
}

/// Whether a scalar needs no validation, so that its bits can be taken from a chunk
/// without a truncation check of its own ([`read_run`]).
pub(super) fn is_plain(ty: &Type) -> bool {
    match ty {
        Type::Bool | Type::UInt { .. } | Type::SInt { .. } => true,
        Type::Bounded {
            min,
            max,
            packed_bits,
            ..
        } => *packed_bits > 0 && (max - min) as u128 == (1u128 << packed_bits) - 1,
        // `bits B`: every stored integer is a grid point, so only truncation fails.
        Type::Quantized {
            steps, packed_bits, ..
        } => *packed_bits > 0 && u128::from(*steps) == (1u128 << packed_bits) - 1,
        _ => false,
    }
}

/// Whether a validated scalar is checked inline from the chunk's bits (its
/// truncation by the run's `Avail` comparison, its value by a comparison) rather
/// than by a `Chunk` method.
fn is_inline_checked(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Quantized { .. } | Type::Bounded { .. } | Type::Named { .. }
    )
}

/// Whether the decoder's `read_run` prints a run table for `run` (not at the
/// top-level fast path): whenever a field of the run can be reported Truncated by
/// the run's `Avail` comparisons. The verifier names its tables by this.
pub(super) fn run_has_table(run: &plan::Run, fields: &[crate::ir::Field]) -> bool {
    run.fields.iter().any(|rf| {
        let ty = &fields[rf.index].ty;
        is_plain(ty) || (rf.bits > 0 && is_inline_checked(ty))
    })
}

/// Whether a scalar of [`is_inline_checked`] can hold a stored value its type
/// rejects.
fn needs_value_check(g: &Gen, ty: &Type) -> bool {
    match ty {
        Type::Named { id, .. } => {
            !matches!(g.enum_check(*id), EnumCheck::Always | EnumCheck::Bits(_))
        }
        _ => true,
    }
}

/// The dequantized `float64` of the stored integer `q` (already checked to be at
/// most `steps`), §4.3, multiplying by `1 / steps` where
/// [`crate::plan::quant::reciprocal_scale`] proves it gives the same value.
pub(super) fn dequantize(q: E, repr: FloatRepr, min: f64, max: f64, steps: u64) -> E {
    let scale = crate::plan::quant::reciprocal_scale(repr, min, max, steps);
    let mut args = vec![
        q,
        atom(f64_lit(min)),
        atom(f64_lit(max)),
        atom(steps.to_string()),
    ];
    match scale {
        Some(scale) => {
            args.push(atom(f64_lit(scale)));
            call("bitwire.DequantizeScaled", args)
        }
        None => call("bitwire.Dequantize", args),
    }
}

/// Reads a run of two or more scalar fields from one chunk (spec §7.2 order kept).
///
/// Fields that need no validation are extracted unchecked; one comparison of the
/// chunk's available bits, before the next validated field and at the end of the
/// run, reports Truncated at the first incomplete field (validated fields check
/// their own bits). A 64-bit packet of plain fields thus costs one load and one
/// comparison. Returns the run table's items if the run needs one.
///
/// `chunk` is the expression that loads the chunk; the top-level fast path passes
/// one over the whole input (`table` empty), which holds every bit, so no
/// truncation check is printed.
fn read_run(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    run: &plan::Run,
    id: TypeId,
    table: &str,
    chunk: &str,
) -> Option<Vec<String>> {
    let TypeDefKind::Struct { fields } = &g.schema.types[id].kind else {
        unreachable!()
    };
    let names = &g.names.types[id];
    let c = loc.fresh("c");
    p.line(format!("{c} := {chunk}"));
    let exact = table.is_empty();
    let mut pending = false;
    let mut used = false;
    let check = |p: &mut Printer, pending: &mut bool, used: &mut bool, end: u32| {
        if *pending && !exact {
            p.open(format!("if {c}.Avail < {end} {{"));
            p.line(format!("return {c}.Truncated({table})"));
            p.close("}");
            *pending = false;
            *used = true;
        }
    };
    let mut end = 0;
    for rf in &run.fields {
        let f = &fields[rf.index];
        let dest = format!("m.{}", names.members[rf.index]);
        let raw = call(
            format!("{c}.Bits"),
            vec![atom(rf.offset.to_string()), atom(rf.bits.to_string())],
        );
        if is_plain(&f.ty) {
            let value = match &f.ty {
                Type::Bool => bin(raw, "!=", atom("0")),
                Type::UInt { repr, .. } => from_u64(raw, *repr),
                Type::SInt { repr, .. } => {
                    let x = call("bitwire.SignExtend", vec![raw, atom(rf.bits.to_string())]);
                    from_i64(x, *repr)
                }
                Type::Bounded { repr, min, .. } => bounded_from_raw(raw, *repr, *min),
                Type::Quantized {
                    repr,
                    min,
                    max,
                    steps,
                    ..
                } => quantized_expr(dequantize(raw, *repr, *min, *max, *steps), *repr),
                other => unreachable!("not plain: {other:?}"),
            };
            p.line(format!("{dest} = {}", value.text()));
            pending = true;
            end = rf.offset + rf.bits;
        } else if rf.bits > 0 && is_inline_checked(&f.ty) {
            // Truncated at the first incomplete field up to this one, then this
            // field's own check (an enum every value of which is declared has
            // none, and waits for the next comparison as a plain field does).
            pending = true;
            end = rf.offset + rf.bits;
            if needs_value_check(g, &f.ty) {
                check(p, &mut pending, &mut used, end);
            }
            let ctx = Ctx::default().field(&f.name);
            let hint = &names.locals[rf.index];
            read_checked(g, p, loc, &ctx, &f.ty, &c, rf.offset, raw, &dest, hint);
        } else {
            check(p, &mut pending, &mut used, end);
            let ctx = Ctx::default().field(&f.name);
            let hint = &names.locals[rf.index];
            read_scalar(g, p, loc, &ctx, &f.ty, &c, rf.offset, &dest, hint);
        }
    }
    check(p, &mut pending, &mut used, end);
    used.then(|| {
        run.fields
            .iter()
            .filter(|rf| rf.bits > 0)
            .map(|rf| {
                format!(
                    "{{Offset: {}, Bits: {}, Name: {}}}",
                    rf.offset,
                    rf.bits,
                    naming::str_lit(&fields[rf.index].name)
                )
            })
            .collect()
    })
}

/// Prints the decoding of a validated scalar of a run whose bits `raw` the chunk
/// `c` holds (truncation already checked): the value's check, inline, then the
/// value into `dest`.
#[allow(clippy::too_many_arguments)]
fn read_checked(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    ty: &Type,
    c: &str,
    offset: u32,
    raw: E,
    dest: &str,
    hint: &str,
) {
    let bits = plan::scalar_bits(g.schema, ty).expect("a scalar");
    let fail = |p: &mut Printer, cond: String, kind: &str| {
        p.open(format!("if {cond} {{"));
        let e = format!("{c}.Error(bitwire.{kind}, {offset})");
        p.line(format!("return {}", ctx.wrap(&e)));
        p.close("}");
    };
    let local = |p: &mut Printer, loc: &mut Locals| -> String {
        let x = loc.fresh(hint);
        p.line(format!("{x} := {}", raw.text()));
        x
    };
    match ty {
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            ..
        } => {
            let x = local(p, loc);
            if u128::from(*steps) < (1u128 << bits) - 1 {
                fail(p, format!("{x} > {steps}"), "OutOfRange");
            }
            let v = quantized_expr(dequantize(atom(x), *repr, *min, *max, *steps), *repr);
            p.line(format!("{dest} = {}", v.text()));
        }
        Type::Bounded { repr, min, max, .. } => {
            let x = local(p, loc);
            let span = (max - min) as u128;
            if span < (1u128 << bits) - 1 {
                fail(p, format!("{x} > {span}"), "OutOfRange");
            }
            p.line(format!(
                "{dest} = {}",
                bounded_from_raw(atom(x), *repr, *min).text()
            ));
        }
        Type::Named { id, .. } => {
            let names = &g.names.types[*id];
            p.line(format!("{dest} = {}({})", names.ident, raw.text()));
            if !matches!(g.enum_check(*id), EnumCheck::Always | EnumCheck::Bits(_)) {
                fail(p, format!("!{dest}.Valid()"), "InvalidEnum");
            }
        }
        other => unreachable!("not checked inline: {other:?}"),
    }
}

/// The field value of a dequantized `float64` expression.
fn quantized_expr(x: E, repr: FloatRepr) -> E {
    match repr {
        FloatRepr::F32 => call("float32", vec![x]),
        FloatRepr::F64 => x,
    }
}

/// `T(x)` for a `uint64` `x` (nothing for `uint64`).
fn from_u64(x: E, repr: IntRepr) -> E {
    if repr == IntRepr::U64 {
        x
    } else {
        call(int_type(repr), vec![x])
    }
}

/// `T(x)` for an `int64` `x` (nothing for `int64`).
fn from_i64(x: E, repr: IntRepr) -> E {
    if repr == IntRepr::I64 {
        x
    } else {
        call(int_type(repr), vec![x])
    }
}

/// `raw + min` in the representation, for a stored offset `raw` (a `uint64`) already
/// checked to be at most `max - min`. Go's integer arithmetic wraps, so the sum is
/// right even where `raw` alone exceeds the signed range.
fn bounded_from_raw(raw: E, repr: IntRepr, min: i128) -> E {
    if !repr.signed() {
        let x = match min {
            0 => raw,
            m => bin(raw, "+", atom(m.to_string())),
        };
        return from_u64(x, repr);
    }
    let x = match min {
        0 => call("int64", vec![raw]),
        m if m == i128::from(i64::MIN) => {
            call("int64", vec![bin(raw, "+", atom("9223372036854775808"))])
        }
        m if m < 0 => bin(call("int64", vec![raw]), "-", atom((-m).to_string())),
        m => bin(call("int64", vec![raw]), "+", atom(m.to_string())),
    };
    from_i64(x, repr)
}

/// Prints the decoding of a fixed-width scalar at `offset` bits into chunk `c`, with
/// its validation, into `dest`.
#[allow(clippy::too_many_arguments)]
fn read_scalar(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    ty: &Type,
    c: &str,
    offset: u32,
    dest: &str,
    hint: &str,
) {
    let bits = plan::scalar_bits(g.schema, ty).expect("a scalar");
    let wrap = |e: &str| ctx.wrap(e);
    let get = |p: &mut Printer, loc: &mut Locals, call: String| -> String {
        let x = loc.fresh(hint);
        p.line(format!("{x}, err := {c}.{call}"));
        p.if_err(&wrap("err"));
        x
    };
    match ty {
        Type::Bool => {
            let x = get(p, loc, format!("Get({offset}, 1)"));
            p.line(format!("{dest} = {x} != 0"));
        }
        Type::UInt { repr, .. } => {
            let x = get(p, loc, format!("Get({offset}, {bits})"));
            p.line(format!("{dest} = {}", from_u64(atom(x), *repr).text()));
        }
        Type::SInt { repr, .. } => {
            let x = get(p, loc, format!("GetInt({offset}, {bits})"));
            p.line(format!("{dest} = {}", from_i64(atom(x), *repr).text()));
        }
        Type::Float { repr } => {
            let f = match repr {
                FloatRepr::F32 => "GetF32",
                FloatRepr::F64 => "GetF64",
            };
            let x = get(p, loc, format!("{f}({offset})"));
            p.line(format!("{dest} = {x}"));
        }
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            ..
        } => {
            let x = get(
                p,
                loc,
                format!(
                    "GetQuantized({offset}, {bits}, {}, {}, {steps})",
                    f64_lit(*min),
                    f64_lit(*max)
                ),
            );
            p.line(format!("{dest} = {}", quantized_value(&x, *repr)));
        }
        Type::Bounded { repr, min, max, .. } => {
            if bits == 0 {
                p.line(format!("{dest} = {min}"));
                return;
            }
            let x = get(p, loc, format!("Get({offset}, {bits})"));
            let span = (max - min) as u128;
            if span < (1u128 << bits) - 1 {
                p.open(format!("if {x} > {span} {{"));
                let e = format!("{c}.Error(bitwire.OutOfRange, {offset})");
                p.line(format!("return {}", wrap(&e)));
                p.close("}");
            }
            p.line(format!(
                "{dest} = {}",
                bounded_from_raw(atom(x), *repr, *min).text()
            ));
        }
        Type::Named { id, .. } => {
            let TypeDefKind::Enum { variants, .. } = &g.schema.types[*id].kind else {
                unreachable!("a scalar named type is an enum")
            };
            let names = &g.names.types[*id];
            if bits == 0 {
                let zero = variants.iter().position(|v| v.value == 0).expect("value 0");
                p.line(format!("{dest} = {}", names.members[zero]));
                return;
            }
            let x = get(p, loc, format!("Get({offset}, {bits})"));
            p.line(format!("{dest} = {}({x})", names.ident));
            if !matches!(g.enum_check(*id), EnumCheck::Always | EnumCheck::Bits(_)) {
                p.open(format!("if !{dest}.Valid() {{"));
                let e = format!("{c}.Error(bitwire.InvalidEnum, {offset})");
                p.line(format!("return {}", wrap(&e)));
                p.close("}");
            }
        }
        other => unreachable!("not a scalar: {other:?}"),
    }
}

/// The field value of a dequantized `float64` local.
fn quantized_value(x: &str, repr: FloatRepr) -> String {
    match repr {
        FloatRepr::F32 => format!("float32({x})"),
        FloatRepr::F64 => x.to_string(),
    }
}

/// Prints `{v}, err := r.{call}` and the error check; returns `v`.
fn read_call(p: &mut Printer, loc: &mut Locals, ctx: &Ctx, hint: &str, call: &str) -> String {
    let v = loc.fresh(hint);
    p.line(format!("{v}, err := r.{call}"));
    p.if_err(&ctx.wrap("err"));
    v
}

/// Prints the decoding of one value of any type into the place `dest`. `hint` names
/// the local that holds the value on its way.
fn read_into(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    ty: &Type,
    dest: &str,
    hint: &str,
) {
    match ty {
        Type::Bool => {
            let v = read_call(p, loc, ctx, hint, "ReadBool()");
            p.line(format!("{dest} = {v}"));
        }
        Type::UInt { bits, repr } => {
            let v = read_call(p, loc, ctx, hint, &format!("ReadBits({bits})"));
            p.line(format!("{dest} = {}", from_u64(atom(v), *repr).text()));
        }
        Type::SInt { bits, repr } => {
            let v = read_call(p, loc, ctx, hint, &format!("ReadInt({bits})"));
            p.line(format!("{dest} = {}", from_i64(atom(v), *repr).text()));
        }
        Type::Float { repr } => {
            let f = match repr {
                FloatRepr::F32 => "ReadF32()",
                FloatRepr::F64 => "ReadF64()",
            };
            let v = read_call(p, loc, ctx, hint, f);
            p.line(format!("{dest} = {v}"));
        }
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            packed_bits,
        } => {
            let call = format!(
                "ReadQuantized({packed_bits}, {}, {}, {steps})",
                f64_lit(*min),
                f64_lit(*max)
            );
            let v = read_call(p, loc, ctx, hint, &call);
            p.line(format!("{dest} = {}", quantized_value(&v, *repr)));
        }
        Type::Bounded {
            repr,
            min,
            max,
            packed_bits,
            ..
        } => {
            if *packed_bits == 0 {
                p.line(format!("{dest} = {min}"));
                return;
            }
            let span = (max - min) as u128;
            let v = read_call(
                p,
                loc,
                ctx,
                hint,
                &format!("ReadBounded({packed_bits}, {span})"),
            );
            p.line(format!(
                "{dest} = {}",
                bounded_from_raw(atom(v), *repr, *min).text()
            ));
        }
        Type::VarUInt { bits, repr } => {
            let v = read_call(p, loc, ctx, hint, &format!("ReadVarint({bits})"));
            p.line(format!("{dest} = {}", from_u64(atom(v), *repr).text()));
        }
        Type::VarSInt { bits, repr } => {
            let v = read_call(p, loc, ctx, hint, &format!("ReadVarint({bits})"));
            let x = call("bitwire.ZigzagDecode", vec![atom(v)]);
            p.line(format!("{dest} = {}", from_i64(x, *repr).text()));
        }
        Type::Optional { inner } => {
            let set = read_call(p, loc, ctx, &format!("{hint}Set"), "ReadBool()");
            p.open(format!("if {set} {{"));
            p.line(format!("{dest}.Set = true"));
            read_into(g, p, loc, ctx, inner, &format!("{dest}.Value"), "v");
            p.middle("} else {");
            p.line(format!("{dest} = {}{{}}", g.go_type(ty)));
            p.close("}");
        }
        Type::Array { elem, .. } => {
            if is_byte(elem) {
                p.open(format!(
                    "if err := r.ReadByteArray({dest}[:]); err != nil {{"
                ));
                p.line(format!("return {}", ctx.wrap("err")));
                p.close("}");
                return;
            }
            let i = loc.fresh("i");
            p.open(format!("for {i} := range {dest} {{"));
            read_into(
                g,
                p,
                loc,
                &ctx.index(&i),
                elem,
                &format!("{dest}[{i}]"),
                "item",
            );
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
                let v = read_call(p, loc, ctx, hint, &format!("ReadRawBytes({n}, {dest}[:0])"));
                p.line(format!("{dest} = {v}"));
                return;
            }
            p.line(format!("{dest} = bitwire.Resize({dest}, {n})"));
            let i = loc.fresh("i");
            p.open(format!("for {i} := range {dest} {{"));
            read_into(
                g,
                p,
                loc,
                &ctx.index(&i),
                elem,
                &format!("{dest}[{i}]"),
                "item",
            );
            p.close("}");
        }
        Type::String { max, packed_len } => {
            let call = match (packed_len, max) {
                (LengthEncoding::Fixed { bits }, Some(m)) => {
                    format!("ReadString({bits}, {m}, {dest})")
                }
                _ => format!("ReadVarString({dest})"),
            };
            let v = read_call(p, loc, ctx, hint, &call);
            p.line(format!("{dest} = {v}"));
        }
        Type::Bytes { max, packed_len } => {
            let call = match (packed_len, max) {
                (LengthEncoding::Fixed { bits }, Some(m)) => {
                    format!("ReadBytes({bits}, {m}, {dest}[:0])")
                }
                _ => format!("ReadVarBytes({dest}[:0])"),
            };
            let v = read_call(p, loc, ctx, hint, &call);
            p.line(format!("{dest} = {v}"));
        }
        Type::Named { .. } => {
            p.open(format!("if err := {dest}.ReadPacked(r); err != nil {{"));
            p.line(format!("return {}", ctx.wrap("err")));
            p.close("}");
        }
    }
}
