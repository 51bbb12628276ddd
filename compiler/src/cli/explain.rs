//! `bitwire explain` and `bitwire verify`: the reference decoder with a trace
//! ([`codec::trace`]), for people reading packets. Format: `docs/tooling.md`. The
//! bincode encoding's dump (`--encoding bincode`) is in `explain_bincode.rs`.
//!
//! Exit codes as for `decode` (`cli/codec.rs`): 0 valid, 1 bad data, 2 cannot start.
//! `explain` prints everything to standard output, including the error line of a
//! malformed buffer; `verify` prints `ok: N bytes` to standard output or the error to
//! standard error.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::process::ExitCode;

use super::codec::{finish, load, parse_hex, read_input, wire_failure, Failure};
use super::{CodecArgs, Encoding, WireArgs};
use crate::codec::trace::{self, Group, Leaf, TraceItem};
use crate::codec::{self, CodecError};
use crate::ir::{FloatRepr, Schema, TypeId};

/// Raw values up to this many bits are shown in binary, wider ones in hex.
const BINARY_MAX_BITS: u64 = 16;
/// String and bytes values show at most this many raw bytes.
const RAW_BYTES_SHOWN: usize = 8;

/// Prints the annotated dump; exit 1 when the buffer is malformed.
pub fn explain(args: &WireArgs) -> ExitCode {
    match input(&args.codec) {
        Err(f) => finish(Err(f)),
        Ok((schema, ty, bytes)) => {
            let (text, ok) = match args.encoding {
                Encoding::Packed => render(&schema, ty, &bytes),
                Encoding::Bincode => super::explain_bincode::render(&schema, ty, &bytes),
            };
            let mut out = io::stdout().lock();
            if out
                .write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .is_err()
            {
                return ExitCode::from(1);
            }
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
    }
}

/// Decodes the buffer completely and prints `ok: N bytes`, or the error.
pub fn verify(args: &WireArgs) -> ExitCode {
    finish(input(&args.codec).and_then(|(schema, ty, bytes)| {
        match args.encoding {
            Encoding::Packed => codec::decode(&schema, ty, &bytes),
            Encoding::Bincode => codec::bincode::decode(&schema, ty, &bytes),
        }
        .map_err(|e| wire_failure("verify", &e, args.encoding))?;
        println!("ok: {} bytes", bytes.len());
        Ok(())
    }))
}

fn input(args: &CodecArgs) -> Result<(Schema, TypeId, Vec<u8>), Failure> {
    let (schema, ty) = load(args)?;
    let raw = read_input(args)?;
    let bytes = if args.hex { parse_hex(&raw)? } else { raw };
    Ok((schema, ty, bytes))
}

/// One line of the dump before alignment: label (indented path), bit range, raw bits,
/// meaning.
struct Line {
    label: String,
    bits: String,
    raw: String,
    meaning: String,
}

/// The whole dump as text, and whether the buffer is valid.
pub(crate) fn render(schema: &Schema, ty: TypeId, bytes: &[u8]) -> (String, bool) {
    let (tr, result) = trace::trace(schema, ty, bytes);
    let def = &schema.types[ty];
    let mut lines = Vec::new();
    for e in &tr.entries {
        let label = if e.path.is_empty() {
            def.name.clone()
        } else {
            e.path.clone()
        };
        let bits = match e.end {
            Some(end) => format!("bits {}..{end}", e.start),
            None => format!("bits {}..", e.start),
        };
        let (raw, meaning) = match &e.item {
            TraceItem::Group(Group::Some) => continue,
            TraceItem::Group(g) => (String::new(), group_meaning(g, e.depth, def)),
            TraceItem::Leaf(leaf) => {
                let end = e.end.expect("leaves are complete");
                (leaf_raw(bytes, e.start, end, leaf), leaf_meaning(leaf))
            }
        };
        lines.push(Line {
            label: format!("{}{label}", "  ".repeat(e.depth)),
            bits,
            raw,
            meaning,
        });
    }

    let mut out = String::new();
    let w_label = lines.iter().map(|l| width(&l.label)).max().unwrap_or(0);
    let w_bits = lines.iter().map(|l| l.bits.len()).max().unwrap_or(0);
    let w_raw = lines
        .iter()
        .map(|l| width(&l.raw))
        .filter(|&w| w <= 24)
        .max()
        .unwrap_or(0);
    for l in &lines {
        let mut s = format!(
            "{}  {:w_bits$}  {}",
            pad(&l.label, w_label),
            l.bits,
            pad(&l.raw, w_raw)
        );
        if !l.meaning.is_empty() {
            s.push_str("  ");
            s.push_str(&l.meaning);
        }
        out.push_str(s.trim_end());
        out.push('\n');
    }

    if let Some(end) = tr.data_end {
        let padded = end.div_ceil(8) * 8;
        if padded == end {
            out.push_str("padding: none\n");
        } else {
            let bits: String = (end..padded)
                .map(|p| if bit(bytes, p) { '1' } else { '0' })
                .collect();
            let _ = writeln!(out, "padding bits {end}..{padded}: {bits}");
        }
    }
    match result {
        Ok(_) => {
            let data = tr.data_end.unwrap_or(0);
            let _ = writeln!(out, "{} bytes, {data} bits of data", bytes.len());
            (out, true)
        }
        Err(e) => {
            let _ = writeln!(out, "error: {}", error_line(&e));
            (out, false)
        }
    }
}

fn error_line(e: &CodecError) -> String {
    e.to_string()
}

pub(super) fn group_meaning(g: &Group, depth: usize, def: &crate::ir::TypeDef) -> String {
    match g {
        Group::Struct(name) => match def.message_id {
            Some(id) if depth == 0 => format!("message {name} = {id}"),
            _ => format!("struct {name}"),
        },
        Group::Union(name) => format!("union {name}"),
        Group::Array(len) => format!("array of {len}"),
        Group::List => "list".to_string(),
        Group::Some => String::new(),
    }
}

fn leaf_meaning(leaf: &Leaf) -> String {
    match leaf {
        Leaf::Bool(b) => b.to_string(),
        Leaf::Int { value, .. } => value.to_string(),
        Leaf::Bounded { stored, value } => format!("v-min={stored} → {value}"),
        Leaf::Varint {
            raw, value, signed, ..
        } => {
            if *signed {
                format!("zigzag {raw} → {value}")
            } else {
                value.to_string()
            }
        }
        Leaf::Float { repr, value } => float(*repr, *value),
        Leaf::Quantized { repr, q, value } => format!("q={q} → {}", float(*repr, *value)),
        Leaf::Enum { name, .. } => name.clone(),
        Leaf::Tag { tag, variant } => format!("tag {tag} → {variant}"),
        Leaf::Presence(true) => "present".to_string(),
        Leaf::Presence(false) => "absent".to_string(),
        Leaf::Length { len, .. } => format!("len {len}"),
        Leaf::Str(s) => format!("{s:?}"),
        Leaf::Bytes(b) => format!("{} bytes", b.len()),
    }
}

/// A float as the decoder holds it: `f32` values printed as `f32` (shortest form).
pub(super) fn float(repr: FloatRepr, value: f64) -> String {
    match repr {
        FloatRepr::F32 => format!("{:?}", value as f32),
        FloatRepr::F64 => format!("{value:?}"),
    }
}

fn leaf_raw(bytes: &[u8], start: u64, end: u64, leaf: &Leaf) -> String {
    match leaf {
        Leaf::Varint { prefix_end, .. }
        | Leaf::Length {
            prefix_end: Some(prefix_end),
            ..
        } => {
            // The group-count prefix in stream (reading) order, then the payload.
            let prefix: String = (start..*prefix_end)
                .map(|p| if bit(bytes, p) { '1' } else { '0' })
                .collect();
            format!("{prefix}:{}", raw_bits(bytes, *prefix_end, end))
        }
        Leaf::Str(s) => raw_bytes(s.as_bytes()),
        Leaf::Bytes(b) => raw_bytes(b),
        _ => raw_bits(bytes, start, end),
    }
}

/// Bytes in order as hex pairs, at most [`RAW_BYTES_SHOWN`] of them.
pub(super) fn raw_bytes(b: &[u8]) -> String {
    if b.is_empty() {
        return "-".to_string();
    }
    let mut s: Vec<String> = b
        .iter()
        .take(RAW_BYTES_SHOWN)
        .map(|x| format!("{x:02x}"))
        .collect();
    if b.len() > RAW_BYTES_SHOWN {
        s.push("…".to_string());
    }
    s.join(" ")
}

/// Stream bits `start..end` as the value they form, most significant bit first:
/// binary up to [`BINARY_MAX_BITS`] bits, hex above; `_` every four digits.
fn raw_bits(bytes: &[u8], start: u64, end: u64) -> String {
    let n = end - start;
    if n == 0 {
        return "-".to_string();
    }
    let msb_first = (start..end).rev().map(|p| bit(bytes, p));
    let digits: Vec<char> = if n <= BINARY_MAX_BITS {
        msb_first.map(|b| if b { '1' } else { '0' }).collect()
    } else {
        // Group into hex digits from the least significant end.
        let bits: Vec<bool> = msb_first.collect();
        let mut digits = Vec::new();
        let mut chunk_end = bits.len();
        while chunk_end > 0 {
            let chunk_start = chunk_end.saturating_sub(4);
            let v = bits[chunk_start..chunk_end]
                .iter()
                .fold(0u32, |acc, &b| acc * 2 + u32::from(b));
            digits.push(char::from_digit(v, 16).expect("a nibble"));
            chunk_end = chunk_start;
        }
        digits.reverse();
        digits
    };
    let mut s = String::from(if n <= BINARY_MAX_BITS { "0b" } else { "0x" });
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i) % 4 == 0 {
            s.push('_');
        }
        s.push(*c);
    }
    s
}

fn bit(bytes: &[u8], p: u64) -> bool {
    (bytes[(p >> 3) as usize] >> (p & 7)) & 1 == 1
}

pub(super) fn width(s: &str) -> usize {
    s.chars().count()
}

pub(super) fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_bits_msb_first() {
        // 0x4b 0x96: is_alive = bit 0, weapon_id = bits 1..5 (0b0101), health bits 7..16.
        let b = [0x4b, 0x96];
        assert_eq!(raw_bits(&b, 0, 1), "0b1");
        assert_eq!(raw_bits(&b, 1, 5), "0b0101");
        assert_eq!(raw_bits(&b, 7, 16), "0b1_0010_1100");
        assert_eq!(raw_bits(&b, 0, 16), "0b1001_0110_0100_1011");
        let b = [0x11, 0x22, 0x33];
        assert_eq!(raw_bits(&b, 0, 24), "0x33_2211");
        assert_eq!(raw_bits(&b, 0, 17), "0x1_2211");
    }
}
