//! Properties of the reference bincode codec (`codec::bincode`, spec §13) over random
//! values of every named type of every schema in the repository and of random schemas
//! (`bincode/schemas.rs`):
//!
//! - a random valid value encodes, and decodes back to the same value (floats by bit
//!   pattern);
//! - the decode budget is exact: the bytes decode with a budget of exactly the value's
//!   charge (spec §11.5, computed here from the value and the reference memory model)
//!   and fail with `LimitExceeded` with one byte less;
//! - decoding random and mutated bytes never panics; whatever decodes re-encodes to
//!   exactly the input (bincode has one form per value), and every error sits on a
//!   byte boundary inside the input;
//! - a hostile length (2^20 … 2^64 − 1) put in place of any length of a valid
//!   encoding fails at that length, allocating nothing for it (a counting allocator
//!   compares the peak with the valid input's).
//!
//! `BITWIRE_BINCODE_SEED` (default 42) and `BITWIRE_BINCODE_SCHEMAS` (default 400)
//! choose the random schemas; a failure prints the seed, the schema and the input.

#[path = "bincode/schemas.rs"]
mod schemas;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use bitwire_compiler::codec::random::{random_value, Rng};
use bitwire_compiler::codec::trace::{Leaf, TraceItem};
use bitwire_compiler::codec::{bincode, memory, to_hex, CodecError, ErrorKind, Value};
use bitwire_compiler::ir::{Schema, Type, TypeDefKind, TypeId};
use bitwire_count_alloc::{peak_during, Counting};

#[global_allocator]
static ALLOC: Counting = Counting;

/// Random values per named type, mutations per value, random inputs per type.
const VALUES: usize = 12;
const MUTATIONS: usize = 10;
const RANDOM_INPUTS: usize = 12;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The budget a decoded value was charged (§11.5): every non-empty list `len ·
/// footprint(elem) + 32`, every non-empty string or bytes `len + 32`.
fn charge_of(s: &Schema, ty: &Type, v: &Value) -> u128 {
    let each = |elem: &Type, items: &[Value]| -> u128 {
        items.iter().map(|x| charge_of(s, elem, x)).sum()
    };
    match (ty, v) {
        (Type::Optional { inner }, Value::Optional(Some(x))) => charge_of(s, inner, x),
        (Type::Array { elem, .. }, Value::Array(items)) => each(elem, items),
        (Type::List { elem, .. }, Value::Array(items)) => {
            memory::charge(items.len() as u64, memory::footprint(s, elem)) + each(elem, items)
        }
        (Type::String { .. }, Value::String(x)) => memory::charge(x.len() as u64, 1),
        (Type::Bytes { .. }, Value::Bytes(x)) => memory::charge(x.len() as u64, 1),
        (Type::Named { id, .. }, _) => match (&s.types[*id].kind, v) {
            (TypeDefKind::Struct { fields }, Value::Struct(values)) => fields
                .iter()
                .zip(values)
                .map(|(f, (_, x))| charge_of(s, &f.ty, x))
                .sum(),
            (TypeDefKind::Union { variants, .. }, Value::Union { variant, payload }) => {
                let arm = variants.iter().find(|a| a.name == *variant).expect("arm");
                match (&arm.payload, payload) {
                    (Some(t), Some(x)) => charge_of(s, t, x),
                    _ => 0,
                }
            }
            _ => 0,
        },
        _ => 0,
    }
}

/// A decoded value's bytes decode with exactly its charge, and not with one less.
fn budget_is_exact(s: &Schema, ty: TypeId, bytes: &[u8], v: &Value) -> Result<(), String> {
    let named = Type::Named {
        id: ty,
        name: s.types[ty].name.clone(),
    };
    let c = charge_of(s, &named, v);
    if let Err(e) = bincode::decode_with_budget(s, ty, bytes, c) {
        return Err(format!("fails with a budget of its charge {c}: {e}"));
    }
    if c > 0 {
        match bincode::decode_with_budget(s, ty, bytes, c - 1) {
            Err(CodecError::Wire {
                kind: ErrorKind::LimitExceeded,
                ..
            }) => {}
            other => return Err(format!("budget {} (charge − 1) gave {other:?}", c - 1)),
        }
    }
    Ok(())
}

