//! Pre-encoded Ping frames (bench/net/README.md, "The protocol"): a packet of size S is
//! a Ping whose packed message — the frame's Data — is exactly S bytes. The driver
//! frames one Ping per size once and patches `seq` into a copy for every packet, so
//! that it spends no time encoding; [`Template::new`] checks against the generated
//! encoder that patching gives exactly the frame the encoder writes.

use bitwire::frame::FrameSettings;
use bitwire::MessageSet;

use crate::netbench::{Message, Ping, Pong};

/// The sizes of the full matrix, in bytes of packed message.
pub const SIZES: [usize; 8] = [8, 16, 32, 64, 128, 256, 512, 1024];

/// Bits of a Ping before its `data` bytes: `seq` (32) and the length of `data`
/// (`bits_for(1024)` = 11), docs/spec.md §5.6.
const HEAD_BITS: usize = 32 + 11;

/// Smallest packet: a Ping with empty `data` (43 bits, padded to 6 bytes).
pub const MIN_SIZE: usize = HEAD_BITS.div_ceil(8);

/// Largest packet: a Ping with 1024 bytes of `data`.
pub const MAX_SIZE: usize = Ping::MAX_ENCODED_SIZE;

/// The length of `data` that makes a Ping of exactly `size` bytes: its packed size is
/// `ceil((43 + 8 L) / 8)` = `L + 6`.
pub fn data_len(size: usize) -> Result<usize, String> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(format!(
            "a packet is {MIN_SIZE} to {MAX_SIZE} bytes, not {size}"
        ));
    }
    Ok(size - MIN_SIZE)
}

/// The Ping frame of one size, ready to copy with another `seq`.
#[derive(Debug, Clone)]
pub struct Template {
    frame: Vec<u8>,
    /// Where the frame's Data (the packed Ping) starts: after Length and PacketID.
    data_at: usize,
    size: usize,
}

impl Template {
    /// Frames the Ping of `size` bytes (its `data` a fixed pattern) and checks that
    /// `seq` lies little-endian in the Data's first 4 bytes (spec §3: bits fill bytes
    /// from the least significant end), so that [`Template::write`] is exact.
    pub fn new(size: usize) -> Result<Template, String> {
        let len = data_len(size)?;
        let data: Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
        let settings = FrameSettings::new();
        let frame = |seq: u32| {
            Message::from(Ping {
                seq,
                data: data.clone(),
            })
            .encode_frame_to_vec(&settings)
            .map_err(|e| format!("cannot frame a Ping of {size} bytes: {e}"))
        };
        let template = frame(0)?;
        let data_at = template
            .len()
            .checked_sub(size)
            .ok_or_else(|| format!("a Ping of {size} bytes framed to {} bytes", template.len()))?;
        let template = Template {
            frame: template,
            data_at,
            size,
        };
        for seq in [1, 0x1234_5678, u32::MAX] {
            let mut patched = Vec::new();
            template.write(seq, &mut patched);
            if patched != frame(seq)? {
                return Err(format!("seq {seq:#x} does not patch into the Ping frame"));
            }
        }
        Ok(template)
    }

    /// The size of the packet: the frame's Data, in bytes.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The frame's bytes (Length, PacketID, Data).
    pub fn frame_len(&self) -> usize {
        self.frame.len()
    }

    /// Appends the Ping frame with `seq` to `out`.
    pub fn write(&self, seq: u32, out: &mut Vec<u8>) {
        let at = out.len() + self.data_at;
        out.extend_from_slice(&self.frame);
        out[at..at + 4].copy_from_slice(&seq.to_le_bytes());
    }

    /// Whether `data` is the Data of the Ping with `seq` — and so of its Pong, whose
    /// fields have the same types in the same order.
    pub fn data_matches(&self, seq: u32, data: &[u8]) -> bool {
        data.len() == self.size
            && data[..4] == seq.to_le_bytes()
            && data[4..] == self.frame[self.data_at + 4..]
    }

