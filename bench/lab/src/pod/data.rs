//! The `pod` corpus files: `pod_u64.bin`, `pod_u8.bin` and `pod_f32.bin`, each the raw
//! little-endian values of the largest block, drawn from a fixed-seed [`SplitMix64`].
//!
//! Every block is a prefix of its file, so one file serves every block size. Values:
//!
//! - `u64`: one full-range `next_u64()` per value (incompressible).
//! - `u8`: the eight little-endian bytes of each `next_u64()`, in order (incompressible).
//! - `f32`: sensor-like positions: three interleaved channels (x, y, z, x, y, z, ...),
//!   each a random walk in metres that starts uniform in ±500, moves by a uniform step in
//!   ±0.25 per sample (one `next_u64()` per value) and reflects at ±1000; the walk runs
//!   in `f64` and each sample is stored rounded to `f32`. Always finite, spread over many
//!   exponents near the origin and over the full mantissa, with slowly changing high
//!   bytes, as real position tracks have.
//!
//! Files are generated in 1 MiB chunks, hashed (FNV-1a 64) while they are written.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

use bitwire_bench::dataset::SplitMix64;
use bitwire_compiler::fingerprint::{fnv1a64, fnv1a64_update, FNV1A64_OFFSET};
use serde_json::{json, Value};

/// One mebibyte.
pub const MB: usize = 1 << 20;

/// Block sizes of a full run: 1, 8, 64, 128 and 256 MB.
pub const FULL_BLOCKS: &[usize] = &[MB, 8 * MB, 64 * MB, 128 * MB, 256 * MB];

/// Block sizes of a quick run: 64 KiB and 1 MB.
pub const QUICK_BLOCKS: &[usize] = &[64 << 10, MB];

/// Seed of `pod_u64.bin`.
pub const SEED_U64: u64 = 0x90D0_0064;
/// Seed of `pod_u8.bin`.
pub const SEED_U8: u64 = 0x90D0_0008;
/// Seed of `pod_f32.bin`.
pub const SEED_F32: u64 = 0x90D0_0F32;

/// Element type of a pod block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Elem {
    /// 64-bit unsigned integers (`PodU64`).
    U64,
    /// Bytes (`PodU8`).
    U8,
    /// 32-bit floats (`PodF32`).
    F32,
}

impl Elem {
    /// Every element type, in report order.
    pub const ALL: [Elem; 3] = [Elem::U64, Elem::U8, Elem::F32];

    /// The name in the manifest's `elem` field (`u64`).
    pub fn name(self) -> &'static str {
        match self {
            Elem::U64 => "u64",
            Elem::U8 => "u8",
            Elem::F32 => "f32",
        }
    }

    /// The dataset name, also the file stem (`pod_u64`).
    pub fn dataset(self) -> &'static str {
        match self {
            Elem::U64 => "pod_u64",
            Elem::U8 => "pod_u8",
            Elem::F32 => "pod_f32",
        }
    }

    /// The message type in `bench/schemas/pod.bw` (`PodU64`).
    pub fn ty(self) -> &'static str {
        match self {
            Elem::U64 => "PodU64",
            Elem::U8 => "PodU8",
            Elem::F32 => "PodF32",
        }
    }

    /// Bytes per value.
    pub fn size(self) -> usize {
        match self {
            Elem::U64 => 8,
            Elem::U8 => 1,
            Elem::F32 => 4,
        }
    }

    /// Seed of the file's generator.
    pub fn seed(self) -> u64 {
        match self {
            Elem::U64 => SEED_U64,
            Elem::U8 => SEED_U8,
            Elem::F32 => SEED_F32,
        }
    }

    /// The element type named `name` in the manifest.
    pub fn from_name(name: &str) -> Option<Elem> {
        Elem::ALL.into_iter().find(|e| e.name() == name)
    }
}

/// The value generator of one pod file, producing its bytes in order.
pub struct PodGen {
    elem: Elem,
    rng: SplitMix64,
    /// The `f32` walk: current x, y, z.
    walk: [f64; 3],
    /// Index of the next `f32` channel.
    channel: usize,
}

impl PodGen {
    /// The generator of `elem`'s file.
    pub fn new(elem: Elem) -> Self {
        let mut rng = SplitMix64::new(elem.seed());
        let walk = if elem == Elem::F32 {
            [0; 3].map(|_| (rng.unit() * 2.0 - 1.0) * 500.0)
        } else {
            [0.0; 3]
        };
        PodGen {
            elem,
            rng,
            walk,
            channel: 0,
        }
    }

    /// Fills `out` with the next `out.len()` bytes of the file (a multiple of 8).
    pub fn fill(&mut self, out: &mut [u8]) {
        assert!(out.len().is_multiple_of(8), "pod chunks are whole words");
        match self.elem {
            Elem::U64 | Elem::U8 => {
                for word in out.chunks_exact_mut(8) {
                    word.copy_from_slice(&self.rng.next_u64().to_le_bytes());
                }
            }
            Elem::F32 => {
                for value in out.chunks_exact_mut(4) {
                    value.copy_from_slice(&self.next_f32().to_le_bytes());
                }
            }
        }
    }

    fn next_f32(&mut self) -> f32 {
        let step = (self.rng.unit() - 0.5) * 0.5;
        let v = &mut self.walk[self.channel];
        *v += step;
        if *v > 1000.0 {
            *v = 2000.0 - *v;
        } else if *v < -1000.0 {
            *v = -2000.0 - *v;
        }
        self.channel = (self.channel + 1) % 3;
        *v as f32
    }
}

