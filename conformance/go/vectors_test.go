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

// suiteFile is a vector file (testdata/vectors/README.md).
type suiteFile struct {
	Suite string       `json:"suite"`
	Cases []vectorCase `json:"cases"`
}

type vectorCase struct {
	ID      string            `json:"id"`
	Type    string            `json:"type"`
	Value   json.RawMessage   `json:"value"`
	Text    *string           `json:"text"`
	TextHex *string           `json:"text_hex"`
	Bytes   *string           `json:"bytes"`
	Result  string            `json:"result"`
	Error   *harness.Expected `json:"error"`
}

// text is the JSON text of a text case (text, or text_hex for bytes that are not
// UTF-8), or nil.
func (c vectorCase) text() ([]byte, error) {
	switch {
	case c.Text != nil:
		return []byte(*c.Text), nil
	case c.TextHex != nil:
		return harness.Hex(*c.TextHex)
	}
	return nil, nil
}

// runText runs a text case: bitwire.ParseJSON, FromJSON, AppendTo.
func runText(codec harness.Codec, c vectorCase, text []byte, want []byte) error {
	got, err := harness.Encode(codec, text)
	switch {
	case c.Result == "encodes" && c.Bytes != nil:
		if err != nil {
			return fmt.Errorf("failed: %w", err)
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("encoded %s, expected %s", harness.ToHex(got), *c.Bytes)
		}
		if len(c.Value) == 0 {
			return nil
		}
		norm, err := harness.Normalize(codec, text)
		if err != nil {
			return err
		}
		wantNorm, err := harness.Normalize(codec, c.Value)
		if err != nil || norm != wantNorm {
			return fmt.Errorf("the text maps to %s, expected %s (%v)", norm, wantNorm, err)
		}
		return nil
	case c.Result == "invalid" && c.Error != nil:
		if err == nil {
			return fmt.Errorf("encoded invalid text to %s", harness.ToHex(got))
		}
		return harness.CheckError(err, *c.Error)
	}
	return fmt.Errorf("malformed text case (result %q)", c.Result)
}

// runner runs cases; reused holds one value per type that every valid case of
// that type is also decoded into, so decoding over stale contents (capacity reuse)
// is tested on every suite.
type runner struct {
	codecs []harness.Codec
	reused map[string]harness.Value
}

