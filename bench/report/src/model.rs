//! The raw result files (format 1 of `bench/README.md`), the machine record written by
//! `bench/run.sh`, and the checks every file must pass before it is reported.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The only raw-file format this report reads.
pub const FORMAT: u64 = 1;

/// Languages, in report order.
pub const LANGUAGES: &[&str] = &["rust", "go", "ts"];

/// TypeScript runtimes, in report order (the first word of a `ts` file's `runtime`).
pub const TS_RUNTIMES: &[&str] = &["node", "bun", "deno"];

/// Library ids of the contract, in report order.
pub const LIBRARIES: &[&str] = &[
    "bitwire",
    "bitwire-bincode",
    "bitwire-bincode-reuse",
    "handwritten",
    "memcpy",
    "bitcode",
    "wincode",
    "wincode-reuse",
    "bincode1",
    "bincode1-reuse",
    "bincode2",
    "postcard",
    "flatbuffers",
    "prost",
    "protobuf-go",
    "protobuf-es",
    "msgpackr",
    "go-bitfield",
];

/// Datasets of `examples/game.bw` messages, in report order (`profiles` is the string-heavy
/// one of issue 17).
pub const GAME_DATASETS: &[&str] = &["packet64", "snapshot", "input", "events", "profiles"];

/// Blocks of plain numbers (`bench/schemas/pod.bw`), in report order.
pub const POD_DATASETS: &[&str] = &["pod_u64", "pod_u8", "pod_f32"];

/// One raw result file as a benchmark program writes it.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    /// Always [`FORMAT`].
    pub format: u64,
    /// `rust`, `go` or `ts`.
    pub language: String,
    /// What ran the program, with its version (`node v20.20.2`).
    pub runtime: String,
    /// Whether the program ran in quick mode.
    pub quick: bool,
    /// One entry per dataset, view and library.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub records: Vec<Record>,
    /// packet64 throughput per dataset size (`null`, as Go writes an empty slice, is empty).
    #[serde(default, deserialize_with = "null_as_empty")]
    pub scaling: Vec<Scaling>,
}

/// A list that may also be written as `null`.
fn null_as_empty<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

/// Sizes and speed of one library on one dataset view.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Dataset name (see [`GAME_DATASETS`] and [`POD_DATASETS`]).
    pub dataset: String,
    /// `""` (one message at a time), `"batch"` (the whole dataset as one value) or a pod
    /// block size such as `"1MB"`.
    #[serde(default)]
    pub variant: String,
    /// Library id (see [`LIBRARIES`]).
    pub library: String,
    /// Messages per pass.
    pub messages: u64,
    /// Total encoded bytes of those messages.
    pub bytes: u64,
    /// zstd level 3 over the concatenated encodings.
    #[serde(default)]
    pub zstd_bytes: Option<u64>,
    /// lz4 (block format) over the concatenated encodings.
    #[serde(default)]
    pub lz4_bytes: Option<u64>,
    /// Median ns per message to encode, `None` if the library cannot encode here.
    #[serde(default)]
    pub encode_ns: Option<f64>,
    /// Median ns per message to decode.
    #[serde(default)]
    pub decode_ns: Option<f64>,
    /// Allocations per message while encoding, `None` if not measured.
    #[serde(default)]
    pub encode_allocs: Option<f64>,
    /// Allocations per message while decoding.
    #[serde(default)]
    pub decode_allocs: Option<f64>,
    /// Shown in the report as a footnote.
    #[serde(default)]
    pub note: Option<String>,
}

impl Record {
    /// Raw encoded bytes per message.
    pub fn raw_per_msg(&self) -> f64 {
        self.bytes as f64 / self.messages as f64
    }

    /// zstd bytes per message, if measured.
    pub fn zstd_per_msg(&self) -> Option<f64> {
        self.zstd_bytes.map(|b| b as f64 / self.messages as f64)
    }

    /// lz4 bytes per message, if measured.
    pub fn lz4_per_msg(&self) -> Option<f64> {
        self.lz4_bytes.map(|b| b as f64 / self.messages as f64)
    }

    /// MB/s (10^6 bytes of the library's own encoding per second) at `ns` per message.
    pub fn mb_per_s(&self, ns: Option<f64>) -> Option<f64> {
        ns.map(|ns| self.raw_per_msg() / ns * 1e3)
    }

    /// For a pod block: GiB/s (2^30 bytes of the block's values per second, the same
    /// amount for every library) at `ns` per block; `None` for other datasets.
    pub fn gib_per_s(&self, ns: Option<f64>) -> Option<f64> {
        let block =
            block_bytes(&self.variant).filter(|_| POD_DATASETS.contains(&self.dataset.as_str()))?;
        ns.map(|ns| block as f64 / ns * 1e9 / (1u64 << 30) as f64)
    }
}

