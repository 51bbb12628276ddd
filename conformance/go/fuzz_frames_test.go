package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/frames"
	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// fuzzFrameConfig derives the reader's settings from the first byte of a fuzz input:
// compression off, or on with threshold 0, 4 or 256; small limits, so that the
// memory bound below means something.
func fuzzFrameConfig(c byte) bitwire.FrameConfig {
	cfg := bitwire.FrameConfig{MaxFrame: 4096, MaxData: 16384}
	if c&1 == 1 {
		cfg.Compression, cfg.Threshold = true, []int{0, 4, 256}[int(c>>1)%3]
	}
	return cfg
}

type fuzzRead struct {
	frames []bitwire.Frame
	ends   []int64
	err    error
}

// readFuzz reads every frame of r.
func readFuzz(r io.Reader, cfg bitwire.FrameConfig) fuzzRead {
	fr := bitwire.NewFrameReader(r, cfg)
	var out fuzzRead
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			if err != io.EOF {
				out.err = err
			}
			return out
		}
		f.Data = bytes.Clone(f.Data)
		out.frames = append(out.frames, f)
		out.ends = append(out.ends, fr.Offset())
	}
}

// FuzzFrameReader reads random streams as frames (the first byte picks the
// settings). The reader must never panic and must allocate within a bound of its
// limits, not of what the stream claims; it must yield the same frames and the same
// error (kind and offset) whole and one byte at a time; every frame it accepts must
// be what a writer writes — byte for byte when uncompressed (the format is
// canonical), and reading back the same when compressed — and every message that
// decodes must re-encode to its data.
func FuzzFrameReader(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "vectors", "frames", "frames.json"))
	if err != nil {
		f.Fatal(err)
	}
	var file framesFile
	if err := json.Unmarshal(raw, &file); err != nil {
		f.Fatal(err)
	}
	for _, c := range file.Cases {
		if c.Stream == nil {
			continue
		}
		stream, _ := harness.Hex(*c.Stream)
		conf := byte(0)
		if c.Threshold != nil {
			conf = map[int]byte{0: 1, 4: 3, 256: 5}[*c.Threshold]
		}
		f.Add(append([]byte{conf}, stream...))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		cfg := fuzzFrameConfig(in[0])
		stream := in[1:]
		var whole fuzzRead
		// A 4 KiB read buffer, a body of at most MaxFrame, an inflated one of at most
		// MaxData (+1), the frames kept by this test (at most the stream's size again
		// when inflated: DataLength ≤ MaxData per frame) and the error.
		bound := uint64(4096+2*4096+16384+64<<10) + uint64(len(stream))*8
		if alloc := allocated(func() { whole = readFuzz(bytes.NewReader(stream), cfg) }); alloc > bound+uint64(len(whole.frames))*16384 {
			t.Fatalf("allocated %d reading %d bytes", alloc, len(stream))
		}
		bytewise := readFuzz(iotest.OneByteReader(bytes.NewReader(stream)), cfg)
		if len(whole.frames) != len(bytewise.frames) || !sameFrameError(whole.err, bytewise.err) {
			t.Fatalf("whole: %d frames, %v; one byte at a time: %d frames, %v",
				len(whole.frames), whole.err, len(bytewise.frames), bytewise.err)
		}
		enc := bitwire.NewFrameEncoder(cfg)
		var set frames.Messages
		start := int64(0)
		for i, fr := range whole.frames {
			if b := bytewise.frames[i]; b.ID != fr.ID || !bytes.Equal(b.Data, fr.Data) || b.Offset != fr.Offset {
				t.Fatalf("frame %d differs one byte at a time", i)
			}
			if fr.Offset != start {
				t.Fatalf("frame %d at %d, expected %d", i, fr.Offset, start)
			}
			original := stream[start:whole.ends[i]]
			start = whole.ends[i]
			written, err := enc.AppendFrame(nil, fr.ID, fr.Data)
			if err != nil {
				if errors.Is(err, bitwire.ErrFrameTooLarge) && cfg.Compression {
					continue // an uncompressed body that compresses to more than MaxFrame
				}
				t.Fatalf("frame %d does not write: %v", i, err)
			}
			if !bytes.Equal(written, original) {
				again := readFuzz(bytes.NewReader(written), cfg)
				compressedSomewhere := cfg.Compression && (original[varIntEnd(original)] != 0 || written[varIntEnd(written)] != 0)
				if !compressedSomewhere || again.err != nil || len(again.frames) != 1 ||
					again.frames[0].ID != fr.ID || !bytes.Equal(again.frames[0].Data, fr.Data) {
					t.Fatalf("frame %d: read % x, writes % x", i, original, written)
				}
			}
			m, err := bitwire.DecodeFrameMessage(fr, &set, cfg.Normalized().Limits)
			if err != nil {
				continue
			}
			// Every message appends its Data again: a value its encoding, a delta
			// message's envelope (frames.WorldEnvelope) its bytes.
			data, err := m.(interface{ AppendTo([]byte) ([]byte, error) }).AppendTo(nil)
			if err != nil || !bytes.Equal(data, fr.Data) {
				t.Fatalf("frame %d: message %T re-encodes to % x (%v), data % x", i, m, data, err, fr.Data)
			}
		}
	})
}

// varIntEnd returns the length of the VarInt at the front of b (a frame's Length).
func varIntEnd(b []byte) int {
	for i, c := range b {
		if c < 0x80 {
			return i + 1
		}
	}
	return len(b)
}

// sameFrameError reports whether two reads ended the same way: cleanly, or with a
// frame error of the same kind and offset.
func sameFrameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var ea, eb *bitwire.FrameError
	return errors.As(a, &ea) && errors.As(b, &eb) && ea.Kind == eb.Kind && ea.Offset == eb.Offset
}
