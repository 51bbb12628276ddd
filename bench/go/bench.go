package bench

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// DatasetSize is the number of packets the benchmarks cycle through (as in the Rust
// benchmark: 10,000, so the data stays in cache and the codec is what is measured).
const DatasetSize = 10_000

// Data is the dataset and its encoding, shared by every benchmark body.
type Data struct {
	Packets []game.Packet64
	// Wire holds the packets' 8-byte encodings back to back.
	Wire []byte
}

// NewData builds the dataset and checks that the generated and hand-written codecs
// produce the same bytes for every packet: a benchmark of two codecs that disagree
// would be meaningless.
func NewData(n int) (*Data, error) {
	d := &Data{Packets: Packet64(n)}
	var a, b []byte
	for i := range d.Packets {
		p := &d.Packets[i]
		var err error
		if a, err = p.AppendTo(a[:0]); err != nil {
			return nil, fmt.Errorf("packet %d out of range: %w", i, err)
		}
		b = HandEncode(p, b[:0])
		if !bytes.Equal(a, b) {
			return nil, fmt.Errorf("packet %d: generated % x, hand-written % x", i, a, b)
		}
		d.Wire = append(d.Wire, a...)
	}
	return d, nil
}

var sink uint64

// EncodeGenerated times the generated AppendTo into a reused buffer, one packet per op.
func (d *Data) EncodeGenerated(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 8)
	n := len(d.Packets)
	b.ResetTimer()
	for i, j := 0, 0; i < b.N; i++ {
		var err error
		if buf, err = d.Packets[j].AppendTo(buf[:0]); err != nil {
			b.Fatal(err)
		}
		if j++; j == n {
			j = 0
		}
	}
	sink += uint64(buf[0])
}

// EncodeHand times the hand-written encoder (masks instead of checking ranges).
func (d *Data) EncodeHand(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 8)
	n := len(d.Packets)
	b.ResetTimer()
	for i, j := 0, 0; i < b.N; i++ {
		buf = HandEncode(&d.Packets[j], buf[:0])
		if j++; j == n {
			j = 0
		}
	}
	sink += uint64(buf[0])
}

// EncodeHandChecked times the hand-written encoder with the range checks the
// generated code must do.
func (d *Data) EncodeHandChecked(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 8)
	n := len(d.Packets)
	b.ResetTimer()
	for i, j := 0, 0; i < b.N; i++ {
		var ok bool
		if buf, ok = HandEncodeChecked(&d.Packets[j], buf[:0]); !ok {
			b.Fatal("out of range")
		}
		if j++; j == n {
			j = 0
		}
	}
	sink += uint64(buf[0])
}

// DecodeGenerated times the generated Decode of one 8-byte packet per op, into a
// value on the stack.
func (d *Data) DecodeGenerated(b *testing.B) {
	b.ReportAllocs()
	n := len(d.Packets)
	b.ResetTimer()
	for i, j := 0, 0; i < b.N; i++ {
		var p game.Packet64
		if err := p.Decode(d.Wire[j*8 : j*8+8]); err != nil {
			b.Fatal(err)
		}
		sink += uint64(p.Score)
		if j++; j == n {
			j = 0
		}
	}
}

// DecodeHand times the hand-written decoder.
func (d *Data) DecodeHand(b *testing.B) {
	b.ReportAllocs()
	n := len(d.Packets)
	b.ResetTimer()
	for i, j := 0, 0; i < b.N; i++ {
		var p game.Packet64
		if !HandDecode(d.Wire[j*8:j*8+8], &p) {
			b.Fatal("bad length")
		}
		sink += uint64(p.Score)
		if j++; j == n {
			j = 0
		}
	}
}
