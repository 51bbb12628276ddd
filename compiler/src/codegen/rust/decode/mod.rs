//! `read` and `check`: the packed decoder of each named type and its validating half,
//! printed by one walk over the codec plan (spec §3–§5, error order §7.2, budget §11).
//!
//! Both print the same reads, checks and errors in the same order; `read` also builds
//! the value, `check` builds nothing and allocates nothing. So `verify(bytes)` fails
//! exactly when `decode(bytes)` does, with the same error, by construction: there is
//! one walk, not two kept in step by hand.

mod runs;
pub(crate) mod values;

use std::collections::{HashMap, HashSet};

use super::printer::Printer;
use super::{naming, Gen};
use crate::ir::TypeId;
use crate::plan::{Body, EnumPlan, Step, StructPlan, UnionPlan};
pub(crate) use values::Mode;

/// Prints the `read` or `check` method of a named type's `Packed` impl (documented
/// by the trait).
pub fn decode_fn(g: &Gen, p: &mut Printer, id: TypeId, mode: Mode) {
    let plan = g.plan.get(id);
    p.line("#[inline]");
    let reader = if plan.needs_reader(mode == Mode::Read) {
        "r"
    } else {
        "_r"
    };
    p.open(mode.signature(reader));
    match &plan.body {
        Body::Struct(s) => decode_struct(g, p, id, s, mode),
        Body::Enum(e) => decode_enum(p, e, mode),
        Body::Union(u) => decode_union(g, p, id, u, mode),
    }
    p.close("}");
}

fn decode_struct(g: &Gen, p: &mut Printer, id: TypeId, s: &StructPlan, mode: Mode) {
    let mut locals = LeafLocals::new(g, id);
    let mut tables = runs::Tables::default();
    for step in &s.steps {
        match step {
            Step::Run(run) => runs::decode_run(g, p, id, run, &mut locals, &mut tables, mode),
            Step::Field(i) => {
                let f = &s.fields[*i];
                let ctx = super::Ctx::default().field(&f.name);
                let dest = locals.get(&[*i]);
                values::decode_value(g, p, &ctx, &f.node, &dest, mode);
            }
        }
    }
    if mode == Mode::Check {
        p.line("Ok(())");
        return;
    }
    let names = &g.names.types[id];
    let items: Vec<String> = (0..s.fields.len())
        .map(|i| field_init(&names.members[i], &locals.get(&[i])))
        .collect();
    struct_literal(p, "Ok(Self {", &items, "})");
}

/// `member: local`, or `member` when they are the same name.
pub(crate) fn field_init(member: &str, local: &str) -> String {
    if member == local {
        member.to_string()
    } else {
        format!("{member}: {local}")
    }
}

fn decode_enum(p: &mut Printer, e: &EnumPlan, mode: Mode) {
    let bits = e.tag_bits;
    if bits == 0 {
        match mode {
            Mode::Read => p.line("Ok(Self::from_bits(0))"),
            Mode::Check => p.line("Ok(())"),
        }
        return;
    }
    if e.all_patterns_declared() {
        // Every pattern is a value: only truncation can fail.
        match mode {
            Mode::Read => p.line(format!("Ok(Self::from_bits(r.read_bits({bits})?))")),
            Mode::Check => p.line(format!("r.skip_bits({bits})")),
        }
        return;
    }
    p.line(format!("let c = r.read_chunk({bits});"));
    p.line(format!("let tag = c.get(0, {bits})?;"));
    match mode {
        Mode::Read => {
            p.open("let Some(v) = Self::from_value(tag) else {");
            p.line("return Err(c.enum_error(0, tag));");
            p.close("};");
            p.line("Ok(v)");
        }
        Mode::Check => {
            p.open("if Self::from_value(tag).is_none() {");
            p.line("return Err(c.enum_error(0, tag));");
            p.close("}");
            p.line("Ok(())");
        }
    }
}

