//! The two steps every reader takes, in one place: the frame's length (§2.2), checked
//! before any of its body is buffered, and the body (§3, §4): DataLength, inflating,
//! PacketID. The incremental reader, the blocking reader, the tokio codec and the
//! WebSocket transport all call these.

use alloc::vec::Vec;

use super::error::{FrameDetail, FrameErrorKind};
use super::varint::{read_varint, VarInt};
use super::zlib::Inflater;
use super::FrameSettings;

/// The most bytes a Length or PacketLength VarInt takes (§2.2).
pub const LENGTH_MAX_BYTES: usize = 3;

pub(crate) type Fault = (FrameErrorKind, FrameDetail);

/// The start of a frame, once its length is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Head {
    /// More bytes are needed to know the length.
    Incomplete,
    /// The frame is `header + length` bytes; its body starts at `header`.
    Frame {
        /// Bytes of the length VarInt.
        header: usize,
        /// The Length (PacketLength): bytes of the body.
        length: usize,
    },
}

impl Head {
    /// Bytes of the whole frame, when known.
    pub fn total(self) -> Option<usize> {
        match self {
            Head::Incomplete => None,
            Head::Frame { header, length } => Some(header + length),
        }
    }
}

/// Reads the Length VarInt at the front of `buf` (§2.2), rejecting in this order a
/// continuation bit on its third byte (`LengthTooWide`, as soon as that byte is there),
/// a non-minimal form, a zero length and a length above `max_frame`.
#[inline]
pub fn read_head(buf: &[u8], max_frame: u32) -> Result<Head, Fault> {
    let mut length = 0usize;
    for (i, &b) in buf.iter().take(LENGTH_MAX_BYTES).enumerate() {
        if b & 0x80 != 0 {
            if i == LENGTH_MAX_BYTES - 1 {
                return Err((FrameErrorKind::LengthTooWide, FrameDetail::None));
            }
            length |= usize::from(b & 0x7f) << (7 * i);
            continue;
        }
        length |= usize::from(b) << (7 * i);
        if i > 0 && b == 0 {
            return Err((FrameErrorKind::NonMinimalVarInt, FrameDetail::None));
        }
        if length == 0 {
            return Err((FrameErrorKind::ZeroLength, FrameDetail::None));
        }
        if length > max_frame as usize {
            return Err((
                FrameErrorKind::FrameTooLarge,
                FrameDetail::TooLarge {
                    length: length as u64,
                    max: u64::from(max_frame),
                },
            ));
        }
        return Ok(Head::Frame {
            header: i + 1,
            length,
        });
    }
    Ok(Head::Incomplete)
}

/// Opens a frame's body (the `length` bytes after its Length): with compression on,
/// reads DataLength and inflates Rest into `inflated` when it is not 0 (§3.2); then
/// reads the PacketID (§4.1). Returns the id and the message's bytes, which borrow
/// `body` or `inflated`.
#[inline]
pub fn open_body<'a>(
    body: &'a [u8],
    settings: &FrameSettings,
    inflater: &mut Inflater,
    inflated: &'a mut Vec<u8>,
) -> Result<(u32, &'a [u8]), Fault> {
    let s: &'a [u8] = match settings.threshold() {
        None => body,
        Some(threshold) => {
            let (data_length, n) = match read_varint(body)? {
                VarInt::Value(v, n) => (v, n),
                VarInt::Incomplete => return Err((FrameErrorKind::Truncated, FrameDetail::None)),
            };
            let rest = &body[n..];
            if data_length == 0 {
                rest
            } else {
                if data_length < threshold {
                    return Err((
                        FrameErrorKind::BelowThreshold,
                        FrameDetail::BelowThreshold {
                            data_length,
                            threshold,
                        },
                    ));
                }
                if data_length > settings.max_data() {
                    return Err((
                        FrameErrorKind::DataTooLarge,
                        FrameDetail::TooLarge {
                            length: u64::from(data_length),
                            max: u64::from(settings.max_data()),
                        },
                    ));
                }
                inflater.inflate_exact(rest, data_length, inflated)?;
                inflated.as_slice()
            }
        }
    };
    match read_varint(s)? {
        VarInt::Value(id, n) => Ok((id, &s[n..])),
        VarInt::Incomplete => Err((FrameErrorKind::Truncated, FrameDetail::None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_rules_in_order() {
        let head = |b: &[u8]| read_head(b, 1024).map_err(|e| e.0);
        assert_eq!(head(&[]), Ok(Head::Incomplete));
        assert_eq!(head(&[0x80]), Ok(Head::Incomplete));
        assert_eq!(
            head(&[0x09]),
            Ok(Head::Frame {
                header: 1,
                length: 9
            })
        );
        assert_eq!(
            head(&[0x80, 0x08]),
            Ok(Head::Frame {
                header: 2,
                length: 1024
            })
        );
        assert_eq!(head(&[0x81, 0x08]), Err(FrameErrorKind::FrameTooLarge));
        assert_eq!(
            head(&[0x80, 0x80, 0x80]),
            Err(FrameErrorKind::LengthTooWide)
        );
        assert_eq!(head(&[0x80, 0x00]), Err(FrameErrorKind::NonMinimalVarInt));
        assert_eq!(head(&[0x00]), Err(FrameErrorKind::ZeroLength));
        assert_eq!(
            read_head(&[0xff, 0xff, 0x7f], 2_097_151),
            Ok(Head::Frame {
                header: 3,
                length: 2_097_151
            })
        );
    }
}