/// Decoding `bytes` does not panic; a value re-encodes to exactly `bytes` and passes
/// [`budget_is_exact`]; an error is a wire error on a byte boundary inside the input.
fn check_input(s: &Schema, ty: TypeId, bytes: &[u8]) -> Result<(), String> {
    let decoded = catch_unwind(AssertUnwindSafe(|| bincode::decode(s, ty, bytes)))
        .map_err(|_| "decode panicked".to_string())?;
    match decoded {
        Ok(v) => {
            let again = bincode::encode(s, ty, &v).map_err(|e| format!("re-encode: {e}"))?;
            if again != bytes {
                return Err(format!("decoded, but re-encoded to {}", to_hex(&again)));
            }
            budget_is_exact(s, ty, bytes, &v)
        }
        Err(CodecError::Wire { kind, bit, path }) => {
            let inside = bit % 8 == 0 && bit <= 8 * bytes.len() as u64;
            let allowed = !matches!(
                kind,
                ErrorKind::InvalidPadding | ErrorKind::NonCanonical | ErrorKind::InvalidKey
            );
            let top = kind != ErrorKind::TrailingData || path.is_empty();
            if inside && allowed && top {
                Ok(())
            } else {
                Err(format!("error {kind} at bit {bit} in `{path}`"))
            }
        }
        Err(e) => Err(format!("not a wire error: {e:?}")),
    }
}

/// One random change to a valid encoding.
fn mutate(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    let at = |rng: &mut Rng, n: usize| rng.below(n.max(1) as u64) as usize;
    match rng.below(8) {
        0 if !b.is_empty() => {
            let i = at(rng, b.len());
            b[i] ^= 1 << rng.below(8);
        }
        1 if !b.is_empty() => {
            let i = at(rng, b.len());
            b[i] = rng.next_u64() as u8;
        }
        2 => b.truncate(at(rng, b.len())),
        3 => b.push(rng.next_u64() as u8),
        4 if !b.is_empty() => {
            b.remove(at(rng, b.len()));
        }
        5 => b.insert(at(rng, b.len() + 1), rng.next_u64() as u8),
        6 if b.len() >= 8 => {
            // A large little-endian number anywhere: lengths, indices, tags.
            let i = at(rng, b.len() - 7);
            let v = rng.next_u64() >> rng.below(64);
            b[i..i + 8].copy_from_slice(&v.to_le_bytes());
        }
        _ => b.extend_from_within(..),
    }
    b
}

/// Every length of a valid encoding replaced by hostile lengths: the decode fails at
/// that length with `Truncated` or `InvalidLength`, allocating at most what decoding
/// the valid bytes did (plus the error).
fn hostile_lengths(s: &Schema, ty: TypeId, bytes: &[u8]) -> Result<(), String> {
    let (_, base_peak) = peak_during(|| bincode::decode(s, ty, bytes));
    let (trace, _) = bincode::trace(s, ty, bytes);
    for e in &trace.entries {
        if !matches!(e.item, TraceItem::Leaf(Leaf::Length { .. })) {
            continue;
        }
        let at = (e.start / 8) as usize;
        for len in [u64::MAX, 1 << 63, 1 << 40, 1 << 32, 1 << 20] {
            let mut b = bytes.to_vec();
            b[at..at + 8].copy_from_slice(&len.to_le_bytes());
            let (r, peak) = peak_during(|| bincode::decode(s, ty, &b));
            match r {
                Err(CodecError::Wire { kind, bit, .. })
                    if bit == e.start
                        && matches!(kind, ErrorKind::Truncated | ErrorKind::InvalidLength) => {}
                other => return Err(format!("length {len} at byte {at}: {other:?}")),
            }
            if peak > base_peak + 4096 {
                return Err(format!(
                    "length {len} at byte {at}: peak {peak} bytes, {base_peak} for the valid input"
                ));
            }
        }
    }
    Ok(())
}

