package conformance

import (
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/gobincode"
)

// BenchmarkBincodePod moves the plain-data case, a list<u64> of 8 Mi
// elements (64 MiB), through the generated bincode codec of testdata/bincode/
// gobincode.bw, against a plain copy of the same bytes in the same run:
// AppendBincode into a reused buffer and DecodeBincode into a reused value (both
// one copy of the elements on a little-endian host; decoding from aligned and from
// unaligned input, each against a copy of the same input), and, for comparison,
// both into fresh memory. The numbers are for reading, never asserted:
//
//	go test -run '^$' -bench BincodePod -benchtime 20x .
func BenchmarkBincodePod(b *testing.B) {
	const n = 8 << 20
	pod := gobincode.Pod{Values: make([]uint64, n)}
	for i := range pod.Values {
		pod.Values[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	wire, err := pod.EncodeBincode()
	if err != nil {
		b.Fatal(err)
	}
	size := int64(len(wire))
	// Every buffer is written once before it is timed: the first touch of fresh
	// memory is page faults, which belong to the "fresh" cases only.
	buf := append(make([]byte, 0, len(wire)), wire...)
	copied := append([]byte(nil), wire...)
	into := gobincode.Pod{Values: make([]uint64, 0, n)}
	if err := into.DecodeBincode(wire); err != nil {
		b.Fatal(err)
	}
	b.Run("memcpy", func(b *testing.B) {
		b.SetBytes(size)
		for range b.N {
			copy(copied, wire)
		}
	})
	b.Run("AppendBincode/reuse", func(b *testing.B) {
		b.SetBytes(size)
		for range b.N {
			if buf, err = pod.AppendBincode(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DecodeBincode/reuse", func(b *testing.B) {
		b.SetBytes(size)
		for range b.N {
			if err := into.DecodeBincode(wire); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same bytes one byte into their allocation: the elements unaligned.
	unaligned := append([]byte{0}, wire...)[1:]
	b.Run("memcpy-unaligned", func(b *testing.B) {
		b.SetBytes(size)
		for range b.N {
			copy(copied, unaligned)
		}
	})
	b.Run("DecodeBincode/reuse-unaligned", func(b *testing.B) {
		b.SetBytes(size)
		for range b.N {
			if err := into.DecodeBincode(unaligned); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("EncodeBincode/fresh", func(b *testing.B) {
		b.SetBytes(size)
		for range b.N {
			if _, err := pod.EncodeBincode(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DecodeBincode/fresh", func(b *testing.B) {
		b.SetBytes(size)
		for range b.N {
			var fresh gobincode.Pod
			if err := fresh.DecodeBincode(wire); err != nil {
				b.Fatal(err)
			}
		}
	})
}
