package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"testing/iotest"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/frames"
	"github.com/bitwire-dev/bitwire/conformance/go/generated/registry"
	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/baseline"
)

// The frame vectors (testdata/vectors/frames/README.md): every case through the
// FrameReader in several chunkings and over a real TCP connection, WebSocket cases
// through the FrameDecoder and a real WebSocket connection, and every writer case.

type framesFile struct {
	Cases []frameCase `json:"cases"`
}

type frameCase struct {
	ID         string          `json:"id"`
	Threshold  *int            `json:"threshold"`
	MaxFrame   int             `json:"max_frame"`
	MaxData    int             `json:"max_data"`
	Stream     *string         `json:"stream"`
	Transport  string          `json:"transport"`
	Messages   []string        `json:"messages"`
	Frames     []vectorFrame   `json:"frames"`
	End        json.RawMessage `json:"end"`
	Encode     string          `json:"encode"`
	Write      []vectorFrame   `json:"write"`
	WriteError *struct {
		Kind string `json:"kind"`
	} `json:"write_error"`
}

type vectorFrame struct {
	ID    uint32          `json:"id"`
	Data  string          `json:"data"`
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
	// Envelope is the header of a frame of the delta message World, which the
	// message set yields as its snapshot envelope (docs/framing.md §10.8).
	Envelope *struct {
		Seq  uint16 `json:"seq"`
		Back uint8  `json:"back"`
	} `json:"envelope"`
}

// envelopeText is how the runner compares envelopes: the header and the bytes.
func envelopeText(seq uint16, back uint8, data string) string {
	return fmt.Sprintf("envelope seq %d back %d data %s", seq, back, data)
}

// decodedText is a decoded message as the runner compares it: an envelope's header
// and bytes, or the value's JSON.
func decodedText(m bitwire.Message) (string, error) {
	if env, ok := m.(*frames.WorldEnvelope); ok {
		h, err := env.Header()
		return envelopeText(h.Seq, h.Back, harness.ToHex(env.Data)), err
	}
	text, err := m.(harness.Value).AppendJSON(nil)
	return string(text), err
}

// frameEnd is how a stream ends when not cleanly: the error's kind and offset, and
// the details a case gives.
type frameEnd struct {
	Kind       string          `json:"kind"`
	Offset     int64           `json:"offset"`
	Message    json.RawMessage `json:"message"` // WebSocket: the message index; kind Message: the packed error
	Length     *int            `json:"length"`
	Max        *int            `json:"max"`
	DataLength *int            `json:"data_length"`
	Threshold  *int            `json:"threshold"`
	MessageID  *uint32         `json:"message_id"`
}

func (c frameCase) config() bitwire.FrameConfig {
	cfg := bitwire.FrameConfig{MaxFrame: c.MaxFrame, MaxData: c.MaxData}
	if c.Threshold != nil {
		cfg.Compression, cfg.Threshold = true, *c.Threshold
	}
	return cfg
}

// end returns the expected end, nil for a clean one.
func (c frameCase) end() (*frameEnd, error) {
	if string(c.End) == `"clean"` {
		return nil, nil
	}
	var e frameEnd
	if err := json.Unmarshal(c.End, &e); err != nil {
		return nil, fmt.Errorf("bad end %s: %w", c.End, err)
	}
	return &e, nil
}

// got is what a reader yielded: the frames (data copied) with their decoded values
// (compact JSON, for frames the case types), and the error that ended the stream
// (nil for a clean end).
type got struct {
	frames []bitwire.Frame
	values []string
	err    error
}

// collect reads frames with next until an error, decoding the message of every
// frame the case gives a type, and of every frame after the listed ones (whose
// failure to decode is then the stream's end).
func collect(c frameCase, limits bitwire.Limits, next func() (bitwire.Frame, error)) got {
	var g got
	var set frames.Messages
	for i := 0; i < len(c.Frames)+2; i++ {
		f, err := next()
		if err != nil {
			if err != io.EOF {
				g.err = err
			}
			return g
		}
		f.Data = bytes.Clone(f.Data)
		value := ""
		if i >= len(c.Frames) || c.Frames[i].Type != "" {
			m, err := bitwire.DecodeFrameMessage(f, &set, limits)
			if err != nil {
				g.err = err
				return g
			}
			value, err = decodedText(m)
			if err != nil {
				g.err = err
				return g
			}
		}
		g.frames = append(g.frames, f)
		g.values = append(g.values, value)
	}
	g.err = errors.New("more frames than the case lists")
	return g
}

