//! Writing frames (§2.1, §3.1, §4.2): the PacketID and the message's bytes, compressed
//! iff they come to at least the threshold, behind the Length; a frame the reader
//! would refuse is an error here instead.

use alloc::vec::Vec;

use super::error::{FrameDetail, FrameError, FrameErrorKind};
use super::varint::{varint_len, write_varint, VARINT_MAX};
use super::zlib::Deflater;
use super::{FrameSettings, MessageSet};

/// Writes frames. Keep one per connection: it reuses its buffer and, with
/// compression on, its deflater (a few hundred KB, created on the first frame that
/// is compressed).
///
/// ```
/// use bitwire::frame::{FrameEncoder, FrameErrorKind, FrameSettings};
///
/// let mut out = Vec::new();
/// let mut encoder = FrameEncoder::new(FrameSettings::new().with_max_frame(8));
/// encoder.write_frame(0, &[], &mut out)?;
/// assert_eq!(out, [0x01, 0x00]); // Length 1, PacketID 0
/// let e = encoder.write_frame(1, &[0; 8], &mut out).unwrap_err();
/// assert_eq!(e.kind(), FrameErrorKind::FrameTooLarge); // 9 bytes > max_frame 8
/// assert_eq!(out, [0x01, 0x00]); // left as it was
/// # Ok::<(), bitwire::frame::FrameError>(())
/// ```
pub struct FrameEncoder {
    settings: FrameSettings,
    /// The body (PacketID and Data) before it is framed or compressed.
    body: Vec<u8>,
    deflater: Deflater,
}

impl FrameEncoder {
    /// An encoder with `settings`.
    pub fn new(settings: FrameSettings) -> FrameEncoder {
        FrameEncoder {
            settings,
            body: Vec::new(),
            deflater: Deflater::default(),
        }
    }

    /// The encoder's settings.
    pub fn settings(&self) -> &FrameSettings {
        &self.settings
    }

    /// Appends the frame of a message with PacketID `id` and packed bytes `data` to
    /// `out` and returns the bytes written. On error (`FrameTooLarge`,
    /// `DataTooLarge`, `VarIntTooLong` for an id above 2^31 − 1) `out` is unchanged.
    pub fn write_frame(
        &mut self,
        id: u32,
        data: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<usize, FrameError> {
        if id > VARINT_MAX {
            return Err(FrameError::new(FrameErrorKind::VarIntTooLong, 0));
        }
        self.body.clear();
        write_varint(&mut self.body, id);
        self.body.extend_from_slice(data);
        self.frame_body(out)
    }

    /// Appends the frame of `message` to `out` (§4.2) and returns the bytes written.
    /// A message that does not encode is a `Message` error; `out` is then unchanged.
    pub fn write_message<M: MessageSet>(
        &mut self,
        message: &M,
        out: &mut Vec<u8>,
    ) -> Result<usize, FrameError> {
        self.body.clear();
        write_varint(&mut self.body, message.message_id());
        message
            .encode_body(&mut self.body)
            .map_err(|e| FrameError::message(e, 0))?;
        self.frame_body(out)
    }

    /// Frames `self.body` (PacketID and Data) into `out`.
    fn frame_body(&mut self, out: &mut Vec<u8>) -> Result<usize, FrameError> {
        let n = self.body.len();
        let max_frame = self.settings.max_frame() as usize;
        let too_large = |length: usize| {
            FrameError::new(FrameErrorKind::FrameTooLarge, 0).with_detail(FrameDetail::TooLarge {
                length: length as u64,
                max: max_frame as u64,
            })
        };
        let start = out.len();
        match self.settings.threshold() {
            None => {
                if n > max_frame {
                    return Err(too_large(n));
                }
                write_varint(out, n as u32);
                out.extend_from_slice(&self.body);
            }
            Some(t) if n < t as usize => {
                // DataLength 0, then the body as it is.
                if n + 1 > max_frame {
                    return Err(too_large(n + 1));
                }
                write_varint(out, n as u32 + 1);
                out.push(0);
                out.extend_from_slice(&self.body);
            }
            Some(_) => {
                let max_data = self.settings.max_data() as usize;
                if n > max_data {
                    return Err(
                        FrameError::new(FrameErrorKind::DataTooLarge, 0).with_detail(
                            FrameDetail::TooLarge {
                                length: n as u64,
                                max: max_data as u64,
                            },
                        ),
                    );
                }
                // The PacketLength is known after compressing: leave room for the
                // longest, then move the frame down if it took fewer bytes.
                out.extend_from_slice(&[0; 3]);
                write_varint(out, n as u32);
                self.deflater.deflate(&self.body, out);
                let packet_length = out.len() - start - 3;
                if packet_length > max_frame {
                    out.truncate(start);
                    return Err(too_large(packet_length));
                }
                let header = varint_len(packet_length as u32);
                out.copy_within(start + 3.., start + header);
                out.truncate(start + header + packet_length);
                let mut v = packet_length;
                for byte in &mut out[start..start + header] {
                    *byte = (v & 0x7f) as u8 | if v >= 0x80 { 0x80 } else { 0 };
                    v >>= 7;
                }
            }
        }
        Ok(out.len() - start)
    }
}

impl core::fmt::Debug for FrameEncoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameEncoder")
            .field("settings", &self.settings)
            .finish()
    }
}
