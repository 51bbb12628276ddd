//! Runs on the decoding side: one chunk load, then the plan's schedule — plain
//! scalars taken unchecked (stored straight into their place, `m.Buttons.Fire` for a
//! field of a nested struct), one `Avail` comparison per truncation check (its table
//! names the first scalar past the end, with its path), checked scalars validated in
//! stream order. The verifier follows the same schedule and stores nothing.

use super::super::expr::{atom, bin, call};
use super::super::printer::Printer;
use super::super::scalars::{at_most_error, constant, value_from_bits};
use super::super::{naming, Ctx, Gen, Locals};
use super::Mode;
use crate::ir::{FloatRepr, TypeId};
use crate::plan::{DecodeCheck, Leaf, Run, RunRead, ScalarKind};

/// The truncation tables of one type's runs (`bitwire.RunField` slices), named in
/// walk order, so that `ReadPacked` and the verifier, which walk alike, use the same
/// names; `ReadPacked` prints them.
pub struct Tables {
    prefix: String,
    owner: String,
    tables: Vec<(String, Vec<String>)>,
}

impl Tables {
    /// The tables of type `id`.
    pub fn new(g: &Gen, id: TypeId) -> Tables {
        Tables {
            prefix: g.names.types[id].lower.clone(),
            owner: g.ident(id).to_string(),
            tables: Vec::new(),
        }
    }

    /// Adds a table of `leaves` and returns its name.
    fn add(&mut self, leaves: &[&Leaf]) -> String {
        let name = format!("{}Trunc{}", self.prefix, self.tables.len() + 1);
        let rows = leaves
            .iter()
            .map(|l| {
                let path: Vec<String> = l.names.iter().map(|n| naming::str_lit(n)).collect();
                format!(
                    "{{Offset: {}, Bits: {}, Path: []string{{{}}}}}",
                    l.offset,
                    l.scalar.bits,
                    path.join(", ")
                )
            })
            .collect();
        self.tables.push((name.clone(), rows));
        name
    }

    /// Prints the tables as package-level variables.
    pub fn print(&self, p: &mut Printer) {
        for (name, rows) in &self.tables {
            p.blank();
            p.doc(format!(
                "{name} lists the scalars of a run of {} that one truncation check covers, \
                 for its Truncated error.",
                self.owner
            ));
            p.open(format!("var {name} = []bitwire.RunField{{"));
            for row in rows {
                p.line(format!("{row},"));
            }
            p.close("}");
        }
    }
}

/// Whether the run's schedule checks a value (so that a verifier that skips the
/// truncation checks still reads the chunk).
pub fn checks_any(run: &Run) -> bool {
    run.reads.iter().any(|r| matches!(r, RunRead::Check { .. }))
}

/// Prints the schedule of a run of struct `id` over the chunk in local `c`.
/// `tables` is `None` on the top-level fast path, whose chunk holds every bit of the
/// input: there the truncation checks are left out.
#[allow(clippy::too_many_arguments)]
pub fn decode_run(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    id: TypeId,
    run: &Run,
    c: &str,
    mut tables: Option<&mut Tables>,
    mode: Mode,
) {
    for read in &run.reads {
        match read {
            RunRead::Take { leaf } => {
                if mode == Mode::Check {
                    continue;
                }
                let l = &run.leaves[*leaf];
                let value = if l.scalar.bits == 0 {
                    constant(g, &l.scalar)
                } else {
                    let raw = call(
                        format!("{c}.Bits"),
                        vec![atom(l.offset.to_string()), atom(l.scalar.bits.to_string())],
                    );
                    value_from_bits(g, &l.scalar, raw).text()
                };
                p.line(format!("{} = {value}", g.leaf_place(id, &l.path)));
            }
            RunRead::Avail { end, leaves, .. } => {
                let Some(tables) = tables.as_deref_mut() else {
                    continue;
                };
                let rows: Vec<&Leaf> = leaves.iter().map(|&i| &run.leaves[i]).collect();
                let name = tables.add(&rows);
                p.open(format!("if {c}.Avail < {end} {{"));
                p.line(format!("return {c}.Truncated({name})"));
                p.close("}");
            }
            RunRead::Check { leaf } => {
                check_leaf(g, p, loc, id, &run.leaves[*leaf], c, mode);
            }
        }
    }
}

/// Prints the decode check of a run leaf whose bits the chunk `c` holds (their
/// truncation checked just before), its error with the value and the limit, and in
/// `ReadPacked` the value stored in its place.
fn check_leaf(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    id: TypeId,
    l: &Leaf,
    c: &str,
    mode: Mode,
) {
    let ctx = l.names.iter().fold(Ctx::default(), |c, n| c.field(n));
    let place = g.leaf_place(id, &l.path);
    let (o, bits) = (l.offset, l.scalar.bits);
    let raw = format!("{c}.Bits({o}, {bits})");
    let fail = |p: &mut Printer, cond: String, err: String| {
        p.open(format!("if {cond} {{"));
        p.line(format!("return {}", ctx.wrap(&err)));
        p.close("}");
    };
    match l.scalar.decode {
        DecodeCheck::CanonicalNan { .. } => {
            let f = match l.scalar.kind {
                ScalarKind::Float {
                    repr: FloatRepr::F32,
                } => "bitwire.F32FromWire",
                _ => "bitwire.F64FromWire",
            };
            let at = match o {
                0 => atom(format!("{c}.Start")),
                o => bin(atom(format!("{c}.Start")), "+", atom(o.to_string())),
            };
            let get = call(f, vec![atom(&raw), at]).text();
            match mode {
                Mode::Read => {
                    let x = loc.fresh(&naming::local(&l.names.join("_")));
                    p.line(format!("{x}, err := {get}"));
                    p.if_err(&ctx.wrap("err"));
                    p.line(format!("{place} = {x}"));
                }
                Mode::Check => p.if_init_err(&format!("_, err := {get}"), &ctx.wrap("err")),
            }
        }
        DecodeCheck::AtMost { max, .. } => {
            let x = loc.fresh(&naming::local(&l.names.join("_")));
            p.line(format!("{x} := {raw}"));
            fail(
                p,
                format!("{x} > {max}"),
                at_most_error(&l.scalar, c, o, &x),
            );
            if mode == Mode::Read {
                let v = value_from_bits(g, &l.scalar, atom(&x));
                p.line(format!("{place} = {}", v.text()));
            }
        }
        DecodeCheck::Declared { .. } => {
            let ScalarKind::Enum { id: e, .. } = l.scalar.kind else {
                unreachable!("a declared check is an enum's")
            };
            let ident = g.ident(e);
            let x = loc.fresh(&naming::local(&l.names.join("_")));
            p.line(format!("{x} := {raw}"));
            fail(
                p,
                format!("!{ident}({x}).Valid()"),
                format!("{c}.EnumError({o}, {x})"),
            );
            if mode == Mode::Read {
                p.line(format!("{place} = {ident}({x})"));
            }
        }
        DecodeCheck::None => unreachable!("a checked leaf has a check"),
    }
}
