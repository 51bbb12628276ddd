//! Decodes arbitrary bytes as bincode (spec §13) with the reference codec
//! (`bitwire_compiler::codec::bincode`), as every named type of `examples/game.bw`,
//! `testdata/vectors/stress.bw` (every construct) and `testdata/vectors/limits.bw` (the
//! decode budget): the first byte picks the type, the rest is the input. Properties:
//! decoding never panics; an error is a wire error on a byte boundary inside the input
//! (`TrailingData` with an empty path); whatever decodes re-encodes to exactly the input
//! (bincode has one form per value) and decodes again to an equal value; the traced
//! decoder (`bitwire explain`) gives the same result; and decoding allocates at most 16
//! times the default decode budget for the input's length (the reference's values are
//! larger than the memory model's, never by that much), measured by a counting
//! allocator — so no length is trusted before it is checked.
#![no_main]

use std::sync::OnceLock;

use bitwire_compiler::codec::{bincode, memory, CodecError, ErrorKind};
use bitwire_compiler::ir::{Schema, TypeId};
use bitwire_count_alloc::{peak_during, Counting};
use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: Counting = Counting;

/// The schemas, and every (schema, type) the first byte can pick.
type Types = (Vec<Schema>, Vec<(usize, TypeId)>);

/// The schemas, compiled once, and every (schema, type) the first byte can pick, in
/// the order `bincode_seeds.py` numbers them: schemas as listed, types by id.
fn types() -> &'static Types {
    static TYPES: OnceLock<Types> = OnceLock::new();
    TYPES.get_or_init(|| {
        let sources = [
            ("game.bw", include_str!("../../examples/game.bw")),
            (
                "stress.bw",
                include_str!("../../testdata/vectors/stress.bw"),
            ),
            (
                "limits.bw",
                include_str!("../../testdata/vectors/limits.bw"),
            ),
        ];
        let schemas: Vec<Schema> = sources
            .iter()
            .map(|(name, text)| {
                bitwire_compiler::compile_source(name, text).expect("the schema compiles")
            })
            .collect();
        let types = schemas
            .iter()
            .enumerate()
            .flat_map(|(i, s)| (0..s.types.len()).map(move |t| (i, t)))
            .collect();
        (schemas, types)
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, bytes)) = data.split_first() else {
        return;
    };
    let (schemas, types) = types();
    let (schema, ty) = types[which as usize % types.len()];
    let s = &schemas[schema];

    let (decoded, peak) = peak_during(|| bincode::decode(s, ty, bytes));
    let bound = 16 * memory::default_budget(bytes.len());
    assert!(
        peak as u128 <= bound,
        "decoding {} bytes allocated {peak} (bound {bound})",
        bytes.len()
    );
    let (_, traced) = bincode::trace(s, ty, bytes);
    assert_eq!(traced, decoded, "the traced decoder disagrees");
    match decoded {
        Ok(value) => {
            let again = bincode::encode(s, ty, &value).expect("a decoded value encodes");
            assert_eq!(again, bytes, "decode → encode changed the bytes");
            let twice = bincode::decode(s, ty, &again).expect("re-encoded bytes decode");
            assert_eq!(twice, value);
        }
        Err(CodecError::Wire { kind, bit, path }) => {
            assert!(
                bit % 8 == 0 && bit <= 8 * bytes.len() as u64,
                "{kind} at bit {bit} of {} bytes",
                bytes.len()
            );
            assert!(
                !matches!(
                    kind,
                    ErrorKind::InvalidPadding | ErrorKind::NonCanonical | ErrorKind::InvalidKey
                ),
                "{kind} is not a bincode error"
            );
            assert!(
                kind != ErrorKind::TrailingData || path.is_empty(),
                "TrailingData in `{path}`"
            );
        }
        Err(e) => panic!("not a wire error: {e}"),
    }
});
