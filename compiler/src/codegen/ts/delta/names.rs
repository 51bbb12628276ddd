//! The names of the delta functions (spec §12), next to the naming table of
//! [`super::super::naming`]: one stem per planned struct delta — `World` for a struct,
//! `EntityById` for a keyed list's elements without their key — from which every
//! function name is made, the verb first as in the full codec's names
//! (`encodeDeltaWorld`, `writeDeltaEntityById`). A stem whose names would collide with
//! a module-level name gets `_` appended until none does.

use std::collections::HashSet;

use crate::codegen::ts::naming::Names;
use crate::ir::TypeId;
use crate::plan::delta::{Delta, DeltaPlan};

/// The functions of one planned struct delta ([`crate::plan::delta::StructDelta`]).
#[derive(Debug, Clone)]
pub struct RowNames {
    /// `writeDeltaWorld`: the row's encoder (whether a field changed).
    pub write: String,
    /// `readDeltaWorld`: the row's decoder (the new value, or `null`).
    pub read: String,
    /// `encodeDeltaWorld`, `decodeDeltaWorld`, `verifyDeltaWorld`, `deltaWorldError`:
    /// the exported functions of a `delta message`, and its error search.
    pub encode: String,
    pub decode: String,
    pub verify: String,
    pub error: String,
    /// `worldDeltaCodec`: a `delta message`'s functions for the snapshot rings
    /// (`bw.DeltaCodec`).
    pub codec: String,
    /// A keyed list's element row: `entityByIdKey` (an element's key) and
    /// `entityByIdAscending` (whether a list's keys ascend, checking each).
    pub key: String,
    pub ascending: String,
    /// `eqDeltaEntityById`: whether two values have the same wire values in every field
    /// of the row (for the elements of keyed lists and what they hold).
    pub eq: String,
    /// The row writer takes `top`: a `delta message` with zero-width fields, which
    /// it checks only when nested (spec §12.2: at the top level they take no bits
    /// and are not encoded at all).
    pub top: bool,
}

/// The delta names of a schema: by index of [`DeltaPlan::structs`].
#[derive(Debug, Clone, Default)]
pub struct DeltaNames {
    pub rows: Vec<RowNames>,
}

impl DeltaNames {
    /// Names every struct delta of `plan`, avoiding `globals` (which gets them all).
    pub fn new(names: &Names, plan: &DeltaPlan, globals: &mut HashSet<String>) -> DeltaNames {
        let rows = plan
            .structs
            .iter()
            .map(|s| {
                let ident = &names.types[s.id].ident;
                let mut stem = match s.without {
                    None => ident.clone(),
                    Some(k) => format!("{ident}By{}", upper_first(&names.types[s.id].members[k])),
                };
                loop {
                    let row = row_names(&stem, false);
                    if row.all().iter().all(|n| !globals.contains(*n)) {
                        globals.extend(row.all().iter().map(|n| n.to_string()));
                        let top = s.without.is_none()
                            && plan.messages.contains(&s.id)
                            && s.fields.iter().any(|f| f.delta == Delta::Never);
                        return RowNames { top, ..row };
                    }
                    stem.push('_');
                }
            })
            .collect();
        DeltaNames { rows }
    }
}

impl RowNames {
    fn all(&self) -> [&str; 10] {
        [
            &self.codec,
            &self.eq,
            &self.write,
            &self.read,
            &self.encode,
            &self.decode,
            &self.verify,
            &self.error,
            &self.key,
            &self.ascending,
        ]
    }
}

fn row_names(stem: &str, top: bool) -> RowNames {
    let lower = lower_first(stem);
    RowNames {
        write: format!("writeDelta{stem}"),
        read: format!("readDelta{stem}"),
        encode: format!("encodeDelta{stem}"),
        decode: format!("decodeDelta{stem}"),
        verify: format!("verifyDelta{stem}"),
        error: format!("delta{stem}Error"),
        codec: format!("{lower}DeltaCodec"),
        key: format!("{lower}Key"),
        ascending: format!("{lower}Ascending"),
        eq: format!("eqDelta{stem}"),
        top,
    }
}

fn upper_first(s: &str) -> String {
    let s = s.trim_end_matches('_');
    let mut cs = s.chars();
    match cs.next() {
        Some(c) => c.to_uppercase().chain(cs).collect(),
        None => String::new(),
    }
}

fn lower_first(s: &str) -> String {
    let mut cs = s.chars();
    match cs.next() {
        Some(c) => c.to_lowercase().chain(cs).collect(),
        None => String::new(),
    }
}

/// The index in [`DeltaPlan::structs`] of struct `id` without field `without`.
pub fn row_index(plan: &DeltaPlan, id: TypeId, without: Option<usize>) -> usize {
    plan.position(id, without)
}
