package bench

import (
	"hash/fnv"
	"testing"

	"github.com/bitwire-dev/bitwire/examples/go/game"
)

func data(tb testing.TB) *Data {
	d, err := NewData(DatasetSize)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func BenchmarkPacket64EncodeGenerated(b *testing.B)   { data(b).EncodeGenerated(b) }
func BenchmarkPacket64EncodeHand(b *testing.B)        { data(b).EncodeHand(b) }
func BenchmarkPacket64EncodeHandChecked(b *testing.B) { data(b).EncodeHandChecked(b) }
func BenchmarkPacket64DecodeGenerated(b *testing.B)   { data(b).DecodeGenerated(b) }
func BenchmarkPacket64DecodeHand(b *testing.B)        { data(b).DecodeHand(b) }

// The encoding.BinaryAppender method: AppendTo under the standard name, called
// directly (the forwarding inlines) and through an interface, as generic code calls it.
func BenchmarkPacket64AppendBinary(b *testing.B) {
	d := data(b)
	appendBinary(b, len(d.Packets), func(j int, buf []byte) ([]byte, error) {
		return d.Packets[j].AppendBinary(buf)
	})
}

func BenchmarkPacket64AppendBinaryInterface(b *testing.B) {
	d := data(b)
	values := make([]interface{ AppendBinary([]byte) ([]byte, error) }, len(d.Packets))
	for i := range d.Packets {
		values[i] = &d.Packets[i]
	}
	appendBinary(b, len(values), func(j int, buf []byte) ([]byte, error) {
		return values[j].AppendBinary(buf)
	})
}

func appendBinary(b *testing.B, n int, enc func(j int, buf []byte) ([]byte, error)) {
	b.ReportAllocs()
	buf := make([]byte, 0, 8)
	b.ResetTimer()
	for i, j := 0, 0; i < b.N; i++ {
		var err error
		if buf, err = enc(j, buf[:0]); err != nil {
			b.Fatal(err)
		}
		if j++; j == n {
			j = 0
		}
	}
	sink += uint64(buf[0])
}

// rustFNV is the FNV-1a 64 hash of the encodings of the first 100,000 packets of
// the Rust generator (bench/rust/src/dataset.rs), computed once with the Rust code.
const rustFNV = 0x3a7dff2690f57775

// The Go dataset must be the Rust dataset, value for value.
func TestDatasetMatchesRust(t *testing.T) {
	d, err := NewData(100_000)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	h.Write(d.Wire)
	if got := h.Sum64(); got != rustFNV {
		t.Fatalf("dataset hash %#x, Rust's is %#x", got, uint64(rustFNV))
	}
}

// Generated and hand-written codecs agree on every packet, both ways.
func TestSameBytesBothWays(t *testing.T) {
	d := data(t)
	for i := range d.Packets {
		var g, h game.Packet64
		if !HandDecode(d.Wire[i*8:i*8+8], &h) || g.Decode(d.Wire[i*8:i*8+8]) != nil || g != h || g != d.Packets[i] {
			t.Fatalf("packet %d: generated %+v, hand-written %+v", i, g, h)
		}
	}
}

func snapshotBench(b *testing.B, n int) *SnapshotBench {
	s, err := NewSnapshotBench(n)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func BenchmarkPacket64VerifyGenerated(b *testing.B) { data(b).VerifyGenerated(b) }
func BenchmarkDecodeSnapshot16(b *testing.B)        { snapshotBench(b, 16).Decode(b) }
func BenchmarkVerifySnapshot16(b *testing.B)        { snapshotBench(b, 16).Verify(b) }
func BenchmarkDecodeSnapshot64(b *testing.B)        { snapshotBench(b, 64).Decode(b) }
func BenchmarkVerifySnapshot64(b *testing.B)        { snapshotBench(b, 64).Verify(b) }

// The benchmark snapshots round-trip and Verify accepts them.
func TestSnapshotsVerify(t *testing.T) {
	for _, n := range []int{0, 1, 16, 64} {
		b, err := Snapshot(n).Encode()
		if err != nil {
			t.Fatal(n, err)
		}
		var m game.Snapshot
		if err := m.Decode(b); err != nil || len(m.Entities) != n {
			t.Fatalf("%d: %v", n, err)
		}
		if err := game.VerifySnapshot(b); err != nil {
			t.Fatalf("%d: %v", n, err)
		}
	}
}