/// Runs every property on the named type `ty`; failures are pushed with `label`.
fn check_type(s: &Schema, ty: TypeId, rng: &mut Rng, label: &str, failures: &mut Vec<String>) {
    let named = Type::Named {
        id: ty,
        name: s.types[ty].name.clone(),
    };
    let mut fail =
        |what: String| failures.push(format!("{label}, type {}: {what}", named_of(s, ty)));
    for _ in 0..VALUES {
        let v = random_value(rng, s, &named);
        let bytes = match bincode::encode(s, ty, &v) {
            Ok(b) => b,
            Err(e) => return fail(format!("a random value does not encode: {e}\n{v:?}")),
        };
        match bincode::decode(s, ty, &bytes) {
            Ok(back) if back == v => {}
            other => {
                return fail(format!(
                    "{} decodes to {other:?}, not {v:?}",
                    to_hex(&bytes)
                ))
            }
        }
        if let Err(e) = budget_is_exact(s, ty, &bytes, &v) {
            return fail(format!("{}: {e}", to_hex(&bytes)));
        }
        if let Err(e) = hostile_lengths(s, ty, &bytes) {
            return fail(format!("{}: {e}", to_hex(&bytes)));
        }
        for _ in 0..MUTATIONS {
            let m = mutate(rng, &bytes);
            if let Err(e) = check_input(s, ty, &m) {
                return fail(format!("input {}: {e}", to_hex(&m)));
            }
        }
    }
    for _ in 0..RANDOM_INPUTS {
        let n = rng.below(40) as usize;
        let b: Vec<u8> = (0..n)
            .map(|_| match rng.below(4) {
                0 => 0,
                1 => 1,
                _ => rng.next_u64() as u8,
            })
            .collect();
        if let Err(e) = check_input(s, ty, &b) {
            return fail(format!("input {}: {e}", to_hex(&b)));
        }
    }
}

fn named_of(s: &Schema, ty: TypeId) -> &str {
    &s.types[ty].name
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// Every `.bw` file of the vector suites (packed, bincode, delta, frames), the
/// examples and the benchmark schemas.
fn repository_schemas() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [
        "testdata/vectors",
        "testdata/vectors/bincode",
        "testdata/vectors/delta",
        "testdata/vectors/frames",
        "examples",
        "bench/schemas",
    ] {
        let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
            continue;
        };
        files.extend(
            entries
                .map(|e| e.expect("entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "bw")),
        );
    }
    files.sort();
    files
}

#[test]
fn repository_schemas_round_trip_and_reject_safely() {
    let mut rng = Rng(0x5EED_B1C0);
    let mut failures = Vec::new();
    let files = repository_schemas();
    assert!(files.len() > 15, "found only {} schemas", files.len());
    let mut types = 0;
    for path in &files {
        let s = bitwire_compiler::compile_file(path)
            .unwrap_or_else(|d| panic!("{}: {}", path.display(), d.render()));
        for ty in 0..s.types.len() {
            check_type(&s, ty, &mut rng, &path.display().to_string(), &mut failures);
            types += 1;
        }
    }
    println!("{} schemas, {types} types", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn random_schemas_round_trip_and_reject_safely() {
    let seed = env_u64("BITWIRE_BINCODE_SEED", 42);
    let count = env_u64("BITWIRE_BINCODE_SCHEMAS", 400);
    let mut rng = Rng(seed.max(1));
    let mut failures = Vec::new();
    let (mut compiled, mut types) = (0, 0);
    for index in 0..count {
        let n = 1 + rng.below(6) as usize;
        let text = schemas::random_schema(&mut rng, n);
        let s = match bitwire_compiler::compile_source("r.bw", &text) {
            Ok(s) => s,
            Err(d) => {
                if std::env::var_os("BITWIRE_BINCODE_SHOW_REJECTED").is_some() {
                    println!("{text}\n{}", d.render());
                }
                continue;
            }
        };
        compiled += 1;
        let label = format!("seed {seed}, schema {index}:\n{text}");
        for ty in 0..s.types.len() {
            check_type(&s, ty, &mut rng, &label, &mut failures);
            types += 1;
        }
    }
    println!("seed {seed}: {compiled} of {count} schemas compiled, {types} types");
    assert!(
        compiled * 10 >= count * 8,
        "only {compiled} of {count} random schemas compiled"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