// run runs one case of suite through the generated code.
func (rn *runner) run(suite string, c vectorCase) error {
	codec, ok := harness.Find(rn.codecs, suite, c.Type)
	if !ok {
		return fmt.Errorf("no generated type %s.%s", suite, c.Type)
	}
	var want []byte
	if c.Bytes != nil {
		b, err := harness.Hex(*c.Bytes)
		if err != nil {
			return fmt.Errorf("bad hex: %w", err)
		}
		want = b
	}
	text, err := c.text()
	if err != nil {
		return fmt.Errorf("bad text_hex: %w", err)
	}
	if text != nil {
		return runText(codec, c, text, want)
	}
	hasValue := len(c.Value) > 0
	switch {
	case (c.Result == "valid" || c.Result == "encodes") && hasValue && c.Bytes != nil:
		got, err := harness.Encode(codec, c.Value)
		if err != nil {
			return fmt.Errorf("encode failed: %w", err)
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("encoded %s, expected %s", harness.ToHex(got), *c.Bytes)
		}
		if c.Result == "encodes" {
			return nil
		}
		norm, err := harness.Normalize(codec, c.Value)
		if err != nil {
			return fmt.Errorf("normalize failed: %w", err)
		}
		decoded, err := harness.DecodeInto(codec.New(), want)
		if err != nil {
			return fmt.Errorf("decode failed: %w", err)
		}
		if err := codec.Verify(want); err != nil {
			return fmt.Errorf("Verify rejected valid bytes: %w", err)
		}
		if decoded != norm {
			return fmt.Errorf("decoded %s, expected %s", decoded, norm)
		}
		if err := harness.CheckUnmarshalBinary(codec, want, decoded, nil); err != nil {
			return err
		}
		key := suite + "." + c.Type
		if rn.reused[key] == nil {
			rn.reused[key] = codec.New()
		}
		again, err := harness.DecodeInto(rn.reused[key], want)
		if err != nil || again != norm {
			return fmt.Errorf("decoding into a reused value gave %s, %v", again, err)
		}
		return nil
	case c.Result == "invalid" && c.Bytes != nil && c.Error != nil:
		v, err := harness.DecodeInto(codec.New(), want)
		if err == nil {
			return fmt.Errorf("decoded %s from invalid input", v)
		}
		if err := harness.CheckError(err, *c.Error); err != nil {
			return err
		}
		if err := harness.CheckError(codec.Verify(want), *c.Error); err != nil {
			return fmt.Errorf("Verify: %w", err)
		}
		if err := harness.CheckUnmarshalBinary(codec, want, "", err); err != nil {
			return err
		}
		return harness.CheckVerify(codec.Verify, want, err)
	case c.Result == "invalid" && hasValue && c.Error != nil:
		got, err := harness.Encode(codec, c.Value)
		if err == nil {
			return fmt.Errorf("encoded an invalid value to %s", harness.ToHex(got))
		}
		return harness.CheckError(err, *c.Error)
	case c.Result == "acceptable" && c.Bytes != nil:
		decoded, err := harness.DecodeInto(codec.New(), want)
		if err := harness.CheckUnmarshalBinary(codec, want, decoded, err); err != nil {
			return err
		}
		return harness.CheckVerify(codec.Verify, want, err)
	}
	return fmt.Errorf("malformed case (result %q)", c.Result)
}

func TestEveryVectorSuite(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "vectors", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vector suites found: %v", err)
	}
	sort.Strings(files)
	tally := newVectorTally(t)
	rn := &runner{codecs: registry.All(), reused: map[string]harness.Value{}}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var s suiteFile
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, c := range s.Cases {
			tally.record(t, c.ID, harness.Guard(func() error { return rn.run(s.Suite, c) }))
		}
	}
	tally.report(t, "vectors", true)
}

// vectorTally counts vector cases against known-failures.txt, the same way for every
// vector runner: a listed case must fail, an unlisted one pass, and ids are unique.
type vectorTally struct {
	known, seen    map[string]bool
	passed, failed int
	problems       []string
}

func newVectorTally(t *testing.T) *vectorTally {
	text, err := os.ReadFile("known-failures.txt")
	if err != nil {
		t.Fatal(err)
	}
	return &vectorTally{known: harness.KnownFailures(string(text)), seen: map[string]bool{}}
}

// record counts case id's outcome: err is what running it returned.
func (v *vectorTally) record(t *testing.T, id string, err error) {
	if v.seen[id] {
		v.problems = append(v.problems, id+": duplicate case id")
	}
	v.seen[id] = true
	switch {
	case err == nil && !v.known[id]:
		v.passed++
	case err == nil:
		v.passed++
		v.problems = append(v.problems, id+": listed in known-failures.txt but passes")
	case v.known[id]:
		v.failed++
		t.Logf("known failure %s: %v", id, err)
	default:
		v.failed++
		v.problems = append(v.problems, fmt.Sprintf("%s: %v", id, err))
	}
}

// report prints the `label: N passed, M failed` line ./run test counts and fails the
// test on every problem; with allKnown, also on listed ids no case had.
func (v *vectorTally) report(t *testing.T, label string, allKnown bool) {
	if allKnown {
		for id := range v.known {
			if !v.seen[id] {
				v.problems = append(v.problems, id+": listed in known-failures.txt but no such case")
			}
		}
	}
	fmt.Printf("%s: %d passed, %d failed\n", label, v.passed, v.failed)
	sort.Strings(v.problems)
	for _, p := range v.problems {
		t.Error(p)
	}
}