// check compares what a reader yielded with the case.
func (g got) check(c frameCase, end *frameEnd) error {
	if len(g.frames) != len(c.Frames) {
		return fmt.Errorf("%d frames, expected %d (then %v)", len(g.frames), len(c.Frames), g.err)
	}
	for i, want := range c.Frames {
		f := g.frames[i]
		if f.ID != want.ID || harness.ToHex(f.Data) != want.Data {
			return fmt.Errorf("frame %d: id %d data %x, expected %d %s", i, f.ID, f.Data, want.ID, want.Data)
		}
		if want.Type == "" {
			continue
		}
		if want.Envelope != nil {
			if text := envelopeText(want.Envelope.Seq, want.Envelope.Back, want.Data); text != g.values[i] {
				return fmt.Errorf("frame %d decodes to %s, expected %s", i, g.values[i], text)
			}
			continue
		}
		codec, ok := harness.Find(registry.All(), "frames", want.Type)
		if !ok {
			return fmt.Errorf("no generated type %s", want.Type)
		}
		norm, err := harness.Normalize(codec, want.Value)
		if err != nil || norm != g.values[i] {
			return fmt.Errorf("frame %d decodes to %s, expected %s (%v)", i, g.values[i], norm, err)
		}
	}
	return checkEnd(g.err, end)
}

// checkEnd compares the error that ended a stream with the expected end.
func checkEnd(err error, end *frameEnd) error {
	if end == nil {
		if err != nil {
			return fmt.Errorf("expected a clean end, got %v", err)
		}
		return nil
	}
	var fe *bitwire.FrameError
	if !errors.As(err, &fe) {
		return fmt.Errorf("expected %s at %d, got %v", end.Kind, end.Offset, err)
	}
	if fe.Kind.String() != end.Kind || fe.Offset != end.Offset || !errors.Is(err, fe.Kind.Sentinel()) {
		return fmt.Errorf("expected %s at %d, got %v", end.Kind, end.Offset, err)
	}
	for _, d := range []struct {
		name string
		want *int
		got  int
	}{
		{"length", end.Length, fe.Length},
		{"max", end.Max, fe.Max},
		{"data_length", end.DataLength, fe.DataLength},
		{"threshold", end.Threshold, fe.Threshold},
	} {
		if d.want != nil && *d.want != d.got {
			return fmt.Errorf("%v: %s %d, expected %d", err, d.name, d.got, *d.want)
		}
	}
	if end.MessageID != nil && *end.MessageID != fe.MessageID {
		return fmt.Errorf("%v: message id %d, expected %d", err, fe.MessageID, *end.MessageID)
	}
	if end.Kind == "Message" {
		var want harness.Expected
		if err := json.Unmarshal(end.Message, &want); err != nil {
			return fmt.Errorf("bad message error %s", end.Message)
		}
		return harness.CheckError(fe.Err, want)
	}
	return nil
}

// readers returns the stream in each chunking the runner feeds: whole, one byte at
// a time, in halves and in chunks of 2, 3, 7 and 64 bytes.
func readers(stream []byte) map[string]io.Reader {
	rs := map[string]io.Reader{
		"whole":    bytes.NewReader(stream),
		"one byte": iotest.OneByteReader(bytes.NewReader(stream)),
		"halves":   iotest.HalfReader(bytes.NewReader(stream)),
		"data+EOF": iotest.DataErrReader(bytes.NewReader(stream)),
	}
	for _, n := range []int{2, 3, 7, 64} {
		rs[fmt.Sprintf("chunks of %d", n)] = &chunks{b: stream, n: n}
	}
	return rs
}

type chunks struct {
	b []byte
	n int
}

func (r *chunks) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.n)], r.b)
	r.b = r.b[n:]
	return n, nil
}

// runStream reads a TCP case in every chunking and over a real connection.
func runStream(c frameCase, end *frameEnd) error {
	stream, err := harness.Hex(*c.Stream)
	if err != nil {
		return err
	}
	cfg := c.config()
	limits := cfg.Normalized().Limits
	names := make([]string, 0, 8)
	rs := readers(stream)
	for name := range rs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fr := bitwire.NewFrameReader(rs[name], cfg)
		if err := collect(c, limits, fr.ReadFrame).check(c, end); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := overTCP(c, stream, end); err != nil {
		return fmt.Errorf("over TCP: %w", err)
	}
	return encodeStream(c, stream, end)
}

// runWebSocket reads a WebSocket case message by message (DecodeFrame, a frame per
// message) and over a real WebSocket connection.
func runWebSocket(c frameCase, end *frameEnd) error {
	var msgs [][]byte
	for _, m := range c.Messages {
		b, err := harness.Hex(m)
		if err != nil {
			return err
		}
		msgs = append(msgs, b)
	}
	cfg := c.config()
	dec := bitwire.NewFrameDecoder(cfg)
	i := 0
	var after error
	g := collect(c, cfg.Normalized().Limits, func() (bitwire.Frame, error) {
		if after != nil {
			return bitwire.Frame{}, after
		}
		if i == len(msgs) {
			return bitwire.Frame{}, io.EOF
		}
		f, err := dec.DecodeFrame(msgs[i])
		i++
		if fe := (*bitwire.FrameError)(nil); errors.As(err, &fe) && fe.Kind == bitwire.FrameTrailingBytes && fe.Offset > 0 {
			// Bytes after a frame: the frame, then the error (§5).
			after = err
			return f, nil
		}
		return f, err
	})
	if err := g.check(c, end); err != nil {
		return err
	}
	if end != nil && g.err != nil {
		var index int
		if err := json.Unmarshal(end.Message, &index); err != nil || index != i-1 {
			return fmt.Errorf("failed in message %d, expected %s", i-1, end.Message)
		}
	}
	if err := overWebSocket(c, msgs, end); err != nil {
		return fmt.Errorf("over WebSocket: %w", err)
	}
	return encodeMessages(c, msgs, end)
}

