package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/registry"
	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
)

// corpusLine is one line of a differential corpus (README.md): either a value with
// the bytes the reference codec encodes it to, or an input with the reference
// codec's decode outcome.
type corpusLine struct {
	Suite   string          `json:"suite"`
	Type    string          `json:"type"`
	Value   json.RawMessage `json:"value"`
	Bytes   *string         `json:"bytes"`
	Input   *string         `json:"input"`
	Outcome *struct {
		Value json.RawMessage   `json:"value"`
		Error *harness.Expected `json:"error"`
	} `json:"outcome"`
}

// checkLine runs one corpus line through the generated Go code.
func checkLine(codecs []harness.Codec, l corpusLine) error {
	codec, ok := harness.Find(codecs, l.Suite, l.Type)
	if !ok {
		return fmt.Errorf("no generated type %s.%s", l.Suite, l.Type)
	}
	switch {
	case len(l.Value) > 0 && l.Bytes != nil:
		want, err := harness.Hex(*l.Bytes)
		if err != nil {
			return err
		}
		got, err := harness.Encode(codec, l.Value)
		if err != nil {
			return fmt.Errorf("encode failed: %w", err)
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("encoded %s, reference %s", harness.ToHex(got), *l.Bytes)
		}
		if err := codec.Verify(want); err != nil {
			return fmt.Errorf("Verify rejected the reference encoding: %w", err)
		}
		return decodesTo(codec, want, l.Value)
	case l.Input != nil && l.Outcome != nil:
		in, err := harness.Hex(*l.Input)
		if err != nil {
			return err
		}
		if l.Outcome.Error != nil {
			v, err := harness.DecodeInto(codec.New(), in)
			if err == nil {
				return fmt.Errorf("decoded %s, reference fails with %v", v, *l.Outcome.Error)
			}
			if err := harness.CheckError(codec.Verify(in), *l.Outcome.Error); err != nil {
				return fmt.Errorf("Verify: %w", err)
			}
			return harness.CheckError(err, *l.Outcome.Error)
		}
		if err := codec.Verify(in); err != nil {
			return fmt.Errorf("Verify rejected what the reference decodes: %w", err)
		}
		return decodesTo(codec, in, l.Outcome.Value)
	}
	return fmt.Errorf("malformed line")
}

// decodesTo checks that b decodes to the JSON value want.
func decodesTo(codec harness.Codec, b []byte, want json.RawMessage) error {
	norm, err := harness.Normalize(codec, want)
	if err != nil {
		return fmt.Errorf("reference value does not map onto the Go type: %w", err)
	}
	got, err := harness.DecodeInto(codec.New(), b)
	if err != nil {
		return fmt.Errorf("decode failed: %w", err)
	}
	if got != norm {
		return fmt.Errorf("decoded %s, reference %s", got, norm)
	}
	return nil
}

// TestDifferentialCorpus runs the JSON-lines corpus in $BITWIRE_DIFF_CORPUS (made
// from the Rust reference codec) through the generated Go code: same bytes, same
// values, same errors (kind, bit and path).
func TestDifferentialCorpus(t *testing.T) {
	path := os.Getenv("BITWIRE_DIFF_CORPUS")
	if path == "" {
		t.Skip("BITWIRE_DIFF_CORPUS not set")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	codecs := registry.All()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	passed, failed, n := 0, 0, 0
	for sc.Scan() {
		n++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var l corpusLine
		if err := json.Unmarshal(text, &l); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		if l.Suite == "" {
			// The header line: {"seed": N, "cases": N}, printed so a failure can be rerun.
			t.Logf("corpus header: %s", text)
			continue
		}
		if err := harness.Guard(func() error { return checkLine(codecs, l) }); err != nil {
			failed++
			if failed <= 50 {
				t.Errorf("%s:%d (%s.%s): %v", path, n, l.Suite, l.Type, err)
			}
			continue
		}
		passed++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("differential corpus %s: %d passed, %d failed\n", path, passed, failed)
}
