//! `check`: the validating skipper of each named type, behind the generated `verify`.
//!
//! It mirrors [`read`](super::decode) — chunk runs (a run is loaded once, its fields
//! validated in field order; unlike `read`, nested fixed-width structs are checked on
//! their own, [`plan::struct_plan`](crate::codegen::plan::struct_plan), which gives the
//! same errors, pinned by `conformance/rust/tests/nested_run_errors.rs`), the same
//! length checks (§5.6), the same error values and paths — but builds nothing: plain fields
//! are only bounds-checked, strings are UTF-8-validated in place and skipped, bytes
//! are skipped, lists and arrays are walked without a `Vec`. So `verify(bytes)` fails
//! exactly when `decode(bytes)` does, with the same error, and allocates nothing.

use super::decode::{is_plain, needs_reader, read_length};
use super::encode::{bulk_lane, is_byte};
use super::printer::Printer;
use super::{return_error, try_expr, Ctx, Gen};
use crate::codegen::plan::{self, Step};
use crate::ir::{FloatRepr, Type, TypeDefKind, TypeId};

const SIG: &str =
    "pub fn check(r: &mut ::bitwire::BitReader<'_>) -> Result<(), ::bitwire::Error> {";

/// Prints the `check` method of a named type.
pub fn check_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    p.line("/// Checks a value at the reader's position without building it: the reader");
    p.line("/// ends where `read` would leave it, and fails with the error `read` would give.");
    p.line("#[inline]");
    let unused = || SIG.replace("r: &mut", "_r: &mut");
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            if fields.iter().all(|f| !needs_reader(g, &f.ty)) {
                p.open(unused());
            } else {
                p.open(SIG);
            }
            let mut runs = 0;
            for step in plan::struct_plan(g.schema, fields) {
                match step {
                    Step::Run(run) if run.fields.len() == 1 => {
                        let f = &fields[run.fields[0].index];
                        check_value(g, p, &Ctx::default().field(&f.name), &f.ty);
                    }
                    Step::Run(run) => {
                        runs += 1;
                        check_run(g, p, &run, fields, runs);
                    }
                    Step::Field(i) => {
                        let f = &fields[i];
                        check_value(g, p, &Ctx::default().field(&f.name), &f.ty);
                    }
                }
            }
            p.line("Ok(())");
        }
        TypeDefKind::Enum {
            packed_tag_bits, ..
        } => {
            if *packed_tag_bits == 0 {
                p.open(unused());
            } else {
                p.open(SIG);
                p.line(format!("let c = r.read_chunk({packed_tag_bits});"));
                p.line(format!("let tag = c.get(0, {packed_tag_bits})?;"));
                p.open("if Self::from_value(tag).is_none() {");
                p.line("return Err(c.error(::bitwire::ErrorKind::InvalidEnum, 0));");
                p.close("}");
            }
            p.line("Ok(())");
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            let reads = |v: &crate::ir::UnionVariant| {
                v.payload.as_ref().is_some_and(|t| needs_reader(g, t))
            };
            if *packed_tag_bits == 0 && !variants.iter().any(reads) {
                p.open(unused());
            } else {
                p.open(SIG);
            }
            if *packed_tag_bits == 0 {
                // One variant, tag 0 in zero bits: nothing to dispatch on.
                let v = &variants[0];
                if let Some(ty) = v.payload.as_ref().filter(|_| reads(v)) {
                    check_value(g, p, &Ctx::default().field(&v.name), ty);
                }
                p.line("Ok(())");
            } else {
                p.line(format!("let c = r.read_chunk({packed_tag_bits});"));
                p.line(format!("let tag = c.get(0, {packed_tag_bits})?;"));
                p.open("match tag {");
                for v in variants {
                    match v.payload.as_ref().filter(|_| reads(v)) {
                        Some(ty) => {
                            p.open(format!("{} => {{", v.tag));
                            check_value(g, p, &Ctx::default().field(&v.name), ty);
                            p.line("Ok(())");
                            p.close("}");
                        }
                        None => p.line(format!("{} => Ok(()),", v.tag)),
                    }
                }
                p.line("_ => Err(c.error(::bitwire::ErrorKind::InvalidEnum, 0)),");
                p.close("}");
            }
        }
    }
    p.close("}");
}

