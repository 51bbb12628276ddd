//! Runs: consecutive fixed-width scalars of a struct — and the scalars of fixed-width
//! structs nested in it — that share one 64-bit word. An encoder builds the word with
//! constant shifts and writes it once; a decoder loads it once and extracts each scalar
//! at its constant offset. This is what makes a 64-bit packet one load and one store,
//! and a player input (a nested struct of buttons among its fields) one load.

use super::ops::{Kind, Op};
use super::types::{FieldPlan, Leaf, Run, RunRead, Step, WORD_BITS};
use crate::ir::TypeId;

/// The leaves a field contributes to a run, as (field-index path, names, scalar), or
/// `None` when the field is encoded on its own.
type Leaves = Vec<(Vec<usize>, Vec<String>, super::ops::Scalar)>;

/// Groups a struct's fields into steps: greedy runs of scalar leaves up to
/// [`WORD_BITS`] bits, every other field on its own. `structs` gives the fields of a
/// named struct that may be inlined (`None` for other types).
pub fn steps<'p>(
    fields: &[FieldPlan],
    structs: &dyn Fn(TypeId) -> Option<&'p [FieldPlan]>,
) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut run: Option<(u32, Leaves)> = None;
    for (index, field) in fields.iter().enumerate() {
        let Some(items) = field_leaves(index, field, structs) else {
            if let Some(done) = run.take() {
                push_run(&mut steps, done);
            }
            steps.push(Step::Field(index));
            continue;
        };
        let width: u32 = items.iter().map(|(_, _, s)| s.bits).sum();
        if run
            .as_ref()
            .is_some_and(|(bits, _)| bits + width > WORD_BITS)
        {
            push_run(&mut steps, run.take().expect("an open run"));
        }
        let (bits, leaves) = run.get_or_insert_with(|| (0, Vec::new()));
        *bits += width;
        leaves.extend(items);
    }
    if let Some(done) = run {
        push_run(&mut steps, done);
    }
    steps
}

/// The leaves of a field that can join a run: a scalar, or a named struct whose
/// fields are all such leaves and whose whole width fits in a word.
fn field_leaves<'p>(
    index: usize,
    field: &FieldPlan,
    structs: &dyn Fn(TypeId) -> Option<&'p [FieldPlan]>,
) -> Option<Leaves> {
    match &field.node.op {
        Op::Scalar(s) => Some(vec![(vec![index], vec![field.name.clone()], s.clone())]),
        Op::Named(id) => {
            let inner = structs(*id)?;
            let fixed = field.node.bits.max_bits == Some(field.node.bits.min_bits);
            if inner.is_empty() || !fixed || field.node.bits.min_bits > u64::from(WORD_BITS) {
                return None;
            }
            let mut out = Vec::new();
            for (i, f) in inner.iter().enumerate() {
                for (mut path, mut names, s) in field_leaves(i, f, structs)? {
                    path.insert(0, index);
                    names.insert(0, field.name.clone());
                    out.push((path, names, s));
                }
            }
            Some(out)
        }
        _ => None,
    }
}

/// Adds a finished run: as a [`Step::Run`] with its read schedule, or — when it holds
/// a single leaf, or no bits at all — as the fields it came from, each on its own.
fn push_run(steps: &mut Vec<Step>, (bits, items): (u32, Leaves)) {
    if items.len() == 1 || bits == 0 {
        for (path, _, _) in &items {
            let step = Step::Field(path[0]);
            if steps.last() != Some(&step) {
                steps.push(step);
            }
        }
        return;
    }
    let mut offset = 0;
    let leaves: Vec<Leaf> = items
        .into_iter()
        .map(|(path, names, scalar)| {
            let leaf = Leaf {
                path,
                names,
                offset,
                scalar,
            };
            offset += leaf.scalar.bits;
            leaf
        })
        .collect();
    let reads = schedule(&leaves);
    steps.push(Step::Run(Run {
        bits,
        leaves,
        reads,
    }));
}

/// The decoder's schedule over a run (spec §7.2): scalars that any bits are valid for
/// are taken unchecked; before a scalar with a decode check, one comparison of the
/// bits the input held covers it and every unchecked scalar before it, and one more at
/// the end covers the rest. A run of plain scalars thus costs one comparison.
fn schedule(leaves: &[Leaf]) -> Vec<RunRead> {
    let mut reads = Vec::new();
    let mut pending: Vec<usize> = Vec::new();
    for (i, leaf) in leaves.iter().enumerate() {
        if leaf.scalar.bits == 0 {
            // Nothing to read: the type's one value.
            reads.push(RunRead::Take { leaf: i });
        } else if leaf.scalar.decode.is_none() {
            reads.push(RunRead::Take { leaf: i });
            pending.push(i);
        } else {
            pending.push(i);
            reads.push(RunRead::Avail {
                end: leaf.end(),
                leaves: std::mem::take(&mut pending),
                kind: Kind::Truncated,
            });
            reads.push(RunRead::Check { leaf: i });
        }
    }
    if let Some(&last) = pending.last() {
        reads.push(RunRead::Avail {
            end: leaves[last].end(),
            leaves: pending,
            kind: Kind::Truncated,
        });
    }
    reads
}