    /// What is wrong with a reply frame `(id, data)` to the Ping `seq`, expecting
    /// message id `id_wanted` (2 from a bitwire server, 1 from a raw echo).
    pub fn check_reply(
        &self,
        seq: u32,
        id_wanted: u32,
        id: u32,
        data: &[u8],
    ) -> Result<(), String> {
        if id == id_wanted && self.data_matches(seq, data) {
            return Ok(());
        }
        let got_seq = data
            .get(..4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        Err(format!(
            "reply to seq {seq}: expected id {id_wanted} and {} bytes of data, got id {id}, {} bytes, seq {}",
            self.size,
            data.len(),
            got_seq.map_or("-".to_string(), |s| s.to_string()),
        ))
    }
}

/// Counts the frames of a stream of uncompressed frames (docs/framing.md §2: a Length
/// VarInt, then Length bytes) in the chunks it is given, wherever they split, without
/// checking them: what a raw echo reports as its packets (bench/net/README.md), so that
/// its `served` line compares with the other servers'. A few steps per frame, none per
/// byte of a body.
#[derive(Debug, Default, Clone)]
pub struct FrameCounter {
    /// Frames that ended so far.
    pub frames: u64,
    /// Bytes of the current frame's body still to come.
    body: usize,
    /// The Length VarInt read so far, and its bits.
    length: u32,
    shift: u32,
}

impl FrameCounter {
    /// Counts the frames that end in `chunk`.
    pub fn scan(&mut self, mut chunk: &[u8]) {
        while !chunk.is_empty() {
            if self.body > 0 {
                let skip = self.body.min(chunk.len());
                self.body -= skip;
                chunk = &chunk[skip..];
                self.frames += u64::from(self.body == 0);
                continue;
            }
            let b = chunk[0];
            chunk = &chunk[1..];
            if self.shift < 28 {
                self.length |= u32::from(b & 0x7f) << self.shift;
            }
            self.shift += 7;
            if b & 0x80 != 0 {
                continue;
            }
            self.body = self.length as usize;
            (self.length, self.shift) = (0, 0);
            self.frames += u64::from(self.body == 0);
        }
    }
}

/// The message id of a bitwire server's reply.
pub const PONG_ID: u32 = Pong::MESSAGE_ID;

/// The message id of a raw echo's reply: the request itself.
pub const PING_ID: u32 = Ping::MESSAGE_ID;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_is_exact_and_seq_patches() {
        for size in SIZES.into_iter().chain([MIN_SIZE, MAX_SIZE]) {
            let t = Template::new(size).unwrap();
            let mut out = Vec::new();
            t.write(77, &mut out);
            let msg = Message::decode_frame(&out, &FrameSettings::new()).unwrap();
            let Message::Ping(ping) = msg else {
                panic!("not a Ping")
            };
            assert_eq!(ping.seq, 77);
            let mut packed = Vec::new();
            assert_eq!(Message::from(ping).encode(&mut packed).unwrap(), size);
            assert!(t.data_matches(77, &out[out.len() - size..]));
            assert!(!t.data_matches(78, &out[out.len() - size..]));
        }
        assert_eq!(Template::new(8).unwrap().frame_len(), 10);
        assert_eq!(Template::new(1024).unwrap().frame_len(), 1027);
    }

    #[test]
    fn sizes_out_of_range_are_errors() {
        assert!(Template::new(MIN_SIZE - 1).is_err());
        assert!(Template::new(MAX_SIZE + 1).is_err());
    }

    #[test]
    fn frames_are_counted_however_split() {
        let mut stream = Vec::new();
        for (seq, size) in [8, 127, 128, 1024, 16].into_iter().enumerate() {
            Template::new(size).unwrap().write(seq as u32, &mut stream);
        }
        stream.extend_from_slice(&[0x80, 0x01]); // a Length of 128 and no body yet
        for chunk in [1, 2, 3, 7, 64, stream.len()] {
            let mut counter = FrameCounter::default();
            stream.chunks(chunk).for_each(|c| counter.scan(c));
            assert_eq!(counter.frames, 5, "chunks of {chunk}");
        }
    }

    #[test]
    fn replies_are_checked() {
        let t = Template::new(16).unwrap();
        let mut out = Vec::new();
        t.write(5, &mut out);
        let data = &out[out.len() - 16..];
        assert!(t.check_reply(5, PING_ID, 1, data).is_ok());
        let e = t.check_reply(5, PONG_ID, 1, data).unwrap_err();
        assert_eq!(
            e,
            "reply to seq 5: expected id 2 and 16 bytes of data, got id 1, 16 bytes, seq 5"
        );
        assert!(t.check_reply(5, PING_ID, 1, &data[..15]).is_err());
        assert!(t.check_reply(5, PING_ID, 1, &[]).is_err());
    }
}
