package baseline_test

import (
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/baseline"
)

// u32List is the test codec of testdata/vectors/envelope/README.md: a list of at most
// 255 uint32, whose "delta" is each value's difference from the baseline's. It only
// stands in for a generated delta message in these tests (spec §12 is the real delta
// encoding); the same codec exists in the Rust and TypeScript tests.
type u32List []uint32

// appendList appends the count, then each value as 32 bits.
func appendList(dst []byte, values []uint32) ([]byte, error) {
	if len(values) > 255 {
		return dst, bitwire.LengthError(0, uint64(len(values)), 255)
	}
	w := bitwire.NewBitWriter(dst)
	w.WriteBits(uint64(len(values)), 8)
	for _, v := range values {
		w.WriteBits(uint64(v), 32)
	}
	return w.Finish(), nil
}

// readList decodes the whole of data as a count and that many 32-bit values.
func readList(data []byte, limits bitwire.Limits) ([]uint32, error) {
	r := bitwire.NewBitReaderWithLimits(data, limits)
	n, err := r.ReadBits(8)
	if err != nil {
		return nil, err
	}
	values := make([]uint32, n)
	for i := range values {
		v, err := r.ReadBits(32)
		if err != nil {
			return nil, err
		}
		values[i] = uint32(v)
	}
	return values, r.Finish()
}

func baseAt(base *u32List, i int) uint32 {
	if i < len(*base) {
		return (*base)[i]
	}
	return 0
}

// listCodec is the test codec as a baseline.Codec.
var listCodec = baseline.Codec[u32List]{
	Append: func(v *u32List, dst []byte) ([]byte, error) { return appendList(dst, *v) },
	AppendDelta: func(v *u32List, dst []byte, base *u32List) ([]byte, error) {
		diffs := make([]uint32, len(*v))
		for i, x := range *v {
			diffs[i] = x - baseAt(base, i)
		}
		return appendList(dst, diffs)
	},
	Decode: func(v *u32List, data []byte, limits bitwire.Limits) error {
		values, err := readList(data, limits)
		if err == nil {
			*v = values
		}
		return err
	},
	DecodeDelta: func(v, base *u32List, data []byte, limits bitwire.Limits) error {
		diffs, err := readList(data, limits)
		if err != nil {
			return err
		}
		for i := range diffs {
			diffs[i] += baseAt(base, i)
		}
		*v = diffs
		return nil
	},
}
