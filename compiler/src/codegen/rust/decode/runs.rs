//! Runs: one chunk load, then the plan's schedule — plain scalars taken unchecked, one
//! `avail` comparison per truncation check (its table names the first scalar past the
//! end), checked scalars validated in stream order — and, in `read`, the nested
//! structs built from their fields' locals.

use super::values::{scalar_check, Checked, Mode};
use super::{field_init, struct_literal, LeafLocals};
use crate::codegen::rust::exprs::{let_quantized, plain_value};
use crate::codegen::rust::printer::Printer;
use crate::codegen::rust::{let_stmt, naming, Ctx, Gen};
use crate::ir::TypeId;
use crate::plan::{Run, RunRead, ScalarKind};

/// Names the truncation tables of one function: `RUN`, `RUN2`, ….
#[derive(Default)]
pub(crate) struct Tables {
    count: usize,
}

impl Tables {
    fn next(&mut self) -> String {
        self.count += 1;
        match self.count {
            1 => "RUN".to_string(),
            n => format!("RUN{n}"),
        }
    }
}

/// Prints the decoding of a run of struct `id`.
pub(crate) fn decode_run(
    g: &Gen,
    p: &mut Printer,
    id: TypeId,
    run: &Run,
    locals: &mut LeafLocals,
    tables: &mut Tables,
    mode: Mode,
) {
    register_nested(g, id, run, locals);
    p.line(format!("let c = r.read_chunk({});", run.bits));
    for read in &run.reads {
        match read {
            RunRead::Take { leaf } => {
                if mode == Mode::Check {
                    continue;
                }
                let l = &run.leaves[*leaf];
                let local = locals.get(&l.path);
                let raw = format!("c.bits({}, {})", l.offset, l.scalar.bits);
                if l.scalar.bits == 0 {
                    let_stmt(p, &local, &super::values::constant(g, &l.scalar));
                } else if matches!(l.scalar.kind, ScalarKind::Quantized { .. }) {
                    let_quantized(p, &local, &l.scalar, &raw);
                } else {
                    let ident = enum_ident(g, &l.scalar.kind);
                    let_stmt(p, &local, &plain_value(&l.scalar, &raw, ident.as_deref()));
                }
            }
            RunRead::Avail { end, leaves, .. } => {
                let name = tables.next();
                let rows: Vec<String> = leaves
                    .iter()
                    .map(|&i| {
                        let l = &run.leaves[i];
                        let path: Vec<String> =
                            l.names.iter().map(|n| naming::str_lit(n)).collect();
                        format!("({}, {}, &[{}])", l.offset, l.scalar.bits, path.join(", "))
                    })
                    .collect();
                p.array(
                    &format!("const {name}: &[(u32, u32, &[&str])] = &"),
                    &rows,
                    ";",
                );
                p.open(format!("if c.avail() < {end} {{"));
                p.line(format!("return Err(c.truncated({name}));"));
                p.close("}");
            }
            RunRead::Check { leaf } => {
                let l = &run.leaves[*leaf];
                let ctx = l.names.iter().fold(Ctx::default(), |c, n| c.field(n));
                let local = match mode {
                    Mode::Read => locals.get(&l.path),
                    Mode::Check => ctx.var("v"),
                };
                let raw = format!("c.bits({}, {})", l.offset, l.scalar.bits);
                let at = Checked {
                    ctx: &ctx,
                    scalar: &l.scalar,
                    raw: &raw,
                    chunk: "c",
                    offset: l.offset,
                    local: &local,
                };
                scalar_check(g, p, &at, mode);
            }
        }
    }
    if mode == Mode::Read {
        build_nested(g, p, id, run, locals);
    }
}

/// Registers the field identifiers of every struct the run reaches into.
fn register_nested(g: &Gen, id: TypeId, run: &Run, locals: &mut LeafLocals) {
    for path in run.nested_structs() {
        let inner = g.plan.nested_struct(id, &path);
        locals.nest(&path, &g.names.types[inner].members);
    }
}

/// After a run, builds each nested struct from its fields' locals, innermost first.
fn build_nested(g: &Gen, p: &mut Printer, id: TypeId, run: &Run, locals: &mut LeafLocals) {
    let mut nested = run.nested_structs();
    nested.sort_by_key(|path| std::cmp::Reverse(path.len()));
    for path in nested {
        let inner = g.plan.nested_struct(id, &path);
        let s = g.plan.struct_plan(inner).expect("a nested struct");
        let local = locals.get(&path);
        let items: Vec<String> = (0..s.fields.len())
            .map(|i| {
                let sub = [path.as_slice(), &[i]].concat();
                field_init(&g.names.types[inner].members[i], &locals.get(&sub))
            })
            .collect();
        struct_literal(
            p,
            &format!("let {local} = {} {{", g.ident(inner)),
            &items,
            "};",
        );
    }
}

/// The identifier of the enum a scalar holds, if it holds one.
pub(crate) fn enum_ident(g: &Gen, kind: &ScalarKind) -> Option<String> {
    match kind {
        ScalarKind::Enum { id, .. } => Some(g.ident(*id).to_string()),
        _ => None,
    }
}
