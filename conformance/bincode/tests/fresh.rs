//! The committed bincode vectors are what the crates write today: every suite is
//! regenerated in memory (each case checked against bincode and wincode as it is built)
//! and compared with `testdata/vectors/bincode/*.json`.

#[test]
fn committed_vectors_are_fresh() {
    let stale = bitwire_bincode_peers::check_all();
    assert!(
        stale.is_empty(),
        "stale bincode vectors (run `cargo run -p bitwire-bincode-peers` and commit): {stale:?}"
    );
}