/// Checks a run of two or more scalar fields loaded as one chunk, as `read_run` reads
/// it: plain fields need only the chunk's available bits, compared at the same points
/// (before each validated field and at the end) with the same `RUN` table.
fn check_run(g: &Gen, p: &mut Printer, run: &plan::Run, fields: &[crate::ir::Field], n: usize) {
    let table = if n == 1 {
        "RUN".to_string()
    } else {
        format!("RUN{n}")
    };
    p.line(format!("let c = r.read_chunk({});", run.bits));
    let mut pending = false;
    let mut declared = false;
    let mut end = 0;
    let mut avail_check = |p: &mut Printer, pending: &mut bool, end: u32| {
        if !*pending {
            return;
        }
        if !declared {
            let all: Vec<String> = run
                .fields
                .iter()
                .filter(|rf| is_plain(&fields[rf.index].ty))
                .map(|rf| {
                    format!(
                        "({}, {}, {})",
                        rf.offset,
                        rf.bits,
                        super::naming::str_lit(&fields[rf.index].name)
                    )
                })
                .collect();
            p.array(
                &format!("const {table}: &[(u32, u32, &str)] = &"),
                &all,
                ";",
            );
            declared = true;
        }
        p.open(format!("if c.avail() < {end} {{"));
        p.line(format!("return Err(c.truncated({table}));"));
        p.close("}");
        *pending = false;
    };
    for rf in &run.fields {
        let f = &fields[rf.index];
        if is_plain(&f.ty) {
            pending = true;
            end = rf.offset + rf.bits;
        } else {
            avail_check(p, &mut pending, end);
            let ctx = Ctx::default().field(&f.name);
            check_scalar(g, p, &ctx, &f.ty, "c", rf.offset);
        }
    }
    avail_check(p, &mut pending, end);
}

/// Prints `{expr}{path}?;`, an error-propagating statement whose value is dropped.
fn try_stmt(p: &mut Printer, ctx: &Ctx, expr: &str) {
    let e = try_expr(p, ctx, expr);
    p.line(format!("{e};"));
}

/// Checks the fixed-width scalar at `offset` bits into chunk `c` (see `read_scalar`).
fn check_scalar(g: &Gen, p: &mut Printer, ctx: &Ctx, ty: &Type, c: &str, offset: u32) {
    let bits = plan::scalar_bits(g.schema, ty).expect("a scalar");
    match ty {
        Type::Bool | Type::UInt { .. } | Type::SInt { .. } => {
            try_stmt(p, ctx, &format!("{c}.get({offset}, {bits})"));
        }
        Type::Float {
            repr: FloatRepr::F32,
        } => try_stmt(p, ctx, &format!("{c}.get_f32({offset})")),
        Type::Float {
            repr: FloatRepr::F64,
        } => try_stmt(p, ctx, &format!("{c}.get_f64({offset})")),
        Type::Quantized { steps, .. } => try_stmt(
            p,
            ctx,
            &format!("{c}.check_quantized({offset}, {bits}, {steps})"),
        ),
        Type::Bounded { min, max, .. } => {
            if bits == 0 {
                return;
            }
            let range = (max - min) as u128;
            if range >= (1u128 << bits) - 1 {
                try_stmt(p, ctx, &format!("{c}.get({offset}, {bits})"));
                return;
            }
            let v = ctx.var("v");
            let e = try_expr(p, ctx, &format!("{c}.get({offset}, {bits})"));
            super::let_stmt(p, &v, &e);
            p.open(format!("if {v} > {range} {{"));
            return_error(
                p,
                ctx,
                &format!("{c}.error(::bitwire::ErrorKind::OutOfRange, {offset})"),
            );
            p.close("}");
        }
        Type::Named { id, .. } => {
            if bits == 0 {
                return;
            }
            let tag = ctx.var("tag");
            let e = try_expr(p, ctx, &format!("{c}.get({offset}, {bits})"));
            super::let_stmt(p, &tag, &e);
            p.open(format!(
                "if {}::from_value({tag}).is_none() {{",
                g.ident(*id)
            ));
            return_error(
                p,
                ctx,
                &format!("{c}.error(::bitwire::ErrorKind::InvalidEnum, {offset})"),
            );
            p.close("}");
        }
        other => unreachable!("not a scalar: {other:?}"),
    }
}

