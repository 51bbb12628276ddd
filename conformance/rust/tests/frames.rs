//! The frame vectors (`testdata/vectors/frames/frames.json`, docs/framing.md) through
//! the runtime's framer: every stream case whole, one byte at a time, in chunks of 2, 3,
//! 7 and 64 bytes and split in two at every position (streams up to 300 bytes), through
//! the incremental `FrameReader` (frames, then the generated `MessageSet` dispatch), its
//! typed `next_message`, its `frame_at` over a caller-owned buffer (the tokio codec's way), and the blocking `FrameRead` over a reader that hands out the
//! same chunks; WebSocket cases message by message (`message_frame`, `decode_frame`); and
//! the writer: `exact` cases re-encode to the stream's bytes (up to the error, for the
//! cases that end in one), `roundtrip` cases read back what the writer wrote, and
//! writing cases fail with their kind. The summary line is `N passed, N failed`.

use std::io::Read;

use bitwire::baseline::Envelope;
use bitwire::frame::{
    FrameEncoder, FrameError, FrameRead, FrameReader, FrameSettings, Peeked, StreamError,
};
use bitwire::MessageSet;
use bitwire_conformance::check::hex;
use bitwire_conformance::suites::frames::{self, Message};
use serde_json::Value;

/// One frame as the vector lists it.
#[derive(Debug, Clone, PartialEq)]
struct Listed {
    id: u32,
    data: Vec<u8>,
    typed: Option<(String, Value)>,
}

/// What a reader produced: frames, then a clean end or an error.
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    frames: Vec<(u32, Vec<u8>, u64)>,
    end: Result<(), FrameError>,
}

fn settings(case: &Value) -> FrameSettings {
    let threshold = case["threshold"].as_u64().map(|t| t as u32);
    FrameSettings::new()
        .with_threshold(threshold)
        .with_max_frame(case["max_frame"].as_u64().unwrap() as u32)
        .with_max_data(case["max_data"].as_u64().unwrap() as u32)
}

fn listed(case: &Value) -> Vec<Listed> {
    let empty = Vec::new();
    let frames = case["frames"].as_array().unwrap_or(&empty);
    frames
        .iter()
        .map(|f| Listed {
            id: f["id"].as_u64().unwrap() as u32,
            data: hex(f["data"].as_str().unwrap()),
            typed: f["type"].as_str().map(|t| (t.to_string(), typed_value(f))),
        })
        .collect()
}

/// A listed frame's JSON `value`; for a frame of the delta message `World`, its
/// envelope (docs/framing.md §10.8): the header the vector names and the frame's Data.
fn typed_value(f: &Value) -> Value {
    match f.get("envelope") {
        Some(header) => {
            serde_json::json!({ "seq": header["seq"], "back": header["back"], "bytes": f["data"] })
        }
        None => f["value"].clone(),
    }
}

/// The JSON of an envelope, as [`typed_value`] writes it.
fn envelope_json(e: &Envelope) -> Value {
    let header = e.header();
    let bytes: String = e.bytes().iter().map(|b| format!("{b:02x}")).collect();
    serde_json::json!({ "seq": header.seq, "back": header.back, "bytes": bytes })
}

/// The generated value of a vector's `type` and JSON `value`.
fn message_from_json(type_name: &str, value: &Value) -> Message {
    match type_name {
        "World" => {
            let bytes = hex(value["bytes"].as_str().unwrap());
            Message::World(Envelope::try_from(bytes).unwrap())
        }
        "Input" => frames::Input::from_json(value).unwrap().into(),
        "Ping" => frames::Ping::from_json(value).unwrap().into(),
        "Packet64" => frames::Packet64::from_json(value).unwrap().into(),
        "Chat" => frames::Chat::from_json(value).unwrap().into(),
        "Wide" => frames::Wide::from_json(value).unwrap().into(),
        "Last" => frames::Last::from_json(value).unwrap().into(),
        other => panic!("frames.bw has no message {other}"),
    }
}

