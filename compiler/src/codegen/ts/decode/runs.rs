//! Runs: one chunk load (`r.loadChunk`, two 32-bit halves), then the plan's schedule —
//! plain scalars taken unchecked, one `chunkAvail` comparison per truncation check (its
//! table names the first scalar past the end, with its path from the struct being
//! read), checked scalars validated in stream order — and, in `readX`, the nested
//! structs built from their fields' locals after the run.

use super::values::Mode;
use super::{field_init, LeafLocals};
use crate::codegen::ts::bits::{self, Raw};
use crate::codegen::ts::exprs::{
    bounded_value, constant, dequantized, enum_tag, plain_value, sign_extend53,
};
use crate::codegen::ts::printer::Printer;
use crate::codegen::ts::{int_lit, naming, path_args, Gen, Locals};
use crate::ir::{FloatRepr, TypeId};
use crate::plan::{DecodeCheck, Leaf, Run, RunRead, ScalarKind, Step, StructPlan};

/// Names the truncation tables of one struct, in the order its walk meets them:
/// `PACKET64_RUN` when there is one, else `ENTITY_RUN1`, `ENTITY_RUN2`, ….
pub(crate) struct Tables {
    prefix: String,
    total: usize,
    next: usize,
}

impl Tables {
    /// The tables of struct `id`.
    pub(crate) fn new(g: &Gen, id: TypeId, s: &StructPlan) -> Tables {
        Tables {
            prefix: g.names.types[id].constant.clone(),
            total: avails(s).count(),
            next: 0,
        }
    }

    /// The name of the next table.
    fn next(&mut self) -> String {
        self.next += 1;
        if self.total == 1 {
            format!("{}_RUN", self.prefix)
        } else {
            format!("{}_RUN{}", self.prefix, self.next)
        }
    }
}

/// The truncation checks of a struct's runs, in stream order, with their run.
fn avails(s: &StructPlan) -> impl Iterator<Item = (&Run, &[usize])> {
    s.steps
        .iter()
        .filter_map(|step| match step {
            Step::Run(run) => Some(run),
            Step::Field(_) => None,
        })
        .flat_map(|run| {
            run.reads.iter().filter_map(move |read| match read {
                RunRead::Avail { leaves, .. } => Some((run, leaves.as_slice())),
                _ => None,
            })
        })
}

/// Prints the module-level tables of struct `id`'s truncation checks, which `readX` and
/// `skipX` share: for each, the scalars it covers as `[offset, bits, path]`.
pub(crate) fn run_tables(g: &Gen, p: &mut Printer, id: TypeId, s: &StructPlan) {
    let mut tables = Tables::new(g, id, s);
    for (run, leaves) in avails(s) {
        let name = tables.next();
        p.line(format!(
            "// Scalars of a {}-bit run of `{}`: offset, width and path, for `Truncated`.",
            run.bits, g.schema.types[id].name
        ));
        p.open(format!("const {name}: bw.RunTable = ["));
        for &i in leaves {
            let l = &run.leaves[i];
            let path: Vec<String> = l.names.iter().map(|n| naming::str_lit(n)).collect();
            p.line(format!(
                "[{}, {}, [{}]],",
                l.offset,
                l.scalar.bits,
                path.join(", ")
            ));
        }
        p.close("];");
        p.blank();
    }
}

/// The call that loads a run's chunk: `loadChunk32` for runs that fit one 32-bit half
/// (a smaller function, which engines inline more readily), else `loadChunk`.
fn load_chunk(bits: u32) -> String {
    if bits <= 32 {
        format!("r.loadChunk32({bits});")
    } else {
        format!("r.loadChunk({bits});")
    }
}

/// The chunk of a run as it is being decoded: the locals of its halves, and what a
/// failed check does.
struct Chunk {
    lo: String,
    hi: String,
    /// `None`: the run came from the reader, a failed check throws its error.
    /// `Some(label)`: the run came straight from a whole input (a top-level fast path),
    /// a failed check leaves the labelled block for the reader's path, which throws.
    bail: Option<String>,
}

/// A run of struct `id` being decoded in `mode`.
#[derive(Clone, Copy)]
pub(crate) struct RunAt<'a> {
    pub id: TypeId,
    pub run: &'a Run,
    pub mode: Mode,
}

