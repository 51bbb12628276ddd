//! The crate behaviours ADR 0013 rests on, pinned so that a new bincode or wincode
//! release that changes one of them fails here rather than silently in the vectors.

use bincode::Options;
use serde::{Deserialize, Serialize};
use wincode::{SchemaRead, SchemaWrite};

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Debug, PartialEq)]
#[repr(u8)]
enum Team {
    Red = 0,
    Blue = 1,
    Spectator = 7,
}

#[test]
fn the_free_functions_are_fixint_and_default_options_are_varint() {
    assert_eq!(bincode::serialize(&1u32).unwrap(), [1, 0, 0, 0]);
    assert_eq!(bincode::options().serialize(&1u32).unwrap(), [1]);
    assert_eq!(
        bincode::DefaultOptions::new().serialize(&300u64).unwrap(),
        [0xfb, 0x2c, 0x01]
    );
    let strict = bincode::DefaultOptions::new().with_fixint_encoding();
    assert_eq!(
        strict.serialize(&300u64).unwrap(),
        bincode::serialize(&300u64).unwrap()
    );
    assert_eq!(
        wincode::serialize(&300u64).unwrap(),
        bincode::serialize(&300u64).unwrap()
    );
}

#[test]
fn enums_write_the_declaration_index_not_the_discriminant() {
    assert_eq!(bincode::serialize(&Team::Spectator).unwrap(), [2, 0, 0, 0]);
    assert_eq!(wincode::serialize(&Team::Spectator).unwrap(), [2, 0, 0, 0]);
    assert!(bincode::deserialize::<Team>(&[7, 0, 0, 0]).is_err());
    assert!(wincode::deserialize::<Team>(&[7, 0, 0, 0]).is_err());
    assert_eq!(
        bincode::deserialize::<Team>(&[1, 0, 0, 0]).unwrap(),
        Team::Blue
    );
    let _ = Team::Red;
}

#[test]
fn nan_payloads_are_written_as_they_are() {
    let nan = f32::from_bits(0x7fc0_0001);
    assert_eq!(bincode::serialize(&nan).unwrap(), [0x01, 0x00, 0xc0, 0x7f]);
    assert_eq!(wincode::serialize(&nan).unwrap(), [0x01, 0x00, 0xc0, 0x7f]);
    let back: f32 = bincode::deserialize(&[0x01, 0x00, 0x80, 0x7f]).unwrap();
    assert_eq!(
        back.to_bits(),
        0x7f80_0001,
        "a signaling NaN read back unchanged"
    );
}

#[test]
fn only_the_strict_readers_reject_trailing_bytes() {
    let strict = bincode::DefaultOptions::new().with_fixint_encoding();
    assert_eq!(bincode::deserialize::<u8>(&[1, 2]).unwrap(), 1);
    assert!(strict.deserialize::<u8>(&[1, 2]).is_err());
    assert_eq!(wincode::deserialize::<u8>(&[1, 2]).unwrap(), 1);
    assert!(wincode::deserialize_exact::<u8>(&[1, 2]).is_err());
}

#[test]
fn with_limit_is_ignored_when_reading_a_slice() {
    let bytes = bincode::serialize(&vec![7u8; 20]).unwrap();
    let limited = bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_limit(16);
    assert_eq!(limited.deserialize::<Vec<u8>>(&bytes).unwrap().len(), 20);
    assert!(limited.deserialize_from::<_, Vec<u8>>(&bytes[..]).is_err());
    assert!(limited.serialize(&vec![7u8; 20]).is_err());
}

#[test]
fn hostile_lengths_fail_without_allocating_them() {
    let strict = bincode::DefaultOptions::new().with_fixint_encoding();
    for len in [(1u64 << 48) - 1, u64::MAX] {
        let mut bytes = len.to_le_bytes().to_vec();
        bytes.extend([1, 2, 3]);
        assert!(strict.deserialize::<Vec<u64>>(&bytes).is_err());
        assert!(strict.deserialize::<String>(&bytes).is_err());
        assert!(wincode::deserialize_exact::<Vec<u64>>(&bytes).is_err());
    }
}