fn message_to_json(m: &Message) -> (&'static str, Value) {
    match m {
        Message::Ping(v) => ("Ping", v.to_json()),
        Message::Packet64(v) => ("Packet64", v.to_json()),
        Message::Chat(v) => ("Chat", v.to_json()),
        Message::Wide(v) => ("Wide", v.to_json()),
        Message::Last(v) => ("Last", v.to_json()),
        Message::World(e) => ("World", envelope_json(e)),
        Message::Input(v) => ("Input", v.to_json()),
    }
}

/// Chunk sizes every stream is fed in (0: whole).
fn chunkings(len: usize) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = [0usize, 1, 2, 3, 7, 64]
        .into_iter()
        .map(|k| {
            if k == 0 {
                vec![len]
            } else {
                let mut sizes = vec![k; len / k];
                if len % k != 0 {
                    sizes.push(len % k);
                }
                sizes
            }
        })
        .collect();
    if len <= 300 {
        all.extend((1..len).map(|at| vec![at, len - at]));
    }
    all
}

/// The incremental reader, then the dispatch of every frame after the listed ones
/// (the frame whose message is bad) — as a connection reading messages does.
fn read_incremental(stream: &[u8], chunks: &[usize], s: FrameSettings, listed: usize) -> Outcome {
    let mut reader = FrameReader::new(s);
    let mut frames = Vec::new();
    let mut pos = 0;
    for &k in chunks {
        let mut input = &stream[pos..pos + k];
        pos += k;
        loop {
            match reader.next_frame(&mut input) {
                Ok(Some(f)) => {
                    if frames.len() >= listed {
                        if let Err(e) = f.message::<Message>(&s) {
                            return Outcome {
                                frames,
                                end: Err(e),
                            };
                        }
                    }
                    frames.push((f.id, f.data.to_vec(), f.offset));
                }
                Ok(None) => break,
                Err(e) => {
                    return Outcome {
                        frames,
                        end: Err(e),
                    }
                }
            }
        }
    }
    Outcome {
        frames,
        end: reader.finish(),
    }
}

/// `FrameReader::frame_at` over a buffer the caller owns and appends each chunk to,
/// as the tokio codec does.
fn read_peek(stream: &[u8], chunks: &[usize], s: FrameSettings, listed: usize) -> Outcome {
    let mut reader = FrameReader::new(s);
    let mut buf: Vec<u8> = Vec::new();
    let mut frames = Vec::new();
    let mut pos = 0;
    for &k in chunks {
        buf.extend_from_slice(&stream[pos..pos + k]);
        pos += k;
        loop {
            match reader.frame_at(&buf) {
                Ok(Peeked::Item(f, len)) => {
                    if frames.len() >= listed {
                        if let Err(e) = f.message::<Message>(&s) {
                            return Outcome {
                                frames,
                                end: Err(e),
                            };
                        }
                    }
                    frames.push((f.id, f.data.to_vec(), f.offset));
                    buf.drain(..len);
                }
                Ok(Peeked::Incomplete(_)) => break,
                Err(e) => {
                    return Outcome {
                        frames,
                        end: Err(e),
                    }
                }
            }
        }
    }
    Outcome {
        frames,
        end: reader.finish_at(&buf),
    }
}

/// `FrameReader::next_message`: the typed path, for cases whose frames all have types.
fn read_typed(
    stream: &[u8],
    chunks: &[usize],
    s: FrameSettings,
) -> (Vec<Message>, Result<(), FrameError>) {
    let mut reader = FrameReader::new(s);
    let mut out = Vec::new();
    let mut pos = 0;
    for &k in chunks {
        let mut input = &stream[pos..pos + k];
        pos += k;
        loop {
            match reader.next_message::<Message>(&mut input) {
                Ok(Some(m)) => out.push(m),
                Ok(None) => break,
                Err(e) => return (out, Err(e)),
            }
        }
    }
    (out, reader.finish())
}

/// A reader that hands out the stream in the given chunks.
struct Chunked<'a> {
    stream: &'a [u8],
    chunks: std::slice::Iter<'a, usize>,
    left: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            self.left = self.chunks.next().copied().unwrap_or(0);
        }
        let n = self.left.min(buf.len()).min(self.stream.len());
        buf[..n].copy_from_slice(&self.stream[..n]);
        self.stream = &self.stream[n..];
        self.left -= n;
        Ok(n)
    }
}