/// Prints the decoding of a run (`readX`: into the leaves' locals).
pub(crate) fn decode_run(
    g: &Gen,
    p: &mut Printer,
    at: RunAt,
    locals: &mut Locals,
    leaves: &mut LeafLocals,
    tables: &mut Tables,
) {
    p.line(load_chunk(at.run.bits));
    let (lo, hi) = halves(at.run, at.mode);
    let mut bind = |used: bool, base: &str, field: &str| {
        if !used {
            return String::new();
        }
        let l = locals.fresh(base);
        p.line(format!("const {l} = r.{field};"));
        l
    };
    let c = Chunk {
        lo: bind(lo, "lo", "chunkLo"),
        hi: bind(hi, "hi", "chunkHi"),
        bail: None,
    };
    schedule(g, p, at, locals, leaves, Some(tables), &c);
}

/// Prints the fast path of a top-level struct that is one run (`Packet64`, `Input`):
/// when the input has exactly the run's bytes, the run is loaded from them with no
/// reader, the padding checked, and the schedule followed without its truncation
/// checks (nothing can be cut short). A check that fails leaves the block for the
/// reader's path after it, which reports the error: the fast path only ever accepts.
pub(crate) fn fast_path(g: &Gen, p: &mut Printer, at: RunAt) {
    let RunAt { id, run, mode } = at;
    let bytes = run.bits.div_ceil(8);
    let mut locals = Locals::default();
    for name in ["bytes", "limits", "r", "value"] {
        locals.reserve(name);
    }
    let mut leaves = LeafLocals::new(g, id, &mut locals);
    p.line("// The whole value in one load from an input of its exact size: no reader.");
    let bails = run.bits % 8 != 0 || run.reads.iter().any(|r| matches!(r, RunRead::Check { .. }));
    let label = if bails { "fast: " } else { "" };
    p.open(format!("{label}if (bytes.length === {bytes}) {{"));
    let word = |from: u32, to: u32| -> String {
        (from..to)
            .map(|b| match b % 4 {
                0 => format!("bytes[{b}]"),
                k => format!("(bytes[{b}] << {})", 8 * k),
            })
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let (use_lo, use_hi) = halves(run, mode);
    let mut bind = |used: bool, base: &str, from: u32, to: u32| {
        // The last half also holds the padding, which is checked.
        let padded = run.bits % 8 != 0 && to == bytes;
        if !(used || padded) {
            return String::new();
        }
        let l = locals.fresh(base);
        p.line(format!("const {l} = {};", word(from, to)));
        l
    };
    let lo = bind(use_lo, "lo", 0, bytes.min(4));
    let hi = if bytes > 4 {
        bind(use_hi, "hi", 4, bytes)
    } else {
        String::new()
    };
    if run.bits % 8 != 0 {
        // Spec §2.2: the padding after the value is zero.
        let (half, at) = if run.bits > 32 {
            (&hi, run.bits - 32)
        } else {
            (&lo, run.bits)
        };
        p.open(format!("if ({half} >>> {at} !== 0) {{"));
        p.line("break fast;");
        p.close("}");
    }
    let c = Chunk {
        lo,
        hi,
        bail: Some("fast".into()),
    };
    schedule(g, p, at, &mut locals, &mut leaves, None, &c);
    if mode == Mode::Read {
        let names = &g.names.types[id].members;
        let items: Vec<String> = (0..names.len())
            .map(|i| super::field_init(&names[i], &leaves.get(g, &[i], &mut locals)))
            .collect();
        p.list("return { ", &items, " };");
    } else {
        p.line("return;");
    }
    p.close("}");
}

/// Prints the plan's schedule over a run whose halves are in `c`: truncation checks
/// (with `tables`; none on a fast path), checked scalars, and in `readX` the values
/// and the nested structs built from them.
fn schedule(
    g: &Gen,
    p: &mut Printer,
    at: RunAt,
    locals: &mut Locals,
    leaves: &mut LeafLocals,
    mut tables: Option<&mut Tables>,
    c: &Chunk,
) {
    let RunAt { id, run, mode } = at;
    for read in &run.reads {
        match read {
            RunRead::Take { leaf } => {
                if mode == Mode::Read {
                    let l = &run.leaves[*leaf];
                    let local = leaves.get(g, &l.path, locals);
                    let value = taken(g, p, locals, l, c);
                    // A one-variant enum is a string literal, which an object literal
                    // built from it would widen to `string`: give it its type.
                    match l.scalar.kind {
                        ScalarKind::Enum { id, .. } if l.scalar.bits == 0 => {
                            let ty = &g.names.types[id].ident;
                            p.line(format!("const {local}: {ty} = {value};"));
                        }
                        _ => p.line(format!("const {local} = {value};")),
                    }
                }
            }
            RunRead::Avail { end, .. } => {
                if let Some(tables) = tables.as_deref_mut() {
                    let table = tables.next();
                    p.open(format!("if (r.chunkAvail < {end}) {{"));
                    p.line(format!("throw r.chunkTruncated({table});"));
                    p.close("}");
                }
            }
            RunRead::Check { leaf } => {
                let l = &run.leaves[*leaf];
                let local = match mode {
                    Mode::Read => Some(leaves.get(g, &l.path, locals)),
                    Mode::Skip => None,
                };
                checked(g, p, locals, l, c, local.as_deref());
            }
        }
    }
    if mode == Mode::Read {
        build_nested(g, p, id, run, locals, leaves);
    }
}

/// Which chunk halves the printed reads use (`readX` extracts every scalar, `skipX`
/// only the checked ones).
fn halves(run: &Run, mode: Mode) -> (bool, bool) {
    let (mut use_lo, mut use_hi) = (false, false);
    for read in &run.reads {
        let leaf = match (read, mode) {
            (RunRead::Take { leaf }, Mode::Read) | (RunRead::Check { leaf }, _) => {
                &run.leaves[*leaf]
            }
            _ => continue,
        };
        if leaf.scalar.bits == 0 {
            continue;
        }
        use_lo |= leaf.offset < 32;
        use_hi |= leaf.end() > 32;
    }
    (use_lo, use_hi)
}

/// `raw` itself when it is a plain name, else a new local bound to it.
fn bind(p: &mut Printer, locals: &mut Locals, raw: &str, base: &str) -> String {
    if bits::is_simple(raw) && !raw.contains('(') {
        return raw.to_string();
    }
    let l = locals.fresh(base);
    p.line(format!("const {l} = {raw};"));
    l
}

/// The value of a scalar taken unchecked from the chunk.
fn taken(g: &Gen, p: &mut Printer, locals: &mut Locals, l: &Leaf, c: &Chunk) -> String {
    let s = &l.scalar;
    let (o, w) = (l.offset, s.bits);
    if w == 0 {
        return constant(g, s);
    }
    match s.kind {
        ScalarKind::SInt { .. } => match Raw::of(w) {
            Raw::N32 => bits::extract_signed32(&c.lo, &c.hi, o, w),
            Raw::N53 => {
                let raw = locals.fresh("raw");
                let e = bits::extract(&c.lo, &c.hi, o, w).0;
                p.line(format!("const {raw} = {e};"));
                sign_extend53(&raw, w)
            }
            Raw::Big => format!(
                "BigInt.asIntN({w}, {})",
                bits::extract(&c.lo, &c.hi, o, w).0
            ),
        },
        ScalarKind::Enum { id, .. } => {
            let (raw, kind) = bits::extract(&c.lo, &c.hi, o, w);
            let lower = &g.names.types[id].lower;
            format!(
                "{lower}FromTag({}) as {}",
                enum_tag(g, id, &raw, kind),
                g.ident(id)
            )
        }
        ScalarKind::Quantized { .. } => {
            let (raw, kind) = bits::extract(&c.lo, &c.hi, o, w);
            let q = if kind == Raw::Big {
                raw
            } else {
                bind(p, locals, &raw, "q")
            };
            plain_value(s, &q, kind)
        }
        _ => {
            let (raw, kind) = bits::extract(&c.lo, &c.hi, o, w);
            plain_value(s, &raw, kind)
        }
    }
}

/// Prints the validation of a checked scalar of the chunk, its error at the scalar's
/// first bit with its path from the struct; in `readX`, binds the value to `local`.
fn checked(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    l: &Leaf,
    c: &Chunk,
    local: Option<&str>,
) {
    let s = &l.scalar;
    let (o, w) = (l.offset, s.bits);
    let at = match o {
        0 => "r.chunkStart".to_string(),
        o => format!("r.chunkStart + {o}"),
    };
    let path = path_args(&l.names);
    let fail = |p: &mut Printer, cond: String, err: String| {
        p.open_if(&cond);
        match &c.bail {
            None => p.line(format!("throw {err};")),
            Some(label) => p.line(format!("break {label};")),
        }
        p.close("}");
    };
    match s.decode {
        DecodeCheck::CanonicalNan { kind } => {
            let err = format!("bw.error(\"{}\", {at}{path})", kind.name());
            let f64 = matches!(
                s.kind,
                ScalarKind::Float {
                    repr: FloatRepr::F64
                }
            );
            let value = if f64 {
                debug_assert_eq!((o, w), (0, 64), "an f64 fills its run");
                fail(p, format!("bw.isNonCanonicalF64({}, {})", c.lo, c.hi), err);
                format!("bw.f64FromBits({}, {})", c.lo, c.hi)
            } else {
                let raw = bind(p, locals, &bits::extract32(&c.lo, &c.hi, o, 32), "raw");
                fail(p, format!("bw.isNonCanonicalF32({raw})"), err);
                format!("bw.f32FromBits({raw})")
            };
            if let Some(local) = local {
                p.line(format!("const {local} = {value};"));
            }
        }
        DecodeCheck::AtMost { max, .. } => {
            let (raw, kind) = bits::extract(&c.lo, &c.hi, o, w);
            let raw = bind(p, locals, &raw, "raw");
            let big = kind == Raw::Big;
            let err = match s.kind {
                ScalarKind::Bounded { min, max, .. } => format!(
                    "bw.boundedError({at}, {raw}, {}, {}{path})",
                    int_lit(min, s.json_wide),
                    int_lit(max, s.json_wide)
                ),
                _ => format!(
                    "bw.stepsError({at}, {raw}, {}{path})",
                    int_lit(max.into(), big)
                ),
            };
            fail(p, format!("{raw} > {}", int_lit(max.into(), big)), err);
            if let Some(local) = local {
                let value = match s.kind {
                    ScalarKind::Bounded { min, .. } => bounded_value(&raw, kind, min, s.json_wide),
                    _ => dequantized(s, &raw, big),
                };
                p.line(format!("const {local} = {value};"));
            }
        }
        DecodeCheck::Declared { .. } => {
            let ScalarKind::Enum { id, .. } = s.kind else {
                unreachable!("an enum")
            };
            let (raw, kind) = bits::extract(&c.lo, &c.hi, o, w);
            let raw = bind(p, locals, &raw, "raw");
            let lower = &g.names.types[id].lower;
            let lookup = format!("{lower}FromTag({})", enum_tag(g, id, &raw, kind));
            let err = format!("bw.enumError({at}, {raw}{path})");
            match local {
                Some(local) => {
                    p.line(format!("const {local} = {lookup};"));
                    fail(p, format!("{local} === undefined"), err);
                }
                None => fail(p, format!("{lookup} === undefined"), err),
            }
        }
        DecodeCheck::None => unreachable!("a checked scalar has a check"),
    }
}

/// After a run, builds each nested struct from its fields' locals, innermost first.
fn build_nested(
    g: &Gen,
    p: &mut Printer,
    id: TypeId,
    run: &Run,
    locals: &mut Locals,
    leaves: &mut LeafLocals,
) {
    let mut nested = run.nested_structs();
    nested.sort_by_key(|path| std::cmp::Reverse(path.len()));
    for path in nested {
        let inner = g.plan.nested_struct(id, &path);
        let members = &g.names.types[inner].members;
        let local = leaves.get(g, &path, locals);
        let items: Vec<String> = (0..members.len())
            .map(|i| {
                let sub = [path.as_slice(), &[i]].concat();
                field_init(&members[i], &leaves.get(g, &sub, locals))
            })
            .collect();
        p.list(&format!("const {local} = {{ "), &items, " };");
    }
}
