//! `bitwire frame decode` and `bitwire frame encode`: frames of docs/framing.md on the
//! command line, for captures. Framing goes through the runtime's framer (the one the
//! generated Rust code and bitwire-net use); the messages inside through the reference
//! codec. The frames of a `delta message` carry snapshot envelopes (docs/framing.md §10),
//! not the message: `decode` prints their header and body, as the generated message
//! sets read them; `encode` makes none (a delta needs the baseline).
//!
//! Exit codes as for `encode` / `decode`: 1 for bad data (a malformed frame, with its
//! typed error and byte offset; invalid hex or JSON), 2 when the command cannot start.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use bitwire::frame::{
    FrameDetail, FrameEncoder, FrameError, FrameErrorKind, FrameReader, FrameSettings,
};

use super::codec::{codec_failure, finish, Failure};
use super::{FrameDecodeArgs, FrameEncodeArgs, FrameLimits};
use crate::codec;
use crate::ir::{Schema, TypeId};

/// Bytes read from standard input at a time.
const CHUNK: usize = 64 * 1024;

pub fn decode(args: &FrameDecodeArgs) -> ExitCode {
    finish(run_decode(args))
}

pub fn encode(args: &FrameEncodeArgs) -> ExitCode {
    finish(run_encode(args))
}

fn settings(limits: &FrameLimits) -> Result<FrameSettings, Failure> {
    let max = limits.max.unwrap_or(bitwire::frame::MAX_FRAME);
    if max == 0 || max > bitwire::frame::MAX_FRAME {
        return Err(Failure::usage(format!(
            "error: --max must be in 1..={} (a 3-byte Length)",
            bitwire::frame::MAX_FRAME
        )));
    }
    let max_data = limits.max_data.unwrap_or(bitwire::frame::DEFAULT_MAX_DATA);
    if max_data > bitwire::frame::VARINT_MAX {
        return Err(Failure::usage("error: --max-data must be below 2^31"));
    }
    Ok(FrameSettings::new()
        .with_threshold(limits.threshold)
        .with_max_frame(max)
        .with_max_data(max_data))
}

fn schema(path: &std::path::Path) -> Result<Schema, Failure> {
    crate::compile_file(path).map_err(|d| Failure::usage(d.render()))
}

/// `error: UnknownMessage at byte 12: no message has id 99`.
fn frame_failure(e: &FrameError) -> Failure {
    Failure::data(format!("error: {e}"))
}

fn run_decode(args: &FrameDecodeArgs) -> Result<(), Failure> {
    let schema = schema(&args.schema)?;
    let settings = settings(&args.limits)?;
    let by_id: HashMap<u32, TypeId> = schema
        .messages()
        .map(|(ty, def)| (def.message_id.expect("a message"), ty))
        .collect();
    let mut reader = FrameReader::new(settings);
    let mut hex = HexDecoder::default();
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut chunk = vec![0u8; CHUNK];
    let mut bytes = Vec::new();
    loop {
        let n = match input.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(Failure::data(format!(
                    "error: cannot read standard input: {e}"
                )))
            }
        };
        if n == 0 {
            break;
        }
        let mut data: &[u8] = if args.hex {
            bytes.clear();
            hex.push(&chunk[..n], &mut bytes)?;
            &bytes
        } else {
            &chunk[..n]
        };
        loop {
            let frame = match reader.next_frame(&mut data) {
                Ok(Some(frame)) => frame,
                Ok(None) => break,
                Err(e) => {
                    flush(&mut out)?;
                    return Err(frame_failure(&e));
                }
            };
            let line = frame_line(&schema, &by_id, frame.id, frame.data, frame.offset);
            match line {
                Ok(line) => writeln!(out, "{line}").map_err(write_failure)?,
                Err(f) => {
                    flush(&mut out)?;
                    return Err(f);
                }
            }
        }
    }
    flush(&mut out)?;
    hex.finish()?;
    reader.finish().map_err(|e| frame_failure(&e))
}