/// packet64 throughput of one library at one dataset size.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Scaling {
    /// Library id.
    pub library: String,
    /// Packets in the dataset.
    pub packets: u64,
    /// Packets encoded per second.
    #[serde(default)]
    pub encode_pps: Option<f64>,
    /// Packets decoded per second.
    #[serde(default)]
    pub decode_pps: Option<f64>,
}

/// The machine and toolchains, as `bench/run.sh` records them in `machine.json`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Machine {
    /// Date of the run, `YYYY-MM-DD`.
    #[serde(default)]
    pub date: String,
    /// Start time of the run (ISO 8601).
    #[serde(default)]
    pub started: String,
    /// `git rev-parse HEAD`.
    #[serde(default)]
    pub git_commit: String,
    /// Whether the work tree had uncommitted changes.
    #[serde(default)]
    pub git_dirty: bool,
    /// CPU model from `/proc/cpuinfo`.
    #[serde(default)]
    pub cpu: String,
    /// Logical CPUs available.
    #[serde(default)]
    pub cores: u64,
    /// `MemTotal` from `/proc/meminfo`, in KiB.
    #[serde(default)]
    pub memory_kib: u64,
    /// `uname -sr`.
    #[serde(default)]
    pub kernel: String,
    /// `PRETTY_NAME` from `/etc/os-release`.
    #[serde(default)]
    pub os: String,
    /// Whether the driver ran in quick mode.
    #[serde(default)]
    pub quick: bool,
    /// Tool name to `--version` output (`rustc`, `cargo`, `go`, `node`, `bun`, `deno`).
    #[serde(default)]
    pub toolchains: BTreeMap<String, String>,
}

/// Where a record was measured: a language, and for TypeScript the runtime.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Platform {
    /// `rust`, `go` or `ts`.
    pub language: String,
    /// `node`, `bun` or `deno` for `ts`; empty otherwise.
    pub runtime: String,
}

impl Platform {
    /// The platform of a raw file (the runtime's first word for TypeScript).
    pub fn of(file: &RawFile) -> Platform {
        let runtime = if file.language == "ts" {
            file.runtime
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_lowercase()
        } else {
            String::new()
        };
        Platform {
            language: file.language.clone(),
            runtime,
        }
    }

    /// A platform from its [`Platform::key`] (`rust`, `ts-node`).
    pub fn from_key(key: &str) -> Platform {
        match key.split_once('-') {
            Some((l, r)) => Platform {
                language: l.into(),
                runtime: r.into(),
            },
            None => Platform {
                language: key.into(),
                runtime: String::new(),
            },
        }
    }

    /// `rust`, `go`, `ts-node`, ...
    pub fn key(&self) -> String {
        if self.runtime.is_empty() {
            self.language.clone()
        } else {
            format!("{}-{}", self.language, self.runtime)
        }
    }

    /// `Rust`, `Go`, `TS (Node)`, ...
    pub fn label(&self) -> String {
        let lang = match self.language.as_str() {
            "rust" => "Rust",
            "go" => "Go",
            "ts" => "TS",
            other => other,
        };
        match self.runtime.as_str() {
            "" => lang.to_string(),
            "node" => format!("{lang} (Node)"),
            "bun" => format!("{lang} (Bun)"),
            "deno" => format!("{lang} (Deno)"),
            other => format!("{lang} ({other})"),
        }
    }

    /// Sort key: language order, then runtime order.
    pub fn order(&self) -> (usize, usize) {
        (
            index_or_end(LANGUAGES, &self.language),
            index_or_end(TS_RUNTIMES, &self.runtime),
        )
    }
}

/// Position of `x` in `list`, or the list's length if absent (sorts unknowns last).
pub fn index_or_end(list: &[&str], x: &str) -> usize {
    list.iter().position(|l| *l == x).unwrap_or(list.len())
}

/// Parses one raw file: checks the format first (so a future format gets a clear error
/// rather than a field-by-field complaint), then the fields, then [`validate`].
pub fn parse_raw(name: &str, text: &str) -> Result<RawFile, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("{name}: not valid JSON: {e}"))?;
    match value.get("format") {
        Some(serde_json::Value::Number(n)) if n.as_u64() == Some(FORMAT) => {}
        Some(other) => {
            return Err(format!(
                "{name}: unsupported result format {other} (this report reads format {FORMAT}, see bench/README.md)"
            ))
        }
        None => {
            return Err(format!(
                "{name}: no \"format\" field (expected \"format\": {FORMAT}, see bench/README.md)"
            ))
        }
    }
    let file: RawFile = serde_json::from_value(value)
        .map_err(|e| format!("{name}: does not match result format {FORMAT}: {e}"))?;
    validate(name, &file)?;
    Ok(file)
}