fn read_blocking(stream: &[u8], chunks: &[usize], s: FrameSettings, listed: usize) -> Outcome {
    let source = Chunked {
        stream,
        chunks: chunks.iter(),
        left: 0,
    };
    let mut reader = FrameRead::new(source, s);
    let mut frames = Vec::new();
    loop {
        match reader.read_frame() {
            Ok(Some(f)) => {
                if frames.len() >= listed {
                    if let Err(e) = f.message::<Message>(&s) {
                        return Outcome {
                            frames,
                            end: Err(e),
                        };
                    }
                }
                frames.push((f.id, f.data.to_vec(), f.offset));
            }
            Ok(None) => {
                return Outcome {
                    frames,
                    end: Ok(()),
                }
            }
            Err(StreamError::Frame(e)) => {
                return Outcome {
                    frames,
                    end: Err(e),
                }
            }
            Err(e) => panic!("I/O error from a slice: {e}"),
        }
    }
}

/// Checks an error against the vector's `end` object.
fn check_end(end: &Result<(), FrameError>, want: &Value) -> Result<(), String> {
    if want.as_str() == Some("clean") {
        return end
            .clone()
            .map_err(|e| format!("expected a clean end, got {e}"));
    }
    let Err(e) = end else {
        return Err(format!("expected {want}, got a clean end"));
    };
    if e.kind().name() != want["kind"] || e.offset() != want["offset"].as_u64().unwrap() {
        return Err(format!("expected {want}, got {e}"));
    }
    use bitwire::frame::FrameDetail as D;
    let detail_ok = match e.detail() {
        D::TooLarge { length, max } => {
            want.get("length").is_none_or(|l| l == length)
                && want.get("max").is_none_or(|m| m == max)
        }
        D::BelowThreshold {
            data_length,
            threshold,
        } => {
            want.get("data_length").is_none_or(|l| l == data_length)
                && want.get("threshold").is_none_or(|t| t == threshold)
        }
        D::MessageId(id) => want.get("message_id").is_none_or(|m| m == id),
        _ => true,
    };
    if !detail_ok {
        return Err(format!("detail of {e} differs from {want}"));
    }
    if let Some(m) = want.get("message").filter(|m| m.is_object()) {
        let inner = e
            .message_error()
            .ok_or_else(|| format!("{e} has no message error"))?;
        if inner.kind().name() != m["kind"]
            || inner.bit() != m["bit"].as_u64().unwrap()
            || inner.path_string() != m["path"]
        {
            return Err(format!("message error {inner} differs from {m}"));
        }
    }
    Ok(())
}

fn check_frames(
    got: &[(u32, Vec<u8>, u64)],
    want: &[Listed],
    s: &FrameSettings,
) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} frames, expected {}", got.len(), want.len()));
    }
    for ((id, data, offset), w) in got.iter().zip(want) {
        if (*id, data) != (w.id, &w.data) {
            return Err(format!(
                "frame at {offset}: ({id}, {data:02x?}), expected ({}, {:02x?})",
                w.id, w.data
            ));
        }
        if let Some((ty, value)) = &w.typed {
            let frame = bitwire::frame::Frame {
                id: *id,
                data,
                offset: *offset,
            };
            let m: Message = frame
                .message(s)
                .map_err(|e| format!("frame at {offset}: {e}"))?;
            let (got_ty, got_value) = message_to_json(&m);
            let want_value = message_to_json(&message_from_json(ty, value)).1;
            if got_ty != ty || got_value != want_value {
                return Err(format!(
                    "frame at {offset}: {got_ty} {got_value}, expected {ty} {value}"
                ));
            }
        }
    }
    Ok(())
}

/// Writes the listed frames with the case's settings.
fn write_all(want: &[Listed], s: FrameSettings) -> Result<Vec<Vec<u8>>, FrameError> {
    let mut encoder = FrameEncoder::new(s);
    want.iter()
        .map(|f| {
            let mut out = Vec::new();
            match &f.typed {
                Some((ty, value)) => {
                    encoder.write_message(&message_from_json(ty, value), &mut out)?
                }
                None => encoder.write_frame(f.id, &f.data, &mut out)?,
            };
            Ok(out)
        })
        .collect()
}

