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
// codec's decode outcome (adversarial inputs also say what was built); or, with a
// baseline, a delta line (diff_delta_test.go): a value with its delta against the
// baseline, a hostile delta with the outcome, or a value the encoder rejects.
type corpusLine struct {
	Suite    string          `json:"suite"`
	Type     string          `json:"type"`
	Value    json.RawMessage `json:"value"`
	Bytes    *string         `json:"bytes"`
	Baseline json.RawMessage `json:"baseline"`
	Delta    *string         `json:"delta"`
	Input    *string         `json:"input"`
	Outcome  *struct {
		Value json.RawMessage   `json:"value"`
		Error *harness.Expected `json:"error"`
	} `json:"outcome"`
	Adversarial *string `json:"adversarial"`
}

// problem is a corpus line the generated Go code disagrees with: the check that
// failed (encode, roundtrip, decode, verify, panic, missing), what the code got (in
// the outcome-record form of conformance/rust/src/outcome.rs) and why.
type problem struct {
	Check  string
	Got    any
	Detail string
}

func (p *problem) Error() string { return p.Check + ": " + p.Detail }

// errorGot is the outcome-record form of an error.
func errorGot(err error) any {
	if o, ok := harness.Observe(err); ok {
		return map[string]any{"error": o}
	}
	return map[string]any{"panic": err.Error()}
}

// decodedGot decodes b into a new value: the outcome-record form and the JSON text.
func decodedGot(codec harness.Codec, b []byte) (any, string, error) {
	text, err := harness.DecodeInto(codec.New(), b)
	if err != nil {
		return errorGot(err), "", err
	}
	return map[string]any{"value": json.RawMessage(text)}, text, nil
}

// sameValue reports whether decoded JSON text is the reference's value: equal after
// the Go type's JSON mapping reads and prints the reference (so 5.0 and 5 agree),
// and structurally equal to the reference's canonical JSON.
func sameValue(codec harness.Codec, decoded string, want json.RawMessage) bool {
	norm, err := harness.Normalize(codec, want)
	return err == nil && decoded == norm && harness.JSONEqual([]byte(decoded), want)
}

// checkValue checks a value line: the value encodes to exactly the reference
// bytes, Verify accepts them and they decode back to the value.
func checkValue(codec harness.Codec, value json.RawMessage, hexBytes string) *problem {
	want, err := harness.Hex(hexBytes)
	if err != nil {
		return &problem{"encode", nil, err.Error()}
	}
	got, err := harness.Encode(codec, value)
	if err != nil {
		return &problem{"encode", errorGot(err), fmt.Sprintf("encode failed: %v", err)}
	}
	if !bytes.Equal(got, want) {
		return &problem{"encode", map[string]any{"bytes": harness.ToHex(got)}, fmt.Sprintf("encoded %s, reference %s", harness.ToHex(got), hexBytes)}
	}
	if err := codec.Verify(want); err != nil {
		return &problem{"verify", errorGot(err), fmt.Sprintf("Verify rejected the reference encoding: %v", err)}
	}
	g, text, err := decodedGot(codec, want)
	if err != nil || !sameValue(codec, text, value) {
		return &problem{"roundtrip", g, fmt.Sprintf("decoded %s (%v), reference %s", text, err, value)}
	}
	return nil
}

// checkInput checks an input line: decoding gives the reference's value or error
// (kind, bit and path), and Verify agrees.
func checkInput(codec harness.Codec, l corpusLine) *problem {
	in, err := harness.Hex(*l.Input)
	if err != nil {
		return &problem{"decode", nil, err.Error()}
	}
	g, text, decodeErr := decodedGot(codec, in)
	if want := l.Outcome.Error; want != nil {
		if decodeErr == nil {
			return &problem{"decode", g, fmt.Sprintf("decoded %s, reference fails with %v", text, *want)}
		}
		if err := harness.CheckError(decodeErr, *want); err != nil {
			return &problem{"decode", g, err.Error()}
		}
		if err := harness.CheckError(codec.Verify(in), *want); err != nil {
			return &problem{"verify", errorGot(codec.Verify(in)), fmt.Sprintf("Verify: %v", err)}
		}
		return nil
	}
	if decodeErr != nil || !sameValue(codec, text, l.Outcome.Value) {
		return &problem{"decode", g, fmt.Sprintf("decoded %s (%v), reference %s", text, decodeErr, l.Outcome.Value)}
	}
	if err := codec.Verify(in); err != nil {
		return &problem{"verify", errorGot(err), fmt.Sprintf("Verify rejected what the reference decodes: %v", err)}
	}
	return nil
}

