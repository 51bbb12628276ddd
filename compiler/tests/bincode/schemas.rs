//! Random schema text for the bincode property test: structs, enums and unions over
//! every type expression of the schema language, each type referring only to types
//! declared before it. Text, not hand-built IR, so the property test exercises the IR
//! the compiler really produces; a schema the compiler rejects (a list of zero-size
//! elements, `E0310`) is skipped by the caller.

use bitwire_compiler::codec::random::Rng;

/// A random schema: `types` named types, `T0`, `T1`, … in declaration order.
pub fn random_schema(rng: &mut Rng, types: usize) -> String {
    let mut out = String::new();
    for i in 0..types {
        let decl = match rng.below(6) {
            0 => enumeration(rng, i),
            1 => union(rng, i),
            _ => structure(rng, i),
        };
        out.push_str(&decl);
        out.push('\n');
    }
    out
}

fn structure(rng: &mut Rng, i: usize) -> String {
    let head = if rng.chance(20) {
        format!("message T{i} = {}", i + 1)
    } else {
        format!("struct T{i}")
    };
    let fields: Vec<String> = (0..rng.below(6))
        .map(|f| format!("    f{f}: {},\n", type_expr(rng, i, 3)))
        .collect();
    format!("{head} {{\n{}}}\n", fields.concat())
}

fn enumeration(rng: &mut Rng, i: usize) -> String {
    let mut next = 0u64;
    let mut variants = String::new();
    for v in 0..1 + rng.below(5) {
        // Sometimes a gap before the value: the bincode index stays the declaration
        // index.
        if rng.chance(30) {
            next += 1 + rng.below(20);
        }
        variants.push_str(&format!("    V{v} = {next},\n"));
        next += 1;
    }
    // Every value is below 5 × 21, so a declared `u8` tag holds it.
    let tag = if rng.chance(25) { ": u8" } else { "" };
    format!("enum T{i}{tag} {{\n{variants}}}\n")
}

fn union(rng: &mut Rng, i: usize) -> String {
    let mut tag = 0u64;
    let variants: Vec<String> = (0..1 + rng.below(4))
        .map(|v| {
            tag += 1 + if rng.chance(20) { rng.below(5) } else { 0 };
            let payload = if rng.chance(70) {
                format!("({})", type_expr(rng, i, 2))
            } else {
                String::new()
            };
            format!("    V{v}{payload} = {},\n", tag - 1)
        })
        .collect();
    format!("union T{i} {{\n{}}}\n", variants.concat())
}

/// A type expression of at most `depth` more levels, naming types below `i`.
fn type_expr(rng: &mut Rng, i: usize, depth: u32) -> String {
    let composite = depth > 0 && rng.chance(35);
    if !composite {
        return scalar(rng, i);
    }
    let inner = |rng: &mut Rng| type_expr(rng, i, depth - 1);
    match rng.below(5) {
        // `optional<optional<T>>` is an error (E0318): the inner one is never optional.
        0 => format!("optional<{}>", not_optional(inner(rng))),
        1 => format!("[{}; {}]", inner(rng), 1 + rng.below(3)),
        2 => format!("list<{}>", inner(rng)),
        3 => format!("list<{}, max {}>", inner(rng), 1 + rng.below(3)),
        _ => format!("optional<{}>", not_optional(inner(rng))),
    }
}

/// `ty`, or a list of it when it is an optional.
fn not_optional(ty: String) -> String {
    if ty.starts_with("optional<") {
        format!("list<{ty}, max 2>")
    } else {
        ty
    }
}

fn scalar(rng: &mut Rng, i: usize) -> String {
    let width = |rng: &mut Rng| 1 + rng.below(64);
    match rng.below(16) {
        0 => "bool".into(),
        1 => format!("u{}", width(rng)),
        2 => format!("i{}", width(rng)),
        3 => "f32".into(),
        4 => "f64".into(),
        5 => ["varu16", "varu32", "varu64", "vari16", "vari32", "vari64"][rng.below(6) as usize]
            .into(),
        6 => bounded(rng),
        7 => quantized(rng),
        8 => ["string", "string<max 3>", "string<max 1>"][rng.below(3) as usize].into(),
        9 => ["bytes", "bytes<max 2>"][rng.below(2) as usize].into(),
        10 => ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"][rng.below(8) as usize].into(),
        _ if i > 0 => format!("T{}", rng.below(i as u64)),
        _ => "u8".into(),
    }
}

/// `uN in A..=B` or `iN in A..=B` with the bounds inside the base type.
fn bounded(rng: &mut Rng) -> String {
    let bits = [3u32, 8, 12, 16, 33, 64][rng.below(6) as usize];
    if rng.chance(50) {
        let hi = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let a = rng.below(hi.min(1000) + 1);
        let b = a + rng.below((hi - a).min(5000) + 1);
        format!("u{bits} in {a}..={b}")
    } else {
        let half = 1i128 << (bits - 1);
        let a = -(rng.below(half.min(1000) as u64 + 1) as i128);
        let b = a + rng.below(3000) as i128;
        let b = b.min(half - 1);
        format!("i{bits} in {a}..={b}")
    }
}

fn quantized(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => "f32 in -1.0..=1.0 bits 8".into(),
        1 => "f64 in 0.0..=10.0 step 0.5".into(),
        2 => "f32 in -1024.0..=1024.0 step 0.015625".into(),
        _ => "f64 in -90.0..=90.0 bits 12".into(),
    }
}