fn run_stream(case: &Value) -> Result<(), String> {
    let s = settings(case);
    let stream = hex(case["stream"].as_str().unwrap());
    let want = listed(case);
    let end = &case["end"];
    for chunks in chunkings(stream.len()) {
        for (how, got) in [
            (
                "FrameReader",
                read_incremental(&stream, &chunks, s, want.len()),
            ),
            ("FrameRead", read_blocking(&stream, &chunks, s, want.len())),
            ("frame_at", read_peek(&stream, &chunks, s, want.len())),
        ] {
            let ctx =
                |e: String| format!("{how}, chunks {:?}: {e}", &chunks[..chunks.len().min(4)]);
            check_frames(&got.frames, &want, &s).map_err(ctx)?;
            check_end(&got.end, end).map_err(ctx)?;
        }
        if want.iter().all(|f| f.typed.is_some()) {
            let (messages, result) = read_typed(&stream, &chunks, s);
            let got: Vec<_> = messages.iter().map(message_to_json).collect();
            let expected: Vec<_> = want
                .iter()
                .map(|f| {
                    let (ty, value) = f.typed.as_ref().unwrap();
                    message_to_json(&message_from_json(ty, value))
                })
                .collect();
            if got != expected {
                return Err(format!("next_message: {got:?}, expected {expected:?}"));
            }
            check_end(&result, end).map_err(|e| format!("next_message: {e}"))?;
        }
    }
    let written = write_all(&want, s).map_err(|e| format!("writing the frames: {e}"))?;
    let bytes: Vec<u8> = written.concat();
    match case["encode"].as_str() {
        Some("exact") => {
            let upto = end["offset"].as_u64().map_or(stream.len(), |o| o as usize);
            if bytes != stream[..upto] {
                return Err(format!(
                    "writer wrote {}, expected {}",
                    to_hex(&bytes),
                    to_hex(&stream[..upto])
                ));
            }
        }
        Some("roundtrip") => {
            let back = read_incremental(&bytes, &[bytes.len()], s, want.len());
            check_frames(&back.frames, &want, &s)
                .map_err(|e| format!("written frames read back: {e}"))?;
            back.end
                .map_err(|e| format!("written frames read back: {e}"))?;
        }
        other => return Err(format!("unknown encode {other:?}")),
    }
    Ok(())
}

