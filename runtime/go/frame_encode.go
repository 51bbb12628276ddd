package bitwire

import (
	"compress/zlib"
	"io"
	"sync"
)

// FrameEncoder writes frames (docs/framing.md §2–§4) by appending them to a slice:
// the shortest VarInts, and with compression a body of n bytes is compressed iff
// n ≥ Threshold (vanilla Minecraft's rule; §3.1). A frame whose length would be
// above MaxFrame is refused (FrameTooLarge), as is a body above MaxData that would
// be compressed (FrameDataTooLarge): a writer never writes what a reader with the
// same settings rejects. Appending to a reused buffer allocates nothing. A
// FrameEncoder is not safe for concurrent use.
type FrameEncoder struct {
	cfg     FrameConfig
	scratch []byte
	sink    sliceWriter
}

// NewFrameEncoder returns an encoder with the settings cfg.
func NewFrameEncoder(cfg FrameConfig) *FrameEncoder {
	return &FrameEncoder{cfg: cfg.normalized()}
}

// Config returns the encoder's settings, normalized.
func (e *FrameEncoder) Config() FrameConfig { return e.cfg }

// SetCompression changes the compression setting for the frames encoded from now on:
// on with threshold t, or off.
func (e *FrameEncoder) SetCompression(on bool, t int) {
	e.cfg.Compression, e.cfg.Threshold = on, t
	e.cfg = e.cfg.normalized()
}

// AppendFrame appends the frame of PacketID id and data to dst. On error it returns
// dst unchanged (its first len(dst) bytes): a *FrameError of kind FrameTooLarge,
// FrameDataTooLarge, or FrameVarIntTooLong for an id above MaxMessageID.
func (e *FrameEncoder) AppendFrame(dst []byte, id uint32, data []byte) ([]byte, error) {
	if id > MaxMessageID {
		return dst, &FrameError{Kind: FrameVarIntTooLong, Offset: -1, MessageID: id}
	}
	start := len(dst)
	dst = appendVarInt(e.reserve(dst), id)
	dst = append(dst, data...)
	return e.finish(dst, start)
}

// AppendMessage appends the frame of message m to dst: its MessageID, then its
// packed encoding. On error it returns dst unchanged, with m's encoding error (a
// packed *Error, such as OutOfRange) or a *FrameError as AppendFrame's.
func (e *FrameEncoder) AppendMessage(dst []byte, m Message) ([]byte, error) {
	id := m.MessageID()
	if id > MaxMessageID {
		return dst, &FrameError{Kind: FrameVarIntTooLong, Offset: -1, MessageID: id}
	}
	start := len(dst)
	out, err := appendMessage(appendVarInt(e.reserve(dst), id), m)
	if err != nil {
		return out[:start], err
	}
	return e.finish(out, start)
}

// reserve appends room for the longest Length (3 bytes) and, with compression, a
// DataLength of 0; finish moves the body back if the Length is shorter.
func (e *FrameEncoder) reserve(dst []byte) []byte {
	if e.cfg.Compression {
		return append(dst, 0, 0, 0, 0)
	}
	return append(dst, 0, 0, 0)
}

// finish turns dst[start:], the reserved header and the body S (PacketID and data),
// into a frame.
func (e *FrameEncoder) finish(dst []byte, start int) ([]byte, error) {
	if !e.cfg.Compression {
		return e.seal(dst, start)
	}
	s := dst[start+4:]
	n := len(s)
	if n < e.cfg.Threshold {
		dst[start+3] = 0 // DataLength 0: S as it is.
		return e.seal(dst, start)
	}
	if n > e.cfg.MaxData {
		return dst[:start], &FrameError{Kind: FrameDataTooLarge, Offset: -1, DataLength: n, Max: e.cfg.MaxData}
	}
	e.scratch = append(e.scratch[:0], s...)
	dst = appendVarInt(dst[:start+3], uint32(n))
	dst = e.deflate(dst, e.scratch)
	return e.seal(dst, start)
}

// seal writes the length of dst[start+3:] in front of it, in the fewest bytes.
func (e *FrameEncoder) seal(dst []byte, start int) ([]byte, error) {
	length := len(dst) - (start + 3)
	if length > e.cfg.MaxFrame {
		return dst[:start], &FrameError{Kind: FrameTooLarge, Offset: -1, Length: length, Max: e.cfg.MaxFrame}
	}
	k := varIntLen(uint32(length))
	if k < 3 {
		copy(dst[start+k:], dst[start+3:])
		dst = dst[:start+k+length]
	}
	putVarInt(dst[start:], uint32(length))
	return dst, nil
}

// deflaters holds idle zlib compressors per level (800 KiB to 1.1 MiB each), shared
// by every encoder: a connection needs one only while it compresses a frame.
var deflaters [10]sync.Pool

func init() {
	for level := 1; level <= 9; level++ {
		deflaters[level].New = func() any {
			w, _ := zlib.NewWriterLevel(io.Discard, level)
			return w
		}
	}
}

// deflate appends the zlib stream of s (RFC 1950, at the configured level) to dst.
func (e *FrameEncoder) deflate(dst, s []byte) []byte {
	pool := &deflaters[e.cfg.CompressionLevel]
	zw := pool.Get().(*zlib.Writer)
	e.sink.b = dst
	zw.Reset(&e.sink)
	// The sink never fails, so neither do Write and Close.
	_, _ = zw.Write(s)
	_ = zw.Close()
	dst = e.sink.b
	e.sink.b = nil
	zw.Reset(io.Discard)
	pool.Put(zw)
	return dst
}

// sliceWriter is an io.Writer that appends to a slice.
type sliceWriter struct{ b []byte }

func (w *sliceWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// FrameWriter writes frames to an io.Writer, one Write per frame, through a reused
// buffer. It is not safe for concurrent use (connections in package bwnet are).
type FrameWriter struct {
	enc FrameEncoder
	w   io.Writer
	buf []byte
}

// NewFrameWriter returns a writer of frames to w with the settings cfg.
func NewFrameWriter(w io.Writer, cfg FrameConfig) *FrameWriter {
	return &FrameWriter{enc: FrameEncoder{cfg: cfg.normalized()}, w: w}
}

// Encoder returns the writer's encoder (for its settings, or SetCompression).
func (fw *FrameWriter) Encoder() *FrameEncoder { return &fw.enc }

// WriteFrame writes the frame of PacketID id and data (see AppendFrame).
func (fw *FrameWriter) WriteFrame(id uint32, data []byte) error {
	b, err := fw.enc.AppendFrame(fw.buf[:0], id, data)
	return fw.write(b, err)
}

// WriteMessage writes the frame of message m (see AppendMessage).
func (fw *FrameWriter) WriteMessage(m Message) error {
	b, err := fw.enc.AppendMessage(fw.buf[:0], m)
	return fw.write(b, err)
}

func (fw *FrameWriter) write(b []byte, err error) error {
	fw.buf = b[:0]
	if err != nil {
		return err
	}
	_, err = fw.w.Write(b)
	return err
}
