package bitwire

import (
	"bufio"
	"errors"
	"io"
)

// DefaultReadBufferSize is the size of the buffer a FrameReader puts in front of a
// reader that is not a *bufio.Reader.
const DefaultReadBufferSize = 4096

// FrameReader reads frames from a byte stream (a TCP connection): whatever way the
// bytes arrive — split or coalesced — it yields the same frames. It checks a frame's
// length before buffering its body (§2.2), so it never holds more than MaxFrame+3
// bytes of a frame (plus MaxData for an inflated body), and it grows its buffer as
// the body arrives, not when the length announces it. A body that fits the
// bufio.Reader's buffer is decoded in place, without a copy.
//
// The first malformed frame ends the stream (§6.2): ReadFrame returns its
// *FrameError then and on every later call. A FrameReader is not safe for
// concurrent use.
type FrameReader struct {
	dec     FrameDecoder
	r       *bufio.Reader
	off     int64
	body    []byte
	inFrame bool
	err     error
}

// NewFrameReader returns a reader of the frames of r with the settings cfg. A
// *bufio.Reader is used as it is (its buffer size decides which bodies are decoded in
// place); any other reader gets a buffer of DefaultReadBufferSize bytes in front, so
// the FrameReader may read from r past the frame it returns.
func NewFrameReader(r io.Reader, cfg FrameConfig) *FrameReader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, DefaultReadBufferSize)
	}
	return &FrameReader{dec: FrameDecoder{cfg: cfg.normalized()}, r: br}
}

// Config returns the reader's settings, normalized.
func (fr *FrameReader) Config() FrameConfig { return fr.dec.cfg }

// SetCompression changes the compression setting for the frames read from now on
// (see FrameDecoder.SetCompression).
func (fr *FrameReader) SetCompression(on bool, t int) { fr.dec.SetCompression(on, t) }

// Offset returns the number of bytes of the stream the frames returned so far took.
func (fr *FrameReader) Offset() int64 { return fr.off }

// InFrame reports whether the reader has consumed bytes of a frame it has not
// returned yet: the peer has started a frame. Connections use it to tell an idle
// peer from one that is slow to finish a frame.
func (fr *FrameReader) InFrame() bool { return fr.inFrame }

// ReadFrame reads the next frame. At the end of the stream between two frames it
// returns io.EOF; a stream that ends inside a frame is a *FrameError of kind
// FrameTruncated, and a malformed frame one of its kind, both with the frame's
// offset. Errors of the underlying reader are returned as they are. Every error is
// final. The frame's Data is valid until the next call.
func (fr *FrameReader) ReadFrame() (Frame, error) {
	if fr.err != nil {
		return Frame{}, fr.err
	}
	f, err := fr.readFrame()
	if err != nil {
		fr.err = err
		return Frame{}, err
	}
	fr.inFrame = false
	return f, nil
}

// ReadMessage reads the next frame and decodes its message from set
// (DecodeFrameMessage, with the reader's Limits). The message is set's value: with a
// generated Messages set it is valid until the next call.
func (fr *FrameReader) ReadMessage(set MessageSet) (Message, error) {
	f, err := fr.ReadFrame()
	if err != nil {
		return nil, err
	}
	m, err := DecodeFrameMessage(f, set, fr.dec.cfg.Limits)
	if err != nil {
		fr.err = err
	}
	return m, err
}

func (fr *FrameReader) readFrame() (Frame, error) {
	start := fr.off
	var p lengthParse
	for {
		c, err := fr.r.ReadByte()
		if err != nil {
			if err == io.EOF && p.n == 0 {
				return Frame{}, io.EOF
			}
			return Frame{}, fr.truncated(err, start, 0)
		}
		fr.inFrame = true
		done, kind := p.push(c)
		if done {
			if err := fr.dec.check(&p, kind, start); err != nil {
				return Frame{}, err
			}
			break
		}
	}
	length := int(p.v)
	var body []byte
	if length <= fr.r.Size() {
		// The body fits the buffer: decode it where it is. Discard only moves the
		// buffer's read position, so the bytes stay put until the next read.
		b, err := fr.r.Peek(length)
		if err != nil {
			return Frame{}, fr.truncated(err, start, length)
		}
		body = b
		_, _ = fr.r.Discard(length)
	} else {
		b, err := fr.readBody(length)
		if err != nil {
			return Frame{}, fr.truncated(err, start, length)
		}
		body = b
	}
	f, err := fr.dec.decodeBody(body, start)
	if err != nil {
		return Frame{}, err
	}
	fr.off = start + int64(p.n) + int64(length)
	return f, nil
}

// readBody reads a body larger than the buffer into the reader's own buffer, which
// grows (doubling) as the bytes arrive: a peer that announces 2 MB and sends 10
// bytes costs about the buffer's size, not 2 MB.
func (fr *FrameReader) readBody(length int) ([]byte, error) {
	if cap(fr.body) < fr.r.Size() {
		fr.body = make([]byte, 0, 2*fr.r.Size())
	}
	b := fr.body[:0]
	empty := 0
	for len(b) < length {
		if len(b) == cap(b) {
			grown := make([]byte, len(b), min(2*cap(b), length))
			copy(grown, b)
			b = grown
			fr.body = b
		}
		n, err := fr.r.Read(b[len(b):min(cap(b), length)])
		b = b[:len(b)+n]
		if err != nil && len(b) < length {
			return nil, err
		}
		if empty = empty + 1; n > 0 {
			empty = 0
		} else if empty == 100 {
			// A reader that keeps returning nothing (bufio.Reader's own limit).
			return nil, io.ErrNoProgress
		}
	}
	fr.body = b
	return b, nil
}

// truncated turns the error that stopped a frame into what ReadFrame returns: an
// end of stream inside the frame is FrameTruncated; anything else (a timeout, a
// reset) is the reader's error, unchanged.
func (fr *FrameReader) truncated(err error, start int64, length int) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &FrameError{Kind: FrameTruncated, Offset: start, Length: length}
	}
	return err
}
