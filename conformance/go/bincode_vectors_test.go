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
)

// bincodeSuite is a bincode vector file (testdata/vectors/bincode/README.md): the
// case format of the packed vectors with "encoding": "bincode" and one more result,
// "decodes".
type bincodeSuite struct {
	Suite    string       `json:"suite"`
	Encoding string       `json:"encoding"`
	Cases    []vectorCase `json:"cases"`
}

// bincodeRunner runs bincode cases; reused holds one value per type that every
// case of that type is also decoded into (stale contents, reused capacity).
type bincodeRunner struct {
	codecs []harness.BincodeCodec
	reused map[string]harness.BincodeValue
}

// run runs one case of suite through the generated bincode code.
func (rn *bincodeRunner) run(suite string, c vectorCase) error {
	codec, ok := harness.FindBincode(rn.codecs, suite, c.Type)
	if !ok {
		return fmt.Errorf("no generated bincode type %s.%s", suite, c.Type)
	}
	var want []byte
	if c.Bytes != nil {
		b, err := harness.Hex(*c.Bytes)
		if err != nil {
			return fmt.Errorf("bad hex: %w", err)
		}
		want = b
	}
	key := suite + "." + c.Type
	if rn.reused[key] == nil {
		rn.reused[key] = codec.New()
	}
	reused := rn.reused[key]
	hasValue := len(c.Value) > 0
	switch {
	case (c.Result == "valid" || c.Result == "encodes") && hasValue && c.Bytes != nil:
		v, err := harness.FromJSONValue(codec, c.Value)
		if err != nil {
			return fmt.Errorf("FromJSON failed: %w", err)
		}
		got, err := harness.EncodeBincode(v)
		if err != nil {
			return fmt.Errorf("encode failed: %w", err)
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("encoded %s, expected %s", harness.ToHex(got), *c.Bytes)
		}
		if c.Result == "encodes" {
			return nil
		}
		return rn.decodes(codec, c, want, reused)
	case c.Result == "decodes" && hasValue && c.Bytes != nil:
		return rn.decodes(codec, c, want, reused)
	case c.Result == "invalid" && c.Bytes != nil && c.Error != nil:
		v, err := harness.DecodeBincodeJSON(codec.New(), want)
		if err == nil {
			return fmt.Errorf("decoded %s from invalid input", v)
		}
		if err := harness.CheckError(err, *c.Error); err != nil {
			return err
		}
		return harness.CheckBincodeDecoders(codec, want, "", err, reused)
	case c.Result == "invalid" && hasValue && c.Error != nil:
		v, err := harness.FromJSONValue(codec, c.Value)
		if err != nil {
			// A value the Go type cannot hold (300 for a uint8): the JSON mapping's
			// error, kind and path.
			return harness.CheckError(err, *c.Error)
		}
		got, err := harness.EncodeBincode(v)
		if err == nil {
			return fmt.Errorf("encoded an invalid value to %s", harness.ToHex(got))
		}
		return harness.CheckError(err, *c.Error)
	case c.Result == "acceptable" && c.Bytes != nil:
		decoded, err := harness.DecodeBincodeJSON(codec.New(), want)
		return harness.CheckBincodeDecoders(codec, want, decoded, err, reused)
	}
	return fmt.Errorf("malformed case (result %q)", c.Result)
}

// decodes checks the decoding half of a valid or decodes case: the bytes decode
// (every way) to the case's value as the type's JSON mapping prints it, and the
// decoded value re-encodes to exactly the bytes (Go keeps a NaN's payload, so a
// "decodes" case's bytes come back too, though its JSON value cannot hold them).
func (rn *bincodeRunner) decodes(codec harness.BincodeCodec, c vectorCase, want []byte, reused harness.BincodeValue) error {
	norm, err := harness.Normalize(harness.Codec{New: func() harness.Value { return codec.New() }}, c.Value)
	if err != nil {
		return fmt.Errorf("normalize failed: %w", err)
	}
	v := codec.New()
	decoded, err := harness.DecodeBincodeJSON(v, want)
	if err != nil {
		return fmt.Errorf("decode failed: %w", err)
	}
	if decoded != norm {
		return fmt.Errorf("decoded %s, expected %s", decoded, norm)
	}
	if err := harness.CheckBincodeDecoders(codec, want, decoded, nil, reused); err != nil {
		return err
	}
	again, err := harness.EncodeBincode(v)
	if err != nil || !bytes.Equal(again, want) {
		return fmt.Errorf("decode → encode gave %s (%v), expected %s", harness.ToHex(again), err, *c.Bytes)
	}
	return nil
}

// bincodeVectorDir is where the bincode suites are.
var bincodeVectorDir = filepath.Join("..", "..", "testdata", "vectors", "bincode")

func TestEveryBincodeVectorSuite(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(bincodeVectorDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no bincode vector suites found: %v", err)
	}
	sort.Strings(files)
	tally := newVectorTally(t)
	rn := &bincodeRunner{codecs: registry.Bincode(), reused: map[string]harness.BincodeValue{}}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var s bincodeSuite
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if s.Encoding != "bincode" {
			t.Fatalf("%s: encoding %q, want \"bincode\"", file, s.Encoding)
		}
		for _, c := range s.Cases {
			tally.record(t, c.ID, harness.Guard(func() error { return rn.run(s.Suite, c) }))
		}
	}
	tally.report(t, "vectors bincode", false)
}
