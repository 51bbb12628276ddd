package bitwire

import (
	"bytes"
	"compress/zlib"
	hexenc "encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hexenc.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The VarInt examples of docs/framing.md §1.
func TestVarInt(t *testing.T) {
	for _, c := range []struct {
		v   uint32
		hex string
	}{{0, "00"}, {1, "01"}, {127, "7f"}, {128, "8001"}, {300, "ac02"}, {2097151, "ffff7f"}, {1<<31 - 1, "ffffffff07"}} {
		b := appendVarInt(nil, c.v)
		if hexenc.EncodeToString(b) != c.hex || varIntLen(c.v) != len(b) {
			t.Errorf("%d: got %x (len %d), want %s", c.v, b, varIntLen(c.v), c.hex)
		}
		v, n, kind := parseVarInt(append(b, 0xaa))
		if v != c.v || n != len(b) || kind != 0 {
			t.Errorf("parse %s: %d %d %v", c.hex, v, n, kind)
		}
	}
	for _, c := range []struct {
		hex  string
		kind FrameKind
	}{
		{"8080808080", FrameVarIntTooLong}, {"ffffffff08", FrameVarIntTooLong}, {"8000", FrameNonMinimalVarInt},
		{"818000", FrameNonMinimalVarInt}, {"8080808000", FrameNonMinimalVarInt}, {"", FrameTruncated}, {"8080", FrameTruncated},
	} {
		if _, _, kind := parseVarInt(unhex(t, c.hex)); kind != c.kind {
			t.Errorf("parse %s: %v, want %v", c.hex, kind, c.kind)
		}
	}
}

// §8: Packet64's S = 01 a5 2b ca 0e 4b 40 e2 04 in each framing.
func TestEncoderExamples(t *testing.T) {
	data := unhex(t, "a52bca0e4b40e204")
	for _, c := range []struct {
		cfg  FrameConfig
		want string
	}{
		{FrameConfig{}, "0901a52bca0e4b40e204"},
		{FrameConfig{Compression: true, Threshold: 256}, "0a0001a52bca0e4b40e204"},
		{FrameConfig{Compression: true, Threshold: 10}, "0a0001a52bca0e4b40e204"},
	} {
		got, err := NewFrameEncoder(c.cfg).AppendFrame([]byte{0xee}, 1, data)
		if err != nil || hexenc.EncodeToString(got) != "ee"+c.want {
			t.Errorf("%+v: %x %v, want ee%s", c.cfg, got, err, c.want)
		}
	}
	// Compressed (n = 9 ≥ T): PacketLength, DataLength 9, a zlib stream of S.
	for _, threshold := range []int{0, 9} {
		got, err := NewFrameEncoder(FrameConfig{Compression: true, Threshold: threshold}).AppendFrame(nil, 1, data)
		if err != nil || int(got[0]) != len(got)-1 || got[1] != 9 {
			t.Fatalf("T=%d: %x %v", threshold, got, err)
		}
		zr, err := zlib.NewReader(bytes.NewReader(got[2:]))
		if err != nil {
			t.Fatal(err)
		}
		s, err := io.ReadAll(zr)
		if err != nil || hexenc.EncodeToString(s) != "01a52bca0e4b40e204" {
			t.Errorf("T=%d: inflates to %x %v", threshold, s, err)
		}
	}
}

// The longest Length a frame can have, and one byte more.
func TestEncoderLimits(t *testing.T) {
	enc := NewFrameEncoder(FrameConfig{})
	big := make([]byte, MaxFrameLimit-1)
	got, err := enc.AppendFrame(nil, 0, big)
	if err != nil || hexenc.EncodeToString(got[:4]) != "ffff7f00" || len(got) != MaxFrameLimit+3 {
		t.Fatalf("largest frame: %x… %v", got[:4], err)
	}
	prefix := []byte{1, 2}
	got, err = enc.AppendFrame(prefix, 0, append(big, 0))
	var fe *FrameError
	if !errors.As(err, &fe) || fe.Kind != FrameTooLarge || fe.Length != MaxFrameLimit+1 || fe.Offset != -1 || !bytes.Equal(got, prefix) {
		t.Fatalf("one byte more: %v, %x", err, got)
	}
	if _, err := enc.AppendFrame(nil, 1<<31, nil); !errors.Is(err, ErrFrameVarIntTooLong) {
		t.Errorf("id 2^31: %v", err)
	}
	small := NewFrameEncoder(FrameConfig{Compression: true, MaxData: 8})
	if _, err := small.AppendFrame(nil, 0, make([]byte, 8)); !errors.Is(err, ErrFrameDataTooLarge) {
		t.Errorf("body above MaxData: %v", err)
	}
}

// chunkings returns readers of b that deliver it whole, one byte at a time, in
// halves and in chunks of 3 and 7 bytes.
func chunkings(b []byte) map[string]io.Reader {
	return map[string]io.Reader{
		"whole":    bytes.NewReader(b),
		"one byte": iotest.OneByteReader(bytes.NewReader(b)),
		"half":     iotest.HalfReader(bytes.NewReader(b)),
		"3":        &chunkReader{b: b, n: 3},
		"7 + EOF":  iotest.DataErrReader(&chunkReader{b: b, n: 7}),
	}
}

type chunkReader struct {
	b []byte
	n int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.n)], r.b)
	r.b = r.b[n:]
	return n, nil
}

