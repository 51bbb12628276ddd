//! `bitwire delta encode` and `bitwire delta decode`: the reference codec's delta
//! encoding (docs/spec.md §12) on the command line. Exit codes as `bitwire encode`:
//! 0 on success, 1 for bad data (JSON, hex, a codec error), 2 when the command cannot
//! start (schema, type, a file that cannot be read, a type that is not a `delta message`).

use std::process::ExitCode;

use super::codec::{codec_failure, finish, load, parse_hex, read_input, Failure};
use super::DeltaArgs;
use crate::codec::{self, Value};
use crate::ir::{Schema, TypeId};

/// Reads the value as JSON, writes its delta against the baseline.
pub fn encode(args: &DeltaArgs) -> ExitCode {
    finish(run_encode(args))
}

/// Reads a delta, writes the value as pretty JSON.
pub fn decode(args: &DeltaArgs) -> ExitCode {
    finish(run_decode(args))
}

/// The schema, the message and its baseline value.
fn setup(args: &DeltaArgs) -> Result<(Schema, TypeId, Value), Failure> {
    let (schema, ty) = load(&args.codec)?;
    let def = &schema.types[ty];
    if !def.delta {
        return Err(Failure::usage(format!(
            "error: `{}` has no delta encoding; declare it `delta message {} = … {{ … }}`",
            def.name, def.name
        )));
    }
    let text = std::fs::read(&args.baseline).map_err(|e| {
        Failure::usage(format!(
            "error: cannot read `{}`: {e}",
            args.baseline.display()
        ))
    })?;
    let baseline = codec::json_from_bytes(&text)
        .and_then(|json| codec::value_from_json(&schema, ty, &json))
        .map_err(|e| codec_failure("reading the baseline", &e))?;
    Ok((schema, ty, baseline))
}

/// The delta on the input: raw bytes, or hex text with `--hex`.
fn read_delta(args: &DeltaArgs) -> Result<Vec<u8>, Failure> {
    let input = read_input(&args.codec)?;
    if args.codec.hex {
        parse_hex(&input)
    } else {
        Ok(input)
    }
}

fn run_encode(args: &DeltaArgs) -> Result<(), Failure> {
    let (schema, ty, baseline) = setup(args)?;
    let input = read_input(&args.codec)?;
    let bytes = codec::json_from_bytes(&input)
        .and_then(|json| codec::value_from_json(&schema, ty, &json))
        .and_then(|value| codec::encode_delta(&schema, ty, &baseline, &value))
        .map_err(|e| codec_failure("delta encode", &e))?;
    let out = if args.codec.hex {
        format!("{}\n", codec::to_hex(&bytes)).into_bytes()
    } else {
        bytes
    };
    super::codec::write_output(&args.codec, &out)
}

fn run_decode(args: &DeltaArgs) -> Result<(), Failure> {
    let (schema, ty, baseline) = setup(args)?;
    let bytes = read_delta(args)?;
    let value = codec::decode_delta(&schema, ty, &baseline, &bytes)
        .map_err(|e| codec_failure("delta decode", &e))?;
    let json = codec::value_to_json(&schema, ty, &value);
    let mut text = serde_json::to_string_pretty(&json).expect("a JSON value always serializes");
    text.push('\n');
    super::codec::write_output(&args.codec, text.as_bytes())
}

/// Reads a delta, prints one line per step (`bits A..B  path  what`), then the padding
/// and a summary, or the error (exit 1).
pub fn explain(args: &DeltaArgs) -> ExitCode {
    let run = || -> Result<bool, Failure> {
        let (schema, ty, baseline) = setup(args)?;
        let bytes = read_delta(args)?;
        let (steps, result) = codec::explain_delta(&schema, ty, &baseline, &bytes);
        let mut text = format!("{} (delta against the baseline)\n", schema.types[ty].name);
        let width = steps.iter().map(|s| s.path.len()).max().unwrap_or(0);
        for s in &steps {
            let bits = format!("bits {}..{}", s.start, s.end);
            text.push_str(&format!("  {bits:<16} {:<width$}  {}\n", s.path, s.what));
        }
        let data = steps.last().map_or(0, |s| s.end);
        let ok = match &result {
            Ok(_) => {
                let pad = bytes.len() as u64 * 8 - data;
                text.push_str(&format!(
                    "padding: {}\n{} bytes, {data} bits of delta\n",
                    if pad == 0 {
                        "none".to_string()
                    } else {
                        format!("{pad} zero bits")
                    },
                    bytes.len()
                ));
                true
            }
            Err(e) => {
                text.push_str(&format!("error: {e}\n"));
                false
            }
        };
        super::codec::write_output(&args.codec, text.as_bytes())?;
        Ok(ok)
    };
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(f) => finish(Err(f)),
    }
}
