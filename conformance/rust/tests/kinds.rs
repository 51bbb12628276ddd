//! The reference codec keeps its own copies of the closed error-kind lists (it shares
//! no code with the runtime it is the oracle for); vectors compare kinds by name, so
//! the names must be the same lists.

use bitwire_compiler::codec;

#[test]
fn wire_kinds_have_the_same_names() {
    let runtime: Vec<&str> = bitwire::ErrorKind::ALL.iter().map(|k| k.name()).collect();
    let reference: Vec<&str> = codec::ErrorKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(runtime, reference);
}

#[test]
fn json_kinds_have_the_same_names() {
    // The runtime adds OutOfRange and InvalidLength, for values a Rust type cannot hold.
    let runtime: Vec<&str> = bitwire::json::JsonErrorKind::ALL
        .iter()
        .map(|k| k.name())
        .filter(|n| !["OutOfRange", "InvalidLength"].contains(n))
        .collect();
    let reference: Vec<&str> = codec::JsonErrorKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(runtime, reference);
}
