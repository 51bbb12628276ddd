//! Random values, and random and mutated bytes (canonical form, spec §2.4).

use super::support::*;
pub use bitwire_compiler::codec::random::{random_value, Rng};

/// A schema that uses every construct.
pub fn everything() -> (Schema, TypeId) {
    let mut b = Builder::new();
    let e = b.enumeration("E", 3, &[("A", 0), ("B", 3), ("C", 5)]);
    let one = b.enumeration("One", 0, &[("Only", 0)]);
    let inner = b.structure("Inner", vec![("k", i(7)), ("v", opt(varu(16)))]);
    let un = b.union(
        "U",
        2,
        vec![
            ("None", 0, None),
            ("Int", 1, Some(vari(64))),
            ("In", 3, Some(inner.clone())),
        ],
    );
    let t = b.structure(
        "Every",
        vec![
            ("b", Type::Bool),
            ("u5", u(5)),
            ("u64", u(64)),
            ("i7", i(7)),
            ("i64", i(64)),
            ("f", f32t()),
            ("d", f64t()),
            ("bu", bounded(16, 10, 1000)),
            ("bi", bounded(8, -5, 5)),
            ("b0", bounded(8, 3, 3)),
            ("qf", quant(FloatRepr::F32, -10.0, 10.0, 400)),
            ("qd", quant(FloatRepr::F64, 0.0, 1.0, 255)),
            ("vu16", varu(16)),
            ("vi32", vari(32)),
            ("vu64", varu(64)),
            ("e", e),
            ("one", one),
            ("u", un),
            ("o", opt(u(8))),
            ("a", arr(i(3), 3)),
            ("l", list(u(8), Some(5))),
            ("li", list(inner, None)),
            ("lo", list(opt(u(3)), Some(6))),
            ("s", string(Some(10))),
            ("su", string(None)),
            ("by", bytes(Some(4))),
            ("bu_", bytes(None)),
        ],
    );
    (b.schema, Builder::id(&t))
}

#[test]
fn random_values_round_trip_through_bytes_and_json() {
    let (s, t) = everything();
    let named = Type::Named {
        id: t,
        name: "Every".into(),
    };
    let mut rng = Rng(42);
    for _ in 0..2000 {
        let v = random_value(&mut rng, &s, &named);
        let bytes = encode(&s, t, &v).unwrap();
        assert_eq!(decode(&s, t, &bytes).unwrap(), v);
        let json = value_to_json(&s, t, &v);
        // Through JSON text, as the CLI and the vector files carry it.
        let text = serde_json::to_string(&json).unwrap();
        let back = value_from_json(&s, t, &codec::json_from_text(&text).unwrap()).unwrap();
        assert_eq!(back, v, "{text}");
    }
}

/// Decoding arbitrary input never panics; it either fails with a wire error or yields
/// a value that re-encodes to exactly the input (canonical form, §2.4).
pub fn check_arbitrary(s: &Schema, t: TypeId, input: &[u8]) -> Option<ErrorKind> {
    match decode(s, t, input) {
        Ok(v) => {
            assert_eq!(
                encode(s, t, &v).unwrap(),
                input,
                "not canonical: {}",
                hex(input)
            );
            None
        }
        Err(CodecError::Wire { kind, .. }) => Some(kind),
        Err(e) => panic!("decode gave a non-wire error {e:?}"),
    }
}

#[test]
fn random_and_mutated_bytes_never_panic_and_stay_canonical() {
    let (s, t) = everything();
    let named = Type::Named {
        id: t,
        name: "Every".into(),
    };
    let mut rng = Rng(7);
    let mut accepted = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for round in 0..6000 {
        let input: Vec<u8> = if round % 3 == 0 {
            (0..rng.below(120)).map(|_| rng.next_u64() as u8).collect()
        } else {
            let mut b = encode(&s, t, &random_value(&mut rng, &s, &named)).unwrap();
            match rng.below(4) {
                0 => {
                    let p = rng.below(b.len() as u64 * 8) as usize;
                    b[p / 8] ^= 1 << (p % 8);
                }
                1 => b.truncate(rng.below(b.len() as u64) as usize),
                2 => b.push(rng.next_u64() as u8),
                _ => {
                    for _ in 0..3 {
                        let p = rng.below(b.len() as u64) as usize;
                        b[p] = rng.next_u64() as u8;
                    }
                }
            }
            b
        };
        match check_arbitrary(&s, t, &input) {
            None => accepted += 1,
            Some(kind) => {
                kinds.insert(kind.name());
            }
        }
    }
    // Bit flips often land on a still-valid value; make sure that path is exercised,
    // and that the mutations reach every check a decoder of this schema can fail
    // (LimitExceeded needs a 32-bit address space).
    assert!(accepted > 100, "only {accepted} inputs decoded");
    let all = ErrorKind::ALL.map(ErrorKind::name);
    // InvalidKey belongs to the delta encoding (spec §12), which full decoding never raises.
    let expected: Vec<&str> = all
        .into_iter()
        .filter(|k| !matches!(*k, "LimitExceeded" | "InvalidKey"))
        .collect();
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), {
        let mut e = expected;
        e.sort();
        e
    });
}
