package conformance

import (
	"bytes"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/game"
	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// FuzzDecodeGame decodes random bytes as each message of examples/game.bw. A decoder
// must never panic; it must allocate within the decode budget for the input's
// length (spec §11, up to the allocator's rounding: budget_test.go) and Verify at
// most its error; Verify must agree with Decode (no error, or the same kind, bit,
// path and detail); and the packed encoding is canonical (spec §2.4): whatever
// decodes re-encodes to exactly the input, and decoding it again into the same
// (reused) value gives the same value.
func FuzzDecodeGame(f *testing.F) {
	for _, m := range []message{samplePacket(), sampleInput(), sampleSnapshot(), sampleEvents(), sampleProfiles()} {
		b, err := m.AppendTo(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	news := []func() message{
		func() message { return new(game.Packet64) },
		func() message { return new(game.Input) },
		func() message { return new(game.Snapshot) },
		func() message { return new(game.Events) },
		func() message { return new(game.Profiles) },
	}
	verifies := []func([]byte) error{game.VerifyPacket64, game.VerifyInput, game.VerifySnapshot, game.VerifyEvents,
		game.VerifyProfiles}
	f.Fuzz(func(t *testing.T, data []byte) {
		bound := roundingBound(bitwire.DefaultLimits().Budget(len(data)))
		for k, newMsg := range news {
			m := newMsg()
			var err error
			if alloc := allocated(func() { err = m.Decode(data) }); alloc > bound {
				t.Fatalf("%T on %d bytes allocated %d, bound %d", m, len(data), alloc, bound)
			}
			// Verify gives Decode's verdict: nil, or the same kind, bit and path.
			var verr error
			if alloc := leastAllocated(func() { verr = harness.CheckVerify(verifies[k], data, err) }, 3); alloc > 4<<10 {
				t.Fatalf("%T: Verify on %d bytes allocated %d", m, len(data), alloc)
			}
			if verr != nil {
				t.Fatalf("%T on % x: %v", m, data, verr)
			}
			if err != nil {
				continue
			}
			out, err := m.AppendTo(nil)
			if err != nil {
				t.Fatalf("%T decoded % x but does not encode: %v", m, data, err)
			}
			if !bytes.Equal(out, data) {
				t.Fatalf("%T: decode → encode gave % x, want % x", m, out, data)
			}
			if err := m.Decode(data); err != nil {
				t.Fatalf("%T: decoding again into the same value failed: %v", m, err)
			}
			again, _ := m.AppendTo(nil)
			if !bytes.Equal(again, data) {
				t.Fatalf("%T: decoding into a reused value changed it: % x", m, again)
			}
		}
	})
}
