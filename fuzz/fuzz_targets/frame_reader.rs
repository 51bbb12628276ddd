//! Feeds arbitrary bytes to the frame reader (docs/framing.md) with settings and a
//! chunking chosen by the first two bytes. Properties: no panic; the frames and the
//! error do not depend on how the bytes arrive (whole, in chunks, through `frame_at`
//! on a caller-owned buffer); without compression, re-encoding the frames read gives
//! back exactly the bytes they took (canonical form); frames decode through the
//! generated `Message` dispatch of `examples/game.bw` without panicking; and reading
//! allocates at most `max_frame + 3 + max_data` bytes plus a fixed part, measured by a
//! counting allocator (the memory bound of §6.3).
#![no_main]

use bitwire::frame::{FrameEncoder, FrameError, FrameReader, FrameSettings, Peeked};
use bitwire_count_alloc::{peak_during, Counting};
use bitwire_example::game::Message;
use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: Counting = Counting;

/// The inflater's state, the error and the frame list's growth fit in this.
const FIXED: usize = 64 * 1024;

type Outcome = (Vec<(u32, Vec<u8>, u64)>, Result<(), FrameError>);

fn chunked(settings: FrameSettings, stream: &[u8], k: usize, dispatch: bool) -> Outcome {
    let mut reader = FrameReader::new(settings);
    let mut frames = Vec::new();
    for chunk in stream.chunks(k.max(1)) {
        let mut input = chunk;
        loop {
            match reader.next_frame(&mut input) {
                Ok(Some(f)) => {
                    if dispatch {
                        let _ = f.message::<Message>(&settings);
                    }
                    frames.push((f.id, f.data.to_vec(), f.offset));
                }
                Ok(None) => break,
                Err(e) => return (frames, Err(e)),
            }
        }
    }
    let end = reader.finish();
    (frames, end)
}

fn peeked(settings: FrameSettings, stream: &[u8]) -> Outcome {
    let mut reader = FrameReader::new(settings);
    let mut frames = Vec::new();
    let mut at = 0;
    loop {
        match reader.frame_at(&stream[at..]) {
            Ok(Peeked::Item(f, len)) => {
                frames.push((f.id, f.data.to_vec(), f.offset));
                at += len;
            }
            Ok(Peeked::Incomplete(_)) => return (frames, reader.finish_at(&stream[at..])),
            Err(e) => return (frames, Err(e)),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [mode, k, stream @ ..] = data else { return };
    let settings = FrameSettings::new()
        .with_threshold(match mode % 3 {
            0 => None,
            1 => Some(0),
            _ => Some(64),
        })
        .with_max_frame(if mode & 4 == 0 { 4096 } else { 2_097_151 })
        .with_max_data(64 * 1024);
    let (whole, peak) = peak_during(|| chunked(settings, stream, stream.len(), false));
    let frames_bytes: usize = whole.0.iter().map(|f| f.1.len() + 64).sum();
    let bound = settings.max_frame_bytes() + settings.max_data() as usize + FIXED + frames_bytes;
    assert!(peak <= bound, "reading {} bytes allocated {peak} (bound {bound})", stream.len());
    assert_eq!(chunked(settings, stream, usize::from(*k) + 1, true), whole, "chunks of {}", k + 1);
    assert_eq!(peeked(settings, stream), whole, "frame_at");
    if settings.threshold().is_none() {
        let mut encoder = FrameEncoder::new(settings);
        let mut out = Vec::new();
        for (id, data, offset) in &whole.0 {
            assert_eq!(out.len() as u64, *offset);
            encoder.write_frame(*id, data, &mut out).expect("a frame read is a frame written");
        }
        assert_eq!(out, stream[..out.len()], "re-encoded frames");
    }
});
