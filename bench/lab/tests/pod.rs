//! The `pod` dataset at a small scale: files written, hashed and read back; every peer
//! round-trips in the mode it is timed in; the bincode-compatible peers write the same
//! bytes; the benchmark binary's result file has every elem × block × library.

use std::path::PathBuf;

use bitwire_compiler::fingerprint::fnv1a64;
use bitwire_lab::corpus;
use bitwire_lab::datasets::Scale;
use bitwire_lab::pod::check::{round_trip, same};
use bitwire_lab::pod::data::{self, Elem};
use bitwire_lab::pod::peers::{self, PodElem};
use serde_json::{json, Value};

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitwire-pod-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes only the pod files and a manifest listing them.
fn write_pod_corpus(dir: &std::path::Path, blocks: &[usize]) -> Value {
    let pod = data::write_files(dir, blocks).expect("pod files write");
    let manifest = json!({ "format": corpus::FORMAT, "pod": pod });
    std::fs::write(dir.join("manifest.json"), manifest.to_string()).expect("manifest");
    manifest
}

#[test]
fn quick_corpus_has_pod_files_hashed_and_readable() {
    let dir = temp_dir("corpus");
    let manifest = corpus::write(&dir, Scale::QUICK).expect("corpus writes");
    let pod = manifest["pod"].as_array().expect("a pod array");
    assert_eq!(pod.len(), 3);
    for (entry, elem) in pod.iter().zip(Elem::ALL) {
        assert_eq!(entry["name"], elem.dataset());
        assert_eq!(entry["type"], elem.ty());
        assert_eq!(entry["elem"], elem.name());
        assert_eq!(entry["seed"], elem.seed());
        assert_eq!(entry["bytes"], 1 << 20);
        assert_eq!(entry["blocks"], json!([65536, 1 << 20]));
        let bytes = std::fs::read(dir.join(format!("{}.bin", elem.dataset()))).expect("file");
        assert_eq!(
            entry["fnv1a64"].as_str(),
            Some(format!("{:016x}", fnv1a64(&bytes)).as_str()),
            "the streaming hash is FNV-1a 64 of the file"
        );
        assert_eq!(bytes, data::generate(elem, bytes.len()), "deterministic");
    }
    let files = data::read_all(&dir).expect("pod files read back");
    assert_eq!(files.len(), 3);
    let f32s = <f32 as PodElem>::from_le_block(&files[2].bytes).expect("whole f32s");
    assert!(f32s.iter().all(|v| v.is_finite() && v.abs() <= 1000.0));
    // Neighbouring samples of a channel are close: a smooth walk, not noise.
    assert!(f32s.windows(4).all(|w| (w[3] - w[0]).abs() <= 0.25 + 1e-3));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_corrupted_pod_file_is_rejected() {
    let dir = temp_dir("corrupt");
    write_pod_corpus(&dir, &[64]);
    let path = dir.join("pod_u8.bin");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[10] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let err = data::read_all(&dir)
        .err()
        .expect("hash mismatch is an error");
    assert!(err.contains("fnv1a64"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

fn round_trips<E: PodElem>() {
    for bytes in [0, 8, 4096] {
        let block = data::generate(E::ELEM, bytes);
        let values = E::from_le_block(&block).expect("whole values");
        for codec in peers::codecs::<E>() {
            let mut input = values.clone();
            let checked = round_trip(&codec, &mut input)
                .unwrap_or_else(|e| panic!("{} {} {bytes}: {e}", E::ELEM.name(), codec.library));
            assert!(same(&input, &values), "encoding leaves the input as it was");
            assert!(
                bytes == 0 || checked.enc.bytes().len() >= bytes,
                "{}",
                codec.library
            );
        }
    }
}

#[test]
fn every_pod_peer_round_trips() {
    round_trips::<u64>();
    round_trips::<u8>();
    round_trips::<f32>();
    let libraries: Vec<_> = peers::codecs::<u64>().iter().map(|c| c.library).collect();
    assert_eq!(
        libraries,
        [
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
            "prost"
        ]
    );
}

/// The encoding `codec` writes for `values`, through its check.
fn encoding<E: PodElem>(codec: &peers::Codec<E>, values: &[E]) -> Vec<u8> {
    let mut input = values.to_vec();
    let checked =
        round_trip(codec, &mut input).unwrap_or_else(|e| panic!("{}: {e}", codec.library));
    checked.enc.bytes().to_vec()
}

fn bincode_family_bytes<E: PodElem>() {
    let block = data::generate(E::ELEM, 4096);
    let values = E::from_le_block(&block).unwrap();
    let mut bincode = (block.len() as u64 / E::ELEM.size() as u64)
        .to_le_bytes()
        .to_vec();
    bincode.extend_from_slice(&block);
    for codec in peers::codecs::<E>() {
        let want: &[u8] = match codec.library {
            "memcpy" | "handwritten" => &block,
            "wincode"
            | "wincode-reuse"
            | "bincode1"
            | "bincode1-reuse"
            | "bitwire-bincode"
            | "bitwire-bincode-reuse" => &bincode,
            _ => continue,
        };
        assert_eq!(
            encoding(&codec, &values),
            want,
            "{} {}",
            E::ELEM.name(),
            codec.library
        );
    }
}

#[test]
fn bincode_peers_write_bincode_bytes_and_memcpy_the_raw_block() {
    // bincode 1.3's Vec<T>: a u64 little-endian length, then the little-endian values.
    bincode_family_bytes::<u64>();
    bincode_family_bytes::<u8>();
    bincode_family_bytes::<f32>();
}

#[test]
fn a_reuse_check_fails_a_codec_that_appends_or_keeps_stale_values() {
    use peers::{Codec, Decode, Encode};
    let values = vec![1u64, 2, 3, 4];
    let appends: Codec<u64> = Codec {
        library: "appends",
        note: None,
        encode: Encode::Reuse(|v, out| out.extend_from_slice(bytemuck::cast_slice(v))),
        decode: Decode::Fresh(<u64 as PodElem>::from_le_block),
    };
    let err = round_trip(&appends, &mut values.clone())
        .err()
        .expect("stale bytes are caught");
    // 5 stale bytes + 32: not whole values.
    assert!(err.contains("rejects"), "{err}");
    let keeps: Codec<u64> = Codec {
        library: "keeps",
        note: None,
        encode: Encode::Reuse(|v, out| {
            out.clear();
            out.extend_from_slice(bytemuck::cast_slice(v));
        }),
        decode: Decode::Reuse(|bytes, out| {
            out.extend(
                bytes
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().unwrap())),
            );
            true
        }),
    };
    let err = round_trip(&keeps, &mut values.clone())
        .err()
        .expect("stale values are caught");
    assert!(err.contains("decoded 7 values"), "{err}");
}

#[test]
fn wincode_default_configuration_refuses_blocks_over_4_mib() {
    // Why the pod codecs raise its preallocation limit (reuse::NOTE_WINCODE).
    let block = vec![7u8; (4 << 20) + 1];
    assert!(wincode::serialize(&block).is_err());
    let bytes = bincode::serialize(&block).unwrap();
    assert!(wincode::deserialize::<Vec<u8>>(&bytes).is_err());
    let fits = vec![7u8; 4 << 20];
    assert_eq!(
        wincode::serialize(&fits).unwrap(),
        bincode::serialize(&fits).unwrap()
    );
}

#[test]
fn blocks_over_library_default_limits_round_trip() {
    // wincode refuses to preallocate more than 4 MiB by default; the pod codec raises it.
    let bytes = 5 << 20;
    let values = <u8 as PodElem>::from_le_block(&data::generate(Elem::U8, bytes)).unwrap();
    for codec in peers::codecs::<u8>() {
        if matches!(
            codec.library,
            "wincode"
                | "wincode-reuse"
                | "bitwire"
                | "bitwire-bincode"
                | "bitwire-bincode-reuse"
                | "flatbuffers"
                | "prost"
        ) {
            let mut input = values.clone();
            round_trip(&codec, &mut input).unwrap_or_else(|e| panic!("{}: {e}", codec.library));
        }
    }
}

#[test]
fn handwritten_is_the_raw_block_and_bitwire_adds_only_the_prefix() {
    let block = data::generate(Elem::U64, 4096);
    let values = <u64 as PodElem>::from_le_block(&block).unwrap();
    let codecs = peers::codecs::<u64>();
    let by_id = |id: &str| codecs.iter().find(|c| c.library == id).unwrap();
    assert_eq!(encoding(by_id("handwritten"), &values), block);
    // A 26-bit length prefix + 4096 bytes, padded to a byte.
    assert_eq!(encoding(by_id("bitwire"), &values).len(), 4096 + 4);
}

#[test]
fn pod_binary_writes_every_elem_block_and_library() {
    let dir = temp_dir("bin");
    let blocks = [4096, 65536];
    write_pod_corpus(&dir, &blocks);
    let out = dir.join("rust-pod.json");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_pod"))
        .args(["--quick", "--corpus"])
        .arg(&dir)
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("pod binary runs");
    assert!(status.success());
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("result file")).unwrap();
    assert_eq!(result["format"], 1);
    assert_eq!(result["language"], "rust");
    assert_eq!(result["quick"], true);
    assert!(result["runtime"].as_str().unwrap().starts_with("rustc "));
    let records = result["records"].as_array().expect("records");
    let libraries = peers::codecs::<u8>().len();
    assert_eq!(records.len(), 3 * blocks.len() * libraries);
    for elem in Elem::ALL {
        for block in blocks {
            let variant = data::block_label(block);
            for codec in peers::codecs::<u8>() {
                let r = records
                    .iter()
                    .find(|r| {
                        r["dataset"] == elem.dataset()
                            && r["variant"] == variant.as_str()
                            && r["library"] == codec.library
                    })
                    .unwrap_or_else(|| {
                        panic!("no record {} {variant} {}", elem.dataset(), codec.library)
                    });
                assert_eq!(r["messages"], 1);
                assert!(r["bytes"].as_u64().unwrap() >= block as u64);
                assert!(r["zstd_bytes"].as_u64().is_some() && r["lz4_bytes"].as_u64().is_some());
                for key in ["encode_ns", "decode_ns", "encode_allocs", "decode_allocs"] {
                    assert!(r[key].as_f64().is_some(), "{key} in {r}");
                }
                // Reused buffers: no allocation once the check has sized them.
                if codec.library.ends_with("-reuse") || codec.library == "memcpy" {
                    assert_eq!(r["encode_allocs"], 0.0, "{r}");
                }
                if matches!(codec.library, "memcpy" | "bitwire-bincode-reuse") {
                    assert_eq!(r["decode_allocs"], 0.0, "{r}");
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