// encodeFrames writes the case's frames with its settings, one slice per frame.
func encodeFrames(c frameCase, list []vectorFrame) ([][]byte, error) {
	enc := bitwire.NewFrameEncoder(c.config())
	var out [][]byte
	for _, f := range list {
		var b []byte
		var err error
		if f.Type == "" {
			data, herr := harness.Hex(f.Data)
			if herr != nil {
				return nil, herr
			}
			b, err = enc.AppendFrame(nil, f.ID, data)
		} else if f.Envelope != nil {
			data, herr := harness.Hex(f.Data)
			if herr != nil {
				return nil, herr
			}
			b, err = enc.AppendMessage(nil, &frames.WorldEnvelope{Envelope: baseline.Envelope{Data: data}})
		} else {
			codec, ok := harness.Find(registry.All(), "frames", f.Type)
			if !ok {
				return nil, fmt.Errorf("no generated type %s", f.Type)
			}
			v := codec.New()
			j, perr := bitwire.ParseJSON(f.Value)
			if perr != nil {
				return nil, perr
			}
			if err := v.FromJSON(j); err != nil {
				return nil, err
			}
			b, err = enc.AppendMessage(nil, v.(bitwire.Message))
		}
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// encodeStream checks the writer: exactly the stream up to where it ends (the whole
// stream, or up to the error's offset), or, for zlib streams, a round trip.
func encodeStream(c frameCase, stream []byte, end *frameEnd) error {
	written, err := encodeFrames(c, c.Frames)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	all := bytes.Join(written, nil)
	var viaWriter bytes.Buffer
	fw := bitwire.NewFrameWriter(&viaWriter, c.config())
	for _, f := range c.Frames {
		data, _ := harness.Hex(f.Data)
		if err := fw.WriteFrame(f.ID, data); err != nil {
			return fmt.Errorf("FrameWriter: %w", err)
		}
	}
	switch c.Encode {
	case "exact":
		want := stream
		if end != nil {
			want = stream[:end.Offset]
		}
		if !bytes.Equal(all, want) || !bytes.Equal(viaWriter.Bytes(), want) {
			return fmt.Errorf("encoded %x (FrameWriter %x), expected %x", all, viaWriter.Bytes(), want)
		}
	case "roundtrip":
		for _, b := range [][]byte{all, viaWriter.Bytes()} {
			fr := bitwire.NewFrameReader(bytes.NewReader(b), c.config())
			if err := collect(c, c.config().Normalized().Limits, fr.ReadFrame).check(c, nil); err != nil {
				return fmt.Errorf("written %x reads back: %w", b, err)
			}
		}
	default:
		return fmt.Errorf("unknown encode %q", c.Encode)
	}
	return nil
}

// encodeMessages checks the writer on a WebSocket case: its frames are the messages
// (up to the error's offset in the message that fails).
func encodeMessages(c frameCase, msgs [][]byte, end *frameEnd) error {
	written, err := encodeFrames(c, c.Frames)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	want := msgs
	if end != nil {
		var index int
		_ = json.Unmarshal(end.Message, &index)
		want = append(append([][]byte(nil), msgs[:index]...), msgs[index][:end.Offset])
	}
	if got, exp := bytes.Join(written, nil), bytes.Join(want, nil); !bytes.Equal(got, exp) {
		return fmt.Errorf("encoded %x, expected %x", got, exp)
	}
	for i, w := range written {
		if i < len(msgs) && end == nil && !bytes.Equal(w, msgs[i]) {
			return fmt.Errorf("message %d: %x, expected %x", i, w, msgs[i])
		}
	}
	return nil
}

// runWrite checks a writer case: writing the values fails with the expected kind.
func runWrite(c frameCase) error {
	_, err := encodeFrames(c, c.Write)
	var fe *bitwire.FrameError
	if !errors.As(err, &fe) || fe.Kind.String() != c.WriteError.Kind || fe.Offset != -1 {
		return fmt.Errorf("expected %s, got %v", c.WriteError.Kind, err)
	}
	return nil
}

func runFrameCase(c frameCase) error {
	if c.WriteError != nil {
		return runWrite(c)
	}
	end, err := c.end()
	if err != nil {
		return err
	}
	if c.Transport == "websocket" {
		return runWebSocket(c, end)
	}
	if c.Stream == nil {
		return errors.New("no stream")
	}
	return runStream(c, end)
}

func TestFrameVectors(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "vectors", "frames", "frames.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file framesFile
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	tally := newVectorTally(t)
	for _, c := range file.Cases {
		tally.record(t, c.ID, harness.Guard(func() error { return runFrameCase(c) }))
	}
	if len(file.Cases) < 60 {
		t.Errorf("only %d frame cases", len(file.Cases))
	}
	tally.report(t, "vectors frames", false)
}
