package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/registry"
	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// The delta vectors (testdata/vectors/delta/*.json, spec §12): the cases of
// testdata/vectors/README.md plus the baseline each is encoded against.

type deltaCase struct {
	vectorCase
	Baseline json.RawMessage `json:"baseline"`
}

type deltaSuite struct {
	Suite string      `json:"suite"`
	Cases []deltaCase `json:"cases"`
}

// fromJSON maps JSON text onto a new value of c's type.
func fromJSON(c harness.Codec, text []byte) (harness.Value, error) {
	v := c.New()
	j, err := bitwire.ParseJSON(text)
	if err != nil {
		return nil, err
	}
	if err := v.FromJSON(j); err != nil {
		return nil, err
	}
	return v, nil
}

// fullNormalize returns the JSON text of v after its full encoding and decoding:
// what a delta decoder must give (quantized floats on their grid).
func fullNormalize(c harness.Codec, v harness.Value) (string, error) {
	b, err := v.AppendTo(nil)
	if err != nil {
		return "", err
	}
	return harness.DecodeInto(c.New(), b)
}

// deltaRunner runs delta cases; reused holds one value per type that every valid
// case is also decoded into (capacity reuse across cases and types of lists).
type deltaRunner struct {
	codecs []harness.Codec
	deltas []harness.DeltaCodec
	reused map[string]harness.Value
}

func (rn *deltaRunner) find(suite, typ string) (harness.Codec, harness.DeltaCodec, error) {
	c, ok := harness.Find(rn.codecs, suite, typ)
	for _, d := range rn.deltas {
		if ok && d.Suite == suite && d.Type == typ {
			return c, d, nil
		}
	}
	return c, harness.DeltaCodec{}, fmt.Errorf("no generated delta message %s.%s", suite, typ)
}

func (rn *deltaRunner) run(suite string, c deltaCase) error {
	codec, dc, err := rn.find(suite, c.Type)
	if err != nil {
		return err
	}
	var want []byte
	if c.Bytes != nil {
		if want, err = harness.Hex(*c.Bytes); err != nil {
			return fmt.Errorf("bad hex: %w", err)
		}
	}
	base, err := fromJSON(codec, c.Baseline)
	if err != nil {
		if c.Result == "invalid" && c.Error != nil && c.Bytes == nil {
			// A baseline the Go type cannot hold: the error of mapping it.
			return harness.CheckError(err, *c.Error)
		}
		return fmt.Errorf("baseline: %w", err)
	}
	switch {
	case (c.Result == "valid" || c.Result == "encodes") && len(c.Value) > 0 && c.Bytes != nil:
		return rn.valid(codec, dc, c, base, want)
	case c.Result == "invalid" && c.Bytes != nil && c.Error != nil:
		err := dc.DecodeDelta(codec.New(), base, want)
		if err == nil {
			return fmt.Errorf("decoded invalid delta %s", *c.Bytes)
		}
		if err := harness.CheckError(err, *c.Error); err != nil {
			return err
		}
		return harness.CheckVerify(func(b []byte) error { return dc.Verify(base, b) }, want, err)
	case c.Result == "invalid" && len(c.Value) > 0 && c.Error != nil:
		v, err := fromJSON(codec, c.Value)
		if err != nil {
			return harness.CheckError(err, *c.Error)
		}
		out, err := dc.AppendDelta(v, base, []byte{0xAA})
		if err == nil {
			return fmt.Errorf("encoded an invalid delta: %x", out)
		}
		if len(out) != 1 || out[0] != 0xAA {
			return fmt.Errorf("a failed AppendDelta changed the buffer to % x", out)
		}
		return harness.CheckError(err, *c.Error)
	}
	return fmt.Errorf("malformed case (result %q)", c.Result)
}

// valid checks a valid or encodes case: the bytes (AppendDelta after what a slice
// holds, and EncodeDelta), then, for valid cases, the decoded value (into a new
// value, a reused one and the baseline itself), Verify and the re-encoding.
func (rn *deltaRunner) valid(codec harness.Codec, dc harness.DeltaCodec, c deltaCase, base harness.Value, want []byte) error {
	v, err := fromJSON(codec, c.Value)
	if err != nil {
		return fmt.Errorf("value: %w", err)
	}
	got, err := dc.AppendDelta(v, base, []byte{0xAA, 0xBB})
	if err != nil {
		return fmt.Errorf("AppendDelta failed: %w", err)
	}
	if !bytes.Equal(got[2:], want) || got[0] != 0xAA || got[1] != 0xBB {
		return fmt.Errorf("AppendDelta gave %s, expected %s", harness.ToHex(got), *c.Bytes)
	}
	if enc, err := dc.EncodeDelta(v, base); err != nil || !bytes.Equal(enc, want) {
		return fmt.Errorf("EncodeDelta gave %x, %v", enc, err)
	}
	if c.Result == "encodes" {
		return nil
	}
	norm, err := fullNormalize(codec, v)
	if err != nil {
		return err
	}
	baseJSON, _ := base.AppendJSON(nil)
	key := c.Type
	if rn.reused[key] == nil {
		rn.reused[key] = codec.New()
	}
	into := map[string]func() harness.Value{
		"a new value":     codec.New,
		"a reused value":  func() harness.Value { return rn.reused[key] },
		"the baseline":    func() harness.Value { return base },
		"a fresh, limits": codec.New,
	}
	for _, name := range []string{"a new value", "a reused value", "a fresh, limits", "the baseline"} {
		m := into[name]()
		var err error
		if name == "a fresh, limits" {
			err = dc.DecodeDeltaWithLimits(m, base, want, bitwire.DefaultLimits())
		} else {
			err = dc.DecodeDelta(m, base, want)
		}
		if err != nil {
			return fmt.Errorf("DecodeDelta into %s failed: %w", name, err)
		}
		out, err := m.AppendJSON(nil)
		if err != nil || string(out) != norm {
			return fmt.Errorf("DecodeDelta into %s gave %s, expected %s (%v)", name, out, norm, err)
		}
		if name == "the baseline" {
			break
		}
		// The baseline is left as it was, and the result re-encodes to the bytes.
		if after, _ := base.AppendJSON(nil); !bytes.Equal(after, baseJSON) {
			return fmt.Errorf("DecodeDelta changed the baseline to %s", after)
		}
		if again, err := dc.AppendDelta(m, base, nil); err != nil || !bytes.Equal(again, want) {
			return fmt.Errorf("the decoded value re-encodes to %x, %v", again, err)
		}
	}
	if err := dc.Verify(codec.New(), nil); err == nil && len(want) > 0 {
		// (Only a sanity check of the harness: an empty delta of a message with fields
		// is Truncated.)
		return fmt.Errorf("Verify accepted an empty delta")
	}
	base2, _ := fromJSON(codec, c.Baseline)
	return dc.Verify(base2, want)
}

func TestDeltaVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "vectors", "delta", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no delta vector suites found: %v", err)
	}
	sort.Strings(files)
	tally := newVectorTally(t)
	rn := &deltaRunner{codecs: registry.All(), deltas: registry.Deltas(), reused: map[string]harness.Value{}}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var s deltaSuite
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, c := range s.Cases {
			tally.record(t, c.ID, harness.Guard(func() error { return rn.run(s.Suite, c) }))
		}
	}
	tally.report(t, "vectors delta", false)
}