fn decode_union(g: &Gen, p: &mut Printer, id: TypeId, u: &UnionPlan, mode: Mode) {
    let names = &g.names.types[id].members;
    let arm = |p: &mut Printer, index: usize| {
        let a = &u.arms[index];
        let vname = &names[index];
        match (&a.payload, mode) {
            (Some(node), Mode::Read) => {
                let ctx = super::Ctx::default().field(&a.name);
                values::decode_value(g, p, &ctx, node, "v", mode);
                if a.out_of_line {
                    p.line(format!("Ok(Self::{vname}(Box::new(v)))"));
                } else {
                    p.line(format!("Ok(Self::{vname}(v))"));
                }
            }
            (Some(node), Mode::Check) => {
                let ctx = super::Ctx::default().field(&a.name);
                values::decode_value(g, p, &ctx, node, "v", mode);
                p.line("Ok(())");
            }
            (None, Mode::Read) => p.line(format!("Ok(Self::{vname})")),
            (None, Mode::Check) => p.line("Ok(())"),
        }
    };
    if u.tag_bits == 0 {
        // One variant, tag 0 in zero bits: nothing to dispatch on.
        arm(p, 0);
        return;
    }
    p.line(format!("let c = r.read_chunk({});", u.tag_bits));
    p.line(format!("let tag = c.get(0, {})?;", u.tag_bits));
    p.open("match tag {");
    for (i, a) in u.arms.iter().enumerate() {
        let simple = a
            .payload
            .as_ref()
            .is_none_or(|n| mode == Mode::Check && n.is_zero_width());
        if simple {
            match mode {
                Mode::Read => p.line(format!("{} => Ok(Self::{}),", a.tag, names[i])),
                Mode::Check => p.line(format!("{} => Ok(()),", a.tag)),
            }
            continue;
        }
        p.open(format!("{} => {{", a.tag));
        arm(p, i);
        p.close("}");
    }
    p.line("_ => Err(c.enum_error(0, tag)),");
    p.close("}");
}

/// The locals that hold the values of a struct's fields while it is decoded, and of
/// the fields of structs nested in a run: the struct's own fields keep their field
/// identifier (as a local), a nested field gets `{parent}_{field}`, made unique.
pub(crate) struct LeafLocals {
    taken: HashSet<String>,
    by_path: HashMap<Vec<usize>, String>,
    /// Field identifiers of the nested struct at each path (empty path: the struct).
    members: HashMap<Vec<usize>, Vec<String>>,
}

impl LeafLocals {
    /// The locals of struct `id`'s fields.
    pub(crate) fn new(g: &Gen, id: TypeId) -> LeafLocals {
        let top: Vec<String> = g.names.types[id]
            .members
            .iter()
            .map(|m| naming::local_ident(m))
            .collect();
        LeafLocals {
            taken: top.iter().cloned().collect(),
            by_path: top
                .iter()
                .enumerate()
                .map(|(i, l)| (vec![i], l.clone()))
                .collect(),
            members: HashMap::from([(Vec::new(), g.names.types[id].members.clone())]),
        }
    }

    /// Registers the field identifiers of the struct nested at `path`.
    pub(crate) fn nest(&mut self, path: &[usize], members: &[String]) {
        self.members.insert(path.to_vec(), members.to_vec());
    }

    /// The local of the value at `path` (parents are named before their fields).
    pub(crate) fn get(&mut self, path: &[usize]) -> String {
        if let Some(l) = self.by_path.get(path) {
            return l.clone();
        }
        let parent_path = &path[..path.len() - 1];
        let parent = self.get(parent_path);
        let member = self
            .members
            .get(parent_path)
            .map(|m| m[path[path.len() - 1]].clone())
            .unwrap_or_else(|| path[path.len() - 1].to_string());
        let base = format!("{}_{}", parent, member.trim_start_matches("r#"));
        let mut name = base.clone();
        let mut n = 1;
        while self.taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        self.by_path.insert(path.to_vec(), name.clone());
        name
    }
}

/// Prints a struct literal the way rustfmt lays it out (`struct_lit_width` = 18).
pub(crate) fn struct_literal(p: &mut Printer, head: &str, items: &[String], tail: &str) {
    if items.is_empty() {
        p.line(format!("{head}{tail}"));
        return;
    }
    let joined = items.join(", ");
    let one = format!("{head} {joined} {tail}");
    if joined.len() <= 18 && p.fits(&one) {
        p.line(one);
        return;
    }
    p.open(head);
    for i in items {
        p.line(format!("{i},"));
    }
    p.close(tail);
}