/// Checks ids, counts and numbers of a raw file against the contract.
pub fn validate(name: &str, file: &RawFile) -> Result<(), String> {
    if !LANGUAGES.contains(&file.language.as_str()) {
        return Err(format!(
            "{name}: unknown language {:?} (expected one of {LANGUAGES:?})",
            file.language
        ));
    }
    if file.runtime.trim().is_empty() {
        return Err(format!("{name}: empty \"runtime\""));
    }
    let platform = Platform::of(file);
    if file.language == "ts" && !TS_RUNTIMES.contains(&platform.runtime.as_str()) {
        return Err(format!(
            "{name}: TypeScript runtime {:?} must start with one of {TS_RUNTIMES:?}",
            file.runtime
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, r) in file.records.iter().enumerate() {
        let at = format!(
            "{name}: records[{i}] ({} {} {:?})",
            r.library, r.dataset, r.variant
        );
        let game = GAME_DATASETS.contains(&r.dataset.as_str());
        let pod = POD_DATASETS.contains(&r.dataset.as_str());
        if !game && !pod {
            return Err(format!("{at}: unknown dataset {:?}", r.dataset));
        }
        if game && !(r.variant.is_empty() || r.variant == "batch") {
            return Err(format!(
                "{at}: variant must be \"\" or \"batch\" for {}",
                r.dataset
            ));
        }
        if pod && block_bytes(&r.variant).is_none() {
            return Err(format!(
                "{at}: a pod record's variant must be its block size, such as \"1MB\" or \"64KiB\""
            ));
        }
        if !LIBRARIES.contains(&r.library.as_str()) {
            return Err(format!(
                "{at}: unknown library id {:?} (see bench/README.md)",
                r.library
            ));
        }
        if r.messages == 0 {
            return Err(format!("{at}: \"messages\" must be at least 1"));
        }
        for (field, v) in [("encode_ns", r.encode_ns), ("decode_ns", r.decode_ns)] {
            if let Some(v) = v {
                if !(v.is_finite() && v > 0.0) {
                    return Err(format!(
                        "{at}: {field} must be a positive number or null, got {v}"
                    ));
                }
            }
        }
        for (field, v) in [
            ("encode_allocs", r.encode_allocs),
            ("decode_allocs", r.decode_allocs),
        ] {
            if let Some(v) = v {
                if !(v.is_finite() && v >= 0.0) {
                    return Err(format!(
                        "{at}: {field} must be a number ≥ 0 or null, got {v}"
                    ));
                }
            }
        }
        if !seen.insert((&r.dataset, &r.variant, &r.library)) {
            return Err(format!("{at}: reported twice"));
        }
    }
    let mut seen = std::collections::HashSet::new();
    for (i, s) in file.scaling.iter().enumerate() {
        let at = format!(
            "{name}: scaling[{i}] ({} at {} packets)",
            s.library, s.packets
        );
        if !LIBRARIES.contains(&s.library.as_str()) {
            return Err(format!("{at}: unknown library id {:?}", s.library));
        }
        if s.packets == 0 {
            return Err(format!("{at}: \"packets\" must be at least 1"));
        }
        for (field, v) in [("encode_pps", s.encode_pps), ("decode_pps", s.decode_pps)] {
            if let Some(v) = v {
                if !(v.is_finite() && v > 0.0) {
                    return Err(format!(
                        "{at}: {field} must be a positive number or null, got {v}"
                    ));
                }
            }
        }
        if !seen.insert((&s.library, s.packets)) {
            return Err(format!("{at}: reported twice"));
        }
    }
    Ok(())
}

/// Bytes in a pod block size label: `"64KiB"`, `"1MB"`, `"256 MB"` (MB = 2^20 bytes, as the
/// corpus uses them), `"4096B"`.
pub fn block_bytes(label: &str) -> Option<u64> {
    let s = label.trim();
    let split = s.find(|c: char| !c.is_ascii_digit())?;
    let (num, unit) = s.split_at(split);
    let n: u64 = num.parse().ok()?;
    let mul = match unit.trim() {
        "B" => 1,
        "KB" | "KiB" | "kB" => 1 << 10,
        "MB" | "MiB" => 1 << 20,
        "GB" | "GiB" => 1 << 30,
        _ => return None,
    };
    Some(n * mul)
}
