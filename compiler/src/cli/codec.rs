//! `bitwire encode` and `bitwire decode`: the reference codec on the command line, in
//! the packed encoding or, with `--encoding bincode`, the bincode one (spec §13).
//!
//! Exit codes: 0 on success; 1 when the data is bad (invalid JSON or hex, a codec
//! error, an unwritable stream); 2 when the command cannot start (the schema does not
//! compile, the type does not exist, an input or output file cannot be opened).
//! Errors go to standard error and name the kind, bit offset and path.

use std::fs;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use super::{CodecArgs, Encoding, WireArgs};
use crate::codec::{self, CodecError};
use crate::ir::{Schema, TypeId};

/// Why a command stopped: the exit code and the message for standard error.
pub(super) struct Failure {
    pub(super) code: u8,
    pub(super) message: String,
}

impl Failure {
    /// Bad data: exit code 1.
    pub(super) fn data(message: impl Into<String>) -> Failure {
        Failure {
            code: 1,
            message: message.into(),
        }
    }

    /// The command cannot run as given: exit code 2.
    pub(super) fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: 2,
            message: message.into(),
        }
    }
}

/// Reads JSON, writes the bytes (raw, or lowercase hex and a newline with `--hex`).
pub fn encode(args: &WireArgs) -> ExitCode {
    finish(run_encode(args))
}

/// Reads bytes (raw, or hex text with `--hex`), writes pretty JSON and a newline.
pub fn decode(args: &WireArgs) -> ExitCode {
    finish(run_decode(args))
}

pub(super) fn finish(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            // Diagnostics already end with a newline; one-line messages do not.
            let msg = f.message.trim_end_matches('\n');
            eprintln!("{msg}");
            ExitCode::from(f.code)
        }
    }
}

fn run_encode(wire: &WireArgs) -> Result<(), Failure> {
    let args = &wire.codec;
    let (schema, ty) = load(args)?;
    let input = read_input(args)?;
    let bytes = codec::json_from_bytes(&input)
        .and_then(|json| match wire.encoding {
            Encoding::Packed => codec::encode_json(&schema, ty, &json),
            Encoding::Bincode => codec::bincode::encode_json(&schema, ty, &json),
        })
        .map_err(|e| wire_failure("encode", &e, wire.encoding))?;
    let out = if args.hex {
        format!("{}\n", codec::to_hex(&bytes)).into_bytes()
    } else {
        bytes
    };
    write_output(args, &out)
}

fn run_decode(wire: &WireArgs) -> Result<(), Failure> {
    let args = &wire.codec;
    let (schema, ty) = load(args)?;
    let input = read_input(args)?;
    let bytes = if args.hex { parse_hex(&input)? } else { input };
    let json = match wire.encoding {
        Encoding::Packed => codec::decode_to_json(&schema, ty, &bytes),
        Encoding::Bincode => codec::bincode::decode_to_json(&schema, ty, &bytes),
    }
    .map_err(|e| wire_failure("decode", &e, wire.encoding))?;
    let mut text = serde_json::to_string_pretty(&json).expect("a JSON value always serializes");
    text.push('\n');
    write_output(args, text.as_bytes())
}

/// `error: decode failed: OutOfRange at bit 14 in `health``.
pub(super) fn codec_failure(what: &str, e: &CodecError) -> Failure {
    Failure::data(format!("error: {what} failed: {e}"))
}

/// [`codec_failure`] for an error of `encoding`: a bincode wire error also names its
/// byte (`error: decode failed: Truncated at bit 24 (byte 3) in `health``), the offset
/// a hex dump of a capture shows.
pub(super) fn wire_failure(what: &str, e: &CodecError, encoding: Encoding) -> Failure {
    Failure::data(format!("error: {what} failed: {}", describe(e, encoding)))
}

