//! The Rust leg of the cross-language demo (`./run demo`). Rust writes the sample
//! messages as `DIR/<Name>.bin` (packed) and `DIR/<Name>.bincode.bin` (the bincode
//! encoding); the Go and TypeScript demos decode them, encode them again and write
//! `DIR/<Name>.go.bin`, `DIR/<Name>.bincode.go.bin` and the `.ts.bin` pair; `verify`
//! checks those.

use std::error::Error;
use std::fs;
use std::path::Path;

use bitwire::{decode_packed, Bincode, Packed};
use bitwire_example::game::{Events, Input, Packet64, Snapshot};
use bitwire_example::samples;

/// Entities in the snapshot that crosses languages: enough to exercise lists, optionals
/// and strings, small enough to read as hex.
const SNAPSHOT_ENTITIES: usize = 16;

/// The two wire encodings every language writes.
#[derive(Clone, Copy)]
enum Encoding {
    Packed,
    Bincode,
}

impl Encoding {
    /// What the encoding adds to a file name: `Packet64.bin`, `Packet64.bincode.bin`.
    fn infix(self) -> &'static str {
        match self {
            Encoding::Packed => "",
            Encoding::Bincode => ".bincode",
        }
    }
}

/// One message that crosses languages.
struct Sample {
    /// The file name stem every demo uses.
    name: &'static str,
    /// Rust's packed encoding of the sample: what the other languages must reproduce.
    packed: Vec<u8>,
    /// Rust's bincode encoding of the value `packed` decodes to.
    bincode: Vec<u8>,
    /// Whether `theirs`, in the given encoding, decodes to the value `packed` decodes to;
    /// a function pointer so that the table can hold every message type and still decode
    /// with the generated code.
    same_value: fn(&[u8], &[u8], Encoding) -> bitwire::Result<bool>,
}

impl Sample {
    fn bytes(&self, encoding: Encoding) -> &[u8] {
        match encoding {
            Encoding::Packed => &self.packed,
            Encoding::Bincode => &self.bincode,
        }
    }
}

fn same_value<T: Packed + Bincode + PartialEq>(
    packed: &[u8],
    theirs: &[u8],
    encoding: Encoding,
) -> bitwire::Result<bool> {
    let theirs = match encoding {
        Encoding::Packed => decode_packed::<T>(theirs)?,
        Encoding::Bincode => T::decode_bincode(theirs)?,
    };
    Ok(decode_packed::<T>(packed)? == theirs)
}

fn sample<T: Packed + Bincode + PartialEq>(
    name: &'static str,
    value: &T,
) -> bitwire::Result<Sample> {
    let packed = value.encode_to_vec()?;
    // The bincode bytes hold the value as it crossed the packed wire (quantized floats on
    // their grid), so that both files of a message decode to the same value everywhere.
    let bincode = decode_packed::<T>(&packed)?.encode_bincode_to_vec()?;
    Ok(Sample {
        name,
        packed,
        bincode,
        same_value: same_value::<T>,
    })
}

fn samples() -> bitwire::Result<[Sample; 4]> {
    Ok([
        sample::<Packet64>("Packet64", &samples::packet64())?,
        sample::<Input>("Input", &samples::input())?,
        sample::<Snapshot>("Snapshot", &samples::snapshot(SNAPSHOT_ENTITIES))?,
        sample::<Events>("Events", &samples::events())?,
    ])
}

/// Writes `dir/<Name>.bin` and `dir/<Name>.bincode.bin` for every sample.
pub fn write(dir: &Path) -> Result<(), Box<dyn Error>> {
    fs::create_dir_all(dir)?;
    let samples = samples()?;
    for s in &samples {
        for encoding in [Encoding::Packed, Encoding::Bincode] {
            let path = dir.join(format!("{}{}.bin", s.name, encoding.infix()));
            fs::write(path, s.bytes(encoding))?;
        }
    }
    let names: Vec<_> = samples.iter().map(|s| s.name).collect();
    println!(
        "\nwrote {}/{{{}}}{{,.bincode}}.bin for Go and TypeScript",
        dir.display(),
        names.join(",")
    );
    Ok(())
}

/// Compares the file `<Name><infix>.<ext>.bin` with Rust's bytes: its size and verdict,
/// and whether it is byte for byte Rust's.
fn check(
    dir: &Path,
    s: &Sample,
    encoding: Encoding,
    ext: &str,
) -> Result<(String, bool), Box<dyn Error>> {
    let path = dir.join(format!("{}{}.{ext}.bin", s.name, encoding.infix()));
    let theirs = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let equal = (s.same_value)(&s.packed, &theirs, encoding)
        .map_err(|e| format!("{}: Rust cannot decode it: {e}", path.display()))?;
    let verdict = match (theirs == s.bytes(encoding), equal) {
        (true, true) => "identical",
        (false, true) => "DIFFERENT bytes (same value)",
        (_, false) => "DIFFERENT value",
    };
    let identical = verdict == "identical";
    Ok((format!("{:>3} B {verdict}", theirs.len()), identical))
}

/// Reads what Go and TypeScript wrote back and checks every file is byte for byte
/// Rust's encoding and decodes to the same value.
pub fn verify(dir: &Path) -> Result<(), Box<dyn Error>> {
    let mut failed = 0;
    for s in samples()? {
        for (lang, ext) in [("Go", "go"), ("TypeScript", "ts")] {
            let (packed, packed_ok) = check(dir, &s, Encoding::Packed, ext)?;
            let (bincode, bincode_ok) = check(dir, &s, Encoding::Bincode, ext)?;
            println!(
                "{:<18} {:<9} packed {packed}, bincode {bincode}",
                format!("{lang} → Rust:"),
                s.name
            );
            failed += usize::from(!packed_ok) + usize::from(!bincode_ok);
        }
    }
    if failed > 0 {
        return Err(format!("{failed} files differ from Rust's encoding").into());
    }
    Ok(())
}
