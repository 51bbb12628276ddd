package bitwire

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"io"
	"sync"
)

// Frame is one frame read from a stream or a WebSocket message: its PacketID, its
// Data (the message's packed bytes, inflated when the frame was compressed) and the
// byte offset of its first byte in the stream. Data belongs to the reader that
// returned the frame and is valid until its next read.
type Frame struct {
	ID     uint32
	Data   []byte
	Offset int64
}

// FrameDecoder decodes frames from slices: the body rules of §3 and §4 that every
// reader shares, and DecodeFrame for a slice that holds exactly one frame (a
// WebSocket message, §5). It keeps the buffer compressed frames inflate into, so
// decoding allocates nothing once it has grown. A FrameDecoder is not safe for
// concurrent use.
type FrameDecoder struct {
	cfg FrameConfig
	src bytes.Reader
	out []byte
}

// NewFrameDecoder returns a decoder with the settings cfg.
func NewFrameDecoder(cfg FrameConfig) *FrameDecoder {
	return &FrameDecoder{cfg: cfg.normalized()}
}

// Config returns the decoder's settings, normalized.
func (d *FrameDecoder) Config() FrameConfig { return d.cfg }

// SetCompression changes the compression setting for the frames decoded from now
// on, as Minecraft's Set Compression packet does mid-stream: on with threshold t, or
// off.
func (d *FrameDecoder) SetCompression(on bool, t int) {
	d.cfg.Compression, d.cfg.Threshold = on, t
	d.cfg = d.cfg.normalized()
}

// lengthParse reads a Length or PacketLength VarInt byte by byte (§2.2), so that a
// stream reader rejects a bad length as soon as the byte that makes it bad arrives.
type lengthParse struct {
	v uint32
	n int
}

// push adds the next byte c of the length. It returns whether the length is complete
// (or known to be bad) and, if bad, the kind: a third byte with its continuation bit
// (LengthTooWide), a non-minimal length, or 0 — in that order (docs/framing.md §2.2).
func (p *lengthParse) push(c byte) (done bool, kind FrameKind) {
	p.v |= uint32(c&0x7f) << (7 * p.n)
	p.n++
	if c >= 0x80 {
		if p.n == 3 {
			return true, FrameLengthTooWide
		}
		return false, 0
	}
	if p.n > 1 && c == 0 {
		return true, FrameNonMinimalVarInt
	}
	if p.v == 0 {
		return true, FrameZeroLength
	}
	return true, 0
}

// check returns the error of a complete length: kind from push, or FrameTooLarge.
func (d *FrameDecoder) check(p *lengthParse, kind FrameKind, offset int64) error {
	if kind != 0 {
		return frameError(kind, offset)
	}
	if int(p.v) > d.cfg.MaxFrame {
		return &FrameError{Kind: FrameTooLarge, Offset: offset, Length: int(p.v), Max: d.cfg.MaxFrame}
	}
	return nil
}

// DecodeFrame decodes b as exactly one frame, the rule of a WebSocket message (§5):
// a b that ends inside the frame is FrameTruncated. When bytes follow a valid frame,
// DecodeFrame returns the frame and a FrameTrailingBytes error at the offset where
// they start: a reader yields the frame, then ends the stream with the error, as it
// would on a TCP stream. Offsets are within b.
func (d *FrameDecoder) DecodeFrame(b []byte) (Frame, error) {
	var p lengthParse
	i := 0
	for {
		if i == len(b) {
			return Frame{}, frameError(FrameTruncated, 0)
		}
		done, kind := p.push(b[i])
		i++
		if done {
			if err := d.check(&p, kind, 0); err != nil {
				return Frame{}, err
			}
			break
		}
	}
	end := i + int(p.v)
	if end > len(b) {
		return Frame{}, &FrameError{Kind: FrameTruncated, Offset: 0, Length: int(p.v)}
	}
	f, err := d.decodeBody(b[i:end], 0)
	if err != nil {
		return Frame{}, err
	}
	if end < len(b) {
		return f, frameError(FrameTrailingBytes, int64(end))
	}
	return f, nil
}

// DecodeMessage decodes b as exactly one frame (DecodeFrame) and its message from
// set (DecodeFrameMessage, with the decoder's Limits). Bytes after the frame are an
// error, whether or not its message decodes.
func (d *FrameDecoder) DecodeMessage(b []byte, set MessageSet) (Message, error) {
	f, err := d.DecodeFrame(b)
	if err != nil {
		return nil, err
	}
	return DecodeFrameMessage(f, set, d.cfg.Limits)
}