/// The error as `Display` shows it, with the byte offset of a bincode wire error.
pub(super) fn describe(e: &CodecError, encoding: Encoding) -> String {
    match (encoding, e) {
        (Encoding::Bincode, CodecError::Wire { kind, bit, path }) => {
            let mut s = format!("{kind} at bit {bit} (byte {})", bit / 8);
            if !path.is_empty() {
                s.push_str(&format!(" in `{path}`"));
            }
            s
        }
        _ => e.to_string(),
    }
}

/// Compiles the schema and finds the type to encode or decode.
pub(super) fn load(args: &CodecArgs) -> Result<(Schema, TypeId), Failure> {
    let schema = crate::compile_file(&args.schema).map_err(|d| Failure::usage(d.render()))?;
    let Some(ty) = schema.type_by_name(&args.type_name) else {
        let names: Vec<&str> = schema.types.iter().map(|t| t.name.as_str()).collect();
        let known = if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        };
        return Err(Failure::usage(format!(
            "error: the schema has no type `{}` (types: {known})",
            args.type_name
        )));
    };
    Ok((schema, ty))
}

/// The most input `encode`, `decode`, `explain` and `verify` read: 256 MiB. A larger
/// input (or one that never ends, such as `/dev/zero`) is refused rather than read
/// into memory without bound.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

pub(super) fn read_input(args: &CodecArgs) -> Result<Vec<u8>, Failure> {
    let (source, name): (Box<dyn Read>, String) = match &args.input {
        Some(path) => {
            let file = fs::File::open(path).map_err(|e| {
                Failure::usage(format!("error: cannot read `{}`: {e}", path.display()))
            })?;
            (Box::new(file), format!("`{}`", path.display()))
        }
        None => (Box::new(io::stdin()), "standard input".to_string()),
    };
    let mut buf = Vec::new();
    source
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Failure::data(format!("error: cannot read {name}: {e}")))?;
    if buf.len() as u64 > MAX_INPUT_BYTES {
        return Err(Failure::data(format!(
            "error: {name} is larger than {} MiB, the most the codec commands read",
            MAX_INPUT_BYTES >> 20
        )));
    }
    Ok(buf)
}

pub(super) fn write_output(args: &CodecArgs, bytes: &[u8]) -> Result<(), Failure> {
    match &args.output {
        Some(path) => fs::write(path, bytes)
            .map_err(|e| Failure::usage(format!("error: cannot write `{}`: {e}", path.display()))),
        None => {
            let mut out = io::stdout().lock();
            out.write_all(bytes)
                .and_then(|()| out.flush())
                .map_err(|e| Failure::data(format!("error: cannot write standard output: {e}")))
        }
    }
}

/// Hex text to bytes; ASCII whitespace anywhere is ignored, either case is accepted.
pub(super) fn parse_hex(text: &[u8]) -> Result<Vec<u8>, Failure> {
    let digits: Vec<u8> = text
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    if digits.len() % 2 != 0 {
        return Err(Failure::data(
            "error: invalid hex input: odd number of hex digits",
        ));
    }
    digits
        .chunks(2)
        .map(|pair| {
            // Checked digit by digit: `from_str_radix` alone would also take a sign.
            let value = |c: u8| (c as char).to_digit(16);
            match (value(pair[0]), value(pair[1])) {
                (Some(hi), Some(lo)) => Ok((hi * 16 + lo) as u8),
                _ => {
                    let shown = String::from_utf8_lossy(pair);
                    Err(Failure::data(format!(
                        "error: invalid hex input: `{shown}` is not a hex byte"
                    )))
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_input_ignores_whitespace() {
        assert_eq!(parse_hex(b"4b 96\n").ok(), Some(vec![0x4b, 0x96]));
        assert_eq!(parse_hex(b" 4B\t9 6 ").ok(), Some(vec![0x4b, 0x96]));
        assert_eq!(parse_hex(b"").ok(), Some(vec![]));
        assert_eq!(parse_hex(b"4b9").err().map(|f| f.code), Some(1));
        assert_eq!(parse_hex(b"4g").err().map(|f| f.code), Some(1));
        assert_eq!(parse_hex(b"+1").err().map(|f| f.code), Some(1));
    }
}
