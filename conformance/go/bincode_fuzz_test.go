package conformance

import (
	"bytes"
	"math"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/gobincode"
	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// sampleEvery is a gobincode.Every holding something in every field (a NaN with a
// payload too: the bincode encoding keeps it).
func sampleEvery() *gobincode.Every {
	return &gobincode.Every{
		Flag: true, Tiny: 9, Neg: -2048, Level: 1000, Wide: math.MaxUint64, V: -7,
		Q: 0.25, D: math.Float64frombits(0x7ff0000000000abc), Team: gobincode.TeamSpectator,
		Maybe: bitwire.Some(gobincode.Vec3{X: 1, Y: -2, Z: 3.5}),
		Arr:   [3]int16{-1, 0, 1}, Raw: [4]byte{1, 2, 3, 4}, Lanes: [2]float64{math.Inf(-1), -0.0},
		Ids:    []uint32{1, 2, 3},
		Names:  []string{"ann", "", "bø"},
		Blob:   []byte{0xde, 0xad},
		Octets: []byte("octets"),
		Events: []gobincode.Event{
			{Tag: gobincode.EventChat, Chat: "gg"},
			{Tag: gobincode.EventKill, Kill: gobincode.Kill{Killer: 1, Victim: 2}},
			{Tag: gobincode.EventPing},
			{Tag: gobincode.EventMoves, Moves: []int16{-5, 5}},
		},
		Nested: [][]int8{{1, -1}, {}},
		Levels: []uint8{1, 5},
		Text:   "héllo",
	}
}

// bincodeNews are the types FuzzDecodeBincode decodes every input as, with their
// verifiers.
var bincodeNews = []struct {
	new    func() harness.BincodeValue
	verify func([]byte) error
}{
	{func() harness.BincodeValue { return new(gobincode.Every) }, gobincode.VerifyBincodeEvery},
	{func() harness.BincodeValue { return new(gobincode.Event) }, gobincode.VerifyBincodeEvent},
	{func() harness.BincodeValue { return new(gobincode.Pod) }, gobincode.VerifyBincodePod},
	{func() harness.BincodeValue { return new(gobincode.Team) }, gobincode.VerifyBincodeTeam},
}

// FuzzDecodeBincode decodes random bytes as each type of testdata/bincode/
// gobincode.bw with the bincode encoding (spec §13). A decoder must never panic; it
// must allocate within the decode budget for the input's length (spec §11.5, up to
// the allocator's rounding: budget_test.go) and VerifyBincodeX at most its error;
// VerifyBincodeX must agree with DecodeBincode (no error, or the same kind, bit,
// path and detail); and whatever decodes re-encodes to exactly the input (bincode
// has one encoding of each value, NaN payloads kept), also after decoding it again
// into the same (reused) value.
func FuzzDecodeBincode(f *testing.F) {
	for _, v := range []harness.BincodeValue{
		sampleEvery(), &gobincode.Pod{Values: []uint64{1, 2, math.MaxUint64}},
		&gobincode.Event{Tag: gobincode.EventMoves, Moves: []int16{1}}, new(gobincode.Team),
	} {
		b, err := v.AppendBincode(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xff}, 24))
	f.Fuzz(func(t *testing.T, data []byte) {
		bound := roundingBound(bitwire.DefaultLimits().Budget(len(data)))
		for _, c := range bincodeNews {
			v := c.new()
			var err error
			if alloc := allocated(func() { err = v.DecodeBincode(data) }); alloc > bound {
				t.Fatalf("%T on %d bytes allocated %d, bound %d", v, len(data), alloc, bound)
			}
			var verr error
			if alloc := leastAllocated(func() { verr = c.verify(data) }, 3); alloc > 4<<10 {
				t.Fatalf("%T: VerifyBincode on %d bytes allocated %d", v, len(data), alloc)
			}
			if !sameBincodeVerdict(verr, err) {
				t.Fatalf("%T on % x: VerifyBincode gave %v, DecodeBincode %v", v, data, verr, err)
			}
			if err != nil {
				continue
			}
			out, err := v.AppendBincode(nil)
			if err != nil {
				t.Fatalf("%T decoded % x but does not encode: %v", v, data, err)
			}
			if !bytes.Equal(out, data) {
				t.Fatalf("%T: decode → encode gave % x, want % x", v, out, data)
			}
			if err := v.DecodeBincode(data); err != nil {
				t.Fatalf("%T: decoding again into the same value failed: %v", v, err)
			}
			if again, _ := v.AppendBincode(nil); !bytes.Equal(again, data) {
				t.Fatalf("%T: decoding into a reused value changed it: % x", v, again)
			}
		}
	})
}

// sameBincodeVerdict reports whether got and want are both nil or both errors with
// the same text (kind, bit, path and detail; a NaN in a detail is not equal to
// itself, so details compare as text).
func sameBincodeVerdict(got, want error) bool {
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	return got.Error() == want.Error()
}

func TestBincodeIntoReusedBuffersAllocatesNothing(t *testing.T) {
	for _, v := range []harness.BincodeValue{sampleEvery(), &gobincode.Pod{Values: make([]uint64, 1000)}} {
		buf := make([]byte, 0, 64<<10)
		var wire []byte
		allocs := testing.AllocsPerRun(200, func() {
			var err error
			if wire, err = v.AppendBincode(buf[:0]); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%T: AppendBincode into a reused buffer: %v allocs/op", v, allocs)
		}
		if err := v.DecodeBincode(wire); err != nil {
			t.Fatal(err)
		}
		allocs = testing.AllocsPerRun(200, func() {
			if err := v.DecodeBincode(wire); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%T: DecodeBincode into a reused value: %v allocs/op", v, allocs)
		}
		t.Logf("%T: %d bytes, 0 allocs/op both ways", v, len(wire))
	}
}
