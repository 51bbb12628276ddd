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

// checkBincodeValue checks a bincode value line: the value encodes to exactly the
// reference bytes, and every decoder and verifier takes them back to the value.
func checkBincodeValue(codec harness.BincodeCodec, l corpusLine, reused harness.BincodeValue) *problem {
	want, err := harness.Hex(*l.Bytes)
	if err != nil {
		return &problem{"encode", nil, err.Error()}
	}
	v, err := harness.FromJSONValue(codec, l.Value)
	if err != nil {
		return &problem{"encode", errorGot(err), fmt.Sprintf("mapping the value failed: %v", err)}
	}
	got, err := harness.EncodeBincode(v)
	if err != nil {
		return &problem{"encode", errorGot(err), fmt.Sprintf("encode failed: %v", err)}
	}
	if !bytes.Equal(got, want) {
		return &problem{"encode", map[string]any{"bytes": harness.ToHex(got)}, fmt.Sprintf("encoded %s, reference %s", harness.ToHex(got), *l.Bytes)}
	}
	text, err := harness.DecodeBincodeJSON(codec.New(), want)
	norm, nerr := harness.Normalize(harness.Codec{New: func() harness.Value { return codec.New() }}, l.Value)
	if err != nil || nerr != nil || text != norm {
		return &problem{"roundtrip", nil, fmt.Sprintf("decoded %s (%v), reference %s", text, err, l.Value)}
	}
	if err := harness.CheckBincodeDecoders(codec, want, text, nil, reused); err != nil {
		return &problem{"decode", nil, err.Error()}
	}
	return nil
}

// checkBincodeInput checks a bincode input line: decoding gives the reference's
// value or error (kind, bit and path), and every other decoder and verifier agrees.
func checkBincodeInput(codec harness.BincodeCodec, l corpusLine, reused harness.BincodeValue) *problem {
	in, err := harness.Hex(*l.Input)
	if err != nil {
		return &problem{"decode", nil, err.Error()}
	}
	text, decodeErr := harness.DecodeBincodeJSON(codec.New(), in)
	if want := l.Outcome.Error; want != nil {
		if decodeErr == nil {
			return &problem{"decode", nil, fmt.Sprintf("decoded %s, reference fails with %v", text, *want)}
		}
		if err := harness.CheckError(decodeErr, *want); err != nil {
			return &problem{"decode", errorGot(decodeErr), err.Error()}
		}
	} else {
		norm, nerr := harness.Normalize(harness.Codec{New: func() harness.Value { return codec.New() }}, l.Outcome.Value)
		if decodeErr != nil || nerr != nil || text != norm {
			return &problem{"decode", nil, fmt.Sprintf("decoded %s (%v), reference %s", text, decodeErr, l.Outcome.Value)}
		}
	}
	if err := harness.CheckBincodeDecoders(codec, in, text, decodeErr, reused); err != nil {
		return &problem{"verify", nil, err.Error()}
	}
	return nil
}

// TestBincodeDifferentialCorpus runs the bincode corpus in
// $BITWIRE_DIFF_BINCODE_CORPUS (`diffcorpus --bincode`, from the Rust reference
// codec) through the generated Go bincode code: same bytes, same values, same
// errors (kind, bit and path), every decoder and verifier agreeing.
func TestBincodeDifferentialCorpus(t *testing.T) {
	path := os.Getenv("BITWIRE_DIFF_BINCODE_CORPUS")
	if path == "" {
		t.Skip("BITWIRE_DIFF_BINCODE_CORPUS not set")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	codecs := registry.Bincode()
	reused := map[string]harness.BincodeValue{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	passed, failed, n := 0, 0, 0
	for sc.Scan() {
		n++
		text := bytes.TrimSpace(sc.Bytes())
		var l corpusLine
		if len(text) == 0 {
			continue
		}
		if err := json.Unmarshal(text, &l); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		if l.Suite == "" {
			t.Logf("corpus header: %s", text)
			continue
		}
		var p *problem
		codec, ok := harness.FindBincode(codecs, l.Suite, l.Type)
		key := l.Suite + "." + l.Type
		if ok && reused[key] == nil {
			reused[key] = codec.New()
		}
		err := harness.Guard(func() error {
			switch {
			case !ok:
				p = &problem{"missing", nil, "no generated bincode type " + key}
			case len(l.Value) > 0 && l.Bytes != nil:
				p = checkBincodeValue(codec, l, reused[key])
			case l.Input != nil && l.Outcome != nil:
				p = checkBincodeInput(codec, l, reused[key])
			default:
				p = &problem{"decode", nil, "malformed line"}
			}
			return nil
		})
		if err != nil {
			p = &problem{"panic", nil, err.Error()}
		}
		if p != nil {
			failed++
			if failed <= 50 {
				t.Errorf("%s:%d (%s): %v", path, n, key, p)
			}
		} else {
			passed++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("differential corpus bincode %s: %d passed, %d failed\n", path, passed, failed)
}