// checkLine runs one corpus line through the generated Go code; a panic is a problem.
func checkLine(codecs []harness.Codec, deltas []harness.DeltaCodec, l corpusLine) *problem {
	codec, ok := harness.Find(codecs, l.Suite, l.Type)
	if !ok {
		return &problem{"missing", nil, fmt.Sprintf("no generated type %s.%s", l.Suite, l.Type)}
	}
	var p *problem
	err := harness.Guard(func() error {
		switch {
		case len(l.Baseline) > 0:
			p = checkDeltaLine(codec, deltas, l)
		case len(l.Value) > 0 && l.Bytes != nil:
			p = checkValue(codec, l.Value, *l.Bytes)
		case l.Input != nil && l.Outcome != nil:
			p = checkInput(codec, l)
		default:
			p = &problem{"decode", nil, "malformed line"}
		}
		return nil
	})
	if err != nil {
		return &problem{"panic", map[string]any{"panic": err.Error()}, err.Error()}
	}
	return p
}

// decodeAllocated returns the bytes the Go heap allocated while decoding b (an
// adversarial input), from runtime.MemStats: what a decode budget will bound.
func decodeAllocated(codecs []harness.Codec, l corpusLine) uint64 {
	codec, ok := harness.Find(codecs, l.Suite, l.Type)
	in, err := harness.Hex(*l.Input)
	if !ok || err != nil {
		return 0
	}
	v := codec.New()
	return allocated(func() { _ = harness.Guard(func() error { return v.Decode(in) }) })
}

// outcomes writes the outcome file of conformance/rust/src/outcome.rs when
// $BITWIRE_DIFF_OUTCOMES names one.
type outcomes struct {
	w *bufio.Writer
	f *os.File
}

func openOutcomes(t *testing.T) *outcomes {
	path := os.Getenv("BITWIRE_DIFF_OUTCOMES")
	if path == "" {
		return &outcomes{}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	return &outcomes{bufio.NewWriter(f), f}
}

func (o *outcomes) write(record map[string]any) {
	if o.w == nil {
		return
	}
	b, err := json.Marshal(record)
	if err != nil {
		b, _ = json.Marshal(map[string]any{"line": record["line"], "check": "panic", "problem": err.Error()})
	}
	o.w.Write(append(b, '\n'))
}

func (o *outcomes) close(passed, failed int) {
	if o.w == nil {
		return
	}
	o.write(map[string]any{"summary": map[string]any{"runner": "go", "passed": passed, "failed": failed}})
	o.w.Flush()
	o.f.Close()
}

// TestDifferentialCorpus runs the JSON-lines corpus in $BITWIRE_DIFF_CORPUS (made
// from the Rust reference codec) through the generated Go code: same bytes, same
// values, same errors (kind, bit and path). With $BITWIRE_DIFF_OUTCOMES it also
// writes what it got wherever it disagrees.
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
	out := openOutcomes(t)
	codecs, deltas := registry.All(), registry.Deltas()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	// Full-encoding lines and delta lines ([0] and [1]) are counted apart.
	var passed, failed [2]int
	n := 0
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
		kind := 0
		if len(l.Baseline) > 0 {
			kind = 1
		}
		if p := checkLine(codecs, deltas, l); p != nil {
			failed[kind]++
			if failed[0]+failed[1] <= 50 {
				t.Errorf("%s:%d (%s.%s): %v", path, n, l.Suite, l.Type, p)
			}
			out.write(map[string]any{"line": n, "suite": l.Suite, "type": l.Type, "check": p.Check, "got": p.Got, "problem": p.Detail})
		} else {
			passed[kind]++
		}
		if l.Adversarial != nil && l.Input != nil && out.w != nil {
			out.write(map[string]any{"line": n, "suite": l.Suite, "type": l.Type,
				"measure": map[string]any{"input_bytes": len(*l.Input) / 2, "alloc_bytes": decodeAllocated(codecs, l)}})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	out.close(passed[0]+passed[1], failed[0]+failed[1])
	fmt.Printf("differential corpus %s: %d passed, %d failed\n", path, passed[0], failed[0])
	fmt.Printf("differential corpus deltas %s: %d passed, %d failed\n", path, passed[1], failed[1])
}
