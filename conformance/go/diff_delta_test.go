package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
)

// The delta lines of the differential corpus (README.md, spec §12): lines with a
// baseline, checked with the generated AppendDelta, DecodeDelta and VerifyXDelta of
// the delta message.

// findDelta returns the delta codec of suite.typ.
func findDelta(deltas []harness.DeltaCodec, suite, typ string) (harness.DeltaCodec, bool) {
	for _, d := range deltas {
		if d.Suite == suite && d.Type == typ {
			return d, true
		}
	}
	return harness.DeltaCodec{}, false
}

// checkDeltaLine checks a delta line: a pair with its delta, a hostile delta with the
// reference's outcome, or a pair the encoder rejects.
func checkDeltaLine(codec harness.Codec, deltas []harness.DeltaCodec, l corpusLine) *problem {
	dc, ok := findDelta(deltas, l.Suite, l.Type)
	if !ok {
		return &problem{"missing", nil, fmt.Sprintf("no generated delta message %s.%s", l.Suite, l.Type)}
	}
	base, err := fromJSON(codec, l.Baseline)
	if err != nil {
		return &problem{"baseline", errorGot(err), fmt.Sprintf("the baseline does not map: %v", err)}
	}
	switch {
	case len(l.Value) > 0 && l.Delta != nil:
		return checkDeltaPair(codec, dc, base, l.Value, *l.Delta)
	case l.Input != nil && l.Outcome != nil:
		return checkDeltaInput(codec, dc, base, *l.Input, l.Outcome.Value, l.Outcome.Error)
	case len(l.Value) > 0 && l.Outcome != nil && l.Outcome.Error != nil:
		return checkDeltaEncodeError(codec, dc, base, l.Value, *l.Outcome.Error)
	}
	return &problem{"decode", nil, "malformed delta line"}
}

// checkDeltaPair: the value encodes against the baseline to exactly the reference
// delta (appended after what a slice holds), Verify accepts it, and it decodes
// against the baseline to the value.
func checkDeltaPair(codec harness.Codec, dc harness.DeltaCodec, base harness.Value, value json.RawMessage, hexDelta string) *problem {
	want, err := harness.Hex(hexDelta)
	if err != nil {
		return &problem{"encode", nil, err.Error()}
	}
	v, err := fromJSON(codec, value)
	if err != nil {
		return &problem{"encode", errorGot(err), fmt.Sprintf("the value does not map: %v", err)}
	}
	got, err := dc.AppendDelta(v, base, []byte{0xAA, 0xBB})
	if err != nil {
		return &problem{"encode", errorGot(err), fmt.Sprintf("AppendDelta failed: %v", err)}
	}
	if len(got) < 2 || got[0] != 0xAA || got[1] != 0xBB || !bytes.Equal(got[2:], want) {
		return &problem{"encode", map[string]any{"bytes": harness.ToHex(got)},
			fmt.Sprintf("AppendDelta gave %s after aabb, reference %s", harness.ToHex(got), hexDelta)}
	}
	if err := dc.Verify(base, want); err != nil {
		return &problem{"verify", errorGot(err), fmt.Sprintf("VerifyDelta rejected the reference delta: %v", err)}
	}
	g, text, err := decodedDelta(codec, dc, base, want)
	if err != nil || !sameValue(codec, text, value) {
		return &problem{"roundtrip", g, fmt.Sprintf("decoded %s (%v), reference %s", text, err, value)}
	}
	return nil
}

// checkDeltaInput: decoding the input against the baseline gives the reference's
// value or error (kind, bit and path), and VerifyDelta agrees.
func checkDeltaInput(codec harness.Codec, dc harness.DeltaCodec, base harness.Value, hexInput string, wantValue json.RawMessage, wantErr *harness.Expected) *problem {
	in, err := harness.Hex(hexInput)
	if err != nil {
		return &problem{"decode", nil, err.Error()}
	}
	g, text, decodeErr := decodedDelta(codec, dc, base, in)
	verifyErr := dc.Verify(base, in)
	if wantErr != nil {
		if decodeErr == nil {
			return &problem{"decode", g, fmt.Sprintf("decoded %s to %s, reference fails with %v", hexInput, text, *wantErr)}
		}
		if err := harness.CheckError(decodeErr, *wantErr); err != nil {
			return &problem{"decode", g, err.Error()}
		}
		if err := harness.CheckError(verifyErr, *wantErr); err != nil {
			return &problem{"verify", errorGot(verifyErr), fmt.Sprintf("VerifyDelta: %v", err)}
		}
		return nil
	}
	if decodeErr != nil || !sameValue(codec, text, wantValue) {
		return &problem{"decode", g, fmt.Sprintf("decoded %s to %s (%v), reference %s", hexInput, text, decodeErr, wantValue)}
	}
	if verifyErr != nil {
		return &problem{"verify", errorGot(verifyErr), fmt.Sprintf("VerifyDelta rejected what the reference decodes: %v", verifyErr)}
	}
	return nil
}

// checkDeltaEncodeError: AppendDelta fails with the reference's kind and path and
// leaves the caller's buffer as it was.
func checkDeltaEncodeError(codec harness.Codec, dc harness.DeltaCodec, base harness.Value, value json.RawMessage, want harness.Expected) *problem {
	v, err := fromJSON(codec, value)
	if err != nil {
		return &problem{"encode", errorGot(err), fmt.Sprintf("the value does not map: %v", err)}
	}
	out, err := dc.AppendDelta(v, base, []byte{0xAA})
	if err == nil {
		return &problem{"encode", map[string]any{"bytes": harness.ToHex(out[1:])},
			fmt.Sprintf("AppendDelta gave %s, reference fails with %v", harness.ToHex(out[1:]), want)}
	}
	if len(out) != 1 || out[0] != 0xAA {
		return &problem{"encode", errorGot(err), fmt.Sprintf("a failed AppendDelta changed the buffer to % x", out)}
	}
	if err := harness.CheckError(err, want); err != nil {
		return &problem{"encode", errorGot(err), err.Error()}
	}
	return nil
}

// decodedDelta decodes the delta b against base into a new value: the
// outcome-record form and the JSON text.
func decodedDelta(codec harness.Codec, dc harness.DeltaCodec, base harness.Value, b []byte) (any, string, error) {
	v := codec.New()
	if err := dc.DecodeDelta(v, base, b); err != nil {
		return errorGot(err), "", err
	}
	text, err := v.AppendJSON(nil)
	if err != nil {
		err = fmt.Errorf("AppendJSON of a decoded value failed: %w", err)
		return errorGot(err), "", err
	}
	return map[string]any{"value": json.RawMessage(text)}, string(text), nil
}
