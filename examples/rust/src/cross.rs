//! The Rust leg of the cross-language demo (`./run demo`). Rust writes the sample
//! messages as `DIR/<Name>.bin`; the Go and TypeScript demos decode them, encode them
//! again and write `DIR/<Name>.go.bin` and `DIR/<Name>.ts.bin`; `verify` checks those.

use std::error::Error;
use std::fs;
use std::path::Path;

use bitwire::{decode_packed, Packed};
use bitwire_example::game::{Events, Input, Packet64, Snapshot};
use bitwire_example::samples;

/// Entities in the snapshot that crosses languages: enough to exercise lists, optionals
/// and strings, small enough to read as hex.
const SNAPSHOT_ENTITIES: usize = 16;

/// One message that crosses languages.
struct Sample {
    /// The file name stem every demo uses.
    name: &'static str,
    /// Rust's encoding of the sample: what the other languages must reproduce.
    bytes: Vec<u8>,
    /// Whether two encodings decode to equal values; a function pointer so that the
    /// table can hold every message type and still decode with the generated code.
    same_value: fn(&[u8], &[u8]) -> bitwire::Result<bool>,
}

fn same_value<T: Packed + PartialEq>(a: &[u8], b: &[u8]) -> bitwire::Result<bool> {
    Ok(decode_packed::<T>(a)? == decode_packed::<T>(b)?)
}

fn samples() -> bitwire::Result<[Sample; 4]> {
    Ok([
        Sample {
            name: "Packet64",
            bytes: samples::packet64().encode_to_vec()?,
            same_value: same_value::<Packet64>,
        },
        Sample {
            name: "Input",
            bytes: samples::input().encode_to_vec()?,
            same_value: same_value::<Input>,
        },
        Sample {
            name: "Snapshot",
            bytes: samples::snapshot(SNAPSHOT_ENTITIES).encode_to_vec()?,
            same_value: same_value::<Snapshot>,
        },
        Sample {
            name: "Events",
            bytes: samples::events().encode_to_vec()?,
            same_value: same_value::<Events>,
        },
    ])
}

/// Writes `dir/<Name>.bin` for every sample.
pub fn write(dir: &Path) -> Result<(), Box<dyn Error>> {
    fs::create_dir_all(dir)?;
    let samples = samples()?;
    for s in &samples {
        fs::write(dir.join(format!("{}.bin", s.name)), &s.bytes)?;
    }
    let names: Vec<_> = samples.iter().map(|s| s.name).collect();
    println!(
        "\nwrote {}/{{{}}}.bin for Go and TypeScript",
        dir.display(),
        names.join(",")
    );
    Ok(())
}

/// Reads what Go and TypeScript wrote back and checks every file is byte for byte
/// Rust's encoding and decodes to the same value.
pub fn verify(dir: &Path) -> Result<(), Box<dyn Error>> {
    let mut failed = 0;
    for s in samples()? {
        for (lang, ext) in [("Go", "go"), ("TypeScript", "ts")] {
            let path = dir.join(format!("{}.{ext}.bin", s.name));
            let theirs = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let equal = (s.same_value)(&s.bytes, &theirs)
                .map_err(|e| format!("{}: Rust cannot decode it: {e}", path.display()))?;
            let verdict = match (theirs == s.bytes, equal) {
                (true, true) => "identical",
                (false, true) => "DIFFERENT bytes (same value)",
                (_, false) => "DIFFERENT value",
            };
            println!("{lang} → Rust: {} {} B, {verdict}", s.name, theirs.len());
            failed += usize::from(verdict != "identical");
        }
    }
    if failed > 0 {
        return Err(format!("{failed} files differ from Rust's encoding").into());
    }
    Ok(())
}