/// `{"id":…,"type":…,"value":…}` for one frame — for a `delta message`,
/// `{"id":…,"type":…,"envelope":{"seq":…,"back":…,"body":"<hex>"}}` — or its
/// `UnknownMessage` / `Message` error (docs/framing.md §4.1, the reference codec's error
/// inside; for an envelope, `Truncated` when it is shorter than its header).
fn frame_line(
    schema: &Schema,
    by_id: &HashMap<u32, TypeId>,
    id: u32,
    data: &[u8],
    offset: u64,
) -> Result<String, Failure> {
    let Some(&ty) = by_id.get(&id) else {
        let e = FrameError::new(FrameErrorKind::UnknownMessage, offset)
            .with_detail(FrameDetail::MessageId(id));
        return Err(frame_failure(&e));
    };
    let name = &schema.types[ty].name;
    if schema.types[ty].delta {
        let envelope = bitwire::baseline::Envelope::from_data(data)
            .map_err(|e| Failure::data(format!("error: Message at byte {offset}: {e}")))?;
        let header = envelope.header();
        let envelope = serde_json::json!({
            "seq": header.seq,
            "back": header.back,
            "body": codec::to_hex(envelope.body()),
        });
        let line = serde_json::json!({ "id": id, "type": name, "envelope": envelope });
        return Ok(line.to_string());
    }
    let value = codec::decode_to_json(schema, ty, data)
        .map_err(|e| Failure::data(format!("error: Message at byte {offset}: {e}")))?;
    let line = serde_json::json!({ "id": id, "type": schema.types[ty].name, "value": value });
    Ok(line.to_string())
}

fn flush(out: &mut impl Write) -> Result<(), Failure> {
    out.flush().map_err(write_failure)
}

fn write_failure(e: io::Error) -> Failure {
    Failure::data(format!("error: cannot write standard output: {e}"))
}

/// Hex text to bytes as it streams in: ASCII whitespace is ignored, either case taken.
#[derive(Default)]
struct HexDecoder {
    high: Option<u8>,
}

impl HexDecoder {
    fn push(&mut self, text: &[u8], out: &mut Vec<u8>) -> Result<(), Failure> {
        for &c in text {
            if c.is_ascii_whitespace() {
                continue;
            }
            let Some(v) = (c as char).to_digit(16) else {
                return Err(Failure::data(format!(
                    "error: invalid hex input: `{}` is not a hex digit",
                    c.escape_ascii()
                )));
            };
            match self.high.take() {
                None => self.high = Some(v as u8),
                Some(h) => out.push(h << 4 | v as u8),
            }
        }
        Ok(())
    }

    fn finish(&self) -> Result<(), Failure> {
        match self.high {
            None => Ok(()),
            Some(_) => Err(Failure::data(
                "error: invalid hex input: odd number of hex digits",
            )),
        }
    }
}

fn run_encode(args: &FrameEncodeArgs) -> Result<(), Failure> {
    let schema = schema(&args.schema)?;
    let settings = settings(&args.limits)?;
    let Some(ty) = schema.type_by_name(&args.type_name) else {
        return Err(Failure::usage(format!(
            "error: the schema has no type `{}`",
            args.type_name
        )));
    };
    let Some(id) = schema.types[ty].message_id else {
        let names: Vec<&str> = schema.messages().map(|(_, d)| d.name.as_str()).collect();
        return Err(Failure::usage(format!(
            "error: `{}` is not a message (frames carry messages: {})",
            args.type_name,
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        )));
    };
    if schema.types[ty].delta {
        return Err(Failure::usage(format!(
            "error: `{}` is a delta message: its frames carry snapshot envelopes \
             (docs/framing.md §10), made by a snapshot sender against the peer's baseline, \
             not by `frame encode`",
            args.type_name
        )));
    }
    let mut text = Vec::new();
    io::stdin()
        .lock()
        .take(super::codec::MAX_INPUT_BYTES + 1)
        .read_to_end(&mut text)
        .map_err(|e| Failure::data(format!("error: cannot read standard input: {e}")))?;
    let data = codec::json_from_bytes(&text)
        .and_then(|json| codec::encode_json(&schema, ty, &json))
        .map_err(|e| codec_failure("encode", &e))?;
    let mut frame = Vec::new();
    FrameEncoder::new(settings)
        .write_frame(id, &data, &mut frame)
        .map_err(|e| Failure::data(format!("error: cannot frame the message: {e}")))?;
    let out = if args.hex {
        format!("{}\n", codec::to_hex(&frame)).into_bytes()
    } else {
        frame
    };
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(&out)
        .and_then(|()| stdout.flush())
        .map_err(write_failure)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_streams_across_chunks() {
        let mut d = HexDecoder::default();
        let mut out = Vec::new();
        assert!(d.push(b"0 9\n0", &mut out).is_ok());
        assert!(d.push(b"1a", &mut out).is_ok());
        assert_eq!(out, [0x09, 0x01]);
        assert!(d.finish().is_err());
        assert!(d.push(b"5", &mut out).is_ok());
        assert_eq!(out, [0x09, 0x01, 0xa5]);
        assert!(d.finish().is_ok());
        assert!(d.push(b"zz", &mut out).is_err());
    }
}