/// The first `bytes` bytes of `elem`'s file, generated in memory (for tests and small
/// blocks; the benchmark reads the files).
pub fn generate(elem: Elem, bytes: usize) -> Vec<u8> {
    let mut out = vec![0u8; bytes];
    PodGen::new(elem).fill(&mut out);
    out
}

/// Writes `elem`'s file (`<dir>/pod_<elem>.bin`, `max(blocks)` bytes) and returns its
/// manifest entry.
pub fn write_file(dir: &Path, elem: Elem, blocks: &[usize]) -> io::Result<Value> {
    let total = blocks.iter().copied().max().unwrap_or(0);
    assert!(
        blocks.iter().all(|b| b.is_multiple_of(8)),
        "block sizes are whole words"
    );
    let mut file = File::create(dir.join(format!("{}.bin", elem.dataset())))?;
    let mut gen = PodGen::new(elem);
    let mut hash = FNV1A64_OFFSET;
    let mut chunk = vec![0u8; MB.min(total)];
    let mut left = total;
    while left > 0 {
        let n = left.min(chunk.len());
        let part = &mut chunk[..n];
        gen.fill(part);
        hash = fnv1a64_update(hash, part);
        file.write_all(part)?;
        left -= n;
    }
    file.sync_data().ok();
    Ok(json!({
        "name": elem.dataset(),
        "type": elem.ty(),
        "elem": elem.name(),
        "seed": elem.seed(),
        "bytes": total,
        "blocks": blocks,
        "fnv1a64": format!("{hash:016x}"),
    }))
}

/// Writes the three pod files into `dir` (one thread each) and returns the manifest's
/// `"pod"` entries in [`Elem::ALL`] order.
pub fn write_files(dir: &Path, blocks: &[usize]) -> io::Result<Vec<Value>> {
    std::thread::scope(|s| {
        let jobs: Vec<_> = Elem::ALL
            .into_iter()
            .map(|e| s.spawn(move || write_file(dir, e, blocks)))
            .collect();
        jobs.into_iter()
            .map(|j| j.join().expect("pod writer thread"))
            .collect()
    })
}

/// One pod file as read back: its element type, block sizes and bytes.
pub struct PodFile {
    /// Element type.
    pub elem: Elem,
    /// Block sizes in bytes, ascending; each block is a prefix of `bytes`.
    pub blocks: Vec<usize>,
    /// The whole file.
    pub bytes: Vec<u8>,
}

/// Reads the pod file a manifest `"pod"` entry describes and checks its size and
/// FNV-1a 64 hash.
pub fn read_file(dir: &Path, entry: &Value) -> Result<PodFile, String> {
    let name = entry["name"].as_str().ok_or("pod entry without a name")?;
    let elem = entry["elem"]
        .as_str()
        .and_then(Elem::from_name)
        .ok_or_else(|| format!("{name}: unknown elem {}", entry["elem"]))?;
    let size = entry["bytes"].as_u64().ok_or("pod entry without bytes")? as usize;
    let mut blocks: Vec<usize> = entry["blocks"]
        .as_array()
        .ok_or("pod entry without blocks")?
        .iter()
        .map(|b| b.as_u64().map(|b| b as usize).ok_or("bad block size"))
        .collect::<Result<_, _>>()?;
    blocks.sort_unstable();
    let path = dir.join(format!("{name}.bin"));
    let mut bytes = Vec::with_capacity(size);
    File::open(&path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() != size {
        return Err(format!(
            "{}: {} bytes, manifest says {size}",
            path.display(),
            bytes.len()
        ));
    }
    let got = format!("{:016x}", fnv1a64(&bytes));
    if entry["fnv1a64"].as_str() != Some(got.as_str()) {
        return Err(format!(
            "{}: fnv1a64 {got}, manifest says {}",
            path.display(),
            entry["fnv1a64"]
        ));
    }
    if blocks
        .iter()
        .any(|&b| b > size || !b.is_multiple_of(elem.size()))
    {
        return Err(format!("{name}: a block is not a prefix of whole values"));
    }
    Ok(PodFile {
        elem,
        blocks,
        bytes,
    })
}

/// Reads and checks every pod file listed in `dir/manifest.json`.
pub fn read_all(dir: &Path) -> Result<Vec<PodFile>, String> {
    let manifest = crate::corpus::read_manifest(dir)?;
    manifest["pod"]
        .as_array()
        .ok_or_else(|| format!("{}: no \"pod\" array", dir.join("manifest.json").display()))?
        .iter()
        .map(|entry| read_file(dir, entry))
        .collect()
}

/// A block's size as the result files name it: `64KB`, `1MB`, `256MB`.
pub fn block_label(bytes: usize) -> String {
    if bytes >= MB && bytes.is_multiple_of(MB) {
        format!("{}MB", bytes / MB)
    } else {
        format!("{}KB", bytes / 1024)
    }
}

/// The bytes of a block labelled as [`block_label`] writes it (`64KB`, `1MB`).
pub fn block_bytes(label: &str) -> Option<usize> {
    if let Some(mb) = label.strip_suffix("MB") {
        mb.parse::<usize>().ok().map(|n| n * MB)
    } else {
        let kb = label.strip_suffix("KB")?;
        kb.parse::<usize>().ok().map(|n| n << 10)
    }
}
