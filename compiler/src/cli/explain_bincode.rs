//! `bitwire explain --encoding bincode`: the annotated dump of bincode bytes (spec §13),
//! from the reference bincode decoder's trace. The packed dump's layout (`explain.rs`)
//! at byte granularity: byte ranges instead of bit ranges, and each value's bytes as
//! they are on the wire, in order, instead of the bits as a number. Format:
//! `docs/tooling.md`.

use std::fmt::Write as _;

use super::codec::describe;
use super::explain::{float, group_meaning, pad, raw_bytes, width};
use super::Encoding;
use crate::codec::trace::{Group, Leaf, TraceItem};
use crate::codec::{self};
use crate::ir::{Schema, TypeId};

/// One line of the dump before alignment.
struct Line {
    label: String,
    range: String,
    raw: String,
    meaning: String,
}

/// The whole dump as text, and whether the buffer is valid.
pub(crate) fn render(schema: &Schema, ty: TypeId, bytes: &[u8]) -> (String, bool) {
    let (tr, result) = codec::bincode::trace(schema, ty, bytes);
    let def = &schema.types[ty];
    let mut lines = Vec::new();
    for e in &tr.entries {
        // The trace's offsets are bits, 8 × the byte offsets.
        let (start, end) = (e.start / 8, e.end.map(|b| b / 8));
        let label = if e.path.is_empty() {
            def.name.clone()
        } else {
            e.path.clone()
        };
        let range = match end {
            Some(end) => format!("bytes {start}..{end}"),
            None => format!("bytes {start}.."),
        };
        let (raw, meaning) = match &e.item {
            TraceItem::Group(Group::Some) => continue,
            TraceItem::Group(g) => (String::new(), group_meaning(g, e.depth, def)),
            TraceItem::Leaf(leaf) => {
                let end = end.expect("leaves are complete");
                (
                    raw_bytes(&bytes[start as usize..end as usize]),
                    leaf_meaning(leaf),
                )
            }
        };
        lines.push(Line {
            label: format!("{}{label}", "  ".repeat(e.depth)),
            range,
            raw,
            meaning,
        });
    }

    let mut out = String::new();
    let w_label = lines.iter().map(|l| width(&l.label)).max().unwrap_or(0);
    let w_range = lines.iter().map(|l| l.range.len()).max().unwrap_or(0);
    let w_raw = lines.iter().map(|l| width(&l.raw)).max().unwrap_or(0);
    for l in &lines {
        let mut s = format!(
            "{}  {:w_range$}  {}",
            pad(&l.label, w_label),
            l.range,
            pad(&l.raw, w_raw)
        );
        if !l.meaning.is_empty() {
            s.push_str("  ");
            s.push_str(&l.meaning);
        }
        out.push_str(s.trim_end());
        out.push('\n');
    }
    match result {
        Ok(_) => {
            let _ = writeln!(out, "{} bytes", bytes.len());
            (out, true)
        }
        Err(e) => {
            let _ = writeln!(out, "error: {}", describe(&e, Encoding::Bincode));
            (out, false)
        }
    }
}

/// What a leaf means: as in the packed dump, except that enums and union arms show
/// their `u32` index (the declaration index, §13.2, §13.4) before the name.
fn leaf_meaning(leaf: &Leaf) -> String {
    match leaf {
        Leaf::Bool(b) => b.to_string(),
        Leaf::Int { value, .. } | Leaf::Bounded { value, .. } | Leaf::Varint { value, .. } => {
            value.to_string()
        }
        Leaf::Float { repr, value } | Leaf::Quantized { repr, value, .. } => float(*repr, *value),
        Leaf::Enum { tag, name } => format!("index {tag} → {name}"),
        Leaf::Tag { tag, variant } => format!("index {tag} → {variant}"),
        Leaf::Presence(true) => "present".to_string(),
        Leaf::Presence(false) => "absent".to_string(),
        Leaf::Length { len, .. } => format!("len {len}"),
        Leaf::Str(s) => format!("{s:?}"),
        Leaf::Bytes(b) => format!("{} bytes", b.len()),
    }
}