/// The wire width of a [`bulk_lane`] element (`u64` → 64).
fn lane_bits(lane: &str) -> u32 {
    lane[1..].parse().expect("a numeric type name")
}

/// Checks one value of any type at the reader's position (see `read_into`).
fn check_value(g: &Gen, p: &mut Printer, ctx: &Ctx, ty: &Type) {
    match ty {
        Type::Bool => try_stmt(p, ctx, "r.skip_bits(1)"),
        Type::UInt { bits, .. } | Type::SInt { bits, .. } => {
            try_stmt(p, ctx, &format!("r.skip_bits({bits})"));
        }
        Type::Float {
            repr: FloatRepr::F32,
        } => try_stmt(p, ctx, "r.read_f32()"),
        Type::Float {
            repr: FloatRepr::F64,
        } => try_stmt(p, ctx, "r.read_f64()"),
        Type::Quantized {
            steps, packed_bits, ..
        } => try_stmt(p, ctx, &format!("r.skip_quantized({packed_bits}, {steps})")),
        Type::Bounded { packed_bits, .. } => {
            if *packed_bits == 0 {
                return;
            }
            if is_plain(ty) {
                try_stmt(p, ctx, &format!("r.skip_bits({packed_bits})"));
                return;
            }
            let c = ctx.var("c");
            p.line(format!("let {c} = r.read_chunk({packed_bits});"));
            check_scalar(g, p, ctx, ty, &c, 0);
        }
        Type::VarUInt { bits, .. } | Type::VarSInt { bits, .. } => {
            try_stmt(p, ctx, &format!("r.read_varint({bits})"));
        }
        Type::Optional { inner } => {
            let present = try_expr(p, ctx, "r.read_bool()");
            if needs_reader(g, inner) {
                p.open(format!("if {present} {{"));
                check_value(g, p, &ctx.deeper(), inner);
                p.close("}");
            } else {
                p.line(format!("{present};"));
            }
        }
        Type::Array { elem, len } => {
            if is_byte(elem) {
                try_stmt(p, ctx, &format!("r.skip_bytes({len})"));
            } else if let Some(lane) = bulk_lane(elem) {
                // Element by element, the first truncated element is the error.
                let call = match &**elem {
                    Type::Float { .. } => format!("r.skip_{lane}s({len})"),
                    _ => format!("r.skip_elements({len}, {})", lane_bits(lane)),
                };
                try_stmt(p, ctx, &call);
            } else if needs_reader(g, elem) {
                let i = ctx.deeper().var("i");
                p.open(format!("for {i} in 0..{len} {{"));
                check_value(g, p, &ctx.index(&i), elem);
                p.close("}");
            }
        }
        Type::List {
            elem,
            max,
            packed_len,
        } => {
            let (len, _) = read_length(g, p, ctx, ty, *max, *packed_len);
            if is_byte(elem) {
                try_stmt(p, ctx, &format!("r.skip_bytes({len})"));
            } else if let Some(lane) = bulk_lane(elem) {
                // The length check (§5.6) already made sure every element is there.
                let call = match &**elem {
                    Type::Float { .. } => format!("r.skip_{lane}s({len})"),
                    _ => format!("r.skip_bits({len} as u64 * {})", lane_bits(lane)),
                };
                try_stmt(p, ctx, &call);
            } else if needs_reader(g, elem) {
                let i = ctx.deeper().var("i");
                p.open(format!("for {i} in 0..{len} {{"));
                check_value(g, p, &ctx.index(&i), elem);
                p.close("}");
            } else {
                p.line(format!("let _ = {len};"));
            }
        }
        Type::String { max, packed_len } => {
            let (len, start) = read_length(g, p, ctx, ty, *max, *packed_len);
            try_stmt(p, ctx, &format!("r.skip_string({len}, {start})"));
        }
        Type::Bytes { max, packed_len } => {
            let (len, _) = read_length(g, p, ctx, ty, *max, *packed_len);
            try_stmt(p, ctx, &format!("r.skip_bytes({len})"));
        }
        Type::Named { id, .. } => {
            if needs_reader(g, ty) {
                try_stmt(p, ctx, &format!("{}::check(r)", g.ident(*id)));
            }
        }
    }
}