fn run_websocket(case: &Value) -> Result<(), String> {
    let s = settings(case);
    let want = listed(case);
    let messages: Vec<Vec<u8>> = case["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| hex(m.as_str().unwrap()))
        .collect();
    let mut reader = FrameReader::new(s);
    let mut got = Vec::new();
    let mut end = Ok(());
    let mut failed_at = None;
    for (i, m) in messages.iter().enumerate() {
        let typed = Message::decode_frame(m, &s);
        match reader.message_frame(m) {
            Ok((f, rest)) => {
                if got.len() < want.len() {
                    got.push((f.id, f.data.to_vec(), f.offset));
                } else if let Err(e) = f.message::<Message>(&s) {
                    (end, failed_at) = (Err(e), Some(i));
                    break;
                }
                if let Err(e) = rest {
                    if typed.as_ref().err() != Some(&e) {
                        return Err(format!(
                            "decode_frame of message {i}: {typed:?}, message_frame: {e}"
                        ));
                    }
                    (end, failed_at) = (Err(e), Some(i));
                    break;
                }
                if let (Some(true), Err(e)) = (want.get(i).map(|w| w.typed.is_some()), &typed) {
                    return Err(format!("decode_frame of message {i}: {e}"));
                }
            }
            Err(e) => {
                if typed.as_ref().err() != Some(&e) {
                    return Err(format!(
                        "decode_frame of message {i}: {typed:?}, message_frame: {e}"
                    ));
                }
                (end, failed_at) = (Err(e), Some(i));
                break;
            }
        }
    }
    check_frames(&got, &want, &s)?;
    check_end(&end, &case["end"])?;
    if let Some(index) = case["end"].get("message") {
        if failed_at.map(|i| i as u64) != index.as_u64() {
            return Err(format!("failed at message {failed_at:?}, expected {index}"));
        }
    }
    let written = write_all(&want, s).map_err(|e| format!("writing the frames: {e}"))?;
    // Exact: the messages' bytes; when the case ends in an error, each frame is the
    // start of its message (the message with trailing bytes holds more).
    let clean = case["end"] == "clean";
    let matches = written.len() <= messages.len()
        && written
            .iter()
            .zip(&messages)
            .all(|(w, m)| if clean { w == m } else { m.starts_with(w) });
    if case["encode"] == "exact" && !matches {
        return Err(format!("writer wrote {written:02x?}"));
    }
    Ok(())
}

fn run_write(case: &Value) -> Result<(), String> {
    let s = settings(case);
    let mut encoder = FrameEncoder::new(s);
    let mut out = vec![0xee];
    for w in case["write"].as_array().unwrap() {
        let m = message_from_json(w["type"].as_str().unwrap(), &w["value"]);
        match encoder.write_message(&m, &mut out) {
            Ok(_) => {}
            Err(e) if e.kind().name() == case["write_error"]["kind"] => {
                return if out == [0xee] {
                    Ok(())
                } else {
                    Err("a failed write changed the output".into())
                };
            }
            Err(e) => return Err(format!("expected {}, got {e}", case["write_error"])),
        }
    }
    Err(format!(
        "expected {}, but every write succeeded",
        case["write_error"]
    ))
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn frame_vectors() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/vectors/frames/frames.json"
    );
    let suite: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (mut passed, mut failed) = (0, 0);
    for case in suite["cases"].as_array().unwrap() {
        let result = if case.get("write").is_some() {
            run_write(case)
        } else if case["transport"] == "websocket" {
            run_websocket(case)
        } else {
            run_stream(case)
        };
        match result {
            Ok(()) => passed += 1,
            Err(e) => {
                failed += 1;
                eprintln!("FAIL {}: {e}", case["id"]);
            }
        }
    }
    println!("frame vectors: {passed} passed, {failed} failed");
    assert_eq!(failed, 0, "{failed} frame vectors failed");
    assert_eq!(passed, 69, "frames.json has 69 cases");
    assert_eq!(
        <Message as MessageSet>::IDS,
        [0, 1, 2, 3, 4, 300, 2_147_483_647]
    );
}

/// The message of a frame error names the kind, the byte offset and the detail (the
/// wording is not a contract; docs/rust.md quotes these).
#[test]
fn frame_error_messages() {
    let s = FrameSettings::new();
    let first_error = |stream: &[u8], s: FrameSettings| {
        let mut reader = FrameReader::new(s);
        let mut input = stream;
        loop {
            match reader.next_message::<Message>(&mut input) {
                Ok(Some(_)) => {}
                Ok(None) => return reader.finish().unwrap_err().to_string(),
                Err(e) => return e.to_string(),
            }
        }
    };
    let small = s.with_max_frame(65_536);
    assert_eq!(
        first_error(&[0x01, 0x00, 0x80, 0x89, 0x7a], small),
        "FrameTooLarge at byte 2: length 2000000, at most 65536"
    );
    assert_eq!(
        first_error(&hex("0601a52bca0e4b"), s),
        "Message at byte 0: Truncated at bit 40, rotation: needs 8 bits, 0 left"
    );
    assert_eq!(
        first_error(&hex("0163"), s).as_str(),
        "UnknownMessage at byte 0: no message has id 99"
    );
    assert_eq!(
        first_error(&hex("0901a5"), s),
        "Truncated at byte 0: 3 of the frame's 10 bytes"
    );
    let t = s.with_threshold(Some(256));
    assert_eq!(
        first_error(&hex("1209789c635caa7d8acfdbe1110b000f1d031b"), t),
        "BelowThreshold at byte 0: DataLength 9 is below the threshold 256"
    );
}