// decodeBody decodes the body of the frame at offset (what its Length counts): with
// compression, DataLength and the zlib stream (§3.2); then the PacketID (§4).
func (d *FrameDecoder) decodeBody(body []byte, offset int64) (Frame, error) {
	s := body
	if d.cfg.Compression {
		dataLen, n, kind := parseVarInt(body)
		if kind != 0 {
			return Frame{}, frameError(kind, offset)
		}
		s = body[n:]
		if dataLen != 0 {
			var err error
			if s, err = d.inflate(s, int(dataLen), offset); err != nil {
				return Frame{}, err
			}
		}
	}
	id, n, kind := parseVarInt(s)
	if kind != 0 {
		return Frame{}, frameError(kind, offset)
	}
	return Frame{ID: id, Data: s[n:], Offset: offset}, nil
}

// inflaters holds idle deflate decompressors (about 40 KiB each), shared by every
// decoder: a connection needs one only while it inflates a frame.
var inflaters = sync.Pool{New: func() any { return flate.NewReader(&emptySource) }}

// emptySource is what pooled decompressors read from: a bytes.Reader is an
// io.ByteReader, so flate reads it byte by byte, never past its stream's end.
var emptySource bytes.Reader

// inflate checks a compressed frame's DataLength n (§3.2) and inflates its zlib
// stream z into the decoder's buffer, reading at most n+1 bytes of output: the work
// and memory a stream costs are bounded by n whatever it claims to hold.
func (d *FrameDecoder) inflate(z []byte, n int, offset int64) ([]byte, error) {
	if n < d.cfg.Threshold {
		return nil, &FrameError{Kind: FrameBelowThreshold, Offset: offset, DataLength: n, Threshold: d.cfg.Threshold}
	}
	if n > d.cfg.MaxData {
		return nil, &FrameError{Kind: FrameDataTooLarge, Offset: offset, DataLength: n, Max: d.cfg.MaxData}
	}
	// RFC 1950 §2.2: CM 8 (deflate), CINFO ≤ 7 (a window of at most 32 KiB), no
	// preset dictionary (there is none to agree on), and the header a multiple of 31.
	if len(z) < 2 || z[0]&0x0f != 8 || z[0]>>4 > 7 || z[1]&0x20 != 0 || (uint(z[0])<<8|uint(z[1]))%31 != 0 {
		return nil, &FrameError{Kind: FrameBadZlib, Offset: offset, Err: errZlibHeader}
	}
	if cap(d.out) < n+1 {
		d.out = make([]byte, n+1)
	}
	out := d.out[:n+1]
	d.src.Reset(z[2:])
	fl := inflaters.Get().(io.ReadCloser)
	defer func() {
		d.src.Reset(nil)
		_ = fl.(flate.Resetter).Reset(&emptySource, nil)
		inflaters.Put(fl)
	}()
	_ = fl.(flate.Resetter).Reset(&d.src, nil)
	k := 0
	for k < len(out) {
		m, err := fl.Read(out[k:])
		k += m
		if err == io.EOF {
			break
		}
		if err != nil || m == 0 {
			// Corrupt deflate data, or input that ends inside the deflate stream.
			cause := err
			if err == nil || err == io.ErrUnexpectedEOF {
				cause = errZlibEnd
			}
			return nil, &FrameError{Kind: FrameBadZlib, Offset: offset, Err: cause}
		}
	}
	if k > n {
		return nil, &FrameError{Kind: FrameSizeMismatch, Offset: offset, DataLength: n, Inflated: k}
	}
	// The deflate stream ended after k ≤ n bytes; the Adler-32 of them follows.
	var sum [4]byte
	if got, _ := d.src.Read(sum[:]); got < len(sum) {
		return nil, &FrameError{Kind: FrameBadZlib, Offset: offset, Err: errZlibEnd}
	}
	if binary.BigEndian.Uint32(sum[:]) != adler32.Checksum(out[:k]) {
		return nil, &FrameError{Kind: FrameBadZlib, Offset: offset, Err: errZlibChecksum}
	}
	if k < n {
		return nil, &FrameError{Kind: FrameSizeMismatch, Offset: offset, DataLength: n, Inflated: k}
	}
	if d.src.Len() != 0 {
		return nil, frameError(FrameTrailingBytes, offset)
	}
	return out[:n], nil
}