func TestReaderChunkings(t *testing.T) {
	enc := NewFrameEncoder(FrameConfig{Compression: true, Threshold: 64})
	var stream []byte
	var want [][]byte
	for i, size := range []int{0, 1, 63, 64, 5000, 70000} {
		data := bytes.Repeat([]byte{byte(i), 7}, size/2+1)[:size]
		var err error
		if stream, err = enc.AppendFrame(stream, uint32(i*1000), data); err != nil {
			t.Fatal(err)
		}
		want = append(want, data)
	}
	for name, r := range chunkings(stream) {
		fr := NewFrameReader(r, FrameConfig{Compression: true, Threshold: 64})
		for i, data := range want {
			f, err := fr.ReadFrame()
			if err != nil || f.ID != uint32(i*1000) || !bytes.Equal(f.Data, data) {
				t.Fatalf("%s: frame %d: id %d, %d bytes, %v", name, i, f.ID, len(f.Data), err)
			}
		}
		if _, err := fr.ReadFrame(); err != io.EOF {
			t.Errorf("%s: end: %v", name, err)
		}
		if fr.Offset() != int64(len(stream)) || fr.InFrame() {
			t.Errorf("%s: offset %d of %d", name, fr.Offset(), len(stream))
		}
	}
}

func TestReaderErrorsAreFinal(t *testing.T) {
	fr := NewFrameReader(bytes.NewReader(unhex(t, "0100 00 0100")), FrameConfig{})
	if f, err := fr.ReadFrame(); err != nil || f.ID != 0 {
		t.Fatal(f, err)
	}
	for i := 0; i < 2; i++ {
		_, err := fr.ReadFrame()
		var fe *FrameError
		if !errors.As(err, &fe) || fe.Kind != FrameZeroLength || fe.Offset != 2 {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	// Another reader's error passes through unchanged.
	boom := errors.New("boom")
	fr = NewFrameReader(iotest.ErrReader(boom), FrameConfig{})
	if _, err := fr.ReadFrame(); err != boom {
		t.Errorf("reader error: %v", err)
	}
}

// A peer that announces a 2 MB frame and sends a few bytes costs the reader about
// its buffer, not 2 MB; the frame is Truncated at its offset.
func TestReaderGrowsWithTheBody(t *testing.T) {
	stream := append(unhex(t, "ffff7f"), make([]byte, 10000)...)
	fr := NewFrameReader(&chunkReader{b: stream, n: 1000}, FrameConfig{})
	_, err := fr.ReadFrame()
	var fe *FrameError
	if !errors.As(err, &fe) || fe.Kind != FrameTruncated || fe.Length != MaxFrameLimit {
		t.Fatalf("%v", err)
	}
	if cap(fr.body) > 16384 {
		t.Errorf("buffered %d bytes for 10000 received", cap(fr.body))
	}
}

// A 1 KB zlib stream of 1 MiB of zeros under a DataLength of 1000 is SizeMismatch
// after 1001 bytes of output.
func TestZlibBomb(t *testing.T) {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(make([]byte, 1<<20))
	_ = zw.Close()
	body := append(appendVarInt(nil, 1000), z.Bytes()...)
	frame := append(appendVarInt(nil, uint32(len(body))), body...)
	d := NewFrameDecoder(FrameConfig{Compression: true, Threshold: 256})
	_, err := d.DecodeFrame(frame)
	var fe *FrameError
	if !errors.As(err, &fe) || fe.Kind != FrameSizeMismatch || fe.Inflated != 1001 {
		t.Fatalf("%v", err)
	}
	if cap(d.out) != 1001 {
		t.Errorf("inflate buffer of %d bytes", cap(d.out))
	}
}

// One frame per WebSocket message (§5).
func TestDecodeFrameWholeMessage(t *testing.T) {
	d := NewFrameDecoder(FrameConfig{})
	for _, c := range []struct {
		hex    string
		kind   FrameKind
		offset int64
	}{
		{"0901a52bca0e4b40e204", 0, 0},
		{"0901a52bca0e4b40e2040100", FrameTrailingBytes, 10},
		{"0901a52bca", FrameTruncated, 0},
		{"", FrameTruncated, 0},
		{"ffffff", FrameLengthTooWide, 0},
	} {
		f, err := d.DecodeFrame(unhex(t, c.hex))
		var fe *FrameError
		switch {
		case (c.kind == 0 || c.kind == FrameTrailingBytes) && (f.ID != 1 || len(f.Data) != 8):
			t.Errorf("%s: %v, the frame is missing", c.hex, f)
		case c.kind == 0 && err != nil:
			t.Errorf("%s: %v %v", c.hex, f, err)
		case c.kind != 0 && (!errors.As(err, &fe) || fe.Kind != c.kind || fe.Offset != c.offset):
			t.Errorf("%s: %v, want %v at %d", c.hex, err, c.kind, c.offset)
		}
	}
}

func TestFrameErrorMatching(t *testing.T) {
	packed := NewError(OutOfRange, 3)
	err := error(&FrameError{Kind: FrameMessage, Offset: 7, MessageID: 2, Err: packed})
	for _, target := range []error{ErrBitwire, ErrFrame, ErrFrameMessage, ErrOutOfRange} {
		if !errors.Is(err, target) {
			t.Errorf("does not match %v", target)
		}
	}
	if errors.Is(err, ErrFrameTruncated) || errors.Is(ErrFrameTooLarge, ErrTruncated) {
		t.Error("matches another kind")
	}
	var pe *Error
	if !errors.As(err, &pe) || pe != packed {
		t.Error("errors.As does not find the packed error")
	}
	want := "bitwire: frame at byte 7: Message: message id 2: bitwire: OutOfRange at bit 3"
	if err.Error() != want {
		t.Errorf("%q", err.Error())
	}
	tooLarge := &FrameError{Kind: FrameTooLarge, Offset: -1, Length: 1025, Max: 1024}
	if tooLarge.Error() != "bitwire: frame: FrameTooLarge: length 1025, at most 1024" {
		t.Errorf("%q", tooLarge.Error())
	}
	for k := FrameTruncated; k <= FrameMessage; k++ {
		if got, ok := FrameKindByName(k.String()); !ok || got != k || !errors.Is(&FrameError{Kind: k}, k.Sentinel()) {
			t.Errorf("kind %v", k)
		}
	}
}

// loopReader serves the same bytes forever.
type loopReader struct {
	b   []byte
	off int
}

func (r *loopReader) Read(p []byte) (int, error) {
	n := copy(p, r.b[r.off:])
	r.off = (r.off + n) % len(r.b)
	return n, nil
}

// Writing into a reused buffer and reading from a stream allocate nothing, with and
// without compression (the zlib state is pooled; the buffers are reused).
func TestFramesAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop its items")
	}
	data := bytes.Repeat([]byte("bitwire "), 40)
	for _, cfg := range []FrameConfig{{}, {Compression: true, Threshold: 256}, {Compression: true, Threshold: 16}} {
		enc := NewFrameEncoder(cfg)
		buf, err := enc.AppendFrame(nil, 5, data)
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { buf, _ = enc.AppendFrame(buf[:0], 5, data) }); n != 0 {
			t.Errorf("%+v: AppendFrame: %v allocs", cfg, n)
		}
		fr := NewFrameReader(&loopReader{b: append([]byte(nil), buf...)}, cfg)
		if n := testing.AllocsPerRun(100, func() {
			if f, err := fr.ReadFrame(); err != nil || !bytes.Equal(f.Data, data) {
				t.Fatal(f, err)
			}
		}); n != 0 {
			t.Errorf("%+v: ReadFrame: %v allocs", cfg, n)
		}
	}
}
